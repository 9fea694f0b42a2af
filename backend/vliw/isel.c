/*
 * isel.c - instruction selection: one tile-IR function to LLO.
 *
 * Needs:    a verified, allocated TFunc (buffers have offsets, flags ids).
 * Gives:    an LFunc in virtual registers: block 0 is a prologue (the zero
 *           register, the static words of every DMA descriptor, the
 *           kernel's trace.begin), the body follows, the last block ends
 *           with trace.end and halt.  Operands come from the TB_HBM
 *           buffers (argument table slot 8 * operand index, as
 *           backend/mosaic/alloc.c lays it out); roles from the DMAs that
 *           read or write them.
 * Method:   one walk over the structured tile IR.  for -> pre-check,
 *           body, latch with a backward branch; if -> forward branches.
 *           Vector values are arrays of vregs (native layout), one op per
 *           vreg; block-sized values arrive already chunked by Mosaic.
 *           A DMA's descriptor lives in a backend SMEM area after
 *           TFunc.smem_bytes, one per dma_start site: static words are
 *           written once by the prologue, addresses at the site.
 *           Dynamic flag indices become one guarded op per flag.
 * Subset:   4-byte dtypes, and bf16 for DMAs between HBM and packed VMEM
 *           tiles (dma_packed) and matmul operands; matmuls go to
 *           isel_mxu.c; views of rank <= 2 (leading dims of size 1);
 *           tile-aligned vector loads/stores; scalar i32/bool arithmetic
 *           without division; VALU elementwise, compares, selects,
 *           splats, iota, converts; EUP exp/log/tanh/rsqrt/recip/div.
 *           Everything else is reported as not supported yet.
 * Entry:    vliw_isel(const TFunc *, const MachPreset *, Diag *, Arena *)
 */
#include <string.h>

#include "backend/vliw/vliw.h"

typedef struct Ref {
	TSpace space;
	int buf;
	int rank;			/* the buffer's rank */
	int64_t start[SEMA_MAXRANK];	/* per buffer dim */
	int dyn[SEMA_MAXRANK];		/* per buffer dim: S register, 0 */
	int64_t mult[SEMA_MAXRANK];	/* the dynamic part's multiple */
	int64_t sslot;			/* static slot */
	int slot;			/* dynamic slot register, 0 */
	int nvd;			/* the view's rank */
	int vdim[SEMA_MAXRANK];		/* view dim -> buffer dim */
	int64_t size[SEMA_MAXRANK];	/* per view dim */
} Ref;

typedef struct Val {
	int isconst;		/* scalar constant, materialised on use */
	int64_t ci;
	double cf;
	int r;			/* scalar: S or P register */
	int *v;			/* vector: nv registers (V or M) */
	int nv;
	Ref *ref;
} Val;

typedef struct Isel {
	const TFunc *tf;
	LFunc *f;
	const MachPreset *mp;
	Diag *d;
	Arena *a;
	Val *val;
	int cur;		/* block being filled */
	int zero;		/* S register holding 0 */
	int64_t desc_base;	/* backend SMEM descriptor area */
	int ndesc;
	int err;
	Loc loc;		/* of the op being lowered */
	int role[256];	/* per operand: 1 read, 2 written */
} Isel;

static void ops(Isel *I, int blk);

static int
unsupported(Isel *I, const char *what)
{
	if (!I->err)
		diag_error(I->d, I->loc, "the VLIW backend cannot lower %s in "
		    "kernel '%s' yet", what, I->tf->name);
	I->err = 1;
	return -1;
}

static LIns *
add(Isel *I, int op, int d, int a, int b, int c)
{
	LIns *in = llo_add(I->f, I->cur, op, d, a, b, c);

	in->loc = I->loc;
	return in;
}

static LIns *
addi(Isel *I, int op, int d, int a, int64_t imm)
{
	LIns *in = add(I, op, d, a, 0, 0);

	in->imm = (int32_t)imm;
	return in;
}

static int
sreg(Isel *I)
{
	return llo_new_reg(I->f, LC_S);
}

static const TVal *
tv(Isel *I, TRef r)
{
	return tile_val(I->tf, r);
}

/* ------------------------------------------------------------ scalars */

static uint32_t
f32_bits(double v)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* The scalar v of type t in a register (constants materialised here). */
static int
sval(Isel *I, const TVal *t, const Val *v)
{
	int d;

	if (!v->isconst)
		return v->r;
	if (t->dtype == DT_BOOL) {
		if (v->ci)
			return 0;	/* p0 */
		d = llo_new_reg(I->f, LC_P);
		add(I, OP_PNOT, d, 0, 0, 0);
		return d;
	}
	d = sreg(I);
	addi(I, OP_SMOVI, d, 0, t->dtype == DT_F32 ? (int64_t)f32_bits(v->cf)
	    : v->ci);
	return d;
}

static int
scal(Isel *I, TRef r)
{
	return sval(I, tv(I, r), &I->val[r]);
}

static int
cst(Isel *I, TRef r, int64_t *out)
{
	if (!I->val[r].isconst || tv(I, r)->dtype == DT_F32)
		return 0;
	*out = I->val[r].ci;
	return 1;
}

