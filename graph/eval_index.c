/*
 * eval_index.c - the evaluator's indexed data movement: pad, reverse,
 * dynamic-slice, dynamic-update-slice, gather and scatter, with XLA's
 * index rules (start indices clamped so the slice fits; scatter skips
 * update elements that fall outside the operand).  Needs eval_array.c's
 * index walkers and the attribute text readers of attr_text.c.
 */
#include <stdio.h>
#include <string.h>

#include "graph/eval.h"

#define BIG ((int64_t)1 << 62)	/* beyond every dimension and offset */

static Val *
result(Ev *e, const HloInstr *in, HloType t)
{
	return ev_array(e, in, t, in->shape.rank, in->shape.dim);
}

/* Result index p - lo lands on an operand element every interior+1. */
Val *
ev_pad(Ev *e, const HloInstr *in, Val *a, Val *v)
{
	int64_t lo[HLO_MAXRANK], hi[HLO_MAXRANK], it[HLO_MAXRANK];
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off;
	Val *r = result(e, in, a->shape.type);
	int i, rank = a->shape.rank;

	if (!r)
		return NULL;
	hlo_padding_text(hlo_attr_get(in, "padding"), rank, lo, hi, it);
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		int inside = 1;
		for (off = 0, i = 0; i < rank && inside; i++) {
			int64_t p = idx[i] - lo[i];
			inside = p >= 0 && p % (it[i] + 1) == 0 &&
			    p / (it[i] + 1) < a->shape.dim[i];
			off += p / (it[i] + 1) * sa[i];
		}
		r->v[k] = inside ? a->v[off] : v->v[0];
	}
	return r;
}

Val *
ev_reverse(Ev *e, const HloInstr *in, Val *a)
{
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], k, off;
	Val *r = result(e, in, a->shape.type);
	int rev[HLO_MAXRANK] = {0}, i;

	if (!r)
		return NULL;
	for (i = 0; i < in->dims.n; i++)
		rev[in->dims.v[i]] = 1;
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		for (off = 0, i = 0; i < a->shape.rank; i++)
			off += (rev[i] ? a->shape.dim[i] - 1 - idx[i] : idx[i]) *
			    sa[i];
		r->v[k] = a->v[off];
	}
	return r;
}

/*
 * Element k of an index operand as an int64_t, exact for s64; a u64
 * above INT64_MAX becomes INT64_MAX, which is out of range (or clamps)
 * just as the value itself is.
 */
static int64_t
index_at(const Val *v, int64_t k)
{
	HloType t = v->shape.type;

	if (hlo_type_is_float(t))
		return ev_from_double(HT_S64, v->v[k].f).i;
	return t == HT_U64 && v->v[k].i < 0 ? INT64_MAX : v->v[k].i;
}

/* Start indices from ops[0..) (scalars or one vector), clamped to fit. */
static void
clamped_starts(Val **ops, int n, const HloShape *a, const int64_t *size,
    int64_t *st)
{
	int i;

	for (i = 0; i < a->rank; i++) {
		int64_t x = n == 1 && ops[0]->shape.rank == 1 ?
		    index_at(ops[0], i) : index_at(ops[i], 0);
		int64_t hi = a->dim[i] - size[i];
		st[i] = x < 0 ? 0 : x > hi ? hi : x;
	}
}

Val *
ev_dynamic_slice(Ev *e, const HloInstr *in, Val **ops)
{
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], st[HLO_MAXRANK], k;
	Val *a = ops[0], *r = result(e, in, a->shape.type);
	int i;

	if (!r)
		return NULL;
	clamped_starts(ops + 1, in->noperand - 1, &a->shape, r->shape.dim, st);
	ev_strides(&a->shape, sa);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		int64_t off = 0;
		for (i = 0; i < a->shape.rank; i++)
			off += (st[i] + idx[i]) * sa[i];
		r->v[k] = a->v[off];
	}
	return r;
}

Val *
ev_dynamic_update_slice(Ev *e, const HloInstr *in, Val **ops)
{
	int64_t idx[HLO_MAXRANK] = {0}, sa[HLO_MAXRANK], st[HLO_MAXRANK], k;
	Val *a = ops[0], *u = ops[1], *r = result(e, in, a->shape.type);
	int i;

	if (!r)
		return NULL;
	memcpy(r->v, a->v, (size_t)a->n * sizeof *a->v);
	clamped_starts(ops + 2, in->noperand - 2, &a->shape, u->shape.dim, st);
	ev_strides(&a->shape, sa);
	for (k = 0; k < u->n; k++, ev_next_index(idx, &u->shape)) {
		int64_t off = 0;
		for (i = 0; i < a->shape.rank; i++)
			off += (st[i] + idx[i]) * sa[i];
		r->v[off] = u->v[k];
	}
	return r;
}

/*
 * Gather and scatter dimension numbers.  'window' are the result (or
 * update) dimensions that index within a slice, 'skipped' the operand
 * dimensions of size 1 that the slice drops (collapsed / inserted),
 * 'map' the operand dimension each index vector element starts, and
 * the batching dimensions (operand_batching_dims / input_batching_dims
 * with their start_indices / scatter_indices partners), which the slice
 * drops too and whose operand index is the batch's own.
 */
