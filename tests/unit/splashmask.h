/*
 * splashmask.h - the tests' own statement of the masks a Splash export
 * applies (kernels/splash/splash.pk: its last four size parameters MASK,
 * MA, MB, MC), written apart from the library and pallasc so that it
 * checks them.
 */
#ifndef PALLAS_TESTS_SPLASHMASK_H
#define PALLAS_TESTS_SPLASHMASK_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/interp.h"
#include "dsl/sema/checked.h"
#include "kernels/splash/splash_host.h"

/* A SplashMaskFn over ctx = the export's int64_t {MASK, MA, MB, MC}. */
static int
export_mask(void *ctx, int h, int q, int k)
{
	const int64_t *p = ctx;

	(void)h;
	switch (p[0]) {
	case 0: return 1;
	case 1: return k <= q + p[1];
	case 2: return (p[1] < 0 || k >= q + p[3] - p[1]) &&
	    (p[2] < 0 || k <= q + p[3] + p[2]);
	case 3: return k <= q && k / p[1] == q / p[1];
	default: return 0;
	}
}

/* The sizes of a Splash export, from its parameters. */
static SplashDims
export_dims(const CKernel *k)
{
	SplashDims n;

	n.H = (int)sema_param(k, "H");
	n.KVH = (int)sema_param(k, "KVH");
	n.Sq = (int)sema_param(k, "SQ");
	n.Skv = (int)sema_param(k, "SKV");
	n.Dqk = (int)sema_param(k, "DQK");
	n.Dv = (int)sema_param(k, "DV");
	return n;
}

/* export_mask's ctx for a Splash export: its MASK, MA, MB, MC. */
static void *
export_mask_ctx(const CKernel *k)
{
	int i;

	for (i = 0; i + 3 < k->nparam; i++)
		if (strcmp(k->param_name[i], "MASK") == 0)
			return (void *)&k->param_val[i];
	return NULL;
}

/*
 * The mask of a backward dKV grid: fn with rows and columns swapped, so
 * that the tables of the transposed mask, built by the same brute force
 * as the forward's, are the transposed tables (block_mask_t[h][j][i],
 * data_next_t[h][j][i] the query block to fetch).
 */
typedef struct { SplashMaskFn *fn; void *ctx; } SplashTransposed;

static int
splash_transposed(void *ctx, int h, int q, int k)
{
	const SplashTransposed *t = ctx;

	return t->fn(t->ctx, h, k, q);
}

/* b's values as floats (bf16 inputs are exact in f32), to free. */
static float *
splash_floats(const InterpBuf *b)
{
	int64_t i, n = shape_numel(&b->shape);
	float *x = xmalloc((size_t)n * sizeof(float));

	for (i = 0; i < n; i++)
		x[i] = (float)interp_buf_get(b, i);
	return x;
}

/* q scaled by 1/sqrt(d), as the caller of a Splash kernel does (rounded
   to q's dtype); its values as floats, to free. */
static float *
splash_prescale(InterpBuf *q, int d)
{
	int64_t i, n = shape_numel(&q->shape);

	for (i = 0; i < n; i++)
		interp_buf_set(q, i, interp_buf_get(q, i) / sqrt((double)d));
	return splash_floats(q);
}

#endif
