/*
 * diag.c - diagnostics in gcc's form, so that editors jump to them:
 *
 *     file:line:col: error: message
 *         3 |     acc[...] += dot(x, y)
 *           |                 ^~~~~~~~~
 *     file:line:col: note: in expansion of macro 'BM'
 *
 * or, with -fdiagnostics-format=json, one JSON array of objects shaped like
 * gcc's ("kind", "message", "locations" with caret/finish, "children").
 * Every stage reports user errors through here; none prints on its own.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static const char *kindname[NDIAG] = { "error", "warning", "note" };
static const char *kindcolor[NDIAG] = { "\033[1;31m", "\033[1;35m", "\033[1;36m" };
#define BOLD "\033[1m"
#define GREEN "\033[1;32m"
#define RESET "\033[0m"

void
diag_init(Diag *d, SrcMgr *sm, FILE *out)
{
	memset(d, 0, sizeof *d);
	d->sm = sm;
	d->out = out;
	d->max_errors = 50;
}

/* Parses the argument of -fdiagnostics-color=; -1 when it is not valid. */
int
diag_color_choice(const char *arg, FILE *out)
{
	const char *term = getenv("TERM");

	if (strcmp(arg, "always") == 0)
		return 1;
	if (strcmp(arg, "never") == 0)
		return 0;
	if (strcmp(arg, "auto") != 0)
		return -1;
	if (getenv("NO_COLOR") || (term && strcmp(term, "dumb") == 0))
		return 0;
	return isatty(fileno(out));
}

