/*
 * sched.c - pack each block's instructions into VLIW bundles.
 *
 * Needs:    an LFunc from vliw_isel() (virtual registers; a block's br or
 *           halt, if any, is its last op; EUP and XLU pushes and their
 *           pops in the same block).
 * Gives:    LIns.cycle for every op, each block's ops sorted by cycle
 *           (stable), LBlk.nbundle.  Every bundle respects the preset's
 *           slot counts per class, the immediate pool (a label counts as
 *           one distinct word), one control op and one wait per bundle.
 *           No op is added, removed or rewritten.
 * Ordering: (cycle[j] >= cycle[i] + lat for i before j)
 *           register RAW lat(i), WAR 0, WAW max(lat(i), 1);
 *           memory and DMA order as dep.c says (vliw_mem_dep);
 *           EUP pushes in order, pops in order, pop k >= push k + LAT_EUP,
 *           push k >= pop (k - eup_fifo) + 1;
 *           per XLU (xlu_deps): pushes in order, each the unit's issue
 *           interval after the one before (so none waits for the unit);
 *           pops in order, each after its entry is ready (the push's
 *           latency; a transpose block's entries LAT_XLU_XPOSE after its
 *           last push, one interval apart); a push after the pop that
 *           makes room in the FIFO;
 *           per MXU (mxu_deps): pushes, latches and matmuls keep their
 *           order (push->latch lat(push), latch->matmul lat(latch), the
 *           rest 1; a push and a matmul are independent: the stage is
 *           double-buffered); a matmul waits for the MXU to be free
 *           (the previous matmul plus its busy time, so none ever
 *           queues); pops in order, each at least the ready time of its
 *           FIFO entry (matmul + LAT_MXU + busy - one row group's time);
 *           a matmul after the pop that makes room for its results;
 *           the block's control op last.
 * Blocks:   a register result may still be in flight when its block is
 *           left (a load, VALU op or pop near the end of a loop body), and
 *           so may matmuls: each block's entry knows, per MXU, when it is
 *           free and the ready time of every FIFO entry still queued (the
 *           entry counts come from a pass over the blocks, which must
 *           agree at every join), so a pop may take a result of an
 *           earlier block (software-pipelined loops);
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
 *           block, which needs no entry state.  A taken branch's bubble
 *           (the branch latency) counts as elapsed time on its edge.
 * Method:   list scheduling, cycle by cycle.  Priority is the longest
 *           latency path to the end of the block; ties go to the earlier
 *           op, so the output is deterministic.  vliw_sched_serial
 *           schedules again keeping every block's ops in their order from
 *           vliw_isel (no op starts before an earlier one), so no value
 *           lives longer than the selector made it; vliw_regalloc uses it
 *           when the first schedule needs too many registers.  Blocks
 *           vliw_modulo made (LBlk.inorder) are always scheduled so: their
 *           order is the software pipeline's.
 * Entry:    vliw_sched(LFunc *), vliw_sched_serial(LFunc *),
 *           vliw_sched_again(LFunc *)
 * Tests:    tests/unit/check_vliw.c (packing, latencies, a loop whose
 *           body ends in a long-latency op); tests/unit/check_mxu.c
 *           (pipelined matmul streams on the simulator).
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

/* One MXU's FIFO in the block being scheduled. */
typedef struct Mx {
	int nent;		/* entries queued at the block's entry */
	int npop;		/* pops of the block */
	int npush;		/* entries the block's matmuls push */
	int firstmm, lastmm;	/* the block's matmuls on it, or -1 */
	int *owner;		/* entry nent + k: pushed by op owner[k] */
} Mx;

typedef struct Sched {
	const MachPreset *mp;
	LIns *ins;
	int n;
	Node *node;
	Arena *a;
	int mode;		/* DRAIN, SERIAL */
	const int *base;	/* flat register index per class */
	const int *mcnt;	/* per MXU: FIFO entries at the block's entry */
	Mx *mx;			/* per MXU */
	int *ment;		/* per op: the FIFO entry a pop takes, or -1 */
	int window;		/* > 0: no op issues this far ahead of the
				   oldest unplaced one */
	int oldest;		/* the oldest unplaced op */
	/* the bundle being filled (ops are placed in the current cycle) */
	int used[NMACHUNIT + 1], ctrl, wait, nimm, nlabel;
	int32_t imm[64];
} Sched;

enum { MAXROUND = 8 };

