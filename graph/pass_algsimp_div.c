/*
 * pass_algsimp_div.c - XLA's HandleDivide rules (hlo.md 3.1), in its
 * order, in two sets:
 *
 * exact (algsimp, rtol 0): A / 1 is an identity (pass_algsimp.c); an
 * integer (8 to 32 bits) divided by a constant 2^k becomes a shift, with
 * the select of XLA's sign fix-up for signed types (truncation toward
 * zero); A / C becomes A * (1/C) where every 1/C is a power of two the
 * type holds; convert(pred X) / broadcast(scalar Y) becomes X *
 * broadcast(1 / Y) (0 or 1 times the one rounding of 1 / Y: the same
 * bits, signed zeros, infinities and NaN included).
 *
 * rounding (algsimp-div, its own pass with a tolerance): exp(A) / exp(B)
 * -> exp(A - B); A / exp(B) -> A * exp(-B); A / pow(B, C) -> A * pow(B,
 * -C); A / sqrt(B) -> A * rsqrt(B), A / rsqrt(B) -> A * sqrt(B); A / C
 * -> A * (1/C) for any constant C (the reciprocal folded, rounded to the
 * type); (A/B) / (C/D) -> (A*D) / (B*C), (A/B) / C -> A / (B*C), A /
 * (B/C) -> (A*C) / B.  Each changes the rounding (and may overflow where
 * the division did not, as in XLA), so -fno-hlo-algsimp-div keeps the
 * program's own divisions.
 */
#include <math.h>

#include "graph/eval.h"
#include "graph/pass_algsimp.h"

/* The exponent range of normal numbers of t, for exact reciprocals. */
static int
exp_range(HloType t, int *lo, int *hi)
{
	switch (t) {
	case HT_F16: *lo = -14; *hi = 15; return 1;
	case HT_BF16: case HT_F32: *lo = -126; *hi = 127; return 1;
	case HT_F64: *lo = -1022; *hi = 1023; return 1;
	default: return 0;
	}
}

/* 1/v when v is +-2^k and 1/v is a normal number of t: exact. */
static int
exact_reciprocal(HloType t, double v, double *r)
{
	int e, lo, hi;
	double f;

	if (!exp_range(t, &lo, &hi) || v == 0 || !isfinite(v))
		return 0;
	f = frexp(v, &e);	/* v = f * 2^e, |f| in [0.5, 1) */
	if (fabs(f) != 0.5 || 1 - e < lo || 1 - e > hi)
		return 0;
	*r = ldexp(f < 0 ? -1 : 1, 1 - e);
	return 1;
}

/* 1/v rounded to t, exact or not. */
static int
any_reciprocal(HloType t, double v, double *r)
{
	*r = ev_round(t, 1 / v);
	return 1;
}

/*
 * A constant (or a broadcast of one) of the reciprocals of every element
 * of instruction b that recip() gives, or -1.
 */
static int
reciprocal_of(Simp *s, int b, int (*recip)(HloType, double, double *))
{
	const HloInstr *bi = SI(s, b), *k = bi;
	HloInstr *r;
	HloType t = bi->shape.type;
	int nk;
	int64_t j;
	double x;

	if (k->op == HLO_BROADCAST)
		k = SI(s, k->operand[0]);
	if (k->op != HLO_CONSTANT || k->lit.n < 1 ||
	    k->lit.n != hlo_shape_elems(&k->shape) || !hlo_type_is_float(t))
		return -1;
	for (j = 0; j < k->lit.n; j++)
		if (!recip(t, ev_round(t, k->lit.v[j].f), &x))
			return -1;
	nk = simp_add(s->m, s->c, HLO_CONSTANT, &k->shape, NULL, 0, k);
	r = SI(s, nk);
	r->lit.n = k->lit.n;
	r->lit.v = arena_alloc(s->m->arena, sizeof *r->lit.v *
	    (size_t)k->lit.n);
	for (j = 0; j < k->lit.n; j++)
		recip(t, ev_round(t, k->lit.v[j].f), &r->lit.v[j].f);
	if (bi->op != HLO_BROADCAST)
		return nk;
	return simp_broadcast(s->m, s->c, nk, &bi->shape, bi->dims.v,
	    bi->dims.n, bi);
}

/* op(a, b) (b < 0: op(a)) of instruction i's shape. */
static int
op_like(Simp *s, int i, HloOp op, int a, int b)
{
	int ops[2] = { a, b };

	return simp_add(s->m, s->c, op, &SI(s, i)->shape, ops, b < 0 ? 1 : 2,
	    SI(s, i));
}

/* A scalar constant v broadcast to instruction i's shape. */
static int
splat_like(Simp *s, int i, double v)
{
	const HloInstr *in = SI(s, i);

	return simp_broadcast(s->m, s->c, simp_scalar(s->m, s->c,
	    in->shape.type, v, in), &in->shape, NULL, 0, in);
}

/* A / C -> A * (1/C) with recip's reciprocals (rule 8). */
static int
by_constant(Simp *s, int i, int (*recip)(HloType, double, double *))
{
	const HloInstr *in = SI(s, i);
	int r;

	if (!hlo_type_is_float(in->shape.type) ||
	    SI(s, in->operand[0])->op == HLO_CONSTANT ||
	    (r = reciprocal_of(s, in->operand[1], recip)) < 0)
		return -1;
	return op_like(s, i, HLO_MULTIPLY, in->operand[0], r);
}

