/*
 * lower_chunk.c - part of the body lowering (lower.c): chunk plans and chunk
 * loop nests, hoisting of barriers, snapshots, stores of expressions chunk
 * by chunk.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include <string.h>

#include "backend/mosaic/lower.h"

/* The chunk of a shape s (aligned to the output's last dims) in c. */
Shape
ml_chunk_shape(const Ctx *c, const Shape *s)
{
	Shape o = *s;
	int j, i;

	if (!c)
		return o;
	for (j = 0; j < s->rank; j++) {
		i = j + c->r - s->rank;
		if (i < 0 || s->d[j] == 1)
			continue;
		if (i < c->r - 2 && c->iter[i])
			o.d[j] = 1;
		else if (i == c->r - 2 && c->rowpos != TNONE)
			o.d[j] = c->rows;
		else if (i == c->r - 1 && c->colpos != TNONE)
			o.d[j] = c->cols;
	}
	return o;
}

/* Loads the chunk of a memory value of shape s (a ref view). */
TRef
ml_load_chunk(L *l, const Ctx *c, TRef ref, TLayKind k)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape cs = ml_chunk_shape(c, &rv->shape);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TVal t = ml_vec_type(l, rv->dtype, &cs, k);
	int j, i;

	ml_whole(idx, dyn, &rv->shape);
	for (j = 0; c && j < rv->shape.rank; j++) {
		i = j + c->r - rv->shape.rank;
		idx[j].size = cs.d[j];
		if (i < 0 || rv->shape.d[j] == 1)
			continue;
		if (i < c->r - 2 && c->iter[i])
			dyn[j] = c->lead[i];
		else if (i == c->r - 2 && c->rowpos != TNONE) {
			dyn[j] = c->rowpos;
			idx[j].multiple = c->rows;
		} else if (i == c->r - 1 && c->colpos != TNONE) {
			dyn[j] = c->colpos;
			idx[j].multiple = c->cols;
		}
	}
	return ml_view(l, ref, idx, dyn, rv->shape.rank, TOP_LOAD, &t);
}

void
ml_store_chunk(L *l, const Ctx *c, TRef ref, TRef v)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape cs = ml_chunk_shape(c, &rv->shape);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK], args[2 + SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	int j, i, na = 2, opi;

	ml_whole(idx, dyn, &rv->shape);
	args[0] = ref;
	args[1] = v;
	for (j = 0; j < rv->shape.rank; j++) {
		i = j + c->r - rv->shape.rank;
		d[j] = idx[j];
		d[j].size = cs.d[j];
		if (i < c->r - 2 && c->iter[i]) {
			d[j].dyn = na;
			args[na++] = c->lead[i];
		} else if (i == c->r - 2 && c->rowpos != TNONE) {
			d[j].dyn = na;
			d[j].multiple = c->rows;
			args[na++] = c->rowpos;
		} else if (i == c->r - 1 && c->colpos != TNONE) {
			d[j].dyn = na;
			d[j].multiple = c->cols;
			args[na++] = c->colpos;
		}
	}
	tile_emit(l->f, TOP_STORE, args, na, NULL, &opi);
	l->f->op.v[opi].u.idx.n = rv->shape.rank;
	l->f->op.v[opi].u.idx.d = d;
}

const Val *
ml_hoisted(L *l, const CExpr *e)
{
	int i;

	for (i = 0; i < l->hoist.n; i++)
		if (l->hoist.v[i].e == e)
			return &l->hoist.v[i].v;
	return NULL;
}

static void
add_hoist(L *l, const CExpr *e, Val v)
{
	Hoist h;

	h.e = e;
	h.v = v;
	vec_push(l->f->arena, &l->hoist, h);
}

/* Does a vector of shape s need slicing along iterated dims of c? */
static int
needs_slicing(const Ctx *c, const Shape *s)
{
	Shape cs = ml_chunk_shape(c, s);

	return !shape_eq(&cs, s);
}

int
ml_is_lane_reduce(const CExpr *e)
{
	return e->op >= CX_SUM && e->op <= CX_MEAN && e->u.red.keepdims &&
	    e->arg[0]->shape.rank >= 1 &&
	    e->u.red.axis == e->arg[0]->shape.rank - 1;
}

/* Are the rows of s wider than a chunk (column chunks needed)? */
int
ml_wide(const MachPreset *p, const Shape *s)
{
	int64_t cols = s->rank ? s->d[s->rank - 1] : 1;

	return (cols + p->lanes - 1) / p->lanes > mosaic_vreg_budget(p) / 2;
}

/* A lane-wise op (lane reduction, lane roll) on rows of one chunk. */
int
ml_lane_op_ok(L *l, const CExpr *e)
{
	if (e->op == CX_ROLL)
		return e->u.axis == e->shape.rank - 1 &&
		    !ml_wide(l->f->preset, &e->shape);
	return ml_is_lane_reduce(e) &&
	    !ml_wide(l->f->preset, &e->arg[0]->shape);
}

