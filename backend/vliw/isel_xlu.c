/*
 * isel_xlu.c - instruction selection for the structure of vector values:
 * broadcasts, reshapes, reductions, rolls and transposes, and
 * the in-memory transposes and rolls (cross-lane work goes to the XLU,
 * cross-sublane work to the VALU's sublane rotates and broadcasts).
 *
 * Lowerings (S sublanes, L lanes; tiles as isel_vgeom() describes):
 *   reduce, last axis:   the tiles of a row combined on the VALU (the
 *                        partial last tile's padding lanes replaced by
 *                        the identity), then xlu.sum / xlu.max (min:
 *                        -max(-x)); i32: log2 L xlu.rot steps and VALU
 *                        combines.  Every lane holds the result, so the
 *                        [R, 1] result is lane-replicated for free.
 *   reduce, rows:        tiles of a column combined on the VALU (padding
 *                        rows -> identity), then log2 S vrot.sub steps:
 *                        every sublane holds the [1, C] result.
 *   broadcast:           lanes: xlu.bcast lane 0 (free for lane-
 *                        replicated operands); rows: vbcast.sub 0 (free
 *                        for sublane-replicated ones); leading dims and
 *                        repeated tiles share registers.
 *   reshape:             same last two dims, or rows regrouped in whole
 *                        tiles: the same registers; a column [R, 1] to a
 *                        row [R] / [1, R] and back: XLU transposes.
 *   roll (constant):     lanes: xlu.rot of each tile and a lane select
 *                        between neighbouring tiles; rows: vrot.sub and
 *                        a sublane select.  A dynamic shift along 2^k
 *                        elements: k such rolls by 2^b, each kept where
 *                        bit b of the shift is set.
 *   vtranspose:          L x L blocks through xlu.xpose / xlu.xpose.end.
 *   transpose in memory: the same, vld / vst per tile.
 *   rollm in memory:     the roll above per output tile, vld / vst.
 *   packed (i8, bf16) in memory: a row group is a part of its tile's
 *                        words (loaded: shifted down); the stored
 *                        groups of a tile are packed into its words.
 * Not lowered (reported): dynamic shifts along sizes
 * that are not powers of two and dynamic rolls in memory, rolls along
 * leading dims or of partial tiles, other reshapes.
 *
 * XLU batches: at most xlu_fifo pushes into one unit, then their pops,
 * in one block; the batches take the units in turn.  The scheduler
 * (sched.c, xlu_deps) keeps each unit's pushes and pops in order and
 * apart by its issue interval and latencies, so batches on different
 * units, and the work around them, overlap.
 */
#include "backend/vliw/isel.h"

/* ------------------------------------------------------------ XLU batches */

static int
vreg(Isel *I)
{
	return llo_new_reg(I->f, LC_V);
}

/* The XLU for the next batch: the units in turn, so that batches
   overlap. */
static int
unit(Isel *I)
{
	int n = I->mp->nxlu > 0 ? I->mp->nxlu : 1;

	return I->xlu++ % n;
}

/* Pushes src[0..n) into XLU u (op, literal x), in order. */
static void
pushes(Isel *I, int u, int op, const int *src, int n, int x)
{
	LIns *in;
	int k;

	for (k = 0; k < n; k++) {
		if (op == OP_XXPOSE && k == n - 1 &&
		    n < I->mp->lanes / I->mp->sublanes)
			in = add(I, OP_XXPOSEEND, 0, src[k], 0, u);
		else
			in = add(I, op, 0, src[k], 0, u);
		in->x = (uint16_t)x;
	}
}

/* n pops of XLU u into dst[] (new registers). */
static void
pops(Isel *I, int u, int *dst, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		dst[k] = vreg(I);
		add(I, OP_XPOP, dst[k], 0, 0, u);
	}
}

void
isel_xlu_map(Isel *I, int op, const int *src, int n, int x, int *dst)
{
	int depth = I->mp->xlu_fifo > 0 ? I->mp->xlu_fifo : 1, k, m, u;

	for (k = 0; k < n; k += m) {
		m = n - k < depth ? n - k : depth;
		u = unit(I);
		pushes(I, u, op, src + k, m, x);
		pops(I, u, dst + k, m);
	}
}

void
isel_xlu_xpose(Isel *I, const int *src, int n, int *dst)
{
	int u = unit(I);

	pushes(I, u, OP_XXPOSE, src, n, 0);
	pops(I, u, dst, I->mp->lanes / I->mp->sublanes);
}

static int
xpose_ok(Isel *I)
{
	if (I->mp->lanes % I->mp->sublanes ||
	    I->mp->lanes / I->mp->sublanes > I->mp->xlu_fifo)
		return unsupported(I, "a transpose on this preset (L / S "
		    "above the XLU FIFO depth)");
	return 0;
}

/* ------------------------------------------------------------ helpers */

static int
vop(Isel *I, int op, int a, int b)
{
	int d = vreg(I);

	add(I, op, d, a, b, 0);
	return d;
}

static int
vsel(Isel *I, int m, int a, int b)
{
	int d = vreg(I);

	add(I, OP_VSEL, d, a, b, m);
	return d;
}

