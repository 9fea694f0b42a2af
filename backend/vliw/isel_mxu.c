/*
 * isel_mxu.c - instruction selection for TOP_MATMUL on the MXUs.
 *
 * Needs:    the three operands as tile-aligned VMEM regions (isel.c
 *           resolves the refs into a VliwMM).
 * Gives:    LLO appended after block *cur, in new blocks.
 * Scheme:   the weight tiles (D x D, D the MXU size) go in "sets": a set
 *           gives MXU ka * b + j the tile (kg * a + ka, ng * b + j) of
 *           rhs, a K tiles summed in the VPU by b N tiles (a * b <=
 *           nmxu; v4 with K >= 512: a = 4, b = 1); when a * b leaves
 *           MXUs idle, the set is replicated c times (c <= nmxu / (a * b),
 *           dividing the trip's U steps: replica r is MXUs r * a * b ..,
 *           the same weights pushed into each, and step u runs on replica
 *           u % c; v4 with one K tile and one N tile: c = 4).  A "step"
 *           streams one LHS row group (an LHS vreg of S rows, 2S for
 *           bf16) through every MXU of the set (each LHS vreg is loaded
 *           once and feeds b MXUs); its results are popped, summed over ka in the VPU
 *           and added into dst once (vld, vadd.f32, vst; or only vst when
 *           dst is not accumulated and K fits one set).  A matmul that
 *           does not accumulate and spans several K groups stores the
 *           first group's sums and adds the others' (in the loop: dst
 *           loads guarded off, their registers zero, for the trips of
 *           the first group), so dst is never zeroed first.
 * Pipeline: steps run in "trips" of U row groups (U divides the row
 *           groups; U times a matmul's FIFO entries fit the result FIFO);
 *           a set is tps trips, and the trips of all sets form one
 *           stream.  Trip t issues its U steps' matmuls and pops the
 *           results of trip t - 1 (a software pipeline with a lag of one
 *           trip, long enough to cover the matmul latency), while it
 *           pushes a chunk of the next set's weights into the MXUs'
 *           staging buffers (double-buffered); the last trip of a set
 *           latches them.  Prologue: push and latch
 *           set 0, trip 0 (matmuls only).  Steady state: trips 1 .. J-1
 *           as one counted loop (set and trip indices kept in scalar
 *           registers, wrapped with ssel; the latch is guarded by "last
 *           trip of the set"), or unrolled into one block when the
 *           stream is short.  The loop carries its LHS, dst and weight
 *           bases in registers: each iteration computes the next trip's
 *           counters and bases after its first step and moves them into
 *           place at its end (trip 1's are set up before the loop, in a
 *           block of their own), so a trip's loads need no address
 *           arithmetic first.  Epilogue: the pops of the last trip.
 * Partial:  M, K and N need not be multiples of the vreg rows, L or D:
 *           the operands are padded to whole tiles inside the MXUs.  A
 *           weight tile's pushes past its last K rows (trans_b: N
 *           columns) are left out, and the latch's zeros stand in; the
 *           other pushes outside the operand push a zero vreg (N columns
 *           no store keeps; trans_b: K blocks no matmul reads); K rows
 *           and LHS K columns past the operand are zeroed (the padding
 *           of a VMEM tile may hold anything, NaN too); matmuls of K
 *           blocks past the operand are left out; dst vregs are stored
 *           with sublane and lane masks, or not at all.  This needs the
 *           partial tile's place to be static: a partial K (N) tile
 *           whose set does not hold every K (N) tile, or a partial row
 *           group in a looped stream of several trips a set, is split
 *           off into a matmul of its own (split()).
 * Ordering: the scheduler (sched.c) keeps each MXU's pushes, latches and
 *           matmuls in order, spaces matmuls by their busy time, and
 *           places every pop after its FIFO entry is ready, across
 *           blocks too; so no delays are needed here.
 * Subset:   f32 result, f32 or bf16 operands (both the same), an MXU size
 *           that is a multiple of the lanes and of an LHS vreg's rows.
 *           Anything else is reported to the caller.
 * Entry:    vliw_isel_matmul(LFunc *, int *cur, const VliwMM *)
 * Tests:    tests/unit/check_mxu.c; tests/unit/check_vliw.c (e2e_matmul_*).
 */
#include <string.h>

#include "backend/vliw/vliw.h"

/* Unrolled (one block, no loop) when the stream has at most this many
   steps; at most this many steps a trip. */
enum { UNROLL_STEPS = 64, MAX_U = 16 };

typedef struct Mm {
	LFunc *f;
	const MachPreset *mp;
	const VliwMM *mm;
	int cur;
	int64_t S, L, D, q, pk;	/* sublanes, lanes, MXU size, D / L, pack */
	int64_t M, K, N;	/* the matmul's extents */
	int64_t mt;		/* row groups (the last may be partial) */
	int64_t a, b;		/* K tiles and N tiles of a set */
	int64_t c;		/* replicas of a set: step u uses MXUs
				   (u % c) * a * b .. */
	int64_t kgr, ngr;	/* sets along K and N */
	int64_t U, tps, J;	/* steps a trip, trips a set, trips */
	int64_t npush, cpt;	/* pushes a tile and a trip, per MXU */
	int pushing;		/* trips push the next set (more than one) */
	int direct;		/* pops stored, not added into dst */
	int first;		/* not accumulating over several K groups:
				   the first group's pops are stored, the
				   others' added */
} Mm;

