/*
 * ref.c - naive masked softmax attention in double precision with GQA:
 * the reference the Splash kernel is tested against.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "kernels/splash/splash_host.h"

/* One query row: scores into s[0..S), then o and lse for that row. */
static void
row(int h, int r, int S, int D, const float *qr, const float *kg,
    const float *vg, SplashMaskFn *fn, void *ctx, double *s, double *orow,
    double *lse)
{
	double m = -INFINITY, l = 0;
	int c, d, any = 0;

	for (c = 0; c < S; c++) {
		double acc = 0;
		if (!fn(ctx, h, r, c)) {
			s[c] = -INFINITY;
			continue;
		}
		for (d = 0; d < D; d++)
			acc += (double)qr[d] * kg[(size_t)c * D + d];
		s[c] = acc;
		if (acc > m)
			m = acc;
		any = 1;
	}
	for (d = 0; d < D; d++)
		orow[d] = 0;
	if (!any) {
		if (lse)
			*lse = -INFINITY;
		return;
	}
	for (c = 0; c < S; c++) {
		double p;
		if (s[c] == -INFINITY)
			continue;
		p = exp(s[c] - m);
		l += p;
		for (d = 0; d < D; d++)
			orow[d] += p * vg[(size_t)c * D + d];
	}
	for (d = 0; d < D; d++)
		orow[d] /= l;
	if (lse)
		*lse = m + log(l);
}

int
splash_reference(int H, int KVH, int S, int D, const float *q,
    const float *k, const float *v, SplashMaskFn *fn, void *ctx,
    double *o, double *lse)
{
	double *s;
	int h, r;

	if (H <= 0 || KVH <= 0 || S <= 0 || D <= 0 || H % KVH != 0 || !fn)
		return -1;
	if (!(s = malloc((size_t)S * sizeof(*s))))
		return -1;
	for (h = 0; h < H; h++) {
		size_t g = (size_t)(h / (H / KVH));
		for (r = 0; r < S; r++) {
			size_t qi = ((size_t)h * S + r) * D;
			row(h, r, S, D, q + qi, k + g * S * D, v + g * S * D,
			    fn, ctx, s, o + qi,
			    lse ? lse + (size_t)h * S + r : NULL);
		}
	}
	free(s);
	return 0;
}
