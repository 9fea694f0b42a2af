/*
 * isel_ref.c - memory views for instruction selection: resolving a ref
 * (buffer, slot, static and dynamic starts) into a byte address in
 * tiled VMEM, row-major SMEM or HBM, and vector and scalar loads and
 * stores through them.
 *
 * Vector accesses (isel_vaccess) of 4-byte dtypes; bf16 goes to
 * isel_bf16.c.  A value's dims map onto the view's buffer dims:
 *   columns -> the buffer's columns: rows are buffer rows (a sublane
 *     group is one vld/vst, or two when it crosses a row tile of a
 *     buffer more than one tile wide), or a leading buffer dim (a
 *     strided vld/vst, or one access per row); leading dims add
 *     static offsets.  Partial row groups take sublane masks, stores of
 *     partial columns a lane mask (vst.msk), unless the columns beyond
 *     are the buffer's padding.  A column start inside a tile is
 *     realigned with xlu.rot (loads: two rotated tiles and a vsel).
 *   columns -> the buffer's rows (a column read as a row, m[:, 0]): an
 *     XLU transpose of the L rows, the pop holding the column, then
 *     vbcast.sub of its sublane.
 * Layouts: native as above; lane-replicated values load the column
 * tile and xlu.bcast the start's lane, and store to every column tile
 * of the view (lane masks); sublane-replicated values load their first
 * row with stride 0 (every sublane reads it) and store to every row
 * group.  bool vectors are 0/1 words in memory (vsel); loads look at
 * the low byte only (vand, vcmp.ne): DMAs from HBM, where bool is a
 * byte, write no other.
 */
#include "backend/vliw/isel.h"

/* ------------------------------------------------------------ refs */

const TBuf *
isel_rbuf(Isel *I, const Ref *r)
{
	return &I->tf->buf.v[r->buf];
}

void
isel_tag(LIns *in, const TBuf *b)
{
	int64_t hi = b->offset + (int64_t)b->nslot * b->slot_bytes;

	if (b->offset >= 0 && b->slot_bytes > 0 && hi <= INT32_MAX) {
		in->mlo = (int32_t)b->offset;
		in->mhi = (int32_t)hi;
	}
}

Ref *
isel_ref_of_buf(Isel *I, int b)
{
	Ref *r = arena_alloc(I->a, sizeof *r);
	const TBuf *tb = &I->tf->buf.v[b];
	int i;

	r->space = tb->space;
	r->buf = b;
	r->rank = r->nvd = tb->shape.rank;
	for (i = 0; i < r->rank; i++) {
		r->vdim[i] = i;
		r->size[i] = tb->shape.d[i];
		r->mult[i] = 1;
	}
	return r;
}

static int64_t
gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a < 0 ? -a : a;
}

/* A copy of ref r narrowed by idx (dynamic starts from o's args). */
Ref *
isel_narrow(Isel *I, const Ref *r, const TOp *o, int n, const TIdx *idx)
{
	Ref *q = arena_alloc(I->a, sizeof *q);
	int i, k = 0, bd;
	int64_t c;

	*q = *r;
	for (i = 0; i < n && i < r->nvd; i++) {
		bd = r->vdim[i];
		q->start[bd] += idx[i].start;
		if (idx[i].dyn >= 0 && isel_cst(I, o->arg[idx[i].dyn], &c))
			q->start[bd] += c;	/* a remainder chunk's start */
		else if (idx[i].dyn >= 0) {
			int s = isel_scal(I, o->arg[idx[i].dyn]);
			int64_t m = idx[i].multiple > 0 ? idx[i].multiple : 1;
			q->mult[bd] = q->dyn[bd] ? gcd64(q->mult[bd], m) : m;
			q->dyn[bd] = isel_madd(I, q->dyn[bd], s, 1);
		}
		if (!idx[i].squeeze) {
			q->vdim[k] = bd;
			q->size[k++] = idx[i].size;
		}
	}
	q->nvd = k;
	return q;
}

/* Region of r as [rows, cols] over the buffer's last two dims; -1 if a
   leading dim of the view is not 1. */
int
isel_region(Isel *I, const Ref *r, int64_t *R, int64_t *C)
{
	int i, lead = r->rank - 2;

	*R = *C = 1;
	for (i = 0; i < r->nvd; i++) {
		if (r->vdim[i] == r->rank - 1)
			*C = r->size[i];
		else if (r->vdim[i] == r->rank - 2 && r->rank >= 2)
			*R = r->size[i];
		else if (r->size[i] != 1)
			return unsupported(I, "a view with a leading dimension "
			    "above 1");
	}
	(void)lead;
	return 0;
}

