/*
 * eval_array.c - the evaluator's data movement (broadcast, transpose,
 * slice, concatenate, iota), reduce and dot.  Each walks the result (or
 * for reduce, the input) in row-major order with a multi-index, so the
 * order of every floating-point accumulation is fixed: reduce folds the
 * elements in increasing input index, dot sums in double and rounds once.
 */
#include <string.h>

#include "graph/eval.h"

void
ev_strides(const HloShape *s, int64_t *st)
{
	int64_t k = 1;
	int i;

	for (i = s->rank - 1; i >= 0; i--) {
		st[i] = k;
		k *= s->dim[i];
	}
}

void
ev_next_index(int64_t *idx, const HloShape *s)
{
	int d;

	for (d = s->rank - 1; d >= 0; d--) {
		if (++idx[d] < s->dim[d])
			return;
		idx[d] = 0;
	}
}

/* A result shaped like the instruction, with element type t. */
static Val *
result(Ev *e, const HloInstr *in, HloType t)
{
	return ev_array(e, in, t, in->shape.rank, in->shape.dim);
}

/* Operand dimension i is result dimension dims[i]. */
Val *
ev_broadcast(Ev *e, const HloInstr *in, Val *a)
{
	Val *r = result(e, in, a->shape.type);
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off;
	int i;

	if (!r)
		return NULL;
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		for (off = 0, i = 0; i < a->shape.rank; i++)
			off += idx[in->dims.v[i]] * sa[i];
		r->v[k] = a->v[off];
	}
	return r;
}

/* Result dimension i is operand dimension dims[i]. */
Val *
ev_transpose(Ev *e, const HloInstr *in, Val *a)
{
	Val *r = result(e, in, a->shape.type);
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off;
	int i;

	if (!r)
		return NULL;
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		for (off = 0, i = 0; i < r->shape.rank; i++)
			off += idx[i] * sa[in->dims.v[i]];
		r->v[k] = a->v[off];
	}
	return r;
}

Val *
ev_slice(Ev *e, const HloInstr *in, Val *a)
{
	Val *r = result(e, in, a->shape.type);
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off;
	int i;

	if (!r)
		return NULL;
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		for (off = 0, i = 0; i < r->shape.rank; i++)
			off += (in->slo.v[i] + idx[i] * in->sst.v[i]) * sa[i];
		r->v[k] = a->v[off];
	}
	return r;
}

Val *
ev_concatenate(Ev *e, const HloInstr *in, Val **ops)
{
	Val *r = result(e, in, ops[0]->shape.type);
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off, pos;
	int d = (int)in->dims.v[0], i, j;

	if (!r)
		return NULL;
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		pos = idx[d];
		for (j = 0; pos >= ops[j]->shape.dim[d]; j++)
			pos -= ops[j]->shape.dim[d];
		ev_strides(&ops[j]->shape, sa);
		for (off = 0, i = 0; i < r->shape.rank; i++)
			off += (i == d ? pos : idx[i]) * sa[i];
		r->v[k] = ops[j]->v[off];
	}
	return r;
}

Val *
ev_iota(Ev *e, const HloInstr *in)
{
	Val *r = result(e, in, in->shape.type);
	int64_t idx[HLO_MAXRANK] = {0}, k;

	for (k = 0; r && k < r->n; k++, ev_next_index(idx, &r->shape))
		r->v[k] = ev_from_double(r->shape.type, (double)idx[in->num]);
	return r;
}

HloOp
ev_simple_reducer(const HloComp *f, int *swap)
{
	const HloInstr *root = f->instr.v[f->root];
	const HloInstr *x, *y;

	if (f->nparam != 2 || hlo_op_class(root->op) != HC_BINARY)
		return HLO_INVALID;
	x = f->instr.v[root->operand[0]];
	y = f->instr.v[root->operand[1]];
	if (x->op != HLO_PARAMETER || y->op != HLO_PARAMETER || x->num == y->num)
		return HLO_INVALID;
	*swap = x->num == 1;
	return root->op;
}

