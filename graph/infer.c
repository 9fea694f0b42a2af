/*
 * infer.c - HLO shape inference: the operand rules of each opcode and,
 * where XLA can infer it (elementwise ops, compare, select, transpose,
 * slice, concatenate, reduce, dot, tuple, get-tuple-element, call,
 * copy-done, pad, reverse, dynamic-update-slice, scatter, sort, while,
 * conditional, opt-barrier), the result shape.  The reader uses it for
 * instructions
 * written without a shape, the verifier to check every instruction.
 */
#include <stdarg.h>
#include <string.h>

#include "graph/graph.h"

typedef struct Ctx {
	const HloModule *m;
	const HloComp *c;
	const HloInstr *in;
	HloShape *out;
	char *why;
	size_t nwhy;
} Ctx;

static int PK_PRINTF(2, 3)
fail(Ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, x->nwhy, fmt, ap);
	va_end(ap);
	return HLO_INFER_ERROR;
}

static const HloShape *
opnd(const Ctx *x, int i)
{
	return &x->c->instr.v[x->in->operand[i]]->shape;
}

static const char *
opname(const Ctx *x)
{
	return hlo_op_name(x->in->op);
}

/* Shape text for messages, in a rotating static buffer. */
static const char *
str(const HloShape *s)
{
	static _Thread_local char buf[4][128];	/* JIT threads */
	static _Thread_local int k;
	Buf b = {0};
	char *r = buf[k++ & 3];

	hlo_shape_print(&b, s);
	snprintf(r, sizeof buf[0], "%s", b.p ? b.p : "");
	buf_free(&b);
	return r;
}

static int
set(Ctx *x, const HloShape *s)
{
	*x->out = *s;
	memset(&x->out->layout, 0, sizeof x->out->layout);
	return HLO_INFER_OK;
}

static int
arrays(Ctx *x)
{
	int i;

	for (i = 0; i < x->in->noperand; i++)
		if (opnd(x, i)->type == HT_TUPLE || opnd(x, i)->type == HT_TOKEN)
			return fail(x, "operand %d of '%s' must be an array, not "
			    "%s", i, opname(x), str(opnd(x, i)));
	return HLO_INFER_OK;
}

static int
same2(Ctx *x, int i, int j)
{
	if (!hlo_shape_same(opnd(x, i), opnd(x, j)))
		return fail(x, "operands of '%s' differ: %s and %s", opname(x),
		    str(opnd(x, i)), str(opnd(x, j)));
	return HLO_INFER_OK;
}

static int
same_dims_(const HloShape *a, const HloShape *b)
{
	return a->rank == b->rank &&
	    !memcmp(a->dim, b->dim, (size_t)a->rank * sizeof a->dim[0]);
}

static int
compare(Ctx *x)
{
	HloShape s;

	if (same2(x, 0, 1))
		return HLO_INFER_ERROR;
	s = *opnd(x, 0);
	s.type = HT_PRED;
	return set(x, &s);
}

/* select(pred, on_true, on_false); the predicate may be a scalar. */
static int
select_(Ctx *x)
{
	HloShape p = *opnd(x, 0);

	if (p.type != HT_PRED)
		return fail(x, "the first operand of 'select' must be pred, "
		    "not %s", str(&p));
	if (same2(x, 1, 2))
		return HLO_INFER_ERROR;
	p.type = opnd(x, 1)->type;
	if (p.rank && !hlo_shape_same(&p, opnd(x, 1)))
		return fail(x, "the predicate of 'select' has shape %s, the "
		    "values %s", str(opnd(x, 0)), str(opnd(x, 1)));
	return set(x, opnd(x, 1));
}

/* clamp(min, x, max): min and max are scalars or shaped like x. */
static int
clamp(Ctx *x)
{
	int i;

	for (i = 0; i < 3; i += 2)
		if (opnd(x, i)->type != opnd(x, 1)->type || (opnd(x, i)->rank &&
		    !hlo_shape_same(opnd(x, i), opnd(x, 1))))
			return fail(x, "bound %s of 'clamp' does not match %s",
			    str(opnd(x, i)), str(opnd(x, 1)));
	return set(x, opnd(x, 1));
}

