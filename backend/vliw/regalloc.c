/*
 * regalloc.c - map virtual registers to the machine's registers, and
 * decide what to spill when they do not fit.
 *
 * Needs:    a scheduled LFunc (vliw_sched: LIns.cycle, LBlk.nbundle).
 * Gives:    every register field and guard rewritten to a physical
 *           register of the preset (s0.., v0.., m0.., p1..; p0 stays the
 *           constant true predicate); LFunc.allocated.  The schedule is
 *           kept (or redone, see Method): two virtual registers share a
 *           physical one only when their intervals (below) do not
 *           overlap, so no read sees another value and no write lands on
 *           a pending one.
 * Method:   liveness over the blocks (backward dataflow, reads of a
 *           bundle before its writes), then one interval per virtual
 *           register over the global bundle positions: the hull of its
 *           reads, its writes until their latency has elapsed, and the
 *           block boundaries where it is live, and the start of every
 *           block it may still be in flight into (vliw_sched lets a
 *           register result outlive its block: a forward dataflow gives,
 *           per block entry, the cycles until each register's last
 *           write lands, the maximum over predecessors).  Linear scan (Poletto and
 *           Sarkar) per class, lowest free register first (deterministic).
 *           When only scalars and predicates run out, they are spilled
 *           first, keeping the list schedule (their spill code takes
 *           scalar slots and SMEM, which streams such as the MXU's leave
 *           free; at most CHEAPSPILL rounds).
 *           Also tried: only the blocks where more registers of a class
 *           are live at once than the preset has keep vliw_isel's order
 *           (LBlk.inorder), the others their list schedule (a few
 *           rounds), and where that leaves only scalars or predicates
 *           short (those a kernel step's pipeline decisions keep live
 *           across the step, even in order), those spilled on it.  And f scheduled again in vliw_isel's order
 *           everywhere (vliw_sched_serial: the list scheduler hoists
 *           independent ops, such as predicate computations, far above
 *           their uses) and allocated once more.  Of those that fit, the
 *           shortest (bundles weighted by loop depth) is kept; a tie goes
 *           to the one keeping most list schedules.  If that fails too,
 *           spilling rounds: a linear scan over the in-order schedule
 *           that, whenever a class is full, spills the interval that
 *           ends last (the register in use whose last use is furthest
 *           away, or the new one), never one of the short-lived
 *           registers spill code made nor one a control op writes;
 *           vliw_spill rewrites f (spill everywhere), which is then list
 *           scheduled and allocated, else scheduled in order and
 *           allocated, else spilled again.  At most MAXSPILL rounds;
 *           then, or when nothing can be spilled, an error names the
 *           kernel and the class.
 * Entry:    vliw_regalloc(LFunc *, Diag *)
 * Tests:    tests/unit/check_vliw.c, tests/unit/check_spill.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"

enum { MAXSPILL = 16, CHEAPSPILL = 4, PARTIAL = 4 };

typedef struct Ra {
	LFunc *f;
	Arena a;
	int base[NLCLASS + 1];	/* flat index of (class, reg) */
	int n;			/* flat registers */
	int words;		/* bitset words */
	uint64_t *in, *out, *use, *def;	/* per block bitsets */
	int *bs;		/* block start positions */
	int *lo, *hi;		/* interval per flat register */
	int **own, **ent;	/* per block: in flight at its end, entry */
	const int *keep;	/* per class: registers from here on are
				   spill code's (NULL: no spilling) */
	char *pin;		/* per flat register: never spill it */
	char *victim[NLCLASS];	/* per class and register: spill it */
	int nvictim;
} Ra;

static const int fld[] = { FLD_D, FLD_A, FLD_B, FLD_C };

static int *
fieldp(LIns *in, int f)
{
	switch (f) {
	case FLD_D: return &in->d;
	case FLD_A: return &in->a;
	case FLD_B: return &in->b;
	default: return &in->c;
	}
}

static int
flat(const Ra *R, LClass c, int r)
{
	return R->base[c] + r;
}

static uint64_t *
set(Ra *R, uint64_t *s, int b)
{
	return s + (size_t)b * (size_t)R->words;
}

