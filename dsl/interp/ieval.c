/*
 * ieval.c - evaluation of checked expressions on host values: leaves and
 * loads, elementwise operations with the machine's arithmetic, casts,
 * reductions and softmax; structural operations are in ishape.c and dot
 * in idot.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/iint.h"

#define POISON_BITS 0x7fd0dead	/* a quiet NaN; bf16 keeps 0x7fd0 */

void
ival_new(Run *r, Val *v, DType t, const Shape *s)
{
	v->t = t;
	v->s = *s;
	v->n = shape_numel(s);
	v->e = arena_alloc(r->a, (size_t)(v->n ? v->n : 1) * sizeof(Elt));
}

float
ival_round(DType t, float f)
{
	return t == DT_BF16 ? interp_bf16_f32(interp_bf16(f)) : f;
}

Elt
ival_poison(DType t)
{
	Elt e;
	uint32_t u = POISON_BITS;

	if (dtype_is_float(t)) {
		memcpy(&e.f, &u, 4);
		e.f = ival_round(t, e.f);
	} else
		e.i = t == DT_BOOL ? 0 : INT32_MIN;
	return e;
}

int
ival_is_poison(DType t, Elt e)
{
	uint32_t u;

	if (!dtype_is_float(t))
		return 0;
	memcpy(&u, &e.f, 4);
	return (u >> 16) == (POISON_BITS >> 16);
}

/* Wraps an integer result to dtype t (i8 or i32; bool untouched). */
static int32_t
wrap(DType t, int64_t v)
{
	if (t == DT_I8)
		return (int32_t)(int8_t)(uint8_t)((uint64_t)v & 0xff);
	if (t == DT_BOOL)
		return v != 0;
	return (int32_t)(uint32_t)((uint64_t)v & 0xffffffffu);
}

