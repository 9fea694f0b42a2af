/*
 * sim.c - the dispatch loop: runs decoded bundles (MachCode) one per
 * cycle until halt or a trap.
 *
 * Per bundle: land the DMAs done by now, stall on a sync wait (the only
 * stall; the whole bundle issues when the wait is satisfied), then run
 * the filled slots in decoded order.  Every op checks that each register
 * it reads is ready (ready cycle <= now) and that its destination is not
 * still pending, writes the value at once and marks the destination
 * ready after the op's latency.  Taken branches add the branch bubble.
 *
 * Each case below is preceded by its operands and its synopsis (isa.def
 * is the contract; these comments repeat it where the op is run).
 */
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"

#define vmdispatch(o)	switch (o)
#define vmcase(l)	case l:
#define vmbreak		break

#define V_(r)	(m->v + (size_t)(r) * (size_t)V)
#define M_(r)	(m->m + (size_t)(r) * (size_t)V)
#define LAT(c)	((uint64_t)m->lat[c])

#define TRAP(call)	do { if (call) goto trapped; } while (0)
#define RD(kind, rdy, r) \
	if (SIM_UNLIKELY(rdy[r] > cyc)) { \
		not_ready(m, pc, in, kind, r, rdy[r]); goto trapped; }
#define WR(kind, rdy, r, lat) \
	if (SIM_UNLIKELY(rdy[r] > cyc)) { \
		pending(m, pc, in, kind, r, rdy[r]); goto trapped; } \
	rdy[r] = cyc + (lat)
#define RDS(r)	RD('s', m->sready, r)
#define RDP(r)	RD('p', m->pready, r)
#define RDV(r)	RD('v', m->vready, r)
#define RDM(r)	RD('m', m->mready, r)
#define WRS(r, l)	WR('s', m->sready, r, l)
#define WRV(r, l)	WR('v', m->vready, r, l)
#define WRM(r, l)	WR('m', m->mready, r, l)
#define WRP(r, l)	if ((r) != 0) { WR('p', m->pready, r, l); }

/* scalar ALU shapes: x, y are the sources as uint32_t */
#define SALU3(e) { RDS(in->a); RDS(in->b); \
	uint32_t x = m->s[in->a], y = m->s[in->b]; (void)x; (void)y; \
	WRS(in->d, LAT(LAT_SALU)); m->s[in->d] = (e); } vmbreak
#define SALUI(e) { RDS(in->a); \
	uint32_t x = m->s[in->a], y = (uint32_t)in->imm; (void)y; \
	WRS(in->d, LAT(LAT_SALU)); m->s[in->d] = (e); } vmbreak
#define SCMP(e) { RDS(in->a); RDS(in->b); \
	int32_t x = (int32_t)m->s[in->a], y = (int32_t)m->s[in->b]; \
	WRP(in->d, LAT(LAT_SALU)); if (in->d) m->p[in->d] = (e); } vmbreak
#define SCMPI(e) { RDS(in->a); \
	int32_t x = (int32_t)m->s[in->a], y = in->imm; \
	WRP(in->d, LAT(LAT_SALU)); if (in->d) m->p[in->d] = (e); } vmbreak
#define SI(v)	((int32_t)(v))

/* vector shapes */
#define VOP2(op) { RDV(in->a); RDV(in->b); WRV(in->d, LAT(LAT_VALU)); \
	mach_valu(op, V_(in->d), V_(in->a), V_(in->b), V); } vmbreak
#define VOP1(op) { RDV(in->a); WRV(in->d, LAT(LAT_VALU)); \
	mach_valu(op, V_(in->d), V_(in->a), NULL, V); } vmbreak
#define VCMP(op) { RDV(in->a); RDV(in->b); WRM(in->d, LAT(LAT_VALU)); \
	mach_vcmp(op, M_(in->d), V_(in->a), V_(in->b), V); } vmbreak
#define MOP(op, rb) { RDM(in->a); RDM(rb); WRM(in->d, LAT(LAT_VALU)); \
	mach_mask(op, M_(in->d), M_(in->a), M_(rb), V); } vmbreak
#define EUP(op) { RDV(in->a); TRAP(eup_push(m, pc, in)); } vmbreak
#define XLU() { RDV(in->a); TRAP(mach_xlu_push(m, pc, in)); } vmbreak

static uint32_t
sra(uint32_t x, uint32_t s)
{
	uint32_t sign = (uint32_t)0 - (x >> 31);

	return ((x ^ sign) >> (s & 31)) ^ sign;
}

static int
not_ready(MachSim *m, uint32_t pc, const SimIns *in, int kind, int r,
    uint64_t ready)
{
	return mach_trap(m, PALLAS_TRAP_NOT_READY, pc, in, 0, SIM_NEVER,
	    "%c%d is read before it is ready (ready at cycle %llu)", kind, r,
	    (unsigned long long)ready);
}

static int
pending(MachSim *m, uint32_t pc, const SimIns *in, int kind, int r,
    uint64_t ready)
{
	return mach_trap(m, PALLAS_TRAP_WAW, pc, in, 0, SIM_NEVER,
	    "%c%d is written while an earlier write is pending (ready at "
	    "cycle %llu)", kind, r, (unsigned long long)ready);
}

