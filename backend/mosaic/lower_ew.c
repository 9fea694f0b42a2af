/*
 * lower_ew.c - part of the body lowering (lower.c): the elementwise tree
 * evaluated on one chunk (arithmetic, compares, selects, iota, broadcasts,
 * lane rolls, lane reductions).
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include "backend/mosaic/lower.h"

/*
 * bf16 arithmetic (doc/language.md, section 3).  The VPU has no bf16 ALU
 * (nor has a TPU v4's), so, as Mosaic canonicalises bf16 on such chips,
 * every bf16 vector operand is widened to f32 (unpacked), the op computes
 * in f32, and a bf16 result is rounded back (packed) after each op:
 * interpret mode's rounding points.  Reductions widen their operand and
 * carry f32 partials, rounded once at the end (lower_reduce.c).
 *
 * i8 likewise computes in i32: operands sign-extended (unpacked), the op
 * in i32, the result wrapped to i8 when the op can leave its range
 * (ml_fix_i8) or saturated by a cast, as interpret mode does.  An i8
 * value is packed only where it leaves the expression tree (a store, a
 * relayout); an i8 operand of an op takes its operand's i32 result as
 * it is, which is exact (no pack and unpack between ops).
 */
DType
ml_wide_dt(DType t)
{
	return t == DT_BF16 ? DT_F32 : t == DT_I8 ? DT_I32 : t;
}

static TRef
convert(L *l, TRef v, DType from, DType to)
{
	const TVal *tv = tile_val(l->f, v);
	TVal w;

	if (tv->kind != TV_VEC || tv->dtype != from)
		return v;
	w = ml_vec_type(l, to, &tv->shape, tv->lay.kind);
	return tile_emit(l->f, TOP_CONVERT, &v, 1, &w, NULL);
}

/* A bf16 vector as f32, an i8 one as i32; anything else as it is. */
TRef
ml_widen(L *l, TRef v)
{
	return convert(l, convert(l, v, DT_BF16, DT_F32), DT_I8, DT_I32);
}

/* The i32 vector v, whose elements lie in [-128, 127], packed as i8. */
static TRef
pack_i8(L *l, TRef v)
{
	return convert(l, v, DT_I32, DT_I8);
}

/* An f32 (i32) vector computed for a value of dtype t: rounded when t is
   bf16, wrapped and packed when t is i8. */
TRef
ml_narrow(L *l, TRef v, DType t)
{
	const TVal *tv = tile_val(l->f, v);

	if (t == DT_I8 && tv->kind == TV_VEC && tv->dtype == DT_I32)
		return pack_i8(l, ml_wrap_i8(l, v));
	return t == DT_BF16 ? convert(l, v, DT_F32, DT_BF16) : v;
}

/* a op b for vectors of one dtype, bf16 through f32, i8 through i32. */
TRef
ml_binop(L *l, TOpKind op, TRef a, TRef b)
{
	DType t = tile_val(l->f, a)->dtype;

	return ml_narrow(l, tile_binop(l->f, op, ml_widen(l, a),
	    ml_widen(l, b)), t);
}

/* op of a[0 .. n) (a[0] a vector) with result type t; a bf16 vector
   moves as f32 (relayouts, rolls: exact).  *opi as tile_emit's. */
TRef
ml_emit_wide(L *l, TOpKind op, TRef *a, int n, const TVal *t, int *opi)
{
	TVal w = ml_vec_type(l, ml_wide_dt(t->dtype), &t->shape,
	    t->lay.kind);
	TRef r;

	a[0] = ml_widen(l, a[0]);
	r = tile_emit(l->f, op, a, n, &w, opi);
	return t->dtype == DT_I8 ? pack_i8(l, r) : ml_narrow(l, r, t->dtype);
}

static TRef ev_ew(L *l, const CExpr *e, const Ctx *c, const Shape *cs);
static TRef ev_ew_wide(L *l, const CExpr *e, const Ctx *c,
    const Shape *cs);
static TRef ev_broadcast(L *l, const CExpr *e, const Ctx *c,
    const Shape *cs, int wide);

/* The scalar s (an i8 one as its i32 value) splatted to a vector of
   dtype t: i8 directly (isel repeats the byte), bf16 rounded from f32. */
TRef
ml_splat(L *l, TRef s, DType t, const Shape *sh)
{
	TVal ty = ml_vec_type(l, t == DT_I8 ? t : ml_wide_dt(t), sh,
	    TL_NATIVE);

	return ml_narrow(l, tile_emit(l->f, TOP_SPLAT, &s, 1, &ty, NULL), t);
}

static TRef
leaf(L *l, const Ctx *c, Val v)
{
	if (v.kind == V_REF)
		return ml_load_chunk(l, c, v.r, TL_NATIVE);
	return v.r;
}

