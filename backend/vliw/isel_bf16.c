/*
 * isel_bf16.c - instruction selection for packed vectors (bf16, i8):
 * loads and stores of packed VMEM tiles, and converts between f32 (or
 * i32) and bf16 or i8.
 *
 * A bf16 vreg is packed: (2S, L) elements, row i of the vreg in the low
 * half of word row i, row S + i in the high half (vpack.bf16, and the
 * tiles of bf16 VMEM buffers alike).  A tile-aligned view loads and
 * stores whole word rows; a view starting half-way into a tile (row
 * start S mod 2S, static or dynamic) shifts the halves (vshr / vshl by
 * 16, a vreg of shift counts when dynamic); a view of at most the rest
 * of a half (a row of a packed tile) starts at its word row; a static
 * view that starts inside a half and leaves it combines, per sublane
 * range, the word rows of two tiles shifted by halves (cross_load,
 * cross_store: stores merge into the parts they do not write).  A view
 * whose first column is inside a lane tile is realigned by xlu.rot
 * (loads: two rotated tiles and a vsel; stores: lane masks).  Stores
 * that cover part of a word (one half) read, merge and write the words
 * back; replicated values store their one vreg per row or column of
 * tiles.  A column read as a row (lane reductions without keepdims)
 * unpacks the column's tiles into an XLU transpose.
 * Converts: f32 -> bf16 packs the vregs of rows 2i and 2i + 1 (round to
 * nearest even); bf16 -> f32 unpacks the low and high halves.  There is
 * no bf16 arithmetic here: the lowering computes it in f32 (lower_ew.c).
 *
 * i8 vregs and VMEM tiles are packed the same way by bytes: (4S, L)
 * elements, row g * S + i in byte g of word row i.  Accesses load and
 * store whole word rows (partial tiles merge their bytes); a view of at
 * most S rows starting at group g shifts by 8g bits, a static one of
 * more, or one crossing groups, is as bf16's crossing views; views
 * inside a group and at any column are as bf16's; converts to i8 saturate
 * (vmin / vmax) and pack four vregs' low bytes, from i8 sign-extend a
 * byte (vshl, vsra).
 */
#include "backend/vliw/isel.h"

static int
vreg(Isel *I)
{
	return llo_new_reg(I->f, LC_V);
}

static int
cst(Isel *I, uint32_t bits)
{
	int d = vreg(I);

	addi(I, OP_VBCASTI, d, 0, (int32_t)bits);
	return d;
}

static int
op2(Isel *I, int op, int a, int b)
{
	int d = vreg(I);

	add(I, op, d, a, b, 0);
	return d;
}

/* vrot.sub: sublane i of v to sublane (i + x) % S. */
static int
vlit_rot(Isel *I, int v, int x)
{
	int d = vreg(I);

	add(I, OP_VROTS, d, v, 0, 0)->x = (uint16_t)x;
	return d;
}

static int
log2i(int64_t x)
{
	int k = 0;

	while ((int64_t)1 << k < x)
		k++;
	return ((int64_t)1 << k) == x ? k : -1;
}

/* ------------------------------------------------------------ access */

typedef struct Pk {
	int64_t T;		/* rows per packed tile */
	int64_t part;		/* static: the view starts at row part * S */
	int64_t w;		/* ... plus w rows (word rows into the part) */
	int64_t off;		/* its first column's lane in a tile */
	int shv;		/* a vreg of shift counts (bits of the part), 0 */
	int dyn;		/* the part is dynamic */
	int cross;		/* static, rows cross groups: cross_load() */
} Pk;

static int in_tile(const VAcc *a, const Pk *k);
static int cross_load(Isel *I, const VAcc *a, const Pk *k, int64_t delta,
    int64_t n);
static void cross_store(Isel *I, const VAcc *a, const Pk *k, int64_t delta,
    int64_t n, int v, int lm);

/*
 * The view's address (a->base, a->imm at its first tile) and where in
 * the tile it starts: a static part (bf16 half, i8 byte), or (dynamic
 * row starts that are multiples of S but not of the tile) a shift count
 * computed at run time.
 */