/* ints must be distinct dimension numbers below rank. */
static int
dimlist(Ctx *x, const HloInts *d, int rank, const char *what)
{
	int i, j;

	for (i = 0; i < d->n; i++) {
		if (d->v[i] < 0 || d->v[i] >= rank)
			return fail(x, "%s of '%s' names dimension %lld of a "
			    "rank-%d operand", what, opname(x),
			    (long long)d->v[i], rank);
		for (j = 0; j < i; j++)
			if (d->v[j] == d->v[i])
				return fail(x, "%s of '%s' repeats dimension "
				    "%lld", what, opname(x), (long long)d->v[i]);
	}
	return HLO_INFER_OK;
}

static int
transpose(Ctx *x)
{
	const HloShape *a = opnd(x, 0);
	HloShape s = *a;
	int i;

	if (x->in->dims.n != a->rank)
		return fail(x, "'transpose' needs %d dimensions, not %d",
		    a->rank, x->in->dims.n);
	if (dimlist(x, &x->in->dims, a->rank, "dimensions"))
		return HLO_INFER_ERROR;
	for (i = 0; i < a->rank; i++)
		s.dim[i] = a->dim[x->in->dims.v[i]];
	return set(x, &s);
}

static int
slice(Ctx *x)
{
	const HloShape *a = opnd(x, 0);
	const HloInstr *in = x->in;
	HloShape s = *a;
	int i;

	if (in->slo.n != a->rank)
		return fail(x, "'slice' needs %d ranges, not %d", a->rank,
		    in->slo.n);
	for (i = 0; i < a->rank; i++) {
		int64_t lo = in->slo.v[i], hi = in->shi.v[i], st = in->sst.v[i];
		if (lo < 0 || lo > hi || hi > a->dim[i] || st <= 0)
			return fail(x, "slice range [%lld:%lld:%lld] does not "
			    "fit dimension %d of size %lld", (long long)lo,
			    (long long)hi, (long long)st, i, (long long)a->dim[i]);
		s.dim[i] = (hi - lo + st - 1) / st;
	}
	return set(x, &s);
}

static int
concatenate(Ctx *x)
{
	const HloShape *a = opnd(x, 0);
	HloShape s = *a;
	int64_t d;
	int i, j;

	if (x->in->dims.n != 1)
		return fail(x, "'concatenate' needs exactly one dimension");
	d = x->in->dims.v[0];
	if (d < 0 || d >= a->rank)
		return fail(x, "'concatenate' dimension %lld is not below rank %d",
		    (long long)d, a->rank);
	for (i = 1; i < x->in->noperand; i++) {
		const HloShape *b = opnd(x, i);
		int ok = b->type == a->type && b->rank == a->rank;
		for (j = 0; ok && j < a->rank; j++)
			ok = j == d || b->dim[j] == a->dim[j];
		if (!ok)
			return fail(x, "operand %d of 'concatenate' (%s) does not "
			    "match %s", i, str(b), str(a));
		s.dim[d] += b->dim[d];
	}
	return set(x, &s);
}

/* Callee parameters must match the operands (call, fusion). */
static int
callee_params(Ctx *x, const HloComp *f, int n)
{
	int i;

	if (f->nparam != n)
		return fail(x, "'%s' passes %d operands to '%s', which has %d "
		    "parameters", opname(x), n, f->name, f->nparam);
	for (i = 0; i < n; i++) {
		const HloInstr *p = hlo_param(f, i);
		if (p && !hlo_shape_same(&p->shape, opnd(x, i)))
			return fail(x, "operand %d of '%s' is %s, parameter %d "
			    "of '%s' is %s", i, opname(x), str(opnd(x, i)), i,
			    f->name, str(&p->shape));
	}
	return HLO_INFER_OK;
}

static const HloComp *
callee(const Ctx *x)
{
	int k = x->in->callee;

	return k >= 0 && k < x->m->comp.n ? x->m->comp.v[k] : NULL;
}

static const HloShape *
root_shape(const HloComp *f)
{
	return f->root >= 0 && f->root < f->instr.n ?
	    &f->instr.v[f->root]->shape : NULL;
}

/* reduce(inputs..., inits...): k arrays of one shape and k scalars. */
static int
reduce_check(Ctx *x, int k)
{
	const HloComp *f = callee(x);
	int i;

	for (i = 0; i < k; i++) {
		const HloShape *a = opnd(x, i), *init = opnd(x, k + i);
		if (i && (a->rank != opnd(x, 0)->rank ||
		    memcmp(a->dim, opnd(x, 0)->dim, sizeof a->dim)))
			return fail(x, "inputs of 'reduce' differ: %s and %s",
			    str(opnd(x, 0)), str(a));
		if (init->rank != 0 || init->type != a->type)
			return fail(x, "init value %d of 'reduce' must be a %s "
			    "scalar, not %s", i, hlo_type_name(a->type),
			    str(init));
	}
	if (!f || f->nparam != 2 * k)
		return fail(x, "the reducer of 'reduce' must take %d "
		    "parameters", 2 * k);
	return dimlist(x, &x->in->dims, opnd(x, 0)->rank, "dimensions");
}

