/*
 * check_mxu.c - matmuls on the MXUs (backend/vliw/isel_mxu.c and the
 * scheduler's MXU rules in sched.c): every MXU of the preset in use
 * (K tiles summed in the VPU, N tiles side by side, replicas of a small
 * set taking alternate row groups), the software
 * pipeline's unrolled and looped forms (set and trip counters, guarded
 * weight pushes and latches), f32 at each precision and bf16, trans_b,
 * accumulation over a grid; results compared with a plain-C reference,
 * every program run on the simulator with every check on (a trap
 * fails).  Also a utilisation floor on a grid whose operands stay in
 * VMEM (simulated cycles are deterministic).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

/* Deterministic values in [-1, 1). */
static float *
fill(int64_t n, uint32_t seed)
{
	float *x = xmalloc(sizeof *x * (size_t)(n > 0 ? n : 1));
	uint32_t s = seed * 2654435761u + 1;
	int64_t i;

	for (i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		x[i] = (float)((double)(s >> 8) / (double)(1u << 23) - 1.0);
	}
	return x;
}

/* f rounded to bf16 (nearest even). */
static double
bf16r(float f)
{
	return pallas_bf16_to_f32(pallas_f32_to_bf16(f));
}

/* x as bf16 words, in a new buffer. */
static uint16_t *
to_bf16(const float *x, int64_t n)
{
	uint16_t *h = xmalloc(sizeof *h * (size_t)(n > 0 ? n : 1));
	int64_t i;

	for (i = 0; i < n; i++)
		h[i] = pallas_f32_to_bf16(x[i]);
	return h;
}

/* The reference's factor (a grid that adds the same product n times). */
static double ref_scale = 1;

/* How the operands are passed and rounded. */
enum { F32, F32DEF, BF16 };

/*
 * Compiles src on preset, runs entry on x [M, K] and y [K, N] ([N, K]
 * when tb) into z [M, N] and compares z with a double reference (inputs
 * rounded to bf16 unless F32) within tol times the sum of |products|.
 * st gets the run's counters if not NULL.
 */
static void
mm_check(const char *src, const char *preset, const char *entry, int64_t M,
    int64_t N, int64_t K, int tb, int kind, double tol, PallasStats *st)
{
	VtUnit u;
	float *x = fill(M * K, 1), *y = fill(K * N, 7);
	float *z = xcalloc((size_t)(M * N), sizeof *z);
	uint16_t *xb = NULL, *yb = NULL;
	void *b[3];
	PallasStats s;
	int64_t i, j, k;

	ck_assert_msg(vt_compile(&u, src, preset) == 0, "%s: %s", preset,
	    u.text);
	b[0] = x;
	b[1] = y;
	b[2] = z;
	if (kind == BF16) {
		b[0] = xb = to_bf16(x, M * K);
		b[1] = yb = to_bf16(y, K * N);
	}
	vt_run(&u, entry, b, 3, &s);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double want = 0, mag = 0, a, w;
			for (k = 0; k < K; k++) {
				a = x[i * K + k];
				w = tb ? y[j * K + k] : y[k * N + j];
				if (kind != F32) {
					a = bf16r((float)a);
					w = bf16r((float)w);
				}
				want += a * w * ref_scale;
				mag += fabs(a * w) * ref_scale;
			}
			ck_assert_msg(fabs(z[i * N + j] - want) <= tol * mag +
			    1e-30, "%s on %s: z[%lld, %lld] = %.9g, want %.9g",
			    entry, preset, (long long)i, (long long)j,
			    z[i * N + j], want);
		}
	printf("check_mxu: %s on %s (%lldx%lldx%lld): %llu cycles (%llu "
	    "stalled), %u bundles, mxu busy %llu\n", entry, preset,
	    (long long)M, (long long)N, (long long)K,
	    (unsigned long long)s.c.cycles,
	    (unsigned long long)s.c.stall_cycles, u.prog->nbundle,
	    (unsigned long long)s.c.mxu_busy_cycles);
	if (st)
		*st = s;
	vt_free(&u);
	free(x);
	free(y);
	free(z);
	free(xb);
	free(yb);
}