static int
address(Isel *I, VAcc *a, Pk *k)
{
	Ref q = *a->q;
	int rr = q.rank - 2, x, t, sh, bits = 32 / a->pack;
	int64_t lt = 0, ls = 0;

	k->T = a->pack * a->S;
	if (rr < 0)
		return unsupported(I, arena_printf(I->a, "a rank-1 %s vector "
		    "access", dtype_name(a->t->dtype)));
	k->w = a->r0 % a->S;
	k->part = a->r0 % k->T / a->S;
	k->off = a->c0 % a->L;
	q.start[rr] -= a->r0 % k->T;
	q.start[rr + 1] -= k->off;
	if (q.dyn[rr] && q.mult[rr] % k->T) {
		if (q.mult[rr] % a->S || (lt = log2i(k->T)) < 0 ||
		    (ls = log2i(a->S)) < 0)
			return unsupported(I, arena_printf(I->a, "a dynamic %s "
			    "row start that is not a multiple of the "
			    "sublanes", dtype_name(a->t->dtype)));
		k->dyn = 1;
		q.dyn[rr] = 0;
	}
	if (k->dyn && k->w && k->w + a->R > a->S)
		return unsupported(I, arena_printf(I->a, "a %s view that "
		    "starts inside a sublane group and leaves it",
		    dtype_name(a->t->dtype)));
	k->cross = !k->dyn && ((k->w && k->w + a->R > a->S) ||
	    (a->pack > 2 && k->part && a->R > a->S && !in_tile(a, k)));
	a->base = isel_address(I, &q, &a->imm);
	if (I->err)
		return -1;
	if (k->dyn) {
		x = a->q->dyn[rr];
		if (k->part) {
			t = sreg(I);
			addi(I, OP_SADDI, t, x, k->part * a->S);
			x = t;
		}
		t = sreg(I);
		addi(I, OP_SSHRI, t, x, lt);
		a->base = isel_madd(I, a->base, t, a->ntc * a->tb);
		sh = sreg(I);
		addi(I, OP_SSHRI, sh, x, ls);
		t = sreg(I);
		addi(I, OP_SANDI, t, sh, a->pack - 1);
		sh = sreg(I);
		addi(I, OP_SSHLI, sh, t, log2i(bits));
		k->shv = vreg(I);
		add(I, OP_VBCAST, k->shv, sh, 0, 0);
	} else if (k->part && !k->cross)
		k->shv = cst(I, (uint32_t)(k->part * bits));
	if (!a->base)
		a->base = I->zero;
	return 0;
}

static VPart
words(int64_t n)
{
	VPart p = { 0, (1u << n) - 1, 1 };

	return p;
}

static int
load(Isel *I, const VAcc *a, int64_t delta, int64_t n)
{
	VPart p = words(n);
	int v = vreg(I);

	isel_vacc_mem(I, a, 0, v, delta, &p, 0);
	return v;
}

/* Writes n word rows: (old & keep) | (v & ~keep). */
static void
merge(Isel *I, const VAcc *a, int64_t delta, int64_t n, int v, int keep,
    int lm)
{
	VPart p = words(n);
	int old = load(I, a, delta, n);
	int o = op2(I, OP_VAND, old, keep);
	int nk = vreg(I);

	add(I, OP_VNOT, nk, keep, 0, 0);
	isel_vacc_mem(I, a, 1, op2(I, OP_VOR, o, op2(I, OP_VAND, v, nk)),
	    delta, &p, lm);
}

/*
 * 1 if an i8 load of more than S rows starting at byte group k->part
 * stays in its tile, so that the word rows' bytes shifted down hold them
 * all (16-row chunks of 32-row tiles, for a bf16 result on 8 sublanes):
 * statically, or for a dynamic start that is a multiple m of rows
 * dividing the tile, with R <= m.
 */
static int
in_tile(const VAcc *a, const Pk *k)
{
	int64_t m = a->q->mult[a->q->rank - 2];

	if (a->pack <= 2 || a->store)
		return 0;
	if (!k->dyn)
		return k->part * a->S + a->R <= k->T;
	return !k->part && m > 0 && k->T % m == 0 && a->R <= m;
}

/* One vreg of n value rows at delta bytes (its first tile). */
static int
load_one(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n)
{
	int lo, hi;

	if (k->cross)
		return cross_load(I, a, k, delta, n);
	if (!k->shv)
		return load(I, a, delta, n < a->S ? n : a->S);
	lo = op2(I, OP_VSHR, load(I, a, delta, n < a->S ? n : a->S), k->shv);
	if (n <= a->S || a->pack > 2)	/* i8: in_tile() */
		return lo;
	hi = op2(I, OP_VSHL, load(I, a, delta + a->ntc * a->tb, n - a->S),
	    k->shv);
	return op2(I, OP_VOR, lo, hi);
}