static int
is_chunkable(L *l, const CExpr *e)
{
	switch (e->op) {
	case CX_CONST: case CX_SLOT: case CX_LOAD:
		return 0;	/* leaves */
	case CX_ROLL: case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return ml_lane_op_ok(l, e);
	case CX_IOTA: case CX_BROADCAST:
		return 1;
	default:
		return ml_ew_op(e->op) != TOP_NOP ||
		    ml_cmp_of(e->op, &(TCmp){0});
	}
}

/* Does a value of the chunk-evaluated part of e exceed the budget? */
int
ml_tree_big(L *l, const CExpr *e)
{
	int i;

	if (e->shape.rank == 0)
		return 0;
	if (mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home)
		return 1;
	if (!is_chunkable(l, e))
		return 0;
	for (i = 0; i < e->n; i++)
		if (ml_tree_big(l, e->arg[i]))
			return 1;
	return 0;
}

/*
 * Plans the chunk loop nest over out (dtype t) for computing e (NULL: a
 * copy): fills c and returns 1 when the output or a value computed on
 * the way needs chunks, 0 when everything fits in registers whole.
 */
int
ml_plan(L *l, DType t, const Shape *out, Ctx *c, Loc loc, const CExpr *e)
{
	TLayout lay = mosaic_layout(l->f->preset, t, out, TL_NATIVE);
	int64_t cols, colv;
	int i;

	memset(c, 0, sizeof *c);
	c->r = out->rank;
	c->out = *out;
	c->rowpos = TNONE;
	c->colpos = TNONE;
	if ((!lay.home && !(e && ml_tree_big(l, e)) &&
	    !ml_wide(l->f->preset, out)) || out->rank == 0)
		return 0;
	if (!lay.home)
		lay.chunk_rows = lay.tile_r;
	cols = out->d[out->rank - 1];
	colv = (cols + lay.tile_c - 1) / lay.tile_c;
	(void)loc;
	if (colv > mosaic_vreg_budget(l->f->preset) / 2) {
		/* wide rows: column chunks of half the budget */
		c->cols = (int64_t)lay.tile_c *
		    (mosaic_vreg_budget(l->f->preset) / 2);
		c->colpos = (TRef)~0u;
	}
	for (i = 0; i + 2 < out->rank; i++)
		c->iter[i] = out->d[i] > 1;
	c->rows = out->rank >= 2 ? out->d[out->rank - 2] : 1;
	if (c->rows > lay.chunk_rows) {
		c->rows = lay.chunk_rows;
		c->rowpos = (TRef)~0u;	/* planned: set by the loops */
	}
	return 1;
}

/* The column chunks of one row chunk (or the whole width). */
static void
col_loop(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	int64_t cols, cc = c->cols, full;

	if (c->colpos == TNONE) {
		fn(l, c, arg);
		return;
	}
	cols = c->out.d[c->r - 1];
	full = cols / cc * cc;
	if (full / cc >= 2) {
		c->colpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), cc, NULL, 0);
		fn(l, c, arg);
		tile_end_for(l->f, NULL);
	} else {
		c->colpos = tile_const_i32(l->f, 0);
		fn(l, c, arg);
	}
	if (cols > full) {
		c->cols = cols - full;
		c->colpos = tile_const_i32(l->f, full);
		fn(l, c, arg);
		c->cols = cc;
	}
	c->colpos = (TRef)~0u;
}

static void
row_loop(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	int64_t rows = c->out.d[c->r - 2], cr = c->rows;
	int64_t full = rows / cr * cr;

	if (full / cr >= 2) {
		c->rowpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), cr, NULL, 0);
		col_loop(l, c, fn, arg);
		tile_end_for(l->f, NULL);
	} else {
		c->rowpos = tile_const_i32(l->f, 0);
		col_loop(l, c, fn, arg);
	}
	if (rows > full) {
		c->rows = rows - full;
		c->rowpos = tile_const_i32(l->f, full);
		col_loop(l, c, fn, arg);
		c->rows = cr;
	}
	c->rowpos = (TRef)~0u;
}

static void
lead_loops(L *l, Ctx *c, int i, ChunkFn *fn, void *arg)
{
	if (i < c->r - 2) {
		if (!c->iter[i]) {
			lead_loops(l, c, i + 1, fn, arg);
			return;
		}
		c->lead[i] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, c->out.d[i]), 1, NULL, 0);
		lead_loops(l, c, i + 1, fn, arg);
		tile_end_for(l->f, NULL);
		return;
	}
	if (c->rowpos != TNONE)
		row_loop(l, c, fn, arg);
	else
		col_loop(l, c, fn, arg);
}

/* Runs fn once per chunk of the plan c (NULL: once, whole). */
void
ml_run_chunks(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	if (!c || l->err) {
		if (!l->err)
			fn(l, NULL, arg);
		return;
	}
	lead_loops(l, c, 0, fn, arg);
}

static void
copy_fn(L *l, const Ctx *c, void *arg)
{
	TRef *sd = arg;

	ml_store_chunk(l, c, sd[1], ml_load_chunk(l, c, sd[0], TL_NATIVE));
}