static int
eup_push(MachSim *m, uint32_t pc, const SimIns *in)
{
	SimW *e = mach_fifo_push(&m->eup, m->cycle + LAT(LAT_EUP), NULL);

	if (!e)
		return mach_trap(m, PALLAS_TRAP_FIFO_OVERFLOW, pc, in, 0,
		    SIM_NEVER, "EUP result FIFO is full (%d vregs)",
		    m->eup.depth);
	mach_eup(in->h, e, m->v + (size_t)in->a * (size_t)m->V, m->V);
	return 0;
}

/* Pops f's head into v[d] (after the destination check). */
static int
pop(MachSim *m, uint32_t pc, const SimIns *in, SimFifo *f, const char *what)
{
	uint64_t ready = 0;
	SimW *e;
	int why;

	if (!(e = mach_fifo_head(f, m->cycle, &why, &ready))) {
		if (why == 0)
			return mach_trap(m, PALLAS_TRAP_FIFO_UNDERFLOW, pc, in, 0,
			    SIM_NEVER, "pop from the empty %s FIFO", what);
		if (ready == SIM_NEVER)
			return mach_trap(m, PALLAS_TRAP_FIFO_UNDERFLOW, pc, in, 0,
			    SIM_NEVER, "pop from the %s FIFO before its "
			    "transpose block is complete", what);
		return mach_trap(m, PALLAS_TRAP_FIFO_UNDERFLOW, pc, in, 0,
		    SIM_NEVER, "pop from the %s FIFO before its head is ready "
		    "(at cycle %llu)", what, (unsigned long long)ready);
	}
	if (m->vready[in->d] > m->cycle)
		return pending(m, pc, in, 'v', in->d, m->vready[in->d]);
	m->vready[in->d] = m->cycle + LAT(LAT_POP);
	memcpy(m->v + (size_t)in->d * (size_t)m->V, e,
	    (size_t)m->V * sizeof *e);
	mach_fifo_drop(f);
	return 0;
}

/* Address of a vld/vst: row aligned, masked rows inside VMEM, no race. */
static int
vaddr(MachSim *m, uint32_t pc, const SimIns *in, int writing, int64_t *out)
{
	int64_t row = (int64_t)m->L * 4, a = (int64_t)SI(m->s[in->a]) + in->imm;
	int64_t stride = (in->x >> 8) * row, last = -1, r;
	unsigned mask = in->x & 0xff;
	int i;

	if (a % row)
		return mach_trap(m, PALLAS_TRAP_ALIGN, pc, in, SIM_VMEM,
		    (uint64_t)a, "VMEM address is not a multiple of the row "
		    "size %lld", (long long)row);
	for (i = 0; i < m->S; i++)
		if (mask >> i & 1)
			last = i;
	if (last >= 0 && (a < 0 || a + last * stride + row >
	    (int64_t)m->mp->vmem_bytes))
		return mach_trap(m, PALLAS_TRAP_BOUNDS, pc, in, SIM_VMEM,
		    (uint64_t)a, "VMEM rows [0x%llx, 0x%llx) outside VMEM",
		    (unsigned long long)a,
		    (unsigned long long)(a + last * stride + row));
	for (i = 0; m->ndma && i <= last; i++) {
		r = a + i * stride;
		if ((mask >> i & 1) && mach_dma_race(m, pc, in, SIM_VMEM,
		    (uint64_t)r, (uint64_t)row, writing))
			return -1;
	}
	if (last >= 0)
		mach_sim_touch(m, SIM_VMEM, (uint64_t)(a + last * stride +
		    row));
	*out = a;
	return 0;
}

static int
vld(MachSim *m, uint32_t pc, const SimIns *in)
{
	int64_t a, stride = (int64_t)(in->x >> 8) * m->L * 4;
	size_t row = (size_t)m->L * 4;
	SimW *d;
	int i;

	if (vaddr(m, pc, in, 0, &a))
		return -1;
	if (m->vready[in->d] > m->cycle)
		return pending(m, pc, in, 'v', in->d, m->vready[in->d]);
	m->vready[in->d] = m->cycle + LAT(LAT_VLD);
	d = m->v + (size_t)in->d * (size_t)m->V;
	for (i = 0; i < m->S; i++, d += m->L)
		if (in->x >> i & 1)
			memcpy(d, m->vmem + a + i * stride, row);
		else
			memset(d, 0, row);
	return 0;
}

static int
vst(MachSim *m, uint32_t pc, const SimIns *in)
{
	int64_t a, stride = (int64_t)(in->x >> 8) * m->L * 4;
	const SimW *v = m->v + (size_t)in->b * (size_t)m->V;
	const uint32_t *k = m->m + (size_t)in->c * (size_t)m->V;
	int i, j, L = m->L;
	uint8_t *q;

	if (vaddr(m, pc, in, 1, &a))
		return -1;
	for (i = 0; i < m->S; i++) {
		if (!(in->x >> i & 1))
			continue;
		q = m->vmem + a + i * stride;
		if (in->h == OP_VST) {
			memcpy(q, v + i * L, (size_t)L * 4);
			continue;
		}
		for (j = 0; j < L; j++)
			if (k[i * L + j])
				memcpy(q + 4 * j, &v[i * L + j], 4);
	}
	return 0;
}

