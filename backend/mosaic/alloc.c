/*
 * alloc.c - memory layout of a kernel instance: VMEM and SMEM offsets of
 * block slots, scratch, the body's internal buffers, the SMEM argument
 * table, DMA descriptors and SMEM tables; sync flags.
 *
 * Needs:    a checked kernel and its pipeline plan (buffer counts), the
 *           lowering's VMEM requests.
 * Gives:    mosaic_alloc() (plan.h).
 * Layout (a linear scan, in this order; nothing is freed or reused, so
 * no two buffers overlap):
 *   VMEM  block slots of VMEM operands (operand order, slot 0 then 1),
 *         VMEM scratch, internal requests; each rounded up to and
 *         aligned on one vreg tile (sublanes x lanes x 4 bytes);
 *   SMEM  the argument table (one 8-byte HBM address per operand, in
 *         operand order, at 0), one 64-byte DMA descriptor per SMEM
 *         table and per windowed operand, SMEM tables, SMEM block slots,
 *         SMEM scratch; 8-byte aligned;
 *   flags one for the prologue's table copies, one per block slot
 *         (its copy-in and write-back completions), one per element of
 *         semaphore scratch.
 * Limits: VMEM the kernel's vmem_limit (sema's budget: the preset's VMEM
 * unless params say less), SMEM and flags the preset's.
 * Tests:    tests/unit/check_pipeline.c
 */
#include <string.h>

#include "backend/mosaic/plan.h"

#define SMEM_ALIGN 8
#define DESC_BYTES 64		/* MACH_DMA_WORDS 32-bit words */
#define ARG_BYTES 8

typedef struct Al {
	const CKernel *k;
	const MosaicPlan *p;
	MosaicAlloc *al;
	VEC(AllocRow) row;
	Diag *d;
	Arena *a;
	int64_t vtop, stop;
	int ftop;
	int bad;
} Al;

static int64_t
roundup(int64_t x, int64_t m)
{
	return (x + m - 1) / m * m;
}

static const char *
what(AllocKind k)
{
	static const char *const name[NALLOCKIND] = {
		[AK_BLOCK] = "block", [AK_SCRATCH] = "scratch",
		[AK_SEM] = "semaphore", [AK_INTERNAL] = "internal buffer",
		[AK_ARGS] = "argument table", [AK_DESC] = "DMA descriptors",
		[AK_TABLE] = "SMEM table", [AK_FLAG] = "sync flag",
	};
	return name[k];
}

/* An error naming the row that crossed a limit. */
static void
overflow(Al *A, const AllocRow *r, Loc loc, const char *mem, int64_t need,
    int64_t limit, const char *whose)
{
	if (A->bad)
		return;
	A->bad = 1;
	diag_error(A->d, loc, "%s '%s' of kernel '%s' does not fit: the "
	    "kernel needs %lld bytes of %s but %s has %lld", what(r->kind),
	    r->name, A->k->name, (long long)need, mem, whose,
	    (long long)limit);
}

static Loc
row_loc(const Al *A, const AllocRow *r)
{
	if (r->index < 0)
		return A->k->loc;
	if (r->kind == AK_BLOCK || r->kind == AK_TABLE)
		return A->k->op[r->index].loc;
	if (r->kind == AK_SCRATCH || r->kind == AK_SEM)
		return A->k->scratch[r->index].loc;
	return A->k->loc;
}

/* Places one row (slots of 'bytes') in its memory; returns its index. */
static int
place(Al *A, const char *name, AllocKind kind, MemSpace mem, int index,
    int64_t bytes, int nbuf)
{
	const MachPreset *mp = A->k->preset;
	AllocRow r = { name, kind, mem, index, 0, bytes, bytes, nbuf, -1, 0 };

	if (mem == MEM_VMEM) {
		r.stride = r.bytes = roundup(bytes, A->al->vmem_align);
		r.offset = A->vtop;
		A->vtop += r.stride * nbuf;
		if (A->vtop > A->al->vmem_limit)
			overflow(A, &r, row_loc(A, &r), "VMEM", A->vtop,
			    A->al->vmem_limit, A->k->params.vmem_limit ?
			    "its vmem_limit" : arena_printf(A->a,
			    "preset '%s'", mp->name));
	} else if (mem == MEM_SMEM) {
		r.stride = roundup(bytes, A->al->smem_align);
		r.offset = A->stop;
		A->stop += r.stride * nbuf;
		if (A->stop > A->al->smem_limit)
			overflow(A, &r, row_loc(A, &r), "SMEM", A->stop,
			    A->al->smem_limit, arena_printf(A->a,
			    "preset '%s'", mp->name));
	}
	vec_push(A->a, &A->row, r);
	return A->row.n - 1;
}

static void
flags(Al *A, int row, int n)
{
	AllocRow *r = &A->row.v[row];

	r->flag = A->ftop;
	r->nflag = n;
	A->ftop += n;
	if (A->ftop > A->al->flag_limit && !A->bad) {
		A->bad = 1;
		diag_error(A->d, row_loc(A, r), "%s '%s' of kernel '%s' needs "
		    "sync flags past the %d of preset '%s'", what(r->kind),
		    r->name, A->k->name, A->al->flag_limit, A->k->preset->name);
	}
}

