/*
 * scope.c - names and compile-time constants: the scope chain of a
 * kernel or func instance, reserved names, "did you mean" suggestions,
 * and the evaluation of constant expressions (doc/language.md 8.1).
 *
 * Gives:    scope_*() (scope_dtype: the dtype a written name stands for),
 *           const_eval(), const_size(), module_find().
 * Tests:    tests/diag/sema-undefined*.pk, sema-const-*.pk
 */
#include <string.h>

#include "dsl/sema/sema.h"

static const char *const builtins[] = {
	"inf", "num_programs", "program_id", "ds", "cdiv", "exp", "log",
	"sqrt", "rsqrt", "tanh", "abs", "max", "min", "where", "iota", "sum",
	"mean", "rowsum", "rowmax", "rowmin", "broadcast", "reshape",
	"transpose", "roll", "dot", "softmax", "named", "multiple_of",
};

static const char *const typenames[] = {
	"f32", "bf16", "i32", "i8", "bool", "sem", "dma_sem",
};

int
builtin_known(const char *name)
{
	size_t i;

	for (i = 0; i < countof(builtins); i++)
		if (strcmp(builtins[i], name) == 0)
			return 1;
	return 0;
}

void
scope_push(Sema *S)
{
	S->depth++;
}

void
scope_pop(Sema *S)
{
	while (S->scope && S->scope->depth >= S->depth)
		S->scope = S->scope->next;
	S->depth--;
}

Bind *
scope_find(Sema *S, const char *name)
{
	Bind *b;

	for (b = S->scope; b; b = b->next)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

int
scope_reserved(Sema *S, const char *name, Loc loc)
{
	size_t i;

	for (i = 0; i < countof(typenames); i++)
		if (strcmp(typenames[i], name) == 0) {
			se_error(S, loc, "'%s' names a type and cannot be "
			    "redefined", name);
			return 1;
		}
	if (builtin_known(name)) {
		se_error(S, loc, "'%s' names a builtin function and cannot be "
		    "redefined", name);
		return 1;
	}
	return 0;
}

/*
 * Binds name in the current block.  A let may shadow anything; any
 * other redefinition in the same block is an error with a note at the
 * first definition (the new binding is still made, to go on checking).
 */
Bind *
scope_bind(Sema *S, const char *name, BindKind k, Loc loc)
{
	Bind *b = arena_alloc(S->a, sizeof *b), *old;

	scope_reserved(S, name, loc);
	old = scope_find(S, name);
	b->name = name;
	if (old && k != B_SLOT && k != B_FLET && old->kind != B_SLOT &&
	    old->kind != B_FLET) {
		se_error(S, loc, "redefinition of '%s'", name);
		se_note(S, old->loc, "'%s' was first defined here", name);
		return b;	/* not linked: the first definition stays */
	}
	b->kind = k;
	b->loc = loc;
	b->depth = S->depth;
	b->next = S->scope;
	S->scope = b;
	return b;
}

/* A dtype parameter's binding keeps its DType in val, as a size's. */
void
scope_bind_params(Sema *S, const AstList *tparams, const SemaArgs *args)
{
	int i;

	for (i = 0; i < tparams->n; i++) {
		const Ast *t = tparams->v[i];
		scope_bind(S, t->u.name, args->dtype[i] ? B_TYPE : B_SIZE,
		    t->loc)->val = args->val[i];
	}
}

int
scope_dtype(Sema *S, const char *name, Loc loc, DType *t)
{
	Bind *b = scope_find(S, name);

	if (b && b->kind == B_TYPE) {
		*t = (DType)b->val;
		return 0;
	}
	if (b && b->kind == B_SIZE) {
		se_error(S, loc, "'%s' is a size parameter, not a dtype",
		    name);
		se_note(S, loc, "an export makes a parameter a dtype "
		    "parameter by giving it a dtype name, such as f32 or "
		    "bf16");
		return -1;
	}
	return dtype_lookup(name, t) ? 1 : 0;
}

void
scope_type_not_value(Sema *S, const Bind *b, Loc loc)
{
	se_error(S, loc, "'%s' is a dtype parameter (%s in this instance), "
	    "not a value", b->name, dtype_name((DType)b->val));
}

/* Levenshtein distance, for suggestions; names are short. */
static int
distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[64], prev, tmp;

	if (la > 62 || lb > 62)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
		}
	}
	return row[lb];
}

