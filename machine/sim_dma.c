/*
 * sim_dma.c - DMA engines: descriptors read from SMEM at dma.start,
 * timing over the shared HBM channel, data landing at completion, sync
 * flags, and the race checks against in-flight transfers.
 *
 * Timing: a DMA goes to the engine that frees first and starts when it
 * does (each engine carries one descriptor at a time); it completes at
 *	max(start + dma_latency, channel free) + ceil(bytes / bandwidth)
 * and the channel is busy until then.  HBM<->VMEM/SMEM transfers share
 * the HBM channel (hbm_bytes_per_cycle); on-chip copies (VMEM<->VMEM,
 * VMEM<->SMEM) use an on-chip channel of one vreg (S x L x 4 bytes) per
 * cycle.  bytes counts
 * every row (dim 0 run: n0 x esize bytes, the HBM side's contiguous rows
 * in packed mode too) rounded up to dma_granule bytes.  Data (source
 * read and destination written) moves at completion, then the flag is
 * incremented; a bundle issuing at that cycle sees both.  Row-major
 * copies move a row per memmove; packed ones an element at a time.
 *
 * Rules (traps): direction 1..7, 1..4 dims, element size 1, 2, 4 or 8,
 * unused dims count 1, the reserved word 0, control bits from 16 up 0
 * but MACH_DMA_PACKED, which needs element size 2 (bf16 tiles) or 1 (i8
 * tiles) and no SMEM side (bad DMA descriptor); addresses and strides
 * multiples of the element size, of 4 on a packed side (misaligned);
 * every byte inside VMEM, SMEM or one HBM buffer (out of bounds); no overlap with an in-flight DMA's
 * destination, nor a write into its source (DMA race).
 */
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"

#define MAXCOUNT (1u << 24)

static const char *const dirname[NMACHDMADIR] = {
	[MACH_DMA_NONE] = "none",
	[MACH_DMA_HBM_VMEM] = "hbm->vmem", [MACH_DMA_VMEM_HBM] = "vmem->hbm",
	[MACH_DMA_HBM_SMEM] = "hbm->smem", [MACH_DMA_SMEM_HBM] = "smem->hbm",
	[MACH_DMA_VMEM_VMEM] = "vmem->vmem",
	[MACH_DMA_VMEM_SMEM] = "vmem->smem",
	[MACH_DMA_SMEM_VMEM] = "smem->vmem",
};

static const int srcspace[NMACHDMADIR] = {
	0, SIM_HBM, SIM_VMEM, SIM_HBM, SIM_SMEM, SIM_VMEM, SIM_VMEM, SIM_SMEM
};
static const int dstspace[NMACHDMADIR] = {
	0, SIM_VMEM, SIM_HBM, SIM_SMEM, SIM_HBM, SIM_VMEM, SIM_SMEM, SIM_VMEM
};

static uint32_t
word(const MachSim *m, uint64_t addr, int i)
{
	uint32_t w;

	memcpy(&w, m->smem + addr + 4 * (uint64_t)i, 4);
	return w;
}

/* Does [lo, hi) touch a footprint run of side s? */
static int
side_hits(const SimSide *s, uint64_t lo, uint64_t hi)
{
	uint64_t i1, i2, i3;
	int64_t r;

	if (hi <= s->lo || lo >= s->hi || s->row == 0)
		return 0;
	for (i3 = 0; i3 < s->n[3]; i3++)
		for (i2 = 0; i2 < s->n[2]; i2++)
			for (i1 = 0; i1 < s->n[1]; i1++) {
				r = (int64_t)s->base + (int64_t)i3 * s->st[3] +
				    (int64_t)i2 * s->st[2] + (int64_t)i1 * s->st[1];
				if ((int64_t)lo < r + (int64_t)s->row &&
				    r < (int64_t)hi)
					return 1;
			}
	return 0;
}

