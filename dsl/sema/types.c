/*
 * types.c - types and shapes of expressions: literals (weak until they
 * meet a typed operand), names, operators with NumPy broadcasting,
 * conversions, and value indexing.  Produces the typed CExpr tree with
 * explicit broadcasts (checked.h conventions).
 *
 * Gives:    expr_check(), expr_coerce(), broadcast_shapes(), cx_*()
 *           (sema.h).  Calls are in builtins.c, slices in slice.c.
 * Tests:    tests/diag/sema-type-*.pk, sema-shape-*.pk
 */
#include <math.h>
#include <string.h>

#include "dsl/sema/sema.h"


CExpr *
cx_new(Sema *S, CxOp op, DType t, const Shape *sh, Loc loc, int n)
{
	CExpr *e = arena_alloc(S->a, sizeof *e);

	e->op = op;
	e->dtype = t;
	if (sh)
		e->shape = *sh;
	e->loc = loc;
	e->n = n;
	e->arg = arena_alloc(S->a, sizeof *e->arg * (size_t)(n + 1));
	return e;
}

CExpr *
cx_const_int(Sema *S, int64_t v, DType t, Loc loc)
{
	CExpr *e = cx_new(S, CX_CONST, t, NULL, loc, 0);

	e->u.cst.i = v;
	e->u.cst.f = (double)v;
	return e;
}

const char *
type_str(Sema *S, DType t, const Shape *sh)
{
	Buf b = {0};
	const char *s;

	buf_puts(&b, dtype_name(t));
	if (sh->rank)
		shape_print(&b, sh);
	s = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return s;
}

static const char *
shape_str(Sema *S, const Shape *sh)
{
	Buf b = {0};
	const char *s;

	shape_print(&b, sh);
	s = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return s;
}

int
expr_is_weak(const CExpr *e)
{
	return e->weak;
}

/* NumPy: align at the last dimension; 1 (or missing) stretches. */
int
broadcast_shapes(const Shape *a, const Shape *b, Shape *out)
{
	int r = a->rank > b->rank ? a->rank : b->rank, i;

	out->rank = r;
	for (i = 0; i < r; i++) {
		int ia = a->rank - r + i, ib = b->rank - r + i;
		int64_t da = ia >= 0 ? a->d[ia] : 1, db = ib >= 0 ? b->d[ib] : 1;
		if (da != db && da != 1 && db != 1)
			return -1;
		out->d[i] = da == 1 ? db : da;
	}
	return 0;
}

/* A weak literal takes dtype t. */
static CExpr *
retype_weak(Sema *S, CExpr *e, DType t, Loc loc)
{
	CExpr *c;

	if (e->op != CX_CONST) {
		e->weak = 0;
		return e;
	}
	c = cx_new(S, CX_CONST, t, &e->shape, e->loc, 0);
	c->u.cst = e->u.cst;
	if (dtype_is_float(t)) {
		c->u.cst.f = dtype_is_float(e->dtype) ? e->u.cst.f :
		    (double)e->u.cst.i;
	} else if (dtype_is_float(e->dtype)) {
		se_error(S, loc, "the float literal %g cannot become %s",
		    e->u.cst.f, dtype_name(t));
		return NULL;
	} else if (t == DT_BOOL) {
		se_error(S, loc, "an integer literal cannot become bool");
		return NULL;
	} else if (t == DT_I8 && (e->u.cst.i < -128 || e->u.cst.i > 127)) {
		se_error(S, loc, "the literal %lld does not fit in i8",
		    (long long)e->u.cst.i);
		return NULL;
	}
	return c;
}

static CExpr *
broadcast_to(Sema *S, CExpr *e, const Shape *sh)
{
	CExpr *b;

	if (shape_eq(&e->shape, sh))
		return e;
	if (e->op == CX_CONST) {
		b = cx_new(S, CX_CONST, e->dtype, sh, e->loc, 0);
		b->u.cst = e->u.cst;
		b->weak = e->weak;
		return b;
	}
	b = cx_new(S, CX_BROADCAST, e->dtype, sh, e->loc, 1);
	b->arg[0] = e;
	b->named = e->named;
	return b;
}

