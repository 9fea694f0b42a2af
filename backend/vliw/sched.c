/*
 * sched.c - pack each block's instructions into VLIW bundles.
 *
 * Needs:    an LFunc from vliw_isel() (virtual registers; a block's br or
 *           halt, if any, is its last op; EUP pushes and their pops in
 *           the same block).
 * Gives:    LIns.cycle for every op, each block's ops sorted by cycle
 *           (stable), LBlk.nbundle.  Every bundle respects the preset's
 *           slot counts per class, the immediate pool (a label counts as
 *           one distinct word), one control op and one wait per bundle.
 *           No op is added, removed or rewritten.
 * Ordering: (cycle[j] >= cycle[i] + lat for i before j)
 *           register RAW lat(i), WAR 0, WAW max(lat(i), 1);
 *           VMEM store->load LAT_VST, store->store 1, load->store 0;
 *           SMEM store->load lat(sst), other SMEM pairs 1;
 *           DMA starts, waits, sync and trace ops keep program order (1);
 *           memory ops before a DMA: stores their latency, loads 1;
 *           a wait or DMA before a memory op: 1;
 *           EUP pushes in order, pops in order, pop k >= push k + LAT_EUP,
 *           push k >= pop (k - eup_fifo) + 1;
 *           the block's control op last.
 * Blocks:   a register result may still be in flight when its block is
 *           left (a load, VALU op or pop near the end of a loop body);
 *           every other effect (pushes, stores, DMA starts) is complete:
 *           the control op waits lat(i) - 1 for it, and a block without
 *           one is padded with empty bundles.  Any control op but br
 *           (halt) waits for every result.  At a block's entry, a register pending from some
 *           predecessor (the maximum over all of them, passing through
 *           blocks too short to cover it) delays the ops of the block
 *           that read or write it.  Back edges: the blocks are scheduled
 *           in layout order and then again until no entry's pending set
 *           grows (monotone, bounded by the longest latency); after
 *           MAXROUND rounds the function falls back to draining every
 *           block, which needs no entry state.  The branch bubble is not
 *           counted as elapsed time, so the rule errs on the safe side.
 * Method:   list scheduling, cycle by cycle.  Priority is the longest
 *           latency path to the end of the block; ties go to the earlier
 *           op, so the output is deterministic.  vliw_sched_serial
 *           schedules again keeping every block's ops in their order from
 *           vliw_isel (no op starts before an earlier one), so no value
 *           lives longer than the selector made it; vliw_regalloc uses it
 *           when the first schedule needs too many registers.
 * Entry:    vliw_sched(LFunc *), vliw_sched_serial(LFunc *)
 * Tests:    tests/unit/check_vliw.c (packing, latencies, a loop whose
 *           body ends in a long-latency op).
 */
#include <string.h>

#include "backend/vliw/vliw.h"

typedef struct Edge {
	int to, lat;
} Edge;

typedef struct Node {
	VEC(Edge) succ;
	int npred;		/* unscheduled predecessors */
	int earliest;
	int prio;
	int cycle;		/* -1 until placed */
	int d;			/* flat register written, or -1 */
	int nr, r[4];		/* flat registers read (guard included) */
} Node;

typedef struct Sched {
	const MachPreset *mp;
	LIns *ins;
	int n;
	Node *node;
	Arena *a;
	int mode;		/* DRAIN, SERIAL */
	const int *base;	/* flat register index per class */
	/* the bundle being filled (ops are placed in the current cycle) */
	int used[NMACHUNIT + 1], ctrl, wait, nimm, nlabel;
	int32_t imm[64];
} Sched;

enum { MAXROUND = 8 };

/* Sched.mode: every result completes in its block; ops keep their order. */
enum { DRAIN = 1, SERIAL = 2 };

static int
lat(const Sched *S, const LIns *in)
{
	return S->mp->lat[mach_opinfo[in->op].lat];
}

static int
flags(const LIns *in)
{
	return mach_opinfo[in->op].flags;
}

