/*
 * semantics.c - dimension semantics.  Parallel axes must form a prefix of
 * the grid.  State carried from one grid step to another (scratch, or a
 * resident output block, read in a step before that step writes it) is
 * found by running the body abstractly at every grid point, with
 * conditions evaluated exactly where they depend only on the grid (past
 * an unknown one, what both branches write counts as written); the
 * axis along which the value flows "carries" state and must not be
 * parallel.  Also: reads of an output before the step writes it (a
 * warning), reads of scratch that no earlier step wrote, and outputs
 * whose block does not change along a parallel axis.
 *
 * Gives:    semantics_prefix(), semantics_check() (sema.h).
 * Tests:    tests/diag/sema-sem-*.pk, check_sema.c
 */
#include <stdlib.h>
#include <string.h>

#include "dsl/sema/sema.h"

void
semantics_prefix(Sema *S, CKernel *k)
{
	int i, seen_arb = -1;

	for (i = 0; i < k->naxis; i++) {
		if (k->axis[i].sem == DIM_ARBITRARY && seen_arb < 0)
			seen_arb = i;
		if (k->axis[i].sem != DIM_ARBITRARY && seen_arb >= 0) {
			se_error(S, k->axis[i].loc, "parallel axis '%s' follows "
			    "arbitrary axis '%s'", k->axis[i].name,
			    k->axis[seen_arb].name);
			se_note(S, k->axis[i].loc, "parallel axes must come "
			    "first in the grid: reorder the axes");
			return;
		}
	}
}

/* Per buffer (scratch s at s, operand o at nscratch + o). */
typedef struct Buffer {
	int must, may;		/* written in this step, surely / maybe */
	int64_t last_must;	/* linear step of the last sure write, -1 */
	int64_t first_may;	/* first step with any write, -1 */
	int reported;
	int warned;
} Buffer;

typedef struct Run {
	Sema *S;
	CKernel *k;
	Buffer *buf;
	int64_t pt[SEMA_MAXRANK + 1];
	int64_t step;
	int64_t *slot;
	uint8_t *known;
	int sure;		/* in a branch of a when whose condition is
				   unknown, reached surely: its writes count
				   for that branch (exec_either) */
} Run;

static const char *
bufname(Run *R, int b, const char **what)
{
	if (b < R->k->nscratch) {
		*what = "scratch";
		return R->k->scratch[b].name;
	}
	*what = "output";
	return R->k->op[b - R->k->nscratch].name;
}

static int
uses_unknown_slot(Run *R, const CExpr *e)
{
	int i;

	if (e->op == CX_SLOT && !R->known[e->u.slot])
		return 1;
	if (e->op == CX_LOAD)
		for (i = 0; i < e->u.load.sl.n; i++)
			if (e->u.load.sl.dim[i].dyn &&
			    uses_unknown_slot(R, e->u.load.sl.dim[i].dyn))
				return 1;
	for (i = 0; i < e->n; i++)
		if (uses_unknown_slot(R, e->arg[i]))
			return 1;
	return 0;
}

/* 1 true, 0 false, -1 unknown. */
static int
cond(Run *R, const CExpr *c)
{
	int64_t v;

	if (!c || uses_unknown_slot(R, c) ||
	    sema_eval_int(R->k, c, R->pt, R->slot, NULL, NULL, &v))
		return -1;
	return v != 0;
}

static int
buffer_of(const CKernel *k, CRef r)
{
	if (r.kind == CREF_SCRATCH)
		return k->scratch[r.index].dtype == DT_SEM ||
		    k->scratch[r.index].dtype == DT_DMA_SEM ? -1 : r.index;
	if (k->op[r.index].role != ROLE_OUT || k->op[r.index].mem == MEM_ANY)
		return -1;
	return k->nscratch + r.index;
}