static int
race(MachSim *m, uint32_t b, const SimIns *in, const SimDma *d, int space,
    uint64_t lo, uint64_t hi, const char *what)
{
	return mach_trap(m, PALLAS_TRAP_DMA_RACE, b, in, space, lo,
	    "%s [0x%llx, 0x%llx) overlaps the %s of the in-flight %s DMA "
	    "started at bundle %u (done at cycle %llu)", mach_space_name(space),
	    (unsigned long long)lo, (unsigned long long)hi, what,
	    dirname[d->dir], d->bundle, (unsigned long long)d->done);
}

int
mach_dma_race(MachSim *m, uint32_t b, const SimIns *in, int space,
    uint64_t addr, uint64_t len, int writing)
{
	int i;

	for (i = 0; i < m->ndma; i++) {
		const SimDma *d = &m->dma[i];

		if (d->dst.space == space && side_hits(&d->dst, addr,
		    addr + len))
			return race(m, b, in, d, space, addr, addr + len,
			    "destination");
		if (writing && d->src.space == space && side_hits(&d->src,
		    addr, addr + len))
			return race(m, b, in, d, space, addr, addr + len,
			    "source");
	}
	return 0;
}

/* Does any run of side a hit the in-flight DMAs (their sources too
   when writing)? */
static int
dma_vs_inflight(MachSim *m, uint32_t b, const SimIns *in, const SimSide *a,
    int writing)
{
	uint64_t i1, i2, i3;
	int64_t r;

	if (a->row == 0)
		return 0;
	for (i3 = 0; i3 < a->n[3]; i3++)
		for (i2 = 0; i2 < a->n[2]; i2++)
			for (i1 = 0; i1 < a->n[1]; i1++) {
				r = (int64_t)a->base + (int64_t)i3 * a->st[3] +
				    (int64_t)i2 * a->st[2] + (int64_t)i1 * a->st[1];
				if (mach_dma_race(m, b, in, a->space, (uint64_t)r,
				    a->row, writing))
					return -1;
			}
	return 0;
}

static int
bad(MachSim *m, uint32_t b, const SimIns *in, uint64_t addr,
    const char *why)
{
	return mach_trap(m, PALLAS_TRAP_BAD_DMA, b, in, SIM_SMEM, addr,
	    "descriptor: %s", why);
}

/*
 * The footprint of side s (see SimSide): rows of n0 x esize bytes, or
 * for a packed side one run per row tile from the first word to the
 * last word its column tiles touch.
 */
static void
footprint(const MachSim *m, const SimDma *x, SimSide *s)
{
	uint64_t S = (uint64_t)m->S, L = (uint64_t)m->L, rows;
	uint64_t T = (uint64_t)s->packed * S;

	s->n[0] = 1;
	s->n[2] = x->n[2];
	s->n[3] = x->n[3];
	if (!s->packed) {
		s->row = x->row;
		s->n[1] = x->n[1];
		return;
	}
	s->n[1] = (x->n[1] + T - 1) / T;
	rows = x->n[1] < S ? x->n[1] : S;
	s->row = x->n[0] && x->n[1] ? (x->n[0] - 1) / L * S * L * 4 +
	    (rows - 1) * L * 4 + ((x->n[0] - 1) % L + 1) * 4 : 0;
}

