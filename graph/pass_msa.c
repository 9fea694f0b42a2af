/*
 * pass_msa.c - memory-space assignment of the entry computation, and of
 * the computations it runs (while, conditional, call: each above the
 * VMEM its callers hold meanwhile, its parameters and results in HBM),
 * onto the target's VMEM (S(1)), after scheduling, as hlo.md 3.5
 * describes XLA's:
 *
 *   - a cost model: each instruction takes max(compute, memory) cycles,
 *     compute from the preset's MXU, VPU and EUP rates, memory from the
 *     bytes it reads and writes at the HBM bandwidth (plus one DMA
 *     latency) or the VMEM load/store bandwidth;
 *   - buffers (buffers.c) sorted by memory-boundedness (the cycles VMEM
 *     saves, scaled down by the square root of the size, as XLA does);
 *   - intermediates are pinned in VMEM for their whole live range if a
 *     chunk of the heap is free for it (first fit), before the
 *     prefetches: keeping a value in VMEM saves its write and its reads,
 *     a prefetch only the reads;
 *   - entry parameters stay in HBM; a prefetch copies one into VMEM with
 *     a copy-start/copy-done pair whose interval the picker chooses: the
 *     copy-done right before the first use, the copy-start late enough
 *     not to hold VMEM early, early enough that the work in between
 *     hides the copy, with at least one instruction in between; the
 *     largest parameter read by a dot is a cross-program prefetch
 *     (cross_program_prefetch_index=0) that needs no such work;
 *   - copies complete in FIFO order: a copy that finishes later never
 *     starts earlier (its start is delayed);
 *   - the result, constants and the operands and results of custom-calls,
 *     calls and control flow stay in HBM; every value that stays out gets
 *     its reason in cx->stats;
 *   - an intermediate that does not fit over its whole live range is
 *     evicted if its first uses fit: in VMEM from its definition, a
 *     copy-start to HBM right after it, the copy-done before the first
 *     use that reads the copy (as early as the work in between hides
 *     the copy), so its chunk is free again for what follows;
 *   - per-use segments: the later uses of an evicted value, and the uses
 *     of a parameter that does not fit over all of them, get copies into
 *     VMEM (prefetched back from the HBM copy) for the runs of uses that
 *     fit, each with its own interval; the uses between runs read HBM.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

/*
 * Not all of VMEM is MSA's: each kernel (fusion) stages its operand
 * windows, double buffers and accumulators in scoped VMEM allocated
 * while it runs, outside the arena MSA manages (XLA reserves a scoped
 * limit of 16 to 32 MiB; the seed's attention kernels take ~21 MiB of
 * 128).  A quarter of VMEM is kept back for that.
 */
enum { RESERVE_DIV = 4 };
#define PREFERRED_OVERLAP 1.5	/* work to hide a copy, x its time */

typedef struct Chunk {
	int64_t lo, hi;
	int t0, t1;
} Chunk;

typedef struct Cand {
	int buf;
	double prio;
	int prefetch;		/* an entry parameter */
} Cand;

/* A copy: a prefetch of a parameter into VMEM, an eviction of a value
   from VMEM to HBM, or a prefetch back of an evicted value from its HBM
   copy; the uses in positions done..last read the copy. */
typedef struct Pf {
	int param;		/* the instruction copied */
	int start;		/* copy-start after this position */
	int done;		/* copy-done before this position */
	int last;
	int cross;
	int evict;
	int back;		/* reads the eviction of 'param' */
	int64_t offset;
} Pf;

typedef struct Msa {
	HloModule *m;
	HloComp *c;
	HloPassCtx *cx;
	const MachPreset *mp;
	Arena a;
	HloBuffers b;
	double *compute;	/* cycles of each instruction's work */
	double *hbm, *vmem;	/* bytes it moves from/to each memory */
	double *elapsed;
	double hbm_bw, vmem_bw;
	int64_t budget, align;
	int64_t base;		/* VMEM below is the callers' (aligned) */
	char *vmem_buf;		/* placed in VMEM */
	char *cc;		/* touched by a custom-call */
	Chunk *heap;
	int nheap;
	Pf *pf;
	int npf;
} Msa;

/* ------------------------------------------------------- cost model */

static int
is_alias(HloOp op)
{
	return op == HLO_PARAMETER || op == HLO_GTE || op == HLO_TUPLE ||
	    op == HLO_BITCAST || op == HLO_COPY_DONE || op == HLO_CONSTANT;
}

static int
is_transcendental(HloOp op)
{
	switch (op) {
	case HLO_EXP: case HLO_EXPM1: case HLO_LOG: case HLO_LOG1P:
	case HLO_SQRT: case HLO_RSQRT: case HLO_TANH: case HLO_LOGISTIC:
	case HLO_ERF: case HLO_SINE: case HLO_COSINE: case HLO_DIVIDE:
	case HLO_POWER: case HLO_ATAN2:
		return 1;
	default:
		return 0;
	}
}

