/*
 * lower_view.c - part of the body lowering (lower.c): views of refs, homes,
 * whole-value loads and stores, indexed accesses, SMEM vectors (element
 * loops of sload/sstore).
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include <string.h>

#include "backend/mosaic/lower.h"

void
ml_error(L *l, Loc loc, const char *msg)
{
	if (!l->err)
		diag_error(l->d, loc, "%s", msg);
	l->err = 1;
}

TVal
ml_vec_type(L *l, DType t, const Shape *s, TLayKind k)
{
	return tile_vec_type(l->f, t, s, k);
}

int
ml_lay_kind(L *l, TRef r)
{
	return tile_val(l->f, r)->lay.kind;
}

TRef
ml_home(L *l, DType t, const Shape *s)
{
	char name[32];
	int b;

	snprintf(name, sizeof name, "home%d", l->nhome++);
	b = tile_buffer(l->f, arena_printf(l->f->arena, "%s", name),
	    TB_INTERNAL, TS_VMEM, t, s, 1, -1);
	return tile_buf_ref(l->f, b);
}

/* A view op on ref with idx[0..n); dynamic starts in dyn[] (TNONE). */
TRef
ml_view(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n, TOpKind op,
    const TVal *res)
{
	TRef args[1 + 2 * SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, (n ? n : 1) * sizeof *d);
	int i, na = 1, opi;
	TRef r;

	args[0] = ref;
	for (i = 0; i < n; i++) {
		d[i] = idx[i];
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	r = tile_emit(l->f, op, args, na, res, &opi);
	l->f->op.v[opi].u.idx.n = n;
	l->f->op.v[opi].u.idx.d = d;
	return r;
}

/* The type of a view of ref with the given index (strides kept). */
static TVal
view_type(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n)
{
	TVal t = *tile_val(l->f, ref);
	int i, r = 0;

	for (i = 0; i < n; i++) {
		t.mem.off += idx[i].start * t.mem.stride[i];
		if (dyn[i] != TNONE)
			t.mem.dyn = 1;
		if (idx[i].squeeze)
			continue;
		t.shape.d[r] = idx[i].size;
		t.mem.stride[r++] = t.mem.stride[i];
	}
	t.shape.rank = r;
	return t;
}

TRef
ml_mkview(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n)
{
	TVal t = view_type(l, ref, idx, dyn, n);

	return ml_view(l, ref, idx, dyn, n, TOP_VIEW, &t);
}

/* Whole-dimension index of shape s. */
void
ml_whole(TIdx *idx, TRef *dyn, const Shape *s)
{
	int i;

	for (i = 0; i < s->rank; i++) {
		memset(&idx[i], 0, sizeof idx[i]);
		idx[i].size = s->d[i];
		idx[i].multiple = 1;
		idx[i].dyn = -1;
		dyn[i] = TNONE;
	}
}

TRef
ml_load_whole(L *l, TRef ref)
{
	const TVal *rv = tile_val(l->f, ref);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TVal t = ml_vec_type(l, rv->dtype, &rv->shape, TL_NATIVE);

	ml_whole(idx, dyn, &rv->shape);
	return ml_view(l, ref, idx, dyn, rv->shape.rank, TOP_LOAD, &t);
}

void
ml_store_whole(L *l, TRef ref, TRef v)
{
	const TVal *rv = tile_val(l->f, ref);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TRef args[2 + SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	int i, opi;

	ml_whole(idx, dyn, &rv->shape);
	for (i = 0; i < rv->shape.rank; i++)
		d[i] = idx[i];
	args[0] = ref;
	args[1] = v;
	tile_emit(l->f, TOP_STORE, args, 2, NULL, &opi);
	l->f->op.v[opi].u.idx.n = rv->shape.rank;
	l->f->op.v[opi].u.idx.d = d;
}

/* A Val as a ref: small vectors are spilled into a home. */
TRef
ml_as_ref(L *l, Val v, Loc loc)
{
	const TVal *t;
	TRef h;

	if (v.kind == V_REF)
		return v.r;
	if (v.kind != V_SSA) {
		ml_error(l, loc, "a scalar where a block is needed");
		return TNONE;
	}
	t = tile_val(l->f, v.r);
	h = ml_home(l, t->dtype, &t->shape);
	ml_store_whole(l, h, v.r);
	return h;
}

/* The ref and index of a slice (of a Ref or of a value's home). */
TRef
ml_slice_view(L *l, TRef ref, const CSlice *sl)
{
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	int i;

	if (sl->n == 0)		/* a rank-0 Ref: in VMEM, its [1, 1] */
		return ref;
	for (i = 0; i < sl->n && i < SEMA_MAXRANK; i++) {
		const CIdx *c = &sl->dim[i];
		idx[i].start = c->dyn ? 0 : c->start;
		idx[i].size = c->size;
		idx[i].multiple = c->multiple;
		idx[i].squeeze = c->squeeze;
		idx[i].dyn = -1;
		dyn[i] = c->dyn ? ml_index_of(l, ref, sl, i) : TNONE;
	}
	return ml_mkview(l, ref, idx, dyn, sl->n);
}

TRef
ml_ref_of(L *l, CRef r)
{
	return r.kind == CREF_OPERAND ? l->refs->operand[r.index] :
	    l->refs->scratch[r.index];
}

static int
same_slice(const CSlice *a, const CSlice *b)
{
	int i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->dim[i].start != b->dim[i].start ||
		    a->dim[i].size != b->dim[i].size ||
		    a->dim[i].dyn != b->dim[i].dyn ||
		    a->dim[i].squeeze != b->dim[i].squeeze)
			return 0;
	return 1;
}

int
ml_is_home(L *l, TRef ref)
{
	const TVal *v = tile_val(l->f, ref);

	return l->f->buf.v[v->mem.buf].kind == TB_INTERNAL;
}

/*
 * SMEM is scalar memory: a vector access of an SMEM ref is a loop nest
 * over its elements (sload / sstore), and the vector side is a VMEM
 * home accessed one [1, .., 1] element at a time.
 */
typedef void ElemFn(L *l, const TIdx *idx, const TRef *dyn, void *arg);

/* fn once per element of shape s: idx/dyn index one element (dims of
   size 1 static, the others loop variables). */
static void
elem_loops(L *l, const Shape *s, int i, TIdx *idx, TRef *dyn, ElemFn *fn,
    void *arg)
{
	if (i == 0)
		ml_whole(idx, dyn, s);
	if (i == s->rank) {
		fn(l, idx, dyn, arg);
		return;
	}
	idx[i].size = 1;
	if (s->d[i] > 1)
		dyn[i] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, s->d[i]), 1, NULL, 0);
	elem_loops(l, s, i + 1, idx, dyn, fn, arg);
	if (s->d[i] > 1)
		tile_end_for(l->f, NULL);
}