CExpr *
expr_coerce(Sema *S, CExpr *e, DType t, const Shape *sh, Loc loc,
    const char *what)
{
	Shape out;

	if (!e)
		return NULL;
	if (e->weak && e->dtype != t && !(e = retype_weak(S, e, t, loc)))
		return NULL;
	e->weak = 0;
	if (e->dtype != t) {
		se_error(S, loc, "type mismatch: %s is %s, expected %s", what,
		    type_str(S, e->dtype, &e->shape), type_str(S, t, sh));
		se_note(S, loc, "convert explicitly with 'as %s'",
		    dtype_name(t));
		return NULL;
	}
	if (!shape_eq(&e->shape, sh) && (broadcast_shapes(&e->shape, sh,
	    &out) || !shape_eq(&out, sh))) {
		se_error(S, loc, "shape mismatch: %s has shape %s, which does "
		    "not broadcast to %s", what, shape_str(S, &e->shape),
		    shape_str(S, sh));
		return NULL;
	}
	return broadcast_to(S, e, sh);
}

/* Both operands to one dtype: weak literals adapt. */
static int
unify(Sema *S, const Ast *at, CExpr **l, CExpr **r)
{
	DType t;

	if ((*l)->weak && (*r)->weak) {
		t = dtype_is_float((*l)->dtype) || dtype_is_float((*r)->dtype)
		    ? DT_F32 : (*l)->dtype;
	} else if ((*l)->weak)
		t = (*r)->dtype;
	else
		t = (*l)->dtype;
	if ((*l)->weak && (*l)->dtype != t && !(*l = retype_weak(S, *l, t,
	    at->loc)))
		return -1;
	if ((*r)->weak && (*r)->dtype != t && !(*r = retype_weak(S, *r, t,
	    at->loc)))
		return -1;
	if ((*l)->dtype != (*r)->dtype) {
		se_error(S, at->loc, "type mismatch in '%s': the left operand "
		    "is %s and the right operand is %s",
		    ast_op_spelling(at->u.binary.op),
		    type_str(S, (*l)->dtype, &(*l)->shape),
		    type_str(S, (*r)->dtype, &(*r)->shape));
		se_note(S, at->loc, "convert one side with 'as %s' or 'as %s'",
		    dtype_name((*l)->dtype), dtype_name((*r)->dtype));
		return -1;
	}
	return 0;
}

static CxOp
binop(AstOp op)
{
	static const CxOp map[] = {
		[AOP_ADD] = CX_ADD, [AOP_SUB] = CX_SUB, [AOP_MUL] = CX_MUL,
		[AOP_DIV] = CX_DIV, [AOP_MOD] = CX_MOD, [AOP_SHL] = CX_SHL,
		[AOP_SHR] = CX_SHR, [AOP_LT] = CX_LT, [AOP_LE] = CX_LE,
		[AOP_GT] = CX_GT, [AOP_GE] = CX_GE, [AOP_EQ] = CX_EQ,
		[AOP_NE] = CX_NE, [AOP_BITAND] = CX_BITAND,
		[AOP_BITXOR] = CX_BITXOR, [AOP_BITOR] = CX_BITOR,
		[AOP_AND] = CX_AND, [AOP_OR] = CX_OR,
	};
	return op < countof(map) ? map[op] : NCXOP;
}

/* Which dtypes an operator takes; NULL if t is fine. */
static const char *
op_rejects(CxOp op, DType t)
{
	switch (op) {
	case CX_ADD: case CX_SUB: case CX_MUL: case CX_DIV: case CX_MOD:
	case CX_MAX: case CX_MIN: case CX_NEG: case CX_ABS:
		return t == DT_BOOL ? "numbers, not bool" : NULL;
	case CX_SHL: case CX_SHR:
		return dtype_is_int(t) ? NULL : "integers";
	case CX_BITAND: case CX_BITOR: case CX_BITXOR: case CX_BITNOT:
		return dtype_is_int(t) || t == DT_BOOL ? NULL :
		    "integers or bool";
	case CX_AND: case CX_OR: case CX_NOT:
		return t == DT_BOOL ? NULL : "bool (compare first, e.g. x != 0)";
	case CX_EXP: case CX_LOG: case CX_SQRT: case CX_RSQRT: case CX_TANH:
		return dtype_is_float(t) ? NULL : "f32 or bf16";
	default:
		return NULL;
	}
}

