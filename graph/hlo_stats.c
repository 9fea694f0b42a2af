/*
 * hlo_stats.c - --emit=hlo-stats: what the pass pipeline made of a
 * module, from the optimised module itself (buffers.c for sizes and
 * live ranges) and the decisions the passes wrote: fusions by kind,
 * instruction counts, the largest intermediate left in HBM, estimated
 * HBM traffic unfused, fused and with memory-space assignment, and what
 * lives in VMEM.  See graph.h.
 */
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

int
hlo_instr_count(const HloModule *m, int entry_only)
{
	int j, n = 0;

	for (j = 0; j < m->comp.n; j++)
		if (!entry_only || j == m->entry)
			n += m->comp.v[j]->instr.n;
	return n;
}

/* Instructions that move no data of their own: names for a value. */
static int
is_free(HloOp op)
{
	return op == HLO_PARAMETER || op == HLO_CONSTANT || op == HLO_GTE ||
	    op == HLO_TUPLE || op == HLO_BITCAST || op == HLO_COPY_DONE;
}

/* Bytes of the array leaves of sh in memory space 'space' (-1: any). */
static int64_t
bytes_in(const HloShape *sh, int64_t space)
{
	int64_t n = 0;
	int i;

	if (sh->type != HT_TUPLE)
		return space < 0 || sh->layout.memspace == space ?
		    hlo_shape_bytes(sh) : 0;
	for (i = 0; i < sh->ntuple; i++)
		n += bytes_in(&sh->elem[i], space);
	return n;
}

/* What 'in' reads (each operand once) and writes, in space (-1: any). */
static int64_t
moved(const HloComp *c, const HloInstr *in, int64_t space)
{
	int64_t n;
	int k, j;

	if (is_free(in->op))
		return 0;
	/* a copy-start reads its source; its destination is the copy's */
	if (in->op == HLO_COPY_START)
		return bytes_in(&c->instr.v[in->operand[0]]->shape, space);
	n = bytes_in(&in->shape, space);
	for (k = 0; k < in->noperand; k++) {
		for (j = 0; j < k; j++)
			if (in->operand[j] == in->operand[k])
				break;
		if (j == k)
			n += bytes_in(&c->instr.v[in->operand[k]]->shape,
			    space);
	}
	return n;
}

/* The program with every fusion taken apart: each op's own traffic. */
static int64_t
unfused(const HloModule *m, const HloComp *c, int depth)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		if (in->op == HLO_FUSION && in->callee >= 0 &&
		    in->callee < m->comp.n && depth < HLO_MAXDEPTH)
			n += unfused(m, m->comp.v[in->callee], depth + 1);
		else
			n += moved(c, in, -1);
	}
	return n;
}

static void
fusions(Buf *b, const HloModule *m)
{
	static const char *const kinds[] = { "kLoop", "kInput", "kOutput",
	    "kCustom" };
	int nk[4] = {0}, other = 0, total = 0, nested = 0, j, i, k;
	Arena a = {0};
	char *fused = arena_alloc(&a, (size_t)m->comp.n + 1);

	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			const HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->op == HLO_FUSION && in->callee >= 0 &&
			    in->callee < m->comp.n)
				fused[in->callee] = 1;
		}
	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			const HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->op != HLO_FUSION)
				continue;
			if (fused[j]) {
				nested++;
				continue;
			}
			total++;
			for (k = 0; k < 4; k++)
				if (in->kind && strcmp(in->kind, kinds[k]) == 0)
					break;
			if (k < 4)
				nk[k]++;
			else
				other++;
		}
	buf_printf(b, "fusions: %d (", total);
	for (k = 0; k < 4; k++)
		buf_printf(b, "%s%s %d", k ? ", " : "", kinds[k], nk[k]);
	if (other)
		buf_printf(b, ", other %d", other);
	buf_printf(b, "), nested %d\n", nested);
	arena_free(&a);
}

static int
space_is(const HloBuffers *b, int i, void *arg)
{
	return b->buf[i].memspace == *(const int64_t *)arg &&
	    b->buf[i].bytes > 0;
}

/*
 * Where memory-space assignment put the VMEM values, as the offsets of
 * their buffers: the VMEM arena's size, or -1 if some value has none
 * (the module was read from text, which does not carry them).
 */
