/*
 * lexer.re - the re2c lexer of the .pk language.
 *
 * Needs:    a file in the SrcMgr (its text is NUL-terminated at its length;
 *           NUL bytes inside it are ordinary bad characters, not the end).
 * Gives:    tokens with exact ranges (1-based byte columns), the bol/space
 *           flags the preprocessor needs, decoded literal values and their
 *           type suffixes.  Every lexical error is reported once, and the
 *           lexer always advances, so any input reaches TK_EOF.
 * Entry:    lex_init(), lex_next()
 * Tests:    tests/unit/check_lexer.c, tests/diag/lex-*.pk
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "token.h"

static const char *kindname[NTOK] = {
#define TK(name, spelling) spelling,
#include "tokens.def"
#undef TK
};

const char *
tok_kind_name(TokKind k)
{
	return k < NTOK ? kindname[k] : "token";
}

/*
 * A NUL byte means a binary file, not a kernel: one error, and the file
 * reads as empty, instead of a cascade of stray-character errors.
 */
static void
binary_check(Lexer *lx)
{
	const char *nul = memchr(lx->start, 0, (size_t)(lx->lim - lx->start));
	Loc l = {0};

	if (!nul)
		return;
	l.file = lx->file;	/* line 0: the message names the file only */
	diag_error(lx->diag, l, "this is not a text file: it contains a NUL "
	    "byte at offset %ld", (long)(nul - lx->start));
	lx->cur = lx->lim;
}

void
lex_init(Lexer *lx, Diag *d, Strtab *strs, Arena *a, int file)
{
	const SrcFile *f = srcmgr_file(d->sm, file);

	memset(lx, 0, sizeof *lx);
	lx->start = lx->cur = lx->line0 = f->text;
	lx->lim = f->text + f->len;
	lx->line = 1;
	lx->file = file;
	lx->bol = 1;
	lx->diag = d;
	lx->strs = strs;
	lx->arena = a;
	binary_check(lx);
}

/* The location of text p[0..n) on the current line. */
static Loc
here(Lexer *lx, const char *p, int n)
{
	Loc l = {0};

	l.file = lx->file;
	l.line = l.eline = lx->line;
	l.col = (int)(p - lx->line0) + 1;
	l.ecol = l.col + (n > 0 ? n - 1 : 0);
	return l;
}

static void
newline(Lexer *lx, const char *after)
{
	lx->line++;
	lx->line0 = after;
}

/* Skips a block comment whose opening ends at lx->cur. */
static void
block_comment(Lexer *lx, const char *open)
{
	Loc at = here(lx, open, 2);
	const char *p;

	for (p = lx->cur; p < lx->lim; p++) {
		if (*p == '\n')
			newline(lx, p + 1);
		else if (p[0] == '*' && p + 1 < lx->lim && p[1] == '/') {
			lx->cur = p + 2;
			return;
		}
	}
	lx->cur = lx->lim;
	diag_error(lx->diag, at, "unterminated comment");
	diag_note(lx->diag, at, "the comment starts here and never ends with '*/'");
}

static LitSuffix
suffix_of(const char *s, int n)
{
	static const struct { const char *name; LitSuffix suf; } tab[] = {
		{ "f", SUF_F32 }, { "f32", SUF_F32 }, { "bf16", SUF_BF16 },
		{ "i32", SUF_I32 }, { "i8", SUF_I8 },
	};
	size_t i;

	for (i = 0; i < countof(tab); i++)
		if ((int)strlen(tab[i].name) == n && memcmp(s, tab[i].name, n) == 0)
			return tab[i].suf;
	return NSUF;
}

/* Splits a number into digits and suffix; returns the digits' length. */
static int
number_body(const char *s, int n, int *isfloat)
{
	int i = 0;

	*isfloat = 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n && strchr("0123456789abcdefABCDEF", s[i]); i++)
			;
		/* a hex literal's suffix may only start with 'i' */
		return i;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B') &&
	    (s[2] == '0' || s[2] == '1')) {
		for (i = 2; i < n && (s[i] == '0' || s[i] == '1'); i++)
			;
		return i;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i < n && s[i] == '.') {
		*isfloat = 1;
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int j = i + 1;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < n && s[j] >= '0' && s[j] <= '9') {
			*isfloat = 1;
			for (i = j; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				;
		}
	}
	return i;
}

