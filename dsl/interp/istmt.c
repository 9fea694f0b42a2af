/*
 * istmt.c - execution of checked statements in a kernel body: lets,
 * stores (and op= stores), when, for, DMAs and semaphores, checks.
 *
 * DMAs move their data when they are waited for (so reading the
 * destination early sees the old, usually uninitialised, contents), and
 * every dma_start must be matched by a dma_wait in the same step.  A
 * sem_wait that would block can never be released in a sequential run:
 * it is an error.
 */
#include <string.h>

#include "dsl/interp/iint.h"

static Mem *
mem_of(Run *r, CRef ref)
{
	return ref.kind == CREF_OPERAND ? &r->op[ref.index] :
	    &r->scr[ref.index];
}

/* The box a place names in its memory. */
static int
place_box(Run *r, const CPlace *p, Loc loc, Mem **m, int64_t *off,
    int64_t *sz)
{
	*m = mem_of(r, p->ref);
	if (!(*m)->e)
		bug("place '%s' has no memory", (*m)->name);
	return ishape_resolve(r, &p->sl, &(*m)->s, loc, (*m)->name, off, sz);
}

static int
uninit_error(Run *r, Loc loc, const Mem *m, int64_t bad)
{
	diag_error(r->d, loc, "read of '%s' before it was written "
	    "(element %lld is uninitialised)", m->name, (long long)bad);
	diag_note(r->d, m->loc, "'%s' declared here", m->name);
	interp_note_point(r);
	return -1;
}

static int
exec_store(Run *r, const CStmt *st)
{
	int64_t off[SEMA_MAXRANK], sz[SEMA_MAXRANK], bad;
	Mem *m;
	Val v, old, res;

	if (ieval(r, st->u.store.value, &v) ||
	    place_box(r, &st->u.store.place, st->loc, &m, off, sz))
		return -1;
	if (m->readonly)
		bug("store into read-only '%s'", m->name);
	if (st->u.store.acc != NCXOP) {
		if (m->init && (bad = ishape_uninit(m->init, &m->s, off,
		    sz)) >= 0)
			return uninit_error(r, st->loc, m, bad);
		ival_new(r, &old, m->t, &v.s);
		ishape_gather(m->e, &m->s, off, sz, old.e);
		if (ival_binary(r, st->u.store.acc, st->loc, &old, &v, &res,
		    m->t))
			return -1;
		v = res;
	}
	ishape_scatter(m->e, &m->s, off, sz, v.e);
	if (m->init)
		ishape_mark(m->init, &m->s, off, sz);
	return 0;
}

static int
exec_for(Run *r, const CStmt *st)
{
	Val lo, hi;
	int64_t c;
	Shape scalar = { 0, {0} };

	if (ieval(r, st->u.loop.lo, &lo) || ieval(r, st->u.loop.hi, &hi))
		return -1;
	for (c = lo.e[0].i; c < hi.e[0].i; c += st->u.loop.step) {
		Val *s = &r->slot[st->u.loop.slot];
		ival_new(r, s, DT_I32, &scalar);
		s->e[0].i = (int32_t)c;
		if (istmt_block(r, &st->u.loop.body))
			return -1;
	}
	return 0;
}

/* The linear index of the one element a semaphore place names. */
static int
sem_elem(Run *r, const CPlace *p, Loc loc, Mem **m, int64_t *idx)
{
	int64_t off[SEMA_MAXRANK], sz[SEMA_MAXRANK], i = 0;
	int d;

	if (place_box(r, p, loc, m, off, sz))
		return -1;
	for (d = 0; d < (*m)->s.rank; d++)
		i = i * (*m)->s.d[d] + off[d];
	*idx = i;
	return 0;
}

/* Copies box so/ssz of src into box dof/dsz of dst (same numel). */
static int
move(Run *r, Loc loc, Mem *src, const int64_t *so, const int64_t *ssz,
    Mem *dst, const int64_t *dof, const int64_t *dsz)
{
	int64_t n = 1, bad;
	int d;
	Val tmp;
	Shape s = { 1, {0} };

	for (d = 0; d < src->s.rank; d++)
		n *= ssz[d];
	if (src->init && (bad = ishape_uninit(src->init, &src->s, so,
	    ssz)) >= 0)
		return uninit_error(r, loc, src, bad);
	s.d[0] = n;
	ival_new(r, &tmp, src->t, &s);
	ishape_gather(src->e, &src->s, so, ssz, tmp.e);
	ishape_scatter(dst->e, &dst->s, dof, dsz, tmp.e);
	if (dst->init)
		ishape_mark(dst->init, &dst->s, dof, dsz);
	return 0;
}