static void
bit(uint64_t *s, int i)
{
	s[i / 64] |= UINT64_C(1) << (i % 64);
}

static int
has(const uint64_t *s, int i)
{
	return (int)(s[i / 64] >> (i % 64) & 1);
}

/* Calls fn on every register read (isdef 0) and written (1) by in. */
static void
each_reg(Ra *R, LIns *in, int blk, void (*fn)(Ra *, int, int, int, LIns *))
{
	int k;
	LClass c;

	if (in->guard)
		fn(R, blk, flat(R, LC_P, in->guard), 0, in);
	for (k = 1; k < 4; k++)
		if ((c = llo_field_class(in->op, fld[k])) != LC_NONE &&
		    !(c == LC_P && *fieldp(in, fld[k]) == 0))
			fn(R, blk, flat(R, c, *fieldp(in, fld[k])), 0, in);
	if ((c = llo_field_class(in->op, FLD_D)) != LC_NONE &&
	    !(c == LC_P && in->d == 0))
		fn(R, blk, flat(R, c, in->d), 1, in);
}

static void
local(Ra *R, int b, int r, int isdef, LIns *in)
{
	if (isdef) {
		if (!in->guard && !in->gneg)
			bit(set(R, R->def, b), r);
	} else if (!has(set(R, R->def, b), r))
		bit(set(R, R->use, b), r);
}

static int
succs(const LFunc *f, int b, int s[2])
{
	const LBlk *bk = &f->blk.v[b];
	const LIns *last = bk->ins.n ? &bk->ins.v[bk->ins.n - 1] : NULL;
	int n = 0;

	if (last && last->op == OP_HALT)
		return 0;
	if (last && last->op == OP_BR) {
		s[n++] = last->target;
		if (!last->guard && !last->gneg)
			return n;
	}
	if (b + 1 < f->blk.n)
		s[n++] = b + 1;
	return n;
}

static void
liveness(Ra *R)
{
	int b, i, k, w, changed = 1, s[2], ns;

	for (b = 0; b < R->f->blk.n; b++)
		for (i = 0; i < R->f->blk.v[b].ins.n; i++)
			each_reg(R, &R->f->blk.v[b].ins.v[i], b, local);
	while (changed) {
		changed = 0;
		for (b = R->f->blk.n - 1; b >= 0; b--) {
			uint64_t *out = set(R, R->out, b), *in = set(R, R->in, b);
			ns = succs(R->f, b, s);
			for (k = 0; k < ns; k++)
				for (w = 0; w < R->words; w++)
					out[w] |= set(R, R->in, s[k])[w];
			for (w = 0; w < R->words; w++) {
				uint64_t v = set(R, R->use, b)[w] |
				    (out[w] & ~set(R, R->def, b)[w]);
				if (v != in[w]) {
					in[w] = v;
					changed = 1;
				}
			}
		}
	}
}

static void
extend(Ra *R, int r, int lo, int hi)
{
	if (lo < R->lo[r])
		R->lo[r] = lo;
	if (hi > R->hi[r])
		R->hi[r] = hi;
}

static void
point(Ra *R, int b, int r, int isdef, LIns *in)
{
	int p = R->bs[b] + in->cycle, l;

	l = R->f->mp->lat[mach_opinfo[in->op].lat];
	extend(R, r, p, isdef ? p + (l > 1 ? l : 1) - 1 : p);
}

static void
landing(Ra *R, int b, int r, int isdef, LIns *in)
{
	int l = in->cycle + R->f->mp->lat[mach_opinfo[in->op].lat] -
	    R->f->blk.v[b].nbundle;

	if (isdef && R->own[b][r] < l)
		R->own[b][r] = l;
}