/* Fills the shape of x from the descriptor at SMEM addr. */
static int
parse(MachSim *m, uint32_t b, const SimIns *in, uint64_t addr, SimDma *x,
    uint64_t *esize)
{
	uint32_t ctrl = word(m, addr, MACH_DMA_CTRL), c;
	int ndim, i, packed;

	x->dir = (int)(ctrl & 15);
	ndim = (int)(ctrl >> 4 & 15);
	*esize = ctrl >> 8 & 0xff;
	packed = (ctrl & MACH_DMA_PACKED) != 0;
	if (x->dir == MACH_DMA_NONE || x->dir >= NMACHDMADIR)
		return bad(m, b, in, addr, "bad direction");
	if (ndim < 1 || ndim > 4 || (ctrl & ~MACH_DMA_PACKED) >> 16)
		return bad(m, b, in, addr, "bad dimension count or control bits");
	if (*esize != 1 && *esize != 2 && *esize != 4 && *esize != 8)
		return bad(m, b, in, addr, "element size is not 1, 2, 4 or 8");
	if (packed && *esize != 2 && *esize != 1)
		return bad(m, b, in, addr, "packed mode with an element size "
		    "other than 1 or 2");
	if (packed && (srcspace[x->dir] == SIM_SMEM ||
	    dstspace[x->dir] == SIM_SMEM))
		return bad(m, b, in, addr, "packed mode with an SMEM side");
	if (word(m, addr, MACH_DMA_RESERVED))
		return bad(m, b, in, addr, "reserved word is not 0");
	for (i = 0; i < 4; i++) {
		c = word(m, addr, MACH_DMA_COUNT0 + i);
		if (i >= ndim && c != 1)
			return bad(m, b, in, addr, "unused dimension count is not 1");
		if (c > MAXCOUNT)
			return bad(m, b, in, addr, "count above 2^24");
		x->n[i] = c;
	}
	x->row = x->n[0] * *esize;
	x->src.space = srcspace[x->dir];
	x->dst.space = dstspace[x->dir];
	x->src.packed = packed && x->src.space == SIM_VMEM ? 4 / (int)*esize :
	    0;
	x->dst.packed = packed && x->dst.space == SIM_VMEM ? 4 / (int)*esize :
	    0;
	x->src.base = word(m, addr, MACH_DMA_SRC_LO) |
	    (uint64_t)word(m, addr, MACH_DMA_SRC_HI) << 32;
	x->dst.base = word(m, addr, MACH_DMA_DST_LO) |
	    (uint64_t)word(m, addr, MACH_DMA_DST_HI) << 32;
	x->src.st[0] = x->dst.st[0] = 0;
	for (i = 1; i < 4; i++) {
		x->src.st[i] = (int32_t)word(m, addr, MACH_DMA_SSTRIDE1 + i - 1);
		x->dst.st[i] = (int32_t)word(m, addr, MACH_DMA_DSTRIDE1 + i - 1);
	}
	footprint(m, x, &x->src);
	footprint(m, x, &x->dst);
	return 0;
}

/* Bounds of side s; then its host address.  0, or traps. */
static int
place(MachSim *m, uint32_t b, const SimIns *in, SimDma *x, SimSide *s,
    uint64_t esize)
{
	int64_t lo = 0, hi, off;
	uint64_t limit, al = s->packed ? 4 : esize;
	int i;

	if (s->base % al || s->st[1] % (int64_t)al ||
	    s->st[2] % (int64_t)al || s->st[3] % (int64_t)al)
		return mach_trap(m, PALLAS_TRAP_ALIGN, b, in, s->space, s->base,
		    "DMA %s address or stride is not a multiple of %s %llu",
		    dirname[x->dir], s->packed ? "the packed word size" :
		    "the element size", (unsigned long long)al);
	hi = (int64_t)s->row;
	for (i = 1; i < 4; i++) {
		off = (int64_t)(s->n[i] ? s->n[i] - 1 : 0) * s->st[i];
		if (off < 0)
			lo += off;
		else
			hi += off;
	}
	if (s->base > (UINT64_C(1) << 62) || (int64_t)s->base + lo < 0)
		goto oob;
	s->lo = (uint64_t)((int64_t)s->base + lo);
	s->hi = (uint64_t)((int64_t)s->base + hi);
	if (s->space == SIM_HBM) {
		uint8_t *h = mach_sim_hbm(m, s->lo, s->hi - s->lo);

		if (!h)
			goto oob;
		s->host = h - lo;
		return 0;
	}
	limit = s->space == SIM_VMEM ? m->mp->vmem_bytes : m->mp->smem_bytes;
	if (s->hi > limit)
		goto oob;
	s->host = (s->space == SIM_VMEM ? m->vmem : m->smem) + s->base;
	mach_sim_touch(m, s->space, s->hi);
	return 0;
oob:
	return mach_trap(m, PALLAS_TRAP_BOUNDS, b, in, s->space, s->base,
	    "DMA %s touches %s [base%+lld, base%+lld) outside %s",
	    dirname[x->dir], mach_space_name(s->space), (long long)lo,
	    (long long)hi, s->space == SIM_HBM ? "any HBM buffer" :
	    "the memory");
}