static int
vlit(Isel *I, int op, int a, int x)
{
	int d = vreg(I);

	add(I, op, d, a, 0, 0)->x = (uint16_t)x;
	return d;
}

/* Mask of the lanes (sub: sublanes) below k. */
static int
below(Isel *I, int64_t k, int sub)
{
	int m = llo_new_reg(I->f, LC_M), io = vreg(I);

	add(I, sub ? OP_VIOTAS : OP_VIOTAL, io, 0, 0, 0);
	add(I, OP_VCMPLTI, m, io, isel_vimm(I, (uint32_t)k), 0);
	return m;
}

static int
is_pow2(int64_t x)
{
	return x > 0 && !(x & (x - 1));
}

static int64_t
mod(int64_t a, int64_t n)
{
	return (a % n + n) % n;
}

static int *
tiles(Isel *I, int64_t n)
{
	return arena_alloc(I->a, sizeof(int) * (size_t)(n + 1));
}

/* The 4-byte (not bool) operand check of op 'what'. */
static int
words(Isel *I, const TVal *t, const char *what)
{
	if (t->dtype != DT_F32 && t->dtype != DT_I32)
		return unsupported(I, arena_printf(I->a, "%s of a %s vector",
		    what, dtype_name(t->dtype)));
	return 0;
}

/* ------------------------------------------------------------ reduce */

static int
comb_op(TRed k, int f)
{
	switch (k) {
	case TR_SUM: return f ? OP_VADDF : OP_VADDI;
	case TR_MAX: return f ? OP_VMAXF : OP_VMAXI;
	default: return f ? OP_VMINF : OP_VMINI;
	}
}

static uint32_t
ident(TRed k, int f)
{
	switch (k) {
	case TR_SUM: return 0;
	case TR_MAX: return f ? 0xff800000u : 0x80000000u;
	default: return f ? 0x7f800000u : 0x7fffffffu;
	}
}

/* Combines tile x into acc (0: none yet), x's padding beyond k lanes
   (sublanes when sub) replaced by the identity when k > 0. */
static int
fold(Isel *I, TRed kind, int f, int acc, int x, int64_t k, int sub)
{
	if (k > 0)
		x = vsel(I, below(I, k, sub), x, isel_vimm(I, ident(kind, f)));
	return acc ? vop(I, comb_op(kind, f), acc, x) : x;
}

/* Every lane of each r[0..n) becomes the reduction of its row. */
static void
lane_reduce(Isel *I, TRed kind, int f, int *r, int n)
{
	int64_t s;
	int k, *t = tiles(I, n);

	if (f && kind != TR_MIN) {
		isel_xlu_map(I, kind == TR_SUM ? OP_XSUM : OP_XMAX, r, n, 0, r);
		return;
	}
	if (f) {
		for (k = 0; k < n; k++)
			t[k] = vop(I, OP_VNEGF, r[k], 0);
		isel_xlu_map(I, OP_XMAX, t, n, 0, t);
		for (k = 0; k < n; k++)
			r[k] = vop(I, OP_VNEGF, t[k], 0);
		return;
	}
	if (!is_pow2(I->mp->lanes)) {
		unsupported(I, "an i32 lane reduction on this preset");
		return;
	}
	for (s = I->mp->lanes / 2; s >= 1; s /= 2) {
		isel_xlu_map(I, OP_XROT, r, n, (int)s, t);
		for (k = 0; k < n; k++)
			r[k] = vop(I, comb_op(kind, 0), r[k], t[k]);
	}
}

static void
reduce(Isel *I, const TOp *o, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	TRed kind = o->u.red.kind;
	int f = a->dtype == DT_F32, lanes, x, *r, *res;
	int64_t l, i, j, n, S = I->mp->sublanes, s, pl, pr;
	VGeom g;

	if (words(I, a, "a reduction"))
		return;
	isel_vgeom(a, &g);
	lanes = o->u.red.axis == a->shape.rank - 1;
	if (!lanes && (o->u.red.axis != a->shape.rank - 2 || !is_pow2(S))) {
		unsupported(I, "a vector reduction over a leading dimension");
		return;
	}
	pl = g.C % a->lay.tile_c;
	pr = g.R % a->lay.tile_r;
	n = lanes ? g.lead * g.nr : g.lead * g.nc;
	r = tiles(I, n);
	for (l = 0; l < g.lead; l++)
		for (i = 0; i < g.nr; i++)
			for (j = 0; j < g.nc && !I->err; j++) {
				int64_t k = lanes ? l * g.nr + i : l * g.nc + j;
				x = isel_vtile(I, o->arg[0], a, l, i, j);
				if (I->err)
					return;
				r[k] = fold(I, kind, f, (lanes ? j : i) ? r[k] : 0,
				    x, lanes ? (j == g.nc - 1 ? pl : 0) :
				    (i == g.nr - 1 ? pr : 0), !lanes);
			}
	if (lanes)
		lane_reduce(I, kind, f, r, (int)n);
	else
		for (s = S / 2; s >= 1; s /= 2)
			for (i = 0; i < n; i++)
				r[i] = vop(I, comb_op(kind, f), r[i],
				    vlit(I, OP_VROTS, r[i], (int)s));
	if (I->err)
		return;
	isel_vgeom(t, &g);
	res = tiles(I, g.lead * g.nr * g.nc);
	for (l = 0; l < g.lead; l++)
		for (i = 0; i < g.nr; i++)
			for (j = 0; j < g.nc; j++)
				res[(l * g.nr + i) * g.nc + j] = lanes ?
				    r[l * g.nr + i] : r[l * g.nc + j];
	isel_vpack(I, t, res, out);
}