/* Folds integer arithmetic on two scalar constants (e.g. H / KVH). */
static CExpr *
fold(Sema *S, CxOp op, const CExpr *l, const CExpr *r, Loc loc)
{
	int64_t a = l->u.cst.i, b = r->u.cst.i, v;
	CExpr *e;

	if (l->op != CX_CONST || r->op != CX_CONST || l->shape.rank ||
	    r->shape.rank || l->dtype != DT_I32 || r->dtype != DT_I32 ||
	    a < -(1 << 30) || a > (1 << 30) || b < -(1 << 30) || b > (1 << 30))
		return NULL;
	switch (op) {
	case CX_ADD: v = a + b; break;
	case CX_SUB: v = a - b; break;
	case CX_MUL:
		if (a > 32767 || b > 32767 || a < -32767 || b < -32767)
			return NULL;
		v = a * b;
		break;
	case CX_DIV:
	case CX_MOD:
		if (b == 0)
			return NULL;
		v = op == CX_DIV ? a / b : a % b;
		break;
	default: return NULL;
	}
	e = cx_const_int(S, v, DT_I32, loc);
	e->weak = l->weak && r->weak;
	return e;
}

/* 1 or 0 if e is a bool constant (of any shape: a constant is one value
   broadcast), else -1. */
int
expr_truth(const CExpr *e)
{
	if (e->op != CX_CONST || e->dtype != DT_BOOL)
		return -1;
	return e->u.cst.i != 0;
}

/*
 * Folds what a size parameter decides (MASK == 1, 'false && x', 'x +
 * OFFSET' with OFFSET 0): a compare of two scalar integer constants, an
 * and / or with a scalar bool constant, which either decides it or
 * leaves the other side, and an integer + or - of 0; so a kernel can
 * choose a computation by an export's parameters at no cost.  NULL if
 * nothing folds.
 */
static CExpr *
fold_logic(Sema *S, CxOp op, CExpr *l, CExpr *r, const Shape *sh, Loc loc)
{
	int64_t a = l->u.cst.i, b = r->u.cst.i, v;
	int tl = expr_truth(l), tr = expr_truth(r), decide = op == CX_OR;
	CExpr *e;

	if (op >= CX_LT && op <= CX_NE) {
		if (l->op != CX_CONST || r->op != CX_CONST || l->shape.rank ||
		    r->shape.rank || !dtype_is_int(l->dtype))
			return NULL;
		switch (op) {
		case CX_LT: v = a < b; break;
		case CX_LE: v = a <= b; break;
		case CX_GT: v = a > b; break;
		case CX_GE: v = a >= b; break;
		case CX_EQ: v = a == b; break;
		default: v = a != b; break;
		}
		return cx_const_int(S, v, DT_BOOL, loc);
	}
	/* integer x + 0, 0 + x, x - 0 (an offset parameter of 0) */
	if ((op == CX_ADD || op == CX_SUB) && dtype_is_int(l->dtype)) {
		if (r->op == CX_CONST && b == 0)
			return broadcast_to(S, l, sh);
		if (op == CX_ADD && l->op == CX_CONST && a == 0)
			return broadcast_to(S, r, sh);
		return NULL;
	}
	if (op != CX_AND && op != CX_OR)
		return NULL;
	if (tl == decide || tr == decide)
		e = cx_const_int(S, decide, DT_BOOL, loc);
	else if (tl >= 0)
		e = r;
	else if (tr >= 0)
		e = l;
	else
		return NULL;
	return broadcast_to(S, e, sh);
}

