/*
 * lower_shape.c - part of the body lowering (lower.c): transposes, rolls
 * along rows, reshapes of block-sized values.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include "backend/mosaic/lower.h"

/* A transposed copy of ref (last two dims swapped) in a new home. */
TRef
ml_transpose_ref(L *l, TRef ref)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape s = rv->shape;
	int64_t x = s.d[s.rank - 1];
	TRef args[2];

	s.d[s.rank - 1] = s.d[s.rank - 2];
	s.d[s.rank - 2] = x;
	args[0] = ml_home(l, rv->dtype, &s);
	args[1] = ref;
	tile_emit(l->f, TOP_TRANSPOSE, args, 2, NULL, NULL);
	return args[0];
}

Val
ml_mat_transpose(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef a = ml_as_ref(l, ml_materialise(l, e->arg[0]), e->loc);

	if (!l->err)
		v.r = ml_transpose_ref(l, a);
	return v;
}

Val
ml_mat_rollm(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef args[3];
	int opi;

	args[1] = ml_as_ref(l, ml_materialise(l, e->arg[0]), e->loc);
	args[2] = ml_ev_scalar(l, e->arg[1]);
	if (l->err)
		return v;
	args[0] = ml_home(l, e->dtype, &e->shape);
	tile_emit(l->f, TOP_ROLLM, args, 3, NULL, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	v.r = args[0];
	return v;
}

/* The index of the piece of 'h' rows and 'w' columns of shape s that
   starts at flat element fe (i32): row and column positions from div and
   mod, leading indices likewise; dims of size 1 static. */
/* The same at a constant flat element fe: static starts. */
static void
piece_idx_at(const Shape *s, int64_t fe, int64_t h, int64_t w, TIdx *idx,
    TRef *dyn)
{
	int r = s->rank, i;
	int64_t c = r ? s->d[r - 1] : 1, rest = fe / c;

	ml_whole(idx, dyn, s);
	for (i = 0; i < r; i++)
		idx[i].size = 1;
	idx[r - 1].size = w;
	idx[r - 1].start = fe % c;
	for (i = r - 2; i >= 0; i--) {
		if (i == r - 2)
			idx[i].size = h;
		idx[i].start = rest % s->d[i];
		rest /= s->d[i];
	}
}

static void
piece_idx(L *l, const Shape *s, TRef fe, int64_t h, int64_t w, TIdx *idx,
    TRef *dyn)
{
	int r = s->rank, i;
	int64_t c = r ? s->d[r - 1] : 1;
	TRef rest;

	ml_whole(idx, dyn, s);
	for (i = 0; i < r; i++)
		idx[i].size = 1;
	idx[r - 1].size = w;
	if (w < c) {
		dyn[r - 1] = tile_binop(l->f, TOP_REM, fe,
		    tile_const_i32(l->f, c));
		idx[r - 1].multiple = w;
	}
	rest = r >= 2 ? tile_binop(l->f, TOP_DIV, fe,
	    tile_const_i32(l->f, c)) : TNONE;
	for (i = r - 2; i >= 0; i--) {
		if (i == r - 2) {
			idx[i].size = h;
			idx[i].multiple = h;
		}
		if (s->d[i] > 1)
			dyn[i] = i == 0 ? rest : tile_binop(l->f, TOP_REM, rest,
			    tile_const_i32(l->f, s->d[i]));
		if (i > 0 && s->d[i] > 1)
			rest = tile_binop(l->f, TOP_DIV, rest,
			    tile_const_i32(l->f, s->d[i]));
	}
}

static int64_t
gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#define MAX_UNROLL 256	/* row pieces copied at static offsets (rows
				   wider than a vreg) */

/* One piece from src (at si) to dst (at di), relaid when the pieces'
   ranks differ. */
static void
piece_copy(L *l, const CExpr *e, TRef src, TRef dst, const TIdx *si,
    const TRef *sdyn, const TIdx *di, const TRef *ddyn)
{
	int rs = tile_val(l->f, src)->shape.rank;
	int rd = tile_val(l->f, dst)->shape.rank, i;
	Shape ps, pd;
	TRef x;
	TVal t;

	for (i = 0; i < rs; i++)
		ps.d[i] = si[i].size;
	ps.rank = rs;
	for (i = 0; i < rd; i++)
		pd.d[i] = di[i].size;
	pd.rank = rd;
	t = ml_vec_type(l, e->dtype, &ps, TL_NATIVE);
	x = ml_access(l, TOP_LOAD, src, TNONE, si, sdyn, 0, &t);
	if (!shape_eq(&ps, &pd)) {
		t = ml_vec_type(l, e->dtype, &pd, TL_NATIVE);
		x = ml_emit_wide(l, TOP_RESHAPE, &x, 1, &t, NULL);
	}
	ml_access(l, TOP_STORE, dst, x, di, ddyn, 0, NULL);
}

