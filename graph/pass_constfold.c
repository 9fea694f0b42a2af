/*
 * pass_constfold.c - constant folding (XLA's HloConstantFolding): an
 * instruction whose operands are all constants, iotas or broadcasts of
 * them becomes a constant holding what the reference evaluator computes
 * for it, so a folded module evaluates exactly as the original did.  An
 * elementwise instruction on broadcast scalars folds to a broadcast of
 * one folded scalar instead, however large its shape.
 *
 * The instruction is evaluated as the root of a small computation made
 * of it and copies of its constant operand tree (ev_comp, eval.h); a
 * reducer it calls is the module's own.  If the evaluator cannot run it
 * (a type or opcode it does not support, a constant read as {...}), the
 * instruction stays.
 *
 * Left alone: parameters, constants, iotas and broadcasts themselves (a
 * broadcast or an iota is cheaper than the constant it would become),
 * opaque and side-effecting instructions, calls, custom-calls, tuples,
 * async copies, and float dots (their rounding is the target's).
 */
#include <stdlib.h>
#include <string.h>

#include "graph/eval.h"
#include "graph/pass_simp.h"

/*
 * Results above 2^16 elements stay unfolded: a constant is stored in
 * the module (and its text) element by element, so folding, say, an
 * iota-derived mask of [2048,2048] into 4M literal values would make the
 * program bigger and slower to handle than the few instructions that
 * compute it.  Operands are bounded too, to bound the time folding takes.
 */
enum { FOLD_MAXELEMS = 1 << 16, FOLD_MAXOPERAND = 1 << 20,
    FOLD_MAXDEPTH = 8 };

static int
foldable(const HloInstr *in)
{
	if (in->shape.type == HT_TUPLE || hlo_has_side_effect(in))
		return 0;
	switch (hlo_op_class(in->op)) {
	case HC_LEAF: case HC_PASS: return 0;
	default: break;
	}
	switch (in->op) {
	case HLO_BROADCAST: case HLO_TUPLE: case HLO_GTE: case HLO_FUSION:
	case HLO_CALL: case HLO_CUSTOM_CALL: case HLO_COPY_START:
	case HLO_COPY_DONE: case HLO_INVALID:
		return 0;
	case HLO_DOT:
		/* a float dot's value depends on the target's operand
		   precision (bf16 passes on the MXU); only integer dots
		   have one value to fold */
		return !hlo_type_is_float(in->shape.type);
	default:
		return 1;
	}
}

/* 1 if instruction i is a constant, an iota, or a broadcast of one. */
static int
constant_like(const HloComp *c, int i, int depth)
{
	const HloInstr *in = c->instr.v[i];

	if (depth > FOLD_MAXDEPTH || in->shape.type == HT_TUPLE ||
	    hlo_shape_elems(&in->shape) > FOLD_MAXOPERAND)
		return 0;
	switch (in->op) {
	case HLO_CONSTANT:
		return in->lit.n == hlo_shape_elems(&in->shape);
	case HLO_IOTA:
		return 1;
	case HLO_BROADCAST:
		return constant_like(c, in->operand[0], depth + 1);
	default:
		return 0;
	}
}

/* The rank-0 constant instruction i is or broadcasts, or -1. */
static int
scalar_of(const HloComp *c, int i)
{
	const HloInstr *in = c->instr.v[i];

	if (in->op == HLO_BROADCAST)
		in = c->instr.v[i = in->operand[0]];
	return in->op == HLO_CONSTANT && in->shape.rank == 0 &&
	    in->lit.n == 1 ? i : -1;
}

static int
elementwise(HloOp op)
{
	HloOpClass k = hlo_op_class(op);

	return k == HC_UNARY || k == HC_BINARY || op == HLO_COMPARE ||
	    op == HLO_SELECT || op == HLO_CLAMP || op == HLO_CONVERT ||
	    op == HLO_IS_FINITE;
}

typedef struct Tiny {
	Arena *a;
	const HloComp *src;
	HloComp c;
} Tiny;

/* Copies src instruction i (and its operand tree) into t; its index. */
static int
copy_tree(Tiny *t, int i)
{
	const HloInstr *in = t->src->instr.v[i];
	HloInstr *cp = arena_alloc(t->a, sizeof *cp);
	int k;

	*cp = *in;
	if (in->noperand) {
		cp->operand = arena_alloc(t->a, sizeof(int) *
		    (size_t)in->noperand);
		for (k = 0; k < in->noperand; k++)
			cp->operand[k] = copy_tree(t, in->operand[k]);
	}
	vec_push(t->a, &t->c.instr, cp);
	return t->c.instr.n - 1;
}

