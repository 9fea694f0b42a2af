/*
 * lower_reduce.c - part of the body lowering (lower.c): reductions that are
 * barriers: along rows, over leading dims, over lanes of wide rows, and
 * without keepdims.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include <math.h>
#include <string.h>

#include "backend/mosaic/lower.h"

/* v reduced over axis; a bf16 v in f32 (the result is f32). */
TRef
ml_reduce(L *l, TRef v, CxOp op, int axis)
{
	const TVal *av;
	Shape s;
	TVal t;
	int opi;
	TRef r;

	v = ml_widen(l, v);
	av = tile_val(l->f, v);
	s = av->shape;
	s.d[axis] = 1;
	t = ml_vec_type(l, av->dtype, &s, axis == s.rank - 1 ? TL_LANE_REPL :
	    TL_NATIVE);
	r = tile_emit(l->f, TOP_REDUCE, &v, 1, &t, &opi);
	l->f->op.v[opi].u.red.kind = op == CX_RMAX ? TR_MAX :
	    op == CX_RMIN ? TR_MIN : TR_SUM;
	l->f->op.v[opi].u.red.axis = axis;
	return r;
}

TRef
ml_scale(L *l, TRef v, int64_t n)
{
	const TVal *av = tile_val(l->f, v);
	TRef s = ml_splat(l, tile_const_f32(l->f, 1.0 / (double)n), av->dtype,
	    &av->shape);

	return tile_binop(l->f, TOP_MUL, v, s);
}

static TRef
identity(L *l, CxOp op, DType t, const Shape *s)
{
	TRef x;

	if (dtype_is_float(t))
		x = tile_const_f32(l->f, op == CX_RMAX ? -INFINITY :
		    op == CX_RMIN ? INFINITY : 0.0);
	else
		x = tile_const_i32(l->f, op == CX_RMAX ? INT32_MIN :
		    op == CX_RMIN ? INT32_MAX : 0);
	return ml_splat(l, x, t, s);
}

static TRef
combine(L *l, CxOp op, TRef a, TRef b)
{
	return tile_binop(l->f, op == CX_RMAX ? TOP_MAX : op == CX_RMIN ?
	    TOP_MIN : TOP_ADD, a, b);
}

/* One row chunk's partial reduction, combined into acc. */
static TRef
row_part(L *l, const CExpr *e, Ctx *c, TRef acc)
{
	const CExpr *a = e->arg[0];
	TRef part = ml_reduce(l, ml_ev(l, a, c), e->op, a->shape.rank - 2);

	return combine(l, e->op, acc, part);
}

typedef struct Rows {
	const CExpr *e;
	TRef home;		/* the keepdims result [.., 1, W] */
	Ctx c;			/* the plan over the operand */
} Rows;

/* One column chunk (or the whole width) of a reduction along rows: the
   rows in chunks, the partial [1, cols] result carried by the loop. */
static void
rows_fn(L *l, const Ctx *ck, void *arg)
{
	Rows *w = arg;
	const CExpr *e = w->e, *a = e->arg[0];
	int r = a->shape.rank;
	int64_t rows = a->shape.d[r - 2], full;
	Ctx c = w->c;
	Shape ks;
	TRef acc;
	int i;

	c.colpos = ck ? ck->colpos : TNONE;
	c.cols = ck ? ck->cols : 0;
	for (i = 0; ck && i + 2 < r; i++)
		c.lead[i] = ck->lead[i];
	if (c.rowpos == TNONE) {
		acc = ml_reduce(l, ml_ev(l, a, &c), e->op, r - 2);
	} else {
		ks = ml_chunk_shape(&c, &a->shape);
		ks.d[r - 2] = 1;
		acc = identity(l, e->op, ml_wide_dt(e->dtype), &ks);
		full = rows / c.rows * c.rows;
		c.rowpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), c.rows, &acc, 1);
		acc = row_part(l, e, &c, tile_block_arg(l->f, 1));
		acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
		if (rows > full) {
			c.rowpos = tile_const_i32(l->f, full);
			c.rows = rows - full;
			acc = row_part(l, e, &c, acc);
		}
	}
	if (e->op == CX_MEAN)
		acc = ml_scale(l, acc, rows);
	acc = ml_narrow(l, acc, e->dtype);
	if (ck)
		ml_store_chunk(l, ck, w->home, acc);
	else
		ml_store_whole(l, w->home, acc);
}

