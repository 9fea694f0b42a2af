/*
 * pallas/splash_mask.h - attention masks as data for the Splash kernels
 * (kernels/splash/), and the MaskInfo tables built from them: the SMEM
 * tables that steer a kernel's KV axis (data_next, block_mask,
 * mask_next), the partial blocks a dense mask needs stored, the
 * transposed tables of the backward dKV kernel, and a check value that
 * ties tables to the mask, shapes and block sizes they were built for.
 *
 * Plain C, no dependency on the compiler or the runtime: link with
 * libpallas_splash (pkg-config pallas-splash).  Errors are values: a
 * function that fails returns NULL or -1 and, when err is not NULL,
 * writes a message of at most nerr bytes there.  Nothing here exits or
 * keeps global state; masks are immutable once made, so threads may
 * share them.
 *
 * Coordinates: query row q in [0, Sq), key column k in [0, Skv), head h.
 * A mask keeps (h, q, k) when q may attend to k.
 */
#ifndef PALLAS_SPLASH_MASK_H
#define PALLAS_SPLASH_MASK_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A mask.  Every constructor returns a new reference (NULL on error). */
typedef struct SplashMask SplashMask;

/* The kinds, as splash_mask_kind() reports them. */
typedef enum SplashMaskKind {
	SPLASH_MASK_FULL,	/* every (q, k) */
	SPLASH_MASK_CAUSAL,	/* k <= q + offset */
	SPLASH_MASK_LOCAL,	/* q + offset - left <= k <= q + offset + right */
	SPLASH_MASK_CHUNKED,	/* k <= q and k / chunk == q / chunk */
	SPLASH_MASK_SEGMENTS,	/* q_ids[q] == kv_ids[k] */
	SPLASH_MASK_DENSE,	/* keep[q * Skv + k] != 0 */
	SPLASH_MASK_HEADS,	/* mask number h for head h */
	SPLASH_MASK_AND,
	SPLASH_MASK_OR
} SplashMaskKind;

/* Unbounded side of a local window. */
#define SPLASH_UNBOUNDED (-1L)

/*
 * The largest offset, window side, chunk and sequence length (a
 * constructor given more returns NULL), so that no difference of
 * coordinates and parameters overflows.
 */
#define SPLASH_MASK_MAX (LONG_MAX / 4)

SplashMask *splash_mask_full(void);
SplashMask *splash_mask_causal(long offset);
/* left, right >= 0, or SPLASH_UNBOUNDED. */
SplashMask *splash_mask_local(long left, long right, long offset);
/* chunk >= 1, aligned to the blocks or not. */
SplashMask *splash_mask_chunked(long chunk);
/* Segment ids of packed sequences; the arrays are copied. */
SplashMask *splash_mask_segments(long Sq, const int32_t *q_ids, long Skv,
    const int32_t *kv_ids);
/* A dense [Sq][Skv] mask (nonzero = keep), copied. */
SplashMask *splash_mask_dense(long Sq, long Skv, const uint8_t *keep);
/* One mask per head (not nested: none of them a HEADS mask or contains
   one); takes new references to the masks. */
SplashMask *splash_mask_heads(int H, SplashMask *const *per_head);
/* The element-wise and / or of two masks (new references to both); if
   both contain a HEADS mask, the two have the same count. */
SplashMask *splash_mask_and(SplashMask *a, SplashMask *b);
SplashMask *splash_mask_or(SplashMask *a, SplashMask *b);

SplashMask *splash_mask_ref(SplashMask *m);
/* Drops a reference; NULL is allowed. */
void splash_mask_free(SplashMask *m);

/* The kind at the root of m (SPLASH_MASK_FULL for a NULL m). */
SplashMaskKind splash_mask_kind(const SplashMask *m);
/* 1 if m keeps (h, q, k), else 0 (also outside a dense or segment
   mask's extent, at a negative q or k, and for a NULL m). */
int splash_mask_at(const SplashMask *m, int h, long q, long k);

/*
 * The text form:
 *   full | causal[:OFFSET] | local:LEFT,RIGHT[,OFFSET] (LEFT or RIGHT
 *   "inf" for unbounded) | chunked:CHUNK | segments:ARGS | dense:ARGS |
 *   heads(M;M;...) | and(M;M) | or(M;M)
 * splash_mask_describe() writes it (a mask made from memory, segments or
 * dense, as segments:<Sq,Skv ids> or dense:<SqxSkv>, which names no
 * file); it returns the length snprintf would (the text is cut to
 * n - 1 bytes; buf may be NULL when n is 0), or -1 for a NULL m.
 */
