/*
 * preproc.c - the C-like preprocessor of .pk files, on the token stream.
 *
 * Needs:    the lexer (lexer.re); files are read with read_file() into the
 *           Diag's SrcMgr, one Lexer per open file.
 * Gives:    pp_next(): the tokens of the main file after directives and
 *           macro expansion.  A token from a macro keeps the Loc of its
 *           spelling (the #define body, or the argument where it was
 *           written) and gets loc.exp, an SrcExp naming the macro and the
 *           use site; nested expansions chain through SrcExp.use.exp.
 *
 * Directives: #define #undef #include #if #ifdef #ifndef #elif #else
 * #endif #error #warning, and the null directive ('#' alone).  A directive
 * is a '#' first on its line, up to the next token first on a line.
 *
 * Method.  Tokens are read from a stack of contexts (Ctx) over the
 * current file's lexer.  Expanding a macro pushes a context holding its
 * substituted body; the macro is disabled until that context is read
 * out, and a name of a disabled macro read meanwhile is painted
 * (Token.noexpand) for good: that is C's rule against recursion.  An
 * argument is expanded on its own under a barrier context that ends it.
 *
 * Decisions:
 *  - #include <f> searches only the -I directories; #include "f" first
 *    the directory of the including file.  A computed #include MACRO is
 *    expanded first.  An include cycle is an error, even when guarded.
 *  - Lexical errors inside skipped groups are not reported (text in an
 *    '#if 0' may be prose); an unterminated comment there still ends in
 *    "unterminated #if".
 *  - #include is refused inside the arguments of a macro call; other
 *    directives there are processed.
 *  - Limits, so no input eats the machine: MAX_EXPANDED tokens and
 *    MAX_TEXT bytes made by expansion per preprocessor, MAX_NEST nested
 *    argument expansions; past one, an error and no more expansion.
 *
 * Memory: tokens, macros and names in the arena given to pp_new; the
 * context stack, argument buffers and open files on the heap, freed as
 * they are done with and by pp_free.
 * Entry:    pp_new() ... pp_next(), pp_free()
 * Tests:    tests/unit/check_preproc.c
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dsl/dsl.h"

enum {
	MAX_INCLUDE_DEPTH = 200,
	MAX_INCLUDES = 10000,	/* files opened by #include, in all */
	MAX_NEST = 200,		/* arguments expanded within arguments */
	MAX_PARAMS = 256,
	MAX_EXPANDED = 1000000,	/* tokens made by expansion */
	MAX_TEXT = 64 << 20,	/* bytes made by # ## __FILE__ __LINE__ */
	QUIET_BASE = 2		/* PP.quiet's error count when idle */
};

enum { B_NONE, B_FILE, B_LINE };	/* built-in macros */
enum { CS_TAKING, CS_WAIT, CS_DONE };	/* states of a conditional */

typedef struct Toks {		/* a token array on the heap */
	Token *v;
	int n, cap;
} Toks;

typedef struct Macro {
	const char *name;	/* interned */
	Loc loc;		/* the name in its #define */
	int funlike, variadic;	/* variadic: last param is __VA_ARGS__ */
	int nparam;
	const char **param;	/* interned */
	Token *body;
	int *pidx;		/* per body token: parameter index or -1 */
	int nbody;
	int builtin;		/* B_FILE, B_LINE */
	int disabled;		/* contexts of this macro still being read */
} Macro;

typedef struct Ctx {
	Token *v;		/* heap, owned */
	int n, i;		/* i: next to read */
	Macro *m;		/* disabled while this is read; or NULL */
	int barrier;		/* reading stops here with TK_EOF */
} Ctx;

typedef struct Cond {
	Loc at;			/* the #if, #ifdef or #ifndef */
	const char *what;	/* its name, for "unterminated #..." */
	int state;		/* CS_* */
	int live;		/* opened outside any skipped group */
	int haselse;
	Loc elseat;
} Cond;

typedef struct Input {		/* an open file */
	struct Input *up;	/* the file that included it */
	Lexer lx;
	int file;		/* SrcMgr index */
	int hasid;		/* dev, ino identify it (cycles) */
	dev_t dev;
	ino_t ino;
	Cond *cond;		/* heap stack of open conditionals */
	int ncond, capcond;
	Token la;		/* a token given back, if hasla */
	int hasla;
	int eof;		/* end reached and checked */
	int embedded;		/* a C file's module: PK_PP(#...) directives */
	int ppdepth;		/* > 0 inside PK_PP(: parentheses open */
	int ppend;		/* its ')' read: the directive line ended */
} Input;

typedef struct Args {		/* the arguments of one macro call */
	Toks raw;		/* all arguments, one after another */
	int *start;		/* argument k is raw.v[start[k]..start[k+1]) */
	int nstart, capstart;
	Toks *exp;		/* [k]: argument k fully expanded, if done[k] */
	char *done;
} Args;

struct PP {
	Diag *d;
	SrcMgr *sm;
	Strtab *strs;
	Arena *a;
	Diag quiet;		/* swallows errors; see quiet_reset */
	VEC(const char *) incdir;
	const char **key;	/* macro table: open addressing on the */
	Macro **val;		/* interned name; undef leaves a NULL val */
	unsigned cap, used;
	Input *in;		/* innermost open file */
	int depth;		/* files open */
	int nincluded;
	Ctx *ctx;		/* context stack, top last */
	int nctx, capctx;
	int from_ctx;		/* the last next_raw token came from ctx */
	int nbarrier;
	int collecting;		/* reading macro arguments */
	long ntok;		/* tokens made by expansion so far */
	size_t ntext;		/* bytes made so far */
	int dead;		/* a limit was hit: expand no more */
	Toks line;		/* the directive being read */
	int fcache;		/* file whose __FILE__ token is fcache_tok */
	Token fcache_tok;
	const char *s_defined, *s_va_args;
};

static void next_exp(PP *pp, Token *t);

/* --------------------------------------------------------- utilities */

static void
toks_push(Toks *s, const Token *t)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
	}
	s->v[s->n++] = *t;
}

/*
 * PP.quiet is a Diag that prints nothing: its error count stays above
 * its limit, so diag_report only counts.  A change of nerror tells that
 * a quietly lexed text had an error.
 */
static void
quiet_reset(PP *pp)
{
	pp->quiet.max_errors = 1;
	pp->quiet.nerror = QUIET_BASE;
	pp->quiet.suppressed = 1;
	pp->quiet.werror = 1;
}