/* Integer A / 2^k, k in 1..bits-2, as a shift (rule 2). */
static int
by_power_of_two(Simp *s, int i)
{
	const HloInstr *in = SI(s, i);
	HloType t = in->shape.type;
	int a = in->operand[0], k, neg, adj, sel;
	HloShape ps;
	double v;

	if (!hlo_type_is_int(t) || t == HT_S64 || t == HT_U64 ||
	    !algsimp_plain(&in->shape) ||
	    !simp_uniform(s->c, in->operand[1], &v) || v < 2 ||
	    v > 1073741824.0 || v != ldexp(1, ilogb(v)))
		return -1;
	k = ilogb(v);
	if (t >= HT_U8)
		return op_like(s, i, HLO_SHIFT_RIGHT_LOGICAL, a,
		    splat_like(s, i, k));
	if ((t == HT_S8 && k > 6) || (t == HT_S16 && k > 14))
		return -1;
	/* truncation toward zero: negative dividends add 2^k - 1 first */
	ps = in->shape;
	ps.type = HT_PRED;
	neg = simp_add(s->m, s->c, HLO_COMPARE, &ps, (int[]){ a,
	    splat_like(s, i, 0) }, 2, in);
	SI(s, neg)->cmp = CMP_LT;
	adj = op_like(s, i, HLO_ADD, a, splat_like(s, i, v - 1));
	sel = simp_add(s->m, s->c, HLO_SELECT, &in->shape, (int[]){ neg, adj,
	    a }, 3, in);
	return op_like(s, i, HLO_SHIFT_RIGHT_ARITHMETIC, sel,
	    splat_like(s, i, k));
}

/* convert(pred X) / broadcast(scalar Y) -> X * broadcast(1 / Y) (rule
   10): x in {0, 1} times the one rounding of 1 / Y. */
static int
pred_by_scalar(Simp *s, int i)
{
	const HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	const HloInstr *y = SI(s, in->operand[1]);
	int one, r;

	if (!hlo_type_is_float(in->shape.type) || x->op != HLO_CONVERT ||
	    SI(s, x->operand[0])->shape.type != HT_PRED ||
	    y->op != HLO_BROADCAST || SI(s, y->operand[0])->shape.rank != 0)
		return -1;
	one = simp_scalar(s->m, s->c, in->shape.type, 1, in);
	r = simp_add(s->m, s->c, HLO_DIVIDE, &SI(s, y->operand[0])->shape,
	    (int[]){ one, y->operand[0] }, 2, in);
	r = simp_broadcast(s->m, s->c, r, &in->shape, NULL, 0, in);
	return op_like(s, i, HLO_MULTIPLY, in->operand[0], r);
}

int
algsimp_divide_rule(Simp *s, int i)
{
	int r;

	if ((r = by_power_of_two(s, i)) >= 0)
		return r;
	if ((r = by_constant(s, i, exact_reciprocal)) >= 0)
		return r;
	return pred_by_scalar(s, i);
}

/* Rules 3 to 6: a divisor that is exp, pow, sqrt or rsqrt. */
static int
by_function(Simp *s, int i)
{
	const HloInstr *in = SI(s, i), *a = SI(s, in->operand[0]);
	const HloInstr *b = SI(s, in->operand[1]);
	int x = in->operand[0];

	switch (b->op) {
	case HLO_EXP:
		if (a->op == HLO_EXP)
			return op_like(s, i, HLO_EXP, op_like(s, i,
			    HLO_SUBTRACT, a->operand[0], b->operand[0]), -1);
		return op_like(s, i, HLO_MULTIPLY, x, op_like(s, i, HLO_EXP,
		    op_like(s, i, HLO_NEGATE, b->operand[0], -1), -1));
	case HLO_POWER:
		return op_like(s, i, HLO_MULTIPLY, x, op_like(s, i, HLO_POWER,
		    b->operand[0], op_like(s, i, HLO_NEGATE, b->operand[1],
		    -1)));
	case HLO_SQRT:
		return op_like(s, i, HLO_MULTIPLY, x, op_like(s, i, HLO_RSQRT,
		    b->operand[0], -1));
	case HLO_RSQRT:
		return op_like(s, i, HLO_MULTIPLY, x, op_like(s, i, HLO_SQRT,
		    b->operand[0], -1));
	default:
		return -1;
	}
}

/* Rule 9: nested divides. */
static int
nested(Simp *s, int i)
{
	const HloInstr *in = SI(s, i), *a = SI(s, in->operand[0]);
	const HloInstr *b = SI(s, in->operand[1]);

	if (a->op == HLO_DIVIDE && b->op == HLO_DIVIDE)
		return op_like(s, i, HLO_DIVIDE, op_like(s, i, HLO_MULTIPLY,
		    a->operand[0], b->operand[1]), op_like(s, i, HLO_MULTIPLY,
		    a->operand[1], b->operand[0]));
	if (a->op == HLO_DIVIDE)
		return op_like(s, i, HLO_DIVIDE, a->operand[0], op_like(s, i,
		    HLO_MULTIPLY, a->operand[1], in->operand[1]));
	if (b->op == HLO_DIVIDE)
		return op_like(s, i, HLO_DIVIDE, op_like(s, i, HLO_MULTIPLY,
		    in->operand[0], b->operand[1]), b->operand[0]);
	return -1;
}

int
algsimp_divide_rounding(Simp *s, int i)
{
	const HloInstr *in = SI(s, i);
	int r;

	if (in->op != HLO_DIVIDE || !hlo_type_is_float(in->shape.type))
		return -1;
	if ((r = by_function(s, i)) >= 0)
		return r;
	if ((r = by_constant(s, i, any_reciprocal)) >= 0)
		return r;
	return nested(s, i);
}

int
hlo_pass_algsimp_div(HloModule *m, HloPassCtx *cx)
{
	(void)cx;
	return algsimp_run(m, algsimp_divide_rounding);
}