static LIns *
add(Mm *m, int op, int d, int a, int b, int c)
{
	LIns *in = llo_add(m->f, m->cur, op, d, a, b, c);

	in->loc = m->mm->loc;
	return in;
}

static int
sreg(Mm *m)
{
	return llo_new_reg(m->f, LC_S);
}

static int
vreg(Mm *m)
{
	return llo_new_reg(m->f, LC_V);
}

static int
preg(Mm *m)
{
	return llo_new_reg(m->f, LC_P);
}

static int
blk(Mm *m)
{
	return m->cur = llo_new_blk(m->f);
}

/* An index: s[r] (r 0: none) plus c. */
typedef struct Ix {
	int r;
	int64_t c;
} Ix;

static Ix
cix(int64_t c)
{
	Ix i = { 0, c };

	return i;
}

/* base + i * stride: a register (base 0: the zero register), the static
   part added to *imm. */
static int
at(Mm *m, int base, Ix i, int64_t stride, int64_t *imm)
{
	int t, d;

	if (!base)
		base = m->mm->zero;
	*imm += i.c * stride;
	if (!i.r || !stride)
		return base;
	t = sreg(m);
	add(m, OP_SMULI, t, i.r, 0, 0)->imm = (int32_t)stride;
	d = sreg(m);
	add(m, OP_SADD, d, base, t, 0);
	return d;
}

static void
smovi(Mm *m, int d, int64_t v)
{
	add(m, OP_SMOVI, d, 0, 0, 0)->imm = (int32_t)v;
}

static LIns *
vld(Mm *m, int d, int base, int64_t imm)
{
	LIns *in = add(m, OP_VLD, d, base, 0, 0);

	in->imm = (int32_t)imm;
	in->x = (uint16_t)(((1u << m->S) - 1) | 1u << 8);
	return in;
}

static LIns *
vst(Mm *m, int v, int base, int64_t imm)
{
	LIns *in = add(m, OP_VST, 0, base, v, 0);

	in->imm = (int32_t)imm;
	in->x = (uint16_t)(((1u << m->S) - 1) | 1u << 8);
	return in;
}

/* ---------------------------------------------------- partial tiles */

/* n clamped to [0, hi]. */
static int64_t
clamp(int64_t n, int64_t hi)
{
	return n < 0 ? 0 : n > hi ? hi : n;
}

/* The K rows of the set's K tile ka inside the operands: D, but fewer in
   a last, partial tile, which plan() keeps in a set of every K tile (so
   ka is the tile's index). */
static int64_t
kvalid(const Mm *m, int64_t ka)
{
	return m->K % m->D ? clamp(m->K - ka * m->D, m->D) : m->D;
}

/* The N columns of the set's N tile j inside the operands (as kvalid). */
static int64_t
nvalid(const Mm *m, int64_t j)
{
	return m->N % m->D ? clamp(m->N - j * m->D, m->D) : m->D;
}

/* A new vreg of v in every element. */
static int
vimm(Mm *m, uint32_t v)
{
	int r = vreg(m);

	add(m, OP_VBCASTI, r, 0, 0, 0)->imm = (int32_t)v;
	return r;
}

/* A mask register of the lanes (sub 0) or sublanes (sub 1) below n (the
   same ops each time: cse.c and licm.c share them). */
static int
below(Mm *m, int sub, int64_t n)
{
	int io = vreg(m), k = llo_new_reg(m->f, LC_M);

	add(m, sub ? OP_VIOTAS : OP_VIOTAL, io, 0, 0, 0);
	add(m, OP_VCMPLTI, k, io, vimm(m, (uint32_t)n), 0);
	return k;
}

/* v with lanes n .. L - 1 zero: K columns beyond the operand, whose
   padding may hold anything (0 * NaN is NaN). */
static int
zero_lanes(Mm *m, int v, int64_t n)
{
	int d = vreg(m);

	add(m, OP_VSEL, d, v, vimm(m, 0), below(m, 0, n));
	return d;
}

/* A packed bf16 vreg (rows 0 .. S-1 low halves, S .. 2S-1 high halves),
   loaded with its sublanes n .. masked off, with rows n .. 2S-1 zero. */
static int
zero_halves(Mm *m, int v, int64_t n)
{
	int keep = vimm(m, 0xffffu), k, d = vreg(m);

	if (n > m->S) {
		k = vreg(m);
		add(m, OP_VSEL, k, vimm(m, 0xffffffffu), keep,
		    below(m, 1, n - m->S));
		keep = k;
	}
	add(m, OP_VAND, d, v, keep, 0);
	return d;
}

/* A vld / vst's x: sublanes below n, stride 1. */
static uint16_t
rows_x(int64_t n)
{
	return (uint16_t)(((1u << n) - 1) | 1u << 8);
}

/* A store of v at base + imm of its rows below rows and its lanes below
   lanes (a partial dst tile; the rest of dst's tile is left as it is). */
