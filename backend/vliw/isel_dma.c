/*
 * isel_dma.c - instruction selection for DMAs and sync flags: the
 * descriptors (static words written once by the prologue, addresses at
 * the site), and flag ops with dynamic indices.
 *
 * A copy of a view becomes axes (a count and a byte stride per side):
 * leading dims, tile axes (row and column tiles of tiled VMEM, split the
 * same way on the other side), in-tile axes, the contiguous run last;
 * adjacent axes that are contiguous together on both sides merge.  bf16
 * and i8 copies use the packed mode (MACH_DMA_PACKED, element size 2 and
 * 1): columns and rows in dims 0 and 1, the VMEM side in packed tiles.
 * bool copies and SMEM i8 copies move a byte an element (HBM holds them
 * so; VMEM bool words and SMEM words take the low byte).  Rows and
 * columns that are not whole tiles split into pieces that start at a
 * tile; the leading dims that do not fit in the descriptor's 4 dims are
 * iterated statically, one descriptor each (plan()); every descriptor
 * raises the flag once, and the wait takes isel_dma_count() of it,
 * which depends only on the view's shape, so the start and the wait
 * agree whichever side the wait names.  Copies of one flag group that
 * take several shapes (a block clipped at its array's end) all raise
 * its flag as often as the one of most descriptors (sync.add for the
 * rest, isel_dma_quanta()), and its waits take that many.
 */
#include <string.h>

#include "backend/vliw/isel.h"

#define MAXDESC 64	/* descriptors of one copy */
#define MAXAXIS (2 * SEMA_MAXRANK + 1)

/* Guarded copies of op for a dynamic flag index: f = id + idx. */
void
isel_flag_op(Isel *I, const TOp *o, int op, int a, int64_t imm)
{
	const TFlag *fl = &I->tf->flag.v[o->u.flag.flag];
	int k, idx, p;
	LIns *in;

	if (!o->u.flag.dyn) {
		in = add(I, op, 0, a, fl->id, 0);
		in->imm = (int32_t)imm;
		return;
	}
	idx = isel_scal(I, o->arg[o->narg - 1]);
	for (k = 0; k < fl->count; k++) {
		p = llo_new_reg(I->f, LC_P);
		addi(I, OP_SCMPIEQ, p, idx, k);
		in = add(I, op, 0, a, fl->id + k, 0);
		in->imm = (int32_t)imm;
		in->guard = p;
	}
}

static int
dma_dir(TSpace s, TSpace d)
{
	if (s == TS_HBM && d == TS_VMEM) return MACH_DMA_HBM_VMEM;
	if (s == TS_VMEM && d == TS_HBM) return MACH_DMA_VMEM_HBM;
	if (s == TS_HBM && d == TS_SMEM) return MACH_DMA_HBM_SMEM;
	if (s == TS_SMEM && d == TS_HBM) return MACH_DMA_SMEM_HBM;
	if (s == TS_VMEM && d == TS_VMEM) return MACH_DMA_VMEM_VMEM;
	if (s == TS_VMEM && d == TS_SMEM) return MACH_DMA_VMEM_SMEM;
	if (s == TS_SMEM && d == TS_VMEM) return MACH_DMA_SMEM_VMEM;
	return MACH_DMA_NONE;
}

/* Writes word w of the descriptor at desc from register r (block cur). */
static void
dword(Isel *I, int64_t desc, int w, int r)
{
	LIns *in = add(I, OP_SST, 0, I->zero, r, 0);

	in->imm = (int32_t)(desc + 4 * w);
}

/* The prologue's static word: smovi + sst in block 0. */
static void
dstatic(Isel *I, int64_t desc, int w, int64_t v)
{
	int cur = I->cur, r = sreg(I);

	I->cur = 0;
	addi(I, OP_SMOVI, r, 0, v);
	dword(I, desc, w, r);
	I->cur = cur;
}

/* ------------------------------------------------------------ shapes */

/*
 * Byte stride of buffer dim bd: row-major in HBM and SMEM; in VMEM a
 * leading dim's, over whole tile grids ((S, L) tiles, (2S, L) packed
 * bf16 tiles), or the row tiles' of the last-but-one dim.
 */
