/*
 * sim_xlu.c - the cross-lane units: lane rotate and broadcast, lane
 * reductions and L x L transposes, each pushed into unit c's result FIFO
 * and collected by xlu.pop.
 *
 * Decisions: xlu.sum adds in a halving tree (lane j += lane j + L/2, then
 * j + L/4, ...), the same on every host; xlu.max propagates NaN like
 * vmax.f32.  A unit accepts a push every cycle for rotates and
 * broadcasts, every xlu_reduce_interval cycles for reductions and every
 * xlu_xpose_interval cycles for transpose rows; an early push waits for
 * the unit (no stall) and its result is ready that much later.  Each
 * transpose push reserves one FIFO entry; the block's L/S results are
 * ready LAT_XLU_XPOSE after its last push, one every interval.
 */
#include <string.h>

#include "machine/sim.h"

static float
fmax_nan(float x, float y)
{
	uint32_t a, b;

	if (x != x)
		return x;
	if (y != y)
		return y;
	if (x != y)
		return x > y ? x : y;
	memcpy(&a, &x, 4);
	memcpy(&b, &y, 4);
	a &= b;
	memcpy(&x, &a, 4);
	return x;
}

static float
reduce(const SimW *row, int L, int max, float *t)
{
	int j, s;

	for (j = 0; j < L; j++)
		t[j] = row[j].f;
	if (L & (L - 1)) {	/* not a power of two: in order */
		for (j = 1; j < L; j++)
			t[0] = max ? fmax_nan(t[0], t[j]) : t[0] + t[j];
		return t[0];
	}
	for (s = L / 2; s >= 1; s /= 2)
		for (j = 0; j < s; j++)
			t[j] = max ? fmax_nan(t[j], t[j + s]) : t[j] + t[j + s];
	return L ? t[0] : 0.0f;
}

/* Results of a lane op on v into e. */
static void
lane_op(MachSim *m, const SimIns *in, const SimW *v, SimW *e)
{
	int S = m->S, L = m->L, i, j;
	float r;

	for (i = 0; i < S; i++) {
		const SimW *row = v + (size_t)i * (size_t)L;
		SimW *out = e + (size_t)i * (size_t)L;

		switch (in->h) {
		case OP_XROT:
			for (j = 0; j < L; j++)
				out[(j + in->x) % L] = row[j];
			break;
		case OP_XBCAST:
			for (j = 0; j < L; j++)
				out[j] = row[in->x];
			break;
		default:
			r = reduce(row, L, in->h == OP_XMAX, m->tmp);
			for (j = 0; j < L; j++)
				out[j].f = r;
			break;
		}
	}
}

static int
full(MachSim *m, uint32_t b, const SimIns *in, SimFifo *f)
{
	return mach_trap(m, PALLAS_TRAP_FIFO_OVERFLOW, b, in, 0, SIM_NEVER,
	    "xlu%d result FIFO is full (%d of %d vregs)", in->c, f->count,
	    f->depth);
}

/* The transpose of the block into its reserved entries. */
static void
finish_block(MachSim *m, SimXlu *x, uint64_t start)
{
	int S = m->S, L = m->L, q, i, j;
	int interval = m->mp->xlu_xpose_interval;
	SimW *e;

	memset(x->blk + (size_t)x->nrows * (size_t)L, 0,
	    (size_t)(L - x->nrows) * (size_t)L * sizeof(float));
	for (q = 0; q < x->nslot; q++) {
		e = x->fifo.buf + (size_t)x->slots[q] * (size_t)m->V;
		for (i = 0; i < S; i++)
			for (j = 0; j < L; j++)
				e[i * L + j].f = x->blk[(size_t)j * (size_t)L +
				    (size_t)(q * S + i)];
		x->fifo.ready[x->slots[q]] = start +
		    (uint64_t)m->lat[LAT_XLU_XPOSE] + (uint64_t)q *
		    (uint64_t)(interval > 0 ? interval : 1);
	}
	x->nrows = x->nslot = 0;
}

static int
xpose(MachSim *m, uint32_t b, const SimIns *in, const SimW *v,
    uint64_t start)
{
	SimXlu *x = &m->xlu[in->c];
	int nblk = m->L / m->S, end = in->h == OP_XXPOSEEND, need, i;

	need = end ? nblk - x->nslot : 1;
	if (x->fifo.count + need > x->fifo.depth)
		return full(m, b, in, &x->fifo);
	for (i = 0; i < need; i++)
		mach_fifo_push(&x->fifo, SIM_NEVER, &x->slots[x->nslot++]);
	for (i = 0; i < m->S; i++)
		memcpy(x->blk + (size_t)(x->nrows + i) * (size_t)m->L,
		    v + (size_t)i * (size_t)m->L, (size_t)m->L * sizeof(float));
	x->nrows += m->S;
	if (end || x->nrows == m->L)
		finish_block(m, x, start);
	return 0;
}

int
mach_xlu_push(MachSim *m, uint32_t b, const SimIns *in)
{
	SimXlu *x = &m->xlu[in->c];
	const SimW *v = m->v + (size_t)in->a * (size_t)m->V;
	int lat, interval;
	uint64_t start;
	SimW *e;

	switch (in->h) {
	case OP_XXPOSE: case OP_XXPOSEEND:
		interval = m->mp->xlu_xpose_interval;
		lat = 0;
		break;
	case OP_XMAX: case OP_XSUM:
		interval = m->mp->xlu_reduce_interval;
		lat = m->lat[LAT_XLU_REDUCE];
		break;
	default:
		interval = 1;
		lat = m->lat[LAT_XLU_PERM];
		break;
	}
	if (x->fifo.count == x->fifo.depth)
		return full(m, b, in, &x->fifo);
	start = m->cycle > x->busy_until ? m->cycle : x->busy_until;
	if (in->h == OP_XXPOSE || in->h == OP_XXPOSEEND) {
		if (xpose(m, b, in, v, start))
			return -1;
	} else {
		e = mach_fifo_push(&x->fifo, start + (uint64_t)lat, NULL);
		lane_op(m, in, v, e);
	}
	x->busy_until = start + (uint64_t)(interval > 0 ? interval : 1);
	return 0;
}
