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
	const SplashDims *n;
	int S, Dqk, Dv;			/* S: the KV length */
	const float *qr, *dor;		/* the row's q and do */
	const float *kg, *vg;		/* its KV head's k and v */
	double *p, *g, *dqr, *dkg, *dvg;	/* g: d logit / d raw */
	double sink, psink;		/* the head's sink (or -inf), its p */
} Row;

/* p[c] = softmax of the row's kept scores and its sink, 0 where masked,
   and psink the sink's; 0 if no key is kept (the row then has o = 0 and
   no gradient). */
static int
probs(Row *R, int h, int r, SplashMaskFn *fn, void *ctx)
{
	double m = R->sink, l = 0;
	int c, d, any = 0;

	for (c = 0; c < R->S; c++) {
		double s = 0;
		R->p[c] = -INFINITY;
		if (!fn(ctx, h, r, c))
			continue;
		for (d = 0; d < R->Dqk; d++)
			s += (double)R->qr[d] * R->kg[(size_t)c * R->Dqk + d];
		R->g[c] = splash_logit_grad(R->n, s);
		s = splash_logit(R->n, s);
		R->p[c] = s;
		m = fmax(m, s);
		any = 1;
	}
	R->psink = any && R->sink > -INFINITY ? exp(R->sink - m) : 0;
	l = R->psink;
	for (c = 0; c < R->S; c++) {
		R->p[c] = any && R->p[c] > -INFINITY ? exp(R->p[c] - m) : 0;
		l += R->p[c];
	}
	for (c = 0; any && c < R->S; c++)
		R->p[c] /= l;
	R->psink = any ? R->psink / l : 0;
	return any;
}

/*
 * o = sum_c p[c] v[c], so with dp[c] = do . v[c] and di = do . o,
 * p[c] (dp[c] - di) is the gradient of the logits, ds[c] that times
 * g[c] the gradient of the dot q . k[c], and
 * dq += ds[c] k[c], dk[c] += ds[c] q, dv[c] += p[c] do; the sink, a
 * logit whose value is 0, has the gradient psink (0 - di).
 */
static void
row_vjp(Row *R, double *dsink)
{
	int c, d, S = R->S, Dqk = R->Dqk, Dv = R->Dv;
	double di = 0;

	for (d = 0; d < Dv; d++) {
		double o = 0;
		for (c = 0; c < S; c++)
			o += R->p[c] * R->vg[(size_t)c * Dv + d];
		di += (double)R->dor[d] * o;
	}
	if (dsink)
		*dsink -= R->psink * di;
	for (c = 0; c < S; c++) {
		const float *kc = R->kg + (size_t)c * Dqk;
		const float *vc = R->vg + (size_t)c * Dv;
		double dp = 0, ds;
		if (R->p[c] == 0)
			continue;
		for (d = 0; d < Dv; d++)
			dp += (double)R->dor[d] * vc[d];
		ds = R->p[c] * (dp - di) * R->g[c];
		for (d = 0; d < Dqk; d++) {
			R->dqr[d] += ds * kc[d];
			R->dkg[(size_t)c * Dqk + d] += ds * R->qr[d];
		}
		for (d = 0; d < Dv; d++)
			R->dvg[(size_t)c * Dv + d] += R->p[c] * R->dor[d];
	}
}

int
splash_reference_vjp(const SplashDims *n, const float *q, const float *k,
    const float *v, const float *dout, SplashMaskFn *fn, void *ctx,
    double *dq, double *dk, double *dv, double *dsinks)
{
	Row R;
	int h, r;

	if (!splash_dims_ok(n) || !fn)
		return -1;
	R.p = malloc((size_t)n->Skv * sizeof(*R.p));
	R.g = malloc((size_t)n->Skv * sizeof(*R.g));
	if (!R.p || !R.g) {
		free(R.p);
		free(R.g);
		return -1;
	}
	R.n = n;
	R.S = n->Skv;
	R.Dqk = n->Dqk;
	R.Dv = n->Dv;
	memset(dq, 0, (size_t)n->H * n->Sq * n->Dqk * sizeof(*dq));
	memset(dk, 0, (size_t)n->KVH * n->Skv * n->Dqk * sizeof(*dk));
	memset(dv, 0, (size_t)n->KVH * n->Skv * n->Dv * sizeof(*dv));
	for (h = 0; h < n->H; h++) {
		R.sink = n->sinks ? n->sinks[h] : -INFINITY;
		if (dsinks)
			dsinks[h] = 0;
		size_t g = (size_t)(h / (n->H / n->KVH)) * n->Skv;
		R.kg = k + g * n->Dqk;
		R.vg = v + g * n->Dv;
		R.dkg = dk + g * n->Dqk;
		R.dvg = dv + g * n->Dv;
		for (r = 0; r < n->Sq; r++) {
			size_t qr = (size_t)h * n->Sq + r;
			R.qr = q + qr * n->Dqk;
			R.dor = dout + qr * n->Dv;
			R.dqr = dq + qr * n->Dqk;
			if (probs(&R, h, r, fn, ctx))
				row_vjp(&R, dsinks ? &dsinks[h] : NULL);
		}
	}
	free(R.p);
	free(R.g);
	return 0;
}
