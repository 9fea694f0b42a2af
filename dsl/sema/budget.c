/*
 * budget.c - memory budgets.  VMEM use = sum over pipelined VMEM blocks
 * of (tile-padded block bytes x block slots: sema_block_slots, one for
 * a block that is the same at every step) + VMEM scratch: what both
 * interpret mode and the compiled path allocate, so a kernel over it
 * fits neither; it must fit the kernel's vmem_limit or the preset's
 * VMEM.  SMEM tables, SMEM blocks and SMEM scratch must fit SMEM.  The
 * per-operand table is kept in the checked kernel (--emit=sema prints
 * it); on failure it is printed as notes with the largest blocks that
 * would fit.
 *
 * What the compiled path allocates on top (homes of large values,
 * chunk buffers, spill areas, pipeline state) is known only to the
 * backend: its table (backend/vliw/memtable.c) is the compiled budget,
 * checked by the allocation itself when the checks compile the kernel
 * (pallasc -fsyntax-only), never estimated here, so the two cannot
 * disagree: this figure is a lower bound of the backend's.
 *
 * A kernel instance's HBM use = its operands' dense bytes laid out as
 * the runtime places them (mach_hbm_span); it must fit the preset's HBM
 * (funcs are not checked: they do not run on the machine yet).
 * These errors name the export; for a caller that compiles one other
 * export (S->quiet_budget) they are not reported.
 *
 * Gives:    budget_check(), budget_hbm(), budget_vmem(), budget_suggest()
 *           (sema.h).
 * Tests:    tests/diag/sema-*-budget*.pk, sema-hbm-*.pk, check_sema.c
 */
#include <string.h>

#include "dsl/sema/sema.h"

static void
row(Sema *S, CKernel *k, const char *name, const char *what, MemSpace m,
    DType t, const Shape *sh, int buffers, int64_t bytes)
{
	CBudgetRow r;

	r.name = name;
	r.what = what;
	r.mem = m;
	r.dtype = t;
	r.block = *sh;
	r.buffers = buffers;
	r.bytes = bytes;
	vec_push(S->a, &k->budget.row, r);
}

static const char *
role_name(OpRole r)
{
	return r == ROLE_IN ? "in" : r == ROLE_OUT ? "out" : "smem table";
}

/* VMEM use with the given blocks and buffer counts (NULL: the kernel's;
 * its block slots are sema_block_slots'). */
int64_t
budget_vmem(const MachPreset *mp, const CKernel *k, const Shape *blocks,
    const int *buffers)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		if (!o->blocked || o->mem != MEM_VMEM)
			continue;
		sum += shape_tile_bytes(mp, o->dtype, blocks ? &blocks[i] :
		    &o->block) * (buffers ? buffers[i] :
		    sema_block_slots(k, o));
	}
	for (i = 0; i < k->nscratch; i++)
		if (k->scratch[i].mem == MEM_VMEM)
			sum += k->scratch[i].bytes;
	return sum;
}

/*
 * Can dimension d of operand o's block be halved, keeping the tiling?
 * First (whole = 0) only dimensions already split into several blocks.
 */
static int
halvable(const MachPreset *mp, const COperand *o, const Shape *b, int d,
    int whole)
{
	int64_t h = b->d[d] / 2, unit = 1;
	int r = b->rank;

	if (o->squeezed[d] || b->d[d] % 2 || h < 1 ||
	    (!whole && b->d[d] >= o->shape.d[d]))
		return 0;
	if (d == r - 1)
		unit = mp->lanes;
	else if (d == r - 2)
		unit = (int64_t)mp->sublanes * dtype_packing(o->dtype);
	return h % unit == 0;
}

/*
 * The largest halvable block dimension over all pipelined operands
 * (split dimensions first), or 0.  Block sizes usually come from shared
 * parameters (BM in x and z), so every dimension of that size is halved
 * together.
 */
