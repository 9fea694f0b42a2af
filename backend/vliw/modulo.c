/*
 * modulo.c - software pipelining of counted one-block loops (modulo
 * scheduling), on virtual registers before the bundle scheduler.
 *
 * Needs:    an LFunc from vliw_isel: LBlk.trips marks the loops whose
 *           trip count is known; memory ops carry their ranges
 *           (LIns.mlo/mhi) so that a chunk's stores and the next chunk's
 *           loads are known apart.
 * Gives:    each such loop where it pays becomes three blocks in its
 *           place: a prologue (the first S - 1 trips of the pipeline), a
 *           kernel looping over U trips in which every stage works on a
 *           different iteration, and an epilogue (the trips left and the
 *           S - 1 draining ones).  Loop-carried registers keep their
 *           names; registers local to an iteration get U names
 *           (modulo variable expansion), and the last iteration's one
 *           is copied back when it is read outside the loop.
 * Method:   the body's dependences (registers as sched.c orders them,
 *           memory by vliw_mem_dep), within an iteration (distance 0)
 *           and to the next (distance 1: loop-carried registers, memory;
 *           local registers need none since each iteration of U in a row
 *           has its own names).  For II from the resource bound up, ops
 *           are placed in body order at the first cycle from their
 *           earliest start where a modulo reservation table (slots per
 *           unit, the immediate pool) has room, within II cycles; the
 *           II is kept when every edge holds: t(j) + II * dist >= t(i) +
 *           lat.  Op i of iteration k then belongs to flat cycle k * II
 *           + t(i); the code lists ops in flat-cycle order (ties: older
 *           iteration, then body order), which is a valid sequential
 *           order of the original loop's ops because every dependence
 *           goes forward in flat time.  So the output is correct as
 *           straight code whatever the bundle scheduler then does with
 *           it; the modulo schedule only decides the order that lets it
 *           overlap iterations.  U is the fewest copies such that no
 *           iteration writes a local register before the iteration U
 *           earlier is done with it: U * II >= last access - first write.
 * Pays:     when the pipelined length, (trips + S - 1) * II, is below
 *           the loop as it is, trips * (one iteration's length), the
 *           kernel runs at least once, the estimated registers live at
 *           once fit the preset and the code stays under MAXOPS.
 *           Loops with anything but scalar, vector-load/store and VPU
 *           ops (MXU, XLU, EUP, DMA, sync, control) are left alone.
 * Entry:    vliw_modulo(LFunc *)
 * Tests:    tests/unit/check_modulo.c
 */
#include <string.h>

#include "backend/vliw/vliw.h"

enum {
	MAXBODY = 256,		/* body ops worth the quadratic passes */
	MAXOPS = 4096,		/* ops the three blocks may hold */
	MINKERNEL = 8,		/* kernel cycles worth its branch */
	MAXREG = 4		/* registers an op reads, guard included */
};

typedef struct Dep {
	int from, lat, dist;
} Dep;

typedef struct Op {
	VEC(Dep) pred;
	int t;			/* cycle in its iteration, -1 unplaced */
	int d;			/* flat register written, or -1 */
	int nr, r[MAXREG];	/* flat registers read */
} Op;

typedef struct Ms {
	LFunc *f;
	const MachPreset *mp;
	Arena *a;		/* scratch */
	int b;			/* the loop block */
	int64_t T;		/* trips */
	LIns *ins;		/* the body: the block without its br */
	int n;
	LIns br;
	Op *op;
	int base[NLCLASS + 1];	/* flat register index per class */
	char *local;		/* per flat register: renamed */
	char *outside;		/* per flat register: read elsewhere */
	void *mrt;		/* try_ii's reservation table */
	int II, S, U, len1;
	int *ord;		/* ops in kernel order */
	int **name;		/* per local flat register: U names */
	int *wmin, *amax;	/* per flat register: first write, last
				   access in an iteration (cycles), or -1 */
	int64_t L;		/* passes of the kernel loop */
	VEC(struct Priv) *priv;	/* per local flat register: names of the
				   values the prologue or epilogue keep */
} Ms;

typedef struct Priv {
	int64_t it;
	int name;
} Priv;