static int
reduce(Ctx *x)
{
	HloShape el[HLO_MAXDEPTH], s;
	int k = x->in->noperand / 2, i, j;

	if (x->in->noperand < 2 || x->in->noperand % 2 || k > HLO_MAXDEPTH)
		return fail(x, "'reduce' takes inputs and as many init values, "
		    "not %d operands", x->in->noperand);
	if (reduce_check(x, k))
		return HLO_INFER_ERROR;
	s = *opnd(x, 0);
	s.rank = 0;
	for (i = 0; i < opnd(x, 0)->rank; i++) {
		for (j = 0; j < x->in->dims.n; j++)
			if (x->in->dims.v[j] == i)
				break;
		if (j == x->in->dims.n)
			s.dim[s.rank++] = opnd(x, 0)->dim[i];
	}
	if (k == 1)
		return set(x, &s);
	for (i = 0; i < k; i++) {
		el[i] = s;
		el[i].type = opnd(x, i)->type;
	}
	s = hlo_shape_tuple(x->m->arena, el, k);
	return set(x, &s);
}

static int
dot_check(Ctx *x, const HloShape *a, const HloShape *b)
{
	const HloInts *d = x->in->dot;
	int i;

	if (d[DOT_LHS_BATCH].n != d[DOT_RHS_BATCH].n ||
	    d[DOT_LHS_CONTRACT].n != d[DOT_RHS_CONTRACT].n)
		return fail(x, "'dot' has unpaired batch or contracting "
		    "dimensions");
	if (dimlist(x, &d[DOT_LHS_BATCH], a->rank, "lhs_batch_dims") ||
	    dimlist(x, &d[DOT_RHS_BATCH], b->rank, "rhs_batch_dims") ||
	    dimlist(x, &d[DOT_LHS_CONTRACT], a->rank, "lhs_contracting_dims") ||
	    dimlist(x, &d[DOT_RHS_CONTRACT], b->rank, "rhs_contracting_dims"))
		return HLO_INFER_ERROR;
	for (i = 0; i < d[DOT_LHS_BATCH].n; i++)
		if (a->dim[d[DOT_LHS_BATCH].v[i]] != b->dim[d[DOT_RHS_BATCH].v[i]])
			return fail(x, "batch dimensions of 'dot' differ in size");
	for (i = 0; i < d[DOT_LHS_CONTRACT].n; i++)
		if (a->dim[d[DOT_LHS_CONTRACT].v[i]] !=
		    b->dim[d[DOT_RHS_CONTRACT].v[i]])
			return fail(x, "contracting dimensions of 'dot' differ "
			    "in size: %s and %s", str(a), str(b));
	return HLO_INFER_OK;
}

static int
listed(const HloInts *a, const HloInts *b, int64_t k)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] == k)
			return 1;
	for (i = 0; i < b->n; i++)
		if (b->v[i] == k)
			return 1;
	return 0;
}

/* Result: batch dims, then lhs free dims, then rhs free dims. */
static int
dot(Ctx *x)
{
	const HloShape *a = opnd(x, 0), *b = opnd(x, 1);
	const HloInts *d = x->in->dot;
	HloShape s = *a;
	int i;

	if (dot_check(x, a, b))
		return HLO_INFER_ERROR;
	if (a->type != b->type)
		return fail(x, "operands of 'dot' have different element types "
		    "(%s, %s)", str(a), str(b));
	s.rank = 0;
	if (x->in->shape.type != HT_NONE && x->in->shape.type != HT_TUPLE)
		s.type = x->in->shape.type;	/* preferred element type */
	for (i = 0; i < d[DOT_LHS_BATCH].n; i++)
		s.dim[s.rank++] = a->dim[d[DOT_LHS_BATCH].v[i]];
	for (i = 0; i < a->rank; i++)
		if (!listed(&d[DOT_LHS_BATCH], &d[DOT_LHS_CONTRACT], i))
			s.dim[s.rank++] = a->dim[i];
	for (i = 0; i < b->rank; i++)
		if (!listed(&d[DOT_RHS_BATCH], &d[DOT_RHS_CONTRACT], i)) {
			if (s.rank == HLO_MAXRANK)
				return fail(x, "'dot' result has rank above %d",
				    HLO_MAXRANK);
			s.dim[s.rank++] = b->dim[i];
		}
	return set(x, &s);
}

