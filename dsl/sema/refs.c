/*
 * refs.c - Ref misuse that needs the whole body: dynamic slices of the
 * last two dimensions of a VMEM Ref must start at a proved multiple of
 * the tile (sublanes x packing rows, lanes columns), by arithmetic
 * (c * 128, loop steps) or by a multiple_of(x, n) annotation.  Writes to
 * inputs and Refs used as values are reported where they are checked
 * (body.c, types.c); reads of outputs before writes in semantics.c.
 *
 * Gives:    refs_check(), refs_alignment() (sema.h).
 * Tests:    tests/diag/sema-align-*.pk
 */
#include "dsl/sema/sema.h"

static int
is_vmem(const CKernel *k, CRef r)
{
	if (r.kind == CREF_SCRATCH)
		return k->scratch[r.index].mem == MEM_VMEM;
	return k->op[r.index].mem == MEM_VMEM;
}

static const char *
ref_name(const CKernel *k, CRef r)
{
	return r.kind == CREF_SCRATCH ? k->scratch[r.index].name :
	    k->op[r.index].name;
}

int
refs_alignment(Sema *S, const CPlace *p, DType t, int vmem, Loc loc)
{
	int n = p->sl.n, d;

	if (!vmem)
		return 0;
	for (d = n - 2 < 0 ? 0 : n - 2; d < n; d++) {
		const CIdx *x = &p->sl.dim[d];
		int64_t unit = d == n - 1 ? S->mp->lanes :
		    (int64_t)S->mp->sublanes * dtype_packing(t);
		if (!x->dyn || x->squeeze || x->multiple % unit == 0)
			continue;
		se_error(S, x->dyn->loc, "the dynamic start of dimension %d of "
		    "'%s' is not known to be a multiple of %lld", d,
		    ref_name(S->k, p->ref), (long long)unit);
		se_note(S, x->dyn->loc, "slices of the last two dimensions "
		    "must be tile-aligned on preset '%s'; if it is, say so "
		    "with ds(multiple_of(start, %lld), size)", S->mp->name,
		    (long long)unit);
		return -1;
	}
	return 0;
}

static void
expr(Sema *S, const CExpr *e)
{
	int i;
	CPlace p;
	DType t;

	if (!e)
		return;
	for (i = 0; i < e->n; i++)
		expr(S, e->arg[i]);
	if (e->op != CX_LOAD)
		return;
	for (i = 0; i < e->u.load.sl.n; i++)
		expr(S, e->u.load.sl.dim[i].dyn);
	p.ref = e->u.load.ref;
	p.sl = e->u.load.sl;
	p.shape = e->shape;
	ref_type(S->k, p.ref, &t, &p.shape);
	refs_alignment(S, &p, t, is_vmem(S->k, p.ref), e->loc);
}

static void
place(Sema *S, const CPlace *p)
{
	DType t;
	Shape sh;
	int i;

	for (i = 0; i < p->sl.n; i++)
		expr(S, p->sl.dim[i].dyn);
	ref_type(S->k, p->ref, &t, &sh);
	refs_alignment(S, p, t, is_vmem(S->k, p->ref), S->k->loc);
}

static void
block(Sema *S, const CBlock *b)
{
	int i;

	for (i = 0; i < b->n; i++) {
		const CStmt *s = b->v[i];
		switch (s->kind) {
		case CS_LET: expr(S, s->u.let.value); break;
		case CS_STORE:
			place(S, &s->u.store.place);
			expr(S, s->u.store.value);
			break;
		case CS_WHEN:
			expr(S, s->u.when.cond);
			block(S, &s->u.when.then);
			block(S, &s->u.when.els);
			break;
		case CS_FOR:
			expr(S, s->u.loop.lo);
			expr(S, s->u.loop.hi);
			block(S, &s->u.loop.body);
			break;
		case CS_DMA_START: case CS_DMA_WAIT: case CS_DMA_COPY:
			place(S, &s->u.dma.src);
			place(S, &s->u.dma.dst);
			break;
		case CS_EVAL: case CS_RETURN: expr(S, s->u.value); break;
		case CS_CHECK: expr(S, s->u.check.cond); break;
		default: break;
		}
	}
}

void
refs_check(Sema *S, CKernel *k)
{
	(void)k;
	block(S, &S->k->body);
}