/* An indexed access op: arg0 ref, [value], the dynamic starts. */
TRef
ml_access(L *l, TOpKind op, TRef ref, TRef val, const TIdx *idx,
    const TRef *dyn, int squeeze, const TVal *res)
{
	int n = tile_val(l->f, ref)->shape.rank, i, na = 1, opi;
	TIdx *d = arena_alloc(l->f->arena, (n ? n : 1) * sizeof *d);
	TRef args[2 + SEMA_MAXRANK];

	args[0] = ref;
	if (val != TNONE)
		args[na++] = val;
	for (i = 0; i < n; i++) {
		d[i] = idx[i];
		d[i].squeeze = squeeze;
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	tile_emit(l->f, op, args, na, res, &opi);
	l->f->op.v[opi].u.idx.n = n;
	l->f->op.v[opi].u.idx.d = d;
	return l->f->op.v[opi].nres ? l->f->op.v[opi].res[0] : TNONE;
}

typedef struct Elem {
	TRef smem;		/* the SMEM view */
	TRef vmem;		/* the VMEM side (home), or TNONE */
	TRef scalar;		/* a scalar stored everywhere, or TNONE */
	CxOp acc;		/* NCXOP: plain store */
} Elem;

static TRef
sload(L *l, TRef ref, const TIdx *idx, const TRef *dyn)
{
	TVal t = tile_scalar_type(ml_scalar_dt(tile_val(l->f, ref)->dtype));

	return ml_access(l, TOP_SLOAD, ref, TNONE, idx, dyn, 1, &t);
}

/* smem element -> a [1, .., 1] vector stored into the home. */
static void
sload_fn(L *l, const TIdx *idx, const TRef *dyn, void *arg)
{
	Elem *w = arg;
	const TVal *hv = tile_val(l->f, w->vmem);
	Shape one = hv->shape;
	TRef x = sload(l, w->smem, idx, dyn);
	int i;

	for (i = 0; i < one.rank; i++)
		one.d[i] = 1;
	x = ml_splat(l, x, hv->dtype, &one);
	ml_access(l, TOP_STORE, w->vmem, x, idx, dyn, 0, NULL);
}

/* home (or scalar) element -> smem element, accumulated when asked. */
static void
sstore_fn(L *l, const TIdx *idx, const TRef *dyn, void *arg)
{
	Elem *w = arg;
	const TVal *hv;
	Shape one;
	TRef x = w->scalar;
	TVal t;
	int i;

	if (x == TNONE) {
		hv = tile_val(l->f, w->vmem);
		one = hv->shape;
		for (i = 0; i < one.rank; i++)
			one.d[i] = 1;
		t = ml_vec_type(l, hv->dtype, &one, TL_NATIVE);
		x = ml_extract(l, ml_access(l, TOP_LOAD, w->vmem, TNONE, idx,
		    dyn, 0, &t));
	}
	if (w->acc != NCXOP)
		x = ml_sbinop(l, ml_ew_op(w->acc), sload(l, w->smem, idx,
		    dyn), x);
	ml_access(l, TOP_SSTORE, w->smem, x, idx, dyn, 1, NULL);
}

/* lane c of the [1, w] chunk of home at column col (dynamic jt * L
   when jt is set) := the SMEM element c of the same column: the chunk's
   words where iota == c replaced (a single element at a dynamic lane is
   not addressable). */
static void
row_lane(L *l, TRef smem, TRef home, int64_t col, TRef jt, int64_t w,
    TRef c)
{
	DType dt = tile_val(l->f, home)->dtype, wd = ml_wide_dt(dt);
	Shape cs = { 2, { 1, w } };
	TIdx hi[2], si[1];
	TRef hd[2] = { TNONE, TNONE }, sd[1], a[3];
	TVal t = ml_vec_type(l, dt, &cs, TL_NATIVE);
	TVal b = ml_vec_type(l, DT_BOOL, &cs, TL_NATIVE);
	int64_t nl = l->f->preset->lanes;
	int opi;

	ml_whole(hi, hd, &cs);
	hi[1].start = col;
	if (jt != TNONE) {
		hd[1] = tile_binop(l->f, TOP_MUL, jt, tile_const_i32(l->f, nl));
		hi[1].multiple = nl;
	}
	ml_whole(si, sd, &(Shape){ 1, { 1 } });
	si[0].start = col;
	sd[0] = hd[1] != TNONE ? tile_binop(l->f, TOP_ADD, hd[1], c) : c;
	a[1] = ml_splat(l, sload(l, smem, si, sd), wd, &cs);
	a[2] = ml_widen(l, ml_access(l, TOP_LOAD, home, TNONE, hi, hd, 0, &t));
	t = ml_vec_type(l, DT_I32, &cs, TL_NATIVE);
	a[0] = tile_emit(l->f, TOP_IOTA, NULL, 0, &t, &opi);
	l->f->op.v[opi].u.axis = 1;
	a[0] = tile_emit(l->f, TOP_CMP, (TRef[]){ a[0], ml_splat(l, c, DT_I32,
	    &cs) }, 2, &b, &opi);
	l->f->op.v[opi].u.cmp = TC_EQ;
	t = ml_vec_type(l, wd, &cs, TL_NATIVE);
	a[0] = ml_narrow(l, tile_emit(l->f, TOP_SELECT, a, 3, &t, NULL), dt);
	ml_access(l, TOP_STORE, home, a[0], hi, hd, 0, NULL);
}

/* The lanes [col, col + w) of a row home from SMEM: a loop over them. */
static void
row_tile(L *l, TRef smem, TRef home, int64_t col, TRef jt, int64_t w)
{
	TRef c = tile_begin_for(l->f, tile_const_i32(l->f, 0),
	    tile_const_i32(l->f, w), 1, NULL, 0);

	row_lane(l, smem, home, col, jt, w, c);
	tile_end_for(l->f, NULL);
}

/*
 * A rank-1 vector load of an SMEM slice of i32, f32 or i8: into a [1, n]
 * home, a lane tile at a time (a loop over the whole tiles, then the
 * rest), each lane by row_lane(); the value is the home's row.
 */
static Val
smem_load_row(L *l, TRef smem, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	int64_t n = e->shape.d[0], nl = l->f->preset->lanes, nf = n / nl;
	Shape hs = { 2, { 1, n } };
	TIdx idx[2];
	TRef dyn[2], home, jt;

	home = ml_home(l, tile_val(l->f, smem)->dtype, &hs);
	if (nf > 1) {
		jt = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, nf), 1, NULL, 0);
		row_tile(l, smem, home, 0, jt, nl);
		tile_end_for(l->f, NULL);
	} else if (nf == 1)
		row_tile(l, smem, home, 0, TNONE, nl);
	if (n % nl)
		row_tile(l, smem, home, nf * nl, TNONE, n % nl);
	ml_whole(idx, dyn, &hs);
	idx[0].squeeze = 1;
	v.r = ml_mkview(l, home, idx, dyn, 2);
	return v;
}