/* SMEM word address s[a] + imm: aligned, inside, no race. */
static int
saddr(MachSim *m, uint32_t pc, const SimIns *in, int writing, uint64_t *out)
{
	int64_t a = (int64_t)SI(m->s[in->a]) + in->imm;

	if (a < 0 || a + 4 > (int64_t)m->mp->smem_bytes)
		return mach_trap(m, PALLAS_TRAP_BOUNDS, pc, in, SIM_SMEM,
		    (uint64_t)a, "SMEM word outside SMEM (%llu bytes)",
		    (unsigned long long)m->mp->smem_bytes);
	if (a % 4)
		return mach_trap(m, PALLAS_TRAP_ALIGN, pc, in, SIM_SMEM,
		    (uint64_t)a, "SMEM address is not a multiple of 4");
	if (m->ndma && mach_dma_race(m, pc, in, SIM_SMEM, (uint64_t)a, 4,
	    writing))
		return -1;
	mach_sim_touch(m, SIM_SMEM, (uint64_t)a + 4);
	*out = (uint64_t)a;
	return 0;
}

static void
rot_sub(MachSim *m, const SimIns *in, int bcast)
{
	size_t row = (size_t)m->L * 4;
	SimW *d = m->v + (size_t)in->d * (size_t)m->V;
	int i, S = m->S;

	memcpy(m->tmp, m->v + (size_t)in->a * (size_t)m->V, row * (size_t)S);
	for (i = 0; i < S; i++)
		memcpy(d + (size_t)(bcast ? i : (i + in->x) % S) * (size_t)m->L,
		    (char *)m->tmp + (bcast ? in->x : i) * row, row);
}

static void
fill(SimW *d, int V, uint32_t w)
{
	int i;

	for (i = 0; i < V; i++)
		d[i].u = w;
}

static void
iota(MachSim *m, SimW *d, int lane)
{
	int i, j;

	for (i = 0; i < m->S; i++)
		for (j = 0; j < m->L; j++)
			d[i * m->L + j].i = lane ? j : i;
}

/* The predicate the guard of a wait reads at the bundle's start. */
static int
wait_guard(const MachSim *m, const MachCode *c, const SimBundle *bb,
    const SimIns *w)
{
	uint32_t i;

	if (w->guard < m->np)
		return w->guard;
	for (i = bb->first; i < bb->first + bb->n; i++)
		if (c->ins[i].h == SIM_COPY_P && c->ins[i].d == w->guard)
			return c->ins[i].a;
	return 0;
}

/* Stalls until the bundle's wait holds: lands DMAs as time advances. */
static int
wait(MachSim *m, const MachCode *c, const SimBundle *bb, uint32_t pc)
{
	const SimIns *w = NULL;
	uint64_t from = m->cycle;
	uint32_t i;
	int g;

	for (i = bb->first; i < bb->first + bb->n; i++)
		if (c->ins[i].h == OP_SYNCWAIT || c->ins[i].h == OP_SYNCTAKE)
			w = &c->ins[i];
	if (!w)
		return 0;
	g = wait_guard(m, c, bb, w);
	if (g && m->pready[g] > m->cycle)
		return not_ready(m, pc, w, 'p', g, m->pready[g]);
	if ((m->p[g] != 0) == (w->gneg != 0))
		return 0;
	while (m->flag[w->b] < (uint32_t)w->imm) {
		if (!m->ndma)
			return mach_trap(m, PALLAS_TRAP_DEADLOCK, pc, w, 0,
			    SIM_NEVER, "f%d = %u waits for %u, and no DMA is in "
			    "flight", w->b, m->flag[w->b], (uint32_t)w->imm);
		if (m->dma_next >= m->limit) {
			m->cycle = m->limit;
			return mach_trap(m, PALLAS_TRAP_RUNAWAY, pc, w, 0,
			    SIM_NEVER, "cycle limit %llu reached in a wait",
			    (unsigned long long)m->limit);
		}
		m->cycle = m->dma_next;
		mach_dma_complete(m);
	}
	m->cnt.stall_cycles += m->cycle - from;
	if (m->trace && m->cycle > from)
		mach_trace_span(m->trace, TRK_STALL, from, m->cycle,
		    "sync.wait", 0);
	return 0;
}

static int
region_begin(MachSim *m, uint32_t pc, const SimIns *in)
{
	const MachProgram *p = m->code->prog;
	SimOpen *o;

	if (in->imm < 0 || (uint32_t)in->imm >= p->nregion)
		return mach_trap(m, PALLAS_TRAP_BAD_OP, pc, in, 0, SIM_NEVER,
		    "region %d out of range (%u regions)", in->imm, p->nregion);
	if (m->nopen == (int)(sizeof m->open / sizeof m->open[0]))
		return mach_trap(m, PALLAS_TRAP_BAD_OP, pc, in, 0, SIM_NEVER,
		    "regions nested deeper than %d", m->nopen);
	o = &m->open[m->nopen++];
	o->region = (uint32_t)in->imm;
	o->at = m->cnt;
	o->cycle = m->cycle;
	return 0;
}

