/*
 * mask_text.c - the text form of Splash masks: splash_mask_describe()
 * writes it, splash_mask_parse() reads it back, with the column of the
 * first character it cannot take.  See include/pallas/splash_mask.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/splash/mask_int.h"

/* snprintf into the rest of buf, counting what a full write would. */
typedef struct Out {
	char *p;
	size_t n;
	long len;
} Out;

static void
put(Out *o, const char *s)
{
	size_t k = strlen(s);

	if ((size_t)o->len + 1 < o->n)
		snprintf(o->p + o->len, o->n - (size_t)o->len, "%s", s);
	o->len += (long)k;
}

static void
put_long(Out *o, long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld", v);
	put(o, b);
}

static void
put_side(Out *o, long s)
{
	if (s == SPLASH_UNBOUNDED)
		put(o, "inf");
	else
		put_long(o, s);
}

static void describe(Out *o, const SplashMask *m);

/* name(sub;sub;...) */
static void
describe_list(Out *o, const char *name, const SplashMask *m)
{
	int i;

	put(o, name);
	put(o, "(");
	for (i = 0; i < m->n; i++) {
		if (i)
			put(o, ";");
		describe(o, m->sub[i]);
	}
	put(o, ")");
}

static void
describe(Out *o, const SplashMask *m)
{
	char b[80];

	switch (m->kind) {
	case SPLASH_MASK_FULL:
		put(o, "full");
		break;
	case SPLASH_MASK_CAUSAL:
		put(o, "causal");
		if (m->offset) {
			put(o, ":");
			put_long(o, m->offset);
		}
		break;
	case SPLASH_MASK_LOCAL:
		put(o, "local:");
		put_side(o, m->left);
		put(o, ",");
		put_side(o, m->right);
		if (m->offset) {
			put(o, ",");
			put_long(o, m->offset);
		}
		break;
	case SPLASH_MASK_CHUNKED:
		put(o, "chunked:");
		put_long(o, m->chunk);
		break;
	case SPLASH_MASK_SEGMENTS:
		snprintf(b, sizeof(b), "segments:<%ld,%ld ids>", m->Sq, m->Skv);
		put(o, b);
		break;
	case SPLASH_MASK_DENSE:
		snprintf(b, sizeof(b), "dense:<%ldx%ld>", m->Sq, m->Skv);
		put(o, b);
		break;
	case SPLASH_MASK_HEADS:
		describe_list(o, "heads", m);
		break;
	case SPLASH_MASK_AND:
		describe_list(o, "and", m);
		break;
	case SPLASH_MASK_OR:
		describe_list(o, "or", m);
		break;
	}
}

int
splash_mask_describe(const SplashMask *m, char *buf, size_t n)
{
	Out o = { buf, n, 0 };

	if (buf && n)
		buf[0] = 0;
	if (!m)
		return -1;
	if (!buf)
		o.n = 0;
	describe(&o, m);
	return o.len > INT32_MAX ? -1 : (int)o.len;
}

/* ------------------------------------------------------------ parse */

typedef struct Parser {
	const char *s, *p;
	SplashMaskLoad *load;
	void *ctx;
	char *err;
	size_t nerr;
	int failed;
} Parser;

static void
fail(Parser *ps, const char *at, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	splash_mask_err(ps->err, ps->nerr, "column %ld: %s",
	    (long)(at - ps->s) + 1, what);
}

static int
eat(Parser *ps, const char *word)
{
	size_t k = strlen(word);

	if (strncmp(ps->p, word, k) != 0)
		return 0;
	ps->p += k;
	return 1;
}

static int
expect(Parser *ps, char c)
{
	char what[24];

	if (*ps->p == c) {
		ps->p++;
		return 0;
	}
	snprintf(what, sizeof(what), "expected '%c'", c);
	fail(ps, ps->p, what);
	return -1;
}

/* A decimal integer, signed if 'sign', within the parameter limit. */
static int
number(Parser *ps, int sign, long *v)
{
	const char *at = ps->p;
	int neg = 0;
	long x = 0;

	if (sign && (*ps->p == '-' || *ps->p == '+'))
		neg = *ps->p++ == '-';
	if (*ps->p < '0' || *ps->p > '9') {
		fail(ps, ps->p, "expected a number");
		return -1;
	}
	while (*ps->p >= '0' && *ps->p <= '9') {
		if (x > (SPLASH_MASK_MAX - (*ps->p - '0')) / 10) {
			fail(ps, at, "number out of range");
			return -1;
		}
		x = x * 10 + (*ps->p++ - '0');
	}
	*v = neg ? -x : x;
	return 0;
}

/* A window side: a number or inf. */
static int
side(Parser *ps, long *v)
{
	if (eat(ps, "inf")) {
		*v = SPLASH_UNBOUNDED;
		return 0;
	}
	return number(ps, 0, v);
}

static SplashMask *parse_mask(Parser *ps);

static SplashMask *
made(Parser *ps, const char *at, SplashMask *m, const char *why)
{
	if (!m)
		fail(ps, at, why);
	return m;
}

static SplashMask *
parse_causal(Parser *ps, const char *at)
{
	long off = 0;

	if (*ps->p == ':' && (ps->p++, number(ps, 1, &off) < 0))
		return NULL;
	return made(ps, at, splash_mask_causal(off), "bad causal mask");
}