static int
is_ident(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') ||
	    (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (i = 1; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/* The spelling of t joined, with a space where there was white space. */
static void
spell(Buf *b, const Token *t, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i > 0 && (t[i].space || t[i].bol))
			buf_putc(b, ' ');
		buf_putn(b, t[i].text ? t[i].text : "", (size_t)t[i].len);
	}
}

/* ------------------------------------------------------ macro table */

static unsigned
hashp(const char *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 29;
	x *= 0x9e3779b97f4a7c15ull;
	return (unsigned)(x >> 32);
}

static unsigned
find_slot(const PP *pp, const char *name)
{
	unsigned i = hashp(name) & (pp->cap - 1);

	while (pp->key[i] && pp->key[i] != name)
		i = (i + 1) & (pp->cap - 1);
	return i;
}

static Macro *
lookup(const PP *pp, const char *name)
{
	unsigned i;

	if (!pp->cap)
		return NULL;
	i = find_slot(pp, name);
	return pp->key[i] ? pp->val[i] : NULL;
}

static void
grow_table(PP *pp)
{
	const char **okey = pp->key;
	Macro **oval = pp->val;
	unsigned i, ocap = pp->cap;

	pp->cap = ocap ? 2 * ocap : 64;
	pp->key = xcalloc(pp->cap, sizeof *pp->key);
	pp->val = xcalloc(pp->cap, sizeof *pp->val);
	for (i = 0; i < ocap; i++)
		if (okey[i]) {
			unsigned j = find_slot(pp, okey[i]);
			pp->key[j] = okey[i];
			pp->val[j] = oval[i];
		}
	free(okey);
	free(oval);
}

/* Sets the macro of 'name' (m NULL: undefines it). */
static void
set_macro(PP *pp, const char *name, Macro *m)
{
	unsigned i;

	if (2 * (pp->used + 1) > pp->cap)
		grow_table(pp);
	i = find_slot(pp, name);
	if (!pp->key[i]) {
		pp->key[i] = name;
		pp->used++;
	}
	pp->val[i] = m;
}

static int
is_defined(void *ctx, const char *name)
{
	return lookup(ctx, name) != NULL;
}

/* ---------------------------------------------------------- contexts */

static void
push_ctx(PP *pp, Token *v, int n, Macro *m, int barrier)
{
	Ctx *c;

	if (pp->nctx == pp->capctx) {
		pp->capctx = pp->capctx ? 2 * pp->capctx : 16;
		pp->ctx = xrealloc(pp->ctx, (size_t)pp->capctx * sizeof *pp->ctx);
	}
	c = &pp->ctx[pp->nctx++];
	c->v = v;
	c->n = n;
	c->i = 0;
	c->m = m;
	c->barrier = barrier;
	if (m)
		m->disabled++;
}

static void
pop_ctx(PP *pp)
{
	Ctx *c = &pp->ctx[--pp->nctx];

	if (c->m)
		c->m->disabled--;
	free(c->v);
}

/* Reports why expansion stops, and stops it: every context is read out. */
PK_PRINTF(3, 4) static void
stop_expansion(PP *pp, Loc at, const char *fmt, ...)
{
	va_list ap;
	int i;

	va_start(ap, fmt);
	diag_report(pp->d, DIAG_ERROR, at, fmt, ap);
	va_end(ap);
	pp->dead = 1;
	for (i = 0; i < pp->nctx; i++)
		pp->ctx[i].i = pp->ctx[i].n;
}

/* Counts tokens and bytes made by expansion; 0 once over a limit. */
static int
charge(PP *pp, long ntok, size_t ntext, Loc at)
{
	if (pp->dead)
		return 0;
	pp->ntok += ntok;
	pp->ntext += ntext;
	if (pp->ntok > MAX_EXPANDED)
		stop_expansion(pp, at, "macro expansion exceeds %d tokens",
		    MAX_EXPANDED);
	else if (pp->ntext > MAX_TEXT)
		stop_expansion(pp, at, "macro expansion makes more than %d bytes "
		    "of text", MAX_TEXT);
	return !pp->dead;
}

/* ------------------------------------------------------------- files */

static int
skipping(const Input *in)
{
	return in->ncond > 0 && in->cond[in->ncond - 1].state != CS_TAKING;
}

/* Lexes the next token of the file, reporting errors only if live. */
static void
lex(PP *pp, Input *in, Token *t, int live)
{
	if (!live)
		quiet_reset(pp);
	in->lx.diag = live ? pp->d : &pp->quiet;
	lex_next(&in->lx, t);
}

/*
 * The next token of the directive line into *t; returns 0, consuming
 * nothing, at the end of the line.  The lookahead is lexed quietly and
 * again (live) only if it had an error, so no error is reported twice.
 */
static int
line_tok(PP *pp, Input *in, Token *t, int live)
{
	Lexer save = in->lx;

	if (in->ppend)
		return 0;
	lex(pp, in, t, 0);
	if (in->ppdepth && t->kind != TK_EOF) {	/* PK_PP(...): to its ')' */
		if (t->kind == TK_LPAREN)
			in->ppdepth++;
		else if (t->kind == TK_RPAREN && --in->ppdepth == 0) {
			in->ppend = 1;
			return 0;
		}
	} else if (t->bol || t->kind == TK_EOF) {
		in->lx = save;
		return 0;
	}
	if (live && pp->quiet.nerror != QUIET_BASE) {
		in->lx = save;
		lex(pp, in, t, 1);
	}
	return 1;
}

/* Reads the rest of the directive line into pp->line. */
static void
read_line(PP *pp, Input *in, int live)
{
	Token t;

	pp->line.n = 0;
	while (line_tok(pp, in, &t, live))
		toks_push(&pp->line, &t);
}

static void
extra_tokens(PP *pp, int from, const char *what)
{
	if (pp->line.n > from)
		diag_warning(pp->d, pp->line.v[from].loc,
		    "extra tokens at end of #%s directive", what);
}

static Input *
push_input(PP *pp, int file, const struct stat *st)
{
	Input *in = xcalloc(1, sizeof *in);

	in->up = pp->in;
	in->file = file;
	if (st) {
		in->hasid = 1;
		in->dev = st->st_dev;
		in->ino = st->st_ino;
	}
	lex_init(&in->lx, pp->d, pp->strs, pp->a, file);
	pp->in = in;
	pp->depth++;
	return in;
}

static void
pop_input(PP *pp)
{
	Input *in = pp->in;

	pp->in = in->up;
	pp->depth--;
	free(in->cond);
	free(in);
}

/* At the end of a file: every conditional still open is an error. */
static void
end_of_file(PP *pp, Input *in)
{
	while (in->ncond > 0) {
		Cond *c = &in->cond[--in->ncond];
		diag_error(pp->d, c->at, "unterminated %s (no matching #endif)",
		    c->what);
	}
}

static void directive(PP *pp, const Token *hash);

/*
 * PK_PP( #directive ... ) in an embedded module (pp_push_embedded): C's
 * preprocessor would take a line starting with '#' inside PK_MODULE as
 * its own, so a .pk directive is written inside PK_PP( ), and ends at
 * its ')' instead of at the end of the line.
 */
static void
pp_directive(PP *pp, Input *in, const Token *name)
{
	Token lp, hash;
	int live = !skipping(in);

	lex(pp, in, &lp, live);
	if (lp.kind == TK_LPAREN)
		lex(pp, in, &hash, live);
	if (lp.kind != TK_LPAREN || hash.kind != TK_HASH) {
		if (live)
			diag_error(pp->d, lp.kind == TK_LPAREN ? hash.loc :
			    lp.loc, "PK_PP takes a directive: PK_PP(#define "
			    "N 8), PK_PP(#include \"file.pk\")");
		if (lp.kind != TK_LPAREN) {
			in->la = lp;
			in->hasla = 1;
			return;
		}
	}
	in->ppdepth = 1 + (hash.kind == TK_LPAREN);
	in->ppend = hash.kind == TK_RPAREN;
	if (hash.kind == TK_HASH)
		directive(pp, &hash);
	read_line(pp, in, 0);	/* what the directive left, to the ')' */
	if (!in->ppend && live)
		diag_error(pp->d, name->loc, "unterminated PK_PP: no ')' "
		    "closes it");
	in->ppdepth = in->ppend = 0;
}

/*
 * The next token of the current file that is not in a directive or a
 * skipped group.  Directives are carried out on the way.  At the end of
 * the file it returns TK_EOF (again and again) without leaving the file.
 */
static void
file_next(PP *pp, Token *t)
{
	Input *in;

	for (;;) {
		in = pp->in;
		if (in->hasla) {
			*t = in->la;
			in->hasla = 0;
		} else
			lex(pp, in, t, !skipping(in));
		if (t->kind == TK_EOF) {
			if (!in->eof) {
				in->eof = 1;
				end_of_file(pp, in);
			}
			return;
		}
		if (t->bol && t->kind == TK_HASH)
			directive(pp, t);
		else if (in->embedded && t->kind == TK_IDENT &&
		    strcmp(t->text, "PK_PP") == 0)
			pp_directive(pp, in, t);
		else if (!skipping(in))
			return;
	}
}

/* ------------------------------------------------------ token reading */

/* The next token before expansion: from the contexts, else the file. */
static void
next_raw(PP *pp, Token *t)
{
	Ctx *c;
	Macro *m;

	while (pp->nctx > 0) {
		c = &pp->ctx[pp->nctx - 1];
		if (c->i < c->n) {
			*t = c->v[c->i++];
			pp->from_ctx = 1;
			if (t->kind == TK_IDENT && !t->noexpand &&
			    (m = lookup(pp, t->text)) && m->disabled)
				t->noexpand = 1;	/* painted for good */
			return;
		}
		if (c->barrier) {
			memset(t, 0, sizeof *t);
			t->kind = TK_EOF;
			pp->from_ctx = 1;
			return;
		}
		pop_ctx(pp);
	}
	if (pp->in)
		file_next(pp, t);	/* directives there may use contexts */
	else {
		memset(t, 0, sizeof *t);
		t->kind = TK_EOF;
	}
	pp->from_ctx = 0;
}

/* Gives back t, just read by next_raw (never TK_EOF). */
static void
unread(PP *pp, const Token *t)
{
	if (pp->from_ctx) {
		pp->ctx[pp->nctx - 1].i--;
		return;
	}
	pp->in->la = *t;
	pp->in->hasla = 1;
}

/* Consumes a '(' if one comes next. */
static int
peek_lparen(PP *pp)
{
	Token t;

	next_raw(pp, &t);
	if (t.kind == TK_LPAREN)
		return 1;
	if (t.kind != TK_EOF)
		unread(pp, &t);
	return 0;
}

/*
 * In a #if, the operand of 'defined' (just appended to out) is taken
 * as it is, even when 'defined' came out of a macro.
 */
static void
defined_operand(PP *pp, Toks *out)
{
	Token t;
	int paren = 0;

	for (;;) {
		next_raw(pp, &t);
		if (!paren && t.kind == TK_LPAREN) {
			paren = 1;
			toks_push(out, &t);
			continue;
		}
		if (t.kind == TK_IDENT) {
			t.noexpand = 1;
			toks_push(out, &t);
		} else if (t.kind != TK_EOF)
			unread(pp, &t);
		return;
	}
}

/*
 * Macro-expands v[0..n) on its own, appending to *out: a barrier stops
 * a macro call from reading past the end.  'ifexpr': keep the operands
 * of 'defined'.  'at' is for the depth error.
 */
static void
expand_alone(PP *pp, const Token *v, int n, Toks *out, int ifexpr, Loc at)
{
	Token t, *copy;

	if (pp->nbarrier >= MAX_NEST) {
		if (!pp->dead)
			stop_expansion(pp, at, "macro arguments nested more "
			    "than %d deep", MAX_NEST);
		return;
	}
	copy = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
	if (n > 0)
		memcpy(copy, v, (size_t)n * sizeof *copy);
	push_ctx(pp, copy, n, NULL, 1);
	pp->nbarrier++;
	for (;;) {
		next_exp(pp, &t);
		if (t.kind == TK_EOF)
			break;
		toks_push(out, &t);
		if (ifexpr && t.kind == TK_IDENT && t.text == pp->s_defined)
			defined_operand(pp, out);
	}
	pp->nbarrier--;
	if (pp->nctx == 0 || !pp->ctx[pp->nctx - 1].barrier)
		bug("expand_alone: barrier lost");
	pop_ctx(pp);
}

/* -------------------------------------------------- making new tokens */

/*
 * Lexes s[0..n) (NUL-terminated, kept for good) into *t; returns 0 if
 * it is exactly one token without lexical errors, -1 otherwise.
 */
static int
relex(PP *pp, const char *s, size_t n, Token *t)
{
	Lexer lx;
	Token end;

	memset(&lx, 0, sizeof lx);
	lx.start = lx.cur = lx.line0 = s;
	lx.lim = s + n;
	lx.line = 1;
	lx.bol = 1;
	lx.diag = &pp->quiet;
	lx.strs = pp->strs;
	lx.arena = pp->a;
	quiet_reset(pp);
	lex_next(&lx, t);
	if (t->kind == TK_EOF || t->loc.col != 1 || (size_t)t->len != n)
		return -1;
	if (lex_next(&lx, &end) != TK_EOF || pp->quiet.nerror != QUIET_BASE)
		return -1;
	t->bol = 0;
	return 0;
}

/* Appends s[0..n) to b as the inside of a string literal. */
static void
escape(Buf *b, const char *s, size_t n, int controls)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_putc(b, '\\');
		if (controls && (c < 0x20 || c == 0x7f))
			buf_printf(b, "\\x%02x", c);
		else
			buf_putc(b, c);
	}
}