/*
 * Scalars on the VPU.  The scalar unit has i32 and bool ALUs only (f32
 * division is a software sequence there), and no path from vector
 * registers to scalar ones but a DMA (ml_extract): a rank-0 value that
 * is other f32 arithmetic (or an f32 compare, or a conversion to or
 * from f32), a full reduction or an element of a VMEM block is computed
 * on the VPU instead, where a vector uses it: its leaves splatted (or,
 * for values taken out of vectors, their [1, .., 1] vectors broadcast)
 * to the chunk, the ops done on the chunk.
 */
int
ml_scalar_on_vpu(L *l, const CExpr *e)
{
	int i;

	if (e->shape.rank != 0)
		return 0;
	switch (e->op) {
	case CX_CONST: case CX_AXIS: case CX_NPROG:
		return 0;
	case CX_SLOT:
		return l->slot[e->u.slot].kind == V_SSA;
	case CX_LOAD:
		return tile_val(l->f, ml_ref_of(l, e->u.load.ref))->mem.space
		    != TS_SMEM;
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return 1;
	case CX_WHERE: case CX_SELECT:
		break;
	case CX_DIV:	/* the scalar unit divides f32 (isel_sdiv.c) */
		break;
	case CX_CAST:
		if (ml_scalar_dt(e->dtype) != ml_scalar_dt(e->arg[0]->dtype) &&
		    (dtype_is_float(e->dtype) ||
		    dtype_is_float(e->arg[0]->dtype)))
			return 1;
		break;
	default:
		if (dtype_is_float(e->dtype) || (e->n == 2 &&
		    dtype_is_float(e->arg[0]->dtype)))
			return 1;
		break;
	}
	for (i = 0; i < e->n; i++)
		if (ml_scalar_on_vpu(l, e->arg[i]))
			return 1;
	return 0;
}

/* A [1, .., 1] vector v as a vector of shape cs (every element v's). */
static TRef
bcast_ones(L *l, TRef v, DType t, const Shape *cs)
{
	const TVal *vv = tile_val(l->f, v);
	Shape ones = *cs;
	TVal ty;
	int i;

	for (i = 0; i < ones.rank; i++)
		ones.d[i] = 1;
	if (vv->shape.rank != ones.rank) {
		ty = ml_vec_type(l, t, &ones, TL_NATIVE);
		v = tile_emit(l->f, TOP_RESHAPE, &v, 1, &ty, NULL);
	}
	if (shape_eq(&ones, cs))
		return v;
	ty = ml_vec_type(l, t, cs, TL_NATIVE);
	return tile_emit(l->f, TOP_BROADCAST, &v, 1, &ty, NULL);
}

/* The [1, .., 1] vector of a value taken out of vectors (hoisted). */
static TRef
vpu_leaf(L *l, const CExpr *e)
{
	const Val *h = ml_hoisted(l, e);
	Val v;

	if (h)
		v = *h;
	else if (e->op == CX_SLOT)
		v = l->slot[e->u.slot];
	else
		bug("mosaic: a scalar taken out of a vector was not hoisted");
	if (v.kind == V_REF)
		return ml_load_whole(l, v.r);
	return v.r;
}

/* Rank-0 e as a vector of shape cs (see ml_scalar_on_vpu), a bf16 one
   as f32: computed in f32 and rounded after each op, as on vectors. */
static TRef
ev_vscalar(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	const Val *h = ml_hoisted(l, e);
	DType w = ml_wide_dt(e->dtype);

	if (h && h->kind == V_SCALAR)
		return ml_splat(l, h->r, w, cs);
	if (!ml_scalar_on_vpu(l, e))
		return ml_splat(l, ml_ev_scalar(l, e), w, cs);
	switch (e->op) {
	case CX_SLOT: case CX_LOAD:
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return bcast_ones(l, ml_widen(l, vpu_leaf(l, e)), w, cs);
	case CX_BROADCAST:
		return ev_vscalar(l, e->arg[0], c, cs);
	default:
		if (e->dtype == DT_I8)
			return ev_ew_wide(l, e, c, cs);
		return ml_widen(l, ev_ew(l, e, c, cs));
	}
}

/* 1 if ml_ev() computes e with ev_ew(). */
static int
is_ew(L *l, const CExpr *e)
{
	switch (e->op) {
	case CX_CONST: case CX_SLOT: case CX_IOTA: case CX_BROADCAST:
	case CX_ROLL: case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return 0;
	default:
		return !ml_hoisted(l, e) && e->shape.rank > 0 &&
		    (ml_ew_op(e->op) != TOP_NOP ||
		    ml_cmp_of(e->op, &(TCmp){0}));
	}
}

/* An operand of a vector op in the chunk c (shape cs): rank-0 operands
   splatted or computed on the VPU, the others evaluated on the chunk.
   wide: a bf16 operand as f32 (the ops' inputs); else as bf16. */