/* The first axis on which grid steps a < b differ. */
static int
first_diff(const CKernel *k, int64_t a, int64_t b)
{
	int64_t pa[SEMA_MAXRANK + 1], pb[SEMA_MAXRANK + 1];
	int i;

	for (i = k->naxis - 1; i >= 0; i--) {
		pa[i] = a % k->axis[i].extent;
		a /= k->axis[i].extent;
		pb[i] = b % k->axis[i].extent;
		b /= k->axis[i].extent;
	}
	for (i = 0; i < k->naxis; i++)
		if (pa[i] != pb[i])
			return i;
	return -1;
}

static void
unlinear(const CKernel *k, int64_t n, int64_t *pt)
{
	int i;

	for (i = k->naxis - 1; i >= 0; i--) {
		pt[i] = n % k->axis[i].extent;
		n /= k->axis[i].extent;
	}
}

static void
carried(Run *R, int b, Loc loc, int64_t from)
{
	Sema *S = R->S;
	CKernel *k = R->k;
	int a = first_diff(k, from, R->step);
	int64_t q[SEMA_MAXRANK + 1];
	const char *what, *n = bufname(R, b, &what);

	if (a < 0)
		return;
	k->axis[a].carries = 1;
	if (k->axis[a].sem == DIM_ARBITRARY || R->buf[b].reported)
		return;
	R->buf[b].reported = 1;
	unlinear(k, from, q);
	se_error(S, loc, "%s '%s' carries state along parallel axis '%s'",
	    what, n, k->axis[a].name);
	se_note(S, loc, "at grid point %s '%s' is read before it is written "
	    "in that step; the value comes from grid point %s",
	    grid_point_str(S, k, R->pt), n, grid_point_str(S, k, q));
	se_note(S, k->axis[a].loc, "mark axis '%s' arbitrary in the "
	    "semantics clause", k->axis[a].name);
}

/* 1 if output op's block at grid step 'from' is the current step's
   (both known without SMEM tables): a read then sees what that step
   stored, as when a matmul sums into its resident output block. */
static int
same_block(Run *R, int op, int64_t from)
{
	int64_t q[SEMA_MAXRANK + 1], a[SEMA_MAXRANK], c[SEMA_MAXRANK];
	int d;

	if (from < 0)
		return 0;
	unlinear(R->k, from, q);
	if (sema_block_start(R->k, op, q, NULL, NULL, a) != SEMA_EVAL_OK ||
	    sema_block_start(R->k, op, R->pt, NULL, NULL, c) != SEMA_EVAL_OK)
		return 0;
	for (d = 0; d < R->k->op[op].shape.rank; d++)
		if (a[d] != c[d])
			return 0;
	return 1;
}

static void
read_buf(Run *R, int b, Loc loc, int definite)
{
	Buffer *B = &R->buf[b];
	const char *what, *n;
	int64_t from;

	if (B->must)
		return;
	n = bufname(R, b, &what);
	from = B->last_must >= 0 ? B->last_must : B->first_may;
	if (b >= R->k->nscratch && !B->warned && !B->may &&
	    !same_block(R, b - R->k->nscratch, from)) {
		B->warned = 1;
		se_warning(R->S, loc, "output '%s' is read before it is written "
		    "in this step", n);
		se_note(R->S, loc, "at grid point %s; an output block holds "
		    "only what earlier steps of its run stored",
		    grid_point_str(R->S, R->k, R->pt));
	}
	if (from < 0) {
		if (definite && !B->may && !B->reported) {
			B->reported = 1;
			se_error(R->S, loc, "%s '%s' is read at grid point %s "
			    "before any step writes it", what, n,
			    grid_point_str(R->S, R->k, R->pt));
			se_note(R->S, loc, "scratch and outputs start "
			    "uninitialised; write it first, e.g. under "
			    "when (%s == 0)", R->k->naxis ?
			    R->k->axis[R->k->naxis - 1].name : "true");
		}
		return;
	}
	carried(R, b, loc, from);
}

