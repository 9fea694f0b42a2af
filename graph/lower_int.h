/*
 * lower_int.h - internals shared by graph/lower.c (the module, names,
 * metadata, the instruction builders) and graph/lower_ops.c (one
 * expression at a time).  Not a public API.
 */
#ifndef PALLAS_GRAPH_LOWER_INT_H
#define PALLAS_GRAPH_LOWER_INT_H

#include "graph/lower.h"

/* The lowering of one func. */
typedef struct Lw {
	HloModule *m;
	HloComp *c;		/* the entry, pushed last into m->comp */
	const CFunc *f;
	Diag *d;
	Strtab *s;
	int next;		/* the next instruction id (names "add.7") */
	int nregion;		/* reducer computations made */
	const char *scope;	/* op_name prefix: "jit(toy)/matmul_1" */
	Loc loc;		/* the expression being lowered */
	int *param;		/* func parameter i -> instruction */
	/* memo: expression -> instruction (open addressing) */
	const CExpr **key;
	int *val;
	size_t cap, n;
	int failed;		/* a diagnostic was given */
} Lw;

/* lower.c: instruction builders (all append to the entry). */
/* An array shape with the default layout {rank-1,...,0}. */
HloShape lw_shape(HloType t, int rank, const int64_t *dim);
HloShape lw_shape_of(const CExpr *e);
/*
 * Appends op with operands ops[0 .. n) and shape sh, named
 * "<opcode>.<id>", with metadata op_name "<scope>/<prim>" (none if prim
 * is NULL).  Returns its index.
 */
int lw_emit(Lw *L, HloOp op, HloShape sh, const int *ops, int n,
    const char *prim);
HloShape lw_sh(const Lw *L, int i);	/* instruction i's shape */
HloInstr *lw_in(const Lw *L, int i);
HloInts lw_ints(Lw *L, const int64_t *v, int n);
/* A scalar constant of type t. */
int lw_const(Lw *L, HloType t, double v);
/* x (any shape) broadcast to sh: dims[i] is where x's dimension i goes. */
int lw_broadcast(Lw *L, int x, HloShape sh, const int64_t *dims,
    const char *prim);
int lw_reshape(Lw *L, int x, HloShape sh, const char *prim);
int lw_convert(Lw *L, int x, HloType t, const char *prim);
/* reduce(x, init) over dimension axis with an add/maximum/minimum region. */
int lw_reduce(Lw *L, int x, int axis, HloOp combine, double init,
    const char *prim);
/* s with '"' and '\\' escaped as HLO strings are kept (arena a). */
const char *lw_escape(Arena *a, const char *s);
/* Reports an unsupported construct at the current expression. */
int lw_unsupported(Lw *L, const char *what);
/* e's memo slot (-1: used but not lowered yet); NULL if absent and !add. */
int *lw_memo(Lw *L, const CExpr *e, int add);

/* lower_ops.c: the instruction computing e (memoised); -1 on error. */
int lw_expr(Lw *L, const CExpr *e);

#endif