/*
 * The bits of packed words that a store of rows [0, n) of a tile keeps:
 * parts g >= n / S of every word row, and part n / S of word rows
 * n % S and up (w bits a part).
 */
static int
keep_mask(Isel *I, const VAcc *a, int64_t n)
{
	int w = 32 / a->pack, g = (int)(n / a->S), io, m, d;
	uint32_t all = g >= a->pack ? 0 : ~0u << (w * g);
	uint32_t part = all & ~(((1u << w) - 1) << (w * g));

	if (n % a->S == 0)
		return cst(I, all);
	io = vreg(I);
	add(I, OP_VIOTAS, io, 0, 0, 0);
	m = llo_new_reg(I->f, LC_M);
	add(I, OP_VCMPLTI, m, io, cst(I, (uint32_t)(n % a->S)), 0);
	d = vreg(I);
	add(I, OP_VSEL, d, cst(I, part), cst(I, all), m);
	return d;
}

static void
store_one(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n,
    int v, int lm)
{
	VPart p = words(a->S);
	int keep, io;

	if (k->cross)
		return (void)cross_store(I, a, k, delta, n, v, lm);
	if (!k->shv && n == k->T) {
		isel_vacc_mem(I, a, 1, v, delta, &p, lm);
		return;
	}
	if (!k->shv && a->pack > 2) {	/* i8: rows [0, n), aligned */
		merge(I, a, delta, n < a->S ? n : a->S, v, keep_mask(I, a, n),
		    lm);
		return;
	}
	if (!k->shv) {			/* rows [0, n) of an aligned tile */
		keep = cst(I, 0xffff0000u);
		if (n > a->S) {		/* word w's high half: row S + w */
			int m = llo_new_reg(I->f, LC_M);
			io = vreg(I);
			add(I, OP_VIOTAS, io, 0, 0, 0);
			add(I, OP_VCMPLTI, m, io, cst(I, (uint32_t)(n - a->S)),
			    0);
			keep = vreg(I);
			add(I, OP_VSEL, keep, cst(I, 0), cst(I, 0xffff0000u),
			    m);
		}
		merge(I, a, delta, n < a->S ? n : a->S, v, keep, lm);
		return;
	}
	/* rows in the high halves (i8: one byte) of this tile (shifted),
	   then (bf16) the low halves of the next */
	keep = vreg(I);
	add(I, OP_VNOT, keep, op2(I, OP_VSHL, cst(I, a->pack > 2 ? 0xffu :
	    0xffffu), k->shv), 0, 0);
	merge(I, a, delta, n < a->S ? n : a->S, op2(I, OP_VSHL, v, k->shv),
	    keep, lm);
	if (n > a->S)
		merge(I, a, delta + a->ntc * a->tb, n - a->S, op2(I, OP_VSHR,
		    v, k->shv), cst(I, 0xffff0000u), lm);
}

/* ------------------------------------------------------------ crossing */

/*
 * A static view whose value rows cross sublane groups of its tiles: it
 * starts at word row w > 0 of part p and runs past the group (or, i8,
 * starts at a part p > 0 and runs past the tile).  Value vreg i (rows
 * i * T .., T = pack * S) then takes word rows w .. S - 1 of tile t0 + i
 * into sublanes [0, S - w) and word rows 0 .. w - 1 of the tile after
 * into sublanes [S - w, S), and its part g comes from part g + p, or,
 * past the word's parts, from part g + p - pack of the tile after (the
 * second range starts one part later).  Each (tile, sublane range,
 * part offset) is a term: a load shifted into place by parts, or a
 * store shifted back and merged into the word rows it writes.  Terms
 * whose rows sit above their sublanes (the second range) are moved by
 * vrot.sub, so no access starts before its tile.
 */
typedef struct Term {
	int tile;		/* 0: the vreg's first tile, 1: the next */
	int lo, hi;		/* value sublanes [lo, hi) */
	int64_t roff;		/* word row of sublane s: s + roff */
	int k;			/* value part g is the word's part g + k */
} Term;

static int
terms(const VAcc *a, const Pk *k, Term *t)
{
	int S = (int)a->S, P = a->pack, w = (int)k->w, p = (int)k->part;
	int n = 0;

	t[n++] = (Term){ 0, 0, S - w, w, p };
	if (p)
		t[n++] = (Term){ 1, 0, S - w, w, p - P };
	if (w && p + 1 < P)
		t[n++] = (Term){ 0, S - w, S, w - S, p + 1 };
	if (w)
		t[n++] = (Term){ 1, S - w, S, w - S, p + 1 - P };
	return n;
}