/* Writes still in flight at block entries; extends their intervals. */
static void
inflight(Ra *R)
{
	int nb = R->f->blk.n, b, i, k, r, l, ns, s[2], changed = 1;
	size_t sz = sizeof(int) * (size_t)(R->n + 1);

	R->own = arena_alloc(&R->a, sizeof(int *) * (size_t)(nb + 1));
	R->ent = arena_alloc(&R->a, sizeof(int *) * (size_t)(nb + 1));
	for (b = 0; b < nb; b++) {
		R->own[b] = arena_alloc(&R->a, sz);
		R->ent[b] = arena_alloc(&R->a, sz);
		for (i = 0; i < R->f->blk.v[b].ins.n; i++)
			each_reg(R, &R->f->blk.v[b].ins.v[i], b, landing);
	}
	while (changed) {
		changed = 0;
		for (b = 0; b < nb; b++) {
			ns = succs(R->f, b, s);
			for (r = 0; r < R->n; r++) {
				l = R->ent[b][r] - R->f->blk.v[b].nbundle;
				if (l < R->own[b][r])
					l = R->own[b][r];
				for (k = 0; k < ns; k++)
					if (R->ent[s[k]][r] < l) {
						R->ent[s[k]][r] = l;
						changed = 1;
					}
			}
		}
	}
	for (b = 0; b < nb; b++)
		for (r = 0; r < R->n; r++)
			if (R->ent[b][r] > 0)
				extend(R, r, R->bs[b], R->bs[b] +
				    R->ent[b][r] - 1);
}

static void
intervals(Ra *R)
{
	int b, i, r;

	for (r = 0; r < R->n; r++) {
		R->lo[r] = INT32_MAX;
		R->hi[r] = -1;
	}
	for (b = 0; b < R->f->blk.n; b++) {
		const LBlk *bk = &R->f->blk.v[b];
		int end = R->bs[b] + (bk->nbundle ? bk->nbundle - 1 : 0);
		for (i = 0; i < bk->ins.n; i++)
			each_reg(R, &R->f->blk.v[b].ins.v[i], b, point);
		for (r = 0; r < R->n; r++) {
			if (has(set(R, R->in, b), r))
				extend(R, r, R->bs[b], R->bs[b]);
			if (has(set(R, R->out, b), r))
				extend(R, r, end, end);
		}
	}
	inflight(R);
}

static int
nphys(const MachPreset *mp, LClass c)
{
	switch (c) {
	case LC_S: return mp->nsreg;
	case LC_V: return mp->nvreg;
	case LC_M: return mp->nmreg;
	default: return mp->npreg;
	}
}

static const char *const cname[NLCLASS] = { "scalar", "vector", "mask",
	"predicate" };

/* May register j of class c be spilled? */
static int
spillable(const Ra *R, LClass c, int j)
{
	return R->keep && j < R->keep[c] && !R->pin[flat(R, c, j)];
}

/* Class c is full at interval j: the register to spill, j or one in
   use (owner[]), whichever interval ends last; 0 if none may be. */
static int
choose(const Ra *R, LClass c, int j, const int *owner, int first, int np)
{
	int k, o, best = spillable(R, c, j) ? j : 0;

	for (k = first; k < np; k++) {
		o = owner[k];
		if (spillable(R, c, o) && (!best ||
		    R->hi[flat(R, c, o)] > R->hi[flat(R, c, best)]))
			best = o;
	}
	return best;
}

/* An interval to scan: its start and its register. */
typedef struct Iv {
	int lo, reg;
} Iv;

/* Interval order: start, then register number (deterministic). */
static int
by_start(const void *x, const void *y)
{
	const Iv *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->reg > b->reg) - (a->reg < b->reg);
}

/* Linear scan of class c; map[reg] = physical.  When the class is full:
   without R->keep, -1; with it, choose a victim (R->victim) and go on,
   -1 if nothing may be spilled. */