/* Makes a string token of b's text (a complete literal), or returns -1. */
static int
string_tok(PP *pp, Buf *b, Loc at, Token *t)
{
	char *s;

	s = arena_strndup(pp->a, b->p ? b->p : "", b->n);
	if (relex(pp, s, b->n, t) < 0 || t->kind != TK_STRING)
		return -1;
	t->loc = at;
	return 0;
}

/* '#' param: the spelling of the argument v[0..n) as a string. */
static int
stringify(PP *pp, const Token *v, int n, Loc at, Token *t)
{
	Buf b = {0};
	size_t size = 2;
	int i, r, k;

	for (i = 0; i < n; i++)	/* the size first: it may be too much */
		for (size += (size_t)v[i].len + 1, k = 0; k < v[i].len; k++)
			size += v[i].text[k] == '"' || v[i].text[k] == '\\';
	if (!charge(pp, 0, size, at))
		return -1;
	buf_putc(&b, '"');
	for (i = 0; i < n; i++) {
		if (i > 0 && (v[i].space || v[i].bol))
			buf_putc(&b, ' ');
		escape(&b, v[i].text ? v[i].text : "", (size_t)v[i].len,
		    0);
	}
	buf_putc(&b, '"');
	r = string_tok(pp, &b, at, t);
	buf_free(&b);
	if (r < 0 && !pp->dead)
		diag_error(pp->d, at, "'#' does not give a valid string literal");
	return r;
}