/* Cycles of the work of 'in' (of computation c) on the units. */
static double
work(const Msa *s, const HloComp *c, const HloInstr *in, int depth)
{
	const MachPreset *mp = s->mp;
	double vpu = (double)mp->slots[U_VALU] * mp->sublanes * mp->lanes;
	double eup = (double)mp->slots[U_EUP] * mp->sublanes * mp->lanes;
	double mxu = (double)mp->nmxu * mp->mxu_rows_per_cycle *
	    mp->mxu_dim * mp->mxu_dim;
	double e = in->shape.type == HT_TUPLE ? 0 :
	    (double)hlo_shape_elems(&in->shape), w = 0;
	int k;

	if (is_alias(in->op) || in->op == HLO_COPY_START ||
	    in->op == HLO_CUSTOM_CALL)
		return 0;
	switch (in->op) {
	case HLO_DOT: {
		const HloShape *l = &c->instr.v[in->operand[0]]->shape;
		double macs = e;
		for (k = 0; k < in->dot[DOT_LHS_CONTRACT].n; k++)
			macs *= (double)l->dim[in->dot[DOT_LHS_CONTRACT].v[k]];
		return macs / mxu;
	}
	case HLO_REDUCE:
		return (double)hlo_shape_elems(
		    &c->instr.v[in->operand[0]]->shape) / vpu;
	case HLO_FUSION:
	case HLO_CALL:
		if (in->callee < 0 || in->callee >= s->m->comp.n ||
		    depth > HLO_MAXDEPTH)
			return 0;
		for (k = 0; k < s->m->comp.v[in->callee]->instr.n; k++)
			w += work(s, s->m->comp.v[in->callee],
			    s->m->comp.v[in->callee]->instr.v[k], depth + 1);
		return w;
	default:
		return e / vpu + (is_transcendental(in->op) ? e / eup : 0);
	}
}

/* Cycles of instruction i with the bytes it moves as they are now. */
static double
elapsed(const Msa *s, int i, double hbm, double vmem)
{
	double mem = hbm / s->hbm_bw + vmem / s->vmem_bw;

	if (hbm > 0)
		mem += s->mp->dma_latency;
	return s->compute[i] > mem ? s->compute[i] : mem;
}

static int
in_vmem(const Msa *s, int f)
{
	return s->b.buf[f].memspace == 1 || s->vmem_buf[f];
}

/* Bytes each instruction reads and writes, by memory. */
static void
traffic(Msa *s)
{
	int i, j;

	for (i = 0; i < s->b.n; i++) {
		const HloInstr *in = s->c->instr.v[i];
		s->hbm[i] = s->vmem[i] = 0;
		if (is_alias(in->op) || in->op == HLO_COPY_START)
			continue;
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++) {
			int f = s->b.reads[j];
			/* scalar constants are immediates of the kernel */
			if (s->c->instr.v[s->b.buf[f].def]->op ==
			    HLO_CONSTANT && s->c->instr.v[s->b.buf[f].def]->
			    shape.rank == 0)
				continue;
			*(in_vmem(s, f) ? &s->vmem[i] : &s->hbm[i]) +=
			    (double)s->b.buf[f].bytes;
		}
		for (j = 0; j < s->b.nbuf; j++)
			if (s->b.buf[j].def == i)
				*(in_vmem(s, j) ? &s->vmem[i] : &s->hbm[i]) +=
				    (double)s->b.buf[j].bytes;
		s->elapsed[i] = elapsed(s, i, s->hbm[i], s->vmem[i]);
	}
}

/* Cycles saved if buffer f moved from HBM to VMEM. */
static double
benefit(const Msa *s, int f)
{
	double bytes = (double)s->b.buf[f].bytes, g = 0;
	int i, j, touch;

	for (i = 0; i < s->b.n; i++) {
		if (is_alias(s->c->instr.v[i]->op))
			continue;
		touch = s->b.buf[f].def == i;
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			touch |= s->b.reads[j] == f;
		if (touch && s->hbm[i] >= bytes)
			g += s->elapsed[i] - elapsed(s, i, s->hbm[i] - bytes,
			    s->vmem[i] + bytes);
	}
	return g;
}

/* --------------------------------------------------------- the heap */

