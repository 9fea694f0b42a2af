/*
 * eval_ctrl.c - the evaluator's operations that call computations or walk
 * windows: sort (stable merge sort through the comparator), reduce-window,
 * convolution (direct, window and dilations as written; one feature and
 * batch group, no window reversal) and the control flow of while and
 * conditional.  A while loop keeps only its current state: each iteration
 * runs in a scratch arena and the state is copied out, so long loops use
 * constant memory.
 */
#include <string.h>

#include "graph/eval.h"

#define EVAL_MAXTRIPS ((int64_t)1 << 24)	/* while iterations */

static Val *
result(Ev *e, const HloInstr *in, const HloShape *s, HloType t)
{
	return ev_array(e, in, t, s->rank, s->dim);
}

Val *
ev_copy(Arena *a, const Val *v)
{
	Val *r = arena_alloc(a, sizeof *r);
	int i;

	*r = *v;
	r->refs = 1;
	r->heap = 0;
	r->base = NULL;
	if (v->shape.type == HT_TUPLE) {
		r->elem = arena_alloc(a, (size_t)(v->shape.ntuple ?
		    v->shape.ntuple : 1) * sizeof *r->elem);
		for (i = 0; i < v->shape.ntuple; i++)
			r->elem[i] = ev_copy(a, v->elem[i]);
		return r;
	}
	r->v = arena_alloc(a, (size_t)(v->n ? v->n : 1) * sizeof *r->v);
	memcpy(r->v, v->v, (size_t)v->n * sizeof *r->v);
	return r;
}

/* ---------------------------------------------------------------- sort */

typedef struct Sorter {
	Ev *e;
	const HloInstr *in;
	const HloComp *f;
	Val **ops;
	int n;
	int64_t base, step;	/* element j of the row: base + j * step */
} Sorter;

/* comparator(a, b): elements a and b of the row, operand by operand. */
static int
less(Sorter *s, int64_t a, int64_t b, int *lt)
{
	HloElem args[2 * HLO_MAXDEPTH], r;
	HloType t[2 * HLO_MAXDEPTH];
	int i;

	for (i = 0; i < s->n; i++) {
		t[2 * i] = t[2 * i + 1] = s->ops[i]->shape.type;
		args[2 * i] = s->ops[i]->v[s->base + a * s->step];
		args[2 * i + 1] = s->ops[i]->v[s->base + b * s->step];
	}
	if (ev_scalar_call(s->e, s->in, s->f, t, args, 2 * s->n, HT_PRED,
	    &r) != 0)
		return -1;
	*lt = r.i != 0;
	return 0;
}

/* Stable: the right element moves first only if it is strictly less. */
static int
merge_sort(Sorter *s, int64_t *v, int64_t *tmp, int64_t n)
{
	int64_t h = n / 2, i = 0, j = h, k = 0;
	int lt;

	if (n < 2)
		return 0;
	if (merge_sort(s, v, tmp, h) || merge_sort(s, v + h, tmp, n - h))
		return -1;
	while (i < h && j < n) {
		if (less(s, v[j], v[i], &lt) != 0)
			return -1;
		tmp[k++] = lt ? v[j++] : v[i++];
	}
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, (size_t)n * sizeof *v);
	return 0;
}

Val *
ev_sort(Ev *e, const HloInstr *in, Val **ops)
{
	const HloShape *s0 = &ops[0]->shape;
	int d = (int)in->dims.v[0], n = in->noperand, i;
	int64_t st[HLO_MAXRANK], len = s0->dim[d], k, j;
	Val *out[HLO_MAXDEPTH];
	int64_t *perm, *tmp;
	Sorter so = { e, in, e->m->comp.v[in->callee], ops, n, 0, 0 };

	for (i = 0; i < n; i++)
		if (!(out[i] = result(e, in, s0, ops[i]->shape.type)))
			return NULL;
	ev_strides(s0, st);
	so.step = st[d];
	perm = arena_alloc(e->a, (size_t)(len ? len : 1) * sizeof *perm);
	tmp = arena_alloc(e->a, (size_t)(len ? len : 1) * sizeof *tmp);
	for (k = 0; k < ops[0]->n; k++) {
		if ((k / st[d]) % (len ? len : 1) != 0)
			continue;	/* not the first element of a row */
		so.base = k;
		for (j = 0; j < len; j++)
			perm[j] = j;
		if (merge_sort(&so, perm, tmp, len) != 0)
			return NULL;
		for (i = 0; i < n; i++)
			for (j = 0; j < len; j++)
				out[i]->v[k + j * st[d]] =
				    ops[i]->v[k + perm[j] * st[d]];
	}
	return n == 1 ? out[0] : ev_tuple(e, out, n, 0);
}