/* l ## r into *l; returns -1 (l unchanged) if that is not one token. */
static int
paste(PP *pp, Token *l, const Token *r, const Token *op)
{
	size_t n = (size_t)l->len + (size_t)r->len;
	char *s;
	Token t;

	if (!charge(pp, 0, n, op->loc))
		return -1;
	s = arena_alloc(pp->a, n + 1);
	memcpy(s, l->text, (size_t)l->len);
	memcpy(s + l->len, r->text, (size_t)r->len);
	if (relex(pp, s, n, &t) < 0) {
		diag_error(pp->d, op->loc, "pasting \"%.*s\" and \"%.*s\" does "
		    "not give a valid preprocessing token", l->len, l->text,
		    r->len, r->text);
		return -1;
	}
	t.loc = l->loc;
	t.space = l->space;
	*l = t;
	return 0;
}

/* The use site in the source proper: out of every macro expansion. */
static Loc
outermost(const PP *pp, Loc at)
{
	int guard = 0;

	while (at.exp > 0 && at.exp < pp->sm->exp.n && guard++ < 100000)
		at = pp->sm->exp.v[at.exp].use;
	return at;
}

/* Turns the name token t of __FILE__ or __LINE__ into its value. */
static void
builtin(PP *pp, const Macro *m, Token *t)
{
	Loc at = outermost(pp, t->loc);
	const SrcFile *f = srcmgr_file(pp->sm, at.file);
	Token r;
	Buf b = {0};

	if (m->builtin == B_LINE) {
		if (!charge(pp, 0, 16, t->loc))
			return;
		t->kind = TK_INT;
		t->v.i = (uint64_t)(at.line > 0 ? at.line : 0);
		t->text = arena_printf(pp->a, "%d", at.line > 0 ? at.line : 0);
		t->len = (int)strlen(t->text);
		t->suffix = SUF_NONE;
		return;
	}
	if (pp->fcache != at.file || !pp->fcache_tok.text) {
		if (!charge(pp, 0, f ? 4 * strlen(f->name) + 2 : 2, t->loc))
			return;
		buf_putc(&b, '"');
		if (f)
			escape(&b, f->name, strlen(f->name), 1);
		buf_putc(&b, '"');
		if (string_tok(pp, &b, t->loc, &r) < 0) {
			buf_free(&b);
			return;
		}
		buf_free(&b);
		pp->fcache = at.file;
		pp->fcache_tok = r;
	}
	r = pp->fcache_tok;
	r.loc = t->loc;
	r.space = t->space;
	r.bol = t->bol;
	*t = r;
}

/* ---------------------------------------------------------- expansion */

static void
args_free(Args *a, int nparam)
{
	int k;

	free(a->raw.v);
	free(a->start);
	if (a->exp)
		for (k = 0; k < nparam; k++)
			free(a->exp[k].v);
	free(a->exp);
	free(a->done);
}

static void
args_mark(Args *a)
{
	if (a->nstart == a->capstart) {
		a->capstart = a->capstart ? 2 * a->capstart : 8;
		a->start = xrealloc(a->start, (size_t)a->capstart * sizeof *a->start);
	}
	a->start[a->nstart++] = a->raw.n;
}

/* Argument p: its tokens and, in *n, how many (raw.v may be NULL). */
static const Token *
arg_toks(const Args *a, int p, int *n)
{
	*n = a->start[p + 1] - a->start[p];
	return *n > 0 ? a->raw.v + a->start[p] : NULL;
}

/* Checks the number of arguments (a->nstart - 1) against m. */
static int
check_count(PP *pp, const Macro *m, const Token *name, Args *a)
{
	int nargs = a->nstart - 1;

	if (m->nparam == 0 && nargs == 1 && a->raw.n == 0)
		a->nstart = 1;		/* f() has no argument */
	else if (m->variadic && nargs == m->nparam - 1)
		args_mark(a);		/* __VA_ARGS__ is empty */
	nargs = a->nstart - 1;
	if (nargs == m->nparam)
		return 0;
	if (nargs < m->nparam)
		diag_error(pp->d, name->loc, "macro '%s' requires %d argument%s, "
		    "but only %d given", m->name, m->nparam,
		    m->nparam == 1 ? "" : "s", nargs);
	else
		diag_error(pp->d, name->loc, "macro '%s' passed %d arguments, "
		    "but takes just %d", m->name, nargs, m->nparam);
	diag_note(pp->d, m->loc, "macro '%s' defined here", m->name);
	return -1;
}

/*
 * Reads the arguments of a call of m, after its '(', up to the matching
 * ')'.  Returns 0, or -1 after an error (the tokens read are dropped).
 */
static int
collect(PP *pp, const Macro *m, const Token *name, Args *a)
{
	Token t;
	int depth = 0;

	memset(a, 0, sizeof *a);
	args_mark(a);
	pp->collecting++;
	for (;;) {
		next_raw(pp, &t);
		if (t.kind == TK_EOF || (depth == 0 && t.kind == TK_RPAREN))
			break;
		if (depth == 0 && t.kind == TK_COMMA &&
		    !(m->variadic && a->nstart == m->nparam)) {
			args_mark(a);
			continue;
		}
		depth += t.kind == TK_LPAREN;
		depth -= t.kind == TK_RPAREN;
		t.space |= t.bol;
		t.bol = 0;
		toks_push(&a->raw, &t);
	}
	pp->collecting--;
	args_mark(a);
	if (t.kind == TK_EOF) {
		if (!pp->dead)
			diag_error(pp->d, name->loc, "unterminated argument list "
			    "invoking macro '%s'", m->name);
		return -1;
	}
	if (check_count(pp, m, name, a) < 0)
		return -1;
	a->exp = xcalloc((size_t)m->nparam + 1, sizeof *a->exp);
	a->done = xcalloc((size_t)m->nparam + 1, 1);
	return 0;
}

/* What substitution needs: the macro, its call, and the SrcExp. */
typedef struct Sub {
	const Macro *m;
	const Token *name;
	Args *a;		/* NULL for an object-like macro */
	int exp;		/* SrcExp of this expansion; 0 until needed */
	Toks out;
} Sub;

static int
sub_exp(PP *pp, Sub *s)
{
	if (!s->exp)
		s->exp = srcmgr_add_exp(pp->sm, s->m->name, s->name->loc,
		    s->m->loc);
	return s->exp;
}

/* Appends t, from the body (or made), as coming from this expansion. */
static void
emit_body(PP *pp, Sub *s, Token t)
{
	t.loc.exp = sub_exp(pp, s);
	toks_push(&s->out, &t);
}

/* Appends argument tokens; those written in place keep their place. */
static void
emit_arg(PP *pp, Sub *s, const Token *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		Token t = v[i];
		if (!t.loc.exp)
			t.loc.exp = sub_exp(pp, s);
		toks_push(&s->out, &t);
	}
}

/*
 * Appends the body item at i: '#' param, a parameter (unexpanded if
 * 'raw', as an operand of ##), or a plain token.  Returns the next i.
 */
