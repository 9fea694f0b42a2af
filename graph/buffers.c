/*
 * buffers.c - buffer liveness and assignment over a schedule, for the
 * scheduler, memory-space assignment and --emit=hlo-stats: which array
 * leaves are buffers of their own and which alias an earlier one, their
 * sizes padded to the layout's tiles, live ranges over the positions of
 * a schedule, the peak of live bytes, and a first-fit offset assignment.
 * See pass.h.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/pass.h"

/* Array leaves of a shape (tuples flattened, tokens count as leaves). */
static int
nleaves(const HloShape *s)
{
	int i, n = 0;

	if (s->type != HT_TUPLE)
		return 1;
	for (i = 0; i < s->ntuple; i++)
		n += nleaves(&s->elem[i]);
	return n;
}

static int
put_leaves(const HloShape *s, const HloShape **out, int k)
{
	int i;

	if (s->type != HT_TUPLE) {
		out[k] = s;
		return k + 1;
	}
	for (i = 0; i < s->ntuple; i++)
		k = put_leaves(&s->elem[i], out, k);
	return k;
}

static int64_t
roundup(int64_t x, int64_t m)
{
	return m > 1 ? (x + m - 1) / m * m : x;
}

/*
 * One array: its dims in physical order (major to minor by the layout),
 * the minor ones rounded up to the first tile, and that tile rounded up
 * to the tiles within it (the (2,1) of bf16's T(8,128)(2,1)).  A tile
 * longer than the rank pads with leading 1s, so f32[] under T(128)
 * takes 128 elements, as XLA's TPU layouts do.
 */
static int64_t
array_bytes(const HloShape *s)
{
	const HloLayout *l = &s->layout;
	int64_t phys[HLO_MAXRANK + HLO_MAXRANK], tile[HLO_MAXRANK];
	int64_t n = 1, es = (int64_t)hlo_type_size(s->type);
	int i, r = s->rank, t, k, nt;

	for (i = 0; i < r; i++)
		phys[i] = l->nm2m == r ? s->dim[l->m2m[r - 1 - i]] : s->dim[i];
	if (!l->ntile) {
		for (i = 0; i < r; i++)
			n *= phys[i];
		return n * es;
	}
	nt = l->tile[0].n;
	/* leading 1s where the tile has more dims than the array */
	for (; r < nt; r++) {
		memmove(phys + 1, phys, sizeof *phys * (size_t)r);
		phys[0] = 1;
	}
	for (k = 0; k < nt; k++)
		tile[k] = l->tile[0].d[k] > 0 ? l->tile[0].d[k] : 1;
	for (t = 1; t < l->ntile; t++)
		for (k = 0; k < l->tile[t].n && k < nt; k++) {
			int dk = nt - l->tile[t].n + k;
			if (dk >= 0 && l->tile[t].d[k] > 0)
				tile[dk] = roundup(tile[dk], l->tile[t].d[k]);
		}
	for (i = 0; i < r; i++) {
		k = i - (r - nt);
		n *= k >= 0 ? roundup(phys[i], tile[k]) : phys[i];
	}
	return n * es;
}

int64_t
hlo_shape_bytes(const HloShape *s)
{
	int64_t n = 0;
	int i;

	if (s->type != HT_TUPLE)
		return s->type == HT_TOKEN ? 0 : array_bytes(s);
	/* the tuple's index table is not counted: pointers, not data */
	for (i = 0; i < s->ntuple; i++)
		n += hlo_shape_bytes(&s->elem[i]);
	return n;
}