static int
by_lo(const void *x, const void *y)
{
	const Chunk *a = x, *b = y;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The lowest aligned offset free over [t0, t1], or -1 past the budget. */
static int64_t
fit(Msa *s, int64_t bytes, int t0, int t1)
{
	Chunk *ch = malloc(sizeof *ch * ((size_t)s->nheap + 1));
	int64_t at = s->base;
	int n = 0, i;

	for (i = 0; i < s->nheap; i++)
		if (s->heap[i].t0 <= t1 && t0 <= s->heap[i].t1)
			ch[n++] = s->heap[i];
	qsort(ch, (size_t)n, sizeof *ch, by_lo);
	for (i = 0; i < n; i++) {
		if (ch[i].lo >= at + bytes)
			break;
		if (ch[i].hi > at)
			at = (ch[i].hi + s->align - 1) / s->align * s->align;
	}
	free(ch);
	return at + bytes <= s->budget ? at : -1;
}

static void
take(Msa *s, int64_t at, int64_t bytes, int t0, int t1)
{
	Chunk c = { at, at + bytes, t0, t1 };

	s->heap[s->nheap++] = c;
}

/* As XLA's heap-trace check: no two chunks meet in time and space. */
static void
check_heap(const Msa *s)
{
	int i, j;

	for (i = 0; i < s->nheap; i++) {
		const Chunk *a = &s->heap[i];
		if (a->hi > s->budget)
			bug("a VMEM chunk ends past the budget");
		for (j = 0; j < i; j++) {
			const Chunk *b = &s->heap[j];
			if (a->t0 <= b->t1 && b->t0 <= a->t1 && a->lo < b->hi &&
			    b->lo < a->hi)
				bug("VMEM chunks [%lld,%lld) and [%lld,%lld) "
				    "overlap", (long long)a->lo,
				    (long long)a->hi, (long long)b->lo,
				    (long long)b->hi);
		}
	}
}

/* ------------------------------------------------------- placements */

/* "NAME SHAPE" of buffer f, into a fresh Buf the caller frees. */
static void
describe(const Msa *s, int f, Buf *b)
{
	const HloBuffer *x = &s->b.buf[f];

	buf_printf(b, "%s", s->c->instr.v[x->def]->name);
	if (s->b.nleaf[x->def] > 1)
		buf_printf(b, "{%d}", x->leaf);
	buf_putc(b, ' ');
	hlo_shape_print(b, s->b.leafshape[s->b.first[x->def] + x->leaf]);
}

static void
stays(Msa *s, int f, const char *why, ...)
{
	Buf d = {0}, w = {0};
	va_list ap;

	if (!s->cx->stats)
		return;
	describe(s, f, &d);
	va_start(ap, why);
	buf_vprintf(&w, why, ap);
	va_end(ap);
	buf_printf(s->cx->stats, "msa: %s stays in HBM: %s\n", d.p, w.p);
	buf_free(&d);
	buf_free(&w);
}

/*
 * Array leaf 'leaf' of *sh gets memory space 'space', at offset 'at'
 * there if at >= 0; the tuples on the way are copied, as their element
 * arrays may be shared.  Returns the number of leaves of *sh.
 */
static int
set_space(Arena *a, HloShape *sh, int leaf, int64_t space, int64_t at)
{
	int i, k = 0;
	HloShape *el;

	if (sh->type != HT_TUPLE) {
		HloLayout *l = &sh->layout;
		if (leaf != 0)
			return 1;
		if (!l->has || l->nm2m != sh->rank) {
			l->has = 1;
			l->nm2m = sh->rank;
			for (i = 0; i < sh->rank; i++)
				l->m2m[i] = sh->rank - 1 - i;
		}
		l->memspace = space;
		l->placed = at >= 0;
		l->offset = at >= 0 ? at : 0;
		return 1;
	}
	el = arena_alloc(a, sizeof *el * ((size_t)sh->ntuple + 1));
	memcpy(el, sh->elem, sizeof *el * (size_t)sh->ntuple);
	sh->elem = el;
	for (i = 0; i < sh->ntuple; i++)
		k += set_space(a, &el[i], leaf - k, space, at);
	return k;
}

/* Every leaf that lives in buffer f gets S(1), at offset 'at'. */
static void
mark(Msa *s, int f, int64_t at)
{
	int i, k;

	for (i = 0; i < s->b.n; i++)
		for (k = 0; k < s->b.nleaf[i]; k++)
			if (s->b.leafbuf[s->b.first[i] + k] == f)
				set_space(s->m->arena, &s->c->instr.v[i]->shape,
				    k, 1, at);
}

static void
placed(Msa *s, int f, int64_t at, int t0, int t1, const char *how)
{
	Buf d = {0};

	if (!s->cx->stats)
		return;
	describe(s, f, &d);
	buf_printf(s->cx->stats, "msa: %s -> S(1) @%lld, %lld B, positions "
	    "%d..%d, %s\n", d.p, (long long)at, (long long)s->b.buf[f].bytes,
	    t0, t1, how);
	buf_free(&d);
}

static int evict(Msa *s, int f);

static void
pin(Msa *s, int f)
{
	const HloBuffer *x = &s->b.buf[f];
	int64_t at;

	if (x->bytes > s->budget - s->base) {
		stays(s, f, "%lld B is more than the VMEM budget of %lld B",
		    (long long)x->bytes, (long long)(s->budget - s->base));
		return;
	}
	if ((at = fit(s, x->bytes, x->start, x->end)) < 0) {
		if (evict(s, f))
			return;
		stays(s, f, "no room: %lld B over positions %d..%d with the "
		    "VMEM budget of %lld B taken", (long long)x->bytes,
		    x->start, x->end, (long long)s->budget);
		return;
	}
	take(s, at, x->bytes, x->start, x->end);
	s->vmem_buf[f] = 1;
	mark(s, f, at);
	placed(s, f, at, x->start, x->end, "pinned");
}

/* Positions of the first and last instruction that read buffer f. */
static void
uses(const Msa *s, int f, int *first, int *last)
{
	int i, j;

	*first = -1;
	*last = -1;
	for (i = 0; i < s->b.n; i++)
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			if (s->b.reads[j] == f) {
				if (*first < 0)
					*first = i;
				*last = i;
			}
}

/* Cycles of the work strictly between positions s0 and u. */
static double
overlap(const Msa *s, int s0, int u)
{
	double w = 0;
	int t;

	for (t = s0 + 1; t < u; t++)
		w += s->elapsed[t];
	return w;
}

/* The instruction whose value is buffer f as one array (its definition,
   or the get-tuple-element that reads it out of a tuple), or -1. */
static int
array_of(const Msa *s, int f)
{
	const HloBuffer *x = &s->b.buf[f];
	int i, v = -1;

	if (s->b.nleaf[x->def] == 1 && s->c->instr.v[x->def]->shape.type !=
	    HT_TUPLE)
		return x->def;
	for (i = 0; i < s->b.n; i++)
		if (s->c->instr.v[i]->op == HLO_GTE && s->b.nleaf[i] == 1 &&
		    s->b.leafbuf[s->b.first[i]] == f) {
			if (v >= 0)
				return -1;
			v = i;
		}
	return v;
}

/* 1 if every reader of buffer f reads it as instruction v. */
static int
read_as(const Msa *s, int f, int v)
{
	int i, j, k;

	for (i = 0; i < s->b.n; i++)
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++) {
			const HloInstr *in = s->c->instr.v[i];
			int direct = 0;
			if (s->b.reads[j] != f || i == v)
				continue;
			for (k = 0; k < in->noperand; k++)
				direct |= in->operand[k] == v;
			if (!direct || is_alias(in->op))
				return 0;
		}
	return 1;
}