/* ------------------------------------------------------ windows */

/* The result size of a windowed dimension (XLA's formula). */
static int64_t
window_out(const HloWindow *w, int i, int64_t d)
{
	int64_t in = (d > 0 ? (d - 1) * w->lhs_dilate[i] + 1 : 0) + w->lo[i] +
	    w->hi[i];
	int64_t win = (w->size[i] - 1) * w->rhs_dilate[i] + 1;

	return in < win ? 0 : (in - win) / w->stride[i] + 1;
}

/* The input position of output o, window w in dimension i; -1: padding. */
static int64_t
window_pos(const HloWindow *w, int i, int64_t o, int64_t k, int64_t d)
{
	int64_t p = o * w->stride[i] + k * w->rhs_dilate[i] - w->lo[i];

	if (p < 0 || p % w->lhs_dilate[i])
		return -1;
	p /= w->lhs_dilate[i];
	return p < d ? p : -1;
}

static int
window(Ev *e, const HloInstr *in, HloWindow *w, int rank)
{
	if (hlo_window_text(hlo_attr_get(in, "window"), w) != 0 ||
	    w->rank != rank) {
		ev_fail(e, in, "'%s' needs window={...} with %d dimensions",
		    hlo_op_name(in->op), rank);
		return -1;
	}
	if (w->reversed) {
		ev_fail(e, in, "window reversal is not supported by the "
		    "evaluator");
		return -1;
	}
	return 0;
}

static int
next_window(int64_t *k, const HloWindow *w)
{
	int i;

	for (i = w->rank - 1; i >= 0; i--) {
		if (++k[i] < w->size[i])
			return 1;
		k[i] = 0;
	}
	return 0;
}

/* One output element of reduce-window: padding contributes the init. */
static int
window_reduce(Ev *e, const HloInstr *in, Val **ops, int kk,
    const HloWindow *w, const int64_t *o, HloElem *acc)
{
	const HloComp *f = e->m->comp.v[in->callee];
	const HloShape *s = &ops[0]->shape;
	int64_t k[HLO_MAXRANK] = {0}, st[HLO_MAXRANK];
	HloElem x[HLO_MAXDEPTH];
	HloType t[HLO_MAXDEPTH];
	int i, j, swap = 0;
	HloOp op = kk == 1 ? ev_simple_reducer(f, &swap) : HLO_INVALID;

	ev_strides(s, st);
	for (j = 0; j < kk; j++)
		t[j] = ops[j]->shape.type;
	do {
		int64_t off = 0;
		for (i = 0; i < s->rank && off >= 0; i++) {
			int64_t p = window_pos(w, i, o[i], k[i], s->dim[i]);
			off = p < 0 ? -1 : off + p * st[i];
		}
		for (j = 0; j < kk; j++)
			x[j] = off < 0 ? ops[kk + j]->v[0] : ops[j]->v[off];
		if (op != HLO_INVALID)
			acc[0] = swap ? ev_binary(op, s->type, x[0], acc[0]) :
			    ev_binary(op, s->type, acc[0], x[0]);
		else if (ev_apply(e, in, f, t, acc, x, kk) != 0)
			return -1;
	} while (next_window(k, w));
	return 0;
}