static void
dstore(Mm *m, int v, int base, int64_t imm, int64_t rows, int64_t lanes)
{
	LIns *in;

	if (lanes < m->L) {
		in = add(m, OP_VSTMSK, 0, base, v, below(m, 0, lanes));
		in->imm = (int32_t)imm;
	} else
		in = vst(m, v, base, imm);
	in->x = rows_x(rows);
}

/* ------------------------------------------------------------ trips */

/* A trip: its indices (static or registers), what it pushes and
   whether it latches. */
typedef struct Trip {
	Ix i, kg, ng;		/* trip in its set, the set's K and N index */
	Ix nkg, nng;		/* the next set's (pushes) */
	Ix chunk;		/* which chunk of the next set it pushes */
	int push;		/* 1: push, guarded by pguard (0: always) */
	int pguard;
	int latch;		/* 1: latch at the end, guarded by lguard */
	int lguard;
} Trip;

/* The row groups' LHS, dst and a chunk's weight addresses of trip t. */
typedef struct Addr {
	int lb, db, wb;
	int64_t li, di, wi;
	int64_t g0;		/* step 0's row group (-1: not static) */
	/* how this trip's pops reach dst: 0 added, 1 stored, 2 stored when
	   predicate dpred holds (the loop: a trip of the first K group) */
	int dmode, dpred;
} Addr;

static void
addresses(Mm *m, const Trip *t, Addr *ad)
{
	const VliwMM *mm = m->mm;
	const VliwMMOpnd *r = &mm->rhs;
	int tr = mm->trans_b;
	int64_t rt = m->D / (m->S * m->pk);

	ad->dmode = m->direct || (m->first && !t->kg.r && t->kg.c == 0);
	ad->dpred = 0;
	ad->g0 = t->i.r ? -1 : t->i.c * m->U;
	ad->li = mm->lhs.imm;
	ad->lb = at(m, mm->lhs.base, t->i, m->U * mm->lhs.rstride, &ad->li);
	ad->lb = at(m, ad->lb, t->kg, m->a * m->q * mm->lhs.cstride, &ad->li);
	ad->di = mm->dst.imm;
	ad->db = at(m, mm->dst.base, t->i, m->U * m->pk * mm->dst.rstride,
	    &ad->di);
	ad->db = at(m, ad->db, t->ng, m->b * m->q * mm->dst.cstride, &ad->di);
	ad->wb = 0;
	ad->wi = r->imm;
	if (!t->push)
		return;
	/* rows of W are K; trans_b: rhs rows are N, its columns K */
	ad->wb = at(m, r->base, tr ? t->nng : t->nkg, (tr ? m->b : m->a) * rt *
	    r->rstride, &ad->wi);
	ad->wb = at(m, ad->wb, tr ? t->nkg : t->nng, (tr ? m->a : m->b) * m->q *
	    r->cstride, &ad->wi);
	ad->wb = at(m, ad->wb, t->chunk, m->cpt / m->q * r->rstride, &ad->wi);
}

/*
 * Loads push x of MXU mx's chunk (the tile of the set's ka, j) into a
 * new register; push() pushes it.  In a partial tile: 0 (no push) for
 * the pushes past the last K rows (N columns when trans_b), which come
 * last and leave the zeros of the latch; a zero vreg for the others
 * outside the operand (N columns no store keeps; trans_b: a K block no
 * matmul reads); K rows past the operand zeroed.
 */
static int
wload(Mm *m, const Addr *ad, int64_t mx, int64_t x)
{
	const VliwMMOpnd *r = &m->mm->rhs;
	int tr = m->mm->trans_b, v;
	int64_t R = m->S * m->pk, rt = m->D / R, ka = mx / m->b, j = mx % m->b;
	int64_t off, kin, nin;
	LIns *in;

	/* the K rows and N columns of the push inside the operands */
	kin = kvalid(m, ka) - (tr ? x % m->q * m->L : x / m->q * R);
	nin = nvalid(m, j) - (tr ? x / m->q * R : x % m->q * m->L);
	if ((tr ? nin : kin) <= 0)
		return 0;
	if ((tr ? kin : nin) <= 0)
		return vimm(m, 0);
	/* the tile's offset in the set, then the push's row group and
	   column block */
	off = tr ? j * rt * r->rstride + ka * m->q * r->cstride :
	    ka * rt * r->rstride + j * m->q * r->cstride;
	off += x / m->q * r->rstride + x % m->q * r->cstride;
	v = vreg(m);
	in = vld(m, v, ad->wb, ad->wi + off);
	if (tr && kin < m->L)
		return zero_lanes(m, v, kin);
	if (!tr && kin < R) {
		in->x = rows_x(kin < m->S ? kin : m->S);
		if (m->pk == 2)
			return zero_halves(m, v, kin);
	}
	return v;
}

/* Pushes v into MXU mx of the set, in every replica. */
static void
push(Mm *m, int v, int64_t mx, int guard)
{
	int tr = m->mm->trans_b, op;
	int64_t r;

	if (!v)
		return;
	op = m->pk == 2 ? (tr ? OP_MPUSHTB : OP_MPUSHB) :
	    tr ? OP_MPUSHT : OP_MPUSH;
	for (r = 0; r < m->c; r++)
		add(m, op, 0, v, 0, (int)(r * m->a * m->b + mx))->guard = guard;
}

