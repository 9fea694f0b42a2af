/*
 * bench_sim.c - speed of the simulator itself (not a test; `make bench`).
 *
 *  1. An MXU-bound loop on v4: every 9 cycles each of the 4 MXUs takes an
 *     8 x 128 by 128 x 128 matmul and its result is popped 16 iterations
 *     later.  Reports host GFLOP/s of simulated MXU work and, when built
 *     with OpenBLAS, single-thread sgemm on the same shapes in the same
 *     run (run with OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1:
 *     Debian's OpenBLAS misdetects recent CPUs; `make bench` sets both).
 *  2. A vector-light loop (scalar ops, one VALU op per 4 bundles), a
 *     vector loop (one per 2 bundles) and a scalar-only loop: simulated
 *     bundles per host second.
 *
 * Each figure is the best of 3 runs, timed in thread CPU time so that
 * other load on a shared host does not count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/machine.h"
#include "pallas/runtime.h"

#ifdef HAVE_OPENBLAS
#include <cblas.h>
#endif

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void
die(const char *what, const char *msg)
{
	fprintf(stderr, "bench_sim: %s: %s\n", what, msg);
	exit(1);
}

static PallasProgram *
load(PallasDevice *dev, const char *text)
{
	char err[4096];
	MachProgram *p;
	PallasProgram *prog;
	void *img;
	size_t len;

	if (mach_asm("bench.s", text, strlen(text), NULL, &p, err, sizeof err))
		die("assembly", err);
	if (mach_image_write(p, &img, &len, err, sizeof err))
		die("image", err);
	if (pallas_program_load(dev, img, len, &prog))
		die("load", pallas_last_error(dev));
	free(img);
	mach_program_free(p);
	return prog;
}

/* Best-of-3 host seconds of one call; *st gets its counters. */
static double
time_call(PallasDevice *dev, PallasProgram *prog, const char *entry,
    PallasStats *st)
{
	double best = 1e30, t;
	int r;

	for (r = 0; r < 3; r++) {
		t = now();
		if (pallas_call(dev, prog, entry, NULL, 0))
			die("call", pallas_last_error(dev));
		t = now() - t;
		if (t < best)
			best = t;
	}
	pallas_last_stats(dev, st);
	return best;
}

static char *
mxu_program(int niter)
{
	static const char *pro =
	    ".preset v4\n.entry mxu\n"
	    "  vbcasti v0, 0.5f ; vbcasti v1, 0.25f ; smovi s1, 0 ; smovi s2, %d\n"
	    "  nop\n";
	static const char *loops =
	    "  mxu.latch mxu0 ; mxu.latch mxu1\n"
	    "  mxu.latch mxu2 ; mxu.latch mxu3\n"
	    "  nop\n"
	    "pro: mxu.mm mxu0, v1 ; mxu.mm mxu1, v1 ; saddi s1, s1, 1\n"
	    "  mxu.mm mxu2, v1 ; mxu.mm mxu3, v1 ; scmpi.lt p1, s1, 16\n"
	    "  nop\n  nop\n  nop\n  nop\n  nop\n"
	    "  (p1) br pro\n"
	    "  smovi s1, 0\n"
	    "main: mxu.mm mxu0, v1 ; mxu.mm mxu1, v1 ; mxu.pop v2, mxu0 ;"
	    " mxu.pop v3, mxu1 ; saddi s1, s1, 1\n"
	    "  mxu.mm mxu2, v1 ; mxu.mm mxu3, v1 ; mxu.pop v4, mxu2 ;"
	    " mxu.pop v5, mxu3 ; scmp.lt p1, s1, s2\n"
	    "  nop\n  nop\n  nop\n  nop\n  nop\n"
	    "  (p1) br main\n"
	    "  smovi s1, 0\n"
	    "epi: mxu.pop v2, mxu0 ; mxu.pop v3, mxu1 ; saddi s1, s1, 1\n"
	    "  mxu.pop v4, mxu2 ; mxu.pop v5, mxu3 ; scmpi.lt p1, s1, 16\n"
	    "  nop\n  nop\n  nop\n  nop\n  nop\n"
	    "  (p1) br epi\n"
	    "  halt\n";
	char *t = malloc(16384);
	size_t k;
	int i;

	if (!t)
		die("malloc", "out of memory");
	k = (size_t)snprintf(t, 16384, pro, niter);
	for (i = 0; i < 16; i++)
		k += (size_t)snprintf(t + k, 16384 - k,
		    "  mxu.push mxu0, v0 ; mxu.push mxu1, v0\n"
		    "  mxu.push mxu2, v0 ; mxu.push mxu3, v0\n");
	snprintf(t + k, 16384 - k, "%s", loops);
	return t;
}

