/*
 * lower_ops.c - one checked func expression into HLO instructions, with
 * jax's lowering rules: elementwise ops one to one; NumPy broadcasts as
 * reshape (dropping stretched size-1 dimensions) then broadcast; keepdims
 * as a reshape; mean as reduce-add divided by a broadcast constant;
 * softmax expanded as jax.nn.softmax (reduce-max, subtract, exponential,
 * reduce-add, divide; bf16 computed in f32); '@' and dot() as dot with
 * dimension numbers (leading dimensions are batch dimensions); roll as
 * two slices and a concatenate; a kernel call as a custom-call.  Each
 * instruction's metadata names jax's primitive ("dot_general",
 * "reduce_sum", "broadcast_in_dim"...).
 *
 * Gives:    lw_expr() (lower_int.h).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "graph/lower_int.h"

static const struct {
	CxOp op;
	HloOp hlo;
	const char *prim;
	HloCmp cmp;
} ew[] = {
	{ CX_NEG, HLO_NEGATE, "neg", 0 },	{ CX_NOT, HLO_NOT, "not", 0 },
	{ CX_BITNOT, HLO_NOT, "not", 0 },	{ CX_EXP, HLO_EXP, "exp", 0 },
	{ CX_LOG, HLO_LOG, "log", 0 },		{ CX_SQRT, HLO_SQRT, "sqrt", 0 },
	{ CX_RSQRT, HLO_RSQRT, "rsqrt", 0 },	{ CX_TANH, HLO_TANH, "tanh", 0 },
	{ CX_ABS, HLO_ABS, "abs", 0 },		{ CX_ADD, HLO_ADD, "add", 0 },
	{ CX_SUB, HLO_SUBTRACT, "sub", 0 },	{ CX_MUL, HLO_MULTIPLY, "mul", 0 },
	{ CX_DIV, HLO_DIVIDE, "div", 0 },	{ CX_MOD, HLO_REMAINDER, "rem", 0 },
	{ CX_MAX, HLO_MAXIMUM, "max", 0 },	{ CX_MIN, HLO_MINIMUM, "min", 0 },
	{ CX_BITAND, HLO_AND, "and", 0 },	{ CX_AND, HLO_AND, "and", 0 },
	{ CX_BITOR, HLO_OR, "or", 0 },		{ CX_OR, HLO_OR, "or", 0 },
	{ CX_BITXOR, HLO_XOR, "xor", 0 },
	{ CX_LT, HLO_COMPARE, "lt", CMP_LT },	{ CX_LE, HLO_COMPARE, "le", CMP_LE },
	{ CX_GT, HLO_COMPARE, "gt", CMP_GT },	{ CX_GE, HLO_COMPARE, "ge", CMP_GE },
	{ CX_EQ, HLO_COMPARE, "eq", CMP_EQ },	{ CX_NE, HLO_COMPARE, "ne", CMP_NE },
};

static HloType
htype(DType t)
{
	return hlo_type_of_dtype(t);
}

/* The identity of maximum (lowest value) or minimum (highest) for t. */
static double
extreme(HloType t, int lowest)
{
	switch (t) {
	case HT_S32: return lowest ? INT32_MIN : INT32_MAX;
	case HT_S8: return lowest ? -128 : 127;
	case HT_PRED: return lowest ? 0 : 1;
	default: return lowest ? -INFINITY : INFINITY;
	}
}

static int
constant(Lw *L, const CExpr *e)
{
	HloType t = htype(e->dtype);
	double v;
	int c;

	if (dtype_is_float(e->dtype))
		v = e->u.cst.f;
	else if (e->dtype == DT_BOOL)
		v = e->u.cst.i != 0;
	else if (e->dtype == DT_I8)
		v = (int8_t)(uint8_t)((uint64_t)e->u.cst.i & 0xff);
	else
		v = (int32_t)(uint32_t)((uint64_t)e->u.cst.i & 0xffffffffu);
	c = lw_const(L, t, v);
	if (e->shape.rank == 0)
		return c;
	return lw_broadcast(L, c, lw_shape_of(e), NULL, "broadcast_in_dim");
}

