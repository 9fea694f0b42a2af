/*
 * splash_host.h - host-side helpers of the Splash attention kernel
 * (kernels/splash/splash.pk): the SMEM tables that steer its KV axis,
 * built from a mask, and a naive reference in double precision.
 *
 * Plain C with no dependency on the compiler or the runtime, so C
 * programs that call the compiled kernel can use it as well as the tests.
 */
#ifndef PALLAS_SPLASH_HOST_H
#define PALLAS_SPLASH_HOST_H

#include <stdint.h>

/* block_mask values */
enum { SPLASH_EMPTY = 0, SPLASH_PARTIAL = 1, SPLASH_FULL = 2 };

/*
 * A mask: nonzero if query row q of head h may attend to key column k.
 * ctx is passed through untouched.
 */
typedef int SplashMaskFn(void *ctx, int h, int q, int k);

/* The causal mask: k <= q (ctx unused). */
int splash_causal(void *ctx, int h, int q, int k);

/*
 * A SplashMask (pallas/splash_mask.h) as a SplashMaskFn: ctx is a
 * const SplashMask *.  A segments or dense mask given to
 * splash_reference() must be Sq x Skv.
 */
int splash_mask_fn(void *ctx, int h, int q, int k);

/*
 * mask.c: fills the two SMEM tables of splash_fwd, each int32
 * [H][Sq/BQ][Skv/BKV] in C order, from the mask fn:
 *
 *   block_mask[h][i][j]  SPLASH_EMPTY if no (q, k) of block (i, j) is
 *                        kept, SPLASH_FULL if all are, else
 *                        SPLASH_PARTIAL;
 *   data_next[h][i][j]   the KV block to fetch at step j: j when block
 *                        (i, j) runs (is not empty); for an empty block,
 *                        the next block of row i that runs, or if none
 *                        follows, the last one before j that runs (0 if
 *                        the row runs none).  A skipped step therefore
 *                        repeats a neighbouring step's index and the
 *                        pipeline fetches nothing for it.
 *
 * Returns 0, or -1 (tables untouched) if a size is not positive or a
 * sequence length is not a multiple of its block size.
 */
int splash_mask_tables(int H, int Sq, int Skv, int BQ, int BKV,
    SplashMaskFn *fn, void *ctx, int32_t *block_mask, int32_t *data_next);

/* The tables of the causal mask (Sq = Skv = S), computed directly. */
int splash_causal_tables(int H, int S, int BQ, int BKV,
    int32_t *block_mask, int32_t *data_next);

/*
 * The K (or V) block copies the pipeline makes over the grid (h, i, j) of
 * splash_fwd with these tables: the steps whose block index
 * (h / (H / KVH), data_next[h][i][j]) differs from the previous step's,
 * the first step included.  -1 if KVH does not divide H.
 */
long splash_kv_fetches(int H, int KVH, int nq, int nk,
    const int32_t *data_next);

/*
 * The sizes of an attention: query heads H over KVH KV heads, query and
 * KV lengths, the head dims of q and k (Dqk) and of v and o (Dv); what
 * is done to each logit q . k before the mask, as splash.pk's SCALE and
 * CAP: multiplied by scale (0: left as it is), then soft-capped to
 * cap * tanh(s / cap) (cap 0: not capped); and the sinks, one logit per
 * head in every row's denominator (splash.pk's WITH_SINKS), or NULL.
 */
typedef struct SplashDims {
	int H, KVH, Sq, Skv, Dqk, Dv;
	double scale, cap;
	const float *sinks;		/* [H] or NULL */
} SplashDims;

/* Every size positive, KVH dividing H, scale and cap not negative. */
int splash_dims_ok(const SplashDims *n);

/* The logit the softmax sees for the dot q . k = raw, and its
   derivative with respect to raw. */
double splash_logit(const SplashDims *n, double raw);
double splash_logit_grad(const SplashDims *n, double raw);

/*
 * ref.c: naive attention in double precision, for GQA with query head h
 * reading KV head h / (H / KVH):
 *
 *   o[h]   = softmax(s, masked by fn) v[g]
 *   lse[h] = log(sum(exp(s))) over the kept keys
 *
 * with s = splash_logit(n, q[h] k[g]^T).  q is [H][Sq][Dqk], k
 * [KVH][Skv][Dqk], v [KVH][Skv][Dv], o [H][Sq][Dv], lse [H][Sq] (lse may
 * be NULL).  A row that keeps no key gets o = 0 and lse = -inf (with a
 * sink: lse = the sink).  Returns 0, or -1 if the sizes are not
 * splash_dims_ok.
 */
int splash_reference(const SplashDims *n, const float *q, const float *k,
    const float *v, SplashMaskFn *fn, void *ctx, double *o, double *lse);

/*
 * ref_vjp.c: the gradients of splash_reference's o (not of lse) for an
 * upstream gradient dout [H][Sq][Dv], in double precision: dq
 * [H][Sq][Dqk], dk [KVH][Skv][Dqk] and dv [KVH][Skv][Dv] (dk and dv of a
 * KV head summed over the query heads that read it), and with sinks
 * dsinks [H] (may be NULL).  A row that keeps no key contributes
 * nothing.  Returns 0, or -1 as splash_reference.
 */
int splash_reference_vjp(const SplashDims *n, const float *q,
    const float *k, const float *v, const float *dout, SplashMaskFn *fn,
    void *ctx, double *dq, double *dk, double *dv, double *dsinks);

#endif