static int
binop_s(TOpKind k, int *imm)
{
	static const struct { int op, opi; } t[] = {
		[TOP_ADD] = { OP_SADD, OP_SADDI },
		[TOP_SUB] = { OP_SSUB, 0 },
		[TOP_MUL] = { OP_SMUL, OP_SMULI },
		[TOP_MAX] = { OP_SMAX, OP_SMAXI },
		[TOP_MIN] = { OP_SMIN, OP_SMINI },
		[TOP_AND] = { OP_SAND, OP_SANDI },
		[TOP_OR] = { OP_SOR, OP_SORI },
		[TOP_XOR] = { OP_SXOR, OP_SXORI },
		[TOP_SHL] = { OP_SSHL, OP_SSHLI },
		[TOP_SHR] = { OP_SSRA, OP_SSRAI },
	};

	if ((size_t)k >= countof(t) || !t[k].op)
		return 0;
	*imm = t[k].opi;
	return t[k].op;
}

static int
cmp_op(TCmp c, int imm)
{
	static const int r[NTCMP] = { OP_SCMPLT, OP_SCMPLE, OP_SCMPGT,
		OP_SCMPGE, OP_SCMPEQ, OP_SCMPNE };
	static const int i[NTCMP] = { OP_SCMPILT, OP_SCMPILE, OP_SCMPIGT,
		OP_SCMPIGE, OP_SCMPIEQ, OP_SCMPINE };

	return imm ? i[c] : r[c];
}

static TCmp
swap_cmp(TCmp c)
{
	static const TCmp s[NTCMP] = { TC_GT, TC_GE, TC_LT, TC_LE, TC_EQ,
		TC_NE };
	return s[c];
}

static int
bool_op(Isel *I, const TOp *o)
{
	int a = scal(I, o->arg[0]), b, d = llo_new_reg(I->f, LC_P), t;

	if (o->op == TOP_NOT) {
		add(I, OP_PNOT, d, a, 0, 0);
		return d;
	}
	b = scal(I, o->arg[1]);
	switch (o->op) {
	case TOP_AND: add(I, OP_PAND, d, a, b, 0); break;
	case TOP_OR: add(I, OP_POR, d, a, b, 0); break;
	case TOP_XOR: case TOP_CMP:
		if (o->op == TOP_CMP && o->u.cmp != TC_NE && o->u.cmp != TC_EQ)
			return unsupported(I, "an ordered compare of bools");
		t = llo_new_reg(I->f, LC_P);
		add(I, OP_PAND, t, a, b, 0);
		add(I, OP_PNOT, t, t, 0, 0);
		add(I, OP_POR, d, a, b, 0);
		add(I, OP_PAND, d, d, t, 0);
		if (o->op == TOP_CMP && o->u.cmp == TC_EQ)
			add(I, OP_PNOT, d, d, 0, 0);
		break;
	default:
		return unsupported(I, arena_printf(I->a, "scalar bool '%s'",
		    tile_op_name(o->op)));
	}
	return d;
}

static int
scalar_cmp(Isel *I, const TOp *o)
{
	int64_t c;
	int d = llo_new_reg(I->f, LC_P);

	if (tv(I, o->arg[0])->dtype != DT_I32)
		return bool_op(I, o);
	if (cst(I, o->arg[1], &c))
		addi(I, cmp_op(o->u.cmp, 1), d, scal(I, o->arg[0]), c);
	else if (cst(I, o->arg[0], &c))
		addi(I, cmp_op(swap_cmp(o->u.cmp), 1), d, scal(I, o->arg[1]), c);
	else
		add(I, cmp_op(o->u.cmp, 0), d, scal(I, o->arg[0]),
		    scal(I, o->arg[1]), 0);
	return d;
}

static int
scalar_select(Isel *I, const TOp *o)
{
	int p = scal(I, o->arg[0]), a = scal(I, o->arg[1]);
	int b = scal(I, o->arg[2]), d, t;

	if (tv(I, o->res[0])->dtype != DT_BOOL) {
		d = sreg(I);
		add(I, OP_SSEL, d, a, b, p);
		return d;
	}
	d = llo_new_reg(I->f, LC_P);
	t = llo_new_reg(I->f, LC_P);
	add(I, OP_PAND, d, p, a, 0);		/* d = p & a | !p & b */
	add(I, OP_PNOT, t, p, 0, 0);
	add(I, OP_PAND, t, t, b, 0);
	add(I, OP_POR, d, d, t, 0);
	return d;
}

/* A scalar op; the result register, or -1 after a diagnostic. */
static int
scalar_op(Isel *I, const TOp *o)
{
	DType t = tv(I, o->res[0])->dtype;
	int op, opi, d;
	int64_t c;

	if (o->op == TOP_CMP)
		return scalar_cmp(I, o);
	if (o->op == TOP_SELECT)
		return scalar_select(I, o);
	if (t == DT_BOOL)
		return bool_op(I, o);
	if (t != DT_I32)
		return unsupported(I, arena_printf(I->a, "scalar %s '%s'",
		    dtype_name(t), tile_op_name(o->op)));
	d = sreg(I);
	if (o->op == TOP_NEG) {
		add(I, OP_SSUB, d, I->zero, scal(I, o->arg[0]), 0);
		return d;
	}
	if (o->op == TOP_NOT) {
		addi(I, OP_SXORI, d, scal(I, o->arg[0]), -1);
		return d;
	}
	if (o->narg != 2 || !(op = binop_s(o->op, &opi)))
		return unsupported(I, arena_printf(I->a, "scalar i32 '%s'",
		    tile_op_name(o->op)));
	if (opi && cst(I, o->arg[1], &c))
		addi(I, opi, d, scal(I, o->arg[0]), c);
	else if (opi && o->op != TOP_SHL && o->op != TOP_SHR &&
	    cst(I, o->arg[0], &c))
		addi(I, opi, d, scal(I, o->arg[1]), c);
	else
		add(I, op, d, scal(I, o->arg[0]), scal(I, o->arg[1]), 0);
	return d;
}

