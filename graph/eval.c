/*
 * eval.c - the reference evaluator: runs an HLO module on host buffers,
 * instruction by instruction in text order.  It is the numerical oracle of
 * the graph path, so it is plain and deterministic: every value is rounded
 * to its element type after each operation (bf16 to nearest even),
 * integers wrap (s64 and u64 modulo 2^64, exact over their whole range:
 * values are HloElem, integers in an int64_t), integer division by zero
 * gives -1 (remainder: the dividend).  Supports pred, s8-s64, u8-u64,
 * f16, bf16, f32 and f64; anything else, and opcodes without semantics
 * here (custom-call, collectives, ...), stop the run with a message.
 * Data movement, reduce and dot: eval_array.c; indexing: eval_index.c;
 * calls and windows: eval_ctrl.c; physical layouts (bitcast):
 * eval_layout.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph/eval.h"
#include "pallas/runtime.h"

size_t
hlo_type_size(HloType t)
{
	static const unsigned char size[NHT] = {
		[HT_PRED] = 1, [HT_S8] = 1, [HT_S16] = 2, [HT_S32] = 4,
		[HT_S64] = 8, [HT_U8] = 1, [HT_U16] = 2, [HT_U32] = 4,
		[HT_U64] = 8, [HT_F16] = 2, [HT_BF16] = 2, [HT_F32] = 4,
		[HT_F64] = 8,
	};
	return t < NHT ? size[t] : 0;
}

int64_t
hlo_buf_elems(const HloBuf *b)
{
	HloShape s = hlo_shape_array(b->type, b->rank, b->dim);

	return b->rank < 0 || b->rank > HLO_MAXRANK ? -1 : hlo_shape_elems(&s);
}

HloBuf
hlo_buf_new(HloType t, int rank, const int64_t *dim)
{
	HloBuf b;
	int64_t n;

	memset(&b, 0, sizeof b);
	b.type = t;
	b.rank = rank;
	if (rank > 0)
		memcpy(b.dim, dim, (size_t)rank * sizeof *dim);
	n = hlo_buf_elems(&b);
	b.data = xcalloc(n > 0 ? (size_t)n : 1, hlo_type_size(t) ?
	    hlo_type_size(t) : 1);
	return b;
}

void
hlo_buf_free(HloBuf *b)
{
	free(b->data);
	b->data = NULL;
}

float
hlo_bf16_to_f32(uint16_t h)
{
	return pallas_bf16_to_f32(h);
}

/* bf16 rounding is the machine's, so the oracle and the simulator agree. */
uint16_t
hlo_f32_to_bf16(float f)
{
	return pallas_f32_to_bf16(f);
}

/* x rounded to f16, nearest even, in one step from double. */
static double
round_f16(double x)
{
	double q;
	int e;

	if (isnan(x) || isinf(x) || x == 0)
		return x;
	if (fabs(x) >= 65520)	/* half-way to 2^16 and above: inf */
		return x > 0 ? INFINITY : -INFINITY;
	frexp(x, &e);		/* |x| in [2^(e-1), 2^e) */
	q = ldexp(1, e - 11 < -24 ? -24 : e - 11);
	return nearbyint(x / q) * q;
}

float
hlo_f16_to_f32(uint16_t h)
{
	int e = h >> 10 & 0x1f, f = h & 0x3ff;
	double m;

	if (e == 0x1f)
		m = f ? NAN : INFINITY;
	else if (e == 0)
		m = ldexp(f, -24);
	else
		m = ldexp(f | 0x400, e - 25);
	return (float)(h & 0x8000 ? -m : m);
}

/* The bits of x, which round_f16 has rounded already (or will be). */
static uint16_t
f16_bits(double x)
{
	uint16_t s = signbit(x) ? 0x8000 : 0;
	int e;

	x = fabs(round_f16(x));
	if (isnan(x))
		return 0x7e00;
	if (isinf(x))
		return s | 0x7c00;
	if (x < ldexp(1, -14))
		return s | (uint16_t)ldexp(x, 24);
	x = frexp(x, &e);	/* [0.5, 1) */
	return s | (uint16_t)((e + 14) << 10) |
	    (uint16_t)((int)ldexp(x, 11) & 0x3ff);
}

uint16_t
hlo_f32_to_f16(float f)
{
	return f16_bits(f);
}

void
ev_fail(Ev *e, const HloInstr *in, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (e->failed)
		return;
	e->failed = 1;
	if (in)
		n = snprintf(e->err, e->nerr, "%d:%d: '%s': ", in->loc.line,
		    in->loc.col, in->name);
	if (n < 0 || (size_t)n >= e->nerr)
		return;
	va_start(ap, fmt);
	vsnprintf(e->err + n, e->nerr - (size_t)n, fmt, ap);
	va_end(ap);
}

static int
supported(HloType t)
{
	return t != HT_NONE && t != HT_TOKEN && t != HT_TUPLE;
}