/* Elementwise binary node with broadcasting; NULL after an error. */
CExpr *
elementwise2(Sema *S, const Ast *at, CxOp op, const char *spell, CExpr *l,
    CExpr *r)
{
	Shape sh;
	CExpr *e;
	const char *why;
	int cmp = op >= CX_LT && op <= CX_NE;

	if (!l || !r)
		return NULL;
	if (at->kind == AST_BINARY ? unify(S, at, &l, &r) : 0)
		return NULL;
	if (l->dtype != r->dtype) {
		se_error(S, at->loc, "type mismatch in '%s': %s and %s", spell,
		    type_str(S, l->dtype, &l->shape),
		    type_str(S, r->dtype, &r->shape));
		return NULL;
	}
	if ((why = op_rejects(op, l->dtype))) {
		se_error(S, at->loc, "'%s' takes %s; the operands are %s", spell,
		    why, dtype_name(l->dtype));
		return NULL;
	}
	if (broadcast_shapes(&l->shape, &r->shape, &sh)) {
		se_error(S, at->loc, "shape mismatch in '%s': %s and %s do not "
		    "broadcast", spell, shape_str(S, &l->shape),
		    shape_str(S, &r->shape));
		se_note(S, at->loc, "shapes are aligned at the last dimension; "
		    "each pair of sizes must be equal or one of them 1");
		return NULL;
	}
	if ((e = fold(S, op, l, r, at->loc)) ||
	    (e = fold_logic(S, op, l, r, &sh, at->loc)))
		return e;
	e = cx_new(S, op, cmp ? DT_BOOL : l->dtype, &sh, at->loc, 2);
	e->weak = l->weak && r->weak && !cmp;
	l->weak = r->weak = 0;
	e->arg[0] = broadcast_to(S, l, &sh);
	e->arg[1] = broadcast_to(S, r, &sh);
	return e;
}


static CExpr *
binary(Sema *S, const Ast *e)
{
	CExpr *l = expr_check(S, e->u.binary.l), *r = expr_check(S,
	    e->u.binary.r);
	CxOp op = binop(e->u.binary.op);

	if (!l || !r)
		return NULL;
	if (e->u.binary.op == AOP_MATMUL)
		return dot_build(S, e, l, r, 0, 0, S->k ?
		    S->k->params.precision : MACH_PREC_DEFAULT, DT_F32, 0);
	if (op == NCXOP) {
		se_error(S, e->loc, "'%s' is not an expression operator",
		    ast_op_spelling(e->u.binary.op));
		return NULL;
	}
	return elementwise2(S, e, op, ast_op_spelling(e->u.binary.op), l, r);
}

static CExpr *
unary(Sema *S, const Ast *e)
{
	CExpr *x = expr_check(S, e->u.unary.x), *n;
	CxOp op;
	const char *why;

	if (!x)
		return NULL;
	switch (e->u.unary.op) {
	case AOP_PLUS: return x;
	case AOP_NEG: op = CX_NEG; break;
	case AOP_NOT: op = CX_NOT; break;
	default: op = CX_BITNOT; break;
	}
	if ((why = op_rejects(op, x->dtype))) {
		se_error(S, e->loc, "'%s' takes %s; the operand is %s",
		    ast_op_spelling(e->u.unary.op), why, dtype_name(x->dtype));
		return NULL;
	}
	if (x->op == CX_CONST && op == CX_NEG) {
		n = cx_new(S, CX_CONST, x->dtype, &x->shape, e->loc, 0);
		n->u.cst.i = -x->u.cst.i;
		n->u.cst.f = -x->u.cst.f;
		n->weak = x->weak;
		return n;
	}
	n = cx_new(S, op, x->dtype, &x->shape, e->loc, 1);
	n->weak = x->weak && x->op == CX_CONST;
	n->arg[0] = x;
	return n;
}

/* Checks e as code that never runs if dead (a side the size parameters
   drop): it may use operands absent from the instance. */
static CExpr *
side_check(Sema *S, const Ast *e, int dead)
{
	CExpr *x;

	S->dead += dead;
	x = expr_check(S, e);
	S->dead -= dead;
	return x;
}