static int64_t
dim_stride(Isel *I, const TBuf *b, int bd)
{
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes, st, T;
	int rank = b->shape.rank, i;

	isel_mat(b, &R, &C);
	if (b->space != TS_VMEM) {
		st = isel_esize(b);
		for (i = rank - 1; i > bd; i--)
			st *= b->shape.d[i];
		return st;
	}
	T = dtype_packing(b->dtype) * S;
	st = (C + L - 1) / L * S * L * 4;
	if (bd == rank - 2)
		return st;
	st *= (R + T - 1) / T;
	for (i = rank - 3; i > bd; i--)
		st *= b->shape.d[i];
	return st;
}

/* A byte copy: bool and i8 move one byte an element (HBM holds them
   so; VMEM bool in the low byte of a word, VMEM i8 in the bytes of
   packed words, SMEM the low byte of a word). */
static int
bytewise(DType dt)
{
	return dt == DT_BOOL || dt == DT_I8;
}

/* A direction with an SMEM side. */
static int
smem_dir(int dir)
{
	return dir == MACH_DMA_HBM_SMEM || dir == MACH_DMA_SMEM_HBM ||
	    dir == MACH_DMA_VMEM_SMEM || dir == MACH_DMA_SMEM_VMEM;
}

/* Copies of packed VMEM tiles (MACH_DMA_PACKED): bf16, i8 with no SMEM
   side (SMEM holds i8 a word an element). */
static int
packed(DType dt, int dir)
{
	return dt == DT_BF16 || (dt == DT_I8 && !smem_dir(dir));
}

/* A piece of a view dim: elements [off, off + n). */
typedef struct Seg {
	int64_t off, n;
} Seg;

/*
 * The pieces of a view dim of n elements over tiles of t: one when n
 * fits a tile or is whole tiles; else the whole tiles, then the rest;
 * or (each) one per tile.  At most MAXDESC (then 0).
 */
static int
segs(int64_t n, int64_t t, int each, Seg *s)
{
	int64_t k, whole = n / t * t;

	if (each) {
		if ((n + t - 1) / t > MAXDESC)
			return 0;
		for (k = 0; k * t < n; k++)
			s[k] = (Seg){ k * t, n - k * t < t ? n - k * t : t };
		return (int)k;
	}
	if (n <= t || whole == n) {
		s[0] = (Seg){ 0, n };
		return 1;
	}
	s[0] = (Seg){ 0, whole };
	s[1] = (Seg){ whole, n - whole };
	return 2;
}

/* How a copy of view r (of dtype dt) splits into descriptors. */
typedef struct Plan {
	int nstat;		/* leading view dims iterated statically */
	int64_t nlead;		/* the product of their sizes */
	int nrs, ncs;		/* pieces of the rows and columns */
	Seg rs[MAXDESC], cs[MAXDESC];
} Plan;

/*
 * The descriptors of a copy of view r: the *nstat outer leading view
 * dims are iterated statically; the last two view dims split into
 * pieces that each start at a tile of a tiled VMEM side (segs(): rows
 * by S, columns by L; bool rows by S-row groups when they would take
 * two axes; packed bf16 and i8 copies not at all).  Decided by the
 * shape alone, so that a wait naming either side takes as many.
 * Counts the dims each piece may need (a leading dim one, rows and
 * columns one each or two when above a tile, a bool copy's unit run
 * one; packed rows and columns two in all) and takes outer leading dims
 * until 4 remain.  The number of
 * descriptors, 0 for a view that has none or too many.
 */
static int64_t
plan(Isel *I, const Ref *r, DType dt, Plan *p)
{
	int64_t S = I->mp->sublanes, L = I->mp->lanes, R, C;
	int n = r->nvd, k, a = 0, each = 0;
	int pk = dt == DT_BF16 || dt == DT_I8;	/* packed() but for SMEM */

	for (k = 0; k < n; k++)
		if (r->size[k] < 1)
			return 0;
	R = n >= 2 ? r->size[n - 2] : 1;
	C = n >= 1 ? r->size[n - 1] : 1;
	for (k = 0; k < n - 2; k++)
		a += r->size[k] > 1;
	if (pk)
		a += 2;
	else {
		a += R > 1 ? (R > S ? 2 : 1) : 0;
		a += (C > L ? 2 : 1) + bytewise(dt);
	}
	p->nstat = 0;
	p->nlead = 1;
	for (k = 0; k < n - 2 && a > 4; k++)
		if (r->size[k] > 1) {
			p->nlead *= r->size[k];
			a--;
			p->nstat = k + 1;
		}
	if (a > 4 && dt == DT_BOOL && R > S)
		each = 1;
	if (pk || n < 2) {
		p->nrs = 1;
		p->rs[0] = (Seg){ 0, R };
	} else
		p->nrs = segs(R, S, each, p->rs);
	p->ncs = pk || n < 1 ? 1 : segs(C, L, 0, p->cs);
	if (p->ncs == 1)
		p->cs[0] = (Seg){ 0, C };
	return p->nrs * p->ncs * p->nlead;
}