/* v's data from malloc, within EVAL_MAXBYTES; NULL (failed) if not. */
static Val *
heap_data(Ev *e, const HloInstr *in, Val *v)
{
	int64_t bytes = v->n * (int64_t)sizeof(HloElem);

	if (e->live + bytes > EVAL_MAXBYTES ||
	    !(v->v = calloc((size_t)v->n, sizeof(HloElem)))) {
		ev_fail(e, in, "the evaluator's values would need more than "
		    "%lld MiB of host memory", (long long)((e->live + bytes) >>
		    20));
		return NULL;
	}
	e->live += bytes;
	vec_push(e->a0, &e->heap, v->v);
	v->heap = e->heap.n;
	return v;
}

/* A fresh array value; NULL (run failed) if too large or of a bad type. */
Val *
ev_array(Ev *e, const HloInstr *in, HloType t, int rank, const int64_t *dim)
{
	Val *v = arena_alloc(e->a, sizeof *v);

	v->shape = hlo_shape_array(t, rank, dim);
	v->n = hlo_shape_elems(&v->shape);
	if (!supported(t)) {
		ev_fail(e, in, "element type %s is not supported by the "
		    "evaluator", hlo_type_name(t));
		return NULL;
	}
	if (v->n < 0 || v->n > EVAL_MAXELEMS) {
		ev_fail(e, in, "value is too large for the evaluator (more than "
		    "%lld elements)", (long long)EVAL_MAXELEMS);
		return NULL;
	}
	v->refs = 1;
	if (v->n * (int64_t)sizeof(HloElem) < EVAL_HEAPMIN) {
		v->v = arena_alloc(e->a, (size_t)(v->n ? v->n : 1) *
		    sizeof(HloElem));
		return v;
	}
	return heap_data(e, in, v);
}

Val *
ev_retain(Val *v)
{
	if (v)
		v->refs++;
	return v;
}

void
ev_release(Ev *e, Val *v)
{
	int i;

	if (!v || --v->refs > 0)
		return;
	if (v->shape.type == HT_TUPLE)
		for (i = 0; i < v->shape.ntuple; i++)
			ev_release(e, v->elem[i]);
	if (v->base)
		ev_release(e, v->base);
	if (v->heap) {
		free(e->heap.v[v->heap - 1]);
		e->heap.v[v->heap - 1] = NULL;
		e->live -= v->n * (int64_t)sizeof(HloElem);
		v->heap = 0;
		v->v = NULL;
	}
}

Val *
ev_tuple(Ev *e, Val **el, int n, int retain)
{
	Val *r = arena_alloc(e->a, sizeof *r);
	int i;

	r->shape.type = HT_TUPLE;
	r->shape.ntuple = n;
	r->refs = 1;
	r->elem = arena_alloc(e->a, (size_t)(n ? n : 1) * sizeof *r->elem);
	for (i = 0; i < n; i++)
		r->elem[i] = retain ? ev_retain(el[i]) : el[i];
	return r;
}

/* x wrapped to the integer type t (pred: 0 or 1). */
static int64_t
wrap(HloType t, int64_t x)
{
	switch (t) {
	case HT_PRED: return x != 0;
	case HT_S8: return (int8_t)(uint8_t)x;
	case HT_S16: return (int16_t)(uint16_t)x;
	case HT_S32: return (int32_t)(uint32_t)x;
	case HT_U8: return (uint8_t)x;
	case HT_U16: return (uint16_t)x;
	case HT_U32: return (uint32_t)x;
	default: return x;	/* s64, u64: all 64 bits */
	}
}

double
ev_round(HloType t, double x)
{
	if (t == HT_F32)
		return (float)x;
	if (t == HT_BF16)
		return hlo_bf16_to_f32(hlo_f32_to_bf16((float)x));
	if (t == HT_F16)
		return round_f16(x);
	if (t == HT_PRED)
		return x != 0;
	if (hlo_type_is_int(t)) {
		if (isnan(x))
			return 0;
		if (x >= 9.2e18 || x <= -9.2e18)	/* saturate */
			x = x > 0 ? 9.2e18 : -9.2e18;
		return (double)wrap(t, (int64_t)x);
	}
	return x;
}

double
ev_double(HloType t, HloElem x)
{
	if (hlo_type_is_float(t))
		return x.f;
	return t == HT_U64 ? (double)(uint64_t)x.i : (double)x.i;
}

/*
 * s64 and u64 saturate at their limits; the narrower integers keep the
 * evaluator's old rule (saturate near 2^63, then wrap).
 */
HloElem
ev_from_double(HloType t, double x)
{
	HloElem r;

	if (hlo_type_is_float(t))
		r.f = ev_round(t, x);
	else if ((t != HT_S64 && t != HT_U64) || isnan(x))
		r.i = (int64_t)ev_round(t, x);
	else if (x < -0x1p63)
		r.i = INT64_MIN;
	else if (x < 0x1p63)
		r.i = (int64_t)x;
	else if (t == HT_S64)
		r.i = INT64_MAX;
	else
		r.i = x < 0x1p64 ? (int64_t)(uint64_t)x : -1;
	return r;
}

