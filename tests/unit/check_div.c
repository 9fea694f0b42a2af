/*
 * check_div.c - division compiled for a machine without a divider
 * (backend/vliw/isel_vdiv.c, isel_sdiv.c, isel_frem.c), bit for bit
 * against C's '/' and '%' (what interpret mode computes), vector f32
 * x / y (x * (1 / y)) within 2 ulps: vector f32 x / y over the cross
 * product of edge values (zeros, infinities, NaNs, denormals, the
 * extremes, halfway cases in the denormal range) and random bit
 * patterns; vector i32 / and % by vectors (INT_MIN / -1 wraps, INT_MIN
 * % -1 is 0) and by constants; scalar f32 division of SMEM table
 * entries; f32 % (fmodf), vector and scalar, bit for bit (NaNs too) over
 * the same edges and exponents far apart.  Each kernel runs on the
 * simulator (small, v4 and v6e, every check on) through the runtime API.
 * Divisors of zero are left out of the i32 cases: interpret mode reports
 * them, the compiled value is undefined.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

#define N (64 * 128)		/* elements of each [64, 128] operand */

static const char *const presets[] = { "small", "v4", "v6e" };

static const char vec_src[] =
"kernel fdiv(x: f32[64, 128], y: f32[64, 128], out q: f32[64, 128])\n"
"grid (i: 8)\n"
"blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0);\n"
"    q: [8, 128] at (i, 0); }\n"
"{ q[...] = x[...] / y[...]; }\n"
"kernel idiv(a: i32[64, 128], b: i32[64, 128], out q: i32[64, 128],\n"
"    out r: i32[64, 128], out c: i32[64, 128], out d: i32[64, 128])\n"
"grid (i: 8)\n"
"blocks { a: [8, 128] at (i, 0); b: [8, 128] at (i, 0);\n"
"    q: [8, 128] at (i, 0); r: [8, 128] at (i, 0);\n"
"    c: [8, 128] at (i, 0); d: [8, 128] at (i, 0); }\n"
"{ q[...] = a[...] / b[...]; r[...] = a[...] % b[...];\n"
"  c[...] = a[...] / 3 + a[...] % -1000 * 7 + a[...] / -8;\n"
"  d[...] = a[...] / 2147483647 + a[...] % 16 - a[...] / (-2147483647 - 1)\n"
"      + a[...] / -1; }\n"
"kernel sfdiv(smem w: f32[64], smem v: f32[64], out q: f32[512, 128])\n"
"grid (i: 64)\n"
"semantics (arbitrary)\n"
"blocks { q: [8, 128] at (i, 0); }\n"
"{ q[...] = broadcast(w[i] / v[i], [8, 128]); }\n"
"kernel frem(x: f32[64, 128], y: f32[64, 128], out q: f32[64, 128])\n"
"grid (i: 8)\n"
"blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0);\n"
"    q: [8, 128] at (i, 0); }\n"
"{ q[...] = x[...] % y[...]; }\n"
"kernel sfrem(smem w: f32[64], smem v: f32[64], out q: f32[512, 128])\n"
"grid (i: 64)\n"
"semantics (arbitrary)\n"
"blocks { q: [8, 128] at (i, 0); }\n"
"{ q[...] = broadcast(w[i] % v[i], [8, 128]); }\n"
"export fdiv; export idiv; export sfdiv; export frem; export sfrem;\n";

static const uint32_t fedge[] = {
	0x00000000, 0x80000000, 0x7f800000, 0xff800000,	/* +-0, +-inf */
	0x7fc00000, 0xffc12345, 0x7f800001, 0xff912345,	/* NaNs */
	0x00000001, 0x80000003, 0x00000005, 0x007fffff,	/* denormals */
	0x00400000, 0x00000002, 0x00800000, 0x80800001,	/* tiny */
	0x7f7fffff, 0xff7ffffe, 0x3f800000, 0xbf800000,	/* max, +-1 */
	0x40000000, 0x40400000, 0x3dcccccd, 0x4b800000,	/* 2, 3, 0.1 */
	0x3f7fffff, 0x3f800001, 0x1a000000, 0x66000000,	/* near 1, far */
	0x40e00000, 0xc1200000, 0x34000000, 0x4f000000,	/* 7, -10 */
};

