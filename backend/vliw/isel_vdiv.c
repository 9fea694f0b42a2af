/*
 * isel_vdiv.c - vector division for a VPU without a divider: i32 / and %
 * truncating toward zero, and f32 / correctly rounded, one tile at a
 * time; the results equal C's (interpret mode's) bit for bit.
 *
 * i32: on the magnitudes (u32), an f32 estimate of |a| / |b| scaled down
 * so it never exceeds the quotient, a second estimate from the exact
 * remainder, then one unsigned correction step; the signs last (so
 * INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 is 0).  A divisor known
 * at compile time folds its reciprocal, and a power of two takes a
 * shift.  A divisor of zero gives an undefined value (interpret mode
 * reports it).
 * f32: the significands (denormals normalised by an exact product)
 * divide to a 26-bit integer quotient, again an underestimate from the
 * EUP reciprocal plus two exact integer corrections, then rounding to
 * nearest even into a normal, denormal, zero or infinity.  Zeros,
 * infinities and NaNs take the EUP's x * (1 / y) on +-1 stand-ins, which
 * gives IEEE's results (and the host's NaNs) for them; a divisor that is
 * a constant power of two multiplies by its reciprocal (as exact).
 * About 40 VALU ops per i32 tile, 95 and two EUP pushes per f32 tile.
 */
#include "backend/vliw/isel.h"

#define MSB 0x80000000u

static int
vop(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, op, d, a, b, 0);
	return d;
}

static int
vk(Isel *I, int op, int a, uint32_t k)
{
	return vop(I, op, a, isel_vimm(I, k));
}

static int
vmask(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_M);

	add(I, op, d, a, b, 0);
	return d;
}

static int
vsel(Isel *I, int m, int a, int b)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, OP_VSEL, d, a, b, m);
	return d;
}

static int
vrcp(Isel *I, int a)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, OP_ERCP, 0, a, 0, 0);
	add(I, OP_EPOP, d, 0, 0, 0);
	return d;
}

/* u32 a >= b. */
static int
uge(Isel *I, int a, int b)
{
	return vmask(I, OP_VCMPGEI, vk(I, OP_VXOR, a, MSB), vk(I, OP_VXOR, b,
	    MSB));
}

/* u32 r as f32 (within an ulp: the f32 steps only need so much). */
static int
u2f(Isel *I, int r)
{
	int f = vop(I, OP_VCVTIF, r, 0);

	return vsel(I, vmask(I, OP_VCMPLTI, r, isel_vimm(I, 0)),
	    vk(I, OP_VADDF, f, f32_bits(4294967296.0)), f);
}

/* ------------------------------------------------------------ i32 */

/* The divisor of one tile: u32 magnitude ub, sign mask sb, and rk, an
   f32 a little below 1 / ub. */
typedef struct IDiv {
	int ub, sb, rk;
} IDiv;

/* (1 - 2^-21): the estimates' scale, below every rounding they take. */
#define SHRINK 0.99999952316284180

static void
idiv_reg(Isel *I, int b, IDiv *d)
{
	int fb = vop(I, OP_VABSF, vop(I, OP_VCVTIF, b, 0), 0);

	d->sb = vk(I, OP_VSRA, b, 31);
	d->ub = vop(I, OP_VSUBI, vop(I, OP_VXOR, b, d->sb), d->sb);
	d->rk = vk(I, OP_VMULF, vrcp(I, fb), f32_bits(SHRINK));
}

static void
idiv_const(Isel *I, int64_t c, IDiv *d)
{
	uint32_t u = c < 0 ? 0u - (uint32_t)c : (uint32_t)c;
	float r = 1.0f / (float)u, s = (float)SHRINK;

	d->sb = isel_vimm(I, c < 0 ? 0xffffffffu : 0);
	d->ub = isel_vimm(I, u);
	d->rk = isel_vimm(I, f32_bits((double)(r * s)));
}

/*
 * q = |a| / ub, r = |a| % ub as u32.  The first estimate is at most
 * 2^31 * 2^-20 + 1 below the quotient, the second at most one: each
 * product in f32 rounds at most 5 times by 2^-24, less than SHRINK.
 */
static void
udiv(Isel *I, int ua, int fa, const IDiv *d, int *qo, int *ro)
{
	int q = vop(I, OP_VCVTFI, vop(I, OP_VMULF, fa, d->rk), 0);
	int r = vop(I, OP_VSUBI, ua, vop(I, OP_VMULI, q, d->ub)), t, m;

	t = vop(I, OP_VCVTFI, vop(I, OP_VMULF, u2f(I, r), d->rk), 0);
	q = vop(I, OP_VADDI, q, t);
	r = vop(I, OP_VSUBI, r, vop(I, OP_VMULI, t, d->ub));
	m = uge(I, r, d->ub);
	*qo = vsel(I, m, vk(I, OP_VADDI, q, 1), q);
	*ro = vsel(I, m, vop(I, OP_VSUBI, r, d->ub), r);
}

