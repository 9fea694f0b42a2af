/*
 * pass_simp.h - what the simplification passes share (algebraic
 * simplification in pass_algsimp*.c, constant folding in pass_constfold.c,
 * common subexpressions in pass_cse.c): a def-before-use visiting order
 * that tolerates the disorder other passes leave, layout equality, the
 * value of a constant operand, and adding instructions that inherit the
 * metadata of the one they replace.  Not a public API.
 */
#ifndef PALLAS_GRAPH_PASS_SIMP_H
#define PALLAS_GRAPH_PASS_SIMP_H

#include "graph/pass.h"

/*
 * The indices of c's instructions, every one after its operands (text
 * order where it already holds): n = c->instr.n entries in a.
 */
int *simp_order(Arena *a, const HloComp *c);
/* 1 if a and b lay out their elements alike (absent = default). */
int simp_layout_eq(const HloShape *a, const HloShape *b);
/* 1 if a value of shape b can stand for one of shape a: same type,
   dims and layout. */
int simp_interchangeable(const HloShape *a, const HloShape *b);
/* An array shape of t and dims, with a written default layout if 'like'
   has a written layout (so printing stays uniform). */
HloShape simp_shape(HloType t, int rank, const int64_t *dim,
    const HloShape *like);
/*
 * 1 if instruction i of c is a constant whose elements are all the same
 * bits, or a broadcast of one; *v = that element as the evaluator holds
 * it (rounded to the element type).
 */
int simp_uniform(const HloComp *c, int i, double *v);
/* The reducer m->comp.v[callee] as one binary opcode when it is
   op(p0, p1) (*swap = 0) or op(p1, p0) (*swap = 1); else HLO_INVALID. */
HloOp simp_reducer(const HloModule *m, int callee, int *swap);
/* hlo_add, then the metadata of 'from' (which it replaces) if any. */
int simp_add(HloModule *m, HloComp *c, HloOp op, const HloShape *shape,
    const int *ops, int nops, const HloInstr *from);
/* A new scalar constant of type t holding v. */
int simp_scalar(HloModule *m, HloComp *c, HloType t, double v,
    const HloInstr *from);
/* A new broadcast of x into 'shape' along dims[0..n). */
int simp_broadcast(HloModule *m, HloComp *c, int x, const HloShape *shape,
    const int64_t *dims, int n, const HloInstr *from);

#endif