/* The first value row (of the vreg) in sublane s of term t. */
static int64_t
first_row(const VAcc *a, const Term *t, int s)
{
	return (t->k < 0 ? -t->k * a->S : 0) + s;
}

/* v shifted by d parts (d > 0: toward the high parts). */
static int
shift_parts(Isel *I, const VAcc *a, int v, int d)
{
	uint32_t bits = (uint32_t)(32 / a->pack * (d < 0 ? -d : d));

	if (!d)
		return v;
	return op2(I, d > 0 ? OP_VSHL : OP_VSHR, v, cst(I, bits));
}

/* Mask register of the sublanes below n. */
static int
sub_below(Isel *I, int n)
{
	int io = vreg(I), m = llo_new_reg(I->f, LC_M);

	add(I, OP_VIOTAS, io, 0, 0, 0);
	add(I, OP_VCMPLTI, m, io, cst(I, (uint32_t)n), 0);
	return m;
}

/* The vld or vst of term t's sublanes 'mask' at delta (the vreg's first
   tile, at its word row w): v at value sublanes, moved by vrot.sub when
   its rows sit above them. */
static int
term_mem(Isel *I, const VAcc *a, const Pk *k, const Term *t, int64_t delta,
    unsigned mask, int store, int v, int lm)
{
	int64_t d = delta - k->w * a->row + t->tile * a->ntc * a->tb;
	int64_t up = t->roff < 0 ? -t->roff : 0;
	VPart p = { 0, mask >> up, 1 };

	d += (t->roff + up) * a->row;
	if (store && up)
		v = vlit_rot(I, v, (int)(a->S - up));
	if (!store)
		v = vreg(I);
	isel_vacc_mem(I, a, store, v, d, &p, lm);
	if (!store && up)
		v = vlit_rot(I, v, (int)up);
	return v;
}

/* Value rows [0, n) of vreg at delta, loaded across groups. */
static int
cross_load(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n)
{
	Term t[4];
	int nt = terms(a, k, t), i, s, r[2] = { 0, 0 }, x, g;
	unsigned mask;

	for (i = 0; i < nt; i++) {
		for (s = t[i].lo, mask = 0; s < t[i].hi; s++)
			if (first_row(a, &t[i], s) < n)
				mask |= 1u << s;
		if (!mask)
			continue;
		x = term_mem(I, a, k, &t[i], delta, mask, 0, 0, 0);
		x = shift_parts(I, a, x, -t[i].k);
		g = t[i].lo > 0;
		r[g] = r[g] ? op2(I, OP_VOR, r[g], x) : x;
	}
	if (!r[1])
		return r[0];
	if (!r[0])
		return r[1];
	x = vreg(I);
	add(I, OP_VSEL, x, r[0], r[1], sub_below(I, (int)(a->S - k->w)));
	return x;
}

/* Stores value rows [0, n) of v (the vreg at delta) across groups: per
   term, the word parts it writes, merged into the words' others. */
static void
cross_store(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n,
    int v, int lm)
{
	Term t[4];
	int nt = terms(a, k, t), i, j, s, P = a->pack, wb = 32 / P;
	int wr, x, old, nk;
	int64_t lim;
	uint32_t all, bits;
	unsigned mask;

	for (i = 0; i < nt; i++) {
		wr = 0;
		all = 0;
		mask = 0;
		for (j = t[i].k > 0 ? t[i].k : 0; j < P && j < P + t[i].k;
		    j++) {
			lim = n - (j - t[i].k) * a->S;
			lim = lim < t[i].hi ? lim : t[i].hi;
			if (lim <= t[i].lo)
				continue;
			for (s = t[i].lo; s < lim; s++)
				mask |= 1u << s;
			bits = (uint32_t)((1ull << wb) - 1) << (j * wb);
			if (lim == t[i].hi) {
				all |= bits;
				continue;
			}
			x = vreg(I);
			add(I, OP_VSEL, x, cst(I, bits), cst(I, 0),
			    sub_below(I, (int)lim));
			wr = wr ? op2(I, OP_VOR, wr, x) : x;
		}
		if (!mask)
			continue;
		x = shift_parts(I, a, v, t[i].k);
		if (all == 0xffffffffu) {
			term_mem(I, a, k, &t[i], delta, mask, 1, x, lm);
			continue;
		}
		wr = wr ? op2(I, OP_VOR, wr, cst(I, all)) : cst(I, all);
		old = term_mem(I, a, k, &t[i], delta, mask, 0, 0, 0);
		nk = vreg(I);
		add(I, OP_VNOT, nk, wr, 0, 0);
		x = op2(I, OP_VOR, op2(I, OP_VAND, old, nk), op2(I, OP_VAND, x,
		    wr));
		term_mem(I, a, k, &t[i], delta, mask, 1, x, lm);
	}
}