/* x (negative if neg) rounded to double toward odd: its top 53 bits,
   the last one set if any bit below them is, so that a second rounding
   to at most 51 bits is the one correct rounding of x. */
static double
odd_double(uint64_t x, int neg)
{
	int sh = 0;
	uint64_t m;
	double d;

	while (x >> sh >= (uint64_t)1 << 53)
		sh++;
	m = x >> sh;
	if (sh && (x & (((uint64_t)1 << sh) - 1)))
		m |= 1;
	d = ldexp((double)m, sh);
	return neg ? -d : d;
}

/* d (an odd double) rounded to float toward odd, for the same reason. */
static float
odd_float(double d)
{
	float f = (float)d;
	uint32_t bits;

	if ((double)f == d)
		return f;
	memcpy(&bits, &f, sizeof bits);
	return bits & 1 ? f : nextafterf(f, (double)f > d ? -INFINITY :
	    INFINITY);
}

/*
 * The integer x of type 'from' as the float type 'to', rounded once: f64
 * and f32 by C's conversion, which rounds from the integer itself; f16
 * and bf16 of an s64 or u64 through round-to-odd, as a double may not
 * hold it.  The narrower integers are exact in double, and round as
 * they always have (bf16 through f32).
 */
static double
int_to_float(HloType to, HloType from, int64_t x)
{
	int u = from == HT_U64, wide = from == HT_S64 || u;
	double d = u ? (double)(uint64_t)x : (double)x;

	if (to == HT_F32)
		return u ? (float)(uint64_t)x : (float)x;
	if (!wide || to == HT_F64)
		return ev_round(to, d);
	d = odd_double(u || x >= 0 ? (uint64_t)x : 0 - (uint64_t)x, !u &&
	    x < 0);
	if (to == HT_F16)
		return round_f16(d);
	return hlo_bf16_to_f32(hlo_f32_to_bf16(odd_float(d)));
}

HloElem
ev_convert(HloType to, HloType from, HloElem x)
{
	HloElem r;

	if (hlo_type_is_float(from) && hlo_type_is_float(to))
		r.f = ev_round(to, x.f);
	else if (hlo_type_is_float(from))
		r = ev_from_double(to, to == HT_PRED ? x.f : trunc(x.f));
	else if (hlo_type_is_float(to))
		r.f = int_to_float(to, from, x.i);
	else
		r.i = wrap(to, x.i);
	return r;
}

/* x as already held, re-rounded to t (constants, host buffers). */
static HloElem
fit(HloType t, HloElem x)
{
	if (hlo_type_is_float(t))
		x.f = ev_round(t, x.f);
	else
		x.i = wrap(t, x.i);
	return x;
}

/* b^x modulo 2^64; u: x is unsigned (u64). */
static int64_t
ipow(int64_t b, int64_t x, int u)
{
	uint64_t r = 1, ub = (uint64_t)b, ux = (uint64_t)x;

	if (!u && x < 0)
		return b == 1 ? 1 : b == -1 ? (x & 1 ? -1 : 1) : 0;
	for (; ux; ux >>= 1, ub *= ub)
		if (ux & 1)
			r *= ub;
	return (int64_t)r;
}

/*
 * XLA's shifts: the amount is taken as unsigned, and an amount of the bit
 * width or more gives 0 (arithmetic right shift: the sign, 0 or -1).
 */
static int64_t
shift(HloOp op, HloType t, int64_t a, int64_t b)
{
	int w = (int)hlo_type_size(t) * 8;
	uint64_t mask = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
	uint64_t ua = (uint64_t)a & mask, ub = (uint64_t)b & mask;
	int neg = t <= HT_S64 && a < 0;

	if (op == HLO_SHIFT_RIGHT_ARITHMETIC) {
		if (ub >= (uint64_t)w)
			return neg ? -1 : 0;
		return wrap(t, neg ? ~(~a >> ub) : (int64_t)(ua >> ub));
	}
	if (ub >= (uint64_t)w)
		return 0;
	return wrap(t, (int64_t)(op == HLO_SHIFT_LEFT ? ua << ub : ua >> ub));
}

/*
 * XLA's integer division: by zero -1 (remainder: the dividend); the most
 * negative s64 over -1 wraps to itself (remainder 0) instead of trapping.
 */
static int64_t
divide(HloOp op, HloType t, int64_t a, int64_t b)
{
	int rem = op == HLO_REMAINDER;

	if (b == 0)
		return rem ? a : -1;
	if (t == HT_U64)
		return (int64_t)(rem ? (uint64_t)a % (uint64_t)b :
		    (uint64_t)a / (uint64_t)b);
	if (b == -1)
		return rem ? 0 : (int64_t)(0 - (uint64_t)a);
	return rem ? a % b : a / b;
}