/* Buffer dims: rows and columns of the last two (rank 1: one row). */
void
isel_mat(const TBuf *b, int64_t *R, int64_t *C)
{
	int r = b->shape.rank;

	*C = r >= 1 ? b->shape.d[r - 1] : 1;
	*R = r >= 2 ? b->shape.d[r - 2] : 1;
}

/* Bytes of an element of b outside VMEM: HBM holds bool and i8 in a
   byte each, as the host does; SMEM holds words but for bf16. */
int64_t
isel_esize(const TBuf *b)
{
	if (b->dtype == DT_BF16)
		return 2;
	if (b->space == TS_HBM && (b->dtype == DT_BOOL || b->dtype == DT_I8))
		return 1;
	return 4;
}

/*
 * isel_address() for a packed VMEM buffer (bf16, i8): (pack * S, L)
 * tiles of words, row g * S + i of a tile in part g of word row i (the
 * low half or byte first); the view must start at a tile.
 */
static int
address_packed(Isel *I, const Ref *r, int64_t *imm)
{
	const TBuf *b = isel_rbuf(I, r);
	int64_t R, C, L = I->mp->lanes, S = I->mp->sublanes, tb, ntc, T;
	int64_t stride, off;
	int reg = 0, i, rr = r->rank - 2, cc = r->rank - 1;

	isel_mat(b, &R, &C);
	T = dtype_packing(b->dtype) * S;
	tb = I->mp->sublanes * L * 4;
	ntc = (C + L - 1) / L;
	off = r->sslot * b->slot_bytes + b->offset;
	if (r->slot)
		reg = isel_madd(I, reg, r->slot, b->slot_bytes);
	stride = (R + T - 1) / T * ntc * tb;
	for (i = rr - 1; i >= 0; i--) {
		off += r->start[i] * stride;
		reg = isel_madd(I, reg, r->dyn[i], stride);
		stride *= b->shape.d[i];
	}
	if (rr < 0 || r->start[cc] % L || r->start[rr] % T ||
	    (r->dyn[cc] && r->mult[cc] % L) || (r->dyn[rr] && r->mult[rr] % T))
		return unsupported(I, arena_printf(I->a, "a %s view that does "
		    "not start at a tile", dtype_name(b->dtype))), 0;
	off += r->start[cc] / L * tb + r->start[rr] / T * ntc * tb;
	reg = isel_madd(I, reg, r->dyn[cc], tb / L);
	reg = isel_madd(I, reg, r->dyn[rr], ntc * tb / T);
	*imm = off;
	return reg;
}

/*
 * Byte address of r's first element: a register (0 = none) plus *imm.
 * VMEM is tiled (tile_r x L tiles, row-major over the tile grid and the
 * leading dims); SMEM and HBM are row-major (HBM offsets only: the base
 * is added by the caller).
 */
int
isel_address(Isel *I, const Ref *r, int64_t *imm)
{
	const TBuf *b = isel_rbuf(I, r);
	int64_t R, C, L = I->mp->lanes, S = I->mp->sublanes, tb, ntc, nrt;
	int64_t stride = 1, off;
	int reg = 0, i, rr = r->rank - 2, cc = r->rank - 1;

	isel_mat(b, &R, &C);
	off = r->sslot * b->slot_bytes + (b->space == TS_HBM ? 0 : b->offset);
	if (r->slot)
		reg = isel_madd(I, reg, r->slot, b->slot_bytes);
	if (b->space != TS_VMEM) {
		int64_t es = isel_esize(b);
		for (i = r->rank - 1; i >= 0; i--) {
			off += r->start[i] * stride * es;
			reg = isel_madd(I, reg, r->dyn[i], stride * es);
			stride *= b->shape.d[i];
		}
		*imm = off;
		return reg;
	}
	if (dtype_packing(b->dtype) > 1)
		return address_packed(I, r, imm);
	tb = S * L * 4;
	ntc = (C + L - 1) / L;
	nrt = (R + S - 1) / S;
	stride = nrt * ntc * tb;
	for (i = rr - 1; i >= 0; i--) {
		off += r->start[i] * stride;
		reg = isel_madd(I, reg, r->dyn[i], stride);
		stride *= b->shape.d[i];
	}
	if (cc >= 0) {
		int64_t c0 = r->start[cc];
		off += c0 / L * tb + c0 % L * 4;
		if (r->dyn[cc] && r->mult[cc] % L)
			return unsupported(I, "a dynamic lane offset"), 0;
		reg = isel_madd(I, reg, r->dyn[cc], S * 4);
	}
	if (rr >= 0) {
		int64_t r0 = r->start[rr];
		off += r0 / S * ntc * tb + r0 % S * L * 4;
		/* one column tile: rows are contiguous, any start works */
		if (r->dyn[rr] && r->mult[rr] % S && ntc > 1)
			return unsupported(I, "a dynamic row offset that is "
			    "not a multiple of the sublanes"), 0;
		reg = isel_madd(I, reg, r->dyn[rr], ntc * tb / S);
	}
	*imm = off;
	return reg;
}