/* A reduction along rows (the second-last dim) into a home, squeezed
   when the reduction drops the dim. */
static Val
mat_reduce_rows(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	int r = a->shape.rank, i;
	Shape ks = a->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_REF, TNONE };
	Rows w;
	Ctx ck;
	int chunked, batched = 0;

	ks.d[r - 2] = 1;
	chunked = ml_plan(l, a->dtype, &a->shape, &w.c, e->loc, a);
	/* batched: one (row loop of one) matrix per trip of the leading
	   loops, whether or not the rows need chunks */
	for (i = 0; i + 2 < r; i++)
		if ((w.c.iter[i] = a->shape.d[i] > 1))
			batched = chunked = 1;
	ml_hoist(l, a, chunked ? &w.c : NULL);
	w.e = e;
	w.home = ml_home(l, e->dtype, &ks);
	memset(&ck, 0, sizeof ck);
	ck.r = r;
	ck.out = ks;
	for (i = 0; i + 2 < r; i++)
		ck.iter[i] = w.c.iter[i];
	ck.rowpos = TNONE;
	ck.colpos = w.c.colpos;
	ck.cols = w.c.cols;
	ml_run_chunks(l, ck.colpos != TNONE || batched ? &ck : NULL, rows_fn,
	    &w);
	v.r = w.home;
	if (!e->u.red.keepdims && !l->err) {
		ml_whole(idx, dyn, &ks);
		idx[r - 2].squeeze = 1;
		v.r = ml_mkview(l, v.r, idx, dyn, r);
	}
	return v;
}

typedef struct Wide {
	const CExpr *e;
	TRef home;
	int64_t cols;		/* column chunk */
} Wide;

static TRef
lane_part(L *l, const CExpr *e, Ctx *c, TRef acc)
{
	const CExpr *a = e->arg[0];
	TRef part = ml_reduce(l, ml_ev(l, a, c), e->op, a->shape.rank - 1);

	return combine(l, e->op, acc, part);
}

/* One row chunk of a lane reduction over wide rows: the columns in
   chunks, the partial [rows, 1] result carried. */
static void
lane_wide_fn(L *l, const Ctx *c0, void *arg)
{
	Wide *w = arg;
	const CExpr *a = w->e->arg[0];
	Ctx c = *c0;
	int64_t cols = a->shape.d[a->shape.rank - 1], full;
	Shape ks = ml_chunk_shape(&c, &w->e->shape);
	TRef acc = identity(l, w->e->op, ml_wide_dt(w->e->dtype), &ks);

	c.cols = w->cols;
	full = cols / c.cols * c.cols;
	if (full > 0) {
		c.colpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), c.cols, &acc, 1);
		acc = lane_part(l, w->e, &c, tile_block_arg(l->f, 1));
		acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
	}
	if (cols > full) {
		c.colpos = tile_const_i32(l->f, full);
		c.cols = cols - full;
		acc = lane_part(l, w->e, &c, acc);
	}
	if (w->e->op == CX_MEAN)
		acc = ml_scale(l, acc, cols);
	acc = ml_narrow(l, acc, w->e->dtype);
	c.colpos = TNONE;
	ml_store_chunk(l, &c, w->home, acc);
}

/* A lane reduction (keepdims) of rows too wide for one chunk. */
Val
ml_mat_lane_wide(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	Val v = { V_REF, TNONE };
	Wide w;
	Ctx c;

	ml_plan(l, a->dtype, &a->shape, &c, e->loc, a);
	ml_hoist(l, a, &c);
	w.e = e;
	w.home = ml_home(l, e->dtype, &e->shape);
	w.cols = c.cols > 0 ? c.cols : l->f->preset->lanes;
	c.colpos = TNONE;
	ml_run_chunks(l, &c, lane_wide_fn, &w);
	v.r = w.home;
	return v;
}