/* NumPy broadcast of x (e->arg[0]'s value) to e's shape. */
static int
broadcast(Lw *L, const CExpr *e, int x)
{
	const Shape *as = &e->arg[0]->shape, *s = &e->shape;
	int64_t keep[SEMA_MAXRANK], kd[SEMA_MAXRANK];
	int lead = s->rank - as->rank, i, n = 0;

	if (shape_eq(as, s))
		return x;
	for (i = 0; i < as->rank; i++)
		if (as->d[i] == s->d[lead + i]) {
			kd[n] = as->d[i];
			keep[n++] = lead + i;
		}
	if (n < as->rank)
		x = lw_reshape(L, x, lw_shape(htype(e->dtype), n, kd),
		    "broadcast_in_dim");
	return lw_broadcast(L, x, lw_shape_of(e), keep, "broadcast_in_dim");
}

static int
transpose(Lw *L, const CExpr *e, int x)
{
	int64_t p[SEMA_MAXRANK];
	int r = e->shape.rank, i, t;

	for (i = 0; i < r; i++)
		p[i] = i;
	p[r - 1] = r - 2;
	p[r - 2] = r - 1;
	t = lw_emit(L, HLO_TRANSPOSE, lw_shape_of(e), &x, 1, "transpose");
	lw_in(L, t)->dims = lw_ints(L, p, r);
	return t;
}

/* x[lo:hi] on every dimension, stride 1. */
static int
slice(Lw *L, int x, const int64_t *lo, const int64_t *hi, const char *prim)
{
	HloShape xs = lw_sh(L, x);
	int64_t d[HLO_MAXRANK], one[HLO_MAXRANK];
	HloInstr *in;
	int i, r;

	for (i = 0; i < xs.rank; i++) {
		d[i] = hi[i] - lo[i];
		one[i] = 1;
	}
	r = lw_emit(L, HLO_SLICE, lw_shape(xs.type, xs.rank, d), &x, 1, prim);
	in = lw_in(L, r);
	in->slo = lw_ints(L, lo, xs.rank);
	in->shi = lw_ints(L, hi, xs.rank);
	in->sst = lw_ints(L, one, xs.rank);
	return r;
}

/* A value's static slice; squeezed dimensions go with a reshape. */
static int
value_slice(Lw *L, const CExpr *e)
{
	const CSlice *sl = &e->u.sl;
	const Shape *as = &e->arg[0]->shape;
	int64_t lo[SEMA_MAXRANK], hi[SEMA_MAXRANK];
	int i, x, whole = 1;

	for (i = 0; i < sl->n; i++)
		if (sl->dim[i].dyn)
			return lw_unsupported(L, "a slice with a start known "
			    "only at run time");
	if ((x = lw_expr(L, e->arg[0])) < 0)
		return -1;
	for (i = 0; i < sl->n; i++) {
		lo[i] = sl->dim[i].start;
		hi[i] = lo[i] + sl->dim[i].size;
		whole &= lo[i] == 0 && hi[i] == as->d[i];
	}
	if (!whole)
		x = slice(L, x, lo, hi, "slice");
	return lw_reshape(L, x, lw_shape_of(e), "squeeze");
}

/* jnp.roll with a constant shift: two slices and a concatenate. */
static int
roll(Lw *L, const CExpr *e)
{
	const CExpr *by = e->arg[1];
	int ax = e->u.axis, x, ops[2], r, i;
	int64_t len = e->shape.d[ax], s, lo[SEMA_MAXRANK], hi[SEMA_MAXRANK],
	    dim = ax;

	if (by->op != CX_CONST)
		return lw_unsupported(L, "a roll by a shift known only at run "
		    "time");
	if ((x = lw_expr(L, e->arg[0])) < 0)
		return -1;
	s = len ? (by->u.cst.i % len + len) % len : 0;
	if (s == 0)
		return x;
	for (i = 0; i < e->shape.rank; i++) {
		lo[i] = 0;
		hi[i] = e->shape.d[i];
	}
	lo[ax] = len - s;
	ops[0] = slice(L, x, lo, hi, "slice");
	lo[ax] = 0;
	hi[ax] = len - s;
	ops[1] = slice(L, x, lo, hi, "slice");
	r = lw_emit(L, HLO_CONCATENATE, lw_shape_of(e), ops, 2, "concatenate");
	lw_in(L, r)->dims = lw_ints(L, &dim, 1);
	return r;
}