/* A new copy of instruction 'param' (its positions in the schedule
   before the copies), reading its chunk at 'at'. */
static Pf *
add_copy(Msa *s, int param, int start, int done, int last, int64_t at)
{
	Pf *p = &s->pf[s->npf++];

	memset(p, 0, sizeof *p);
	p->param = param;
	p->start = start;
	p->done = done;
	p->last = last;
	p->offset = at;
	return p;
}

/* The latest position a copy done before u may start after: one
   instruction with work at least in between, none before 'early'. */
static int
latest_start(const Msa *s, int early, int u)
{
	int late;

	for (late = u - 1; late > early && (s->elapsed[late] <= 0 ||
	    is_alias(s->c->instr.v[late]->op)); late--)
		;
	return late - 1;
}

/*
 * The interval picker: the latest start in [early, late] after which
 * the work before the first use u covers PREFERRED_OVERLAP x the copy,
 * else the earliest.  Then the first start, from there later and then
 * earlier, whose chunk of 'bytes' fits up to position 'last'.  Returns
 * the start and *at, or -1.
 */
static int
pick(Msa *s, int64_t bytes, double copy, int early, int late, int u,
    int last, int64_t *at)
{
	int pref, d;

	*at = -1;
	for (pref = late; pref > early && overlap(s, pref, u) <
	    PREFERRED_OVERLAP * copy; pref--)
		;
	for (d = 0; pref + d <= late || pref - d >= early; d++) {
		if (pref + d <= late && (*at = fit(s, bytes, pref + d + 1,
		    last)) >= 0)
			return pref + d;
		if (d && pref - d >= early && (*at = fit(s, bytes,
		    pref - d + 1, last)) >= 0)
			return pref - d;
	}
	return -1;
}

/*
 * Per-use segments: copies of buffer f (instruction v) into VMEM for
 * runs of its uses r[0..n), the longest run from each use that fits,
 * each started after 'early' or later; the uses no run takes read f
 * where it is.  back: f is evicted and the copies read its HBM copy.
 * Returns the number of copies.
 */
static int
segments(Msa *s, int f, int v, int back, int early, const int *r, int n)
{
	const HloBuffer *x = &s->b.buf[f];
	double copy = s->mp->dma_latency + (double)x->bytes / s->hbm_bw;
	int j = 0, l, t = -1, late, k = 0;
	int64_t at = -1;

	while (j < n) {
		late = latest_start(s, early, r[j]);
		for (l = n - 1; l >= j && late >= early; l--)
			if ((t = pick(s, x->bytes, copy, early, late, r[j],
			    r[l], &at)) >= 0)
				break;
		if (l < j || late < early) {
			j++;
			continue;
		}
		take(s, at, x->bytes, t + 1, r[l]);
		add_copy(s, v, t, r[j], r[l], at)->back = back;
		k++;
		j = l + 1;
	}
	return k;
}