static int64_t
msa_offsets(HloBuffers *bs)
{
	int64_t top = 0;
	int i;

	for (i = 0; i < bs->nbuf; i++) {
		HloBuffer *f = &bs->buf[i];
		const HloLayout *l = &bs->leafshape[bs->first[f->def] +
		    f->leaf]->layout;
		if (f->memspace != 1 || f->bytes == 0)
			continue;
		if (!l->placed)
			return -1;
		f->offset = l->offset;
		if (l->offset + f->bytes > top)
			top = l->offset + f->bytes;
	}
	return top;
}

/* The largest intermediate in HBM, the VMEM values, both arenas. */
static void
memories(Buf *b, const HloModule *m, int64_t align)
{
	const HloComp *c = hlo_entry(m);
	Arena a = {0};
	HloBuffers bs;
	int i, big = -1, nv = 0;
	int64_t vbytes = 0, hbm = 0, vmem = 1, arena_h, arena_v;
	const char *how = "memory-space assignment's offsets";

	hlo_buffers_build(&bs, &a, c);
	for (i = 0; i < bs.nbuf; i++) {
		const HloBuffer *f = &bs.buf[i];
		if (f->memspace == 1) {
			nv++;
			vbytes += f->bytes;
		}
		if (f->memspace == 0 && !f->param && !f->out &&
		    c->instr.v[f->def]->op != HLO_CONSTANT &&
		    (big < 0 || f->bytes > bs.buf[big].bytes))
			big = i;
	}
	buf_puts(b, "largest intermediate in HBM: ");
	if (big < 0)
		buf_puts(b, "none\n");
	else {
		const HloBuffer *f = &bs.buf[big];
		buf_printf(b, "%s ", c->instr.v[f->def]->name);
		hlo_shape_print(b, bs.leafshape[bs.first[f->def] + f->leaf]);
		buf_printf(b, ", %lld B\n", (long long)f->bytes);
	}
	arena_h = hlo_buffers_assign(&bs, 64, space_is, &hbm);
	if ((arena_v = msa_offsets(&bs)) < 0) {
		arena_v = hlo_buffers_assign(&bs, align, space_is, &vmem);
		how = "first fit by size over the schedule: the text carries "
		    "no offsets";
	}
	buf_printf(b, "VMEM (S(1)): %d values, %lld B; arena %lld B (%s)\n",
	    nv, (long long)vbytes, (long long)arena_v, how);
	buf_printf(b, "HBM: arena %lld B over the schedule, peak live %lld B "
	    "(all memories)\n", (long long)arena_h,
	    (long long)hlo_buffers_peak(&bs));
	for (i = 0; i < bs.nbuf; i++) {
		const HloBuffer *f = &bs.buf[i];
		if (f->memspace != 1)
			continue;
		buf_printf(b, "  S(1) %s ", c->instr.v[f->def]->name);
		hlo_shape_print(b, bs.leafshape[bs.first[f->def] + f->leaf]);
		buf_printf(b, " %lld B @%lld, positions %d..%d\n",
		    (long long)f->bytes, (long long)f->offset, f->start,
		    f->end);
	}
	arena_free(&a);
}

void
hlo_stats(Buf *b, const HloModule *m, const struct MachPreset *mp,
    int before_entry, int before_all, const char *decisions,
    size_t ndecisions)
{
	const HloComp *c = hlo_entry(m);
	int64_t fused = 0, hbm = 0;
	int i;

	buf_printf(b, "module %s, preset %s\n", m->name ? m->name :
	    "(unnamed)", mp->name);
	if (!c) {
		buf_puts(b, "no entry computation\n");
		return;
	}
	buf_printf(b, "instructions: entry %d before, %d after; all "
	    "computations %d before, %d after\n", before_entry, c->instr.n,
	    before_all, hlo_instr_count(m, 0));
	fusions(b, m);
	for (i = 0; i < c->instr.n; i++) {
		fused += moved(c, c->instr.v[i], -1);
		hbm += moved(c, c->instr.v[i], 0);
	}
	buf_printf(b, "HBM bytes (estimated from shapes): unfused %lld, "
	    "fused %lld, fused with VMEM %lld\n",
	    (long long)unfused(m, c, 0), (long long)fused, (long long)hbm);
	/* VMEM chunks on vreg tiles, as memory-space assignment puts them */
	memories(b, m, (int64_t)mp->sublanes * mp->lanes * 4);
	if (ndecisions) {
		buf_puts(b, "decisions:\n");
		buf_putn(b, decisions, ndecisions);
	}
}
