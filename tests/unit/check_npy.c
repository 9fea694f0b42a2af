/*
 * check_npy.c - interpret mode's host side: .npy reading and writing
 * (round trips, every version and dtype, malformed files rejected with a
 * message), the input generators, and the Splash host helpers (mask
 * tables and the copies they save).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsl/interp/interp.h"
#include "kernels/splash/splash_host.h"
#include "kernels/matmul/matmul_host.h"

static Shape
shape2(int64_t a, int64_t b)
{
	Shape s = { 2, { a, b } };
	return s;
}

START_TEST(npy_round_trip_all_dtypes)
{
	static const DType ts[] = { DT_F32, DT_BF16, DT_I32, DT_I8, DT_BOOL };
	size_t i;

	for (i = 0; i < countof(ts); i++) {
		InterpBuf b, c;
		Shape s = shape2(3, 5);
		Buf out = {0};
		char err[200];
		int64_t k;

		interp_buf_alloc(&b, "x", ts[i], &s);
		interp_fill(&b, INTERP_RANDOM, 7 + i);
		ck_assert_int_eq(interp_npy_format(&out, &b), 0);
		ck_assert_int_eq(out.n % 64, 15 * interp_elem_size(ts[i]) % 64);
		ck_assert_int_eq(interp_npy_parse(out.p, out.n, &c, err,
		    sizeof err), 0);
		ck_assert_int_eq(c.dtype, ts[i]);
		ck_assert(shape_eq(&c.shape, &s));
		ck_assert_mem_eq(c.data, b.data, 15 * interp_elem_size(ts[i]));
		for (k = 0; k < 15; k++)
			ck_assert(interp_buf_get(&c, k) ==
			    interp_buf_get(&b, k));
		interp_buf_free(&b);
		interp_buf_free(&c);
		buf_free(&out);
	}
}
END_TEST

/* The header NumPy itself writes, versions 1.0 and 2.0, ranks 0 and 1. */
static size_t
make_npy(char *p, int major, const char *dict, const void *data,
    size_t n)
{
	size_t hl = strlen(dict), off = major == 1 ? 10 : 12;

	memcpy(p, "\x93NUMPY", 6);
	p[6] = (char)major;
	p[7] = 0;
	p[8] = (char)(hl & 0xff);
	p[9] = (char)(hl >> 8);
	if (major != 1)
		p[10] = p[11] = 0;
	memcpy(p + off, dict, hl);
	memcpy(p + off + hl, data, n);
	return off + hl + n;
}

START_TEST(npy_reads_numpy_headers)
{
	char file[512], err[200];
	float v[3] = { 1.5f, -2, 0.25f };
	int32_t one = 42;
	InterpBuf b;
	size_t n;

	n = make_npy(file, 1, "{'descr': '<f4', 'fortran_order': False, "
	    "'shape': (3,), }          \n", v, sizeof v);
	ck_assert_int_eq(interp_npy_parse(file, n, &b, err, sizeof err), 0);
	ck_assert_int_eq(b.shape.rank, 1);
	ck_assert_int_eq(b.shape.d[0], 3);
	ck_assert(interp_buf_get(&b, 2) == 0.25);
	interp_buf_free(&b);

	n = make_npy(file, 2, "{\"shape\": (), \"descr\": \"<i4\", "
	    "\"fortran_order\": False}\n", &one, sizeof one);
	ck_assert_int_eq(interp_npy_parse(file, n, &b, err, sizeof err), 0);
	ck_assert_int_eq(b.shape.rank, 0);
	ck_assert(interp_buf_get(&b, 0) == 42);
	interp_buf_free(&b);
}
END_TEST

