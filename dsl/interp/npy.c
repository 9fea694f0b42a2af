/*
 * npy.c - reading and writing NumPy .npy files for interpret mode's
 * inputs and outputs.
 *
 * Format: the magic "\x93NUMPY", a version (1.0: 16-bit header length;
 * 2.0 and 3.0: 32-bit), then a Python dict literal such as
 * {'descr': '<f4', 'fortran_order': False, 'shape': (16, 64), }
 * padded with spaces and a newline, then the data.  The reader accepts
 * exactly the three keys, C order, the dtypes of interp.h and at most
 * SEMA_MAXRANK dimensions, and requires the data to have exactly the
 * size the header announces.  It is written to be fuzzed: every read is
 * bounds-checked and every size overflow-checked.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/interp.h"

static const struct {
	const char *descr;
	DType t;
} descrs[] = {
	{ "<f4", DT_F32 }, { "<u2", DT_BF16 }, { "<i4", DT_I32 },
	{ "|i1", DT_I8 }, { "|b1", DT_BOOL },
};

/* The header parser: a cursor over the dict text. */
typedef struct Hdr {
	const char *p, *end;
	char *err;
	size_t errlen;
	int failed;
} Hdr;

PK_PRINTF(2, 3) static int
fail(Hdr *h, const char *fmt, ...)
{
	va_list ap;

	if (!h->failed && h->errlen) {
		va_start(ap, fmt);
		vsnprintf(h->err, h->errlen, fmt, ap);
		va_end(ap);
	}
	h->failed = 1;
	return -1;
}

static void
skip_space(Hdr *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' ||
	    *h->p == '\n' || *h->p == '\r'))
		h->p++;
}

/* Consumes c (after spaces); 0 if it was there. */
static int
expect(Hdr *h, char c)
{
	skip_space(h);
	if (h->p < h->end && *h->p == c) {
		h->p++;
		return 0;
	}
	return fail(h, "malformed .npy header: expected '%c'", c);
}

static int
peek(Hdr *h, char c)
{
	skip_space(h);
	return h->p < h->end && *h->p == c;
}

/* 'text' or "text" without escapes, into s[0 .. n). */
static int
string(Hdr *h, char *s, size_t n)
{
	char q;
	size_t len = 0;

	skip_space(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return fail(h, "malformed .npy header: expected a string");
	q = *h->p++;
	while (h->p < h->end && *h->p != q) {
		if (*h->p == '\\' || len + 1 >= n)
			return fail(h, "unsupported .npy header string");
		s[len++] = *h->p++;
	}
	if (h->p >= h->end)
		return fail(h, "malformed .npy header: unterminated string");
	h->p++;
	s[len] = 0;
	return 0;
}

static int
word(Hdr *h, const char *w)
{
	size_t n = strlen(w);

	skip_space(h);
	if ((size_t)(h->end - h->p) >= n && memcmp(h->p, w, n) == 0) {
		h->p += n;
		return 1;
	}
	return 0;
}

/* A non-negative decimal integer (Python may add an 'L' in old files). */
static int
integer(Hdr *h, int64_t *v)
{
	int64_t x = 0;
	int digits = 0;

	skip_space(h);
	while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
		if (x > (INT64_MAX - 9) / 10)
			return fail(h, ".npy shape dimension is too large");
		x = x * 10 + (*h->p++ - '0');
		digits++;
	}
	if (!digits)
		return fail(h, "malformed .npy header: expected a dimension");
	if (h->p < h->end && *h->p == 'L')
		h->p++;
	*v = x;
	return 0;
}

/* (d0, d1, ...) with an optional trailing comma; () is a scalar. */
static int
shape(Hdr *h, Shape *s)
{
	s->rank = 0;
	if (expect(h, '('))
		return -1;
	while (!peek(h, ')')) {
		if (s->rank == SEMA_MAXRANK)
			return fail(h, ".npy arrays of more than %d dimensions "
			    "are not supported", SEMA_MAXRANK);
		if (integer(h, &s->d[s->rank++]))
			return -1;
		if (!peek(h, ')') && expect(h, ','))
			return -1;
	}
	return expect(h, ')');
}

static int
descr(Hdr *h, DType *t)
{
	char s[32];
	size_t i;

	if (string(h, s, sizeof s))
		return -1;
	for (i = 0; i < countof(descrs); i++)
		if (strcmp(s, descrs[i].descr) == 0) {
			*t = descrs[i].t;
			return 0;
		}
	if (s[0] == '>')
		return fail(h, "big-endian .npy data ('%s') is not supported",
		    s);
	return fail(h, "unsupported .npy dtype '%s' (use <f4, <u2 for "
	    "bf16, <i4, |i1 or |b1)", s);
}

/* The dict: its three keys, each once, in any order. */
static int
dict(Hdr *h, DType *t, Shape *s)
{
	int seen = 0;
	char key[32];

	if (expect(h, '{'))
		return -1;
	while (!peek(h, '}')) {
		if (string(h, key, sizeof key) || expect(h, ':'))
			return -1;
		if (strcmp(key, "descr") == 0 && !(seen & 1)) {
			if (descr(h, t))
				return -1;
			seen |= 1;
		} else if (strcmp(key, "fortran_order") == 0 && !(seen & 2)) {
			if (word(h, "True"))
				return fail(h, "Fortran-order .npy data is "
				    "not supported");
			if (!word(h, "False"))
				return fail(h, "malformed .npy header: bad "
				    "fortran_order");
			seen |= 2;
		} else if (strcmp(key, "shape") == 0 && !(seen & 4)) {
			if (shape(h, s))
				return -1;
			seen |= 4;
		} else
			return fail(h, "unexpected or repeated key '%s' in "
			    ".npy header", key);
		if (!peek(h, '}') && expect(h, ','))
			return -1;
	}
	if (expect(h, '}'))
		return -1;
	if (seen != 7)
		return fail(h, ".npy header lacks %s", !(seen & 1) ? "descr"
		    : !(seen & 2) ? "fortran_order" : "shape");
	skip_space(h);
	return h->p == h->end ? 0 : fail(h, "junk after the .npy header");
}