/* One dot, no grid: z [M, N] = x [M, K] . y. */
#define DOT_SRC(name, T, M, N, K, YR, YC, args) \
"kernel " name "(x: " T "[" #M ", " #K "], y: " T "[" #YR ", " #YC "],\n" \
"    out z: f32[" #M ", " #N "])\n" \
"{ z[...] = dot(x[...], y[...]" args "); }\n" \
"export " name ";\n"

/* v4, bf16: K over 2 tiles and N over 2 (MXU ka * 2 + j); K over 4
   (trans_b). */
START_TEST(mxu_v4_bf16)
{
	mm_check(DOT_SRC("m22", "bf16", 32, 256, 256, 256, 256, ""), "v4",
	    "m22", 32, 256, 256, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("m4t", "bf16", 32, 128, 512, 128, 512,
	    ", trans_b: true"), "v4", "m4t", 32, 128, 512, 1, BF16, 1e-5,
	    NULL);
	mm_check(DOT_SRC("m14", "bf16", 16, 512, 128, 128, 512, ""), "v4",
	    "m14", 16, 512, 128, 0, BF16, 1e-5, NULL);
	/* looped: two trips a set, two sets along K by two along N (the
	   loop steps both set counters and carries the bases) */
	mm_check(DOT_SRC("lk", "bf16", 512, 256, 1024, 1024, 256, ""), "v4",
	    "lk", 512, 256, 1024, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("lkt", "bf16", 512, 256, 1024, 256, 1024,
	    ", trans_b: true"), "v4", "lkt", 512, 256, 1024, 1, BF16, 1e-5,
	    NULL);
}
END_TEST

/* v4, f32: each precision, trans_b, and streams long enough to loop
   (five sets along N; two along K and two along N with two trips a
   set, or three with guarded pushes). */
START_TEST(mxu_v4_f32)
{
	mm_check(DOT_SRC("hi", "f32", 64, 256, 256, 128 * 2, 256,
	    ", precision: highest"), "v4", "hi", 64, 256, 256, 0, F32, 1e-5,
	    NULL);
	mm_check(DOT_SRC("hit", "f32", 64, 256, 256, 256, 256,
	    ", trans_b: true, precision: high"), "v4", "hit", 64, 256, 256,
	    1, F32, 1e-4, NULL);
	mm_check(DOT_SRC("n5", "f32", 128, 640, 512, 512, 640, ""), "v4",
	    "n5", 128, 640, 512, 0, F32DEF, 1e-5, NULL);
	mm_check(DOT_SRC("k2", "f32", 256, 256, 1024, 1024, 256, ""), "v4",
	    "k2", 256, 256, 1024, 0, F32DEF, 1e-5, NULL);
	mm_check(DOT_SRC("k2t", "f32", 256, 256, 1024, 256, 1024,
	    ", trans_b: true"), "v4", "k2t", 256, 256, 1024, 1, F32DEF, 1e-5,
	    NULL);
	/* three trips a set, two of them pushing (guarded pushes, the
	   last trip's chunk clamped), sets along K and N */
	mm_check(DOT_SRC("g3", "f32", 384, 256, 1024, 1024, 256, ""), "v4",
	    "g3", 384, 256, 1024, 0, F32DEF, 1e-5, NULL);
	mm_check(DOT_SRC("g3t", "f32", 384, 256, 1024, 256, 1024,
	    ", trans_b: true, precision: high"), "v4", "g3t", 384, 256, 1024,
	    1, F32, 1e-4, NULL);
}
END_TEST

/* The matmuls src's program issues on each MXU, into n[0 .. 16). */
static void
mm_per_mxu(const char *src, int *n)
{
	VtUnit u;
	uint32_t i;

	memset(n, 0, sizeof(int) * 16);
	ck_assert_msg(vt_compile(&u, src, "v4") == 0, "%s", u.text);
	for (i = 0; i < u.prog->nins; i++)
		if ((u.prog->ins[i].op == OP_MXMM ||
		    u.prog->ins[i].op == OP_MXMMB) && u.prog->ins[i].c < 16)
			n[u.prog->ins[i].c]++;
	vt_free(&u);
}