/* The positions of the instructions other than v that read buffer f,
   ascending, into an array of the pass's arena; *n their number. */
static int *
readers(Msa *s, int f, int v, int *n)
{
	int *u = arena_alloc(&s->a, sizeof(int) * ((size_t)s->b.n + 1));
	int i, j;

	*n = 0;
	for (i = 0; i < s->b.n; i++)
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			if (s->b.reads[j] == f && i != v) {
				u[(*n)++] = i;
				break;
			}
	return u;
}

/*
 * An intermediate that does not fit in VMEM over its whole live range:
 * in VMEM for its first uses, then evicted (XLA's eviction: a
 * copy-start of the value to HBM after its definition, the copy-done
 * before the first use that reads the copy).  The most early uses that
 * fit; the copy-done as early as the work since the definition hides
 * the copy, so the chunk is free again soon.  The later uses are then
 * prefetched back from the copy in runs that fit (segments()).  1 if
 * it was placed.
 */
static int
evict(Msa *s, int f)
{
	const HloBuffer *x = &s->b.buf[f];
	double copy = s->mp->dma_latency + (double)x->bytes / s->hbm_bw;
	int v = array_of(s, f), n, k, d, *u;
	int64_t at;

	if (v < 0 || !read_as(s, f, v))
		return 0;
	u = readers(s, f, v, &n);
	for (k = n - 1; k >= 1; k--) {
		for (d = u[k - 1] + 1; d < u[k] && overlap(s, v, d) < copy;
		    d++)
			;
		/* less hiding where the chunk does not fit that long */
		for (at = -1; d > u[k - 1] && (at = fit(s, x->bytes, x->start,
		    d - 1)) < 0; d--)
			;
		if (at < 0)
			continue;
		take(s, at, x->bytes, x->start, d - 1);
		add_copy(s, v, v, d, s->b.n - 1, at)->evict = 1;
		s->vmem_buf[f] = 1;
		mark(s, f, at);
		segments(s, f, v, 1, d, u + k, n - k);
		return 1;
	}
	return 0;
}

/*
 * A prefetch of entry parameter f: one copy for all its uses when it
 * fits, else per-use segments.  cross: a cross-program prefetch, which
 * stays in VMEM for the next run and starts with the program.
 */
static void
prefetch(Msa *s, int f, int cross)
{
	const HloBuffer *x = &s->b.buf[f];
	double copy = s->mp->dma_latency + (double)x->bytes / s->hbm_bw;
	int u, last, early = x->def, late, t, n, *r;
	int64_t at;

	uses(s, f, &u, &last);
	if (u < 0) {
		stays(s, f, "nothing reads it");
		return;
	}
	late = cross ? early : latest_start(s, early, u);
	if (late < early) {
		stays(s, f, "live range too short: no instruction before its "
		    "first use (%s) to hide a copy of %.0f cycles",
		    s->c->instr.v[u]->name, copy);
		return;
	}
	if (cross)
		last = s->b.n - 1;
	if ((t = pick(s, x->bytes, copy, early, late, u, last, &at)) >= 0) {
		take(s, at, x->bytes, t + 1, last);
		add_copy(s, x->def, t, u, last, at)->cross = cross;
		s->vmem_buf[f] = 1;
		return;
	}
	r = readers(s, f, x->def, &n);
	if (!cross && segments(s, f, x->def, 0, early, r, n) > 0) {
		s->vmem_buf[f] = 1;
		return;
	}
	stays(s, f, "no room: %lld B over positions %d..%d with the VMEM "
	    "budget of %lld B taken", (long long)x->bytes, early + 1, last,
	    (long long)s->budget);
}

/* ----------------------------------------------------- candidates */

static int
by_prio(const void *x, const void *y)
{
	const Cand *a = x, *b = y;

	if (a->prio != b->prio)
		return a->prio > b->prio ? -1 : 1;
	return a->buf - b->buf;
}

/* Ops that run other computations as programs (callees()). */
static int
is_control(HloOp op)
{
	return op == HLO_CALL || op == HLO_WHILE || op == HLO_CONDITIONAL;
}

/*
 * Marks the buffers a custom-call reads or defines: opaque, HBM.  Those
 * of calls and control flow too: the computations they run take their
 * parameters and give their results in HBM.
 */
static void
custom_calls(Msa *s)
{
	int i, j;

	for (i = 0; i < s->b.n; i++) {
		if (s->c->instr.v[i]->op != HLO_CUSTOM_CALL &&
		    !is_control(s->c->instr.v[i]->op))
			continue;
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			s->cc[s->b.reads[j]] = 1;
		for (j = 0; j < s->b.nbuf; j++)
			if (s->b.buf[j].def == i)
				s->cc[j] = 1;
	}
}

