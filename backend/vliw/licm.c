/*
 * licm.c - loop-invariant code motion on LLO: hoists the invariant pure
 * ops of single-block loops into the block before the loop, before
 * scheduling, on virtual registers.
 *
 * Gives:    vliw_licm (vliw.h).
 * Loops:    a block b > 0 whose last op is a br to b, with no other
 *           control op, entered only by falling through from b - 1 (no
 *           other op in the function branches to b, except a final br of
 *           b - 1).  b - 1 must fall through: its last op is not a control
 *           op, or is a guarded br (the zero-trip test isel puts before a
 *           loop).  The end of b - 1 (before such a br) is the preheader.
 * Hoisted:  a pure op (unit SALU or VALU, no MACH_F_* flag, unguarded, no
 *           trap possible: no memory access, no division, no FIFO) whose
 *           source registers are not written in b, whose dest is written
 *           exactly once in the function, is read nowhere outside b, and
 *           is not read in b before the op.  Hoisted ops keep their order
 *           and their whole LIns (loc and any other field).  Hoisting an op
 *           makes its dest unwritten in b, so its users may follow: the
 *           walk repeats until nothing moves.
 * Why it is right: b is entered only from the preheader, so each time b
 *           starts, the op's sources hold what they held at the end of
 *           b - 1 and keep it through b (not written in b): the op computes
 *           the same value on every trip, and the hoisted copy computes it
 *           once on the way in.  Its dest is written only by it and read
 *           only in b after it (or, after the loop body's reads, by ops
 *           hoisted later, which run after it in the preheader), so every
 *           read sees the same value as before.  When b - 1's final br
 *           skips the loop the hoisted op still runs: it cannot trap and
 *           its dest is read nowhere else, so nothing changes.
 */
#include <string.h>

#include "backend/vliw/vliw.h"

static const int srcfld[3] = { FLD_A, FLD_B, FLD_C };

static int
src(const LIns *in, int i)
{
	return i == 0 ? in->a : i == 1 ? in->b : in->c;
}

/* Runs body with cls and r set to each register in reads (its source
   fields, then its guard predicate). */
#define FOR_READS(in, cls, r, body) do { \
	int i_; \
	for (i_ = 0; i_ < 3; i_++) { \
		LClass cls = llo_field_class((in)->op, srcfld[i_]); \
		int r = src((in), i_); \
		if (cls != LC_NONE) { body; } \
	} \
	{ LClass cls = LC_P; int r = (in)->guard; body; } \
} while (0)

typedef struct Licm {
	LFunc *f;
	int *nwrite[NLCLASS];	/* writes in the function */
	int *nread[NLCLASS];	/* reads in the function */
	int *wb[NLCLASS];	/* writes in the loop block */
	int *rb[NLCLASS];	/* reads in the loop block */
	char *seen[NLCLASS];	/* read earlier in this walk of the block */
	VEC(LIns) out;		/* the ops hoisted from the loop block */
} Licm;


static int
is_ctrl(const LIns *in)
{
	return (mach_opinfo[in->op].flags & MACH_F_CTRL) != 0;
}

/* 1 if block b is a single-block loop as the header says. */
static int
loop_block(const LFunc *f, int b)
{
	const LBlk *bk = &f->blk.v[b], *pre;
	const LIns *last;
	int x, i;

	if (b == 0 || bk->ins.n == 0)
		return 0;
	last = &bk->ins.v[bk->ins.n - 1];
	if (last->op != OP_BR || last->target != b)
		return 0;
	for (i = 0; i + 1 < bk->ins.n; i++)
		if (is_ctrl(&bk->ins.v[i]))
			return 0;
	pre = &f->blk.v[b - 1];
	if (pre->ins.n) {	/* falls through, and is no loop itself */
		last = &pre->ins.v[pre->ins.n - 1];
		if (is_ctrl(last) && (last->op != OP_BR ||
		    (!last->guard && !last->gneg) || last->target == b - 1))
			return 0;
	}
	for (x = 0; x < f->blk.n; x++)
		for (i = 0; i < f->blk.v[x].ins.n; i++) {
			if (f->blk.v[x].ins.v[i].target != b || x == b ||
			    (x == b - 1 && i == f->blk.v[x].ins.n - 1))
				continue;
			return 0;
		}
	return 1;
}