static int64_t
largest(const MachPreset *mp, const CKernel *k, const Shape *b)
{
	int64_t best = 0;
	int i, d, whole;

	for (whole = 0; whole < 2 && !best; whole++)
		for (i = 0; i < k->nop; i++) {
			if (!k->op[i].blocked || k->op[i].mem != MEM_VMEM)
				continue;
			for (d = 0; d < b[i].rank; d++)
				if (halvable(mp, &k->op[i], &b[i], d, whole) &&
				    b[i].d[d] > best)
					best = b[i].d[d];
		}
	return best;
}

int
budget_suggest(const MachPreset *mp, const CKernel *k, int64_t limit,
    Shape *blocks, int *buffers)
{
	int i, d, guard;
	int64_t m;

	for (i = 0; i < k->nop; i++) {
		blocks[i] = k->op[i].block;
		buffers[i] = k->op[i].blocked ?
		    sema_block_slots(k, &k->op[i]) : k->op[i].buffers;
	}
	for (guard = 0; guard < 4096; guard++) {
		if (budget_vmem(mp, k, blocks, buffers) <= limit)
			return 0;
		if (!(m = largest(mp, k, blocks)))
			return -1;
		for (i = 0; i < k->nop; i++)
			for (d = 0; d < blocks[i].rank; d++)
				if (k->op[i].blocked && k->op[i].mem == MEM_VMEM &&
				    blocks[i].d[d] == m &&
				    halvable(mp, &k->op[i], &blocks[i], d, 1))
					blocks[i].d[d] /= 2;
	}
	return -1;
}

#define SAT ((int64_t)1 << 62)	/* HBM byte counts saturate here */

static const char *
human(Sema *S, int64_t b)
{
	static const char *const unit[] = { "GiB", "TiB" };
	int u;

	if (b >= SAT)
		return "more than 2^62 bytes";
	for (u = 1; u >= 0; u--) {
		int64_t m = (int64_t)1 << (30 + 10 * u);
		if (b >= m && b % m == 0)
			return arena_printf(S->a, "%lld %s",
			    (long long)(b / m), unit[u]);
		if (b >= m)
			return arena_printf(S->a, "%.2f %s", (double)b /
			    (double)m, unit[u]);
	}
	if (b >= (1 << 20) && b % (1 << 20) == 0)
		return arena_printf(S->a, "%lld MiB", (long long)(b >> 20));
	if (b >= (1 << 20))
		return arena_printf(S->a, "%.2f MiB", (double)b / (1 << 20));
	if (b >= 1024 && b % 1024 == 0)
		return arena_printf(S->a, "%lld KiB", (long long)(b >> 10));
	if (b >= 1024)
		return arena_printf(S->a, "%.2f KiB", (double)b / 1024);
	return arena_printf(S->a, "%lld bytes", (long long)b);
}

/* Budget errors name the export (the instance note does so already). */
static void
export_note(Sema *S)
{
	if (S->exp_as && !S->inst)
		se_note(S, S->exp_loc, "in '%s', exported as '%s'",
		    S->exp_decl, S->exp_as);
}

static void
table_notes(Sema *S, CKernel *k, MemSpace m)
{
	Loc file = {0};
	int i;

	file.file = k->loc.file;	/* line 0: the notes name the file only */
	for (i = 0; i < k->budget.row.n; i++) {
		CBudgetRow *r = &k->budget.row.v[i];
		if (r->mem != m || strcmp(r->what, "internal") == 0)
			continue;
		se_note(S, file, "%-10s %-10s %-16s x %d = %s", r->name,
		    r->what, type_str(S, r->dtype, &r->block), r->buffers,
		    human(S, r->bytes));
	}
}