static int
emit_item(PP *pp, Sub *s, int i, int raw)
{
	const Macro *m = s->m;
	Args *a = s->a;
	const Token *v;
	int p, n, first;
	Token t;

	if (a && m->body[i].kind == TK_HASH && i + 1 < m->nbody &&
	    (p = m->pidx[i + 1]) >= 0) {
		Loc at = loc_span(m->body[i].loc, m->body[i + 1].loc);
		v = arg_toks(a, p, &n);
		if (stringify(pp, v, n, at, &t) == 0) {
			t.space = m->body[i].space;
			emit_body(pp, s, t);
		}
		return i + 2;
	}
	if (!a || (p = m->pidx[i]) < 0) {
		emit_body(pp, s, m->body[i]);
		return i + 1;
	}
	first = s->out.n;
	v = arg_toks(a, p, &n);
	if (raw)
		emit_arg(pp, s, v, n);
	else {
		if (!a->done[p]) {
			a->done[p] = 1;
			expand_alone(pp, v, n, &a->exp[p], 0, s->name->loc);
			charge(pp, a->exp[p].n, 0, s->name->loc);
		}
		emit_arg(pp, s, a->exp[p].v, a->exp[p].n);
	}
	if (s->out.n > first)	/* spaced as the parameter was */
		s->out.v[first].space = m->body[i].space;
	return i + 1;
}

/* Pastes the item at i (after '##' at i - 1) onto what is in s->out. */
static int
paste_item(PP *pp, Sub *s, int i, int lstart)
{
	const Token *op = &s->m->body[i - 1];
	int rstart = s->out.n, next;
	Token opx = *op;

	next = emit_item(pp, s, i, 1);
	opx.loc.exp = sub_exp(pp, s);
	if (rstart == lstart || s->out.n == rstart)
		return next;	/* an empty side: the other one stands */
	if (paste(pp, &s->out.v[rstart - 1], &s->out.v[rstart], &opx) == 0) {
		s->out.v[rstart - 1].loc.exp = sub_exp(pp, s);
		memmove(&s->out.v[rstart], &s->out.v[rstart + 1],
		    (size_t)(s->out.n - rstart - 1) * sizeof *s->out.v);
		s->out.n--;
	}
	return next;
}

/*
 * Substitutes the arguments into m's body, pastes and stringifies, and
 * pushes the result to be rescanned with m disabled.
 */
static void
subst(PP *pp, Macro *m, const Token *name, Args *a)
{
	Sub s;
	int i = 0, start;

	memset(&s, 0, sizeof s);
	s.m = m;
	s.name = name;
	s.a = a;
	while (i < m->nbody && !pp->dead) {
		start = s.out.n;
		i = emit_item(pp, &s, i, i + 1 < m->nbody &&
		    m->body[i + 1].kind == TK_HASHHASH);
		while (i < m->nbody && m->body[i].kind == TK_HASHHASH &&
		    i + 1 < m->nbody && !pp->dead)
			i = paste_item(pp, &s, i + 1, start);
	}
	if (s.out.n > 0) {
		s.out.v[0].space = name->space;
		s.out.v[0].bol = 0;
	}
	if (!charge(pp, s.out.n + 1, 0, name->loc) || s.out.n == 0) {
		free(s.out.v);
		return;
	}
	push_ctx(pp, s.out.v, s.out.n, m, 0);
}

/* Expands m named by *name; returns 0 if the name stands as it is. */
static int
expand(PP *pp, Macro *m, const Token *name)
{
	Args a;

	if (!m->funlike) {
		subst(pp, m, name, NULL);
		return 1;
	}
	if (!peek_lparen(pp))
		return 0;
	if (collect(pp, m, name, &a) == 0)
		subst(pp, m, name, &a);
	args_free(&a, m->nparam);
	return 1;
}

/* The next token after macro expansion (TK_EOF at a barrier or file end). */
static void
next_exp(PP *pp, Token *t)
{
	Macro *m;

	for (;;) {
		next_raw(pp, t);
		if (t->kind != TK_IDENT || t->noexpand || pp->dead)
			return;
		m = lookup(pp, t->text);
		if (!m)
			return;
		if (m->builtin) {
			builtin(pp, m, t);
			return;
		}
		if (!expand(pp, m, t))
			return;
	}
}

/* ----------------------------------------------------------- #define */

/* Names that #define and #undef may not touch. */
static int
reserved(PP *pp, const Token *t, const char *what)
{
	Macro *m = lookup(pp, t->text);

	if (t->text != pp->s_defined && t->text != pp->s_va_args &&
	    !(m && m->builtin))
		return 0;
	diag_error(pp->d, t->loc, "'%s' cannot be %s", t->text, what);
	return 1;
}

/*
 * params: '(' ')' | '(' IDENT (',' IDENT)* (',' '...')? ')' | '(' '...' ')'
 * t[1] is the '('.  Returns the index after ')', or -1 after an error.
 */
static int
params(PP *pp, Macro *m, const Token *t, int n)
{
	const char *p[MAX_PARAMS];
	int np = 0, i = 2, k;

	m->funlike = 1;
	while (!(np == 0 && i < n && t[i].kind == TK_RPAREN)) {
		if (i >= n) {
			diag_error(pp->d, t[n - 1].loc,
			    "missing ')' in macro parameter list");
			return -1;
		}
		if (np == MAX_PARAMS) {
			diag_error(pp->d, t[i].loc, "more than %d macro "
			    "parameters", MAX_PARAMS);
			return -1;
		}
		if (t[i].kind == TK_ELLIPSIS) {
			p[np++] = pp->s_va_args;
			m->variadic = 1;
			if (++i < n && t[i].kind == TK_RPAREN)
				break;
			diag_error(pp->d, t[i - 1].loc, "missing ')' after '...'");
			return -1;
		}
		if (t[i].kind != TK_IDENT || t[i].text == pp->s_va_args) {
			diag_error(pp->d, t[i].loc, "expected a parameter name, "
			    "found '%.*s'", t[i].len, t[i].text);
			return -1;
		}
		for (k = 0; k < np; k++)
			if (p[k] == t[i].text) {
				diag_error(pp->d, t[i].loc, "duplicate macro "
				    "parameter '%s'", t[i].text);
				return -1;
			}
		p[np++] = t[i++].text;
		if (i >= n)
			continue;	/* missing ')' */
		if (t[i].kind == TK_RPAREN)
			break;
		if (t[i].kind == TK_COMMA) {
			i++;
			continue;
		}
		diag_error(pp->d, t[i].loc, "expected ',' or ')' "
		    "in macro parameter list");
		return -1;
	}
	m->nparam = np;
	m->param = arena_alloc(pp->a, (size_t)(np ? np : 1) * sizeof *m->param);
	memcpy(m->param, p, (size_t)np * sizeof *p);
	return i + 1;
}

static int
param_index(const Macro *m, const Token *t)
{
	int k;

	if (!m->funlike || t->kind != TK_IDENT)
		return -1;
	for (k = 0; k < m->nparam; k++)
		if (m->param[k] == t->text)
			return k;
	return -1;
}