/* A vector load of an SMEM slice: copied element by element into a
   VMEM home (rank 1: smem_load_row()). */
static Val
smem_load(L *l, TRef ref, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	DType dt = tile_val(l->f, ref)->dtype;
	Elem w;

	memset(&w, 0, sizeof w);
	w.smem = ml_slice_view(l, ref, &e->u.load.sl);
	if (e->shape.rank == 1 && (dt == DT_I32 || dt == DT_F32 ||
	    dt == DT_I8))
		return smem_load_row(l, w.smem, e);
	w.vmem = ml_home(l, tile_val(l->f, w.smem)->dtype, &e->shape);
	elem_loops(l, &e->shape, 0, idx, dyn, sload_fn, &w);
	v.r = w.vmem;
	return v;
}

/* A VMEM or HBM load as a view; SMEM vectors through a home. */
Val
ml_mat_load(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef ref = ml_ref_of(l, e->u.load.ref);

	if (tile_val(l->f, ref)->mem.space == TS_SMEM)
		return smem_load(l, ref, e);
	v.r = ml_slice_view(l, ref, &e->u.load.sl);
	if (l->dst && l->dst->ref.kind == e->u.load.ref.kind &&
	    l->dst->ref.index == e->u.load.ref.index &&
	    !same_slice(&l->dst->sl, &e->u.load.sl))
		v = ml_snapshot(l, v.r, e->loc);
	return v;
}

