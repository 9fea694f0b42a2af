/*
 * sim_state.c - the machine state of one device: register files with
 * their ready cycles, VMEM and SMEM, the sparse HBM (a list of buffers
 * the runtime allocates; everything else is out of bounds), FIFOs, MXU
 * and XLU state.  Power-on reset and poison fills live here.
 */
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"

static void *
zalloc(size_t n, size_t size, int *bad)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		*bad = 1;
	return p;
}

static int
alloc_units(MachSim *m)
{
	const MachPreset *mp = m->mp;
	size_t dd = (size_t)m->D * (size_t)m->D;
	int i, bad = 0;

	m->xlu = zalloc((size_t)mp->nxlu, sizeof *m->xlu, &bad);
	m->mxu = zalloc((size_t)mp->nmxu, sizeof *m->mxu, &bad);
	if (bad)
		return -1;
	for (i = 0; i < mp->nxlu; i++) {
		m->xlu[i].blk = zalloc((size_t)m->L * (size_t)m->L,
		    sizeof(float), &bad);
		bad |= mach_fifo_init(&m->xlu[i].fifo, mp->xlu_fifo, m->V) != 0;
	}
	for (i = 0; i < mp->nmxu; i++) {
		SimMxu *x = &m->mxu[i];

		x->stage = zalloc(dd, sizeof(float), &bad);
		x->w = zalloc(dd, sizeof(float), &bad);
		x->whi = zalloc(dd, sizeof(float), &bad);
		x->wlo = zalloc(dd, sizeof(float), &bad);
		x->acc = zalloc(2 * (size_t)m->S * (size_t)m->D, sizeof(float),
		    &bad);
		bad |= mach_fifo_init(&x->fifo, mp->mxu_fifo, m->V) != 0;
	}
	bad |= mach_fifo_init(&m->eup, mp->eup_fifo, m->V) != 0;
	return bad ? -1 : 0;
}

MachSim *
mach_sim_new(const MachPreset *mp)
{
	MachSim *m;
	int bad = 0;

	if (!mp || !(m = calloc(1, sizeof *m)))
		return NULL;
	m->mp = mp;
	m->S = mp->sublanes;
	m->L = mp->lanes;
	m->V = m->S * m->L;
	m->D = mp->mxu_dim;
	m->ns = mp->nsreg;
	m->np = mp->npreg;
	m->nv = mp->nvreg;
	m->nm = mp->nmreg;
	memcpy(m->lat, mp->lat, sizeof m->lat);
	m->limit = 1000000000;
	m->s = zalloc((size_t)(m->ns + SIM_NTEMP), 4, &bad);
	m->p = zalloc((size_t)(m->np + SIM_NTEMP), 1, &bad);
	m->v = zalloc((size_t)(m->nv + SIM_NTEMP) * (size_t)m->V, 4, &bad);
	m->m = zalloc((size_t)(m->nm + SIM_NTEMP) * (size_t)m->V, 4, &bad);
	m->sready = zalloc((size_t)(m->ns + SIM_NTEMP), 8, &bad);
	m->pready = zalloc((size_t)(m->np + SIM_NTEMP), 8, &bad);
	m->vready = zalloc((size_t)(m->nv + SIM_NTEMP), 8, &bad);
	m->mready = zalloc((size_t)(m->nm + SIM_NTEMP), 8, &bad);
	m->flag = zalloc((size_t)mp->nflag, 4, &bad);
	m->engine_free = zalloc((size_t)mp->dma_engines, 8, &bad);
	m->vmem = zalloc(mp->vmem_bytes, 1, &bad);
	m->smem = zalloc(mp->smem_bytes, 1, &bad);
	m->tmp = zalloc(8 * (size_t)m->S * (size_t)m->D, sizeof(float), &bad);
	if (bad || alloc_units(m)) {
		mach_sim_free(m);
		return NULL;
	}
	m->kernel = mach_mxu_kernel();
	m->p[0] = 1;
	m->dma_next = SIM_NEVER;
	m->hbm_next = MACH_HBM_BASE;
	return m;
}

static void
free_hbm(MachSim *m)
{
	int i;

	for (i = 0; i < m->nhbm; i++)
		if (m->alloc.release)
			m->alloc.release(m->alloc.ud, m->hbm[i].host);
		else
			free(m->hbm[i].host);
	m->nhbm = 0;
	m->hbm_next = MACH_HBM_BASE;
}

void
mach_sim_set_allocator(MachSim *m, const PallasAllocator *a)
{
	free_hbm(m);
	memset(&m->alloc, 0, sizeof m->alloc);
	if (a && a->alloc && a->release)
		m->alloc = *a;
}