typedef struct GDims {
	int64_t window[HLO_MAXRANK], skipped[HLO_MAXRANK];
	int64_t map[HLO_MAXRANK], size[HLO_MAXRANK], ivd;
	/* batching: operand dim bop[k] takes the index of indices dim
	   bidx[k] (one batch of the operand per batch of the indices) */
	int64_t bop[HLO_MAXRANK], bidx[HLO_MAXRANK];
	int nwindow, nskipped, nmap, nbatch;
} GDims;

static int
listed(const int64_t *v, int n, int64_t d)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == d)
			return 1;
	return 0;
}

static int
gdims(Ev *e, const HloInstr *in, GDims *g, const char *const *names,
    const HloShape *a, const HloShape *idx, const HloShape *out)
{
	int64_t ivd[1];
	int i, j, ok;

	g->nwindow = hlo_attr_ints(in, names[0], g->window, HLO_MAXRANK);
	g->nskipped = hlo_attr_ints(in, names[1], g->skipped, HLO_MAXRANK);
	g->nmap = hlo_attr_ints(in, names[2], g->map, HLO_MAXRANK);
	ok = g->nwindow >= 0 && g->nskipped >= 0 && g->nmap >= 0;
	g->ivd = idx->rank;
	if (hlo_attr_get(in, "index_vector_dim")) {
		char text[40];
		snprintf(text, sizeof text, "{%s}",
		    hlo_attr_get(in, "index_vector_dim"));
		ok = ok && hlo_ints_text(text, ivd, 1) == 1;
		g->ivd = ivd[0];
	}
	g->nbatch = 0;
	if (hlo_attr_get(in, names[3])) {
		g->nbatch = hlo_attr_ints(in, names[3], g->bop, HLO_MAXRANK);
		ok = ok && g->nbatch >= 0 && hlo_attr_ints(in, names[4],
		    g->bidx, HLO_MAXRANK) == g->nbatch;
	}
	for (i = 0; ok && i < g->nbatch; i++)
		ok = g->bop[i] >= 0 && g->bop[i] < a->rank &&
		    !listed(g->skipped, g->nskipped, g->bop[i]) &&
		    !listed(g->bop, i, g->bop[i]) && g->bidx[i] >= 0 &&
		    g->bidx[i] < idx->rank && g->bidx[i] != g->ivd &&
		    a->dim[g->bop[i]] == idx->dim[g->bidx[i]];
	ok = ok && g->ivd >= 0 && g->ivd <= idx->rank &&
	    g->nwindow + g->nskipped + g->nbatch == a->rank &&
	    (g->ivd == idx->rank ? 1 : idx->dim[g->ivd]) == g->nmap;
	for (i = 0; ok && i < g->nmap; i++)
		ok = g->map[i] >= 0 && g->map[i] < a->rank;
	for (i = 0; ok && i < g->nskipped; i++)
		ok = g->skipped[i] >= 0 && g->skipped[i] < a->rank &&
		    !listed(g->skipped, i, g->skipped[i]);
	for (i = 0; ok && i < g->nwindow; i++)
		ok = g->window[i] >= 0 && g->window[i] < out->rank;
	ok = ok && out->rank - g->nwindow == idx->rank -
	    (g->ivd < idx->rank);
	for (i = 0, j = 0; ok && i < out->rank; i++) {
		if (listed(g->window, g->nwindow, i))
			continue;
		if (j == g->ivd)
			j++;
		ok = out->dim[i] == idx->dim[j++];	/* batch sizes */
	}
	if (!ok)
		ev_fail(e, in, "the dimension numbers of '%s' do not fit its "
		    "operands", hlo_op_name(in->op));
	return ok ? 0 : -1;
}

/* The index vector for batch position b (the non-window dims of out),
   and in si that position's index into the indices. */
static void
start_vector(const GDims *g, const Val *idx, const int64_t *outi,
    const HloShape *out, int64_t *sv, int64_t *si)
{
	int64_t st[HLO_MAXRANK], off;
	int i, j = 0, k;

	for (i = 0; i < out->rank; i++)
		if (!listed(g->window, g->nwindow, i)) {
			if (j == g->ivd)
				j++;
			si[j++] = outi[i];
		}
	ev_strides(&idx->shape, st);
	for (k = 0; k < g->nmap; k++) {
		if (g->ivd < idx->shape.rank)
			si[g->ivd] = k;
		for (off = 0, i = 0; i < idx->shape.rank; i++)
			off += si[i] * st[i];
		sv[k] = index_at(idx, off);
	}
}