/* The register of packed tile (l, i, j) of a stored value: a replicated
   layout has one per row (lane-replicated) or column of tiles. */
static int
stored(const VAcc *a, const int *v, int64_t l, int64_t i, int64_t j,
    int64_t nr, int64_t nc)
{
	if (a->t->lay.kind == TL_LANE_REPL)
		return v[l * nr + i];
	if (a->t->lay.kind == TL_SUBLANE_REPL)
		return v[l * nc + j];
	return v[(l * nr + i) * nc + j];
}

/* XLU rotation of v along lanes by x. */
static int
rot(Isel *I, int v, int64_t x)
{
	int d;

	isel_xlu_map(I, OP_XROT, &v, 1, (int)x, &d);
	return d;
}

/* Value columns [x, x + L) of a view whose first column is lane off of
   a tile: the two tiles they span (delta: the first), rotated and
   joined by a lane select. */
static int
load_cols(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n,
    int64_t x)
{
	int64_t kl = a->L - k->off;
	int t[2], m, r;

	t[0] = load_one(I, a, k, delta, n);
	if (!k->off)
		return t[0];
	if (a->C - x <= kl)
		return rot(I, t[0], kl);
	t[1] = load_one(I, a, k, delta + a->tb, n);
	isel_xlu_map(I, OP_XROT, t, 2, (int)kl, t);
	m = isel_lane_mask(I, 0, kl);
	r = vreg(I);
	add(I, OP_VSEL, r, t[0], t[1], m);
	return r;
}

/* Stores value columns [x, x + L) (register v): rotated by off, into
   the lanes of the one or two tiles they span. */
static void
store_cols(Isel *I, const VAcc *a, const Pk *k, int64_t delta, int64_t n,
    int64_t x, int v)
{
	int64_t w = a->C - x < a->L ? a->C - x : a->L;
	int r;

	if (!k->off) {
		store_one(I, a, k, delta, n, v, w >= a->L || a->c0 + a->C >=
		    a->BC ? 0 : isel_lane_mask(I, 0, w));
		return;
	}
	r = rot(I, v, k->off);
	store_one(I, a, k, delta, n, r, isel_lane_mask(I, k->off,
	    k->off + w));
	if (k->off + w > a->L)
		store_one(I, a, k, delta + a->tb, n, r, isel_lane_mask(I, 0,
		    k->off + w - a->L));
}

/*
 * A column read as a row (a->colrow: value columns are buffer rows, at
 * column c0 = lane off of its tile): per L buffer rows, the packed
 * tiles' low and high halves unpacked into f32 row groups and pushed
 * through an XLU transpose; pop off / S holds the column in sublane
 * off % S, broadcast to every sublane and packed.
 */
static void
column_row(Isel *I, const VAcc *a, const Pk *k, Val *out)
{
	int64_t nc = (a->C + a->L - 1) / a->L, l, j, s, t, dl;
	int *r = isel_vregs(I, a->t), n = 0, ns, src[64], dst[64], x = 0, b;

	if (a->pack > 2 || a->L / a->S > 64 || k->part || k->w || k->dyn)
		return (void)unsupported(I, arena_printf(I->a, "a %s column "
		    "view at this row or on this preset",
		    dtype_name(a->t->dtype)));
	for (l = 0; l < a->lead; l++) {
		dl = isel_vacc_ldelta(a, l);
		for (j = 0; j < nc; j++, n++) {
			for (s = ns = 0; s * a->S < a->L &&
			    j * a->L + s * a->S < a->C; s++) {
				t = (j * a->L + s * a->S) / k->T;
				if (s % 2 == 0)
					x = load(I, a, dl + t * a->ntc * a->tb,
					    a->S);
				src[ns] = vreg(I);
				add(I, s % 2 ? OP_VUNPACKHI : OP_VUNPACKLO,
				    src[ns++], x, 0, 0);
			}
			isel_xlu_xpose(I, src, ns, dst);
			b = vreg(I);
			add(I, OP_VBCASTS, b, dst[k->off / a->S], 0, 0)->x =
			    (uint16_t)(k->off % a->S);
			add(I, OP_VPACK, r[n], b, b, 0);
		}
	}
	out->v = r;
	out->nv = a->t->lay.nvreg;
}

