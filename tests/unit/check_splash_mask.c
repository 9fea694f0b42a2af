/*
 * check_splash_mask.c - the Splash mask library (pallas/splash_mask.h):
 * for every kind the MaskInfo tables, forward and transposed, equal a
 * classification by brute force over splash_mask_at(); partial blocks
 * are stored once each, and only for dense masks; the text form round
 * trips and reports the column of an error; check values tell masks,
 * shapes and block sizes apart; bad arguments are refused with a message.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pallas/splash_mask.h"
#include "kernels/splash/splash_host.h"

/* A small generator, so runs repeat. */
static uint32_t
rnd(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Block (i, j) of head h by visiting every element. */
static int
brute_class(const SplashMask *m, int h, int i, int j, int BQ, int BKV)
{
	long q, k, kept = 0;

	for (q = (long)i * BQ; q < (long)(i + 1) * BQ; q++)
		for (k = (long)j * BKV; k < (long)(j + 1) * BKV; k++)
			kept += splash_mask_at(m, h, q, k);
	if (kept == 0)
		return SPLASH_BLOCK_EMPTY;
	return kept == (long)BQ * BKV ? SPLASH_BLOCK_FULL :
	    SPLASH_BLOCK_PARTIAL;
}

/* The step a row's step s points at: the next marked one, else the last
   before, else -1 (the caller maps that to 0). */
static int
nearest(const int *marked, int n, int s)
{
	int t;

	for (t = s; t < n; t++)
		if (marked[t])
			return t;
	for (t = s - 1; t >= 0; t--)
		if (marked[t])
			return t;
	return -1;
}

/* Block (i, j) as stored: BQ x BKV, or BKV x BQ when transposed. */
static void
brute_block(const SplashMask *m, int h, int i, int j, int BQ, int BKV,
    int tr, uint8_t *d)
{
	int q, k;

	for (q = 0; q < BQ; q++)
		for (k = 0; k < BKV; k++)
			d[tr ? k * BQ + q : q * BKV + k] = (uint8_t)
			    splash_mask_at(m, h, (long)i * BQ + q,
			    (long)j * BKV + k);
}

/* Check marks a point per passed assertion (a write in fork mode): the
   loops below assert only what fails. */
#define EQ(a, b) do { long a_ = (a), b_ = (b); if (a_ != b_) \
	ck_abort_msg("%s = %ld, not %ld (line %d)", #a, a_, b_, __LINE__); \
	} while (0)

/* One row of the info against the brute force. */
static void
check_row(const SplashMask *m, const SplashMaskInfo *in, int h, int r,
    int *marked, int *part, uint8_t *blk, int *used)
{
	size_t at = ((size_t)h * in->nq + r) * in->nk;
	size_t bytes = (size_t)in->BQ * in->BKV;
	int s, i, j, t;

	for (s = 0; s < in->nk; s++) {
		i = in->transposed ? s : r;
		j = in->transposed ? r : s;
		EQ(in->block_mask[at + s],
		    brute_class(m, h, i, j, in->BQ, in->BKV));
		marked[s] = in->block_mask[at + s] != SPLASH_BLOCK_EMPTY;
		part[s] = in->block_mask[at + s] == SPLASH_BLOCK_PARTIAL;
	}
	for (s = 0; s < in->nk; s++) {
		t = nearest(marked, in->nk, s);
		EQ(in->data_next[at + s], t < 0 ? 0 : t);
	}
	if (!in->mask_next)
		return;
	for (s = 0; s < in->nk; s++) {
		int32_t mn = in->mask_next[at + s];
		if (!part[s])
			continue;
		EQ(mn >= 0 && mn < in->npartial, 1);
		used[mn] = 1;
		i = in->transposed ? s : r;
		j = in->transposed ? r : s;
		brute_block(m, h, i, j, in->BQ, in->BKV, in->transposed, blk);
		EQ(memcmp(in->partial + (size_t)mn * bytes, blk, bytes), 0);
	}
	for (s = 0; s < in->nk; s++) {
		t = nearest(part, in->nk, s);
		EQ(in->mask_next[at + s], t < 0 ? 0 : in->mask_next[at + t]);
	}
}

/* The partial blocks are distinct and each is used. */
static void
check_partials(const SplashMaskInfo *in, const int *used)
{
	size_t bytes = (size_t)in->BQ * in->BKV;
	int a, b;

	for (a = 0; a < in->npartial; a++) {
		EQ(used[a], 1);
		for (b = 0; b < a; b++)
			EQ(memcmp(in->partial + a * bytes,
			    in->partial + b * bytes, bytes) != 0, 1);
	}
}

/* Both orientations of m's tables against the brute force; returns the
   forward npartial (-1 when nothing is stored). */
static int
check_tables(const SplashMask *m, int H, long Sq, long Skv, int BQ, int BKV,
    int dense)
{
	int tr, h, r, fwd = -1;

	for (tr = 0; tr < 2; tr++) {
		SplashMaskInfo in;
		char err[200] = "";
		int *marked, *part, *used;
		uint8_t *blk;

		ck_assert_msg(splash_mask_info(m, H, Sq, Skv, BQ, BKV, tr,
		    &in, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(in.H, H);
		ck_assert_int_eq(in.nq, tr ? Skv / BKV : Sq / BQ);
		ck_assert_int_eq(in.nk, tr ? Sq / BQ : Skv / BKV);
		ck_assert_int_eq(in.transposed, tr);
		ck_assert(in.check == splash_mask_check(m, H, Sq, Skv, BQ,
		    BKV, tr));
		ck_assert_int_eq(in.mask_next != NULL, dense);
		if (!dense)
			ck_assert(in.partial == NULL && in.npartial == 0);
		marked = calloc((size_t)in.nk, sizeof(int));
		part = calloc((size_t)in.nk, sizeof(int));
		used = calloc((size_t)in.npartial + 1, sizeof(int));
		blk = malloc((size_t)BQ * BKV);
		for (h = 0; h < H; h++)
			for (r = 0; r < in.nq; r++) {
				int s, n = 0;
				check_row(m, &in, h, r, marked, part, blk,
				    used);
				for (s = 0; s < in.nk; s++)
					n += marked[s];
				EQ(splash_mask_info_row_blocks(&in, h, r), n);
			}
		check_partials(&in, used);
		if (!tr)
			fwd = dense ? in.npartial : -1;
		free(marked);
		free(part);
		free(used);
		free(blk);
		splash_mask_info_free(&in);
	}
	return fwd;
}

/* Every block size pair from the list that divides the shape. */
static void
check_blocks(const SplashMask *m, int H, long Sq, long Skv, int dense)
{
	static const int bs[] = { 1, 2, 3, 4, 8, 16 };
	size_t a, b;

	for (a = 0; a < sizeof(bs) / sizeof(bs[0]); a++)
		for (b = 0; b < sizeof(bs) / sizeof(bs[0]); b++)
			if (Sq % bs[a] == 0 && Skv % bs[b] == 0)
				check_tables(m, H, Sq, Skv, bs[a], bs[b],
				    dense);
}

/* Square and rectangular shapes. */
static void
check_shapes(SplashMask *m)
{
	check_blocks(m, 1, 48, 48, 0);
	check_blocks(m, 2, 48, 96, 0);
	check_blocks(m, 1, 96, 32, 0);
	splash_mask_free(m);
}

START_TEST(structured_kinds_match_brute_force)
{
	static const long offs[] = { 0, 3, -5, 17 };
	size_t i;

	check_shapes(splash_mask_full());
	for (i = 0; i < 4; i++)
		check_shapes(splash_mask_causal(offs[i]));
	check_shapes(splash_mask_local(4, 4, 0));
	check_shapes(splash_mask_local(0, 7, -2));
	check_shapes(splash_mask_local(SPLASH_UNBOUNDED, 3, 5));
	check_shapes(splash_mask_local(6, SPLASH_UNBOUNDED, 0));
	check_shapes(splash_mask_local(SPLASH_UNBOUNDED, SPLASH_UNBOUNDED,
	    0));
	/* chunks aligned to the blocks and not */
	check_shapes(splash_mask_chunked(1));
	check_shapes(splash_mask_chunked(5));
	check_shapes(splash_mask_chunked(8));
	check_shapes(splash_mask_chunked(12));
	check_shapes(splash_mask_chunked(200));
}
END_TEST

/* Ids of packed sequences, a new one about every mean positions. */
static void
random_ids(int32_t *v, long n, int mean, uint32_t *s)
{
	int32_t id = 0;
	long i;

	for (i = 0; i < n; i++) {
		if (rnd(s) % (unsigned)mean == 0)
			id++;
		v[i] = id;
	}
}

/* Packed sequences of random lengths: several per block, or spanning. */
static SplashMask *
random_segments(long Sq, long Skv, int mean, uint32_t *s)
{
	int32_t *q = malloc((size_t)Sq * 4), *kv = malloc((size_t)Skv * 4);
	SplashMask *m;

	random_ids(q, Sq, mean, s);
	random_ids(kv, Skv, mean, s);
	m = splash_mask_segments(Sq, q, Skv, kv);
	free(q);
	free(kv);
	return m;
}

START_TEST(segments_match_brute_force)
{
	static const int32_t ids[8] = { 7, 7, 7, 7, 3, 3, 9, 9 };
	uint32_t s = 1;
	SplashMask *m;

	check_blocks(m = random_segments(48, 48, 3, &s), 1, 48, 48, 0);
	splash_mask_free(m);
	check_blocks(m = random_segments(48, 96, 11, &s), 1, 48, 96, 0);
	splash_mask_free(m);
	check_blocks(m = random_segments(96, 32, 40, &s), 1, 96, 32, 0);
	splash_mask_free(m);
	m = splash_mask_segments(8, ids, 8, ids);
	check_blocks(m, 1, 8, 8, 0);
	ck_assert(splash_mask_at(m, 0, 0, 3));
	ck_assert(!splash_mask_at(m, 0, 0, 4));
	ck_assert(!splash_mask_at(m, 0, 8, 0));	/* outside the extent */
	splash_mask_free(m);
}
END_TEST

static SplashMask *
random_dense(long Sq, long Skv, unsigned pct, uint32_t *s)
{
	uint8_t *d = malloc((size_t)(Sq * Skv));
	SplashMask *m;
	long i;

	for (i = 0; i < Sq * Skv; i++)
		d[i] = rnd(s) % 100 < pct ? (uint8_t)(1 + rnd(s) % 200) : 0;
	m = splash_mask_dense(Sq, Skv, d);
	free(d);
	return m;
}

START_TEST(dense_matches_brute_force)
{
	static const unsigned pcts[] = { 0, 2, 50, 98, 100 };
	uint32_t s = 7;
	size_t i;
	SplashMask *m;

	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		check_blocks(m = random_dense(48, 48, pcts[i], &s), 1, 48, 48,
		    1);
		splash_mask_free(m);
		check_blocks(m = random_dense(24, 48, pcts[i], &s), 2, 24, 48,
		    1);
		splash_mask_free(m);
	}
}
END_TEST

/* A dense copy of m over Sq x Skv. */
static SplashMask *
dense_copy(const SplashMask *m, long Sq, long Skv)
{
	uint8_t *d = malloc((size_t)(Sq * Skv));
	SplashMask *c;
	long q, k;

	for (q = 0; q < Sq; q++)
		for (k = 0; k < Skv; k++)
			d[q * Skv + k] = (uint8_t)splash_mask_at(m, 0, q, k);
	c = splash_mask_dense(Sq, Skv, d);
	free(d);
	return c;
}

START_TEST(and_or_heads_match_brute_force)
{
	uint32_t s = 3;
	SplashMask *c = splash_mask_causal(0), *l = splash_mask_local(3, 3, 0);
	SplashMask *ch = splash_mask_chunked(6), *sg, *d, *v[3], *m;

	sg = random_segments(48, 48, 9, &s);
	d = random_dense(48, 48, 60, &s);
	check_blocks(m = splash_mask_and(c, l), 1, 48, 48, 1);
	splash_mask_free(m);
	check_blocks(m = splash_mask_or(ch, l), 1, 48, 48, 1);
	splash_mask_free(m);
	check_blocks(m = splash_mask_and(sg, c), 1, 48, 48, 1);
	splash_mask_free(m);
	check_blocks(m = splash_mask_or(sg, ch), 1, 48, 48, 1);
	splash_mask_free(m);
	/* complementary halves: and of two partials is empty, or full */
	{
		SplashMask *lo = splash_mask_local(SPLASH_UNBOUNDED, 0, 0);
		SplashMask *hi = splash_mask_local(0, SPLASH_UNBOUNDED, 1);
		check_blocks(m = splash_mask_and(lo, hi), 1, 48, 48, 1);
		splash_mask_free(m);
		check_blocks(m = splash_mask_or(lo, hi), 1, 48, 48, 1);
		splash_mask_free(m);
		splash_mask_free(lo);
		splash_mask_free(hi);
	}
	check_blocks(m = splash_mask_and(d, c), 1, 48, 48, 1);
	splash_mask_free(m);
	v[0] = c;
	v[1] = l;
	v[2] = sg;
	check_blocks(m = splash_mask_heads(3, v), 3, 48, 48, 1);
	splash_mask_free(m);
	v[2] = d;
	check_blocks(m = splash_mask_heads(3, v), 3, 48, 48, 1);
	splash_mask_free(m);
	splash_mask_free(c);
	splash_mask_free(l);
	splash_mask_free(ch);
	splash_mask_free(sg);
	splash_mask_free(d);
}
END_TEST

/* A dense causal mask at blocks 16 stores one triangle: the lower one
   (q >= k), or stored transposed the upper. */
static void
one_triangle(const SplashMask *d, int tr)
{
	SplashMaskInfo in;

	ck_assert_int_eq(splash_mask_info(d, 1, 64, 64, 16, 16, tr, &in,
	    NULL, 0), 0);
	ck_assert_int_eq(in.npartial, 1);
	ck_assert_int_eq(in.partial[0 * 16 + 1], tr);
	ck_assert_int_eq(in.partial[1 * 16 + 0], !tr);
	splash_mask_info_free(&in);
}

START_TEST(partial_blocks_are_deduplicated)
{
	SplashMask *c = splash_mask_causal(0), *d = dense_copy(c, 64, 64);
	SplashMask *l = splash_mask_local(8, 8, 0), *dl = dense_copy(l, 64, 64);

	/* the causal diagonal: one lower triangle */
	ck_assert_int_eq(check_tables(d, 1, 64, 64, 16, 16, 1), 1);
	one_triangle(d, 0);
	one_triangle(d, 1);
	/* the +-8 window at blocks 16: three distinct blocks (splash's
	   own example) */
	ck_assert_int_eq(check_tables(dl, 1, 64, 64, 16, 16, 1), 3);
	/* the structured masks store nothing */
	ck_assert_int_eq(check_tables(c, 1, 64, 64, 16, 16, 0), -1);
	splash_mask_free(c);
	splash_mask_free(d);
	splash_mask_free(l);
	splash_mask_free(dl);
}
END_TEST

/* splash's worked example: causal 64x64 at blocks 16. */
START_TEST(causal_worked_example)
{
	static const int32_t bm[16] = { 1,0,0,0, 2,1,0,0, 2,2,1,0, 2,2,2,1 };
	static const int32_t dn[16] = { 0,0,0,0, 0,1,1,1, 0,1,2,2, 0,1,2,3 };
	static const int32_t bmt[16] = { 1,2,2,2, 0,1,2,2, 0,0,1,2, 0,0,0,1 };
	static const int32_t dnt[16] = { 0,1,2,3, 1,1,2,3, 2,2,2,3, 3,3,3,3 };
	SplashMask *c = splash_mask_causal(0);
	SplashMaskInfo in;
	int i;

	ck_assert_int_eq(splash_mask_info(c, 1, 64, 64, 16, 16, 0, &in,
	    NULL, 0), 0);
	ck_assert_mem_eq(in.block_mask, bm, sizeof(bm));
	ck_assert_mem_eq(in.data_next, dn, sizeof(dn));
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(splash_mask_info_row_blocks(&in, 0, i), i + 1);
	ck_assert_int_eq(splash_mask_info_row_blocks(&in, 0, 4), -1);
	ck_assert_int_eq(splash_mask_info_row_blocks(&in, 1, 0), -1);
	splash_mask_info_free(&in);
	ck_assert_int_eq(splash_mask_info(c, 1, 64, 64, 16, 16, 1, &in,
	    NULL, 0), 0);
	ck_assert_mem_eq(in.block_mask, bmt, sizeof(bmt));
	ck_assert_mem_eq(in.data_next, dnt, sizeof(dnt));
	splash_mask_info_free(&in);
	splash_mask_free(c);
}
END_TEST

/* 32768 x 32768 at blocks 512: from the diagonal, fast, no S x S. */
START_TEST(causal_32k_is_cheap)
{
	SplashMask *c = splash_mask_causal(0);
	SplashMaskInfo in;
	long full = 0, part = 0, empty = 0, i;

	ck_assert_int_eq(splash_mask_info(c, 1, 32768, 32768, 512, 512, 0,
	    &in, NULL, 0), 0);
	ck_assert_int_eq(in.nq, 64);
	ck_assert_int_eq(in.nk, 64);
	ck_assert(in.mask_next == NULL && in.partial == NULL);
	for (i = 0; i < 64 * 64; i++) {
		full += in.block_mask[i] == SPLASH_BLOCK_FULL;
		part += in.block_mask[i] == SPLASH_BLOCK_PARTIAL;
		empty += in.block_mask[i] == SPLASH_BLOCK_EMPTY;
	}
	ck_assert_int_eq(part, 64);
	ck_assert_int_eq(full, 64 * 63 / 2);
	ck_assert_int_eq(empty, 64 * 63 / 2);
	ck_assert_int_eq(splash_mask_info_row_blocks(&in, 0, 63), 64);
	splash_mask_info_free(&in);
	/* and of two structured masks: blocks classified from both, the
	   partial ones stored once each: the diagonal's triangle and the
	   window's far edge */
	{
		SplashMask *l = splash_mask_local(1024, 0, 0);
		SplashMask *a = splash_mask_and(c, l);
		ck_assert_int_eq(splash_mask_info(a, 1, 32768, 32768, 512,
		    512, 1, &in, NULL, 0), 0);
		ck_assert_int_eq(splash_mask_info_row_blocks(&in, 0, 10), 3);
		ck_assert_int_eq(in.npartial, 2);
		splash_mask_info_free(&in);
		splash_mask_free(a);
		splash_mask_free(l);
	}
	/* 2^22 squared is 16 TiB: only tables of the blocks can be made */
	ck_assert_int_eq(splash_mask_info(c, 2, 1L << 22, 1L << 22, 1 << 15,
	    1 << 15, 0, &in, NULL, 0), 0);
	ck_assert_int_eq(splash_mask_info_row_blocks(&in, 1, 127), 128);
	splash_mask_info_free(&in);
	splash_mask_free(c);
}
END_TEST

/* Segments at 32768 from per-block id sets: packed sequences of 3000. */
START_TEST(segments_32k_are_cheap)
{
	int32_t *ids = malloc(32768 * sizeof(int32_t));
	SplashMask *m;
	SplashMaskInfo in;
	long i;

	for (i = 0; i < 32768; i++)
		ids[i] = (int32_t)(i / 3000);
	m = splash_mask_segments(32768, ids, 32768, ids);
	ck_assert_int_eq(splash_mask_info(m, 1, 32768, 32768, 512, 512, 0,
	    &in, NULL, 0), 0);
	/* block row 6 (q 3072..3583) lies in sequence 1 (3000..5999):
	   blocks 5 (2560..3071, partial), 6..10 full, 11 (5632..6143) */
	ck_assert_int_eq(splash_mask_info_row_blocks(&in, 0, 6), 7);
	ck_assert_int_eq(in.block_mask[6 * 64 + 5], SPLASH_BLOCK_PARTIAL);
	ck_assert_int_eq(in.block_mask[6 * 64 + 6], SPLASH_BLOCK_FULL);
	ck_assert_int_eq(in.block_mask[6 * 64 + 11], SPLASH_BLOCK_PARTIAL);
	ck_assert_int_eq(in.block_mask[6 * 64 + 12], SPLASH_BLOCK_EMPTY);
	ck_assert_int_eq(in.data_next[6 * 64 + 0], 5);
	ck_assert_int_eq(in.data_next[6 * 64 + 63], 11);
	splash_mask_info_free(&in);
	splash_mask_free(m);
	free(ids);
}
END_TEST

/* The legacy helpers agree with the library. */
START_TEST(legacy_tables_agree)
{
	int32_t bm[2 * 8 * 4], dn[2 * 8 * 4], gm[2 * 8 * 4], gn[2 * 8 * 4];
	SplashMask *c = splash_mask_causal(0);
	SplashMaskInfo in;

	ck_assert_int_eq(splash_causal_tables(2, 512, 64, 128, bm, dn), 0);
	ck_assert_int_eq(splash_mask_tables(2, 512, 512, 64, 128,
	    splash_causal, NULL, gm, gn), 0);
	ck_assert_mem_eq(bm, gm, sizeof(bm));
	ck_assert_mem_eq(dn, gn, sizeof(dn));
	ck_assert_int_eq(splash_mask_tables(2, 512, 512, 64, 128,
	    splash_mask_fn, c, gm, gn), 0);
	ck_assert_mem_eq(bm, gm, sizeof(bm));
	ck_assert_mem_eq(dn, gn, sizeof(dn));
	ck_assert_int_eq(splash_mask_info(c, 2, 512, 512, 64, 128, 0, &in,
	    NULL, 0), 0);
	ck_assert_mem_eq(in.block_mask, bm, sizeof(bm));
	ck_assert_mem_eq(in.data_next, dn, sizeof(dn));
	splash_mask_info_free(&in);
	ck_assert_int_eq(splash_causal_tables(1, 500, 128, 128, bm, dn), -1);
	ck_assert_int_eq(splash_causal_tables(0, 512, 128, 128, bm, dn), -1);
	splash_mask_free(c);
}
END_TEST

/* A loader that makes a 4 x 4 dense or segment mask from "id". */
static SplashMask *
loader(void *ctx, const char *kind, const char *args, char *err, size_t nerr)
{
	static const int32_t ids[4] = { 1, 1, 2, 2 };
	uint8_t d[16];
	int i;

	(void)ctx;
	if (strcmp(args, "id") != 0) {
		snprintf(err, nerr, "no such data '%s'", args);
		return NULL;
	}
	if (strcmp(kind, "segments") == 0)
		return splash_mask_segments(4, ids, 4, ids);
	for (i = 0; i < 16; i++)
		d[i] = i % 5 == 0;
	return splash_mask_dense(4, 4, d);
}

static void
round_trip(const char *text)
{
	char err[200] = "", buf[300];
	SplashMask *m = splash_mask_parse(text, NULL, NULL, err, sizeof(err));
	int n;

	ck_assert_msg(m != NULL, "%s: %s", text, err);
	n = splash_mask_describe(m, buf, sizeof(buf));
	ck_assert_int_eq(n, (int)strlen(text));
	ck_assert_str_eq(buf, text);
	splash_mask_free(m);
}

START_TEST(text_round_trips)
{
	static const char *const texts[] = { "full", "causal", "causal:-3",
	    "causal:12", "local:4,4", "local:inf,0", "local:3,inf,-2",
	    "local:inf,inf", "chunked:7", "heads(causal;local:2,2;full)",
	    "and(causal;local:inf,4)", "or(chunked:3;and(full;causal:1))",
	    "heads(and(causal;chunked:4);or(full;full))" };
	char err[200], buf[64], small[8];
	SplashMask *m;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		round_trip(texts[i]);
	/* causal:0 reads as causal */
	m = splash_mask_parse("causal:0", NULL, NULL, err, sizeof(err));
	ck_assert_int_eq(splash_mask_describe(m, buf, sizeof(buf)), 6);
	ck_assert_str_eq(buf, "causal");
	/* a short buffer: cut, with the full length returned */
	ck_assert_int_eq(splash_mask_describe(m, small, 4), 6);
	ck_assert_str_eq(small, "cau");
	ck_assert_int_eq(splash_mask_describe(m, NULL, 0), 6);
	splash_mask_free(m);
	/* the loaded forms go through the callback */
	m = splash_mask_parse("and(segments:id;dense:id)", loader, NULL, err,
	    sizeof(err));
	ck_assert_msg(m != NULL, "%s", err);
	ck_assert_int_eq(splash_mask_kind(m), SPLASH_MASK_AND);
	splash_mask_describe(m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "and(segments:<4,4 ids>;dense:<4x4>)");
	ck_assert(splash_mask_at(m, 0, 0, 0));
	ck_assert(!splash_mask_at(m, 0, 0, 1));
	splash_mask_free(m);
}
END_TEST

/* text fails at column col with a message containing what. */
static void
parse_fails(const char *text, SplashMaskLoad *load, int col,
    const char *what)
{
	char err[200] = "", want[32];
	SplashMask *m = splash_mask_parse(text, load, NULL, err, sizeof(err));

	ck_assert_msg(m == NULL, "%s parsed", text);
	snprintf(want, sizeof(want), "column %d: ", col);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: %s", text,
	    err);
	ck_assert_msg(strstr(err, what) != NULL, "%s: %s", text, err);
}

START_TEST(parse_errors_give_the_column)
{
	char err[64];

	parse_fails("", NULL, 1, "expected a mask");
	parse_fails("causal:", NULL, 8, "expected a number");
	parse_fails("causal:x", NULL, 8, "expected a number");
	parse_fails("causalx", NULL, 7, "after the mask");
	parse_fails("local:4", NULL, 8, "expected ','");
	parse_fails("local:-1,2", NULL, 7, "expected a number");
	parse_fails("chunked:0", NULL, 9, "at least 1");
	parse_fails("causal:99999999999999999999", NULL, 8, "out of range");
	parse_fails("and(causal)", NULL, 11, "two masks");
	parse_fails("and(causal;full;full)", NULL, 16, "too many");
	parse_fails("or(causal;bogus)", NULL, 11, "expected a mask");
	parse_fails("heads(causal;full", NULL, 18, "expected ')'");
	parse_fails("heads(causal;heads(full))", NULL, 1, "nested");
	parse_fails("dense:m.npy", NULL, 7, "no loader");
	parse_fails("heads(full;dense:nope)", loader, 18, "no such data");
	parse_fails("segments:", loader, 10, "arguments");
	ck_assert(splash_mask_parse(NULL, NULL, NULL, err, sizeof(err)) ==
	    NULL);
	ck_assert(splash_mask_parse("x", NULL, NULL, NULL, 0) == NULL);
}
END_TEST

START_TEST(hashes_and_checks_differ)
{
	static const int32_t a[4] = { 1, 1, 2, 2 }, b[4] = { 1, 2, 2, 2 };
	static const uint8_t d0[4] = { 1, 0, 0, 1 }, d1[4] = { 1, 0, 1, 1 };
	static const uint8_t d2[4] = { 5, 0, 0, 9 };
	SplashMask *m[8], *x;
	uint64_t c;
	int i, j;

	m[0] = splash_mask_causal(0);
	m[1] = splash_mask_causal(1);
	m[2] = splash_mask_local(1, 1, 0);
	m[3] = splash_mask_local(1, 1, 1);
	m[4] = splash_mask_segments(4, a, 4, a);
	m[5] = splash_mask_segments(4, a, 4, b);
	m[6] = splash_mask_dense(2, 2, d0);
	m[7] = splash_mask_dense(2, 2, d1);
	for (i = 0; i < 8; i++)
		for (j = 0; j < i; j++)
			ck_assert(splash_mask_hash(m[i]) !=
			    splash_mask_hash(m[j]));
	/* the same meaning, the same digest: made twice, or keep 5 vs 1 */
	x = splash_mask_dense(2, 2, d2);
	ck_assert(splash_mask_hash(x) == splash_mask_hash(m[6]));
	splash_mask_free(x);
	x = splash_mask_causal(0);
	ck_assert(splash_mask_hash(x) == splash_mask_hash(m[0]));
	splash_mask_free(x);
	/* and/or are ordered and distinct */
	x = splash_mask_and(m[0], m[2]);
	c = splash_mask_hash(x);
	splash_mask_free(x);
	x = splash_mask_or(m[0], m[2]);
	ck_assert(c != splash_mask_hash(x));
	splash_mask_free(x);
	c = splash_mask_check(m[0], 1, 64, 64, 16, 16, 0);
	ck_assert(c != 0);
	ck_assert(c != splash_mask_check(m[1], 1, 64, 64, 16, 16, 0));
	ck_assert(c != splash_mask_check(m[0], 2, 64, 64, 16, 16, 0));
	ck_assert(c != splash_mask_check(m[0], 1, 128, 64, 16, 16, 0));
	ck_assert(c != splash_mask_check(m[0], 1, 64, 128, 16, 16, 0));
	ck_assert(c != splash_mask_check(m[0], 1, 64, 64, 32, 16, 0));
	ck_assert(c != splash_mask_check(m[0], 1, 64, 64, 16, 32, 0));
	ck_assert(c != splash_mask_check(m[0], 1, 64, 64, 16, 16, 1));
	ck_assert(c == splash_mask_check(m[0], 1, 64, 64, 16, 16, 0));
	for (i = 0; i < 8; i++)
		splash_mask_free(m[i]);
}
END_TEST

/* info fails with a message containing what, and zeroes *info. */
static void
info_fails(const SplashMask *m, int H, long Sq, long Skv, int BQ, int BKV,
    const char *what)
{
	SplashMaskInfo in;
	char err[200] = "";

	memset(&in, 0x55, sizeof(in));
	ck_assert_int_eq(splash_mask_info(m, H, Sq, Skv, BQ, BKV, 0, &in, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, what) != NULL, "%s", err);
	ck_assert(in.block_mask == NULL && in.data_next == NULL &&
	    in.H == 0 && in.check == 0);
}

/* The kernels' description: their parameters, shapes and block sizes;
   a mask they do not apply, or a parameter past 32 bits, matches none. */
START_TEST(descriptions_name_the_kernel_parameters)
{
	static const struct { const char *text; int32_t p[4]; } want[] = {
		{ "full", { 0, 0, 0, 0 } },
		{ "causal:-40", { 1, -40, 0, 0 } },
		{ "local:20,36,3", { 2, 20, 36, 3 } },
		{ "local:inf,10", { 2, -1, 10, 0 } },
		{ "chunked:50", { 3, 50, 0, 0 } },
	};
	const int32_t ids[4] = { 0, 0, 1, 1 }, *qi, *ki;
	SplashMask *m;
	SplashMaskInfo info;
	int32_t d[SPLASH_DESC_LEN];
	long p[4], lq, lk;
	size_t i;
	int j;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		m = splash_mask_parse(want[i].text, NULL, NULL, NULL, 0);
		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(splash_mask_kernel_params(m, p), 0);
		splash_mask_desc(m, 256, 128, 32, 16, 1, d);
		ck_assert_int_eq(d[0], SPLASH_DESC_MAGIC);
		for (j = 0; j < 4; j++) {
			ck_assert_int_eq(p[j], want[i].p[j]);
			ck_assert_int_eq(d[1 + j], want[i].p[j]);
		}
		ck_assert(d[5] == 256 && d[6] == 128 && d[7] == 32 &&
		    d[8] == 16 && d[9] == 1);
		ck_assert_int_eq(splash_mask_info(m, 2, 256, 128, 32, 16, 1,
		    &info, NULL, 0), 0);
		ck_assert_mem_eq(info.desc, d, sizeof d);
		splash_mask_info_free(&info);
		splash_mask_free(m);
	}
	/* segments: MASK 4, the ids (operands) are not in the parameters */
	m = splash_mask_segments(4, ids, 3, ids + 1);
	ck_assert_int_eq(splash_mask_kernel_params(m, p), 0);
	ck_assert(p[0] == 4 && p[1] == 0 && p[2] == 0 && p[3] == 0);
	splash_mask_desc(m, 4, 3, 2, 1, 0, d);
	ck_assert(d[1] == 4 && d[2] == 0 && d[3] == 0 && d[4] == 0);
	ck_assert_int_eq(splash_mask_segment_ids(m, &lq, &qi, &lk, &ki), 0);
	ck_assert(lq == 4 && lk == 3 && qi[2] == 1 && ki[0] == 0 &&
	    ki[2] == 1 && qi != ids && ki != ids + 1);	/* copies */
	splash_mask_free(m);
	/* dense: MASK 5; the count of stored blocks, known to the info */
	{
		static const uint8_t keep[16] = { 1, 0, 1, 1,  0, 1, 1, 1,
		    1, 0, 0, 0,  0, 1, 0, 0 };
		m = splash_mask_dense(4, 4, keep);
		ck_assert_int_eq(splash_mask_kernel_params(m, p), 0);
		ck_assert(p[0] == 5 && p[1] == -1);
		splash_mask_desc(m, 4, 4, 2, 2, 0, d);
		ck_assert(d[1] == 5 && d[2] == INT32_MIN);
		ck_assert_int_eq(splash_mask_info(m, 1, 4, 4, 2, 2, 0, &info,
		    NULL, 0), 0);
		/* blocks (0,0) {1,0,0,1}, (0,1) {1,1,1,1} full, (1,0)
		   {1,0,0,1} again, (1,1) {0,0,0,0} empty */
		ck_assert_int_eq(info.npartial, 1);
		ck_assert(info.desc[1] == 5 && info.desc[2] == 1);
		splash_mask_info_free(&info);
		splash_mask_free(m);
	}
	/* the stored blocks transposed, for the dQ kernel: one 2 x 4 block
	   stored 4 x 2 */
	{
		static const uint8_t keep[8] = { 1, 1, 0, 0,  1, 0, 0, 0 };
		static const uint8_t tr[8] = { 1, 1,  1, 0,  0, 0,  0, 0 };
		m = splash_mask_dense(2, 4, keep);
		ck_assert_int_eq(splash_mask_info(m, 1, 2, 4, 2, 4, 0, &info,
		    NULL, 0), 0);
		ck_assert_int_eq(info.npartial, 1);
		ck_assert_mem_eq(info.partial, keep, 8);
		ck_assert_mem_eq(info.partial_tr, tr, 8);
		splash_mask_info_free(&info);
		splash_mask_free(m);
	}
	/* a mask made of several (here a segments mask inside an and) is
	   applied from stored blocks, as a dense one */
	{
		SplashMask *a = splash_mask_segments(4, ids, 4, ids);
		SplashMask *c = splash_mask_causal(0);
		m = splash_mask_and(a, c);
		splash_mask_free(a);
		splash_mask_free(c);
	}
	ck_assert_int_eq(splash_mask_kernel_params(m, p), 0);
	ck_assert(p[0] == 5 && p[1] == -1);
	ck_assert_int_eq(splash_mask_segment_ids(m, &lq, &qi, &lk, &ki), -1);
	splash_mask_desc(m, 4, 4, 2, 2, 0, d);
	ck_assert(d[1] == 5 && d[2] == INT32_MIN);
	/* blocks of 2: (0,0) {1,0,1,1} partial, (1,1) the same, the
	   others empty: one stored block */
	ck_assert_int_eq(splash_mask_info(m, 1, 4, 4, 2, 2, 0, &info, NULL,
	    0), 0);
	ck_assert_int_eq(info.npartial, 1);
	ck_assert(info.desc[1] == 5 && info.desc[2] == 1);
	splash_mask_info_free(&info);
	splash_mask_free(m);
	m = splash_mask_causal(1L << 33);
	ck_assert_int_eq(splash_mask_kernel_params(m, p), -1);
	splash_mask_desc(m, 4, 4, 2, 2, 0, d);
	ck_assert_int_eq(d[1], -1);
	splash_mask_desc(NULL, 1L << 33, 4, 2, 2, 0, d);
	ck_assert_int_eq(d[5], INT32_MIN);
	splash_mask_free(m);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
	static const int32_t ids[4] = { 0, 0, 1, 1 };
	static const uint8_t keep[4] = { 1, 0, 1, 1 };
	SplashMask *c = splash_mask_causal(0), *v[2], *h2, *h3, *sg, *t;

	/* constructors */
	ck_assert(splash_mask_local(-2, 0, 0) == NULL);
	ck_assert(splash_mask_local(0, -5, 0) == NULL);
	ck_assert(splash_mask_local(0, 0, 1L << 62) == NULL);
	ck_assert(splash_mask_causal(-(1L << 62)) == NULL);
	ck_assert(splash_mask_chunked(0) == NULL);
	ck_assert(splash_mask_chunked(-3) == NULL);
	ck_assert(splash_mask_segments(0, ids, 4, ids) == NULL);
	ck_assert(splash_mask_segments(4, NULL, 4, ids) == NULL);
	ck_assert(splash_mask_segments(4, ids, -4, ids) == NULL);
	ck_assert(splash_mask_segments(1L << 62, ids, 4, ids) == NULL);
	ck_assert(splash_mask_dense(2, 2, NULL) == NULL);
	ck_assert(splash_mask_dense(-2, 2, keep) == NULL);
	ck_assert(splash_mask_dense(1L << 40, 1L << 40, keep) == NULL);
	ck_assert(splash_mask_dense(1L << 62, 1L << 62, keep) == NULL);
	ck_assert(splash_mask_and(c, NULL) == NULL);
	ck_assert(splash_mask_or(NULL, c) == NULL);
	ck_assert(splash_mask_heads(0, &c) == NULL);
	ck_assert(splash_mask_heads(2, NULL) == NULL);
	v[0] = c;
	v[1] = NULL;
	ck_assert(splash_mask_heads(2, v) == NULL);
	v[1] = c;
	h2 = splash_mask_heads(2, v);
	ck_assert(h2 != NULL);
	v[0] = h2;
	ck_assert(splash_mask_heads(2, v) == NULL);	/* nested */
	t = splash_mask_and(h2, c);
	v[0] = t;
	ck_assert(splash_mask_heads(2, v) == NULL);	/* nested deeper */
	v[0] = v[1] = c;
	h3 = splash_mask_heads(1, v);
	ck_assert(splash_mask_and(h2, h3) == NULL);	/* 2 vs 1 heads */
	ck_assert(splash_mask_at(NULL, 0, 0, 0) == 0);
	ck_assert(splash_mask_at(c, 0, -1, -1) == 0);
	ck_assert(splash_mask_at(h2, 5, 3, 0) == 0);
	ck_assert(splash_mask_hash(NULL) == 0);
	splash_mask_free(NULL);

	/* info */
	info_fails(NULL, 1, 64, 64, 16, 16, "no mask");
	info_fails(c, 0, 64, 64, 16, 16, "positive");
	info_fails(c, 1, -64, 64, 16, 16, "positive");
	info_fails(c, 1, 64, 64, 0, 16, "positive");
	info_fails(c, 1, 64, 64, 16, -16, "positive");
	info_fails(c, 1, 60, 64, 16, 16, "is not 0");
	info_fails(c, 1, 64, 60, 16, 16, "is not 0");
	info_fails(c, 1, 1L << 62, 64, 512, 16, "above SPLASH_MASK_MAX");
	info_fails(c, 1, 64, 1L << 62, 16, 1 << 30, "above SPLASH_MASK_MAX");
	info_fails(c, 1, 1L << 60, 64, 512, 16, "too many");
	info_fails(c, 1, 64, 1L << 60, 16, 1 << 28, "too many");
	info_fails(c, 1 << 20, 1L << 20, 1L << 20, 64, 64, "too many");
	info_fails(c, 1, 1L << 40, 1L << 40, 1 << 20, 1 << 20, "too many");
	info_fails(h2, 3, 64, 64, 16, 16, "not H = 3");
	info_fails(t, 1, 64, 64, 16, 16, "not H = 1");
	sg = splash_mask_segments(4, ids, 4, ids);
	info_fails(sg, 1, 8, 4, 4, 4, "not 8 x 4");
	ck_assert_int_eq(splash_mask_info(c, 1, 64, 64, 16, 16, 0, NULL,
	    NULL, 0), -1);
	ck_assert_int_eq(splash_mask_info_row_blocks(NULL, 0, 0), -1);
	ck_assert(splash_mask_check(NULL, 1, 1, 1, 1, 1, 0) != 0);
	splash_mask_info_free(NULL);
	splash_mask_free(sg);
	splash_mask_free(t);
	splash_mask_free(h2);
	splash_mask_free(h3);
	splash_mask_free(c);
}
END_TEST