/*
 * Evaluates in (whose operands are the src instructions ops[k], copied
 * with their trees) with result shape 'shape'; NULL if it cannot.
 */
static Val *
evaluate(const HloModule *m, const HloComp *src, const HloInstr *in,
    const int *ops, const HloShape *shape, Arena *a)
{
	Tiny t;
	HloInstr *cp = arena_alloc(a, sizeof *cp);
	char err[256];
	Ev e;
	Val *r;
	int k;

	memset(&t, 0, sizeof t);
	t.a = a;
	t.src = src;
	t.c.name = "constant-folding";
	*cp = *in;
	cp->shape = *shape;
	cp->operand = arena_alloc(a, sizeof(int) * ((size_t)in->noperand + 1));
	for (k = 0; k < in->noperand; k++)
		cp->operand[k] = copy_tree(&t, ops[k]);
	vec_push(a, &t.c.instr, cp);
	t.c.root = t.c.instr.n - 1;
	memset(&e, 0, sizeof e);
	e.m = m;
	e.a = e.a0 = a;
	e.err = err;
	e.nerr = sizeof err;
	err[0] = 0;
	r = ev_comp(&e, &t.c, NULL, 0);
	if (e.failed || !r || r->shape.type == HT_TUPLE)
		r = NULL;
	else
		r = ev_copy(a, r);
	/* values of 64 KiB and more are malloc'd (eval.c) */
	for (k = 0; k < e.heap.n; k++)
		free(e.heap.v[k]);
	return r;
}

/* A new constant of 'shape' holding r's values. */
static int
new_constant(HloModule *m, HloComp *c, const HloShape *shape, const Val *r,
    const HloInstr *from)
{
	int i = simp_add(m, c, HLO_CONSTANT, shape, NULL, 0, from);
	HloInstr *k = c->instr.v[i];

	k->lit.n = r->n;
	k->lit.v = arena_alloc(m->arena, sizeof(double) * ((size_t)r->n + 1));
	if (r->n)
		memcpy(k->lit.v, r->v, sizeof(double) * (size_t)r->n);
	return i;
}

/* elementwise(broadcast scalars...) -> broadcast(folded scalar) */
static int
fold_scalars(HloModule *m, HloComp *c, int i, Arena *a)
{
	HloInstr *in = c->instr.v[i];
	int ops[8], k, s;
	HloShape sh;
	Val *r;

	if (!elementwise(in->op) || in->shape.rank == 0 || in->noperand > 8)
		return -1;
	for (k = 0; k < in->noperand; k++)
		if ((ops[k] = scalar_of(c, in->operand[k])) < 0)
			return -1;
	sh = simp_shape(in->shape.type, 0, NULL, NULL);
	if (!(r = evaluate(m, c, in, ops, &sh, a)))
		return -1;
	s = new_constant(m, c, &sh, r, in);
	return simp_broadcast(m, c, s, &in->shape, NULL, 0, in);
}

static int
fold(HloModule *m, HloComp *c, int i, Arena *a)
{
	HloInstr *in = c->instr.v[i];
	Val *r;
	int k, s;

	if (!foldable(in))
		return -1;
	for (k = 0; k < in->noperand; k++)
		if (!constant_like(c, in->operand[k], 0))
			return -1;
	if ((s = fold_scalars(m, c, i, a)) >= 0)
		return s;
	if (hlo_shape_elems(&in->shape) > FOLD_MAXELEMS ||
	    !(r = evaluate(m, c, in, in->operand, &in->shape, a)))
		return -1;
	return new_constant(m, c, &in->shape, r, in);
}

static int
fold_comp(HloModule *m, HloComp *c)
{
	Arena a = {0};
	int n0 = c->instr.n, *uses = hlo_use_counts(&a, c);
	int *order = simp_order(&a, c), k, i, r, changed = 0;

	for (k = 0; k < n0; k++) {
		Arena tmp = {0};
		i = order[k];
		if (uses[i] == 0)
			continue;
		r = fold(m, c, i, &tmp);
		arena_free(&tmp);
		if (r < 0)
			continue;
		hlo_replace_uses(c, i, r);
		changed = 1;
	}
	arena_free(&a);
	/* the folded instructions go, the new constants move up */
	if (changed)
		hlo_comp_clean(m, c);
	return changed;
}

int
hlo_pass_constfold(HloModule *m, HloPassCtx *cx)
{
	int j, changed = 0;

	(void)cx;
	for (j = 0; j < m->comp.n; j++)
		changed |= fold_comp(m, m->comp.v[j]);
	return changed;
}