void
isel_bf16_access(Isel *I, VAcc *a, const int *v, Val *out)
{
	Pk k = { 0 };
	int64_t nr, nc, l, i, j, n, delta;
	int *r = NULL, idx = 0;
	TLayKind lk = a->t->lay.kind;

	if ((lk != TL_NATIVE && (!a->store || (lk != TL_LANE_REPL &&
	    lk != TL_SUBLANE_REPL))) || (a->colrow && a->store) || a->rstep)
		return (void)unsupported(I, arena_printf(I->a, "a %s vector "
		    "access of this layout or view", dtype_name(a->t->dtype)));
	if (address(I, a, &k))
		return;
	if (a->colrow)
		return column_row(I, a, &k, out);
	nr = (a->R + k.T - 1) / k.T;
	nc = (a->C + a->L - 1) / a->L;
	if (!k.cross && (k.dyn || (k.shv && a->pack > 2)) && a->R > a->S &&
	    !in_tile(a, &k))
		return (void)unsupported(I, arena_printf(I->a, "a %s access "
		    "of more than S rows starting inside a tile",
		    dtype_name(a->t->dtype)));
	if (!a->store)
		r = isel_vregs(I, a->t);
	for (l = 0; l < a->lead; l++)
		for (i = 0; i < nr; i++)
			for (j = 0; j < nc; j++, idx++) {
				n = a->R - i * k.T < k.T ? a->R - i * k.T : k.T;
				delta = isel_vacc_ldelta(a, l) + i * a->ntc *
				    a->tb + j * a->tb + k.w * a->row;
				if (!a->store)
					r[idx] = load_cols(I, a, &k, delta, n,
					    j * a->L);
				else
					store_cols(I, a, &k, delta, n, j * a->L,
					    stored(a, v, l, i, j, nr, nc));
			}
	if (!a->store && !I->err) {
		out->v = r;
		out->nv = a->t->lay.nvreg;
	}
}

/* ------------------------------------------------------------ converts */

/* Vreg rows, columns and leading count of a vector value. */
static void
grid(const TVal *t, int64_t *lead, int64_t *nr, int64_t *nc)
{
	int n = t->shape.rank, i;
	int64_t R = n >= 2 ? t->shape.d[n - 2] : 1, C = t->shape.d[n - 1];

	*lead = 1;
	for (i = 0; i + 2 < n; i++)
		*lead *= t->shape.d[i];
	*nr = (R + t->lay.tile_r - 1) / t->lay.tile_r;
	*nc = (C + t->lay.tile_c - 1) / t->lay.tile_c;
	if (t->lay.kind == TL_LANE_REPL)
		*nc = 1;
	else if (t->lay.kind == TL_SUBLANE_REPL)
		*nr = 1;
}

/* Register x of dtype t as f32 (i32: converted). */
static int
as_f32(Isel *I, DType t, int x)
{
	int d;

	if (t != DT_I32)
		return x;
	d = vreg(I);
	add(I, OP_VCVTIF, d, x, 0, 0);
	return d;
}

/* f32 -> bf16: packed vreg (i, j) of rows 2i and 2i + 1. */
static void
pack(Isel *I, const TVal *ti, const TVal *to, const int *in, int *v)
{
	int64_t lead, nr, nc, nri, nci, l, i, j, a;
	int sub = to->lay.kind == TL_SUBLANE_REPL, x, y;

	grid(to, &lead, &nr, &nc);
	grid(ti, &lead, &nri, &nci);
	for (l = 0; l < lead; l++)
		for (i = 0; i < nr; i++)
			for (j = 0; j < nc; j++) {
				a = (l * nri + (sub ? 0 : 2 * i)) * nc + j;
				x = as_f32(I, ti->dtype, in[a]);
				y = !sub && 2 * i + 1 < nri ?
				    as_f32(I, ti->dtype, in[a + nc]) : x;
				add(I, OP_VPACK, v[(l * nr + i) * nc + j], x, y,
				    0);
			}
}