/* The leaves of instruction i: of its own, or of the value it aliases. */
static void
leaves(HloBuffers *b, int i, int *nb)
{
	const HloInstr *in = b->c->instr.v[i];
	int *lb = b->leafbuf + b->first[i], k, o, j, n = b->nleaf[i];

	switch (in->op) {
	case HLO_GTE:
		o = in->operand[0];
		/* the leaves of the elements before 'index' come first */
		for (k = 0, j = 0; j < in->num; j++)
			k += nleaves(&b->c->instr.v[o]->shape.elem[j]);
		memcpy(lb, b->leafbuf + b->first[o] + k,
		    sizeof *lb * (size_t)n);
		return;
	case HLO_TUPLE:
		for (k = 0, j = 0; j < in->noperand; j++) {
			o = in->operand[j];
			memcpy(lb + k, b->leafbuf + b->first[o],
			    sizeof *lb * (size_t)b->nleaf[o]);
			k += b->nleaf[o];
		}
		return;
	case HLO_BITCAST:
	case HLO_COPY_DONE:
		lb[0] = b->leafbuf[b->first[in->operand[0]]];
		return;
	default:
		break;
	}
	for (k = 0; k < n; k++) {
		/* copy-start's source (element 1) is its operand's buffer */
		if (in->op == HLO_COPY_START && k == 1 &&
		    b->nleaf[in->operand[0]] == 1) {
			lb[k] = b->leafbuf[b->first[in->operand[0]]];
			continue;
		}
		lb[k] = (*nb)++;
	}
}

/* Appends the leaves [l, l + n) of the leaf table to the reads of the
   instruction being filled, each buffer once (seen marks them). */
static int
add_reads(HloBuffers *b, char *seen, int nr, int l, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		int u = b->leafbuf[l + k];
		if (!seen[u]) {
			seen[u] = 1;
			b->reads[nr++] = u;
		}
	}
	return nr;
}

/* What each instruction reads: reads[rfirst[i]..rfirst[i + 1]). */
static void
find_reads(HloBuffers *b, Arena *a)
{
	const HloComp *c = b->c;
	char *seen = arena_alloc(a, (size_t)b->nbuf + 1);
	int i, j, nr = 0;

	b->rfirst = arena_alloc(a, sizeof(int) * ((size_t)b->n + 2));
	for (i = 0; i < b->n; i++)
		for (j = 0; j < c->instr.v[i]->noperand; j++)
			nr += b->nleaf[c->instr.v[i]->operand[j]];
	b->reads = arena_alloc(a, sizeof(int) * ((size_t)nr + 1));
	for (nr = 0, i = 0; i < b->n; i++) {
		const HloInstr *in = c->instr.v[i];
		b->rfirst[i] = nr;
		/* a get-tuple-element reads only the element it names */
		if (in->op == HLO_GTE)
			nr = add_reads(b, seen, nr, b->first[i], b->nleaf[i]);
		else
			for (j = 0; j < in->noperand; j++)
				nr = add_reads(b, seen, nr,
				    b->first[in->operand[j]],
				    b->nleaf[in->operand[j]]);
		for (j = b->rfirst[i]; j < nr; j++)
			seen[b->reads[j]] = 0;
	}
	b->rfirst[b->n] = nr;
}

void
hlo_buffers_build(HloBuffers *b, Arena *a, const HloComp *c)
{
	int i, k, n = c->instr.n, nl = 0, nb = 0;

	memset(b, 0, sizeof *b);
	b->c = c;
	b->n = n;
	b->first = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	b->nleaf = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	for (i = 0; i < n; i++) {
		b->first[i] = nl;
		nl += b->nleaf[i] = nleaves(&c->instr.v[i]->shape);
	}
	b->leafbuf = arena_alloc(a, sizeof(int) * ((size_t)nl + 1));
	b->leafshape = arena_alloc(a, sizeof *b->leafshape * ((size_t)nl + 1));
	for (i = 0; i < n; i++) {
		put_leaves(&c->instr.v[i]->shape, b->leafshape + b->first[i],
		    0);
		leaves(b, i, &nb);
	}
	b->nbuf = nb;
	b->buf = arena_alloc(a, sizeof *b->buf * ((size_t)nb + 1));
	for (i = 0; i < n; i++)
		for (k = 0; k < b->nleaf[i]; k++) {
			HloBuffer *f = &b->buf[b->leafbuf[b->first[i] + k]];
			const HloShape *s = b->leafshape[b->first[i] + k];
			if (f->offset)
				continue;	/* defined earlier: an alias */
			f->def = i;
			f->leaf = k;
			f->bytes = hlo_shape_bytes(s);
			f->memspace = s->layout.memspace;
			f->param = c->instr.v[i]->op == HLO_PARAMETER;
			f->offset = -1;
		}
	if (c->root >= 0)
		for (k = 0; k < b->nleaf[c->root]; k++)
			b->buf[b->leafbuf[b->first[c->root] + k]].out = 1;
	find_reads(b, a);
	hlo_buffers_live(b, NULL);
}

