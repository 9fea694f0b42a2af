/*
 * isel_dma.c - instruction selection for DMAs and sync flags: the
 * descriptors (static words written once by the prologue, addresses at
 * the site), packed bf16 copies, and flag ops with dynamic indices.
 */
#include "backend/vliw/isel.h"

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

/* Strides (bytes) of dims 1..3 for side r of a copy (see isel_dma()). */
static void
side_strides(Isel *I, const Ref *r, int64_t st[3])
{
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes;

	isel_mat(isel_rbuf(I, r), &R, &C);
	if (r->space == TS_VMEM) {
		st[0] = L * 4;
		st[1] = S * L * 4;
		st[2] = (C + L - 1) / L * S * L * 4;
	} else {
		st[0] = C * 4;
		st[1] = L * 4;
		st[2] = S * C * 4;
	}
}

/* Address of side r into words lo (and hi) of the descriptor. */
static void
side_addr(Isel *I, const Ref *r, int64_t desc, int wlo, int64_t extra)
{
	int64_t imm;
	int reg = isel_address(I, r, &imm), t, lo, hi;

	imm += extra;
	if (r->space == TS_HBM) {
		int src = I->tf->buf.v[r->buf].src;
		lo = sreg(I);
		hi = sreg(I);
		addi(I, OP_SLD, lo, I->zero, 8 * src);
		addi(I, OP_SLD, hi, I->zero, 8 * src + 4);
		dword(I, desc, wlo + 1, hi);
		reg = isel_madd(I, lo, reg, 1);
	} else
		dstatic(I, desc, wlo + 1, 0);
	t = sreg(I);
	if (reg)
		addi(I, OP_SADDI, t, reg, imm);
	else
		addi(I, OP_SMOVI, t, 0, imm);
	dword(I, desc, wlo, t);
}

/* Descriptors of one copy: bf16 copies take one per column tile and
   half tile (dma_packed), others one. */
int64_t
isel_dma_count(Isel *I, TRef ref)
{
	int64_t R, C;

	if (tv(I, ref)->dtype != DT_BF16 || isel_region(I, I->val[ref].ref, &R, &C))
		return 1;
	return 2 * (C / I->mp->lanes);
}

/*
 * A bf16 copy [R, C] between row-major HBM and packed VMEM tiles: per
 * column tile and half (rows 0..S-1 or S..2S-1 of each tile, in the low
 * or high halves of the words) one descriptor of 2-byte elements: L
 * columns, S rows, R / 2S row tiles.  Every descriptor raises the flag
 * once; the wait takes isel_dma_count() of it.
 */