/* sum, max, min, mean over one axis (bf16 sums in f32), keepdims. */
static int
reduction(Lw *L, const CExpr *e, int x)
{
	HloType t = htype(e->dtype);
	int ax = e->u.red.axis, sum = e->op == CX_SUM || e->op == CX_MEAN;
	int wide = t == HT_BF16 && sum, ops[2], r;
	HloType tt = wide ? HT_F32 : t;
	HloShape rs;

	if (wide)
		x = lw_convert(L, x, HT_F32, "convert_element_type");
	if (sum)
		r = lw_reduce(L, x, ax, HLO_ADD, 0, "reduce_sum");
	else
		r = lw_reduce(L, x, ax, e->op == CX_RMAX ? HLO_MAXIMUM :
		    HLO_MINIMUM, extreme(tt, e->op == CX_RMAX),
		    e->op == CX_RMAX ? "reduce_max" : "reduce_min");
	if (e->op == CX_MEAN) {
		rs = lw_sh(L, r);
		ops[0] = r;
		ops[1] = lw_const(L, tt, (double)e->arg[0]->shape.d[ax]);
		if (rs.rank)
			ops[1] = lw_broadcast(L, ops[1], rs, NULL,
			    "broadcast_in_dim");
		r = lw_emit(L, HLO_DIVIDE, rs, ops, 2, "div");
	}
	if (wide)
		r = lw_convert(L, r, t, "convert_element_type");
	return lw_reshape(L, r, lw_shape_of(e), "broadcast_in_dim");
}

/* jax.nn.softmax: exp(x - max) / sum, along one axis, in f32. */
static int
softmax(Lw *L, const CExpr *e, int x)
{
	HloType t = htype(e->dtype);
	HloShape s = lw_shape(HT_F32, e->shape.rank, e->shape.d);
	int64_t dims[SEMA_MAXRANK];
	int ax = e->u.red.axis, i, n = 0, ops[2], ex;

	for (i = 0; i < e->shape.rank; i++)
		if (i != ax)
			dims[n++] = i;
	x = lw_convert(L, x, HT_F32, "convert_element_type");
	ops[0] = x;
	ops[1] = lw_reduce(L, x, ax, HLO_MAXIMUM, -INFINITY, "reduce_max");
	ops[1] = lw_broadcast(L, ops[1], s, dims, "broadcast_in_dim");
	ops[0] = lw_emit(L, HLO_SUBTRACT, s, ops, 2, "sub");
	ex = lw_emit(L, HLO_EXP, s, ops, 1, "exp");
	ops[0] = ex;
	ops[1] = lw_reduce(L, ex, ax, HLO_ADD, 0, "reduce_sum");
	ops[1] = lw_broadcast(L, ops[1], s, dims, "broadcast_in_dim");
	x = lw_emit(L, HLO_DIVIDE, s, ops, 2, "div");
	return lw_convert(L, x, t, "convert_element_type");
}

/* dot_general: leading dimensions batch, contracting per trans_a/b. */
static int
dot(Lw *L, const CExpr *e, const int *ops)
{
	int64_t bd[SEMA_MAXRANK], lc, rc;
	int r = e->shape.rank, i, x;
	HloInstr *in;

	for (i = 0; i < r - 2; i++)
		bd[i] = i;
	lc = e->u.dot.trans_a ? r - 2 : r - 1;
	rc = e->u.dot.trans_b ? r - 1 : r - 2;
	x = lw_emit(L, HLO_DOT, lw_shape_of(e), ops, 2, "dot_general");
	in = lw_in(L, x);
	in->dot[DOT_LHS_BATCH] = lw_ints(L, bd, r - 2);
	in->dot[DOT_RHS_BATCH] = lw_ints(L, bd, r - 2);
	in->dot[DOT_LHS_BATCH].has = in->dot[DOT_RHS_BATCH].has = r > 2;
	in->dot[DOT_LHS_CONTRACT] = lw_ints(L, &lc, 1);
	in->dot[DOT_RHS_CONTRACT] = lw_ints(L, &rc, 1);
	if (e->arg[0]->dtype == DT_F32 && e->u.dot.prec != MACH_PREC_DEFAULT) {
		HloAttr at;
		at.name = strtab_intern(L->s, "operand_precision", 17);
		at.value = e->u.dot.prec == MACH_PREC_HIGH ? "{high,high}" :
		    "{highest,highest}";
		vec_push(L->m->arena, &in->attrs, at);
	}
	return x;
}

const char *
hlo_kernel_config(Arena *a, const CKernel *k)
{
	Buf b = {0}, inst = {0};
	const char *r;
	int i;

	buf_puts(&inst, k->name);
	for (i = 0; i < k->nparam; i++) {
		buf_puts(&inst, i ? ", " : "<");
		sema_param_print(&inst, k, i);
	}
	buf_puts(&inst, k->nparam ? ">" : "");
	buf_puts(&b, "{\"kernel\": ");
	buf_json_str(&b, k->name);
	buf_puts(&b, ", \"instance\": ");
	buf_json_str(&b, inst.p);
	buf_putc(&b, '}');
	r = arena_strndup(a, b.p, b.n);
	buf_free(&b);
	buf_free(&inst);
	return r;
}

