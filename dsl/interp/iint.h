/*
 * iint.h - internals shared by the files of dsl/interp/ (not installed):
 * host values, the memories Refs name, and the run context.
 *
 * Every element, whatever its dtype, sits in a 32-bit Elt: floats as
 * float (bf16 values already rounded to bf16), integers and bools as
 * int32_t (i8 within [-128, 127], bool 0 or 1).  Arithmetic follows the
 * machine: f32 in float, bf16 computed in f32 and rounded, integers
 * wrapping in two's complement.
 */
#ifndef PALLAS_INTERP_IINT_H
#define PALLAS_INTERP_IINT_H

#include "dsl/interp/interp.h"

typedef union Elt { float f; int32_t i; } Elt;

/* A value: an immutable array (or scalar) of one dtype. */
typedef struct Val {
	DType t;
	Shape s;
	int64_t n;		/* elements */
	Elt *e;
} Val;

/* What a Ref names during a step. */
typedef struct Mem {
	const char *name;
	Loc loc;		/* its declaration */
	DType t;
	Shape s;		/* the shape the body sees */
	Elt *e;
	uint8_t *init;		/* per element: 1 once written; NULL: all
				   readable */
	int readonly;
} Mem;

/* A started DMA awaiting its wait (the data moves at the wait). */
typedef struct Dma {
	const CStmt *st;	/* the dma_start */
	Mem *src, *dst, *sem;
	int64_t soff[SEMA_MAXRANK], ssz[SEMA_MAXRANK];	/* source box */
	int64_t doff[SEMA_MAXRANK], dsz[SEMA_MAXRANK];	/* destination */
	int64_t semi;		/* the semaphore element */
	int done;
} Dma;

/* Values of shared func nodes, by node (open addressing). */
typedef struct Memo {
	const CExpr **key;
	Val *val;
	size_t cap, n;		/* cap: a power of two, or 0 */
} Memo;

/* The run of one kernel or func. */
typedef struct Run {
	const CKernel *k;	/* NULL for a func */
	Diag *d;
	Arena *a;		/* values of the current step */
	const InterpOptions *o;
	int64_t *pt;		/* current grid point, k->naxis */
	Val *slot;		/* let and for values */
	Mem *op;		/* per operand: what its Ref names */
	Mem *scr;		/* per scratch buffer */
	VEC(Dma) dma;		/* pending DMAs of the current step */
	Arena dma_arena;
	Memo *memo;		/* funcs: values of shared nodes */
} Run;

/* ibuf.c: host buffers <-> elements (malloc'ed). */
Elt *ival_from_host(const InterpBuf *b);
Elt *ival_try_from_host(const InterpBuf *b);	/* NULL: out of memory */
void ival_to_host(const Elt *e, InterpBuf *b);

/* ieval.c */
/* Evaluates e into *v (allocated in r->a); 0, or -1 after an error. */
int ieval(Run *r, const CExpr *e, Val *v);
/* A new value of dtype t and shape s, elements uninitialised. */
void ival_new(Run *r, Val *v, DType t, const Shape *s);
/* Rounds f as dtype t stores it (bf16: to nearest even). */
float ival_round(DType t, float f);
/* The poison of dtype t: a NaN with a recognisable payload, INT_MIN. */
Elt ival_poison(DType t);
int ival_is_poison(DType t, Elt e);
/* Elementwise binary op on equal shapes; 0, or -1 (error reported). */
int ival_binary(Run *r, CxOp op, Loc loc, const Val *a, const Val *b,
    Val *out, DType t);

/* idot.c: out = a . b as CX_DOT e says (shapes from e). */
void idot(Run *r, const CExpr *e, const Val *a, const Val *b, Val *out);

/* ishape.c: broadcast, transpose, roll, slices, iota. */
void ishape_broadcast(const Val *a, Val *out);
void ishape_transpose(const Val *a, Val *out);
void ishape_roll(const Val *a, int axis, int64_t shift, Val *out);
void ishape_iota(Val *out, int axis);
/*
 * Resolves slice sl over shape s into full-rank offsets and sizes,
 * evaluating dynamic starts and checking bounds (errors at loc name
 * what); 0, or -1 after an error.
 */
int ishape_resolve(Run *r, const CSlice *sl, const Shape *s, Loc loc,
    const char *what, int64_t *off, int64_t *sz);
/* Copies the box off/sz of (src, s) to dst (dense) or back. */
void ishape_gather(const Elt *src, const Shape *s, const int64_t *off,
    const int64_t *sz, Elt *dst);
void ishape_scatter(Elt *dst, const Shape *s, const int64_t *off,
    const int64_t *sz, const Elt *src);
/* Index of the first element of box off/sz whose init byte is 0; -1. */
int64_t ishape_uninit(const uint8_t *init, const Shape *s,
    const int64_t *off, const int64_t *sz);
void ishape_mark(uint8_t *init, const Shape *s, const int64_t *off,
    const int64_t *sz);

/* istmt.c: runs a statement list; 0, or -1 after an error. */
int istmt_block(Run *r, const CBlock *b);
/* Checks that every DMA of the step was waited for. */
int istmt_end_step(Run *r);

/* ifunc.c: runs the kernel a func calls on evaluated arguments a. */
int ifunc_call(Run *r, const CExpr *e, const Val *a, Val *v);

/* interp.c */
/* Adds a note naming the current grid point (after an error). */
void interp_note_point(Run *r);
/* Appends the current grid point to b, "h=0, i=1" ("" without a grid). */
void interp_point(const Run *r, Buf *b);

#endif