static int
tuple(Ctx *x)
{
	VEC(HloShape) el = {0};
	HloShape s;
	int i;

	for (i = 0; i < x->in->noperand; i++)
		vec_push(x->m->arena, &el, *opnd(x, i));
	s = hlo_shape_tuple(x->m->arena, el.v, el.n);
	return set(x, &s);
}

static int
gte(Ctx *x)
{
	const HloShape *t = opnd(x, 0);

	if (t->type != HT_TUPLE)
		return fail(x, "'get-tuple-element' needs a tuple, not %s",
		    str(t));
	if (x->in->num >= t->ntuple)
		return fail(x, "tuple index %lld is out of range for %s",
		    (long long)x->in->num, str(t));
	*x->out = t->elem[x->in->num];
	return HLO_INFER_OK;
}

static int
calls(Ctx *x)
{
	const HloComp *f = callee(x);

	if (!f || !root_shape(f))
		return fail(x, "'%s' has no called computation", opname(x));
	if (callee_params(x, f, x->in->noperand))
		return HLO_INFER_ERROR;
	if (x->in->op == HLO_FUSION)
		return HLO_INFER_NONE;
	*x->out = *root_shape(f);
	return HLO_INFER_OK;
}

static int
copy_done(Ctx *x)
{
	const HloShape *t = opnd(x, 0);

	if (t->type != HT_TUPLE || t->ntuple < 2)
		return fail(x, "'copy-done' needs the tuple of a 'copy-start', "
		    "not %s", str(t));
	*x->out = t->elem[0];
	return HLO_INFER_OK;
}

/* pad(x, value), padding=lo_hi_interior x ... (negative lo/hi crop). */
static int
pad(Ctx *x)
{
	const HloShape *a = opnd(x, 0), *v = opnd(x, 1);
	int64_t lo[HLO_MAXRANK], hi[HLO_MAXRANK], in[HLO_MAXRANK];
	HloShape s = *a;
	int i;

	if (v->rank != 0 || v->type != a->type)
		return fail(x, "the padding value of 'pad' must be a %s scalar, "
		    "not %s", hlo_type_name(a->type), str(v));
	if (hlo_padding_text(hlo_attr_get(x->in, "padding"), a->rank, lo, hi,
	    in) != 0)
		return fail(x, "'pad' needs padding=lo_hi[_interior] for each "
		    "of its %d dimensions", a->rank);
	for (i = 0; i < a->rank; i++) {
		int64_t d = a->dim[i];
		s.dim[i] = lo[i] + hi[i] + d + (d > 0 ? (d - 1) * in[i] : 0);
		if (in[i] < 0 || s.dim[i] < 0)
			return fail(x, "padding of 'pad' gives dimension %d a "
			    "negative size", i);
	}
	return set(x, &s);
}

/* Operands from 'first' on are integer scalars (dynamic-slice starts). */
static int
starts(Ctx *x, int first, int rank)
{
	int i, n = x->in->noperand - first;

	if (n != rank && !(n == 1 && opnd(x, first)->rank == 1 &&
	    opnd(x, first)->dim[0] == rank))
		return fail(x, "'%s' needs %d start indices, not %d", opname(x),
		    rank, n);
	for (i = first; i < x->in->noperand; i++)
		if (!hlo_type_is_int(opnd(x, i)->type))
			return fail(x, "start index %d of '%s' must be an "
			    "integer, not %s", i - first, opname(x),
			    str(opnd(x, i)));
	return HLO_INFER_OK;
}

static int
dynamic_slice(Ctx *x)
{
	const HloShape *a = opnd(x, 0);
	int64_t sz[HLO_MAXRANK];
	int i;

	if (x->in->noperand < 1 || starts(x, 1, a->rank))
		return HLO_INFER_ERROR;
	if (hlo_attr_ints(x->in, "dynamic_slice_sizes", sz, HLO_MAXRANK) !=
	    a->rank)
		return fail(x, "'dynamic-slice' needs dynamic_slice_sizes= with "
		    "%d sizes", a->rank);
	for (i = 0; i < a->rank; i++)
		if (sz[i] < 0 || sz[i] > a->dim[i])
			return fail(x, "slice size %lld does not fit "
			    "dimension %d of %s", (long long)sz[i], i, str(a));
	return HLO_INFER_NONE;
}