typedef struct Lead {
	const CExpr *e;
	TRef home;		/* the keepdims result */
	Ctx op;			/* the operand's chunk: the output's, with
				   the reduced dim iterated */
} Lead;

/* One chunk of a reduction over a leading dim: a loop over that dim
   carrying the chunk's partial result; the operand's tree is evaluated
   on one slice of the chunk per trip. */
static void
lead_fn(L *l, const Ctx *c, void *arg)
{
	Lead *w = arg;
	const CExpr *a = w->e->arg[0];
	int ax = w->e->u.red.axis, i;
	int64_t n = a->shape.d[ax];
	Shape ks = ml_chunk_shape(c, &tile_val(l->f, w->home)->shape);
	Ctx oc = w->op;
	TRef acc;

	if (c) {
		for (i = 0; i + 2 < oc.r; i++)
			oc.lead[i] = c->lead[i];
		oc.rowpos = c->rowpos;
		oc.rows = c->rows;
		oc.colpos = c->colpos;
		oc.cols = c->cols;
	}
	acc = identity(l, w->e->op, ml_wide_dt(w->e->dtype), &ks);
	oc.lead[ax] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
	    tile_const_i32(l->f, n), 1, &acc, 1);
	acc = combine(l, w->e->op, tile_block_arg(l->f, 1),
	    ml_widen(l, ml_ev(l, a, &oc)));
	acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
	if (w->e->op == CX_MEAN)
		acc = ml_scale(l, acc, n);
	acc = ml_narrow(l, acc, w->e->dtype);
	if (c)
		ml_store_chunk(l, c, w->home, acc);
	else
		ml_store_whole(l, w->home, acc);
}

/* A reduction over a leading dim (not one of the last two) into a home
   of the keepdims shape, computed in the chunks of that shape (each a
   loop over the reduced dim), squeezed when the reduction drops the
   dim. */
static Val
mat_reduce_lead(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	int r = a->shape.rank, ax = e->u.red.axis;
	Shape ks = a->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_REF, TNONE };
	Lead w;
	Ctx c;
	int chunked;

	ks.d[ax] = 1;
	chunked = ml_plan(l, e->dtype, &ks, &c, e->loc, NULL);
	w.e = e;
	w.op = c;
	w.op.out = a->shape;
	w.op.iter[ax] = 1;
	ml_hoist(l, a, &w.op);
	w.home = ml_home(l, e->dtype, &ks);
	ml_run_chunks(l, chunked ? &c : NULL, lead_fn, &w);
	v.r = w.home;
	if (!e->u.red.keepdims && !l->err) {
		ml_whole(idx, dyn, &ks);
		idx[ax].squeeze = 1;
		v.r = ml_mkview(l, v.r, idx, dyn, r);
	}
	return v;
}

/* The keepdims form of a reduction without keepdims. */
CExpr *
ml_keepdims(L *l, const CExpr *e)
{
	CExpr *k = arena_alloc(l->f->arena, sizeof *k);

	*k = *e;
	k->u.red.keepdims = 1;
	k->shape = e->arg[0]->shape;
	k->shape.d[e->u.red.axis] = 1;
	return k;
}

Val
ml_mat_reduce(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_NONE, TNONE };
	TVal t;

	if (a->shape.rank >= 2 && e->u.red.axis == a->shape.rank - 2)
		return mat_reduce_rows(l, e);
	if (e->u.red.axis != a->shape.rank - 1)
		return mat_reduce_lead(l, e);
	/* over lanes without keepdims: squeeze the keepdims value */
	v = ml_materialise(l, ml_keepdims(l, e));
	if (l->err || e->shape.rank == 0)
		return v;
	if (v.kind == V_SSA) {
		t = ml_vec_type(l, e->dtype, &e->shape, TL_NATIVE);
		v.r = ml_emit_wide(l, TOP_RESHAPE, &v.r, 1, &t, NULL);
		return v;
	}
	ml_whole(idx, dyn, &tile_val(l->f, v.r)->shape);
	idx[a->shape.rank - 1].squeeze = 1;
	v.r = ml_mkview(l, v.r, idx, dyn, a->shape.rank);
	return v;
}
