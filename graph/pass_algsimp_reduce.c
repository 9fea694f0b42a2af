/*
 * pass_algsimp_reduce.c - the algebraic simplifier's reduce and dot
 * rules.  A reduce over dimensions of size 1 folds each element into the
 * initial value once, so it is the reducer's elementwise op on the init
 * value and the reshaped operand (the same single rounding; the init
 * value stays, since x + 0.0 is not x for x = -0.0, and the identity
 * rules drop it where it is one).  A max/min/and/or reduce of a
 * broadcast along the broadcast's new dimensions meets the same value
 * again and again, which such an op absorbs: it is op(init, x) on a
 * smaller broadcast.  A dot of a transpose reads the transpose's operand
 * with renumbered dimensions when the output order allows (XLA's
 * transpose folding): the same products summed in the same order.
 */
#include <string.h>

#include "graph/pass_algsimp.h"

/* op(init, x) or op(x, init), as the reducer orders acc and element. */
static int
fold_init(Simp *s, HloInstr *in, HloOp op, int swap, int x)
{
	int init = in->operand[1], ops[2];

	if (in->shape.rank > 0)
		init = simp_broadcast(s->m, s->c, init, &in->shape, NULL, 0,
		    in);
	ops[swap] = init;
	ops[!swap] = x;
	return simp_add(s->m, s->c, op, &in->shape, ops, 2, in);
}

/* reduce over size-1 dims: op(init, reshape(x)). */
static int
degenerate_reduce(Simp *s, int i, HloOp op, int swap)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	int k, r = in->operand[0];

	for (k = 0; k < in->dims.n; k++)
		if (x->shape.dim[in->dims.v[k]] != 1)
			return -1;
	if (!hlo_shape_same(&x->shape, &in->shape)) {
		if (!algsimp_plain(&x->shape) || !algsimp_plain(&in->shape))
			return -1;
		r = simp_add(s->m, s->c, HLO_RESHAPE, &in->shape, &r, 1, in);
	}
	return fold_init(s, in, op, swap, r);
}

static int
reduced(const HloInstr *in, int64_t d)
{
	int k;

	for (k = 0; k < in->dims.n; k++)
		if (in->dims.v[k] == d)
			return 1;
	return 0;
}

/* max/min/and/or of broadcast(y) along added dims: op(init, bcast'(y)) */
static int
reduce_of_broadcast(Simp *s, int i, HloOp op, int swap)
{
	HloInstr *in = SI(s, i), *b = SI(s, in->operand[0]);
	int64_t *nd;
	int k, j, r;

	if (b->op != HLO_BROADCAST || (op != HLO_MAXIMUM &&
	    op != HLO_MINIMUM && op != HLO_AND && op != HLO_OR))
		return -1;
	for (k = 0; k < in->dims.n; k++) {
		/* an empty reduction gives init, which op(init, y) is not */
		if (b->shape.dim[in->dims.v[k]] < 1)
			return -1;
		for (j = 0; j < b->dims.n; j++)
			if (b->dims.v[j] == in->dims.v[k])
				return -1;
	}
	nd = arena_alloc(s->m->arena, sizeof(int64_t) *
	    ((size_t)b->dims.n + 1));
	for (j = 0; j < b->dims.n; j++) {
		int64_t d = b->dims.v[j], below = 0, t;
		for (t = 0; t < d; t++)
			below += reduced(in, t);
		nd[j] = d - below;
	}
	r = simp_broadcast(s->m, s->c, b->operand[0], &in->shape, nd,
	    b->dims.n, b);
	return fold_init(s, in, op, swap, r);
}

int
algsimp_reduce_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	int swap, r;
	HloOp op;

	if (in->noperand != 2 || (op = simp_reducer(s->m, in->callee,
	    &swap)) == HLO_INVALID)
		return -1;
	if ((r = degenerate_reduce(s, i, op, swap)) >= 0)
		return r;
	return reduce_of_broadcast(s, i, op, swap);
}

/* 1 if dim d of a dot operand is among ds. */
static int
listed(const HloInts *ds, int64_t d)
{
	int k;

	for (k = 0; k < ds->n; k++)
		if (ds->v[k] == d)
			return 1;
	return 0;
}

/*
 * Folds a transpose feeding side 'side' (0 lhs, 1 rhs) of the dot into
 * its dimension numbers, when the operand's free dims keep their order.
 */
static int
fold_transpose(Simp *s, int i, int side)
{
	HloInstr *in = SI(s, i), *t = SI(s, in->operand[side]), *d;
	const HloInts *bt = &in->dot[side ? DOT_RHS_BATCH : DOT_LHS_BATCH];
	const HloInts *ct = &in->dot[side ? DOT_RHS_CONTRACT :
	    DOT_LHS_CONTRACT];
	int64_t *nb, *nc, last = -1;
	int k, r, ops[2];
	const char *name;
	int *opv;

	if (t->op != HLO_TRANSPOSE)
		return -1;
	for (k = 0; k < t->dims.n; k++) {
		if (listed(bt, k) || listed(ct, k))
			continue;
		if (t->dims.v[k] < last)
			return -1;	/* the output's dims would reorder */
		last = t->dims.v[k];
	}
	nb = arena_alloc(s->m->arena, sizeof(int64_t) * ((size_t)bt->n + 1));
	nc = arena_alloc(s->m->arena, sizeof(int64_t) * ((size_t)ct->n + 1));
	for (k = 0; k < bt->n; k++)
		nb[k] = t->dims.v[bt->v[k]];
	for (k = 0; k < ct->n; k++)
		nc[k] = t->dims.v[ct->v[k]];
	ops[0] = in->operand[0];
	ops[1] = in->operand[1];
	ops[side] = t->operand[0];
	r = simp_add(s->m, s->c, HLO_DOT, &in->shape, ops, 2, in);
	d = SI(s, r);
	name = d->name;
	opv = d->operand;
	*d = *in;
	d->name = name;
	d->operand = opv;
	d->dot[side ? DOT_RHS_BATCH : DOT_LHS_BATCH] =
	    (HloInts){ nb, bt->n, 1 };
	d->dot[side ? DOT_RHS_CONTRACT : DOT_LHS_CONTRACT] =
	    (HloInts){ nc, ct->n, 1 };
	return r;
}