/* Elements times item size, or -1 on overflow. */
static int64_t
data_bytes(const Shape *s, DType t)
{
	int64_t n = interp_elem_size(t);
	int i;

	for (i = 0; i < s->rank; i++) {
		if (s->d[i] != 0 && n > INT64_MAX / s->d[i])
			return -1;
		n *= s->d[i];
	}
	return n;
}

int
interp_npy_parse(const void *buf, size_t n, InterpBuf *b, char *err,
    size_t errlen)
{
	const unsigned char *p = buf;
	Hdr h = { 0, 0, err, errlen, 0 };
	size_t hlen, off;
	int64_t bytes;

	memset(b, 0, sizeof *b);
	if (n < 10 || memcmp(p, "\x93NUMPY", 6) != 0)
		return fail(&h, "not a .npy file (bad magic)");
	if (p[6] == 1 && p[7] == 0) {
		hlen = (size_t)p[8] | (size_t)p[9] << 8;
		off = 10;
	} else if ((p[6] == 2 || p[6] == 3) && p[7] == 0 && n >= 12) {
		hlen = (size_t)p[8] | (size_t)p[9] << 8 |
		    (size_t)p[10] << 16 | (size_t)p[11] << 24;
		off = 12;
	} else
		return fail(&h, "unsupported .npy version %d.%d", p[6], p[7]);
	if (hlen > n - off)
		return fail(&h, "truncated .npy header");
	h.p = (const char *)p + off;
	h.end = h.p + hlen;
	if (dict(&h, &b->dtype, &b->shape))
		return -1;
	off += hlen;
	if ((bytes = data_bytes(&b->shape, b->dtype)) < 0)
		return fail(&h, ".npy array is too large");
	if ((uint64_t)bytes != n - off)
		return fail(&h, ".npy data has %zu bytes, the header announces "
		    "%lld", n - off, (long long)bytes);
	b->data = xmalloc(bytes ? (size_t)bytes : 1);
	memcpy(b->data, p + off, (size_t)bytes);
	if (b->dtype == DT_BOOL) {
		int64_t i;
		for (i = 0; i < bytes; i++)
			if (((unsigned char *)b->data)[i] > 1) {
				free(b->data);
				b->data = NULL;
				return fail(&h, ".npy bool data holds a value "
				    "other than 0 and 1");
			}
	}
	return 0;
}

int
interp_npy_read(const char *path, InterpBuf *b, char *err, size_t errlen)
{
	Buf in = {0};
	int rc = read_file(path, &in);

	if (rc) {
		memset(b, 0, sizeof *b);
		snprintf(err, errlen, "cannot read '%s': %s", path,
		    strerror(rc));
		return -1;
	}
	rc = interp_npy_parse(in.p, in.n, b, err, errlen);
	buf_free(&in);
	return rc;
}

int
interp_npy_format(Buf *out, const InterpBuf *b)
{
	Buf h = {0};
	const char *d = NULL;
	size_t i, total, len;
	int64_t bytes;

	for (i = 0; i < countof(descrs); i++)
		if (descrs[i].t == b->dtype)
			d = descrs[i].descr;
	if (!d || (bytes = data_bytes(&b->shape, b->dtype)) < 0)
		return -1;
	buf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (",
	    d);
	for (i = 0; i < (size_t)b->shape.rank; i++)
		buf_printf(&h, "%s%lld", i ? ", " : "",
		    (long long)b->shape.d[i]);
	buf_puts(&h, b->shape.rank == 1 ? ",), }" : "), }");
	total = 10 + h.n + 1;		/* magic, header, newline */
	while (total % 64)
		total++, buf_putc(&h, ' ');
	buf_putc(&h, '\n');
	len = h.n;
	if (len > 0xffff) {
		buf_free(&h);
		return -1;
	}
	buf_putn(out, "\x93NUMPY\x01\x00", 8);
	buf_putc(out, (char)(len & 0xff));
	buf_putc(out, (char)(len >> 8));
	buf_putn(out, h.p, len);
	if (bytes)
		buf_putn(out, b->data, (size_t)bytes);
	buf_free(&h);
	return 0;
}

int
interp_npy_write(const char *path, const InterpBuf *b, char *err,
    size_t errlen)
{
	Buf out = {0};
	FILE *f;
	int rc = 0;

	if (interp_npy_format(&out, b)) {
		snprintf(err, errlen, "cannot store %s data in a .npy file",
		    dtype_name(b->dtype));
		buf_free(&out);
		return -1;
	}
	if (!(f = fopen(path, "wb"))) {
		snprintf(err, errlen, "cannot write '%s': %s", path,
		    strerror(errno));
		buf_free(&out);
		return -1;
	}
	if (out.n && fwrite(out.p, 1, out.n, f) != out.n)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc)
		snprintf(err, errlen, "writing '%s' failed: %s", path,
		    strerror(errno));
	buf_free(&out);
	return rc;
}
