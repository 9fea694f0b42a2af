/*
 * pass_algsimp_shape.c - the algebraic simplifier's data-movement rules:
 * no-op reshape, broadcast, transpose, slice, concatenate and convert
 * removed; reshape(reshape), broadcast(broadcast), transpose(transpose)
 * and slice(slice) merged into one; a transpose that only moves size-1
 * dimensions becomes a reshape (so it merges with its neighbours);
 * convert(convert) merged where the inner conversion loses nothing; a
 * reshape that only adds or drops size-1 dims moves from the operands of
 * an elementwise op to its result (XLA's ReshapeMover and TPU degenerate
 * dimension rewriter: the seed's RMS norm chain runs on f32[16], not
 * [16,1]).  Reshapes only ever move towards the users, so the rules
 * cannot undo each other.
 * They move or copy elements and never compute, so they are exact.
 * Rules that make a reshape need plain layouts: a reshape is only the
 * identity on memory (and the evaluator only reads it) in row-major order.
 */
#include <string.h>

#include "graph/eval.h"
#include "graph/pass_algsimp.h"

static int64_t *
ints(Simp *s, int n)
{
	return arena_alloc(s->m->arena, sizeof(int64_t) * ((size_t)n + 1));
}

static int
new_reshape(Simp *s, int x, const HloInstr *like)
{
	return simp_add(s->m, s->c, HLO_RESHAPE, &like->shape, &x, 1, like);
}

static int
reshape_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);

	if (hlo_shape_same(&in->shape, &x->shape))
		return algsimp_keep(s, i, in->operand[0]);
	if (!algsimp_plain(&in->shape))
		return -1;
	if ((x->op == HLO_RESHAPE || x->op == HLO_BITCAST) &&
	    algsimp_plain(&x->shape) &&
	    x->shape.type == SI(s, x->operand[0])->shape.type &&
	    algsimp_plain(&SI(s, x->operand[0])->shape))
		return new_reshape(s, x->operand[0], in);
	/* a reshaped broadcast scalar is a broadcast scalar */
	if (x->op == HLO_BROADCAST && SI(s, x->operand[0])->shape.rank == 0)
		return simp_broadcast(s->m, s->c, x->operand[0], &in->shape,
		    NULL, 0, in);
	return -1;
}

/* bitcast(bitcast or reshape(x)) -> bitcast(x), in row-major order */
static int
bitcast_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	const HloShape *src;

	if (hlo_shape_same(&in->shape, &x->shape))
		return algsimp_keep(s, i, in->operand[0]);
	if (x->op != HLO_BITCAST && x->op != HLO_RESHAPE)
		return -1;
	src = &SI(s, x->operand[0])->shape;
	if (!algsimp_plain(&in->shape) || !algsimp_plain(&x->shape) ||
	    !algsimp_plain(src) || src->type != in->shape.type ||
	    x->shape.type != in->shape.type)
		return -1;
	return simp_add(s->m, s->c, HLO_BITCAST, &in->shape, &x->operand[0], 1,
	    in);
}

static int
is_iota(const HloInts *d, int n)
{
	int k;

	if (d->n != n)
		return 0;
	for (k = 0; k < n; k++)
		if (d->v[k] != k)
			return 0;
	return 1;
}

static int
broadcast_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	int64_t *d;
	int k;

	if (x->shape.rank == in->shape.rank &&
	    is_iota(&in->dims, x->shape.rank))
		return algsimp_keep(s, i, in->operand[0]);
	if (x->op != HLO_BROADCAST)
		return -1;
	/* operand dim k lands at x's dim x.dims[k], which lands at ... */
	d = ints(s, x->dims.n);
	for (k = 0; k < x->dims.n; k++)
		d[k] = in->dims.v[x->dims.v[k]];
	return simp_broadcast(s->m, s->c, x->operand[0], &in->shape, d,
	    x->dims.n, in);
}

