/*
 * splashmask.h - the tests' own statement of the masks a Splash export
 * applies (kernels/splash/splash.pk: its last four size parameters MASK,
 * MA, MB, MC), written apart from the library and pallasc so that it
 * checks them.  Its functions are static inline: each test uses some.
 */
#ifndef PALLAS_TESTS_SPLASHMASK_H
#define PALLAS_TESTS_SPLASHMASK_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/interp.h"
#include "dsl/sema/checked.h"
#include "kernels/splash/splash_host.h"
#include "pallas/splash_mask.h"

/*
 * The segment id the tests give position pos of a SEGMENTS export, the
 * same for queries and keys: segment n spans [8 n^2, 8 (n + 1)^2), of
 * lengths 8, 24, 40, ..., so that blocks of 32 and of 128 rows meet
 * full, partial and empty blocks.
 */
static inline int32_t
splash_test_segment(long pos)
{
	int32_t n = 0;

	while (8L * (n + 1) * (n + 1) <= pos)
		n++;
	return n;
}

/*
 * The dense mask the tests give a DENSE export: causal, with holes near
 * the diagonal (a pattern of k and q + k), none farther than 60 rows:
 * blocks on and near the diagonal are partial, some alike, those far
 * below it full.
 */
static inline int
splash_test_dense(int q, int k)
{
	return k <= q && (q - k > 60 || (k % 3 != 0 && (q + k) % 7 != 0));
}

/*
 * The mask the tests give head h of a DENSE export, which applies any
 * mask from stored blocks: a mask per head, every fourth alike: the
 * dense mask above; a window of 48 keys within each segment (an and);
 * chunks of 64 or a window around the diagonal (an or); and keys 40
 * behind within each segment or a window 100 to 108 behind (nested, the
 * first 40 rows keeping no key).  One head (splash_dense) has the dense
 * mask alone.
 */
static inline int
splash_test_stored(int h, int q, int k)
{
	int same = splash_test_segment(q) == splash_test_segment(k);

	switch (h % 4) {
	case 0: return splash_test_dense(q, k);
	case 1: return k <= q && k >= q - 48 && same;
	case 2: return (k <= q && k / 64 == q / 64) ||
	    (k >= q + 3 - 20 && k <= q + 3 + 36);
	default: return (k <= q - 40 && same) || (k >= q - 108 && k <= q - 100);
	}
}

/* A SplashMaskFn over ctx = the export's int64_t {MASK, MA, MB, MC}. */
static inline int
export_mask(void *ctx, int h, int q, int k)
{
	const int64_t *p = ctx;

	switch (p[0]) {
	case 0: return 1;
	case 1: return k <= q + p[1];
	case 2: return (p[1] < 0 || k >= q + p[3] - p[1]) &&
	    (p[2] < 0 || k <= q + p[3] + p[2]);
	case 3: return k <= q && k / p[1] == q / p[1];
	case 4: return splash_test_segment(q) == splash_test_segment(k);
	case 5: return splash_test_stored(h, q, k);
	default: return 0;
	}
}

/* The sizes of a Splash export, from its parameters. */
static inline SplashDims
export_dims(const CKernel *k)
{
	SplashDims n;

	n.H = (int)sema_param(k, "H");
	n.KVH = (int)sema_param(k, "KVH");
	n.Sq = (int)sema_param(k, "SQ");
	n.Skv = (int)sema_param(k, "SKV");
	n.Dqk = (int)sema_param(k, "DQK");
	n.Dv = (int)sema_param(k, "DV");
	/* splash.pk's SCALE and CAP (0 or absent: none) */
	n.scale = sema_param(k, "SCALE") > 0 ?
	    1 / sqrt((double)sema_param(k, "SCALE")) : 0;
	n.cap = sema_param(k, "CAP") > 0 ? (double)sema_param(k, "CAP") : 0;
	return n;
}

/* export_mask's ctx for a Splash export: its MASK, MA, MB, MC. */
static inline void *
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

static inline int
splash_transposed(void *ctx, int h, int q, int k)
{
	const SplashTransposed *t = ctx;

	return t->fn(t->ctx, h, k, q);
}

/*
 * The tables' description the splash.pk kernels check (their SMEM table
 * mask_desc, int32[10]), written from the export's own parameters as
 * pallas/splash_mask.h documents it.
 */