static int
lat(const Ms *M, const LIns *in)
{
	return M->mp->lat[mach_opinfo[in->op].lat];
}

static int
at_least1(int x)
{
	return x > 1 ? x : 1;
}

/* ------------------------------------------------------ eligibility */

/* Ops the pipeline may reorder freely within their dependences. */
static int
plain(const LIns *in)
{
	int u = mach_opinfo[in->op].unit, fl = mach_opinfo[in->op].flags;

	if (u != U_SALU && u != U_VLD && u != U_VST && u != U_VALU)
		return 0;
	return !(fl & (MACH_F_CTRL | MACH_F_STALL | MACH_F_DMA | MACH_F_PUSH));
}

/* Marks the flat registers read outside the loop block. */
static void
read_outside(Ms *M)
{
	int b, i, k, r[MAXREG], d, n;

	M->outside = arena_alloc(M->a, (size_t)M->base[NLCLASS] + 1);
	memset(M->outside, 0, (size_t)M->base[NLCLASS] + 1);
	for (b = 0; b < M->f->blk.n; b++)
		for (i = 0; b != M->b && i < M->f->blk.v[b].ins.n; i++) {
			n = llo_flat_regs(&M->f->blk.v[b].ins.v[i], M->base,
			    r, &d);
			for (k = 0; k < n; k++)
				M->outside[r[k]] = 1;
		}
}

/* The loop block b: a counted loop (llo_counted_loop) of plain ops.
   Fills M's body (the ops before the br). */
static int
candidate(Ms *M, int b)
{
	LFunc *f = M->f;
	LBlk *bk = &f->blk.v[b];
	int i;

	if (!llo_counted_loop(f, b) || bk->trips < 2 ||
	    bk->trips > INT32_MAX || bk->ins.n - 1 > MAXBODY)
		return 0;	/* (the kernel's counter is an immediate) */
	for (i = 0; i < bk->ins.n - 1; i++)
		if (!plain(&bk->ins.v[i]))
			return 0;
	M->b = b;
	M->T = bk->trips;
	M->br = bk->ins.v[bk->ins.n - 1];
	M->n = bk->ins.n - 1;
	M->ins = arena_alloc(M->a, sizeof(LIns) * (size_t)(M->n + 1));
	memcpy(M->ins, bk->ins.v, sizeof(LIns) * (size_t)M->n);
	return 1;
}

/* Drops the compare feeding the br when nothing else reads it. */
static void
drop_exit_test(Ms *M)
{
	int p = M->br.guard, i, w = -1, nw = 0;

	for (i = 0; i < M->n; i++)
		if (llo_field_class(M->ins[i].op, FLD_D) == LC_P &&
		    M->ins[i].d == p) {
			w = i;
			nw++;
		}
	if (nw != 1 || M->ins[w].guard || M->outside[M->base[LC_P] + p])
		return;
	for (i = 0; i < M->n; i++) {
		int r[MAXREG], d, k;
		int nr = llo_flat_regs(&M->ins[i], M->base, r, &d);
		for (k = 0; k < nr; k++)
			if (r[k] == M->base[LC_P] + p)
				return;
	}
	memmove(&M->ins[w], &M->ins[w + 1], sizeof(LIns) *
	    (size_t)(M->n - w - 1));
	M->n--;
}

/* ------------------------------------------------------- dependences */

/* As sched.c; registers with local[] set are left out when 'carried'
   (each iteration of U in a row has its own names). */
static int
reg_dep(const Ms *M, int i, int j, int carried)
{
	const Op *x = &M->op[i], *y = &M->op[j];
	int xd = x->d, yd = y->d;

	if (carried && xd >= 0 && M->local[xd])
		xd = -1;
	if (carried && yd >= 0 && M->local[yd])
		yd = -1;
	return vliw_reg_dep(lat(M, &M->ins[i]), xd, x->r, x->nr, yd, y->r,
	    y->nr);
}

static void
add_dep(Ms *M, int i, int j, int l, int dist)
{
	Dep e = { i, l, dist };

	vec_push(M->a, &M->op[j].pred, e);
}