static SplashMask *
parse_local(Parser *ps, const char *at)
{
	long l, r, off = 0;

	if (expect(ps, ':') < 0 || side(ps, &l) < 0 || expect(ps, ',') < 0 ||
	    side(ps, &r) < 0)
		return NULL;
	if (*ps->p == ',' && (ps->p++, number(ps, 1, &off) < 0))
		return NULL;
	return made(ps, at, splash_mask_local(l, r, off), "bad local mask");
}

static SplashMask *
parse_chunked(Parser *ps, const char *at)
{
	long c;

	if (expect(ps, ':') < 0 || number(ps, 0, &c) < 0)
		return NULL;
	if (c < 1) {
		fail(ps, at + 8, "chunk must be at least 1");
		return NULL;
	}
	return made(ps, at, splash_mask_chunked(c), "bad chunked mask");
}

/* segments:ARGS / dense:ARGS: ARGS runs to the next ';', ')' or end. */
static SplashMask *
parse_loaded(Parser *ps, const char *kind)
{
	const char *a;
	char *args, msg[200] = "";
	size_t k;
	SplashMask *m;

	if (expect(ps, ':') < 0)
		return NULL;
	a = ps->p;
	k = strcspn(a, ";)");
	if (k == 0) {
		fail(ps, a, "expected the data's arguments");
		return NULL;
	}
	if (!ps->load) {
		fail(ps, a, "no loader for this form");
		return NULL;
	}
	if (!(args = malloc(k + 1))) {
		fail(ps, a, "out of memory");
		return NULL;
	}
	memcpy(args, a, k);
	args[k] = 0;
	m = ps->load(ps->ctx, kind, args, msg, sizeof(msg));
	free(args);
	ps->p = a + k;
	if (!m)
		fail(ps, a, msg[0] ? msg : "cannot load");
	return m;
}

/* ( M ; M ... ) into a new array of *n masks, at most max (0: any). */
static SplashMask **
parse_list(Parser *ps, int max, int *n)
{
	SplashMask **v = NULL, **nv, *m;
	int cap = 0;

	*n = 0;
	if (expect(ps, '(') < 0)
		return NULL;
	do {
		if (max && *n == max) {
			fail(ps, ps->p - 1, "too many masks");
			break;
		}
		if (!(m = parse_mask(ps)))
			break;
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			if (cap > INT32_MAX / 2 || !(nv = realloc(v,
			    (size_t)cap * sizeof(*v)))) {
				splash_mask_free(m);
				fail(ps, ps->p, "out of memory");
				break;
			}
			v = nv;
		}
		v[(*n)++] = m;
	} while (*ps->p == ';' && ps->p++);
	if (!ps->failed)
		expect(ps, ')');
	return v;
}

static void
free_list(SplashMask **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		splash_mask_free(v[i]);
	free(v);
}

static SplashMask *
parse_heads(Parser *ps, const char *at)
{
	SplashMask *m = NULL, **v;
	int n, i;

	v = parse_list(ps, 0, &n);
	if (!ps->failed) {
		for (i = 0; i < n; i++)
			if (v[i]->heads)
				fail(ps, at, "heads nested in heads");
		if (!ps->failed)
			m = made(ps, at, splash_mask_heads(n, v), "bad heads");
	}
	free_list(v, n);
	return m;
}

static SplashMask *
parse_binary(Parser *ps, const char *at, int is_and)
{
	SplashMask *m = NULL, **v;
	int n;

	v = parse_list(ps, 2, &n);
	if (!ps->failed && n != 2)
		fail(ps, ps->p - 1, "expected two masks");
	if (!ps->failed)
		m = made(ps, at, is_and ? splash_mask_and(v[0], v[1]) :
		    splash_mask_or(v[0], v[1]), "head counts differ");
	free_list(v, n);
	return m;
}

static SplashMask *
parse_mask(Parser *ps)
{
	const char *at = ps->p;

	/* longer names first where one is a prefix of another */
	if (eat(ps, "full"))
		return made(ps, at, splash_mask_full(), "out of memory");
	if (eat(ps, "causal"))
		return parse_causal(ps, at);
	if (eat(ps, "local"))
		return parse_local(ps, at);
	if (eat(ps, "chunked"))
		return parse_chunked(ps, at);
	if (eat(ps, "segments"))
		return parse_loaded(ps, "segments");
	if (eat(ps, "dense"))
		return parse_loaded(ps, "dense");
	if (eat(ps, "heads"))
		return parse_heads(ps, at);
	if (eat(ps, "and"))
		return parse_binary(ps, at, 1);
	if (eat(ps, "or"))
		return parse_binary(ps, at, 0);
	fail(ps, at, "expected a mask (full, causal, local, chunked, "
	    "segments, dense, heads, and, or)");
	return NULL;
}

SplashMask *
splash_mask_parse(const char *text, SplashMaskLoad *load, void *ctx,
    char *err, size_t nerr)
{
	Parser ps = { text, text, load, ctx, err, nerr, 0 };
	SplashMask *m;

	if (!text) {
		splash_mask_err(err, nerr, "no text");
		return NULL;
	}
	m = parse_mask(&ps);
	if (m && *ps.p) {
		fail(&ps, ps.p, "unexpected text after the mask");
		splash_mask_free(m);
		return NULL;
	}
	return ps.failed ? (splash_mask_free(m), NULL) : m;
}