/* Blocks with matmuls (software-pipelined streams) are scheduled within
   a window of this many ops per vector register, in isel's order: ops
   far ahead (loads, pops of later steps) would only hold registers. */
enum { WINDOW_REGS = 2 };

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

static int
is_mm(const LIns *in)
{
	return in->op == OP_MXMM || in->op == OP_MXMMB;
}

/* The MXU state slots after the flat registers: per MXU, the cycles
   until it is free, then the ready time of each queued FIFO entry. */
static int
mx_slots(const MachPreset *mp)
{
	return mp->nmxu * (1 + mp->mxu_fifo);
}

static int
rows_cycles(const MachPreset *mp, int rows)
{
	int rpc = mp->mxu_rows_per_cycle > 0 ? mp->mxu_rows_per_cycle : 1;

	return (rows + rpc - 1) / rpc;
}

/* The FIFO entries (vregs) a matmul pushes. */
static int
mm_need(const MachPreset *mp, const LIns *in)
{
	if (in->x & MACH_MM_HOLD)
		return 0;
	return (in->op == OP_MXMMB ? 2 : 1) * (mp->mxu_dim / mp->lanes);
}

/* The cycles a matmul keeps its MXU busy (machine/sim_mxu.c). */
static int
mm_dur(const MachPreset *mp, const LIns *in)
{
	unsigned prec = (in->x & MACH_MM_PREC_MASK) >> MACH_MM_PREC_SHIFT;
	int p = prec < NMACHPREC ? mp->mxu_passes[prec] : 1;

	return rows_cycles(mp, (in->op == OP_MXMMB ? 2 : 1) * mp->sublanes) *
	    (p > 0 ? p : 1);
}

/* Issue to results ready, for a matmul that starts when it issues. */
static int
mm_ready(const MachPreset *mp, const LIns *in)
{
	return mp->lat[LAT_MXU] + mm_dur(mp, in) -
	    rows_cycles(mp, mp->sublanes);
}

static void
edge(Sched *S, int i, int j, int l)
{
	Edge e = { j, l };

	vec_push(S->a, &S->node[i].succ, e);
	S->node[j].npred++;
}

/* RAW lat(x), WAW max(lat(x), 1), WAR 0; -1 if x and y share none. */
static int
reg_dep(Sched *S, int i, int j)
{
	const Node *x = &S->node[i], *y = &S->node[j];

	return vliw_reg_dep(lat(S, &S->ins[i]), x->d, x->r, x->nr, y->d, y->r,
	    y->nr);
}