/* Copies the memory value ref into a new home (or SSA when small). */
Val
ml_snapshot(L *l, TRef ref, Loc loc)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape s = rv->shape;
	DType t = rv->dtype;
	TRef sd[2];
	Val v;
	Ctx c;

	if (!ml_plan(l, t, &s, &c, loc, NULL)) {
		v.kind = V_SSA;
		v.r = ml_load_whole(l, ref);
		return v;
	}
	sd[0] = ref;
	sd[1] = ml_home(l, t, &s);
	ml_run_chunks(l, &c, copy_fn, sd);
	v.kind = V_REF;
	v.r = sd[1];
	return v;
}

/* A rank-0 value computed on the VPU (ml_scalar_on_vpu): the values it
   takes out of vectors, as [1, .., 1] vectors. */
static void
hoist_vscalar(L *l, const CExpr *e, const Ctx *c)
{
	int i;

	switch (e->op) {
	case CX_SLOT:
		return;
	case CX_LOAD:
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		add_hoist(l, e, ml_ev_val(l, e));
		return;
	default:
		for (i = 0; i < e->n; i++)
			ml_hoist(l, e->arg[i], c);
	}
}

void
ml_hoist(L *l, const CExpr *e, const Ctx *c)
{
	Val v;
	int i;

	if (l->err || ml_hoisted(l, e))
		return;
	if (e->shape.rank == 0 && ml_scalar_on_vpu(l, e)) {
		hoist_vscalar(l, e, c);
		return;
	}
	if (e->shape.rank == 0) {
		v.kind = V_SCALAR;
		v.r = ml_ev_scalar(l, e);
		add_hoist(l, e, v);
		return;
	}
	switch (e->op) {
	case CX_CONST:
		return;
	case CX_SLOT:
		v = l->slot[e->u.slot];
		if (v.kind == V_SSA && c && needs_slicing(c, &e->shape)) {
			v.r = ml_as_ref(l, v, e->loc);
			v.kind = V_REF;
			add_hoist(l, e, v);
		}
		return;
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_EXP: case CX_LOG:
	case CX_SQRT: case CX_RSQRT: case CX_TANH: case CX_ABS: case CX_CAST:
	case CX_ADD: case CX_SUB: case CX_MUL: case CX_DIV: case CX_MOD:
	case CX_MAX: case CX_MIN: case CX_SHL: case CX_SHR: case CX_BITAND:
	case CX_BITOR: case CX_BITXOR: case CX_AND: case CX_OR: case CX_LT:
	case CX_LE: case CX_GT: case CX_GE: case CX_EQ: case CX_NE:
	case CX_WHERE: case CX_SELECT: case CX_IOTA: case CX_BROADCAST:
		for (i = 0; i < e->n; i++)
			ml_hoist(l, e->arg[i], c);
		return;
	case CX_ROLL:
		if (ml_lane_op_ok(l, e)) {
			ml_hoist(l, e->arg[0], c);
			ml_hoist(l, e->arg[1], c);
			return;
		}
		break;
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		if (ml_lane_op_ok(l, e)) {
			ml_hoist(l, e->arg[0], c);
			return;
		}
		break;
	default:
		break;
	}
	v = ml_materialise(l, e);
	if (v.kind == V_SSA && c && needs_slicing(c, &e->shape)) {
		v.r = ml_as_ref(l, v, e->loc);
		v.kind = V_REF;
	}
	add_hoist(l, e, v);
}

typedef struct StoreArg {
	TRef dst;
	const CExpr *e;
	CxOp acc;		/* NCXOP: plain store */
} StoreArg;

static void
store_fn(L *l, const Ctx *c, void *arg)
{
	StoreArg *sa = arg;
	const TVal *dv = tile_val(l->f, sa->dst);
	Shape cs = ml_chunk_shape(c, &dv->shape);
	TRef v, old;

	if (sa->e->shape.rank == 0 && ml_scalar_on_vpu(l, sa->e)) {
		v = ml_ev_arg(l, sa->e, c, &cs);
	} else {
		v = ml_ev(l, sa->e, c);
		if (!l->err && tile_val(l->f, v)->kind == TV_SCALAR)
			v = ml_splat(l, v, dv->dtype, &cs);
	}
	if (l->err)
		return;
	if (sa->acc != NCXOP) {
		old = ml_load_chunk(l, c, sa->dst, TL_NATIVE);
		v = ml_binop(l, ml_ew_op(sa->acc), old, v);
	}
	if (c)
		ml_store_chunk(l, c, sa->dst, v);
	else
		ml_store_whole(l, sa->dst, v);
}

/* dst (a ref) = e, or dst = dst acc e; chunked as dst needs. */
void
ml_store_expr(L *l, TRef dst, const CExpr *e, CxOp acc, Loc loc)
{
	const TVal *dv = tile_val(l->f, dst);
	StoreArg sa;
	Ctx c;
	int chunked = ml_plan(l, dv->dtype, &dv->shape, &c, loc, e);

	ml_hoist(l, e, chunked ? &c : NULL);
	sa.dst = dst;
	sa.e = e;
	sa.acc = acc;
	ml_run_chunks(l, chunked ? &c : NULL, store_fn, &sa);
}