/* Stores the replacement list t[0..n) in m, checking # and ##. */
static int
body(PP *pp, Macro *m, const Token *t, int n)
{
	int i;

	m->nbody = n;
	m->body = arena_alloc(pp->a, (size_t)(n ? n : 1) * sizeof *m->body);
	m->pidx = arena_alloc(pp->a, (size_t)(n ? n : 1) * sizeof *m->pidx);
	for (i = 0; i < n; i++) {
		m->body[i] = t[i];
		m->body[i].bol = 0;
		m->body[i].noexpand = 0;
		m->pidx[i] = param_index(m, &t[i]);
	}
	if (n > 0)
		m->body[0].space = 0;
	if (n > 0 && (t[0].kind == TK_HASHHASH || t[n - 1].kind == TK_HASHHASH)) {
		diag_error(pp->d, t[0].kind == TK_HASHHASH ? t[0].loc :
		    t[n - 1].loc, "'##' cannot appear at either end of a macro "
		    "expansion");
		return -1;
	}
	for (i = 0; m->funlike && i < n; i++)
		if (t[i].kind == TK_HASH && (i + 1 >= n || m->pidx[i + 1] < 0)) {
			diag_error(pp->d, t[i].loc, "'#' is not followed by a "
			    "macro parameter");
			return -1;
		}
	return 0;
}

/* Whether two definitions are the same, as C requires of a redefinition. */
static int
same_def(const Macro *a, const Macro *b)
{
	int i;

	if (a->funlike != b->funlike || a->variadic != b->variadic ||
	    a->nparam != b->nparam || a->nbody != b->nbody)
		return 0;
	for (i = 0; i < a->nparam; i++)
		if (a->param[i] != b->param[i])
			return 0;
	for (i = 0; i < a->nbody; i++) {
		const Token *x = &a->body[i], *y = &b->body[i];
		if (x->kind != y->kind || x->len != y->len ||
		    (i > 0 && x->space != y->space) ||
		    memcmp(x->text, y->text, (size_t)x->len) != 0)
			return 0;
	}
	return 1;
}

/*
 * #define: t[0..n) is NAME, an optional parameter list right after it,
 * then the body.  Returns 0, or -1 after reporting an error.
 */
static int
define(PP *pp, const Token *t, int n, Loc at)
{
	Macro *m, *old;
	int i = 1;

	if (n == 0) {
		diag_error(pp->d, at, "no macro name given in #define directive");
		return -1;
	}
	if (t[0].kind != TK_IDENT) {
		diag_error(pp->d, t[0].loc, "macro names must be identifiers");
		return -1;
	}
	if (reserved(pp, &t[0], "used as a macro name"))
		return -1;
	m = arena_alloc(pp->a, sizeof *m);
	m->name = t[0].text;
	m->loc = t[0].loc;
	if (n > 1 && t[1].kind == TK_LPAREN && !t[1].space &&
	    (i = params(pp, m, t, n)) < 0)
		return -1;
	if (body(pp, m, t + i, n - i) < 0)
		return -1;
	old = lookup(pp, m->name);
	if (old && !same_def(old, m)) {
		diag_warning(pp->d, m->loc, "'%s' redefined", m->name);
		diag_note(pp->d, old->loc, "this is the location of the "
		    "previous definition");
	}
	set_macro(pp, m->name, m);
	return 0;
}

static void
do_define(PP *pp, Input *in, Loc at, int live)
{
	read_line(pp, in, live);
	define(pp, pp->line.v, pp->line.n, at);
}

/* Checks the single NAME operand of #undef, #ifdef or #ifndef. */
static const Token *
name_operand(PP *pp, Loc at, const char *what)
{
	if (pp->line.n == 0) {
		diag_error(pp->d, at, "no macro name given in #%s directive",
		    what);
		return NULL;
	}
	if (pp->line.v[0].kind != TK_IDENT) {
		diag_error(pp->d, pp->line.v[0].loc,
		    "macro names must be identifiers");
		return NULL;
	}
	extra_tokens(pp, 1, what);
	return &pp->line.v[0];
}

static void
do_undef(PP *pp, Input *in, Loc at, int live)
{
	const Token *t;

	read_line(pp, in, live);
	if ((t = name_operand(pp, at, "undef")) && !reserved(pp, t, "undefined"))
		set_macro(pp, t->text, NULL);
}

/* ----------------------------------------------------- conditionals */

static void
push_cond(Input *in, Loc at, const char *what, int state, int live)
{
	Cond *c;

	if (in->ncond == in->capcond) {
		in->capcond = in->capcond ? 2 * in->capcond : 8;
		in->cond = xrealloc(in->cond, (size_t)in->capcond * sizeof *c);
	}
	c = &in->cond[in->ncond++];
	memset(c, 0, sizeof *c);
	c->at = at;
	c->what = what;
	c->state = state;
	c->live = live;
}

/* The value of the #if or #elif expression in pp->line: 1, 0, or -1. */
static int
eval_line(PP *pp, Loc at)
{
	Toks x = {0};
	int dead = pp->dead, r;
	int64_t v;

	expand_alone(pp, pp->line.v, pp->line.n, &x, 1, at);
	if (pp->dead && !dead) {
		free(x.v);
		return -1;	/* cut short: the error is out */
	}
	r = pp_eval_expr(pp->d, x.v, x.n, at, is_defined, pp, &v);
	free(x.v);
	return r < 0 ? -1 : v != 0;
}

static void
do_if(PP *pp, Input *in, Loc at, int live)
{
	read_line(pp, in, live);
	if (!live) {
		push_cond(in, at, "#if", CS_DONE, 0);
		return;
	}
	push_cond(in, at, "#if", eval_line(pp, at) > 0 ? CS_TAKING : CS_WAIT, 1);
}

static void
ifdef(PP *pp, Input *in, Loc at, int live, int want)
{
	const char *what = want ? "ifdef" : "ifndef";
	const Token *t;
	int state = CS_WAIT;

	read_line(pp, in, live);
	if (!live) {
		push_cond(in, at, want ? "#ifdef" : "#ifndef", CS_DONE, 0);
		return;
	}
	if ((t = name_operand(pp, at, what)) &&
	    (lookup(pp, t->text) != NULL) == want)
		state = CS_TAKING;
	push_cond(in, at, want ? "#ifdef" : "#ifndef", state, 1);
}

static void
do_ifdef(PP *pp, Input *in, Loc at, int live)
{
	ifdef(pp, in, at, live, 1);
}

static void
do_ifndef(PP *pp, Input *in, Loc at, int live)
{
	ifdef(pp, in, at, live, 0);
}

/* The open conditional for #elif/#else/#endif, or NULL after an error. */
static Cond *
top_cond(PP *pp, Input *in, Loc at, const char *what)
{
	Cond *c;

	if (in->ncond == 0) {
		diag_error(pp->d, at, "#%s without #if", what);
		return NULL;
	}
	c = &in->cond[in->ncond - 1];
	if (c->haselse && strcmp(what, "endif") != 0) {
		diag_error(pp->d, at, "#%s after #else", what);
		diag_note(pp->d, c->elseat, "the #else is here");
	}
	return c;
}

static void
do_elif(PP *pp, Input *in, Loc at, int live)
{
	Cond *c;

	read_line(pp, in, live);
	if (!(c = top_cond(pp, in, at, "elif")))
		return;
	if (c->state == CS_TAKING)
		c->state = CS_DONE;
	else if (c->state == CS_WAIT && c->live && eval_line(pp, at) > 0)
		c->state = CS_TAKING;
}