void
mach_sim_free(MachSim *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; m->xlu && i < m->mp->nxlu; i++) {
		free(m->xlu[i].blk);
		mach_fifo_free(&m->xlu[i].fifo);
	}
	for (i = 0; m->mxu && i < m->mp->nmxu; i++) {
		free(m->mxu[i].stage);
		free(m->mxu[i].w);
		free(m->mxu[i].whi);
		free(m->mxu[i].wlo);
		free(m->mxu[i].acc);
		mach_fifo_free(&m->mxu[i].fifo);
	}
	mach_fifo_free(&m->eup);
	free_hbm(m);
	free(m->hbm);
	free(m->xlu);
	free(m->mxu);
	free(m->s);
	free(m->p);
	free(m->v);
	free(m->m);
	free(m->sready);
	free(m->pready);
	free(m->vready);
	free(m->mready);
	free(m->flag);
	free(m->engine_free);
	free(m->vmem);
	free(m->smem);
	free(m->tmp);
	free(m->dma);
	free(m->region);
	free(m);
}

uint32_t
mach_sim_poison_word(PallasPoison poison)
{
	switch (poison) {
	case PALLAS_POISON_NAN: return 0x7fc00000u;
	case PALLAS_POISON_INT: return 0x80000000u;
	default: return 0;
	}
}

static void
fill(void *p, uint64_t bytes, uint32_t w)
{
	uint8_t *q = p;
	uint64_t i;

	if (w == 0) {
		memset(p, 0, bytes);
		return;
	}
	for (i = 0; i + 4 <= bytes; i += 4)
		memcpy(q + i, &w, 4);
	for (; i < bytes; i++)
		q[i] = (uint8_t)(w >> (8 * (i & 3)));
}

/* A zero reset clears what may be nonzero now; a poison reset leaves
 * the fill to mach_sim_touch (filling 128 MiB would dominate a small
 * kernel's run). */
static void
reset_mem(uint8_t *mem, uint64_t size, uint32_t w, uint64_t hw,
    uint64_t *ready, uint64_t *nz)
{
	if (hw > *nz)
		*nz = hw;
	if (w) {
		*ready = 0;
		return;
	}
	memset(mem, 0, *nz);
	*nz = 0;
	*ready = size;
}

static void
reset_units(MachSim *m)
{
	size_t dd = (size_t)m->D * (size_t)m->D;
	int i;

	for (i = 0; i < m->mp->nxlu; i++) {
		m->xlu[i].fifo.head = m->xlu[i].fifo.count = 0;
		m->xlu[i].nrows = m->xlu[i].nslot = 0;
		m->xlu[i].busy_until = 0;
	}
	for (i = 0; i < m->mp->nmxu; i++) {
		SimMxu *x = &m->mxu[i];

		memset(x->stage, 0, dd * sizeof(float));
		memset(x->w, 0, dd * sizeof(float));
		x->wsplit = 0;
		x->prow = x->pcb = x->pcol = x->prb = 0;
		x->stage_ready = x->w_ready = x->busy_until = 0;
		x->fifo.head = x->fifo.count = 0;
	}
	m->eup.head = m->eup.count = 0;
}

void
mach_sim_reset(MachSim *m, PallasPoison poison)
{
	uint32_t w = mach_sim_poison_word(poison);
	size_t vb = (size_t)(m->nv + SIM_NTEMP) * (size_t)m->V * 4;
	int i;

	m->poison = poison;
	m->cycle = 0;
	fill(m->s, (size_t)(m->ns + SIM_NTEMP) * 4, w);
	fill(m->v, vb, w);
	memset(m->p, 0, (size_t)(m->np + SIM_NTEMP));
	m->p[0] = 1;
	memset(m->m, 0, (size_t)(m->nm + SIM_NTEMP) * (size_t)m->V * 4);
	memset(m->sready, 0, (size_t)(m->ns + SIM_NTEMP) * 8);
	memset(m->pready, 0, (size_t)(m->np + SIM_NTEMP) * 8);
	memset(m->vready, 0, (size_t)(m->nv + SIM_NTEMP) * 8);
	memset(m->mready, 0, (size_t)(m->nm + SIM_NTEMP) * 8);
	memset(m->flag, 0, (size_t)m->mp->nflag * 4);
	reset_mem(m->vmem, m->mp->vmem_bytes, w, m->vmem_hw, &m->vmem_ready,
	    &m->vmem_nz);
	reset_mem(m->smem, m->mp->smem_bytes, w, m->smem_hw, &m->smem_ready,
	    &m->smem_nz);
	m->vmem_hw = m->smem_hw = 0;
	reset_units(m);
	free_hbm(m);
	m->ndma = 0;
	m->dma_next = SIM_NEVER;
	m->dma_seq = 0;
	m->hbm_free = m->ocm_free = 0;
	for (i = 0; i < m->mp->dma_engines; i++)
		m->engine_free[i] = 0;
	memset(&m->cnt, 0, sizeof m->cnt);
	m->nopen = 0;
	if (m->region)
		memset(m->region, 0, (size_t)(m->nregion + 1) *
		    sizeof *m->region);
	memset(&m->trap, 0, sizeof m->trap);
}

