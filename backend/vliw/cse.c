/*
 * cse.c - local common-subexpression elimination on LLO (value numbering
 * within a block), before scheduling, on virtual registers.
 *
 * Gives:    vliw_cse (vliw.h).
 * Pure op:  a scalar or vector ALU op (unit SALU or VALU) with no
 *           MACH_F_* flag (no memory, control, FIFO, DMA, wait, trace),
 *           unguarded, writing a register (field D) that it does not also
 *           read.  Such an op's result depends on its fields only: op, the
 *           source registers' values, x and imm.
 * Loads:    an unguarded vld also depends on the memory it reads:
 *           it stays in the table until an op vliw_mem_dep orders after
 *           it (a store whose range may overlap its own, a DMA, a wait or
 *           sync; LIns.mlo/mhi), so a chunk's leaf loaded for several uses
 *           is loaded once.  A DMA still in flight into what it reads
 *           would be a race the simulator traps, waits end the entry.
 * Method:   blocks in layout order; for each block a table of the pure
 *           ops and loads seen so far whose sources and dest are still
 *           unchanged.
 *           An op R identical (op, a, b, c, x, imm) to a table entry K is
 *           removed and its dest d2 renamed everywhere to K's dest d1, when
 *           d1 and d2 are each written exactly once in the function and d2
 *           is not read in the block between K and R.  Every write of a
 *           register removes the table entries that read it (or write it).
 *           Table entries end at a control op.  Renames are applied to the
 *           ops as the walk reaches them and to the whole function at the
 *           end (d1 is never renamed itself, so one level suffices).
 * Why it is right (also with loops and back edges): K and R lie in one
 *           straight-line stretch of one block (no control op between),
 *           and no source of R is written between them, so each time R
 *           runs it computes the value K computed just before in the same
 *           pass through the block (for loads: from the same memory).  d1 is written only by K and d2 only
 *           by R.  Consider any point of any execution.  If neither has
 *           run yet, d2 is undefined and reading d1 instead is as good.
 *           Otherwise the last K and the last R ran in one pass through
 *           the block (K always reaches R), so d1 == d2 holds everywhere
 *           except strictly between a K and the R that follows it: that
 *           is inside the block between the two positions, where d2 still
 *           holds the previous pass's value (a loop-carried read).  Reads
 *           of d2 there are exactly what the "not read between" rule
 *           refuses.  Reads of d2 at or before K's position in the block,
 *           in other blocks, in later loop trips or after the loop all see
 *           d1 == d2.  Registers written more than once (loop-carried
 *           values, yields, guarded writes) never take part.
 */
#include <string.h>

#include "backend/vliw/vliw.h"

static const int srcfld[3] = { FLD_A, FLD_B, FLD_C };

/* A table entry: a pure op, or an unguarded vector load whose memory is
   unchanged since.  (Scalar loads are left alone: they read the
   pipeline's state words, and keeping their values longer costs
   predicate and scalar registers where reloading is cheap.) */
static int
entry_op(const LIns *in)
{
	if (llo_pure(in))
		return 1;
	return in->op == OP_VLD && !in->guard && !in->gneg;
}

static int *
fldp(LIns *in, int fld)
{
	switch (fld) {
	case FLD_A: return &in->a;
	case FLD_B: return &in->b;
	case FLD_C: return &in->c;
	default: return &in->d;
	}
}


typedef struct Cse {
	LFunc *f;
	int *nwrite[NLCLASS];	/* writes per register */
	int *ren[NLCLASS];	/* rename: 0, or the register to read */
	long *lastread[NLCLASS];	/* walk index of the last read, -1 */
	VEC(int) avail;		/* the block's table: op indices */
	long base;		/* walk index of the block's op 0 */
} Cse;

static void
count_writes(Cse *C)
{
	int b, i;

	for (b = 0; b < C->f->blk.n; b++)
		for (i = 0; i < C->f->blk.v[b].ins.n; i++) {
			const LIns *in = &C->f->blk.v[b].ins.v[i];
			LClass c = llo_field_class(in->op, FLD_D);
			if (c != LC_NONE)
				C->nwrite[c][in->d]++;
		}
}

/* Applies the renames to the source fields and the guard of in. */
static void
rename_srcs(Cse *C, LIns *in)
{
	int i, *r;
	LClass c;

	for (i = 0; i < 3; i++) {
		if ((c = llo_field_class(in->op, srcfld[i])) == LC_NONE)
			continue;
		r = fldp(in, srcfld[i]);
		if (C->ren[c][*r])
			*r = C->ren[c][*r];
	}
	if (C->ren[LC_P][in->guard])
		in->guard = C->ren[LC_P][in->guard];
}

static void
note_reads(Cse *C, const LIns *in, long at)
{
	int i;
	LClass c;

	for (i = 0; i < 3; i++)
		if ((c = llo_field_class(in->op, srcfld[i])) != LC_NONE)
			C->lastread[c][*fldp((LIns *)in, srcfld[i])] = at;
	C->lastread[LC_P][in->guard] = at;
}