/* A kernel call: custom-call "<kernel>" naming the instance. */
static int
call(Lw *L, const CExpr *e)
{
	const CKernel *k = e->u.call;
	int *ops = arena_alloc(L->m->arena, sizeof(int) * (size_t)(e->n + 1));
	HloInstr *in;
	int i, x;

	for (i = 0; i < e->n; i++)
		if ((ops[i] = lw_expr(L, e->arg[i])) < 0)
			return -1;
	x = lw_emit(L, HLO_CUSTOM_CALL, lw_shape_of(e), ops, e->n,
	    "pallas_call");
	in = lw_in(L, x);
	in->backend_config = hlo_kernel_config(L->m->arena, k);
	in->target = lw_escape(L->m->arena, k->name);
	return x;
}

static int
elementwise(Lw *L, const CExpr *e, const int *ops)
{
	size_t i;
	int x;

	for (i = 0; i < countof(ew); i++)
		if (ew[i].op == e->op)
			break;
	if (i == countof(ew))
		return lw_unsupported(L, e->op == CX_SHL || e->op == CX_SHR ?
		    "a shift" : "this expression");
	x = lw_emit(L, ew[i].hlo, lw_shape_of(e), ops, e->n, ew[i].prim);
	lw_in(L, x)->cmp = ew[i].cmp;
	return x;
}

/* The operations on evaluated operands ops[0 .. e->n). */
static int
with_operands(Lw *L, const CExpr *e, int *ops)
{
	switch (e->op) {
	case CX_CAST:
		return lw_convert(L, ops[0], htype(e->dtype),
		    "convert_element_type");
	case CX_WHERE:
		return lw_emit(L, HLO_SELECT, lw_shape_of(e), ops, 3,
		    "select_n");
	case CX_SELECT:
		if (e->shape.rank)
			ops[0] = lw_broadcast(L, ops[0], lw_shape(HT_PRED,
			    e->shape.rank, e->shape.d), NULL,
			    "broadcast_in_dim");
		return lw_emit(L, HLO_SELECT, lw_shape_of(e), ops, 3,
		    "select_n");
	case CX_BROADCAST: return broadcast(L, e, ops[0]);
	case CX_RESHAPE: return lw_reshape(L, ops[0], lw_shape_of(e),
	    "reshape");
	case CX_TRANSPOSE: return transpose(L, e, ops[0]);
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return reduction(L, e, ops[0]);
	case CX_SOFTMAX: return softmax(L, e, ops[0]);
	case CX_DOT: return dot(L, e, ops);
	default:
		return elementwise(L, e, ops);
	}
}

static int
lower(Lw *L, const CExpr *e)
{
	int ops[3], i, x;

	switch (e->op) {
	case CX_CONST: return constant(L, e);
	case CX_PARAM:
		if (e->u.slot < 0 || e->u.slot >= L->f->nparam)
			bug("func parameter %d out of range", e->u.slot);
		return L->param[e->u.slot];
	case CX_IOTA:
		x = lw_emit(L, HLO_IOTA, lw_shape_of(e), NULL, 0, "iota");
		lw_in(L, x)->num = e->u.axis;
		return x;
	case CX_CALL: return call(L, e);
	case CX_SLICE: return value_slice(L, e);
	case CX_ROLL: return roll(L, e);
	case CX_AXIS: case CX_NPROG: case CX_SLOT: case CX_LOAD:
		return lw_unsupported(L, "a kernel-only expression");
	default:
		break;
	}
	if (e->n > 3)
		bug("%s with %d operands", cx_op_name(e->op), e->n);
	for (i = 0; i < e->n; i++)
		if ((ops[i] = lw_expr(L, e->arg[i])) < 0)
			return -1;
	return with_operands(L, e, ops);
}

int
lw_expr(Lw *L, const CExpr *e)
{
	const char *scope = L->scope;
	Loc loc = L->loc;
	int *slot = lw_memo(L, e, 0), x;

	if (slot && *slot >= 0)
		return *slot;
	if (L->failed)
		return -1;
	if (e->named)
		L->scope = arena_printf(L->m->arena, "%s/%s", scope,
		    lw_escape(L->m->arena, e->named));
	L->loc = e->loc;
	x = lower(L, e);
	L->scope = scope;
	L->loc = loc;
	if (x >= 0)
		*lw_memo(L, e, 1) = x;
	return x;
}
