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
 *           A module's top-level programs (TModule.tlp) are entries
 *           too: each step's argument table filled from the entry's
 *           (its operands and its HBM scratch), then the step's function
 *           inlined without its halt; those functions are no entries.
 * Entry:    vliw_emit_module(LFunc *const *, const TModule *, int,
 *           const MachPreset *, const SrcMgr *, Diag *, MachProgram **)
 *           (vliw_emit: the same without a module)
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
	int inlined;		/* code() of a top-level program's step */
	int misplaced;		/* ... whose halt is not its last op */
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

/* The program's region named 'name', added if new. */
static int
region_of(Em *E, const char *name)
{
	MachProgram *p = E->p;
	uint32_t k, s = str(E, name);

	for (k = 0; k < p->nregion; k++)
		if (strcmp(mach_program_strat(p, p->region[k]), name) == 0)
			return (int)k;
	p->region = grow(E, p->region, p->nregion, &p->cap_region, 4);
	if (E->nomem)
		return 0;
	p->region[p->nregion++] = s;
	return (int)k;
}

static void
regions(Em *E, const LFunc *f)
{
	int i;

	for (i = 0; i < f->region.n && !E->nomem; i++)
		E->region[i] = region_of(E, f->region.v[i]);
}

/* A zeroed operand appended to the program, or NULL out of memory. */
static MachOperand *
new_operand(Em *E)
{
	MachProgram *p = E->p;
	MachOperand *m;

	p->opnd = grow(E, p->opnd, p->nopnd, &p->cap_opnd, sizeof *p->opnd);
	if (E->nomem)
		return NULL;
	m = &p->opnd[p->nopnd++];
	memset(m, 0, sizeof *m);
	return m;
}