/* a < b in t's order (u64 unsigned). */
static int
int_less(HloType t, int64_t a, int64_t b)
{
	return t == HT_U64 ? (uint64_t)a < (uint64_t)b : a < b;
}

static int64_t
int_binary(HloOp op, HloType t, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	HloElem x = { .i = a }, y = { .i = b };

	switch (op) {
	case HLO_ADD: return (int64_t)(ua + ub);
	case HLO_SUBTRACT: return (int64_t)(ua - ub);
	case HLO_MULTIPLY: return (int64_t)(ua * ub);
	case HLO_DIVIDE: case HLO_REMAINDER: return divide(op, t, a, b);
	case HLO_MAXIMUM: return int_less(t, a, b) ? b : a;
	case HLO_MINIMUM: return int_less(t, b, a) ? b : a;
	case HLO_POWER: return ipow(a, b, t == HT_U64);
	case HLO_AND: return a & b;
	case HLO_OR: return a | b;
	case HLO_XOR: return a ^ b;
	case HLO_SHIFT_LEFT: case HLO_SHIFT_RIGHT_LOGICAL:
	case HLO_SHIFT_RIGHT_ARITHMETIC: return shift(op, t, a, b);
	default: return ev_from_double(t, atan2(ev_double(t, x),
	    ev_double(t, y))).i;
	}
}

/* XLA's maximum/minimum propagate NaN. */
HloElem
ev_binary(HloOp op, HloType t, HloElem x, HloElem y)
{
	double a = x.f, b = y.f, r;
	HloElem out;

	if (!hlo_type_is_float(t)) {
		out.i = wrap(t, int_binary(op, t, x.i, y.i));
		return out;
	}
	switch (op) {
	case HLO_ADD: r = a + b; break;
	case HLO_SUBTRACT: r = a - b; break;
	case HLO_MULTIPLY: r = a * b; break;
	case HLO_DIVIDE: r = a / b; break;
	case HLO_REMAINDER: r = fmod(a, b); break;
	case HLO_MAXIMUM: r = isnan(a) || isnan(b) ? NAN : a > b ? a : b; break;
	case HLO_MINIMUM: r = isnan(a) || isnan(b) ? NAN : a < b ? a : b; break;
	case HLO_POWER: r = pow(a, b); break;
	case HLO_ATAN2: r = atan2(a, b); break;
	default: r = NAN; break;
	}
	out.f = ev_round(t, r);
	return out;
}

static double
sign(double x)
{
	return x > 0 ? 1 : x < 0 ? -1 : x;
}

static double
float_unary(HloOp op, double x)
{
	switch (op) {
	case HLO_ABS: return fabs(x);
	case HLO_NEGATE: return -x;
	case HLO_EXP: return exp(x);
	case HLO_EXPM1: return expm1(x);
	case HLO_LOG: return log(x);
	case HLO_LOG1P: return log1p(x);
	case HLO_SQRT: return sqrt(x);
	case HLO_RSQRT: return 1 / sqrt(x);
	case HLO_TANH: return tanh(x);
	case HLO_LOGISTIC: return 1 / (1 + exp(-x));
	case HLO_ERF: return erf(x);
	case HLO_SINE: return sin(x);
	case HLO_COSINE: return cos(x);
	case HLO_FLOOR: return floor(x);
	case HLO_CEIL: return ceil(x);
	case HLO_SIGN: return sign(x);
	case HLO_ROUND_EVEN: return nearbyint(x);
	default: return x;	/* copy */
	}
}

/* abs, negate, sign, not and copy of integers and pred, modulo 2^64. */
static int64_t
int_unary(HloOp op, HloType t, int64_t x)
{
	uint64_t neg = 0 - (uint64_t)x;

	switch (op) {
	case HLO_NOT: return t == HT_PRED ? !x : wrap(t, ~x);
	case HLO_COPY: return x;
	case HLO_NEGATE: return wrap(t, (int64_t)neg);
	case HLO_ABS: return wrap(t, t != HT_U64 && x < 0 ? (int64_t)neg : x);
	default: return t == HT_U64 ? x != 0 : x > 0 ? 1 : x < 0 ? -1 : 0;
	}
}

static Val *
unary(Ev *e, const HloInstr *in, Val *a)
{
	HloType t = a->shape.type;
	Val *r = ev_array(e, in, t, a->shape.rank, a->shape.dim);
	int64_t i;
	int isf = hlo_type_is_float(t);

	if (!r)
		return NULL;
	if (!isf && in->op != HLO_ABS && in->op != HLO_NEGATE &&
	    in->op != HLO_SIGN && in->op != HLO_NOT && in->op != HLO_COPY) {
		ev_fail(e, in, "'%s' on %s is not supported", hlo_op_name(in->op),
		    hlo_type_name(t));
		return NULL;
	}
	if (isf && in->op == HLO_NOT) {
		ev_fail(e, in, "'not' needs integers or pred");
		return NULL;
	}
	for (i = 0; i < a->n; i++) {
		if (isf)
			r->v[i].f = ev_round(t, float_unary(in->op, a->v[i].f));
		else
			r->v[i].i = int_unary(in->op, t, a->v[i].i);
	}
	return r;
}

