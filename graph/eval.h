/*
 * eval.h - internals shared by the reference evaluator's files: eval.c
 * (values, dispatch, elementwise arithmetic) and eval_array.c (data
 * movement, reduce, dot).  Not a public API.
 *
 * A value holds its elements as HloElem (graph.h) in row-major order,
 * already rounded to its element type: floats as doubles (f32 rounded
 * to float, bf16 to bf16), so every float operation computes in double
 * and rounds once; pred and integers as int64_t, wrapped to the type
 * (u64 as its bits), so every integer operation is exact, s64 and u64
 * included.
 */
#ifndef PALLAS_EVAL_H
#define PALLAS_EVAL_H

#include "graph/graph.h"

/*
 * Limits that turn a module too large for the host into a clean error:
 * elements per value, and bytes of values alive at once.  A value lives
 * until its last use in its computation (reference counted: tuples,
 * get-tuple-element and reshape share), so the naive attention's
 * [8,2048,2048] f32 scores (256 MiB at 8 bytes each) fit a few at a time.
 */
#define EVAL_MAXELEMS ((int64_t)1 << 28)	/* per value (2 GiB) */
#define EVAL_MAXBYTES ((int64_t)6 << 30)	/* all live values */
#define EVAL_HEAPMIN ((int64_t)1 << 16)	/* bytes: malloc, not arena */

typedef struct Val {
	HloShape shape;		/* layout ignored */
	HloElem *v;		/* array: n elements */
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
	VEC(HloElem *) heap;	/* malloc'd value data; NULL once freed */
	int64_t live;		/* bytes of heap data alive */
	Arena *a0;		/* the run's arena (heap list) */
	const HloComp *c;	/* the computation being run */
} Ev;

/* eval.c */
void ev_fail(Ev *e, const HloInstr *in, const char *fmt, ...) PK_PRINTF(3, 4);
Val *ev_array(Ev *e, const HloInstr *in, HloType t, int rank,
    const int64_t *dim);
/* x rounded to t the way the evaluator rounds a double result. */
double ev_round(HloType t, double x);
/* x (in t's member) as a double, rounded once. */
double ev_double(HloType t, HloElem x);
/* The double x as an element of t: rounded, or truncated and wrapped. */
HloElem ev_from_double(HloType t, double x);
/* x of type 'from' converted to 'to', rounding once. */
HloElem ev_convert(HloType to, HloType from, HloElem x);
/* Every Val an operation returns is a reference its caller owns. */
Val *ev_retain(Val *v);
void ev_release(Ev *e, Val *v);
/* A tuple of el[0..n); retain: take new references (else steal them). */
Val *ev_tuple(Ev *e, Val **el, int n, int retain);
HloElem ev_binary(HloOp op, HloType t, HloElem a, HloElem b);
Val *ev_comp(Ev *e, const HloComp *c, Val **args, int nargs);

/*
 * A sum of products, for dot and convolution: EV_SUM_FLOAT in double
 * (float operands and result), EV_SUM_INT modulo 2^64 (integer operands
 * and result, exact however wide), EV_SUM_MIXED in double from each
 * operand's value.
 */
enum { EV_SUM_FLOAT, EV_SUM_INT, EV_SUM_MIXED };

typedef struct EvSum {
	double f;
	uint64_t i;
} EvSum;

int ev_sum_mode(HloType a, HloType b, HloType result);
/* The sum as an element of t, rounded (or wrapped) once. */
HloElem ev_sum_result(HloType t, int mode, EvSum s);

static inline void
ev_mac(EvSum *s, int mode, const Val *a, int64_t oa, const Val *b,
    int64_t ob)
{
	if (mode == EV_SUM_FLOAT)
		s->f += a->v[oa].f * b->v[ob].f;
	else if (mode == EV_SUM_INT)
		s->i += (uint64_t)a->v[oa].i * (uint64_t)b->v[ob].i;
	else
		s->f += ev_double(a->shape.type, a->v[oa]) *
		    ev_double(b->shape.type, b->v[ob]);
}

/* eval_array.c */
void ev_strides(const HloShape *s, int64_t *st);
/* Advances the row-major multi-index idx over s. */
void ev_next_index(int64_t *idx, const HloShape *s);
/*
 * acc[0..k) = f(acc..., x...) through the scalar computation f (k
 * accumulators, then k elements, acc[j] and x[j] of type t[j]), in a
 * scratch arena: 0, or -1 (failed).
 */
int ev_apply(Ev *e, const HloInstr *in, const HloComp *f, const HloType *t,
    HloElem *acc, const HloElem *x, int k);
/* The reducer as one binary opcode, when it is op(p0, p1) or op(p1, p0). */
HloOp ev_simple_reducer(const HloComp *f, int *swap);
/*
 * HLO_EVAL_MXU_PRECISION on f32 operands: the bf16 parts of a and b
 * (part[0..1] hi, part[2..3] lo); returns the passes to add up (0: exact).
 */
int ev_mxu_parts(Ev *e, const HloInstr *in, Val *a, Val *b, Val **part);
/* A copy of v (tuples deep) in arena a. */
Val *ev_copy(Arena *a, const Val *v);
/* f's scalar result, as a rt, on n scalars (args[i] of type t[i]), e.g.
   a comparator. */
int ev_scalar_call(Ev *e, const HloInstr *in, const HloComp *f,
    const HloType *t, const HloElem *args, int n, HloType rt, HloElem *out);
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
