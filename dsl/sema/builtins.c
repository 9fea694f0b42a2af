/*
 * builtins.c - calls: the builtin functions of doc/language.md 7.3
 * resolved to CExpr ops, dtype calls T(x), and their arity, option and
 * type rules (dot's dtypes per preset among them).
 *
 * Gives:    builtin_call(), dot_build() (for types.c).
 * Tests:    tests/diag/sema-call-*.pk, sema-dot-*.pk
 */
#include <math.h>
#include <string.h>

#include "dsl/sema/sema.h"


/* The call's positional arguments and options, split. */
typedef struct Args {
	const Ast *pos[4];
	int npos;
	const Ast *opt[6];	/* AST_KWARG, or AST_IDENT flags */
	int nopt;
} Args;

static int
split(Sema *S, const Ast *e, Args *A, int minpos, int maxpos)
{
	int i;

	memset(A, 0, sizeof *A);
	for (i = 0; i < e->u.call.args.n; i++) {
		const Ast *x = e->u.call.args.v[i];
		int flag = x->kind == AST_IDENT && i >= minpos &&
		    A->npos >= minpos && (A->npos >= maxpos ||
		    !scope_find(S, x->u.name));
		if (x->kind == AST_KWARG || flag) {
			if (A->nopt < (int)countof(A->opt))
				A->opt[A->nopt++] = x;
		} else if (A->npos < (int)countof(A->pos) && !A->nopt)
			A->pos[A->npos++] = x;
		else {
			A->npos = 99;
			break;
		}
	}
	if (A->npos < minpos || A->npos > maxpos) {
		se_error(S, e->loc, "%s takes %d%s argument%s, not %d",
		    e->u.call.name.s, minpos, maxpos > minpos ?
		    arena_printf(S->a, " to %d", maxpos) : "",
		    maxpos == 1 ? "" : "s", A->npos == 99 ?
		    e->u.call.args.n : A->npos);
		return -1;
	}
	return 0;
}

static const char *
opt_name(const Ast *o)
{
	return o->kind == AST_KWARG ? o->u.named.name.s : o->u.name;
}