static void
consider(const char *name, const char *cand, const char **best, int *bestd)
{
	int d = distance(name, cand);
	int limit = (int)strlen(name) / 3 + 1;

	if (d <= limit && d < *bestd) {
		*best = cand;
		*bestd = d;
	}
}

/* b->loc is the operand's 'when' condition. */
void
scope_absent_use(Sema *S, const Bind *b, Loc loc)
{
	if (S->dead)
		return;
	se_error(S, loc, "operand '%s' is not in this instance: its 'when' "
	    "condition is false", b->name);
	se_note(S, b->loc, "use '%s' only where that condition holds, as in "
	    "'when (...) { ... }' or 'c ? a : b' on the same condition",
	    b->name);
}

void
scope_undefined(Sema *S, const char *what, const char *name, Loc loc)
{
	const char *best = NULL;
	int bestd = 99;
	size_t i;
	Bind *b;

	se_error(S, loc, "undefined %s '%s'", what, name);
	for (b = S->scope; b; b = b->next)
		consider(name, b->name, &best, &bestd);
	if (S->ctx == CTX_BODY || S->ctx == CTX_FUNC)
		for (i = 0; i < countof(builtins); i++)
			consider(name, builtins[i], &best, &bestd);
	if (best)
		se_note(S, loc, "did you mean '%s'?", best);
}

const Ast *
module_find(const Ast *module, const char *name)
{
	int i;

	for (i = 0; i < module->u.list.n; i++) {
		const Ast *x = module->u.list.v[i];
		if ((x->kind == AST_KERNEL || x->kind == AST_FUNC) &&
		    x->u.def.name.s && strcmp(x->u.def.name.s, name) == 0)
			return x;
	}
	return NULL;
}

/* ---------------------------------------------------- constant exprs */

static int
overflow(Sema *S, Loc loc)
{
	se_error(S, loc, "integer overflow in a constant expression");
	return -1;
}

static int
const_binary(Sema *S, const Ast *e, int64_t l, int64_t r, int64_t *v)
{
	switch (e->u.binary.op) {
	case AOP_ADD:
		if (__builtin_add_overflow(l, r, v))
			return overflow(S, e->loc);
		return 0;
	case AOP_SUB:
		if (__builtin_sub_overflow(l, r, v))
			return overflow(S, e->loc);
		return 0;
	case AOP_MUL:
		if (__builtin_mul_overflow(l, r, v))
			return overflow(S, e->loc);
		return 0;
	case AOP_DIV:
	case AOP_MOD:
		if (r == 0) {
			se_error(S, e->loc, "division by zero in a constant "
			    "expression");
			return -1;
		}
		if (l == INT64_MIN && r == -1)
			return overflow(S, e->loc);
		if (e->u.binary.op == AOP_MOD) {
			*v = l % r;
			return 0;
		}
		if (S->exact_div && l % r != 0) {
			se_error(S, e->loc, "%lld / %lld does not divide "
			    "exactly", (long long)l, (long long)r);
			se_note(S, e->loc, "use cdiv(a, b) to round up (the "
			    "last block is then partial), or sizes that "
			    "divide");
			return -1;
		}
		*v = l / r;
		return 0;
	case AOP_SHL:
		if (r < 0 || r > 62 || l < 0 || (l >> (62 - r)) > 0)
			return overflow(S, e->loc);
		*v = l << r;
		return 0;
	case AOP_SHR:
		*v = r < 0 || r > 63 ? 0 : l >> r;
		return 0;
	case AOP_LT: *v = l < r; return 0;
	case AOP_LE: *v = l <= r; return 0;
	case AOP_GT: *v = l > r; return 0;
	case AOP_GE: *v = l >= r; return 0;
	case AOP_EQ: *v = l == r; return 0;
	case AOP_NE: *v = l != r; return 0;
	case AOP_BITAND: *v = l & r; return 0;
	case AOP_BITOR: *v = l | r; return 0;
	case AOP_BITXOR: *v = l ^ r; return 0;
	case AOP_AND: *v = l && r; return 0;
	case AOP_OR: *v = l || r; return 0;
	default:
		se_error(S, e->loc, "operator '%s' is not allowed in a "
		    "constant expression", ast_op_spelling(e->u.binary.op));
		return -1;
	}
}

