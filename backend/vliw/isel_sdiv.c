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
 * value here: the lowering checks divisors first (lower_check.c).
 */
#include "backend/vliw/isel.h"

/* |a| (as u32) and the sign mask (0 or -1) of a. */
static int
magnitude(Isel *I, int a, int *sign)
{
	*sign = sopi(I, OP_SSRAI, a, 31);
	return sop2(I, OP_SSUB, sop2(I, OP_SXOR, a, *sign), *sign);
}

/* a / 2^k or a % 2^k for k in 0..30. */
static int
pow2(Isel *I, int a, int k, int rem)
{
	int bias, q;

	if (k == 0)
		return rem ? sopi(I, OP_SMOVI, 0, 0) : a;
	bias = sopi(I, OP_SSHRI, sopi(I, OP_SSRAI, a, 31), 32 - k);
	q = sopi(I, OP_SSRAI, sop2(I, OP_SADD, a, bias), k);
	if (!rem)
		return q;
	return sop2(I, OP_SSUB, a, sopi(I, OP_SSHLI, q, k));
}

/* The 32-step loop: q = ua / ub, r = ua % ub as unsigned words. */
static void
steps(Isel *I, int ua, int ub, int *qo, int *ro)
{
	int q = sopi(I, OP_SMOVI, 0, 0), r = sopi(I, OP_SMOVI, 0, 0);
	int i = sopi(I, OP_SMOVI, 0, 31), one = sopi(I, OP_SMOVI, 0, 1);
	int ubf = sopi(I, OP_SXORI, ub, INT32_MIN), top, t, p, more;
	LIns *br;

	top = I->cur = llo_new_blk(I->f);
	t = sopi(I, OP_SANDI, sop2(I, OP_SSHR, ua, i), 1);
	add(I, OP_SSHLI, r, r, 0, 0)->imm = 1;
	add(I, OP_SOR, r, r, t, 0);
	p = llo_new_reg(I->f, LC_P);		/* r >= ub, unsigned */
	add(I, OP_SCMPGE, p, sopi(I, OP_SXORI, r, INT32_MIN), ubf, 0);
	t = sop2(I, OP_SSUB, r, ub);
	add(I, OP_SSEL, r, t, r, p);
	t = sop2(I, OP_SOR, q, sop2(I, OP_SSHL, one, i));
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
		return sop2(I, OP_SSUB, sop2(I, OP_SXOR, r, sa), sa);
	sb = sop2(I, OP_SXOR, sa, sb);
	return sop2(I, OP_SSUB, sop2(I, OP_SXOR, q, sb), sb);
}