Val *
ev_reduce_window(Ev *e, const HloInstr *in, Val **ops)
{
	int kk = in->noperand / 2, i, j;
	const HloShape *s = &ops[0]->shape;
	const HloShape *rs = kk == 1 ? &in->shape : &in->shape.elem[0];
	Val *out[HLO_MAXDEPTH];
	int64_t o[HLO_MAXRANK] = {0}, n;
	HloElem acc[HLO_MAXDEPTH];
	HloWindow w;

	if (window(e, in, &w, s->rank) != 0)
		return NULL;
	if (kk > 1 && (in->shape.type != HT_TUPLE || in->shape.ntuple != kk))
		rs = NULL;
	for (i = 0; rs && i < s->rank; i++)
		if (rs->rank != s->rank ||
		    rs->dim[i] != window_out(&w, i, s->dim[i]))
			rs = NULL;
	if (!rs) {
		ev_fail(e, in, "the result shape of 'reduce-window' does not "
		    "match its window");
		return NULL;
	}
	for (j = 0; j < kk; j++)
		if (!(out[j] = result(e, in, rs, ops[j]->shape.type)))
			return NULL;
	for (n = 0; n < out[0]->n; n++, ev_next_index(o, rs)) {
		for (j = 0; j < kk; j++)
			acc[j] = ops[kk + j]->v[0];
		if (window_reduce(e, in, ops, kk, &w, o, acc) != 0)
			return NULL;
		for (j = 0; j < kk; j++)
			out[j]->v[n] = acc[j];
	}
	return kk == 1 ? out[0] : ev_tuple(e, out, kk, 0);
}

/* --------------------------------------------------------- convolution */

typedef struct Conv {
	HloDimLabels l;
	HloWindow w;
	int64_t sa[HLO_MAXRANK], sb[HLO_MAXRANK];
} Conv;

/* 1 if the attribute is absent or "1". */
static int
one_group(const HloInstr *in, const char *name)
{
	const char *v = hlo_attr_get(in, name);

	return !v || strcmp(v, "1") == 0;
}

static int
conv_plan(Ev *e, const HloInstr *in, const Val *a, const Val *b, Conv *c)
{
	const HloDimLabels *l = &c->l;
	int i, ok;

	if (hlo_dim_labels_text(hlo_attr_get(in, "dim_labels"), &c->l) != 0 ||
	    c->l.nspatial + 2 != a->shape.rank ||
	    a->shape.rank != b->shape.rank ||
	    a->shape.rank != in->shape.rank) {
		ev_fail(e, in, "'convolution' needs dim_labels= that fit its "
		    "operands (like bf_io->bf or b01f_01io->b01f)");
		return -1;
	}
	if (!one_group(in, "feature_group_count") ||
	    !one_group(in, "batch_group_count")) {
		ev_fail(e, in, "grouped 'convolution' is not supported by the "
		    "evaluator");
		return -1;
	}
	if (window(e, in, &c->w, l->nspatial) != 0)
		return -1;
	ok = a->shape.dim[l->lf] == b->shape.dim[l->ki] &&
	    in->shape.dim[l->ob] == a->shape.dim[l->lb] &&
	    in->shape.dim[l->of] == b->shape.dim[l->ko];
	for (i = 0; ok && i < l->nspatial; i++)
		ok = b->shape.dim[l->ks[i]] == c->w.size[i] &&
		    in->shape.dim[l->os[i]] == window_out(&c->w, i,
		    a->shape.dim[l->ls[i]]);
	if (!ok) {
		ev_fail(e, in, "the shapes of 'convolution' do not match its "
		    "dim_labels and window");
		return -1;
	}
	ev_strides(&a->shape, c->sa);
	ev_strides(&b->shape, c->sb);
	return 0;
}

