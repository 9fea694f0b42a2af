/*
 * idot.c - dot (matrix product, batched over leading dimensions) on host
 * values, with the MXU's numerics: every output element is a chain of
 * multiply-adds in increasing k, each rounded once to f32 (a fused
 * multiply-add; emulated in double, where the product is exact).
 *
 *  - bf16 operands: products exact in f32, sums in f32.
 *  - f32 operands, precision default: both sides rounded to bf16 first
 *    (one bf16 pass); high: bf16x3 (the passes lo*hi, hi*lo, hi*hi, each
 *    over all k, into one accumulator); highest: exact f32 products.
 *  - i8 / i32 operands: integer products and sums, wrapping to 32 bits.
 * The result is rounded to the node's dtype (the acc option) at the end.
 */
#include <stdlib.h>

#include "dsl/interp/iint.h"

typedef struct Dims {
	int64_t M, N, K;
	int64_t nb, nba, nbb;	/* batches: result, a, b */
} Dims;

/* Operand x as dense [batches][R][C] floats, transposed if asked. */
static float *
dense(const Val *x, int trans, int64_t R, int64_t C)
{
	int64_t nb = x->n / (R * C), b, i, j;
	float *p = xmalloc((size_t)(x->n ? x->n : 1) * sizeof(float));

	for (b = 0; b < nb; b++)
		for (i = 0; i < R; i++)
			for (j = 0; j < C; j++)
				p[(b * R + i) * C + j] = trans ?
				    x->e[(b * C + j) * R + i].f :
				    x->e[(b * R + i) * C + j].f;
	return p;
}

static float
bf(float f)
{
	return interp_bf16_f32(interp_bf16(f));
}

/* acc[0 .. N) += A[i, :] . B in increasing k, one rounding per step. */
static void
chain(const float *arow, const float *B, const Dims *d, float *acc)
{
	int64_t k, j;

	for (k = 0; k < d->K; k++) {
		double a = arow[k];
		const float *brow = B + k * d->N;
		for (j = 0; j < d->N; j++)
			acc[j] = (float)(a * brow[j] + acc[j]);
	}
}

static void
float_dot(const CExpr *e, const Val *a, const Val *b, const Dims *d,
    Val *out)
{
	int prec = a->t == DT_F32 ? e->u.dot.prec : MACH_PREC_HIGHEST;
	int64_t sa = d->M * d->K, sb = d->K * d->N, n, i, j, bt;
	float *A = dense(a, e->u.dot.trans_a, d->M, d->K);
	float *B = dense(b, e->u.dot.trans_b, d->K, d->N);
	float *Alo = NULL, *Blo = NULL, *acc;

	if (prec != MACH_PREC_HIGHEST) {
		Alo = xmalloc((size_t)(a->n ? a->n : 1) * sizeof(float));
		Blo = xmalloc((size_t)(b->n ? b->n : 1) * sizeof(float));
		for (n = 0; n < a->n; n++) {
			Alo[n] = bf(A[n] - bf(A[n]));
			A[n] = bf(A[n]);
		}
		for (n = 0; n < b->n; n++) {
			Blo[n] = bf(B[n] - bf(B[n]));
			B[n] = bf(B[n]);
		}
	}
	acc = xmalloc((size_t)d->N * sizeof(float));
	for (bt = 0; bt < d->nb; bt++) {
		int64_t oa = (d->nba > 1 ? bt : 0) * sa;
		int64_t ob = (d->nbb > 1 ? bt : 0) * sb;
		for (i = 0; i < d->M; i++) {
			for (j = 0; j < d->N; j++)
				acc[j] = 0;
			if (prec == MACH_PREC_HIGH) {
				chain(Alo + oa + i * d->K, B + ob, d, acc);
				chain(A + oa + i * d->K, Blo + ob, d, acc);
			}
			chain(A + oa + i * d->K, B + ob, d, acc);
			for (j = 0; j < d->N; j++)
				out->e[(bt * d->M + i) * d->N + j].f =
				    ival_round(out->t, acc[j]);
		}
	}
	free(A);
	free(B);
	free(Alo);
	free(Blo);
	free(acc);
}

static int32_t
get_i(const Val *x, int trans, int64_t bt, int64_t r, int64_t c,
    int64_t R, int64_t C)
{
	return trans ? x->e[(bt * C + c) * R + r].i :
	    x->e[(bt * R + r) * C + c].i;
}

static void
int_dot(const CExpr *e, const Val *a, const Val *b, const Dims *d,
    Val *out)
{
	int64_t bt, i, j, k;

	for (bt = 0; bt < d->nb; bt++)
		for (i = 0; i < d->M; i++)
			for (j = 0; j < d->N; j++) {
				uint32_t s = 0;
				for (k = 0; k < d->K; k++)
					s += (uint32_t)get_i(a,
					    e->u.dot.trans_a,
					    d->nba > 1 ? bt : 0, i, k, d->M,
					    d->K) * (uint32_t)get_i(b,
					    e->u.dot.trans_b,
					    d->nbb > 1 ? bt : 0, k, j, d->K,
					    d->N);
				out->e[(bt * d->M + i) * d->N + j].i =
				    (int32_t)s;
			}
}

void
idot(Run *r, const CExpr *e, const Val *a, const Val *b, Val *out)
{
	int ra = a->s.rank, rb = b->s.rank, ro = e->shape.rank;
	Dims d;

	if (ra < 2 || rb < 2 || ro < 2)
		bug("dot of rank %d and %d", ra, rb);
	d.M = e->shape.d[ro - 2];
	d.N = e->shape.d[ro - 1];
	d.K = a->s.d[e->u.dot.trans_a ? ra - 2 : ra - 1];
	ival_new(r, out, e->dtype, &e->shape);
	if (d.M * d.N == 0 || d.K == 0) {
		int64_t k;
		for (k = 0; k < out->n; k++)
			out->e[k].i = 0;
		return;
	}
	d.nb = out->n / (d.M * d.N);
	d.nba = a->n / (d.M * d.K);
	d.nbb = b->n / (d.K * d.N);
	if (dtype_is_float(a->t))
		float_dot(e, a, b, &d, out);
	else
		int_dot(e, a, b, &d, out);
}
