/*
 * ppexpr.c - the integer expression of #if and #elif.
 *
 * Needs:    the directive's tokens after macro expansion, with the operand
 *           of every 'defined' left unexpanded.
 * Gives:    its value in 64-bit signed arithmetic, as C's preprocessor
 *           computes it with C's precedence, except that nothing is
 *           undefined: + - * wrap around (done in unsigned), INT64_MIN / -1
 *           wraps, a shift count outside 0..63 and division or modulo by
 *           zero are errors.  && || and ?: evaluate lazily, so '0 && 1/0'
 *           is 0 and no error.  Identifiers left after expansion are 0;
 *           'defined NAME' and 'defined(NAME)' ask the caller.  Floating
 *           point and string literals are errors.  Only the first error of
 *           an expression is reported.
 * Entry:    pp_eval_expr()
 * Tests:    tests/unit/check_preproc.c (the #if cases)
 */
#include <string.h>

#include "dsl/dsl.h"

enum { MAX_DEPTH = 256 };	/* nested parentheses, unary ops and ?: */

typedef struct Ev {
	Diag *d;
	const Token *t;		/* the expression, t[0..n) */
	int n, i;		/* i: next token */
	Loc at;			/* the directive, for errors with no token */
	PPDefinedFn *defined;
	void *ctx;
	int err;		/* an error was reported: unwind */
	int depth;
} Ev;

static int64_t cond(Ev *e, int live);

/* The two's-complement value of u, without implementation-defined casts. */
static int64_t
wrap(uint64_t u)
{
	return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}

static TokKind
peek(Ev *e)
{
	return e->i < e->n ? e->t[e->i].kind : TK_EOF;
}

