/*
 * evalidx.c - exact evaluation of scalar integer expressions of a kernel
 * (index maps, conditions) at a grid point, and grid enumeration.  Grids
 * are static, so the checks evaluate index maps at every grid point.
 *
 * Gives:    sema_eval_int(), sema_block_start(), sema_param(),
 *           sema_param_print() (checked.h);
 *           grid_next(), grid_size(), grid_point_str() (sema.h).
 * Tests:    tests/unit/check_sema.c
 */
#include <string.h>

#include "dsl/sema/sema.h"

/* Wraps to 32-bit two's complement, as the scalar unit computes. */
static int64_t
wrap32(int64_t v)
{
	return (int64_t)(int32_t)(uint32_t)(uint64_t)v;
}

typedef struct Ev {
	const CKernel *k;
	const int64_t *pt, *slots;
	SemaTableFn *tab;
	void *ctx;
} Ev;

static int ev(const Ev *E, const CExpr *e, int64_t *v);

static int
ev_load(const Ev *E, const CExpr *e, int64_t *v)
{
	const CSlice *sl = &e->u.load.sl;
	const COperand *o;
	int64_t idx[SEMA_MAXRANK], x;
	int d, rc, unknown = 0;

	if (e->u.load.ref.kind != CREF_OPERAND || e->shape.rank != 0)
		return SEMA_EVAL_UNKNOWN;
	o = &E->k->op[e->u.load.ref.index];
	if (o->role != ROLE_SMEM_TABLE)
		return SEMA_EVAL_UNKNOWN;
	for (d = 0; d < sl->n; d++) {
		x = sl->dim[d].start;
		if (sl->dim[d].dyn) {
			rc = ev(E, sl->dim[d].dyn, &x);
			if (rc == SEMA_EVAL_ERROR)
				return rc;
			if (rc)
				unknown = 1;
		}
		if (!unknown && (x < 0 || x >= o->shape.d[d]))
			return SEMA_EVAL_ERROR;
		idx[d] = x;
	}
	if (unknown || !E->tab)
		return SEMA_EVAL_UNKNOWN;
	if (E->tab(E->ctx, e->u.load.ref.index, idx, v))
		return SEMA_EVAL_UNKNOWN;
	*v = wrap32(*v);
	return SEMA_EVAL_OK;
}

static int
ev_binary(CxOp op, int64_t a, int64_t b, int64_t *v)
{
	switch (op) {
	case CX_ADD: *v = a + b; break;
	case CX_SUB: *v = a - b; break;
	case CX_MUL: *v = (int64_t)((uint64_t)a * (uint64_t)b); break;
	case CX_DIV:
	case CX_MOD:
		if (b == 0)
			return SEMA_EVAL_ERROR;
		if (a == INT32_MIN && b == -1)
			*v = op == CX_DIV ? a : 0;
		else
			*v = op == CX_DIV ? a / b : a % b;
		break;
	case CX_MAX: *v = a > b ? a : b; break;
	case CX_MIN: *v = a < b ? a : b; break;
	case CX_SHL: *v = (int64_t)((uint64_t)a << (b & 31)); break;
	case CX_SHR: *v = a >> (b & 31); break;
	case CX_BITAND: *v = a & b; break;
	case CX_BITOR: *v = a | b; break;
	case CX_BITXOR: *v = a ^ b; break;
	case CX_AND: *v = a && b; return SEMA_EVAL_OK;
	case CX_OR: *v = a || b; return SEMA_EVAL_OK;
	case CX_LT: *v = a < b; return SEMA_EVAL_OK;
	case CX_LE: *v = a <= b; return SEMA_EVAL_OK;
	case CX_GT: *v = a > b; return SEMA_EVAL_OK;
	case CX_GE: *v = a >= b; return SEMA_EVAL_OK;
	case CX_EQ: *v = a == b; return SEMA_EVAL_OK;
	case CX_NE: *v = a != b; return SEMA_EVAL_OK;
	default: return SEMA_EVAL_UNKNOWN;
	}
	*v = wrap32(*v);
	return SEMA_EVAL_OK;
}

/* && and || are known when one side decides them. */
static int
ev_logic(const Ev *E, const CExpr *e, int64_t *v)
{
	int64_t a = 0, b = 0;
	int ra = ev(E, e->arg[0], &a), rb = ev(E, e->arg[1], &b);
	int decide = e->op == CX_OR;	/* an operand value that decides */

	if (ra == SEMA_EVAL_ERROR || rb == SEMA_EVAL_ERROR)
		return SEMA_EVAL_ERROR;
	if ((ra == 0 && (a != 0) == decide) || (rb == 0 && (b != 0) == decide)) {
		*v = decide;
		return SEMA_EVAL_OK;
	}
	if (ra || rb)
		return SEMA_EVAL_UNKNOWN;
	*v = e->op == CX_AND ? (a && b) : (a || b);
	return SEMA_EVAL_OK;
}