/* Part g of the packed words x as dtype to: bf16 halves through f32,
   i8 bytes sign-extended. */
static int
unpack_one(Isel *I, DType from, DType to, int x, int64_t g)
{
	int d;

	if (from == DT_BF16) {
		d = vreg(I);
		add(I, g ? OP_VUNPACKHI : OP_VUNPACKLO, d, x, 0, 0);
		return to == DT_I32 ? op2(I, OP_VCVTFI, d, 0) : d;
	}
	if (g < 3)
		x = op2(I, OP_VSHL, x, cst(I, (uint32_t)(24 - 8 * g)));
	x = op2(I, OP_VSRA, x, cst(I, 24));
	return to == DT_F32 ? op2(I, OP_VCVTIF, x, 0) : x;
}

/* bf16 or i8 -> f32 or i32: vreg (i, j) from part i % pack of packed
   vreg (i / pack, j) (part 0 when sublane-replicated). */
static void
unpack(Isel *I, const TVal *ti, const TVal *to, const int *in, int *v)
{
	int64_t lead, nr, nc, nri, nci, l, i, j, a;
	int64_t P = dtype_packing(ti->dtype);
	int sub = to->lay.kind == TL_SUBLANE_REPL;

	grid(to, &lead, &nr, &nc);
	grid(ti, &lead, &nri, &nci);
	for (l = 0; l < lead; l++)
		for (i = 0; i < nr; i++)
			for (j = 0; j < nc; j++) {
				a = (l * nri + (sub ? 0 : i / P)) * nc + j;
				v[(l * nr + i) * nc + j] = unpack_one(I,
				    ti->dtype, to->dtype, in[a], sub ? 0 :
				    i % P);
			}
}

/* i32 or f32 -> i8, saturating: packed vreg (i, j) of rows 4i .. 4i + 3
   (every byte the same row when sublane-replicated). */
static void
pack_i8(Isel *I, const TVal *ti, const TVal *to, const int *in, int *v)
{
	int64_t lead, nr, nc, nri, nci, l, i, j, a, g;
	int sub = to->lay.kind == TL_SUBLANE_REPL, x, w, acc;

	grid(to, &lead, &nr, &nc);
	grid(ti, &lead, &nri, &nci);
	for (l = 0; l < lead; l++)
		for (i = 0; i < nr; i++)
			for (j = 0; j < nc; j++) {
				acc = 0;
				for (g = 0; g < 4; g++) {
					a = (l * nri + (sub ? 0 : 4 * i + g)) *
					    nc + j;
					if (!sub && 4 * i + g >= nri)
						break;
					x = in[a];
					if (ti->dtype == DT_F32)
						x = op2(I, OP_VCVTFI, x, 0);
					x = op2(I, OP_VMAXI, op2(I, OP_VMINI, x,
					    cst(I, 127)), cst(I, (uint32_t)-128));
					w = op2(I, OP_VAND, x, cst(I, 0xff));
					if (g)
						w = op2(I, OP_VSHL, w,
						    cst(I, (uint32_t)(8 * g)));
					acc = acc ? op2(I, OP_VOR, acc, w) : w;
				}
				v[(l * nr + i) * nc + j] = acc;
			}
}

void
isel_convert_bf16(Isel *I, const TOp *o, Val *out)
{
	const TVal *ti = tv(I, o->arg[0]), *to = tv(I, o->res[0]);
	DType other = ti->dtype == DT_BF16 || ti->dtype == DT_I8 ? to->dtype :
	    ti->dtype;

	if (ti->lay.kind != to->lay.kind || to->shape.rank < 1 ||
	    ti->shape.rank != to->shape.rank || ti->dtype == to->dtype ||
	    (other != DT_F32 && other != DT_I32) ||
	    (ti->dtype == DT_I8 && to->dtype == DT_BF16))
		return (void)unsupported(I, arena_printf(I->a, "a convert from "
		    "%s to %s", dtype_name(ti->dtype), dtype_name(to->dtype)));
	out->v = isel_vregs(I, to);
	out->nv = to->lay.nvreg;
	if (to->dtype == DT_I8)
		pack_i8(I, ti, to, I->val[o->arg[0]].v, out->v);
	else if (to->dtype == DT_BF16)
		pack(I, ti, to, I->val[o->arg[0]].v, out->v);
	else
		unpack(I, ti, to, I->val[o->arg[0]].v, out->v);
}