/* 1 if some instruction reading f is a copy-start (already fetched). */
static int
copied(const Msa *s, int f)
{
	int i, j;

	for (i = 0; i < s->b.n; i++)
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			if (s->b.reads[j] == f &&
			    s->c->instr.v[i]->op == HLO_COPY_START)
				return 1;
	return 0;
}

/* 1 if every reader of parameter buffer f is a dot or a fusion. */
static int
dot_operand(const Msa *s, int f)
{
	int i, j, any = 0;

	for (i = 0; i < s->b.n; i++)
		for (j = s->b.rfirst[i]; j < s->b.rfirst[i + 1]; j++)
			if (s->b.reads[j] == f) {
				HloOp op = s->c->instr.v[i]->op;
				if (op != HLO_DOT && op != HLO_FUSION)
					return 0;
				any |= op == HLO_DOT || (op == HLO_FUSION &&
				    s->compute[i] > 0);
			}
	return any;
}

/* 1 if c has a cross-program prefetch already (XLA allows one). */
static int
has_cross(const HloComp *c)
{
	int i, k;

	for (i = 0; i < c->instr.n; i++)
		for (k = 0; k < c->instr.v[i]->attrs.n; k++)
			if (c->instr.v[i]->op == HLO_COPY_START && strcmp(
			    c->instr.v[i]->attrs.v[k].name,
			    "cross_program_prefetch_index") == 0)
				return 1;
	return 0;
}

/*
 * The buffers MSA considers, with the reasons of those it does not.
 * cross: the cross-program prefetch, or -1.
 */
static int
candidates(Msa *s, Cand *cd, int *cross)
{
	int f, n = 0, one = has_cross(s->c);

	*cross = -1;
	for (f = 0; f < s->b.nbuf; f++) {
		const HloBuffer *x = &s->b.buf[f];
		const HloInstr *in = s->c->instr.v[x->def];
		if (x->bytes == 0 || x->memspace != 0 ||
		    s->b.leafshape[s->b.first[x->def] + x->leaf]->type ==
		    HT_TOKEN)
			continue;
		if (x->out) {
			stays(s, f, s->c->is_entry ? "the entry's result" :
			    "the computation's result");
			continue;
		}
		if (s->cc[f]) {
			stays(s, f, "an operand or result of a custom-call, "
			    "call or control flow (opaque)");
			continue;
		}
		if (in->op == HLO_CONSTANT) {
			stays(s, f, "a constant");
			continue;
		}
		if (x->param && (!s->c->is_entry || copied(s, f)))
			continue;
		cd[n].buf = f;
		cd[n].prefetch = x->param;
		cd[n].prio = benefit(s, f) / sqrt((double)x->bytes);
		if (x->param && !one && dot_operand(s, f) &&
		    x->bytes <= s->budget &&
		    (*cross < 0 || x->bytes > s->b.buf[*cross].bytes))
			*cross = f;
		n++;
	}
	qsort(cd, (size_t)n, sizeof *cd, by_prio);
	return n;
}

/* ------------------------------------------- copy-start / copy-done */

static int
by_done(const void *x, const void *y)
{
	const Pf *a = x, *b = y;

	if (a->done != b->done)
		return a->done - b->done;
	return a->start - b->start;
}

/* Copies complete in FIFO order: no later copy starts earlier. */
static void
fifo(Msa *s)
{
	int k;

	qsort(s->pf, (size_t)s->npf, sizeof *s->pf, by_done);
	for (k = 1; k < s->npf; k++)
		if (s->pf[k].start < s->pf[k - 1].start)
			s->pf[k].start = s->pf[k - 1].start;
}

/* The instruction copy k reads: its value, or for a prefetch back the
   copy-done of the eviction (materialised first: it is done earlier). */
static int
source(const Msa *s, int k, const int *cd)
{
	int j;

	if (!s->pf[k].back)
		return s->pf[k].param;
	for (j = 0; j < k; j++)
		if (s->pf[j].evict && s->pf[j].param == s->pf[k].param)
			return cd[j];
	bug("a prefetch back without its eviction");
	return -1;
}

/* The copy-start/copy-done pair of copy k; the uses it serves (in
   positions done..last of the n0 scheduled) read the done. */
