/*
 * interp.c - interpret mode's entry for kernels: host arrays, the grid
 * loop, and the block copies of the pipeline.
 *
 * Per step, in order: evaluate every windowed operand's index map
 * (sema_block_start) and check it; for outputs whose block index
 * changed, write the old block back (and catch a return to a block
 * written back before); for inputs whose index changed, copy the block
 * in (padding past the array's end with poison); run the body; check
 * that its DMAs were waited for.  After the last step every resident
 * output block is written back.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/iint.h"

/* Pipeline state of one operand. */
typedef struct Pipe {
	Elt *hbm;		/* the whole array */
	int windowed;		/* has a block buffer in r->op[i] */
	int valid;		/* a block is resident */
	int64_t start[SEMA_MAXRANK];	/* its first element */
	uint8_t *visited;	/* outputs: blocks written back; NULL: no
				   revisit tracking (too many blocks) */
	int64_t nkey[SEMA_MAXRANK];	/* block keys per dimension */
} Pipe;

typedef struct Kstate {
	Run r;
	const CKernel *k;
	InterpBuf *buf;
	Pipe *p;
	InterpStats *st;
	int64_t *perm;		/* shuffled prefix points, or NULL */
	int64_t npfx, nsfx;	/* points of the parallel prefix, rest */
} Kstate;

void
interp_point(const Run *r, Buf *b)
{
	int i;

	for (i = 0; r->k && i < r->k->naxis; i++)
		buf_printf(b, "%s%s=%lld", i ? ", " : "",
		    r->k->axis[i].name, (long long)r->pt[i]);
}

void
interp_note_point(Run *r)
{
	Buf b = {0};
	Loc none = {0};

	if (!r->k)
		return;
	interp_point(r, &b);
	diag_note(r->d, none, "at grid point (%s) of kernel '%s'",
	    b.p ? b.p : "", r->k->name);
	buf_free(&b);
}

/* n poisoned elements; NULL when the host has no memory for them. */
static Elt *
try_poisoned(DType t, int64_t n)
{
	Elt p = ival_poison(t), *e = (uint64_t)n < SIZE_MAX / sizeof(Elt) ?
	    malloc((size_t)(n ? n : 1) * sizeof(Elt)) : NULL;
	int64_t i;

	for (i = 0; e && i < n; i++)
		e[i] = p;
	return e;
}

static Elt *
poisoned(DType t, int64_t n)
{
	Elt *e = try_poisoned(t, n);

	if (!e)
		die_oom();
	return e;
}