/* Each malformed file is rejected with the expected message. */
START_TEST(npy_rejects_malformed)
{
	static const struct { const char *dict; size_t data; const char *msg; }
	bad[] = {
		{ "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
		  8, "big-endian" },
		{ "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
		  16, "unsupported .npy dtype '<f8'" },
		{ "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }",
		  8, "Fortran-order" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  8, "has 8 bytes, the header announces 12" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
		  12, "has 12 bytes" },
		{ "{'descr': '<f4', 'fortran_order': False}", 0,
		  "lacks shape" },
		{ "{'descr': '<f4', 'descr': '<f4', 'shape': (2,)}", 8,
		  "repeated key 'descr'" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,3",
		  24, "expected" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': "
		  "(1,1,1,1,1,1,1,1,1), }", 4, "more than 8 dimensions" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': "
		  "(4294967296, 4294967296, 4294967296), }", 0, "too large" },
		{ "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
		  2, "other than 0 and 1" },
		{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x",
		  8, "junk" },
	};
	char file[512], data[32], err[200];
	InterpBuf b;
	size_t i, n;

	memset(data, 7, sizeof data);
	for (i = 0; i < countof(bad); i++) {
		n = make_npy(file, 1, bad[i].dict, data, bad[i].data);
		err[0] = 0;
		ck_assert_int_eq(interp_npy_parse(file, n, &b, err,
		    sizeof err), -1);
		ck_assert_msg(strstr(err, bad[i].msg), "case %zu: '%s'", i,
		    err);
		ck_assert_ptr_null(b.data);
	}
	/* bad magic, bad version, header longer than the file */
	ck_assert_int_eq(interp_npy_parse("\x93NUMPX\1\0\0\0", 10, &b, err,
	    sizeof err), -1);
	ck_assert_int_eq(interp_npy_parse("\x93NUMPY\4\0\0\0", 10, &b, err,
	    sizeof err), -1);
	ck_assert(strstr(err, "version 4.0"));
	ck_assert_int_eq(interp_npy_parse("\x93NUMPY\1\0\xff\0{", 11, &b,
	    err, sizeof err), -1);
	ck_assert(strstr(err, "truncated"));
}
END_TEST

/* Every truncation and every one-byte corruption of a valid file is
   accepted or rejected cleanly (the sanitizer build checks the reads). */
START_TEST(npy_survives_corruption)
{
	InterpBuf b, c;
	Shape s = shape2(2, 3);
	Buf out = {0};
	char err[200], *p;
	size_t n, i;
	int v;

	interp_buf_alloc(&b, "x", DT_F32, &s);
	interp_fill(&b, INTERP_IOTA, 0);
	interp_npy_format(&out, &b);
	p = xmalloc(out.n);
	for (n = 0; n < out.n; n++) {
		if (interp_npy_parse(out.p, n, &c, err, sizeof err) == 0)
			ck_abort_msg("truncated to %zu accepted", n);
	}
	for (i = 0; i < out.n; i++)
		for (v = 0; v < 256; v += 17) {
			memcpy(p, out.p, out.n);
			p[i] = (char)v;
			if (interp_npy_parse(p, out.n, &c, err, sizeof err)
			    == 0)
				interp_buf_free(&c);
		}
	free(p);
	buf_free(&out);
	interp_buf_free(&b);
}
END_TEST