static void
suggest(Sema *S, CKernel *k, int64_t limit)
{
	Shape *b = arena_alloc(S->a, sizeof *b * (size_t)(k->nop + 1));
	int *n = arena_alloc(S->a, sizeof *n * (size_t)(k->nop + 1));
	Buf t = {0};
	int i, d, first = 1;

	if (budget_suggest(S->mp, k, limit, b, n)) {
		se_note(S, k->loc, "no smaller blocks fit: reduce the scratch "
		    "buffers or raise vmem_limit");
		return;
	}
	for (i = 0; i < k->nop; i++) {
		if (shape_eq(&b[i], &k->op[i].block))
			continue;
		buf_printf(&t, "%s%s [", first ? "" : ", ", k->op[i].name);
		for (d = 0; d < b[i].rank; d++)
			if (k->op[i].squeezed[d])
				buf_printf(&t, "%s_", d ? ", " : "");
			else
				buf_printf(&t, "%s%lld", d ? ", " : "",
				    (long long)b[i].d[d]);
		buf_putc(&t, ']');
		first = 0;
	}
	buf_putc(&t, 0);
	se_note(S, k->loc, "the largest blocks that fit: %s (%s)", t.p,
	    human(S, budget_vmem(S->mp, k, b, n)));
	buf_free(&t);
}

static void
vmem(Sema *S, CKernel *k)
{
	CBudget *B = &k->budget;
	int64_t limit = k->params.vmem_limit ? k->params.vmem_limit :
	    (int64_t)S->mp->vmem_bytes;

	if (limit > (int64_t)S->mp->vmem_bytes && !S->quiet_budget) {
		se_error(S, k->loc, "vmem_limit of '%s' is %s but preset '%s' "
		    "has %s of VMEM", k->name, human(S, limit), S->mp->name,
		    human(S, (int64_t)S->mp->vmem_bytes));
		export_note(S);
	}
	if (limit > (int64_t)S->mp->vmem_bytes)
		limit = (int64_t)S->mp->vmem_bytes;
	B->vmem_limit = limit;
	B->vmem_used = budget_vmem(S->mp, k, NULL, NULL);
	if (B->vmem_used <= limit || S->quiet_budget)
		return;
	se_error(S, k->loc, "kernel '%s' needs %s of VMEM but %s has %s",
	    k->name, human(S, B->vmem_used), k->params.vmem_limit ?
	    "its vmem_limit" : arena_printf(S->a, "preset '%s'", S->mp->name),
	    human(S, limit));
	export_note(S);
	table_notes(S, k, MEM_VMEM);
	suggest(S, k, limit);
}

static void
smem(Sema *S, CKernel *k)
{
	CBudget *B = &k->budget;

	B->smem_limit = (int64_t)S->mp->smem_bytes;
	if (B->smem_used <= B->smem_limit || S->quiet_budget)
		return;
	se_error(S, k->loc, "kernel '%s' needs %s of SMEM but preset '%s' has "
	    "%s", k->name, human(S, B->smem_used), S->mp->name,
	    human(S, B->smem_limit));
	export_note(S);
	table_notes(S, k, MEM_SMEM);
	se_note(S, k->loc, "SMEM holds scalar tables; keep them small or "
	    "split the kernel");
}

void
budget_check(Sema *S, CKernel *k)
{
	int i, nb;

	k->budget.row.n = 0;
	k->budget.smem_used = 0;
	for (i = 0; i < k->nop; i++) {
		COperand *o = &k->op[i];
		if (o->mem == MEM_ANY)
			continue;
		if (!o->block_bytes)
			o->block_bytes = o->mem == MEM_SMEM ?
			    shape_numel(&o->block) * 4 :
			    shape_tile_bytes(S->mp, o->dtype, &o->block);
		if (o->mem == MEM_SMEM && !o->blocked) {
			o->buffers = 1;
			o->block_bytes = shape_numel(&o->shape) * 4;
		}
		nb = o->blocked ? sema_block_slots(k, o) : o->buffers;
		row(S, k, o->name, role_name(o->role), o->mem, o->dtype,
		    &o->block, nb, o->block_bytes * nb);
		if (o->mem == MEM_SMEM)
			k->budget.smem_used += o->block_bytes * nb;
	}
	for (i = 0; i < k->nscratch; i++) {
		CScratch *c = &k->scratch[i];
		row(S, k, c->name, "scratch", c->mem, c->dtype, &c->shape, 1,
		    c->bytes);
		if (c->mem == MEM_SMEM)
			k->budget.smem_used += c->bytes;
	}
	vmem(S, k);
	smem(S, k);
}

/* ------------------------------------------------------------ HBM */

