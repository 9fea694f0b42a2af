/*
 * isel_mxu.c - instruction selection for TOP_MATMUL on the MXU.
 *
 * Needs:    the three operands as tile-aligned f32 VMEM regions (isel.c
 *           resolves the refs into a VliwMM).
 * Gives:    LLO appended after block *cur, in new blocks:
 *             dst = 0 first unless accumulating (a loop over row tiles);
 *             loop kc over K / D, loop nc over N / D (D = MXU size):
 *               push the D x D weight tile (mxu.push, or mxu.pusht for
 *               trans_b), latch;
 *               loop over groups of LHS row tiles (as many as the result
 *               FIFO holds): stream the LHS vregs with mxu.mm (kblk per
 *               L columns: acc / hold), wait for the results, pop them
 *               and add them into dst (vld, vadd.f32, vst).
 * Ordering: the scheduler orders ops by registers and memory only, and
 *           completes every non-register effect (pushes, matmuls) before
 *           a block is left; so each MXU phase (pushes, latch, matmuls,
 *           pops) gets its own block, and a delay between the matmuls
 *           and the pops covers the MXU's busy time beyond the matmul
 *           latency (the last FIFO entry of a group of g matmuls is ready
 *           at most g * passes * rows - rows cycles after that latency).
 *           Ops of one unit keep program order (equal priorities, ties to
 *           the earlier op).
 * Loops:    small matmuls are unrolled and wait with a chain of EUP
 *           round trips (no predicate registers: the grid pipeline uses
 *           many); larger ones run as counted loops over K, N and row
 *           groups and wait in a countdown loop.
 * Subset:   f32 result, f32 or bf16 operands (mxu.push.bf16, mxu.mm.bf16:
 *           a packed vreg is 2S rows, its results 2 x D / L vregs), M a
 *           multiple of the rows of an LHS vreg, K and
 *           N multiples of the MXU size, which is a multiple of the lanes,
 *           one MXU (mxu0).  Anything else is reported to the caller.
 * Entry:    vliw_isel_matmul(LFunc *, int *cur, const VliwMM *)
 */
#include "backend/vliw/vliw.h"

/* Unroll the loops of matmuls of at most this many weight-and-group trips
   whose MXU wait per group is at most this many cycles. */
enum { UNROLL_TRIPS = 16, UNROLL_WAIT = 256 };