static int
scan(Ra *R, LClass c, int *map)
{
	int nv = R->f->nreg[c], np = nphys(R->f->mp, c), i, j, k, r, best, v;
	int *until = arena_alloc(&R->a, sizeof(int) * (size_t)(np + 1));
	int *owner = arena_alloc(&R->a, sizeof(int) * (size_t)(np + 1));
	Iv *order = arena_alloc(&R->a, sizeof(Iv) * (size_t)(nv + 1));
	int first = c == LC_P ? 1 : 0, n;

	for (k = 0; k < np; k++)
		until[k] = -1;
	for (j = 1, n = 0; j < nv; j++)	/* the intervals by start */
		if (R->hi[flat(R, c, j)] >= 0) {
			order[n].lo = R->lo[flat(R, c, j)];
			order[n++].reg = j;
		}
	qsort(order, (size_t)n, sizeof(Iv), by_start);
	for (i = 0; i < n; i++) {
		best = order[i].reg;
		r = flat(R, c, best);
		for (k = first; k < np && until[k] >= R->lo[r]; k++)
			;
		if (k < np) {
			until[k] = R->hi[r];
			owner[k] = best;
			map[best] = k;
			continue;
		}
		if (!R->keep || !(v = choose(R, c, best, owner, first, np)))
			return -1;
		R->victim[c][v] = 1;
		R->nvictim++;
		if (v == best)
			continue;
		for (k = first; owner[k] != v; k++)
			;
		until[k] = R->hi[r];
		owner[k] = best;
		map[best] = k;
	}
	return 0;
}

static void
rewrite(Ra *R, int *const map[NLCLASS])
{
	int b, i, k;
	LClass c;

	for (b = 0; b < R->f->blk.n; b++)
		for (i = 0; i < R->f->blk.v[b].ins.n; i++) {
			LIns *in = &R->f->blk.v[b].ins.v[i];
			in->guard = map[LC_P][in->guard];
			for (k = 0; k < 4; k++)
				if ((c = llo_field_class(in->op, fld[k])) !=
				    LC_NONE)
					*fieldp(in, fld[k]) =
					    map[c][*fieldp(in, fld[k])];
		}
}

/* Registers written by control ops (a call's return address): no store
   can follow them in their block. */
static void
pins(Ra *R)
{
	int b, i;
	LClass c;

	R->pin = arena_alloc(&R->a, (size_t)R->n + 1);
	for (b = 0; b < R->f->blk.n; b++)
		for (i = 0; i < R->f->blk.v[b].ins.n; i++) {
			const LIns *in = &R->f->blk.v[b].ins.v[i];
			c = llo_field_class(in->op, FLD_D);
			if (c != LC_NONE && in->d > 0 &&
			    (mach_opinfo[in->op].flags & MACH_F_CTRL))
				R->pin[flat(R, c, in->d)] = 1;
		}
}

/* Liveness and intervals over f's schedule. */
static void
analyse(Ra *R, LFunc *f)
{
	int c, b, pos = 0;
	size_t nb;

	memset(R, 0, sizeof *R);
	R->f = f;
	for (c = 0; c < NLCLASS; c++)
		R->base[c + 1] = R->base[c] + f->nreg[c];
	R->n = R->base[NLCLASS];
	R->words = (R->n + 63) / 64;
	nb = (size_t)f->blk.n * (size_t)R->words * 8;
	R->in = arena_alloc(&R->a, nb);
	R->out = arena_alloc(&R->a, nb);
	R->use = arena_alloc(&R->a, nb);
	R->def = arena_alloc(&R->a, nb);
	R->bs = arena_alloc(&R->a, sizeof(int) * (size_t)(f->blk.n + 1));
	R->lo = arena_alloc(&R->a, sizeof(int) * (size_t)(R->n + 1));
	R->hi = arena_alloc(&R->a, sizeof(int) * (size_t)(R->n + 1));
	for (b = 0; b < f->blk.n; b++) {
		R->bs[b] = pos;
		pos += f->blk.v[b].nbundle;
	}
	liveness(R);
	intervals(R);
}

/* One allocation over f's schedule; f is untouched if it fails. */
static int
allocate(LFunc *f)
{
	Ra R;
	int c, rc = 0;
	int *map[NLCLASS];

	analyse(&R, f);
	for (c = 0; c < NLCLASS && !rc; c++) {
		map[c] = arena_alloc(&R.a, sizeof(int) * (size_t)(f->nreg[c] +
		    1));
		rc = scan(&R, (LClass)c, map[c]);
	}
	if (!rc) {
		rewrite(&R, map);
		f->allocated = 1;
	}
	arena_free(&R.a);
	return rc;
}