static CExpr *
cond(Sema *S, const Ast *e)
{
	CExpr *c = expr_check(S, e->u.cond.c), *a, *b, *n;
	int t = c ? expr_truth(c) : -1;
	Ast fake = *e;

	a = side_check(S, e->u.cond.a, t == 0);
	b = side_check(S, e->u.cond.b, t == 1);
	if (!c)
		return NULL;
	if (c->dtype != DT_BOOL || c->shape.rank) {
		se_error(S, e->u.cond.c->loc, "the condition of '?:' must be a "
		    "bool scalar, not %s", type_str(S, c->dtype, &c->shape));
		se_note(S, e->loc, "for an elementwise choice use where(c, a, b)");
		return NULL;
	}
	/* a side that uses an absent operand has no type to match */
	if (t >= 0 && !(t ? b : a))
		return t ? a : b;
	if (!a || !b)
		return NULL;
	fake.kind = AST_BINARY;
	fake.u.binary.op = AOP_ASSIGN;
	n = elementwise2(S, &fake, CX_SELECT, "?:", a, b);
	if (!n)
		return NULL;
	/* a condition the size parameters decide picks its side at no
	   cost (CAP > 0 ? capped : s): the other is checked, not computed */
	if (t >= 0)
		return t ? n->arg[0] : n->arg[1];
	n->n = 3;
	n->arg = arena_alloc(S->a, sizeof *n->arg * 3);
	n->arg[0] = c;
	n->arg[1] = broadcast_to(S, a, &n->shape);
	n->arg[2] = broadcast_to(S, b, &n->shape);
	return n;
}

CExpr *
cast_to(Sema *S, CExpr *x, DType t, Loc loc)
{
	CExpr *n;

	if (!x)
		return NULL;
	if (t == DT_SEM || t == DT_DMA_SEM) {
		se_error(S, loc, "cannot convert to a semaphore type");
		return NULL;
	}
	if (x->weak && x->op == CX_CONST && (dtype_is_float(t) ||
	    !dtype_is_float(x->dtype)) && t != DT_BOOL)
		return retype_weak(S, x, t, loc);
	x->weak = 0;
	if (x->dtype == t)
		return x;
	/* an integer constant (a size parameter) as f32 is a constant,
	   exact to 2^24 */
	if (x->op == CX_CONST && t == DT_F32 && dtype_is_int(x->dtype) &&
	    x->u.cst.i >= -(1 << 24) && x->u.cst.i <= 1 << 24) {
		n = cx_new(S, CX_CONST, t, &x->shape, loc, 0);
		n->u.cst.f = (double)x->u.cst.i;
		return n;
	}
	n = cx_new(S, CX_CAST, t, &x->shape, loc, 1);
	n->arg[0] = x;
	return n;
}

static CExpr *
cast(Sema *S, const Ast *e)
{
	DType t;
	int rc = scope_dtype(S, e->u.cast.dtype.s, e->u.cast.dtype.loc, &t);

	if (rc > 0)
		se_error(S, e->u.cast.dtype.loc, "unknown dtype '%s'",
		    e->u.cast.dtype.s);
	if (rc)
		return NULL;
	return cast_to(S, expr_check(S, e->u.cast.x), t, e->loc);
}

static CExpr *
ident_ref(Sema *S, Bind *b, const Ast *e)
{
	const char *n = e->u.name;

	se_error(S, e->loc, "'%s' is a Ref, not a value", n);
	if (b->kind == B_OPERAND && S->k->op[b->index].role == ROLE_SMEM_TABLE)
		se_note(S, e->loc, "read one element of the SMEM table, e.g. "
		    "%s[i]", n);
	else
		se_note(S, e->loc, "write %s[...] to load it", n);
	return NULL;
}

