/*
 * parse.c - the parser's entry point and its token adapter.
 *
 * Needs:    a token source (the preprocessor's pp_next, or the raw lexer in
 *           tests) and the bison parser generated from parser.y.
 * Gives:    parse_module(): an AST_MODULE node for the whole input, also
 *           after syntax errors.  pklex() turns lexer tokens into bison
 *           tokens; words in the keyword table below become keyword tokens,
 *           every other word stays an identifier (builtins such as exp,
 *           dot or iota are resolved by sema).  Syntax errors are worded
 *           here, gcc-style: "expected ';' before 'x'" when one token fits,
 *           else "unexpected identifier 'x', expected one of: ...".
 * Entry:    parse_module()
 * Tests:    tests/unit/check_ast.c
 */
#include <string.h>

#include "dsl/dsl.h"
#include "parser.h"

/* The reserved words of the language (doc/language.md, "Keywords"). */
static const struct {
	const char *word;
	int tok;
} keywords[] = {
	{ "_", T_UNDERSCORE },		{ "aliases", T_ALIASES },
	{ "any", T_ANY },		{ "as", T_AS },
	{ "at", T_AT },			{ "blocks", T_BLOCKS },
	{ "buffers", T_BUFFERS },	{ "check", T_CHECK },
	{ "dma_copy", T_DMA_COPY },	{ "dma_start", T_DMA_START },
	{ "dma_wait", T_DMA_WAIT },	{ "element", T_ELEMENT },
	{ "else", T_ELSE },		{ "export", T_EXPORT },
	{ "for", T_FOR },		{ "func", T_FUNC },
	{ "grid", T_GRID },		{ "hbm", T_HBM },
	{ "in", T_IN },			{ "kernel", T_KERNEL },
	{ "let", T_LET },		{ "out", T_OUT },
	{ "params", T_PARAMS },		{ "return", T_RETURN },
	{ "scratch", T_SCRATCH },	{ "sem_signal", T_SEM_SIGNAL },
	{ "sem_wait", T_SEM_WAIT },	{ "semantics", T_SEMANTICS },
	{ "smem", T_SMEM },		{ "vmem", T_VMEM },
	{ "when", T_WHEN },
};

/* Lexer token kinds to bison tokens (single characters are themselves). */
static const int tokmap[NTOK] = {
	[TK_EOF] = T_YYEOF, [TK_IDENT] = T_IDENT, [TK_INT] = T_INT,
	[TK_FLOAT] = T_FLOAT, [TK_STRING] = T_STRING,
	[TK_LPAREN] = '(', [TK_RPAREN] = ')', [TK_LBRACK] = '[',
	[TK_RBRACK] = ']', [TK_LBRACE] = '{', [TK_RBRACE] = '}',
	[TK_COMMA] = ',', [TK_SEMI] = ';', [TK_COLON] = ':', [TK_DOT] = '.',
	[TK_ELLIPSIS] = T_ELLIPSIS, [TK_QUESTION] = '?', [TK_AT] = '@',
	[TK_HASH] = T_HASH, [TK_HASHHASH] = T_HASHHASH,
	[TK_PLUS] = '+', [TK_MINUS] = '-', [TK_STAR] = '*', [TK_SLASH] = '/',
	[TK_PERCENT] = '%', [TK_AMP] = '&', [TK_PIPE] = '|', [TK_CARET] = '^',
	[TK_TILDE] = '~', [TK_BANG] = '!', [TK_ANDAND] = T_ANDAND,
	[TK_OROR] = T_OROR, [TK_SHL] = T_SHL, [TK_SHR] = T_SHR,
	[TK_ASSIGN] = '=', [TK_PLUSEQ] = T_PLUSEQ, [TK_MINUSEQ] = T_MINUSEQ,
	[TK_STAREQ] = T_STAREQ, [TK_SLASHEQ] = T_SLASHEQ, [TK_EQ] = T_EQ,
	[TK_NE] = T_NE, [TK_LT] = '<', [TK_GT] = '>', [TK_LE] = T_LE,
	[TK_GE] = T_GE, [TK_ARROW] = T_ARROW,
};

static int
keyword(const char *s, int len)
{
	size_t i;

	for (i = 0; i < countof(keywords); i++)	/* few words: a scan will do */
		if ((int)strlen(keywords[i].word) == len &&
		    memcmp(keywords[i].word, s, len) == 0)
			return keywords[i].tok;
	return 0;
}

int
pklex(PKSTYPE *lval, Loc *lloc, ParseCtx *pc)
{
	Token *t = &pc->tok;
	TokKind k = pc->next(pc->src, t);
	int kw;

	*lloc = t->loc;
	lval->tok = *t;
	pc->keyword = 0;
	if (k == TK_IDENT && (kw = keyword(t->text, t->len))) {
		pc->keyword = 1;
		return kw;
	}
	if (k >= NTOK || (k != TK_EOF && tokmap[k] == 0))
		bug("token kind %d has no parser token", (int)k);
	return tokmap[k];
}

/* Where the outermost macro expansion that produced l was used. */
static Loc
use_site(const SrcMgr *sm, Loc l)
{
	int guard = 0;

	while (l.exp > 0 && l.exp < sm->exp.n && guard++ < 1000)
		l = sm->exp.v[l.exp].use;
	l.exp = 0;
	return l;
}

/*
 * Spans a rule's right-hand side rhs[1..n] from its first to its last
 * non-empty location.  An empty rule has no location (file 0), so that it
 * does not stretch the range of the rule that contains it.  Ends from
 * different macro expansions (or one from none) are first moved to the
 * use of the macro, so that "4 * BM" spans the text the user wrote; a
 * construct wholly inside one expansion keeps its spelling in the macro.
 */
