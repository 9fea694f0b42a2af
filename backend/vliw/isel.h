/*
 * isel.h - what the files of instruction selection share (isel.c,
 * isel_ref.c, isel_vec.c, isel_vdiv.c, isel_dma.c ...): the selector's
 * state, the resolved memory views, and the helpers each file takes from
 * another.
 * Internal to backend/vliw/; the pass's entry is vliw_isel (vliw.h).
 */
#ifndef PALLAS_ISEL_H
#define PALLAS_ISEL_H

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
	int64_t *fq;		/* per TFunc flag group: the flag raises of
				   each of its clipped copies, or 0 */
	VEC(struct DescKey) dk;	/* the clipped copies' descriptors,
				   shared by equal static words (isel_dma.c) */
	int err;
	Loc loc;		/* of the op being lowered */
	int role[256];	/* per operand: 1 read, 2 written */
	int xlu;		/* XLU batches so far (isel_xlu.c: the unit) */
} Isel;

/* ------------------------------------------------------------ helpers */

static inline int
unsupported(Isel *I, const char *what)
{
	if (!I->err) {
		diag_error(I->d, I->loc, "not supported by the compiled path "
		    "yet: %s (kernel '%s')", what, I->tf->name);
		diag_note(I->d, mosaic_file_loc(I->loc), "%s",
		    MOSAIC_NOT_YET_HINT);
	}
	I->err = 1;
	return -1;
}

static inline LIns *
add(Isel *I, int op, int d, int a, int b, int c)
{
	LIns *in = llo_add(I->f, I->cur, op, d, a, b, c);

	in->loc = I->loc;
	return in;
}

static inline LIns *
addi(Isel *I, int op, int d, int a, int64_t imm)
{
	LIns *in = add(I, op, d, a, 0, 0);

	in->imm = (int32_t)imm;
	return in;
}

static inline int
sreg(Isel *I)
{
	return llo_new_reg(I->f, LC_S);
}

/* Scalar results of op on a and b, of op on a and an immediate. */
static inline int
sop2(Isel *I, int op, int a, int b)
{
	int d = sreg(I);

	add(I, op, d, a, b, 0);
	return d;
}

static inline int
sopi(Isel *I, int op, int a, int64_t imm)
{
	int d = sreg(I);

	addi(I, op, d, a, imm);
	return d;
}

/* p ? a : b on scalars. */
static inline int
ssel(Isel *I, int p, int a, int b)
{
	int d = sreg(I);

	add(I, OP_SSEL, d, a, b, p);
	return d;
}

/* Predicates: op of a and an immediate, op of a and b. */
static inline int
spred(Isel *I, int op, int a, int64_t imm)
{
	int p = llo_new_reg(I->f, LC_P);

	addi(I, op, p, a, imm);
	return p;
}

static inline int
spop2(Isel *I, int op, int a, int b)
{
	int p = llo_new_reg(I->f, LC_P);

	add(I, op, p, a, b, 0);
	return p;
}

static inline const TVal *
tv(Isel *I, TRef r)
{
	return tile_val(I->tf, r);
}

static inline uint32_t
f32_bits(double v)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* ------------------------------------------------------------ isel.c */
int isel_sval(Isel *I, const TVal *t, const Val *v);	/* a scalar's register */
int isel_scal(Isel *I, TRef r);			/* value r's register */
int isel_cst(Isel *I, TRef r, int64_t *out);	/* 1: r is an int constant */
int isel_madd(Isel *I, int a, int b, int64_t k);	/* a + b * k */

/* ------------------------------------------------------------ isel_sdiv.c */
/* Scalar i32 a / divisor (rem: a % divisor), truncating: a register. */
int isel_sdiv(Isel *I, int a, TRef divisor, int rem);
/* Scalar a mod n in [0, n) for a constant n > 0: a register. */
int isel_smod(Isel *I, int a, int64_t n);

/* Scalar f32 x / y (registers), correctly rounded: a register. */
int isel_sfdiv(Isel *I, int x, int y);

