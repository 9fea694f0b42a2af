/*
 * cscan.c - the PK_MODULE invocations of a C file (embed.h).  The scan
 * works on the file as C's translation phase 2 leaves it (line splices
 * removed), keeping each character's offset in the file for locations
 * and the layout, and sees what phase 3 sees: comments, string and
 * character literals, pp-numbers, identifiers, and lines that begin with
 * '#' (directives, whose text is not C code to scan).
 */
#include <string.h>

#include "dsl/embed/embed.h"

typedef struct Scan {
	Diag *d;
	Arena *a;
	int file;
	const SrcFile *sf;
	char *c;		/* the file without line splices */
	size_t *off;		/* c[i]'s offset in the file; off[n] = len */
	size_t n;
	VEC(EmbedModule) mod;
} Scan;

static const char MACRO[] = "PK_MODULE";

static int
is_idstart(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_idchar(int c)
{
	return is_idstart(c) || (c >= '0' && c <= '9');
}

/* The location of c[i .. j) (j > i) in the file. */
static Loc
loc_of(const Scan *s, size_t i, size_t j)
{
	const SrcFile *f = s->sf;
	size_t a = s->off[i], b = s->off[j > i ? j - 1 : i];
	int lo = 1, hi = f->nline;
	Loc l = {0};

	while (lo < hi) {	/* the last line starting at or before a */
		int mid = (lo + hi + 1) / 2;
		if ((size_t)f->linestart[mid] <= a)
			lo = mid;
		else
			hi = mid - 1;
	}
	l.file = s->file;
	l.line = l.eline = lo;
	l.col = (int)(a - (size_t)f->linestart[lo]) + 1;
	while (lo < f->nline && (size_t)f->linestart[lo + 1] <= b)
		lo++;
	l.eline = lo;
	l.ecol = (int)(b - (size_t)f->linestart[lo]) + 1;
	return l;
}

/* Phase 2: removes backslash-newline pairs, remembering offsets. */
static void
splice(Scan *s)
{
	const char *t = s->sf->text;
	size_t len = s->sf->len, i, k = 0;

	s->c = arena_alloc(s->a, len + 1);
	s->off = arena_alloc(s->a, (len + 1) * sizeof *s->off);
	for (i = 0; i < len; i++) {
		if (t[i] == '\\' && i + 1 < len && t[i + 1] == '\n') {
			i++;
			continue;
		}
		if (t[i] == '\\' && i + 2 < len && t[i + 1] == '\r' &&
		    t[i + 2] == '\n') {
			i += 2;
			continue;
		}
		s->c[k] = t[i];
		s->off[k++] = i;
	}
	s->off[k] = len;
	s->n = k;
}

/* The end of the comment, literal or pp-number at i, or i if none. */
static size_t
skip_atom(const Scan *s, size_t i)
{
	const char *c = s->c;
	size_t n = s->n;

	if (c[i] == '/' && i + 1 < n && c[i + 1] == '/') {
		while (i < n && c[i] != '\n')
			i++;
		return i;
	}
	if (c[i] == '/' && i + 1 < n && c[i + 1] == '*') {
		for (i += 2; i + 1 < n && !(c[i] == '*' && c[i + 1] == '/'); i++)
			;
		return i + 1 < n ? i + 2 : n;
	}
	if (c[i] == '"' || c[i] == '\'') {
		char q = c[i++];
		while (i < n && c[i] != q && c[i] != '\n')
			i += c[i] == '\\' && i + 1 < n && c[i + 1] != '\n' ? 2 : 1;
		return i < n && c[i] == q ? i + 1 : i;
	}
	if ((c[i] >= '0' && c[i] <= '9') || (c[i] == '.' && i + 1 < n &&
	    c[i + 1] >= '0' && c[i + 1] <= '9')) {
		for (i++; i < n; i++) {
			if ((c[i] == '+' || c[i] == '-') && strchr("eEpP",
			    c[i - 1]))
				continue;
			if (!is_idchar((unsigned char)c[i]) && c[i] != '.')
				break;
		}
		return i;
	}
	return i;
}

static int
is_comment(const Scan *s, size_t i)
{
	return s->c[i] == '/' && i + 1 < s->n && (s->c[i + 1] == '/' ||
	    s->c[i + 1] == '*');
}

/* White space and comments from i on. */
static size_t
skip_space(const Scan *s, size_t i)
{
	while (i < s->n) {
		if (is_comment(s, i))
			i = skip_atom(s, i);
		else if (s->c[i] == ' ' || s->c[i] == '\t' || s->c[i] == '\n' ||
		    s->c[i] == '\r' || s->c[i] == '\f' || s->c[i] == '\v')
			i++;
		else
			break;
	}
	return i;
}

/* 1 if c[i] is the first character of its line but for white space. */
static int
starts_line(const Scan *s, size_t i)
{
	while (i > 0 && (s->c[i - 1] == ' ' || s->c[i - 1] == '\t'))
		i--;
	return i == 0 || s->c[i - 1] == '\n';
}

/* The end of the directive line starting at i (its newline). */
static size_t
skip_directive(const Scan *s, size_t i)
{
	while (i < s->n && s->c[i] != '\n') {
		size_t j = skip_atom(s, i);
		i = j > i ? j : i + 1;
	}
	return i;
}

/* What C's # operator makes of c[i .. j): comments and white space runs
 * are one space, none at either end; literals are kept as written. */
static char *
stringize(const Scan *s, size_t i, size_t j, size_t *len)
{
	char *out = arena_alloc(s->a, j - i + 1);
	size_t k = 0, e;
	int space = 0;

	while (i < j) {
		e = skip_space(s, i);
		if (e > i) {
			space = 1;
			i = e < j ? e : j;
			continue;
		}
		if (space && k)
			out[k++] = ' ';
		space = 0;
		e = skip_atom(s, i);
		if (e == i)
			e = i + 1;
		if (e > j)
			e = j;
		memcpy(out + k, s->c + i, e - i);
		k += e - i;
		i = e;
	}
	out[k] = 0;
	*len = k;
	return out;
}

/* The file with everything outside the module's text blanked. */
static char *
layout(const Scan *s, size_t begin, size_t end)
{
	const SrcFile *f = s->sf;
	char *out = arena_alloc(s->a, f->len + 1);
	size_t i;

	for (i = 0; i < f->len; i++) {
		int keep = i >= begin && i < end && !(f->text[i] == '\\' &&
		    i + 1 < f->len && (f->text[i + 1] == '\n' ||
		    f->text[i + 1] == '\r'));
		out[i] = keep || f->text[i] == '\n' ? f->text[i] : ' ';
	}
	return out;
}

/* A line splice inside the text that joins two pieces of one token: C
 * sees one token, the layout (which keeps the file's lines) two. */
static void
check_splices(Scan *s, const EmbedModule *m)
{
	const char *t = s->sf->text;
	size_t i;

	for (i = m->begin + 1; i + 2 < m->end; i++) {
		size_t nl = t[i + 1] == '\r' ? i + 2 : i + 1;
		if (t[i] != '\\' || t[nl] != '\n' || nl + 1 >= m->end ||
		    strchr(" \t\n", t[i - 1]) || strchr(" \t\r\n", t[nl + 1]))
			continue;
		{
			Loc l = {0};
			int k;
			l.file = s->file;
			for (k = 1; k < s->sf->nline &&
			    (size_t)s->sf->linestart[k + 1] <= i; k++)
				;
			l.line = l.eline = k;
			l.col = l.ecol = (int)(i - (size_t)s->sf->linestart[k]) + 1;
			diag_error(s->d, l, "a line splice inside a token of "
			    "module '%s': write the token on one line", m->name);
		}
		return;
	}
}

/* The module's name after PK_MODULE's '(' at i; the index after the ','
 * or 0 after an error. */
static size_t
module_name(Scan *s, size_t at, size_t i, EmbedModule *m)
{
	size_t j;

	i = skip_space(s, i);
	for (j = i; j < s->n && is_idchar((unsigned char)s->c[j]); j++)
		;
	if (j == i || !is_idstart((unsigned char)s->c[i])) {
		Loc l = loc_of(s, i < s->n ? i : at, j > i ? j : i + 1);
		if (j > i)
			diag_error(s->d, l, "'%.*s' is not a C identifier: a "
			    "module's name must be one", (int)(j - i),
			    s->c + i);
		else
			diag_error(s->d, i < s->n ? l : loc_of(s, at, at + 9),
			    "PK_MODULE needs a module name (a C identifier) "
			    "before its kernel text");
		return 0;
	}
	m->name = arena_strndup(s->a, s->c + i, j - i);
	i = skip_space(s, j);
	if (i >= s->n || s->c[i] != ',') {
		diag_error(s->d, loc_of(s, i < s->n ? i : j - 1, i < s->n ?
		    i + 1 : j), "expected ',' after the module name '%s'",
		    m->name);
		return 0;
	}
	return i + 1;
}

/* The ')' that closes the invocation whose text starts at i, or s->n
 * after an error. */
static size_t
module_end(Scan *s, size_t at, size_t i, const char *name)
{
	int depth = 1;

	while (i < s->n) {
		size_t j = skip_atom(s, i);
		if (j > i) {
			i = j;
			continue;
		}
		if (s->c[i] == '#' && starts_line(s, i)) {
			diag_error(s->d, loc_of(s, i, i + 1), "a line starting "
			    "with '#' inside PK_MODULE is a directive of C's "
			    "preprocessor, not of the kernel");
			diag_note(s->d, loc_of(s, i, i + 1), "write .pk "
			    "directives as PK_PP(#define N 8) or "
			    "PK_PP(#include \"file.pk\")");
			i = skip_directive(s, i);
			continue;
		}
		if (s->c[i] == '(')
			depth++;
		else if (s->c[i] == ')' && --depth == 0)
			return i;
		i++;
	}
	diag_error(s->d, loc_of(s, at, at + sizeof MACRO - 1),
	    "unterminated PK_MODULE '%s': no ')' closes it", name);
	return s->n;
}

/* The invocation whose PK_MODULE token is c[at ..); returns where the
 * scan goes on. */
static size_t
invocation(Scan *s, size_t at, size_t lp)
{
	EmbedModule m = {0};
	size_t i, end;
	int k;

	m.at = loc_of(s, at, at + sizeof MACRO - 1);
	if (!(i = module_name(s, at, lp + 1, &m)))
		return lp + 1;
	end = module_end(s, at, i, m.name);
	if (end >= s->n)
		return s->n;
	m.begin = s->off[i];
	m.end = s->off[end];
	m.text = stringize(s, i, end, &m.len);
	m.layout = layout(s, m.begin, m.end);
	check_splices(s, &m);
	if (m.len == 0)
		diag_error(s->d, m.at, "module '%s' has no kernel text",
		    m.name);
	for (k = 0; k < s->mod.n; k++)
		if (strcmp(s->mod.v[k].name, m.name) == 0) {
			diag_error(s->d, m.at, "a second module named '%s' in "
			    "this file", m.name);
			diag_note(s->d, s->mod.v[k].at, "the first is here");
			return end + 1;
		}
	if (m.len)
		vec_push(s->a, &s->mod, m);
	return end + 1;
}

int
embed_scan(Diag *d, int file, Arena *a, EmbedModule **out)
{
	Scan s = {0};
	size_t i = 0, j;

	s.d = d;
	s.a = a;
	s.file = file;
	if (!(s.sf = srcmgr_file(d->sm, file)))
		return *out = NULL, 0;
	splice(&s);
	while (i < s.n) {
		if ((j = skip_atom(&s, i)) > i) {
			i = j;
			continue;
		}
		if (s.c[i] == '#' && starts_line(&s, i)) {
			i = skip_directive(&s, i);
			continue;
		}
		if (!is_idstart((unsigned char)s.c[i])) {
			i++;
			continue;
		}
		for (j = i; j < s.n && is_idchar((unsigned char)s.c[j]); j++)
			;
		if (j - i == sizeof MACRO - 1 && memcmp(s.c + i, MACRO,
		    j - i) == 0) {
			size_t lp = skip_space(&s, j);
			if (lp < s.n && s.c[lp] == '(') {
				i = invocation(&s, i, lp);
				continue;
			}
		}
		i = j;
	}
	*out = s.mod.v;
	return s.mod.n;
}