static int
dynamic_update_slice(Ctx *x)
{
	const HloShape *a, *u;
	int i;

	if (x->in->noperand < 2)
		return fail(x, "'dynamic-update-slice' needs an operand, an "
		    "update and start indices");
	a = opnd(x, 0);
	u = opnd(x, 1);
	if (starts(x, 2, a->rank))
		return HLO_INFER_ERROR;
	if (u->type != a->type || u->rank != a->rank)
		return fail(x, "the update %s of 'dynamic-update-slice' does "
		    "not match %s", str(u), str(a));
	for (i = 0; i < a->rank; i++)
		if (u->dim[i] > a->dim[i])
			return fail(x, "the update %s of 'dynamic-update-slice' "
			    "is larger than %s", str(u), str(a));
	return set(x, a);
}

static int
reverse(Ctx *x)
{
	if (dimlist(x, &x->in->dims, opnd(x, 0)->rank, "dimensions"))
		return HLO_INFER_ERROR;
	return set(x, opnd(x, 0));
}

/* The computation's parameters are 'n' scalars; its root has 'root'. */
static int
scalar_comp(Ctx *x, const HloComp *f, int n, const char *what)
{
	int i;

	if (!f || f->nparam != n)
		return fail(x, "the %s of '%s' must take %d parameters", what,
		    opname(x), n);
	for (i = 0; i < n; i++) {
		const HloInstr *p = hlo_param(f, i);
		if (!p || p->shape.type == HT_TUPLE || p->shape.rank != 0)
			return fail(x, "parameter %d of the %s of '%s' must be "
			    "a scalar", i, what, opname(x));
	}
	return HLO_INFER_OK;
}

/* sort(x...): arrays of one shape; a comparator of 2n scalars. */
static int
sort(Ctx *x)
{
	HloShape el[HLO_MAXDEPTH];
	HloShape s;
	int n = x->in->noperand, i;

	if (n < 1 || n > HLO_MAXDEPTH)
		return fail(x, "'sort' takes 1 to %d operands", HLO_MAXDEPTH);
	for (i = 0; i < n; i++) {
		el[i] = *opnd(x, i);
		memset(&el[i].layout, 0, sizeof el[i].layout);
		if (!same_dims_(opnd(x, i), opnd(x, 0)))
			return fail(x, "operands of 'sort' differ: %s and %s",
			    str(opnd(x, 0)), str(opnd(x, i)));
	}
	if (x->in->dims.n != 1 || dimlist(x, &x->in->dims, el[0].rank,
	    "dimensions"))
		return x->in->dims.n != 1 ? fail(x, "'sort' needs exactly one "
		    "dimension") : HLO_INFER_ERROR;
	if (scalar_comp(x, callee(x), 2 * n, "comparator"))
		return HLO_INFER_ERROR;
	if (n == 1)
		return set(x, &el[0]);
	s = hlo_shape_tuple(x->m->arena, el, n);
	return set(x, &s);
}

/* scatter(operands..., indices, updates...): n arrays of one shape, as
   many updates of their types, a combiner of 2n scalars; a tuple for
   n > 1. */
static int
scatter(Ctx *x)
{
	HloShape el[HLO_MAXDEPTH], s;
	int n = (x->in->noperand - 1) / 2, i;

	if (x->in->noperand < 3 || x->in->noperand % 2 == 0 ||
	    n > HLO_MAXDEPTH)
		return fail(x, "'scatter' takes operands, indices and as many "
		    "updates, not %d operands", x->in->noperand);
	if (!hlo_type_is_int(opnd(x, n)->type))
		return fail(x, "the indices of 'scatter' must be integers, not "
		    "%s", str(opnd(x, n)));
	for (i = 0; i < n; i++) {
		if (!same_dims_(opnd(x, i), opnd(x, 0)))
			return fail(x, "operands of 'scatter' differ: %s and %s",
			    str(opnd(x, 0)), str(opnd(x, i)));
		if (opnd(x, n + 1 + i)->type != opnd(x, i)->type ||
		    !same_dims_(opnd(x, n + 1 + i), opnd(x, n + 1)))
			return fail(x, "the updates %s of 'scatter' do not "
			    "match %s", str(opnd(x, n + 1 + i)),
			    str(opnd(x, i)));
		el[i] = *opnd(x, i);
	}
	if (scalar_comp(x, callee(x), 2 * n, "combiner"))
		return HLO_INFER_ERROR;
	if (n == 1)
		return set(x, opnd(x, 0));
	s = hlo_shape_tuple(x->m->arena, el, n);
	return set(x, &s);
}

