/*
 * isel_frem.c - f32 remainder x % y, exactly C's fmodf (interpret mode's
 * result) bit for bit, for a machine without a divider: vectors on the
 * VPU, scalars (SMEM values) on the scalar unit's integer ALU.
 *
 * fmod needs no rounding: with |x| = mx 2^ex and |y| = my 2^ey (mx, my
 * integers in [2^23, 2^24), denormals normalised), |x % y| = r 2^ey
 * where r = (mx 2^(ex - ey)) mod my, a multiple of y's ulp below |y|,
 * so representable.  Only r has to be found, exactly, in integers.
 *
 * Vector: r < my < 2^24, so r << 7 fits an i32; a step takes 7 bits of
 * the exponent difference: t = r << s (s <= 7), q from t * (1 / my)
 * (the EUP's reciprocal, once per tile), off by at most one either way
 * (t / my < 2^7, the estimate's error below 2^-15), r = t - q my
 * (exact: q my < 2^31) corrected once up and once down.  40 steps cover
 * the widest difference (276: 2^127 % 2^-149); lanes whose difference
 * is used up shift by 0, which leaves r alone.  About 15 VALU ops a
 * step, 650 a tile: a loop, not unrolled.
 *
 * Scalar: one bit a step (r = 2 r, minus my if that is not below it),
 * a loop of ex - ey + 1 trips (at most 277).
 *
 * Both then select C's special results: x when |x| < |y| (x = 0, y
 * infinite), the host's NaN for y = 0 or infinite x, and a NaN
 * operand quietened (x's first), as the host's fmodf gives them.
 */
#include <math.h>

#include "backend/vliw/isel.h"

#define STEP_BITS 7	/* bits of the exponent difference per vector step */
#define VSTEPS 40	/* ceil(276 / STEP_BITS) */
#define INF_BITS 0x7f800000
#define QUIET 0x400000

/* The bits of the host's fmodf(1, 0) (and of fmodf(inf, y)). */
static uint32_t
host_nan(void)
{
	volatile float o = 1.0f, z = 0.0f;
	float n = fmodf(o, z);
	uint32_t u;

	memcpy(&u, &n, 4);
	return u;
}

/* ------------------------------------------------------------ vector */

static int
vm(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_M);

	add(I, op, d, a, b, 0);
	return d;
}

/* Of a magnitude's bits a: the significand in [2^23, 2^24) (*m), the
   biased exponent after scaling a denormal by 2^24 (*e2) and the mask of
   denormals (*sub); the exponent of m is *e2 - 24 * sub. */
static void
vunpack(Isel *I, int a, int *m, int *e2, int *sub)
{
	int n;

	*sub = vm(I, OP_VCMPLTI, a, isel_vimm(I, 0x800000));
	n = isel_vsel(I, *sub, vopk(I, OP_VMULF, a, f32_bits(16777216.0)), a);
	*m = vopk(I, OP_VOR, vopk(I, OP_VAND, n, 0x7fffff), 0x800000);
	*e2 = vopk(I, OP_VSHR, n, 23);
}

/* One step of the loop: r = (r << s) mod my, s = clamp(dv, 0, 7);
   dv -= 7.  rc is 1 / my (f32). */
static void
vstep(Isel *I, int r, int dv, int my, int rc, const int *k)
{
	int s, t, q, rem;

	s = isel_vop(I, OP_VMINI, isel_vop(I, OP_VMAXI, dv, k[0]), k[1]);
	t = isel_vop(I, OP_VSHL, r, s);
	q = isel_vop(I, OP_VCVTFI, isel_vop(I, OP_VMULF,
	    isel_vop(I, OP_VCVTIF, t, 0), rc), 0);
	rem = isel_vop(I, OP_VSUBI, t, isel_vop(I, OP_VMULI, q, my));
	rem = isel_vsel(I, vm(I, OP_VCMPLTI, rem, k[0]),
	    isel_vop(I, OP_VADDI, rem, my), rem);
	add(I, OP_VSEL, r, isel_vop(I, OP_VSUBI, rem, my), rem,
	    vm(I, OP_VCMPGEI, rem, my));
	add(I, OP_VSUBI, dv, dv, k[1], 0);
}