/* ------------------------------------------------------------ vector access */

/* The mask of bool words r as read from VMEM: their low bytes, the
   only ones a DMA from HBM writes (bool is a byte there). */
static int
mem_mask(Isel *I, int r)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, OP_VAND, d, r, isel_vimm(I, 0xff), 0);
	return isel_v_to_mask(I, d);
}

static int64_t
roff(const VAcc *a, int64_t r)
{
	return r / a->S * a->ntc * a->tb + r % a->S * a->row;
}

static int64_t
coff(const VAcc *a, int64_t c)
{
	return c / a->L * a->tb + c % a->L * 4;
}

/* Bytes from the view's first row to its value row d. */
static int64_t
rdelta(const VAcc *a, int64_t d)
{
	return a->rstep ? d * a->rstep : roff(a, a->r0 + d) - roff(a, a->r0);
}

/* Bytes from the view's first column to its value column x. */
int64_t
isel_vacc_cdelta(const VAcc *a, int64_t x)
{
	return coff(a, a->c0 + x) - coff(a, a->c0);
}

/* Bytes from the view's start to leading index li (row-major). */
int64_t
isel_vacc_ldelta(const VAcc *a, int64_t li)
{
	int64_t d = 0;
	int k;

	for (k = a->nlead - 1; k >= 0; k--) {
		d += li % a->lsize[k] * a->lstride[k];
		li /= a->lsize[k];
	}
	return d;
}

/* Bytes per step of leading buffer dim bd in tiled VMEM. */
static int64_t
slab(const VAcc *a, int bd)
{
	int64_t s = (a->BR + a->S * a->pack - 1) / (a->S * a->pack) * a->ntc *
	    a->tb;
	int i;

	for (i = bd + 1; i < a->b->shape.rank - 2; i++)
		s *= a->b->shape.d[i];
	return s;
}

/*
 * The accesses of n value rows from value row d (sublanes 0 .. n-1):
 * one part, two when the group crosses a row tile of a buffer more than
 * one tile wide, or one per row when the rows step a leading dim by an
 * amount the stride field cannot say.  Returns the number of parts.
 */
int
isel_vacc_group(const VAcc *a, int64_t d, int n, VPart *p)
{
	unsigned all = (1u << n) - 1;
	int64_t m = a->r0 + d, k;
	int s;

	if (a->rstep) {
		if (a->rstep % a->row == 0 && a->rstep / a->row <= 255) {
			p[0] = (VPart){ rdelta(a, d), all, (int)(a->rstep /
			    a->row) };
			return 1;
		}
		for (s = 0; s < n; s++)
			p[s] = (VPart){ rdelta(a, d + s), 1u << s, 0 };
		return n;
	}
	k = a->S - m % a->S;
	if (a->ntc == 1 || m % a->S == 0 || n <= k) {
		p[0] = (VPart){ rdelta(a, d), all, 1 };
		return 1;
	}
	p[0] = (VPart){ rdelta(a, d), (1u << k) - 1, 1 };
	p[1] = (VPart){ rdelta(a, d + k) - k * a->row, all & ~((1u << k) - 1),
	    1 };
	return 2;
}

/* A vld (store 0) of register v or a vst / vst.msk (lane mask lm) at
   the view's address plus delta bytes. */