static void
number(Lexer *lx, Token *t)
{
	char tmp[512], *end;
	int isfloat, nd = number_body(t->text, t->len, &isfloat);
	const char *suf = t->text + nd;
	int nsuf = t->len - nd;

	t->kind = isfloat ? TK_FLOAT : TK_INT;
	t->suffix = nsuf ? suffix_of(suf, nsuf) : SUF_NONE;
	if (t->suffix == NSUF || (isfloat && (t->suffix == SUF_I32 ||
	    t->suffix == SUF_I8))) {
		Loc l = t->loc;
		l.col += nd;
		diag_error(lx->diag, l, "invalid suffix '%.*s' on %s literal",
		    nsuf, suf, isfloat ? "floating-point" : "integer");
		diag_note(lx->diag, l, "valid suffixes are f (f32), f32, bf16%s",
		    isfloat ? "" : ", i32 and i8");
		t->suffix = SUF_NONE;
	}
	if (nd >= (int)sizeof tmp) {
		diag_error(lx->diag, t->loc, "numeric literal is too long");
		return;
	}
	memcpy(tmp, t->text, nd);
	tmp[nd] = 0;
	errno = 0;
	if (isfloat) {
		t->v.f = strtod(tmp, NULL);
		if (errno == ERANGE && isinf(t->v.f))
			diag_error(lx->diag, t->loc,
			    "floating-point literal '%s' is too large", tmp);
		return;
	}
	if (tmp[1] == 'b' || tmp[1] == 'B')
		t->v.i = strtoull(tmp + 2, &end, 2);
	else
		t->v.i = strtoull(tmp, &end, 0);
	if (*end) {	/* stopped early: 8 or 9 in an octal literal */
		diag_error(lx->diag, t->loc,
		    "invalid digit '%c' in octal literal '%s'", *end, tmp);
		t->v.i = 0;
		return;
	}
	if (errno == ERANGE || t->v.i > (uint64_t)INT64_MAX) {
		diag_error(lx->diag, t->loc,
		    "integer literal '%s' is too large for 64 bits", tmp);
		t->v.i = 0;
	}
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes the string literal t->text (quotes included, maybe unclosed). */
static void
string(Lexer *lx, Token *t, int closed)
{
	char *out = arena_alloc(lx->arena, (size_t)t->len + 1), *o = out;
	const char *s = t->text + 1, *e = t->text + t->len - closed;

	if (!closed) {
		diag_error(lx->diag, here(lx, t->text, 1),
		    "missing terminating '\"' character");
	}
	while (s < e) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': *o++ = '\n'; s++; break;
		case 't': *o++ = '\t'; s++; break;
		case '\\': case '"': case '\'': *o++ = *s++; break;
		case 'x':
			if (s + 2 < e + 1 && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
				*o++ = (char)(hexval(s[1]) * 16 + hexval(s[2]));
				s += 3;
				break;
			}
			/* fall through */
		default:
			diag_error(lx->diag, here(lx, s - 1, 2),
			    "unknown escape sequence '\\%c'",
			    (unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f ? *s : '?');
			if (s < e)
				s++;
		}
	}
	*o = 0;
	t->v.s = out;
}

static int
bad_byte(unsigned char c)
{
	return c >= 0x7f || (c < 0x20 && !strchr("\t\n\v\f\r", c));
}

