/*
 * sinks.c - the gradient of the Splash attention sinks, made from the
 * kernels' outputs as Splash makes it outside its kernels.
 *
 * A sink s_h is a logit with no value in every row of head h, so with
 * p_sink = exp(s_h - lse) its gradient from row q is p_sink (0 - di[q])
 * where di = rowsum(do * o), the dQ kernel's output.
 */
#include <math.h>
#include <stddef.h>

#include "pallas/splash_mask.h"

int
splash_sinks_grad(int H, long Sq, const float *sinks, const float *lse,
    const float *di, float *dsinks)
{
	int h;
	long q;

	if (H <= 0 || Sq <= 0 || !sinks || !lse || !di || !dsinks)
		return -1;
	for (h = 0; h < H; h++) {
		double g = 0;
		for (q = 0; q < Sq; q++) {
			size_t i = (size_t)h * (size_t)Sq + (size_t)q;
			/* lse -inf: a row with neither key nor sink */
			if (lse[i] > -INFINITY)
				g -= exp((double)sinks[h] - lse[i]) * di[i];
		}
		dsinks[h] = (float)g;
	}
	return 0;
}