/* r = (mx 2^d) mod my for mx, my in [2^23, 2^24), d >= 0 (any value
   for d < 0): a loop of VSTEPS trips. */
static int
vreduce(Isel *I, int mx, int my, int d)
{
	int r = llo_new_reg(I->f, LC_V), dv = llo_new_reg(I->f, LC_V);
	int rc, i, more, k[2];
	LIns *br;

	add(I, OP_VSEL, r, isel_vop(I, OP_VSUBI, mx, my), mx,
	    vm(I, OP_VCMPGEI, mx, my));
	add(I, OP_VMOV, dv, d, 0, 0);
	rc = isel_eup(I, OP_ERCP, isel_vop(I, OP_VCVTIF, my, 0));
	k[0] = isel_vimm(I, 0);
	k[1] = isel_vimm(I, STEP_BITS);
	i = sreg(I);
	addi(I, OP_SMOVI, i, 0, VSTEPS);
	I->cur = llo_new_blk(I->f);
	vstep(I, r, dv, my, rc, k);
	addi(I, OP_SADDI, i, i, -1);
	more = llo_new_reg(I->f, LC_P);
	addi(I, OP_SCMPIGT, more, i, 0);
	br = add(I, OP_BR, 0, 0, 0, 0);
	br->guard = more;
	br->target = I->cur;
	I->cur = llo_new_blk(I->f);
	return r;
}

/* C's results for the special operands over res (x, y: the operands;
   ax, ay: their magnitudes). */
static int
vspecial(Isel *I, int x, int y, int ax, int ay, int res)
{
	int inf = isel_vimm(I, INF_BITS), bad;

	res = isel_vsel(I, vm(I, OP_VCMPLTI, ax, ay), x, res);
	bad = vm(I, OP_VCMPEQI, ay, isel_vimm(I, 0));
	add(I, OP_MOR, bad, bad, vm(I, OP_VCMPEQI, ax, inf), 0);
	res = isel_vsel(I, bad, isel_vimm(I, host_nan()), res);
	res = isel_vsel(I, vm(I, OP_VCMPGTI, ay, inf),
	    vopk(I, OP_VOR, y, QUIET), res);
	return isel_vsel(I, vm(I, OP_VCMPGTI, ax, inf),
	    vopk(I, OP_VOR, x, QUIET), res);
}

int
isel_vfrem(Isel *I, int x, int y)
{
	int ax = vopk(I, OP_VAND, x, INT32_MAX), ay = vopk(I, OP_VAND, y,
	    INT32_MAX);
	int mx, my, ex, ey, sx, sy, r, f;

	vunpack(I, ax, &mx, &ex, &sx);
	vunpack(I, ay, &my, &ey, &sy);
	ex = isel_vop(I, OP_VSUBI, ex, isel_vsel(I, sx, isel_vimm(I, 24),
	    isel_vimm(I, 0)));
	r = vreduce(I, mx, my, isel_vop(I, OP_VSUBI, ex, isel_vop(I,
	    OP_VSUBI, ey, isel_vsel(I, sy, isel_vimm(I, 24),
	    isel_vimm(I, 0)))));
	/* r 2^(ey - 150) = (r 2^-23) 2^(e2 - 127) (2^-24 for a denormal
	   y), every product exact (the last one's result is r 2^ey) */
	f = vopk(I, OP_VMULF, isel_vop(I, OP_VCVTIF, r, 0), f32_bits(0x1p-23));
	f = isel_vop(I, OP_VMULF, f, vopk(I, OP_VSHL, ey, 23));
	f = isel_vop(I, OP_VMULF, f, isel_vsel(I, sy,
	    isel_vimm(I, f32_bits(0x1p-24)), isel_vimm(I, f32_bits(1.0))));
	f = isel_vop(I, OP_VOR, f, vopk(I, OP_VAND, x, 0x80000000u));
	return vspecial(I, x, y, ax, ay, f);
}

/* ------------------------------------------------------------ scalar */