/* a mod n in [0, n) for a constant n > 0 (a roll's shift). */
int
isel_smod(Isel *I, int a, int64_t n)
{
	int ua, sa, q, r, p;

	if (!(n & (n - 1)))
		return sopi(I, OP_SANDI, a, n - 1);
	ua = magnitude(I, a, &sa);
	steps(I, ua, sopi(I, OP_SMOVI, 0, n), &q, &r);
	r = sop2(I, OP_SSUB, sop2(I, OP_SXOR, r, sa), sa);
	p = llo_new_reg(I->f, LC_P);
	addi(I, OP_SCMPILT, p, r, 0);
	q = sreg(I);
	add(I, OP_SSEL, q, sopi(I, OP_SADDI, r, n), r, p);
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

/* Significand in [2^23, 2^24) and unbiased exponent of |x| = ax. */
static void
funpack(Isel *I, int ax, int *mo, int *eo)
{
	int m = sopi(I, OP_SANDI, ax, 0x7fffff), e = sopi(I, OP_SSHRI, ax, 23);
	int k, p;

	m = ssel(I, spred(I, OP_SCMPINE, e, 0), sopi(I, OP_SORI, m, 0x800000),
	    m);
	e = sopi(I, OP_SMAXI, e, 1);
	for (k = 16; k >= 1; k /= 2) {
		p = spred(I, OP_SCMPILT, m, (int64_t)1 << (24 - k));
		m = ssel(I, p, sopi(I, OP_SSHLI, m, k), m);
		e = ssel(I, p, sopi(I, OP_SADDI, e, -k), e);
	}
	*mo = m;
	*eo = sopi(I, OP_SADDI, e, -127);
}

/* Q = floor(mx * 2^25 / my) for mx in [my, 2 my); *ro: 2 (mx * 2^25 -
   Q * my), zero exactly when the division is. */
static void
fsteps(Isel *I, int mx, int my, int *qo, int *ro)
{
	int q = sopi(I, OP_SMOVI, 0, 0), r = sreg(I);
	int i = sopi(I, OP_SMOVI, 0, 26), p, more;
	LIns *br;

	add(I, OP_SMOV, r, mx, 0, 0);
	I->cur = llo_new_blk(I->f);
	p = spop2(I, OP_SCMPGE, r, my);
	add(I, OP_SSEL, r, sop2(I, OP_SSUB, r, my), r, p);
	add(I, OP_SADD, q, q, q, 0);
	add(I, OP_SSEL, q, sopi(I, OP_SORI, q, 1), q, p);
	add(I, OP_SADD, r, r, r, 0);
	add(I, OP_SADDI, i, i, 0, 0)->imm = -1;
	more = spred(I, OP_SCMPIGT, i, 0);
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

	sh = sop2(I, OP_SSUB, sopi(I, OP_SMOVI, 0, -124), e);
	sh = sopi(I, OP_SMINI, sopi(I, OP_SMAXI, sh, 2), 31);
	s1 = sopi(I, OP_SADDI, sh, -1);
	m = sop2(I, OP_SSHR, q, sh);
	rb = sopi(I, OP_SANDI, sop2(I, OP_SSHR, q, s1), 1);
	st = sop2(I, OP_SAND, q, sopi(I, OP_SADDI, sop2(I, OP_SSHL,
	    sopi(I, OP_SMOVI, 0, 1), s1), -1));
	st = sop2(I, OP_SOR, sop2(I, OP_SOR, st, r), sopi(I, OP_SANDI, m, 1));
	inc = ssel(I, spred(I, OP_SCMPINE, st, 0), rb, I->zero);
	bits = sopi(I, OP_SMAXI, sopi(I, OP_SADDI, e, 126), 0);
	bits = sopi(I, OP_SSHLI, bits, 23);
	bits = sop2(I, OP_SADD, sop2(I, OP_SADD, bits, m), inc);
	return ssel(I, spred(I, OP_SCMPIGT, e, 127), sopi(I, OP_SMOVI, 0,
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
	int xz = spred(I, OP_SCMPIEQ, ax, 0), yz = spred(I, OP_SCMPIEQ, ay, 0);
	int xi = spred(I, OP_SCMPIEQ, ax, 0x7f800000);
	int yi = spred(I, OP_SCMPIEQ, ay, 0x7f800000);

	res = ssel(I, spop2(I, OP_POR, xi, yz),
	    sopi(I, OP_SORI, sgn, 0x7f800000), res);
	res = ssel(I, spop2(I, OP_POR, xz, yi), sgn, res);
	res = ssel(I, spop2(I, OP_POR, spop2(I, OP_PAND, xz, yz),
	    spop2(I, OP_PAND, xi, yi)), sopi(I, OP_SMOVI, 0, host_nan()), res);
	res = ssel(I, spred(I, OP_SCMPIGT, ay, 0x7f800000), sopi(I, OP_SORI, y,
	    0x400000), res);
	return ssel(I, spred(I, OP_SCMPIGT, ax, 0x7f800000), sopi(I, OP_SORI, x,
	    0x400000), res);
}

int
isel_sfdiv(Isel *I, int x, int y)
{
	int ax = sopi(I, OP_SANDI, x, INT32_MAX), ay = sopi(I, OP_SANDI, y,
	    INT32_MAX);
	int sgn = sopi(I, OP_SANDI, sop2(I, OP_SXOR, x, y), INT32_MIN);
	int mx, my, ex, ey, e, p, q, r;

	funpack(I, ax, &mx, &ex);
	funpack(I, ay, &my, &ey);
	e = sop2(I, OP_SSUB, ex, ey);
	p = spop2(I, OP_SCMPLT, mx, my);
	mx = ssel(I, p, sop2(I, OP_SADD, mx, mx), mx);
	e = ssel(I, p, sopi(I, OP_SADDI, e, -1), e);
	fsteps(I, mx, my, &q, &r);
	return fspecial(I, x, y, ax, ay, sgn, sop2(I, OP_SOR,
	    fround(I, q, r, e), sgn));
}
