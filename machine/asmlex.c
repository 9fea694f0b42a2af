/*
 * asmlex.c - the assembler's tokens, numbers and diagnostics.  A line is
 * tokenised on demand (asm_next); numbers are read with their sign and
 * range; errors are written in gcc's form, with the source line and a
 * caret, into the caller's buffer, each whole or not at all.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/asm.h"

int
asm_grow(Asm *a, void *pv, uint32_t *cap, uint32_t n, size_t elsize)
{
	void *old, *q;
	uint32_t nc;

	if (n < *cap)
		return 0;
	if (*cap >= UINT32_MAX / 2 || (size_t)*cap * 2 > SIZE_MAX / elsize) {
		a->nomem = 1;
		return -1;
	}
	nc = *cap ? *cap * 2 : 16;
	memcpy(&old, pv, sizeof old);
	q = realloc(old, (size_t)nc * elsize);
	if (!q) {
		a->nomem = 1;
		return -1;
	}
	memcpy(pv, &q, sizeof q);
	*cap = nc;
	return 0;
}

/* ------------------------------------------------------ diagnostics */

typedef struct Out {
	char *p;
	size_t n, cap;
	int bad;
} Out;

static void
out_put(Out *o, const char *s, size_t n)
{
	char *q;

	if (o->bad)
		return;
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		q = realloc(o->p, o->cap);
		if (!q) {
			o->bad = 1;
			return;
		}
		o->p = q;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

/* Start and length of line 'line' (1-based) in the source. */
static const char *
find_line(const Asm *a, uint32_t line, size_t *n)
{
	const char *s = a->text, *end = a->text + a->len, *e;
	uint32_t k;

	for (k = 1; k < line && s < end; k++) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			return NULL;
		s = e + 1;
	}
	if (k != line || s > end)
		return NULL;
	e = memchr(s, '\n', (size_t)(end - s));
	*n = (size_t)((e ? e : end) - s);
	if (*n && s[*n - 1] == '\r')
		(*n)--;
	return s;
}

/* The source line with a gutter, then a caret and '~' under loc. */
static void
show_line(const Asm *a, Out *o, Loc loc)
{
	char gutter[32];
	const char *s;
	size_t n, i;
	char c;

	if (!(s = find_line(a, loc.line, &n)) || loc.col < 1)
		return;
	snprintf(gutter, sizeof gutter, "%5u | ", (unsigned)loc.line);
	out_put(o, gutter, strlen(gutter));
	for (i = 0; i < n; i++) {	/* tabs stay tabs: the caret aligns */
		c = (unsigned char)s[i] < 0x20 && s[i] != '\t' ? ' ' : s[i];
		out_put(o, &c, 1);
	}
	out_put(o, "\n      | ", 9);
	for (i = 1; i < loc.col && i <= n; i++)
		out_put(o, s[i - 1] == '\t' ? "\t" : " ", 1);
	out_put(o, "^", 1);
	for (i = 1; i < loc.len && loc.col + i <= n; i++)
		out_put(o, "~", 1);
	out_put(o, "\n", 1);
}

#define MAXDIAG 10000

static void
report(Asm *a, const char *kind, Loc loc, const char *fmt, va_list ap)
{
	char msg[512], head[64];
	Out o = { 0 };
	AsmDiag *d;
	int note = kind[0] == 'n';

	if (!a->err || a->errlen == 0 || a->diag.n >= MAXDIAG ||
	    (note && a->diag.n == 0))
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	out_put(&o, a->name, strlen(a->name));
	snprintf(head, sizeof head, ":%u:%u: %s: ", (unsigned)loc.line,
	    (unsigned)loc.col, kind);
	out_put(&o, head, strlen(head));
	out_put(&o, msg, strlen(msg));
	out_put(&o, "\n", 1);
	show_line(a, &o, loc);
	if (o.bad || !(d = ASM_PUSH(a, a->diag))) {
		free(o.p);
		return;
	}
	d->text = o.p;
	d->seq = a->diag.n - 1;
	d->line = note ? d[-1].line : loc.line;
	d->col = note ? d[-1].col : loc.col;
}