static Val *
binary(Ev *e, const HloInstr *in, Val *a, Val *b)
{
	HloType t = a->shape.type;
	Val *r = ev_array(e, in, t, a->shape.rank, a->shape.dim);
	int64_t i;

	if (!r)
		return NULL;
	if (!hlo_type_is_int(t) && (in->op == HLO_SHIFT_LEFT ||
	    in->op == HLO_SHIFT_RIGHT_LOGICAL ||
	    in->op == HLO_SHIFT_RIGHT_ARITHMETIC)) {
		ev_fail(e, in, "'%s' needs integers", hlo_op_name(in->op));
		return NULL;
	}
	if (hlo_type_is_float(t) && (in->op == HLO_AND || in->op == HLO_OR ||
	    in->op == HLO_XOR)) {
		ev_fail(e, in, "'%s' needs integers or pred", hlo_op_name(in->op));
		return NULL;
	}
	for (i = 0; i < a->n; i++)
		r->v[i] = ev_binary(in->op, t, a->v[i], b->v[i]);
	return r;
}

/* c on integers: lt and gt in the type's order. */
static int
cmp_order(HloCmp c, int eq, int lt, int gt)
{
	switch (c) {
	case CMP_EQ: return eq;
	case CMP_NE: return !eq;
	case CMP_LT: return lt;
	case CMP_LE: return !gt;
	case CMP_GT: return gt;
	default: return !lt;
	}
}

static int
cmp(HloCmp c, HloType t, HloElem x, HloElem y)
{
	double a = x.f, b = y.f;

	if (!hlo_type_is_float(t))
		return cmp_order(c, x.i == y.i, int_less(t, x.i, y.i),
		    int_less(t, y.i, x.i));
	switch (c) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return a < b;
	case CMP_LE: return a <= b;
	case CMP_GT: return a > b;
	default: return a >= b;
	}
}

static Val *
compare(Ev *e, const HloInstr *in, Val *a, Val *b)
{
	Val *r = ev_array(e, in, HT_PRED, a->shape.rank, a->shape.dim);
	int64_t i;

	for (i = 0; r && i < a->n; i++)
		r->v[i].i = cmp(in->cmp, a->shape.type, a->v[i], b->v[i]);
	return r;
}

/* select(p, x, y) and clamp(lo, x, hi); p, lo, hi may be scalars. */
static Val *
ternary(Ev *e, const HloInstr *in, Val **o)
{
	Val *x = o[1], *r;
	int64_t i;

	if (!(r = ev_array(e, in, x->shape.type, x->shape.rank, x->shape.dim)))
		return NULL;
	for (i = 0; i < x->n; i++) {
		HloElem p = o[0]->v[o[0]->n == 1 ? 0 : i];
		HloElem q = o[2]->v[o[2]->n == 1 ? 0 : i];
		if (in->op == HLO_SELECT)
			r->v[i] = p.i != 0 ? x->v[i] : q;
		else
			r->v[i] = ev_binary(HLO_MINIMUM, x->shape.type,
			    ev_binary(HLO_MAXIMUM, x->shape.type, x->v[i], p), q);
	}
	return r;
}

/* convert and is-finite: elementwise into the result's element type. */
static Val *
convert(Ev *e, const HloInstr *in, Val *a)
{
	HloType t = in->op == HLO_IS_FINITE ? HT_PRED : in->shape.type;
	Val *r = ev_array(e, in, t, a->shape.rank, a->shape.dim);
	int64_t i;

	for (i = 0; r && i < a->n; i++) {
		if (in->op == HLO_IS_FINITE)
			r->v[i].i = !hlo_type_is_float(a->shape.type) ||
			    isfinite(a->v[i].f);
		else
			r->v[i] = ev_convert(t, a->shape.type, a->v[i]);
	}
	return r;
}

/*
 * reshape is logical (row-major whatever the layouts), a view of a's
 * data; so is a bitcast whose layouts are both the default.  Other
 * bitcasts reinterpret the physical order (eval_layout.c).
 */
static Val *
reshape(Ev *e, const HloInstr *in, Val *a)
{
	const HloShape *from = &e->c->instr.v[in->operand[0]]->shape;
	Val *r;

	if (in->op == HLO_BITCAST && (!hlo_layout_is_default(&in->shape.layout,
	    in->shape.rank) || !hlo_layout_is_default(&from->layout,
	    from->rank)))
		return ev_bitcast(e, in, a, from);
	if (in->shape.type != a->shape.type) {
		ev_fail(e, in, "'%s' that changes the element type is not "
		    "supported", hlo_op_name(in->op));
		return NULL;
	}
	r = arena_alloc(e->a, sizeof *r);
	*r = *a;
	r->shape = hlo_shape_array(a->shape.type, in->shape.rank,
	    in->shape.dim);
	r->refs = 1;
	r->heap = 0;
	r->base = ev_retain(a);	/* a view of a's data */
	return r;
}