/* Latches every MXU of the set, in every replica. */
static void
latch(Mm *m, int guard)
{
	int64_t mx;

	for (mx = 0; mx < m->c * m->a * m->b; mx++)
		add(m, OP_MLATCH, 0, 0, 0, (int)mx)->guard = guard;
}

/* The pops of one step: MXU (ka, j)'s entries in FIFO order. */
typedef struct Pops {
	int n, next;		/* pops, pops emitted */
	int64_t base;		/* the step's replica's first MXU */
	int r[16 * 2 * 16];	/* [j][h][cb][ka] */
} Pops;

static void
pop_some(Mm *m, Pops *p, int k)
{
	for (; k > 0 && p->next < p->n; k--, p->next++) {
		int ka = p->next % m->a, j = p->next / m->a / (m->pk * m->q);
		p->r[p->next] = vreg(m);
		add(m, OP_MPOP, p->r[p->next], 0, 0, (int)(p->base + ka * m->b +
		    j));
	}
}

/* The sum over ka of the pops p[0 .. n) (pairwise). */
static int
sum(Mm *m, int *p, int64_t n)
{
	int64_t k, w;
	int s;

	for (w = 1; w < n; w *= 2)
		for (k = 0; k + w < n; k += 2 * w) {
			s = vreg(m);
			add(m, OP_VADDF, s, p[k], p[k + w], 0);
			p[k] = s;
		}
	return p[0];
}

/* The rows and lanes of dst vreg k of step u (of the trip at pa) inside
   dst: S and L but in a partial tile (a row group's past the last row
   is only at a static trip, as plan() arranges). */
static void
dvalid(const Mm *m, const Addr *pa, int64_t u, int64_t k, int64_t *rows,
    int64_t *lanes)
{
	int64_t j = k / (m->pk * m->q), h = k / m->q % m->pk, cb = k % m->q;

	*rows = m->S;
	if (m->M % (m->S * m->pk)) {
		if (pa->g0 < 0)
			bug("vliw: isel_mxu: a partial row group in a loop");
		*rows = clamp(m->M - ((pa->g0 + u) * m->pk + h) * m->S, m->S);
	}
	*lanes = clamp(nvalid(m, j) - cb * m->L, m->L);
}

/* The dst vregs of step u (at db + di) in the order of the pops'
   sums: their offsets, and (unless stored directly) their loads; none
   for a vreg outside dst. */
static void
dload(Mm *m, const Addr *pa, int64_t u, int64_t *off, int *w)
{
	int db = pa->db;
	int64_t di = pa->di;
	LIns *in;
	const VliwMMOpnd *d = &m->mm->dst;
	int64_t j, h, cb, k, n = m->pk * m->q * m->b, rows, lanes;

	for (k = 0; k < n; k++) {
		j = k / (m->pk * m->q);
		h = k / m->q % m->pk;
		cb = k % m->q;
		off[k] = di + (u * m->pk + h) * d->rstride +
		    (j * m->q + cb) * d->cstride;
		dvalid(m, pa, u, k, &rows, &lanes);
		if (pa->dmode == 1 || !rows || !lanes)
			continue;
		w[k] = vreg(m);
		if (pa->dmode == 2)	/* 0 + sum when stored */
			add(m, OP_VBCASTI, w[k], 0, 0, 0)->imm = 0;
		in = vld(m, w[k], db, off[k]);
		in->x = rows_x(rows);
		if (pa->dmode == 2) {
			in->guard = pa->dpred;
			in->gneg = 1;
		}
	}
}

/* The popped results summed over ka, added into the loaded dst vregs w
   (or stored directly) of step u; those outside dst dropped. */
static void
accumulate(Mm *m, Pops *p, const Addr *pa, int64_t u, const int64_t *off,
    const int *w)
{
	int db = pa->db;
	int s[2 * 16 * 16], t;
	int64_t k, n = m->pk * m->q * m->b, rows[2 * 16 * 16];
	int64_t lanes[2 * 16 * 16];

	for (k = 0; k < n; k++) {
		dvalid(m, pa, u, k, &rows[k], &lanes[k]);
		if (rows[k] && lanes[k])
			s[k] = sum(m, p->r + k * m->a, m->a);
	}
	for (k = 0; k < n; k++) {
		if (!rows[k] || !lanes[k])
			continue;
		t = s[k];
		if (pa->dmode != 1) {
			t = vreg(m);
			add(m, OP_VADDF, t, w[k], s[k], 0);
		}
		dstore(m, t, db, off[k], rows[k], lanes[k]);
	}
}

/*
 * Step u of a trip: its LHS loads (each LHS vreg feeds the b MXUs of its
 * K tile) with the pops of step u of the previous trip (prev: its dst
 * address, NULL for none) in between, the matmuls, then the sums added
 * into dst: an order that also issues well in order (vliw_sched_serial).
 */