static void
reads(Run *R, const CExpr *e, int definite)
{
	int i, b;

	if (!e)
		return;
	for (i = 0; i < e->n; i++)
		reads(R, e->arg[i], definite);
	if (e->op != CX_LOAD)
		return;
	for (i = 0; i < e->u.load.sl.n; i++)
		reads(R, e->u.load.sl.dim[i].dyn, definite);
	if ((b = buffer_of(R->k, e->u.load.ref)) >= 0)
		read_buf(R, b, e->loc, definite);
}

static int
covers(const CKernel *k, const CPlace *p)
{
	DType t;
	Shape sh;
	int i;

	ref_type(k, p->ref, &t, &sh);
	for (i = 0; i < p->sl.n; i++)
		if (p->sl.dim[i].dyn || p->sl.dim[i].start != 0 ||
		    p->sl.dim[i].size != sh.d[i])
			return 0;
	return 1;
}

static void
write_buf(Run *R, const CPlace *p, int definite)
{
	int b = buffer_of(R->k, p->ref);

	if (b < 0)
		return;
	R->buf[b].may = 1;
	if (R->buf[b].first_may < 0)
		R->buf[b].first_may = R->step;
	if ((definite || R->sure) && covers(R->k, p))
		R->buf[b].must = 1;
}

static void exec(Run *R, const CBlock *blk, int definite);

/*
 * A when reached surely whose condition is not known here (an SMEM
 * table's value, a scalar computed from a vector): either branch may
 * run, so neither's reads are definite, but a buffer that both branches
 * surely write is surely written after the when.
 */
static void
exec_either(Run *R, const CStmt *s)
{
	int nb = R->k->nscratch + R->k->nop, sure = R->sure, i;
	int *m0 = xmalloc(sizeof *m0 * (size_t)(nb + 1)),
	    *mt = xmalloc(sizeof *mt * (size_t)(nb + 1));

	for (i = 0; i < nb; i++)
		m0[i] = R->buf[i].must;
	R->sure = 1;
	exec(R, &s->u.when.then, 0);
	for (i = 0; i < nb; i++) {
		mt[i] = R->buf[i].must;
		R->buf[i].must = m0[i];
	}
	exec(R, &s->u.when.els, 0);
	for (i = 0; i < nb; i++)
		R->buf[i].must = m0[i] || (mt[i] && R->buf[i].must);
	R->sure = sure;
	free(m0);
	free(mt);
}

static void
exec_let(Run *R, const CStmt *s, int definite)
{
	const CExpr *v = s->u.let.value;
	int64_t x;

	reads(R, v, definite);
	R->known[s->u.let.slot] = 0;
	if (v->shape.rank == 0 && !dtype_is_float(v->dtype) &&
	    !uses_unknown_slot(R, v) &&
	    sema_eval_int(R->k, v, R->pt, R->slot, NULL, NULL, &x) == 0) {
		R->slot[s->u.let.slot] = x;
		R->known[s->u.let.slot] = 1;
	}
}