static void
edge(Sched *S, int i, int j, int l)
{
	Edge e = { j, l };

	vec_push(S->a, &S->node[i].succ, e);
	S->node[j].npred++;
}

/* The flat registers in reads or writes (d gets the written one, or
   -1); returns how many it reads into r[]. */
static int
regs(const Sched *S, const LIns *in, int r[4], int *d)
{
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	const int v[] = { in->a, in->b, in->c };
	LClass c;
	int k, n = 0;

	if (in->guard)
		r[n++] = S->base[LC_P] + in->guard;
	for (k = 0; k < 3; k++)
		if ((c = llo_field_class(in->op, fld[k])) != LC_NONE &&
		    !(c == LC_P && v[k] == 0))
			r[n++] = S->base[c] + v[k];
	c = llo_field_class(in->op, FLD_D);
	*d = c == LC_NONE || (c == LC_P && in->d == 0) ? -1 :
	    S->base[c] + in->d;
	return n;
}

static int
reads(const Node *y, int r)
{
	int k;

	for (k = 0; k < y->nr; k++)
		if (y->r[k] == r)
			return 1;
	return 0;
}

/* RAW lat(x), WAW max(lat(x), 1), WAR 0; -1 if x and y share none. */
static int
reg_dep(Sched *S, int i, int j)
{
	const Node *x = &S->node[i], *y = &S->node[j];
	int l = -1, lx = lat(S, &S->ins[i]), k;

	if (x->d >= 0) {
		if (reads(y, x->d))
			l = lx;
		if (y->d == x->d && l < (lx > 1 ? lx : 1))
			l = lx > 1 ? lx : 1;
	}
	for (k = 0; k < x->nr && l < 0; k++)
		if (y->d == x->r[k])
			l = 0;
	return l;
}

enum { M_NONE, M_VLD, M_VST, M_SLD, M_SST };

static int
mem(const LIns *in)
{
	int f = flags(in), u = mach_opinfo[in->op].unit;

	if (u == U_VLD && (f & MACH_F_LOAD))
		return M_VLD;
	if (u == U_VST)
		return M_VST;
	if (in->op == OP_SLD)
		return M_SLD;
	if (in->op == OP_SST)
		return M_SST;
	return M_NONE;
}

static int
is_misc(const LIns *in)
{
	return mach_opinfo[in->op].unit == U_MISC;
}

static int
mem_dep(Sched *S, const LIns *x, const LIns *y)
{
	int mx = mem(x), my = mem(y);

	if (is_misc(x) && is_misc(y))
		return 1;
	if (is_misc(x) && my != M_NONE)
		return 1;
	if (mx != M_NONE && (flags(y) & MACH_F_DMA))
		return mx == M_VST || mx == M_SST ? lat(S, x) : 1;
	if (mx != M_NONE && is_misc(y))
		return 0;
	if (mx == M_VST && my == M_VLD)
		return lat(S, x);
	if (mx == M_VST && my == M_VST)
		return 1;
	if (mx == M_VLD && my == M_VST)
		return 0;
	if (mx == M_SST && my == M_SLD)
		return lat(S, x) > 1 ? lat(S, x) : 1;
	if ((mx == M_SST || mx == M_SLD) && (my == M_SST || my == M_SLD) &&
	    !(mx == M_SLD && my == M_SLD))
		return 1;
	return -1;
}

static int
is_eup_push(const LIns *in)
{
	return mach_opinfo[in->op].unit == U_EUP;
}

/* EUP FIFO order: pushes, pops, push->pop latency, depth. */
static void
fifo_deps(Sched *S)
{
	int *push = arena_alloc(S->a, sizeof(int) * (size_t)(S->n + 1));
	int *pop = arena_alloc(S->a, sizeof(int) * (size_t)(S->n + 1));
	int np = 0, nq = 0, i, depth = S->mp->eup_fifo;

	for (i = 0; i < S->n; i++) {
		if (is_eup_push(&S->ins[i])) {
			if (np)
				edge(S, push[np - 1], i, 1);
			if (depth > 0 && np >= depth && np - depth < nq)
				edge(S, pop[np - depth], i, 1);
			push[np++] = i;
		} else if (S->ins[i].op == OP_EPOP) {
			if (nq)
				edge(S, pop[nq - 1], i, 1);
			if (nq < np)
				edge(S, push[nq], i, lat(S, &S->ins[push[nq]]));
			pop[nq++] = i;
		}
	}
}