static void
count_function(Licm *L)
{
	int b, i;

	for (b = 0; b < L->f->blk.n; b++)
		for (i = 0; i < L->f->blk.v[b].ins.n; i++) {
			const LIns *in = &L->f->blk.v[b].ins.v[i];
			LClass dc = llo_field_class(in->op, FLD_D);
			if (dc != LC_NONE)
				L->nwrite[dc][in->d]++;
			FOR_READS(in, c, r, L->nread[c][r]++);
		}
}

/* Adds (k 1) or clears (k 0) the block counters of op in. */
static void
count_op(Licm *L, const LIns *in, int k)
{
	LClass dc = llo_field_class(in->op, FLD_D);

	if (dc != LC_NONE) {
		L->wb[dc][in->d] = k ? L->wb[dc][in->d] + 1 : 0;
		L->seen[dc][in->d] = 0;
	}
	FOR_READS(in, c, r, {
		L->rb[c][r] = k ? L->rb[c][r] + 1 : 0;
		L->seen[c][r] = 0;
	});
}

/* 1 if in (in the loop block, not yet marked read) may be hoisted. */
static int
invariant(const Licm *L, const LIns *in)
{
	LClass dc = llo_field_class(in->op, FLD_D);
	int ok = 1;

	if (!llo_pure(in) || L->nwrite[dc][in->d] != 1 || L->seen[dc][in->d] ||
	    L->nread[dc][in->d] != L->rb[dc][in->d])
		return 0;
	FOR_READS(in, c, r, if (L->wb[c][r]) ok = 0);
	return ok;
}

/* One walk over loop block bk: moves the invariant ops to L->out. */
static int
walk(Licm *L, LBlk *bk)
{
	int i, n = 0, moved = 0;

	for (i = 0; i < bk->ins.n; i++) {
		LIns *in = &bk->ins.v[i];
		if (invariant(L, in)) {
			LClass dc = llo_field_class(in->op, FLD_D);
			L->wb[dc][in->d] = 0;
			vec_push(L->f->arena, &L->out, *in);
			moved++;
			continue;
		}
		FOR_READS(in, c, r, L->seen[c][r] = 1);
		bk->ins.v[n++] = *in;
	}
	bk->ins.n = n;
	for (i = 0; i < bk->ins.n; i++)
		count_op(L, &bk->ins.v[i], 0);
	for (i = 0; i < bk->ins.n; i++)
		count_op(L, &bk->ins.v[i], 1);
	return moved;
}

/* Inserts L->out at the end of pre, before a final control op. */
static void
place(Licm *L, LBlk *pre)
{
	int at = pre->ins.n, i, n = L->out.n;
	LIns dummy;

	if (at && is_ctrl(&pre->ins.v[at - 1]))
		at--;
	memset(&dummy, 0, sizeof dummy);
	for (i = 0; i < n; i++)
		vec_push(L->f->arena, &pre->ins, dummy);
	memmove(&pre->ins.v[at + n], &pre->ins.v[at],
	    sizeof(LIns) * (size_t)(pre->ins.n - n - at));
	memcpy(&pre->ins.v[at], L->out.v, sizeof(LIns) * (size_t)n);
}

static int
loop(Licm *L, int b)
{
	LBlk *bk = &L->f->blk.v[b];
	int i, k, n = 0;

	L->out.n = 0;
	for (i = 0; i < bk->ins.n; i++)
		count_op(L, &bk->ins.v[i], 1);
	while ((k = walk(L, bk)) > 0)
		n += k;
	for (i = 0; i < bk->ins.n; i++)
		count_op(L, &bk->ins.v[i], 0);
	for (i = 0; i < L->out.n; i++)
		count_op(L, &L->out.v[i], 0);
	if (n)
		place(L, &L->f->blk.v[b - 1]);
	return n;
}

int
vliw_licm(LFunc *f)
{
	Licm L;
	int b, c, n = 0;

	memset(&L, 0, sizeof L);
	L.f = f;
	for (c = 0; c < NLCLASS; c++) {
		size_t k = (size_t)f->nreg[c] + 1;
		L.nwrite[c] = arena_alloc(f->arena, k * sizeof(int));
		L.nread[c] = arena_alloc(f->arena, k * sizeof(int));
		L.wb[c] = arena_alloc(f->arena, k * sizeof(int));
		L.rb[c] = arena_alloc(f->arena, k * sizeof(int));
		L.seen[c] = arena_alloc(f->arena, k);
	}
	count_function(&L);
	for (b = 1; b < f->blk.n; b++)
		if (loop_block(f, b))
			n += loop(&L, b);
	return n;
}