START_TEST(npy_file_round_trip)
{
	const char *tmp = getenv("TMPDIR");
	char path[512], err[200];
	InterpBuf b, c;
	Shape s = shape2(4, 4);
	int fd;

	snprintf(path, sizeof path, "%s/check_npy_XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	interp_buf_alloc(&b, "x", DT_BF16, &s);
	interp_fill(&b, INTERP_RANDOM, 3);
	ck_assert_int_eq(interp_npy_write(path, &b, err, sizeof err), 0);
	ck_assert_int_eq(interp_npy_read(path, &c, err, sizeof err), 0);
	ck_assert_mem_eq(b.data, c.data, 32);
	interp_buf_free(&c);
	remove(path);
	ck_assert_int_eq(interp_npy_read(path, &c, err, sizeof err), -1);
	ck_assert(strstr(err, "cannot read"));
	interp_buf_free(&b);
	interp_buf_free(&c);
}
END_TEST

START_TEST(fill_generators)
{
	InterpBuf b, c;
	Shape s = shape2(8, 16);
	int64_t i;
	double lo = 1, hi = -1;

	interp_buf_alloc(&b, "x", DT_F32, &s);
	interp_buf_alloc(&c, "y", DT_F32, &s);
	interp_fill(&b, INTERP_IOTA, 0);
	for (i = 0; i < 128; i++)
		ck_assert(interp_buf_get(&b, i) == (double)i);
	interp_fill(&b, INTERP_ONES, 0);
	ck_assert(interp_buf_get(&b, 77) == 1);
	interp_fill(&b, INTERP_RANDOM, 5);
	interp_fill(&c, INTERP_RANDOM, 5);
	ck_assert_mem_eq(b.data, c.data, 128 * 4);
	for (i = 0; i < 128; i++) {
		double v = interp_buf_get(&b, i);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	ck_assert(lo >= -1 && lo < -0.5 && hi < 1 && hi > 0.5);
	interp_fill(&c, INTERP_RANDOM, 6);
	ck_assert(memcmp(b.data, c.data, 128 * 4) != 0);
	ck_assert_int_eq(interp_fill_by_name("iota"), INTERP_IOTA);
	ck_assert_int_eq(interp_fill_by_name("gauss"), -1);
	interp_buf_free(&b);
	interp_buf_free(&c);
}
END_TEST

START_TEST(bf16_rounding)
{
	/* ties to even, NaN kept quiet, agreement of the two helpers */
	ck_assert_uint_eq(interp_bf16(1.0f), 0x3f80);
	/* halfway cases: down to even, then up to even */
	ck_assert_uint_eq(interp_bf16(1.00390625f), 0x3f80);
	ck_assert_uint_eq(interp_bf16(1.01171875f), 0x3f82);
	ck_assert(isnan(interp_bf16_f32(interp_bf16(NAN))));
	ck_assert_uint_eq(matmul_f32_to_bf16(1.01171875f), 0x3f82);
	ck_assert(matmul_bf16_to_f32(0x4049) == interp_bf16_f32(0x4049));
}
END_TEST

/* Causal tables for S = 512, blocks 128: row i runs blocks 0 .. i. */
START_TEST(splash_causal_tables_4x4)
{
	static const int32_t bm[16] = { 1,0,0,0, 2,1,0,0, 2,2,1,0, 2,2,2,1 };
	static const int32_t dn[16] = { 0,0,0,0, 0,1,1,1, 0,1,2,2, 0,1,2,3 };
	int32_t m[32], n[32], gm[32], gn[32];

	ck_assert_int_eq(splash_causal_tables(2, 512, 128, 128, m, n), 0);
	ck_assert_mem_eq(m, bm, sizeof bm);
	ck_assert_mem_eq(n, dn, sizeof dn);
	ck_assert_mem_eq(m + 16, bm, sizeof bm);	/* every head */
	ck_assert_int_eq(splash_mask_tables(2, 512, 512, 128, 128,
	    splash_causal, NULL, gm, gn), 0);
	ck_assert_mem_eq(gm, m, sizeof m);
	ck_assert_mem_eq(gn, n, sizeof n);
	/* one head: 1 + 1 + 3 + 4 fetches instead of 16 */
	ck_assert_int_eq(splash_kv_fetches(1, 1, 4, 4, n), 9);
	/* two query heads sharing a KV head: the second row 0 refetches */
	ck_assert_int_eq(splash_kv_fetches(2, 1, 4, 4, n), 18);
	ck_assert_int_eq(splash_causal_tables(1, 500, 128, 128, m, n), -1);
	ck_assert_int_eq(splash_kv_fetches(3, 2, 4, 4, n), -1);
}
END_TEST

/* A mask whose empty blocks sit before and after the running ones. */
static int
band(void *ctx, int h, int q, int k)
{
	(void)ctx;
	(void)h;
	(void)q;
	return k >= 256 && k < 320;
}

START_TEST(splash_generic_mask_next)
{
	int32_t m[4], n[4];
	static const int32_t bm[4] = { 0, 0, 1, 0 };
	static const int32_t dn[4] = { 2, 2, 2, 2 };

	ck_assert_int_eq(splash_mask_tables(1, 128, 512, 128, 128, band,
	    NULL, m, n), 0);
	ck_assert_mem_eq(m, bm, sizeof bm);
	ck_assert_mem_eq(n, dn, sizeof dn);
}
END_TEST

/* The reference: uniform scores give the mean of the visible values. */
START_TEST(splash_reference_uniform)
{
	float q[2 * 4 * 2] = {0}, k[4 * 2] = {0}, v[4 * 2];
	double o[2 * 4 * 2], lse[2 * 4];
	int i;
	SplashDims n = { 2, 1, 4, 4, 2, 2, 0, 0, NULL };
	SplashDims bad = { 3, 2, 4, 4, 2, 2, 0, 0, NULL };

	for (i = 0; i < 8; i++)
		v[i] = (float)i;
	ck_assert_int_eq(splash_reference(&n, q, k, v, splash_causal, NULL, o,
	    lse), 0);
	/* row 2 of head 1 sees keys 0..2: mean of v rows 0..2 */
	ck_assert(fabs(o[(4 + 2) * 2] - (0 + 2 + 4) / 3.0) < 1e-12);
	ck_assert(fabs(lse[4 + 3] - log(4.0)) < 1e-12);
	ck_assert_int_eq(splash_reference(&bad, q, k, v, splash_causal, NULL,
	    o, lse), -1);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("npy");
	TCase *t = tcase_create("core");

	tcase_add_test(t, npy_round_trip_all_dtypes);
	tcase_add_test(t, npy_reads_numpy_headers);
	tcase_add_test(t, npy_rejects_malformed);
	tcase_add_test(t, npy_survives_corruption);
	tcase_add_test(t, npy_file_round_trip);
	tcase_add_test(t, fill_generators);
	tcase_add_test(t, bf16_rounding);
	tcase_add_test(t, splash_causal_tables_4x4);
	tcase_add_test(t, splash_generic_mask_next);
	tcase_add_test(t, splash_reference_uniform);
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