/* m < 2^24 shifted up into [2^23, 2^24) (m != 0), e lowered alike. */
static void
snorm(Isel *I, int *m, int *e)
{
	int k, p;

	for (k = 16; k >= 1; k /= 2) {
		p = spred(I, OP_SCMPILT, *m, (int64_t)1 << (24 - k));
		*m = ssel(I, p, sopi(I, OP_SSHLI, *m, k), *m);
		*e = ssel(I, p, sopi(I, OP_SADDI, *e, -k), *e);
	}
}

/* Significand in [2^23, 2^24) and unbiased exponent of |x| = ax. */
static void
sunpack(Isel *I, int ax, int *m, int *e)
{
	int b = sopi(I, OP_SSHRI, ax, 23);

	*m = sopi(I, OP_SANDI, ax, 0x7fffff);
	*m = ssel(I, spred(I, OP_SCMPINE, b, 0), sopi(I, OP_SORI, *m, 0x800000),
	    *m);
	*e = sopi(I, OP_SMAXI, b, 1);
	snorm(I, m, e);
	*e = sopi(I, OP_SADDI, *e, -127);
}

/* (mx 2^d) mod my, one bit a trip, d + 1 trips (one for d < 0). */
static int
sreduce(Isel *I, int mx, int my, int d)
{
	int r = sreg(I), i = sreg(I), more;
	LIns *br;

	add(I, OP_SMOV, r, mx, 0, 0);
	add(I, OP_SMOV, i, d, 0, 0);
	I->cur = llo_new_blk(I->f);
	add(I, OP_SSEL, r, sop2(I, OP_SSUB, r, my), r, spop2(I, OP_SCMPGE, r,
	    my));
	addi(I, OP_SADDI, i, i, -1);
	more = spred(I, OP_SCMPIGE, i, 0);
	add(I, OP_SSEL, r, sop2(I, OP_SADD, r, r), r, more);
	br = add(I, OP_BR, 0, 0, 0, 0);
	br->guard = more;
	br->target = I->cur;
	I->cur = llo_new_blk(I->f);
	return r;
}

/* The bits of r 2^(e - 23) for r < 2^24, exact (a normal, a denormal or
   zero). */
static int
spack(Isel *I, int r, int e)
{
	int m = r, sh, bits;

	snorm(I, &m, &e);
	sh = sopi(I, OP_SMAXI, sop2(I, OP_SSUB, sopi(I, OP_SMOVI, 0, -126), e),
	    0);
	bits = sopi(I, OP_SMAXI, sopi(I, OP_SADDI, e, 126), 0);
	bits = sopi(I, OP_SSHLI, bits, 23);
	bits = sop2(I, OP_SADD, bits, sop2(I, OP_SSHR, m, sh));
	return ssel(I, spred(I, OP_SCMPIEQ, r, 0), I->zero, bits);
}

static int
sspecial(Isel *I, int x, int y, int ax, int ay, int res)
{
	res = ssel(I, spop2(I, OP_SCMPLT, ax, ay), x, res);
	res = ssel(I, spop2(I, OP_POR, spred(I, OP_SCMPIEQ, ay, 0),
	    spred(I, OP_SCMPIEQ, ax, INF_BITS)), sopi(I, OP_SMOVI, 0,
	    (int32_t)host_nan()), res);
	res = ssel(I, spred(I, OP_SCMPIGT, ay, INF_BITS), sopi(I, OP_SORI, y,
	    QUIET), res);
	return ssel(I, spred(I, OP_SCMPIGT, ax, INF_BITS), sopi(I, OP_SORI, x,
	    QUIET), res);
}

int
isel_sfrem(Isel *I, int x, int y)
{
	int ax = sopi(I, OP_SANDI, x, INT32_MAX), ay = sopi(I, OP_SANDI, y,
	    INT32_MAX);
	int mx, my, ex, ey, r;

	sunpack(I, ax, &mx, &ex);
	sunpack(I, ay, &my, &ey);
	r = sreduce(I, mx, my, sop2(I, OP_SSUB, ex, ey));
	r = sop2(I, OP_SOR, spack(I, r, ey), sopi(I, OP_SANDI, x, INT32_MIN));
	return sspecial(I, x, y, ax, ay, r);
}