/* Descriptors of a copy of a view of type t (its shape alone). */
static int64_t
count_of(Isel *I, const TVal *t)
{
	Ref r;
	Plan p;
	int k;

	memset(&r, 0, sizeof r);
	r.nvd = t->shape.rank;
	for (k = 0; k < r.nvd; k++)
		r.size[k] = t->shape.d[k];
	return plan(I, &r, t->dtype, &p);
}

/*
 * The flag groups whose copies take several shapes (TFlag.clip: blocks
 * clipped at their array's end): the most descriptors a start on each
 * raises, which every start tops up to and every wait takes, so that a
 * wait need not know which shape was copied.
 */
void
isel_dma_quanta(Isel *I)
{
	const TFunc *tf = I->tf;
	int i, fl;
	int64_t c;

	I->fq = arena_alloc(I->a, sizeof *I->fq * (size_t)(tf->flag.n + 1));
	for (i = 0; i <= tf->flag.n; i++)
		I->fq[i] = 0;
	for (i = 0; i < tf->op.n; i++) {
		const TOp *o = &tf->op.v[i];
		if (o->op != TOP_DMA_START ||
		    !tf->flag.v[fl = o->u.flag.flag].clip)
			continue;
		c = count_of(I, tile_val(tf, o->arg[0]));
		if (c > I->fq[fl])
			I->fq[fl] = c;
	}
}

/* How much the wait o takes from its flag: the descriptors of one copy
   of its ref (either side), or its group's quantum. */
int64_t
isel_dma_count(Isel *I, const TOp *o)
{
	const Ref *r = I->val[o->arg[0]].ref;
	Plan p;

	if (I->fq[o->u.flag.flag])
		return I->fq[o->u.flag.flag];
	return plan(I, r, isel_rbuf(I, r)->dtype, &p);
}

/* ------------------------------------------------------------ axes */

typedef struct Axis {
	int64_t n, st[2];	/* count; byte stride on the source, dest */
} Axis;

/* View dim k of side r: its stride, and for a tiled VMEM row or column
   dim the tile's extent *T, the tile stride *tst, the start in it *off. */
static int64_t
lay(Isel *I, const Ref *r, int k, int64_t *T, int64_t *tst, int64_t *off)
{
	const TBuf *b = isel_rbuf(I, r);
	int bd = r->vdim[k], rank = b->shape.rank;
	int64_t S = I->mp->sublanes, L = I->mp->lanes;

	*T = *tst = *off = 0;
	if (b->space != TS_VMEM || bd < rank - 2)
		return dim_stride(I, b, bd);
	*T = bd == rank - 1 ? L : S;
	*off = r->start[bd] % *T;
	*tst = bd == rank - 1 ? S * L * 4 : dim_stride(I, b, bd);
	return bd == rank - 1 ? 4 : L * 4;
}

/* Drops count-1 axes and merges neighbours contiguous on both sides;
   returns the new count. */
static int
merge(Axis *ax, int na)
{
	int i, j, w, ok;

	for (i = j = 0; i < na; i++)
		if (ax[i].n != 1 || i == na - 1)
			ax[j++] = ax[i];
	na = j;
	for (i = na - 1; i > 0; i--) {
		for (ok = 1, w = 0; w < 2; w++)
			ok &= ax[i - 1].st[w] == ax[i].n * ax[i].st[w];
		if (!ok)
			continue;
		ax[i].n *= ax[i - 1].n;
		for (j = i - 1; j < na - 1; j++)
			ax[j] = ax[j + 1];
		na--;
	}
	return na;
}

/*
 * Axes of a copy of e-byte elements over view dims ns.. of both sides:
 * outer (leading dims, tile axes), then in-tile axes, then a unit run if
 * the last is not contiguous; merged.  The number of axes, or -1
 * (reported).
 */