LIns *
isel_vacc_mem(Isel *I, const VAcc *a, int store, int v, int64_t delta,
    const VPart *p, int lm)
{
	LIns *in;

	if (!store)
		in = add(I, OP_VLD, v, a->base, 0, 0);
	else if (lm)
		in = add(I, OP_VSTMSK, 0, a->base, v, lm);
	else
		in = add(I, OP_VST, 0, a->base, v, 0);
	in->imm = (int32_t)(a->imm + delta + p->delta);
	in->x = (uint16_t)(p->mask | (unsigned)p->stride << 8);
	isel_tag(in, a->b);
	return in;
}

/* A mask register of lanes [lo, hi), or 0 when that is every lane. */
int
isel_lane_mask(Isel *I, int64_t lo, int64_t hi)
{
	int io = llo_new_reg(I->f, LC_V), m = 0, k, t;
	int64_t L = I->mp->lanes;

	if (lo <= 0 && hi >= L)
		return 0;
	add(I, OP_VIOTAL, io, 0, 0, 0);
	if (hi < L) {
		k = llo_new_reg(I->f, LC_V);
		addi(I, OP_VBCASTI, k, 0, hi);
		m = llo_new_reg(I->f, LC_M);
		add(I, OP_VCMPLTI, m, io, k, 0);
	}
	if (lo > 0) {
		k = llo_new_reg(I->f, LC_V);
		addi(I, OP_VBCASTI, k, 0, lo);
		t = llo_new_reg(I->f, LC_M);
		add(I, OP_VCMPGEI, t, io, k, 0);
		if (m) {
			k = llo_new_reg(I->f, LC_M);
			add(I, OP_MAND, k, m, t, 0);
			t = k;
		}
		m = t;
	}
	return m;
}

/* The lane mask a store of value columns [x, x + L) needs: none when
   the columns beyond the view are the buffer's padding. */
static int
store_mask(Isel *I, const VAcc *a, int64_t x)
{
	int64_t n = a->C - x;

	if (n >= a->L || a->c0 + a->C >= a->BC)
		return 0;
	return isel_lane_mask(I, 0, n);
}

/* A register loaded from n value rows at d (+ delta bytes). */
static int
load_rows(Isel *I, const VAcc *a, int64_t d, int n, int64_t delta)
{
	VPart p[32];
	int np = isel_vacc_group(a, d, n, p), v = 0, k, t, o;

	for (k = 0; k < np; k++) {
		t = llo_new_reg(I->f, LC_V);
		isel_vacc_mem(I, a, 0, t, delta, &p[k], 0);
		if (v) {
			o = llo_new_reg(I->f, LC_V);
			add(I, OP_VOR, o, v, t, 0);
			t = o;
		}
		v = t;
	}
	return v;
}

/* Stores register v to n value rows at d (+ delta), lane mask lm. */
static void
store_rows(Isel *I, const VAcc *a, int64_t d, int n, int64_t delta, int v,
    int lm)
{
	VPart p[32];
	int np = isel_vacc_group(a, d, n, p), k;

	for (k = 0; k < np; k++)
		isel_vacc_mem(I, a, 1, v, delta, &p[k], lm);
}

/* XLU lane op (xlu.rot, xlu.bcast) of v by x, in a new register. */
static int
xlane(Isel *I, int op, int v, int64_t x)
{
	int d;

	isel_xlu_map(I, op, &v, 1, (int)x, &d);
	return d;
}

/* Value columns [x, x + L) of n rows at d from a view whose column
   start is inside a tile: two rotated tiles joined by a lane select. */
static int
load_unaligned(Isel *I, const VAcc *a, int64_t d, int n, int64_t delta,
    int64_t x)
{
	int64_t off = a->c0 % a->L, k = a->L - off;
	int64_t t0 = isel_vacc_cdelta(a, x) - off * 4;
	int v[2], m, r;

	v[0] = load_rows(I, a, d, n, delta + t0);
	if (a->C - x <= k)
		return xlane(I, OP_XROT, v[0], k);
	v[1] = load_rows(I, a, d, n, delta + t0 + a->tb);
	isel_xlu_map(I, OP_XROT, v, 2, (int)k, v);
	m = isel_lane_mask(I, 0, k);
	r = llo_new_reg(I->f, LC_V);
	add(I, OP_VSEL, r, v[0], v[1], m);
	return r;
}

/* Stores value columns [x, x + L) (register v) into a view whose
   column start is inside a tile: v rotated, into two tiles. */