static void
deps(Ms *M)
{
	int i, j, l, m, dist;

	for (dist = 0; dist <= 1; dist++)
		for (i = 0; i < M->n; i++)
			for (j = dist ? 0 : i + 1; j < M->n; j++) {
				l = reg_dep(M, i, j, dist);
				m = vliw_mem_dep(M->mp, &M->ins[i], &M->ins[j]);
				if (m > l)
					l = m;
				if (l >= 0)
					add_dep(M, i, j, l, dist);
			}
}

/* --------------------------------------------------- the schedule */

typedef struct Slot {
	int used[NMACHUNIT + 1];
	int nimm;
	int32_t imm[64];
} Slot;

static int
fits(const Ms *M, Slot *s, const LIns *in, int take)
{
	int u = mach_opinfo[in->op].unit, k, pooled = 0;

	if (s->used[u] >= M->mp->slots[u])
		return 0;
	if (llo_has_imm(in->op)) {
		for (k = 0; k < s->nimm; k++)
			pooled |= s->imm[k] == in->imm;
		if (!pooled && (s->nimm >= M->mp->nimm || s->nimm >= 64))
			return 0;
		if (!pooled && take)
			s->imm[s->nimm++] = in->imm;
	}
	if (take)
		s->used[u]++;
	return 1;
}

/* Places every op for initiation interval II; 1 when all edges hold. */
static int
try_ii(Ms *M, int II)
{
	Slot *mrt = M->mrt;	/* one_iteration's II is the largest */
	int i, k, c, e;

	memset(mrt, 0, sizeof(Slot) * (size_t)II);
	for (i = 0; i < M->n; i++)
		M->op[i].t = -1;
	for (i = 0; i < M->n; i++) {
		Op *o = &M->op[i];
		e = 0;
		for (k = 0; k < o->pred.n; k++) {
			const Dep *d = &o->pred.v[k];
			if (M->op[d->from].t >= 0 &&
			    M->op[d->from].t + d->lat - II * d->dist > e)
				e = M->op[d->from].t + d->lat - II * d->dist;
		}
		for (c = e; c < e + II && o->t < 0; c++)
			if (fits(M, &mrt[c % II], &M->ins[i], 1))
				o->t = c;
		if (o->t < 0)
			return 0;
	}
	for (i = 0; i < M->n; i++)
		for (k = 0; k < M->op[i].pred.n; k++) {
			const Dep *d = &M->op[i].pred.v[k];
			if (M->op[i].t + II * d->dist < M->op[d->from].t +
			    d->lat)
				return 0;
		}
	return 1;
}

/* The fewest cycles per iteration the slots allow (ResMII). */
static int
res_mii(const Ms *M)
{
	int cnt[NMACHUNIT + 1], i, u, k, m = 1;

	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < M->n; i++)
		cnt[mach_opinfo[M->ins[i].op].unit]++;
	for (u = 0; u < NMACHUNIT; u++) {
		k = M->mp->slots[u] > 0 ? (cnt[u] + M->mp->slots[u] - 1) /
		    M->mp->slots[u] : 0;
		m = k > m ? k : m;
	}
	return m;	/* the pool: shared values make it a weak bound */
}

/* One iteration's length alone (the loop as the list scheduler sees
   it, less its branch). */
static int
one_iteration(Ms *M)
{
	int II = 1, i;

	for (i = 0; i < M->n; i++)
		II += at_least1(lat(M, &M->ins[i])) + 1;
	M->mrt = arena_alloc(M->a, sizeof(Slot) * (size_t)II);
	if (!try_ii(M, II))
		bug("vliw: modulo: an iteration does not fit %d cycles", II);
	M->len1 = 0;
	for (i = 0; i < M->n; i++)
		if (M->op[i].t + at_least1(lat(M, &M->ins[i])) > M->len1)
			M->len1 = M->op[i].t + at_least1(lat(M, &M->ins[i]));
	return M->len1;
}

/* Each register's first write and last access in an iteration. */
static void
spans(Ms *M)
{
	int nflat = M->base[NLCLASS], i, k, r;

	M->wmin = arena_alloc(M->a, sizeof(int) * (size_t)(nflat + 1));
	M->amax = arena_alloc(M->a, sizeof(int) * (size_t)(nflat + 1));
	for (r = 0; r < nflat; r++)
		M->wmin[r] = M->amax[r] = -1;
	for (i = 0; i < M->n; i++) {
		const Op *o = &M->op[i];
		for (k = 0; k < o->nr; k++)
			if (M->amax[o->r[k]] < o->t)
				M->amax[o->r[k]] = o->t;
		if (o->d < 0)
			continue;
		if (M->wmin[o->d] < 0 || M->wmin[o->d] > o->t)
			M->wmin[o->d] = o->t;
		if (M->amax[o->d] < o->t)
			M->amax[o->d] = o->t;
	}
}