/* ------------------------------------------------------------ isel_vdiv.c */
/* One tile: i32 a / b (rem: a % b) truncating, b the tile of value
   divisor (a splat of a constant folds). */
int isel_vdiv_i32(Isel *I, int a, int b, TRef divisor, int rem);

/* ------------------------------------------------------------ isel_frem.c */
/* f32 x % y (registers: one tile, or scalars), exactly C's fmodf. */
int isel_vfrem(Isel *I, int x, int y);
int isel_sfrem(Isel *I, int x, int y);

/* ------------------------------------------------------------ isel_ref.c */
const TBuf *isel_rbuf(Isel *I, const Ref *r);
/* Marks the memory op in as touching only buffer b (LIns.mlo/mhi). */
void isel_tag(LIns *in, const TBuf *b);
Ref *isel_ref_of_buf(Isel *I, int b);
Ref *isel_narrow(Isel *I, const Ref *r, const TOp *o, int n,
    const TIdx *idx);
int isel_region(Isel *I, const Ref *r, int64_t *R, int64_t *C);
void isel_mat(const TBuf *b, int64_t *R, int64_t *C);
int isel_address(Isel *I, const Ref *r, int64_t *imm);
/* Bytes of an element of b in HBM or SMEM (1 for HBM bool and i8). */
int64_t isel_esize(const TBuf *b);
/* TOP_LOAD (store 0) and TOP_STORE of vectors in VMEM, any layout. */
void isel_vaccess(Isel *I, const TOp *o, int store);
/* TOP_SLOAD / TOP_SSTORE of 32-bit words in SMEM (row-major, any rank). */
void isel_saccess(Isel *I, const TOp *o, int store);

/* A vector access being lowered (isel_ref.c; bf16 in isel_bf16.c). */
typedef struct VAcc {
	const Ref *q;		/* the view, narrowed by the access */
	const TBuf *b;
	const TVal *t;		/* the value loaded or stored */
	int store, isbool;
	int pack;		/* the dtype's rows per word */
	int64_t S, L, row, tb;	/* sublanes, lanes, bytes per row and tile */
	int64_t BR, BC, ntc;	/* buffer rows, columns, column tiles */
	int base;		/* S register: address of the view's start, */
	int64_t imm;		/* plus imm bytes */
	int64_t r0, c0;		/* static row and column starts */
	int64_t R, C;		/* value rows and columns (last two dims) */
	int64_t rstep;		/* > 0: value rows step a leading buffer dim
				   by rstep bytes */
	int colrow;		/* value columns are buffer rows (column c0) */
	int64_t lead;		/* product of the leading value dims */
	int nlead;
	int64_t lsize[SEMA_MAXRANK], lstride[SEMA_MAXRANK];
} VAcc;

/* One vld/vst of a sublane group: delta bytes, sublane mask, stride. */
typedef struct VPart {
	int64_t delta;
	unsigned mask;
	int stride;
} VPart;

/* Sets up a for op (no code but the view's dynamic starts; base unset);
   0, or -1 after a diagnostic. */
int isel_vacc(Isel *I, const TOp *o, int store, VAcc *a);
/* Parts of n value rows from value row d (at most S); returns how many. */
int isel_vacc_group(const VAcc *a, int64_t d, int n, VPart *p);
int64_t isel_vacc_cdelta(const VAcc *a, int64_t x);	/* value column x */
int64_t isel_vacc_ldelta(const VAcc *a, int64_t li);	/* leading index */
/* vld into v, or vst / vst.msk (lane mask lm) of v, at part p + delta. */
LIns *isel_vacc_mem(Isel *I, const VAcc *a, int store, int v, int64_t delta,
    const VPart *p, int lm);
/* A mask register of lanes [lo, hi), 0 when that is every lane. */
int isel_lane_mask(Isel *I, int64_t lo, int64_t hi);

/* ------------------------------------------------------------ isel_vec.c */
int *isel_vregs(Isel *I, const TVal *t);
/* The vreg grid of a NATIVE vector of rank <= 2 (loads and stores);
   -1 after a diagnostic for any other. */
