/*
 * lower_dot.c - part of the body lowering (lower.c): dots (TOP_MATMUL,
 * memory to memory), batched dots one matmul per batch index.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include "backend/mosaic/lower.h"

static void
matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	TRef args[3];
	int opi;

	args[0] = dst;
	args[1] = a;
	args[2] = b;
	tile_emit(l->f, TOP_MATMUL, args, 3, NULL, &opi);
	l->f->op.v[opi].loc = e->loc;
	l->f->op.v[opi].u.mm.trans_b = e->u.dot.trans_b;
	l->f->op.v[opi].u.mm.prec = e->u.dot.prec;
	l->f->op.v[opi].u.mm.acc = e->u.dot.acc;
	l->f->op.v[opi].u.mm.accumulate = accumulate;
}

/* Squeezed views of r at batch k (the leading dims, row-major). */
static TRef
batch_view(L *l, TRef r, int64_t k)
{
	const Shape *s = &tile_val(l->f, r)->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	int i;

	ml_whole(idx, dyn, s);
	for (i = s->rank - 3; i >= 0; i--) {
		idx[i].start = k % s->d[i];
		idx[i].size = 1;
		idx[i].squeeze = 1;
		k /= s->d[i];
	}
	return ml_mkview(l, r, idx, dyn, s->rank);
}

/*
 * dst = a . b (accumulate: +=).  A batched dot (rank > 2, one batch
 * shape for the three, as sema checks) is one matmul per batch index on
 * squeezed views: the MXU multiplies matrices.
 */
void
ml_matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	const Shape *s = &tile_val(l->f, dst)->shape;
	int64_t n = 1, k;
	int i;

	if (s->rank <= 2)
		return matmul(l, dst, a, b, e, accumulate);
	for (i = 0; i < s->rank - 2; i++)
		n *= s->d[i];
	for (k = 0; k < n && !l->err; k++)
		matmul(l, batch_view(l, dst, k), batch_view(l, a, k),
		    batch_view(l, b, k), e, accumulate);
}

/* The operands of a dot as refs: a and b; 0, or -1 after an error. */
int
ml_dot_operands(L *l, const CExpr *e, TRef *a, TRef *b)
{
	if (e->arg[0]->shape.rank < 2 || e->arg[1]->shape.rank < 2 ||
	    e->arg[0]->shape.rank != e->arg[1]->shape.rank) {
		ml_error(l, e->loc, "dot of rank-1 or mixed-rank operands is "
		    "not supported yet");
		return -1;
	}
	*a = ml_as_ref(l, ml_materialise(l, e->arg[0]), e->loc);
	*b = ml_as_ref(l, ml_materialise(l, e->arg[1]), e->loc);
	if (l->err)
		return -1;
	if (e->u.dot.trans_a)
		*a = ml_transpose_ref(l, *a);
	return 0;
}

Val
ml_mat_dot(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef a, b;

	if (ml_dot_operands(l, e, &a, &b))
		return v;
	v.r = ml_home(l, e->dtype, &e->shape);
	ml_matmul(l, v.r, a, b, e, 0);
	return v;
}
