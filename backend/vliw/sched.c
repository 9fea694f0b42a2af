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
 *           the block's control op last, and after every result is ready
 *           (lat(i) - 1); a block without one is padded with empty
 *           bundles until every result is ready, so values and stores
 *           are complete whenever a block is left.
 * Method:   list scheduling, cycle by cycle.  Priority is the longest
 *           latency path to the end of the block; ties go to the earlier
 *           op, so the output is deterministic.
 * Entry:    vliw_sched(LFunc *)
 * Tests:    tests/unit/check_vliw.c (packing, latencies).
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
} Node;

typedef struct Sched {
	const MachPreset *mp;
	LIns *ins;
	int n;
	Node *node;
	Arena *a;
} Sched;

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

/* Register r of class c is written by in (its D field). */
static int
defs(const LIns *in, LClass c, int r)
{
	return llo_field_class(in->op, FLD_D) == c && in->d == r &&
	    !(c == LC_P && r == 0);
}

static int
reads(const LIns *in, LClass c, int r)
{
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	const int v[] = { in->a, in->b, in->c };
	int k;

	if (c == LC_P && r == 0)
		return 0;
	if (c == LC_P && in->guard == r)
		return 1;
	for (k = 0; k < 3; k++)
		if (llo_field_class(in->op, fld[k]) == c && v[k] == r)
			return 1;
	return 0;
}

static int
reg_dep(Sched *S, const LIns *x, const LIns *y)
{
	LClass c = llo_field_class(x->op, FLD_D);
	int l = -1;
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	const int v[] = { x->a, x->b, x->c };
	int k;

	if (c != LC_NONE && !(c == LC_P && x->d == 0)) {
		if (reads(y, c, x->d))
			l = lat(S, x);
		if (defs(y, c, x->d) && l < (lat(S, x) > 1 ? lat(S, x) : 1))
			l = lat(S, x) > 1 ? lat(S, x) : 1;
	}
	for (k = 0; k < 3; k++) {
		LClass ck = llo_field_class(x->op, fld[k]);
		if (ck != LC_NONE && defs(y, ck, v[k]) && l < 0)
			l = 0;
	}
	if (x->guard && defs(y, LC_P, x->guard) && l < 0)
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

static void
deps(Sched *S)
{
	int i, j, l, m;

	for (i = 0; i < S->n; i++)
		for (j = i + 1; j < S->n; j++) {
			const LIns *x = &S->ins[i], *y = &S->ins[j];
			l = reg_dep(S, x, y);
			m = mem_dep(S, x, y);
			if (m > l)
				l = m;
			if (flags(y) & MACH_F_CTRL) {
				m = lat(S, x) - 1;
				if (l < (m > 0 ? m : 0))
					l = m > 0 ? m : 0;
			}
			if (l >= 0)
				edge(S, i, j, l);
		}
	fifo_deps(S);
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

/* Room in the bundle at cycle c for in: slots, pool, control, waits. */
static int
fits(Sched *S, const LIns *in, int c)
{
	int used = 0, ctrl = 0, wait = 0, nimm = 0, i, j, dup;
	int32_t imm[64];
	int unit = mach_opinfo[in->op].unit;

	for (i = 0; i < S->n; i++) {
		const LIns *x = &S->ins[i];
		if (S->node[i].cycle != c)
			continue;
		used += mach_opinfo[x->op].unit == unit;
		ctrl += (flags(x) & MACH_F_CTRL) != 0;
		wait += (flags(x) & MACH_F_STALL) != 0;
		if (!llo_has_imm(x->op))
			continue;
		for (dup = 0, j = 0; j < nimm && x->target < 0; j++)
			dup |= imm[j] == x->imm;
		if (!dup && nimm < 64)
			imm[nimm++] = x->target >= 0 ? INT32_MIN + i : x->imm;
	}
	if (used >= S->mp->slots[unit])
		return 0;
	if ((flags(in) & MACH_F_CTRL) && ctrl)
		return 0;
	if ((flags(in) & MACH_F_STALL) && wait)
		return 0;
	if (llo_has_imm(in->op)) {
		for (dup = 0, j = 0; j < nimm && in->target < 0; j++)
			dup |= imm[j] == in->imm;
		if (!dup && nimm >= S->mp->nimm)
			return 0;
	}
	return 1;
}

static void
place(Sched *S, int i, int c)
{
	Node *nd = &S->node[i];
	int k;

	nd->cycle = c;
	S->ins[i].cycle = c;
	for (k = 0; k < nd->succ.n; k++) {
		Node *t = &S->node[nd->succ.v[k].to];
		t->npred--;
		if (t->earliest < c + nd->succ.v[k].lat)
			t->earliest = c + nd->succ.v[k].lat;
	}
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
		if (fits(S, &S->ins[i], c))
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

static void
block(LFunc *f, LBlk *b)
{
	Sched S;
	Arena a;
	int i, c, left = b->ins.n, end = 0;

	memset(&a, 0, sizeof a);
	S.mp = f->mp;
	S.ins = b->ins.v;
	S.n = b->ins.n;
	S.a = &a;
	S.node = arena_alloc(&a, sizeof(Node) * (size_t)(S.n + 1));
	for (i = 0; i < S.n; i++)
		S.node[i].cycle = -1;
	deps(&S);
	priorities(&S);
	for (c = 0; left; c++) {
		if (c > 64 * (S.n + 64) + 100000)
			bug("vliw: sched: function '%s': an op never fits a "
			    "bundle", f->name);
		while ((i = pick(&S, c)) >= 0) {
			place(&S, i, c);
			left--;
		}
	}
	for (i = 0; i < S.n; i++) {
		int l = lat(&S, &S.ins[i]);
		int e = S.ins[i].cycle + (l > 1 ? l : 1);
		if (flags(&S.ins[i]) & MACH_F_CTRL)
			e = S.ins[i].cycle + 1;
		if (e > end)
			end = e;
	}
	b->nbundle = end;
	arena_free(&a);
	sort_block(b);
}

void
vliw_sched(LFunc *f)
{
	int i;

	for (i = 0; i < f->blk.n; i++)
		block(f, &f->blk.v[i]);
	f->scheduled = 1;
}