int isel_vgrid(Isel *I, const TVal *t, int64_t *nr, int64_t *nc, int64_t *R,
    int64_t *C);
void isel_vector_op(Isel *I, const TOp *o, Val *out);

/* A vector's tile grid whatever its layout: lead = the product of the
   leading dims, R x C the last two (rank 1: one row), nr x nc tiles of
   (tile_r, tile_c).  Native tile (l, i, j) is vreg (l * nr + i) * nc + j;
   lane-replicated values hold tile (l, i, *) in vreg l * nr + i, every
   lane of a row equal; sublane-replicated ones tile (l, *, j) in vreg
   l * nc + j, every sublane equal. */
typedef struct VGeom {
	int64_t lead, R, C, nr, nc;
} VGeom;
void isel_vgeom(const TVal *t, VGeom *g);
/* The vreg of value r that holds tile (l, i, j) of the grid of type
   want (r's shape equal to want's, or broadcast to it by its layout:
   lane-replicated along columns, sublane-replicated along rows, leading
   dims of 1).  -1 after a diagnostic. */
int isel_vtile(Isel *I, TRef r, const TVal *want, int64_t l, int64_t i,
    int64_t j);
/* Sets out to the vregs of type t from tile[(l * nr + i) * nc + j]
   (every tile of t's grid; replicated layouts keep one per row or
   column of tiles). */
void isel_vpack(Isel *I, const TVal *t, const int *tile, Val *out);
/* A vreg holding the 32 bits 'bits' in every element. */
int isel_vimm(Isel *I, uint32_t bits);
/* isel_vec.c: a vector op into a new register; an EUP op and its pop;
   v = m ? a : b. */
int isel_vop(Isel *I, int op, int a, int b);
/* op of a and the vector of constant bits k. */
static inline int
vopk(Isel *I, int op, int a, uint32_t k)
{
	return isel_vop(I, op, a, isel_vimm(I, k));
}
int isel_eup(Isel *I, int op, int a);
int isel_vsel(Isel *I, int m, int a, int b);
/* Mask <-> vector of 0 / 1 (i32 words). */
int isel_mask_to_v(Isel *I, int m);
int isel_v_to_mask(Isel *I, int v);

/* ------------------------------------------------------------ isel_xlu.c */
/* Vector structure: broadcast, reshape, reduce, roll, transpose
   (values). */
void isel_xlu_op(Isel *I, const TOp *o, Val *out);
/* The in-memory forms: TOP_TRANSPOSE and TOP_ROLLM. */
void isel_xlu_mem(Isel *I, const TOp *o);
/* XLU work sequenced for the scheduler (FIFO order, issue intervals,
   latencies; see isel_xlu.c), on XLU 0, ending the current block:
   dst[k] = op(src[k]) for k < n, op one of OP_XROT, OP_XBCAST (literal
   x), OP_XSUM, OP_XMAX; and the transpose of the L x L block whose rows
   are the n <= L/S vregs src[] (missing rows 0) into L/S vregs dst[].
   dst may be src. */
void isel_xlu_map(Isel *I, int op, const int *src, int n, int x, int *dst);
void isel_xlu_xpose(Isel *I, const int *src, int n, int *dst);

/* ------------------------------------------------------------ isel_bf16.c */
/* TOP_CONVERT between f32 (or i32) and bf16 (packed vregs). */
void isel_convert_bf16(Isel *I, const TOp *o, Val *out);
/* The vector access a of packed bf16 (stores: registers v; loads: into
   out). */
void isel_bf16_access(Isel *I, VAcc *a, const int *v, Val *out);

/* ------------------------------------------------------------ isel_dma.c */
void isel_flag_op(Isel *I, const TOp *o, int op, int a, int64_t imm);
void isel_dma(Isel *I, const TOp *o);
void isel_dma_quanta(Isel *I);
int64_t isel_dma_count(Isel *I, const TOp *o);

#endif