/* 1 if perm keeps the dims of size > 1 of shape x in their order. */
static int
moves_only_ones(const HloInts *perm, const HloShape *x)
{
	int k, last = -1;

	for (k = 0; k < perm->n; k++) {
		int64_t p = perm->v[k];
		if (x->dim[p] == 1)
			continue;
		if (p < last)
			return 0;
		last = (int)p;
	}
	return 1;
}

static int
transpose_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	int n = in->dims.n, k, r;
	int64_t *p;

	if (is_iota(&in->dims, n))
		return algsimp_keep(s, i, in->operand[0]);
	if (x->op == HLO_TRANSPOSE) {
		/* y.dim[k] = x.dim[p2[k]] = x.operand.dim[p1[p2[k]]] */
		p = ints(s, n);
		for (k = 0; k < n; k++)
			p[k] = x->dims.v[in->dims.v[k]];
		r = simp_add(s->m, s->c, HLO_TRANSPOSE, &in->shape,
		    &x->operand[0], 1, in);
		SI(s, r)->dims = (HloInts){ p, n, 1 };
		return r;
	}
	if (moves_only_ones(&in->dims, &x->shape) &&
	    algsimp_plain(&in->shape) && algsimp_plain(&x->shape))
		return new_reshape(s, in->operand[0], in);
	return -1;
}

static int
slice_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]), *y;
	int n = in->shape.rank, k, r;
	int64_t *lo, *hi, *st;

	for (k = 0; k < n; k++)
		if (in->slo.v[k] != 0 || in->sst.v[k] != 1 ||
		    in->shi.v[k] != x->shape.dim[k])
			break;
	if (k == n)
		return algsimp_keep(s, i, in->operand[0]);
	if (x->op != HLO_SLICE)
		return -1;
	/* y[j] = x[lo2 + j*st2] = src[lo1 + (lo2 + j*st2)*st1] */
	lo = ints(s, n);
	hi = ints(s, n);
	st = ints(s, n);
	for (k = 0; k < n; k++) {
		lo[k] = x->slo.v[k] + in->slo.v[k] * x->sst.v[k];
		st[k] = x->sst.v[k] * in->sst.v[k];
		hi[k] = in->shape.dim[k] ? lo[k] + (in->shape.dim[k] - 1) *
		    st[k] + 1 : lo[k];
	}
	r = simp_add(s->m, s->c, HLO_SLICE, &in->shape, &x->operand[0], 1, in);
	y = SI(s, r);
	y->slo = (HloInts){ lo, n, 1 };
	y->shi = (HloInts){ hi, n, 1 };
	y->sst = (HloInts){ st, n, 1 };
	return r;
}

/* Bits of the value an integer type holds (without the sign bit). */
static int
int_bits(HloType t, int *is_signed)
{
	*is_signed = t == HT_S8 || t == HT_S16 || t == HT_S32 || t == HT_S64;
	return (int)hlo_type_size(t) * 8 - *is_signed;
}

/* Significand bits (with the hidden one) and exponent bits of a float. */
static int
float_bits(HloType t, int *ebits)
{
	switch (t) {
	case HT_F16: *ebits = 5; return 11;
	case HT_BF16: *ebits = 8; return 8;
	case HT_F32: *ebits = 8; return 24;
	default: *ebits = 11; return 53;
	}
}

/* 1 if every value of type a converts to b and back unchanged. */
static int
lossless(HloType a, HloType b)
{
	int sa, sb, ea, eb, ba, bb;

	if (a == b || a == HT_PRED)
		return 1;
	if (b == HT_PRED || hlo_type_is_float(a))
		return hlo_type_is_float(a) && hlo_type_is_float(b) &&
		    float_bits(a, &ea) <= float_bits(b, &eb) && ea <= eb;
	ba = int_bits(a, &sa);
	if (hlo_type_is_float(b))
		return ba <= float_bits(b, &eb);
	bb = int_bits(b, &sb);
	return (!sa || sb) && ba <= bb;
}

