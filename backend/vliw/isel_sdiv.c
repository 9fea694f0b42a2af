/*
 * isel_sdiv.c - scalar i32 division and remainder, truncating toward zero
 * (doc/language.md), and scalar f32 division, correctly rounded, for a
 * machine whose scalar unit has no divider (and no FPU).
 *
 * A positive power-of-two divisor known at compile time takes a shift with
 * the usual bias for negative dividends.  Anything else runs a loop of 32
 * restoring-division steps on the magnitudes (unsigned compares by
 * flipping the sign bits), then applies the signs: about 8 cycles a step.
 * Such divisions are rare in kernels (index maps such as h / (H / KVH)
 * usually divide by a power of two); a divisor of zero gives an undefined
 * value, as sema and interpret mode reject it where they can.
 */
#include "backend/vliw/isel.h"

static int
op2(Isel *I, int op, int a, int b)
{
	int d = sreg(I);

	add(I, op, d, a, b, 0);
	return d;
}

static int
opi(Isel *I, int op, int a, int64_t imm)
{
	int d = sreg(I);

	addi(I, op, d, a, imm);
	return d;
}

/* |a| (as u32) and the sign mask (0 or -1) of a. */
static int
magnitude(Isel *I, int a, int *sign)
{
	*sign = opi(I, OP_SSRAI, a, 31);
	return op2(I, OP_SSUB, op2(I, OP_SXOR, a, *sign), *sign);
}

/* a / 2^k or a % 2^k for k in 0..30. */
static int
pow2(Isel *I, int a, int k, int rem)
{
	int bias, q;

	if (k == 0)
		return rem ? opi(I, OP_SMOVI, 0, 0) : a;
	bias = opi(I, OP_SSHRI, opi(I, OP_SSRAI, a, 31), 32 - k);
	q = opi(I, OP_SSRAI, op2(I, OP_SADD, a, bias), k);
	if (!rem)
		return q;
	return op2(I, OP_SSUB, a, opi(I, OP_SSHLI, q, k));
}

/* The 32-step loop: q = ua / ub, r = ua % ub as unsigned words. */
static void
steps(Isel *I, int ua, int ub, int *qo, int *ro)
{
	int q = opi(I, OP_SMOVI, 0, 0), r = opi(I, OP_SMOVI, 0, 0);
	int i = opi(I, OP_SMOVI, 0, 31), one = opi(I, OP_SMOVI, 0, 1);
	int ubf = opi(I, OP_SXORI, ub, INT32_MIN), top, t, p, more;
	LIns *br;

	top = I->cur = llo_new_blk(I->f);
	t = opi(I, OP_SANDI, op2(I, OP_SSHR, ua, i), 1);
	add(I, OP_SSHLI, r, r, 0, 0)->imm = 1;
	add(I, OP_SOR, r, r, t, 0);
	p = llo_new_reg(I->f, LC_P);		/* r >= ub, unsigned */
	add(I, OP_SCMPGE, p, opi(I, OP_SXORI, r, INT32_MIN), ubf, 0);
	t = op2(I, OP_SSUB, r, ub);
	add(I, OP_SSEL, r, t, r, p);
	t = op2(I, OP_SOR, q, op2(I, OP_SSHL, one, i));
	add(I, OP_SSEL, q, t, q, p);
	add(I, OP_SADDI, i, i, 0, 0)->imm = -1;
	more = llo_new_reg(I->f, LC_P);
	add(I, OP_SCMPIGE, more, i, 0, 0)->imm = 0;
	br = add(I, OP_BR, 0, 0, 0, 0);
	br->guard = more;
	br->target = top;
	I->cur = llo_new_blk(I->f);
	*qo = q;
	*ro = r;
}

