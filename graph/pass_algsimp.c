/*
 * pass_algsimp.c - algebraic simplification (XLA's AlgebraicSimplifier,
 * hlo.md 3.1): the driver that visits every instruction once per run,
 * the elementwise identities and the division rules.  The shape rules
 * are in pass_algsimp_shape.c, reduce and dot in pass_algsimp_reduce.c.
 *
 * Every rewrite is exact (the pass's rtol is 0): a float identity is used
 * only where it holds for every input, signed zeros, infinities and NaN
 * included.  So x + (-0.0) goes but x + 0.0 stays (-0.0 + 0.0 is +0.0),
 * x * 1 goes but x * 0 stays for floats (NaN * 0 and inf * 0 are NaN),
 * x / C becomes x * (1/C) only when every 1/C is a power of two the type
 * holds, where both sides round the same real number.  HandleDivide's
 * other float rules (exp, pow, sqrt, nested divides) change the rounding
 * and are left out; the integer shift rule needs shift opcodes the IR
 * does not have.
 */
#include <math.h>
#include <string.h>

#include "graph/eval.h"
#include "graph/pass_algsimp.h"

int
algsimp_keep(Simp *s, int i, int x)
{
	return x >= 0 && x != i &&
	    simp_interchangeable(&SI(s, i)->shape, &SI(s, x)->shape) ? x : -1;
}

int
algsimp_plain(const HloShape *sh)
{
	return sh->type != HT_TUPLE &&
	    hlo_layout_is_default(&sh->layout, sh->rank);
}

/* The additive identity: x + id == x for every x of type t. */
static int
add_identity(HloType t, double v)
{
	if (hlo_type_is_float(t))
		return v == 0 && signbit(v);
	return hlo_type_is_int(t) && v == 0;
}

/* x - v == x for every x: +0.0 for floats (-0.0 - 0.0 is -0.0). */
static int
sub_identity(HloType t, double v)
{
	if (hlo_type_is_float(t))
		return v == 0 && !signbit(v);
	return hlo_type_is_int(t) && v == 0;
}

static int
arith_type(HloType t)
{
	return hlo_type_is_float(t) || hlo_type_is_int(t);
}

/* x op v == x (or with v on the left when left is set). */
static int
identity(HloOp op, HloType t, double v, int left)
{
	switch (op) {
	case HLO_ADD:
		return add_identity(t, v);
	case HLO_SUBTRACT:
		return !left && sub_identity(t, v);
	case HLO_MULTIPLY:
		return arith_type(t) && v == 1;
	case HLO_DIVIDE:
		return !left && arith_type(t) && v == 1;
	case HLO_MAXIMUM:
		/* max(x, -inf) is x, NaN included (max propagates it) */
		return hlo_type_is_float(t) && isinf(v) && v < 0;
	case HLO_MINIMUM:
		return hlo_type_is_float(t) && isinf(v) && v > 0;
	default:
		return 0;
	}
}

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

/*
 * A constant (or a broadcast of one) of exact reciprocals of every
 * element of instruction b, or -1.
 */
static int
reciprocal_of(Simp *s, int b)
{
	const HloInstr *bi = SI(s, b), *k = bi;
	HloInstr *r;
	HloType t = bi->shape.type;
	int nk;
	int64_t j;

	if (k->op == HLO_BROADCAST)
		k = SI(s, k->operand[0]);
	if (k->op != HLO_CONSTANT || k->lit.n < 1 ||
	    k->lit.n != hlo_shape_elems(&k->shape))
		return -1;
	for (j = 0; j < k->lit.n; j++) {
		double x;
		if (!exact_reciprocal(t, ev_round(t, k->lit.v[j]), &x))
			return -1;
	}
	nk = simp_add(s->m, s->c, HLO_CONSTANT, &k->shape, NULL, 0, k);
	r = SI(s, nk);
	r->lit.n = k->lit.n;
	r->lit.v = arena_alloc(s->m->arena, sizeof(double) * (size_t)k->lit.n);
	for (j = 0; j < k->lit.n; j++)
		exact_reciprocal(t, ev_round(t, k->lit.v[j]), &r->lit.v[j]);
	if (bi->op != HLO_BROADCAST)
		return nk;
	return simp_broadcast(s->m, s->c, nk, &bi->shape, bi->dims.v,
	    bi->dims.n, bi);
}

/* A / C -> A * (1/C) (HandleDivide rule 8), where 1/C is exact. */
static int
divide_by_constant(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	int ops[2], r;

	if (!hlo_type_is_float(in->shape.type) ||
	    SI(s, in->operand[0])->op == HLO_CONSTANT ||
	    (r = reciprocal_of(s, in->operand[1])) < 0)
		return -1;
	ops[0] = in->operand[0];
	ops[1] = r;
	return simp_add(s->m, s->c, HLO_MULTIPLY, &in->shape, ops, 2, in);
}