static inline void
export_desc_of(const CKernel *k, int transposed, int32_t d[10])
{
	static const char *const p[] = { "MASK", "MA", "MB", "MC", "SQ",
	    "SKV", "BQ", "BKV" };
	int i;

	d[0] = 0x53504c31;
	for (i = 0; i < 8; i++)
		d[1 + i] = (int32_t)sema_param(k, p[i]);
	d[9] = transposed;
}

/* The index of k's operand called name, or -1. */
static inline int
splash_operand(const CKernel *k, const char *name)
{
	int i;

	for (i = 0; i < k->nop; i++)
		if (strcmp(k->op[i].name, name) == 0)
			return i;
	return -1;
}

/*
 * The sinks the tests give an export with WITH_SINKS, into s[0..n->H)
 * (large enough to weigh in every row: 2 + h / 2), with n->sinks
 * pointing at them, and into its sinks operand of b if it has one (the
 * forward kernel; b may be NULL).  n->sinks is NULL for other exports.
 */
enum { SPLASH_TEST_MAXH = 64 };
static inline void
splash_test_sinks(const CKernel *k, InterpBuf *b, SplashDims *n,
    float s[SPLASH_TEST_MAXH])
{
	int h, i = splash_operand(k, "sinks");

	n->sinks = NULL;
	if (sema_param(k, "SINK") <= 0)
		return;
	ck_assert_int_le(n->H, SPLASH_TEST_MAXH);
	for (h = 0; h < n->H; h++) {
		s[h] = 2.0f + 0.5f * (float)h;
		if (b && i >= 0)
			interp_buf_set(&b[i], h, s[h]);
	}
	n->sinks = s;
}

/* splash_test_segment's ids into the operands q_seg and kv_seg of b,
   where the export has them (SEGMENTS). */
static inline void
splash_test_segments(const CKernel *k, InterpBuf *b)
{
	static const char *const name[] = { "q_seg", "kv_seg" };
	int64_t p, i;
	int w;

	for (w = 0; w < 2; w++)
		if ((i = splash_operand(k, name[w])) >= 0)
			for (p = 0; p < shape_numel(&b[i].shape); p++)
				interp_buf_set(&b[i], p,
				    splash_test_segment((long)p));
}