/* May in's result still be in flight when its block is left? */
static int
relaxed(const Sched *S, const LIns *in)
{
	LClass c = llo_field_class(in->op, FLD_D);

	if ((S->mode & DRAIN) || c == LC_NONE || (c == LC_P && in->d == 0))
		return 0;
	return !(flags(in) & (MACH_F_PUSH | MACH_F_STORE | MACH_F_DMA |
	    MACH_F_STALL));
}

/* The wait before y, the block's control op, after x. */
static int
ctrl_lat(const Sched *S, const LIns *x, const LIns *y)
{
	int m = lat(S, x) - 1;

	if (y->op == OP_BR && relaxed(S, x))
		return 0;
	return m > 0 ? m : 0;
}

static void
deps(Sched *S)
{
	int i, j, l, m;

	for (i = 0; i < S->n; i++)
		for (j = i + 1; j < S->n; j++) {
			const LIns *x = &S->ins[i], *y = &S->ins[j];
			l = reg_dep(S, i, j);
			m = mem_dep(S, x, y);
			if (m > l)
				l = m;
			if ((flags(y) & MACH_F_CTRL) && l < ctrl_lat(S, x, y))
				l = ctrl_lat(S, x, y);
			if (l >= 0)
				edge(S, i, j, l);
		}
	fifo_deps(S);
	for (i = 0; (S->mode & SERIAL) && i + 1 < S->n; i++)
		edge(S, i, i + 1, 0);
}

static void
priorities(Sched *S)
{
	int i, k;

	for (i = S->n - 1; i >= 0; i--) {
		Node *nd = &S->node[i];
		nd->prio = lat(S, &S->ins[i]);
		for (k = 0; k < nd->succ.n; k++) {
			int p = nd->succ.v[k].lat + S->node[nd->succ.v[k].to].prio;
			if (p > nd->prio)
				nd->prio = p;
		}
	}
}

static int
pooled(const Sched *S, int32_t v)
{
	int j;

	for (j = 0; j < S->nimm; j++)
		if (S->imm[j] == v)
			return 1;
	return 0;
}

/* Room in the current bundle for in: slots, pool, control, waits. */
static int
fits(Sched *S, const LIns *in)
{
	int unit = mach_opinfo[in->op].unit;

	if (S->used[unit] >= S->mp->slots[unit])
		return 0;
	if ((flags(in) & MACH_F_CTRL) && S->ctrl)
		return 0;
	if ((flags(in) & MACH_F_STALL) && S->wait)
		return 0;
	if (llo_has_imm(in->op) && (in->target >= 0 || !pooled(S, in->imm)) &&
	    S->nimm + S->nlabel >= S->mp->nimm)
		return 0;
	return 1;
}

static void
place(Sched *S, int i, int c)
{
	Node *nd = &S->node[i];
	const LIns *in = &S->ins[i];
	int k;

	nd->cycle = c;
	S->ins[i].cycle = c;
	S->used[mach_opinfo[in->op].unit]++;
	S->ctrl += (flags(in) & MACH_F_CTRL) != 0;
	S->wait += (flags(in) & MACH_F_STALL) != 0;
	if (llo_has_imm(in->op) && in->target >= 0)
		S->nlabel++;
	else if (llo_has_imm(in->op) && !pooled(S, in->imm) && S->nimm < 64)
		S->imm[S->nimm++] = in->imm;
	for (k = 0; k < nd->succ.n; k++) {
		Node *t = &S->node[nd->succ.v[k].to];
		t->npred--;
		if (t->earliest < c + nd->succ.v[k].lat)
			t->earliest = c + nd->succ.v[k].lat;
	}
}

