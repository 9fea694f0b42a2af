/*
 * hlo_lex.c - the lexer of XLA's HLO text (hlo_lexer.cc's rules): names
 * [A-Za-z_%][A-Za-z0-9_.-]*, classified by the character right after them
 * (':' makes a label, '=' an attribute name), integers, floats, strings,
 * '->', '<=', '...', punctuation; '//' and '/ * * /' comments are skipped.
 * Errors are reported and skipped, so lexing always makes progress.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/hlo_read.h"

/* Text stops at a NUL byte, which is reported (strings cannot hold it). */
static void
nul_check(HLex *lx)
{
	const char *z = memchr(lx->src, 0, lx->len);
	Loc at = { lx->file, 1, 1, 1, 1, 0 };
	const char *s;

	if (!z)
		return;
	for (s = lx->src; s < z; s++)
		if (*s == '\n')
			at.line++, at.col = 1;
		else
			at.col++;
	at.eline = at.line;
	at.ecol = at.col;
	diag_error(lx->d, at, "NUL byte in HLO text");
	lx->len = (size_t)(z - lx->src);
}

void
hlex_init(HLex *lx, Diag *d, int file)
{
	const SrcFile *f = srcmgr_file(d->sm, file);

	memset(lx, 0, sizeof *lx);
	lx->d = d;
	lx->file = file;
	lx->src = f ? f->text : "";
	lx->len = f ? f->len : 0;
	lx->line = 1;
	lx->col = 1;
	nul_check(lx);
}

static int
peekc(const HLex *lx, size_t k)
{
	return lx->pos + k < lx->len ? (unsigned char)lx->src[lx->pos + k] : -1;
}

static void
adv(HLex *lx)
{
	if (lx->pos >= lx->len)
		return;
	if (lx->src[lx->pos++] == '\n') {
		lx->line++;
		lx->col = 1;
	} else
		lx->col++;
}

static Loc
here(const HLex *lx)
{
	Loc l = { lx->file, lx->line, lx->col, lx->line, lx->col, 0 };
	return l;
}

static int
isname(int c)
{
	return c >= 0 && (isalnum(c) || c == '_' || c == '.' || c == '-');
}

static int
isnamestart(int c)
{
	return c >= 0 && (isalpha(c) || c == '_');
}