static TRef
ev_arg(L *l, const CExpr *e, const Ctx *c, const Shape *cs, int wide)
{
	TRef v;

	if (e->shape.rank == 0) {
		v = ev_vscalar(l, e, c, cs);
	} else if (wide && e->dtype == DT_I8 && is_ew(l, e)) {
		return ev_ew_wide(l, e, c, cs);	/* exact: no pack */
	} else if (wide && e->dtype == DT_I8 && e->op == CX_CONST &&
	    !ml_hoisted(l, e)) {
		return ml_splat(l, ml_const_scalar(l, e->dtype, e), DT_I32,
		    cs);
	} else if (wide && e->dtype == DT_I8 && e->op == CX_BROADCAST &&
	    !ml_hoisted(l, e)) {
		return ev_broadcast(l, e, c, cs, 1);
	} else {
		v = ml_ev(l, e, c);
		if (tile_val(l->f, v)->kind == TV_SCALAR)
			v = ml_splat(l, v, ml_wide_dt(e->dtype), cs);
	}
	if (wide)
		return ml_widen(l, v);
	return e->dtype == DT_I8 ? pack_i8(l, v) : ml_narrow(l, v, e->dtype);
}

/* An operand of a vector op (ev_arg), of e's dtype. */
TRef
ml_ev_arg(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	return ev_arg(l, e, c, cs, 0);
}

/* The layout of an elementwise result: lane-replicated when all its
   vector operands are. */
static TLayKind
ew_layout(L *l, const TRef *a, int n)
{
	int i, nv = 0;

	for (i = 0; i < n; i++) {
		if (tile_val(l->f, a[i])->kind != TV_VEC)
			continue;
		nv++;
		if (ml_lay_kind(l, a[i]) != TL_LANE_REPL)
			return TL_NATIVE;
	}
	return nv ? TL_LANE_REPL : TL_NATIVE;
}

/* e's op on the chunk in the wide dtype, as the op gives it: f32 for
   bf16 (not rounded yet), i32 for i8 (not wrapped or saturated yet). */
static TRef
ev_ew_op(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef a[3];
	TVal t;
	TCmp cmp;
	int i, opi;
	TRef r;

	for (i = 0; i < e->n && i < 3; i++) {
		if (e->op == CX_SELECT && i == 0 &&
		    !ml_scalar_on_vpu(l, e->arg[0]))
			a[i] = ml_ev_scalar(l, e->arg[0]);
		else
			a[i] = ev_arg(l, e->arg[i], c, cs, 1);
	}
	t = ml_vec_type(l, ml_wide_dt(e->dtype), cs, ew_layout(l, a, e->n));
	if ((e->op == CX_DIV || e->op == CX_MOD) && !dtype_is_float(e->dtype))
		ml_vdivisor(l, e, a[1]);
	if (ml_cmp_of(e->op, &cmp)) {
		r = tile_emit(l->f, TOP_CMP, a, 2, &t, &opi);
		l->f->op.v[opi].u.cmp = cmp;
		return r;
	}
	if (e->op == CX_CAST && tile_val(l->f, a[0])->dtype == t.dtype)
		r = a[0];	/* bf16 <-> f32, i8 <-> i32: widen or narrow */
	else
		r = tile_emit(l->f, ml_ew_op(e->op), a, e->n, &t, NULL);
	return r;
}

/* A cast to i8 from i32 or f32 (as i32): saturating. */
static int
saturates(const CExpr *e)
{
	return e->op == CX_CAST && e->dtype == DT_I8 &&
	    e->arg[0]->dtype != DT_BOOL && e->arg[0]->dtype != DT_I8;
}

/* e's op on the chunk in the wide dtype: f32 for bf16 (not rounded
   yet), i32 for i8 (wrapped or saturated: in [-128, 127]). */
static TRef
ev_ew_wide(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef r = ev_ew_op(l, e, c, cs);

	return saturates(e) ? ml_clamp_i8(l, r) : ml_fix_i8(l, e, r);
}

/* e's op on the chunk, of e's dtype.  The i8 pack saturates: a cast
   needs no clamp of its own. */
static TRef
ev_ew(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	if (saturates(e))
		return pack_i8(l, ev_ew_op(l, e, c, cs));
	if (e->dtype == DT_I8)
		return pack_i8(l, ev_ew_wide(l, e, c, cs));
	return ml_narrow(l, ev_ew_op(l, e, c, cs), e->dtype);
}