static void
step(Mm *m, const Trip *t, const Addr *ad, const Addr *prev, int64_t u,
    int64_t k0, int64_t k1)
{
	int wv[64], nw = 0, w[2 * 16 * 16];
	int64_t k, n = m->a * m->b, off[2 * 16 * 16];
	const VliwMM *mm = m->mm;
	int64_t ka, qb, j, nl = m->a * m->q, kin, nq;
	int v[16 * 16];
	unsigned fl;
	Pops p;

	p.n = prev ? (int)(m->a * m->b * m->pk * m->q) : 0;
	p.next = 0;
	p.base = u % m->c * n;
	for (k = k0; k < k1 && nw < 64; k++)
		wv[nw++] = wload(m, ad, k % n, k / n);
	for (ka = 0; ka < nl; ka++) {
		/* (ka / q, ka % q): a K tile's column block; K columns past
		   the operand zero, blocks past it neither loaded nor
		   multiplied */
		kin = kvalid(m, ka / m->q) - ka % m->q * m->L;
		if (kin > 0) {
			v[ka] = vreg(m);
			vld(m, v[ka], ad->lb, ad->li + u * mm->lhs.rstride +
			    ka * mm->lhs.cstride);
			if (kin < m->L)
				v[ka] = zero_lanes(m, v[ka], kin);
		}
		pop_some(m, &p, (p.n + nl - 1) / nl);
	}
	pop_some(m, &p, p.n);
	for (k = k0; k < k1 && k - k0 < nw; k++)
		push(m, wv[k - k0], k % n, t->pguard);
	/* the last step of a trip with more pushes than its steps take
	   (a trip of one step on v6e): the rest, 64 at a time */
	for (; k < k1; k += nw) {
		for (nw = 0; k + nw < k1 && nw < 64; nw++)
			wv[nw] = wload(m, ad, (k + nw) % n, (k + nw) / n);
		for (ka = 0; ka < nw; ka++)
			push(m, wv[ka], (k + ka) % n, t->pguard);
	}
	if (prev)
		dload(m, prev, u, off, w);
	for (ka = 0; ka < m->a; ka++)
		for (qb = 0, nq = (kvalid(m, ka) + m->L - 1) / m->L; qb < nq;
		    qb++) {
			/* the precision is of f32 operands, split into bf16
			   passes; bf16 ones are exact in one */
			fl = (unsigned)(m->pk == 2 ? MACH_PREC_DEFAULT :
			    mm->prec) << MACH_MM_PREC_SHIFT |
			    (unsigned)qb << MACH_MM_KBLK_SHIFT;
			if (qb > 0)
				fl |= MACH_MM_ACC;
			if (qb < nq - 1)
				fl |= MACH_MM_HOLD;
			for (j = 0; j < m->b; j++)
				add(m, m->pk == 2 ? OP_MXMMB : OP_MXMM, 0,
				    v[ka * m->q + qb], 0, (int)(p.base + ka * m->b +
				    j))->x = (uint16_t)fl;
		}
	if (prev)
		accumulate(m, &p, prev, u, off, w);
}

/* The pops of step u of the last trip (dst at ad). */
static void
drain(Mm *m, const Addr *ad, int64_t u)
{
	Pops p;

	int w[2 * 16 * 16];
	int64_t off[2 * 16 * 16];

	p.n = (int)(m->a * m->b * m->pk * m->q);
	p.next = 0;
	p.base = u % m->c * m->a * m->b;
	pop_some(m, &p, p.n);
	dload(m, ad, u, off, w);
	accumulate(m, &p, ad, u, off, w);
}

/*
 * Steps [u0, u1) of trip t: for each step u, its share of the weight
 * pushes (*k: the pushes emitted so far) and the step (with the pops of
 * step u of the previous trip); after the last step, the latch.
 */
static void
trip_steps(Mm *m, const Trip *t, const Addr *ad, const Addr *prev,
    int64_t u0, int64_t u1, int64_t *k)
{
	int64_t u, k0, n = m->a * m->b, total = t->push ? m->cpt * n : 0;

	for (u = u0; u < u1; u++) {
		for (k0 = *k; *k < total && *k * m->U / total <= u &&
		    (*k - k0 < 64 || u == m->U - 1); (*k)++)
			;
		step(m, t, ad, prev, u, k0, *k);
	}
	if (u0 < u1 && u1 == m->U && t->latch)
		latch(m, t->lguard);
}

/* Trip t whole. */
static void
trip(Mm *m, const Trip *t, const Addr *ad, const Addr *prev)
{
	int64_t k = 0;

	trip_steps(m, t, ad, prev, 0, m->U, &k);
}

/* The static trip j of the stream. */
static Trip
static_trip(const Mm *m, int64_t j)
{
	Trip t;
	int64_t set = j / m->tps, nset = (set + 1) % (m->kgr * m->ngr);

	memset(&t, 0, sizeof t);
	t.i = cix(j % m->tps);
	t.ng = cix(set % m->ngr);
	t.kg = cix(set / m->ngr);
	t.nng = cix(nset % m->ngr);
	t.nkg = cix(nset / m->ngr);
	t.push = m->pushing && t.i.c * m->cpt < m->npush;
	t.chunk = t.i;
	t.latch = m->pushing && t.i.c == m->tps - 1;
	return t;
}

/* Counters x[0 .. n) (extents ext) as an odometer: x + carry (carry 0:
   always one), into y (may be x: in place).  Returns the carry out as
   a predicate, or 0 when it is always set (every extent 1). */