/* A new, empty bundle. */
static void
open_bundle(Sched *S)
{
	memset(S->used, 0, sizeof S->used);
	S->ctrl = S->wait = S->nimm = S->nlabel = 0;
}

/* The ready op of highest priority that fits cycle c, or -1. */
static int
pick(Sched *S, int c)
{
	int i, best = -1;

	for (i = 0; i < S->n; i++) {
		Node *nd = &S->node[i];
		if (nd->cycle >= 0 || nd->npred || nd->earliest > c)
			continue;
		if (best >= 0 && S->node[best].prio >= nd->prio)
			continue;
		if (fits(S, &S->ins[i]))
			best = i;
	}
	return best;
}

/* Stable sort by cycle (insertion sort: blocks are small). */
static void
sort_block(LBlk *b)
{
	int i, j;

	for (i = 1; i < b->ins.n; i++) {
		LIns t = b->ins.v[i];
		for (j = i; j > 0 && b->ins.v[j - 1].cycle > t.cycle; j--)
			b->ins.v[j] = b->ins.v[j - 1];
		b->ins.v[j] = t;
	}
}

/* Ops touching a register pending at entry wait until it is ready. */
static void
entry_waits(Sched *S, const int *entry)
{
	int i, k;

	for (i = 0; i < S->n; i++) {
		Node *nd = &S->node[i];
		for (k = 0; k < nd->nr; k++)
			if (nd->earliest < entry[nd->r[k]])
				nd->earliest = entry[nd->r[k]];
		if (nd->d >= 0 && nd->earliest < entry[nd->d])
			nd->earliest = entry[nd->d];
	}
}

/* The block's length, and (leave) what is still in flight at its end. */
static int
finish(Sched *S, const int *entry, int *leave, int nflat)
{
	int i, r, end = 0, l, e, d;

	for (i = 0; i < S->n; i++) {
		l = lat(S, &S->ins[i]);
		e = S->ins[i].cycle + (l > 1 ? l : 1);
		if ((flags(&S->ins[i]) & MACH_F_CTRL) ||
		    relaxed(S, &S->ins[i]))
			e = S->ins[i].cycle + 1;
		if (e > end)
			end = e;
	}
	for (r = 0; r < nflat; r++)
		leave[r] = entry[r] > end ? entry[r] - end : 0;
	for (i = 0; i < S->n; i++) {
		d = S->node[i].d;
		l = S->ins[i].cycle + lat(S, &S->ins[i]) - end;
		if (d >= 0 && leave[d] < l)
			leave[d] = l;
	}
	return end;
}

/* Schedules b; entry/leave: cycles until each flat register is ready. */
static void
block(LFunc *f, LBlk *b, const int *base, int mode, const int *entry,
    int *leave)
{
	Sched S;
	Arena a;
	int i, c, left = b->ins.n;

	memset(&a, 0, sizeof a);
	S.mp = f->mp;
	S.ins = b->ins.v;
	S.n = b->ins.n;
	S.a = &a;
	S.mode = mode;
	S.base = base;
	S.node = arena_alloc(&a, sizeof(Node) * (size_t)(S.n + 1));
	for (i = 0; i < S.n; i++) {
		S.node[i].cycle = -1;
		S.node[i].nr = regs(&S, &S.ins[i], S.node[i].r, &S.node[i].d);
	}
	deps(&S);
	priorities(&S);
	entry_waits(&S, entry);
	for (c = 0; left; c++) {
		if (c > 64 * (S.n + 64) + 100000)
			bug("vliw: sched: function '%s': an op never fits a "
			    "bundle", f->name);
		open_bundle(&S);
		while ((i = pick(&S, c)) >= 0) {
			place(&S, i, c);
			left--;
		}
	}
	b->nbundle = finish(&S, entry, leave, base[NLCLASS]);
	arena_free(&a);
	sort_block(b);
}