/* ------------------------------------------------------------ broadcast */

/* Index of x in the memo list (vregs seen), adding it; n its length. */
static int
memo(int *seen, int *n, int x)
{
	int k;

	for (k = 0; k < *n; k++)
		if (seen[k] == x)
			return k;
	seen[*n] = x;
	return (*n)++;
}

static void
broadcast(Isel *I, const TOp *o, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	VGeom ga, gt;
	int need_l, need_s, isb = a->dtype == DT_BOOL, ns = 0, k;
	int64_t l, i, j, n;
	int *src, *seen, *bc, *res;

	isel_vgeom(a, &ga);
	isel_vgeom(t, &gt);
	need_l = a->lay.kind != TL_LANE_REPL && ((ga.C == 1 && gt.C > 1) ||
	    t->lay.kind == TL_LANE_REPL);
	need_s = a->lay.kind != TL_SUBLANE_REPL && ((ga.R == 1 && gt.R > 1) ||
	    t->lay.kind == TL_SUBLANE_REPL);
	if ((ga.C != gt.C && ga.C != 1 && a->lay.kind != TL_LANE_REPL) ||
	    (ga.R != gt.R && ga.R != 1 && a->lay.kind != TL_SUBLANE_REPL) ||
	    (need_l && ga.C != 1) || (need_s && ga.R != 1) ||
	    dtype_size(a->dtype) != 4) {
		unsupported(I, arena_printf(I->a, "a broadcast of a %s vector "
		    "of this shape and layout", dtype_name(a->dtype)));
		return;
	}
	n = gt.lead * gt.nr * gt.nc;
	src = tiles(I, n);
	seen = tiles(I, n);
	res = tiles(I, n);
	for (l = 0; l < gt.lead; l++)
		for (i = 0; i < gt.nr; i++)
			for (j = 0; j < gt.nc && !I->err; j++) {
				/* a's own tile: a is its own 'want' */
				int64_t ia = ga.R == gt.R ? i : 0;
				int64_t ja = ga.C == gt.C ? j : 0;
				int64_t la = ga.lead == gt.lead ? l :
				    ga.lead == 1 ? 0 : -1;
				if (la < 0) {
					unsupported(I, "a broadcast along a leading "
					    "dimension above 1");
					return;
				}
				src[(l * gt.nr + i) * gt.nc + j] =
				    isel_vtile(I, o->arg[0], a, la,
				    a->lay.kind == TL_SUBLANE_REPL ? 0 : ia,
				    a->lay.kind == TL_LANE_REPL ? 0 : ja);
			}
	if (I->err)
		return;
	for (k = 0; k < n; k++)
		memo(seen, &ns, src[k]);
	bc = tiles(I, ns);
	for (k = 0; k < ns; k++) {
		bc[k] = isb && (need_l || need_s) ? isel_mask_to_v(I, seen[k]) :
		    seen[k];
		if (need_s)
			bc[k] = vlit(I, OP_VBCASTS, bc[k], 0);
	}
	if (need_l)
		isel_xlu_map(I, OP_XBCAST, bc, ns, 0, bc);
	for (k = 0; isb && (need_l || need_s) && k < ns; k++)
		bc[k] = isel_v_to_mask(I, bc[k]);
	for (k = 0; k < n; k++) {
		int z = ns;
		res[k] = bc[memo(seen, &z, src[k])];
	}
	isel_vpack(I, t, res, out);
}

/* ------------------------------------------------------------ reshape */

/* Column [.., R, 1] (lane 0) to row [.., 1, R]: one transpose per L
   rows; or row to column (col 0): one per tile of the row. */
static void
relayout(Isel *I, const TOp *o, int to_row, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int64_t L = I->mp->lanes, S = I->mp->sublanes, B = L / S, l, b, k, n;
	int *src = tiles(I, B), *dst = tiles(I, B), *res, lr;
	VGeom ga, gt;

	if (xpose_ok(I))
		return;
	isel_vgeom(a, &ga);
	isel_vgeom(t, &gt);
	res = tiles(I, gt.lead * gt.nr * gt.nc);
	for (l = 0; l < gt.lead && !I->err; l++) {
		if (to_row)
			for (b = 0; b < gt.nc && !I->err; b++) {
				for (n = 0; n < B && b * B + n < ga.nr; n++)
					src[n] = isel_vtile(I, o->arg[0], a, l,
					    b * B + n, 0);
				if (I->err)
					return;
				isel_xlu_xpose(I, src, (int)n, dst);
				res[l * gt.nc + b] = dst[0];
			}
		else
			for (b = 0; b < ga.nc && !I->err; b++) {
				src[0] = isel_vtile(I, o->arg[0], a, l, 0, b);
				if (I->err)
					return;
				isel_xlu_xpose(I, src, 1, dst);
				for (k = 0; k < B && b * B + k < gt.nr; k++)
					res[l * gt.nr + b * B + k] = dst[k];
			}
	}
	if (I->err)
		return;
	if (!to_row && t->lay.kind == TL_LANE_REPL) {
		lr = (int)(gt.lead * gt.nr);
		isel_xlu_map(I, OP_XBCAST, res, lr, 0, res);
	}
	isel_vpack(I, t, res, out);
}