/*
 * Side 'side' of a dot whose contracting dims all have size 1, as an
 * operand of the multiply that replaces it: its dims other than those
 * (dim[0..n)) and where they go in the result (map): batch dims onto the
 * leading ones, free dims after the batch dims and, for the rhs, the
 * lhs's free dims.  -1 when they would not map in increasing order.
 */
static int
dot_map(Simp *s, int i, int side, int64_t *dim, int64_t *map)
{
	HloInstr *in = SI(s, i);
	const HloShape *a = &SI(s, in->operand[side])->shape;
	const HloShape *l = &SI(s, in->operand[0])->shape;
	const HloInts *bt = &in->dot[side ? DOT_RHS_BATCH : DOT_LHS_BATCH];
	const HloInts *ct = &in->dot[side ? DOT_RHS_CONTRACT :
	    DOT_LHS_CONTRACT];
	int first = bt->n + (side ? l->rank - bt->n -
	    in->dot[DOT_LHS_CONTRACT].n : 0);
	int n = 0, free = 0, d, k;

	for (d = 0; d < a->rank; d++) {
		if (listed(ct, d))
			continue;
		for (k = 0; k < bt->n && bt->v[k] != d; k++)
			;
		map[n] = k < bt->n ? k : first + free++;
		if (n > 0 && map[n] <= map[n - 1])
			return -1;
		dim[n++] = a->dim[d];
	}
	return n;
}

/* That side without its size-1 dims (reshape), in the result's type
   (convert), broadcast to the result. */
static int
dot_side(Simp *s, int i, int side)
{
	HloInstr *in = SI(s, i);
	int x = in->operand[side];
	const HloShape *a = &SI(s, x)->shape;
	int64_t dim[HLO_MAXRANK], map[HLO_MAXRANK];
	int n = dot_map(s, i, side, dim, map);
	HloShape sh;

	if (n != a->rank) {
		sh = simp_shape(a->type, n, dim, a);
		x = simp_add(s->m, s->c, HLO_RESHAPE, &sh, &x, 1, in);
	}
	if (a->type != in->shape.type) {
		sh = simp_shape(in->shape.type, n, dim, a);
		x = simp_add(s->m, s->c, HLO_CONVERT, &sh, &x, 1, in);
	}
	return simp_broadcast(s->m, s->c, x, &in->shape, map, n, in);
}

/*
 * XLA's dot strength reduction: a float dot whose contracting dims all
 * have size 1 sums one product per element, so it is a multiply of its
 * broadcast operands plus +0.0 (the dot's sum starts there, which turns
 * a product of -0.0 into +0.0), rounded alike.  Integers stay (the
 * evaluator's dot sums in double, its multiply wraps).  At the default
 * precision the MXU would round f32 operands to bf16; the multiply is
 * exact, which a default precision allows.
 */
static int
dot_to_multiply(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	const HloShape *a = &SI(s, in->operand[0])->shape;
	const HloInts *ct = &in->dot[DOT_LHS_CONTRACT];
	int64_t dim[HLO_MAXRANK], map[HLO_MAXRANK];
	int k, ops[2];

	if (!hlo_type_is_float(in->shape.type) || !algsimp_plain(&in->shape) ||
	    !algsimp_plain(a) || !algsimp_plain(&SI(s, in->operand[1])->shape))
		return -1;
	for (k = 0; k < ct->n; k++)
		if (a->dim[ct->v[k]] != 1)
			return -1;
	if (dot_map(s, i, 0, dim, map) < 0 || dot_map(s, i, 1, dim, map) < 0)
		return -1;
	ops[0] = dot_side(s, i, 0);
	ops[1] = dot_side(s, i, 1);
	ops[0] = simp_add(s->m, s->c, HLO_MULTIPLY, &in->shape, ops, 2, in);
	ops[1] = simp_broadcast(s->m, s->c, simp_scalar(s->m, s->c,
	    in->shape.type, 0.0, in), &in->shape, NULL, 0, in);
	return simp_add(s->m, s->c, HLO_ADD, &in->shape, ops, 2, in);
}

int
algsimp_dot_rule(Simp *s, int i)
{
	int r;

	if (SI(s, i)->noperand != 2)
		return -1;
	if ((r = fold_transpose(s, i, 0)) >= 0)
		return r;
	if ((r = fold_transpose(s, i, 1)) >= 0)
		return r;
	return dot_to_multiply(s, i);
}