static void
operands(Em *E, const LFunc *f)
{
	int i, j;

	for (i = 0; i < f->opnd.n; i++) {
		const LOperand *o = &f->opnd.v[i];
		MachOperand *m = new_operand(E);

		if (!m)
			return;
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

/* In a top-level program a step's halt is left out, so that the next
   step follows: it must be the function's last op. */
static int
inline_halt(Em *E, const LFunc *f, int b, int c, const LIns *in)
{
	const LBlk *bk = &f->blk.v[b];

	if (!E->inlined || in->op != OP_HALT)
		return 0;
	if (b != f->blk.n - 1 || c != bk->nbundle - 1 ||
	    in != &bk->ins.v[bk->ins.n - 1])
		E->misplaced = 1;
	return 1;
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
					    u && n < 64 && !inline_halt(E, f,
					    b, c, &bk->ins.v[k]))
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

/* f's code, its regions made the program's. */
static void
body(Em *E, const LFunc *f)
{
	uint32_t reg;

	E->region = calloc((size_t)f->region.n + 1, sizeof(int));
	if (!E->region) {
		E->nomem = 1;
		return;
	}
	regions(E, f);
	reg = f->region.n ? (uint32_t)E->region[0] : MACH_NOREGION;
	E->f = f;
	if (!E->nomem)
		code(E, f, reg);
	free(E->region);
	E->region = NULL;
}

/* A new entry named 'name' from bundle pc, operands from 'first' on. */
static MachEntry *
new_entry(Em *E, const char *name, uint32_t pc, uint32_t first)
{
	MachProgram *p = E->p;
	MachEntry *e;

	p->entry = grow(E, p->entry, p->nentry, &p->cap_entry,
	    sizeof *p->entry);
	if (E->nomem)
		return NULL;
	e = &p->entry[p->nentry++];
	memset(e, 0, sizeof *e);
	e->name = str(E, name);
	e->pc = pc;
	e->first_opnd = first;
	e->nopnd = p->nopnd - first;
	return e;
}

static uint64_t
vmem_end(const LFunc *f)
{
	return mem_end(f->vmem_base, f->spill_vaddr, f->spill_vmem);
}

static uint64_t
smem_end(const LFunc *f)
{
	return mem_end(f->smem_base, f->spill_saddr, f->spill_smem);
}

static void
entry(Em *E, const LFunc *f)
{
	uint32_t first = E->p->nopnd, pc = E->p->nbundle;
	MachEntry *e;

	operands(E, f);
	body(E, f);
	if (!(e = new_entry(E, f->name, pc, first)))
		return;
	e->vmem_bytes = vmem_end(f);
	e->smem_bytes = smem_end(f);
}

/* ------------------------------------------------ top-level programs */

/* The scalar registers a step's prologue uses (the step's function
   sets every register it reads itself). */
enum { T_ZERO = 1, T_LO = 2, T_HI = 3 };

/* A bundle of one op, then 'wait' empty bundles. */
static void
put(Em *E, int op, int d, int a, int b, int64_t imm, int wait)
{
	MachIns m;

	memset(&m, 0, sizeof m);
	m.op = (uint8_t)op;
	m.d = (uint8_t)d;
	m.a = (uint8_t)a;
	m.b = (uint8_t)b;
	m.imm = (int32_t)imm;
	if (mach_program_add_bundle(E->p, &m, 1) != MACH_OK)
		E->nomem = 1;
	while (wait-- > 0 && !E->nomem)
		if (mach_program_add_bundle(E->p, NULL, 0) != MACH_OK)
			E->nomem = 1;
}

/* The HBM address in the SMEM slot 'from', plus off, into slot 'to'
   (the low word alone takes off, as a kernel's own addressing does). */
static void
copy_addr(Em *E, uint32_t from, int64_t off, uint32_t to)
{
	const int *lat = E->p->mp->lat;

	put(E, OP_SLD, T_LO, T_ZERO, 0, from, 0);
	put(E, OP_SLD, T_HI, T_ZERO, 0, from + 4, lat[LAT_SLD] - 1);
	if (off)
		put(E, OP_SADDI, T_LO, T_LO, 0, off, lat[LAT_SALU] - 1);
	put(E, OP_SST, 0, T_ZERO, T_LO, to, 0);
	put(E, OP_SST, 0, T_ZERO, T_HI, to + 4, 0);
}

/* The word v into SMEM at 'at'. */
static void
put_word(Em *E, uint32_t at, uint32_t v)
{
	put(E, OP_SMOVI, T_LO, 0, 0, (int32_t)v, E->p->mp->lat[LAT_SALU] - 1);
	put(E, OP_SST, 0, T_ZERO, T_LO, at, 0);
}

/* The sync flag the entry's own DMAs complete on: the steps' code does
   not run meanwhile, and it is 0 again before each step starts. */
enum { TLP_FLAG = 0 };

/*
 * SMEM operand o of a step filled from HBM, as the runtime fills a
 * kernel entry's: a DMA of o's bytes from the buffer whose address is in
 * SMEM slot 'from' (plus off), described at 'desc', waited for before
 * the step's code runs.
 */
static void
fill_smem(Em *E, uint32_t from, int64_t off, const LOperand *o,
    uint32_t desc)
{
	int i;

	copy_addr(E, from, off, desc + 4 * MACH_DMA_SRC_LO);
	put_word(E, desc + 4 * MACH_DMA_DST_LO, o->smem_addr);
	put_word(E, desc + 4 * MACH_DMA_DST_HI, 0);
	put_word(E, desc + 4 * MACH_DMA_CTRL, MACH_DMA_HBM_SMEM | 1u << 4 |
	    1u << 8);
	put_word(E, desc + 4 * MACH_DMA_COUNT0, (uint32_t)o->bytes);
	for (i = MACH_DMA_COUNT0 + 1; i < MACH_DMA_WORDS; i++)
		put_word(E, desc + 4 * (uint32_t)i, i < MACH_DMA_SSTRIDE1);
	put(E, OP_SYNCSET, 0, 0, TLP_FLAG, 0, 0);
	put(E, OP_DMA, 0, T_ZERO, TLP_FLAG, desc, 0);
	put(E, OP_SYNCTAKE, 0, 0, TLP_FLAG, 1, 0);
}

static MachRole
tlp_role(TTlpKind k)
{
	return k == TLP_PARAM ? MACH_ROLE_IN : k == TLP_RESULT ?
	    MACH_ROLE_OUT : MACH_ROLE_CONST;
}

/* A constant's bytes appended to the program's data, 64-byte aligned. */
static uint32_t
put_data(Em *E, const TTlpBuf *b)
{
	MachProgram *p = E->p;
	uint32_t at = (p->ndata + 63) / 64 * 64, cap = 0;
	uint8_t *q;

	if ((uint64_t)at + (uint64_t)b->bytes > UINT32_MAX ||
	    !(q = mach_grow(p->data, p->ndata, &cap, (uint32_t)(at -
	    p->ndata + (uint32_t)b->bytes), 1))) {
		E->nomem = 1;
		return 0;
	}
	memset(q + p->ndata, 0, at - p->ndata);
	memcpy(q + at, b->data, (size_t)b->bytes);
	p->data = q;
	p->ndata = at + (uint32_t)b->bytes;
	return at;
}

/* The entry's operands: argument table slots from 'table' on. */
static void
tlp_operands(Em *E, const TTlp *t, uint32_t table)
{
	int i, j;

	for (i = 0; i < t->nopnd; i++) {
		const TTlpBuf *b = &t->buf[t->opnd[i]];
		MachOperand *m = new_operand(E);

		if (!m)
			return;
		m->name = str(E, b->name);
		m->role = (uint8_t)tlp_role(b->kind);
		m->dtype = (uint8_t)vliw_mach_dtype(b->dtype);
		m->rank = (uint8_t)b->shape.rank;
		for (j = 0; j < b->shape.rank && j < MACH_MAXRANK; j++)
			m->shape[j] = b->shape.d[j];
		m->smem_addr = table + 8 * (uint32_t)i;
		m->bytes = (uint64_t)b->bytes;
		m->hbm_addr = MACH_NOADDR;
		if (b->kind == TLP_CONST)
			m->data_off = put_data(E, b);
	}
}

/* The entry operand buffer 'buf' is, or -1 (a TEMP). */
static int
tlp_slot(const TTlp *t, int buf)
{
	int i;

	for (i = 0; i < t->nopnd; i++)
		if (t->opnd[i] == buf)
			return i;
	return -1;
}

/* Step s: its function's argument table filled from the entry's, then
   its code, in its region. */
static int
tlp_step(Em *E, const TTlp *t, const TTlpStep *s, const LFunc *g,
    uint32_t table, Diag *d)
{
	uint32_t scratch = table + 8 * (uint32_t)t->nopnd;
	int i, k, reg = -1;

	debug(E, NULL, E->p->nbundle, MACH_NOREGION);
	put(E, OP_SMOVI, T_ZERO, 0, 0, 0, E->p->mp->lat[LAT_SALU] - 1);
	for (i = 0; i < g->opnd.n; i++) {
		const LOperand *o = &g->opnd.v[i];
		const TTlpBuf *b = NULL;
		uint32_t from;
		int64_t off = 0;
		for (k = 0; k < s->nbind; k++)
			if (strcmp(s->bind[k].opnd, o->name) == 0)
				b = &t->buf[s->bind[k].buf];
		if (!b || (o->role == MACH_ROLE_SMEM &&
		    (uint64_t)b->bytes != o->bytes)) {
			diag_error(d, g->loc, "top-level program '%s': the "
			    "operand '%s' of '%s' is %s", t->name, o->name,
			    g->name, b ? "an SMEM operand of another size" :
			    "bound to no buffer");
			return -1;
		}
		if (b->kind == TLP_TEMP && b->offset > INT32_MAX) {
			diag_error(d, g->loc, "top-level program '%s': its "
			    "scratch passes 2 GiB", t->name);
			return -1;
		}
		if (b->kind == TLP_TEMP) {
			from = scratch;
			off = b->offset;
		} else
			from = table + 8 * (uint32_t)tlp_slot(t,
			    (int)(b - t->buf));
		if (o->role == MACH_ROLE_SMEM)
			fill_smem(E, from, off, o, scratch + 8);
		else
			copy_addr(E, from, off, o->smem_addr);
	}
	if (s->region && !E->nomem)
		put(E, OP_TBEGIN, 0, 0, 0, reg = region_of(E, s->region), 0);
	E->inlined = 1;
	body(E, g);
	E->inlined = 0;
	if (reg >= 0)
		put(E, OP_TEND, 0, 0, 0, reg, 0);
	return 0;
}

/* Top-level program t, from the allocated functions f. */
static int
tlp_entry(Em *E, LFunc *const *f, const TTlp *t, Diag *d)
{
	MachProgram *p = E->p;
	uint32_t first = p->nopnd, pc = p->nbundle, table;
	uint64_t vmem = 0, smem = 0;
	MachEntry *e;
	int i;

	for (i = 0; i < t->nstep; i++) {
		const LFunc *g = f[t->step[i].func];
		if (vmem_end(g) > vmem)
			vmem = vmem_end(g);
		if (smem_end(g) > smem)
			smem = smem_end(g);
	}
	/* above every step's SMEM: the steps write their own tables */
	table = (uint32_t)((smem + 7) / 8 * 8);
	tlp_operands(E, t, table);
	for (i = 0; i < t->nstep && !E->nomem; i++)
		if (tlp_step(E, t, &t->step[i], f[t->step[i].func], table, d))
			return -1;
	if (E->misplaced)
		bug("vliw: emit: a step of '%s' halts before its end",
		    t->name);
	put(E, OP_HALT, 0, 0, 0, 0, 0);
	if (!(e = new_entry(E, t->name, pc, first)))
		return 0;
	e->vmem_bytes = vmem;
	e->scratch_bytes = (uint64_t)t->scratch;
	e->scratch_smem = table + 8 * (uint32_t)t->nopnd;
	/* the scratch base, then the descriptor of fill_smem's DMAs */
	e->smem_bytes = e->scratch_smem + 8 + 4 * MACH_DMA_WORDS;
	return 0;
}

/* Is f[i] a step of a top-level program (not an entry of its own)? */
static int
is_step(const TModule *m, int i)
{
	int k, j;

	for (k = 0; m && k < m->tlp.n; k++)
		for (j = 0; j < m->tlp.v[k]->nstep; j++)
			if (m->tlp.v[k]->step[j].func == i)
				return 1;
	return 0;
}

int
vliw_emit_module(LFunc *const *f, const TModule *m, int n,
    const MachPreset *mp, const SrcMgr *sm, Diag *d, MachProgram **out)
{
	Em E;
	char err[512];
	int i, rc = 0;

	memset(&E, 0, sizeof E);
	E.sm = sm;
	*out = NULL;
	if (!(E.p = mach_program_new(mp->name)))
		return diag_error(d, (Loc){ 0 }, "out of memory"), -1;
	for (i = 0; i < n; i++)
		if (!f[i]->allocated)
			bug("vliw: emit: function '%s' is not allocated",
			    f[i]->name);
	for (i = 0; i < n && !E.nomem; i++)
		if (!is_step(m, i))
			entry(&E, f[i]);
	for (i = 0; m && i < m->tlp.n && !E.nomem && !rc; i++)
		rc = tlp_entry(&E, f, m->tlp.v[i], d);
	if (E.nomem || rc) {
		mach_program_free(E.p);
		if (E.nomem)
			diag_error(d, (Loc){ 0 }, "out of memory writing the "
			    "program");
		return -1;
	}
	if (mach_program_check(E.p, err, sizeof err) != MACH_OK)
		bug("vliw: emit: the program fails its check: %s", err);
	*out = E.p;
	return 0;
}

int
vliw_emit(LFunc *const *f, int n, const MachPreset *mp, const SrcMgr *sm,
    Diag *d, MachProgram **out)
{
	return vliw_emit_module(f, NULL, n, mp, sm, d, out);
}
