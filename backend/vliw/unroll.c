/*
 * unroll.c - unrolling of counted one-block loops, before scheduling, on
 * virtual registers: short loops whole (so that the enclosing loop's
 * body becomes one block vliw_modulo can pipeline), and loops of EUP and
 * XLU work (which vliw_modulo leaves alone) by a factor, so that the list
 * scheduler overlaps the copies' latency chains.
 *
 * Needs:    an LFunc from vliw_isel: LBlk.trips on the first block of
 *           each counted loop's body.
 * Gives:    vliw_unroll (vliw.h), on loop blocks as llo_counted_loop
 *           says (the last op a br to the block on an unnegated
 *           predicate, no other control op, no other way in than
 *           falling through from b - 1).
 *           VLIW_UNROLL_SHORT: a loop block whose trips T are at most
 *           MAXTRIPS, with T copies of its body within MAXOPS, is
 *           replaced by the T copies in order and no branch.  Then b is
 *           merged into b - 1 when b - 1 does not end in a control op,
 *           and the block after it into the result when nothing
 *           branches to that block and the result does not end in a
 *           control op.  So a loop over row groups whose body is a
 *           column loop of two or three trips (Mosaic's chunk loops over
 *           wide blocks) becomes one block ending in the row loop's br,
 *           and keeps the row loop's trips.
 *           VLIW_UNROLL_INTERLEAVE: a loop block of ALU, vector memory,
 *           EUP and XLU ops (not transposes) with at least one EUP or XLU
 *           op gets F copies of its body (F of 8, 4, 2 dividing T and
 *           below it, the largest whose copies' registers fit) and runs
 *           T / F times.  Each copy pushes and pops its own FIFO
 *           entries, in the block, so the scheduler's FIFO rules see
 *           them all.
 * Why it is right: the loop runs exactly T times each time it is
 *           entered (isel's LBlk.trips), so T copies of its body in a
 *           row do what it did, and so do T / F passes of F copies (the
 *           last copy's exit test sees the counter after F steps).  A
 *           register each trip writes before any access carries nothing
 *           between trips, so a copy may use its own name for it (all
 *           copies but the last, which leaves the value after the loop).
 *           The exit test is computed only where the br reads it, unless
 *           some other op reads it too.  Merging blocks joined only by
 *           falling through keeps the order of every op.
 * Entry:    vliw_unroll(LFunc *, int mode)
 * Tests:    tests/unit/check_opt.c, tests/unit/check_modulo.c
 */
#include <string.h>

#include "backend/vliw/vliw.h"

enum {
	MAXTRIPS = 4,		/* trips worth a copy each */
	MAXOPS = 384		/* ops of the copies */
};

static int
is_ctrl(const LIns *in)
{
	return (mach_opinfo[in->op].flags & MACH_F_CTRL) != 0;
}

/* Does an op other than (blk, idx) branch to block b? */
static int
targeted(const LFunc *f, int b, int blk, int idx)
{
	int k, i;

	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++)
			if (f->blk.v[k].ins.v[i].target == b &&
			    !(k == blk && i == idx))
				return 1;
	return 0;
}

/* Falls block b into the next one: no control op at its end. */
static int
falls(const LFunc *f, int b)
{
	const LBlk *bk = &f->blk.v[b];

	return bk->ins.n == 0 || !is_ctrl(&bk->ins.v[bk->ins.n - 1]);
}

/* Ops interleaving may copy: ALU, vector memory, and EUP and XLU work
   whose pushes and pops stay in one copy (not transposes, which fill
   an XLU block over several pushes); 2 for EUP and XLU ops. */
static int
interleavable(const LIns *in)
{
	int u = mach_opinfo[in->op].unit, fl = mach_opinfo[in->op].flags;

	if (in->op == OP_XXPOSE || in->op == OP_XXPOSEEND)
		return 0;
	if (u == U_EUP || u == U_XLU || in->op == OP_EPOP || in->op == OP_XPOP)
		return 2;
	if (u != U_SALU && u != U_VLD && u != U_VST && u != U_VALU)
		return 0;
	return !(fl & (MACH_F_CTRL | MACH_F_STALL | MACH_F_DMA | MACH_F_PUSH));
}

