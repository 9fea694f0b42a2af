/*
 * plan.c - the pipeline plan of a checked kernel: for every grid step
 * and windowed operand, its block index, buffer slot and the copies that
 * start or are waited for (Pallas' top-level pipeline, pallas.md 7-8).
 *
 * Needs:    a checked kernel; optionally the SMEM tables' contents.
 * Gives:    mosaic_plan(), plan_cell() (plan.h).
 * Rules:
 *  - steps in lexicographic order, last axis fastest (as interpret mode
 *    runs them without --shuffle);
 *  - an operand gets one buffer slot if it asks for 'buffers 1' or its
 *    index is the same at every step (decided without the tables, so
 *    the layout does not depend on them), else two;
 *  - inputs, two slots: the prologue starts step 0's copy into slot 0;
 *    before the body of step s, the copy of step s+1's block starts into
 *    the other slot if its index differs from step s's, then step s's
 *    copy is waited for if it was started; the slot flips at each
 *    change.  One slot: the copy starts and is waited for right before
 *    the body of the step whose index changed (step 0's starts in the
 *    prologue);
 *  - outputs: after the body of step s, if step s+1 maps another block
 *    (or s is the last step) the block is written back from its slot;
 *    with two slots the previous write-back (on the other slot) is then
 *    waited for and the last one in the epilogue; with one slot it is
 *    waited for at once.  A block written back before may only be
 *    entered again by an output declared revisitable (it is read back);
 *  - with unknown tables, a change of a table-dependent index is
 *    decided at run time: those events are marked cond.
 * Tests:    tests/unit/check_pipeline.c
 */
#include <string.h>

#include "backend/mosaic/plan.h"

typedef struct Tabs {
	const CKernel *k;
	const int32_t *const *t;
} Tabs;

/* Pending write-back of a two-slot output: has 1 yes, -1 maybe. */
typedef struct Pend {
	int has;
	int slot;
	int64_t step;
} Pend;

typedef struct Pl {
	const CKernel *k;
	MosaicPlan *p;
	Tabs tabs;
	Diag *d;
	Arena *a;
	int maxr;		/* largest operand rank (>= 1) */
	int64_t *pt, *npt;	/* this step's and the next step's point */
	int64_t *idx, *nidx;	/* [op * maxr + d] at pt, npt */
	uint8_t *known, *nknown;
	int8_t *chg;		/* this step's change per op */
	int8_t *slot;		/* this step's slot per op */
	Pend *pend;
	uint8_t **visited;	/* outputs: blocks written back, or NULL */
	int64_t (*nkey)[SEMA_MAXRANK];
	VEC(PlanEv) ev, pro, epi;
} Pl;

static int
table(void *ctx, int op, const int64_t *idx, int64_t *v)
{
	const Tabs *T = ctx;
	const COperand *o = &T->k->op[op];
	int64_t at = 0;
	int d;

	if (!T->t || !T->t[op])
		return -1;
	for (d = 0; d < o->shape.rank; d++) {
		if (idx[d] < 0 || idx[d] >= o->shape.d[d])
			return -1;
		at = at * o->shape.d[d] + idx[d];
	}
	*v = T->t[op][at];
	return 0;
}

static int
windowed(const COperand *o)
{
	return o->role != ROLE_SMEM_TABLE && o->mem != MEM_ANY;
}

static int
next_point(const CKernel *k, int64_t *pt)
{
	int i;

	for (i = k->naxis - 1; i >= 0; i--) {
		if (++pt[i] < k->axis[i].extent)
			return 1;
		pt[i] = 0;
	}
	return 0;
}

static void
point_str(Buf *b, const CKernel *k, const int64_t *pt)
{
	int i;

	for (i = 0; i < k->naxis; i++)
		buf_printf(b, "%s%s=%lld", i ? ", " : "", k->axis[i].name,
		    (long long)pt[i]);
}

static void
index_str(Buf *b, const COperand *o, const int64_t *idx)
{
	int d;

	buf_putc(b, '(');
	for (d = 0; d < o->shape.rank; d++)
		buf_printf(b, "%s%lld", d ? ", " : "", (long long)idx[d]);
	buf_putc(b, ')');
}