static int
ev_unary(const Ev *E, const CExpr *e, int64_t *v)
{
	int64_t a;
	int rc = ev(E, e->arg[0], &a);

	if (rc)
		return rc;
	switch (e->op) {
	case CX_NEG: *v = wrap32(-a); break;
	case CX_NOT: *v = !a; break;
	case CX_BITNOT: *v = wrap32(~a); break;
	case CX_ABS: *v = wrap32(a < 0 ? -a : a); break;
	case CX_CAST:
		if (!dtype_is_int(e->arg[0]->dtype) &&
		    e->arg[0]->dtype != DT_BOOL)
			return SEMA_EVAL_UNKNOWN;
		/* to i8 saturates, as in bodies */
		*v = e->dtype == DT_BOOL ? a != 0 : e->dtype == DT_I8 ?
		    (a < -128 ? -128 : a > 127 ? 127 : a) : wrap32(a);
		break;
	default:
		return SEMA_EVAL_UNKNOWN;
	}
	return SEMA_EVAL_OK;
}

static int
ev(const Ev *E, const CExpr *e, int64_t *v)
{
	int64_t a, b;
	int rc, rb;

	if (e->shape.rank != 0 || dtype_is_float(e->dtype))
		return SEMA_EVAL_UNKNOWN;
	switch (e->op) {
	case CX_CONST: *v = e->u.cst.i; return SEMA_EVAL_OK;
	case CX_AXIS: *v = E->pt[e->u.axis]; return SEMA_EVAL_OK;
	case CX_NPROG: *v = E->k->axis[e->u.axis].extent; return SEMA_EVAL_OK;
	case CX_SLOT:
		if (!E->slots)
			return SEMA_EVAL_UNKNOWN;
		*v = E->slots[e->u.slot];
		return SEMA_EVAL_OK;
	case CX_LOAD: return ev_load(E, e, v);
	case CX_AND: case CX_OR: return ev_logic(E, e, v);
	case CX_SELECT:
		if ((rc = ev(E, e->arg[0], &a)))
			return rc;
		return ev(E, e->arg[a ? 1 : 2], v);
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_ABS: case CX_CAST:
		return ev_unary(E, e, v);
	default:
		break;
	}
	if (e->n != 2)
		return SEMA_EVAL_UNKNOWN;
	rc = ev(E, e->arg[0], &a);
	rb = ev(E, e->arg[1], &b);
	if (rc == SEMA_EVAL_ERROR || rb == SEMA_EVAL_ERROR)
		return SEMA_EVAL_ERROR;
	if (rc || rb)
		return SEMA_EVAL_UNKNOWN;
	return ev_binary(e->op, a, b, v);
}

int
sema_eval_int(const CKernel *k, const CExpr *e, const int64_t *pt,
    const int64_t *slots, SemaTableFn *tab, void *ctx, int64_t *out)
{
	Ev E = { k, pt, slots, tab, ctx };

	return ev(&E, e, out);
}

int
sema_block_start(const CKernel *k, int op, const int64_t *pt,
    SemaTableFn *tab, void *ctx, int64_t *start)
{
	const COperand *o = &k->op[op];
	int d, rc;
	int64_t v;

	for (d = 0; d < o->shape.rank; d++) {
		v = 0;
		if (o->map && o->map[d] &&
		    (rc = sema_eval_int(k, o->map[d], pt, NULL, tab, ctx, &v)))
			return rc;
		start[d] = o->element ? v : v * o->block.d[d];
	}
	return SEMA_EVAL_OK;
}

int64_t
grid_size(const CKernel *k)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < k->naxis; i++) {
		if (n > INT64_MAX / (k->axis[i].extent + 1))
			return INT64_MAX;
		n *= k->axis[i].extent;
	}
	return n;
}

int
grid_next(const CKernel *k, int64_t *pt)
{
	int i;

	for (i = k->naxis - 1; i >= 0; i--) {
		if (++pt[i] < k->axis[i].extent)
			return 1;
		pt[i] = 0;
	}
	return 0;
}

const char *
grid_point_str(Sema *S, const CKernel *k, const int64_t *pt)
{
	Buf b = {0};
	const char *s;
	int i;

	buf_putc(&b, '(');
	for (i = 0; i < k->naxis; i++)
		buf_printf(&b, "%s%s=%lld", i ? ", " : "", k->axis[i].name,
		    (long long)pt[i]);
	buf_putc(&b, ')');
	s = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return s;
}

int64_t
sema_param(const CKernel *k, const char *name)
{
	int i;

	for (i = 0; i < k->nparam; i++)
		if (strcmp(k->param_name[i], name) == 0)
			return k->param_dtype[i] ? -1 : k->param_val[i];
	return -1;
}

void
sema_param_print(Buf *b, const CKernel *k, int i)
{
	if (k->param_dtype[i])
		buf_puts(b, dtype_name((DType)k->param_val[i]));
	else
		buf_printf(b, "%lld", (long long)k->param_val[i]);
}