Loc
parse_span(const ParseCtx *pc, const Loc *rhs, int n)
{
	Loc first = {0}, last = {0};
	int i;

	for (i = 1; i <= n; i++)
		if (rhs[i].file) {
			if (!first.file)
				first = rhs[i];
			last = rhs[i];
		}
	if (first.exp != last.exp && pc->diag && pc->diag->sm) {
		first = use_site(pc->diag->sm, first);
		last = use_site(pc->diag->sm, last);
	}
	if (!first.file || last.file != first.file ||
	    last.eline < first.line ||
	    (last.eline == first.line && last.ecol < first.col))
		return first;
	first.eline = last.eline;
	first.ecol = last.ecol;
	return first;
}

/* The lookahead as shown in a message: "identifier 'x'", "'kernel'". */
static void
describe(Buf *b, const ParseCtx *pc, int ateof, int bare)
{
	const Token *t = &pc->tok;
	int len = t->len > 40 ? 40 : t->len;
	const char *more = t->len > 40 ? "..." : "";

	if (ateof)
		buf_puts(b, tok_kind_name(TK_EOF));
	else if (bare || pc->keyword || t->kind > TK_STRING)
		buf_printf(b, "'%.*s%s'", len, t->text, more);
	else
		buf_printf(b, "%s '%.*s%s'", tok_kind_name(t->kind), len,
		    t->text, more);
}

static int
among(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* Tokens that start an expression, and those that continue one. */
static const char *const starts[] = {
	"identifier", "integer literal", "floating-point literal",
	"string literal", "'('", "'['", "'-'", "'+'", "'!'", "'~'", NULL
};
static const char *const continues[] = {
	"'+'", "'-'", "'*'", "'/'", "'%'", "'@'", "'<'", "'>'", "'<='", "'>='",
	"'=='", "'!='", "'<<'", "'>>'", "'&'", "'|'", "'^'", "'&&'", "'||'",
	"'?'", "'as'", "'['", "'('", NULL
};

/*
 * Folds the expected tokens into what a reader thinks of: the tokens that
 * start an expression become "expression"; the operators that could
 * continue one are left out when something else may follow instead.
 * Returns the new count; out has room for n + 1 names.
 */
static int
fold(const char *const *exp, int n, const char **out)
{
	int i, m = 0, isstart = 0, iscont = 0, nstart = 0, iscmp = 0;

	for (i = 0; i < n; i++) {
		isstart |= strcmp(exp[i], "integer literal") == 0;
		iscont |= strcmp(exp[i], "'*'") == 0;
		iscmp |= strcmp(exp[i], "'=='") == 0;
		nstart += among(exp[i], starts);
	}
	if (isstart && nstart >= 5)
		out[m++] = "expression";
	for (i = 0; i < n; i++) {
		if (isstart && nstart >= 5 && among(exp[i], starts))
			continue;
		if (!isstart && iscont && among(exp[i], continues) &&
		    (iscmp || strcmp(exp[i], "'>'") != 0))
			continue;	/* '>' may close a size list */
		out[m++] = exp[i];
	}
	if (m == 0)	/* nothing but operators: name one */
		out[m++] = "an operator";
	return m;
}

void
parse_syntax_error(ParseCtx *pc, Loc loc, int ateof, const char *const *exp,
    int n)
{
	Buf m = {0};
	const char **want = arena_alloc(pc->b.arena, (n + 1) * sizeof *want);
	int i, k, wants_name = 0;

	for (i = 0; i < n; i++)
		wants_name |= strcmp(exp[i], "identifier") == 0;
	k = fold(exp, n, want);
	if (n > 0 && k <= 3) {
		buf_puts(&m, "expected ");
		for (i = 0; i < k; i++)
			buf_printf(&m, "%s%s", i == 0 ? "" : i == k - 1 ?
			    " or " : ", ", want[i]);
		buf_puts(&m, " before ");
		describe(&m, pc, ateof, 1);
	} else {
		buf_puts(&m, "unexpected ");
		describe(&m, pc, ateof, 0);
		if (n > 0 && k <= 8) {
			buf_puts(&m, ", expected one of: ");
			for (i = 0; i < k; i++)
				buf_printf(&m, "%s%s", i ? ", " : "", want[i]);
		}
	}
	buf_putc(&m, 0);
	diag_error(pc->diag, loc, "%s", m.p);
	if (pc->keyword && wants_name)
		diag_note(pc->diag, loc, "'%.*s' is a keyword and cannot be "
		    "used as a name", pc->tok.len, pc->tok.text);
	buf_free(&m);
}

/* Called by bison only when its stack is exhausted. */
void
pkerror(Loc *lloc, ParseCtx *pc, const char *msg)
{
	(void)msg;
	diag_error(pc->diag, *lloc, "nesting too deep: the parser ran out "
	    "of stack (more than %d open constructs)", YYMAXDEPTH);
}

Ast *
parse_module(TokSource next, void *ctx, Diag *d, Arena *a)
{
	ParseCtx pc;
	Loc all = {0};

	memset(&pc, 0, sizeof pc);
	pc.next = next;
	pc.src = ctx;
	pc.diag = d;
	pc.b.arena = a;
	pc.b.diag = d;
	pkparse(&pc);
	if (pc.decls.n > 0) {
		Loc ends[3];

		ends[1] = pc.decls.v[0]->loc;
		ends[2] = pc.decls.v[pc.decls.n - 1]->loc;
		all = parse_span(&pc, ends, 2);
	}
	return ast_list(&pc.b, AST_MODULE, all, pc.decls);
}