/* The successors of block b (layout fall-through and br target). */
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

typedef struct Fn {
	LFunc *f;
	Arena a;
	int base[NLCLASS + 1];
	LIns **orig;		/* each block's ops in program order */
	int **entry, **leave;	/* per block, per flat register */
} Fn;

/* Raises entry[s] to what b leaves in flight; 1 if it grew. */
static int
merge(Fn *F, int b, int s)
{
	int r, grew = 0;

	for (r = 0; r < F->base[NLCLASS]; r++)
		if (F->entry[s][r] < F->leave[b][r]) {
			F->entry[s][r] = F->leave[b][r];
			grew = 1;
		}
	return grew;
}

/* One pass over the blocks in layout order; 1 if an entry grew. */
static int
sched_pass(Fn *F, int mode)
{
	int b, k, ns, s[2], grew = 0;
	LBlk *bk;

	for (b = 0; b < F->f->blk.n; b++) {
		bk = &F->f->blk.v[b];
		if (bk->ins.n)
			memcpy(bk->ins.v, F->orig[b], sizeof(LIns) *
			    (size_t)bk->ins.n);
		block(F->f, bk, F->base, mode, F->entry[b], F->leave[b]);
		ns = succs(F->f, b, s);
		for (k = 0; k < ns; k++)
			grew |= merge(F, b, s[k]);
	}
	return grew;
}

static void
schedule(LFunc *f, int mode)
{
	Fn F;
	int b, c, n, k;
	size_t sz;

	memset(&F, 0, sizeof F);
	F.f = f;
	for (c = 0; c < NLCLASS; c++)
		F.base[c + 1] = F.base[c] + f->nreg[c];
	n = f->blk.n;
	sz = sizeof(int) * (size_t)(F.base[NLCLASS] + 1);
	F.orig = arena_alloc(&F.a, sizeof(LIns *) * (size_t)(n + 1));
	F.entry = arena_alloc(&F.a, sizeof(int *) * (size_t)(n + 1));
	F.leave = arena_alloc(&F.a, sizeof(int *) * (size_t)(n + 1));
	for (b = 0; b < n; b++) {
		LBlk *bk = &f->blk.v[b];
		F.orig[b] = arena_alloc(&F.a, sizeof(LIns) *
		    (size_t)(bk->ins.n + 1));
		if (bk->ins.n)
			memcpy(F.orig[b], bk->ins.v, sizeof(LIns) *
			    (size_t)bk->ins.n);
		F.entry[b] = arena_alloc(&F.a, sz);
		F.leave[b] = arena_alloc(&F.a, sz);
	}
	for (k = 0; k < MAXROUND && sched_pass(&F, mode); k++)
		;
	if (k == MAXROUND) {
		for (b = 0; b < n; b++)
			memset(F.entry[b], 0, sz);
		sched_pass(&F, mode | DRAIN);
	}
	arena_free(&F.a);
	f->scheduled = 1;
}

void
vliw_sched(LFunc *f)
{
	int b, i;

	for (b = 0; b < f->blk.n && !f->scheduled; b++)
		for (i = 0; i < f->blk.v[b].ins.n; i++)
			f->blk.v[b].ins.v[i].seq = i;
	schedule(f, 0);
}

void
vliw_sched_serial(LFunc *f)
{
	int b, i;

	if (!f->scheduled)
		bug("vliw: sched: function '%s' is not scheduled", f->name);
	for (b = 0; b < f->blk.n; b++) {
		LBlk *bk = &f->blk.v[b];
		LIns *t = arena_alloc(f->arena, sizeof(LIns) *
		    (size_t)(bk->ins.n + 1));
		for (i = 0; i < bk->ins.n; i++)
			t[bk->ins.v[i].seq] = bk->ins.v[i];
		if (bk->ins.n)
			memcpy(bk->ins.v, t, sizeof(LIns) * (size_t)bk->ins.n);
	}
	schedule(f, SERIAL);
}