/* One error for a run of bad bytes (binary garbage gives one error). */
static void
stray(Lexer *lx, const char *p)
{
	const char *q = p;
	unsigned char c = (unsigned char)*p;

	while (q < lx->lim && bad_byte((unsigned char)*q))
		q++;
	if (q > p + 1 || c >= 0x80) {
		lx->cur = q;
		diag_error(lx->diag, here(lx, p, (int)(q - p)),
		    "stray bytes in program (%d byte%s: not printable ASCII)",
		    (int)(q - p), q - p == 1 ? "" : "s");
		return;
	}
	if (c >= 0x20 && c < 0x7f)
		diag_error(lx->diag, here(lx, p, 1), "stray '%c' in program", c);
	else
		diag_error(lx->diag, here(lx, p, 1),
		    "stray '\\x%02x' in program", c);
}

static TokKind
finish(Lexer *lx, Token *t, TokKind k, const char *tok, int space)
{
	t->kind = k;
	t->text = tok;
	t->len = (int)(lx->cur - tok);
	t->loc = here(lx, tok, t->len);
	t->bol = lx->bol;
	t->space = space || lx->bol;
	lx->bol = 0;
	return k;
}

TokKind
lex_next(Lexer *lx, Token *t)
{
	const char *YYCURSOR, *YYLIMIT = lx->lim, *YYMARKER = NULL, *tok;
	int space = 0;

	memset(t, 0, sizeof *t);
	for (;;) {
		tok = YYCURSOR = lx->cur;
	/*!re2c
		re2c:define:YYCTYPE = "unsigned char";
		re2c:yyfill:enable = 0;
		re2c:eof = 0;
		re2c:flags:utf-8 = 0;

		ident = [a-zA-Z_][a-zA-Z0-9_]*;
		dec   = [0-9]+;
		hex   = "0" [xX] [0-9a-fA-F]+;
		bin   = "0" [bB] [01]+;
		exp   = [eE] [+-]? [0-9]+;
		flt   = [0-9]+ "." [0-9]* exp? | "." [0-9]+ exp? | [0-9]+ exp;
		suf   = [a-zA-Z_][a-zA-Z0-9_]*;

		$ {
			lx->cur = lx->lim;
			finish(lx, t, TK_EOF, lx->lim, 1);
			t->len = 0;
			return TK_EOF;
		}
		[ \t\v\f\r]+ { lx->cur = YYCURSOR; space = 1; continue; }
		"\\" [ \t\r]* "\n" {
			lx->cur = YYCURSOR;
			newline(lx, YYCURSOR);
			space = 1;
			continue;
		}
		"\n" {
			lx->cur = YYCURSOR;
			newline(lx, YYCURSOR);
			lx->bol = 1;
			continue;
		}
		"//" [^\n]* { lx->cur = YYCURSOR; space = 1; continue; }
		"/*" {
			lx->cur = YYCURSOR;
			block_comment(lx, tok);
			space = 1;
			continue;
		}
		ident {
			lx->cur = YYCURSOR;
			finish(lx, t, TK_IDENT, tok, space);
			t->text = strtab_intern(lx->strs, tok, t->len);
			return TK_IDENT;
		}
		(dec | hex | bin | flt) suf? {
			lx->cur = YYCURSOR;
			finish(lx, t, TK_INT, tok, space);
			number(lx, t);
			return t->kind;
		}
		["] ([^"\\\n] | "\\" [^\n])* ["] {
			lx->cur = YYCURSOR;
			finish(lx, t, TK_STRING, tok, space);
			string(lx, t, 1);
			return TK_STRING;
		}
		["] ([^"\\\n] | "\\" [^\n])* {
			lx->cur = YYCURSOR;
			finish(lx, t, TK_STRING, tok, space);
			string(lx, t, 0);
			return TK_STRING;
		}

		"(" { lx->cur = YYCURSOR; return finish(lx, t, TK_LPAREN, tok, space); }
		")" { lx->cur = YYCURSOR; return finish(lx, t, TK_RPAREN, tok, space); }
		"[" { lx->cur = YYCURSOR; return finish(lx, t, TK_LBRACK, tok, space); }
		"]" { lx->cur = YYCURSOR; return finish(lx, t, TK_RBRACK, tok, space); }
		"{" { lx->cur = YYCURSOR; return finish(lx, t, TK_LBRACE, tok, space); }
		"}" { lx->cur = YYCURSOR; return finish(lx, t, TK_RBRACE, tok, space); }
		"," { lx->cur = YYCURSOR; return finish(lx, t, TK_COMMA, tok, space); }
		";" { lx->cur = YYCURSOR; return finish(lx, t, TK_SEMI, tok, space); }
		":" { lx->cur = YYCURSOR; return finish(lx, t, TK_COLON, tok, space); }
		"." { lx->cur = YYCURSOR; return finish(lx, t, TK_DOT, tok, space); }
		"..." { lx->cur = YYCURSOR; return finish(lx, t, TK_ELLIPSIS, tok, space); }
		"?" { lx->cur = YYCURSOR; return finish(lx, t, TK_QUESTION, tok, space); }
		"@" { lx->cur = YYCURSOR; return finish(lx, t, TK_AT, tok, space); }
		"#" { lx->cur = YYCURSOR; return finish(lx, t, TK_HASH, tok, space); }
		"##" { lx->cur = YYCURSOR; return finish(lx, t, TK_HASHHASH, tok, space); }
		"+" { lx->cur = YYCURSOR; return finish(lx, t, TK_PLUS, tok, space); }
		"-" { lx->cur = YYCURSOR; return finish(lx, t, TK_MINUS, tok, space); }
		"*" { lx->cur = YYCURSOR; return finish(lx, t, TK_STAR, tok, space); }
		"/" { lx->cur = YYCURSOR; return finish(lx, t, TK_SLASH, tok, space); }
		"%" { lx->cur = YYCURSOR; return finish(lx, t, TK_PERCENT, tok, space); }
		"&" { lx->cur = YYCURSOR; return finish(lx, t, TK_AMP, tok, space); }
		"|" { lx->cur = YYCURSOR; return finish(lx, t, TK_PIPE, tok, space); }
		"^" { lx->cur = YYCURSOR; return finish(lx, t, TK_CARET, tok, space); }
		"~" { lx->cur = YYCURSOR; return finish(lx, t, TK_TILDE, tok, space); }
		"!" { lx->cur = YYCURSOR; return finish(lx, t, TK_BANG, tok, space); }
		"&&" { lx->cur = YYCURSOR; return finish(lx, t, TK_ANDAND, tok, space); }
		"||" { lx->cur = YYCURSOR; return finish(lx, t, TK_OROR, tok, space); }
		"<<" { lx->cur = YYCURSOR; return finish(lx, t, TK_SHL, tok, space); }
		">>" { lx->cur = YYCURSOR; return finish(lx, t, TK_SHR, tok, space); }
		"=" { lx->cur = YYCURSOR; return finish(lx, t, TK_ASSIGN, tok, space); }
		"+=" { lx->cur = YYCURSOR; return finish(lx, t, TK_PLUSEQ, tok, space); }
		"-=" { lx->cur = YYCURSOR; return finish(lx, t, TK_MINUSEQ, tok, space); }
		"*=" { lx->cur = YYCURSOR; return finish(lx, t, TK_STAREQ, tok, space); }
		"/=" { lx->cur = YYCURSOR; return finish(lx, t, TK_SLASHEQ, tok, space); }
		"==" { lx->cur = YYCURSOR; return finish(lx, t, TK_EQ, tok, space); }
		"!=" { lx->cur = YYCURSOR; return finish(lx, t, TK_NE, tok, space); }
		"<" { lx->cur = YYCURSOR; return finish(lx, t, TK_LT, tok, space); }
		">" { lx->cur = YYCURSOR; return finish(lx, t, TK_GT, tok, space); }
		"<=" { lx->cur = YYCURSOR; return finish(lx, t, TK_LE, tok, space); }
		">=" { lx->cur = YYCURSOR; return finish(lx, t, TK_GE, tok, space); }
		"->" { lx->cur = YYCURSOR; return finish(lx, t, TK_ARROW, tok, space); }

		* {
			lx->cur = YYCURSOR;
			stray(lx, tok);
			space = 1;
			continue;
		}
	*/
	}
}