static int
odometer(Mm *m, Ix *x, Ix *y, const int64_t *ext, int n)
{
	int k, carry = 0, t, w;

	for (k = 0; k < n; k++) {
		if (ext[k] <= 1) {
			y[k] = x[k];
			continue;
		}
		if (!y[k].r)
			y[k].r = sreg(m);
		y[k].c = 0;
		t = sreg(m);
		add(m, OP_SADDI, t, x[k].r, 0, 0)->imm = 1;
		if (carry)
			add(m, OP_SSEL, t, t, x[k].r, carry);
		w = preg(m);
		add(m, OP_SCMPIEQ, w, t, 0, 0)->imm = (int32_t)ext[k];
		add(m, OP_SSEL, y[k].r, m->mm->zero, t, w);
		carry = w;
	}
	return carry;
}

/* The trip of counters c (trip in set, N set, K set): its indices, the
   next set's and the pushed chunk (guards left to the caller), and its
   addresses (new registers, or the constant bases). */
static void
loop_trip(Mm *m, const Ix *c, const int64_t *ext, Trip *t, Addr *ad)
{
	Ix nx[2], y[2] = { { 0, 0 }, { 0, 0 } };

	memset(t, 0, sizeof *t);
	t->i = c[0];
	t->ng = c[1];
	t->kg = c[2];
	if (m->pushing) {
		nx[0] = c[1];
		nx[1] = c[2];
		odometer(m, nx, y, ext + 1, 2);
		t->nng = y[0];
		t->nkg = y[1];
		t->push = 1;
		t->chunk = t->i;
		if (m->cpt * m->tps > m->npush) {
			/* the first npush / cpt trips of a set push chunk i */
			t->chunk.r = sreg(m);
			add(m, OP_SMINI, t->chunk.r, t->i.r, 0, 0)->imm =
			    (int32_t)(m->npush / m->cpt - 1);
		}
		t->latch = 1;
	}
	addresses(m, t, ad);
}

/* Loop-carried bases: d = s (0: none, the zero register). */
static void
smov(Mm *m, int d, int s)
{
	add(m, OP_SMOV, d, s ? s : m->mm->zero, 0, 0);
}

/* The loop's carried state: the counters (trip in set, N set, K set),
   the trip count, the previous trip's dst base and this trip's bases. */
typedef struct Carry {
	Ix c[3];
	int jr, pa, lb, db, wb;
} Carry;

/*
 * Before the loop, in a block of its own (its bundles pass while the
 * MXUs finish trip 0's last matmuls, so the loop's entry state is no
 * later than its back edge's): trip 1's counters, and its bases from
 * its static indices, one add each (the loop's static offsets are the
 * operands' own).
 */
static void
loop_enter(Mm *m, const Addr *first, const int64_t *ext, Carry *k)
{
	Trip t = static_trip(m, 1);
	Addr s;
	int i;

	blk(m);
	k->c[0] = t.i;
	k->c[1] = t.ng;
	k->c[2] = t.kg;
	for (i = 0; i < 3; i++)
		if (ext[i] > 1) {
			k->c[i].r = sreg(m);
			smovi(m, k->c[i].r, k->c[i].c);
			k->c[i].c = 0;
		}
	k->jr = sreg(m);
	smovi(m, k->jr, 1);
	k->pa = sreg(m);
	add(m, OP_SADDI, k->pa, first->db, 0, 0)->imm = (int32_t)first->di;
	/* the loop loads trip 1's chunk even when its push is guarded off */
	t.push = m->pushing;
	if (t.chunk.c > m->npush / m->cpt - 1)
		t.chunk.c = m->npush / m->cpt - 1;
	addresses(m, &t, &s);
	k->lb = sreg(m);
	add(m, OP_SADDI, k->lb, s.lb, 0, 0)->imm =
	    (int32_t)(s.li - m->mm->lhs.imm);
	k->db = sreg(m);
	add(m, OP_SADDI, k->db, s.db, 0, 0)->imm =
	    (int32_t)(s.di - m->mm->dst.imm);
	k->wb = m->pushing ? sreg(m) : 0;
	if (m->pushing)
		add(m, OP_SADDI, k->wb, s.wb, 0, 0)->imm =
		    (int32_t)(s.wi - m->mm->rhs.imm);
}

/* The loop trip's guards: push (the first npush / cpt trips of a set)
   and latch (the last trip of a set). */
static void
loop_guards(Mm *m, Trip *t)
{
	if (m->pushing && m->cpt * m->tps > m->npush) {
		t->pguard = preg(m);
		add(m, OP_SCMPILT, t->pguard, t->i.r, 0, 0)->imm =
		    (int32_t)(m->npush / m->cpt);
	}
	if (m->pushing && m->tps > 1) {
		t->lguard = preg(m);
		add(m, OP_SCMPIEQ, t->lguard, t->i.r, 0, 0)->imm =
		    (int32_t)(m->tps - 1);
	}
}

/*
 * Trips 1 .. J-1 as a counted loop.  Each iteration runs on the
 * counters and bases the one before left in the carried registers;
 * after its first step it steps a copy of the counters and computes
 * the next trip's bases into new registers, moved into place at the
 * end of the body, so the body's loads issue at once.
 */