static int
is_sem(DType t)
{
	return t == DT_SEM || t == DT_DMA_SEM;
}

/* SMEM: argument table, descriptors, tables. */
static void
smem_head(Al *A)
{
	const CKernel *k = A->k;
	MosaicAlloc *al = A->al;
	int i, ndesc = 0, row;

	row = place(A, "(arguments)", AK_ARGS, MEM_SMEM, -1,
	    (int64_t)k->nop * ARG_BYTES, 1);
	for (i = 0; i < k->nop; i++)
		al->arg[i] = A->row.v[row].offset + (int64_t)i * ARG_BYTES;
	for (i = 0; i < k->nop; i++)
		ndesc += k->op[i].role == ROLE_SMEM_TABLE ||
		    A->p->op[i].windowed;
	row = place(A, "(descriptors)", AK_DESC, MEM_SMEM, -1,
	    (int64_t)ndesc * DESC_BYTES, 1);
	ndesc = 0;
	for (i = 0; i < k->nop; i++) {
		al->desc[i] = -1;
		if (k->op[i].role == ROLE_SMEM_TABLE || A->p->op[i].windowed)
			al->desc[i] = A->row.v[row].offset +
			    (int64_t)ndesc++ * DESC_BYTES;
	}
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE)
			al->op_row[i] = place(A, k->op[i].name, AK_TABLE,
			    MEM_SMEM, i, k->op[i].block_bytes, 1);
}

static void
blocks(Al *A)
{
	const CKernel *k = A->k;
	int i;

	if (A->p->tables) {
		int row = place(A, "(tables)", AK_FLAG, MEM_ANY, -1, 0, 1);
		flags(A, row, 1);
		A->al->table_flag = A->row.v[row].flag;
	}
	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		int nb = A->p->op[i].nbuf;
		if (!A->p->op[i].windowed)
			continue;
		A->al->op_row[i] = place(A, o->name, AK_BLOCK, o->mem, i,
		    o->block_bytes, nb);
		flags(A, A->al->op_row[i], nb);
	}
}

static void
scratch(Al *A)
{
	const CKernel *k = A->k;
	int i;

	for (i = 0; i < k->nscratch; i++) {
		const CScratch *c = &k->scratch[i];
		if (is_sem(c->dtype)) {
			A->al->scr_row[i] = place(A, c->name, AK_SEM, MEM_ANY,
			    i, 0, 1);
			flags(A, A->al->scr_row[i],
			    (int)shape_numel(&c->shape));
			continue;
		}
		A->al->scr_row[i] = place(A, c->name, AK_SCRATCH, c->mem, i,
		    c->mem == MEM_SMEM ? roundup(shape_numel(&c->shape) * 4,
		    SMEM_ALIGN) : c->bytes, 1);
	}
}

static void
init(Al *A, const CKernel *k, const MosaicPlan *p, int nreq, Diag *d,
    Arena *a)
{
	const MachPreset *mp = k->preset;
	MosaicAlloc *al;
	size_t no = (size_t)k->nop + 1;

	if (!mp || p->k != k)
		bug("mosaic_alloc: kernel '%s' without a preset or plan",
		    k->name);
	memset(A, 0, sizeof *A);
	A->k = k;
	A->p = p;
	A->d = d;
	A->a = a;
	A->al = al = arena_alloc(a, sizeof *al);
	al->op_row = arena_alloc(a, sizeof(int) * no);
	al->scr_row = arena_alloc(a, sizeof(int) * ((size_t)k->nscratch + 1));
	al->req_row = arena_alloc(a, sizeof(int) * ((size_t)nreq + 1));
	al->arg = arena_alloc(a, sizeof(int64_t) * no);
	al->desc = arena_alloc(a, sizeof(int64_t) * no);
	memset(al->op_row, -1, sizeof(int) * no);
	al->table_flag = -1;
	al->vmem_align = (int64_t)mp->sublanes * mp->lanes * 4;
	al->smem_align = SMEM_ALIGN;
	al->vmem_limit = k->budget.vmem_limit ? k->budget.vmem_limit :
	    (int64_t)mp->vmem_bytes;
	al->smem_limit = (int64_t)mp->smem_bytes;
	al->flag_limit = mp->nflag;
}

MosaicAlloc *
mosaic_alloc(const CKernel *k, const MosaicPlan *p, const AllocReq *req,
    int nreq, Diag *d, Arena *a)
{
	Al A;
	int i;

	init(&A, k, p, nreq, d, a);
	smem_head(&A);
	blocks(&A);
	scratch(&A);
	for (i = 0; i < nreq; i++) {
		if (req[i].bytes < 0)
			bug("mosaic_alloc: request '%s' of %lld bytes",
			    req[i].name, (long long)req[i].bytes);
		A.al->req_row[i] = place(&A, req[i].name, AK_INTERNAL,
		    req[i].smem ? MEM_SMEM : MEM_VMEM, i, req[i].bytes, 1);
	}
	if (A.bad)
		return NULL;
	A.al->row = A.row.v;
	A.al->nrow = A.row.n;
	A.al->vmem_used = A.vtop;
	A.al->smem_used = A.stop;
	A.al->nflag = A.ftop;
	return A.al;
}