/* What to spill so that f's schedule fits (victim[c][r], from f's
   arena).  The number of victims, or -1 when class *bad is full of
   registers that may not be spilled. */
static int
victims(LFunc *f, const int keep[NLCLASS], char *victim[NLCLASS],
    LClass *bad)
{
	Ra R;
	int c, n;
	int *map;

	analyse(&R, f);
	R.keep = keep;
	pins(&R);
	for (c = 0; c < NLCLASS; c++)
		R.victim[c] = victim[c] = arena_alloc(f->arena,
		    (size_t)f->nreg[c] + 1);
	for (c = 0; c < NLCLASS; c++) {
		n = R.nvictim;
		map = arena_alloc(&R.a, sizeof(int) * (size_t)(f->nreg[c] + 1));
		if (scan(&R, (LClass)c, map)) {
			*bad = (LClass)c;
			arena_free(&R.a);
			return -1;
		}
		if (R.nvictim > n && *bad == LC_NONE)
			*bad = (LClass)c;
	}
	n = R.nvictim;
	arena_free(&R.a);
	return n;
}

/* 1 if every victim is a scalar or a predicate. */
static int
only_scalar(const LFunc *f, char *const victim[NLCLASS])
{
	int r;

	for (r = 1; r < f->nreg[LC_V]; r++)
		if (victim[LC_V][r])
			return 0;
	for (r = 1; r < f->nreg[LC_M]; r++)
		if (victim[LC_M][r])
			return 0;
	return 1;
}

/* A copy of f whose blocks can change without touching f's. */
static LFunc *
clone(const LFunc *f)
{
	LFunc *g = arena_alloc(f->arena, sizeof *g);
	int b;

	*g = *f;
	g->blk.v = arena_alloc(f->arena, sizeof(LBlk) * (size_t)(f->blk.n + 1));
	g->blk.cap = f->blk.n;
	for (b = 0; b < f->blk.n; b++) {
		LBlk *d = &g->blk.v[b];
		const LBlk *s = &f->blk.v[b];
		*d = *s;
		d->ins.v = arena_alloc(f->arena, sizeof(LIns) *
		    (size_t)(s->ins.n + 1));
		d->ins.cap = s->ins.n;
		if (s->ins.n)
			memcpy(d->ins.v, s->ins.v, sizeof(LIns) *
			    (size_t)s->ins.n);
	}
	return g;
}

/* The scheduled length of f with each block weighted by 16 per loop
   around it (a back edge from block e to h <= e encloses h..e). */
static double
cost(const LFunc *f)
{
	double sum = 0, w;
	int b, e, i;

	for (b = 0; b < f->blk.n; b++) {
		w = 1;
		for (e = b; e < f->blk.n; e++)
			for (i = 0; i < f->blk.v[e].ins.n; i++) {
				const LIns *in = &f->blk.v[e].ins.v[i];
				if (in->op == OP_BR && in->target >= 0 &&
				    in->target <= b)
					w *= 16;
			}
		sum += w * f->blk.v[b].nbundle;
	}
	return sum;
}

/* Marks inorder the blocks where more registers of a class are live at
   once than the preset has (their list schedule hoisted too much);
   returns how many it newly marked. */
static int
mark_pressure(LFunc *f)
{
	Ra R;
	int c, r, p, b, live, np, n = 0, P = 0;
	int *delta;

	for (b = 0; b < f->blk.n; b++)
		P += f->blk.v[b].nbundle;
	analyse(&R, f);
	delta = arena_alloc(&R.a, sizeof(int) * (size_t)(P + 2));
	for (c = 0; c < NLCLASS; c++) {
		np = nphys(f->mp, (LClass)c) - (c == LC_P);
		memset(delta, 0, sizeof(int) * (size_t)(P + 2));
		for (r = R.base[c] + 1; r < R.base[c + 1]; r++)
			if (R.hi[r] >= 0 && R.lo[r] <= R.hi[r] && R.hi[r] < P) {
				delta[R.lo[r]]++;
				delta[R.hi[r] + 1]--;
			}
		for (p = 0, live = 0, b = 0; p < P; p++) {
			live += delta[p];
			while (b + 1 < f->blk.n && R.bs[b + 1] <= p)
				b++;
			if (live > np && !f->blk.v[b].inorder) {
				f->blk.v[b].inorder = 1;
				n++;
			}
		}
	}
	arena_free(&R.a);
	return n;
}