static int
same(const LIns *x, const LIns *y)
{
	return x->op == y->op && x->a == y->a && x->b == y->b &&
	    x->c == y->c && x->x == y->x && x->imm == y->imm;
}

/* 1 if in reads register r of class c (sources or guard). */
static int
reads(const LIns *in, LClass c, int r)
{
	int i;

	for (i = 0; i < 3; i++)
		if (llo_field_class(in->op, srcfld[i]) == c &&
		    *fldp((LIns *)in, srcfld[i]) == r)
			return 1;
	return c == LC_P && in->guard == r;
}

/* Drops the table entries that read or write register r of class c. */
static void
kill(Cse *C, const LBlk *bk, LClass c, int r)
{
	int i, n = 0;

	for (i = 0; i < C->avail.n; i++) {
		const LIns *k = &bk->ins.v[C->avail.v[i]];
		if (reads(k, c, r) ||
		    (llo_field_class(k->op, FLD_D) == c && k->d == r))
			continue;
		C->avail.v[n++] = C->avail.v[i];
	}
	C->avail.n = n;
}

/* Drops the loads whose memory in may write (a store that may overlap,
   a DMA, a wait or sync: vliw_mem_dep orders it after the load). */
static void
kill_loads(Cse *C, const LBlk *bk, const LIns *in)
{
	int i, n = 0;

	for (i = 0; i < C->avail.n; i++) {
		const LIns *k = &bk->ins.v[C->avail.v[i]];
		if (!llo_pure(k) && vliw_mem_dep(C->f->mp, k, in) >= 0)
			continue;
		C->avail.v[n++] = C->avail.v[i];
	}
	C->avail.n = n;
}

/* The table entry R may be replaced by, or -1. */
static int
match(Cse *C, const LBlk *bk, const LIns *r)
{
	LClass c = llo_field_class(r->op, FLD_D);
	int i;

	if (!entry_op(r) || C->nwrite[c][r->d] != 1)
		return -1;
	for (i = 0; i < C->avail.n; i++) {
		const LIns *k = &bk->ins.v[C->avail.v[i]];
		if (same(k, r) && C->nwrite[c][k->d] == 1 &&
		    C->lastread[c][r->d] < C->base + C->avail.v[i])
			return C->avail.v[i];
	}
	return -1;
}

/* One block; returns the ops removed. */
static int
block(Cse *C, LBlk *bk)
{
	int i, n = 0, k;

	C->avail.n = 0;
	for (i = 0; i < bk->ins.n; i++) {
		LIns *in = &bk->ins.v[i];
		LClass c = llo_field_class(in->op, FLD_D);
		rename_srcs(C, in);
		if ((k = match(C, bk, in)) >= 0) {
			C->ren[c][in->d] = bk->ins.v[k].d;
			C->nwrite[c][in->d] = 0;
			in->op = OP_NOP;	/* removed by compact() */
			n++;
			continue;
		}
		note_reads(C, in, C->base + i);
		if (mach_opinfo[in->op].flags & MACH_F_CTRL)
			C->avail.n = 0;
		kill_loads(C, bk, in);
		if (c != LC_NONE)
			kill(C, bk, c, in->d);
		if (entry_op(in))
			vec_push(C->f->arena, &C->avail, i);
	}
	return n;
}

/* Removes the ops block() replaced (made nops) from bk. */
static void
compact(LBlk *bk)
{
	int i, n = 0;

	for (i = 0; i < bk->ins.n; i++)
		if (bk->ins.v[i].op != OP_NOP)
			bk->ins.v[n++] = bk->ins.v[i];
	bk->ins.n = n;
}

int
vliw_cse(LFunc *f)
{
	Cse C;
	int b, c, i, n = 0;
	long at = 0;

	memset(&C, 0, sizeof C);
	C.f = f;
	for (c = 0; c < NLCLASS; c++) {
		size_t k = (size_t)f->nreg[c] + 1;
		C.nwrite[c] = arena_alloc(f->arena, k * sizeof(int));
		C.ren[c] = arena_alloc(f->arena, k * sizeof(int));
		C.lastread[c] = arena_alloc(f->arena, k * sizeof(long));
		for (i = 0; i < (int)k; i++)
			C.lastread[c][i] = -1;
	}
	count_writes(&C);
	for (b = 0; b < f->blk.n; b++) {
		C.base = at;
		n += block(&C, &f->blk.v[b]);
		at += f->blk.v[b].ins.n;
	}
	if (!n)
		return 0;
	for (b = 0; b < f->blk.n; b++) {
		compact(&f->blk.v[b]);
		for (i = 0; i < f->blk.v[b].ins.n; i++)
			rename_srcs(&C, &f->blk.v[b].ins.v[i]);
	}
	return n;
}