static int
reduce_window(Ctx *x)
{
	int k = x->in->noperand / 2, i;

	if (x->in->noperand < 2 || x->in->noperand % 2 || k > HLO_MAXDEPTH)
		return fail(x, "'reduce-window' takes inputs and as many init "
		    "values, not %d operands", x->in->noperand);
	for (i = 1; i < k; i++)
		if (!same_dims_(opnd(x, i), opnd(x, 0)))
			return fail(x, "inputs of 'reduce-window' differ: %s and "
			    "%s", str(opnd(x, 0)), str(opnd(x, i)));
	for (i = 0; i < k; i++)
		if (opnd(x, k + i)->rank != 0 ||
		    opnd(x, k + i)->type != opnd(x, i)->type)
			return fail(x, "init value %d of 'reduce-window' must "
			    "be a %s scalar", i,
			    hlo_type_name(opnd(x, i)->type));
	if (scalar_comp(x, callee(x), 2 * k, "reducer"))
		return HLO_INFER_ERROR;
	return HLO_INFER_NONE;
}

/* A computation named by attribute 'attr' with one parameter of shape p. */
static const HloComp *
named(Ctx *x, const char *attr, const HloShape *p, int *rc)
{
	int k = hlo_attr_comp(x->m, x->in, attr);
	const HloComp *f = k >= 0 ? x->m->comp.v[k] : NULL;
	const HloInstr *p0 = f ? hlo_param(f, 0) : NULL;

	*rc = HLO_INFER_OK;
	if (!f || !root_shape(f))
		*rc = fail(x, "'%s' needs %s= naming a computation defined "
		    "before it", opname(x), attr);
	else if (f->nparam != 1 || !p0 || !hlo_shape_same(&p0->shape, p))
		*rc = fail(x, "the %s computation '%s' of '%s' must take one "
		    "parameter of shape %s", attr, f->name, opname(x), str(p));
	return *rc ? NULL : f;
}

static int
while_(Ctx *x)
{
	const HloShape *a = opnd(x, 0), *r;
	const HloComp *cond, *body;
	int rc;

	if (!(cond = named(x, "condition", a, &rc)))
		return rc;
	if (!(body = named(x, "body", a, &rc)))
		return rc;
	r = root_shape(cond);
	if (r->type != HT_PRED || r->rank != 0)
		return fail(x, "the condition '%s' of 'while' must return "
		    "pred[], not %s", cond->name, str(r));
	if (!hlo_shape_same(root_shape(body), a))
		return fail(x, "the body '%s' of 'while' returns %s, not %s",
		    body->name, str(root_shape(body)), str(a));
	return set(x, a);
}

static int
conditional(Ctx *x)
{
	int br[64], n, i, rc;
	const HloShape *t;

	if (x->in->noperand < 1)
		return fail(x, "'conditional' needs a branch index");
	t = opnd(x, 0);
	n = hlo_branches(x->m, x->in, br, 64);
	if (n < 0)
		return fail(x, "'conditional' needs true_computation= and "
		    "false_computation=, or branch_computations={...}, naming "
		    "computations defined before it");
	if (t->rank != 0 || (hlo_attr_get(x->in, "branch_computations") ?
	    t->type != HT_S32 : t->type != HT_PRED))
		return fail(x, "the branch index of 'conditional' must be %s, "
		    "not %s", hlo_attr_get(x->in, "branch_computations") ?
		    "s32[]" : "pred[]", str(t));
	if (x->in->noperand != n + 1)
		return fail(x, "'conditional' with %d branches takes %d "
		    "operands, not %d", n, n + 1, x->in->noperand);
	for (i = 0; i < n; i++) {
		const HloComp *f = x->m->comp.v[br[i]];
		const HloInstr *p = hlo_param(f, 0);
		if (!root_shape(f) || f->nparam != 1 || !p ||
		    !hlo_shape_same(&p->shape, opnd(x, i + 1)))
			return fail(x, "branch '%s' of 'conditional' must take "
			    "one parameter of shape %s", f->name,
			    str(opnd(x, i + 1)));
		if (!hlo_shape_same(root_shape(f),
		    root_shape(x->m->comp.v[br[0]])))
			return fail(x, "the branches of 'conditional' return "
			    "different shapes");
	}
	rc = set(x, root_shape(x->m->comp.v[br[0]]));
	return rc;
}