/* A note naming the grid point, after an error. */
static void
note_point(Pl *P, const int64_t *pt)
{
	Buf b = {0};
	Loc none = {0};

	point_str(&b, P->k, pt);
	diag_note(P->d, none, "at grid point (%s) of kernel '%s'",
	    b.p ? b.p : "", P->k->name);
	buf_free(&b);
}

/* Checks a known index against the array, as interpret mode does: a
   block that runs past an end is copied clipped (pipeline.c). */
static int
check_range(Pl *P, int op, const int64_t *pt, const int64_t *idx, int d)
{
	const COperand *o = &P->k->op[op];
	int64_t bd = o->block.d[d];
	int64_t start = o->element ? idx[d] : idx[d] * bd;
	Buf b = {0};

	if ((o->element || start >= 0) && start > -bd &&
	    start < o->shape.d[d])
		return 0;
	index_str(&b, o, idx);
	diag_error(P->d, o->map && o->map[d] ? o->map[d]->loc : o->loc,
	    "block %s %s of '%s' is out of range: dimension %d holds %lld "
	    "elements", o->element ? "at element" : "index", b.p, o->name, d,
	    (long long)o->shape.d[d]);
	buf_free(&b);
	note_point(P, pt);
	return -1;
}

/* Operand op's index map at pt into idx/known; -1 after an error. */
static int
eval_op(Pl *P, int op, const int64_t *pt, int64_t *idx, uint8_t *known)
{
	const COperand *o = &P->k->op[op];
	int d, rc;

	*known = 0;
	for (d = 0; d < o->shape.rank; d++) {
		idx[d] = 0;
		rc = SEMA_EVAL_OK;
		if (o->map && o->map[d])
			rc = sema_eval_int(P->k, o->map[d], pt, NULL, table,
			    &P->tabs, &idx[d]);
		if (rc == SEMA_EVAL_ERROR) {
			diag_error(P->d, o->map[d]->loc, "the index map of "
			    "'%s' cannot be evaluated (division by zero or "
			    "an SMEM table index out of range)", o->name);
			note_point(P, pt);
			return -1;
		}
		if (rc != SEMA_EVAL_OK)
			continue;
		*known |= (uint8_t)(1u << d);
		if (check_range(P, op, pt, idx, d))
			return -1;
	}
	return 0;
}

static int
eval_all(Pl *P, const int64_t *pt, int64_t *idx, uint8_t *known)
{
	int i;

	for (i = 0; i < P->k->nop; i++)
		if (P->p->op[i].windowed &&
		    eval_op(P, i, pt, idx + i * P->maxr, &known[i]))
			return -1;
	return 0;
}

/* 1: blocks differ, 0: equal, -1: unknown. */
static int
differ(int rank, const int64_t *a, uint8_t ka, const int64_t *b,
    uint8_t kb)
{
	int d, unknown = 0;

	for (d = 0; d < rank; d++) {
		if (!(ka & kb & (1u << d)))
			unknown = 1;
		else if (a[d] != b[d])
			return 1;
	}
	return unknown ? -1 : 0;
}

static uint8_t
all_known(int rank)
{
	return (uint8_t)((1u << rank) - 1);
}

static void
setup_keys(Pl *P, int op)
{
	const COperand *o = &P->k->op[op];
	int64_t total = 1;
	int d;

	for (d = 0; d < o->shape.rank; d++) {
		int64_t b = o->block.d[d], n = o->shape.d[d];
		P->nkey[op][d] = o->element ? n + b - 1 : (n + b - 1) / b;
		if (total > ((int64_t)1 << 26) / P->nkey[op][d])
			return;		/* too many blocks to track */
		total *= P->nkey[op][d];
	}
	P->visited[op] = arena_alloc(P->a, (size_t)total);
}

static int64_t
block_key(Pl *P, int op, const int64_t *idx)
{
	const COperand *o = &P->k->op[op];
	int64_t key = 0;
	int d;

	for (d = 0; d < o->shape.rank; d++)
		key = key * P->nkey[op][d] +
		    (o->element ? idx[d] + o->block.d[d] - 1 : idx[d]);
	return key;
}