static void
do_else(PP *pp, Input *in, Loc at, int live)
{
	Cond *c;

	read_line(pp, in, live);
	if (!(c = top_cond(pp, in, at, "else")))
		return;
	if (live)
		extra_tokens(pp, 0, "else");
	c->haselse = 1;
	c->elseat = at;
	c->state = c->state == CS_WAIT ? CS_TAKING : CS_DONE;
}

static void
do_endif(PP *pp, Input *in, Loc at, int live)
{
	read_line(pp, in, live);
	if (!top_cond(pp, in, at, "endif"))
		return;
	if (live)
		extra_tokens(pp, 0, "endif");
	in->ncond--;
}

/* ---------------------------------------------------------- #include */

/* dir/name, with no leading "./" added unless name would read stdin. */
static char *
join(const char *dir, size_t ndir, const char *name)
{
	Buf b = {0};

	if (ndir > 0) {
		buf_putn(&b, dir, ndir);
		if (dir[ndir - 1] != '/')
			buf_putc(&b, '/');
	} else if (strcmp(name, "-") == 0)
		buf_puts(&b, "./");
	buf_puts(&b, name);
	return b.p;
}

/* Opens path if it is a regular file: 0 and its text, or -1. */
static int
try_open(const char *path, Buf *text, struct stat *st)
{
	if (stat(path, st) != 0 || !S_ISREG(st->st_mode))
		return -1;
	if (st->st_size > INT_MAX / 2) {
		errno = EFBIG;
		return -1;
	}
	return read_file(path, text) == 0 ? 0 : -1;
}

/*
 * Finds name: in the including file's directory (unless angled), then
 * in each -I directory.  Returns the path (heap) with its text, or NULL
 * after reporting where it looked.
 */
static char *
find_include(PP *pp, const char *name, int angled, Loc at, Buf *text,
    struct stat *st)
{
	const SrcFile *f = srcmgr_file(pp->sm, pp->in->file);
	const char *slash = f ? strrchr(f->name, '/') : NULL;
	Buf looked = {0};
	char *path;
	int i;

	if (name[0] == '/') {
		if (try_open(name, text, st) == 0)
			return xstrdup(name);
		diag_error(pp->d, at, "cannot find include file '%s'", name);
		return NULL;
	}
	if (!angled) {
		path = join(f->name, slash ? (size_t)(slash - f->name) + 1 : 0,
		    name);
		if (try_open(path, text, st) == 0)
			return path;
		free(path);
		buf_printf(&looked, "'%.*s'", slash ? (int)(slash - f->name) : 1,
		    slash ? f->name : ".");
	}
	for (i = 0; i < pp->incdir.n; i++) {
		const char *dir = pp->incdir.v[i];
		path = join(dir, strlen(dir), name);
		if (try_open(path, text, st) == 0) {
			buf_free(&looked);
			return path;
		}
		free(path);
		buf_printf(&looked, "%s'%s'", looked.n ? ", " : "", dir);
	}
	diag_error(pp->d, at, "cannot find include file '%s'", name);
	if (looked.n)
		diag_note(pp->d, at, "searched in %s", looked.p);
	else
		diag_note(pp->d, at, "no -I directory to search for <%s>", name);
	buf_free(&looked);
	return NULL;
}

/* An error naming the cycle if st is a file already open; else 0. */
static int
cycle(PP *pp, const struct stat *st, const char *path, Loc at)
{
	Input *in, *hit = NULL;
	Buf b = {0};
	const char **names;
	int n = 0, k;

	for (in = pp->in; in; in = in->up)
		if (in->hasid && in->dev == st->st_dev && in->ino == st->st_ino)
			hit = in;
	if (!hit)
		return 0;
	names = xmalloc((size_t)pp->depth * sizeof *names);
	for (in = pp->in; in != hit->up; in = in->up)
		names[n++] = srcmgr_file(pp->sm, in->file)->name;
	for (k = n - 1; k >= 0; k--)
		buf_printf(&b, "%s -> ", names[k]);
	buf_puts(&b, path);
	diag_error(pp->d, at, "#include cycle: %s", b.p);
	free(names);
	buf_free(&b);
	return 1;
}

/* The file name of #include from pp->line: "f" or <f>, maybe expanded. */
static char *
include_name(PP *pp, Loc at, int *angled, Loc *nameloc)
{
	Toks x = {0};
	const Token *t = pp->line.v;
	Buf b = {0};
	int n = pp->line.n, i = 0;

	if (n > 0 && t[0].kind != TK_STRING && t[0].kind != TK_LT) {
		expand_alone(pp, t, n, &x, 0, at);	/* #include MACRO */
		t = x.v;
		n = x.n;
	}
	*angled = n > 0 && t[0].kind == TK_LT;
	if (n > 0 && t[0].kind == TK_STRING && t[0].len >= 2 &&
	    t[0].text[t[0].len - 1] == '"') {
		buf_putn(&b, t[0].text + 1, (size_t)t[0].len - 2);
		i = 1;
	} else if (*angled) {
		for (i = 1; i < n && t[i].kind != TK_GT; i++)
			;
		if (i < n)
			spell(&b, t + 1, i - 1);
		i++;
	}
	*nameloc = n > 0 ? t[0].loc : at;
	if (!b.p || b.n == 0 || memchr(b.p, 0, b.n)) {
		diag_error(pp->d, *nameloc, b.p && b.n ? "include file name "
		    "contains a NUL byte" : "#include expects \"FILENAME\" or "
		    "<FILENAME>");
		buf_free(&b);
		b.p = NULL;
	} else if (i < n)
		diag_warning(pp->d, t[i].loc, "extra tokens at end of #include "
		    "directive");
	free(x.v);
	return b.p;
}

static void
do_include(PP *pp, Input *in, Loc at, int live)
{
	char *name, *path = NULL;
	int angled, file;
	Loc nameloc;
	Buf text = {0};
	struct stat st;

	read_line(pp, in, live);
	if (!(name = include_name(pp, at, &angled, &nameloc)))
		return;
	if (pp->collecting)
		diag_error(pp->d, at, "#include inside the arguments of a macro");
	else if (pp->depth >= MAX_INCLUDE_DEPTH)
		diag_error(pp->d, at, "#include nested more than %d deep",
		    MAX_INCLUDE_DEPTH);
	else if (pp->nincluded >= MAX_INCLUDES)
		diag_error(pp->d, at, "more than %d #include files",
		    MAX_INCLUDES);
	else if ((path = find_include(pp, name, angled, nameloc, &text, &st)) &&
	    !cycle(pp, &st, path, nameloc)) {
		file = srcmgr_add(pp->sm, path, text.p ? text.p : "", text.n);
		pp->sm->file.v[file].included_at = nameloc;
		pp->nincluded++;
		push_input(pp, file, &st);
	}
	buf_free(&text);
	free(path);
	free(name);
}

/* ---------------------------------------------------- #error #warning */

static void
message(PP *pp, Input *in, Loc at, int live, DiagKind k)
{
	Buf b = {0};

	read_line(pp, in, live);
	spell(&b, pp->line.v, pp->line.n);
	if (k == DIAG_ERROR)
		diag_error(pp->d, at, "#error %s", b.p ? b.p : "");
	else
		diag_warning(pp->d, at, "#warning %s", b.p ? b.p : "");
	buf_free(&b);
}