/* The operand index of out index outi: start (clamped?) plus offset. */
static int
operand_index(const GDims *g, const Val *a, const Val *idx,
    const int64_t *outi, const HloShape *out, int clamp, int64_t *ai)
{
	int64_t sv[HLO_MAXRANK], si[HLO_MAXRANK + 1];
	int i, j = 0;

	start_vector(g, idx, outi, out, sv, si);
	memset(ai, 0, sizeof(int64_t) * HLO_MAXRANK);
	for (i = 0; i < g->nmap; i++) {
		int64_t d = g->map[i], hi = a->shape.dim[d] - g->size[d];
		/* unclamped, bounded so adding the offset cannot overflow */
		ai[d] = clamp ? (sv[i] < 0 ? 0 : sv[i] > hi ? hi : sv[i]) :
		    sv[i] < -BIG ? -BIG : sv[i] > BIG ? BIG : sv[i];
	}
	for (i = 0; i < g->nbatch; i++)
		ai[g->bop[i]] = si[g->bidx[i]];
	for (i = 0; i < a->shape.rank; i++) {
		if (listed(g->skipped, g->nskipped, i) ||
		    listed(g->bop, g->nbatch, i))
			continue;
		ai[i] += outi[g->window[j++]];
	}
	for (i = 0; i < a->shape.rank; i++)
		if (ai[i] < 0 || ai[i] >= a->shape.dim[i])
			return -1;
	return 0;
}

static int64_t
offset_of(const Val *a, const int64_t *ai)
{
	int64_t st[HLO_MAXRANK], off = 0;
	int i;

	ev_strides(&a->shape, st);
	for (i = 0; i < a->shape.rank; i++)
		off += ai[i] * st[i];
	return off;
}

Val *
ev_gather(Ev *e, const HloInstr *in, Val *a, Val *idx)
{
	static const char *const names[] = { "offset_dims",
	    "collapsed_slice_dims", "start_index_map",
	    "operand_batching_dims", "start_indices_batching_dims" };
	int64_t oi[HLO_MAXRANK] = {0}, ai[HLO_MAXRANK], k;
	Val *r = result(e, in, a->shape.type);
	GDims g;
	int i;

	if (!r || gdims(e, in, &g, names, &a->shape, &idx->shape,
	    &r->shape) != 0)
		return NULL;
	if (hlo_attr_ints(in, "slice_sizes", g.size, HLO_MAXRANK) !=
	    a->shape.rank) {
		ev_fail(e, in, "'gather' needs slice_sizes= for each operand "
		    "dimension");
		return NULL;
	}
	for (i = 0; i < a->shape.rank; i++)
		if (g.size[i] < 0 || g.size[i] > a->shape.dim[i]) {
			ev_fail(e, in, "slice size %lld of 'gather' does not "
			    "fit", (long long)g.size[i]);
			return NULL;
		}
	for (k = 0; k < r->n; k++, ev_next_index(oi, &r->shape)) {
		if (operand_index(&g, a, idx, oi, &r->shape, 1, ai) != 0) {
			ev_fail(e, in, "'gather' result does not match its "
			    "slice_sizes");
			return NULL;
		}
		r->v[k] = a->v[offset_of(a, ai)];
	}
	return r;
}

/*
 * scatter(operands..., indices, updates...): n operands updated in step,
 * the combiner taking the n current values and the n updates; update
 * elements out of range skip.
 */
Val *
ev_scatter(Ev *e, const HloInstr *in, Val **ops)
{
	static const char *const names[] = { "update_window_dims",
	    "inserted_window_dims", "scatter_dims_to_operand_dims",
	    "input_batching_dims", "scatter_indices_batching_dims" };
	int n = (in->noperand - 1) / 2, j;
	Val *a = ops[0], *idx = ops[n], *u = ops[n + 1], *r[HLO_MAXDEPTH];
	const HloComp *f = e->m->comp.v[in->callee];
	int64_t ui[HLO_MAXRANK] = {0}, ai[HLO_MAXRANK], k;
	HloElem acc[HLO_MAXDEPTH], up[HLO_MAXDEPTH];
	HloType t[HLO_MAXDEPTH];
	GDims g;

	for (j = 0; j < n; j++) {
		t[j] = ops[j]->shape.type;
		r[j] = ev_array(e, in, ops[j]->shape.type, a->shape.rank,
		    a->shape.dim);
		if (!r[j])
			return NULL;
		memcpy(r[j]->v, ops[j]->v, (size_t)a->n * sizeof *a->v);
	}
	if (gdims(e, in, &g, names, &a->shape, &idx->shape, &u->shape) != 0)
		return NULL;
	memset(g.size, 0, sizeof g.size);	/* starts are not clamped */
	for (k = 0; k < u->n; k++, ev_next_index(ui, &u->shape)) {
		int64_t off;
		if (operand_index(&g, a, idx, ui, &u->shape, 0, ai) != 0)
			continue;
		off = offset_of(a, ai);
		for (j = 0; j < n; j++) {
			acc[j] = r[j]->v[off];
			up[j] = ops[n + 1 + j]->v[k];
		}
		if (ev_apply(e, in, f, t, acc, up, n) != 0)
			return NULL;
		for (j = 0; j < n; j++)
			r[j]->v[off] = acc[j];
	}
	return n == 1 ? r[0] : ev_tuple(e, r, n, 0);
}