static int
mem_dep(Sched *S, const LIns *x, const LIns *y)
{
	return vliw_mem_dep(S->mp, x, y);
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

/* The cycles XLU unit c takes a push of op before the next (an early
   push would wait for the unit and its result be later than its
   latency says: pushes are kept this far apart instead). */
static int
xlu_interval(const MachPreset *mp, int op)
{
	int k = op == OP_XXPOSE || op == OP_XXPOSEEND ? mp->xlu_xpose_interval :
	    op == OP_XSUM || op == OP_XMAX ? mp->xlu_reduce_interval : 1;

	return k > 0 ? k : 1;
}

/* The XLU FIFO of unit c: entry -> the op it is ready after, and how
   long after. */
typedef struct Xf {
	int *from, *wait, *popop;
	int nent, npop, lastpush, lastpop;
	int nrows, first;	/* the open transpose block: rows, entry */
} Xf;

/* A push of unit c's FIFO: spacing, room, and the entries it makes
   ready (a transpose block's L/S entries after its last push, one
   every interval). */
static void
xlu_push(Sched *S, Xf *x, int i)
{
	const MachPreset *mp = S->mp;
	const LIns *in = &S->ins[i];
	int nblk = mp->lanes / mp->sublanes, xp = in->op == OP_XXPOSE ||
	    in->op == OP_XXPOSEEND, need, e, q;

	if (x->lastpush >= 0)
		edge(S, x->lastpush, i, xlu_interval(mp, S->ins[x->lastpush].op));
	if (xp && x->nrows == 0)
		x->first = x->nent;
	need = in->op == OP_XXPOSEEND ? nblk - (x->nent - x->first) : 1;
	for (e = x->nent; e < x->nent + need; e++) {
		if (e >= mp->xlu_fifo && e - mp->xlu_fifo >= x->npop)
			bug("vliw: sched: a push into xlu%d's full FIFO", in->c);
		if (e >= mp->xlu_fifo)
			edge(S, x->popop[e - mp->xlu_fifo], i, 1);
		x->from[e] = -1;
	}
	x->nent += need;
	x->lastpush = i;
	if (!xp) {
		x->from[x->nent - 1] = i;
		x->wait[x->nent - 1] = lat(S, in);
		return;
	}
	x->nrows += mp->sublanes;
	if (in->op != OP_XXPOSEEND && x->nrows < mp->lanes)
		return;
	for (q = 0; q < nblk; q++) {
		x->from[x->first + q] = i;
		x->wait[x->first + q] = mp->lat[LAT_XLU_XPOSE] + q *
		    xlu_interval(mp, in->op);
	}
	x->nrows = 0;
}

/* Per XLU: pushes in order and their interval apart, pops in order, each
   after its entry is ready, a push after the pop that makes room. */
static void
xlu_deps(Sched *S)
{
	const MachPreset *mp = S->mp;
	int c, i, n = S->n * (mp->lanes / (mp->sublanes > 0 ? mp->sublanes :
	    1)) + 1;
	Xf x;

	for (c = 0; c < mp->nxlu; c++) {
		memset(&x, 0, sizeof x);
		x.from = arena_alloc(S->a, sizeof(int) * (size_t)n);
		x.wait = arena_alloc(S->a, sizeof(int) * (size_t)n);
		x.popop = arena_alloc(S->a, sizeof(int) * (size_t)n);
		x.lastpush = x.lastpop = -1;
		for (i = 0; i < S->n; i++) {
			const LIns *in = &S->ins[i];
			if (in->c != c)
				continue;
			if (mach_opinfo[in->op].unit == U_XLU) {
				xlu_push(S, &x, i);
				continue;
			}
			if (in->op != OP_XPOP)
				continue;
			if (x.npop >= x.nent || x.from[x.npop] < 0)
				bug("vliw: sched: a pop of xlu%d's empty FIFO", c);
			if (x.lastpop >= 0)
				edge(S, x.lastpop, i, 1);
			edge(S, x.from[x.npop], i, x.wait[x.npop]);
			x.popop[x.npop++] = i;
			x.lastpop = i;
		}
		if (x.npop != x.nent)
			bug("vliw: sched: xlu%d's FIFO is left with %d entries",
			    c, x.nent - x.npop);
	}
}

/* Per MXU: pushes, latches and matmuls in order, matmuls one after the
   other's busy time, pops in order after their entries are ready, and
   a matmul after the pop that makes room for it. */
static void
mxu_deps(Sched *S)
{
	const MachPreset *mp = S->mp;
	int c, i, k, e, need, push, latch, room, maxneed = 2 * (mp->mxu_dim /
	    (mp->lanes > 0 ? mp->lanes : 1)) + 1;
	int *pops = arena_alloc(S->a, sizeof(int) * (size_t)(S->n + 1));
	Mx *x;

	for (i = 0; i < S->n; i++)
		S->ment[i] = -1;
	for (c = 0; c < mp->nmxu; c++) {
		x = &S->mx[c];
		x->nent = S->mcnt[c];
		x->owner = arena_alloc(S->a, sizeof(int) *
		    (size_t)(S->n * maxneed + 1));
		x->firstmm = x->lastmm = push = latch = -1;
		x->npop = x->npush = 0;
		for (i = 0; i < S->n; i++)
			if (S->ins[i].op == OP_MPOP && S->ins[i].c == c)
				pops[x->npop++] = i;
		for (i = 0, k = 0; i < S->n; i++) {
			const LIns *in = &S->ins[i];
			if (in->c != c || (mach_opinfo[in->op].unit != U_MXU &&
			    in->op != OP_MPOP))
				continue;
			if (in->op == OP_MPOP) {
				if (k)
					edge(S, pops[k - 1], i, 1);
				e = k++ - x->nent;
				S->ment[i] = k - 1;
				if (e >= x->npush)
					bug("vliw: sched: a pop of mxu%d's empty "
					    "result FIFO", c);
				if (e >= 0)
					edge(S, x->owner[e], i, mm_ready(mp,
					    &S->ins[x->owner[e]]));
			} else if (in->op == OP_MLATCH) {
				if (push >= 0)
					edge(S, push, i, lat(S, &S->ins[push]));
				if (x->lastmm >= 0)
					edge(S, x->lastmm, i, 1);
				if (latch >= 0)
					edge(S, latch, i, 1);
				latch = i;
			} else if (is_mm(in)) {
				if (latch >= 0)
					edge(S, latch, i, lat(S, &S->ins[latch]) > 1 ?
					    lat(S, &S->ins[latch]) : 1);
				if (x->lastmm >= 0)
					edge(S, x->lastmm, i, mm_dur(mp,
					    &S->ins[x->lastmm]));
				else
					x->firstmm = i;
				x->lastmm = i;
				need = mm_need(mp, in);
				room = x->nent + x->npush + need - mp->mxu_fifo;
				if (need && room > x->npop)
					bug("vliw: sched: a matmul into mxu%d's full "
					    "result FIFO", c);
				if (need && room > 0)
					edge(S, pops[room - 1], i, 1);
				for (e = 0; e < need; e++)
					x->owner[x->npush++] = i;
			} else {
				if (latch >= 0)
					edge(S, latch, i, 1);
				if (push >= 0)
					edge(S, push, i, 1);
				push = i;
			}
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
	if (is_mm(x))
		return y->op == OP_BR && !(S->mode & DRAIN) ? 0 :
		    mm_ready(S->mp, x) - 1;
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
	xlu_deps(S);
	mxu_deps(S);
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
		if (S->window > 0 && i - S->oldest > S->window)
			break;
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
	entry += S->base[NLCLASS];
	for (k = 0; k < S->mp->nmxu; k++) {
		const int *me = entry + k * (1 + S->mp->mxu_fifo);
		Node *nd;
		if (S->mx[k].firstmm >= 0) {
			nd = &S->node[S->mx[k].firstmm];
			if (nd->earliest < me[0])
				nd->earliest = me[0];
		}
		for (i = 0; i < S->n; i++)
			if (S->ins[i].c == k && S->ment[i] >= 0 &&
			    S->ment[i] < S->mx[k].nent &&
			    S->node[i].earliest < me[1 + S->ment[i]])
				S->node[i].earliest = me[1 + S->ment[i]];
	}
}

/* What each MXU leaves at the block's end (cycle 'end'): busy time and
   the ready times of the entries still queued. */
static void
mxu_leave(const Sched *S, const int *entry, int *leave, int end)
{
	const MachPreset *mp = S->mp;
	int c, e, r, w = 1 + mp->mxu_fifo;

	for (c = 0; c < mp->nmxu; c++) {
		const Mx *x = &S->mx[c];
		const int *me = entry + c * w;
		int *ml = leave + c * w;
		const LIns *mm;
		memset(ml, 0, sizeof(int) * (size_t)w);
		ml[0] = me[0] - end;
		if (x->lastmm >= 0) {
			mm = &S->ins[x->lastmm];
			r = mm->cycle + mm_dur(mp, mm) - end;
			ml[0] = r > ml[0] ? r : ml[0];
		}
		ml[0] = ml[0] > 0 ? ml[0] : 0;
		for (e = x->npop; e < x->nent + x->npush; e++) {
			if (e - x->npop >= mp->mxu_fifo)
				bug("vliw: sched: mxu%d's result FIFO overflows",
				    c);
			if (e < x->nent)
				r = me[1 + e] - end;
			else {
				mm = &S->ins[x->owner[e - x->nent]];
				r = mm->cycle + mm_ready(mp, mm) - end;
			}
			ml[1 + e - x->npop] = r > 0 ? r : 0;
		}
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
		    relaxed(S, &S->ins[i]) ||
		    (is_mm(&S->ins[i]) && !(S->mode & DRAIN)))
			e = S->ins[i].cycle + 1;
		else if (is_mm(&S->ins[i]))
			e = S->ins[i].cycle + mm_ready(S->mp, &S->ins[i]);
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
	mxu_leave(S, entry + nflat, leave + nflat, end);
	return end;
}

/* Schedules b; entry/leave: cycles until each flat register is ready. */
static void
block(LFunc *f, LBlk *b, const int *base, int mode, const int *entry,
    int *leave, const int *mcnt)
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
	S.mcnt = mcnt;
	S.mx = arena_alloc(&a, sizeof(Mx) * (size_t)(f->mp->nmxu + 1));
	S.ment = arena_alloc(&a, sizeof(int) * (size_t)(S.n + 1));
	S.node = arena_alloc(&a, sizeof(Node) * (size_t)(S.n + 1));
	S.oldest = 0;
	S.window = 0;
	for (i = 0; i < S.n; i++)
		if (is_mm(&S.ins[i]) && !(mode & SERIAL))
			S.window = WINDOW_REGS * f->mp->nvreg;
	for (i = 0; i < S.n; i++) {
		S.node[i].cycle = -1;
		S.node[i].nr = llo_flat_regs(&S.ins[i], base, S.node[i].r,
		    &S.node[i].d);
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
			while (S.oldest < S.n && S.node[S.oldest].cycle >= 0)
				S.oldest++;
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
	int **entry, **leave;	/* per block, per flat register, then the
				   MXU slots (mx_slots) */
	int **mcnt;		/* per block, per MXU: FIFO entries at entry */
	int nslot;		/* flat registers + MXU slots */
} Fn;

/* The FIFO entries of each MXU at each block's entry: what the
   predecessors leave (pushes minus pops), which must agree. */
static void
fifo_counts(Fn *F)
{
	const LFunc *f = F->f;
	int nmx = f->mp->nmxu, b, c, i, k, ns, s[2], round, changed = 1;
	int *set = arena_alloc(&F->a, sizeof(int) * (size_t)(f->blk.n + 1));
	int *out = arena_alloc(&F->a, sizeof(int) * (size_t)(nmx + 1));

	F->mcnt = arena_alloc(&F->a, sizeof(int *) * (size_t)(f->blk.n + 1));
	for (b = 0; b < f->blk.n; b++)
		F->mcnt[b] = arena_alloc(&F->a, sizeof(int) * (size_t)(nmx + 1));
	if (f->blk.n)
		set[0] = 1;
	for (round = 0; changed && round <= f->blk.n; round++) {
		changed = 0;
		for (b = 0; b < f->blk.n; b++) {
			const LBlk *bk = &f->blk.v[b];
			if (!set[b])
				continue;
			memcpy(out, F->mcnt[b], sizeof(int) * (size_t)nmx);
			for (i = 0; i < bk->ins.n; i++) {
				const LIns *in = &bk->ins.v[i];
				if (is_mm(in) && in->c >= 0 && in->c < nmx)
					out[in->c] += mm_need(f->mp, in);
				else if (in->op == OP_MPOP && in->c >= 0 &&
				    in->c < nmx)
					out[in->c]--;
			}
			ns = succs(f, b, s);
			for (k = 0; k < ns; k++) {
				if (!set[s[k]]) {
					memcpy(F->mcnt[s[k]], out, sizeof(int) *
					    (size_t)nmx);
					set[s[k]] = changed = 1;
					continue;
				}
				for (c = 0; c < nmx; c++)
					if (F->mcnt[s[k]][c] != out[c])
						bug("vliw: sched: function '%s': "
						    "mxu%d's result FIFO holds %d or %d "
						    "entries at block %d", f->name, c,
						    F->mcnt[s[k]][c], out[c], s[k]);
			}
		}
	}
}

/* Raises entry[s] to what b leaves in flight, less the cycles of the
   taken branch's bubble on that edge; 1 if it grew. */
static int
merge(Fn *F, int b, int s, int bubble)
{
	int r, grew = 0, l;

	for (r = 0; r < F->nslot; r++) {
		l = F->leave[b][r] - bubble;
		if (F->entry[s][r] < l) {
			F->entry[s][r] = l;
			grew = 1;
		}
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
		block(F->f, bk, F->base, mode | (bk->inorder ? SERIAL : 0),
		    F->entry[b], F->leave[b], F->mcnt[b]);
		ns = succs(F->f, b, s);
		for (k = 0; k < ns; k++)	/* s[0]: a br's target */
			grew |= merge(F, b, s[k], k == 0 && bk->ins.n &&
			    bk->ins.v[bk->ins.n - 1].op == OP_BR ?
			    F->f->mp->lat[LAT_BRANCH] : 0);
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
	F.nslot = F.base[NLCLASS] + mx_slots(f->mp);
	sz = sizeof(int) * (size_t)(F.nslot + 1);
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
	fifo_counts(&F);
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

/* Back to vliw_isel's order in every block, and scheduled in mode. */
static void
reschedule(LFunc *f, int mode)
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
	schedule(f, mode);
}

void
vliw_sched_serial(LFunc *f)
{
	reschedule(f, SERIAL);
}

void
vliw_sched_again(LFunc *f)
{
	reschedule(f, 0);
}