static void
loop(Mm *m, const Addr *first)
{
	int64_t ext[3] = { m->tps, m->ngr, m->kgr }, i, kp = 0;
	Ix cn[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
	int top, p = preg(m);
	Trip t, tn;
	Addr ad, nad, prev;
	Carry k;
	LIns *br;

	loop_enter(m, first, ext, &k);
	memset(&t, 0, sizeof t);
	t.i = k.c[0];
	t.push = t.latch = m->pushing;
	ad.lb = k.lb;
	ad.db = k.db;
	ad.wb = k.wb;
	ad.li = m->mm->lhs.imm;
	ad.di = m->mm->dst.imm;
	ad.wi = m->mm->rhs.imm;
	prev.db = k.pa;
	prev.di = 0;
	prev.dmode = m->direct;
	prev.dpred = 0;
	prev.g0 = m->tps == 1 ? 0 : -1;
	top = blk(m);
	if (m->first) {		/* trip jr - 1 is of the first K group */
		prev.dmode = 2;
		prev.dpred = preg(m);
		add(m, OP_SCMPILE, prev.dpred, k.jr, 0, 0)->imm =
		    (int32_t)(m->ngr * m->tps);
	}
	add(m, OP_SADDI, k.jr, k.jr, 0, 0)->imm = 1;
	add(m, OP_SCMPILT, p, k.jr, 0, 0)->imm = (int32_t)m->J;
	loop_guards(m, &t);
	trip_steps(m, &t, &ad, &prev, 0, 1, &kp);
	odometer(m, k.c, cn, ext, 3);
	loop_trip(m, cn, ext, &tn, &nad);
	if (nad.li != ad.li || nad.di != ad.di || nad.wi != ad.wi)
		bug("vliw: isel_mxu: a loop trip's static offsets differ");
	trip_steps(m, &t, &ad, &prev, 1, m->U, &kp);
	add(m, OP_SADDI, k.pa, k.db, 0, 0)->imm = (int32_t)ad.di;
	for (i = 0; i < 3; i++)
		if (ext[i] > 1)
			smov(m, k.c[i].r, cn[i].r);
	smov(m, k.lb, nad.lb);
	smov(m, k.db, nad.db);
	if (m->pushing)
		smov(m, k.wb, nad.wb);
	br = add(m, OP_BR, 0, 0, 0, 0);
	br->guard = p;
	br->target = top;
	blk(m);
}

static void
stream(Mm *m)
{
	Trip t;
	Addr ad, prev, w0;
	int64_t j, x, mx, n = m->a * m->b;
	int unroll = m->J * m->U <= UNROLL_STEPS;

	/* prologue: set 0's weights */
	memset(&t, 0, sizeof t);
	t.push = 1;
	t.i = t.kg = t.ng = t.nkg = t.nng = t.chunk = cix(0);
	blk(m);
	addresses(m, &t, &w0);
	for (x = 0; x < m->npush; x++)
		for (mx = 0; mx < n; mx++)
			push(m, wload(m, &w0, mx, x), mx, 0);
	latch(m, 0);
	/* the trips: all unrolled, or trip 0 and a loop */
	for (j = 0; j < (unroll ? m->J : 1); j++) {
		t = static_trip(m, j);
		addresses(m, &t, &ad);
		trip(m, &t, &ad, j ? &prev : NULL);
		prev = ad;
	}
	if (!unroll && m->J > 1) {
		loop(m, &prev);
		t = static_trip(m, m->J - 1);
		t.push = 0;
		addresses(m, &t, &prev);
	}
	for (j = 0; j < m->U; j++)
		drain(m, &prev, j);
	blk(m);
}

static const char *
check(const Mm *m)
{
	const VliwMM *mm = m->mm;
	int64_t K = mm->lhs.cols, N = mm->dst.cols;

	if (m->D % m->L || m->D / m->L > 16 || m->D % (2 * m->S))
		return "a matmul on an MXU of this size";
	if (mm->lhs.pack != mm->rhs.pack || mm->dst.pack != 1 ||
	    mm->lhs.pack < 1 || mm->lhs.pack > 2)
		return "a matmul with mixed operand dtypes";
	if (mm->trans_b ? mm->rhs.cols != K || mm->rhs.rows != N :
	    mm->rhs.rows != K || mm->rhs.cols != N ||
	    mm->dst.rows != mm->lhs.rows)
		return "a matmul with mismatched operand shapes";
	if (mm->dst.rows <= 0 || K <= 0 || N <= 0)
		return "a matmul with an empty operand";
	if ((unsigned)mm->prec >= NMACHPREC)
		return "a matmul with this precision";
	if (m->mp->nmxu < 1 || m->pk * m->q > m->mp->mxu_fifo)
		return "a matmul with an MXU result FIFO this shallow";
	return NULL;
}

/* The largest divisor of n that is at most cap (at least 1). */
static int64_t
divisor(int64_t n, int64_t cap)
{
	int64_t d = cap < n ? cap : n;

	while (d > 1 && n % d)
		d--;
	return d > 0 ? d : 1;
}

/* The set shape, the trips and the push chunks. */
static void
plan(Mm *m)
{
	const VliwMM *mm = m->mm;
	int64_t kb = (m->K + m->D - 1) / m->D, nb = (m->N + m->D - 1) / m->D;
	int64_t cap;

	m->mt = (m->M + m->S * m->pk - 1) / (m->S * m->pk);
	m->a = divisor(kb, m->mp->nmxu < 16 ? m->mp->nmxu : 16);
	m->b = divisor(nb, m->mp->nmxu / m->a);
	m->kgr = kb / m->a;
	m->ngr = nb / m->b;
	cap = m->mp->mxu_fifo / (m->pk * m->q);
	m->U = divisor(m->mt, cap < MAX_U ? cap : MAX_U);
	/* MXUs the set leaves idle take every c-th step, with the same
	   weights (a set of one K tile and one N tile, such as Splash's
	   128-wide blocks, would use one MXU of four) */
	m->c = divisor(m->U, m->mp->nmxu / (m->a * m->b));
	m->tps = m->mt / m->U;
	m->J = m->tps * m->kgr * m->ngr;
	m->npush = m->D / (m->S * m->pk) * m->q;
	m->pushing = m->kgr * m->ngr > 1;
	/* the smallest chunk (whole column blocks, dividing the tile) that
	   the trips of a set cover */
	for (m->cpt = m->q; m->cpt < m->npush; m->cpt += m->q)
		if (m->npush % m->cpt == 0 && m->cpt * m->tps >= m->npush)
			break;
	m->direct = !mm->accumulate && m->kgr == 1;
	m->first = !mm->accumulate && m->kgr > 1;
}

/* Operand o's part of rows [r0, r0 + nr) and columns [c0, c0 + nc)
   (r0 a multiple of its tile's rows, c0 of L). */
static VliwMMOpnd
part(const Mm *m, VliwMMOpnd o, int64_t r0, int64_t nr, int64_t c0,
    int64_t nc)
{
	o.imm += r0 / (m->S * o.pack) * o.rstride + c0 / m->L * o.cstride;
	o.rows = nr;
	o.cols = nc;
	return o;
}

/* mm's part of rows [r0, r0 + nr), K [k0, k0 + nk), N [n0, n0 + nn). */
static VliwMM
part_mm(const Mm *m, int64_t r0, int64_t nr, int64_t k0, int64_t nk,
    int64_t n0, int64_t nn)
{
	VliwMM s = *m->mm;

	s.dst = part(m, s.dst, r0, nr, n0, nn);
	s.lhs = part(m, s.lhs, r0, nr, k0, nk);
	s.rhs = s.trans_b ? part(m, s.rhs, n0, nn, k0, nk) :
	    part(m, s.rhs, k0, nk, n0, nn);
	if (k0 > 0)
		s.accumulate = 1;
	return s;
}

static const char *lower(LFunc *f, int *cur, const VliwMM *mm);

/*
 * A partial tile whose place in its set or trip is not static (a set of
 * some of several K or N tiles, a row group in a looped trip) is split
 * off: the whole tiles in one matmul, the rest in another (the K rest
 * added into the first's dst; along M, the last trip's U row groups,
 * so that both keep U).  Returns 0 when m needs no split.
 */
static int
split(Mm *m, const char **why)
{
	int64_t R = m->S * m->pk, k = m->K / m->D * m->D;
	int64_t n = m->N / m->D * m->D, r = (m->mt - m->U) * R;
	VliwMM lo, hi;

	if (m->K % m->D && m->kgr > 1) {
		lo = part_mm(m, 0, m->M, 0, k, 0, m->N);
		hi = part_mm(m, 0, m->M, k, m->K - k, 0, m->N);
	} else if (m->N % m->D && m->ngr > 1) {
		lo = part_mm(m, 0, m->M, 0, m->K, 0, n);
		hi = part_mm(m, 0, m->M, 0, m->K, n, m->N - n);
	} else if (m->M % R && m->tps > 1 && m->J * m->U > UNROLL_STEPS) {
		lo = part_mm(m, 0, r, 0, m->K, 0, m->N);
		hi = part_mm(m, r, m->M - r, 0, m->K, 0, m->N);
	} else
		return 0;
	if (!(*why = lower(m->f, &m->cur, &lo)))
		*why = lower(m->f, &m->cur, &hi);
	return 1;
}

static const char *
lower(LFunc *f, int *cur, const VliwMM *mm)
{
	Mm m;
	const char *why = NULL;

	memset(&m, 0, sizeof m);
	m.f = f;
	m.mp = f->mp;
	m.mm = mm;
	m.cur = *cur;
	m.S = f->mp->sublanes;
	m.L = f->mp->lanes;
	m.D = f->mp->mxu_dim;
	m.q = m.L > 0 ? m.D / m.L : 0;
	m.pk = mm->lhs.pack;
	m.M = mm->dst.rows;
	m.K = mm->lhs.cols;
	m.N = mm->dst.cols;
	if (m.q < 1 || m.S < 1)
		return "a matmul on an MXU of this size";
	if ((why = check(&m)) != NULL)
		return why;
	plan(&m);
	if (!split(&m, &why))
		stream(&m);
	*cur = m.cur;
	return why;
}

const char *
vliw_isel_matmul(LFunc *f, int *cur, const VliwMM *mm)
{
	return lower(f, cur, mm);
}