/*
 * v4, sets smaller than the four MXUs: the idle ones take every c-th
 * row group with the same weights.  One K tile and one N tile (Splash's
 * q . k^T, highest precision, trans_b): 16 row groups, 4 on each MXU;
 * two K tiles by one N tile (c = 2); a looped stream of three sets
 * along N with two replicas (weights pushed and latched in both).
 */
START_TEST(mxu_replicas)
{
	const char *one = DOT_SRC("r1", "f32", 128, 128, 128, 128, 128,
	    ", trans_b: true, precision: highest");
	int n[16], k;

	mm_per_mxu(one, n);
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(n[k], 4);
	mm_check(one, "v4", "r1", 128, 128, 128, 1, F32, 1e-5, NULL);
	mm_per_mxu(DOT_SRC("r2", "bf16", 64, 128, 256, 256, 128, ""), n);
	for (k = 0; k < 4; k++)	/* 4 row groups of 16 bf16 rows, 2 K */
		ck_assert_int_eq(n[k], 2);	/* tiles: MXUs 0, 1 and 2, 3 */
	mm_check(DOT_SRC("r2", "bf16", 64, 128, 256, 256, 128, ""), "v4",
	    "r2", 64, 128, 256, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("r3", "f32", 1024, 384, 256, 256, 384, ""), "v4",
	    "r3", 1024, 384, 256, 0, F32DEF, 1e-5, NULL);
}
END_TEST

/* small (one 16 x 16 MXU): a looped stream whose trips outnumber the
   weight pushes (guarded pushes), N over 3 sets, precisions. */
START_TEST(mxu_small)
{
	mm_check(DOT_SRC("b", "bf16", 128, 64, 128, 128, 64, ""), "small",
	    "b", 128, 64, 128, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("bt", "bf16", 128, 32, 64, 32, 64,
	    ", trans_b: true"), "small", "bt", 128, 32, 64, 1, BF16, 1e-5,
	    NULL);
	mm_check(DOT_SRC("f", "f32", 32, 48, 32, 32, 48,
	    ", precision: high"), "small", "f", 32, 48, 32, 0, F32, 1e-4,
	    NULL);
	mm_check(DOT_SRC("g", "f32", 256, 32, 64, 64, 32,
	    ", precision: highest"), "small", "g", 256, 32, 64, 0, F32, 1e-5,
	    NULL);
}
END_TEST

/* acc += dot over a reduction grid (dst accumulated). */
#define ACC_SRC(P, T, B, K) \
"kernel acc(x: " T "[" #B ", " #K "], y: " T "[" #K ", " #B "],\n" \
"    out z: f32[" #B ", " #B "])\n" \
"grid (k: " #K " / " #B ")\n" \
"semantics (arbitrary)\n" \
"blocks { x: [" #B ", " #B "] at (0, k); y: [" #B ", " #B "] at (k, 0);\n" \
"    z: [" #B ", " #B "] at (0, 0); }\n" \
"scratch { acc: f32[" #B ", " #B "]; }\n" \
"{\n" \
"    when (k == 0) { acc[...] = 0.0; }\n" \
"    acc[...] += dot(x[...], y[...]" P ");\n" \
"    when (k == num_programs(k) - 1) { z[...] = acc[...]; }\n" \
"}\n" \
"export acc;\n"

START_TEST(mxu_accumulate)
{
	mm_check(ACC_SRC(", precision: highest", "f32", 256, 768), "v4",
	    "acc", 256, 256, 768, 0, F32, 1e-5, NULL);
	mm_check(ACC_SRC("", "bf16", 32, 96), "small", "acc", 32, 32, 96, 0,
	    BF16, 1e-5, NULL);
}
END_TEST

/*
 * Partial tiles, operands straight from HBM: K or N below the MXU size
 * (attention with D = 64 on v4, D = 128 on v6e's 256-wide MXUs), K and N
 * below the lanes, M below a vreg's rows (bf16: 16), trans_b, bf16, and
 * += into dst (NaN in every tile's padding: the runs poison memory).
 */