static int
dma_boxes(Run *r, const CStmt *st, Dma *x)
{
	memset(x, 0, sizeof *x);
	x->st = st;
	if (place_box(r, &st->u.dma.src, st->loc, &x->src, x->soff,
	    x->ssz) || place_box(r, &st->u.dma.dst, st->loc, &x->dst,
	    x->doff, x->dsz))
		return -1;
	if (shape_numel(&st->u.dma.src.shape) !=
	    shape_numel(&st->u.dma.dst.shape))
		bug("DMA between different shapes");
	if (st->kind != CS_DMA_COPY &&
	    sem_elem(r, &st->u.dma.sem, st->loc, &x->sem, &x->semi))
		return -1;
	return 0;
}

static int
same_dma(const Dma *a, const Dma *b)
{
	size_t ns = (size_t)a->src->s.rank * sizeof(int64_t);
	size_t nd = (size_t)a->dst->s.rank * sizeof(int64_t);

	return a->src == b->src && a->dst == b->dst && a->sem == b->sem &&
	    a->semi == b->semi && memcmp(a->soff, b->soff, ns) == 0 &&
	    memcmp(a->doff, b->doff, nd) == 0;
}

static int
exec_dma(Run *r, const CStmt *st)
{
	Dma x;
	int i;

	if (dma_boxes(r, st, &x))
		return -1;
	if (st->kind == CS_DMA_COPY)
		return move(r, st->loc, x.src, x.soff, x.ssz, x.dst, x.doff,
		    x.dsz);
	if (st->kind == CS_DMA_START) {
		vec_push(&r->dma_arena, &r->dma, x);
		return 0;
	}
	for (i = 0; i < r->dma.n; i++) {
		Dma *p = &r->dma.v[i];
		if (p->done || !same_dma(p, &x))
			continue;
		p->done = 1;
		return move(r, p->st->loc, p->src, p->soff, p->ssz, p->dst,
		    p->doff, p->dsz);
	}
	diag_error(r->d, st->loc, "dma_wait without a matching dma_start "
	    "(same source, destination and semaphore) in this grid step");
	interp_note_point(r);
	return -1;
}

static int
exec_sem(Run *r, const CStmt *st)
{
	Mem *m;
	int64_t i, n = 1;
	Val c;

	if (sem_elem(r, &st->u.sem.sem, st->loc, &m, &i))
		return -1;
	if (st->u.sem.count) {
		if (ieval(r, st->u.sem.count, &c))
			return -1;
		n = c.e[0].i;
	}
	if (st->kind == CS_SEM_SIGNAL) {
		m->e[i].i += (int32_t)n;
		return 0;
	}
	if (m->e[i].i < n) {
		diag_error(r->d, st->loc, "sem_wait on '%s' (value %d) for "
		    "%lld would wait forever: nothing can signal it in a "
		    "sequential run", m->name, m->e[i].i, (long long)n);
		interp_note_point(r);
		return -1;
	}
	m->e[i].i -= (int32_t)n;
	return 0;
}

/*
 * A false check stops the run: "check failed at grid point (i=1): MSG"
 * at the check, the compiled kernel's trap message (lower_check.c), so
 * both modes report a failure alike.
 */
static int
exec_check(Run *r, const CStmt *st)
{
	Val v;
	Buf b = {0};

	if (ieval(r, st->u.check.cond, &v))
		return -1;
	if (v.e[0].i)
		return 0;
	interp_point(r, &b);
	if (b.p)
		diag_error(r->d, st->loc, "check failed at grid point (%s): %s",
		    b.p, st->u.check.msg);
	else
		diag_error(r->d, st->loc, "check failed: %s", st->u.check.msg);
	buf_free(&b);
	return -1;
}

static int
exec(Run *r, const CStmt *st)
{
	Val v;

	switch (st->kind) {
	case CS_LET:
		return ieval(r, st->u.let.value, &r->slot[st->u.let.slot]);
	case CS_STORE:
		return exec_store(r, st);
	case CS_WHEN:
		if (ieval(r, st->u.when.cond, &v))
			return -1;
		return istmt_block(r, v.e[0].i ? &st->u.when.then :
		    &st->u.when.els);
	case CS_FOR:
		return exec_for(r, st);
	case CS_DMA_START: case CS_DMA_WAIT: case CS_DMA_COPY:
		return exec_dma(r, st);
	case CS_SEM_SIGNAL: case CS_SEM_WAIT:
		return exec_sem(r, st);
	case CS_EVAL:
		return ieval(r, st->u.value, &v);
	case CS_CHECK:
		return exec_check(r, st);
	default:
		bug("statement kind %d in a kernel", (int)st->kind);
	}
}

int
istmt_block(Run *r, const CBlock *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		if (exec(r, b->v[i]))
			return -1;
	return 0;
}

int
istmt_end_step(Run *r)
{
	int i;

	for (i = 0; i < r->dma.n; i++)
		if (!r->dma.v[i].done) {
			diag_error(r->d, r->dma.v[i].st->loc, "DMA started "
			    "here was not waited for in the same grid step");
			interp_note_point(r);
			return -1;
		}
	r->dma.n = 0;
	return 0;
}