/* A vector store into an SMEM slice: the value (broadcast to the
   place) computed into a VMEM home, then stored element by element. */
static void
smem_vstore(L *l, const CStmt *s, TRef ref)
{
	const CPlace *p = &s->u.store.place;
	const CExpr *e = s->u.store.value;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Elem w;

	memset(&w, 0, sizeof w);
	w.acc = s->u.store.acc;
	if (e->shape.rank == 0)
		w.scalar = ml_ev_scalar(l, e);
	else {
		w.vmem = ml_home(l, tile_val(l->f, ref)->dtype, &p->shape);
		ml_store_expr(l, w.vmem, e, NCXOP, s->loc);
	}
	w.smem = ml_slice_view(l, ref, &p->sl);
	if (!l->err)
		elem_loops(l, &p->shape, 0, idx, dyn, sstore_fn, &w);
}

/* An SMEM element store (with its accumulation). */
void
ml_smem_store(L *l, const CStmt *s, TRef ref)
{
	const CPlace *p = &s->u.store.place;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK], args[2 + SEMA_MAXRANK], v;
	TIdx *d;
	int i, na = 2, opi;

	if (p->shape.rank != 0) {
		smem_vstore(l, s, ref);
		return;
	}
	v = ml_ev_scalar(l, s->u.store.value);
	for (i = 0; i < p->sl.n; i++) {
		const CIdx *c = &p->sl.dim[i];
		memset(&idx[i], 0, sizeof idx[i]);
		idx[i].start = c->dyn ? 0 : c->start;
		idx[i].size = 1;
		idx[i].squeeze = 1;
		idx[i].multiple = 1;
		dyn[i] = c->dyn ? ml_index_of(l, ref, &p->sl, i) : TNONE;
	}
	if (s->u.store.acc != NCXOP) {
		TVal t = tile_scalar_type(tile_val(l->f, v)->dtype);
		TRef old = ml_view(l, ref, idx, dyn, p->sl.n, TOP_SLOAD, &t);
		v = ml_sbinop(l, ml_ew_op(s->u.store.acc), old, v);
	}
	d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	args[0] = ref;
	args[1] = v;
	for (i = 0; i < p->sl.n; i++) {
		d[i] = idx[i];
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	tile_emit(l->f, TOP_SSTORE, args, na, NULL, &opi);
	l->f->op.v[opi].u.idx.n = p->sl.n;
	l->f->op.v[opi].u.idx.d = d;
}
