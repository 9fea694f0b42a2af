/*
 * ref_vjp.c - the gradients of naive masked softmax attention in double
 * precision with GQA: the reference the Splash backward kernels are
 * tested against.  Written from the definition, row by row, with none of
 * the kernels' blocking or recomputation from lse.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/splash/splash_host.h"

typedef struct {
	int S, D;
	const float *qr, *dor;		/* the row's q and do */
	const float *kg, *vg;		/* its KV head's k and v */
	double *p, *dqr, *dkg, *dvg;
} Row;

/* p[c] = softmax of the row's kept scores, 0 where masked; 0 if none is
   kept (the row then has o = 0 and no gradient). */
static int
probs(Row *R, int h, int r, SplashMaskFn *fn, void *ctx)
{
	double m = -INFINITY, l = 0;
	int c, d, any = 0;

	for (c = 0; c < R->S; c++) {
		double s = 0;
		R->p[c] = -INFINITY;
		if (!fn(ctx, h, r, c))
			continue;
		for (d = 0; d < R->D; d++)
			s += (double)R->qr[d] * R->kg[(size_t)c * R->D + d];
		R->p[c] = s;
		m = fmax(m, s);
		any = 1;
	}
	for (c = 0; c < R->S; c++) {
		R->p[c] = any && R->p[c] > -INFINITY ? exp(R->p[c] - m) : 0;
		l += R->p[c];
	}
	for (c = 0; any && c < R->S; c++)
		R->p[c] /= l;
	return any;
}

/*
 * o = sum_c p[c] v[c], so with dp[c] = do . v[c] and di = do . o,
 * ds[c] = p[c] (dp[c] - di) is the gradient of the scores, and
 * dq += ds[c] k[c], dk[c] += ds[c] q, dv[c] += p[c] do.
 */
static void
row_vjp(Row *R)
{
	int c, d, S = R->S, D = R->D;
	double di = 0;

	for (d = 0; d < D; d++) {
		double o = 0;
		for (c = 0; c < S; c++)
			o += R->p[c] * R->vg[(size_t)c * D + d];
		di += (double)R->dor[d] * o;
	}
	for (c = 0; c < S; c++) {
		const float *kc = R->kg + (size_t)c * D;
		const float *vc = R->vg + (size_t)c * D;
		double dp = 0, ds;
		if (R->p[c] == 0)
			continue;
		for (d = 0; d < D; d++)
			dp += (double)R->dor[d] * vc[d];
		ds = R->p[c] * (dp - di);
		for (d = 0; d < D; d++) {
			R->dqr[d] += ds * kc[d];
			R->dkg[(size_t)c * D + d] += ds * R->qr[d];
			R->dvg[(size_t)c * D + d] += R->p[c] * R->dor[d];
		}
	}
}

int
splash_reference_vjp(int H, int KVH, int S, int D, const float *q,
    const float *k, const float *v, const float *dout, SplashMaskFn *fn,
    void *ctx, double *dq, double *dk, double *dv)
{
	Row R;
	int h, r;

	if (H <= 0 || KVH <= 0 || S <= 0 || D <= 0 || H % KVH != 0 || !fn)
		return -1;
	if (!(R.p = malloc((size_t)S * sizeof(*R.p))))
		return -1;
	R.S = S;
	R.D = D;
	memset(dq, 0, (size_t)H * S * D * sizeof(*dq));
	memset(dk, 0, (size_t)KVH * S * D * sizeof(*dk));
	memset(dv, 0, (size_t)KVH * S * D * sizeof(*dv));
	for (h = 0; h < H; h++) {
		size_t g = (size_t)(h / (H / KVH)) * S * D;
		R.kg = k + g;
		R.vg = v + g;
		R.dkg = dk + g;
		R.dvg = dv + g;
		for (r = 0; r < S; r++) {
			size_t qi = ((size_t)h * S + r) * D;
			R.qr = q + qi;
			R.dor = dout + qi;
			R.dqr = dq + qi;
			if (probs(&R, h, r, fn, ctx))
				row_vjp(&R);
		}
	}
	free(R.p);
	return 0;
}
