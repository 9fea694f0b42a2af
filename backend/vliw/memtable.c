/*
 * memtable.c - what a compiled kernel allocates in VMEM and SMEM, as
 * one table per kernel for --emit=sema: every VMEM and SMEM buffer of
 * its tile-IR function (pipeline slots, SMEM tables, scratch, the homes
 * of large values and chunk buffers, the pipeline state), the argument
 * table and DMA descriptors, and the spill areas register allocation
 * added.  The totals are the figures the backend checked against the
 * preset; they bound every address the program touches.
 *
 * Needs:    the tile-IR function (allocated) and its LLO function after
 *           register allocation (vmem_base, smem_base, spill_*).
 * Gives:    vliw_mem_table() (vliw.h).
 * Format:   the columns of sema's budget table (dsl/sema/print.c):
 *           name, what, mem, block, buffers, bytes; then one total line
 *           per memory.
 */
#include "backend/vliw/vliw.h"

static const char *const kind[] = {
	[TB_BLOCK] = "block", [TB_SMEM_TABLE] = "smem table",
	[TB_HBM] = "hbm", [TB_SCRATCH] = "scratch",
	[TB_INTERNAL] = "internal",
};

static void
row(Buf *b, const char *name, const char *what, const char *mem,
    const char *block, int buffers, int64_t bytes)
{
	buf_printf(b, "    %-16s %-10s %-5s %-20s %7d %10lld\n", name, what,
	    mem, block, buffers, (long long)bytes);
}

/* The tile IR's buffers in memory m; returns their bytes. */
static int64_t
buffers(Buf *b, const TFunc *tf, TSpace m)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < tf->buf.n; i++) {
		const TBuf *x = &tf->buf.v[i];
		Buf blk = {0};
		if (x->space != m || x->kind == TB_HBM)
			continue;
		buf_puts(&blk, dtype_name(x->dtype));
		shape_print(&blk, &x->shape);
		buf_putc(&blk, 0);
		row(b, x->name ? x->name : "-", x->kind < (int)(sizeof kind /
		    sizeof kind[0]) && kind[x->kind] ? kind[x->kind] : "?",
		    tile_space_name(m), blk.p, x->nslot,
		    x->slot_bytes * x->nslot);
		sum += x->slot_bytes * x->nslot;
		buf_free(&blk);
	}
	return sum;
}

void
vliw_mem_table(Buf *b, const TFunc *tf, const LFunc *lf)
{
	const MachPreset *mp = lf->mp;
	int64_t v, s, vused, sused;

	vused = lf->spill_vmem ? lf->spill_vaddr + lf->spill_vmem :
	    lf->vmem_base;
	sused = lf->spill_smem ? lf->spill_saddr + lf->spill_smem :
	    lf->smem_base;
	buf_printf(b, "compiled %s (%s): what the backend allocates\n",
	    tf->name, mp->name);
	buf_printf(b, "    %-16s %-10s %-5s %-20s %7s %10s\n", "name", "what",
	    "mem", "block", "buffers", "bytes");
	v = buffers(b, tf, TS_VMEM);
	if (vused - v - lf->spill_vmem > 0)	/* alignment padding */
		row(b, "(padding)", "internal", "vmem", "-", 1,
		    vused - v - lf->spill_vmem);
	if (lf->spill_vmem)
		row(b, "(spill)", "internal", "vmem", "-", 1, lf->spill_vmem);
	s = buffers(b, tf, TS_SMEM);
	if (sused - s - lf->spill_smem > 0)
		row(b, "(args, DMA)", "internal", "smem", "-", 1,
		    sused - s - lf->spill_smem);
	if (lf->spill_smem)
		row(b, "(spill)", "internal", "smem", "-", 1, lf->spill_smem);
	buf_printf(b, "    vmem %lld of %lld bytes\n", (long long)vused,
	    (long long)vliw_vmem_limit(lf));
	buf_printf(b, "    smem %lld of %llu bytes\n", (long long)sused,
	    (unsigned long long)mp->smem_bytes);
}