static int
diagcmp(const void *x, const void *y)
{
	const AsmDiag *a = x, *b = y;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void
asm_flush_diags(Asm *a)
{
	size_t used = 0, n;
	uint32_t i;
	int full = 0;

	if (a->diag.n)
		qsort(a->diag.v, a->diag.n, sizeof *a->diag.v, diagcmp);
	for (i = 0; i < a->diag.n; i++) {
		n = strlen(a->diag.v[i].text);
		if (!full && used + n + 1 <= a->errlen) {
			memcpy(a->err + used, a->diag.v[i].text, n + 1);
			used += n;
		} else
			full = 1;	/* whole diagnostics only */
		free(a->diag.v[i].text);
	}
	free(a->diag.v);
	a->diag.v = NULL;
	a->diag.n = a->diag.cap = 0;
	if (a->err && a->errlen && a->nomem && used + 15 <= a->errlen)
		memcpy(a->err + used, "out of memory\n", 15);
}

void
asm_error(Asm *a, Loc loc, const char *fmt, ...)
{
	va_list ap;

	a->nerr++;
	va_start(ap, fmt);
	report(a, "error", loc, fmt, ap);
	va_end(ap);
}

void
asm_note(Asm *a, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(a, "note", loc, fmt, ap);
	va_end(ap);
}

/* ----------------------------------------------------------- tokens */

void
asm_lex_line(Lexer *lx, const char *s, const char *end, uint32_t line)
{
	memset(lx, 0, sizeof *lx);
	lx->s = lx->line0 = s;
	lx->end = end;
	lx->line = line;
}

static int
isident0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == '.' || c == '$';
}

static int
isdigit_(int c)
{
	return c >= '0' && c <= '9';
}

static int
isident(int c)
{
	return isident0(c) || isdigit_(c);
}