/*
 * x of type 'from' passed as a 'to': as it is when both keep their
 * values in the same member of HloElem (as a double did for any two
 * types), else converted, so an integer is never read as a float.
 */
static HloElem
recast(HloType to, HloType from, HloElem x)
{
	if (hlo_type_is_float(to) == hlo_type_is_float(from))
		return x;
	return ev_convert(to, from, x);
}

int
ev_apply(Ev *e, const HloInstr *in, const HloComp *f, const HloType *t,
    HloElem *acc, const HloElem *x, int k)
{
	Arena tmp = {0}, *saved = e->a;
	Val *args[2 * HLO_MAXDEPTH], *r;
	int i;

	e->a = &tmp;
	for (i = 0; i < 2 * k && !e->failed; i++) {
		HloShape s = f->instr.v[0]->shape;
		const HloInstr *p = hlo_param(f, i);
		s = p ? p->shape : s;
		if ((args[i] = ev_array(e, in, s.type, 0, NULL)))
			args[i]->v[0] = recast(s.type, t[i % k], i < k ?
			    acc[i] : x[i - k]);
	}
	r = e->failed ? NULL : ev_comp(e, f, args, 2 * k);
	for (i = 0; r && i < k; i++) {
		const Val *ri = k == 1 ? r : r->elem[i];
		acc[i] = recast(t[i], ri->shape.type, ri->v[0]);
	}
	e->a = saved;
	arena_free(&tmp);
	return r ? 0 : -1;
}

int
ev_scalar_call(Ev *e, const HloInstr *in, const HloComp *f,
    const HloType *t, const HloElem *args, int n, HloType rt, HloElem *out)
{
	Arena tmp = {0}, *saved = e->a;
	Val *av[2 * HLO_MAXDEPTH], *r;
	int i;

	e->a = &tmp;
	for (i = 0; i < n && !e->failed; i++) {
		const HloInstr *p = hlo_param(f, i);
		HloType pt = p ? p->shape.type : t[i];
		if ((av[i] = ev_array(e, in, pt, 0, NULL)))
			av[i]->v[0] = recast(pt, t[i], args[i]);
	}
	r = e->failed ? NULL : ev_comp(e, f, av, n);
	if (r && r->shape.type != HT_TUPLE)
		*out = recast(rt, r->shape.type, r->v[0]);
	else if (r) {
		ev_fail(e, in, "the called computation returns a tuple");
		r = NULL;
	}
	e->a = saved;
	arena_free(&tmp);
	return r ? 0 : -1;
}

/* Output offset of input multi-index idx: the kept dimensions. */
static int64_t
out_offset(const HloInstr *in, const int64_t *idx, const HloShape *src,
    const int64_t *so)
{
	int64_t off = 0;
	int i, j, o = 0;

	for (i = 0; i < src->rank; i++) {
		for (j = 0; j < in->dims.n; j++)
			if (in->dims.v[j] == i)
				break;
		if (j == in->dims.n)
			off += idx[i] * so[o++];
	}
	return off;
}

static Val *
reduce_result(Ev *e, const HloInstr *in, Val **ops, int k, Val **out)
{
	const HloShape *s = k == 1 ? &in->shape : &in->shape.elem[0];
	int64_t i;
	int j;

	for (j = 0; j < k; j++) {
		HloType t = ops[j]->shape.type;
		if (!(out[j] = ev_array(e, in, t, s->rank, s->dim)))
			return NULL;
		for (i = 0; i < out[j]->n; i++)
			out[j]->v[i] = ops[k + j]->v[0];
	}
	return k == 1 ? out[0] : ev_tuple(e, out, k, 0);
}