static void
add_counters(PallasCounters *to, const PallasCounters *now,
    const PallasCounters *then)
{
	int u;

	to->bundles += now->bundles - then->bundles;
	to->stall_cycles += now->stall_cycles - then->stall_cycles;
	to->branch_cycles += now->branch_cycles - then->branch_cycles;
	for (u = 0; u < PALLAS_NSLOT; u++)
		to->slot_ops[u] += now->slot_ops[u] - then->slot_ops[u];
	to->mxu_busy_cycles += now->mxu_busy_cycles - then->mxu_busy_cycles;
	to->mxu_flops += now->mxu_flops - then->mxu_flops;
	to->hbm_read_bytes += now->hbm_read_bytes - then->hbm_read_bytes;
	to->hbm_write_bytes += now->hbm_write_bytes - then->hbm_write_bytes;
	to->dma_count += now->dma_count - then->dma_count;
}

/* Closes open region k (and counts it). */
static void
close_region(MachSim *m, int k)
{
	const MachProgram *p = m->code->prog;
	SimOpen *o = &m->open[k];
	SimRegion *r = &m->region[o->region];

	r->entries++;
	r->c.cycles += m->cycle - o->cycle;
	add_counters(&r->c, &m->cnt, &o->at);
	if (m->trace)
		mach_trace_region(m->trace, k + 1, o->cycle, m->cycle,
		    mach_program_strat(p, p->region[o->region]));
	memmove(o, o + 1, (size_t)(m->nopen - k - 1) * sizeof *o);
	m->nopen--;
}

static int
region_end(MachSim *m, uint32_t pc, const SimIns *in)
{
	int k;

	for (k = m->nopen - 1; k >= 0; k--)
		if (m->open[k].region == (uint32_t)in->imm)
			break;
	if (k < 0)
		return mach_trap(m, PALLAS_TRAP_BAD_OP, pc, in, 0, SIM_NEVER,
		    "trace.end of region %d, which is not open", in->imm);
	close_region(m, k);
	return 0;
}

static void
count_bundle(MachSim *m, const SimBundle *bb)
{
	int u;

	m->cnt.bundles++;
	for (u = 0; u < NMACHUNIT; u++)
		m->cnt.slot_ops[u] += bb->occ[u];
}

static void
trace_bundle(MachSim *m, const MachCode *c, const SimBundle *bb)
{
	uint32_t i;

	for (i = bb->first; i < bb->first + bb->n; i++)
		if (c->ins[i].h < NMACHOP)
			mach_trace_slot(m->trace, mach_opinfo[c->ins[i].h].unit,
			    m->cycle, c->ins[i].h);
}

static int
prepare(MachSim *m, const MachCode *code)
{
	uint32_t n = code->prog->nregion + 1;
	SimRegion *r;

	m->code = code;
	if (m->nregion + 1 != n || !m->region) {
		if (!(r = realloc(m->region, (size_t)n * sizeof *r)))
			return -1;
		m->region = r;
		m->nregion = n - 1;
	}
	memset(m->region, 0, (size_t)n * sizeof *m->region);
	m->nopen = 0;
	return 0;
}

/* After halt: land every DMA still in flight, close open regions. */
static void
finish(MachSim *m)
{
	while (m->ndma) {
		if (m->dma_next > m->cycle)
			m->cycle = m->dma_next;
		mach_dma_complete(m);
	}
	while (m->nopen)
		close_region(m, m->nopen - 1);
	m->cnt.cycles = m->cycle;
}