static void
put(Diag *d, const char *color, const char *s)
{
	if (d->color && color)
		fprintf(d->out, "%s%s%s", color, s, RESET);
	else
		fputs(s, d->out);
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
static int
utf8_len(const unsigned char *s, int n)
{
	int len, i;

	if (s[0] < 0x80)
		return 1;
	len = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 :
	    s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (len == 0 || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Display columns of s[0..n): a UTF-8 character counts once. */
static int
display_cols(const char *s, int n)
{
	const unsigned char *u = (const unsigned char *)s;
	int i = 0, cols = 0, k;

	while (i < n) {
		k = utf8_len(u + i, n - i);
		i += k ? k : 1;
		cols++;
	}
	return cols;
}

/*
 * Echoes s[0..n) for the terminal: control characters become spaces and
 * bytes that are not UTF-8 become '?', one column each.
 */
static void
echo(FILE *out, const char *s, int n)
{
	const unsigned char *u = (const unsigned char *)s;
	int i = 0, k;

	while (i < n) {
		k = utf8_len(u + i, n - i);
		if (k > 1)
			fwrite(u + i, 1, (size_t)k, out);
		else if (k == 0)
			fputc('?', out);
		else
			fputc(u[i] < 0x20 && u[i] != '\t' ? ' ' : u[i], out);
		i += k ? k : 1;
	}
}

/* The padding under s[0..n) up to byte column col; tabs stay tabs. */
static void
pad(FILE *out, const char *s, int n, int col)
{
	const unsigned char *u = (const unsigned char *)s;
	int i = 0, k;

	while (i < n && i < col - 1) {
		k = utf8_len(u + i, n - i);
		fputc(u[i] == '\t' ? '\t' : ' ', out);
		i += k ? k : 1;
	}
	for (; i < col - 1; i++)	/* a column past the end of the line */
		fputc(' ', out);
}

/* The source line with a gutter, then a caret and '~' under the range. */
static void
show_line(Diag *d, Loc loc, DiagKind k)
{
	int n, i, end, width;
	const char *s = srcmgr_line(d->sm, loc.file, loc.line, &n);

	if (!s || loc.col < 1)
		return;
	fprintf(d->out, "%5d | ", loc.line);
	echo(d->out, s, n);
	fputs("\n      | ", d->out);
	pad(d->out, s, n, loc.col);
	end = loc.eline == loc.line && loc.ecol >= loc.col ? loc.ecol : loc.col;
	if (loc.eline > loc.line)
		end = n > loc.col ? n : loc.col;
	width = end - loc.col + 1;
	if (loc.col <= n)
		width = display_cols(s + loc.col - 1, (end < n ? end : n) -
		    loc.col + 1) + (end > n ? end - n : 0);
	if (d->color)
		fputs(k == DIAG_NOTE ? kindcolor[DIAG_NOTE] : GREEN, d->out);
	fputc('^', d->out);
	for (i = 1; i < width; i++)
		fputc('~', d->out);
	if (d->color)
		fputs(RESET, d->out);
	fputc('\n', d->out);
}

static void
text_one(Diag *d, DiagKind k, Loc loc, const char *msg)
{
	const SrcFile *f = srcmgr_file(d->sm, loc.file);
	char head[64];

	if (d->color)
		fputs(BOLD, d->out);
	if (f && loc.line > 0)
		fprintf(d->out, "%s:%d:%d: ", f->name, loc.line, loc.col);
	else if (f)
		fprintf(d->out, "%s: ", f->name);
	else
		fputs("pallasc: ", d->out);
	if (d->color)
		fputs(RESET, d->out);
	snprintf(head, sizeof head, "%s:", kindname[k]);
	put(d, kindcolor[k], head);
	fputc(' ', d->out);
	put(d, BOLD, msg);
	fputc('\n', d->out);
	show_line(d, loc, k);
}

static void
json_pos(Buf *b, const SrcFile *f, int line, int col)
{
	buf_puts(b, "{\"file\": ");
	buf_json_str(b, f->name);
	buf_printf(b, ", \"line\": %d, \"column\": %d}", line, col);
}

static void
json_one(Diag *d, DiagKind k, Loc loc, const char *msg)
{
	Buf *b = &d->json;
	const SrcFile *f = srcmgr_file(d->sm, loc.file);

	if (k == DIAG_NOTE && d->json_open)
		buf_puts(b, d->json_open++ == 1 ? ", \"children\": [" : ", ");
	else {
		if (d->json_open > 1)
			buf_puts(b, "]");
		if (d->json_open)
			buf_puts(b, "}");
		buf_puts(b, d->njson++ ? ",\n" : "[");
		d->json_open = 1;
	}
	buf_printf(b, "{\"kind\": \"%s\", \"message\": ", kindname[k]);
	buf_json_str(b, msg);
	buf_puts(b, ", \"locations\": [");
	if (f && loc.line > 0) {
		buf_puts(b, "{\"caret\": ");
		json_pos(b, f, loc.line, loc.col);
		if (loc.eline > 0) {
			buf_puts(b, ", \"finish\": ");
			json_pos(b, f, loc.eline, loc.ecol);
		}
		buf_puts(b, "}");
	}
	buf_puts(b, "]");
	if (k == DIAG_NOTE && d->json_open > 1)
		buf_puts(b, "}");
}

static void
one_note(Diag *d, Loc loc, const char *msg)
{
	if (d->format == DIAG_JSON)
		json_one(d, DIAG_NOTE, loc, msg);
	else
		text_one(d, DIAG_NOTE, loc, msg);
}

/*
 * Notes naming each macro expansion that the location went through,
 * innermost first.  A long chain shows its first few links, a count, and
 * always the outermost one: the place the user wrote.
 */
#define MAX_EXP_NOTES 6
static void
expansion_notes(Diag *d, Loc loc)
{
	int chain[64], n = 0, i;
	char msg[256];

	while (loc.exp > 0 && loc.exp < d->sm->exp.n && n < (int)countof(chain)) {
		chain[n++] = loc.exp;
		loc = d->sm->exp.v[loc.exp].use;
	}
	for (i = 0; i < n; i++) {
		const SrcExp *e = &d->sm->exp.v[chain[i]];
		if (i == MAX_EXP_NOTES && n > MAX_EXP_NOTES + 1) {
			Loc none = {0};
			snprintf(msg, sizeof msg, "(%d more macro expansions)",
			    n - 1 - MAX_EXP_NOTES);
			one_note(d, none, msg);
			i = n - 1;
			e = &d->sm->exp.v[chain[i]];
		}
		snprintf(msg, sizeof msg, "in expansion of macro '%s'", e->macro);
		one_note(d, e->use, msg);
	}
}

void
diag_report(Diag *d, DiagKind k, Loc loc, const char *fmt, va_list ap)
{
	Buf msg = {0};

	if (k == DIAG_WARNING && d->werror)
		k = DIAG_ERROR;
	if (k == DIAG_NOTE && d->suppressed)
		return;
	if (k == DIAG_ERROR && d->max_errors && d->nerror >= d->max_errors) {
		if (d->nerror++ == d->max_errors)
			fprintf(d->out, "pallasc: too many errors, stopping reports\n");
		d->suppressed = 1;
		return;
	}
	d->suppressed = 0;
	d->nerror += k == DIAG_ERROR;
	d->nwarning += k == DIAG_WARNING;
	buf_vprintf(&msg, fmt, ap);
	if (d->format == DIAG_JSON)
		json_one(d, k, loc, msg.p ? msg.p : "");
	else
		text_one(d, k, loc, msg.p ? msg.p : "");
	expansion_notes(d, loc);
	buf_free(&msg);
}

void
diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(d, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

void
diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(d, DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
}

void
diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(d, DIAG_NOTE, loc, fmt, ap);
	va_end(ap);
}

void
diag_finish(Diag *d)
{
	if (d->format == DIAG_JSON) {
		if (d->json_open > 1)
			buf_puts(&d->json, "]");
		if (d->json_open)
			buf_puts(&d->json, "}");
		fprintf(d->out, "%s]\n", d->njson ? d->json.p : "[");
		d->json_open = 0;
	}
	buf_free(&d->json);
	fflush(d->out);
}
