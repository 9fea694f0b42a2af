/*
 * pass_algsimp.c - algebraic simplification (XLA's AlgebraicSimplifier,
 * hlo.md 3.1): the driver that visits every instruction once per run
 * and the elementwise identities.  The shape rules are in
 * pass_algsimp_shape.c, reduce and dot in pass_algsimp_reduce.c, the
 * division rules (and the algsimp-div pass) in pass_algsimp_div.c.
 *
 * Every rewrite is exact (the pass's rtol is 0): a float identity is used
 * only where it holds for every input, signed zeros, infinities and NaN
 * included.  So x + (-0.0) goes but x + 0.0 stays (-0.0 + 0.0 is +0.0),
 * x * 1 goes but x * 0 stays for floats (NaN * 0 and inf * 0 are NaN),
 * x / C becomes x * (1/C) only when every 1/C is a power of two the type
 * holds, where both sides round the same real number.  HandleDivide's
 * rules that change the rounding are the algsimp-div pass.
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
		return algsimp_divide_rule(s, i);
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

/* One visit of every live instruction of c with rulefn; 1 if something
   changed. */
static int
simplify_comp(HloModule *m, HloComp *c, int (*rulefn)(Simp *, int))
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
		if ((r = rulefn(&s, i)) < 0)
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
algsimp_run(HloModule *m, int (*rulefn)(Simp *, int))
{
	int j, changed = 0;

	for (j = 0; j < m->comp.n; j++)
		changed |= simplify_comp(m, m->comp.v[j], rulefn);
	return changed;
}

int
hlo_pass_algsimp(HloModule *m, HloPassCtx *cx)
{
	(void)cx;
	return algsimp_run(m, rule);
}