/* U: copies of the local registers so no iteration overwrites one the
   iteration U before still reads (at least 1). */
static int
unroll(Ms *M)
{
	int nflat = M->base[NLCLASS], r, u = 1, l;

	spans(M);
	for (r = 0; r < nflat; r++) {
		l = (M->amax[r] - M->wmin[r] + M->II - 1) / M->II;
		if (M->local[r] && l > u)
			u = l;
	}
	return u;
}

/* Adds one name's interval [c, c + len] to the kernel's live counts;
   one that runs past the kernel's end is live across its back edge, and
   vliw_regalloc's intervals (one hull per register) then hold it over
   the whole kernel. */
static void
live_name(int *live, int K, int c, int len)
{
	int x;

	if (c + len >= K) {
		for (x = 0; x < K; x++)
			live[x]++;
		return;
	}
	for (x = c; x <= c + len; x++)
		live[x]++;
}

/* Registers live at once in the kernel (U trips of II cycles), per
   class, within the preset's (less a few for what lives around the
   loop). */
static int
fits_registers(const Ms *M)
{
	const MachPreset *mp = M->mp;
	const int phys[NLCLASS] = { mp->nsreg, mp->nvreg, mp->nmreg,
	    mp->npreg };
	const int margin[NLCLASS] = { 4, 2, 1, 2 };
	int K = M->U * M->II, c, r, x, j, best;
	int *live = arena_alloc(M->a, sizeof(int) * (size_t)K);

	for (c = 0; c < NLCLASS; c++) {
		memset(live, 0, sizeof(int) * (size_t)K);
		for (r = M->base[c]; r < M->base[c + 1]; r++) {
			if (M->amax[r] < 0)
				continue;	/* not in the body */
			if (!M->local[r]) {
				live_name(live, K, 0, K);
				continue;
			}
			for (j = 0; j < M->U; j++)
				live_name(live, K, j * M->II + M->wmin[r] %
				    M->II, M->amax[r] - M->wmin[r]);
		}
		for (best = 0, x = 0; x < K; x++)
			best = live[x] > best ? live[x] : best;
		if (best > phys[c] - margin[c])
			return 0;
	}
	return 1;
}

/* More copies than the registers need, so that the kernel's branch
   and counter are paid once per MINKERNEL cycles or so, when the trips
   and the registers allow; 1 if U was raised. */
static int
spread(Ms *M)
{
	int u = M->U;

	while (M->U * M->II < MINKERNEL && M->T - M->S + 1 >= M->U + 1 &&
	    (int64_t)M->n * (2 * M->S + 2 * (M->U + 1)) <= MAXOPS)
		M->U++;
	if (M->U > u && fits_registers(M))
		return 1;
	M->U = u;
	return 0;
}

/* The II, stages and copies: the first II from the resource bound up
   that places every op, pays, and fits the code and the registers. */