/* Appends block b + 1's ops to b and removes b + 1. */
static void
merge_next(LFunc *f, int b)
{
	LBlk *x = &f->blk.v[b], *y = &f->blk.v[b + 1];
	int k, i;

	for (i = 0; i < y->ins.n; i++)
		vec_push(f->arena, &x->ins, y->ins.v[i]);
	memmove(y, y + 1, sizeof(LBlk) * (size_t)(f->blk.n - b - 2));
	f->blk.n--;
	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++)
			if (f->blk.v[k].ins.v[i].target > b)
				f->blk.v[k].ins.v[i].target--;
}

/* in with every local register renamed through map (flat -> number). */
static LIns
renamed(LIns in, const char *local, const int *map, const int *base)
{
	static const int fld[] = { FLD_D, FLD_A, FLD_B, FLD_C };
	int *v[] = { &in.d, &in.a, &in.b, &in.c }, k;
	LClass c;

	for (k = 0; k < 4; k++) {
		c = llo_field_class(in.op, fld[k]);
		if (c != LC_NONE && !(c == LC_P && *v[k] == 0) &&
		    local[base[c] + *v[k]])
			*v[k] = map[base[c] + *v[k]];
	}
	if (in.guard && local[base[LC_P] + in.guard])
		in.guard = map[base[LC_P] + in.guard];
	return in;
}

/* base[] for flat registers of f. */
static void
flat_base(const LFunc *f, int *base)
{
	int c;

	base[0] = 0;
	for (c = 0; c < NLCLASS; c++)
		base[c + 1] = base[c] + f->nreg[c];
}

/* Does an op other than (blk, idx) read predicate p? */
static int
p_read(const LFunc *f, int p, int blk, int idx)
{
	int base[NLCLASS + 1], k, i, j, r[4], d, nr;

	flat_base(f, base);
	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++) {
			if (k == blk && i == idx)
				continue;
			nr = llo_flat_regs(&f->blk.v[k].ins.v[i], base, r, &d);
			for (j = 0; j < nr; j++)
				if (r[j] == base[LC_P] + p)
					return 1;
		}
	return 0;
}

/* The index of the op computing the loop's exit test (its br's
   predicate) when nothing else reads it, so the copies leave it out;
   else -1. */
static int
exit_test(const LFunc *f, int b)
{
	const LBlk *bk = &f->blk.v[b];
	int p = bk->ins.v[bk->ins.n - 1].guard, i, w = -1;

	for (i = 0; i + 1 < bk->ins.n; i++)
		if (llo_field_class(bk->ins.v[i].op, FLD_D) == LC_P &&
		    bk->ins.v[i].d == p) {
			if (w >= 0 || bk->ins.v[i].guard)
				return -1;
			w = i;
		}
	return w >= 0 && !p_read(f, p, b, bk->ins.n - 1) ? w : -1;
}


/*
 * Replaces the body of loop block b by F copies of it; the br stays
 * when F < trips (the loop then runs trips / F times).  The registers
 * local to a trip get fresh names in every copy but the last (which
 * leaves the values the loop left): the register allocator gives a
 * register one interval, and shared names would keep every temporary
 * live across all the copies.  The exit test is computed by the last
 * copy only, unless something else reads it.
 */
static void
copies(LFunc *f, int b, int F)
{
	LBlk *bk = &f->blk.v[b];
	int n = bk->ins.n - 1, t, i, c, r, base[NLCLASS + 1];
	int skip = exit_test(f, b);
	LIns *body = arena_alloc(f->arena, sizeof(LIns) * (size_t)(n + 1));
	LIns br = bk->ins.v[n];
	char *local;
	int *map;

	flat_base(f, base);
	memcpy(body, bk->ins.v, sizeof(LIns) * (size_t)n);
	local = llo_trip_locals(f->arena, body, n, base);
	map = arena_alloc(f->arena, sizeof(int) * (size_t)(base[NLCLASS] + 1));
	bk->ins.n = 0;
	for (t = 0; t < F; t++) {
		for (c = 0; c < NLCLASS; c++)
			for (r = base[c]; r < base[c + 1]; r++)
				map[r] = !local[r] ? r - base[c] :
				    t + 1 < F ? llo_new_reg(f, (LClass)c) :
				    r - base[c];
		for (i = 0; i < n; i++)
			if (i != skip || (F < bk->trips && t + 1 == F))
				vec_push(f->arena, &bk->ins, renamed(body[i],
				    local, map, base));
	}
	if (F < bk->trips)
		vec_push(f->arena, &bk->ins, br);
}

/* Unrolls short loop block b whole; returns the block now holding the
   copies (merged with the blocks around when only falling through joins
   them). */