static const int32_t iedge[] = {
	0, 1, -1, 2, -2, 3, -3, 7, -7, 16, -16, 1000, INT32_MAX, INT32_MIN,
	INT32_MIN + 1, INT32_MAX - 1, 1 << 30, -(1 << 30), 65535, 65537,
	-65537, 46341, 12345678, -99999999, 0x55555555, 3 << 29,
};

static uint32_t
lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(*s >> 32);
}

/* f32 bits: random, random denormal, random exponent near the edges. */
static uint32_t
frand(uint64_t *s)
{
	static const uint32_t ex[] = { 0, 1, 2, 24, 100, 126, 127, 128, 150,
		230, 253, 254 };
	uint32_t u = lcg(s), k = lcg(s) % 3;

	if (k == 0)
		return u;
	if (k == 1)
		return u & 0x807fffffu;
	return (u & 0x807fffffu) | ex[lcg(s) % countof(ex)] << 23;
}

static float
fbits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t
bitsf(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* x[i] / y[i] as C computes it (volatile: at run time, with the host's
   NaNs, not folded by the compiler). */
static uint32_t
cdiv(uint32_t x, uint32_t y)
{
	volatile float a = fbits(x), b = fbits(y);

	return bitsf(a / b);
}

/* fmodf(x, y) as C computes it at run time (interpret mode's %). */
static uint32_t
crem(uint32_t x, uint32_t y)
{
	volatile float a = fbits(x), b = fbits(y);

	return bitsf(fmodf(a, b));
}

static int32_t
wrap(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static void
compile(VtUnit *u, const char *preset)
{
	ck_assert_msg(vt_compile(u, vec_src, preset) == 0, "%s: %s", preset,
	    u->text);
}

/* f32 bits as a position on the number line (ulps apart = distance). */
static int64_t
ordered(uint32_t b)
{
	return b & 0x80000000u ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
}

/* Vector x / y is x * (1 / y) (isel_vec.c): within 2 ulps of C's, the
   same NaN class; divisors whose reciprocal leaves the normal range
   (1 / y overflows or is denormal) left out. */
static void
check_f32(const char *what, const float *x, const float *y, const float *q,
    int64_t n)
{
	int64_t i, d, tested = 0;

	for (i = 0; i < n; i++) {
		uint32_t want = cdiv(bitsf(x[i]), bitsf(y[i]));
		uint32_t got = bitsf(q[i]);
		if (y[i] != 0 && (fabsf(y[i]) < FLT_MIN ||
		    fabsf(y[i]) > 1 / FLT_MIN))
			continue;
		tested++;
		if (isnan(fbits(want))) {
			ck_assert_msg(isnan(q[i]), "%s: %08x / %08x = %08x, C "
			    "gives NaN", what, bitsf(x[i]), bitsf(y[i]), got);
			continue;
		}
		d = ordered(got) - ordered(want);
		ck_assert_msg(d >= -2 && d <= 2, "%s: %08x / %08x = %08x, C "
		    "gives %08x", what, bitsf(x[i]), bitsf(y[i]), got, want);
	}
	ck_assert_int_gt(tested, n / 2);
}

START_TEST(f32_vector)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		float *x = xmalloc(N * sizeof *x), *y = xmalloc(N * sizeof *y);
		float *q = xcalloc(N, sizeof *q);
		void *b[3] = { x, y, q };
		uint64_t s = 7, cyc;
		int64_t i, e = countof(fedge);

		for (i = 0; i < N; i++) {
			uint32_t a = i < e * e ? fedge[i / e] : frand(&s);
			uint32_t c = i < e * e ? fedge[i % e] : frand(&s);
			if (i >= e * e && i < e * e + 512) {
				/* denormal halves and quarters: ties to even */
				a = (uint32_t)(i & 0xff) |
				    (i & 0x100 ? 0x80000000u : 0);
				c = i & 1 ? 0x40000000 : 0x40800000;
			}
			x[i] = fbits(a);
			y[i] = fbits(c);
		}
		compile(&u, presets[k]);
		cyc = vt_run(&u, "fdiv", b, 3, NULL);
		check_f32(presets[k], x, y, q, N);
		printf("check_div: fdiv on %s: %llu cycles\n", presets[k],
		    (unsigned long long)cyc);
		vt_free(&u);
		free(x);
		free(y);
		free(q);
	}
}
END_TEST