static CExpr *
ident(Sema *S, const Ast *e)
{
	Bind *b = scope_find(S, e->u.name);
	CExpr *x;
	DType t;

	if (!b) {
		if (strcmp(e->u.name, "inf") == 0) {
			x = cx_new(S, CX_CONST, DT_F32, NULL, e->loc, 0);
			x->u.cst.f = INFINITY;
			x->weak = 1;
			return x;
		}
		if (dtype_lookup(e->u.name, &t) == 0 || builtin_known(e->u.name)) {
			se_error(S, e->loc, "'%s' is a %s, not a value",
			    e->u.name, builtin_known(e->u.name) ?
			    "builtin function" : "type");
			return NULL;
		}
		scope_undefined(S, "name", e->u.name, e->loc);
		return NULL;
	}
	switch (b->kind) {
	case B_SIZE:
		if (b->val > INT32_MAX) {
			se_error(S, e->loc, "'%s' = %lld does not fit in i32",
			    e->u.name, (long long)b->val);
			return NULL;
		}
		x = cx_const_int(S, b->val, DT_I32, e->loc);
		x->weak = 1;
		return x;
	case B_TYPE:
		scope_type_not_value(S, b, e->loc);
		return NULL;
	case B_AXIS:
		x = cx_new(S, CX_AXIS, DT_I32, NULL, e->loc, 0);
		x->u.axis = b->index;
		return x;
	case B_OPERAND:
	case B_SCRATCH:
		return ident_ref(S, b, e);
	case B_ABSENT:
		scope_absent_use(S, b, e->loc);
		return NULL;
	case B_SLOT:
		if (b->index < 0)
			return NULL;	/* its let failed and was reported */
		x = cx_new(S, CX_SLOT, S->slots.v[b->index].dtype,
		    &S->slots.v[b->index].shape, e->loc, 0);
		x->u.slot = b->index;
		return x;
	case B_FPARAM:
		x = cx_new(S, CX_PARAM, S->f->param[b->index].dtype,
		    &S->f->param[b->index].shape, e->loc, 0);
		x->u.slot = b->index;
		return x;
	case B_FLET:
		return b->value;
	}
	return NULL;
}

static CExpr *
literal(Sema *S, const Ast *e)
{
	CExpr *x;
	static const DType suf[NSUF] = { DT_I32, DT_F32, DT_BF16, DT_I32,
	    DT_I8 };

	if (e->kind == AST_INT) {
		DType t = suf[e->u.ival.suffix];
		if (e->u.ival.v > (uint64_t)INT32_MAX && !dtype_is_float(t)) {
			se_error(S, e->loc, "the integer literal %llu does not "
			    "fit in i32", (unsigned long long)e->u.ival.v);
			return NULL;
		}
		x = cx_const_int(S, (int64_t)e->u.ival.v, DT_I32, e->loc);
		x->weak = e->u.ival.suffix == SUF_NONE;
		return x->weak ? x : cast_to(S, (x->weak = 1, x), t, e->loc);
	}
	x = cx_new(S, CX_CONST, DT_F32, NULL, e->loc, 0);
	x->u.cst.f = e->u.fval.v;
	x->weak = e->u.fval.suffix == SUF_NONE;
	if (e->u.fval.suffix == SUF_BF16) {
		x->weak = 1;
		return cast_to(S, x, DT_BF16, e->loc);
	}
	return x;
}

CExpr *
expr_check(Sema *S, const Ast *e)
{
	switch (e->kind) {
	case AST_INT:
	case AST_FLOAT:
		return literal(S, e);
	case AST_IDENT:
		return ident(S, e);
	case AST_UNARY:
		return unary(S, e);
	case AST_BINARY:
		return binary(S, e);
	case AST_COND:
		return cond(S, e);
	case AST_CAST:
		return cast(S, e);
	case AST_CALL:
		return builtin_call(S, e);
	case AST_INDEX:
		return index_check(S, e);
	case AST_STRING:
		se_error(S, e->loc, "a string is not a value here");
		return NULL;
	case AST_DIMS:
		se_error(S, e->loc, "a dimension list is not a value");
		se_note(S, e->loc, "dimension lists are arguments of iota, "
		    "broadcast and reshape");
		return NULL;
	case AST_ERROR:
		return NULL;
	default:
		se_error(S, e->loc, "expected an expression");
		return NULL;
	}
}