static void
setup_ops(Pl *P)
{
	const CKernel *k = P->k;
	int i;

	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		PlanOp *po = &P->p->op[i];
		int d;
		if (o->role == ROLE_SMEM_TABLE)
			P->p->tables++;
		if (o->shape.rank > P->maxr)
			P->maxr = o->shape.rank;
		if (!(po->windowed = windowed(o)))
			continue;
		for (d = 0; d < o->shape.rank; d++)
			po->dynamic |= o->map && sema_reads_table(o->map[d]);
		po->constant = sema_map_constant(k, o);
		po->nbuf = sema_slots_of(o, po->constant);
		if (o->role == ROLE_OUT)
			setup_keys(P, i);
	}
}

static void
push(Pl *P, int where, PlanEvKind kind, int op, int slot, int64_t step,
    int cond)
{
	PlanEv e = { kind, op, slot, step, cond };

	if (cond)
		P->p->concrete = 0;
	if (where < 0)
		vec_push(P->a, &P->pro, e);
	else if (where > 0)
		vec_push(P->a, &P->epi, e);
	else
		vec_push(P->a, &P->ev, e);
}

/* Prologue: tables in, then step 0's input blocks. */
static void
prologue(Pl *P)
{
	const CKernel *k = P->k;
	int i;

	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE)
			push(P, -1, PE_TABLE_START, i, 0, -1, 0);
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE)
			push(P, -1, PE_TABLE_WAIT, i, 0, -1, 0);
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && k->op[i].role == ROLE_IN)
			push(P, -1, PE_IN_START, i, 0, 0, 0);
}

static int
other(int slot)
{
	return slot < 0 ? -1 : 1 - slot;
}

/* Events of input i before the body of step s; nchg: step s+1's change. */
static void
input_pre(Pl *P, int i, int64_t s, int nchg)
{
	int slot = P->slot[i], chg = P->chg[i];

	if (P->p->op[i].nbuf == 2) {
		if (s + 1 < P->p->nstep && nchg)
			push(P, 0, PE_IN_START, i, other(slot), s + 1,
			    nchg < 0);
		if (chg)
			push(P, 0, PE_IN_WAIT, i, slot, s, chg < 0);
		return;
	}
	if (s > 0 && chg)
		push(P, 0, PE_IN_START, i, 0, s, chg < 0);
	if (chg)
		push(P, 0, PE_IN_WAIT, i, 0, s, chg < 0);
}

/* Output i enters a block at step s: revisit checks and read-back. */
static int
output_enter(Pl *P, int i, int64_t s, PlanCell *c)
{
	const COperand *o = &P->k->op[i];
	const int64_t *idx = P->idx + i * P->maxr;
	int rv = -1;
	Buf b = {0};

	if (P->chg[i] > 0 && P->known[i] == all_known(o->shape.rank) &&
	    P->visited[i])
		rv = P->visited[i][block_key(P, i, idx)];
	c->revisit = (int8_t)rv;
	if (rv == 1 && !o->revisit_any) {
		index_str(&b, o, idx);
		diag_error(P->d, o->loc, "output '%s' revisits block %s, "
		    "which was written back at an earlier grid step: writes "
		    "to one output block must happen in consecutive steps",
		    o->name, b.p);
		buf_free(&b);
		note_point(P, P->pt);
		return -1;
	}
	if (o->revisit_any && rv != 0) {
		push(P, 0, PE_IN_START, i, 0, s, rv < 0);
		push(P, 0, PE_IN_WAIT, i, 0, s, rv < 0);
	}
	return 0;
}

/* Events of output i after the body of step s (nchg as input_pre). */
static void
output_post(Pl *P, int i, int64_t s, int nchg)
{
	const COperand *o = &P->k->op[i];
	const int64_t *idx = P->idx + i * P->maxr;
	int slot = P->slot[i], c = s + 1 < P->p->nstep ? nchg : 1;
	Pend *pd = &P->pend[i];

	if (!c)
		return;
	push(P, 0, PE_OUT_START, i, slot, s, c < 0);
	if (c > 0 && P->known[i] == all_known(o->shape.rank) &&
	    P->visited[i])
		P->visited[i][block_key(P, i, idx)] = 1;
	if (P->p->op[i].nbuf == 1) {
		push(P, 0, PE_OUT_WAIT, i, 0, s, c < 0);
		return;
	}
	if (pd->has)
		push(P, 0, PE_OUT_WAIT, i, other(slot), pd->step,
		    c < 0 || pd->has < 0);
	if (c > 0)
		*pd = (Pend){ 1, slot, s };
	else if (pd->has)
		*pd = (Pend){ pd->has, -1, -1 };
	else
		*pd = (Pend){ -1, slot, s };
}