static int
plain_axes(Isel *I, const Ref *const *side, int ns, int64_t e, Axis *ax)
{
	Axis in[MAXAXIS];
	int64_t st[2], T[2], tst[2], off[2], n, t;
	int k, w, na = 0, ni = 0;

	for (k = ns; k < side[0]->nvd; k++) {
		if ((n = side[0]->size[k]) == 1)
			continue;
		for (w = 0; w < 2; w++)
			st[w] = lay(I, side[w], k, &T[w], &tst[w], &off[w]);
		if (T[0] && T[1] && T[0] != T[1])
			return unsupported(I, "this DMA shape");
		if (!(t = T[0] ? T[0] : T[1])) {
			ax[na++] = (Axis){ n, { st[0], st[1] } };
			continue;
		}
		for (w = 0; w < 2; w++)
			if (T[w] && (n > t ? off[w] || n % t : off[w] + n > t))
				return unsupported(I, "a DMA that is not tile "
				    "aligned");
		if (n > t) {
			ax[na++] = (Axis){ n / t, { T[0] ? tst[0] : t * st[0],
			    T[1] ? tst[1] : t * st[1] } };
			n = t;
		}
		in[ni++] = (Axis){ n, { st[0], st[1] } };
	}
	for (k = 0; k < ni; k++)
		ax[na++] = in[k];
	if (!na || ax[na - 1].st[0] != e || ax[na - 1].st[1] != e)
		ax[na++] = (Axis){ 1, { e, e } };
	na = merge(ax, na);
	if (na > 4)
		return unsupported(I, "a DMA view whose last dim is not "
		    "contiguous");
	return na;
}

/* The elements of view r. */
static int64_t
numel(const Ref *r)
{
	int64_t n = 1;
	int k;

	for (k = 0; k < r->nvd; k++)
		n *= r->size[k];
	return n;
}

/*
 * Axes of a packed (bf16, i8) copy: columns (dim 0, contiguous in
 * HBM), rows (dim 1: the row tiles' stride on a VMEM side), the leading
 * view dims from ns on.  The number of axes, or -1 (reported).
 */
static int
packed_axes(Isel *I, const Ref *const *side, int ns, Axis *ax)
{
	int n = side[0]->nvd, k, w, na = 2, rank;
	const Ref *r;

	if (numel(side[0]) == 1) {	/* one element (rank 0): no strides */
		ax[0] = (Axis){ 1, { 2, 2 } };
		ax[1] = (Axis){ 1, { 0, 0 } };
		return 2;
	}
	if (n < 1)
		return unsupported(I, "this DMA shape");
	ax[0] = (Axis){ side[0]->size[n - 1], { 2, 2 } };
	ax[1] = (Axis){ n >= 2 ? side[0]->size[n - 2] : 1, { 0, 0 } };
	for (w = 0; w < 2; w++) {
		r = side[w];
		rank = r->rank;
		if (r->space == TS_VMEM ? r->vdim[n - 1] != rank - 1 ||
		    (ax[1].n > 1 && r->vdim[n - 2] != rank - 2) :
		    ax[0].n > 1 && r->vdim[n - 1] != rank - 1)
			return unsupported(I, "a bf16 DMA view that is not "
			    "rows of a matrix");
		if (n >= 2)
			ax[1].st[w] = dim_stride(I, isel_rbuf(I, r),
			    r->vdim[n - 2]);
	}
	for (k = n - 3; k >= ns; k--) {
		if (side[0]->size[k] == 1)
			continue;
		ax[na].n = side[0]->size[k];
		for (w = 0; w < 2; w++)
			ax[na].st[w] = dim_stride(I, isel_rbuf(I, side[w]),
			    side[w]->vdim[k]);
		na++;
	}
	if (na > 4)
		bug("packed DMA with %d dims", na);
	return na;
}

/* ------------------------------------------------------------ sites */

/* A side's address: register (0 = none) + imm, and for HBM the high
   word's register. */
typedef struct Addr {
	int reg, hi;
	int64_t imm;
} Addr;

