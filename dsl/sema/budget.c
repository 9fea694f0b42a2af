/*
 * budget.c - memory budgets.  VMEM use = sum over pipelined VMEM blocks
 * of (tile-padded block bytes x buffers) + VMEM scratch + a reserve for
 * compiler temporaries (1/16 of the limit); it must fit the kernel's
 * vmem_limit or the preset's VMEM.  SMEM tables, SMEM blocks and SMEM
 * scratch must fit SMEM.  The per-operand table is kept in the checked
 * kernel (--emit=sema prints it); on failure it is printed as notes with
 * the largest blocks that would fit.
 *
 * Gives:    budget_check(), budget_vmem(), budget_suggest() (sema.h).
 * Tests:    tests/diag/sema-budget-*.pk, check_sema.c
 */
#include <string.h>

#include "dsl/sema/sema.h"

#define RESERVE_DIV 16

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

/* VMEM use with the given blocks and buffer counts (NULL: the kernel's). */
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
		    &o->block) * (buffers ? buffers[i] : o->buffers);
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
		buffers[i] = k->op[i].buffers;
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

static const char *
human(Sema *S, int64_t b)
{
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
	    human(S, budget_vmem(S->mp, k, b, n) + limit / RESERVE_DIV));
	buf_free(&t);
}

static void
vmem(Sema *S, CKernel *k)
{
	CBudget *B = &k->budget;
	int64_t limit = k->params.vmem_limit ? k->params.vmem_limit :
	    (int64_t)S->mp->vmem_bytes;

	if (limit > (int64_t)S->mp->vmem_bytes) {
		se_error(S, k->loc, "vmem_limit of '%s' is %s but preset '%s' "
		    "has %s of VMEM", k->name, human(S, limit), S->mp->name,
		    human(S, (int64_t)S->mp->vmem_bytes));
		limit = (int64_t)S->mp->vmem_bytes;
	}
	B->vmem_limit = limit;
	B->vmem_reserve = limit / RESERVE_DIV;
	B->vmem_used = budget_vmem(S->mp, k, NULL, NULL) + B->vmem_reserve;
	if (B->vmem_used <= limit)
		return;
	se_error(S, k->loc, "kernel '%s' needs %s of VMEM but %s has %s",
	    k->name, human(S, B->vmem_used), k->params.vmem_limit ?
	    "its vmem_limit" : arena_printf(S->a, "preset '%s'", S->mp->name),
	    human(S, limit));
	table_notes(S, k, MEM_VMEM);
	suggest(S, k, limit - B->vmem_reserve);
}

static void
smem(Sema *S, CKernel *k)
{
	CBudget *B = &k->budget;

	B->smem_limit = (int64_t)S->mp->smem_bytes;
	if (B->smem_used <= B->smem_limit)
		return;
	se_error(S, k->loc, "kernel '%s' needs %s of SMEM but preset '%s' has "
	    "%s", k->name, human(S, B->smem_used), S->mp->name,
	    human(S, B->smem_limit));
	table_notes(S, k, MEM_SMEM);
	se_note(S, k->loc, "SMEM holds scalar tables; keep them small or "
	    "split the kernel");
}

void
budget_check(Sema *S, CKernel *k)
{
	int i;

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
		row(S, k, o->name, role_name(o->role), o->mem, o->dtype,
		    &o->block, o->buffers, o->block_bytes * o->buffers);
		if (o->mem == MEM_SMEM)
			k->budget.smem_used += o->block_bytes * o->buffers;
	}
	for (i = 0; i < k->nscratch; i++) {
		CScratch *c = &k->scratch[i];
		row(S, k, c->name, "scratch", c->mem, c->dtype, &c->shape, 1,
		    c->bytes);
		if (c->mem == MEM_SMEM)
			k->budget.smem_used += c->bytes;
	}
	vmem(S, k);
	row(S, k, "(reserve)", "internal", MEM_VMEM, DT_I8,
	    &(Shape){ 1, { k->budget.vmem_reserve } }, 1,
	    k->budget.vmem_reserve);
	smem(S, k);
}