/* s = a + b * k (registers; 0 = absent) into a new register. */
static int
madd(Isel *I, int a, int b, int64_t k)
{
	int t, d;

	if (!b)
		return a;
	t = b;
	if (k != 1) {
		t = sreg(I);
		addi(I, OP_SMULI, t, b, k);
	}
	if (!a)
		return t;
	d = sreg(I);
	add(I, OP_SADD, d, a, t, 0);
	return d;
}

/* ------------------------------------------------------------ refs */

static const TBuf *
rbuf(Isel *I, const Ref *r)
{
	return &I->tf->buf.v[r->buf];
}

static Ref *
ref_of_buf(Isel *I, int b)
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
static Ref *
narrow(Isel *I, const Ref *r, const TOp *o, int n, const TIdx *idx)
{
	Ref *q = arena_alloc(I->a, sizeof *q);
	int i, k = 0, bd;

	*q = *r;
	for (i = 0; i < n && i < r->nvd; i++) {
		bd = r->vdim[i];
		q->start[bd] += idx[i].start;
		if (idx[i].dyn >= 0) {
			int s = scal(I, o->arg[idx[i].dyn]);
			int64_t m = idx[i].multiple > 0 ? idx[i].multiple : 1;
			q->mult[bd] = q->dyn[bd] ? gcd64(q->mult[bd], m) : m;
			q->dyn[bd] = madd(I, q->dyn[bd], s, 1);
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
static int
region(Isel *I, const Ref *r, int64_t *R, int64_t *C)
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
static void
mat(const TBuf *b, int64_t *R, int64_t *C)
{
	int r = b->shape.rank;

	*C = r >= 1 ? b->shape.d[r - 1] : 1;
	*R = r >= 2 ? b->shape.d[r - 2] : 1;
}

/*
 * address() for a VMEM bf16 buffer: (2S, L) tiles of packed words (row i
 * of a tile in the low half of word row i, row S + i in the high half);
 * the view must start at a tile.
 */
static int
address_packed(Isel *I, const Ref *r, int64_t *imm)
{
	const TBuf *b = rbuf(I, r);
	int64_t R, C, L = I->mp->lanes, T = 2 * I->mp->sublanes, tb, ntc;
	int64_t stride, off;
	int reg = 0, i, rr = r->rank - 2, cc = r->rank - 1;

	mat(b, &R, &C);
	tb = I->mp->sublanes * L * 4;
	ntc = (C + L - 1) / L;
	off = r->sslot * b->slot_bytes + b->offset;
	if (r->slot)
		reg = madd(I, reg, r->slot, b->slot_bytes);
	stride = (R + T - 1) / T * ntc * tb;
	for (i = rr - 1; i >= 0; i--) {
		off += r->start[i] * stride;
		reg = madd(I, reg, r->dyn[i], stride);
		stride *= b->shape.d[i];
	}
	if (rr < 0 || r->start[cc] % L || r->start[rr] % T ||
	    (r->dyn[cc] && r->mult[cc] % L) || (r->dyn[rr] && r->mult[rr] % T))
		return unsupported(I, "a bf16 view that does not start at a "
		    "tile"), 0;
	off += r->start[cc] / L * tb + r->start[rr] / T * ntc * tb;
	reg = madd(I, reg, r->dyn[cc], tb / L);
	reg = madd(I, reg, r->dyn[rr], ntc * tb / T);
	*imm = off;
	return reg;
}

/*
 * Byte address of r's first element: a register (0 = none) plus *imm.
 * VMEM is tiled (tile_r x L tiles, row-major over the tile grid and the
 * leading dims); SMEM and HBM are row-major (HBM offsets only: the base
 * is added by the caller).
 */
static int
address(Isel *I, const Ref *r, int64_t *imm)
{
	const TBuf *b = rbuf(I, r);
	int64_t R, C, L = I->mp->lanes, S = I->mp->sublanes, tb, ntc, nrt;
	int64_t stride = 1, off;
	int reg = 0, i, rr = r->rank - 2, cc = r->rank - 1;

	mat(b, &R, &C);
	off = r->sslot * b->slot_bytes + (b->space == TS_HBM ? 0 : b->offset);
	if (r->slot)
		reg = madd(I, reg, r->slot, b->slot_bytes);
	if (b->space != TS_VMEM) {
		int64_t es = b->dtype == DT_BF16 ? 2 : 4;
		for (i = r->rank - 1; i >= 0; i--) {
			off += r->start[i] * stride * es;
			reg = madd(I, reg, r->dyn[i], stride * es);
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
		reg = madd(I, reg, r->dyn[i], stride);
		stride *= b->shape.d[i];
	}
	if (cc >= 0) {
		int64_t c0 = r->start[cc];
		off += c0 / L * tb + c0 % L * 4;
		if (r->dyn[cc] && r->mult[cc] % L)
			return unsupported(I, "a dynamic lane offset"), 0;
		reg = madd(I, reg, r->dyn[cc], S * 4);
	}
	if (rr >= 0) {
		int64_t r0 = r->start[rr];
		off += r0 / S * ntc * tb + r0 % S * L * 4;
		if (r->dyn[rr] && r->mult[rr] % S)
			return unsupported(I, "a dynamic row offset that is not "
			    "a multiple of the sublanes"), 0;
		reg = madd(I, reg, r->dyn[rr], ntc * tb / S);
	}
	*imm = off;
	return reg;
}

/* ------------------------------------------------------------ vectors */

static int
vclass(DType t)
{
	return t == DT_BOOL ? LC_M : LC_V;
}

static int *
vregs(Isel *I, const TVal *t)
{
	int *v = arena_alloc(I->a, sizeof(int) * (size_t)(t->lay.nvreg + 1));
	int i;

	for (i = 0; i < t->lay.nvreg; i++)
		v[i] = llo_new_reg(I->f, vclass(t->dtype));
	return v;
}

/* Vreg grid of a vector value: rows of vregs, columns of vregs. */
static int
vgrid(Isel *I, const TVal *t, int64_t *nr, int64_t *nc, int64_t *R,
    int64_t *C)
{
	int rk = t->shape.rank;

	if (t->lay.kind != TL_NATIVE || rk > 2 || dtype_size(t->dtype) != 4)
		return unsupported(I, arena_printf(I->a, "a %s vector of rank %d "
		    "with this layout", dtype_name(t->dtype), rk));
	*C = rk >= 1 ? t->shape.d[rk - 1] : 1;
	*R = rk >= 2 ? t->shape.d[rk - 2] : 1;
	*nr = (*R + t->lay.tile_r - 1) / t->lay.tile_r;
	*nc = (*C + t->lay.tile_c - 1) / t->lay.tile_c;
	return 0;
}

static int
vop_f(TOpKind k, DType t)
{
	int f = t == DT_F32;

	switch (k) {
	case TOP_ADD: return f ? OP_VADDF : OP_VADDI;
	case TOP_SUB: return f ? OP_VSUBF : OP_VSUBI;
	case TOP_MUL: return f ? OP_VMULF : OP_VMULI;
	case TOP_MAX: return f ? OP_VMAXF : OP_VMAXI;
	case TOP_MIN: return f ? OP_VMINF : OP_VMINI;
	case TOP_AND: return t == DT_BOOL ? OP_MAND : OP_VAND;
	case TOP_OR: return t == DT_BOOL ? OP_MOR : OP_VOR;
	case TOP_XOR: return t == DT_BOOL ? OP_MXOR : OP_VXOR;
	case TOP_SHL: return f ? 0 : OP_VSHL;
	case TOP_SHR: return f ? 0 : OP_VSRA;
	default: return 0;
	}
}

static int
vcmp_op(TCmp c, int f)
{
	static const int fo[NTCMP] = { OP_VCMPLTF, OP_VCMPLEF, OP_VCMPGTF,
		OP_VCMPGEF, OP_VCMPEQF, OP_VCMPNEF };
	static const int io[NTCMP] = { OP_VCMPLTI, OP_VCMPLEI, OP_VCMPGTI,
		OP_VCMPGEI, OP_VCMPEQI, OP_VCMPNEI };
	return f ? fo[c] : io[c];
}

static int
bcast_imm(Isel *I, uint32_t bits)
{
	int d = llo_new_reg(I->f, LC_V);

	addi(I, OP_VBCASTI, d, 0, (int32_t)bits);
	return d;
}

static void
vsplat(Isel *I, const TOp *o, Val *out)
{
	const Val *s = &I->val[o->arg[0]];
	const TVal *st = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int i, r;

	if (t->dtype == DT_BOOL) {
		unsupported(I, "a splat of a bool");
		return;
	}
	if (s->isconst)
		r = bcast_imm(I, st->dtype == DT_F32 ? f32_bits(s->cf) :
		    (uint32_t)s->ci);
	else {
		r = llo_new_reg(I->f, LC_V);
		add(I, OP_VBCAST, r, s->r, 0, 0);
	}
	out->nv = t->lay.nvreg;
	out->v = arena_alloc(I->a, sizeof(int) * (size_t)(out->nv + 1));
	for (i = 0; i < out->nv; i++)
		out->v[i] = r;		/* one register serves every vreg */
}

/* EUP: d = f(a) through a push and a pop. */
static int
eup(Isel *I, int op, int a)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, op, 0, a, 0, 0);
	add(I, OP_EPOP, d, 0, 0, 0);
	return d;
}

static int
vunary(Isel *I, TOpKind k, DType from, DType to, int a)
{
	int d = llo_new_reg(I->f, to == DT_BOOL ? LC_M : LC_V), t;

	switch (k) {
	case TOP_NEG:
		if (from != DT_F32) {
			t = bcast_imm(I, 0);
			add(I, OP_VSUBI, d, t, a, 0);
		} else
			add(I, OP_VNEGF, d, a, 0, 0);
		return d;
	case TOP_ABS:
		if (from != DT_F32) {
			t = llo_new_reg(I->f, LC_V);
			add(I, OP_VSUBI, t, bcast_imm(I, 0), a, 0);
			add(I, OP_VMAXI, d, a, t, 0);
		} else
			add(I, OP_VABSF, d, a, 0, 0);
		return d;
	case TOP_NOT:
		add(I, from == DT_BOOL ? OP_MNOT : OP_VNOT, d, a, 0, 0);
		return d;
	case TOP_CONVERT:
		if (from == to)
			return a;
		if (from == DT_I32 && to == DT_F32)
			add(I, OP_VCVTIF, d, a, 0, 0);
		else if (from == DT_F32 && to == DT_I32)
			add(I, OP_VCVTFI, d, a, 0, 0);
		else
			return unsupported(I, "this vector convert");
		return d;
	case TOP_EXP:
		add(I, OP_VMULF, d, a, bcast_imm(I, f32_bits(1.4426950408889634)),
		    0);
		return eup(I, OP_EEXP2, d);
	case TOP_LOG:
		t = eup(I, OP_ELOG2, a);
		add(I, OP_VMULF, d, t, bcast_imm(I, f32_bits(0.6931471805599453)),
		    0);
		return d;
	case TOP_TANH: return eup(I, OP_ETANH, a);
	case TOP_RSQRT: return eup(I, OP_ERSQRT, a);
	case TOP_RECIP: return eup(I, OP_ERCP, a);
	default:
		return unsupported(I, arena_printf(I->a, "vector '%s'",
		    tile_op_name(k)));
	}
}

static int
vbinary(Isel *I, const TOp *o, DType t, int a, int b)
{
	int op, d;

	if (o->op == TOP_CMP) {
		d = llo_new_reg(I->f, LC_M);
		add(I, vcmp_op(o->u.cmp, t == DT_F32), d, a, b, 0);
		return d;
	}
	if (o->op == TOP_DIV && t == DT_F32) {
		d = llo_new_reg(I->f, LC_V);
		add(I, OP_VMULF, d, a, eup(I, OP_ERCP, b), 0);
		return d;
	}
	if (!(op = vop_f(o->op, t)))
		return unsupported(I, arena_printf(I->a, "vector %s '%s'",
		    dtype_name(t), tile_op_name(o->op)));
	d = llo_new_reg(I->f, t == DT_BOOL ? LC_M : LC_V);
	add(I, op, d, a, b, 0);
	return d;
}

/* iota along axis: base iota plus the vreg's offset (and arg0). */
static void
viota(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	int64_t nr, nc, R, C, i, j, k;
	int rows, base, dyn = 0, r;

	if (vgrid(I, t, &nr, &nc, &R, &C))
		return;
	rows = t->shape.rank == 2 && o->u.axis == 0;
	base = llo_new_reg(I->f, LC_V);
	add(I, rows ? OP_VIOTAS : OP_VIOTAL, base, 0, 0, 0);
	if (o->narg > 0) {
		dyn = llo_new_reg(I->f, LC_V);
		add(I, OP_VBCAST, dyn, scal(I, o->arg[0]), 0, 0);
		r = llo_new_reg(I->f, LC_V);
		add(I, OP_VADDI, r, base, dyn, 0);
		base = r;
	}
	out->nv = (int)(nr * nc);
	out->v = arena_alloc(I->a, sizeof(int) * (size_t)(out->nv + 1));
	for (i = 0; i < nr; i++)
		for (j = 0; j < nc; j++) {
			k = rows ? i * t->lay.tile_r : j * t->lay.tile_c;
			r = base;
			if (k) {
				r = llo_new_reg(I->f, LC_V);
				add(I, OP_VADDI, r, base, bcast_imm(I, (uint32_t)k),
				    0);
			}
			out->v[i * nc + j] = r;
		}
}

static void
vector_op(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	DType at = o->narg ? tv(I, o->arg[0])->dtype : t->dtype;
	int i;

	if (o->op == TOP_SPLAT) {
		vsplat(I, o, out);
		return;
	}
	if (o->op == TOP_IOTA) {
		viota(I, o, out);
		return;
	}
	out->nv = t->lay.nvreg;
	out->v = vregs(I, t);
	for (i = 0; i < out->nv && !I->err; i++) {
		const Val *a = &I->val[o->arg[0]];
		if (o->op == TOP_SELECT) {
			int d = llo_new_reg(I->f, LC_V);
			add(I, OP_VSEL, d, I->val[o->arg[1]].v[i],
			    I->val[o->arg[2]].v[i], a->v[i]);
			out->v[i] = d;
		} else if (o->narg == 1)
			out->v[i] = vunary(I, o->op, at, t->dtype, a->v[i]);
		else
			out->v[i] = vbinary(I, o, at, a->v[i],
			    I->val[o->arg[1]].v[i]);
	}
}

/* ------------------------------------------------------------ memory */

static void
vaccess(Isel *I, const TOp *o, int store)
{
	const Ref *r = I->val[o->arg[0]].ref;
	const TVal *t = tv(I, store ? o->arg[1] : o->res[0]);
	Ref *q = narrow(I, r, o, o->u.idx.n, o->u.idx.d);
	int64_t nr, nc, R, C, imm, i, j, S = I->mp->sublanes, L = I->mp->lanes;
	int64_t r0, ntc, BR, BC;
	int base, *v, rows;
	Val *out = o->nres ? &I->val[o->res[0]] : NULL;

	if (vgrid(I, t, &nr, &nc, &R, &C) || rbuf(I, q)->space != TS_VMEM)
		return (void)(I->err || unsupported(I, "a vector access "
		    "outside VMEM"));
	base = address(I, q, &imm);
	if (!base)
		base = I->zero;
	mat(rbuf(I, q), &BR, &BC);
	ntc = (BC + L - 1) / L;
	r0 = q->rank >= 2 ? q->start[q->rank - 2] % S : 0;
	if ((r0 && r0 + R > S) || q->start[q->rank - 1] % L || C % L)
		return (void)unsupported(I, "a vector access that is not "
		    "tile aligned");
	v = store ? I->val[o->arg[1]].v : vregs(I, t);
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

static void
saccess(Isel *I, const TOp *o, int store)
{
	const Ref *r = I->val[o->arg[0]].ref;
	Ref *q = narrow(I, r, o, o->u.idx.n, o->u.idx.d);
	int64_t imm;
	int base;

	if (rbuf(I, q)->space != TS_SMEM)
		return (void)unsupported(I, "a scalar access outside SMEM");
	base = address(I, q, &imm);
	if (!base)
		base = I->zero;
	if (store) {
		LIns *in = add(I, OP_SST, 0, base, scal(I, o->arg[1]), 0);
		in->imm = (int32_t)imm;
	} else {
		I->val[o->res[0]].r = sreg(I);
		addi(I, OP_SLD, I->val[o->res[0]].r, base, imm);
	}
}

/* Guarded copies of op for a dynamic flag index: f = id + idx. */
static void
flag_op(Isel *I, const TOp *o, int op, int a, int64_t imm)
{
	const TFlag *fl = &I->tf->flag.v[o->u.flag.flag];
	int k, idx, p;
	LIns *in;

	if (!o->u.flag.dyn) {
		in = add(I, op, 0, a, fl->id, 0);
		in->imm = (int32_t)imm;
		return;
	}
	idx = scal(I, o->arg[o->narg - 1]);
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

/* Strides (bytes) of dims 1..3 for side r of a copy (see dma()). */
static void
side_strides(Isel *I, const Ref *r, int64_t st[3])
{
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes;

	mat(rbuf(I, r), &R, &C);
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
	int reg = address(I, r, &imm), t, lo, hi;

	imm += extra;
	if (r->space == TS_HBM) {
		int src = I->tf->buf.v[r->buf].src;
		lo = sreg(I);
		hi = sreg(I);
		addi(I, OP_SLD, lo, I->zero, 8 * src);
		addi(I, OP_SLD, hi, I->zero, 8 * src + 4);
		dword(I, desc, wlo + 1, hi);
		reg = madd(I, lo, reg, 1);
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
static int64_t
dma_count(Isel *I, TRef ref)
{
	int64_t R, C;

	if (tv(I, ref)->dtype != DT_BF16 || region(I, I->val[ref].ref, &R, &C))
		return 1;
	return 2 * (C / I->mp->lanes);
}

/*
 * A bf16 copy [R, C] between row-major HBM and packed VMEM tiles: per
 * column tile and half (rows 0..S-1 or S..2S-1 of each tile, in the low
 * or high halves of the words) one descriptor of 2-byte elements: L
 * columns, S rows, R / 2S row tiles.  Every descriptor raises the flag
 * once; the wait takes dma_count() of it.
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
		mat(rbuf(I, side[w]), &br, &bc);
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
				mat(rbuf(I, side[w]), &br, &bc);
				k = side[w]->space == TS_VMEM ?
				    j * S * L * 4 + h * 2 :
				    j * L * 2 + h * S * bc * 2;
				side_addr(I, side[w], desc, w ? MACH_DMA_DST_LO :
				    MACH_DMA_SRC_LO, k);
			}
			flag_op(I, o, OP_DMA, I->zero, desc);
		}
	if (s->space == TS_HBM)
		I->role[rbuf(I, s)->src] |= 1;
	if (d->space == TS_HBM)
		I->role[rbuf(I, d)->src] |= 2;
}

/*
 * A copy of the [R, C] region as 4 dims: L (or C) elements, rows of one
 * tile, column tiles, row tiles.  One stride set per side: tiled VMEM or
 * row-major SMEM/HBM.
 */
static void
dma(Isel *I, const TOp *o)
{
	const Ref *s = I->val[o->arg[0]].ref, *d = I->val[o->arg[1]].ref;
	int64_t R, C, R2, C2, S = I->mp->sublanes, L = I->mp->lanes, desc;
	int64_t ss[3], ds[3], n[4];
	int dir = dma_dir(s->space, d->space), i;

	if (region(I, s, &R, &C) || region(I, d, &R2, &C2))
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
		I->role[rbuf(I, s)->src] |= 1;
	if (d->space == TS_HBM)
		I->role[rbuf(I, d)->src] |= 2;
	flag_op(I, o, OP_DMA, I->zero, desc);
}

/* ------------------------------------------------------------ matmul */

/* A matmul operand for isel_mxu.c: a tile-aligned f32 VMEM view. */
static int
mm_opnd(Isel *I, TRef ref, VliwMMOpnd *m)
{
	const Ref *r = I->val[ref].ref;
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes;

	DType t = tv(I, ref)->dtype;

	if (region(I, r, &m->rows, &m->cols))
		return -1;
	if (r->space != TS_VMEM || (t != DT_F32 && t != DT_BF16))
		return unsupported(I, "a matmul on operands that are not f32 "
		    "or bf16 in VMEM");
	m->pack = t == DT_BF16 ? 2 : 1;
	if (r->rank < 2 || r->start[r->rank - 2] % (S * m->pack) ||
	    r->start[r->rank - 1] % L)
		return unsupported(I, "a matmul on views that are not tile "
		    "aligned");
	m->base = address(I, r, &m->imm);
	if (I->err)
		return -1;
	mat(rbuf(I, r), &R, &C);
	m->cstride = S * L * 4;
	m->rstride = (C + L - 1) / L * m->cstride;
	return 0;
}

static void
matmul(Isel *I, const TOp *o)
{
	VliwMM mm;
	const char *why;

	memset(&mm, 0, sizeof mm);
	if (mm_opnd(I, o->arg[0], &mm.dst) || mm_opnd(I, o->arg[1], &mm.lhs) ||
	    mm_opnd(I, o->arg[2], &mm.rhs))
		return;
	mm.trans_b = o->u.mm.trans_b;
	mm.accumulate = o->u.mm.accumulate;
	mm.prec = o->u.mm.prec;
	mm.zero = I->zero;
	mm.loc = I->loc;
	if ((why = vliw_isel_matmul(I->f, &I->cur, &mm)) != NULL)
		unsupported(I, why);
}

/* ------------------------------------------------------------ control */

static void
branch(Isel *I, int p, int neg, int *blk, int *idx)
{
	LIns *in = add(I, OP_BR, 0, 0, 0, 0);

	in->guard = p;
	in->gneg = (uint8_t)neg;
	*blk = I->cur;
	*idx = I->f->blk.v[I->cur].ins.n - 1;
}

static void
patch(Isel *I, int blk, int idx, int target)
{
	I->f->blk.v[blk].ins.v[idx].target = target;
}

static int
new_blk(Isel *I)
{
	return I->cur = llo_new_blk(I->f);
}

/* A copy of value v into fresh registers (for/yield moves). */
static void
move(Isel *I, const TVal *t, const Val *from, Val *to, int fresh)
{
	int i;

	if (t->kind == TV_SCALAR) {
		int s = sval(I, t, from);
		int p = t->dtype == DT_BOOL;
		if (fresh)
			to->r = llo_new_reg(I->f, p ? LC_P : LC_S);
		if (p)
			add(I, OP_POR, to->r, s, s, 0);
		else
			add(I, OP_SMOV, to->r, s, 0, 0);
		return;
	}
	if (fresh) {
		to->nv = from->nv;
		to->v = vregs(I, t);
	}
	for (i = 0; i < from->nv; i++)
		add(I, t->dtype == DT_BOOL ? OP_MOR : OP_VMOV, to->v[i],
		    from->v[i], t->dtype == DT_BOOL ? from->v[i] : 0, 0);
}

static int
loop_cmp(Isel *I, int iv, TRef hi, int64_t step)
{
	int p = llo_new_reg(I->f, LC_P);
	int64_t c;
	TCmp k = step > 0 ? TC_LT : TC_GT;

	if (cst(I, hi, &c))
		addi(I, cmp_op(k, 1), p, iv, c);
	else
		add(I, cmp_op(k, 0), p, iv, scal(I, hi), 0);
	return p;
}

static void
lower_for(Isel *I, const TOp *o)
{
	const TBlock *body = &I->tf->blk.v[o->blk[0]];
	int64_t lo, hi, step = o->u.loop.step;
	int iv = sreg(I), i, pb = -1, pi = 0, top, p, known;

	known = cst(I, o->arg[0], &lo) && cst(I, o->arg[1], &hi);
	add(I, OP_SMOV, iv, scal(I, o->arg[0]), 0, 0);
	I->val[body->arg.v[0]].r = iv;
	for (i = 2; i < o->narg; i++)
		move(I, tv(I, o->arg[i]), &I->val[o->arg[i]],
		    &I->val[body->arg.v[i - 1]], 1);
	if (!known || (step > 0 ? lo >= hi : lo <= hi))
		branch(I, loop_cmp(I, iv, o->arg[1], step), 1, &pb, &pi);
	top = new_blk(I);
	ops(I, o->blk[0]);
	if (I->err)
		return;
	if (o->nres) {		/* parallel copy through temporaries */
		const TOp *y = &I->tf->op.v[body->op.v[body->op.n - 1]];
		Val *tmp = arena_alloc(I->a, sizeof(Val) * (size_t)y->narg);
		for (i = 0; i < y->narg; i++)
			move(I, tv(I, y->arg[i]), &I->val[y->arg[i]], &tmp[i], 1);
		for (i = 0; i < y->narg; i++)
			move(I, tv(I, y->arg[i]), &tmp[i],
			    &I->val[body->arg.v[i + 1]], 0);
	}
	addi(I, OP_SADDI, iv, iv, step);
	p = loop_cmp(I, iv, o->arg[1], step);
	{
		int bb, bi;
		branch(I, p, 0, &bb, &bi);
		patch(I, bb, bi, top);
	}
	new_blk(I);
	if (pb >= 0)
		patch(I, pb, pi, I->cur);
	for (i = 0; i < o->nres; i++)
		I->val[o->res[i]] = I->val[body->arg.v[i + 1]];
}

static void
lower_if(Isel *I, const TOp *o)
{
	int p = scal(I, o->arg[0]), b1, i1, b2 = -1, i2 = 0;

	branch(I, p, 1, &b1, &i1);
	new_blk(I);
	ops(I, o->blk[0]);
	if (o->blk[1] >= 0) {
		branch(I, 0, 0, &b2, &i2);
		patch(I, b1, i1, new_blk(I));
		ops(I, o->blk[1]);
	}
	new_blk(I);
	if (b2 >= 0)
		patch(I, b2, i2, I->cur);
	else
		patch(I, b1, i1, I->cur);
}

static int
region_id(Isel *I, const char *name)
{
	int i;

	for (i = 0; i < I->f->region.n; i++)
		if (strcmp(I->f->region.v[i], name) == 0)
			return i;
	vec_push(I->a, &I->f->region, name);
	return I->f->region.n - 1;
}

/* ------------------------------------------------------------ ops */

static void
scalar_or_vector(Isel *I, const TOp *o)
{
	Val *out = &I->val[o->res[0]];
	int r;

	if (tv(I, o->res[0])->kind == TV_VEC) {
		vector_op(I, o, out);
		return;
	}
	if ((r = scalar_op(I, o)) >= 0)
		out->r = r;
}

static void
op(Isel *I, const TOp *o)
{
	Val *out = o->nres ? &I->val[o->res[0]] : NULL;

	I->loc = o->loc;
	switch (o->op) {
	case TOP_NOP: case TOP_YIELD: break;
	case TOP_CONST:
		out->isconst = 1;
		out->ci = o->u.cst.i;
		out->cf = tv(I, o->res[0])->dtype == DT_F32 ? o->u.cst.f :
		    (double)o->u.cst.i;
		break;
	case TOP_BUF: out->ref = ref_of_buf(I, o->u.buf); break;
	case TOP_SLOT: {
		Ref *q = arena_alloc(I->a, sizeof *q);
		int64_t c;
		*q = *I->val[o->arg[0]].ref;
		if (cst(I, o->arg[1], &c))
			q->sslot = c;
		else
			q->slot = scal(I, o->arg[1]);
		out->ref = q;
		break;
	}
	case TOP_VIEW:
		out->ref = narrow(I, I->val[o->arg[0]].ref, o, o->u.idx.n,
		    o->u.idx.d);
		break;
	case TOP_LOAD: vaccess(I, o, 0); break;
	case TOP_STORE: vaccess(I, o, 1); break;
	case TOP_SLOAD: saccess(I, o, 0); break;
	case TOP_SSTORE: saccess(I, o, 1); break;
	case TOP_DMA_START: dma(I, o); break;
	case TOP_MATMUL: matmul(I, o); break;
	case TOP_DMA_WAIT:
		flag_op(I, o, OP_SYNCTAKE, 0, dma_count(I, o->arg[0]));
		break;
	case TOP_SEM_SIGNAL: case TOP_SEM_WAIT: {
		int64_t c;
		if (!cst(I, o->arg[0], &c))
			return (void)unsupported(I, "a dynamic semaphore count");
		flag_op(I, o, o->op == TOP_SEM_WAIT ? OP_SYNCTAKE : OP_SYNCADD,
		    0, c);
		break;
	}
	case TOP_FOR: lower_for(I, o); break;
	case TOP_IF: lower_if(I, o); break;
	case TOP_TRACE:
		addi(I, o->u.cst.i ? OP_TBEGIN : OP_TEND, 0, 0,
		    region_id(I, o->name ? o->name : I->tf->name));
		break;
	case TOP_NEG: case TOP_NOT: case TOP_ABS: case TOP_EXP: case TOP_LOG:
	case TOP_TANH: case TOP_RSQRT: case TOP_RECIP: case TOP_CONVERT:
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_MAX:
	case TOP_MIN: case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL:
	case TOP_SHR: case TOP_CMP: case TOP_SELECT: case TOP_SPLAT:
	case TOP_IOTA:
		scalar_or_vector(I, o);
		break;
	default:
		unsupported(I, arena_printf(I->a, "'%s'", tile_op_name(o->op)));
		break;
	}
}

static void
ops(Isel *I, int blk)
{
	const TBlock *b = &I->tf->blk.v[blk];
	int i;

	for (i = 0; i < b->op.n && !I->err; i++)
		op(I, &I->tf->op.v[b->op.v[i]]);
}

static MachDtype
mdtype(DType t)
{
	switch (t) {
	case DT_F32: return MACH_F32;
	case DT_BF16: return MACH_BF16;
	case DT_I32: return MACH_I32;
	case DT_I8: return MACH_I8;
	default: return MACH_BOOL;
	}
}

/* Entry operands: every TB_HBM buffer, by operand index. */
static void
operands(Isel *I)
{
	const TFunc *tf = I->tf;
	int i, k, n = 0;

	for (i = 0; i < tf->buf.n; i++)
		if (tf->buf.v[i].kind == TB_HBM && tf->buf.v[i].src >= n)
			n = tf->buf.v[i].src + 1;
	for (k = 0; k < n; k++) {
		LOperand o;
		memset(&o, 0, sizeof o);
		for (i = 0; i < tf->buf.n; i++) {
			const TBuf *b = &tf->buf.v[i];
			int j;
			if (b->kind != TB_HBM || b->src != k)
				continue;
			o.name = b->name;
			o.dtype = mdtype(b->dtype);
			o.rank = b->shape.rank;
			o.bytes = (uint64_t)dtype_size(b->dtype);
			for (j = 0; j < o.rank && j < MACH_MAXRANK; j++) {
				o.shape[j] = b->shape.d[j];
				o.bytes *= (uint64_t)b->shape.d[j];
			}
		}
		o.role = I->role[k] == 3 ? MACH_ROLE_INOUT : I->role[k] == 2 ?
		    MACH_ROLE_OUT : MACH_ROLE_IN;
		o.smem_addr = (uint32_t)(8 * k);
		if (!o.name)
			o.name = "";
		vec_push(I->a, &I->f->opnd, o);
	}
}

LFunc *
vliw_isel(const TFunc *tf, const MachPreset *mp, Diag *d, Arena *a)
{
	Isel *I = arena_alloc(a, sizeof *I);
	int i, kreg;

	I->tf = tf;
	I->mp = mp;
	I->d = d;
	I->a = a;
	I->f = llo_new_func(a, mp, tf->name);
	I->val = arena_alloc(a, sizeof(Val) * (size_t)(tf->val.n + 1));
	I->desc_base = (tf->smem_bytes + 63) / 64 * 64;
	for (i = 0; i < tf->buf.n; i++)
		if (tf->buf.v[i].kind == TB_HBM && tf->buf.v[i].src >=
		    (int)countof(I->role))
			return unsupported(I, "this many operands"), NULL;
	I->zero = sreg(I);
	addi(I, OP_SMOVI, I->zero, 0, 0);
	kreg = region_id(I, tf->name);
	addi(I, OP_TBEGIN, 0, 0, kreg);
	new_blk(I);
	ops(I, 0);
	if (I->err)
		return NULL;
	addi(I, OP_TEND, 0, 0, kreg);
	add(I, OP_HALT, 0, 0, 0, 0);
	operands(I);
	return I->f;
}
