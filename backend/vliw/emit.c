/*
 * emit.c - scheduled, allocated LLO to a MachProgram.
 *
 * Needs:    functions after vliw_regalloc (physical registers, cycles).
 * Gives:    one program: the functions' bundles one after another (empty
 *           bundles where the schedule waits), labels as bundle offsets,
 *           one entry per function with its operands and its declared
 *           VMEM/SMEM use (allocation and spill areas), the trace regions
 *           (trace.begin/end immediates renumbered program-wide), trap
 *           messages as program strings, and a debug map from the ops'
 *           source locations (a bundle's trap gives its own).  The
 *           result passes mach_program_check; failing it is a backend
 *           bug.
 * Entry:    vliw_emit(LFunc *const *, int, const MachPreset *,
 *           const SrcMgr *, Diag *, MachProgram **)
 */
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"

typedef struct Em {
	MachProgram *p;
	const SrcMgr *sm;
	int *region;		/* function region -> program region */
	const LFunc *f;		/* the function being written */
	MachDebug last;
	int nomem;
} Em;

/* v (n elements) with room for one more; on failure, v and nomem. */
static void *
grow(Em *E, void *v, uint32_t n, uint32_t *cap, size_t elem)
{
	void *q = mach_grow(v, n, cap, 1, elem);

	if (!q)
		E->nomem = 1;
	return q ? q : v;
}

static uint32_t
str(Em *E, const char *s)
{
	int64_t o = mach_program_str(E->p, s);

	if (o < 0) {
		E->nomem = 1;
		return 0;
	}
	return (uint32_t)o;
}

static void
regions(Em *E, const LFunc *f)
{
	MachProgram *p = E->p;
	int i;
	uint32_t k;

	for (i = 0; i < f->region.n; i++) {
		uint32_t s = str(E, f->region.v[i]);
		for (k = 0; k < p->nregion; k++)
			if (strcmp(mach_program_strat(p, p->region[k]),
			    f->region.v[i]) == 0)
				break;
		if (k == p->nregion) {
			p->region = grow(E, p->region, p->nregion, &p->cap_region,
			    4);
			if (E->nomem)
				return;
			p->region[p->nregion++] = s;
		}
		E->region[i] = (int)k;
	}
}

static void
operands(Em *E, const LFunc *f)
{
	MachProgram *p = E->p;
	int i, j;

	for (i = 0; i < f->opnd.n && !E->nomem; i++) {
		const LOperand *o = &f->opnd.v[i];
		MachOperand *m;
		p->opnd = grow(E, p->opnd, p->nopnd, &p->cap_opnd,
		    sizeof *p->opnd);
		if (E->nomem)
			return;
		m = &p->opnd[p->nopnd++];
		memset(m, 0, sizeof *m);
		m->name = str(E, o->name);
		m->role = (uint8_t)o->role;
		m->dtype = (uint8_t)o->dtype;
		m->rank = (uint8_t)o->rank;
		m->smem_addr = o->smem_addr;
		m->bytes = o->bytes;
		m->hbm_addr = MACH_NOADDR;
		for (j = 0; j < o->rank; j++)
			m->shape[j] = o->shape[j];
	}
}

static void
debug(Em *E, const LIns *in, uint32_t bundle, uint32_t region)
{
	MachProgram *p = E->p;
	MachDebug d;
	const SrcFile *sf;

	memset(&d, 0, sizeof d);
	d.bundle = bundle;
	d.region = region;
	if (in && in->loc.file && E->sm &&
	    (sf = srcmgr_file(E->sm, in->loc.file))) {
		d.file = str(E, sf->name);
		d.line = (uint32_t)in->loc.line;
		d.col = (uint32_t)in->loc.col;
	}
	if (p->ndebug && d.file == E->last.file && d.line == E->last.line &&
	    d.col == E->last.col && d.region == E->last.region)
		return;
	if (p->ndebug && p->debug[p->ndebug - 1].bundle == bundle)
		p->ndebug--;	/* several starts at one bundle: keep last */
	p->debug = grow(E, p->debug, p->ndebug, &p->cap_debug, sizeof d);
	if (E->nomem)
		return;
	p->debug[p->ndebug++] = d;
	E->last = d;
}

static MachIns
mins(Em *E, const LIns *in, const int *start, uint32_t bundle)
{
	MachIns m;

	memset(&m, 0, sizeof m);
	m.op = (uint8_t)in->op;
	m.guard = (uint8_t)in->guard;
	m.gneg = in->gneg;
	m.d = (uint8_t)in->d;
	m.a = (uint8_t)in->a;
	m.b = (uint8_t)in->b;
	m.c = (uint8_t)in->c;
	m.x = in->x;
	m.imm = in->imm;
	if (in->target >= 0)
		m.imm = (int32_t)(start[in->target] - (int)bundle);
	if (in->op == OP_TBEGIN || in->op == OP_TEND)
		m.imm = E->region[in->imm];
	if (in->op == OP_TRAP)
		m.imm = (int32_t)str(E, E->f->msg.v[in->imm]);
	return m;
}

