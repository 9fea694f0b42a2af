/*
 * isel_vdiv.c - vector i32 division for a VPU without a divider: / and %
 * truncating toward zero, one tile at a time; the results equal C's
 * (interpret mode's) bit for bit.  (f32 / is x * (1 / y), isel_vec.c.)
 *
 * i32: on the magnitudes (u32), an f32 estimate of |a| / |b| scaled down
 * so it never exceeds the quotient, a second estimate from the exact
 * remainder, then one unsigned correction step; the signs last (so
 * INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 is 0).  A divisor known
 * at compile time folds its reciprocal, and a power of two takes a
 * shift.  A divisor of zero gives an undefined value here: the lowering
 * checks divisors first (lower_check.c).
 * About 40 VALU ops per tile.
 */
#include "backend/vliw/isel.h"

#define MSB 0x80000000u

static int
vmask(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_M);

	add(I, op, d, a, b, 0);
	return d;
}

/* u32 a >= b. */
static int
uge(Isel *I, int a, int b)
{
	return vmask(I, OP_VCMPGEI, vopk(I, OP_VXOR, a, MSB),
	    vopk(I, OP_VXOR, b, MSB));
}

/* u32 r as f32 (within an ulp: the f32 steps only need so much). */
static int
u2f(Isel *I, int r)
{
	int f = isel_vop(I, OP_VCVTIF, r, 0);

	return isel_vsel(I, vmask(I, OP_VCMPLTI, r, isel_vimm(I, 0)),
	    vopk(I, OP_VADDF, f, f32_bits(4294967296.0)), f);
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
	int fb = isel_vop(I, OP_VABSF, isel_vop(I, OP_VCVTIF, b, 0), 0);

	d->sb = vopk(I, OP_VSRA, b, 31);
	d->ub = isel_vop(I, OP_VSUBI, isel_vop(I, OP_VXOR, b, d->sb), d->sb);
	d->rk = vopk(I, OP_VMULF, isel_eup(I, OP_ERCP, fb), f32_bits(SHRINK));
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
	int q = isel_vop(I, OP_VCVTFI, isel_vop(I, OP_VMULF, fa, d->rk), 0);
	int r = isel_vop(I, OP_VSUBI, ua, isel_vop(I, OP_VMULI, q, d->ub)), t,
	    m;

	t = isel_vop(I, OP_VCVTFI, isel_vop(I, OP_VMULF, u2f(I, r), d->rk), 0);
	q = isel_vop(I, OP_VADDI, q, t);
	r = isel_vop(I, OP_VSUBI, r, isel_vop(I, OP_VMULI, t, d->ub));
	m = uge(I, r, d->ub);
	*qo = isel_vsel(I, m, vopk(I, OP_VADDI, q, 1), q);
	*ro = isel_vsel(I, m, isel_vop(I, OP_VSUBI, r, d->ub), r);
}

/* a / 2^k or a % 2^k, k in 0..30. */
static int
ipow2(Isel *I, int a, int k, int rem)
{
	int bias, q;

	if (k == 0)
		return rem ? isel_vimm(I, 0) : a;
	bias = vopk(I, OP_VSHR, vopk(I, OP_VSRA, a, 31), (uint32_t)(32 - k));
	q = vopk(I, OP_VSRA, isel_vop(I, OP_VADDI, a, bias), (uint32_t)k);
	if (rem)
		return isel_vop(I, OP_VSUBI, a,
		    vopk(I, OP_VSHL, q, (uint32_t)k));
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
			return c > 0 || rem ? q : isel_vop(I, OP_VSUBI,
			    isel_vimm(I, 0), q);
		}
		idiv_const(I, c, &d);
	} else
		idiv_reg(I, vb, &d);
	sa = vopk(I, OP_VSRA, a, 31);
	ua = isel_vop(I, OP_VSUBI, isel_vop(I, OP_VXOR, a, sa), sa);
	udiv(I, ua, isel_vop(I, OP_VABSF, isel_vop(I, OP_VCVTIF, a, 0), 0), &d,
	    &q, &r);
	if (rem)		/* the remainder takes the dividend's sign */
		return isel_vop(I, OP_VSUBI, isel_vop(I, OP_VXOR, r, sa), sa);
	sa = isel_vop(I, OP_VXOR, sa, d.sb);
	return isel_vop(I, OP_VSUBI, isel_vop(I, OP_VXOR, q, sa), sa);
}