static HloElem load(HloType t, const void *p, int64_t i);
static void store(HloType t, void *p, int64_t i, HloElem x);

/*
 * bitcast-convert: the same bytes read as another type, in row-major
 * order and the host's byte order.  Between widths the narrower side
 * has one more dimension, the minor one, of the ratio (f32[2] <->
 * u8[2,4]), so the byte streams of both sides line up element by
 * element.
 */
static Val *
bitcast_convert(Ev *e, const HloInstr *in, Val *a)
{
	HloType from = a->shape.type, to = in->shape.type;
	size_t wf = hlo_type_size(from), wt = hlo_type_size(to);
	unsigned char *bytes;
	Val *r;
	int64_t i;

	if (to == HT_PRED || from == HT_PRED || wf == 0 || wt == 0) {
		ev_fail(e, in, "'bitcast-convert' from %s to %s is not "
		    "supported by the evaluator", hlo_type_name(from),
		    hlo_type_name(to));
		return NULL;
	}
	if (!(r = ev_array(e, in, to, in->shape.rank, in->shape.dim)))
		return NULL;
	if ((uint64_t)r->n * wt != (uint64_t)a->n * wf) {
		ev_fail(e, in, "'bitcast-convert' from %s to %s changes the "
		    "size in bytes", hlo_type_name(from), hlo_type_name(to));
		return NULL;
	}
	if (!(bytes = malloc((size_t)a->n * wf + 8))) {
		ev_fail(e, in, "out of memory");
		return NULL;
	}
	for (i = 0; i < a->n; i++)
		store(from, bytes, i, a->v[i]);
	for (i = 0; i < r->n; i++)
		r->v[i] = fit(to, load(to, bytes, i));
	free(bytes);
	return r;
}

static Val *
constant(Ev *e, const HloInstr *in)
{
	const HloShape *s = &in->shape;
	Val *r = ev_array(e, in, s->type, s->rank, s->dim);
	int64_t i;

	if (in->lit.elided) {
		ev_fail(e, in, "the constant's values were elided ('{...}') in "
		    "the text: it cannot be evaluated");
		return NULL;
	}
	if (r && r->n != in->lit.n) {
		ev_fail(e, in, "constant has no values");
		return NULL;
	}
	for (i = 0; r && i < r->n; i++)
		r->v[i] = fit(s->type, in->lit.v[i]);
	return r;
}

static Val *
copy_start(Ev *e, const HloInstr *in, Val *a)
{
	Val *ctx = ev_array(e, in, HT_U32, 0, NULL), *el[3];

	if (!ctx)
		return NULL;
	el[0] = ev_retain(a);
	el[1] = ev_retain(a);
	el[2] = ctx;
	return ev_tuple(e, el, 3, 0);
}

static Val *
call(Ev *e, const HloInstr *in, Val **ops)
{
	if (in->callee < 0 || in->callee >= e->m->comp.n) {
		ev_fail(e, in, "no called computation");
		return NULL;
	}
	return ev_comp(e, e->m->comp.v[in->callee], ops, in->noperand);
}

static Val *
other(Ev *e, const HloInstr *in, Val **o)
{
	switch (in->op) {
	case HLO_CONSTANT: return constant(e, in);
	case HLO_IOTA: return ev_iota(e, in);
	case HLO_COMPARE: return compare(e, in, o[0], o[1]);
	case HLO_SELECT: case HLO_CLAMP: return ternary(e, in, o);
	case HLO_CONVERT: case HLO_IS_FINITE: return convert(e, in, o[0]);
	case HLO_BROADCAST: return ev_broadcast(e, in, o[0]);
	case HLO_RESHAPE: case HLO_BITCAST: return reshape(e, in, o[0]);
	case HLO_TRANSPOSE: return ev_transpose(e, in, o[0]);
	case HLO_SLICE: return ev_slice(e, in, o[0]);
	case HLO_CONCATENATE: return ev_concatenate(e, in, o);
	case HLO_REDUCE: return ev_reduce(e, in, o);
	case HLO_DOT: return ev_dot(e, in, o[0], o[1]);
	case HLO_TUPLE: return ev_tuple(e, o, in->noperand, 1);
	case HLO_GTE: return ev_retain(o[0]->elem[in->num]);
	case HLO_FUSION: case HLO_CALL: return call(e, in, o);
	case HLO_COPY_START: return copy_start(e, in, o[0]);
	case HLO_COPY_DONE: return ev_retain(o[0]->elem[0]);
	case HLO_BITCAST_CONVERT: return bitcast_convert(e, in, o[0]);
	case HLO_PAD: return ev_pad(e, in, o[0], o[1]);
	case HLO_REVERSE: return ev_reverse(e, in, o[0]);
	case HLO_DYNAMIC_SLICE: return ev_dynamic_slice(e, in, o);
	case HLO_DYNAMIC_UPDATE_SLICE: return ev_dynamic_update_slice(e, in, o);
	case HLO_GATHER: return ev_gather(e, in, o[0], o[1]);
	case HLO_SCATTER: return ev_scatter(e, in, o);
	case HLO_SORT: return ev_sort(e, in, o);
	case HLO_REDUCE_WINDOW: return ev_reduce_window(e, in, o);
	case HLO_CONVOLUTION: return ev_convolution(e, in, o[0], o[1]);
	case HLO_WHILE: return ev_while(e, in, o[0]);
	case HLO_CONDITIONAL: return ev_conditional(e, in, o);
	case HLO_OPT_BARRIER: return ev_retain(o[0]);
	default:
		ev_fail(e, in, "'%s' is not supported by the evaluator",
		    hlo_op_name(in->op));
		return NULL;
	}
}

