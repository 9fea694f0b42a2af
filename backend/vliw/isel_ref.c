/*
 * isel_ref.c - memory views for instruction selection: resolving a ref
 * (buffer, slot, static and dynamic starts) into a byte address in
 * tiled VMEM, row-major SMEM or HBM, and vector and scalar loads and
 * stores through them.
 */
#include "backend/vliw/isel.h"

/* ------------------------------------------------------------ refs */

const TBuf *
isel_rbuf(Isel *I, const Ref *r)
{
	return &I->tf->buf.v[r->buf];
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

	*q = *r;
	for (i = 0; i < n && i < r->nvd; i++) {
		bd = r->vdim[i];
		q->start[bd] += idx[i].start;
		if (idx[i].dyn >= 0) {
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

/*
 * isel_address() for a VMEM bf16 buffer: (2S, L) tiles of packed words (row i
 * of a tile in the low half of word row i, row S + i in the high half);
 * the view must start at a tile.
 */
static int
address_packed(Isel *I, const Ref *r, int64_t *imm)
{
	const TBuf *b = isel_rbuf(I, r);
	int64_t R, C, L = I->mp->lanes, T = 2 * I->mp->sublanes, tb, ntc;
	int64_t stride, off;
	int reg = 0, i, rr = r->rank - 2, cc = r->rank - 1;

	isel_mat(b, &R, &C);
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
		return unsupported(I, "a bf16 view that does not start at a "
		    "tile"), 0;
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
		int64_t es = b->dtype == DT_BF16 ? 2 : 4;
		for (i = r->rank - 1; i >= 0; i--) {
			off += r->start[i] * stride * es;
			reg = isel_madd(I, reg, r->dyn[i], stride * es);
			stride *= b->shape.d[i];
		}
		*imm = off;
		return reg;
	}
	if (b->dtype == DT_BF16)
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
		if (r->dyn[rr] && r->mult[rr] % S)
			return unsupported(I, "a dynamic row offset that is not "
			    "a multiple of the sublanes"), 0;
		reg = isel_madd(I, reg, r->dyn[rr], ntc * tb / S);
	}
	*imm = off;
	return reg;
}

/* ------------------------------------------------------------ memory */

void
isel_vaccess(Isel *I, const TOp *o, int store)
{
	const Ref *r = I->val[o->arg[0]].ref;
	const TVal *t = tv(I, store ? o->arg[1] : o->res[0]);
	Ref *q = isel_narrow(I, r, o, o->u.idx.n, o->u.idx.d);
	int64_t nr, nc, R, C, imm, i, j, S = I->mp->sublanes, L = I->mp->lanes;
	int64_t r0, ntc, BR, BC;
	int base, *v, rows;
	Val *out = o->nres ? &I->val[o->res[0]] : NULL;

	if (isel_vgrid(I, t, &nr, &nc, &R, &C) || isel_rbuf(I, q)->space != TS_VMEM)
		return (void)(I->err || unsupported(I, "a vector access "
		    "outside VMEM"));
	base = isel_address(I, q, &imm);
	if (!base)
		base = I->zero;
	isel_mat(isel_rbuf(I, q), &BR, &BC);
	ntc = (BC + L - 1) / L;
	r0 = q->rank >= 2 ? q->start[q->rank - 2] % S : 0;
	if ((r0 && r0 + R > S) || q->start[q->rank - 1] % L || C % L)
		return (void)unsupported(I, "a vector access that is not "
		    "tile aligned");
	v = store ? I->val[o->arg[1]].v : isel_vregs(I, t);
	for (i = 0; i < nr; i++) {
		rows = (int)(R - i * S < S ? R - i * S : S);
		for (j = 0; j < nc; j++) {
			LIns *in = store ?
			    add(I, OP_VST, 0, base, v[i * nc + j], 0) :
			    add(I, OP_VLD, v[i * nc + j], base, 0, 0);
			in->imm = (int32_t)(imm + (i * ntc + j) * S * L * 4);
			in->x = (uint16_t)(((1u << rows) - 1) | 1u << 8);
		}
	}
	if (!store) {
		out->v = v;
		out->nv = (int)(nr * nc);
	}
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
	base = isel_address(I, q, &imm);
	if (!base)
		base = I->zero;
	if (store) {
		LIns *in = add(I, OP_SST, 0, base, isel_scal(I, o->arg[1]), 0);
		in->imm = (int32_t)imm;
	} else {
		I->val[o->res[0]].r = sreg(I);
		addi(I, OP_SLD, I->val[o->res[0]].r, base, imm);
	}
}