/* One output element: sum over input features and window positions. */
static EvSum
conv_sum(const Conv *c, int mode, const Val *a, const Val *b,
    const int64_t *o)
{
	const HloDimLabels *l = &c->l;
	int64_t k[HLO_MAXRANK] = {0}, f, nf = a->shape.dim[l->lf];
	EvSum sum = { 0, 0 };
	int i;

	do {
		int64_t oa = o[l->ob] * c->sa[l->lb];
		int64_t ob = o[l->of] * c->sb[l->ko];
		for (i = 0; i < l->nspatial && oa >= 0; i++) {
			int64_t p = window_pos(&c->w, i, o[l->os[i]], k[i],
			    a->shape.dim[l->ls[i]]);
			oa = p < 0 ? -1 : oa + p * c->sa[l->ls[i]];
			ob += k[i] * c->sb[l->ks[i]];
		}
		if (oa < 0)
			continue;
		for (f = 0; f < nf; f++)
			ev_mac(&sum, mode, a, oa + f * c->sa[l->lf], b,
			    ob + f * c->sb[l->ki]);
	} while (next_window(k, &c->w));
	return sum;
}

Val *
ev_convolution(Ev *e, const HloInstr *in, Val *a, Val *b)
{
	int64_t o[HLO_MAXRANK] = {0}, k;
	Val *r, *part[4];
	int passes, mode;
	EvSum sum;
	Conv c;

	if (conv_plan(e, in, a, b, &c) != 0 ||
	    !(r = result(e, in, &in->shape, in->shape.type)))
		return NULL;
	passes = ev_mxu_parts(e, in, a, b, part);
	mode = ev_sum_mode(a->shape.type, b->shape.type, r->shape.type);
	for (k = 0; k < r->n; k++, ev_next_index(o, &r->shape)) {
		if (passes) {
			sum = conv_sum(&c, mode, part[0], part[1], o);
			if (passes == 3)
				sum.f += conv_sum(&c, mode, part[2], part[1],
				    o).f + conv_sum(&c, mode, part[0], part[3],
				    o).f;
		} else
			sum = conv_sum(&c, mode, a, b, o);
		r->v[k] = ev_sum_result(r->shape.type, mode, sum);
	}
	return r;
}

/* ------------------------------------------------------- control flow */

static const HloComp *
comp_attr(Ev *e, const HloInstr *in, const char *attr)
{
	int k = hlo_attr_comp(e->m, in, attr);

	if (k < 0)
		ev_fail(e, in, "no %s computation", attr);
	return k < 0 ? NULL : e->m->comp.v[k];
}

Val *
ev_while(Ev *e, const HloInstr *in, Val *a)
{
	const HloComp *cond = comp_attr(e, in, "condition");
	const HloComp *body = comp_attr(e, in, "body");
	Arena cur = {0}, *outer = e->a;
	Val *state, *r = NULL;
	int64_t trips;

	if (!cond || !body)
		return NULL;
	state = ev_copy(&cur, a);
	for (trips = 0; !e->failed; trips++) {
		Arena tmp = {0}, next = {0};
		Val *c, *s;
		if (trips == EVAL_MAXTRIPS) {
			ev_fail(e, in, "'while' did not finish in %lld "
			    "iterations", (long long)EVAL_MAXTRIPS);
			break;
		}
		e->a = &tmp;
		c = ev_comp(e, cond, &state, 1);
		if (c && c->v[0].i == 0) {
			r = ev_copy(outer, state);
			ev_release(e, c);
			arena_free(&tmp);
			break;
		}
		ev_release(e, c);
		s = c ? ev_comp(e, body, &state, 1) : NULL;
		if (s)
			state = ev_copy(&next, s);
		ev_release(e, s);
		arena_free(&tmp);
		arena_free(&cur);
		cur = next;
	}
	e->a = outer;
	arena_free(&cur);
	return r;
}

/* The branch index: pred true is branch 0; an s32 out of range the last. */
Val *
ev_conditional(Ev *e, const HloInstr *in, Val **ops)
{
	int br[64], n = hlo_branches(e->m, in, br, 64), k;
	int64_t x = ops[0]->v[0].i;

	if (n < 1) {
		ev_fail(e, in, "no branch computations");
		return NULL;
	}
	if (ops[0]->shape.type == HT_PRED)
		k = x != 0 ? 0 : 1;
	else
		k = x < 0 || x >= n ? n - 1 : (int)x;
	return ev_comp(e, e->m->comp.v[br[k]], &ops[k + 1], 1);
}