static void
epilogue(Pl *P)
{
	int i;

	for (i = 0; i < P->k->nop; i++)
		if (P->pend[i].has)
			push(P, 1, PE_OUT_WAIT, i, P->pend[i].slot,
			    P->pend[i].step, P->pend[i].has < 0);
}

/* Fills step s's cells (indices of this step are in P->idx). */
static void
fill_cells(Pl *P, int64_t s)
{
	const CKernel *k = P->k;
	PlanStep *st = &P->p->step[s];
	int i;

	st->pt = arena_alloc(P->a, sizeof(int64_t) * (size_t)(k->naxis + 1));
	memcpy(st->pt, P->pt, sizeof(int64_t) * (size_t)k->naxis);
	for (i = 0; i < k->nop; i++) {
		PlanCell *c = &P->p->cell[s * k->nop + i];
		int r = k->op[i].shape.rank;
		if (!P->p->op[i].windowed)
			continue;
		c->idx = arena_alloc(P->a, sizeof(int64_t) * (size_t)(r + 1));
		memcpy(c->idx, P->idx + i * P->maxr, sizeof(int64_t) *
		    (size_t)r);
		c->known = P->known[i];
		c->change = P->chg[i];
		c->slot = P->slot[i];
	}
}

/* This step's change and slot per operand, from the previous step's. */
static void
advance(Pl *P, int64_t s, const int8_t *nchg)
{
	int i;

	for (i = 0; i < P->k->nop; i++) {
		if (!P->p->op[i].windowed)
			continue;
		if (s == 0) {
			P->chg[i] = 1;
			P->slot[i] = 0;
			continue;
		}
		P->chg[i] = nchg[i];
		if (P->p->op[i].nbuf == 1 || nchg[i] == 0)
			continue;
		P->slot[i] = (int8_t)(nchg[i] > 0 ? other(P->slot[i]) : -1);
	}
}

static void
swap_next(Pl *P)
{
	int64_t *t = P->pt, *ti = P->idx;
	uint8_t *tk = P->known;

	P->pt = P->npt;
	P->npt = t;
	P->idx = P->nidx;
	P->nidx = ti;
	P->known = P->nknown;
	P->nknown = tk;
}

static int
one_step(Pl *P, int64_t s, int8_t *nchg)
{
	const CKernel *k = P->k;
	PlanStep *st = &P->p->step[s];
	int i;

	memset(nchg, 0, (size_t)k->nop + 1);
	if (s + 1 < P->p->nstep) {
		memcpy(P->npt, P->pt, sizeof(int64_t) * (size_t)k->naxis);
		next_point(k, P->npt);
		if (eval_all(P, P->npt, P->nidx, P->nknown))
			return -1;
		for (i = 0; i < k->nop; i++)
			if (P->p->op[i].windowed)
				nchg[i] = (int8_t)differ(k->op[i].shape.rank,
				    P->idx + i * P->maxr, P->known[i],
				    P->nidx + i * P->maxr, P->nknown[i]);
	}
	fill_cells(P, s);
	st->pre = P->ev.n;
	for (i = 0; i < k->nop; i++) {
		if (!P->p->op[i].windowed)
			continue;
		if (k->op[i].role == ROLE_IN)
			input_pre(P, i, s, nchg[i]);
		else if (P->chg[i] && output_enter(P, i, s,
		    &P->p->cell[s * k->nop + i]))
			return -1;
	}
	st->npre = P->ev.n - st->pre;
	st->post = P->ev.n;
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && k->op[i].role == ROLE_OUT)
			output_post(P, i, s, nchg[i]);
	st->npost = P->ev.n - st->post;
	return 0;
}

static int
run_steps(Pl *P)
{
	const CKernel *k = P->k;
	int8_t *nchg = arena_alloc(P->a, (size_t)k->nop + 1);
	int64_t s;

	P->p->step = arena_alloc(P->a, sizeof(PlanStep) *
	    (size_t)P->p->nstep);
	P->p->cell = arena_alloc(P->a, sizeof(PlanCell) *
	    (size_t)(P->p->nstep * k->nop + 1));
	memset(P->pt, 0, sizeof(int64_t) * (size_t)(k->naxis + 1));
	if (eval_all(P, P->pt, P->idx, P->known))
		return -1;
	for (s = 0; s < P->p->nstep; s++) {
		advance(P, s, nchg);
		if (one_step(P, s, nchg))
			return -1;
		swap_next(P);
	}
	return 0;
}