int
isel_sdiv(Isel *I, int a, TRef divisor, int rem)
{
	int64_t c;
	int b, ua, ub, sa, sb, q, r, k;

	if (isel_cst(I, divisor, &c) && c > 0 && c <= 1 << 30 &&
	    !(c & (c - 1))) {
		for (k = 0; ((int64_t)1 << k) < c; k++)
			;
		return pow2(I, a, k, rem);
	}
	b = isel_scal(I, divisor);
	ua = magnitude(I, a, &sa);
	ub = magnitude(I, b, &sb);
	steps(I, ua, ub, &q, &r);
	if (rem)		/* the remainder takes the dividend's sign */
		return op2(I, OP_SSUB, op2(I, OP_SXOR, r, sa), sa);
	sb = op2(I, OP_SXOR, sa, sb);
	return op2(I, OP_SSUB, op2(I, OP_SXOR, q, sb), sb);
}

/* a mod n in [0, n) for a constant n > 0 (a roll's shift). */
int
isel_smod(Isel *I, int a, int64_t n)
{
	int ua, sa, q, r, p;

	if (!(n & (n - 1)))
		return opi(I, OP_SANDI, a, n - 1);
	ua = magnitude(I, a, &sa);
	steps(I, ua, opi(I, OP_SMOVI, 0, n), &q, &r);
	r = op2(I, OP_SSUB, op2(I, OP_SXOR, r, sa), sa);
	p = llo_new_reg(I->f, LC_P);
	addi(I, OP_SCMPILT, p, r, 0);
	q = sreg(I);
	add(I, OP_SSEL, q, opi(I, OP_SADDI, r, n), r, p);
	return q;
}

/* ------------------------------------------------------------ f32 */

/*
 * Scalar f32 x / y on the integer ALU, as isel_vdiv.c's vector form
 * without the FPU: the significands (denormals normalised by a 5-step
 * leading-zero search) divide by 26 restoring steps into Q in
 * [2^25, 2^26), which rounds to nearest even into a normal, denormal,
 * zero or infinity; zeros, infinities and NaNs are selected last, the
 * invalid cases (0 / 0, inf / inf) taking the host's default NaN, the
 * bits that C's '/' (interpret mode) gives on this machine.
 */

static int
sel(Isel *I, int p, int a, int b)
{
	int d = sreg(I);

	add(I, OP_SSEL, d, a, b, p);
	return d;
}

static int
pred(Isel *I, int op, int a, int64_t imm)
{
	int p = llo_new_reg(I->f, LC_P);

	addi(I, op, p, a, imm);
	return p;
}

static int
pop2(Isel *I, int op, int a, int b)
{
	int p = llo_new_reg(I->f, LC_P);

	add(I, op, p, a, b, 0);
	return p;
}

/* Significand in [2^23, 2^24) and unbiased exponent of |x| = ax. */
static void
funpack(Isel *I, int ax, int *mo, int *eo)
{
	int m = opi(I, OP_SANDI, ax, 0x7fffff), e = opi(I, OP_SSHRI, ax, 23);
	int k, p;

	m = sel(I, pred(I, OP_SCMPINE, e, 0), opi(I, OP_SORI, m, 0x800000), m);
	e = opi(I, OP_SMAXI, e, 1);
	for (k = 16; k >= 1; k /= 2) {
		p = pred(I, OP_SCMPILT, m, (int64_t)1 << (24 - k));
		m = sel(I, p, opi(I, OP_SSHLI, m, k), m);
		e = sel(I, p, opi(I, OP_SADDI, e, -k), e);
	}
	*mo = m;
	*eo = opi(I, OP_SADDI, e, -127);
}

/* Q = floor(mx * 2^25 / my) for mx in [my, 2 my); *ro: 2 (mx * 2^25 -
   Q * my), zero exactly when the division is. */
static void
fsteps(Isel *I, int mx, int my, int *qo, int *ro)
{
	int q = opi(I, OP_SMOVI, 0, 0), r = sreg(I);
	int i = opi(I, OP_SMOVI, 0, 26), p, more;
	LIns *br;

	add(I, OP_SMOV, r, mx, 0, 0);
	I->cur = llo_new_blk(I->f);
	p = pop2(I, OP_SCMPGE, r, my);
	add(I, OP_SSEL, r, op2(I, OP_SSUB, r, my), r, p);
	add(I, OP_SADD, q, q, q, 0);
	add(I, OP_SSEL, q, opi(I, OP_SORI, q, 1), q, p);
	add(I, OP_SADD, r, r, r, 0);
	add(I, OP_SADDI, i, i, 0, 0)->imm = -1;
	more = pred(I, OP_SCMPIGT, i, 0);
	br = add(I, OP_BR, 0, 0, 0, 0);
	br->guard = more;
	br->target = I->cur;
	I->cur = llo_new_blk(I->f);
	*qo = q;
	*ro = r;
}