static void
reshape(Isel *I, const TOp *o, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	VGeom ga, gt;
	int64_t l, i, j, row, TR = t->lay.tile_r;
	int *res;

	isel_vgeom(a, &ga);
	isel_vgeom(t, &gt);
	if (dtype_size(a->dtype) != 4 || a->lay.tile_r != TR) {
		unsupported(I, arena_printf(I->a, "a reshape of a %s vector",
		    dtype_name(a->dtype)));
		return;
	}
	if (ga.C == 1 && gt.R == 1 && gt.C == ga.R && ga.R > 1 &&
	    ga.lead == gt.lead && a->dtype != DT_BOOL) {
		relayout(I, o, 1, out);
		return;
	}
	if (ga.R == 1 && gt.C == 1 && gt.R == ga.C && ga.C > 1 &&
	    ga.lead == gt.lead && a->dtype != DT_BOOL) {
		relayout(I, o, 0, out);
		return;
	}
	if (ga.C != gt.C || !((ga.R == gt.R && ga.lead == gt.lead) ||
	    (ga.R % TR == 0 && gt.R % TR == 0))) {
		unsupported(I, "a reshape that changes the last dimension or "
		    "splits row tiles");
		return;
	}
	res = tiles(I, gt.lead * gt.nr * gt.nc);
	for (l = 0; l < gt.lead; l++)
		for (i = 0; i < gt.nr; i++)
			for (j = 0; j < gt.nc && !I->err; j++) {
				row = l * gt.R + i * TR;
				res[(l * gt.nr + i) * gt.nc + j] = isel_vtile(I,
				    o->arg[0], a, row / ga.R, row % ga.R / TR, j);
			}
	if (!I->err)
		isel_vpack(I, t, res, out);
}

/* ------------------------------------------------------------ roll */

/*
 * out[c] = in[(c - s) mod n] over tiles x[0..nt) of T elements along the
 * axis (lanes: XLU rotates; sub: vrot.sub), n = nt * T, or n < T with
 * nt = 1.  Results into y[].
 */
static void
roll_tiles(Isel *I, const int *x, int64_t nt, int64_t T, int64_t n,
    int64_t s, int sub, int *y)
{
	int64_t q = s / T, r = s % T, j;
	int *a = tiles(I, 2 * nt), m;

	if (n < T) {		/* one partial tile: two rotates */
		int src[2] = { x[0], x[0] };
		if (sub) {
			a[0] = vlit(I, OP_VROTS, x[0], (int)s);
			a[1] = vlit(I, OP_VROTS, x[0], (int)(s + T - n));
		} else {
			isel_xlu_map(I, OP_XROT, src, 1, (int)s, a);
			isel_xlu_map(I, OP_XROT, src + 1, 1, (int)(s + T - n), a + 1);
		}
		y[0] = vsel(I, below(I, s, sub), a[1], a[0]);
		return;
	}
	if (r == 0) {
		for (j = 0; j < nt; j++)
			y[j] = x[mod(j - q, nt)];
		return;
	}
	if (sub)
		for (j = 0; j < nt; j++)
			a[j] = vlit(I, OP_VROTS, x[j], (int)r);
	else
		isel_xlu_map(I, OP_XROT, x, (int)nt, (int)r, a);
	m = below(I, r, sub);
	for (j = 0; j < nt; j++)
		y[j] = vsel(I, m, a[mod(j - q - 1, nt)], a[mod(j - q, nt)]);
}

/* The constant shift s of a roll along n elements (T per tile); -1
   after a diagnostic. */
static int64_t
roll_shift(Isel *I, TRef shift, int64_t n, int64_t T)
{
	int64_t s;

	if (!isel_cst(I, shift, &s))
		return unsupported(I, "a roll by a dynamic shift");
	if (n > T && n % T)
		return unsupported(I, "a roll along a dimension that is not "
		    "a multiple of the vreg");
	return mod(s, n);
}

/*
 * A roll by a dynamic shift along n elements: one static roll by 2^b
 * per bit b of (shift mod n), kept where the bit is set (a mask from
 * the shift's bit broadcast); rolls compose mod n, so n need not be a
 * power of two (then the shift's mod is a scalar loop).  x[0..nt) is
 * rolled in place.
 */
static void
roll_dyn(Isel *I, int *x, int64_t nt, int64_t T, int64_t n, int sub,
    TRef shift)
{
	int s = isel_smod(I, isel_scal(I, shift), n), bit, w, m, j;
	int *y = tiles(I, nt);
	int64_t b;

	for (b = 1; b < n; b *= 2) {
		bit = sreg(I);
		addi(I, OP_SANDI, bit, s, b);
		w = vreg(I);
		add(I, OP_VBCAST, w, bit, 0, 0);
		m = llo_new_reg(I->f, LC_M);
		add(I, OP_VCMPNEI, m, w, isel_vimm(I, 0), 0);
		roll_tiles(I, x, nt, T, n, b, sub, y);
		for (j = 0; j < nt; j++)
			x[j] = vsel(I, m, y[j], x[j]);
	}
}