Val *
ev_reduce(Ev *e, const HloInstr *in, Val **ops)
{
	const HloComp *f = e->m->comp.v[in->callee];
	int k = in->noperand / 2, j, swap = 0;
	Val *out[HLO_MAXDEPTH], *r = reduce_result(e, in, ops, k, out);
	const HloShape *src = &ops[0]->shape;
	int64_t idx[HLO_MAXRANK] = {0}, so[HLO_MAXRANK], n;
	HloOp op = k == 1 ? ev_simple_reducer(f, &swap) : HLO_INVALID;
	HloElem acc[HLO_MAXDEPTH], x[HLO_MAXDEPTH];
	HloType t[HLO_MAXDEPTH];

	if (!r)
		return NULL;
	for (j = 0; j < k; j++)
		t[j] = ops[j]->shape.type;
	ev_strides(&out[0]->shape, so);
	for (n = 0; n < ops[0]->n; n++, ev_next_index(idx, src)) {
		int64_t o = out_offset(in, idx, src, so);
		HloElem *a = &out[0]->v[o];
		if (op != HLO_INVALID) {
			*a = swap ? ev_binary(op, t[0], ops[0]->v[n], *a) :
			    ev_binary(op, t[0], *a, ops[0]->v[n]);
			continue;
		}
		for (j = 0; j < k; j++) {
			acc[j] = out[j]->v[o];
			x[j] = ops[j]->v[n];
		}
		if (ev_apply(e, in, f, t, acc, x, k) != 0)
			return NULL;
		for (j = 0; j < k; j++)
			out[j]->v[o] = acc[j];
	}
	return r;
}

typedef struct DotPlan {
	int nb, nc, nlf, nrf;
	const int64_t *lb, *rb, *lc, *rc;
	int lf[HLO_MAXRANK], rf[HLO_MAXRANK];
	int64_t sa[HLO_MAXRANK], sb[HLO_MAXRANK];
} DotPlan;

static int
is_listed(const HloInts *x, int d)
{
	int i;

	for (i = 0; i < x->n; i++)
		if (x->v[i] == d)
			return 1;
	return 0;
}

static void
dot_plan(DotPlan *p, const HloInstr *in, const Val *a, const Val *b)
{
	const HloInts *d = in->dot;
	int i;

	memset(p, 0, sizeof *p);
	p->nb = d[DOT_LHS_BATCH].n;
	p->nc = d[DOT_LHS_CONTRACT].n;
	p->lb = d[DOT_LHS_BATCH].v;
	p->rb = d[DOT_RHS_BATCH].v;
	p->lc = d[DOT_LHS_CONTRACT].v;
	p->rc = d[DOT_RHS_CONTRACT].v;
	for (i = 0; i < a->shape.rank; i++)
		if (!is_listed(&d[DOT_LHS_BATCH], i) &&
		    !is_listed(&d[DOT_LHS_CONTRACT], i))
			p->lf[p->nlf++] = i;
	for (i = 0; i < b->shape.rank; i++)
		if (!is_listed(&d[DOT_RHS_BATCH], i) &&
		    !is_listed(&d[DOT_RHS_CONTRACT], i))
			p->rf[p->nrf++] = i;
	ev_strides(&a->shape, p->sa);
	ev_strides(&b->shape, p->sb);
}

int
ev_sum_mode(HloType a, HloType b, HloType result)
{
	int fa = hlo_type_is_float(a), fb = hlo_type_is_float(b);
	int fr = hlo_type_is_float(result);

	if (fa && fb && fr)
		return EV_SUM_FLOAT;
	return !fa && !fb && !fr ? EV_SUM_INT : EV_SUM_MIXED;
}

HloElem
ev_sum_result(HloType t, int mode, EvSum s)
{
	HloElem x = { .i = (int64_t)s.i };

	return mode == EV_SUM_INT ? ev_convert(t, HT_S64, x) :
	    ev_from_double(t, s.f);
}