int splash_mask_describe(const SplashMask *m, char *buf, size_t n);
/*
 * Reads the text form.  The segments and dense forms name data the
 * library does not read itself (files, e.g. segments:Q.npy,KV.npy and
 * dense:M.npy): it calls load with the kind ("segments" or "dense") and
 * the ARGS text; load returns a new mask or NULL with its message in
 * err.  load may be NULL (then those forms are errors).  Errors give
 * the column of the offending character.
 */
typedef SplashMask *SplashMaskLoad(void *ctx, const char *kind,
    const char *args, char *err, size_t nerr);
SplashMask *splash_mask_parse(const char *text, SplashMaskLoad *load,
    void *ctx, char *err, size_t nerr);

/*
 * A 64-bit digest of the mask's meaning: its kinds, parameters and data
 * (two masks that print alike but hold different ids or dense bits
 * differ).
 */
uint64_t splash_mask_hash(const SplashMask *m);

/* block_mask values */
enum { SPLASH_BLOCK_EMPTY = 0, SPLASH_BLOCK_PARTIAL = 1,
    SPLASH_BLOCK_FULL = 2 };

/*
 * The tables for one kernel's grid, int32 in C order over [H][nq][nk]
 * (the forward and dQ kernels' order: head, query block, KV step):
 *
 *   block_mask[h][i][j]  SPLASH_BLOCK_EMPTY if block (i, j) keeps
 *                        nothing, FULL if it keeps everything, else
 *                        PARTIAL;
 *   data_next[h][i][j]   the KV block to fetch at step j: j when block
 *                        (i, j) runs; for an empty block the next block
 *                        of row i that runs, or if none follows, the
 *                        last before j that runs (0 if the row runs
 *                        none), so a skipped step fetches nothing;
 *   mask_next[h][i][j]   when the kernels apply the mask from stored
 *                        blocks (a DENSE mask, which no arithmetic
 *                        gives, and a HEADS, AND or OR mask: see
 *                        splash_mask_kernel_params()), for every
 *                        partial block the index of its contents in
 *                        'partial'; for any other step the index of the
 *                        nearest partial block as data_next picks (0 if
 *                        none); NULL for the other kinds (full, causal,
 *                        local, chunked, segments);
 *   partial              npartial blocks of BQ x BKV bytes (1 = keep),
 *                        each distinct partial block once; NULL if none;
 *   partial_tr           the same blocks, each transposed (BKV x BQ, in
 *                        the same order): for a kernel that walks the
 *                        forward grid in the transposed orientation, as
 *                        the dQ kernel does; NULL if none.
 *
 * The transposed tables (the dKV kernel's grid: head, KV block, query
 * step) are the same over [H][nk][nq] with the roles of i and j
 * swapped, and partial blocks stored BKV x BQ.
 *
 * For the structured kinds (full, causal, local, chunked, segments, and
 * their and/or/heads combinations) nothing of size Sq x Skv is made:
 * blocks are classified from the mask's parameters (segments from each
 * block's ids), in O(number of blocks) memory beyond the tables; the
 * and/or/heads combinations store their distinct partial blocks, each
 * evaluated from the parameters (npartial x BQ x BKV bytes: causal and
 * local windows aligned to the blocks store a few, whatever Sq).
 */
typedef struct SplashMaskInfo {
	int H, nq, nk;		/* table dims (transposed: H, nk, nq) */
	long Sq, Skv;
	int BQ, BKV;
	int transposed;
	int32_t *block_mask;
	int32_t *data_next;
	int32_t *mask_next;
	uint8_t *partial;
	uint8_t *partial_tr;
	int npartial;
	/*
	 * splash_mask_hash() of the mask combined with H, Sq, Skv, BQ, BKV
	 * and 'transposed': what a C program compares to refuse tables
	 * built for another mask.
	 */
	uint64_t check;
	/*
	 * The description the kernels of kernels/splash/splash.pk compare
	 * (their SMEM table mask_desc) to refuse tables built for another
	 * mask, shapes or block sizes: splash_mask_desc().
	 */
	int32_t desc[10];	/* SPLASH_DESC_LEN */
} SplashMaskInfo;