/* References: a mask outlives the handle it was made from. */
START_TEST(references_are_counted)
{
	SplashMask *c = splash_mask_causal(0), *a, *r;

	a = splash_mask_and(c, c);
	splash_mask_free(c);
	ck_assert(splash_mask_at(a, 0, 3, 2));
	ck_assert(!splash_mask_at(a, 0, 2, 3));
	r = splash_mask_ref(a);
	ck_assert(r == a);
	splash_mask_free(a);
	ck_assert_int_eq(splash_mask_kind(r), SPLASH_MASK_AND);
	splash_mask_free(r);
	ck_assert(splash_mask_ref(NULL) == NULL);
}
END_TEST

/* dsinks by hand: head 0 has p_sink = 1 and 1/2 in its two rows, head
   1 a row with neither key nor sink (lse -inf), which adds nothing. */
START_TEST(sinks_gradient)
{
	const float sinks[2] = { 0.0f, -1.0f };
	float lse[4] = { 0.0f, 0.0f, -INFINITY, -1.0f };
	const float di[4] = { 1.0f, 2.0f, 5.0f, 0.25f };
	float ds[2] = { 9, 9 };

	lse[1] = (float)log(2.0);
	ck_assert_int_eq(splash_sinks_grad(2, 2, sinks, lse, di, ds), 0);
	ck_assert(fabs(ds[0] - -2.0) < 1e-6);
	ck_assert(fabs(ds[1] - -0.25) < 1e-6);
	ck_assert_int_eq(splash_sinks_grad(0, 2, sinks, lse, di, ds), -1);
	ck_assert_int_eq(splash_sinks_grad(2, 0, sinks, lse, di, ds), -1);
	ck_assert_int_eq(splash_sinks_grad(2, 2, NULL, lse, di, ds), -1);
	ck_assert_int_eq(splash_sinks_grad(2, 2, sinks, lse, di, NULL), -1);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("splash_mask");
	TCase *t = tcase_create("core");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, structured_kinds_match_brute_force);
	tcase_add_test(t, segments_match_brute_force);
	tcase_add_test(t, dense_matches_brute_force);
	tcase_add_test(t, and_or_heads_match_brute_force);
	tcase_add_test(t, partial_blocks_are_deduplicated);
	tcase_add_test(t, causal_worked_example);
	tcase_add_test(t, causal_32k_is_cheap);
	tcase_add_test(t, segments_32k_are_cheap);
	tcase_add_test(t, legacy_tables_agree);
	tcase_add_test(t, text_round_trips);
	tcase_add_test(t, parse_errors_give_the_column);
	tcase_add_test(t, hashes_and_checks_differ);
	tcase_add_test(t, descriptions_name_the_kernel_parameters);
	tcase_add_test(t, bad_arguments_are_refused);
	tcase_add_test(t, references_are_counted);
	tcase_add_test(t, sinks_gradient);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
