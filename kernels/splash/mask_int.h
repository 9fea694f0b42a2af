/*
 * mask_int.h - the inside of a SplashMask, shared by the files of
 * libpallas_splash (mask_obj.c, mask_text.c, mask_info.c) and the
 * pre-library helpers in mask.c.  Not installed.
 */
#ifndef PALLAS_SPLASH_MASK_INT_H
#define PALLAS_SPLASH_MASK_INT_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pallas/splash_mask.h"

struct SplashMask {
	atomic_long refs;	/* shared between threads: atomic */
	SplashMaskKind kind;
	long offset, left, right;	/* causal, local (sides -1: open) */
	long lo, hi;		/* full/causal/local: kept iff lo <= k-q <= hi */
	long chunk;
	long Sq, Skv;		/* the extent of segments and dense */
	int32_t *q_ids, *kv_ids;
	uint8_t *keep;
	int n;			/* heads: n masks; and/or: 2 */
	SplashMask **sub;
	int heads;		/* the head count of a HEADS in the tree, or 0 */
	uint64_t hash;
};

/* FNV-1a, 64 bits, over n bytes, from h (at first the basis). */
#define SPLASH_MASK_FNV_BASIS 0xcbf29ce484222325ull
uint64_t splash_mask_fnv(uint64_t h, const void *p, size_t n);
/* v as 8 little-endian bytes, so digests do not depend on the host. */
uint64_t splash_mask_fnv_i64(uint64_t h, int64_t v);

/* The message of a failing call, when err is not NULL. */
void splash_mask_err(char *err, size_t nerr, const char *fmt, ...);

/*
 * One row of data_next or mask_next in place: row[j] >= 0 marks a step
 * with a block (the value to fetch), -1 one without.  Afterwards every
 * step holds the value of the next marked step, or if none follows the
 * last before it, or 0 if the row has none.
 */
void splash_mask_fill_next(int n, int32_t *row);

#endif