static TRef
ev_iota(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	int i = e->u.axis + (c ? c->r - e->shape.rank : 0);
	TVal t = ml_vec_type(l, DT_I32, cs, TL_NATIVE);
	TRef off = TNONE;
	int opi, n = 0;

	/* Along a dim of size 1 (broadcast over a wider chunk) every
	   element is 0: the chunk's offset there is not the iota's. */
	if (e->shape.d[e->u.axis] == 1)
		return ml_splat(l, tile_const_i32(l->f, 0), DT_I32, cs);
	if (c && i < c->r - 2 && c->iter[i])
		return ml_splat(l, c->lead[i], DT_I32, cs);
	if (c && i == c->r - 2 && c->rowpos != TNONE) {
		off = c->rowpos;
		n = 1;
	} else if (c && i == c->r - 1 && c->colpos != TNONE) {
		off = c->colpos;
		n = 1;
	}
	tile_emit(l->f, TOP_IOTA, &off, n, &t, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	return l->f->op.v[opi].res[0];
}

/* e broadcast to the chunk; wide: an i8 one as its i32 values. */
static TRef
ev_broadcast(L *l, const CExpr *e, const Ctx *c, const Shape *cs,
    int wide)
{
	TRef a;
	const TVal *av;
	TLayKind k = TL_NATIVE;
	TVal t;

	if (e->arg[0]->shape.rank == 0)
		return ev_arg(l, e->arg[0], c, cs, wide);
	if (e->dtype == DT_I8 && is_ew(l, e->arg[0])) {
		Shape as = ml_chunk_shape(c, &e->arg[0]->shape);
		a = ev_ew_wide(l, e->arg[0], c, &as);
	} else
		a = ml_widen(l, ml_ev(l, e->arg[0], c)); /* bf16 as f32 */
	av = tile_val(l->f, a);
	if (av->lay.kind == TL_LANE_REPL)
		k = TL_LANE_REPL;
	else if (av->shape.rank >= 2 && cs->rank >= 2 &&
	    av->shape.d[av->shape.rank - 2] == 1 &&
	    cs->d[cs->rank - 2] > 1 &&
	    av->shape.d[av->shape.rank - 1] == cs->d[cs->rank - 1])
		k = TL_SUBLANE_REPL;
	t = ml_vec_type(l, ml_wide_dt(e->dtype), cs, k);
	a = tile_emit(l->f, TOP_BROADCAST, &a, 1, &t, NULL);
	if (e->dtype == DT_I8)
		return wide ? a : pack_i8(l, a);
	return ml_narrow(l, a, e->dtype);
}

/* A lane reduction with keepdims in chunk c: its [.., 1] result spans
   every column chunk, and its operand's rows are not wide (is_chunkable
   in lower_chunk.c), so the operand is evaluated on the chunk's rows
   and its whole width: its columns are not the output's. */
static TRef
ev_lane_reduce(L *l, const CExpr *e, const Ctx *c)
{
	Ctx rc;
	TRef a, r;
	int axis = e->arg[0]->shape.rank - 1;

	if (c && c->colpos != TNONE) {
		rc = *c;
		rc.colpos = TNONE;
		c = &rc;
	}
	a = ml_ev(l, e->arg[0], c);
	r = ml_reduce(l, a, e->op, axis);

	if (e->op == CX_MEAN)
		r = ml_scale(l, r, e->arg[0]->shape.d[axis]);
	return ml_narrow(l, r, e->dtype);
}

static TRef
ev_roll(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef a[2];
	TVal t = ml_vec_type(l, e->dtype, cs, TL_NATIVE);
	int opi;
	TRef r;

	a[0] = ml_ev(l, e->arg[0], c);
	a[1] = ml_ev_scalar(l, e->arg[1]);
	r = ml_emit_wide(l, TOP_ROLL, a, 2, &t, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	return r;
}

/* The chunk c of e as a vector (or a scalar for rank-0 e). */
TRef
ml_ev(L *l, const CExpr *e, const Ctx *c)
{
	const Val *h = ml_hoisted(l, e);
	Shape cs;

	if (h)
		return leaf(l, c, *h);
	if (l->err)
		return tile_const_i32(l->f, 0);
	if (e->shape.rank == 0)
		return ml_ev_scalar(l, e);
	cs = ml_chunk_shape(c, &e->shape);
	switch (e->op) {
	case CX_CONST:
		return ml_splat(l, ml_const_scalar(l, e->dtype, e), e->dtype,
		    &cs);
	case CX_SLOT:
		return leaf(l, c, l->slot[e->u.slot]);
	case CX_IOTA:
		return ev_iota(l, e, c, &cs);
	case CX_BROADCAST:
		return ev_broadcast(l, e, c, &cs, 0);
	case CX_ROLL:
		return ev_roll(l, e, c, &cs);
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return ev_lane_reduce(l, e, c);
	default:
		if (ml_ew_op(e->op) != TOP_NOP || ml_cmp_of(e->op, &(TCmp){0}))
			return ev_ew(l, e, c, &cs);
	}
	bug("mosaic: %s was not hoisted", cx_op_name(e->op));
}