/* a / 2^k or a % 2^k, k in 0..30. */
static int
ipow2(Isel *I, int a, int k, int rem)
{
	int bias, q;

	if (k == 0)
		return rem ? isel_vimm(I, 0) : a;
	bias = vk(I, OP_VSHR, vk(I, OP_VSRA, a, 31), (uint32_t)(32 - k));
	q = vk(I, OP_VSRA, vop(I, OP_VADDI, a, bias), (uint32_t)k);
	if (rem)
		return vop(I, OP_VSUBI, a, vk(I, OP_VSHL, q, (uint32_t)k));
	return q;
}

/* 1: vector r is a splat of an i32 constant, in *c. */
static int
splat_cst(Isel *I, TRef r, int64_t *c)
{
	const TVal *t = tv(I, r);
	const TOp *o;

	if (t->def < 0)
		return 0;
	o = &I->tf->op.v[t->def];
	return o->op == TOP_SPLAT && isel_cst(I, o->arg[0], c);
}

/* One tile of i32 a / b (rem: a % b); b's tile is vb, of value divisor. */
int
isel_vdiv_i32(Isel *I, int a, int vb, TRef divisor, int rem)
{
	IDiv d;
	int64_t c;
	int k, sa, ua, q, r;

	if (splat_cst(I, divisor, &c) && c != 0 && c != INT32_MIN) {
		int64_t u = c < 0 ? -c : c;
		if (!(u & (u - 1))) {
			for (k = 0; ((int64_t)1 << k) < u; k++)
				;
			q = ipow2(I, a, k, rem);
			return c > 0 || rem ? q : vop(I, OP_VSUBI,
			    isel_vimm(I, 0), q);
		}
		idiv_const(I, c, &d);
	} else
		idiv_reg(I, vb, &d);
	sa = vk(I, OP_VSRA, a, 31);
	ua = vop(I, OP_VSUBI, vop(I, OP_VXOR, a, sa), sa);
	udiv(I, ua, vop(I, OP_VABSF, vop(I, OP_VCVTIF, a, 0), 0), &d, &q, &r);
	if (rem)		/* the remainder takes the dividend's sign */
		return vop(I, OP_VSUBI, vop(I, OP_VXOR, r, sa), sa);
	sa = vop(I, OP_VXOR, sa, d.sb);
	return vop(I, OP_VSUBI, vop(I, OP_VXOR, q, sa), sa);
}

/* ------------------------------------------------------------ f32 */

/* The significand (24 bits, as an integer) and unbiased exponent of the
   finite nonzero |x| with bits ax. */
static void
unpack(Isel *I, int ax, int *m, int *e)
{
	int den = vmask(I, OP_VCMPLTI, ax, isel_vimm(I, 0x800000u));
	int n = vsel(I, den, vk(I, OP_VMULF, ax, f32_bits(16777216.0)), ax);

	*e = vop(I, OP_VSUBI, vk(I, OP_VSHR, n, 23), vsel(I, den,
	    isel_vimm(I, 24 + 127), isel_vimm(I, 127)));
	*m = vk(I, OP_VOR, vk(I, OP_VAND, n, 0x7fffffu), 0x800000u);
}

/*
 * Q = floor(mx * 2^25 / my) in [2^25, 2^26) for mx in [my, 2 my), and
 * the remainder R.  The estimate is at most 81 below Q, so R fits; the
 * second estimate at most one below.
 */
static void
fquot(Isel *I, int mx, int my, int *qo, int *ro)
{
	int rk = vk(I, OP_VMULF, vrcp(I, vop(I, OP_VCVTIF, my, 0)),
	    f32_bits(1.0 - 1.0 / 1048576));
	int q, r, t, m;

	q = vop(I, OP_VCVTFI, vop(I, OP_VMULF, vop(I, OP_VCVTIF, mx, 0),
	    vk(I, OP_VMULF, rk, f32_bits(33554432.0))), 0);
	r = vop(I, OP_VSUBI, vk(I, OP_VSHL, mx, 25), vop(I, OP_VMULI, q, my));
	t = vop(I, OP_VCVTFI, vop(I, OP_VMULF, vop(I, OP_VCVTIF, r, 0), rk), 0);
	q = vop(I, OP_VADDI, q, t);
	r = vop(I, OP_VSUBI, r, vop(I, OP_VMULI, t, my));
	m = vmask(I, OP_VCMPGEI, r, my);
	*qo = vsel(I, m, vk(I, OP_VADDI, q, 1), q);
	*ro = vsel(I, m, vop(I, OP_VSUBI, r, my), r);
}