static void
materialise(Msa *s, int k, int *cs, int *cd, int n0)
{
	Pf *p = &s->pf[k];
	int op = source(s, k, cd), i, j;
	HloInstr *src = s->c->instr.v[op];
	HloShape el[3], dst = src->shape;
	HloInstr *start;

	set_space(s->m->arena, &dst, 0, p->evict ? 0 : 1,
	    p->evict ? -1 : p->offset);
	el[0] = dst;
	el[1] = src->shape;
	el[2] = hlo_shape_array(HT_U32, 0, NULL);
	set_space(s->m->arena, &el[2], 0, 2, -1);
	{
		HloShape t = hlo_shape_tuple(s->m->arena, el, 3);
		start = hlo_add(s->m, s->c, HLO_COPY_START, &t, &op, 1);
	}
	if (p->cross) {
		HloAttr at = { "cross_program_prefetch_index", "0" };
		vec_push(s->m->arena, &start->attrs, at);
	}
	cs[k] = s->c->instr.n - 1;
	hlo_add(s->m, s->c, HLO_COPY_DONE, &dst, &cs[k], 1);
	cd[k] = s->c->instr.n - 1;
	for (i = p->done; i <= p->last && i < n0; i++) {
		HloInstr *in = s->c->instr.v[i];
		for (j = 0; j < in->noperand; j++)
			if (in->operand[j] == op)
				in->operand[j] = cd[k];
	}
}

/* The schedule with the copies: dones before, starts after, in FIFO. */
static void
insert(Msa *s, int n0, const int *cs, const int *cd)
{
	int n = s->c->instr.n, t, k, j = 0, i;
	int *order = arena_alloc(&s->a, sizeof(int) * ((size_t)n + 1));
	int *newidx = arena_alloc(&s->a, sizeof(int) * ((size_t)n + 1));
	HloInstr **old = arena_alloc(&s->a, sizeof *old * ((size_t)n + 1));

	for (t = 0; t < n0; t++) {
		for (k = 0; k < s->npf; k++)
			if (s->pf[k].done == t)
				order[j++] = cd[k];
		order[j++] = t;
		for (k = 0; k < s->npf; k++)
			if (s->pf[k].start == t)
				order[j++] = cs[k];
	}
	if (j != n)
		bug("memory-space assignment lost an instruction");
	for (i = 0; i < n; i++) {
		newidx[order[i]] = i;
		old[i] = s->c->instr.v[i];
	}
	for (i = 0; i < n; i++) {
		HloInstr *in = old[order[i]];
		for (k = 0; k < in->noperand; k++)
			in->operand[k] = newidx[in->operand[k]];
		s->c->instr.v[i] = in;
	}
	s->c->root = newidx[s->c->root];
}

static void
report_prefetches(Msa *s, const int *bufof)
{
	int k, first, last;

	for (k = 0; k < s->npf; k++) {
		Pf *p = &s->pf[k];
		Buf how = {0};
		int f = bufof[k];
		const char *kind = p->evict ? "evicted" : p->back ?
		    "prefetched back" : "prefetch";
		uses(s, f, &first, &last);
		if (p->cross)
			buf_printf(&how, "cross-program prefetch, copy-done "
			    "before %s", s->c->instr.v[p->done]->name);
		else
			buf_printf(&how, "%s: copy-start after %s, copy-done "
			    "before %s (%.0f of %.0f cycles hidden)", kind,
			    s->c->instr.v[p->start]->name,
			    s->c->instr.v[p->done]->name,
			    overlap(s, p->start, p->done),
			    s->mp->dma_latency + (double)s->b.buf[f].bytes /
			    s->hbm_bw);
		if (p->evict)
			buf_printf(&how, ", the later uses read the copy in "
			    "HBM");
		else if (p->last < last)
			buf_printf(&how, ", for the uses up to %s",
			    s->c->instr.v[p->last]->name);
		if (p->evict)
			placed(s, f, p->offset, s->b.buf[f].start, p->done - 1,
			    how.p);
		else
			placed(s, f, p->offset, p->start + 1, p->last, how.p);
		buf_free(&how);
	}
}

static void
setup(Msa *s, HloModule *m, HloPassCtx *cx, int comp, int64_t base)
{
	const MachPreset *mp = cx->mp;
	int n, i;

	memset(s, 0, sizeof *s);
	s->m = m;
	s->c = m->comp.v[comp];
	s->base = base;
	s->cx = cx;
	s->mp = mp;
	hlo_buffers_build(&s->b, &s->a, s->c);
	n = s->b.n;
	s->compute = arena_alloc(&s->a, sizeof(double) * ((size_t)n + 1));
	s->hbm = arena_alloc(&s->a, sizeof(double) * ((size_t)n + 1));
	s->vmem = arena_alloc(&s->a, sizeof(double) * ((size_t)n + 1));
	s->elapsed = arena_alloc(&s->a, sizeof(double) * ((size_t)n + 1));
	s->vmem_buf = arena_alloc(&s->a, (size_t)s->b.nbuf + 1);
	s->cc = arena_alloc(&s->a, (size_t)s->b.nbuf + 1);
	/* a chunk and an eviction per buffer, a copy per read at most */
	s->heap = arena_alloc(&s->a, sizeof *s->heap * ((size_t)s->b.nbuf +
	    (size_t)s->b.rfirst[n] + 1));
	s->pf = arena_alloc(&s->a, sizeof *s->pf * ((size_t)s->b.nbuf +
	    (size_t)s->b.rfirst[n] + 1));
	s->hbm_bw = mp->hbm_bytes_per_cycle > 0 ? mp->hbm_bytes_per_cycle : 1;
	/* a load and a store slot move a vreg of 32-bit words per cycle */
	s->vmem_bw = (double)(mp->slots[U_VLD] + mp->slots[U_VST]) *
	    mp->sublanes * mp->lanes * 4;
	/* chunks on vreg tiles, the unit of VMEM loads and stores */
	s->align = (int64_t)mp->sublanes * mp->lanes * 4;
	s->budget = (int64_t)(mp->vmem_bytes - mp->vmem_bytes / RESERVE_DIV);
	for (i = 0; i < n; i++)
		s->compute[i] = work(s, s->c, s->c->instr.v[i], 0);
	traffic(s);
}