typedef struct HbmArray {
	const char *name, *what;
	DType dtype;
	const Shape *shape;
	int64_t bytes;		/* dense, saturated at SAT */
} HbmArray;

static int64_t
sat_add(int64_t a, int64_t b)
{
	return a >= SAT - b ? SAT : a + b;
}

static int64_t
dense_bytes(DType t, const Shape *s)
{
	int64_t n = dtype_size(t);
	int i;

	for (i = 0; i < s->rank; i++)
		n = s->d[i] && n > SAT / s->d[i] ? SAT : n * s->d[i];
	return n < SAT ? n : SAT;
}

/* The arrays of a kernel call, each in its own HBM buffer (an SMEM table
   too: the prologue copies it in); their count. */
static int
hbm_arrays(Sema *S, const CKernel *k, HbmArray **out)
{
	HbmArray *v = arena_alloc(S->a, sizeof *v * (size_t)(k->nop + 1));
	int i;

	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		v[i] = (HbmArray){ o->name, role_name(o->role), o->dtype,
		    &o->shape, dense_bytes(o->dtype, &o->shape) };
	}
	*out = v;
	return k->nop;
}

/*
 * The end of the last array as the runtime places them, in order from
 * MACH_HBM_BASE (saturated): what the preset's HBM must hold.
 */
static int64_t
hbm_need(const HbmArray *v, int n)
{
	int64_t need = MACH_HBM_BASE;
	int i;

	for (i = 0; i < n; i++)
		if (v[i].bytes >= SAT)
			need = SAT;
		else if (i == n - 1)
			need = sat_add(need, v[i].bytes ? v[i].bytes : 1);
		else
			need = sat_add(need, (int64_t)mach_hbm_span(
			    (uint64_t)v[i].bytes));
	return need;
}

/* The hint: a preset whose HBM would hold the arrays, if any. */
static void
hbm_hint(Sema *S, Loc file, int64_t need)
{
	const MachPreset *mp, *best = NULL;
	int i;

	for (i = 0; (mp = mach_preset_at(i)); i++)
		if ((int64_t)mp->hbm_bytes >= need && (!best ||
		    mp->hbm_bytes < best->hbm_bytes))
			best = mp;
	if (best)
		se_note(S, file, "operands stay in HBM for the whole call: "
		    "make them smaller, or use a preset with more HBM ('-m %s' "
		    "has %s)", best->name, human(S, (int64_t)best->hbm_bytes));
	else
		se_note(S, file, "operands stay in HBM for the whole call: "
		    "make them smaller, or split the work over several calls");
}

void
budget_hbm(Sema *S, const CExport *e)
{
	HbmArray *v;
	int i, n;
	int64_t total = 0, need, have = (int64_t)S->mp->hbm_bytes;
	Loc file = {0};

	if (!e->kernel)		/* funcs do not run on the machine yet */
		return;
	n = hbm_arrays(S, e->kernel, &v);
	need = hbm_need(v, n);
	if (need <= have || S->quiet_budget)
		return;
	for (i = 0; i < n; i++)
		total = sat_add(total, v[i].bytes);
	if (S->exp_as)
		diag_error(S->d, e->loc, "export '%s' needs %s of HBM for its "
		    "operands but preset '%s' has %s", S->exp_as,
		    human(S, total), S->mp->name, human(S, have));
	else
		diag_error(S->d, e->loc, "kernel '%s' needs %s of HBM for its "
		    "operands but preset '%s' has %s", e->cname,
		    human(S, total), S->mp->name, human(S, have));
	file.file = e->loc.file;	/* line 0: the notes name the file */
	for (i = 0; i < n; i++)
		se_note(S, file, "%-10s %-10s %-16s = %s", v[i].name,
		    v[i].what, type_str(S, v[i].dtype, v[i].shape),
		    human(S, v[i].bytes));
	if (total <= have)
		se_note(S, file, "the runtime starts HBM buffers at %u KiB and "
		    "aligns each to %u KiB with a gap after it: then they "
		    "need %s", MACH_HBM_BASE >> 10, MACH_HBM_ALIGN >> 10,
		    human(S, need));
	hbm_hint(S, file, need);
}