/* Reports the first error at t, or at the end of the expression. */
PK_PRINTF(3, 4) static void
fail(Ev *e, const Token *t, const char *fmt, ...)
{
	va_list ap;
	Loc loc = e->at;

	if (e->err)
		return;
	e->err = 1;
	if (t)
		loc = t->loc;
	else if (e->n > 0)
		loc = e->t[e->n - 1].loc;
	va_start(ap, fmt);
	diag_report(e->d, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

static const Token *
cur(Ev *e)
{
	return e->i < e->n ? &e->t[e->i] : NULL;
}

static int
expect(Ev *e, TokKind k, const char *msg)
{
	if (peek(e) == k) {
		e->i++;
		return 1;
	}
	fail(e, cur(e), "%s", msg);
	return 0;
}

/* Counts one more level of nesting; 0 (after an error) when too deep. */
static int
enter(Ev *e)
{
	if (++e->depth <= MAX_DEPTH)
		return 1;
	fail(e, cur(e), "preprocessor expression nested too deeply");
	return 0;
}

/* defined NAME | defined ( NAME ) */
static int64_t
defined_op(Ev *e, const Token *kw)
{
	const Token *name;
	int paren = 0;

	if (peek(e) == TK_LPAREN) {
		paren = 1;
		e->i++;
	}
	if (peek(e) != TK_IDENT) {
		fail(e, cur(e) ? cur(e) : kw,
		    "operator 'defined' requires an identifier");
		return 0;
	}
	name = &e->t[e->i++];
	if (paren && !expect(e, TK_RPAREN, "missing ')' after 'defined'"))
		return 0;
	return e->defined && e->defined(e->ctx, name->text) ? 1 : 0;
}

/* primary: INT | IDENT | defined-expr | '(' cond ')' */
static int64_t
primary(Ev *e, int live)
{
	const Token *t;
	int64_t v;

	if (e->err)
		return 0;
	if (e->i >= e->n) {
		fail(e, NULL, "expected a value at the end of the expression");
		return 0;
	}
	t = &e->t[e->i++];
	switch (t->kind) {
	case TK_INT:
		return wrap(t->v.i);
	case TK_IDENT:
		if (strcmp(t->text, "defined") == 0)
			return defined_op(e, t);
		return 0;	/* an identifier that is not a macro */
	case TK_LPAREN:
		if (!enter(e))
			return 0;
		v = cond(e, live);
		e->depth--;
		expect(e, TK_RPAREN, "missing ')' in preprocessor expression");
		return v;
	case TK_FLOAT:
		fail(e, t, "floating-point literal in preprocessor expression");
		return 0;
	case TK_STRING:
		fail(e, t, "string literal in preprocessor expression");
		return 0;
	default:
		fail(e, t, "token '%.*s' is not valid in preprocessor expressions",
		    t->len, t->text ? t->text : "");
		return 0;
	}
}

/* unary: ('+' | '-' | '~' | '!') unary | primary */
static int64_t
unary(Ev *e, int live)
{
	TokKind k = peek(e);
	int64_t v;

	if (k != TK_PLUS && k != TK_MINUS && k != TK_TILDE && k != TK_BANG)
		return primary(e, live);
	e->i++;
	if (!enter(e))
		return 0;
	v = unary(e, live);
	e->depth--;
	switch (k) {
	case TK_MINUS: return wrap(0 - (uint64_t)v);
	case TK_TILDE: return ~v;
	case TK_BANG: return !v;
	default: return v;
	}
}

/* Binding strength of a binary operator (C's order); 0 if not one. */
static int
prec(TokKind k)
{
	switch (k) {
	case TK_STAR: case TK_SLASH: case TK_PERCENT: return 10;
	case TK_PLUS: case TK_MINUS: return 9;
	case TK_SHL: case TK_SHR: return 8;
	case TK_LT: case TK_GT: case TK_LE: case TK_GE: return 7;
	case TK_EQ: case TK_NE: return 6;
	case TK_AMP: return 5;
	case TK_CARET: return 4;
	case TK_PIPE: return 3;
	case TK_ANDAND: return 2;
	case TK_OROR: return 1;
	default: return 0;
	}
}

static int64_t
divide(Ev *e, const Token *op, int64_t l, int64_t r, int live)
{
	if (r == 0) {
		if (live)
			fail(e, op, "division by zero in preprocessor expression");
		return 0;
	}
	if (r == -1)	/* INT64_MIN / -1 wraps; INT64_MIN % -1 is 0 */
		return op->kind == TK_SLASH ? wrap(0 - (uint64_t)l) : 0;
	return op->kind == TK_SLASH ? l / r : l % r;
}

static int64_t
shift(Ev *e, const Token *op, int64_t l, int64_t r, int live)
{
	if (r < 0 || r > 63) {
		if (live)
			fail(e, op, "shift count %lld is out of range 0..63",
			    (long long)r);
		return 0;
	}
	if (op->kind == TK_SHL)
		return wrap((uint64_t)l << r);
	return l >= 0 ? l >> r : ~(~l >> r);	/* arithmetic shift */
}

/* l op r for every binary operator but && and ||. */
static int64_t
arith(Ev *e, const Token *op, int64_t l, int64_t r, int live)
{
	switch (op->kind) {
	case TK_STAR: return wrap((uint64_t)l * (uint64_t)r);
	case TK_SLASH: case TK_PERCENT: return divide(e, op, l, r, live);
	case TK_PLUS: return wrap((uint64_t)l + (uint64_t)r);
	case TK_MINUS: return wrap((uint64_t)l - (uint64_t)r);
	case TK_SHL: case TK_SHR: return shift(e, op, l, r, live);
	case TK_LT: return l < r;
	case TK_GT: return l > r;
	case TK_LE: return l <= r;
	case TK_GE: return l >= r;
	case TK_EQ: return l == r;
	case TK_NE: return l != r;
	case TK_AMP: return l & r;
	case TK_CARET: return l ^ r;
	case TK_PIPE: return l | r;
	default: bug("arith: not a binary operator");
	}
}

/*
 * binary: unary (op binary)*, by precedence climbing.  'live' is 0 in a
 * branch that && || or ?: does not evaluate: no errors are reported there.
 */
static int64_t
binary(Ev *e, int minprec, int live)
{
	int64_t l = unary(e, live), r;
	const Token *op;
	int p;

	while (!e->err && (p = prec(peek(e))) >= minprec && p > 0) {
		op = &e->t[e->i++];
		if (op->kind == TK_ANDAND) {
			r = binary(e, p + 1, live && l != 0);
			l = l != 0 && r != 0;
		} else if (op->kind == TK_OROR) {
			r = binary(e, p + 1, live && l == 0);
			l = l != 0 || r != 0;
		} else {
			r = binary(e, p + 1, live);
			l = arith(e, op, l, r, live);
		}
	}
	return e->err ? 0 : l;
}

/* cond: binary ('?' cond ':' cond)? */
static int64_t
cond(Ev *e, int live)
{
	int64_t c = binary(e, 1, live), a, b;

	if (e->err || peek(e) != TK_QUESTION)
		return c;
	e->i++;
	if (!enter(e))
		return 0;
	a = cond(e, live && c != 0);
	if (!expect(e, TK_COLON, "expected ':' in conditional expression")) {
		e->depth--;
		return 0;
	}
	b = cond(e, live && c == 0);
	e->depth--;
	return c ? a : b;
}

/*
 * Evaluates t[0..n), the expression of a #if or #elif at 'at'.  Stores
 * the value in *val and returns 0, or reports the first error, stores 0
 * and returns -1.  'defined' (may be NULL) answers 'defined NAME'.
 */
int
pp_eval_expr(Diag *d, const Token *t, int n, Loc at, PPDefinedFn *defined,
    void *ctx, int64_t *val)
{
	Ev e;
	int64_t v;

	memset(&e, 0, sizeof e);
	e.d = d;
	e.t = t;
	e.n = n;
	e.at = at;
	e.defined = defined;
	e.ctx = ctx;
	*val = 0;
	if (n <= 0) {
		diag_error(d, at, "missing expression in preprocessor conditional");
		return -1;
	}
	v = cond(&e, 1);
	if (!e.err && e.i < e.n)
		fail(&e, &t[e.i], "missing binary operator before token '%.*s'",
		    t[e.i].len, t[e.i].text ? t[e.i].text : "");
	if (e.err)
		return -1;
	*val = v;
	return 0;
}