/* Copy counts per operand from the events (-1 if any is cond). */
static void
count(MosaicPlan *p, const PlanEv *e, int n)
{
	int j;

	for (j = 0; j < n; j++) {
		PlanOp *o = &p->op[e[j].op];
		int64_t *c = e[j].kind == PE_IN_START ? &o->copies_in :
		    e[j].kind == PE_OUT_START ? &o->copies_out : NULL;
		if (!c || *c < 0)
			continue;
		*c = e[j].cond ? -1 : *c + 1;
	}
}

static void
finish(Pl *P)
{
	MosaicPlan *p = P->p;
	int i;

	p->ev = P->ev.v;
	p->nev = P->ev.n;
	p->pro = P->pro.v;
	p->npro = P->pro.n;
	p->epi = P->epi.v;
	p->nepi = P->epi.n;
	if (!p->enumerated) {
		p->concrete = 0;
		for (i = 0; i < P->k->nop; i++)
			p->op[i].copies_in = p->op[i].copies_out = -1;
		return;
	}
	count(p, p->pro, p->npro);
	count(p, p->ev, p->nev);
	count(p, p->epi, p->nepi);
}

static int64_t
grid_steps(const CKernel *k)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < k->naxis; i++) {
		if (n > INT64_MAX / 2 / (k->axis[i].extent + 1))
			return INT64_MAX;
		n *= k->axis[i].extent;
	}
	return n;
}

static void
init(Pl *P, const CKernel *k, const int32_t *const *tables, Diag *d,
    Arena *a)
{
	size_t na = (size_t)k->naxis + 1, no = (size_t)k->nop + 1;

	memset(P, 0, sizeof *P);
	P->k = k;
	P->d = d;
	P->a = a;
	P->tabs.k = k;
	P->tabs.t = tables;
	P->maxr = 1;
	P->p = arena_alloc(a, sizeof *P->p);
	P->p->k = k;
	P->p->nstep = grid_steps(k);
	P->p->enumerated = P->p->nstep <= PLAN_MAX_STEPS;
	P->p->concrete = 1;
	P->p->op = arena_alloc(a, sizeof(PlanOp) * no);
	P->pt = arena_alloc(a, sizeof(int64_t) * na);
	P->npt = arena_alloc(a, sizeof(int64_t) * na);
	P->visited = arena_alloc(a, sizeof(uint8_t *) * no);
	P->nkey = arena_alloc(a, sizeof *P->nkey * no);
	P->pend = arena_alloc(a, sizeof(Pend) * no);
	P->chg = arena_alloc(a, no);
	P->slot = arena_alloc(a, no);
	P->known = arena_alloc(a, no);
	P->nknown = arena_alloc(a, no);
}

MosaicPlan *
mosaic_plan(const CKernel *k, const int32_t *const *tables, Diag *d,
    Arena *a)
{
	Pl P;
	int i;

	init(&P, k, tables, d, a);
	setup_ops(&P);
	P.idx = arena_alloc(a, sizeof(int64_t) * (size_t)(k->nop * P.maxr + 1));
	P.nidx = arena_alloc(a, sizeof(int64_t) *
	    (size_t)(k->nop * P.maxr + 1));
	prologue(&P);
	if (P.p->enumerated) {
		if (run_steps(&P))
			return NULL;
		epilogue(&P);
	} else {
		for (i = 0; i < k->nop; i++)
			if (P.p->op[i].windowed && k->op[i].role == ROLE_OUT &&
			    P.p->op[i].nbuf == 2)
				push(&P, 1, PE_OUT_WAIT, i, -1, -1, 1);
	}
	for (i = 0; i < k->nop; i++)
		P.p->op[i].copies_in = P.p->op[i].copies_out = 0;
	finish(&P);
	return P.p;
}

const PlanCell *
plan_cell(const MosaicPlan *p, int64_t s, int op)
{
	if (!p->enumerated || s < 0 || s >= p->nstep || op < 0 ||
	    op >= p->k->nop)
		bug("plan_cell(%lld, %d) outside the plan", (long long)s, op);
	return &p->cell[s * p->k->nop + op];
}
