/*
 * slice.c - indexing: loads from Refs (operands, scratch, SMEM tables)
 * and selections from values, with their items resolved to one CIdx per
 * dimension; and the alignment that can be proved of a dynamic start.
 *
 * Gives:    index_check() (for types.c), slice_check(),
 *           expr_known_multiple(), expr_proved_multiple() (sema.h).
 * Tests:    tests/diag/sema-slice-*.pk, sema-ref-*.pk
 */
#include <string.h>

#include "dsl/sema/sema.h"

static int64_t
gcd(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#define MULT_ANY ((int64_t)1 << 30)	/* 0 is a multiple of anything */

/* A multiple that e is known to be (proved: without multiple_of's
   promises). */
static int64_t
multiple(Sema *S, const CExpr *e, int proved)
{
	int i;
	int64_t a, b;

	for (i = 0; i < S->mult.n; i++)
		if (S->mult.v[i].key == e)
			return proved ? S->mult.v[i].p : S->mult.v[i].m;
	switch (e->op) {
	case CX_CONST:
		return e->u.cst.i == 0 ? MULT_ANY :
		    e->u.cst.i < 0 ? -e->u.cst.i : e->u.cst.i;
	case CX_SLOT:
		for (i = 0; i < S->mult.n; i++)
			if (S->mult.v[i].key == SLOT_KEY(e->u.slot))
				return proved ? S->mult.v[i].p :
				    S->mult.v[i].m;
		return 1;
	case CX_MUL:
	case CX_SHL:
		a = multiple(S, e->arg[0], proved);
		b = multiple(S, e->arg[1], proved);
		if (e->op == CX_SHL) {
			if (e->arg[1]->op != CX_CONST || e->arg[1]->u.cst.i > 20 ||
			    e->arg[1]->u.cst.i < 0)
				return a;
			b = (int64_t)1 << e->arg[1]->u.cst.i;
		}
		return a >= MULT_ANY / (b ? b : 1) ? MULT_ANY : a * b;
	case CX_ADD:
	case CX_SUB:
		return gcd(multiple(S, e->arg[0], proved),
		    multiple(S, e->arg[1], proved));
	default:
		return 1;
	}
}

/* The largest multiple we can prove e to be, or that multiple_of
   promises. */
int64_t
expr_known_multiple(Sema *S, const CExpr *e)
{
	return multiple(S, e, 0);
}

/* The same without multiple_of's promises. */
int64_t
expr_proved_multiple(Sema *S, const CExpr *e)
{
	return multiple(S, e, 1);
}

/* A compile-time integer operand of a slice. */
static int
slice_const(Sema *S, const Ast *e, int64_t *v)
{
	Ctx save = S->ctx;
	int rc;

	S->ctx = CTX_CONST;
	rc = const_eval(S, e, v);
	S->ctx = save;
	return rc;
}

static int
is_call(const Ast *e, const char *name)
{
	return e->kind == AST_CALL && strcmp(e->u.call.name.s, name) == 0;
}

/* An index expression: i32 scalar; static when it is a constant. */
static int
scalar_index(Sema *S, const Ast *e, CIdx *ix)
{
	CExpr *x = expr_check(S, e);

	if (!x)
		return -1;
	if (x->weak && x->dtype == DT_I32)
		x->weak = 0;
	if (!dtype_is_int(x->dtype) || x->shape.rank) {
		se_error(S, e->loc, "an index must be an integer scalar, not %s",
		    type_str(S, x->dtype, &x->shape));
		return -1;
	}
	if (x->op == CX_CONST)
		ix->start = x->u.cst.i;
	else {
		ix->dyn = x;
		ix->multiple = expr_known_multiple(S, x);
		/* a promise the compiled code relies on: checked at run
		   time (interpret mode too) */
		if (expr_proved_multiple(S, x) % ix->multiple)
			ix->promised = ix->multiple;
	}
	return 0;
}

static int
item_ds(Sema *S, const Ast *e, CIdx *ix)
{
	int64_t size;

	if (e->u.call.args.n != 2 || e->u.call.args.v[0]->kind == AST_KWARG ||
	    e->u.call.args.v[1]->kind == AST_KWARG) {
		se_error(S, e->loc, "ds takes 2 arguments (start, size), not %d",
		    e->u.call.args.n);
		return -1;
	}
	if (scalar_index(S, e->u.call.args.v[0], ix) ||
	    slice_const(S, e->u.call.args.v[1], &size))
		return -1;
	if (size <= 0) {
		se_error(S, e->u.call.args.v[1]->loc, "the size of ds is %lld; "
		    "it must be positive", (long long)size);
		return -1;
	}
	ix->size = size;
	return 0;
}

static int
item_range(Sema *S, const Ast *e, int64_t dim, CIdx *ix)
{
	int64_t lo = 0, hi = dim;

	if (e->u.slice.lo && slice_const(S, e->u.slice.lo, &lo))
		return -1;
	if (e->u.slice.hi && slice_const(S, e->u.slice.hi, &hi))
		return -1;
	if (lo < 0 || hi > dim || lo >= hi) {
		se_error(S, e->loc, "the range %lld:%lld is not inside the "
		    "dimension of size %lld", (long long)lo, (long long)hi,
		    (long long)dim);
		if (lo < 0 || hi < 0)
			se_note(S, e->loc, "negative indices do not count from "
			    "the end");
		return -1;
	}
	ix->start = lo;
	ix->size = hi - lo;
	return 0;
}

static int
item(Sema *S, const Ast *e, int64_t dim, CIdx *ix)
{
	ix->multiple = 1;
	ix->promised = 0;
	if (e->kind == AST_SLICE)
		return item_range(S, e, dim, ix);
	if (is_call(e, "ds")) {
		if (item_ds(S, e, ix))
			return -1;
	} else {
		if (scalar_index(S, e, ix))
			return -1;
		ix->size = 1;
		ix->squeeze = 1;
	}
	if (!ix->dyn && (ix->start < 0 || ix->start + ix->size > dim)) {
		se_error(S, e->loc, "index %lld%s is out of range for a "
		    "dimension of size %lld", (long long)ix->start,
		    ix->squeeze ? "" : arena_printf(S->a, " (size %lld)",
		    (long long)ix->size), (long long)dim);
		if (ix->start < 0)
			se_note(S, e->loc, "negative indices do not count from "
			    "the end");
		return -1;
	}
	if (ix->size > dim) {
		se_error(S, e->loc, "a slice of %lld elements does not fit in "
		    "a dimension of size %lld", (long long)ix->size,
		    (long long)dim);
		return -1;
	}
	return 0;
}

int
slice_check(Sema *S, const AstList *items, const Shape *shape, Loc loc,
    CSlice *sl, Shape *out)
{
	int i, d = 0, nell = 0, nreal = 0, bad = 0;

	for (i = 0; i < items->n; i++) {
		if (items->v[i]->kind == AST_ELLIPSIS)
			nell++;
		else
			nreal++;
	}
	if (nell > 1 || nreal > shape->rank) {
		se_error(S, loc, nell > 1 ? "'...' may appear only once" :
		    "%d indices for %d dimensions", nreal, shape->rank);
		return -1;
	}
	sl->n = shape->rank;
	sl->dim = arena_alloc(S->a, sizeof *sl->dim * (size_t)(shape->rank + 1));
	for (i = 0; i < shape->rank; i++) {
		sl->dim[i].size = shape->d[i];
		sl->dim[i].multiple = 1;
	}
	for (i = 0; i < items->n; i++) {
		if (items->v[i]->kind == AST_ELLIPSIS) {
			d += shape->rank - nreal;
			continue;
		}
		if (item(S, items->v[i], shape->d[d], &sl->dim[d]))
			bad = 1;
		d++;
	}
	out->rank = 0;
	for (i = 0; i < shape->rank; i++)
		if (!sl->dim[i].squeeze)
			out->d[out->rank++] = sl->dim[i].size;
	return bad ? -1 : 0;
}

/* The Ref behind a name, or -1 (a value). */
static int
ref_of(Sema *S, const Ast *base, CRef *r, Bind **bp)
{
	Bind *b;

	if (base->kind != AST_IDENT || !(b = scope_find(S, base->u.name)))
		return -1;
	*bp = b;
	if (b->kind == B_OPERAND) {
		r->kind = CREF_OPERAND;
		r->index = b->index;
		return 0;
	}
	if (b->kind == B_SCRATCH) {
		r->kind = CREF_SCRATCH;
		r->index = b->index;
		return 0;
	}
	return -1;
}

/* The shape and dtype the body sees through Ref r. */
void
ref_type(const CKernel *k, CRef r, DType *t, Shape *sh)
{
	if (r.kind == CREF_OPERAND) {
		*t = k->op[r.index].dtype;
		*sh = k->op[r.index].mem == MEM_VMEM ?
		    k->op[r.index].ref_shape : k->op[r.index].shape;
		if (k->op[r.index].mem == MEM_SMEM && k->op[r.index].blocked)
			*sh = k->op[r.index].ref_shape;
	} else {
		*t = k->scratch[r.index].dtype;
		*sh = k->scratch[r.index].shape;
	}
}

static int
load_allowed(Sema *S, const Ast *e, CRef r, const char *name)
{
	const CKernel *k = S->k;

	if (S->ctx == CTX_MAP && (r.kind != CREF_OPERAND ||
	    k->op[r.index].role != ROLE_SMEM_TABLE)) {
		se_error(S, e->loc, "an index map may read only SMEM tables; "
		    "'%s' is %s", name, r.kind == CREF_SCRATCH ? "scratch" :
		    "a pipelined operand");
		return -1;
	}
	if (r.kind == CREF_OPERAND && k->op[r.index].mem == MEM_ANY) {
		se_error(S, e->loc, "operand '%s' stays in HBM and cannot be "
		    "loaded", name);
		se_note(S, e->loc, "copy it into a VMEM scratch with dma_copy "
		    "or dma_start / dma_wait");
		return -1;
	}
	if (r.kind == CREF_SCRATCH && (k->scratch[r.index].dtype == DT_SEM ||
	    k->scratch[r.index].dtype == DT_DMA_SEM)) {
		se_error(S, e->loc, "semaphore '%s' cannot be read as a value",
		    name);
		return -1;
	}
	return 0;
}

/* A place: Ref + slice, for loads, stores, DMAs and semaphores. */
int
place_check(Sema *S, const Ast *e, CPlace *p, DType *t)
{
	Bind *b = NULL;
	Shape sh;
	const AstList *items;
	static const AstList none;

	if (e->kind == AST_INDEX) {
		if (ref_of(S, e->u.index.base, &p->ref, &b))
			return 1;	/* not a Ref */
		items = &e->u.index.items;
	} else if (ref_of(S, e, &p->ref, &b) == 0) {
		items = &none;	/* a bare Ref: the whole of it */
	} else
		return 1;
	ref_type(S->k, p->ref, t, &sh);
	return slice_check(S, items, &sh, e->loc, &p->sl, &p->shape) ? -1 : 0;
}

CExpr *
index_check(Sema *S, const Ast *e)
{
	CPlace p;
	DType t;
	CExpr *x, *base;
	Bind *b;
	int rc = S->k ? place_check(S, e, &p, &t) : 1;

	if (rc < 0)
		return NULL;
	if (rc == 0) {
		b = scope_find(S, e->u.index.base->u.name);
		if (load_allowed(S, e, p.ref, b->name))
			return NULL;
		x = cx_new(S, CX_LOAD, t, &p.shape, e->loc, 0);
		x->u.load.ref = p.ref;
		x->u.load.sl = p.sl;
		return x;
	}
	if (!(base = expr_check(S, e->u.index.base)))
		return NULL;
	x = cx_new(S, CX_SLICE, base->dtype, NULL, e->loc, 1);
	x->arg[0] = base;
	if (slice_check(S, &e->u.index.items, &base->shape, e->loc, &x->u.sl,
	    &x->shape))
		return NULL;
	return x;
}
