/*
 * isel.h - what the files of instruction selection share (isel.c,
 * isel_ref.c, isel_vec.c, isel_dma.c): the selector's state, the
 * resolved memory views, and the helpers each file takes from another.
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
	int err;
	Loc loc;		/* of the op being lowered */
	int role[256];	/* per operand: 1 read, 2 written */
} Isel;

/* ------------------------------------------------------------ helpers */

static inline int
unsupported(Isel *I, const char *what)
{
	if (!I->err)
		diag_error(I->d, I->loc, "the VLIW backend cannot lower %s in "
		    "kernel '%s' yet", what, I->tf->name);
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

/* ------------------------------------------------------------ isel_ref.c */
const TBuf *isel_rbuf(Isel *I, const Ref *r);
Ref *isel_ref_of_buf(Isel *I, int b);
Ref *isel_narrow(Isel *I, const Ref *r, const TOp *o, int n,
    const TIdx *idx);
int isel_region(Isel *I, const Ref *r, int64_t *R, int64_t *C);
void isel_mat(const TBuf *b, int64_t *R, int64_t *C);
int isel_address(Isel *I, const Ref *r, int64_t *imm);
void isel_vaccess(Isel *I, const TOp *o, int store);
void isel_saccess(Isel *I, const TOp *o, int store);

/* ------------------------------------------------------------ isel_vec.c */
int *isel_vregs(Isel *I, const TVal *t);
int isel_vgrid(Isel *I, const TVal *t, int64_t *nr, int64_t *nc, int64_t *R,
    int64_t *C);
void isel_vector_op(Isel *I, const TOp *o, Val *out);

/* ------------------------------------------------------------ isel_xlu.c */
/* Vector structure: broadcast, reshape, reduce, roll, transpose (values)
   and extract (a scalar result). */
void isel_xlu_op(Isel *I, const TOp *o, Val *out);
/* The in-memory forms: TOP_TRANSPOSE and TOP_ROLLM. */
void isel_xlu_mem(Isel *I, const TOp *o);

/* ------------------------------------------------------------ isel_bf16.c */
/* TOP_CONVERT to or from bf16 (packed vregs). */
void isel_convert_bf16(Isel *I, const TOp *o, Val *out);

/* ------------------------------------------------------------ isel_dma.c */
void isel_flag_op(Isel *I, const TOp *o, int op, int a, int64_t imm);
void isel_dma(Isel *I, const TOp *o);
int64_t isel_dma_count(Isel *I, TRef ref);

#endif