static int
other(Ctx *x)
{
	switch (x->in->op) {
	case HLO_COMPARE: return arrays(x) ? HLO_INFER_ERROR : compare(x);
	case HLO_SELECT: return arrays(x) ? HLO_INFER_ERROR : select_(x);
	case HLO_CLAMP: return arrays(x) ? HLO_INFER_ERROR : clamp(x);
	case HLO_IS_FINITE: {
		HloShape s = *opnd(x, 0);
		if (arrays(x))
			return HLO_INFER_ERROR;
		s.type = HT_PRED;
		return set(x, &s);
	}
	case HLO_TRANSPOSE: return arrays(x) ? HLO_INFER_ERROR : transpose(x);
	case HLO_SLICE: return arrays(x) ? HLO_INFER_ERROR : slice(x);
	case HLO_CONCATENATE:
		if (x->in->noperand < 1)
			return fail(x, "'concatenate' needs operands");
		return arrays(x) ? HLO_INFER_ERROR : concatenate(x);
	case HLO_REDUCE: return arrays(x) ? HLO_INFER_ERROR : reduce(x);
	case HLO_DOT: return arrays(x) ? HLO_INFER_ERROR : dot(x);
	case HLO_TUPLE: return tuple(x);
	case HLO_GTE: return gte(x);
	case HLO_FUSION: case HLO_CALL: return calls(x);
	case HLO_COPY_DONE: return copy_done(x);
	case HLO_PAD: return arrays(x) ? HLO_INFER_ERROR : pad(x);
	case HLO_REVERSE: return arrays(x) ? HLO_INFER_ERROR : reverse(x);
	case HLO_DYNAMIC_SLICE:
		return arrays(x) ? HLO_INFER_ERROR : dynamic_slice(x);
	case HLO_DYNAMIC_UPDATE_SLICE:
		return arrays(x) ? HLO_INFER_ERROR : dynamic_update_slice(x);
	case HLO_SORT: return arrays(x) ? HLO_INFER_ERROR : sort(x);
	case HLO_SCATTER: return arrays(x) ? HLO_INFER_ERROR : scatter(x);
	case HLO_REDUCE_WINDOW:
		return arrays(x) ? HLO_INFER_ERROR : reduce_window(x);
	case HLO_WHILE: return while_(x);
	case HLO_CONDITIONAL: return conditional(x);
	case HLO_OPT_BARRIER: return set(x, opnd(x, 0));
	case HLO_CONVERT: case HLO_BROADCAST: case HLO_RESHAPE:
	case HLO_BITCAST: case HLO_COPY_START: case HLO_BITCAST_CONVERT:
	case HLO_GATHER: case HLO_CONVOLUTION:
		return arrays(x) ? HLO_INFER_ERROR : HLO_INFER_NONE;
	default:
		return HLO_INFER_NONE;
	}
}

int
hlo_infer_shape(const HloModule *m, const HloComp *c, const HloInstr *in,
    HloShape *out, char *why, size_t nwhy)
{
	Ctx x = { m, c, in, out, why, nwhy };
	int i, arity = hlo_op_arity(in->op);

	if (nwhy)
		why[0] = 0;
	for (i = 0; i < in->noperand; i++)
		if (c->instr.v[in->operand[i]]->op == HLO_INVALID)
			return HLO_INFER_ERROR;	/* reported already */
	if (arity >= 0 && in->noperand != arity)
		return fail(&x, "'%s' takes %d operand%s, not %d", opname(&x),
		    arity, arity == 1 ? "" : "s", in->noperand);
	switch (hlo_op_class(in->op)) {
	case HC_UNARY:
		return arrays(&x) ? HLO_INFER_ERROR : set(&x, opnd(&x, 0));
	case HC_BINARY:
		if (arrays(&x) || same2(&x, 0, 1))
			return HLO_INFER_ERROR;
		return set(&x, opnd(&x, 0));
	case HC_OTHER:
		return other(&x);
	default:
		return HLO_INFER_NONE;
	}
}
