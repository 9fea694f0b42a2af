/*
 * unroll.c - full unrolling of short counted one-block loops, before
 * scheduling, on virtual registers; the enclosing loop's body then
 * becomes one block that vliw_modulo can pipeline.
 *
 * Needs:    an LFunc from vliw_isel: LBlk.trips on the first block of
 *           each counted loop's body.
 * Gives:    vliw_unroll (vliw.h).  A loop block b (its last op a br to b
 *           guarded by an unnegated predicate, no other control op, no
 *           other op branching to it, entered by falling through from
 *           b - 1) whose trips T are at most MAXTRIPS, with T copies of
 *           its body within MAXOPS, is replaced by the T copies in order
 *           and no branch.  Then b is merged into b - 1 when b - 1 does
 *           not end in a control op, and the block after it into the
 *           result when nothing branches to that block and the result
 *           does not end in a control op.  So a loop over row groups
 *           whose body is a column loop of two or three trips (Mosaic's
 *           chunk loops over wide blocks) becomes one block ending in
 *           the row loop's br, and keeps the row loop's trips.
 * Why it is right: the loop runs exactly T times each time it is
 *           entered (isel's LBlk.trips), so T copies of its body in a
 *           row do what it did.  A register each trip writes before any
 *           access carries nothing between trips, so a copy may use its
 *           own name for it (all copies but the last, which leaves the
 *           value after the loop);
 *           the branch's predicate is computed no more unless some other
 *           op reads it.  Merging blocks joined only by falling through
 *           keeps the order of every op.
 * Entry:    vliw_unroll(LFunc *)
 * Tests:    tests/unit/check_opt.c
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

static int
candidate(const LFunc *f, int b)
{
	const LBlk *bk = &f->blk.v[b];
	const LIns *last;
	int i;

	if (b == 0 || bk->trips < 1 || bk->trips > MAXTRIPS || bk->ins.n < 2 ||
	    bk->trips * (bk->ins.n - 1) > MAXOPS)
		return 0;
	last = &bk->ins.v[bk->ins.n - 1];
	if (last->op != OP_BR || last->target != b || !last->guard ||
	    last->gneg)
		return 0;
	for (i = 0; i + 1 < bk->ins.n; i++)
		if (is_ctrl(&bk->ins.v[i]))
			return 0;
	if (targeted(f, b, b, bk->ins.n - 1))
		return 0;
	bk = &f->blk.v[b - 1];	/* falls into b, maybe after a guarded br */
	if (bk->ins.n == 0)
		return 1;
	last = &bk->ins.v[bk->ins.n - 1];
	return !is_ctrl(last) || (last->op == OP_BR && (last->guard ||
	    last->gneg));
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

/* The registers (flat, base as llo_flat_regs) local to one trip of
   body[0..n): each trip writes them, unguarded, before any access. */
static char *
locals(LFunc *f, const LIns *body, int n, const int *base)
{
	int nflat = base[NLCLASS], i, k, r[4], d, nr;
	char *seen = arena_alloc(f->arena, (size_t)nflat + 1);
	char *local = arena_alloc(f->arena, (size_t)nflat + 1);

	memset(seen, 0, (size_t)nflat + 1);
	memset(local, 0, (size_t)nflat + 1);
	for (i = 0; i < n; i++) {
		nr = llo_flat_regs(&body[i], base, r, &d);
		for (k = 0; k < nr; k++)
			seen[r[k]] = 1;
		if (d >= 0 && !seen[d] && !body[i].guard)
			local[d] = 1;
		if (d >= 0)
			seen[d] = 1;
	}
	return local;
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

/* Does an op other than (blk, idx) read predicate p? */
static int
p_read(const LFunc *f, int p, int blk, int idx)
{
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	int k, i, j;

	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++) {
			const LIns *in = &f->blk.v[k].ins.v[i];
			const int v[] = { in->a, in->b, in->c };
			if (k == blk && i == idx)
				continue;
			if (in->guard == p)
				return 1;
			for (j = 0; j < 3; j++)
				if (llo_field_class(in->op, fld[j]) == LC_P &&
				    v[j] == p)
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
 * Unrolls loop block b; returns the block now holding its copies.  The
 * registers local to a trip get fresh names in every copy but the last
 * (which leaves the values the loop left): the register allocator gives
 * a register one interval, and shared names would keep every
 * temporary live across all the copies.
 */
static int
unroll(LFunc *f, int b)
{
	LBlk *bk = &f->blk.v[b];
	int n = bk->ins.n - 1, t, i, c, r, base[NLCLASS + 1];
	int skip = exit_test(f, b);
	LIns *body = arena_alloc(f->arena, sizeof(LIns) * (size_t)(n + 1));
	char *local;
	int *map;

	base[0] = 0;
	for (c = 0; c < NLCLASS; c++)
		base[c + 1] = base[c] + f->nreg[c];
	memcpy(body, bk->ins.v, sizeof(LIns) * (size_t)n);
	local = locals(f, body, n, base);
	map = arena_alloc(f->arena, sizeof(int) * (size_t)(base[NLCLASS] + 1));
	bk->ins.n = 0;
	for (t = 0; t < bk->trips; t++) {
		for (c = 0; c < NLCLASS; c++)
			for (r = base[c]; r < base[c + 1]; r++)
				map[r] = !local[r] ? r - base[c] :
				    t + 1 < bk->trips ? llo_new_reg(f, (LClass)c) :
				    r - base[c];
		for (i = 0; i < n; i++)
			if (i != skip)
				vec_push(f->arena, &bk->ins, renamed(body[i], local,
				    map, base));
	}
	bk->trips = 0;
	if (falls(f, b - 1)) {
		merge_next(f, --b);
		if (b + 1 < f->blk.n && falls(f, b) &&
		    !targeted(f, b + 1, -1, -1))
			merge_next(f, b);
	}
	return b;
}

int
vliw_unroll(LFunc *f)
{
	int b, n = 0;

	for (b = 1; b < f->blk.n; b++)
		if (candidate(f, b)) {
			b = unroll(f, b) - 1;	/* the result may be a loop */
			n++;
		}
	return n;
}
