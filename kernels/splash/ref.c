/*
 * ref.c - naive masked softmax attention in double precision with GQA:
 * the reference the Splash kernel is tested against.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "kernels/splash/splash_host.h"

/* One query row: scores into s[0..Skv), then o and lse for that row; a
   sink (not -inf) joins the denominator with no value. */
static void
row(const SplashDims *n, int h, int r, const float *qr, const float *kg,
    const float *vg, SplashMaskFn *fn, void *ctx, double *s, double *orow,
    double *lse)
{
	double sink = n->sinks ? n->sinks[h] : -INFINITY;
	double m = sink, l = 0;
	int c, d;

	for (c = 0; c < n->Skv; c++) {
		double acc = 0;
		if (!fn(ctx, h, r, c)) {
			s[c] = -INFINITY;
			continue;
		}
		for (d = 0; d < n->Dqk; d++)
			acc += (double)qr[d] * kg[(size_t)c * n->Dqk + d];
		s[c] = splash_logit(n, acc);
		if (s[c] > m)
			m = s[c];
	}
	for (d = 0; d < n->Dv; d++)
		orow[d] = 0;
	if (m == -INFINITY) {		/* no key and no sink */
		if (lse)
			*lse = -INFINITY;
		return;
	}
	if (sink > -INFINITY)
		l = exp(sink - m);
	for (c = 0; c < n->Skv; c++) {
		double p;
		if (s[c] == -INFINITY)
			continue;
		p = exp(s[c] - m);
		l += p;
		for (d = 0; d < n->Dv; d++)
			orow[d] += p * vg[(size_t)c * n->Dv + d];
	}
	for (d = 0; d < n->Dv; d++)
		orow[d] /= l;
	if (lse)
		*lse = m + log(l);
}

int
splash_dims_ok(const SplashDims *n)
{
	return n->H > 0 && n->KVH > 0 && n->Sq > 0 && n->Skv > 0 &&
	    n->Dqk > 0 && n->Dv > 0 && n->H % n->KVH == 0 &&
	    n->scale >= 0 && n->cap >= 0;
}

/* The logit's multiplier: scale, or 1 for none. */
static double
scale_of(const SplashDims *n)
{
	return n->scale > 0 ? n->scale : 1;
}

double
splash_logit(const SplashDims *n, double raw)
{
	double s = raw * scale_of(n);

	return n->cap > 0 ? n->cap * tanh(s / n->cap) : s;
}

/* d/draw of cap tanh(scale raw / cap) = scale (1 - tanh^2) */
double
splash_logit_grad(const SplashDims *n, double raw)
{
	double t;

	if (n->cap <= 0)
		return scale_of(n);
	t = tanh(raw * scale_of(n) / n->cap);
	return scale_of(n) * (1 - t * t);
}

int
splash_reference(const SplashDims *n, const float *q, const float *k,
    const float *v, SplashMaskFn *fn, void *ctx, double *o, double *lse)
{
	double *s;
	int h, r;

	if (!splash_dims_ok(n) || !fn)
		return -1;
	if (!(s = malloc((size_t)n->Skv * sizeof(*s))))
		return -1;
	for (h = 0; h < n->H; h++) {
		size_t g = (size_t)(h / (n->H / n->KVH)) * n->Skv;
		for (r = 0; r < n->Sq; r++) {
			size_t qr = (size_t)h * n->Sq + r;
			row(n, h, r, q + qr * n->Dqk, k + g * n->Dqk,
			    v + g * n->Dv, fn, ctx, s, o + qr * n->Dv,
			    lse ? lse + qr : NULL);
		}
	}
	free(s);
	return 0;
}