static int
hexval(int c)
{
	if (isdigit_(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Integer in base 10 or 16 (0x), no sign; bad on overflow or junk. */
static void
num_int(Tok *t, const char *s, const char *e)
{
	int base = 10, d;

	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	t->u = 0;
	for (; s < e; s++) {
		d = base == 16 ? hexval(*s) : isdigit_(*s) ? *s - '0' : -1;
		if (d < 0 || t->u > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			t->bad = 1;
			return;
		}
		t->u = t->u * (uint64_t)base + (uint64_t)d;
	}
}

/* Float: digits with '.', an exponent and an optional 'f' suffix. */
static void
num_float(Tok *t, const char *s, const char *e)
{
	char buf[64], *q;
	size_t n = (size_t)(e - s);

	if (n && (e[-1] == 'f' || e[-1] == 'F'))
		n--;
	if (n == 0 || n >= sizeof buf) {
		t->bad = 1;
		return;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	t->f = strtod(buf, &q);
	if (*q || !isfinite(t->f) || strchr(buf, 'x') || strchr(buf, 'X'))
		t->bad = 1;
}

static void
lex_number(Lexer *lx, Tok *t)
{
	const char *s = lx->s, *e = s;
	int hex = e + 1 < lx->end && e[0] == '0' && (e[1] == 'x' || e[1] == 'X');

	while (e < lx->end && (isident(*e) || ((*e == '+' || *e == '-') &&
	    !hex && (e[-1] == 'e' || e[-1] == 'E'))))
		e++;
	t->kind = T_NUM;
	t->len = (uint32_t)(e - s);
	if (!hex && (memchr(s, '.', t->len) || memchr(s, 'e', t->len) ||
	    memchr(s, 'E', t->len) || e[-1] == 'f' || e[-1] == 'F')) {
		t->isfloat = 1;
		num_float(t, s, e);
	} else
		num_int(t, s, e);
	lx->s = e;
}

static void
lex_string(Lexer *lx, Tok *t)
{
	const char *e = lx->s + 1;

	while (e < lx->end && *e != '"') {
		if (*e == '\\' && e + 1 < lx->end)
			e++;
		e++;
	}
	if (e >= lx->end) {
		t->kind = T_BAD;	/* unterminated */
		t->len = (uint32_t)(e - lx->s);
		lx->s = e;
		return;
	}
	t->kind = T_STR;
	t->len = (uint32_t)(e + 1 - lx->s);
	lx->s = e + 1;
}

AsmTok
asm_next(Lexer *lx)
{
	Tok *t = &lx->t;
	const char *s;

	while (lx->s < lx->end && (*lx->s == ' ' || *lx->s == '\t' ||
	    *lx->s == '\r' || *lx->s == '\f' || *lx->s == '\v'))
		lx->s++;
	memset(t, 0, sizeof *t);
	s = t->p = lx->s;
	t->loc.line = lx->line;
	t->loc.col = (uint32_t)(s - lx->line0) + 1;
	if (s >= lx->end || *s == '#' || (*s == '/' && s + 1 < lx->end &&
	    s[1] == '/')) {
		t->kind = T_END;
		lx->s = lx->end;
	} else if (isdigit_(*s))
		lex_number(lx, t);
	else if (isident0(*s)) {
		while (lx->s < lx->end && isident(*lx->s))
			lx->s++;
		t->kind = T_IDENT;
		t->len = (uint32_t)(lx->s - s);
	} else if (*s == '"')
		lex_string(lx, t);
	else if (strchr(",;()![]+-:={}", *s) && *s) {
		t->kind = T_PUNCT;
		t->c = *s;
		t->len = 1;
		lx->s++;
	} else {
		t->kind = T_BAD;
		t->len = 1;
		lx->s++;
	}
	t->loc.len = t->len ? t->len : 1;
	return t->kind;
}

int
asm_is(const Lexer *lx, char c)
{
	return lx->t.kind == T_PUNCT && lx->t.c == c;
}

/* Unescapes the body of a string token into q (room for len bytes). */
static size_t
unescape(const char *s, size_t n, char *q)
{
	size_t i, k = 0;
	int h, l;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			q[k++] = s[i];
			continue;
		}
		switch (s[++i]) {
		case 'n': q[k++] = '\n'; break;
		case 't': q[k++] = '\t'; break;
		case 'x':
			if (i + 2 < n && (h = hexval(s[i + 1])) >= 0 &&
			    (l = hexval(s[i + 2])) >= 0) {
				q[k++] = (char)(h << 4 | l);
				i += 2;
			} else
				q[k++] = 'x';
			break;
		default: q[k++] = s[i]; break;
		}
	}
	return k;
}

char *
asm_tokstr(Asm *a, const Tok *t)
{
	char *q = malloc((size_t)t->len + 1);
	size_t n;

	if (!q) {
		a->nomem = 1;
		return NULL;
	}
	if (t->kind == T_STR) {
		n = unescape(t->p + 1, t->len - 2, q);
		q[n] = 0;
	} else {
		memcpy(q, t->p, t->len);
		q[t->len] = 0;
	}
	return q;
}

/* ---------------------------------------------------------- numbers */

/* An optional sign; returns -1 for '-', 1 otherwise, and sets *at. */
static int
sign(Lexer *lx, Loc *at)
{
	int neg = 0;

	*at = lx->t.loc;
	if (asm_is(lx, '-') || asm_is(lx, '+')) {
		neg = asm_is(lx, '-');
		asm_next(lx);
		if (lx->t.kind == T_NUM && lx->t.loc.col == at->col + 1)
			at->len = 1 + lx->t.len;
	} else
		at->len = lx->t.len ? lx->t.len : 1;
	return neg ? -1 : 1;
}

int
asm_int(Asm *a, Lexer *lx, int64_t lo, int64_t hi, const char *what,
    int64_t *v)
{
	Loc at;
	int s = sign(lx, &at);
	Tok t = lx->t;

	if (t.kind != T_NUM) {
		asm_error(a, t.loc, "expected %s, found '%.*s'", what,
		    (int)t.len, t.p);
		return -1;
	}
	asm_next(lx);
	if (t.isfloat || t.bad || t.u > (uint64_t)INT64_MAX) {
		asm_error(a, at, "%s: '%.*s' is not a valid integer", what,
		    (int)t.len, t.p);
		return -1;
	}
	*v = s * (int64_t)t.u;
	if (*v < lo || *v > hi) {
		asm_error(a, at, "%s %lld out of range [%lld, %lld]", what,
		    (long long)*v, (long long)lo, (long long)hi);
		return -1;
	}
	return 0;
}

int
asm_imm32(Asm *a, Lexer *lx, int32_t *v)
{
	Loc at;
	int s = sign(lx, &at);
	Tok t = lx->t;
	uint32_t bits;
	float f;

	if (t.kind != T_NUM) {
		asm_error(a, t.loc, "expected an immediate, found '%.*s'",
		    (int)t.len, t.p);
		return -1;
	}
	asm_next(lx);
	if (t.bad) {
		asm_error(a, at, "'%.*s' is not a valid number", (int)t.len,
		    t.p);
		return -1;
	}
	if (t.isfloat) {
		f = (float)(s * t.f);
		if (!isfinite(f)) {
			asm_error(a, at, "float immediate out of range");
			return -1;
		}
		memcpy(&bits, &f, sizeof bits);
		*v = (int32_t)bits;
		return 0;
	}
	if ((s > 0 && t.u > UINT32_MAX) || (s < 0 && t.u > UINT32_C(1) << 31)) {
		asm_error(a, at, "immediate %s%llu does not fit in 32 bits",
		    s < 0 ? "-" : "", (unsigned long long)t.u);
		return -1;
	}
	bits = s < 0 ? (uint32_t)(0u - (uint32_t)t.u) : (uint32_t)t.u;
	*v = (int32_t)bits;
	return 0;
}

int
asm_real(Asm *a, Lexer *lx, double *v)
{
	Loc at;
	int s = sign(lx, &at);
	Tok t = lx->t;

	if (t.kind != T_NUM) {
		asm_error(a, t.loc, "expected a number, found '%.*s'",
		    (int)t.len, t.p);
		return -1;
	}
	asm_next(lx);
	if (t.bad || (!t.isfloat && t.u > (UINT64_C(1) << 53))) {
		asm_error(a, at, "'%.*s' is not a valid number", (int)t.len,
		    t.p);
		return -1;
	}
	*v = s * (t.isfloat ? t.f : (double)t.u);
	return 0;
}
