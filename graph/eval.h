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

/*
 * Limits that turn a module too large for the host into a clean error:
 * elements per value, and bytes of values alive at once.  A value lives
 * until its last use in its computation (reference counted: tuples,
 * get-tuple-element and reshape share), so the naive attention's
 * [8,2048,2048] f32 scores (256 MiB as doubles) fit a few at a time.
 */
#define EVAL_MAXELEMS ((int64_t)1 << 28)	/* per value (2 GiB) */
#define EVAL_MAXBYTES ((int64_t)6 << 30)	/* all live values */
#define EVAL_HEAPMIN ((int64_t)1 << 16)	/* bytes: malloc, not arena */

typedef struct Val {
	HloShape shape;		/* layout ignored */
	double *v;		/* array: n elements */
	int64_t n;
	struct Val **elem;	/* tuple: shape.ntuple values */
	int refs;		/* owners: instruction slots, tuples, views */
	int64_t heap;		/* v is malloc'd: its slot in Ev.heap + 1 */
	struct Val *base;	/* a view's (reshape's) owner of v, or NULL */
} Val;

typedef struct Ev {
	const HloModule *m;
	Arena *a;		/* values of the current run (or call) */
	char *err;
	size_t nerr;
	int failed;
	int depth;		/* nested calls, fusions, reducers */
	unsigned flags;		/* HLO_EVAL_* */
	VEC(double *) heap;	/* malloc'd value data; NULL once freed */
	int64_t live;		/* bytes of heap data alive */
	Arena *a0;		/* the run's arena (heap list) */
	const HloComp *c;	/* the computation being run */
} Ev;

/* eval.c */
void ev_fail(Ev *e, const HloInstr *in, const char *fmt, ...) PK_PRINTF(3, 4);
Val *ev_array(Ev *e, const HloInstr *in, HloType t, int rank,
    const int64_t *dim);
double ev_round(HloType t, double x);
/* Every Val an operation returns is a reference its caller owns. */
Val *ev_retain(Val *v);
void ev_release(Ev *e, Val *v);
/* A tuple of el[0..n); retain: take new references (else steal them). */
Val *ev_tuple(Ev *e, Val **el, int n, int retain);
double ev_binary(HloOp op, HloType t, double a, double b);
Val *ev_comp(Ev *e, const HloComp *c, Val **args, int nargs);

/* eval_array.c */
void ev_strides(const HloShape *s, int64_t *st);
/* Advances the row-major multi-index idx over s. */
void ev_next_index(int64_t *idx, const HloShape *s);
/*
 * acc[0..k) = f(acc..., x...) through the scalar computation f (k
 * accumulators, then k elements), in a scratch arena: 0, or -1 (failed).
 */
int ev_apply(Ev *e, const HloInstr *in, const HloComp *f, double *acc,
    const double *x, int k);
/* The reducer as one binary opcode, when it is op(p0, p1) or op(p1, p0). */
HloOp ev_simple_reducer(const HloComp *f, int *swap);
/*
 * HLO_EVAL_MXU_PRECISION on f32 operands: the bf16 parts of a and b
 * (part[0..1] hi, part[2..3] lo); returns the passes to add up (0: exact).
 */
int ev_mxu_parts(Ev *e, const HloInstr *in, Val *a, Val *b, Val **part);
/* A copy of v (tuples deep) in arena a. */
Val *ev_copy(Arena *a, const Val *v);
/* f's scalar result on 2k scalars (args[0..2k)), e.g. a comparator. */
int ev_scalar_call(Ev *e, const HloInstr *in, const HloComp *f,
    const double *args, int n, double *out);
Val *ev_broadcast(Ev *e, const HloInstr *in, Val *a);
Val *ev_transpose(Ev *e, const HloInstr *in, Val *a);
Val *ev_slice(Ev *e, const HloInstr *in, Val *a);
Val *ev_concatenate(Ev *e, const HloInstr *in, Val **ops);
Val *ev_iota(Ev *e, const HloInstr *in);
Val *ev_reduce(Ev *e, const HloInstr *in, Val **ops);
Val *ev_dot(Ev *e, const HloInstr *in, Val *a, Val *b);

/* eval_index.c */
Val *ev_pad(Ev *e, const HloInstr *in, Val *a, Val *v);
Val *ev_reverse(Ev *e, const HloInstr *in, Val *a);
Val *ev_dynamic_slice(Ev *e, const HloInstr *in, Val **ops);
Val *ev_dynamic_update_slice(Ev *e, const HloInstr *in, Val **ops);
Val *ev_gather(Ev *e, const HloInstr *in, Val *a, Val *idx);
Val *ev_scatter(Ev *e, const HloInstr *in, Val **ops);

/* eval_layout.c: 'from' is the operand's shape with its layout */
Val *ev_bitcast(Ev *e, const HloInstr *in, Val *a, const HloShape *from);

/* eval_ctrl.c */
Val *ev_sort(Ev *e, const HloInstr *in, Val **ops);
Val *ev_reduce_window(Ev *e, const HloInstr *in, Val **ops);
Val *ev_convolution(Ev *e, const HloInstr *in, Val *a, Val *b);
Val *ev_while(Ev *e, const HloInstr *in, Val *a);
Val *ev_conditional(Ev *e, const HloInstr *in, Val **ops);

#endif