static uint64_t
ceildiv(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : a;
}

/* Engine, start and completion of x issued now. */
static void
schedule(MachSim *m, SimDma *x)
{
	const MachPreset *mp = m->mp;
	uint64_t g = mp->dma_granule > 0 ? (uint64_t)mp->dma_granule : 1;
	uint64_t rows = x->n[1] * x->n[2] * x->n[3], charged, *chan, bw;
	int e, i;

	e = 0;
	for (i = 1; i < mp->dma_engines; i++)
		if (m->engine_free[i] < m->engine_free[e])
			e = i;
	x->engine = e;
	x->issue = m->cycle;
	x->start = m->cycle > m->engine_free[e] ? m->cycle : m->engine_free[e];
	charged = rows * ceildiv(x->row, g) * g;
	if (srcspace[x->dir] != SIM_HBM && dstspace[x->dir] != SIM_HBM) {
		chan = &m->ocm_free;
		bw = (uint64_t)m->V * 4;
	} else {
		chan = &m->hbm_free;
		bw = mp->hbm_bytes_per_cycle > 0 ?
		    (uint64_t)mp->hbm_bytes_per_cycle : 1;
	}
	x->done = x->start + (uint64_t)mp->dma_latency;
	if (*chan > x->done)
		x->done = *chan;
	x->done += ceildiv(charged, bw);
	*chan = x->done;
	m->engine_free[e] = x->done;
}

static int
push_dma(MachSim *m, const SimDma *x)
{
	SimDma *nd;

	if (m->ndma == m->dmacap) {
		int nc = m->dmacap ? 2 * m->dmacap : 16;

		if (!(nd = realloc(m->dma, (size_t)nc * sizeof *nd)))
			return -1;
		m->dma = nd;
		m->dmacap = nc;
	}
	m->dma[m->ndma++] = *x;
	if (x->done < m->dma_next)
		m->dma_next = x->done;
	return 0;
}

int
mach_dma_start(MachSim *m, uint32_t b, const SimIns *in)
{
	int64_t addr = (int64_t)(int32_t)m->s[in->a] + in->imm;
	uint64_t esize, bytes;
	SimDma x;

	memset(&x, 0, sizeof x);
	if (addr < 0 || (uint64_t)addr + MACH_DMA_WORDS * 4 > m->mp->smem_bytes)
		return mach_trap(m, PALLAS_TRAP_BOUNDS, b, in, SIM_SMEM,
		    (uint64_t)addr, "DMA descriptor outside SMEM");
	if (addr % 4)
		return mach_trap(m, PALLAS_TRAP_ALIGN, b, in, SIM_SMEM,
		    (uint64_t)addr, "DMA descriptor is not word aligned");
	if (m->ndma && mach_dma_race(m, b, in, SIM_SMEM, (uint64_t)addr,
	    MACH_DMA_WORDS * 4, 0))
		return -1;
	mach_sim_touch(m, SIM_SMEM, (uint64_t)addr + MACH_DMA_WORDS * 4);
	if (parse(m, b, in, (uint64_t)addr, &x, &esize) ||
	    place(m, b, in, &x, &x.src, esize) ||
	    place(m, b, in, &x, &x.dst, esize))
		return -1;
	if (m->ndma && (dma_vs_inflight(m, b, in, &x.dst, 1) ||
	    dma_vs_inflight(m, b, in, &x.src, 0)))
		return -1;
	x.flag = in->b;
	x.bundle = b;
	x.seq = m->dma_seq++;
	schedule(m, &x);
	bytes = x.row * x.n[1] * x.n[2] * x.n[3];
	x.bytes = bytes;
	if (x.src.space == SIM_HBM)
		m->cnt.hbm_read_bytes += bytes;
	if (x.dst.space == SIM_HBM)
		m->cnt.hbm_write_bytes += bytes;
	m->cnt.dma_count++;
	if (m->trace)
		mach_trace_span(m->trace, TRK_DMA + x.engine, x.start, x.done,
		    dirname[x.dir], bytes);
	if (push_dma(m, &x))
		return mach_trap(m, PALLAS_TRAP_BAD_DMA, b, in, 0, SIM_NEVER,
		    "out of host memory for the DMA queue");
	return 0;
}

