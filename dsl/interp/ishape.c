/*
 * ishape.c - structural operations on host values and memories:
 * broadcasts, transposes, rolls, iota, and boxes (the resolved slices
 * that loads, stores and DMAs read and write).
 */
#include <string.h>

#include "dsl/interp/iint.h"

/* Row-major strides of s into st. */
static void
strides(const Shape *s, int64_t *st)
{
	int64_t m = 1;
	int d;

	for (d = s->rank - 1; d >= 0; d--) {
		st[d] = m;
		m *= s->d[d];
	}
}

/* Advances multi-index i over sizes sz (rank n); 0 when it wrapped. */
static int
next_index(int64_t *i, const int64_t *sz, int n)
{
	int d;

	for (d = n - 1; d >= 0; d--) {
		if (++i[d] < sz[d])
			return 1;
		i[d] = 0;
	}
	return 0;
}

void
ishape_broadcast(const Val *a, Val *out)
{
	int64_t st[SEMA_MAXRANK], ist[SEMA_MAXRANK] = {0};
	int64_t idx[SEMA_MAXRANK] = {0}, k, src;
	int d, n = out->s.rank, lead = out->s.rank - a->s.rank;

	strides(&a->s, st);
	for (d = 0; d < a->s.rank; d++)
		ist[lead + d] = a->s.d[d] == 1 ? 0 : st[d];
	if (out->n == 0)
		return;
	for (k = 0; k < out->n; k++) {
		for (src = 0, d = 0; d < n; d++)
			src += idx[d] * ist[d];
		out->e[k] = a->e[src];
		next_index(idx, out->s.d, n);
	}
}

void
ishape_transpose(const Val *a, Val *out)
{
	int r = a->s.rank;
	int64_t R = a->s.d[r - 2], C = a->s.d[r - 1], b, i, j, nb;

	nb = a->n / (R * C);
	for (b = 0; b < nb; b++)
		for (i = 0; i < R; i++)
			for (j = 0; j < C; j++)
				out->e[b * R * C + j * R + i] =
				    a->e[b * R * C + i * C + j];
}

void
ishape_roll(const Val *a, int axis, int64_t shift, Val *out)
{
	int64_t st[SEMA_MAXRANK], len = a->s.d[axis], outer, inner, o, i, c;

	strides(&a->s, st);
	inner = st[axis];
	outer = a->n / (len * inner);
	shift %= len;
	if (shift < 0)
		shift += len;
	for (o = 0; o < outer; o++)
		for (c = 0; c < len; c++) {
			int64_t to = (c + shift) % len;
			for (i = 0; i < inner; i++)
				out->e[(o * len + to) * inner + i] =
				    a->e[(o * len + c) * inner + i];
		}
}

void
ishape_iota(Val *out, int axis)
{
	int64_t st[SEMA_MAXRANK], k;

	strides(&out->s, st);
	for (k = 0; k < out->n; k++) {
		int32_t v = (int32_t)(k / st[axis] % out->s.d[axis]);
		if (dtype_is_float(out->t))
			out->e[k].f = ival_round(out->t, (float)v);
		else
			out->e[k].i = v;
	}
}

int
ishape_resolve(Run *r, const CSlice *sl, const Shape *s, Loc loc,
    const char *what, int64_t *off, int64_t *sz)
{
	int d;

	if (sl->n != s->rank)
		bug("slice of rank %d on '%s' of rank %d", sl->n, what,
		    s->rank);
	for (d = 0; d < sl->n; d++) {
		const CIdx *x = &sl->dim[d];
		int64_t start = x->start;
		if (x->dyn) {
			Val v;
			if (ieval(r, x->dyn, &v))
				return -1;
			start = v.e[0].i;
		}
		if (start < 0 || x->size > s->d[d] ||
		    start > s->d[d] - x->size) {
			Loc at = x->dyn ? x->dyn->loc : loc;
			if (x->squeeze)
				diag_error(r->d, at, "index %lld is out of "
				    "bounds for dimension %d of '%s' (size "
				    "%lld)", (long long)start, d, what,
				    (long long)s->d[d]);
			else
				diag_error(r->d, at, "slice %lld:%lld is out "
				    "of bounds for dimension %d of '%s' (size "
				    "%lld)", (long long)start,
				    (long long)(start + x->size), d, what,
				    (long long)s->d[d]);
			interp_note_point(r);
			return -1;
		}
		if (x->promised && start % x->promised) {
			diag_error(r->d, x->dyn->loc, "start %lld of "
			    "dimension %d of '%s' is not a multiple of %lld, "
			    "as multiple_of promised", (long long)start, d,
			    what, (long long)x->promised);
			interp_note_point(r);
			return -1;
		}
		off[d] = start;
		sz[d] = x->size;
	}
	return 0;
}

/*
 * Calls f on each row (innermost run) of box off/sz in s: the row's
 * linear start in s, its length, and its position in the dense box.
 */
typedef void RowFn(void *ctx, int64_t at, int64_t len, int64_t pos);

static void
each_row(const Shape *s, const int64_t *off, const int64_t *sz, RowFn *f,
    void *ctx)
{
	int64_t st[SEMA_MAXRANK], idx[SEMA_MAXRANK] = {0}, pos = 0, at;
	int d, n = s->rank;

	if (n == 0) {
		f(ctx, 0, 1, 0);
		return;
	}
	for (d = 0; d < n; d++)
		if (sz[d] == 0)
			return;
	strides(s, st);
	do {
		for (at = 0, d = 0; d < n - 1; d++)
			at += (off[d] + idx[d]) * st[d];
		at += off[n - 1];
		f(ctx, at, sz[n - 1], pos);
		pos += sz[n - 1];
	} while (next_index(idx, sz, n - 1));
}

typedef struct Copy { Elt *mem; Elt *dense; int to_mem; } Copy;

static void
copy_row(void *ctx, int64_t at, int64_t len, int64_t pos)
{
	Copy *c = ctx;

	if (c->to_mem)
		memcpy(c->mem + at, c->dense + pos, (size_t)len * sizeof(Elt));
	else
		memcpy(c->dense + pos, c->mem + at, (size_t)len * sizeof(Elt));
}

void
ishape_gather(const Elt *src, const Shape *s, const int64_t *off,
    const int64_t *sz, Elt *dst)
{
	Copy c = { (Elt *)src, dst, 0 };

	each_row(s, off, sz, copy_row, &c);
}

void
ishape_scatter(Elt *dst, const Shape *s, const int64_t *off,
    const int64_t *sz, const Elt *src)
{
	Copy c = { dst, (Elt *)src, 1 };

	each_row(s, off, sz, copy_row, &c);
}

typedef struct Init { uint8_t *init; int64_t first; int mark; } Init;

static void
init_row(void *ctx, int64_t at, int64_t len, int64_t pos)
{
	Init *c = ctx;
	int64_t i;

	(void)pos;
	if (c->mark) {
		memset(c->init + at, 1, (size_t)len);
		return;
	}
	for (i = 0; i < len && c->first < 0; i++)
		if (!c->init[at + i])
			c->first = at + i;
}

int64_t
ishape_uninit(const uint8_t *init, const Shape *s, const int64_t *off,
    const int64_t *sz)
{
	Init c = { (uint8_t *)init, -1, 0 };

	each_row(s, off, sz, init_row, &c);
	return c.first;
}

void
ishape_mark(uint8_t *init, const Shape *s, const int64_t *off,
    const int64_t *sz)
{
	Init c = { init, -1, 1 };

	each_row(s, off, sz, init_row, &c);
}