/*
 * The computations instruction i runs as programs (while condition and
 * body, conditional branches, a call's callee) start their VMEM above
 * what is live here: base[k] rises to that.
 */
static void
callee_bases(const Msa *s, int i, int64_t *base)
{
	int64_t top = s->base;
	int br[64], n = hlo_programs(s->m, s->c->instr.v[i], br, 64), k;

	if (n == 0)
		return;
	for (k = 0; k < s->nheap; k++)
		if (s->heap[k].t0 <= i && i <= s->heap[k].t1 &&
		    s->heap[k].hi > top)
			top = s->heap[k].hi;
	top = (top + s->align - 1) / s->align * s->align;
	for (k = 0; k < n; k++)
		if (base[br[k]] < top)
			base[br[k]] = top;
}

/* Memory-space assignment of computation j, its VMEM from base[j]. */
static int
msa_comp(HloModule *m, HloPassCtx *cx, int j, int64_t *base)
{
	Msa s;
	Cand *cd;
	int n, k, cross, n0, *cs, *cdn, *bufof, changed = 0;

	setup(&s, m, cx, j, base[j]);
	custom_calls(&s);
	cd = arena_alloc(&s.a, sizeof *cd * ((size_t)s.b.nbuf + 1));
	n = candidates(&s, cd, &cross);
	/*
	 * The cross-program prefetch first (XLA allocates it before the
	 * rest), then the intermediates, then the other prefetches, their
	 * intervals picked with the times the placements give.
	 */
	if (cross >= 0)
		prefetch(&s, cross, 1);
	for (k = 0; k < n; k++)
		if (!cd[k].prefetch)
			pin(&s, cd[k].buf);
	traffic(&s);
	for (k = 0; k < n; k++)
		if (cd[k].prefetch && cd[k].buf != cross)
			prefetch(&s, cd[k].buf, 0);
	for (k = 0; k < n; k++)
		changed |= s.vmem_buf[cd[k].buf];
	changed |= s.npf > 0;
	check_heap(&s);
	for (k = 0; k < s.b.n; k++)
		callee_bases(&s, k, base);
	fifo(&s);
	bufof = arena_alloc(&s.a, sizeof(int) * ((size_t)s.npf + 1));
	for (k = 0; k < s.npf; k++)
		bufof[k] = s.b.leafbuf[s.b.first[s.pf[k].param]];
	report_prefetches(&s, bufof);
	n0 = s.c->instr.n;
	cs = arena_alloc(&s.a, sizeof(int) * ((size_t)s.npf + 1));
	cdn = arena_alloc(&s.a, sizeof(int) * ((size_t)s.npf + 1));
	for (k = 0; k < s.npf; k++)
		materialise(&s, k, cs, cdn, n0);
	if (s.npf)
		insert(&s, n0, cs, cdn);
	arena_free(&s.a);
	return changed;
}

/*
 * The entry, then the computations it runs as programs, callers before
 * callees (the module lists callees first): each gets the VMEM above
 * what its callers hold while it runs.
 */
int
hlo_pass_msa(HloModule *m, HloPassCtx *cx)
{
	int64_t *base;
	int j, changed = 0;

	if (m->entry < 0)
		return 0;
	if (cx->stats)
		buf_printf(cx->stats, "msa: VMEM budget %lld B of %llu B (a "
		    "quarter kept for the kernels' scoped VMEM); positions "
		    "are those of the schedule before the copies\n",
		    (long long)(cx->mp->vmem_bytes - cx->mp->vmem_bytes /
		    RESERVE_DIV), (unsigned long long)cx->mp->vmem_bytes);
	base = malloc(sizeof *base * ((size_t)m->comp.n + 1));
	for (j = 0; j < m->comp.n; j++)
		base[j] = j == m->entry ? 0 : -1;
	for (j = m->comp.n - 1; j >= 0; j--)
		if (base[j] >= 0)
			changed |= msa_comp(m, cx, j, base);
	free(base);
	return changed;
}