static int
schedule(Ms *M)
{
	int II, i, tmax;

	one_iteration(M);
	for (II = res_mii(M); II < M->len1; II++) {
		if (!try_ii(M, II))
			continue;
		M->II = II;
		for (tmax = 0, i = 0; i < M->n; i++)
			tmax = M->op[i].t > tmax ? M->op[i].t : tmax;
		M->S = tmax / II + 1;
		M->U = unroll(M);
		if (M->S < 2 || M->T - M->S + 1 < M->U ||
		    (int64_t)M->n * (2 * M->S + 2 * M->U) > MAXOPS)
			continue;
		if ((M->T + M->S - 1) * II >= M->T * (int64_t)(M->len1 + 1))
			return 0;	/* a larger II pays less */
		if (spread(M) || fits_registers(M))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------- code generation */

static int
kernel_key(const Ms *M, int i, int j)
{
	const Op *x = &M->op[i], *y = &M->op[j];

	if (x->t % M->II != y->t % M->II)
		return x->t % M->II - y->t % M->II;
	if (x->t / M->II != y->t / M->II)
		return y->t / M->II - x->t / M->II;	/* older first */
	return i - j;
}

static void
order(Ms *M)
{
	int i, j, t;

	M->ord = arena_alloc(M->a, sizeof(int) * (size_t)(M->n + 1));
	for (i = 0; i < M->n; i++) {
		t = i;
		for (j = i; j > 0 && kernel_key(M, M->ord[j - 1], t) > 0; j--)
			M->ord[j] = M->ord[j - 1];
		M->ord[j] = t;
	}
}

static void
names(Ms *M)
{
	int nflat = M->base[NLCLASS], r, c, k;

	M->name = arena_alloc(M->a, sizeof(int *) * (size_t)(nflat + 1));
	M->priv = arena_alloc(M->a, sizeof *M->priv * (size_t)(nflat + 1));
	memset(M->priv, 0, sizeof *M->priv * (size_t)(nflat + 1));
	for (c = 0; c < NLCLASS; c++)
		for (r = M->base[c]; r < M->base[c + 1]; r++) {
			if (!M->local[r])
				continue;
			M->name[r] = arena_alloc(M->a, sizeof(int) *
			    (size_t)M->U);
			M->name[r][0] = r - M->base[c];
			for (k = 1; k < M->U; k++)
				M->name[r][k] = llo_new_reg(M->f, (LClass)c);
		}
}

/* Where trip k runs: 0 the prologue, 1 the kernel, 2 the epilogue. */
static int
part(const Ms *M, int64_t k)
{
	int64_t k0 = M->S - 1;

	return k < k0 ? 0 : k < k0 + M->L * M->U ? 1 : 2;
}

/*
 * The register holding local register r's value in iteration it: its
 * kernel name (one of U) when the kernel holds the value at some point,
 * else a name of its own, so that the kernel's names are not also live
 * in the prologue and epilogue (vliw_regalloc gives a register one
 * interval, from its first to its last access).
 */
static int
value_name(Ms *M, int r, LClass c, int64_t it)
{
	int pa = part(M, it + M->wmin[r] / M->II);
	int pe = part(M, it + M->amax[r] / M->II), k;
	Priv p;

	if (pa != pe || pa == 1)
		return M->name[r][it % M->U];
	for (k = 0; k < M->priv[r].n; k++)
		if (M->priv[r].v[k].it == it)
			return M->priv[r].v[k].name;
	p.it = it;
	p.name = llo_new_reg(M->f, c);
	vec_push(M->a, &M->priv[r], p);
	return p.name;
}

static int
rename1(Ms *M, LClass c, int reg, int64_t it)
{
	int r;

	if (c == LC_NONE || (c == LC_P && reg == 0))
		return reg;
	r = M->base[c] + reg;
	return M->local[r] ? value_name(M, r, c, it) : reg;
}

/* Appends op i of iteration it to block blk. */
static void
emit(Ms *M, int blk, int i, int64_t it)
{
	static const int fld[] = { FLD_D, FLD_A, FLD_B, FLD_C };
	LIns in = M->ins[i];
	int k;
	int *v[] = { &in.d, &in.a, &in.b, &in.c };

	for (k = 0; k < 4; k++)
		*v[k] = rename1(M, llo_field_class(in.op, fld[k]), *v[k], it);
	in.guard = rename1(M, LC_P, in.guard, it);
	vec_push(M->f->arena, &M->f->blk.v[blk].ins, in);
}

/* Trip k of the pipeline: stage s of iteration k - s, for the stages
   whose iteration exists. */
static void
trip(Ms *M, int blk, int64_t k)
{
	int j, i;
	int64_t it;

	for (j = 0; j < M->n; j++) {
		i = M->ord[j];
		it = k - M->op[i].t / M->II;
		if (it >= 0 && it < M->T)
			emit(M, blk, i, it);
	}
}

static LIns *
add(Ms *M, int blk, int op, int d, int a, int64_t imm)
{
	LIns *in = llo_add(M->f, blk, op, d, a, 0, 0);

	in->imm = (int32_t)imm;
	in->loc = M->br.loc;
	return in;
}

/* The last iteration's value of a local register read after the loop
   into its own name. */
static void
copy_out(Ms *M, int blk)
{
	static const int mov[NLCLASS] = { OP_SMOV, OP_VMOV, OP_MOR, OP_POR };
	int c, r, reg, from;
	LIns *in;

	for (c = 0; c < NLCLASS; c++)
		for (r = M->base[c]; r < M->base[c + 1]; r++) {
			reg = r - M->base[c];
			if (!M->local[r] || !M->outside[r])
				continue;
			from = value_name(M, r, (LClass)c, M->T - 1);
			if (from == reg)
				continue;
			in = add(M, blk, mov[c], reg, from, 0);
			if (c == LC_M || c == LC_P)
				in->b = from;
		}
}

/* Makes room for blocks b + 1 and b + 2, renumbering branch targets. */
static void
insert_blocks(LFunc *f, int b)
{
	LBlk e;
	int k, i;

	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++)
			if (f->blk.v[k].ins.v[i].target > b)
				f->blk.v[k].ins.v[i].target += 2;
	memset(&e, 0, sizeof e);
	vec_push(f->arena, &f->blk, e);
	vec_push(f->arena, &f->blk, e);
	memmove(&f->blk.v[b + 3], &f->blk.v[b + 1], sizeof(LBlk) *
	    (size_t)(f->blk.n - b - 3));
	memset(&f->blk.v[b + 1], 0, 2 * sizeof(LBlk));
}

static void
generate(Ms *M)
{
	int b = M->b, kb = b + 1, eb = b + 2, cnt = 0, p, j;
	int64_t k, L = (M->T - M->S + 1) / M->U, k0 = M->S - 1;
	LIns *br;

	M->L = L;
	order(M);
	names(M);
	M->f->blk.v[b].ins.n = 0;
	M->f->blk.v[b].trips = 0;
	insert_blocks(M->f, b);
	for (k = 0; k < k0; k++)
		trip(M, b, k);
	if (L > 1) {
		cnt = llo_new_reg(M->f, LC_S);
		add(M, b, OP_SMOVI, cnt, 0, L);
	}
	for (j = 0; j < M->U; j++)
		trip(M, kb, k0 + j);
	if (L > 1) {
		p = llo_new_reg(M->f, LC_P);
		add(M, kb, OP_SADDI, cnt, cnt, -1);
		add(M, kb, OP_SCMPIGT, p, cnt, 0);
		br = add(M, kb, OP_BR, 0, 0, 0);
		br->guard = p;
		br->target = kb;
	}
	for (k = k0 + L * M->U; k < M->T + M->S - 1; k++)
		trip(M, eb, k);
	copy_out(M, eb);
	M->f->blk.v[b].inorder = M->f->blk.v[kb].inorder =
	    M->f->blk.v[eb].inorder = 1;
}

/* ---------------------------------------------------------- entry */

static int
pipeline(LFunc *f, int b)
{
	Ms M;
	Arena a;
	int c, i, done = 0;

	memset(&M, 0, sizeof M);
	memset(&a, 0, sizeof a);
	M.f = f;
	M.mp = f->mp;
	M.a = &a;
	for (c = 0; c < NLCLASS; c++)
		M.base[c + 1] = M.base[c] + f->nreg[c];
	if (candidate(&M, b)) {
		read_outside(&M);
		drop_exit_test(&M);
		M.op = arena_alloc(&a, sizeof(Op) * (size_t)(M.n + 1));
		memset(M.op, 0, sizeof(Op) * (size_t)(M.n + 1));
		for (i = 0; i < M.n; i++)
			M.op[i].nr = llo_flat_regs(&M.ins[i], M.base,
			    M.op[i].r, &M.op[i].d);
		M.local = llo_trip_locals(&a, M.ins, M.n, M.base);
		deps(&M);
		if (schedule(&M)) {
			generate(&M);
			done = 1;
		}
	}
	arena_free(&a);
	return done;
}

int
vliw_modulo(LFunc *f)
{
	int b, n = 0;

	for (b = 0; b < f->blk.n; b++)
		if (pipeline(f, b)) {
			n++;
			b += 2;
		}
	return n;
}
