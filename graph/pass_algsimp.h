/*
 * pass_algsimp.h - the algebraic simplifier's rule files: pass_algsimp.c
 * (the driver, elementwise identities, division), pass_algsimp_shape.c
 * (reshape, broadcast, transpose, slice, concatenate, convert) and
 * pass_algsimp_reduce.c (reduce, dot) and pass_algsimp_div.c (divide).
 * Not a public API.
 *
 * A rule looks at instruction i and returns the index of an instruction
 * computing the same value, bit for bit (an operand, or one it added
 * with hlo_add; algsimp-div's within its tolerance), or -1 to leave i
 * alone.  The driver rewires i's uses.
 */
#ifndef PALLAS_GRAPH_PASS_ALGSIMP_H
#define PALLAS_GRAPH_PASS_ALGSIMP_H

#include "graph/pass_simp.h"

typedef struct Simp {
	HloModule *m;
	HloComp *c;
} Simp;

#define SI(s, i) ((s)->c->instr.v[i])

/* x if its value can replace instruction i's as it is, else -1. */
int algsimp_keep(Simp *s, int i, int x);
/* 1 if the array shape has the default layout (or none). */
int algsimp_plain(const HloShape *sh);
int algsimp_shape_rule(Simp *s, int i);	/* pass_algsimp_shape.c */
/* op(reshape(x), ...) -> reshape(op(x, ...)) for elementwise ops */
int algsimp_sink_reshape(Simp *s, int i);	/* pass_algsimp_shape.c */
int algsimp_reduce_rule(Simp *s, int i);	/* pass_algsimp_reduce.c */
int algsimp_dot_rule(Simp *s, int i);	/* pass_algsimp_reduce.c */
/* pass_algsimp_div.c: HandleDivide's exact rules, and those that change
   the rounding (the algsimp-div pass's only rule) */
int algsimp_divide_rule(Simp *s, int i);
int algsimp_divide_rounding(Simp *s, int i);
/* Visits every instruction of every computation once with rule,
   replacing what it rewrites (pass_algsimp.c); 1 if anything changed. */
int algsimp_run(HloModule *m, int (*rule)(Simp *, int));

#endif