static void
side_base(Isel *I, const Ref *r, Addr *a)
{
	a->reg = isel_address(I, r, &a->imm);
	a->hi = 0;
	if (r->space == TS_HBM) {
		int src = isel_rbuf(I, r)->src, lo = sreg(I);

		a->hi = sreg(I);
		addi(I, OP_SLD, lo, I->zero, 8 * src);
		addi(I, OP_SLD, a->hi, I->zero, 8 * src + 4);
		a->reg = isel_madd(I, lo, a->reg, 1);
	}
}

/* Address a + extra into words wlo, wlo + 1 of the descriptor. */
static void
side_addr(Isel *I, const Addr *a, int64_t desc, int wlo, int64_t extra)
{
	int t = sreg(I);

	if (a->hi)
		dword(I, desc, wlo + 1, a->hi);
	else
		dstatic(I, desc, wlo + 1, 0);
	if (a->reg)
		addi(I, OP_SADDI, t, a->reg, a->imm + extra);
	else
		addi(I, OP_SMOVI, t, 0, a->imm + extra);
	dword(I, desc, wlo, t);
}

/* The static words of a descriptor: control, counts, strides. */
static void
desc_words(Isel *I, int64_t desc, uint32_t ctrl, const Axis *ax, int na)
{
	int i;

	dstatic(I, desc, MACH_DMA_CTRL, (int32_t)ctrl);
	for (i = 0; i < 4; i++)
		dstatic(I, desc, MACH_DMA_COUNT0 + i, i < na ? ax[i].n : 1);
	for (i = 1; i < 4; i++) {
		dstatic(I, desc, MACH_DMA_SSTRIDE1 + i - 1, i < na ?
		    ax[i].st[0] : 0);
		dstatic(I, desc, MACH_DMA_DSTRIDE1 + i - 1, i < na ?
		    ax[i].st[1] : 0);
	}
	dstatic(I, desc, MACH_DMA_RESERVED, 0);
}

/* A descriptor's static words (ctrl, counts, strides) and address. */
struct DescKey {
	int64_t w[1 + 4 + 6];
	int64_t desc;
};

/*
 * A descriptor with these static words for a clipped copy: its shapes
 * give many copies, each written at its own site; the machine reads a
 * descriptor when the DMA starts, so copies with the same static words
 * share one (their sites write only the addresses).
 */
static int64_t
shared_desc(Isel *I, uint32_t ctrl, const Axis *ax, int na)
{
	struct DescKey k;
	int i;

	memset(&k, 0, sizeof k);
	k.w[0] = ctrl;
	for (i = 0; i < 4; i++)
		k.w[1 + i] = i < na ? ax[i].n : 1;
	for (i = 1; i < na; i++) {
		k.w[4 + i] = ax[i].st[0];
		k.w[7 + i] = ax[i].st[1];
	}
	for (i = 0; i < I->dk.n; i++)
		if (!memcmp(I->dk.v[i].w, k.w, sizeof k.w))
			return I->dk.v[i].desc;
	k.desc = I->desc_base + 64 * (int64_t)I->ndesc++;
	desc_words(I, k.desc, ctrl, ax, na);
	vec_push(I->a, &I->dk, k);
	return k.desc;
}

/* Same dtype and view sizes on both sides, or one element on both (a
   rank-0 operand in HBM and its [1, 1] block in VMEM: plan() and the
   axes skip dims of size 1). */
static int
same_shape(Isel *I, const Ref *a, const Ref *b)
{
	int k;

	if (isel_rbuf(I, a)->dtype != isel_rbuf(I, b)->dtype)
		return 0;
	if (numel(a) == 1 && numel(b) == 1)
		return 1;
	if (a->nvd != b->nvd)
		return 0;
	for (k = 0; k < a->nvd; k++)
		if (a->size[k] != b->size[k])
			return 0;
	return 1;
}

/* Ref r narrowed to a piece: rows rs and columns cs of its view. */
static const Ref *
piece(Isel *I, const Ref *r, const Seg *rs, const Seg *cs)
{
	Ref *q = arena_alloc(I->a, sizeof *q);
	int n = r->nvd;

	*q = *r;
	if (n >= 2) {
		q->start[r->vdim[n - 2]] += rs->off;
		q->size[n - 2] = rs->n;
	}
	if (n >= 1) {
		q->start[r->vdim[n - 1]] += cs->off;
		q->size[n - 1] = cs->n;
	}
	return q;
}

/* Which copies the machine has: a direction, one dtype and shape, bf16
   through VMEM; between VMEM and SMEM 32-bit words only (both hold a
   word an element). */