/* f32 max/min propagate NaN; max(-0, +0) = +0. */
static float
fmax_nan(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static float
fmin_nan(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float
fbin(CxOp op, float a, float b)
{
	switch (op) {
	case CX_ADD: return a + b;
	case CX_SUB: return a - b;
	case CX_MUL: return a * b;
	case CX_DIV: return a / b;
	case CX_MOD: return fmodf(a, b);
	case CX_MAX: return fmax_nan(a, b);
	case CX_MIN: return fmin_nan(a, b);
	default: bug("float op %s", cx_op_name(op));
	}
}

static int
fcmp(CxOp op, float a, float b)
{
	switch (op) {
	case CX_LT: return a < b;
	case CX_LE: return a <= b;
	case CX_GT: return a > b;
	case CX_GE: return a >= b;
	case CX_EQ: return a == b;
	case CX_NE: return a != b;
	default: bug("compare op %s", cx_op_name(op));
	}
}

/* Integer (and bool) binary op; *err set on division by zero. */
static int64_t
ibin(CxOp op, int64_t a, int64_t b, int *err)
{
	switch (op) {
	case CX_ADD: return a + b;
	case CX_SUB: return a - b;
	case CX_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
	case CX_DIV: case CX_MOD:
		if (b == 0) {
			*err = 1;
			return 0;
		}
		return op == CX_DIV ? a / b : a % b;
	case CX_MAX: return a > b ? a : b;
	case CX_MIN: return a < b ? a : b;
	case CX_SHL: return (int64_t)((uint64_t)a << (b & 31));
	case CX_SHR: return a >> (b & 31);
	case CX_BITAND: case CX_AND: return a & b;
	case CX_BITOR: case CX_OR: return a | b;
	case CX_BITXOR: return a ^ b;
	case CX_LT: return a < b;
	case CX_LE: return a <= b;
	case CX_GT: return a > b;
	case CX_GE: return a >= b;
	case CX_EQ: return a == b;
	case CX_NE: return a != b;
	default: bug("integer op %s", cx_op_name(op));
	}
}

static int
is_compare(CxOp op)
{
	return op >= CX_LT && op <= CX_NE;
}

int
ival_binary(Run *r, CxOp op, Loc loc, const Val *a, const Val *b,
    Val *out, DType t)
{
	int64_t k;
	int err = 0;

	ival_new(r, out, t, &a->s);
	for (k = 0; k < a->n; k++) {
		if (dtype_is_float(a->t)) {
			if (is_compare(op))
				out->e[k].i = fcmp(op, a->e[k].f, b->e[k].f);
			else
				out->e[k].f = ival_round(t,
				    fbin(op, a->e[k].f, b->e[k].f));
		} else
			out->e[k].i = wrap(t, ibin(op, a->e[k].i, b->e[k].i,
			    &err));
		if (err) {
			diag_error(r->d, loc, "integer division by zero");
			interp_note_point(r);
			return -1;
		}
	}
	return 0;
}

/* Float to integer: truncate, saturate, NaN -> 0. */
static int32_t
f2i(float f, DType t)
{
	double lo = t == DT_I8 ? -128 : INT32_MIN;
	double hi = t == DT_I8 ? 127 : INT32_MAX;

	if (isnan(f))
		return 0;
	if (f <= lo)
		return (int32_t)lo;
	if (f >= hi)
		return (int32_t)hi;
	return (int32_t)f;
}

static Elt
cast1(Elt x, DType from, DType to)
{
	Elt e;

	if (dtype_is_float(from) && dtype_is_float(to))
		e.f = ival_round(to, x.f);
	else if (dtype_is_float(from))
		e.i = to == DT_BOOL ? x.f != 0 : f2i(x.f, to);
	else if (dtype_is_float(to))
		e.f = ival_round(to, (float)x.i);
	else if (to == DT_BOOL)
		e.i = x.i != 0;
	else if (to == DT_I8)
		e.i = x.i < -128 ? -128 : x.i > 127 ? 127 : x.i;
	else
		e.i = x.i;
	return e;
}

static Elt
unary1(CxOp op, DType t, Elt x)
{
	Elt e;

	if (!dtype_is_float(t)) {
		switch (op) {
		case CX_NEG: e.i = wrap(t, -(int64_t)x.i); break;
		case CX_NOT: e.i = !x.i; break;
		case CX_BITNOT:
			e.i = t == DT_BOOL ? !x.i : wrap(t, ~x.i);
			break;
		case CX_ABS:
			e.i = wrap(t, x.i < 0 ? -(int64_t)x.i : x.i);
			break;
		default: bug("integer unary %s", cx_op_name(op));
		}
		return e;
	}
	switch (op) {
	case CX_NEG: e.f = -x.f; break;
	case CX_EXP: e.f = expf(x.f); break;
	case CX_LOG: e.f = logf(x.f); break;
	case CX_SQRT: e.f = sqrtf(x.f); break;
	case CX_RSQRT: e.f = 1.0f / sqrtf(x.f); break;
	case CX_TANH: e.f = tanhf(x.f); break;
	case CX_ABS: e.f = fabsf(x.f); break;
	default: bug("float unary %s", cx_op_name(op));
	}
	e.f = ival_round(t, e.f);
	return e;
}

/* sum, max, min, mean over one axis; the layout ignores keepdims. */
static void
reduce(const CExpr *e, const Val *a, Val *out)
{
	int ax = e->u.red.axis, d;
	int64_t outer = 1, inner = 1, len = a->s.d[ax], o, i, c;

	for (d = 0; d < ax; d++)
		outer *= a->s.d[d];
	for (d = ax + 1; d < a->s.rank; d++)
		inner *= a->s.d[d];
	for (o = 0; o < outer; o++)
		for (i = 0; i < inner; i++) {
			const Elt *p = a->e + o * len * inner + i;
			Elt acc = p[0];
			int fl = dtype_is_float(a->t);
			for (c = 1; c < len; c++) {
				Elt x = p[c * inner];
				if (e->op == CX_SUM || e->op == CX_MEAN) {
					if (fl)
						acc.f += x.f;
					else
						acc.i = wrap(a->t,
						    (int64_t)acc.i + x.i);
				} else if (fl)
					acc.f = e->op == CX_RMAX ?
					    fmax_nan(acc.f, x.f) :
					    fmin_nan(acc.f, x.f);
				else if (e->op == CX_RMAX ? x.i > acc.i :
				    x.i < acc.i)
					acc = x;
			}
			if (e->op == CX_MEAN) {
				if (fl)
					acc.f /= (float)len;
				else
					acc.i = (int32_t)(acc.i / len);
			}
			if (fl)
				acc.f = ival_round(e->dtype, acc.f);
			out->e[o * inner + i] = acc;
		}
}

/* softmax along one axis, in f32: exp(x - max) / sum. */
static void
softmax(const CExpr *e, const Val *a, Val *out)
{
	int ax = e->u.red.axis, d;
	int64_t outer = 1, inner = 1, len = a->s.d[ax], o, i, c;

	for (d = 0; d < ax; d++)
		outer *= a->s.d[d];
	for (d = ax + 1; d < a->s.rank; d++)
		inner *= a->s.d[d];
	for (o = 0; o < outer; o++)
		for (i = 0; i < inner; i++) {
			int64_t base = o * len * inner + i;
			float m = a->e[base].f, s = 0;
			for (c = 1; c < len; c++)
				m = fmax_nan(m, a->e[base + c * inner].f);
			for (c = 0; c < len; c++) {
				float x = expf(a->e[base + c * inner].f - m);
				out->e[base + c * inner].f = x;
				s += x;
			}
			for (c = 0; c < len; c++) {
				Elt *x = &out->e[base + c * inner];
				x->f = ival_round(e->dtype, x->f / s);
			}
		}
}

static int
eval_const(Run *r, const CExpr *e, Val *v)
{
	Elt c;
	int64_t k;

	ival_new(r, v, e->dtype, &e->shape);
	if (dtype_is_float(e->dtype))
		c.f = ival_round(e->dtype, (float)e->u.cst.f);
	else
		c.i = wrap(e->dtype, e->u.cst.i);
	for (k = 0; k < v->n; k++)
		v->e[k] = c;
	return 0;
}

static int
scalar_i(Run *r, const CExpr *e, int64_t x, Val *v)
{
	ival_new(r, v, e->dtype, &e->shape);
	v->e[0].i = (int32_t)x;
	return 0;
}

/* A load: the slice of the memory the Ref names, all of it written. */
static int
eval_load(Run *r, const CExpr *e, Val *v)
{
	const Mem *m = e->u.load.ref.kind == CREF_OPERAND ?
	    &r->op[e->u.load.ref.index] : &r->scr[e->u.load.ref.index];
	int64_t off[SEMA_MAXRANK], sz[SEMA_MAXRANK], bad;

	if (!m->e)
		bug("load of '%s', which has no memory", m->name);
	if (ishape_resolve(r, &e->u.load.sl, &m->s, e->loc, m->name, off, sz))
		return -1;
	if (m->init && (bad = ishape_uninit(m->init, &m->s, off, sz)) >= 0) {
		diag_error(r->d, e->loc, "read of '%s' before it was written "
		    "(element %lld is uninitialised)", m->name,
		    (long long)bad);
		diag_note(r->d, m->loc, "'%s' declared here", m->name);
		interp_note_point(r);
		return -1;
	}
	ival_new(r, v, e->dtype, &e->shape);
	ishape_gather(m->e, &m->s, off, sz, v->e);
	return 0;
}

static int
eval_slice(Run *r, const CExpr *e, const Val *a, Val *v)
{
	int64_t off[SEMA_MAXRANK], sz[SEMA_MAXRANK];

	if (ishape_resolve(r, &e->u.sl, &a->s, e->loc, "value", off, sz))
		return -1;
	ival_new(r, v, e->dtype, &e->shape);
	ishape_gather(a->e, &a->s, off, sz, v->e);
	return 0;
}

/* Everything with evaluated operands a[0 .. e->n). */
static int
eval_op(Run *r, const CExpr *e, Val *a, Val *v)
{
	int64_t k;

	switch (e->op) {
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_EXP: case CX_LOG:
	case CX_SQRT: case CX_RSQRT: case CX_TANH: case CX_ABS:
		ival_new(r, v, e->dtype, &e->shape);
		for (k = 0; k < v->n; k++)
			v->e[k] = unary1(e->op, e->dtype, a[0].e[k]);
		return 0;
	case CX_CAST:
		ival_new(r, v, e->dtype, &e->shape);
		for (k = 0; k < v->n; k++)
			v->e[k] = cast1(a[0].e[k], a[0].t, e->dtype);
		return 0;
	case CX_WHERE:
		ival_new(r, v, e->dtype, &e->shape);
		for (k = 0; k < v->n; k++)
			v->e[k] = a[0].e[k].i ? a[1].e[k] : a[2].e[k];
		return 0;
	case CX_SELECT:
		*v = a[0].e[0].i ? a[1] : a[2];
		return 0;
	case CX_BROADCAST:
		ival_new(r, v, e->dtype, &e->shape);
		ishape_broadcast(&a[0], v);
		return 0;
	case CX_RESHAPE:
		*v = a[0];
		v->s = e->shape;
		return 0;
	case CX_TRANSPOSE:
		ival_new(r, v, e->dtype, &e->shape);
		ishape_transpose(&a[0], v);
		return 0;
	case CX_ROLL:
		ival_new(r, v, e->dtype, &e->shape);
		ishape_roll(&a[0], e->u.axis, a[1].e[0].i, v);
		return 0;
	case CX_SLICE:
		return eval_slice(r, e, &a[0], v);
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		ival_new(r, v, e->dtype, &e->shape);
		reduce(e, &a[0], v);
		return 0;
	case CX_SOFTMAX:
		ival_new(r, v, e->dtype, &e->shape);
		softmax(e, &a[0], v);
		return 0;
	case CX_DOT:
		idot(r, e, &a[0], &a[1], v);
		return 0;
	default:
		if (e->op >= CX_ADD && e->op <= CX_NE && e->n == 2)
			return ival_binary(r, e->op, e->loc, &a[0], &a[1], v,
			    e->dtype);
		bug("cannot evaluate %s", cx_op_name(e->op));
	}
}

/* A func's call of a kernel: its arguments, then the run. */
static int
eval_call(Run *r, const CExpr *e, Val *v)
{
	Val *a = arena_alloc(r->a, (size_t)(e->n ? e->n : 1) * sizeof(Val));
	int i;

	for (i = 0; i < e->n; i++)
		if (ieval(r, e->arg[i], &a[i]))
			return -1;
	return ifunc_call(r, e, a, v);
}

/* The value of e computed earlier in this run (funcs share nodes). */
static Val *
memo_find(Run *r, const CExpr *e, int add)
{
	Memo *m = r->memo;
	size_t i, j;

	if (add && (m->n + 1) * 2 > m->cap) {
		Memo old = *m;
		m->cap = m->cap ? m->cap * 2 : 64;
		m->key = xcalloc(m->cap, sizeof(*m->key));
		m->val = xcalloc(m->cap, sizeof(*m->val));
		m->n = 0;
		for (j = 0; j < old.cap; j++)
			if (old.key[j])
				*memo_find(r, old.key[j], 1) = old.val[j];
		free(old.key);
		free(old.val);
	}
	if (!m->cap)
		return NULL;
	i = ((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15ull & (m->cap - 1);
	while (m->key[i] && m->key[i] != e)
		i = (i + 1) & (m->cap - 1);
	if (m->key[i] || !add)
		return m->key[i] ? &m->val[i] : NULL;
	m->key[i] = e;
	m->n++;
	return &m->val[i];
}

static int ieval_(Run *r, const CExpr *e, Val *v);

int
ieval(Run *r, const CExpr *e, Val *v)
{
	Val *m;

	if (!r->memo)
		return ieval_(r, e, v);
	if ((m = memo_find(r, e, 0))) {
		*v = *m;
		return 0;
	}
	if (ieval_(r, e, v))
		return -1;
	*memo_find(r, e, 1) = *v;
	return 0;
}

static int
ieval_(Run *r, const CExpr *e, Val *v)
{
	Val a[3];
	int i;

	switch (e->op) {
	case CX_CONST:
		return eval_const(r, e, v);
	case CX_AXIS:
		return scalar_i(r, e, r->pt[e->u.axis], v);
	case CX_NPROG:
		return scalar_i(r, e, r->k->axis[e->u.axis].extent, v);
	case CX_SLOT: case CX_PARAM:
		*v = r->slot[e->u.slot];
		return 0;
	case CX_LOAD:
		return eval_load(r, e, v);
	case CX_IOTA:
		ival_new(r, v, e->dtype, &e->shape);
		ishape_iota(v, e->u.axis);
		return 0;
	default:
		break;
	}
	if (e->op == CX_CALL)
		return eval_call(r, e, v);
	if (e->n > 3)
		bug("%s with %d operands", cx_op_name(e->op), e->n);
	for (i = 0; i < e->n; i++)
		if (ieval(r, e->arg[i], &a[i]))
			return -1;
	return eval_op(r, e, a, v);
}
