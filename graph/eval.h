/*
 * eval.h - internals shared by the reference evaluator's files: eval.c
 * (values, dispatch, elementwise arithmetic) and eval_array.c (data
 * movement, reduce, dot).  Not a public API.
 *
 * A value holds its elements as doubles in row-major order, already
 * rounded to its element type (f32 to float, bf16 to bf16, integers
 * wrapped), so every operation computes in double and rounds once.
 */
#ifndef PALLAS_EVAL_H
#define PALLAS_EVAL_H

#include "graph/graph.h"

#define EVAL_MAXELEMS ((int64_t)1 << 24)	/* per value */

typedef struct Val {
	HloShape shape;		/* layout ignored */
	double *v;		/* array: n elements */
	int64_t n;
	struct Val **elem;	/* tuple: shape.ntuple values */
} Val;

typedef struct Ev {
	const HloModule *m;
	Arena *a;		/* values of the current run */
	char *err;
	size_t nerr;
	int failed;
	int depth;		/* nested calls, fusions, reducers */
	unsigned flags;		/* HLO_EVAL_* */
} Ev;

/* eval.c */
void ev_fail(Ev *e, const HloInstr *in, const char *fmt, ...) PK_PRINTF(3, 4);
Val *ev_array(Ev *e, const HloInstr *in, HloType t, int rank,
    const int64_t *dim);
double ev_round(HloType t, double x);
double ev_binary(HloOp op, HloType t, double a, double b);
Val *ev_comp(Ev *e, const HloComp *c, Val **args, int nargs);

/* eval_array.c */
Val *ev_broadcast(Ev *e, const HloInstr *in, Val *a);
Val *ev_transpose(Ev *e, const HloInstr *in, Val *a);
Val *ev_slice(Ev *e, const HloInstr *in, Val *a);
Val *ev_concatenate(Ev *e, const HloInstr *in, Val **ops);
Val *ev_iota(Ev *e, const HloInstr *in);
Val *ev_reduce(Ev *e, const HloInstr *in, Val **ops);
Val *ev_dot(Ev *e, const HloInstr *in, Val *a, Val *b);

#endif