/* Sum over the contracting dimensions from the bases of a and b. */
static EvSum
dot_sum(const DotPlan *p, int mode, const Val *a, const Val *b, int64_t ba,
    int64_t bb)
{
	int64_t c[HLO_MAXRANK] = {0}, k, total = 1, oa, ob;
	EvSum sum = { 0, 0 };
	int i;

	if (p->nc == 1) {	/* the common case, in the same order */
		int64_t sa = p->sa[p->lc[0]], sb = p->sb[p->rc[0]];
		total = a->shape.dim[p->lc[0]];
		for (k = 0; k < total; k++)
			ev_mac(&sum, mode, a, ba + k * sa, b, bb + k * sb);
		return sum;
	}
	for (i = 0; i < p->nc; i++)
		total *= a->shape.dim[p->lc[i]];
	for (k = 0; k < total; k++) {
		for (oa = ba, ob = bb, i = 0; i < p->nc; i++) {
			oa += c[i] * p->sa[p->lc[i]];
			ob += c[i] * p->sb[p->rc[i]];
		}
		ev_mac(&sum, mode, a, oa, b, ob);
		for (i = p->nc - 1; i >= 0; i--) {
			if (++c[i] < a->shape.dim[p->lc[i]])
				break;
			c[i] = 0;
		}
	}
	return sum;
}

/* operand_precision: 0 default (or absent), 1 high, 2 highest. */
static int
precision(const HloInstr *in)
{
	int i;

	for (i = 0; i < in->attrs.n; i++)
		if (strcmp(in->attrs.v[i].name, "operand_precision") == 0)
			return strstr(in->attrs.v[i].value, "highest") ? 2 :
			    strstr(in->attrs.v[i].value, "high") ? 1 : 0;
	return 0;
}

/* x's elements rounded to bf16 (hi), or what that rounding left (lo). */
static Val *
bf16_part(Ev *e, const Val *x, int lo)
{
	Val *r = arena_alloc(e->a, sizeof *r);
	int64_t i;

	*r = *x;
	r->refs = 1;
	r->heap = 0;
	r->base = NULL;
	r->v = arena_alloc(e->a, (size_t)(x->n ? x->n : 1) * sizeof(double));
	for (i = 0; i < x->n; i++) {
		double h = ev_round(HT_BF16, x->v[i].f);
		r->v[i].f = lo ? ev_round(HT_BF16, x->v[i].f - h) : h;
	}
	return r;
}

int
ev_mxu_parts(Ev *e, const HloInstr *in, Val *a, Val *b, Val **part)
{
	int p;

	if (!(e->flags & HLO_EVAL_MXU_PRECISION) || a->shape.type != HT_F32 ||
	    (p = precision(in)) == 2)
		return 0;
	part[0] = bf16_part(e, a, 0);
	part[1] = bf16_part(e, b, 0);
	if (p == 0)
		return 1;
	part[2] = bf16_part(e, a, 1);
	part[3] = bf16_part(e, b, 1);
	return 3;
}

Val *
ev_dot(Ev *e, const HloInstr *in, Val *a, Val *b)
{
	Val *r = result(e, in, in->shape.type), *part[4];
	int64_t o[HLO_MAXRANK] = {0}, k, ba, bb;
	DotPlan p;
	EvSum sum;
	int i, passes, mode;

	if (!r)
		return NULL;
	passes = ev_mxu_parts(e, in, a, b, part);
	if (passes) {
		a = part[0];
		b = part[1];
	}
	dot_plan(&p, in, a, b);
	mode = ev_sum_mode(a->shape.type, b->shape.type, r->shape.type);
	for (k = 0; k < r->n; k++, ev_next_index(o, &r->shape)) {
		for (ba = bb = 0, i = 0; i < p.nb; i++) {
			ba += o[i] * p.sa[p.lb[i]];
			bb += o[i] * p.sb[p.rb[i]];
		}
		for (i = 0; i < p.nlf; i++)
			ba += o[p.nb + i] * p.sa[p.lf[i]];
		for (i = 0; i < p.nrf; i++)
			bb += o[p.nb + p.nlf + i] * p.sb[p.rf[i]];
		sum = dot_sum(&p, mode, a, b, ba, bb);
		if (passes == 3)
			sum.f += dot_sum(&p, mode, part[2], b, ba, bb).f +
			    dot_sum(&p, mode, a, part[3], ba, bb).f;
		r->v[k] = ev_sum_result(r->shape.type, mode, sum);
	}
	return r;
}
