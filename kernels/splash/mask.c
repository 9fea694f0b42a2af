/*
 * mask.c - the SMEM tables of splash_fwd (block_mask, data_next) from an
 * attention mask, and the number of K/V copies they cause.  See
 * splash_host.h for the conventions.  The causal tables and the
 * data_next rule come from the mask library (pallas/splash_mask.h),
 * which also builds tables for masks given as data.
 */
#include <stddef.h>
#include <string.h>

#include "kernels/splash/mask_int.h"
#include "kernels/splash/splash_host.h"

int
splash_causal(void *ctx, int h, int q, int k)
{
	(void)ctx;
	(void)h;
	return k <= q;
}

int
splash_mask_fn(void *ctx, int h, int q, int k)
{
	return splash_mask_at(ctx, h, q, k);
}

/* Classifies block (i, j) of head h by visiting all its elements. */
static int
classify(SplashMaskFn *fn, void *ctx, int h, int q0, int BQ, int k0,
    int BKV)
{
	long kept = 0, total = (long)BQ * BKV;
	int q, k;

	for (q = q0; q < q0 + BQ; q++)
		for (k = k0; k < k0 + BKV; k++)
			kept += fn(ctx, h, q, k) != 0;
	if (kept == 0)
		return SPLASH_EMPTY;
	return kept == total ? SPLASH_FULL : SPLASH_PARTIAL;
}

/* data_next for one row of nk blocks, from its block_mask row. */
static void
fill_next(int nk, const int32_t *bm, int32_t *dn)
{
	int j;

	for (j = 0; j < nk; j++)
		dn[j] = bm[j] != SPLASH_EMPTY ? j : -1;
	splash_mask_fill_next(nk, dn);
}

static int
bad_sizes(int H, int Sq, int Skv, int BQ, int BKV)
{
	return H <= 0 || Sq <= 0 || Skv <= 0 || BQ <= 0 || BKV <= 0 ||
	    Sq % BQ != 0 || Skv % BKV != 0;
}

int
splash_mask_tables(int H, int Sq, int Skv, int BQ, int BKV,
    SplashMaskFn *fn, void *ctx, int32_t *block_mask, int32_t *data_next)
{
	int h, i, j, nq, nk;
	size_t row;

	if (bad_sizes(H, Sq, Skv, BQ, BKV) || !fn)
		return -1;
	nq = Sq / BQ;
	nk = Skv / BKV;
	for (h = 0; h < H; h++)
		for (i = 0; i < nq; i++) {
			row = ((size_t)h * nq + i) * nk;
			for (j = 0; j < nk; j++)
				block_mask[row + j] = classify(fn, ctx, h,
				    i * BQ, BQ, j * BKV, BKV);
			fill_next(nk, block_mask + row, data_next + row);
		}
	return 0;
}

/* The causal mask's tables through the mask library, which classifies
   its blocks from the diagonal without visiting elements. */
int
splash_causal_tables(int H, int S, int BQ, int BKV, int32_t *block_mask,
    int32_t *data_next)
{
	SplashMask *m;
	SplashMaskInfo in;
	size_t n;
	int rc;

	if (bad_sizes(H, S, S, BQ, BKV) || !(m = splash_mask_causal(0)))
		return -1;
	rc = splash_mask_info(m, H, S, S, BQ, BKV, 0, &in, NULL, 0);
	splash_mask_free(m);
	if (rc < 0)
		return -1;
	n = (size_t)H * (size_t)in.nq * (size_t)in.nk * sizeof(int32_t);
	memcpy(block_mask, in.block_mask, n);
	memcpy(data_next, in.data_next, n);
	splash_mask_info_free(&in);
	return 0;
}

long
splash_kv_fetches(int H, int KVH, int nq, int nk, const int32_t *data_next)
{
	long n = 0, pg = -1, pj = -1;
	int h, i, j;

	if (H <= 0 || KVH <= 0 || H % KVH != 0 || nq <= 0 || nk <= 0)
		return -1;
	for (h = 0; h < H; h++)
		for (i = 0; i < nq; i++)
			for (j = 0; j < nk; j++) {
				long g = h / (H / KVH);
				size_t at = ((size_t)h * nq + i) * nk + j;
				long dj = data_next[at];
				if (g != pg || dj != pj)
					n++;
				pg = g;
				pj = dj;
			}
	return n;
}