static int
check_bufs(const CKernel *k, const InterpBuf *b, int n, Diag *d)
{
	Buf want = {0}, got = {0};
	int i;

	if (n != k->nop) {
		diag_error(d, k->loc, "kernel '%s' takes %d operands, %d "
		    "given", k->name, k->nop, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const COperand *o = &k->op[i];
		if (b[i].dtype == o->dtype && shape_eq(&b[i].shape, &o->shape)
		    && (b[i].data || shape_numel(&o->shape) == 0))
			continue;
		shape_print(&want, &o->shape);
		shape_print(&got, &b[i].shape);
		diag_error(d, o->loc, "operand '%s' is %s%s, but the buffer "
		    "given is %s%s", o->name, dtype_name(o->dtype), want.p,
		    dtype_name(b[i].dtype), got.p);
		buf_free(&want);
		buf_free(&got);
		return -1;
	}
	return 0;
}

/* Revisit keys: block index (blocked) or offset + b - 1 (element). */
static void
setup_keys(const COperand *o, Pipe *p)
{
	int64_t total = 1;
	int d;

	for (d = 0; d < o->shape.rank; d++) {
		int64_t b = o->block.d[d], n = o->shape.d[d];
		p->nkey[d] = o->element ? n + b - 1 : (n + b - 1) / b;
		if (total > ((int64_t)1 << 32) / p->nkey[d])
			return;		/* too many to track */
		total *= p->nkey[d];
	}
	p->visited = xcalloc((size_t)total, 1);
}

static int64_t
block_key(const COperand *o, const Pipe *p, const int64_t *start)
{
	int64_t key = 0;
	int d;

	for (d = 0; d < o->shape.rank; d++) {
		int64_t b = o->block.d[d];
		key = key * p->nkey[d] +
		    (o->element ? start[d] + b - 1 : start[d] / b);
	}
	return key;
}

/* The operand's whole array (its size is the user's): 0, or -1 after
   an error. */
static int
setup_operand(Kstate *s, int i)
{
	const COperand *o = &s->k->op[i];
	Pipe *p = &s->p[i];
	Mem *m = &s->r.op[i];
	int64_t n = shape_numel(&o->shape);

	if (o->role != ROLE_OUT)
		p->hbm = ival_try_from_host(&s->buf[i]);
	else if (o->alias_in >= 0)
		p->hbm = ival_try_from_host(&s->buf[o->alias_in]);
	else
		p->hbm = try_poisoned(o->dtype, n);
	if (!p->hbm) {
		diag_error(s->r.d, o->loc, "interpret mode: out of host memory "
		    "for operand '%s' (%lld elements)", o->name, (long long)n);
		return -1;
	}
	m->name = o->name;
	m->loc = o->loc;
	m->t = o->dtype;
	m->readonly = o->role != ROLE_OUT;
	p->windowed = o->role != ROLE_SMEM_TABLE && o->mem != MEM_ANY;
	if (!p->windowed) {
		m->s = o->shape;
		m->e = p->hbm;
		return 0;
	}
	m->s = o->ref_shape;
	m->e = poisoned(o->dtype, shape_numel(&o->block));
	if (o->role == ROLE_OUT) {
		m->init = xcalloc((size_t)shape_numel(&o->block) + 1, 1);
		setup_keys(o, p);
	}
	return 0;
}

static void
setup_scratch(Kstate *s, int i)
{
	const CScratch *c = &s->k->scratch[i];
	Mem *m = &s->r.scr[i];
	int64_t n = shape_numel(&c->shape);

	m->name = c->name;
	m->loc = c->loc;
	m->t = c->dtype;
	m->s = c->shape;
	if (c->dtype == DT_SEM || c->dtype == DT_DMA_SEM) {
		m->e = xcalloc((size_t)n + 1, sizeof(Elt));
		return;
	}
	m->e = poisoned(c->dtype, n);
	m->init = xcalloc((size_t)n + 1, 1);
}

/* SMEM table reads of index maps (SemaTableFn). */
static int
table(void *ctx, int op, const int64_t *idx, int64_t *v)
{
	Kstate *s = ctx;
	const COperand *o = &s->k->op[op];
	int64_t at = 0;
	int d;

	for (d = 0; d < o->shape.rank; d++) {
		if (idx[d] < 0 || idx[d] >= o->shape.d[d])
			return -1;
		at = at * o->shape.d[d] + idx[d];
	}
	*v = s->p[op].hbm[at].i;
	return 0;
}

/* Visits every element of op i's block: f(ctx, block pos, array pos). */
typedef void ElemFn(Kstate *s, int i, int64_t bpos, int64_t apos);

static void
each_elem(Kstate *s, int i, ElemFn *f)
{
	const COperand *o = &s->k->op[i];
	const int64_t *start = s->p[i].start;
	int64_t idx[SEMA_MAXRANK] = {0}, bpos, n = shape_numel(&o->block);
	int d, r = o->shape.rank;

	for (bpos = 0; bpos < n; bpos++) {
		int64_t apos = 0;
		for (d = 0; d < r; d++) {
			int64_t x = start[d] + idx[d];
			if (x < 0 || x >= o->shape.d[d]) {
				apos = -1;
				break;
			}
			apos = apos * o->shape.d[d] + x;
		}
		f(s, i, bpos, apos);
		for (d = r - 1; d >= 0; d--) {
			if (++idx[d] < o->block.d[d])
				break;
			idx[d] = 0;
		}
	}
}

static void
elem_in(Kstate *s, int i, int64_t bpos, int64_t apos)
{
	s->r.op[i].e[bpos] = apos < 0 ? ival_poison(s->k->op[i].dtype) :
	    s->p[i].hbm[apos];
}

static void
elem_out(Kstate *s, int i, int64_t bpos, int64_t apos)
{
	if (apos >= 0)
		s->p[i].hbm[apos] = s->r.op[i].e[bpos];
}

/* A fresh output block: poisoned and unwritten. */
static void
elem_fresh(Kstate *s, int i, int64_t bpos, int64_t apos)
{
	(void)apos;
	s->r.op[i].e[bpos] = ival_poison(s->k->op[i].dtype);
	s->r.op[i].init[bpos] = 0;
}

/* Revisit (ANY): the block as last written back, padding poisoned. */
static void
elem_reload(Kstate *s, int i, int64_t bpos, int64_t apos)
{
	elem_in(s, i, bpos, apos);
	s->r.op[i].init[bpos] = apos >= 0;
}

static void
write_back(Kstate *s, int i)
{
	Pipe *p = &s->p[i];

	each_elem(s, i, elem_out);
	if (p->visited)
		p->visited[block_key(&s->k->op[i], p, p->start)] = 1;
	if (s->st && s->st->copy_out)
		s->st->copy_out[i]++;
}

static void
print_index(Buf *b, const COperand *o, const int64_t *start)
{
	int d;

	buf_putc(b, '(');
	for (d = 0; d < o->shape.rank; d++)
		buf_printf(b, "%s%lld", d ? ", " : "", (long long)(o->element ?
		    start[d] : start[d] / o->block.d[d]));
	buf_putc(b, ')');
}

/* The block of operand i at this step, checked against the array. */
static int
block_start(Kstate *s, int i, int64_t *start)
{
	const COperand *o = &s->k->op[i];
	int d, rc = sema_block_start(s->k, i, s->r.pt, table, s, start);
	Buf b = {0};

	if (rc != SEMA_EVAL_OK) {
		diag_error(s->r.d, o->loc, "the index map of '%s' cannot be "
		    "evaluated (division by zero or an SMEM table index out "
		    "of range)", o->name);
		interp_note_point(&s->r);
		return -1;
	}
	for (d = 0; d < o->shape.rank; d++) {
		int64_t bd = o->block.d[d];
		if ((o->element || start[d] >= 0) && start[d] > -bd &&
		    start[d] < o->shape.d[d])
			continue;
		print_index(&b, o, start);
		diag_error(s->r.d, o->map && o->map[d] ? o->map[d]->loc :
		    o->loc, "block %s %s of '%s' is out of range: dimension "
		    "%d holds %lld elements", o->element ? "at element" :
		    "index", b.p, o->name, d, (long long)o->shape.d[d]);
		buf_free(&b);
		interp_note_point(&s->r);
		return -1;
	}
	return 0;
}

/* Output i moves to block 'start'; 0, or -1 on a forbidden revisit. */
static int
enter_output(Kstate *s, int i, const int64_t *start)
{
	const COperand *o = &s->k->op[i];
	Pipe *p = &s->p[i];
	int seen;
	Buf b = {0};

	if (p->valid)
		write_back(s, i);
	memcpy(p->start, start, sizeof p->start);
	p->valid = 1;
	seen = p->visited && p->visited[block_key(o, p, start)];
	if (!seen) {
		each_elem(s, i, elem_fresh);
		return 0;
	}
	if (o->revisit_any) {
		each_elem(s, i, elem_reload);
		if (s->st && s->st->copy_in)
			s->st->copy_in[i]++;
		return 0;
	}
	print_index(&b, o, start);
	diag_error(s->r.d, o->loc, "output '%s' revisits block %s, which "
	    "was written back at an earlier grid step: writes to one output "
	    "block must happen in consecutive steps", o->name, b.p);
	buf_free(&b);
	interp_note_point(&s->r);
	return -1;
}

static int
move_blocks(Kstate *s)
{
	int64_t start[SEMA_MAXRANK];
	int i;

	for (i = 0; i < s->k->nop; i++) {
		Pipe *p = &s->p[i];
		if (!p->windowed)
			continue;
		memset(start, 0, sizeof start);
		if (block_start(s, i, start))
			return -1;
		if (p->valid && memcmp(start, p->start, sizeof start) == 0)
			continue;
		if (s->k->op[i].role == ROLE_OUT) {
			if (enter_output(s, i, start))
				return -1;
			continue;
		}
		memcpy(p->start, start, sizeof start);
		p->valid = 1;
		each_elem(s, i, elem_in);
		if (s->st && s->st->copy_in)
			s->st->copy_in[i]++;
	}
	return 0;
}

/* The grid point of step n (prefix shuffled if asked). */
static void
point_of(Kstate *s, int64_t n)
{
	const CKernel *k = s->k;
	int64_t pfx = n / s->nsfx, sfx = n % s->nsfx;
	int a, np = 0;

	while (np < k->naxis && k->axis[np].sem != DIM_ARBITRARY)
		np++;
	if (s->perm)
		pfx = s->perm[pfx];
	for (a = k->naxis - 1; a >= np; a--) {
		s->r.pt[a] = sfx % k->axis[a].extent;
		sfx /= k->axis[a].extent;
	}
	for (a = np - 1; a >= 0; a--) {
		s->r.pt[a] = pfx % k->axis[a].extent;
		pfx /= k->axis[a].extent;
	}
}

static int
plan_order(Kstate *s, const InterpOptions *o)
{
	const CKernel *k = s->k;
	int a, np = 0;
	int64_t i;

	while (np < k->naxis && k->axis[np].sem != DIM_ARBITRARY)
		np++;
	s->npfx = s->nsfx = 1;
	for (a = 0; a < k->naxis; a++) {
		int64_t *n = a < np ? &s->npfx : &s->nsfx;
		if (k->axis[a].extent <= 0 ||
		    *n > INT64_MAX / 4 / k->axis[a].extent ||
		    s->npfx * s->nsfx > INT64_MAX / 4 / k->axis[a].extent) {
			diag_error(s->r.d, k->loc, "the grid of '%s' is too "
			    "large to interpret", k->name);
			return -1;
		}
		*n *= k->axis[a].extent;
	}
	if (!o->shuffle || np == 0 || s->npfx < 2)
		return 0;
	if (s->npfx > ((int64_t)1 << 28)) {
		diag_error(s->r.d, k->loc, "too many parallel grid points to "
		    "shuffle in '%s'", k->name);
		return -1;
	}
	InterpRng rng = { o->seed };
	s->perm = xmalloc((size_t)s->npfx * sizeof(int64_t));
	for (i = 0; i < s->npfx; i++)
		s->perm[i] = i;
	for (i = s->npfx - 1; i > 0; i--) {	/* Fisher-Yates */
		uint64_t r = interp_rng_next(&rng);
		int64_t j = (int64_t)(r % (uint64_t)(i + 1));
		int64_t t = s->perm[i];
		s->perm[i] = s->perm[j];
		s->perm[j] = t;
	}
	return 0;
}

static int
run_grid(Kstate *s)
{
	int64_t n, total = s->npfx * s->nsfx;
	int i;

	for (n = 0; n < total; n++) {
		point_of(s, n);
		if (move_blocks(s))
			return -1;
		s->r.a = xcalloc(1, sizeof(Arena));
		i = istmt_block(&s->r, &s->k->body) || istmt_end_step(&s->r);
		arena_free(s->r.a);
		free(s->r.a);
		s->r.a = NULL;
		if (i)
			return -1;
		if (s->st)
			s->st->steps++;
	}
	for (i = 0; i < s->k->nop; i++)
		if (s->p[i].windowed && s->p[i].valid &&
		    s->k->op[i].role == ROLE_OUT)
			write_back(s, i);
	return 0;
}

/* Semaphores must be back at zero when the kernel ends. */
static int
check_sems(Kstate *s)
{
	int i;
	int64_t j;

	for (i = 0; i < s->k->nscratch; i++) {
		const CScratch *c = &s->k->scratch[i];
		if (c->dtype != DT_SEM && c->dtype != DT_DMA_SEM)
			continue;
		for (j = 0; j < shape_numel(&c->shape); j++)
			if (s->r.scr[i].e[j].i != 0) {
				diag_error(s->r.d, c->loc, "semaphore '%s' "
				    "(element %lld) ends the kernel at %d, "
				    "not 0", c->name, (long long)j,
				    s->r.scr[i].e[j].i);
				return -1;
			}
	}
	return 0;
}

/* Copies outputs to the caller; counts (and may warn about) poison. */
static void
finish_outputs(Kstate *s, const InterpOptions *o)
{
	int i;
	int64_t j, n, bad;

	for (i = 0; i < s->k->nop; i++) {
		const COperand *op = &s->k->op[i];
		if (op->role != ROLE_OUT)
			continue;
		n = shape_numel(&op->shape);
		for (bad = 0, j = 0; j < n; j++)
			bad += ival_is_poison(op->dtype, s->p[i].hbm[j]);
		if (s->st)
			s->st->poisoned_out += bad;
		if (bad && o->warn_unwritten)
			diag_warning(s->r.d, op->loc, "%lld of %lld elements "
			    "of output '%s' were never written (they hold "
			    "poison, NaN)", (long long)bad, (long long)n,
			    op->name);
		ival_to_host(s->p[i].hbm, &s->buf[i]);
	}
}

static void
free_state(Kstate *s)
{
	int i;

	for (i = 0; i < s->k->nop; i++) {
		if (s->p[i].windowed)
			free(s->r.op[i].e);
		free(s->r.op[i].init);
		free(s->p[i].hbm);
		free(s->p[i].visited);
	}
	for (i = 0; i < s->k->nscratch; i++) {
		free(s->r.scr[i].e);
		free(s->r.scr[i].init);
	}
	free(s->r.op);
	free(s->r.scr);
	free(s->r.slot);
	free(s->r.pt);
	free(s->p);
	free(s->perm);
	arena_free(&s->r.dma_arena);
}

int
interp_kernel(const CKernel *k, InterpBuf *op, int nop,
    const InterpOptions *o, Diag *d)
{
	static const InterpOptions defaults;
	Kstate s;
	int i, rc;

	if (!o)
		o = &defaults;
	if (check_bufs(k, op, nop, d))
		return -1;
	memset(&s, 0, sizeof s);
	s.k = k;
	s.buf = op;
	s.st = o->stats;
	s.r.k = k;
	s.r.d = d;
	s.r.o = o;
	s.r.pt = xcalloc((size_t)k->naxis + 1, sizeof(int64_t));
	s.r.slot = xcalloc((size_t)k->nslot + 1, sizeof(Val));
	s.r.op = xcalloc((size_t)k->nop + 1, sizeof(Mem));
	s.r.scr = xcalloc((size_t)k->nscratch + 1, sizeof(Mem));
	s.p = xcalloc((size_t)k->nop + 1, sizeof(Pipe));
	for (i = 0, rc = 0; i < k->nop && !rc; i++)
		rc = setup_operand(&s, i);
	for (i = 0; i < k->nscratch && !rc; i++)
		setup_scratch(&s, i);
	if (rc || plan_order(&s, o) || run_grid(&s) || check_sems(&s))
		rc = -1;
	if (rc == 0)
		finish_outputs(&s, o);
	free_state(&s);
	return rc;
}