static int
convert_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i), *x = SI(s, in->operand[0]);
	HloType src;

	if (x->shape.type == in->shape.type)
		return algsimp_keep(s, i, in->operand[0]);
	if (x->op != HLO_CONVERT)
		return -1;
	src = SI(s, x->operand[0])->shape.type;
	if (!hlo_type_is_float(src) && !hlo_type_is_int(src) && src != HT_PRED)
		return -1;
	/* convert(convert(v, a->b), b->c) is convert(v, a->c) when a->b is
	   exact: both convert the same value to c */
	if (!lossless(src, x->shape.type))
		return -1;
	if (src == in->shape.type)
		return algsimp_keep(s, i, x->operand[0]);
	return simp_add(s->m, s->c, HLO_CONVERT, &in->shape, &x->operand[0], 1,
	    in);
}

/* 1 if reshaping a to b only adds or drops dims of size 1. */
static int
degenerate_reshape(const HloShape *a, const HloShape *b)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < a->rank && a->dim[i] == 1)
			i++;
		while (j < b->rank && b->dim[j] == 1)
			j++;
		if (i == a->rank || j == b->rank)
			return i == a->rank && j == b->rank;
		if (a->dim[i++] != b->dim[j++])
			return 0;
	}
}

/*
 * The source of operand k of an elementwise instruction for sinking:
 * what a plain degenerate reshape reshapes, or -2 for a broadcast
 * scalar (which broadcasts as well into any shape), or -1.
 */
static int
reshaped(Simp *s, const HloInstr *in, int k)
{
	const HloInstr *x = SI(s, in->operand[k]), *src;

	if (x->op == HLO_BROADCAST && SI(s, x->operand[0])->shape.rank == 0)
		return -2;
	if (x->op != HLO_RESHAPE || !algsimp_plain(&x->shape))
		return -1;
	src = SI(s, x->operand[0]);
	if (!algsimp_plain(&src->shape) || src->shape.type != x->shape.type ||
	    !degenerate_reshape(&src->shape, &x->shape))
		return -1;
	return x->operand[0];
}

int
algsimp_sink_reshape(Simp *s, int i)
{
	HloInstr *in = SI(s, i);
	int src[2], ops[2], k, x = -1, r;
	HloShape sh;

	if (in->noperand > 2 || !algsimp_plain(&in->shape))
		return -1;
	for (k = 0; k < in->noperand; k++) {
		if ((src[k] = reshaped(s, in, k)) == -1)
			return -1;
		if (src[k] >= 0) {
			if (x >= 0 && !hlo_shape_same(&SI(s, x)->shape,
			    &SI(s, src[k])->shape))
				return -1;
			x = src[k];
		}
	}
	if (x < 0)
		return -1;
	sh = simp_shape(in->shape.type, SI(s, x)->shape.rank,
	    SI(s, x)->shape.dim, &in->shape);
	for (k = 0; k < in->noperand; k++)
		ops[k] = src[k] >= 0 ? src[k] : simp_broadcast(s->m, s->c,
		    SI(s, in->operand[k])->operand[0], &SI(s, x)->shape, NULL,
		    0, SI(s, in->operand[k]));
	r = simp_add(s->m, s->c, in->op, &sh, ops, in->noperand, in);
	return simp_add(s->m, s->c, HLO_RESHAPE, &in->shape, &r, 1, in);
}

int
algsimp_shape_rule(Simp *s, int i)
{
	HloInstr *in = SI(s, i);

	switch (in->op) {
	case HLO_RESHAPE: return reshape_rule(s, i);
	case HLO_BROADCAST: return broadcast_rule(s, i);
	case HLO_TRANSPOSE: return transpose_rule(s, i);
	case HLO_SLICE: return slice_rule(s, i);
	case HLO_CONVERT: return convert_rule(s, i);
	case HLO_BITCAST:
		return bitcast_rule(s, i);
	case HLO_CONCATENATE:
		return in->noperand == 1 ? algsimp_keep(s, i, in->operand[0]) :
		    -1;
	default:
		return -1;
	}
}