/* splash_test_stored's head h as the library's mask, Sq x Skv. */
static inline SplashMask *
splash_test_stored_mask(int h, long Sq, long Skv)
{
	int32_t *qi = xmalloc((size_t)Sq * sizeof *qi);
	int32_t *ki = xmalloc((size_t)Skv * sizeof *ki);
	uint8_t *keep;
	SplashMask *seg, *a, *b, *c, *m = NULL;
	long q, k;

	for (q = 0; q < Sq; q++)
		qi[q] = splash_test_segment(q);
	for (k = 0; k < Skv; k++)
		ki[k] = splash_test_segment(k);
	seg = splash_mask_segments(Sq, qi, Skv, ki);
	switch (h % 4) {
	case 0:
		keep = xmalloc((size_t)(Sq * Skv));
		for (q = 0; q < Sq; q++)
			for (k = 0; k < Skv; k++)
				keep[q * Skv + k] = (uint8_t)splash_test_dense(
				    (int)q, (int)k);
		m = splash_mask_dense(Sq, Skv, keep);
		free(keep);
		break;
	case 1:
		a = splash_mask_local(48, 0, 0);
		m = splash_mask_and(a, seg);
		splash_mask_free(a);
		break;
	case 2:
		a = splash_mask_chunked(64);
		b = splash_mask_local(20, 36, 3);
		m = splash_mask_or(a, b);
		splash_mask_free(a);
		splash_mask_free(b);
		break;
	default:
		a = splash_mask_causal(-40);
		b = splash_mask_and(a, seg);
		c = splash_mask_local(8, 0, -100);
		m = splash_mask_or(b, c);
		splash_mask_free(a);
		splash_mask_free(b);
		splash_mask_free(c);
	}
	splash_mask_free(seg);
	free(qi);
	free(ki);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* splash_test_stored for H heads, as the library's mask. */
static inline SplashMask *
splash_test_stored_heads(int H, long Sq, long Skv)
{
	SplashMask *v[SPLASH_TEST_MAXH], *m;
	int h;

	ck_assert_int_le(H, SPLASH_TEST_MAXH);
	for (h = 0; h < H; h++)
		v[h] = splash_test_stored_mask(h, Sq, Skv);
	m = splash_mask_heads(H, v);
	for (h = 0; h < H; h++)
		splash_mask_free(v[h]);
	ck_assert_ptr_nonnull(m);
	return m;
}

/*
 * For a DENSE export, the stored blocks of splash_test_stored, built by
 * the library (its block classification is checked against brute force
 * in check_splash_mask.c), into the operands mask_next and partial (the
 * dQ kernel's partial_tr; the dKV kernel's mask_next_t and partial_t)
 * of b.  The library counts at most as many distinct partial blocks as
 * the export's MA has room for; the blocks past them, which the kernel
 * must not read, are filled with a pattern that would show if it did.
 */
static inline void
splash_test_dense_blocks(const CKernel *k, InterpBuf *b)
{
	int64_t H = sema_param(k, "H"), Sq = sema_param(k, "SQ");
	int64_t Skv = sema_param(k, "SKV"), i, used;
	int mn = splash_operand(k, "mask_next"), pa = splash_operand(k,
	    "partial"), t = 0, tr = 0;
	uint8_t *to;
	SplashMask *m;
	SplashMaskInfo info;

	if (sema_param(k, "MASK") != 5)
		return;
	if (mn < 0) {
		mn = splash_operand(k, "mask_next_t");
		pa = splash_operand(k, "partial_t");
		t = 1;
	} else if (pa < 0) {	/* the dQ kernel's: the blocks transposed */
		pa = splash_operand(k, "partial_tr");
		tr = 1;
	}
	ck_assert(mn >= 0 && pa >= 0);
	m = splash_test_stored_heads((int)H, (long)Sq, (long)Skv);
	ck_assert_int_eq(splash_mask_info(m, (int)H, (long)Sq, (long)Skv,
	    (int)sema_param(k, "BQ"), (int)sema_param(k, "BKV"), t, &info,
	    NULL, 0), 0);
	ck_assert_msg(info.npartial <= sema_param(k, "MA"), "%s: %d distinct "
	    "partial blocks, the export has room for %lld", k->name,
	    info.npartial, (long long)sema_param(k, "MA"));
	memcpy(b[mn].data, info.mask_next, (size_t)shape_numel(&b[mn].shape)
	    * sizeof(int32_t));
	ck_assert_int_eq(shape_numel(&b[pa].shape), sema_param(k, "MA") *
	    sema_param(k, "BQ") * sema_param(k, "BKV"));
	used = (int64_t)info.npartial * sema_param(k, "BQ") *
	    sema_param(k, "BKV");
	to = b[pa].data;
	if (used)
		memcpy(to, tr ? info.partial_tr : info.partial, (size_t)used);
	for (i = used; i < shape_numel(&b[pa].shape); i++)
		to[i] = (uint8_t)(i % 3 != 0);
	splash_mask_info_free(&info);
	splash_mask_free(m);
}

/* The same into the kernel's mask_desc operand of b, if it has one. */
static inline void
export_desc(const CKernel *k, InterpBuf *b, int transposed)
{
	int i;

	for (i = 0; i < k->nop; i++)
		if (strcmp(k->op[i].name, "mask_desc") == 0)
			export_desc_of(k, transposed, b[i].data);
}

/* b's values as floats (bf16 inputs are exact in f32), to free. */
static inline float *
splash_floats(const InterpBuf *b)
{
	int64_t i, n = shape_numel(&b->shape);
	float *x = xmalloc((size_t)n * sizeof(float));

	for (i = 0; i < n; i++)
		x[i] = (float)interp_buf_get(b, i);
	return x;
}

/* q scaled by 1/sqrt(Dqk), as the caller of a Splash kernel does
   (rounded to q's dtype), unless the kernel scales its logits itself;
   its values as floats, to free. */
static inline float *
splash_prescale(InterpBuf *q, const SplashDims *n)
{
	int64_t i, len = shape_numel(&q->shape);

	if (n->scale == 0)
		for (i = 0; i < len; i++)
			interp_buf_set(q, i, interp_buf_get(q, i) /
			    sqrt((double)n->Dqk));
	return splash_floats(q);
}

#endif