static void
store_unaligned(Isel *I, const VAcc *a, int64_t d, int n, int64_t delta,
    int64_t x, int v)
{
	int64_t off = a->c0 % a->L, w = a->C - x < a->L ? a->C - x : a->L;
	int64_t t0 = isel_vacc_cdelta(a, x) - off * 4;
	int r = xlane(I, OP_XROT, v, off);

	store_rows(I, a, d, n, delta + t0, r, isel_lane_mask(I, off,
	    off + w));
	if (off + w > a->L)
		store_rows(I, a, d, n, delta + t0 + a->tb, r,
		    isel_lane_mask(I, 0, off + w - a->L));
}

/* Rows in sublane group i of the value. */
static int
grp(const VAcc *a, int64_t i)
{
	return (int)(a->R - i * a->S < a->S ? a->R - i * a->S : a->S);
}

/* Native vreg *v: sublane group i, value columns [x, x + L). */
static void
native_one(Isel *I, const VAcc *a, int64_t dl, int64_t i, int64_t x, int *v)
{
	int64_t d = i * a->S;
	int n = grp(a, i), r;

	if (a->store) {
		r = a->isbool ? isel_mask_to_v(I, *v) : *v;
		if (a->c0 % a->L)
			store_unaligned(I, a, d, n, dl, x, r);
		else
			store_rows(I, a, d, n, dl + isel_vacc_cdelta(a, x), r,
			    store_mask(I, a, x));
		return;
	}
	r = a->c0 % a->L ? load_unaligned(I, a, d, n, dl, x) :
	    load_rows(I, a, d, n, dl + isel_vacc_cdelta(a, x));
	*v = a->isbool ? mem_mask(I, r) : r;
}

static void
native(Isel *I, const VAcc *a, int *v)
{
	int64_t nr = (a->R + a->S - 1) / a->S, nc = (a->C + a->L - 1) / a->L;
	int64_t l, i, j;
	int k = 0;

	for (l = 0; l < a->lead; l++)
		for (i = 0; i < nr; i++)
			for (j = 0; j < nc; j++)
				native_one(I, a, isel_vacc_ldelta(a, l), i,
				    j * a->L, &v[k++]);
}

/* Stores lane-replicated r (sublane group i) to every column tile of
   the view, lane-masked to its columns. */
static void
repl_store(Isel *I, const VAcc *a, int64_t dl, int64_t i, int r)
{
	int64_t c, lo, hi, end = a->c0 + a->C;

	for (c = a->c0 - a->c0 % a->L; c < end; c += a->L) {
		lo = c < a->c0 ? a->c0 - c : 0;
		hi = end - c >= a->L || end >= a->BC ? a->L : end - c;
		store_rows(I, a, i * a->S, grp(a, i), dl + coff(a, c) -
		    coff(a, a->c0), r, isel_lane_mask(I, lo, hi));
	}
}

/* Lane-replicated [.., R, C]: one vreg column. */
static void
lane_repl(Isel *I, const VAcc *a, int *v)
{
	int64_t nr = (a->R + a->S - 1) / a->S, off = a->c0 % a->L;
	int64_t l, i, dl;
	int k = 0, r;

	for (l = 0; l < a->lead; l++)
		for (i = 0; i < nr; i++, k++) {
			dl = isel_vacc_ldelta(a, l);
			if (a->store) {
				repl_store(I, a, dl, i, a->isbool ?
				    isel_mask_to_v(I, v[k]) : v[k]);
				continue;
			}
			r = load_rows(I, a, i * a->S, grp(a, i), dl - off * 4);
			r = xlane(I, OP_XBCAST, r, off);
			v[k] = a->isbool ? mem_mask(I, r) : r;
		}
}

/* Sublane-replicated [.., R, C]: one vreg row; loads read the first
   row into every sublane (stride 0), stores write every row group. */
static void
sublane_repl(Isel *I, const VAcc *a, int *v)
{
	int64_t nc = (a->C + a->L - 1) / a->L, nr = (a->R + a->S - 1) / a->S;
	int64_t l, i, j, dx;
	int k = 0, r;
	VPart p = { 0, (1u << a->S) - 1, 0 };

	if (a->c0 % a->L)
		return (void)unsupported(I, "a sublane-replicated access at a "
		    "column inside a tile");
	for (l = 0; l < a->lead; l++)
		for (j = 0; j < nc; j++, k++) {
			dx = isel_vacc_ldelta(a, l) + isel_vacc_cdelta(a,
			    j * a->L);
			if (!a->store) {
				r = llo_new_reg(I->f, LC_V);
				isel_vacc_mem(I, a, 0, r, dx, &p, 0);
				v[k] = a->isbool ? mem_mask(I, r) : r;
				continue;
			}
			r = a->isbool ? isel_mask_to_v(I, v[k]) : v[k];
			for (i = 0; i < nr; i++)
				store_rows(I, a, i * a->S, grp(a, i), dx, r,
				    store_mask(I, a, j * a->L));
		}
}