void
hlo_buffers_live(HloBuffers *b, const int *pos)
{
	int i, j;

	for (i = 0; i < b->nbuf; i++) {
		HloBuffer *f = &b->buf[i];
		f->start = f->param ? 0 : pos ? pos[f->def] : f->def;
		f->end = f->out ? b->n - 1 : f->start;
	}
	for (i = 0; i < b->n; i++)
		for (j = b->rfirst[i]; j < b->rfirst[i + 1]; j++) {
			HloBuffer *f = &b->buf[b->reads[j]];
			int t = pos ? pos[i] : i;
			if (t > f->end)
				f->end = t;
		}
	for (i = 0; i < b->nbuf; i++)
		if (b->buf[i].param)
			b->buf[i].end = b->n - 1;
}

int64_t
hlo_buffers_peak(const HloBuffers *b)
{
	int64_t *d = calloc((size_t)b->n + 2, sizeof *d), live = 0, peak = 0;
	int i;

	for (i = 0; i < b->nbuf; i++) {
		d[b->buf[i].start] += b->buf[i].bytes;
		d[b->buf[i].end + 1] -= b->buf[i].bytes;
	}
	for (i = 0; i < b->n; i++) {
		live += d[i];
		if (live > peak)
			peak = live;
	}
	free(d);
	return peak;
}

typedef struct Chunk {
	int64_t lo, hi;
} Chunk;

static const HloBuffers *sort_b;

/* Largest first; then earliest start, then definition order. */
static int
by_size(const void *x, const void *y)
{
	const HloBuffer *a = &sort_b->buf[*(const int *)x];
	const HloBuffer *c = &sort_b->buf[*(const int *)y];

	if (a->bytes != c->bytes)
		return a->bytes > c->bytes ? -1 : 1;
	if (a->start != c->start)
		return a->start - c->start;
	return *(const int *)x - *(const int *)y;
}

static int
by_lo(const void *x, const void *y)
{
	const Chunk *a = x, *c = y;

	return a->lo < c->lo ? -1 : a->lo > c->lo;
}

int64_t
hlo_buffers_assign(HloBuffers *b, int64_t align,
    int (*keep)(const HloBuffers *b, int i, void *arg), void *arg)
{
	int *ord = malloc(sizeof(int) * ((size_t)b->nbuf + 1));
	Chunk *ch = malloc(sizeof *ch * ((size_t)b->nbuf + 1));
	int n = 0, i, j, nc;
	int64_t size = 0;

	for (i = 0; i < b->nbuf; i++) {
		b->buf[i].offset = -1;
		if (!keep || keep(b, i, arg))
			ord[n++] = i;
	}
	sort_b = b;
	qsort(ord, (size_t)n, sizeof *ord, by_size);
	for (i = 0; i < n; i++) {
		HloBuffer *f = &b->buf[ord[i]];
		int64_t at = 0;
		/* the placed buffers whose live ranges meet this one's */
		for (nc = 0, j = 0; j < i; j++) {
			const HloBuffer *g = &b->buf[ord[j]];
			if (g->start <= f->end && f->start <= g->end &&
			    g->bytes > 0) {
				ch[nc].lo = g->offset;
				ch[nc++].hi = g->offset + g->bytes;
			}
		}
		qsort(ch, (size_t)nc, sizeof *ch, by_lo);
		for (j = 0; j < nc; j++) {
			if (ch[j].lo >= at + f->bytes)
				break;
			if (ch[j].hi > at)
				at = roundup(ch[j].hi, align);
		}
		f->offset = at;
		if (at + f->bytes > size)
			size = at + f->bytes;
	}
	free(ord);
	free(ch);
	return size;
}
