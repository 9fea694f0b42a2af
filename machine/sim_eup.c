/*
 * sim_eup.c - the EUP's transcendental functions, elementwise in f32 via
 * the C library: exp2 (exp2(+inf) = +inf, exp2(-inf) = 0, NaN -> NaN),
 * log2 (log2(0) = -inf, log2(x < 0) = NaN), reciprocal (1/0 = inf with
 * the sign of 0), rsqrt = 1 / sqrt(x) (two roundings) and tanh.
 */
#include <math.h>

#include "machine/sim.h"

void
mach_eup(int op, SimW *d, const SimW *a, int n)
{
	int i;

	switch (op) {
	case OP_EEXP2: for (i = 0; i < n; i++) d[i].f = exp2f(a[i].f); break;
	case OP_ELOG2: for (i = 0; i < n; i++) d[i].f = log2f(a[i].f); break;
	case OP_ERCP: for (i = 0; i < n; i++) d[i].f = 1.0f / a[i].f; break;
	case OP_ERSQRT:
		for (i = 0; i < n; i++) d[i].f = 1.0f / sqrtf(a[i].f);
		break;
	case OP_ETANH: for (i = 0; i < n; i++) d[i].f = tanhf(a[i].f); break;
	}
}