static void
roll(Isel *I, const TOp *o, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int sub = o->u.axis == a->shape.rank - 2, *x, *y, *res;
	int64_t l, i, j, n, T, s, nt;
	VGeom g;

	if (words(I, a, "a roll"))
		return;
	if (!sub && o->u.axis != a->shape.rank - 1) {
		unsupported(I, "a vector roll along a leading dimension");
		return;
	}
	isel_vgeom(a, &g);
	n = sub ? g.R : g.C;
	T = sub ? a->lay.tile_r : a->lay.tile_c;
	nt = sub ? g.nr : g.nc;
	if (!isel_cst(I, o->arg[1], &s) && (n <= T || n % T == 0))
		s = -2;		/* dynamic: roll_dyn */
	else if ((s = roll_shift(I, o->arg[1], n, T)) < 0)
		return;
	res = tiles(I, g.lead * g.nr * g.nc);
	x = tiles(I, nt);
	y = tiles(I, nt);
	for (l = 0; l < g.lead; l++)
		for (i = 0; i < (sub ? g.nc : g.nr) && !I->err; i++) {
			for (j = 0; j < nt; j++)
				x[j] = sub ? isel_vtile(I, o->arg[0], a, l, j, i) :
				    isel_vtile(I, o->arg[0], a, l, i, j);
			if (I->err)
				return;
			if (s == 0 || (sub ? a->lay.kind == TL_SUBLANE_REPL :
			    a->lay.kind == TL_LANE_REPL))
				memcpy(y, x, sizeof(int) * (size_t)nt);
			else if (s < 0) {
				roll_dyn(I, x, nt, T, n, sub, o->arg[1]);
				memcpy(y, x, sizeof(int) * (size_t)nt);
			} else
				roll_tiles(I, x, nt, T, n, s, sub, y);
			for (j = 0; j < nt; j++)
				res[sub ? (l * g.nr + j) * g.nc + i :
				    (l * g.nr + i) * g.nc + j] = y[j];
		}
	if (!I->err)
		isel_vpack(I, t, res, out);
}

/* ------------------------------------------------------------ transpose */

static void
vtranspose(Isel *I, const TOp *o, Val *out)
{
	const TVal *a = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int64_t B = I->mp->lanes / I->mp->sublanes, l, bi, bj, k, nb;
	int *src = tiles(I, B), *dst = tiles(I, B), *res;
	VGeom ga, gt;

	if (words(I, a, "a transpose") || xpose_ok(I))
		return;
	isel_vgeom(a, &ga);
	isel_vgeom(t, &gt);
	res = tiles(I, gt.lead * gt.nr * gt.nc);
	nb = (ga.nr + B - 1) / B;
	for (l = 0; l < ga.lead; l++)
		for (bj = 0; bj < ga.nc; bj++)
			for (bi = 0; bi < nb && !I->err; bi++) {
				for (k = 0; k < B && bi * B + k < ga.nr; k++)
					src[k] = isel_vtile(I, o->arg[0], a, l,
					    bi * B + k, bj);
				if (I->err)
					return;
				isel_xlu_xpose(I, src, (int)k, dst);
				for (k = 0; k < B && bj * B + k < gt.nr; k++)
					res[(l * gt.nr + bj * B + k) * gt.nc + bi] =
					    dst[k];
			}
	if (!I->err)
		isel_vpack(I, t, res, out);
}

void
isel_xlu_op(Isel *I, const TOp *o, Val *out)
{
	switch (o->op) {
	case TOP_REDUCE: reduce(I, o, out); break;
	case TOP_BROADCAST: broadcast(I, o, out); break;
	case TOP_RESHAPE: reshape(I, o, out); break;
	case TOP_ROLL: roll(I, o, out); break;
	case TOP_VTRANSPOSE: vtranspose(I, o, out); break;
	default:
		bug("isel: '%s' is not an XLU op", tile_op_name(o->op));
	}
}

/* ------------------------------------------------------------ in memory */

/* A tile-aligned VMEM view [rows, cols]: tile (i, j) at s[base] + imm +
   i * rstride + j * cstride; full: its columns end where the buffer's
   do (writing a last tile's padding lanes is harmless).  Packed views
   (i8, bf16) have (pack * S)-row tiles; their row groups are parts of
   the tiles' words: group i of the view is part (g0 + i) % pack of
   tile (g0 + i) / pack (packed_load(), packed_store()). */
typedef struct MView {
	const TBuf *b;
	int base;
	int64_t imm, rows, cols, rstride, cstride;
	int full;
	int pack;		/* rows per word (1: 32-bit) */
	int64_t g0;		/* packed: the first group's part in its tile */
	int pend[4];		/* packed stores not written yet, per part */
	int64_t ptile, pj;	/* ... of tile row ptile, column tile pj */
} MView;