static int
const_ident(Sema *S, const Ast *e, int64_t *v)
{
	Bind *b = scope_find(S, e->u.name);

	if (!b) {
		scope_undefined(S, "name", e->u.name, e->loc);
		return -1;
	}
	if (b->kind == B_SIZE) {
		*v = b->val;
		return 0;
	}
	if (b->kind == B_TYPE) {
		scope_type_not_value(S, b, e->loc);
		return -1;
	}
	se_error(S, e->loc, "'%s' is not a compile-time constant", e->u.name);
	if (b->kind == B_AXIS)
		se_note(S, e->loc, "grid axes may be used in index maps and "
		    "in the body, not in sizes");
	return -1;
}

static int
const_call(Sema *S, const Ast *e, int64_t *v)
{
	int64_t a, b;
	int save = S->exact_div;

	if (strcmp(e->u.call.name.s, "cdiv") != 0 || e->u.call.args.n != 2) {
		se_error(S, e->loc, "expected a compile-time integer; only "
		    "cdiv(a, b) may be called here");
		return -1;
	}
	S->exact_div = 0;
	if (const_eval(S, e->u.call.args.v[0], &a) ||
	    const_eval(S, e->u.call.args.v[1], &b)) {
		S->exact_div = save;
		return -1;
	}
	S->exact_div = save;
	if (b <= 0) {
		se_error(S, e->loc, "cdiv by %lld: the divisor must be "
		    "positive", (long long)b);
		return -1;
	}
	if (a > INT64_MAX - b)
		return overflow(S, e->loc);
	*v = a / b + (a % b != 0 && a > 0);
	return 0;
}

int
const_eval(Sema *S, const Ast *e, int64_t *v)
{
	int64_t l, r, c;

	switch (e->kind) {
	case AST_INT:
		if (e->u.ival.suffix != SUF_NONE &&
		    e->u.ival.suffix != SUF_I32 && e->u.ival.suffix != SUF_I8)
			goto notint;
		*v = (int64_t)e->u.ival.v;
		return 0;
	case AST_IDENT:
		return const_ident(S, e, v);
	case AST_BINARY:
		if (const_eval(S, e->u.binary.l, &l) ||
		    const_eval(S, e->u.binary.r, &r))
			return -1;
		return const_binary(S, e, l, r, v);
	case AST_UNARY:
		if (const_eval(S, e->u.unary.x, &l))
			return -1;
		switch (e->u.unary.op) {
		case AOP_NEG:
			if (l == INT64_MIN)
				return overflow(S, e->loc);
			*v = -l;
			return 0;
		case AOP_PLUS: *v = l; return 0;
		case AOP_NOT: *v = !l; return 0;
		case AOP_BITNOT: *v = ~l; return 0;
		default: break;
		}
		goto notint;
	case AST_COND:
		if (const_eval(S, e->u.cond.c, &c))
			return -1;
		return const_eval(S, c ? e->u.cond.a : e->u.cond.b, v);
	case AST_CALL:
		return const_call(S, e, v);
	case AST_ERROR:
		return -1;
	default:
	notint:
		se_error(S, e->loc, "expected a compile-time integer");
		return -1;
	}
}

/* A compile-time integer within +-2^40 (an export's size parameter:
   where the kernel uses it as a size, that use checks it is positive). */
int
const_param(Sema *S, const Ast *e, const char *what, int64_t *v)
{
	Ctx sctx = S->ctx;
	int rc;

	S->ctx = CTX_CONST;
	rc = const_eval(S, e, v);
	S->ctx = sctx;
	if (rc)
		return -1;
	if (*v > ((int64_t)1 << 40) || *v < -((int64_t)1 << 40)) {
		se_error(S, e->loc, "%s is %lld; it must be within +-2^40",
		    what, (long long)*v);
		return -1;
	}
	return 0;
}

int
const_size(Sema *S, const Ast *e, const char *what, int64_t *v)
{
	int save = S->exact_div;
	Ctx sctx = S->ctx;
	int rc;

	S->exact_div = 1;
	S->ctx = CTX_CONST;
	rc = const_eval(S, e, v);
	S->exact_div = save;
	S->ctx = sctx;
	if (rc)
		return -1;
	if (*v <= 0) {
		se_error(S, e->loc, "%s is %lld; it must be positive", what,
		    (long long)*v);
		return -1;
	}
	if (*v > ((int64_t)1 << 40)) {
		se_error(S, e->loc, "%s is %lld; it must be at most 2^40",
		    what, (long long)*v);
		return -1;
	}
	return 0;
}