/* Whitespace and comments; an unclosed block comment is reported. */
static void
skip_space(HLex *lx)
{
	for (;;) {
		int c = peekc(lx, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v')
			adv(lx);
		else if (c == '/' && peekc(lx, 1) == '/') {
			while (peekc(lx, 0) >= 0 && peekc(lx, 0) != '\n')
				adv(lx);
		} else if (c == '/' && peekc(lx, 1) == '*') {
			Loc at = here(lx);
			adv(lx), adv(lx);
			while (peekc(lx, 0) >= 0 &&
			    !(peekc(lx, 0) == '*' && peekc(lx, 1) == '/'))
				adv(lx);
			if (peekc(lx, 0) < 0) {
				at.ecol = at.col + 1;
				diag_error(lx->d, at, "unterminated comment");
				return;
			}
			adv(lx), adv(lx);
		} else
			return;
	}
}

/* A quoted string starting at pos; 0 if it is unterminated. */
static int
skip_string(HLex *lx)
{
	int q = peekc(lx, 0);

	adv(lx);
	while (peekc(lx, 0) >= 0 && peekc(lx, 0) != q) {
		if (peekc(lx, 0) == '\\')
			adv(lx);
		adv(lx);
	}
	if (peekc(lx, 0) < 0)
		return 0;
	adv(lx);
	return 1;
}

/* Above INT64_MAX: a u64 value up to 2^64 - 1, or out of range. */
static void
lex_big(HLex *lx, HTok *t, const char *buf)
{
	errno = 0;
	if (buf[0] != '-') {
		t->uval = strtoull(buf, NULL, 10);
		t->fval = (double)t->uval;
	}
	if (buf[0] == '-' || errno == ERANGE)
		diag_error(lx->d, t->loc, "integer '%s' is out of range", buf);
	else
		t->kind = HK_UINT;
}

static void
lex_number(HLex *lx, HTok *t)
{
	char buf[64];
	size_t n;
	int isfloat = 0;

	if (peekc(lx, 0) == '-')
		adv(lx);
	while (peekc(lx, 0) >= 0 && isdigit(peekc(lx, 0)))
		adv(lx);
	if (peekc(lx, 0) == '.' && peekc(lx, 1) != '.') {
		isfloat = 1;
		adv(lx);
		while (peekc(lx, 0) >= 0 && isdigit(peekc(lx, 0)))
			adv(lx);
	}
	if ((peekc(lx, 0) == 'e' || peekc(lx, 0) == 'E') &&
	    (isdigit(peekc(lx, 1)) || ((peekc(lx, 1) == '-' ||
	    peekc(lx, 1) == '+') && peekc(lx, 2) >= 0 && isdigit(peekc(lx, 2))))) {
		isfloat = 1;
		adv(lx), adv(lx);
		while (peekc(lx, 0) >= 0 && isdigit(peekc(lx, 0)))
			adv(lx);
	}
	n = lx->pos - t->pos;
	t->kind = isfloat ? HK_FLOAT : HK_INT;
	if (n >= sizeof buf) {
		t->end = lx->pos;
		diag_error(lx->d, t->loc, "number is too long");
		t->kind = HK_INT;
		return;
	}
	memcpy(buf, lx->src + t->pos, n);
	buf[n] = 0;
	errno = 0;
	if (isfloat)
		t->fval = strtod(buf, NULL);
	else {
		t->ival = strtoll(buf, NULL, 10);
		/* "-0" is how the printer writes a float -0.0 */
		t->fval = t->ival == 0 && buf[0] == '-' ? -0.0 :
		    (double)t->ival;
		if (errno == ERANGE)
			lex_big(lx, t, buf);
	}
}

/* "inf", "-inf", "nan", "-nan" and "nan(0x...)" as floats. */
static int
lex_special_float(HLex *lx, HTok *t)
{
	size_t k = peekc(lx, 0) == '-';
	const char *s = lx->src + lx->pos + k;
	size_t left = lx->len - lx->pos - k;
	int neg = k == 1;

	if (left >= 3 && (!memcmp(s, "inf", 3) || !memcmp(s, "nan", 3)) &&
	    (left == 3 || !isname((unsigned char)s[3]) || s[3] == '(')) {
		int nan = s[0] == 'n', payload;
		k += 3;
		payload = nan && peekc(lx, k) == '(';
		if (payload)
			while (peekc(lx, k) >= 0 && peekc(lx, k) != ')')
				k++;
		while (k--)
			adv(lx);
		if (payload && peekc(lx, 0) == ')')
			adv(lx);
		t->kind = HK_FLOAT;
		t->fval = nan ? (double)NAN : (double)INFINITY;
		if (neg)
			t->fval = -t->fval;
		return 1;
	}
	return 0;
}

static void
lex_name(HLex *lx, HTok *t)
{
	if (peekc(lx, 0) == '%') {
		t->pct = 1;
		adv(lx);
	}
	t->s = lx->src + lx->pos;
	while (isname(peekc(lx, 0)))
		adv(lx);
	t->len = (int)(lx->src + lx->pos - t->s);
	t->kind = HK_IDENT;
	if (peekc(lx, 0) == ':') {
		t->kind = HK_LABEL;
		adv(lx);
	} else if (peekc(lx, 0) == '=') {
		t->kind = HK_ATTR;
		adv(lx);
	}
}

/* Punctuation and the multi-character operators; 0 if c is none. */
static int
lex_punct(HLex *lx, HTok *t, int c)
{
	if (c == '-' && peekc(lx, 1) == '>') {
		adv(lx), adv(lx);
		t->kind = HK_ARROW;
	} else if (c == '<' && peekc(lx, 1) == '=') {
		adv(lx), adv(lx);
		t->kind = HK_LE;
	} else if (c == '.' && peekc(lx, 1) == '.' && peekc(lx, 2) == '.') {
		adv(lx), adv(lx), adv(lx);
		t->kind = HK_ELLIPSIS;
	} else if (c >= 0 && strchr("=,:()[]{}*#?+~<>", c) && c != 0) {
		adv(lx);
		t->kind = c;
	} else
		return 0;
	return 1;
}

static void
lex_one(HLex *lx, HTok *t)
{
	int c = peekc(lx, 0);

	if (c < 0)
		t->kind = HK_EOF;
	else if (c == '"' || c == '\'') {
		t->kind = HK_STRING;
		if (!skip_string(lx)) {
			diag_error(lx->d, t->loc, "unterminated string");
			t->s = lx->src + t->pos + 1;
			t->len = (int)(lx->pos - t->pos - 1);
			return;
		}
		t->s = lx->src + t->pos + 1;
		t->len = (int)(lx->pos - t->pos - 2);
	} else if (lex_special_float(lx, t))
		;
	else if (isnamestart(c) || (c == '%' && isname(peekc(lx, 1))))
		lex_name(lx, t);
	else if ((c >= 0 && isdigit(c)) || (c == '-' && isdigit(peekc(lx, 1))))
		lex_number(lx, t);
	else if (!lex_punct(lx, t, c)) {
		if (c >= 0x20 && c < 0x7f)
			diag_error(lx->d, t->loc, "stray '%c' in HLO text", c);
		else
			diag_error(lx->d, t->loc, "stray byte 0x%02x in HLO text",
			    (unsigned)c);
		adv(lx);
		t->kind = 0;	/* caller lexes again */
	}
}

void
hlex_next(HLex *lx, HTok *t)
{
	do {
		skip_space(lx);
		memset(t, 0, sizeof *t);
		t->pos = lx->pos;
		t->loc = here(lx);
		t->bol = lx->line != lx->lastline;
		t->s = lx->src + lx->pos;
		lex_one(lx, t);
	} while (t->kind == 0);
	if (t->kind != HK_IDENT && t->kind != HK_LABEL && t->kind != HK_ATTR &&
	    t->kind != HK_STRING)
		t->len = (int)(lx->pos - t->pos);
	t->end = lx->pos;
	t->loc.eline = lx->line;
	t->loc.ecol = lx->col > 1 ? lx->col - 1 : 1;
	if (t->kind == HK_EOF) {
		t->loc.ecol = t->loc.col;
		t->loc.eline = t->loc.line;
	}
	lx->lastline = lx->line;
}

size_t
hlex_skip_group(HLex *lx, int open, Loc at)
{
	int close = open == '{' ? '}' : open == '(' ? ')' : ']';
	int depth = 1, c;

	while ((c = peekc(lx, 0)) >= 0) {
		if (c == '"' || c == '\'') {
			if (!skip_string(lx))
				break;
			continue;
		}
		adv(lx);
		if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return lx->pos;
	}
	diag_error(lx->d, at, "'%c' is not closed", open);
	return (size_t)-1;
}

void
hlex_space(HLex *lx)
{
	skip_space(lx);
}

size_t
hlex_skip_word(HLex *lx)
{
	int c;

	while ((c = peekc(lx, 0)) >= 0 && !isspace(c) && c != ',' && c != '}' &&
	    c != ')')
		adv(lx);
	return lx->pos;
}