static void
exec_stmt(Run *R, const CStmt *s, int definite)
{
	int c, sure;
	int64_t lo, hi;

	switch (s->kind) {
	case CS_LET:
		exec_let(R, s, definite);
		break;
	case CS_STORE:
		reads(R, s->u.store.value, definite);
		if (s->u.store.acc != NCXOP) {
			int b = buffer_of(R->k, s->u.store.place.ref);
			if (b >= 0)
				read_buf(R, b, s->loc, definite);
		}
		write_buf(R, &s->u.store.place, definite);
		break;
	case CS_WHEN:
		c = cond(R, s->u.when.cond);
		reads(R, s->u.when.cond, definite);
		if (c < 0 && (definite || R->sure)) {
			exec_either(R, s);
			break;
		}
		if (c != 0)
			exec(R, &s->u.when.then, definite && c == 1);
		if (c != 1)
			exec(R, &s->u.when.els, definite && c == 0);
		break;
	case CS_FOR:
		reads(R, s->u.loop.lo, definite);
		reads(R, s->u.loop.hi, definite);
		c = cond(R, s->u.loop.lo) >= 0 && !uses_unknown_slot(R,
		    s->u.loop.lo) && !uses_unknown_slot(R, s->u.loop.hi) &&
		    sema_eval_int(R->k, s->u.loop.lo, R->pt, R->slot, NULL,
		    NULL, &lo) == 0 && sema_eval_int(R->k, s->u.loop.hi, R->pt,
		    R->slot, NULL, NULL, &hi) == 0 && lo < hi;
		R->known[s->u.loop.slot] = 0;
		sure = R->sure;
		R->sure = R->sure && c;
		exec(R, &s->u.loop.body, definite && c);
		R->sure = sure;
		break;
	case CS_DMA_START:
	case CS_DMA_COPY:
		write_buf(R, &s->u.dma.dst, definite);
		break;
	case CS_EVAL:
	case CS_RETURN:
		reads(R, s->u.value, definite);
		break;
	case CS_CHECK:
		reads(R, s->u.check.cond, definite);
		break;
	default:
		break;
	}
}

static void
exec(Run *R, const CBlock *blk, int definite)
{
	int i;

	for (i = 0; i < blk->n; i++)
		exec_stmt(R, blk->v[i], definite);
}

static int
mentions_axis(const CExpr *e, int a)
{
	int i;

	if (!e)
		return 0;
	if ((e->op == CX_AXIS && e->u.axis == a) || e->op == CX_LOAD)
		return 1;
	for (i = 0; i < e->n; i++)
		if (mentions_axis(e->arg[i], a))
			return 1;
	return 0;
}

/* An output whose block ignores a parallel axis is written by every
 * step along it: on several cores those writes race. */
static void
output_parallel(Sema *S, CKernel *k)
{
	int i, a, d, dep;

	for (i = 0; i < k->nop; i++) {
		COperand *o = &k->op[i];
		if (o->role != ROLE_OUT || !o->blocked)
			continue;
		for (a = 0; a < k->naxis; a++) {
			if (k->axis[a].sem == DIM_ARBITRARY ||
			    k->axis[a].extent < 2)
				continue;
			for (dep = 0, d = 0; d < o->shape.rank; d++)
				dep |= mentions_axis(o->map[d], a);
			if (dep)
				continue;
			se_error(S, o->loc, "output '%s' has the same block at "
			    "every step of parallel axis '%s'", o->name,
			    k->axis[a].name);
			se_note(S, k->axis[a].loc, "steps of a parallel axis may "
			    "run on different cores; make '%s' arbitrary, or "
			    "use '%s' in the index map of '%s'", k->axis[a].name,
			    k->axis[a].name, o->name);
			break;
		}
	}
}

void
semantics_check(Sema *S, CKernel *k)
{
	Run R = { S, k, NULL, {0}, 0, NULL, NULL, 0 };
	int nb = k->nscratch + k->nop, i, before = S->d->nerror;

	output_parallel(S, k);
	if (S->d->nerror != before || grid_size(k) > SEMA_MAX_ENUM ||
	    k->naxis > SEMA_MAXRANK)
		return;
	R.buf = arena_alloc(S->a, sizeof *R.buf * (size_t)(nb + 1));
	R.slot = arena_alloc(S->a, sizeof *R.slot * (size_t)(k->nslot + 1));
	R.known = arena_alloc(S->a, (size_t)k->nslot + 1);
	for (i = 0; i < nb; i++)
		R.buf[i].last_must = R.buf[i].first_may = -1;
	do {
		for (i = 0; i < nb; i++)
			R.buf[i].must = R.buf[i].may = 0;
		exec(&R, &k->body, 1);
		for (i = 0; i < nb; i++)
			if (R.buf[i].must)
				R.buf[i].last_must = R.step;
		R.step++;
	} while (grid_next(k, R.pt));
}