/* The bundles of one function; its first bundle is p->nbundle. */
static void
code(Em *E, const LFunc *f, uint32_t region)
{
	MachProgram *p = E->p;
	int *start = calloc((size_t)f->blk.n + 1, sizeof(int));
	MachIns ins[64];
	int b, c, i, n, u, pos = (int)p->nbundle;

	if (!start) {
		E->nomem = 1;
		return;
	}
	for (b = 0; b < f->blk.n; b++) {
		start[b] = pos;
		pos += f->blk.v[b].nbundle;
	}
	for (b = 0; b < f->blk.n && !E->nomem; b++) {
		const LBlk *bk = &f->blk.v[b];
		for (c = 0, i = 0; c < bk->nbundle && !E->nomem; c++) {
			const LIns *first = i < bk->ins.n &&
			    bk->ins.v[i].cycle == c ? &bk->ins.v[i] : NULL;
			n = 0;
			for (u = 0; u <= NMACHUNIT; u++) {	/* slot order */
				int k;
				for (k = i; k < bk->ins.n && bk->ins.v[k].cycle
				    == c; k++)
					if (mach_opinfo[bk->ins.v[k].op].unit ==
					    u && n < 64)
						ins[n++] = mins(E, &bk->ins.v[k],
						    start, p->nbundle);
			}
			/* a bundle's trap locates it at its check */
			for (; i < bk->ins.n && bk->ins.v[i].cycle == c; i++)
				if (bk->ins.v[i].op == OP_TRAP)
					first = &bk->ins.v[i];
			if (first)
				debug(E, first, p->nbundle, region);
			if (mach_program_add_bundle(p, ins, n) != MACH_OK)
				E->nomem = 1;
		}
	}
	free(start);
}

/* The end of f's memory in VMEM or SMEM: the allocation (and isel's
 * DMA descriptors), or the spill area above it if there is one. */
static uint64_t
mem_end(int64_t base, int64_t spill_at, int64_t spill_bytes)
{
	int64_t end = spill_bytes ? spill_at + spill_bytes : 0;

	return (uint64_t)(end > base ? end : base);
}

static void
entry(Em *E, const LFunc *f)
{
	MachProgram *p = E->p;
	MachEntry *e;
	uint32_t first = p->nopnd, pc = p->nbundle, reg;

	E->region = calloc((size_t)f->region.n + 1, sizeof(int));
	if (!E->region) {
		E->nomem = 1;
		return;
	}
	regions(E, f);
	operands(E, f);
	reg = f->region.n ? (uint32_t)E->region[0] : MACH_NOREGION;
	E->f = f;
	if (!E->nomem)
		code(E, f, reg);
	free(E->region);
	E->region = NULL;
	p->entry = grow(E, p->entry, p->nentry, &p->cap_entry,
	    sizeof *p->entry);
	if (E->nomem)
		return;
	e = &p->entry[p->nentry++];
	memset(e, 0, sizeof *e);
	e->name = str(E, f->name);
	e->pc = pc;
	e->first_opnd = first;
	e->nopnd = p->nopnd - first;
	e->vmem_bytes = mem_end(f->vmem_base, f->spill_vaddr, f->spill_vmem);
	e->smem_bytes = mem_end(f->smem_base, f->spill_saddr, f->spill_smem);
}

int
vliw_emit(LFunc *const *f, int n, const MachPreset *mp, const SrcMgr *sm,
    Diag *d, MachProgram **out)
{
	Em E;
	char err[512];
	int i;

	memset(&E, 0, sizeof E);
	E.sm = sm;
	*out = NULL;
	if (!(E.p = mach_program_new(mp->name)))
		return diag_error(d, (Loc){ 0 }, "out of memory"), -1;
	for (i = 0; i < n && !E.nomem; i++) {
		if (!f[i]->allocated)
			bug("vliw: emit: function '%s' is not allocated",
			    f[i]->name);
		entry(&E, f[i]);
	}
	if (E.nomem) {
		mach_program_free(E.p);
		diag_error(d, (Loc){ 0 }, "out of memory writing the program");
		return -1;
	}
	if (mach_program_check(E.p, err, sizeof err) != MACH_OK)
		bug("vliw: emit: the program fails its check: %s", err);
	*out = E.p;
	return 0;
}