static int32_t
irand(uint64_t *s)
{
	uint32_t u = lcg(s);

	switch (lcg(s) % 3) {
	case 0: return (int32_t)u;
	case 1: return (int32_t)u >> (lcg(s) % 32);
	default: return (int32_t)(u % 2001) - 1000;
	}
}

START_TEST(i32_vector)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		int32_t *a = xmalloc(N * 4), *b = xmalloc(N * 4);
		int32_t *o[4];
		void *bufs[6];
		uint64_t s = 11, cyc;
		int64_t i, e = countof(iedge), j;

		for (j = 0; j < 4; j++)
			o[j] = xcalloc(N, 4);
		for (i = 0; i < N; i++) {
			a[i] = i < e * e ? iedge[i / e] : irand(&s);
			b[i] = i < e * e ? iedge[i % e] : irand(&s);
			if (b[i] == 0)
				b[i] = i & 1 ? INT32_MIN : -1;
		}
		bufs[0] = a;
		bufs[1] = b;
		for (j = 0; j < 4; j++)
			bufs[2 + j] = o[j];
		compile(&u, presets[k]);
		cyc = vt_run(&u, "idiv", bufs, 6, NULL);
		for (i = 0; i < N; i++) {
			int64_t x = a[i], y = b[i];
			int32_t want[4];
			want[0] = wrap(x / y);
			want[1] = wrap(x % y);
			want[2] = wrap(x / 3 + x % -1000 * 7 + x / -8);
			want[3] = wrap(x / INT32_MAX + x % 16 - x / INT32_MIN
			    - x);
			for (j = 0; j < 4; j++)
				ck_assert_msg(o[j][i] == want[j], "%s: output "
				    "%lld for %d, %d: %d, C gives %d",
				    presets[k], (long long)j, a[i], b[i],
				    o[j][i], want[j]);
		}
		printf("check_div: idiv on %s: %llu cycles\n", presets[k],
		    (unsigned long long)cyc);
		vt_free(&u);
		free(a);
		free(b);
		for (j = 0; j < 4; j++)
			free(o[j]);
	}
}
END_TEST

START_TEST(f32_scalar)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		float w[64], v[64], *q = xcalloc(512 * 128, sizeof *q);
		void *b[3] = { w, v, q };
		uint64_t s = 5, cyc;
		int64_t i, j;

		for (i = 0; i < 64; i++) {
			w[i] = fbits(i < 32 ? fedge[i] : frand(&s));
			v[i] = fbits(i < 32 ? fedge[(i * 7 + 3) % 32] :
			    frand(&s));
		}
		compile(&u, presets[k]);
		cyc = vt_run(&u, "sfdiv", b, 3, NULL);
		for (i = 0; i < 64; i++)
			for (j = 0; j < 8 * 128; j++) {
				uint32_t want = cdiv(bitsf(w[i]), bitsf(v[i]));
				ck_assert_msg(bitsf(q[i * 1024 + j]) == want,
				    "%s: %08x / %08x = %08x, C gives %08x",
				    presets[k], bitsf(w[i]), bitsf(v[i]),
				    bitsf(q[i * 1024 + j]), want);
			}
		printf("check_div: sfdiv on %s: %llu cycles\n", presets[k],
		    (unsigned long long)cyc);
		vt_free(&u);
		free(q);
	}
}
END_TEST