/* The view's ref with its row start moved back to its packed tile. */
static const Ref *
packed_ref(Isel *I, const Ref *r, MView *m)
{
	Ref *q = arena_alloc(I->a, sizeof *q);
	int rr = r->rank - 2;
	int64_t T = m->pack * I->mp->sublanes;

	*q = *r;
	m->g0 = q->start[rr] % T / I->mp->sublanes;
	q->start[rr] -= q->start[rr] % T;
	if (q->dyn[rr] && q->mult[rr] % T)
		return unsupported(I, "a transpose or roll in memory of a view "
		    "that is not tile aligned"), NULL;
	return q;
}

static int
mview(Isel *I, TRef ref, MView *m)
{
	const Ref *r = I->val[ref].ref;
	DType t = tv(I, ref)->dtype;
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes;
	int rk;

	memset(m, 0, sizeof *m);
	if (!r || isel_region(I, r, &m->rows, &m->cols))
		return -1;
	m->b = isel_rbuf(I, r);
	m->pack = dtype_packing(t);
	m->ptile = -1;
	rk = r->rank;
	/* sema keeps these in VMEM (as homes when read from SMEM); bool is
	   a 0/1 word there */
	if (r->space != TS_VMEM || rk < 2)
		bug("vliw: isel_xlu: a transpose or roll in memory of a "
		    "rank-%d view outside VMEM", rk);
	if (r->start[rk - 2] % S || r->start[rk - 1] % L ||
	    (r->dyn[rk - 1] && r->mult[rk - 1] % L))
		return unsupported(I, "a transpose or roll in memory of a view "
		    "that is not tile aligned");
	if (m->pack > 1 && !(r = packed_ref(I, r, m)))
		return -1;
	m->base = isel_address(I, r, &m->imm);
	if (I->err)
		return -1;
	if (!m->base)
		m->base = I->zero;
	isel_mat(isel_rbuf(I, r), &R, &C);
	m->cstride = S * L * 4;
	m->rstride = (C + L - 1) / L * m->cstride;
	m->full = !r->dyn[rk - 1] && r->start[rk - 1] + m->cols == C;
	return 0;
}

/* vld (store 0) / vst of tile (i, j) of m: its first 'rows' sublanes. */
static int
mtile_mem(Isel *I, const MView *m, int64_t i, int64_t j, int store, int v,
    int64_t rows)
{
	LIns *in;

	if (!store)
		v = vreg(I);
	in = store ? add(I, OP_VST, 0, m->base, v, 0) :
	    add(I, OP_VLD, v, m->base, 0, 0);
	in->imm = (int32_t)(m->imm + i * m->rstride + j * m->cstride);
	in->x = (uint16_t)(((1u << rows) - 1) | 1u << 8);
	isel_tag(in, m->b);
	return v;
}

/* Rows of the view in its row group i (at most S). */
static int64_t
grows(Isel *I, const MView *m, int64_t i)
{
	int64_t S = I->mp->sublanes, rows = m->rows - i * S;

	return rows < S ? rows : S;
}

/* Row group i of a packed view as 32-bit words (its part in the low
   bits, the parts above it in the others: transposes and rolls only
   move words). */
static int
packed_load(Isel *I, const MView *m, int64_t i, int64_t j)
{
	int64_t g = m->g0 + i, S = I->mp->sublanes;
	int w = mtile_mem(I, m, g / m->pack, j, 0, 0, S);

	if (g % m->pack == 0)
		return w;
	return vop(I, OP_VSHR, w, isel_vimm(I, (uint32_t)(g % m->pack * 32 /
	    m->pack)));
}

/*
 * Writes the pending groups of a packed view's tile: their parts packed
 * into words, stored whole when every part is there with the same rows,
 * else merged into the words' other parts (a sublane staircase when
 * the last group is partial).
 */
static void
packed_flush(Isel *I, MView *m)
{
	int64_t S = I->mp->sublanes, rows, top = 0, T = m->pack * S;
	int wb = 32 / m->pack, g, x, data = 0, wr = 0, all = 1, old, nk;
	uint32_t bits;

	if (m->ptile < 0)
		return;
	for (g = 0; g < m->pack; g++) {
		rows = grows(I, m, m->ptile * m->pack + g - m->g0);
		if (!m->pend[g]) {
			all = 0;
			continue;
		}
		top = rows > top ? rows : top;
		x = m->pend[g];
		bits = (uint32_t)((1ull << wb) - 1) << (g * wb);
		if (g < m->pack - 1)
			x = vop(I, OP_VAND, x, isel_vimm(I, (1u << wb) - 1));
		if (g)
			x = vop(I, OP_VSHL, x, isel_vimm(I,
			    (uint32_t)(g * wb)));
		data = data ? vop(I, OP_VOR, data, x) : x;
		x = isel_vimm(I, bits);
		if (rows < S) {
			all = 0;
			x = vsel(I, below(I, rows, 1), x, isel_vimm(I, 0));
		}
		wr = wr ? vop(I, OP_VOR, wr, x) : x;
	}
	/* the view's rows end inside this tile: its last groups' rows
	   decide; groups beyond the view are the buffer's, kept */
	if (!all || (m->ptile + 1) * T - m->g0 * S > m->rows) {
		old = mtile_mem(I, m, m->ptile, m->pj, 0, 0, top);
		nk = vreg(I);
		add(I, OP_VNOT, nk, wr, 0, 0);
		data = vop(I, OP_VOR, vop(I, OP_VAND, old, nk), vop(I, OP_VAND,
		    data, wr));
	}
	mtile_mem(I, m, m->ptile, m->pj, 1, data, top);
	memset(m->pend, 0, sizeof m->pend);
	m->ptile = -1;
}