/* |x / y| = Q * 2^(e - 25) (+ r) rounded (see isel_vdiv.c's fround). */
static int
fround(Isel *I, int q, int r, int e)
{
	int sh, s1, m, rb, st, inc, bits;

	sh = op2(I, OP_SSUB, opi(I, OP_SMOVI, 0, -124), e);
	sh = opi(I, OP_SMINI, opi(I, OP_SMAXI, sh, 2), 31);
	s1 = opi(I, OP_SADDI, sh, -1);
	m = op2(I, OP_SSHR, q, sh);
	rb = opi(I, OP_SANDI, op2(I, OP_SSHR, q, s1), 1);
	st = op2(I, OP_SAND, q, opi(I, OP_SADDI, op2(I, OP_SSHL,
	    opi(I, OP_SMOVI, 0, 1), s1), -1));
	st = op2(I, OP_SOR, op2(I, OP_SOR, st, r), opi(I, OP_SANDI, m, 1));
	inc = sel(I, pred(I, OP_SCMPINE, st, 0), rb, I->zero);
	bits = opi(I, OP_SSHLI, opi(I, OP_SMAXI, opi(I, OP_SADDI, e, 126), 0),
	    23);
	bits = op2(I, OP_SADD, op2(I, OP_SADD, bits, m), inc);
	return sel(I, pred(I, OP_SCMPIGT, e, 127), opi(I, OP_SMOVI, 0,
	    0x7f800000), bits);
}

/* The bits of the host's 0.0f / 0.0f. */
static uint32_t
host_nan(void)
{
	volatile float z = 0.0f;
	float n = z / z;
	uint32_t u;

	memcpy(&u, &n, 4);
	return u;
}

/* The result for zero, infinite and NaN operands over res. */
static int
fspecial(Isel *I, int x, int y, int ax, int ay, int sgn, int res)
{
	int xz = pred(I, OP_SCMPIEQ, ax, 0), yz = pred(I, OP_SCMPIEQ, ay, 0);
	int xi = pred(I, OP_SCMPIEQ, ax, 0x7f800000);
	int yi = pred(I, OP_SCMPIEQ, ay, 0x7f800000);

	res = sel(I, pop2(I, OP_POR, xi, yz), opi(I, OP_SORI, sgn, 0x7f800000),
	    res);
	res = sel(I, pop2(I, OP_POR, xz, yi), sgn, res);
	res = sel(I, pop2(I, OP_POR, pop2(I, OP_PAND, xz, yz),
	    pop2(I, OP_PAND, xi, yi)), opi(I, OP_SMOVI, 0, host_nan()), res);
	res = sel(I, pred(I, OP_SCMPIGT, ay, 0x7f800000), opi(I, OP_SORI, y,
	    0x400000), res);
	return sel(I, pred(I, OP_SCMPIGT, ax, 0x7f800000), opi(I, OP_SORI, x,
	    0x400000), res);
}

int
isel_sfdiv(Isel *I, int x, int y)
{
	int ax = opi(I, OP_SANDI, x, INT32_MAX), ay = opi(I, OP_SANDI, y,
	    INT32_MAX);
	int sgn = opi(I, OP_SANDI, op2(I, OP_SXOR, x, y), INT32_MIN);
	int mx, my, ex, ey, e, p, q, r;

	funpack(I, ax, &mx, &ex);
	funpack(I, ay, &my, &ey);
	e = op2(I, OP_SSUB, ex, ey);
	p = pop2(I, OP_SCMPLT, mx, my);
	mx = sel(I, p, op2(I, OP_SADD, mx, mx), mx);
	e = sel(I, p, opi(I, OP_SADDI, e, -1), e);
	fsteps(I, mx, my, &q, &r);
	return fspecial(I, x, y, ax, ay, sgn, op2(I, OP_SOR,
	    fround(I, q, r, e), sgn));
}