static int
binary_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	int a = in->operand[0], b = in->operand[1];
	HloType t = in->shape.type;
	double v;

	if (simp_uniform(s->c, b, &v) && identity(in->op, t, v, 0))
		return algsimp_keep(s, i, a);
	if (simp_uniform(s->c, a, &v) && identity(in->op, t, v, 1) &&
	    in->op != HLO_DIVIDE && in->op != HLO_SUBTRACT)
		return algsimp_keep(s, i, b);
	switch (in->op) {
	case HLO_MULTIPLY:
		/* x * 0 is 0 for integers only; the zero is the operand */
		if (!hlo_type_is_int(t))
			return -1;
		if (simp_uniform(s->c, b, &v) && v == 0)
			return algsimp_keep(s, i, b);
		if (simp_uniform(s->c, a, &v) && v == 0)
			return algsimp_keep(s, i, a);
		return -1;
	case HLO_MAXIMUM: case HLO_MINIMUM: case HLO_AND: case HLO_OR:
		return a == b ? algsimp_keep(s, i, a) : -1;
	case HLO_DIVIDE:
		return divide_by_constant(s, i);
	default:
		return -1;
	}
}

static int
unary_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);

	switch (in->op) {
	case HLO_NEGATE:
		if (x->op == HLO_NEGATE)
			return algsimp_keep(s, i, x->operand[0]);
		return -1;
	case HLO_NOT:
		if (x->op == HLO_NOT)
			return algsimp_keep(s, i, x->operand[0]);
		return -1;
	case HLO_ABS:
		/* abs(abs(x)) is abs(x): the inner one is the value */
		return x->op == HLO_ABS ? algsimp_keep(s, i, in->operand[0]) :
		    -1;
	case HLO_COPY:
		/* a copy into the same layout moves nothing */
		return algsimp_keep(s, i, in->operand[0]);
	default:
		return -1;
	}
}

/* select(p, x, x) -> x; select(all true / all false, x, y) -> x / y. */
static int
select_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	double v;

	if (in->operand[1] == in->operand[2])
		return algsimp_keep(s, i, in->operand[1]);
	if (simp_uniform(s->c, in->operand[0], &v))
		return algsimp_keep(s, i, in->operand[v != 0 ? 1 : 2]);
	return -1;
}

static int
rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	int r;

	if (in->shape.type == HT_TUPLE)
		return -1;
	switch (hlo_op_class(in->op)) {
	case HC_UNARY:
		if ((r = unary_rule(s, i)) >= 0)
			return r;
		return algsimp_sink_reshape(s, i);
	case HC_BINARY:
		if ((r = binary_rule(s, i)) >= 0)
			return r;
		return algsimp_sink_reshape(s, i);
	case HC_LEAF: case HC_PASS: return -1;
	default: break;
	}
	switch (in->op) {
	case HLO_SELECT: return select_rule(s, i);
	case HLO_REDUCE: return algsimp_reduce_rule(s, i);
	case HLO_DOT: return algsimp_dot_rule(s, i);
	default: return algsimp_shape_rule(s, i);
	}
}

/* One visit of every live instruction of c; 1 if something changed. */
static int
simplify_comp(HloModule *m, HloComp *c)
{
	Simp s = { m, c };
	Arena a = {0};
	int n0 = c->instr.n, *uses = hlo_use_counts(&a, c);
	int *order = simp_order(&a, c), k, i, r, changed = 0;

	/* in def-before-use order, then what the rules appended */
	for (k = 0; k < c->instr.n; k++) {
		i = k < n0 ? order[k] : k;
		if (i < n0 && uses[i] == 0)
			continue;	/* dead: dce drops it */
		if ((r = rule(&s, i)) < 0)
			continue;
		if (!hlo_shape_same(&SI(&s, r)->shape, &SI(&s, i)->shape))
			bug("algsimp: '%s' replaced by '%s' of another shape",
			    c->instr.v[i]->name, c->instr.v[r]->name);
		hlo_replace_uses(c, i, r);
		changed = 1;
	}
	arena_free(&a);
	/* like XLA's ReplaceInstruction: what was replaced goes, and what
	   the rules appended moves before its users (the pipeline's
	   checks evaluate the module in text order after every pass) */
	if (changed)
		hlo_comp_clean(m, c);
	return changed;
}

int
hlo_pass_algsimp(HloModule *m, HloPassCtx *cx)
{
	int j, changed = 0;

	(void)cx;
	for (j = 0; j < m->comp.n; j++)
		changed |= simplify_comp(m, m->comp.v[j]);
	return changed;
}