static Val *
instr(Ev *e, const HloInstr *in, Val **o, Val **args, int nargs)
{
	if (in->op == HLO_PARAMETER) {
		if (in->num >= nargs) {
			ev_fail(e, in, "no argument for parameter %lld",
			    (long long)in->num);
			return NULL;
		}
		return ev_retain(args[in->num]);
	}
	switch (hlo_op_class(in->op)) {
	case HC_UNARY: return unary(e, in, o[0]);
	case HC_BINARY: return binary(e, in, o[0], o[1]);
	default: return other(e, in, o);
	}
}

/* last[i]: the index of the last instruction of c that uses i (or i). */
static int *
last_uses(Ev *e, const HloComp *c)
{
	int *last = arena_alloc(e->a, (size_t)(c->instr.n ? c->instr.n : 1) *
	    sizeof *last);
	int i, j;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		last[i] = i;
		for (j = 0; j < in->noperand; j++)
			last[in->operand[j]] = i;
	}
	return last;
}

/* Drops the values whose last use was instruction i (not the root). */
static void
drop_dead(Ev *e, const HloComp *c, Val **vals, const int *last, int i)
{
	const HloInstr *in = c->instr.v[i];
	int j;

	for (j = 0; j < in->noperand; j++) {
		int k = in->operand[j];
		if (last[k] == i && k != c->root && vals[k]) {
			ev_release(e, vals[k]);
			vals[k] = NULL;
		}
	}
	if (last[i] == i && i != c->root && vals[i]) {
		ev_release(e, vals[i]);	/* never used */
		vals[i] = NULL;
	}
}

/*
 * Runs c on args; NULL once the run has failed.  Each value is released
 * after its last use, so only the live ones hold memory; the root is
 * returned as a reference the caller owns.
 */
Val *
ev_comp(Ev *e, const HloComp *c, Val **args, int nargs)
{
	Val **vals, *ops[64], **o;
	Val *r = NULL;
	int *last, i, j;

	if (++e->depth > HLO_MAXDEPTH) {
		ev_fail(e, NULL, "calls are nested too deeply");
		e->depth--;
		return NULL;
	}
	vals = arena_alloc(e->a, (size_t)c->instr.n * sizeof *vals);
	last = last_uses(e, c);
	for (i = 0; i < c->instr.n && !e->failed; i++) {
		const HloInstr *in = c->instr.v[i];
		e->c = c;	/* nested calls change it */
		o = in->noperand <= 64 ? ops :
		    arena_alloc(e->a, (size_t)in->noperand * sizeof *o);
		for (j = 0; j < in->noperand; j++)
			o[j] = vals[in->operand[j]];
		vals[i] = instr(e, in, o, args, nargs);
		if (!vals[i])
			ev_fail(e, in, "evaluation failed");
		else
			drop_dead(e, c, vals, last, i);
	}
	if (!e->failed) {
		r = vals[c->root];
		vals[c->root] = NULL;
	}
	for (i = 0; i < c->instr.n; i++)
		if (vals[i]) {
			ev_release(e, vals[i]);
			vals[i] = NULL;
		}
	e->depth--;
	return r;
}

static HloElem
load(HloType t, const void *p, int64_t i)
{
	HloElem x = { .i = 0 };

	switch (t) {
	case HT_PRED: x.i = ((const uint8_t *)p)[i] != 0; break;
	case HT_S8: x.i = ((const int8_t *)p)[i]; break;
	case HT_S16: x.i = ((const int16_t *)p)[i]; break;
	case HT_S32: x.i = ((const int32_t *)p)[i]; break;
	case HT_S64: x.i = ((const int64_t *)p)[i]; break;
	case HT_U8: x.i = ((const uint8_t *)p)[i]; break;
	case HT_U16: x.i = ((const uint16_t *)p)[i]; break;
	case HT_U32: x.i = ((const uint32_t *)p)[i]; break;
	case HT_U64: x.i = (int64_t)((const uint64_t *)p)[i]; break;
	case HT_F16: x.f = hlo_f16_to_f32(((const uint16_t *)p)[i]); break;
	case HT_BF16: x.f = hlo_bf16_to_f32(((const uint16_t *)p)[i]); break;
	case HT_F32: x.f = ((const float *)p)[i]; break;
	default: x.f = ((const double *)p)[i]; break;
	}
	return x;
}