/*
 * The bits of |x / y| = Q * 2^(e - 25) (+ R), rounded to nearest even:
 * the significand is Q >> sh, sh = 2 for normal results and up to 31
 * (zero) below; the biased exponent less one is added, so a carry out of
 * the significand steps the exponent (to infinity too).
 */
static int
fround(Isel *I, int q, int r, int e)
{
	int sh, s1, m, rb, st, inc, bits, z = isel_vimm(I, 0);

	sh = vop(I, OP_VSUBI, isel_vimm(I, (uint32_t)-124), e);
	sh = vk(I, OP_VMINI, vk(I, OP_VMAXI, sh, 2), 31);
	s1 = vk(I, OP_VSUBI, sh, 1);
	m = vop(I, OP_VSHR, q, sh);
	rb = vk(I, OP_VAND, vop(I, OP_VSHR, q, s1), 1);
	st = vop(I, OP_VAND, q, vk(I, OP_VSUBI, vop(I, OP_VSHL,
	    isel_vimm(I, 1), s1), 1));
	st = vop(I, OP_VOR, vop(I, OP_VOR, st, r), vk(I, OP_VAND, m, 1));
	inc = vsel(I, vmask(I, OP_VCMPNEI, st, z), rb, z);
	bits = vk(I, OP_VSHL, vk(I, OP_VMAXI, vk(I, OP_VADDI, e, 126), 0), 23);
	bits = vop(I, OP_VADDI, vop(I, OP_VADDI, bits, m), inc);
	return vsel(I, vmask(I, OP_VCMPGTI, e, isel_vimm(I, 127)),
	    isel_vimm(I, 0x7f800000u), bits);
}

/* 0, infinity or NaN: |x| bits ax. */
static int
special(Isel *I, int ax)
{
	int m = llo_new_reg(I->f, LC_M);

	add(I, OP_MOR, m, vmask(I, OP_VCMPEQI, ax, isel_vimm(I, 0)),
	    vmask(I, OP_VCMPGEI, ax, isel_vimm(I, 0x7f800000u)), 0);
	return m;
}

/* x itself when special, else +-1 with x's sign. */
static int
standin(Isel *I, int x, int sp)
{
	return vsel(I, sp, x, vk(I, OP_VOR, vk(I, OP_VAND, x, MSB),
	    0x3f800000u));
}

/* 1: vector r is a splat of 2^k, |k| <= 126, whose reciprocal 2^-k is
   in *rb: then x / r = x * 2^-k exactly, for every x. */
static int
pow2_recip(Isel *I, TRef r, uint32_t *rb)
{
	const TVal *t = tv(I, r);
	const TOp *o;
	const Val *c;
	uint32_t b, e;

	if (t->def < 0)
		return 0;
	o = &I->tf->op.v[t->def];
	if (o->op != TOP_SPLAT || !(c = &I->val[o->arg[0]])->isconst)
		return 0;
	b = f32_bits(c->cf);
	e = b >> 23 & 0xff;
	if ((b & 0x7fffff) || e < 1 || e > 253)
		return 0;
	*rb = (b & MSB) | (254 - e) << 23;
	return 1;
}

/* One tile of f32 x / y, y's tile of value divisor. */
int
isel_vdiv_f32(Isel *I, int x, int y, TRef divisor)
{
	uint32_t rb;
	int ax, ay, mx, my, ex, ey, e, lt, q, r, res, xs, ys, sp;

	if (pow2_recip(I, divisor, &rb))
		return vk(I, OP_VMULF, x, rb);
	ax = vk(I, OP_VAND, x, ~MSB);
	ay = vk(I, OP_VAND, y, ~MSB);
	unpack(I, ax, &mx, &ex);
	unpack(I, ay, &my, &ey);
	e = vop(I, OP_VSUBI, ex, ey);
	lt = vmask(I, OP_VCMPLTI, mx, my);
	mx = vsel(I, lt, vop(I, OP_VADDI, mx, mx), mx);
	e = vsel(I, lt, vk(I, OP_VSUBI, e, 1), e);
	fquot(I, mx, my, &q, &r);
	res = vop(I, OP_VOR, fround(I, q, r, e), vk(I, OP_VAND,
	    vop(I, OP_VXOR, x, y), MSB));
	xs = special(I, ax);
	ys = special(I, ay);
	sp = llo_new_reg(I->f, LC_M);
	add(I, OP_MOR, sp, xs, ys, 0);
	res = vsel(I, sp, vop(I, OP_VMULF, standin(I, x, xs),
	    vrcp(I, standin(I, y, ys))), res);
	/* a NaN x is returned quiet whatever y is (as C's x / y) */
	return vsel(I, vmask(I, OP_VCMPGTI, ax, isel_vimm(I, 0x7f800000u)),
	    vk(I, OP_VOR, x, 0x400000u), res);
}