/* Byte offset of element (i3, i2, i1, 0) on side s; le: the host is
   little-endian (part g of a packed word at byte g * esize). */
static int64_t
row_at(const MachSim *m, const SimSide *s, uint64_t i3, uint64_t i2,
    uint64_t i1, int le)
{
	uint64_t S = (uint64_t)m->S, L = (uint64_t)m->L;
	uint64_t P = (uint64_t)s->packed, g, es;
	int64_t o = (int64_t)i3 * s->st[3] + (int64_t)i2 * s->st[2];

	if (!s->packed)
		return o + (int64_t)i1 * s->st[1];
	g = i1 / S % P;
	es = 4 / P;
	return o + (int64_t)(i1 / (P * S)) * s->st[1] +
	    (int64_t)(i1 % S * L * 4) + (int64_t)((le ? g : P - 1 - g) * es);
}

/* A packed copy: per row, per column tile, elements of 4 / packing
   bytes. */
static void
land_packed(const MachSim *m, const SimDma *x)
{
	static const uint16_t one = 1;
	uint64_t i1, i2, i3, c, j, k, L = (uint64_t)m->L;
	uint64_t tb = (uint64_t)m->V * 4;
	int le = *(const uint8_t *)&one;
	size_t es = (size_t)(4 / (x->src.packed ? x->src.packed :
	    x->dst.packed));
	size_t ss = x->src.packed ? 4 : es, ds = x->dst.packed ? 4 : es;
	const uint8_t *sp;
	uint8_t *dp;

	for (i3 = 0; i3 < x->n[3]; i3++)
		for (i2 = 0; i2 < x->n[2]; i2++)
			for (i1 = 0; i1 < x->n[1]; i1++)
				for (c = 0; c < x->n[0]; c += L) {
					sp = x->src.host + row_at(m, &x->src,
					    i3, i2, i1, le) + (x->src.packed ?
					    c / L * tb : c * es);
					dp = x->dst.host + row_at(m, &x->dst,
					    i3, i2, i1, le) + (x->dst.packed ?
					    c / L * tb : c * es);
					k = x->n[0] - c < L ? x->n[0] - c : L;
					for (j = 0; j < k; j++)
						memcpy(dp + j * ds, sp + j * ss,
						    es);
				}
}

static void
land(MachSim *m, const SimDma *x)
{
	uint64_t i1, i2, i3;
	int64_t so, dof;

	if (x->src.packed || x->dst.packed) {
		land_packed(m, x);
		m->flag[x->flag]++;
		return;
	}
	for (i3 = 0; i3 < x->n[3]; i3++)
		for (i2 = 0; i2 < x->n[2]; i2++)
			for (i1 = 0; i1 < x->n[1]; i1++) {
				so = (int64_t)i3 * x->src.st[3] +
				    (int64_t)i2 * x->src.st[2] +
				    (int64_t)i1 * x->src.st[1];
				dof = (int64_t)i3 * x->dst.st[3] +
				    (int64_t)i2 * x->dst.st[2] +
				    (int64_t)i1 * x->dst.st[1];
				memmove(x->dst.host + dof, x->src.host + so,
				    (size_t)x->row);
			}
	m->flag[x->flag]++;
}

void
mach_dma_complete(MachSim *m)
{
	int i, k;

	while (m->ndma && m->dma_next <= m->cycle) {
		k = -1;
		for (i = 0; i < m->ndma; i++)
			if (m->dma[i].done <= m->cycle && (k < 0 ||
			    m->dma[i].done < m->dma[k].done ||
			    (m->dma[i].done == m->dma[k].done &&
			    m->dma[i].seq < m->dma[k].seq)))
				k = i;
		land(m, &m->dma[k]);
		m->dma[k] = m->dma[--m->ndma];
		m->dma_next = SIM_NEVER;
		for (i = 0; i < m->ndma; i++)
			if (m->dma[i].done < m->dma_next)
				m->dma_next = m->dma[i].done;
	}
}