/* A copy of f whose over-full blocks (mark_pressure) keep vliw_isel's
   order while the others keep their list schedule, allocated; NULL if a
   few rounds of that do not make it fit (f untouched either way), with
   the last such copy, scheduled but not allocated, in *stalled (NULL if
   none was made). */
static LFunc *
partial_serial(const LFunc *f, LFunc **stalled)
{
	LFunc *g = clone(f);
	int round;

	*stalled = NULL;
	for (round = 0; round < PARTIAL; round++) {
		if (!mark_pressure(g))
			return NULL;
		vliw_sched_again(g);
		if (!allocate(g))
			return g;
		*stalled = g;
	}
	return NULL;
}

/*
 * When f's list schedule runs out of scalars or predicates only: a copy
 * of f with those spilled and the list schedule kept, allocated; else
 * NULL (f untouched either way).  Quiet: a spill area that does not fit
 * only means this way is closed.
 */
static LFunc *
cheap_spill(const LFunc *f, const int keep[NLCLASS], const Diag *d)
{
	LFunc *g = clone(f);
	char *victim[NLCLASS], *text = NULL;
	size_t len = 0;
	LClass bad = LC_NONE;
	int round, ok = 0;
	Diag quiet;
	FILE *sink = open_memstream(&text, &len);

	if (!sink)
		return NULL;
	diag_init(&quiet, d->sm, sink);
	for (round = 0; round < CHEAPSPILL && !ok; round++) {
		if (victims(g, keep, victim, &bad) <= 0 ||
		    !only_scalar(g, victim) || vliw_spill(g, victim, &quiet))
			break;
		vliw_sched(g);
		ok = !allocate(g);
	}
	fclose(sink);
	free(text);
	return ok ? g : NULL;
}

int
vliw_regalloc(LFunc *f, Diag *d)
{
	int keep[NLCLASS], c, round, n, total = 0;
	char *victim[NLCLASS];
	LClass bad = LC_NONE;
	LFunc *cheap, *part, *best, *stalled;

	if (!f->scheduled)
		bug("vliw: regalloc: function '%s' is not scheduled", f->name);
	if (!allocate(f))
		return 0;
	for (c = 0; c < NLCLASS; c++)
		keep[c] = f->nreg[c];
	part = partial_serial(f, &stalled);
	cheap = cheap_spill(f, keep, d);
	/* the over-full blocks in order leave only scalars or predicates
	   short (a kernel step's many pipeline predicates): spill those
	   there, rather than lose every list schedule */
	if (!part && !cheap && stalled)
		cheap = cheap_spill(stalled, keep, d);
	vliw_sched_serial(f);
	if (!allocate(f)) {
		/* ties: keep the list schedules (part), not spill code */
		best = part && cost(part) <= cost(f) ? part : NULL;
		if (cheap && cost(cheap) < cost(best ? best : f))
			best = cheap;
		if (best)
			*f = *best;
		return 0;
	}
	if (part || cheap) {
		*f = part && (!cheap || cost(part) <= cost(cheap)) ? *part :
		    *cheap;
		return 0;
	}
	for (round = 0; round < MAXSPILL; round++) {
		bad = LC_NONE;
		if ((n = victims(f, keep, victim, &bad)) <= 0)
			break;
		total += n;
		if (vliw_spill(f, victim, d))
			return -1;
		vliw_sched(f);
		if (!allocate(f))
			return 0;
		vliw_sched_serial(f);
		if (!allocate(f))
			return 0;
	}
	if (bad == LC_NONE)
		bug("vliw: regalloc: function '%s': no class is full",
		    f->name);
	c = bad;
	diag_error(d, f->loc, "kernel '%s' needs more than %d %s registers at "
	    "once, even after spilling %d registers", f->name,
	    nphys(f->mp, bad) - (bad == LC_P), cname[c], total);
	return -1;
}