/* Vector f32 % is exact: C's fmodf bit for bit (NaNs too) over the
   edge values' cross product, random bit patterns and huge ratios. */
START_TEST(f32_rem_vector)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		float *x = xmalloc(N * sizeof *x), *y = xmalloc(N * sizeof *y);
		float *q = xcalloc(N, sizeof *q);
		void *b[3] = { x, y, q };
		uint64_t s = 9, cyc;
		int64_t i, e = countof(fedge);

		for (i = 0; i < N; i++) {
			uint32_t a = i < e * e ? fedge[i / e] : frand(&s);
			uint32_t c = i < e * e ? fedge[i % e] : frand(&s);
			if (i >= e * e && i < e * e + 1024) {
				/* far apart: x huge, y small or denormal */
				a = (lcg(&s) & 0x807fffffu) |
				    (uint32_t)(200 + i % 55) << 23;
				c = i & 1 ? lcg(&s) & 0x807fffffu :
				    (lcg(&s) & 0x807fffffu) |
				    (uint32_t)(1 + i % 60) << 23;
			}
			x[i] = fbits(a);
			y[i] = fbits(c);
		}
		x[N - 1] = 1e30f;
		y[N - 1] = 3.0f;
		compile(&u, presets[k]);
		cyc = vt_run(&u, "frem", b, 3, NULL);
		for (i = 0; i < N; i++) {
			uint32_t want = crem(bitsf(x[i]), bitsf(y[i]));
			ck_assert_msg(bitsf(q[i]) == want, "%s: %08x %% %08x = "
			    "%08x, C gives %08x", presets[k], bitsf(x[i]),
			    bitsf(y[i]), bitsf(q[i]), want);
		}
		printf("check_div: frem on %s: %llu cycles\n", presets[k],
		    (unsigned long long)cyc);
		vt_free(&u);
		free(x);
		free(y);
		free(q);
	}
}
END_TEST

/* Scalar f32 % of SMEM entries, on the integer ALU: C's fmodf. */
START_TEST(f32_rem_scalar)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		float w[64], v[64], *q = xcalloc(512 * 128, sizeof *q);
		void *b[3] = { w, v, q };
		uint64_t s = 3, cyc;
		int64_t i, j;

		for (i = 0; i < 64; i++) {
			w[i] = fbits(i < 32 ? fedge[i] : frand(&s));
			v[i] = fbits(i < 32 ? fedge[(i * 7 + 3) % 32] :
			    frand(&s));
		}
		w[63] = 3e38f;
		v[63] = fbits(1);
		compile(&u, presets[k]);
		cyc = vt_run(&u, "sfrem", b, 3, NULL);
		for (i = 0; i < 64; i++)
			for (j = 0; j < 8 * 128; j++) {
				uint32_t want = crem(bitsf(w[i]), bitsf(v[i]));
				ck_assert_msg(bitsf(q[i * 1024 + j]) == want,
				    "%s: %08x %% %08x = %08x, C gives %08x",
				    presets[k], bitsf(w[i]), bitsf(v[i]),
				    bitsf(q[i * 1024 + j]), want);
			}
		printf("check_div: sfrem on %s: %llu cycles\n", presets[k],
		    (unsigned long long)cyc);
		vt_free(&u);
		free(q);
	}
}
END_TEST

/* f32 against interpret mode itself (its random inputs). */
START_TEST(against_interpret)
{
	VtOpts o = { .tol = 1e-6, .seed = 4 };
	size_t k;

	for (k = 0; k < countof(presets); k++)
		vt_check(vec_src, presets[k], "fdiv", &o, NULL);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("div");
	TCase *t = tcase_create("div");

	tcase_set_timeout(t, 300);
	tcase_add_test(t, f32_vector);
	tcase_add_test(t, i32_vector);
	tcase_add_test(t, f32_scalar);
	tcase_add_test(t, f32_rem_vector);
	tcase_add_test(t, f32_rem_scalar);
	tcase_add_test(t, against_interpret);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