static int
copyable(Isel *I, const Ref *const *side, int dir, DType dt)
{
	if (!dir || !same_shape(I, side[0], side[1]))
		return 0;
	if (dir == MACH_DMA_VMEM_SMEM || dir == MACH_DMA_SMEM_VMEM)
		return dtype_size(dt) == 4;
	if (dt == DT_BF16)
		return !smem_dir(dir);
	return dt == DT_I8 || dtype_size(dt) == 4;
}

/*
 * The descriptors of one piece (views p): one per static index of the
 * outer leading dims (an offset per side from the piece's base
 * address); axes from plain_axes() or packed_axes(), innermost as dim 0.
 */
static void
copy_piece(Isel *I, const TOp *o, const Ref *const *p, int dir, DType dt,
    const Plan *pl)
{
	int64_t es = dt == DT_BF16 ? 2 : bytewise(dt) ? 1 : 4, idx, desc;
	int64_t extra[2];
	int na, w, k, i, pk = packed(dt, dir);
	Axis ax[MAXAXIS], dax[4];
	Addr at[2];
	uint32_t ctrl;

	na = pk ? packed_axes(I, p, pl->nstat, ax) :
	    plain_axes(I, p, pl->nstat, es, ax);
	if (na < 0)
		return;
	for (i = 0; i < na; i++)	/* innermost first */
		dax[i] = ax[pk ? i : na - 1 - i];
	ctrl = (uint32_t)(dir | na << 4 | es << 8);
	if (pk)
		ctrl |= MACH_DMA_PACKED;
	for (w = 0; w < 2; w++)
		side_base(I, p[w], &at[w]);
	for (i = 0; i < pl->nlead; i++) {
		if (I->fq[o->u.flag.flag])
			desc = shared_desc(I, ctrl, dax, na);
		else {
			desc = I->desc_base + 64 * (int64_t)I->ndesc++;
			desc_words(I, desc, ctrl, dax, na);
		}
		for (w = 0; w < 2; w++) {
			extra[w] = 0;
			for (idx = i, k = pl->nstat - 1; k >= 0; k--) {
				extra[w] += idx % p[w]->size[k] *
				    dim_stride(I, isel_rbuf(I, p[w]),
				    p[w]->vdim[k]);
				idx /= p[w]->size[k];
			}
			side_addr(I, &at[w], desc, w ? MACH_DMA_DST_LO :
			    MACH_DMA_SRC_LO, extra[w]);
		}
		isel_flag_op(I, o, OP_DMA, I->zero, desc);
	}
}

/*
 * A copy between two views of the same shape: plan()'s pieces, each
 * copied by copy_piece().
 */
void
isel_dma(Isel *I, const TOp *o)
{
	const Ref *side[2] = { I->val[o->arg[0]].ref, I->val[o->arg[1]].ref };
	const Ref *p[2];
	int dir = dma_dir(side[0]->space, side[1]->space), i, j, w;
	DType dt = isel_rbuf(I, side[0])->dtype;
	int64_t D;
	Plan pl;

	if (!copyable(I, side, dir, dt))
		return (void)unsupported(I, "this DMA shape");
	D = plan(I, side[0], dt, &pl);
	if (D < 1 || D > MAXDESC)
		return (void)unsupported(I, "a DMA of this many descriptors");
	if (I->desc_base + 64 * (I->ndesc + D) > (int64_t)I->mp->smem_bytes)
		return (void)unsupported(I, "more DMA descriptors than SMEM "
		    "holds");
	for (i = 0; i < pl.nrs && !I->err; i++)
		for (j = 0; j < pl.ncs && !I->err; j++) {
			for (w = 0; w < 2; w++)
				p[w] = piece(I, side[w], &pl.rs[i], &pl.cs[j]);
			copy_piece(I, o, p, dir, dt, &pl);
		}
	if (I->fq[o->u.flag.flag] > D)	/* a clipped copy: top up */
		isel_flag_op(I, o, OP_SYNCADD, 0, I->fq[o->u.flag.flag] - D);
	if (side[0]->space == TS_HBM)
		I->role[isel_rbuf(I, side[0])->src] |= 1;
	if (side[1]->space == TS_HBM)
		I->role[isel_rbuf(I, side[1])->src] |= 2;
}