/* Row group i, column tile j of a packed view := v, written when its
   tile's groups in the view are all there (or another tile comes). */
static void
packed_store(Isel *I, MView *m, int64_t i, int64_t j, int v)
{
	int64_t g = m->g0 + i, t = g / m->pack, S = I->mp->sublanes, k;
	int done = 1;

	if (m->ptile >= 0 && (m->ptile != t || m->pj != j))
		packed_flush(I, m);
	m->ptile = t;
	m->pj = j;
	m->pend[g % m->pack] = v;
	for (k = 0; k < m->pack; k++) {
		int64_t vg = t * m->pack + k - m->g0;
		if (vg >= 0 && vg * S < m->rows && !m->pend[k])
			done = 0;
	}
	if (done)
		packed_flush(I, m);
}

/* vld (store 0) / vst of row group i, column tile j of m (32-bit: its
   first 'rows' sublanes; packed: through the parts of its tile). */
static int
mtile(Isel *I, MView *m, int64_t i, int64_t j, int store, int v)
{
	if (m->pack > 1 && store)
		return packed_store(I, m, i, j, v), v;
	if (m->pack > 1)
		return packed_load(I, m, i, j);
	return mtile_mem(I, m, i, j, store, v, store ? grows(I, m, i) :
	    I->mp->sublanes);
}

static int
lanes_ok(Isel *I, const MView *d)
{
	if (d->cols % I->mp->lanes && !d->full)
		return unsupported(I, "a transpose or roll into a view that "
		    "ends inside a vreg's lanes");
	return 0;
}

static void
mem_transpose(Isel *I, const TOp *o)
{
	int64_t S = I->mp->sublanes, L = I->mp->lanes, B = L / S;
	int64_t bi, bj, k, nr, nbi, nbj, x;
	int *src = tiles(I, B), *dst = tiles(I, B);
	MView d, s;

	if (xpose_ok(I) || mview(I, o->arg[0], &d) || mview(I, o->arg[1], &s) ||
	    lanes_ok(I, &d))
		return;
	if (d.rows != s.cols || d.cols != s.rows) {
		unsupported(I, "a transpose between views of other shapes");
		return;
	}
	nr = (s.rows + S - 1) / S;
	nbj = (s.cols + L - 1) / L;
	nbi = (s.rows + L - 1) / L;
	for (x = 0; x < nbi * nbj; x++) {
		/* packed results: a column of blocks after another, so that
		   the groups of a packed tile come together */
		bj = d.pack > 1 ? x % nbj : x / nbi;
		bi = d.pack > 1 ? x / nbj : x % nbi;
		for (k = 0; k < B && bi * B + k < nr; k++)
			src[k] = mtile(I, &s, bi * B + k, bj, 0, 0);
		isel_xlu_xpose(I, src, (int)k, dst);
		for (k = 0; k < B && (bj * B + k) * S < d.rows; k++)
			mtile(I, &d, bj * B + k, bi, 1, dst[k]);
	}
	packed_flush(I, &d);
}

/* ------------------------------------------------- roll by a run-time
   shift, in memory along rows */

/* x rotated down by the sublanes in s[k] (0 <= k < 2 S): one vrot.sub
   by 2^b per bit b, kept where the bit is set. */
static int
rots_dyn(Isel *I, int x, int k)
{
	int64_t b;
	int bit, w, m;

	for (b = 1; b < I->mp->sublanes; b *= 2) {
		bit = sreg(I);
		addi(I, OP_SANDI, bit, k, b);
		w = vreg(I);
		add(I, OP_VBCAST, w, bit, 0, 0);
		m = llo_new_reg(I->f, LC_M);
		add(I, OP_VCMPNEI, m, w, isel_vimm(I, 0), 0);
		x = vsel(I, m, vlit(I, OP_VROTS, x, (int)b), x);
	}
	return x;
}

/* (j - s[q] - d) mod nt for 0 <= q < nt, 0 <= d <= 1: a register. */
static int
tile_index(Isel *I, int64_t j, int q, int64_t d, int64_t nt)
{
	int t = sreg(I), u = sreg(I), p = llo_new_reg(I->f, LC_P);

	add(I, OP_SSUB, t, I->zero, q, 0);
	addi(I, OP_SADDI, t, t, j - d);
	addi(I, OP_SCMPILT, p, t, 0);
	addi(I, OP_SADDI, u, t, nt);
	add(I, OP_SSEL, u, u, t, p);
	return u;
}

/* vld of row tile s[ti] (a register), column tile c of m. */
static int
mtile_dyn(Isel *I, const MView *m, int ti, int64_t c)
{
	int a = sreg(I), v = vreg(I);
	LIns *in;

	addi(I, OP_SMULI, a, ti, m->rstride);
	add(I, OP_SADD, a, a, m->base, 0);
	in = add(I, OP_VLD, v, a, 0, 0);
	in->imm = (int32_t)(m->imm + c * m->cstride);
	in->x = (uint16_t)(((1u << I->mp->sublanes) - 1) | 1u << 8);
	isel_tag(in, m->b);
	return v;
}