/*
 * A reshape of a block-sized value: a copy into a home, piece by piece.
 * A piece lies within one row of both shapes: row groups of tile_r rows
 * when the rows keep their width and both row counts are multiples of
 * tile_r, else [1, P] segments, P = gcd of the two widths (halved while
 * wider than half the budget).  Each trip computes the piece's position
 * in both shapes, loads, relayouts (TOP_RESHAPE) when the piece shapes'
 * ranks differ, and stores.
 */
static Val
reshape_home(L *l, const CExpr *e, Val src)
{
	const MachPreset *p = l->f->preset;
	TLayout lay = mosaic_layout(p, e->dtype, &e->shape, TL_NATIVE);
	Val v = { V_REF, TNONE };
	const TVal *sv;
	Shape ss, ds = e->shape;
	TIdx si[SEMA_MAXRANK], di[SEMA_MAXRANK];
	TRef sdyn[SEMA_MAXRANK], ddyn[SEMA_MAXRANK], j, fe, x;
	int64_t cs, cd, rs, rd, h = 1, w, n, maxw, k;

	x = ml_as_ref(l, src, e->loc);
	if (l->err)
		return v;
	sv = tile_val(l->f, x);
	ss = sv->shape;
	cs = ss.d[ss.rank - 1];
	cd = ds.d[ds.rank - 1];
	rs = ss.rank >= 2 ? ss.d[ss.rank - 2] : 1;
	rd = ds.rank >= 2 ? ds.d[ds.rank - 2] : 1;
	maxw = (int64_t)p->lanes * (mosaic_vreg_budget(p) / 2);
	if (cs == cd && rs % lay.tile_r == 0 && rd % lay.tile_r == 0 &&
	    !ml_wide(p, &ds)) {
		h = lay.tile_r;
		w = cs;
	} else {
		w = gcd(cs, cd);
		while (w > maxw && w % 2 == 0)
			w /= 2;
	}
	n = shape_numel(&ds) / (h * w);
	v.r = ml_home(l, e->dtype, &ds);
	/* a dynamic row start is addressable only in one column tile */
	if (h == 1 && n <= MAX_UNROLL && (cs > p->lanes || cd > p->lanes)) {
		for (k = 0; k < n && !l->err; k++) {
			piece_idx_at(&ss, k * w, 1, w, si, sdyn);
			piece_idx_at(&ds, k * w, 1, w, di, ddyn);
			piece_copy(l, e, x, v.r, si, sdyn, di, ddyn);
		}
		return v;
	}
	j = n > 1 ? tile_begin_for(l->f, tile_const_i32(l->f, 0),
	    tile_const_i32(l->f, n), 1, NULL, 0) : tile_const_i32(l->f, 0);
	fe = tile_binop(l->f, TOP_MUL, j, tile_const_i32(l->f, h * w));
	piece_idx(l, &ss, fe, h, w, si, sdyn);
	piece_idx(l, &ds, fe, h, w, di, ddyn);
	piece_copy(l, e, x, v.r, si, sdyn, di, ddyn);
	if (n > 1)
		tile_end_for(l->f, NULL);
	return v;
}

/*
 * Can the vregs of e's operand be rearranged into e's (TOP_RESHAPE)?
 * When the last dimension stays and whole row tiles move, or a row and
 * a column trade places; else the reshape goes through memory.
 */
static int
vreg_reshape(L *l, const CExpr *e)
{
	const MachPreset *p = l->f->preset;
	const Shape *a = &e->arg[0]->shape, *t = &e->shape;
	int64_t ca = a->d[a->rank - 1], ct = t->d[t->rank - 1];
	int64_t ra = a->rank >= 2 ? a->d[a->rank - 2] : 1;
	int64_t rt = t->rank >= 2 ? t->d[t->rank - 2] : 1;
	int64_t tr = mosaic_layout(p, e->dtype, t, TL_NATIVE).tile_r;

	if ((ca == 1 && rt == 1 && ct == ra) || (ra == 1 && ct == 1 &&
	    rt == ca))
		return 1;
	return ca == ct && ((ra == rt && shape_numel(a) == shape_numel(t)) ||
	    (ra % tr == 0 && rt % tr == 0));
}

Val
ml_mat_reshape(L *l, const CExpr *e)
{
	Val v = ml_materialise(l, e->arg[0]);
	TVal t;

	if (l->err)
		return v;
	if (mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home ||
	    mosaic_layout(l->f->preset, e->dtype, &e->arg[0]->shape,
	    TL_NATIVE).home || !vreg_reshape(l, e))
		return reshape_home(l, e, v);
	if (v.kind == V_REF)
		v.r = ml_load_whole(l, v.r);
	t = ml_vec_type(l, e->dtype, &e->shape, TL_NATIVE);
	v.kind = V_SSA;
	v.r = ml_emit_wide(l, TOP_RESHAPE, &v.r, 1, &t, NULL);
	return v;
}