static void
do_error(PP *pp, Input *in, Loc at, int live)
{
	message(pp, in, at, live, DIAG_ERROR);
}

static void
do_warning(PP *pp, Input *in, Loc at, int live)
{
	message(pp, in, at, live, DIAG_WARNING);
}

/* -------------------------------------------------------- directives */

static const struct Dir {
	const char *name;
	void (*fn)(PP *pp, Input *in, Loc at, int live);
	int cond;		/* seen even in skipped groups */
} dirs[] = {
	{ "define", do_define, 0 },
	{ "undef", do_undef, 0 },
	{ "include", do_include, 0 },
	{ "if", do_if, 1 },
	{ "ifdef", do_ifdef, 1 },
	{ "ifndef", do_ifndef, 1 },
	{ "elif", do_elif, 1 },
	{ "else", do_else, 1 },
	{ "endif", do_endif, 1 },
	{ "error", do_error, 0 },
	{ "warning", do_warning, 0 },
};

/*
 * Carries out the directive whose '#' is 'hash'.  Whether its line is
 * live (errors reported): outside skipped groups; for #elif #else #endif,
 * when their #if was.
 */
static void
directive(PP *pp, const Token *hash)
{
	Input *in = pp->in;
	int skip = skipping(in), live;
	const struct Dir *dp = NULL;
	Token name;
	size_t k;

	if (!line_tok(pp, in, &name, !skip))
		return;		/* the null directive */
	for (k = 0; name.kind == TK_IDENT && k < countof(dirs); k++)
		if (strcmp(name.text, dirs[k].name) == 0)
			dp = &dirs[k];
	if (!dp || (skip && !dp->cond)) {
		read_line(pp, in, 0);
		if (!skip)
			diag_error(pp->d, loc_span(hash->loc, name.loc),
			    "invalid preprocessing directive '#%.*s'",
			    name.len, name.text);
		return;
	}
	live = !skip;
	if (dp->fn == do_elif || dp->fn == do_else || dp->fn == do_endif)
		live = in->ncond == 0 || in->cond[in->ncond - 1].live;
	dp->fn(pp, in, loc_span(hash->loc, name.loc), live);
}

/* ------------------------------------------------------------ public */

PP *
pp_new(Diag *d, Strtab *strs, Arena *a)
{
	static const struct { const char *name; int kind; } bi[] = {
		{ "__FILE__", B_FILE }, { "__LINE__", B_LINE },
	};
	PP *pp = arena_alloc(a, sizeof *pp);
	size_t i;

	pp->d = d;
	pp->sm = d->sm;
	pp->strs = strs;
	pp->a = a;
	diag_init(&pp->quiet, d->sm, NULL);
	quiet_reset(pp);
	pp->s_defined = strtab_intern(strs, "defined", 7);
	pp->s_va_args = strtab_intern(strs, "__VA_ARGS__", 11);
	for (i = 0; i < countof(bi); i++) {
		Macro *m = arena_alloc(a, sizeof *m);
		m->name = strtab_intern(strs, bi[i].name, strlen(bi[i].name));
		m->builtin = bi[i].kind;
		set_macro(pp, m->name, m);
	}
	return pp;
}

void
pp_free(PP *pp)
{
	if (!pp)
		return;
	while (pp->nctx > 0)
		pop_ctx(pp);
	while (pp->in)
		pop_input(pp);
	free(pp->ctx);
	free(pp->key);
	free(pp->val);
	free(pp->line.v);
	memset(pp, 0, sizeof *pp);
}

void
pp_add_include_dir(PP *pp, const char *dir)
{
	vec_push(pp->a, &pp->incdir, arena_strndup(pp->a, dir, strlen(dir)));
}

/* The length of the macro name at the start of s[0..n), 0 if none. */
static size_t
name_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_ident(s, i + 1))
		i++;
	return i;
}

/*
 * -DNAME, -DNAME=VALUE or -DNAME(PARAMS)=VALUE: the definition is lexed
 * from a pseudo file "<command line>", so its tokens have locations.
 */
int
pp_define_cmdline(PP *pp, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg), nl = name_len(arg, n);
	Buf b = {0};
	Toks t = {0};
	Lexer lx;
	Token tok;
	int file, nerr = pp->d->nerror, r;

	if (n == 0 || nl == 0 || (nl < n && arg[nl] != '(')) {
		diag_error(pp->d, (Loc){0}, n == 0 ? "-D%s: no macro name "
		    "given" : "-D%s: macro names must be identifiers", arg);
		return -1;
	}
	buf_putn(&b, arg, n);
	buf_putc(&b, ' ');
	buf_puts(&b, eq ? eq + 1 : "1");
	file = srcmgr_add(pp->sm, "<command line>", b.p, b.n);
	buf_free(&b);
	lex_init(&lx, pp->d, pp->strs, pp->a, file);
	while (lex_next(&lx, &tok) != TK_EOF)
		toks_push(&t, &tok);
	r = define(pp, t.v, t.n, (Loc){0});
	free(t.v);
	return r < 0 || pp->d->nerror != nerr ? -1 : 0;
}

int
pp_undef_cmdline(PP *pp, const char *name)
{
	const char *s;
	Macro *m;

	if (!is_ident(name, strlen(name))) {
		diag_error(pp->d, (Loc){0}, *name ? "-U%s: macro names must be "
		    "identifiers" : "-U%s: no macro name given", name);
		return -1;
	}
	s = strtab_intern(pp->strs, name, strlen(name));
	if (s == pp->s_defined || ((m = lookup(pp, s)) && m->builtin)) {
		diag_error(pp->d, (Loc){0}, "-U%s: '%s' cannot be undefined",
		    name, name);
		return -1;
	}
	set_macro(pp, s, NULL);
	return 0;
}

int
pp_push_file(PP *pp, const char *path)
{
	Buf text = {0};
	struct stat st;
	int err = read_file(path, &text), file, hasid;

	if (!err && text.n > INT_MAX / 2)
		err = EFBIG;
	if (err) {
		diag_error(pp->d, (Loc){0}, "cannot read '%s': %s", path,
		    strerror(err));
		buf_free(&text);
		return -1;
	}
	hasid = strcmp(path, "-") != 0 && stat(path, &st) == 0;
	file = srcmgr_add(pp->sm, strcmp(path, "-") == 0 ? "<stdin>" : path,
	    text.p, text.n);
	buf_free(&text);
	push_input(pp, file, hasid ? &st : NULL);
	return 0;
}

int
pp_push_text(PP *pp, const char *name, const char *text, size_t len)
{
	if (len > INT_MAX / 2) {
		diag_error(pp->d, (Loc){0}, "'%s' is too large", name);
		return -1;
	}
	push_input(pp, srcmgr_add(pp->sm, name, text ? text : "", len), NULL);
	return 0;
}

int
pp_push_embedded(PP *pp, const char *name, const char *text, size_t len)
{
	if (pp_push_text(pp, name, text, len) != 0)
		return -1;
	pp->in->embedded = 1;
	return 0;
}

TokKind
pp_next(PP *pp, Token *t)
{
	for (;;) {
		next_exp(pp, t);
		if (t->kind != TK_EOF || !pp->in || !pp->in->up)
			return t->kind;
		pop_input(pp);
	}
}