#ifdef HAVE_OPENBLAS
/* Best-of-3 GFLOP/s of reps sgemms of m x 128 by 128 x 128. */
static double
sgemm_rate(int m, int reps)
{
	float *a = malloc(sizeof(float) * (size_t)m * 128);
	float *b = malloc(sizeof(float) * 128 * 128);
	float *c = malloc(sizeof(float) * (size_t)m * 128);
	double best = 0, t;
	int r, i;

	if (!a || !b || !c)
		die("malloc", "out of memory");
	for (i = 0; i < m * 128; i++)
		a[i] = 0.25f;
	for (i = 0; i < 128 * 128; i++)
		b[i] = 0.5f;
	for (r = 0; r < 3; r++) {
		t = now();
		for (i = 0; i < reps; i++)
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m,
			    128, 128, 1.0f, a, 128, b, 128, 0.0f, c, 128);
		t = now() - t;
		t = 2.0 * m * 128 * 128 * reps / t / 1e9;
		if (t > best)
			best = t;
	}
	free(a);
	free(b);
	free(c);
	return best;
}
#endif

static double
bench_mxu(PallasDevice *dev)
{
	char *text = mxu_program(4000);
	PallasProgram *prog = load(dev, text);
	PallasStats st;
	double t, gf;

	t = time_call(dev, prog, "mxu", &st);
	gf = (double)st.c.mxu_flops / t / 1e9;
	printf("MXU-bound loop (v4, 8x128 . 128x128 per matmul):\n"
	    "  %llu matmuls, %llu cycles, %llu bundles in %.3f s: "
	    "%.1f GFLOP/s simulated MXU work\n",
	    (unsigned long long)(st.c.mxu_flops / (2ull * 8 * 128 * 128)),
	    (unsigned long long)st.c.cycles, (unsigned long long)st.c.bundles,
	    t, gf);
	pallas_program_free(prog);
	free(text);
	return gf;
}

static void
bench_bundles(PallasDevice *dev, const char *name, const char *text)
{
	PallasProgram *prog = load(dev, text);
	PallasStats st;
	double t;

	t = time_call(dev, prog, NULL, &st);
	printf("%s: %llu bundles in %.3f s: %.1f M bundles/s\n", name,
	    (unsigned long long)st.c.bundles, t,
	    (double)st.c.bundles / t / 1e6);
	pallas_program_free(prog);
}

int
main(int argc, char **argv)
{
	PallasDevice *dev;
	double gf;

	if (pallas_device_open("v4", &dev))
		die("open", "cannot open a v4 device");
	gf = bench_mxu(dev);
	if (argc > 1 && strcmp(argv[1], "mxu") == 0) {
		pallas_device_close(dev);
		return 0;
	}
#ifdef HAVE_OPENBLAS
	{
		const char *ct = getenv("OPENBLAS_CORETYPE");
		const char *nt = getenv("OPENBLAS_NUM_THREADS");
		double small = sgemm_rate(8, 20000), big = sgemm_rate(4096, 40);

		printf("  OpenBLAS sgemm, 1 thread (OPENBLAS_CORETYPE=%s, "
		    "OPENBLAS_NUM_THREADS=%s):\n"
		    "    8x128 . 128x128:    %.1f GFLOP/s (sim: %.0f%%)\n"
		    "    4096x128 . 128x128: %.1f GFLOP/s (sim: %.0f%%)\n",
		    ct ? ct : "unset", nt ? nt : "unset", small,
		    100 * gf / small, big, 100 * gf / big);
		if (!ct || !nt)
			printf("  (run with OPENBLAS_CORETYPE=Haswell "
			    "OPENBLAS_NUM_THREADS=1, as `make bench` does)\n");
	}
#else
	printf("  (built without OpenBLAS: no sgemm comparison)\n");
#endif
	bench_bundles(dev, "vector-light loop (v4, 1 VALU op per 4 bundles)",
	    ".preset v4\n.entry e\n"
	    "  smovi s1, 0 ; smovi s2, 20000000 ; vbcasti v0, 1.0f\n"
	    "  vbcasti v1, 2.0f\n"
	    "  nop\n"
	    "l: saddi s1, s1, 1 ; vadd.f32 v2, v0, v1 ; smovi s5, 3\n"
	    "  scmp.lt p1, s1, s2 ; sadd s4, s5, s5\n"
	    "  saddi s6, s6, 2 ; sxor s7, s6, s5\n"
	    "  (p1) br l\n"
	    "  halt\n");
	bench_bundles(dev, "vector loop (v4, 1 VALU op per 2 bundles)",
	    ".preset v4\n.entry e\n"
	    "  smovi s1, 0 ; smovi s2, 20000000 ; vbcasti v0, 1.0f\n"
	    "  vbcasti v1, 2.0f\n"
	    "  nop\n"
	    "l: saddi s1, s1, 1 ; vadd.f32 v2, v0, v1 ; smovi s5, 3\n"
	    "  scmp.lt p1, s1, s2 ; sadd s4, s5, s5\n"
	    "  vmul.f32 v3, v0, v1 ; saddi s6, s6, 2\n"
	    "  (p1) br l\n"
	    "  halt\n");
	bench_bundles(dev, "scalar-only loop (v4)",
	    ".preset v4\n.entry e\n"
	    "  smovi s1, 0 ; smovi s2, 20000000\n"
	    "l: saddi s1, s1, 1 ; smovi s5, 3\n"
	    "  scmp.lt p1, s1, s2 ; sadd s4, s5, s5\n"
	    "  saddi s6, s6, 2 ; sxor s7, s6, s5\n"
	    "  (p1) br l\n"
	    "  halt\n");
	pallas_device_close(dev);
	return 0;
}