START_TEST(mxu_partial)
{
	mm_check(DOT_SRC("a64", "f32", 128, 256, 64, 256, 64,
	    ", trans_b: true, precision: highest"), "v4", "a64", 128, 256,
	    64, 1, F32, 1e-5, NULL);
	mm_check(DOT_SRC("k64", "f32", 8, 64, 64, 64, 64, ""), "v4", "k64", 8,
	    64, 64, 0, F32DEF, 1e-5, NULL);
	mm_check(DOT_SRC("b72", "bf16", 72, 96, 64, 64, 96, ""), "v4", "b72",
	    72, 96, 64, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("b8t", "bf16", 8, 64, 96, 64, 96, ", trans_b: true"),
	    "v4", "b8t", 8, 64, 96, 1, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("k8", "f32", 8, 4, 8, 8, 4, ", precision: high"),
	    "v4", "k8", 8, 4, 8, 0, F32, 1e-4, NULL);
	mm_check(DOT_SRC("a128", "f32", 128, 256, 128, 256, 128,
	    ", trans_b: true, precision: highest"), "v6e", "a128", 128, 256,
	    128, 1, F32, 1e-5, NULL);
	mm_check(DOT_SRC("n128", "bf16", 64, 128, 384, 384, 128, ""), "v6e",
	    "n128", 64, 128, 384, 0, BF16, 1e-5, NULL);
	mm_check(DOT_SRC("m4", "f32", 4, 8, 8, 8, 8, ", precision: highest"),
	    "small", "m4", 4, 8, 8, 0, F32, 1e-5, NULL);
	mm_check(DOT_SRC("bt", "bf16", 24, 8, 40, 8, 40, ", trans_b: true"),
	    "small", "bt", 24, 8, 40, 1, BF16, 1e-5, NULL);
}
END_TEST

/* v6e, one row group (a trip of one step): the next set's 128 weight
   pushes all go in that step. */
START_TEST(mxu_one_step_trips)
{
	mm_check(DOT_SRC("s1", "f32", 8, 512, 512, 512, 512, ""), "v6e", "s1",
	    8, 512, 512, 0, F32DEF, 1e-5, NULL);
	mm_check(DOT_SRC("s1t", "f32", 8, 256, 1024, 256, 1024,
	    ", trans_b: true"), "v6e", "s1t", 8, 256, 1024, 1, F32DEF, 1e-5,
	    NULL);
}
END_TEST

/*
 * Partial tiles as views of whole blocks (K and N of 1.5 and 0.75 MXU
 * tiles, the rest of dst's tiles kept), against interpret mode: every
 * precision, bf16, trans_b, +=; and on v4 the splits: K and N over
 * several sets with a partial last tile, a partial row group in a
 * looped stream.
 */
static const char views_src[] =
"#ifdef __PK_PRESET_SMALL__\n"
"#define W 48\n#define K1 24\n#define K2 40\n#define M1 24\n"
"#else\n"
"#define W 256\n#define K1 192\n#define K2 96\n#define M1 72\n"
"#endif\n"
"kernel sk(x: f32[M1, W], y: f32[W, W], out z: f32[M1, W])\n"
"{ z[...] = x[...] + 1.0; z[:, 0:K2] = dot(x[:, 0:K1], y[0:K1, 0:K2]); }\n"
"kernel ska(x: f32[8, W], y: f32[W, W], out z: f32[8, W])\n"
"{ z[...] = x[...] + 1.0;\n"
"  z[:, 0:K1] += dot(x[:, 0:K2], y[0:K2, 0:K1], precision: highest); }\n"
"kernel skt(x: f32[M1, W], y: f32[W, W], out z: f32[M1, W])\n"
"{ z[...] = x[...] + 1.0;\n"
"  z[0:M1 - 4, 0:K1] = dot(x[0:M1 - 4, 0:K2], y[0:K1, 0:K2], trans_b,\n"
"      precision: high); }\n"
"kernel sbm(x: bf16[M1, W], y: bf16[W, W], out z: f32[M1, W])\n"
"{ z[...] = x[...] as f32 + 1.0;\n"
"  z[0:M1 - 12, 0:K2] = dot(x[0:M1 - 12, 0:K1], y[0:K1, 0:K2]); }\n"
"kernel sbt(x: bf16[32, W], y: bf16[W, W], out z: f32[32, W])\n"
"{ z[...] = x[...] as f32 + 1.0;\n"
"  z[:, 0:K1] += dot(x[:, 0:K2], y[0:K1, 0:K2], trans_b); }\n"
"#ifndef __PK_PRESET_SMALL__\n"
"kernel lk(x: f32[64, 640], y: f32[640, 640], out z: f32[64, 640])\n"
"{ z[...] = x[...] + 1.0; z[:, 0:576] = dot(x[:, 0:576], y[0:576, 0:576]);"
" }\n"
"kernel lm(x: bf16[1504, 384], y: bf16[384, 384], out z: f32[1504, 384])\n"
"{ z[...] = x[...] as f32 + 1.0;\n"
"  z[0:1500, 0:200] += dot(x[0:1500, 0:320], y[0:200, 0:320], trans_b);"
" }\n"
"export lk; export lm;\n"
"#endif\n"
"export sk; export ska; export skt; export sbm; export sbt;\n";

