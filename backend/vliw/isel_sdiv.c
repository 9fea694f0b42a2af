/*
 * isel_sdiv.c - scalar i32 division and remainder, truncating toward zero
 * (doc/language.md), for a machine whose scalar unit has no divider.
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