/*
 * d = roll(v, shift, rows) for a shift known at run time: k = shift mod n
 * = q T + r.  Output tile j takes input tiles (j - q - 1) mod nt and
 * (j - q) mod nt, addressed at run time, rotated down by r sublanes
 * (rots_dyn), the first below r; n < T rotates its one tile by r and by
 * r + T - n.
 */
static void
mem_roll_rows_dyn(Isel *I, const TOp *o, MView *d, MView *v, int64_t n)
{
	int64_t S = I->mp->sublanes, L = I->mp->lanes, nt, no, i, j, lg;
	int k, q, r, r2, w, m, x0, x1, y;

	nt = (n + S - 1) / S;
	no = (v->cols + L - 1) / L;
	for (lg = 0; ((int64_t)1 << lg) < S; lg++)
		;
	k = isel_smod(I, isel_scal(I, o->arg[2]), n);
	q = sreg(I);
	addi(I, OP_SSHRI, q, k, lg);
	r = sreg(I);
	addi(I, OP_SANDI, r, k, S - 1);
	w = vreg(I);
	add(I, OP_VBCAST, w, r, 0, 0);
	m = llo_new_reg(I->f, LC_M);
	y = vreg(I);
	add(I, OP_VIOTAS, y, 0, 0, 0);
	add(I, OP_VCMPLTI, m, y, w, 0);
	r2 = sreg(I);
	addi(I, OP_SADDI, r2, r, S - n);
	for (i = 0; i < no; i++)
		for (j = 0; j < nt; j++) {
			if (n < S) {
				x1 = mtile(I, v, 0, i, 0, 0);
				x0 = rots_dyn(I, x1, r2);
			} else {
				x0 = rots_dyn(I, mtile_dyn(I, v,
				    tile_index(I, j, q, 1, nt), i), r);
				x1 = mtile_dyn(I, v, tile_index(I, j, q, 0,
				    nt), i);
			}
			y = vsel(I, m, x0, rots_dyn(I, x1, r));
			mtile(I, d, j, i, 1, y);
		}
}

static void
mem_roll(Isel *I, const TOp *o)
{
	int64_t S = I->mp->sublanes, L = I->mp->lanes, n, T, nt, no, q, r;
	int64_t s, i, j;
	int rk = tv(I, o->arg[1])->shape.rank, sub, x[2], a[2], m = 0;
	MView d, v;

	sub = o->u.axis == rk - 2;
	if (!sub && o->u.axis != rk - 1) {
		unsupported(I, "a roll in memory along a leading dimension");
		return;
	}
	if (mview(I, o->arg[0], &d) || mview(I, o->arg[1], &v) ||
	    lanes_ok(I, &d))
		return;
	n = sub ? v.rows : v.cols;
	T = sub ? S : L;
	nt = (n + T - 1) / T;
	no = sub ? (v.cols + L - 1) / L : (v.rows + S - 1) / S;
	if (!sub && !isel_cst(I, o->arg[2], &s)) {
		unsupported(I, "a lane roll in memory (rows wider than the "
		    "registers hold) by a dynamic shift");
		return;
	}
	if (sub && !isel_cst(I, o->arg[2], &s) && (v.pack > 1 ||
	    d.pack > 1)) {
		/* mtile_dyn addresses 32-bit tiles only */
		unsupported(I, "a roll along rows of packed data (bf16, i8, "
		    "bool) by a dynamic shift");
		return;
	}
	if (sub && !isel_cst(I, o->arg[2], &s) && (n <= T || n % T == 0)) {
		mem_roll_rows_dyn(I, o, &d, &v, n);
		return;
	}
	if ((s = roll_shift(I, o->arg[2], n, T)) < 0)
		return;
	q = s / T;
	r = s % T;
	for (i = 0; i < no; i++)
		for (j = 0; j < nt; j++) {
			int64_t j0 = mod(j - q - 1, nt), j1 = mod(j - q, nt);
			int y;
			x[0] = mtile(I, &v, sub ? j0 : i, sub ? i : j0, 0, 0);
			x[1] = j1 == j0 ? x[0] : mtile(I, &v, sub ? j1 : i,
			    sub ? i : j1, 0, 0);
			if (n < T || s == 0 || r == 0)
				roll_tiles(I, x + 1, 1, T, n < T ? n : T,
				    n < T ? s : 0, sub, &y);
			else {
				if (sub) {
					a[0] = vlit(I, OP_VROTS, x[0], (int)r);
					a[1] = vlit(I, OP_VROTS, x[1], (int)r);
				} else
					isel_xlu_map(I, OP_XROT, x, 2, (int)r, a);
				if (!m)
					m = below(I, r, sub);
				y = vsel(I, m, a[0], a[1]);
			}
			mtile(I, &d, sub ? j : i, sub ? i : j, 1, y);
		}
	packed_flush(I, &d);
}

void
isel_xlu_mem(Isel *I, const TOp *o)
{
	if (o->op == TOP_TRANSPOSE)
		mem_transpose(I, o);
	else
		mem_roll(I, o);
}