/*
 * Builds the tables of mask m for H heads (a HEADS mask must have H
 * masks), Sq x Skv, blocks BQ x BKV (Sq % BQ == 0, Skv % BKV == 0,
 * Sq and Skv at most SPLASH_MASK_MAX, H * nq * nk below 2^31); the
 * segments and dense masks in m must be Sq x Skv.  transposed is 0 or
 * nonzero (stored as 1).  0, or -1 with *info zeroed.
 */
int splash_mask_info(const SplashMask *m, int H, long Sq, long Skv, int BQ,
    int BKV, int transposed, SplashMaskInfo *info, char *err, size_t nerr);
void splash_mask_info_free(SplashMaskInfo *info);

/* The blocks row i (transposed: column j) runs: its non-empty blocks;
   -1 if h or i is out of range. */
int splash_mask_info_row_blocks(const SplashMaskInfo *info, int h, int i);

/*
 * The check value a kernel export compiled for mask m, shapes and block
 * sizes expects (equal to the info's check): so a C program can compare
 * before a call.  0 stands for "no check" and is never returned.
 */
uint64_t splash_mask_check(const SplashMask *m, int H, long Sq, long Skv,
    int BQ, int BKV, int transposed);

/*
 * The parameters MASK, MA, MB, MC by which a kernel of
 * kernels/splash/splash.pk applies mask m (its FULL, CAUSAL(off),
 * LOCAL(l, r, off), CHUNKED(c), SEGMENTS and DENSE(np) macros; an
 * unbounded window side is -1): 0 and p[0..4), or -1 for a mask whose
 * parameters do not fit 32 bits.  A SEGMENTS kernel takes the ids as
 * operands (q_seg, kv_seg: splash_mask_segment_ids()).  DENSE(np)
 * applies every mask made of several (heads, and, or) as well as dense
 * ones: from the stored blocks (mask_next, partial: splash_mask_info()),
 * each head from its own tables; for it p[1] is -1: np, the count of
 * distinct partial blocks, depends on the block sizes (info.npartial).
 */
int splash_mask_kernel_params(const SplashMask *m, long p[4]);

/*
 * The ids of a segments mask m (the library's copies, valid while m
 * lives): *q_ids[0 .. *Sq) and *kv_ids[0 .. *Skv).  0, or -1 if m is not
 * a segments mask.
 */
int splash_mask_segment_ids(const SplashMask *m, long *Sq,
    const int32_t **q_ids, long *Skv, const int32_t **kv_ids);

/*
 * The table mask_desc of the splash.pk kernels, int32[SPLASH_DESC_LEN]:
 *
 *   [0] SPLASH_DESC_MAGIC   [1..4] MASK, MA, MB, MC (MASK -1 for a mask
 *   [5] Sq   [6] Skv        whose parameters do not fit 32 bits)
 *   [7] BQ   [8] BKV        [9] transposed (0 or 1)
 *
 * A kernel compiled for one mask and shapes compares it with its own
 * parameters and stops with an error on a difference (a length past 32
 * bits is stored as INT32_MIN, which no parameter matches).  For a mask
 * applied from stored blocks (MASK 5) [2] is the count of distinct
 * partial blocks, which only splash_mask_info() knows:
 * splash_mask_desc() stores INT32_MIN there, info.desc the count.
 */
enum { SPLASH_DESC_LEN = 10, SPLASH_DESC_MAGIC = 0x53504c31 /* SPL1 */ };
void splash_mask_desc(const SplashMask *m, long Sq, long Skv, int BQ,
    int BKV, int transposed, int32_t desc[SPLASH_DESC_LEN]);

/*
 * The gradient of the sinks of a WITH_SINKS export (splash.pk), which its
 * kernels leave to the caller as Splash does: from the sinks [H], the
 * forward's lse [H][Sq] and the dQ kernel's di [H][Sq],
 *
 *   dsinks[h] = -sum_q exp(sinks[h] - lse[h][q]) di[h][q]
 *
 * summed in double.  Returns 0, or -1 for a size that is not positive or
 * a NULL array.
 */
int splash_sinks_grad(int H, long Sq, const float *sinks, const float *lse,
    const float *di, float *dsinks);

#ifdef __cplusplus
}
#endif

#endif