/*
 * A column read as a row: value [.., N] (columns = buffer rows, at
 * buffer column c0).  Per L rows: S-row loads of the column's tile
 * pushed through an XLU transpose; pop (c0 % L) / S holds the column in
 * sublane c0 % S, broadcast to every sublane.
 */
static void
column_row(Isel *I, const VAcc *a, int *v)
{
	int64_t nc = (a->C + a->L - 1) / a->L, off = a->c0 % a->L;
	int64_t l, j, s, dl;
	int k = 0, r, n, ns, src[64], dst[64];

	if (a->store)
		return (void)unsupported(I, "a store of a row into a column");
	if (a->L / a->S > 64)
		return (void)unsupported(I, "a column view on this preset");
	for (l = 0; l < a->lead; l++) {
		dl = isel_vacc_ldelta(a, l) - off * 4;
		for (j = 0; j < nc; j++, k++) {
			for (s = ns = 0; s * a->S < a->L &&
			    j * a->L + s * a->S < a->C; s++) {
				n = (int)(a->C - j * a->L - s * a->S);
				src[ns++] = load_rows(I, a, j * a->L + s * a->S,
				    n < a->S ? n : (int)a->S, dl);
			}
			isel_xlu_xpose(I, src, ns, dst);
			r = llo_new_reg(I->f, LC_V);
			add(I, OP_VBCASTS, r, dst[off / a->S], 0, 0)->x =
			    (uint16_t)(off % a->S);
			v[k] = a->isbool ? mem_mask(I, r) : r;
		}
	}
}

/* Maps the value's dims onto q's buffer dims (see the file comment). */
static int
classify(Isel *I, VAcc *a)
{
	const Ref *q = a->q;
	int n = a->t->shape.rank, rr = q->rank - 2, cc = q->rank - 1, k, bd;

	if (n != q->nvd || n < 1)
		return unsupported(I, "a vector access whose rank is not its "
		    "view's");
	bd = q->vdim[n - 1];
	if (bd == rr)
		a->colrow = 1;
	else if (bd != cc)
		return unsupported(I, "a vector access whose columns are a "
		    "leading dimension");
	a->C = a->t->shape.d[n - 1];
	a->R = n >= 2 ? a->t->shape.d[n - 2] : 1;
	a->nlead = 0;
	a->lead = 1;
	for (k = 0; k < n - 1; k++) {
		bd = q->vdim[k];
		if (k == n - 2 && bd == rr)
			continue;
		if (bd >= rr)
			return unsupported(I, "a vector access whose rows are "
			    "the buffer's columns");
		if (k == n - 2 && !a->colrow) {
			a->rstep = slab(a, bd);
			continue;
		}
		a->lsize[a->nlead] = a->t->shape.d[k];
		a->lstride[a->nlead++] = slab(a, bd);
		a->lead *= a->t->shape.d[k];
	}
	if (a->colrow) {
		if (a->R != 1)
			return unsupported(I, "a vector access of a column "
			    "view with more than one row");
		a->C = a->t->shape.d[n - 1];
	}
	return 0;
}

int
isel_vacc(Isel *I, const TOp *o, int store, VAcc *a)
{
	const Ref *r = I->val[o->arg[0]].ref;
	const Ref *q = isel_narrow(I, r, o, o->u.idx.n, o->u.idx.d);
	int rr = q->rank - 2, cc = q->rank - 1;

	memset(a, 0, sizeof *a);
	a->q = q;
	a->b = isel_rbuf(I, q);
	a->t = tv(I, store ? o->arg[1] : o->res[0]);
	a->store = store;
	a->S = I->mp->sublanes;
	a->L = I->mp->lanes;
	a->pack = dtype_packing(a->t->dtype);
	a->row = a->L * 4;
	a->tb = a->S * a->row;
	a->isbool = a->t->dtype == DT_BOOL;
	isel_mat(a->b, &a->BR, &a->BC);
	a->ntc = (a->BC + a->L - 1) / a->L;
	if (a->b->space != TS_VMEM || a->t->kind != TV_VEC)
		return unsupported(I, "a vector access outside VMEM");
	if (a->S > 16 || a->b->dtype != a->t->dtype)
		return unsupported(I, "this vector access");
	a->r0 = rr >= 0 ? q->start[rr] : 0;
	a->c0 = q->start[cc];
	if (classify(I, a))
		return -1;
	if (a->colrow && q->dyn[cc])
		return unsupported(I, "a dynamic column of a column view");
	return 0;
}