/* Checks that every option is one of 'allowed' (space-separated). */
static int
opts_allowed(Sema *S, const Ast *e, const Args *A, const char *allowed)
{
	int i;

	for (i = 0; i < A->nopt; i++) {
		const char *n = opt_name(A->opt[i]);
		const char *p = allowed;
		size_t len = strlen(n);
		int ok = 0;
		while (p && *p) {
			if (strncmp(p, n, len) == 0 && (p[len] == ' ' ||
			    p[len] == 0))
				ok = 1;
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		if (!ok) {
			se_error(S, A->opt[i]->loc, "%s has no option '%s'",
			    e->u.call.name.s, n);
			if (*allowed)
				se_note(S, A->opt[i]->loc, "options: %s", allowed);
			return -1;
		}
	}
	return 0;
}

static const Ast *
opt(const Args *A, const char *name)
{
	int i;

	for (i = 0; i < A->nopt; i++)
		if (strcmp(opt_name(A->opt[i]), name) == 0)
			return A->opt[i];
	return NULL;
}

static int
opt_int(Sema *S, const Args *A, const char *name, int64_t *v)
{
	const Ast *o = opt(A, name);
	Ctx save = S->ctx;
	int rc;

	if (!o)
		return 1;
	if (o->kind != AST_KWARG) {
		se_error(S, o->loc, "option '%s' needs a value: %s: N", name,
		    name);
		return -1;
	}
	S->ctx = CTX_CONST;
	rc = const_eval(S, o->u.named.value, v);
	S->ctx = save;
	return rc;
}

/* A dimension index for x of rank r, negative counting from the end. */
static int
axis_of(Sema *S, Loc loc, int64_t a, int r, int *out)
{
	if (a < -r || a >= r) {
		se_error(S, loc, "axis %lld is out of range for rank %d",
		    (long long)a, r);
		return -1;
	}
	*out = (int)(a < 0 ? a + r : a);
	return 0;
}

static int
dims_arg(Sema *S, const Ast *e, Shape *sh)
{
	int i;

	if (e->kind != AST_DIMS) {
		se_error(S, e->loc, "expected a shape such as [8, 128]");
		return -1;
	}
	if (e->u.list.n > SEMA_MAXRANK) {
		se_error(S, e->loc, "a shape has at most %d dimensions",
		    SEMA_MAXRANK);
		return -1;
	}
	sh->rank = e->u.list.n;
	for (i = 0; i < sh->rank; i++)
		if (const_size(S, e->u.list.v[i], "a dimension", &sh->d[i]))
			return -1;
	return 0;
}

/* exp, log, sqrt, rsqrt or tanh of an f32 constant (rsqrt(DQK as f32)):
   a constant, rounded to f32, the same in both modes. */
static CExpr *
fold_math1(Sema *S, CxOp op, const CExpr *x, Loc loc)
{
	CExpr *n = cx_new(S, CX_CONST, DT_F32, &x->shape, loc, 0);
	double v = x->u.cst.f;

	switch (op) {
	case CX_EXP: v = exp(v); break;
	case CX_LOG: v = log(v); break;
	case CX_SQRT: v = sqrt(v); break;
	case CX_RSQRT: v = 1 / sqrt(v); break;
	default: v = tanh(v); break;
	}
	n->u.cst.f = (float)v;
	return n;
}

static CExpr *
math1(Sema *S, const Ast *e, CxOp op)
{
	Args A;
	CExpr *x, *n;

	if (split(S, e, &A, 1, 1) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (!(x = expr_check(S, A.pos[0])))
		return NULL;
	if (x->weak && op != CX_ABS)
		x = cast_to(S, x, DT_F32, e->loc);
	x->weak = 0;
	if (op == CX_ABS ? x->dtype == DT_BOOL : !dtype_is_float(x->dtype)) {
		se_error(S, e->loc, "%s takes %s, not %s", e->u.call.name.s,
		    op == CX_ABS ? "numbers" : "f32 or bf16 values",
		    type_str(S, x->dtype, &x->shape));
		if (op != CX_ABS)
			se_note(S, e->loc, "convert with 'as f32' first");
		return NULL;
	}
	if (x->op == CX_CONST && x->dtype == DT_F32 && op != CX_ABS)
		return fold_math1(S, op, x, e->loc);
	n = cx_new(S, op, x->dtype, &x->shape, e->loc, 1);
	n->arg[0] = x;
	return n;
}

static CExpr *
reduce(Sema *S, const Ast *e, CxOp op, int row)
{
	Args A;
	CExpr *x, *n;
	int64_t a = -1;
	int ax, keep = row, i, r;

	if (split(S, e, &A, 1, 1) || opts_allowed(S, e, &A, row ? "" :
	    op == CX_SOFTMAX ? "axis" : "axis keepdims"))
		return NULL;
	if (!(x = expr_check(S, A.pos[0])))
		return NULL;
	if (!row && opt_int(S, &A, "axis", &a)) {
		se_error(S, e->loc, "%s needs an axis: %s(x, axis: N)",
		    e->u.call.name.s, e->u.call.name.s);
		return NULL;
	}
	if (opt(&A, "keepdims"))
		keep = 1;
	if (x->shape.rank == 0) {
		se_error(S, e->loc, "%s of a scalar", e->u.call.name.s);
		return NULL;
	}
	if (axis_of(S, e->loc, a, x->shape.rank, &ax))
		return NULL;
	if (x->dtype == DT_BOOL || ((op == CX_MEAN || op == CX_SOFTMAX) &&
	    !dtype_is_float(x->dtype))) {
		se_error(S, e->loc, "%s takes %s values, not %s",
		    e->u.call.name.s, op == CX_MEAN || op == CX_SOFTMAX ?
		    "float" : "numeric", dtype_name(x->dtype));
		return NULL;
	}
	n = cx_new(S, op, x->dtype, NULL, e->loc, 1);
	n->arg[0] = x;
	n->u.red.axis = ax;
	n->u.red.keepdims = op == CX_SOFTMAX ? 1 : keep;
	r = 0;
	for (i = 0; i < x->shape.rank; i++) {
		if (i != ax || op == CX_SOFTMAX)
			n->shape.d[r++] = x->shape.d[i];
		else if (keep)
			n->shape.d[r++] = 1;
	}
	n->shape.rank = r;
	return n;
}

static CExpr *
maxmin(Sema *S, const Ast *e, CxOp op, CxOp red)
{
	int i, kw = 0;

	for (i = 0; i < e->u.call.args.n; i++)
		kw |= e->u.call.args.v[i]->kind == AST_KWARG;
	if (e->u.call.args.n == 1 || kw)
		return reduce(S, e, red, 0);
	if (e->u.call.args.n != 2) {
		se_error(S, e->loc, "%s takes 2 arguments (or x, axis: N), "
		    "not %d", e->u.call.name.s, e->u.call.args.n);
		return NULL;
	}
	{
		Ast fake = *e;
		fake.kind = AST_BINARY;
		fake.u.binary.op = op == CX_MAX ? AOP_GT : AOP_LT;
		CExpr *l = expr_check(S, e->u.call.args.v[0]);
		CExpr *r = expr_check(S, e->u.call.args.v[1]);
		CExpr *n;
		if (!l || !r)
			return NULL;
		n = elementwise2(S, &fake, op, e->u.call.name.s, l, r);
		if (n && n->dtype == DT_BOOL) {
			se_error(S, e->loc, "%s takes numbers, not bool",
			    e->u.call.name.s);
			return NULL;
		}
		return n;
	}
}

static CExpr *
where(Sema *S, const Ast *e)
{
	Args A;
	CExpr *c, *a, *b, *n;
	Shape sh;

	if (split(S, e, &A, 3, 3) || opts_allowed(S, e, &A, ""))
		return NULL;
	c = expr_check(S, A.pos[0]);
	a = expr_check(S, A.pos[1]);
	b = expr_check(S, A.pos[2]);
	if (!c || !a || !b)
		return NULL;
	if (c->dtype != DT_BOOL) {
		se_error(S, A.pos[0]->loc, "the condition of where must be "
		    "bool, not %s", type_str(S, c->dtype, &c->shape));
		return NULL;
	}
	{
		Ast fake = *e;
		fake.kind = AST_BINARY;
		fake.u.binary.op = AOP_ASSIGN;
		if (!(n = elementwise2(S, &fake, CX_WHERE, "where", a, b)))
			return NULL;
	}
	if (broadcast_shapes(&c->shape, &n->shape, &sh)) {
		se_error(S, e->loc, "shape mismatch in where: the condition "
		    "is %s and the values are %s",
		    type_str(S, c->dtype, &c->shape),
		    type_str(S, n->dtype, &n->shape));
		return NULL;
	}
	a = n->arg[0];
	b = n->arg[1];
	n = cx_new(S, CX_WHERE, n->dtype, &sh, e->loc, 3);
	n->arg[0] = expr_coerce(S, c, DT_BOOL, &sh, e->loc, "the condition");
	n->arg[1] = expr_coerce(S, a, a->dtype, &sh, e->loc, "a value");
	n->arg[2] = expr_coerce(S, b, b->dtype, &sh, e->loc, "a value");
	return n;
}

static CExpr *
iota(Sema *S, const Ast *e)
{
	Args A;
	Shape sh;
	int64_t a;
	int ax;
	CExpr *n;
	Ctx save = S->ctx;

	if (split(S, e, &A, 2, 2) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (dims_arg(S, A.pos[0], &sh))
		return NULL;
	S->ctx = CTX_CONST;
	if (const_eval(S, A.pos[1], &a)) {
		S->ctx = save;
		return NULL;
	}
	S->ctx = save;
	if (axis_of(S, A.pos[1]->loc, a, sh.rank, &ax))
		return NULL;
	n = cx_new(S, CX_IOTA, DT_I32, &sh, e->loc, 0);
	n->u.axis = ax;
	return n;
}

static CExpr *
shape_op(Sema *S, const Ast *e, CxOp op)
{
	Args A;
	Shape sh, out;
	CExpr *x, *n;

	if (split(S, e, &A, 2, 2) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (!(x = expr_check(S, A.pos[0])) || dims_arg(S, A.pos[1], &sh))
		return NULL;
	if (op == CX_RESHAPE && shape_numel(&x->shape) != shape_numel(&sh)) {
		se_error(S, e->loc, "reshape of %s to %s changes the number of "
		    "elements", type_str(S, x->dtype, &x->shape),
		    type_str(S, x->dtype, &sh));
		return NULL;
	}
	if (op == CX_BROADCAST && (broadcast_shapes(&x->shape, &sh, &out) ||
	    !shape_eq(&out, &sh))) {
		se_error(S, e->loc, "cannot broadcast %s to %s",
		    type_str(S, x->dtype, &x->shape), type_str(S, x->dtype, &sh));
		return NULL;
	}
	x->weak = 0;
	n = cx_new(S, op, x->dtype, &sh, e->loc, 1);
	n->arg[0] = x;
	return n;
}

static CExpr *
transpose(Sema *S, const Ast *e)
{
	Args A;
	CExpr *x, *n;

	if (split(S, e, &A, 1, 1) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (!(x = expr_check(S, A.pos[0])))
		return NULL;
	if (x->shape.rank < 2) {
		se_error(S, e->loc, "transpose needs at least 2 dimensions; the "
		    "operand is %s", type_str(S, x->dtype, &x->shape));
		return NULL;
	}
	n = cx_new(S, CX_TRANSPOSE, x->dtype, &x->shape, e->loc, 1);
	n->shape.d[n->shape.rank - 1] = x->shape.d[x->shape.rank - 2];
	n->shape.d[n->shape.rank - 2] = x->shape.d[x->shape.rank - 1];
	n->arg[0] = x;
	return n;
}

static CExpr *
roll(Sema *S, const Ast *e)
{
	Args A;
	CExpr *x, *s, *n;
	int64_t a;
	int ax;

	if (split(S, e, &A, 2, 2) || opts_allowed(S, e, &A, "axis"))
		return NULL;
	x = expr_check(S, A.pos[0]);
	s = expr_check(S, A.pos[1]);
	if (!x || !s)
		return NULL;
	if (opt_int(S, &A, "axis", &a)) {
		se_error(S, e->loc, "roll needs an axis: roll(x, shift, axis: N)");
		return NULL;
	}
	if (axis_of(S, e->loc, a, x->shape.rank, &ax))
		return NULL;
	if (!(s = expr_coerce(S, s, DT_I32, &(Shape){0}, A.pos[1]->loc,
	    "the shift")))
		return NULL;
	n = cx_new(S, CX_ROLL, x->dtype, &x->shape, e->loc, 2);
	n->arg[0] = x;
	n->arg[1] = s;
	n->u.axis = ax;
	return n;
}

CExpr *
dot_build(Sema *S, const Ast *at, CExpr *a, CExpr *b, int ta, int tb,
    MachPrec prec, DType acc, int acc_given)
{
	CExpr *n;
	const char *why;
	int ra = a->shape.rank, rb = b->shape.rank, i;
	int64_t m, ka, kb, nn;

	if (ra < 2 || rb < 2 || ra != rb) {
		se_error(S, at->loc, "dot multiplies matrices of equal rank >= 2; "
		    "the operands are %s and %s", type_str(S, a->dtype,
		    &a->shape), type_str(S, b->dtype, &b->shape));
		return NULL;
	}
	if (!acc_given)
		acc = a->dtype == DT_I8 ? DT_I32 : DT_F32;
	if (dtype_dot_ok(S->mp, a->dtype, b->dtype, acc, &why)) {
		se_error(S, at->loc, "dot of %s and %s accumulating in %s is not "
		    "supported on preset '%s'", dtype_name(a->dtype),
		    dtype_name(b->dtype), dtype_name(acc), S->mp->name);
		se_note(S, at->loc, "%s", why);
		return NULL;
	}
	m = a->shape.d[ra - (ta ? 1 : 2)];
	ka = a->shape.d[ra - (ta ? 2 : 1)];
	kb = b->shape.d[rb - (tb ? 1 : 2)];
	nn = b->shape.d[rb - (tb ? 2 : 1)];
	if (ka != kb) {
		se_error(S, at->loc, "dot: the contracting dimensions differ: %s "
		    "and %s give K = %lld and K = %lld", type_str(S, a->dtype,
		    &a->shape), type_str(S, b->dtype, &b->shape), (long long)ka,
		    (long long)kb);
		if (!tb && b->shape.d[rb - 1] == ka)
			se_note(S, at->loc, "did you mean dot(a, b, trans_b)?");
		return NULL;
	}
	for (i = 0; i < ra - 2; i++)
		if (a->shape.d[i] != b->shape.d[i]) {
			se_error(S, at->loc, "dot: the batch dimensions of %s "
			    "and %s differ", type_str(S, a->dtype, &a->shape),
			    type_str(S, b->dtype, &b->shape));
			return NULL;
		}
	n = cx_new(S, CX_DOT, acc, &a->shape, at->loc, 2);
	n->shape.d[ra - 2] = m;
	n->shape.d[ra - 1] = nn;
	n->arg[0] = a;
	n->arg[1] = b;
	n->u.dot.trans_a = ta;
	n->u.dot.trans_b = tb;
	n->u.dot.prec = prec;
	n->u.dot.acc = acc;
	return n;
}

static CExpr *
dot(Sema *S, const Ast *e)
{
	Args A;
	CExpr *a, *b;
	const Ast *p, *ac;
	MachPrec prec = S->k ? S->k->params.precision : MACH_PREC_DEFAULT;
	DType acc = DT_F32;

	if (split(S, e, &A, 2, 2) ||
	    opts_allowed(S, e, &A, "trans_a trans_b precision acc"))
		return NULL;
	a = expr_check(S, A.pos[0]);
	b = expr_check(S, A.pos[1]);
	if (!a || !b)
		return NULL;
	if ((p = opt(&A, "precision"))) {
		const char *w = p->kind == AST_KWARG &&
		    p->u.named.value->kind == AST_IDENT ?
		    p->u.named.value->u.name : "";
		if (strcmp(w, "default") == 0)
			prec = MACH_PREC_DEFAULT;
		else if (strcmp(w, "high") == 0)
			prec = MACH_PREC_HIGH;
		else if (strcmp(w, "highest") == 0)
			prec = MACH_PREC_HIGHEST;
		else {
			se_error(S, p->loc, "precision must be default, high "
			    "or highest");
			return NULL;
		}
	}
	if ((ac = opt(&A, "acc"))) {
		int rc = ac->kind != AST_KWARG ||
		    ac->u.named.value->kind != AST_IDENT ? 1 :
		    scope_dtype(S, ac->u.named.value->u.name,
		    ac->u.named.value->loc, &acc);
		if (rc > 0)
			se_error(S, ac->loc, "acc takes a dtype: acc: f32");
		if (rc)
			return NULL;
	}
	return dot_build(S, e, a, b, opt(&A, "trans_a") != NULL,
	    opt(&A, "trans_b") != NULL, prec, acc, ac != NULL);
}

static CExpr *
grid_fn(Sema *S, const Ast *e, CxOp op)
{
	Args A;
	Bind *b;
	CExpr *n;

	if (split(S, e, &A, 1, 1) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (A.pos[0]->kind != AST_IDENT ||
	    !(b = scope_find(S, A.pos[0]->u.name)) || b->kind != B_AXIS) {
		se_error(S, A.pos[0]->loc, "%s takes the name of a grid axis",
		    e->u.call.name.s);
		return NULL;
	}
	n = cx_new(S, op, DT_I32, NULL, e->loc, 0);
	n->u.axis = b->index;
	return n;
}

static CExpr *
named(Sema *S, const Ast *e)
{
	Args A;
	CExpr *x;

	if (split(S, e, &A, 2, 2) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (A.pos[0]->kind != AST_STRING) {
		se_error(S, A.pos[0]->loc, "named takes a string label first: "
		    "named(\"label\", x)");
		return NULL;
	}
	if (!(x = expr_check(S, A.pos[1])))
		return NULL;
	x->named = A.pos[0]->u.str;
	return x;
}

static CExpr *
multiple_of(Sema *S, const Ast *e)
{
	Args A;
	CExpr *x;
	int64_t m;
	Ctx save = S->ctx;
	struct SemaMult sm;

	if (split(S, e, &A, 2, 2) || opts_allowed(S, e, &A, ""))
		return NULL;
	if (!(x = expr_check(S, A.pos[0])))
		return NULL;
	S->ctx = CTX_CONST;
	if (const_eval(S, A.pos[1], &m)) {
		S->ctx = save;
		return NULL;
	}
	S->ctx = save;
	if (!dtype_is_int(x->dtype) || x->shape.rank || m <= 0) {
		se_error(S, e->loc, "multiple_of takes an integer scalar and a "
		    "positive constant");
		return NULL;
	}
	sm.key = x;
	sm.p = expr_proved_multiple(S, x);
	sm.m = m;
	vec_push(S->a, &S->mult, sm);
	return x;
}

static CExpr *
cdiv_value(Sema *S, const Ast *e)
{
	int64_t v;
	Ctx save = S->ctx;
	CExpr *x;

	S->ctx = CTX_CONST;
	if (const_eval(S, e, &v)) {
		S->ctx = save;
		return NULL;
	}
	S->ctx = save;
	x = cx_const_int(S, v, DT_I32, e->loc);
	x->weak = 1;
	return x;
}

/* In index maps only a few calls make sense. */
static int
map_call_ok(Sema *S, const Ast *e, const char *n)
{
	static const char *const ok[] = { "num_programs", "program_id", "cdiv",
	    "min", "max", "abs" };
	size_t i;

	if (S->ctx != CTX_MAP)
		return 1;
	for (i = 0; i < countof(ok); i++)
		if (strcmp(ok[i], n) == 0)
			return 1;
	se_error(S, e->loc, "'%s' cannot be used in an index map", n);
	se_note(S, e->loc, "index maps use grid axes, size parameters, "
	    "constants, SMEM table reads and num_programs");
	return 0;
}

CExpr *
builtin_call(Sema *S, const Ast *e)
{
	const char *n = e->u.call.name.s;
	DType t;
	Args A;
	static const struct { const char *name; CxOp op; } m1[] = {
		{ "exp", CX_EXP }, { "log", CX_LOG }, { "sqrt", CX_SQRT },
		{ "rsqrt", CX_RSQRT }, { "tanh", CX_TANH }, { "abs", CX_ABS },
	};
	size_t i;
	int rc;

	if (!map_call_ok(S, e, n))
		return NULL;
	for (i = 0; i < countof(m1); i++)
		if (strcmp(n, m1[i].name) == 0)
			return math1(S, e, m1[i].op);
	if ((rc = scope_dtype(S, n, e->u.call.name.loc, &t)) < 0)
		return NULL;
	if (rc == 0) {	/* T(x) is x as T */
		if (split(S, e, &A, 1, 1) || opts_allowed(S, e, &A, ""))
			return NULL;
		return cast_to(S, expr_check(S, A.pos[0]), t, e->loc);
	}
	if (!strcmp(n, "max")) return maxmin(S, e, CX_MAX, CX_RMAX);
	if (!strcmp(n, "min")) return maxmin(S, e, CX_MIN, CX_RMIN);
	if (!strcmp(n, "sum")) return reduce(S, e, CX_SUM, 0);
	if (!strcmp(n, "mean")) return reduce(S, e, CX_MEAN, 0);
	if (!strcmp(n, "rowsum")) return reduce(S, e, CX_SUM, 1);
	if (!strcmp(n, "rowmax")) return reduce(S, e, CX_RMAX, 1);
	if (!strcmp(n, "rowmin")) return reduce(S, e, CX_RMIN, 1);
	if (!strcmp(n, "softmax")) return reduce(S, e, CX_SOFTMAX, 0);
	if (!strcmp(n, "where")) return where(S, e);
	if (!strcmp(n, "iota")) return iota(S, e);
	if (!strcmp(n, "broadcast")) return shape_op(S, e, CX_BROADCAST);
	if (!strcmp(n, "reshape")) return shape_op(S, e, CX_RESHAPE);
	if (!strcmp(n, "transpose")) return transpose(S, e);
	if (!strcmp(n, "roll")) return roll(S, e);
	if (!strcmp(n, "dot")) return dot(S, e);
	if (!strcmp(n, "named")) return named(S, e);
	if (!strcmp(n, "multiple_of")) return multiple_of(S, e);
	if (!strcmp(n, "cdiv")) return cdiv_value(S, e);
	if (!strcmp(n, "num_programs") || !strcmp(n, "program_id")) {
		if (S->ctx == CTX_FUNC) {
			se_error(S, e->loc, "%s is for kernels; a func has no "
			    "grid", n);
			return NULL;
		}
		return grid_fn(S, e, n[0] == 'n' ? CX_NPROG : CX_AXIS);
	}
	if (!strcmp(n, "ds")) {
		se_error(S, e->loc, "ds(start, size) may appear only as an "
		    "index item, as in x[ds(i * 8, 8), :]");
		return NULL;
	}
	if (!strcmp(n, "inf")) {
		se_error(S, e->loc, "inf is a constant, not a function");
		return NULL;
	}
	return func_call_kernel(S, e);
}