static int
unroll(LFunc *f, int b)
{
	copies(f, b, (int)f->blk.v[b].trips);
	f->blk.v[b].trips = 0;
	if (falls(f, b - 1)) {
		merge_next(f, --b);
		if (b + 1 < f->blk.n && falls(f, b) &&
		    !targeted(f, b + 1, -1, -1))
			merge_next(f, b);
	}
	return b;
}

/* Per class: the most trip-local registers of loop block b live at once
   in its body order (loc), and the loop-wide ones it touches (wide). */
static void
live_counts(const LFunc *f, int b, const char *local, const int *base,
    int *loc, int *wide)
{
	const LBlk *bk = &f->blk.v[b];
	int n = bk->ins.n - 1, nflat = base[NLCLASS], i, k, c, r, d, nr, rr[4];
	int *first = arena_alloc(f->arena, sizeof(int) * (size_t)(nflat + 1));
	int *last = arena_alloc(f->arena, sizeof(int) * (size_t)(nflat + 1));
	int *live = arena_alloc(f->arena, sizeof(int) * (size_t)(n + 1));

	for (r = 0; r < nflat; r++)
		first[r] = last[r] = -1;
	for (i = 0; i < n; i++) {
		nr = llo_flat_regs(&bk->ins.v[i], base, rr, &d);
		for (k = 0; k < nr; k++)
			last[rr[k]] = i;
		if (d >= 0 && first[d] < 0)
			first[d] = i;
		if (d >= 0)
			last[d] = i > last[d] ? i : last[d];
		for (k = 0; k < nr; k++)
			if (first[rr[k]] < 0)
				first[rr[k]] = i;
	}
	for (c = 0; c < NLCLASS; c++) {
		loc[c] = wide[c] = 0;
		memset(live, 0, sizeof(int) * (size_t)(n + 1));
		for (r = base[c]; r < base[c + 1]; r++) {
			if (first[r] < 0)
				continue;
			if (!local[r]) {
				wide[c]++;
				continue;
			}
			for (i = first[r]; i <= last[r]; i++)
				live[i]++;
		}
		for (i = 0; i < n; i++)
			loc[c] = live[i] > loc[c] ? live[i] : loc[c];
	}
}

/* The copies of loop block b to interleave: the largest of 8, 4, 2
   dividing its trips (and below them: it stays a loop) whose registers
   (every copy's trip-local ones live at once, and the loop-wide ones)
   fit the preset, or 0. */
static int
interleave_factor(const LFunc *f, int b)
{
	const LBlk *bk = &f->blk.v[b];
	const MachPreset *mp = f->mp;
	const int phys[NLCLASS] = { mp->nsreg - 6, mp->nvreg - 4, mp->nmreg - 1,
	    mp->npreg - 3 };
	int base[NLCLASS + 1], n = bk->ins.n - 1, fifo = 0, F, c, i, k;
	int loc[NLCLASS], wide[NLCLASS];

	for (i = 0; i < n; i++) {
		if (!(k = interleavable(&bk->ins.v[i])))
			return 0;
		fifo |= k == 2;
	}
	if (!fifo)
		return 0;	/* vliw_modulo's loops */
	flat_base(f, base);
	live_counts(f, b, llo_trip_locals(f->arena, bk->ins.v, n, base), base,
	    loc, wide);
	for (F = 8; F >= 2; F /= 2) {
		if (bk->trips % F || F >= bk->trips || F * n > 2 * MAXOPS)
			continue;
		for (c = 0; c < NLCLASS; c++)
			if (F * loc[c] + wide[c] > phys[c])
				break;
		if (c == NLCLASS)
			return F;
	}
	return 0;
}

int
vliw_unroll(LFunc *f, int mode)
{
	int b, n = 0, F;

	for (b = 1; b < f->blk.n; b++) {
		if (!llo_counted_loop(f, b))
			continue;
		if (mode == VLIW_UNROLL_SHORT) {
			const LBlk *bk = &f->blk.v[b];
			if (bk->trips > MAXTRIPS ||
			    bk->trips * (bk->ins.n - 1) > MAXOPS)
				continue;
			b = unroll(f, b) - 1;	/* maybe a loop now */
			n++;
		} else if ((F = interleave_factor(f, b)) > 0) {
			copies(f, b, F);
			f->blk.v[b].trips /= F;
			n++;
		}
	}
	return n;
}