void
isel_vaccess(Isel *I, const TOp *o, int store)
{
	VAcc a;
	Val *out = o->nres ? &I->val[o->res[0]] : NULL;
	int *v;

	if (isel_vacc(I, o, store, &a))
		return;
	if (a.pack != 1) {
		isel_bf16_access(I, &a, store ? I->val[o->arg[1]].v : NULL,
		    out);
		return;
	}
	if (dtype_size(a.t->dtype) != 4)
		return (void)unsupported(I, arena_printf(I->a, "a vector "
		    "access of %s", dtype_name(a.t->dtype)));
	a.base = isel_address(I, a.q, &a.imm);
	if (I->err)
		return;
	if (!a.base)
		a.base = I->zero;
	v = store ? I->val[o->arg[1]].v : isel_vregs(I, a.t);
	if (a.colrow && a.t->lay.kind == TL_NATIVE)
		column_row(I, &a, v);
	else if (a.colrow)
		return (void)unsupported(I, "a column view read into a "
		    "replicated layout");
	else if (a.t->lay.kind == TL_LANE_REPL)
		lane_repl(I, &a, v);
	else if (a.t->lay.kind == TL_SUBLANE_REPL)
		sublane_repl(I, &a, v);
	else
		native(I, &a, v);
	if (!store && !I->err) {
		out->v = v;
		out->nv = a.t->lay.nvreg;
	}
}

/* ------------------------------------------------------------ scalars */

/*
 * A word of SMEM buffer b at base + imm, as a value of its dtype: SMEM
 * holds an element a word, but a DMA from HBM (where bool and i8 are a
 * byte) writes only the low byte, so bool tests that byte (into a
 * predicate, a scalar bool's register) and i8 sign-extends it.
 */
static int
sload(Isel *I, const TBuf *b, int base, int64_t imm)
{
	int r = sreg(I), d;

	isel_tag(addi(I, OP_SLD, r, base, imm), b);
	if (b->dtype == DT_BOOL) {
		addi(I, OP_SANDI, d = sreg(I), r, 0xff);
		addi(I, OP_SCMPINE, r = llo_new_reg(I->f, LC_P), d, 0);
		return r;
	}
	if (b->dtype == DT_I8) {
		addi(I, OP_SSHLI, d = sreg(I), r, 24);
		addi(I, OP_SSRAI, r = sreg(I), d, 24);
	}
	return r;
}

void
isel_saccess(Isel *I, const TOp *o, int store)
{
	const Ref *r = I->val[o->arg[0]].ref;
	Ref *q = isel_narrow(I, r, o, o->u.idx.n, o->u.idx.d);
	int64_t imm;
	int base;

	if (isel_rbuf(I, q)->space != TS_SMEM)
		return (void)unsupported(I, "a scalar access outside SMEM");
	if (isel_rbuf(I, q)->dtype == DT_BF16)
		return (void)unsupported(I, "a scalar access of a dtype "
		    "narrower than a word");
	base = isel_address(I, q, &imm);
	if (I->err)
		return;
	if (!base)
		base = I->zero;
	if (store) {
		int v = isel_scal(I, o->arg[1]), one;
		LIns *in;
		if (isel_rbuf(I, q)->dtype == DT_BOOL) {	/* a 0/1 word */
			addi(I, OP_SMOVI, one = sreg(I), 0, 1);
			add(I, OP_SSEL, v = sreg(I), one, I->zero,
			    isel_scal(I, o->arg[1]));
		}
		in = add(I, OP_SST, 0, base, v, 0);
		in->imm = (int32_t)imm;
		isel_tag(in, isel_rbuf(I, q));
	} else
		I->val[o->res[0]].r = sload(I, isel_rbuf(I, q), base, imm);
}