static void
dma_packed(Isel *I, const TOp *o, int64_t R, int64_t C)
{
	const Ref *s = I->val[o->arg[0]].ref, *d = I->val[o->arg[1]].ref;
	const Ref *side[2] = { s, d };
	int64_t S = I->mp->sublanes, L = I->mp->lanes, desc, st[2][3];
	int64_t br, bc, j, h, k;
	int dir = dma_dir(s->space, d->space), i, w;

	if ((dir != MACH_DMA_HBM_VMEM && dir != MACH_DMA_VMEM_HBM) ||
	    R % (2 * S) || C % L)
		return (void)unsupported(I, "this DMA shape");
	if (I->desc_base + 64 * (I->ndesc + 2 * C / L) >
	    (int64_t)I->mp->smem_bytes)
		return (void)unsupported(I, "more DMA descriptors than SMEM "
		    "holds");
	for (w = 0; w < 2; w++) {
		isel_mat(isel_rbuf(I, side[w]), &br, &bc);
		if (side[w]->space == TS_VMEM) {
			st[w][0] = 4;
			st[w][1] = L * 4;
			st[w][2] = (bc + L - 1) / L * S * L * 4;
		} else {
			st[w][0] = 2;
			st[w][1] = bc * 2;
			st[w][2] = 2 * S * bc * 2;
		}
	}
	for (j = 0; j < C / L; j++)
		for (h = 0; h < 2; h++) {
			desc = I->desc_base + 64 * (int64_t)I->ndesc++;
			dstatic(I, desc, MACH_DMA_CTRL, dir | 4 << 4 | 2 << 8);
			dstatic(I, desc, MACH_DMA_COUNT0, 1);
			dstatic(I, desc, MACH_DMA_COUNT0 + 1, L);
			dstatic(I, desc, MACH_DMA_COUNT0 + 2, S);
			dstatic(I, desc, MACH_DMA_COUNT0 + 3, R / (2 * S));
			for (i = 0; i < 3; i++) {
				dstatic(I, desc, MACH_DMA_SSTRIDE1 + i, st[0][i]);
				dstatic(I, desc, MACH_DMA_DSTRIDE1 + i, st[1][i]);
			}
			dstatic(I, desc, MACH_DMA_RESERVED, 0);
			for (w = 0; w < 2; w++) {
				isel_mat(isel_rbuf(I, side[w]), &br, &bc);
				k = side[w]->space == TS_VMEM ?
				    j * S * L * 4 + h * 2 :
				    j * L * 2 + h * S * bc * 2;
				side_addr(I, side[w], desc, w ? MACH_DMA_DST_LO :
				    MACH_DMA_SRC_LO, k);
			}
			isel_flag_op(I, o, OP_DMA, I->zero, desc);
		}
	if (s->space == TS_HBM)
		I->role[isel_rbuf(I, s)->src] |= 1;
	if (d->space == TS_HBM)
		I->role[isel_rbuf(I, d)->src] |= 2;
}

/*
 * A copy of the [R, C] region as 4 dims: L (or C) elements, rows of one
 * tile, column tiles, row tiles.  One stride set per side: tiled VMEM or
 * row-major SMEM/HBM.
 */
void
isel_dma(Isel *I, const TOp *o)
{
	const Ref *s = I->val[o->arg[0]].ref, *d = I->val[o->arg[1]].ref;
	int64_t R, C, R2, C2, S = I->mp->sublanes, L = I->mp->lanes, desc;
	int64_t ss[3], ds[3], n[4];
	int dir = dma_dir(s->space, d->space), i;

	if (isel_region(I, s, &R, &C) || isel_region(I, d, &R2, &C2))
		return;
	if (R == R2 && C == C2 && tv(I, o->arg[0])->dtype == DT_BF16) {
		dma_packed(I, o, R, C);
		return;
	}
	if (R != R2 || C != C2 || !dir || (C > L && C % L) || (R > S && R % S)
	    || dtype_size(tv(I, o->arg[0])->dtype) != 4)
		return (void)unsupported(I, "this DMA shape");
	desc = I->desc_base + 64 * (int64_t)I->ndesc++;
	if (desc + 64 > (int64_t)I->mp->smem_bytes)
		return (void)unsupported(I, "more DMA descriptors than SMEM "
		    "holds");
	side_strides(I, s, ss);
	side_strides(I, d, ds);
	n[0] = C < L ? C : L;
	n[1] = R < S ? R : S;
	n[2] = C > L ? C / L : 1;
	n[3] = R > S ? R / S : 1;
	dstatic(I, desc, MACH_DMA_CTRL, dir | 4 << 4 | 4 << 8);
	for (i = 0; i < 4; i++)
		dstatic(I, desc, MACH_DMA_COUNT0 + i, n[i]);
	for (i = 0; i < 3; i++) {
		dstatic(I, desc, MACH_DMA_SSTRIDE1 + i, ss[i]);
		dstatic(I, desc, MACH_DMA_DSTRIDE1 + i, ds[i]);
	}
	dstatic(I, desc, MACH_DMA_RESERVED, 0);
	side_addr(I, s, desc, MACH_DMA_SRC_LO, 0);
	side_addr(I, d, desc, MACH_DMA_DST_LO, 0);
	if (s->space == TS_HBM)
		I->role[isel_rbuf(I, s)->src] |= 1;
	if (d->space == TS_HBM)
		I->role[isel_rbuf(I, d)->src] |= 2;
	isel_flag_op(I, o, OP_DMA, I->zero, desc);
}