/* Host memory for an HBM buffer: the device's allocator, or malloc. */
static void *
host_alloc(MachSim *m, uint64_t size)
{
	if (size > SIZE_MAX)
		return NULL;
	if (m->alloc.alloc)
		return m->alloc.alloc(m->alloc.ud, (size_t)size);
	return malloc((size_t)size);
}

int
mach_sim_hbm_place(MachSim *m, uint64_t bytes, uint64_t fixed,
    uint64_t *out)
{
	uint64_t addr, size = bytes ? bytes : 1;
	SimHbm *nh;
	int i;

	*out = MACH_NOADDR;
	addr = fixed != MACH_NOADDR ? fixed : m->hbm_next;
	if (size > m->mp->hbm_bytes || addr > m->mp->hbm_bytes - size)
		return MACH_EINVAL;
	for (i = 0; i < m->nhbm; i++)
		if (addr < m->hbm[i].addr + m->hbm[i].size &&
		    m->hbm[i].addr < addr + size)
			return MACH_EINVAL;
	if (m->nhbm == m->hbmcap) {
		int nc = m->hbmcap ? 2 * m->hbmcap : 8;

		if (!(nh = realloc(m->hbm, (size_t)nc * sizeof *nh)))
			return MACH_ENOMEM;
		m->hbm = nh;
		m->hbmcap = nc;
	}
	nh = &m->hbm[m->nhbm];
	if (!(nh->host = host_alloc(m, size)))
		return MACH_ENOMEM;
	fill(nh->host, size, mach_sim_poison_word(m->poison));
	nh->addr = addr;
	nh->size = size;
	m->nhbm++;
	if (addr + size >= m->hbm_next)
		m->hbm_next = addr + mach_hbm_span(size);
	*out = addr;
	return MACH_OK;
}

uint64_t
mach_sim_hbm_alloc(MachSim *m, uint64_t bytes, uint64_t fixed)
{
	uint64_t addr;

	mach_sim_hbm_place(m, bytes, fixed, &addr);
	return addr;
}

/* Fill [*ready, hi) of a memory of size bytes with the reset pattern,
 * a 64 KiB chunk at a time. */
static void
ready_to(MachSim *m, uint8_t *mem, uint64_t size, uint64_t *ready,
    uint64_t *nz, uint64_t hi)
{
	uint64_t end = (hi + SIM_FILL_CHUNK - 1) / SIM_FILL_CHUNK *
	    SIM_FILL_CHUNK;

	if (end > size)
		end = size;
	fill(mem + *ready, end - *ready, mach_sim_poison_word(m->poison));
	*ready = end;
	if (end > *nz)
		*nz = end;
}

/* Called before every VMEM or SMEM access that reaches byte hi - 1
 * (callers have checked hi against the memory's size). */
void
mach_sim_touch(MachSim *m, int space, uint64_t hi)
{
	if (space == SIM_VMEM) {
		if (hi > m->vmem_ready)
			ready_to(m, m->vmem, m->mp->vmem_bytes,
			    &m->vmem_ready, &m->vmem_nz, hi);
		if (hi > m->vmem_hw)
			m->vmem_hw = hi;
	} else if (space == SIM_SMEM) {
		if (hi > m->smem_ready)
			ready_to(m, m->smem, m->mp->smem_bytes,
			    &m->smem_ready, &m->smem_nz, hi);
		if (hi > m->smem_hw)
			m->smem_hw = hi;
	}
}

uint8_t *
mach_sim_hbm(MachSim *m, uint64_t addr, uint64_t len)
{
	int i;

	for (i = 0; i < m->nhbm; i++)
		if (addr >= m->hbm[i].addr &&
		    addr - m->hbm[i].addr <= m->hbm[i].size &&
		    len <= m->hbm[i].size - (addr - m->hbm[i].addr))
			return m->hbm[i].host + (addr - m->hbm[i].addr);
	return NULL;
}
