/*
 * pass_simp.c - helpers of the simplification passes (see pass_simp.h):
 * visiting order, layout equality, constant operands, new instructions.
 */
#include <math.h>
#include <string.h>

#include "graph/eval.h"
#include "graph/pass_simp.h"

int *
simp_order(Arena *a, const HloComp *c)
{
	int n = c->instr.n, top, i, k, j, no = 0;
	int *order = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	int *stack = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	/* st: 0 not seen, 1 on the stack, 2 emitted */
	char *st = arena_alloc(a, (size_t)n + 1);

	for (i = 0; i < n; i++) {
		if (st[i])
			continue;
		top = 0;
		stack[top++] = i;
		st[i] = 1;
		while (top) {
			const HloInstr *in = c->instr.v[j = stack[top - 1]];
			int pushed = 0;
			for (k = 0; k < in->noperand && !pushed; k++)
				if (st[in->operand[k]] == 0) {
					st[in->operand[k]] = 1;
					stack[top++] = in->operand[k];
					pushed = 1;
				}
			if (pushed)
				continue;
			top--;
			st[j] = 2;
			order[no++] = j;
		}
	}
	return order;
}

static int
str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

int
simp_layout_eq(const HloShape *a, const HloShape *b)
{
	const HloLayout *x = &a->layout, *y = &b->layout;
	int i;

	if (a->type == HT_TUPLE || b->type == HT_TUPLE)
		return 0;
	if (hlo_layout_is_default(x, a->rank) &&
	    hlo_layout_is_default(y, b->rank))
		return a->rank == b->rank;
	if (!x->has || !y->has || x->nm2m != y->nm2m || x->ntile != y->ntile ||
	    x->memspace != y->memspace || !str_eq(x->mid, y->mid) ||
	    !str_eq(x->post, y->post))
		return 0;
	for (i = 0; i < x->nm2m; i++)
		if (x->m2m[i] != y->m2m[i])
			return 0;
	for (i = 0; i < x->ntile; i++)
		if (x->tile[i].n != y->tile[i].n || memcmp(x->tile[i].d,
		    y->tile[i].d, sizeof(int64_t) * (size_t)x->tile[i].n))
			return 0;
	return 1;
}

int
simp_interchangeable(const HloShape *a, const HloShape *b)
{
	return a->type != HT_TUPLE && hlo_shape_same(a, b) &&
	    simp_layout_eq(a, b);
}

HloShape
simp_shape(HloType t, int rank, const int64_t *dim, const HloShape *like)
{
	HloShape s = hlo_shape_array(t, rank, dim);
	int i;

	if (like && like->layout.has) {
		s.layout.has = 1;
		s.layout.nm2m = rank;
		for (i = 0; i < rank; i++)
			s.layout.m2m[i] = rank - 1 - i;
	}
	return s;
}

/*
 * A literal value as the double the rules compare; an s64 or u64 beyond
 * 2^53 in magnitude has none (NaN), so no rule mistakes it for its
 * rounding (2^53 + 1 for a power of two, say).
 */
static double
uniform_value(HloType t, HloElem x)
{
	uint64_t mag = t != HT_U64 && x.i < 0 ? 0 - (uint64_t)x.i :
	    (uint64_t)x.i;

	if (hlo_type_is_float(t))
		return ev_round(t, x.f);
	return mag <= (uint64_t)1 << 53 ? ev_double(t, x) : NAN;
}

int
simp_uniform(const HloComp *c, int i, double *v)
{
	const HloInstr *in = c->instr.v[i];
	HloType t;
	double x;
	int64_t k;

	if (in->op == HLO_BROADCAST)
		in = c->instr.v[in->operand[0]];
	t = in->shape.type;
	if (in->op != HLO_CONSTANT || t == HT_TUPLE || in->lit.n < 1 ||
	    in->lit.n != hlo_shape_elems(&in->shape))
		return 0;
	x = uniform_value(t, in->lit.v[0]);
	for (k = 1; k < in->lit.n; k++) {
		double y = uniform_value(t, in->lit.v[k]);
		if (memcmp(&x, &y, sizeof x) != 0)
			return 0;
	}
	*v = x;
	return !isnan(x) || hlo_type_is_float(t);
}

HloOp
simp_reducer(const HloModule *m, int callee, int *swap)
{
	const HloComp *f;
	const HloInstr *root, *x, *y;

	if (callee < 0 || callee >= m->comp.n)
		return HLO_INVALID;
	f = m->comp.v[callee];
	if (f->nparam != 2 || f->root < 0)
		return HLO_INVALID;
	root = f->instr.v[f->root];
	if (hlo_op_class(root->op) != HC_BINARY)
		return HLO_INVALID;
	x = f->instr.v[root->operand[0]];
	y = f->instr.v[root->operand[1]];
	if (x->op != HLO_PARAMETER || y->op != HLO_PARAMETER ||
	    x->num == y->num)
		return HLO_INVALID;
	*swap = x->num == 1;
	return root->op;
}

int
simp_add(HloModule *m, HloComp *c, HloOp op, const HloShape *shape,
    const int *ops, int nops, const HloInstr *from)
{
	HloInstr *in = hlo_add(m, c, op, shape, ops, nops);

	if (from)
		in->meta = from->meta;
	return c->instr.n - 1;
}

int
simp_scalar(HloModule *m, HloComp *c, HloType t, double v,
    const HloInstr *from)
{
	HloShape s = simp_shape(t, 0, NULL, NULL);
	int i = simp_add(m, c, HLO_CONSTANT, &s, NULL, 0, from);
	HloInstr *in = c->instr.v[i];

	in->lit.n = 1;
	in->lit.v = arena_alloc(m->arena, sizeof *in->lit.v);
	if (hlo_type_is_float(t))
		in->lit.v[0].f = v;
	else
		in->lit.v[0] = ev_from_double(t, v);
	return i;
}

int
simp_broadcast(HloModule *m, HloComp *c, int x, const HloShape *shape,
    const int64_t *dims, int n, const HloInstr *from)
{
	int i = simp_add(m, c, HLO_BROADCAST, shape, &x, 1, from);
	HloInstr *in = c->instr.v[i];

	in->dims.has = 1;
	in->dims.n = n;
	in->dims.v = arena_alloc(m->arena, sizeof(int64_t) * ((size_t)n + 1));
	if (n)
		memcpy(in->dims.v, dims, sizeof(int64_t) * (size_t)n);
	return i;
}