START_TEST(mxu_partial_views)
{
	static const char *const pre[] = { "small", "v4", "v6e" };
	static const char *const e[] = { "sk", "ska", "skt", "sbm", "sbt",
	    "lk", "lm" };
	/* f32 sums of up to 576 products in another order than the
	   interpreter's */
	VtOpts o = { .tol = 5e-5, .seed = 3 };
	size_t k, i;

	for (k = 0; k < sizeof pre / sizeof pre[0]; k++)
		for (i = 0; i < sizeof e / sizeof e[0]; i++)
			if (k > 0 || i < 5)
				vt_check(views_src, pre[k], e[i], &o, NULL);
}
END_TEST

/* A grid whose operands stay in VMEM: after one copy in, every step is
   a 256 x 256 x 512 matmul into the accumulator.  The MXUs' share of
   the cycles outside DMA waits has a floor. */
static const char resident_src[] =
"kernel res(x: f32[256, 512], y: f32[512, 256], out z: f32[256, 256])\n"
"grid (s: 8)\n"
"semantics (arbitrary)\n"
"blocks { x: [256, 512] at (0, 0); y: [512, 256] at (0, 0);\n"
"    z: [256, 256] at (0, 0); }\n"
"scratch { acc: f32[256, 256]; }\n"
"{\n"
"    when (s == 0) { acc[...] = 0.0; }\n"
"    acc[...] += dot(x[...], y[...]);\n"
"    when (s == num_programs(s) - 1) { z[...] = acc[...]; }\n"
"}\n"
"export res;\n";

START_TEST(mxu_utilisation)
{
	const MachPreset *mp = mach_preset("v4");
	PallasStats st;
	double busy, run;

	/* z = 8 x (x . y): the reference scaled by the steps */
	ref_scale = 8;
	mm_check(resident_src, "v4", "res", 256, 256, 512, 0, F32DEF, 1e-5,
	    &st);
	ref_scale = 1;
	busy = (double)st.c.mxu_busy_cycles / mp->nmxu;
	run = (double)(st.c.cycles - st.c.stall_cycles);
	printf("check_mxu: resident f32 grid on v4: MXU utilisation %.1f%% "
	    "of the cycles outside waits\n", 100.0 * busy / run);
	/* 8 steps x 32 row groups x 4 K tiles x 2 N tiles, 8 cycles each */
	ck_assert_uint_eq(st.c.mxu_busy_cycles, 8ull * 32 * 4 * 2 * 8);
	ck_assert_msg(busy >= 0.40 * run, "MXU utilisation %.1f%%",
	    100.0 * busy / run);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("mxu");
	TCase *t = tcase_create("mxu");

	tcase_set_timeout(t, 600);
	tcase_add_test(t, mxu_v4_bf16);
	tcase_add_test(t, mxu_v4_f32);
	tcase_add_test(t, mxu_replicas);
	tcase_add_test(t, mxu_small);
	tcase_add_test(t, mxu_accumulate);
	tcase_add_test(t, mxu_utilisation);
	tcase_add_test(t, mxu_partial);
	tcase_add_test(t, mxu_one_step_trips);
	tcase_add_test(t, mxu_partial_views);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