typedef struct Mm {
	LFunc *f;
	const MachPreset *mp;
	const VliwMM *mm;
	int cur;
	int64_t S, L, D, q;	/* sublanes, lanes, MXU size, D / L */
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
blk(Mm *m)
{
	return m->cur = llo_new_blk(m->f);
}

/* An index: s[r] (r 0: none) plus c. */
typedef struct Ix {
	int r;
	int64_t c;
} Ix;

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

/* A counted loop of n trips, or (unrolled) the trips one after another:
   loop_begin gives the index of the trip, loop_next moves on and says
   whether to emit another trip. */
typedef struct Loop {
	int iv, top, unroll;
	int64_t n, k;
} Loop;

static Ix
loop_begin(Mm *m, Loop *l, int64_t n)
{
	Ix i = { 0, 0 };

	l->n = n;
	l->k = 0;
	if (l->unroll || n <= 1)
		return i;
	i.r = l->iv = sreg(m);
	add(m, OP_SMOVI, l->iv, 0, 0, 0)->imm = 0;
	l->top = blk(m);
	return i;
}

/* 1 and *i = the next trip's index when the caller emits another trip. */
static int
loop_next(Mm *m, Loop *l, Ix *i)
{
	int p;
	LIns *br;

	if (l->unroll || l->n <= 1) {
		i->c = ++l->k;
		return l->k < l->n;
	}
	p = llo_new_reg(m->f, LC_P);
	add(m, OP_SADDI, l->iv, l->iv, 0, 0)->imm = 1;
	add(m, OP_SCMPILT, p, l->iv, 0, 0)->imm = (int32_t)l->n;
	br = add(m, OP_BR, 0, 0, 0, 0);
	br->guard = p;
	br->target = l->top;
	blk(m);
	return 0;
}

/*
 * Spends at least 'cycles' cycles in a block of its own.  Unrolled: a
 * chain of EUP reciprocals, each push waiting for the previous pop (no
 * predicate needed); else a loop of a dependent decrement, compare and
 * taken branch (three cycles a trip at the least).
 */
static void
delay(Mm *m, int64_t cycles, int unroll)
{
	int t, p, v, top;
	int64_t n, k, per;
	LIns *br;

	if (cycles <= 0)
		return;
	if (unroll) {
		per = m->mp->lat[LAT_EUP] + m->mp->lat[LAT_POP];
		n = (cycles + per - 1) / (per > 0 ? per : 1);
		v = vreg(m);
		add(m, OP_VBCASTI, v, 0, 0, 0)->imm = 0x3f800000;
		for (k = 0; k < n; k++) {
			t = vreg(m);
			add(m, OP_ERCP, 0, v, 0, 0);
			add(m, OP_EPOP, t, 0, 0, 0);
			v = t;
		}
		blk(m);
		return;
	}
	n = (cycles + 2) / 3;
	t = sreg(m);
	add(m, OP_SMOVI, t, 0, 0, 0)->imm = (int32_t)n;
	p = llo_new_reg(m->f, LC_P);
	top = blk(m);
	add(m, OP_SADDI, t, t, 0, 0)->imm = -1;
	add(m, OP_SCMPIGT, p, t, 0, 0)->imm = 0;
	br = add(m, OP_BR, 0, 0, 0, 0);
	br->guard = p;
	br->target = top;
	blk(m);
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

/* dst = 0, row tile by row tile. */
static void
zero_dst(Mm *m, int unroll)
{
	const VliwMMOpnd *d = &m->mm->dst;
	int z = vreg(m), b;
	int64_t j, imm;
	Loop l = { .unroll = unroll };
	Ix i;

	add(m, OP_VBCASTI, z, 0, 0, 0)->imm = 0;
	i = loop_begin(m, &l, d->rows / m->S);
	do {
		imm = d->imm;
		b = at(m, d->base, i, d->rstride, &imm);
		for (j = 0; j < d->cols / m->L; j++)
			vst(m, z, b, imm + j * d->cstride);
	} while (loop_next(m, &l, &i));
}

/* Stages and latches the weight tile (kc, nc) of rhs. */
static void
weights(Mm *m, Ix kc, Ix nc)
{
	const VliwMMOpnd *r = &m->mm->rhs;
	int tr = m->mm->trans_b, b, v, op;
	int64_t g, cb, rt = m->D / (m->S * r->pack), imm = r->imm;

	/* rows of W are K; trans_b: rhs rows are N, its columns K */
	b = at(m, r->base, tr ? nc : kc, rt * r->rstride, &imm);
	b = at(m, b, tr ? kc : nc, m->q * r->cstride, &imm);
	blk(m);
	for (g = 0; g < rt; g++)
		for (cb = 0; cb < m->q; cb++) {
			v = vreg(m);
			vld(m, v, b, imm + g * r->rstride + cb * r->cstride);
			op = r->pack == 2 ? (tr ? OP_MPUSHTB : OP_MPUSHB) :
			    tr ? OP_MPUSHT : OP_MPUSH;
			add(m, op, 0, v, 0, 0);
		}
	blk(m);
	add(m, OP_MLATCH, 0, 0, 0, 0);
	blk(m);
}

/* One group of n LHS row tiles (from row tile ig * n): matmuls, wait,
   pops added into dst. */
static void
group(Mm *m, Ix ig, int64_t n, Ix kc, Ix nc, int unroll)
{
	const VliwMM *mm = m->mm;
	int lb, db, v, p, w, s, rpc = m->mp->mxu_rows_per_cycle;
	int pk = mm->lhs.pack;
	int64_t r, b, g, rows, dur, li = mm->lhs.imm, di = mm->dst.imm;
	unsigned fl;

	rpc = rpc > 0 ? rpc : 1;
	rows = (m->S + rpc - 1) / rpc;
	dur = (m->S * pk + rpc - 1) / rpc * m->mp->mxu_passes[mm->prec];
	lb = at(m, mm->lhs.base, ig, n * mm->lhs.rstride, &li);
	lb = at(m, lb, kc, m->q * mm->lhs.cstride, &li);
	db = at(m, mm->dst.base, ig, n * pk * mm->dst.rstride, &di);
	db = at(m, db, nc, m->q * mm->dst.cstride, &di);
	blk(m);
	for (r = 0; r < n; r++)
		for (b = 0; b < m->q; b++) {
			v = vreg(m);
			vld(m, v, lb, li + r * mm->lhs.rstride +
			    b * mm->lhs.cstride);
			fl = (unsigned)mm->prec << MACH_MM_PREC_SHIFT |
			    (unsigned)b << MACH_MM_KBLK_SHIFT;
			if (b > 0)
				fl |= MACH_MM_ACC;
			if (b < m->q - 1)
				fl |= MACH_MM_HOLD;
			add(m, pk == 2 ? OP_MXMMB : OP_MXMM, 0, v, 0, 0)->x =
			    (uint16_t)fl;
		}
	blk(m);
	delay(m, n * m->q * dur - rows, unroll);
	for (r = 0; r < n * pk; r += pk)
		for (g = 0; g < pk; g++)
		for (b = 0; b < m->q; b++) {
			int64_t off = di + (r + g) * mm->dst.rstride +
			    b * mm->dst.cstride;
			p = vreg(m);
			w = vreg(m);
			s = vreg(m);
			add(m, OP_MPOP, p, 0, 0, 0);
			vld(m, w, db, off);
			add(m, OP_VADDF, s, w, p, 0);
			vst(m, s, db, off);
		}
	blk(m);
}

static const char *
check(const Mm *m)
{
	const VliwMM *mm = m->mm;
	int64_t K = mm->lhs.cols, N = mm->dst.cols;

	if (m->D % m->L || m->D / m->L > 16 || m->D % (2 * m->S))
		return "a matmul on an MXU of this size";
	if (mm->lhs.pack != mm->rhs.pack || mm->dst.pack != 1)
		return "a matmul with mixed operand dtypes";
	if (mm->dst.rows != mm->lhs.rows ||
	    mm->dst.rows % (m->S * mm->lhs.pack))
		return "a matmul whose rows do not fill whole vregs";
	if (mm->trans_b ? mm->rhs.cols != K || mm->rhs.rows != N :
	    mm->rhs.rows != K || mm->rhs.cols != N)
		return "a matmul with mismatched operand shapes";
	if (K % m->D || N % m->D)
		return "a matmul whose K or N is not a multiple of the MXU size";
	if ((unsigned)mm->prec >= NMACHPREC)
		return "a matmul with this precision";
	return NULL;
}

const char *
vliw_isel_matmul(LFunc *f, int *cur, const VliwMM *mm)
{
	Mm m;
	Loop lk = { 0 }, ln = { 0 }, lg = { 0 };
	int64_t n, mt, kb, nb, trips, wait, rpc;
	Ix kc, nc, ig;
	const char *why;
	int unroll;

	m.f = f;
	m.mp = f->mp;
	m.mm = mm;
	m.cur = *cur;
	m.S = f->mp->sublanes;
	m.L = f->mp->lanes;
	m.D = f->mp->mxu_dim;
	m.q = m.L > 0 ? m.D / m.L : 0;
	if (m.q < 1)
		return "a matmul on an MXU of this size";
	if ((why = check(&m)) != NULL)
		return why;
	mt = mm->dst.rows / (m.S * mm->lhs.pack);
	n = f->mp->mxu_fifo / (m.q * mm->lhs.pack);
	if (n > mt)
		n = mt;
	while (n > 1 && mt % n)
		n--;
	if (n < 1)
		return "a matmul with an MXU result FIFO this shallow";
	kb = mm->lhs.cols / m.D;
	nb = mm->dst.cols / m.D;
	trips = kb * nb * (mt / n);
	rpc = f->mp->mxu_rows_per_cycle > 0 ? f->mp->mxu_rows_per_cycle : 1;
	wait = n * m.q * f->mp->mxu_passes[mm->prec] *
	    ((m.S * mm->lhs.pack + rpc - 1) / rpc);
	/* small matmuls unroll: no loop predicates, no delay loops */
	unroll = trips <= UNROLL_TRIPS && wait <= UNROLL_WAIT;
	lk.unroll = ln.unroll = lg.unroll = unroll;
	if (!mm->accumulate)
		zero_dst(&m, (unroll && mt <= UNROLL_TRIPS) ||
		    mm->dst.rows <= m.S);
	kc = loop_begin(&m, &lk, kb);
	do {
		nc = loop_begin(&m, &ln, nb);
		do {
			weights(&m, kc, nc);
			ig = loop_begin(&m, &lg, mt / n);
			do
				group(&m, ig, n, kc, nc, unroll);
			while (loop_next(&m, &lg, &ig));
		} while (loop_next(&m, &ln, &nc));
	} while (loop_next(&m, &lk, &kc));
	*cur = m.cur;
	return NULL;
}