static void
store(HloType t, void *p, int64_t i, HloElem x)
{
	switch (t) {
	case HT_PRED: ((uint8_t *)p)[i] = x.i != 0; break;
	case HT_S8: ((int8_t *)p)[i] = (int8_t)x.i; break;
	case HT_S16: ((int16_t *)p)[i] = (int16_t)x.i; break;
	case HT_S32: ((int32_t *)p)[i] = (int32_t)x.i; break;
	case HT_S64: ((int64_t *)p)[i] = x.i; break;
	case HT_U8: ((uint8_t *)p)[i] = (uint8_t)x.i; break;
	case HT_U16: ((uint16_t *)p)[i] = (uint16_t)x.i; break;
	case HT_U32: ((uint32_t *)p)[i] = (uint32_t)x.i; break;
	case HT_U64: ((uint64_t *)p)[i] = (uint64_t)x.i; break;
	case HT_F16: ((uint16_t *)p)[i] = f16_bits(x.f); break;
	case HT_BF16: ((uint16_t *)p)[i] = hlo_f32_to_bf16((float)x.f); break;
	case HT_F32: ((float *)p)[i] = (float)x.f; break;
	default: ((double *)p)[i] = x.f; break;
	}
}

/* Argument n as a value, checked against the entry parameter's shape. */
static Val *
arg_value(Ev *e, const HloComp *entry, const HloBuf *b, int n)
{
	const HloInstr *p = hlo_param(entry, n);
	HloShape s;
	Val *v;
	int64_t i;

	if (b->rank < 0 || b->rank > HLO_MAXRANK || !b->data) {
		ev_fail(e, p, "argument %d is not a valid buffer", n);
		return NULL;
	}
	s = hlo_shape_array(b->type, b->rank, b->dim);
	if (!p || !hlo_shape_same(&s, &p->shape)) {
		ev_fail(e, p, "argument %d does not match parameter %d", n, n);
		return NULL;
	}
	if (!(v = ev_array(e, p, b->type, b->rank, b->dim)))
		return NULL;
	for (i = 0; i < v->n; i++)
		v->v[i] = fit(b->type, load(b->type, b->data, i));
	return v;
}

/* Appends the array leaves of v to res[*n..maxres). */
static int
flatten(Ev *e, const Val *v, HloBuf *res, int *n, int maxres)
{
	int i;
	int64_t k;

	if (v->shape.type == HT_TUPLE) {
		for (i = 0; i < v->shape.ntuple; i++)
			if (flatten(e, v->elem[i], res, n, maxres) != 0)
				return -1;
		return 0;
	}
	if (*n >= maxres) {
		ev_fail(e, NULL, "the result has more than %d arrays", maxres);
		return -1;
	}
	res[*n] = hlo_buf_new(v->shape.type, v->shape.rank, v->shape.dim);
	for (k = 0; k < v->n; k++)
		store(v->shape.type, res[*n].data, k, v->v[k]);
	++*n;
	return 0;
}

int
hlo_eval(const HloModule *m, const HloBuf *args, int nargs, HloBuf *res,
    int maxres, char *err, size_t nerr)
{
	return hlo_eval_ex(m, args, nargs, res, maxres, 0, err, nerr);
}

int
hlo_eval_ex(const HloModule *m, const HloBuf *args, int nargs,
    HloBuf *res, int maxres, unsigned flags, char *err, size_t nerr)
{
	Arena a = {0};
	char dummy[1];
	Ev e = { m, &a, err && nerr ? err : dummy, err && nerr ? nerr :
	    sizeof dummy, 0, 0, flags, { NULL, 0, 0 }, 0, &a, NULL };
	const HloComp *entry = hlo_entry(m);
	Val **av = NULL, *r = NULL;
	int i, n = 0;

	e.err[0] = 0;
	if (!entry || entry->root < 0)
		ev_fail(&e, NULL, "the module has no entry computation");
	else if (nargs != entry->nparam)
		ev_fail(&e, NULL, "%d arguments given, the entry computation "
		    "takes %d", nargs, entry->nparam);
	else
		av = arena_alloc(&a, (size_t)(nargs + 1) * sizeof *av);
	for (i = 0; av && i < nargs && !e.failed; i++)
		av[i] = arg_value(&e, entry, &args[i], i);
	if (!e.failed)
		r = ev_comp(&e, entry, av, nargs);
	if (r && flatten(&e, r, res, &n, maxres) != 0)
		while (n > 0)
			hlo_buf_free(&res[--n]);
	for (i = 0; i < e.heap.n; i++)
		free(e.heap.v[i]);
	arena_free(&a);
	return e.failed ? -1 : n;
}