int
mach_sim_run(MachSim *m, const MachCode *code, uint32_t pc)
{
	const int V = m->V;
	const SimBundle *bb;
	const SimIns *in, *end;
	uint32_t next, prev = pc;
	uint64_t cyc = 0, tmp;
	int halt = 0, taken;

	if (prepare(m, code))
		return mach_trap(m, PALLAS_TRAP_BAD_OP, pc, NULL, 0, SIM_NEVER,
		    "out of host memory");
	for (;;) {
		if (SIM_UNLIKELY(pc >= code->nbundle))
			return mach_trap(m, PALLAS_TRAP_BAD_PC, prev, NULL, 0,
			    SIM_NEVER, "control reaches bundle %u past the end "
			    "of the program (%u bundles)", pc, code->nbundle);
		if (SIM_UNLIKELY(m->cycle >= m->limit))
			return mach_trap(m, PALLAS_TRAP_RUNAWAY, pc, NULL, 0,
			    SIM_NEVER, "cycle limit %llu reached",
			    (unsigned long long)m->limit);
		if (m->cycle >= m->dma_next)
			mach_dma_complete(m);
		bb = &code->bundle[pc];
		if (SIM_UNLIKELY(bb->flags & SB_WAIT) && wait(m, code, bb, pc))
			return -1;
		cyc = m->cycle;
		next = pc + 1;
		taken = 0;
		in = code->ins + bb->first;
		for (end = in + bb->n; in < end; in++) {
			if (in->guard | in->gneg) {
				RDP(in->guard);
				if ((m->p[in->guard] != 0) == (in->gneg != 0))
					continue;
			}
			vmdispatch(in->h) {
			/* sadd: s[d], s[a], s[b] */
			/* s[d] = s[a] + s[b] */
			vmcase(OP_SADD) SALU3(x + y);
			/* ssub: s[d], s[a], s[b] */
			/* s[d] = s[a] - s[b] */
			vmcase(OP_SSUB) SALU3(x - y);
			/* smul: s[d], s[a], s[b] */
			/* s[d] = s[a] * s[b] (wrapping) */
			vmcase(OP_SMUL) SALU3(x * y);
			/* sand: s[d], s[a], s[b] */
			/* s[d] = s[a] & s[b] */
			vmcase(OP_SAND) SALU3(x & y);
			/* sor: s[d], s[a], s[b] */
			/* s[d] = s[a] | s[b] */
			vmcase(OP_SOR) SALU3(x | y);
			/* sxor: s[d], s[a], s[b] */
			/* s[d] = s[a] ^ s[b] */
			vmcase(OP_SXOR) SALU3(x ^ y);
			/* sshl: s[d], s[a], s[b] */
			/* s[d] = s[a] << (s[b] & 31) */
			vmcase(OP_SSHL) SALU3(x << (y & 31));
			/* sshr: s[d], s[a], s[b] */
			/* s[d] = (u32)s[a] >> (s[b] & 31) */
			vmcase(OP_SSHR) SALU3(x >> (y & 31));
			/* ssra: s[d], s[a], s[b] */
			/* s[d] = s[a] >> (s[b] & 31) (arithmetic) */
			vmcase(OP_SSRA) SALU3(sra(x, y));
			/* smin: s[d], s[a], s[b] */
			/* s[d] = min(s[a], s[b]) (signed) */
			vmcase(OP_SMIN) SALU3(SI(x) < SI(y) ? x : y);
			/* smax: s[d], s[a], s[b] */
			/* s[d] = max(s[a], s[b]) (signed) */
			vmcase(OP_SMAX) SALU3(SI(x) > SI(y) ? x : y);
			/* saddi: s[d], s[a], imm */
			/* s[d] = s[a] + imm */
			vmcase(OP_SADDI) SALUI(x + y);
			/* smuli: s[d], s[a], imm */
			/* s[d] = s[a] * imm */
			vmcase(OP_SMULI) SALUI(x * y);
			/* sandi: s[d], s[a], imm */
			/* s[d] = s[a] & imm */
			vmcase(OP_SANDI) SALUI(x & y);
			/* sori: s[d], s[a], imm */
			/* s[d] = s[a] | imm */
			vmcase(OP_SORI) SALUI(x | y);
			/* sxori: s[d], s[a], imm */
			/* s[d] = s[a] ^ imm */
			vmcase(OP_SXORI) SALUI(x ^ y);
			/* sshli: s[d], s[a], imm */
			/* s[d] = s[a] << (imm & 31) */
			vmcase(OP_SSHLI) SALUI(x << (y & 31));
			/* sshri: s[d], s[a], imm */
			/* s[d] = (u32)s[a] >> (imm & 31) */
			vmcase(OP_SSHRI) SALUI(x >> (y & 31));
			/* ssrai: s[d], s[a], imm */
			/* s[d] = s[a] >> (imm & 31) (arithmetic) */
			vmcase(OP_SSRAI) SALUI(sra(x, y));
			/* smini: s[d], s[a], imm */
			/* s[d] = min(s[a], imm) */
			vmcase(OP_SMINI) SALUI(SI(x) < SI(y) ? x : y);
			/* smaxi: s[d], s[a], imm */
			/* s[d] = max(s[a], imm) */
			vmcase(OP_SMAXI) SALUI(SI(x) > SI(y) ? x : y);
			/* smov: s[d], s[a] */
			/* s[d] = s[a] */
			vmcase(OP_SMOV) SALUI(x);
			/* smovi: s[d], imm */
			/* s[d] = imm */
			vmcase(OP_SMOVI) {
				WRS(in->d, LAT(LAT_SALU));
				m->s[in->d] = (uint32_t)in->imm;
			} vmbreak;
			/* scmp.eq .. scmp.ge: p[d], s[a], s[b] */
			/* p[d] = s[a] <op> s[b] (signed) */
			vmcase(OP_SCMPEQ) SCMP(x == y);
			vmcase(OP_SCMPNE) SCMP(x != y);
			vmcase(OP_SCMPLT) SCMP(x < y);
			vmcase(OP_SCMPLE) SCMP(x <= y);
			vmcase(OP_SCMPGT) SCMP(x > y);
			vmcase(OP_SCMPGE) SCMP(x >= y);
			/* scmpi.eq .. scmpi.ge: p[d], s[a], imm */
			/* p[d] = s[a] <op> imm (signed) */
			vmcase(OP_SCMPIEQ) SCMPI(x == y);
			vmcase(OP_SCMPINE) SCMPI(x != y);
			vmcase(OP_SCMPILT) SCMPI(x < y);
			vmcase(OP_SCMPILE) SCMPI(x <= y);
			vmcase(OP_SCMPIGT) SCMPI(x > y);
			vmcase(OP_SCMPIGE) SCMPI(x >= y);
			/* pand, por: p[d], p[a], p[b] */
			/* p[d] = p[a] & p[b];  p[d] = p[a] | p[b] */
			vmcase(OP_PAND) vmcase(OP_POR) {
				RDP(in->a);
				RDP(in->b);
				int r = in->h == OP_PAND ?
				    m->p[in->a] && m->p[in->b] :
				    m->p[in->a] || m->p[in->b];
				WRP(in->d, LAT(LAT_SALU));
				if (in->d)
					m->p[in->d] = (uint8_t)r;
			} vmbreak;
			/* pnot: p[d], p[a] */
			/* p[d] = !p[a] */
			vmcase(OP_PNOT) {
				RDP(in->a);
				int r = !m->p[in->a];
				WRP(in->d, LAT(LAT_SALU));
				if (in->d)
					m->p[in->d] = (uint8_t)r;
			} vmbreak;
			/* ssel: s[d], p[c], s[a], s[b] */
			/* s[d] = p[c] ? s[a] : s[b] */
			vmcase(OP_SSEL) {
				RDP(in->c);
				RDS(in->a);
				RDS(in->b);
				uint32_t r = m->p[in->c] ? m->s[in->a] : m->s[in->b];
				WRS(in->d, LAT(LAT_SALU));
				m->s[in->d] = r;
			} vmbreak;
			/* sld: s[d], s[a], imm */
			/* s[d] = smem[s[a] + imm] */
			vmcase(OP_SLD) {
				RDS(in->a);
				TRAP(saddr(m, pc, in, 0, &tmp));
				WRS(in->d, LAT(LAT_SLD));
				memcpy(&m->s[in->d], m->smem + tmp, 4);
			} vmbreak;
			/* sst: s[b], s[a], imm */
			/* smem[s[a] + imm] = s[b] */
			vmcase(OP_SST) {
				RDS(in->a);
				RDS(in->b);
				TRAP(saddr(m, pc, in, 1, &tmp));
				memcpy(m->smem + tmp, &m->s[in->b], 4);
			} vmbreak;
			/* br: label */
			/* pc = pc + imm */
			vmcase(OP_BR) {
				next = pc + (uint32_t)in->imm;
				taken = 1;
			} vmbreak;
			/* call: s[d], label */
			/* s[d] = pc + 1; pc = pc + imm */
			vmcase(OP_CALL) {
				WRS(in->d, LAT(LAT_BRANCH));
				m->s[in->d] = pc + 1;
				next = pc + (uint32_t)in->imm;
				taken = 1;
			} vmbreak;
			/* ret: s[a] */
			/* pc = s[a] */
			vmcase(OP_RET) {
				RDS(in->a);
				if (m->s[in->a] >= code->nbundle) {
					mach_trap(m, PALLAS_TRAP_BAD_PC, pc, in, 0,
					    SIM_NEVER, "return to bundle %u outside "
					    "the program", m->s[in->a]);
					goto trapped;
				}
				next = m->s[in->a];
				taken = 1;
			} vmbreak;
			/* halt: (none) */
			/* stop after this bundle */
			vmcase(OP_HALT) halt = 1; vmbreak;
			/* vld: v[d], s[a], imm, smask, stride */
			/* v[d][i] = smask[i] ? vmem[s[a]+imm+i*stride*row] : 0 */
			vmcase(OP_VLD) { RDS(in->a); TRAP(vld(m, pc, in)); } vmbreak;
			/* vst: v[b], s[a], imm, smask, stride */
			/* smask[i]: vmem[s[a] + imm + i*stride*row] = v[b][i] */
			vmcase(OP_VST) {
				RDS(in->a);
				RDV(in->b);
				TRAP(vst(m, pc, in));
			} vmbreak;
			/* vst.msk: v[b], s[a], imm, m[c], smask, stride */
			/* smask[i] && m[c][i][j]: vmem[..][j] = v[b][i][j] */
			vmcase(OP_VSTMSK) {
				RDS(in->a);
				RDV(in->b);
				RDM(in->c);
				TRAP(vst(m, pc, in));
			} vmbreak;
			/* vadd.f32, vsub.f32, vmul.f32: v[d], v[a], v[b] */
			/* v[d] = v[a] <op> v[b] (f32) */
			vmcase(OP_VADDF) VOP2(OP_VADDF);
			vmcase(OP_VSUBF) VOP2(OP_VSUBF);
			vmcase(OP_VMULF) VOP2(OP_VMULF);
			/* vmax.f32, vmin.f32: v[d], v[a], v[b] */
			/* v[d] = max/min(v[a], v[b]) (f32, NaN wins) */
			vmcase(OP_VMAXF) VOP2(OP_VMAXF);
			vmcase(OP_VMINF) VOP2(OP_VMINF);
			/* vabs.f32, vneg.f32: v[d], v[a] */
			/* v[d] = |v[a]|;  v[d] = -v[a] (sign bit) */
			vmcase(OP_VABSF) VOP1(OP_VABSF);
			vmcase(OP_VNEGF) VOP1(OP_VNEGF);
			/* vadd/vsub/vmul/vmax/vmin.i32: v[d], v[a], v[b] */
			/* v[d] = v[a] <op> v[b] (i32, wrapping) */
			vmcase(OP_VADDI) VOP2(OP_VADDI);
			vmcase(OP_VSUBI) VOP2(OP_VSUBI);
			vmcase(OP_VMULI) VOP2(OP_VMULI);
			vmcase(OP_VMAXI) VOP2(OP_VMAXI);
			vmcase(OP_VMINI) VOP2(OP_VMINI);
			/* vcmp.<cc>.f32, vcmp.<cc>.i32: m[d], v[a], v[b] */
			/* m[d] = v[a] <cc> v[b] */
			vmcase(OP_VCMPEQF) vmcase(OP_VCMPNEF) vmcase(OP_VCMPLTF)
			vmcase(OP_VCMPLEF) vmcase(OP_VCMPGTF) vmcase(OP_VCMPGEF)
			vmcase(OP_VCMPEQI) vmcase(OP_VCMPNEI) vmcase(OP_VCMPLTI)
			vmcase(OP_VCMPLEI) vmcase(OP_VCMPGTI) vmcase(OP_VCMPGEI)
				VCMP(in->h);
			/* vsel: v[d], m[c], v[a], v[b] */
			/* v[d] = m[c] ? v[a] : v[b] */
			vmcase(OP_VSEL) {
				RDM(in->c);
				RDV(in->a);
				RDV(in->b);
				WRV(in->d, LAT(LAT_VALU));
				mach_vsel(V_(in->d), M_(in->c), V_(in->a),
				    V_(in->b), V);
			} vmbreak;
			/* vand, vor, vxor: v[d], v[a], v[b] */
			/* v[d] = v[a] <op> v[b] (bits) */
			vmcase(OP_VAND) VOP2(OP_VAND);
			vmcase(OP_VOR) VOP2(OP_VOR);
			vmcase(OP_VXOR) VOP2(OP_VXOR);
			/* vnot: v[d], v[a] */
			/* v[d] = ~v[a] */
			vmcase(OP_VNOT) VOP1(OP_VNOT);
			/* vshl, vshr, vsra: v[d], v[a], v[b] */
			/* v[d] = v[a] <<, >>, >>arith (v[b] & 31) */
			vmcase(OP_VSHL) VOP2(OP_VSHL);
			vmcase(OP_VSHR) VOP2(OP_VSHR);
			vmcase(OP_VSRA) VOP2(OP_VSRA);
			/* vcvt.i2f, vcvt.f2i: v[d], v[a] */
			/* v[d] = (f32)v[a] RNE;  (i32)v[a] trunc, sat, NaN->0 */
			vmcase(OP_VCVTIF) VOP1(OP_VCVTIF);
			vmcase(OP_VCVTFI) VOP1(OP_VCVTFI);
			/* vpack.bf16: v[d], v[a], v[b] */
			/* v[d] = bf16(v[a]) | bf16(v[b]) << 16 */
			vmcase(OP_VPACK) VOP2(OP_VPACK);
			/* vunpack.lo.bf16, vunpack.hi.bf16: v[d], v[a] */
			/* v[d] = f32(v[a] & 0xffff);  f32(v[a] >> 16) */
			vmcase(OP_VUNPACKLO) VOP1(OP_VUNPACKLO);
			vmcase(OP_VUNPACKHI) VOP1(OP_VUNPACKHI);
			/* viota.lane, viota.sub: v[d] */
			/* v[d][i][j] = j;  v[d][i][j] = i */
			vmcase(OP_VIOTAL) vmcase(OP_VIOTAS) {
				WRV(in->d, LAT(LAT_VALU));
				iota(m, V_(in->d), in->h == OP_VIOTAL);
			} vmbreak;
			/* vbcast: v[d], s[a] */
			/* v[d][i][j] = s[a] */
			vmcase(OP_VBCAST) {
				RDS(in->a);
				WRV(in->d, LAT(LAT_VALU));
				fill(V_(in->d), V, m->s[in->a]);
			} vmbreak;
			/* vbcasti: v[d], imm */
			/* v[d][i][j] = imm (raw 32 bits) */
			vmcase(OP_VBCASTI) {
				WRV(in->d, LAT(LAT_VALU));
				fill(V_(in->d), V, (uint32_t)in->imm);
			} vmbreak;
			/* vmov: v[d], v[a] */
			/* v[d] = v[a] */
			vmcase(OP_VMOV) VOP1(OP_VMOV);
			/* vrot.sub, vbcast.sub: v[d], v[a], x */
			/* v[d][(i + x) % S] = v[a][i];  v[d][i] = v[a][x] */
			vmcase(OP_VROTS) vmcase(OP_VBCASTS) {
				RDV(in->a);
				WRV(in->d, LAT(LAT_VROT));
				rot_sub(m, in, in->h == OP_VBCASTS);
			} vmbreak;
			/* mand, mor, mxor: m[d], m[a], m[b] */
			/* m[d] = m[a] <op> m[b] */
			vmcase(OP_MAND) MOP(OP_MAND, in->b);
			vmcase(OP_MOR) MOP(OP_MOR, in->b);
			vmcase(OP_MXOR) MOP(OP_MXOR, in->b);
			/* mnot: m[d], m[a] */
			/* m[d] = !m[a] */
			vmcase(OP_MNOT) MOP(OP_MNOT, in->a);
			/* eup.exp2, .log2, .rcp, .rsqrt, .tanh: v[a] */
			/* eup <- f(v[a]), ready after LAT_EUP */
			vmcase(OP_EEXP2) EUP(OP_EEXP2);
			vmcase(OP_ELOG2) EUP(OP_ELOG2);
			vmcase(OP_ERCP) EUP(OP_ERCP);
			vmcase(OP_ERSQRT) EUP(OP_ERSQRT);
			vmcase(OP_ETANH) EUP(OP_ETANH);
			/* eup.pop: v[d] */
			/* v[d] <- eup */
			vmcase(OP_EPOP) TRAP(pop(m, pc, in, &m->eup, "EUP")); vmbreak;
			/* xlu.xpose, xlu.xpose.end, xlu.max, xlu.sum: xlu c, v[a] */
			/* xlu[c] <- transpose rows / lane reduction of v[a] */
			vmcase(OP_XXPOSE) XLU();
			vmcase(OP_XXPOSEEND) XLU();
			vmcase(OP_XMAX) XLU();
			vmcase(OP_XSUM) XLU();
			/* xlu.rot, xlu.bcast: xlu c, v[a], lane x */
			/* xlu[c] <- rotate by x / broadcast lane x of v[a] */
			vmcase(OP_XROT) XLU();
			vmcase(OP_XBCAST) XLU();
			/* xlu.pop: v[d], xlu c */
			/* v[d] <- xlu[c] */
			vmcase(OP_XPOP)
				TRAP(pop(m, pc, in, &m->xlu[in->c].fifo, "XLU"));
				vmbreak;
			/* mxu.push, .push.bf16, .pusht, .pusht.bf16: mxu c, v[a] */
			/* stage[c] rows (columns) at the push pointer = v[a] */
			vmcase(OP_MPUSH) vmcase(OP_MPUSHB) vmcase(OP_MPUSHT)
			vmcase(OP_MPUSHTB) {
				RDV(in->a);
				TRAP(mach_mxu_push(m, pc, in));
			} vmbreak;
			/* mxu.latch: mxu c */
			/* W[c] = stage[c]; stage[c] = 0 */
			vmcase(OP_MLATCH) TRAP(mach_mxu_latch(m, pc, in)); vmbreak;
			/* mxu.mm, mxu.mm.bf16: mxu c, v[a], flags x */
			/* acc[c] (+)= v[a] @ W[c][kblk*L..]; unless hold: push */
			vmcase(OP_MXMM) vmcase(OP_MXMMB) {
				RDV(in->a);
				TRAP(mach_mxu_matmul(m, pc, in));
			} vmbreak;
			/* mxu.pop: v[d], mxu c */
			/* v[d] <- mxu[c] */
			vmcase(OP_MPOP)
				TRAP(pop(m, pc, in, &m->mxu[in->c].fifo, "MXU"));
				vmbreak;
			/* dma.start: f[b], s[a], imm */
			/* start the DMA at smem[s[a] + imm]; done: f[b] += 1 */
			vmcase(OP_DMA) {
				RDS(in->a);
				TRAP(mach_dma_start(m, pc, in));
			} vmbreak;
			/* sync.wait: f[b], imm */
			/* stall until f[b] >= imm (done before the bundle) */
			vmcase(OP_SYNCWAIT) vmbreak;
			/* sync.take: f[b], imm */
			/* stall until f[b] >= imm; f[b] -= imm */
			vmcase(OP_SYNCTAKE) m->flag[in->b] -= (uint32_t)in->imm;
				vmbreak;
			/* sync.add: f[b], imm */
			/* f[b] += imm */
			vmcase(OP_SYNCADD) m->flag[in->b] += (uint32_t)in->imm;
				vmbreak;
			/* sync.set: f[b], imm */
			/* f[b] = imm */
			vmcase(OP_SYNCSET) m->flag[in->b] = (uint32_t)in->imm;
				vmbreak;
			/* trace.begin: imm */
			/* begin region imm */
			vmcase(OP_TBEGIN) TRAP(region_begin(m, pc, in)); vmbreak;
			/* trace.end: imm */
			/* end region imm */
			vmcase(OP_TEND) TRAP(region_end(m, pc, in)); vmbreak;
			/* trap: s[a], imm */
			/* stop: message str[imm], %N = smem[s[a] + 4N] */
			vmcase(OP_TRAP) {
				RDS(in->a);
				mach_trap_check(m, pc, in);
				goto trapped;
			}
			/* (internal) copy: temp d, register a */
			/* t[d] = r[a], read at the bundle's start */
			vmcase(SIM_COPY_S) {
				RDS(in->a);
				m->s[in->d] = m->s[in->a];
			} vmbreak;
			vmcase(SIM_COPY_P) {
				RDP(in->a);
				m->p[in->d] = m->p[in->a];
			} vmbreak;
			vmcase(SIM_COPY_V) {
				RDV(in->a);
				memcpy(V_(in->d), V_(in->a), (size_t)V * 4);
			} vmbreak;
			vmcase(SIM_COPY_M) {
				RDM(in->a);
				memcpy(M_(in->d), M_(in->a), (size_t)V * 4);
			} vmbreak;
			/* (internal) an op that failed its check */
			/* trap: bad opcode */
			default:
				mach_trap(m, PALLAS_TRAP_BAD_OP, pc, in, 0, SIM_NEVER,
				    "%s", mach_code_bad(code,
				    (uint32_t)(in - code->ins)));
				goto trapped;
			}
		}
		count_bundle(m, bb);
		if (m->trace)
			trace_bundle(m, code, bb);
		if (halt)
			break;
		m->cycle = cyc + 1;
		if (taken) {
			m->cycle += LAT(LAT_BRANCH);
			m->cnt.branch_cycles += LAT(LAT_BRANCH);
		}
		prev = pc;
		pc = next;
	}
	m->cycle = cyc + 1;
	finish(m);
	return 0;
trapped:
	m->cnt.cycles = m->cycle;
	return -1;
}
