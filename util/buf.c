/*
 * buf.c - a growable byte buffer for building output text, and reading a
 * whole file into one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void
reserve(Buf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 256;

	if (b->n + extra + 1 <= b->cap)
		return;
	while (cap < b->n + extra + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void
buf_putn(Buf *b, const char *s, size_t n)
{
	reserve(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void
buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void
buf_putc(Buf *b, int c)
{
	char ch = (char)c;

	buf_putn(b, &ch, 1);
}

void
buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	reserve(b, (size_t)n);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	b->n += (size_t)n;
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* Appends s as a JSON string literal. */
void
buf_json_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, c);
	}
	buf_putc(b, '"');
}

void
buf_free(Buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

/* Reads all of path (or stdin for "-") into out; returns 0 or an errno. */
int
read_file(const char *path, Buf *out)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char tmp[65536];
	size_t n;
	int err = 0;

	if (!f)
		return errno ? errno : ENOENT;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_putn(out, tmp, n);
	if (ferror(f))
		err = errno ? errno : EIO;
	if (f != stdin)
		fclose(f);
	if (!out->p)
		buf_putn(out, "", 0);
	return err;
}
