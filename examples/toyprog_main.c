/*
 * toyprog_main.c - calls funcs and a kernel compiled into one object by
 * pallasc (examples/toyprog.pk) on the simulated machine:
 *
 *     pallasc examples/toyprog.pk -o toyprog.o -H toyprog.h
 *     cc -I. examples/toyprog_main.c toyprog.o $(pkg-config --cflags --libs pallas) -lm
 *
 * toy (a matmul, an RMS normalisation, a softmax and a second matmul) is
 * checked against the same steps in plain C, with a tolerance for the
 * MXU's default precision (bf16 passes on f32 operands); axpb and
 * axpb_twice (a func calling axpb twice) must be exact.  Prints the
 * counters of toy and of axpb_twice.  With -DTOY_HLO, only toy, from the
 * object of its HLO text instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef TOY_HLO
/* the toy program imported as HLO text (tests/golden/hlo/toy.hlo, what
   --emit=hlo writes of it): pallasc toy.hlo -o toyhlo.o -H toyhlo.h
   names its entry point after the module */
#include "toyhlo.h"
#define toy jit_toy
#else
#include "toyprog.h"
#endif

#define M 16
#define K 64
#define N 32

static void
matmul(const float *a, const float *b, float *c, int m, int k, int n)
{
	int i, j, l;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double s = 0;

			for (l = 0; l < k; l++)
				s += (double)a[i * k + l] * b[l * n + j];
			c[i * n + j] = (float)s;
		}
}

/* The reference: the steps of toy in kernels/graph/toy.pk. */
static void
toy_ref(const float *x, const float *w1, const float *w2, float *out)
{
	static float h[M * K];
	int i, j;

	matmul(x, w1, h, M, K, K);
	for (i = 0; i < M; i++) {
		double ss = 0, mx = -INFINITY, sum = 0;
		float *r = h + i * K;

		for (j = 0; j < K; j++)
			ss += (double)r[j] * r[j];
		for (j = 0; j < K; j++) {
			r[j] = (float)(r[j] / sqrt(ss / K + 1e-6));
			mx = r[j] > mx ? r[j] : mx;
		}
		for (j = 0; j < K; j++)
			sum += exp(r[j] - mx);
		for (j = 0; j < K; j++)
			r[j] = (float)(exp(r[j] - mx) / sum);
	}
	matmul(h, w2, out, M, K, N);
}

static float
wave(int i, float scale)
{
	return scale * (float)sin(0.37 * i + 0.1 * (i % 7));
}

static void
counters(PallasDevice *dev, const char *what)
{
	PallasStats st;
	char text[8192];

	pallas_last_stats(dev, &st);
	pallas_stats_format(&st, text, sizeof text);
	printf("%s:\n%s", what, text);
}

static int
run_toy(PallasDevice *dev)
{
	static float x[M * K], w1[K * K], w2[K * N], out[M * N], ref[M * N];
	double maxerr = 0;
	int i, bad = 0, err;

	for (i = 0; i < M * K; i++)
		x[i] = wave(i, 1.0f);
	for (i = 0; i < K * K; i++)
		w1[i] = wave(i + 11, 0.125f);
	for (i = 0; i < K * N; i++)
		w2[i] = wave(i + 5, 0.5f);
	if ((err = toy(dev, x, w1, w2, out))) {
		fprintf(stderr, "toyprog: toy: %s\n", pallas_last_error(dev));
		return 1;
	}
	toy_ref(x, w1, w2, ref);
	for (i = 0; i < M * N; i++) {
		double e = fabs((double)out[i] - ref[i]);

		maxerr = e > maxerr ? e : maxerr;
		/* bf16 passes: ~2^-8 relative on each product */
		bad += !(e <= 1e-2 + 1e-2 * fabs(ref[i]));
	}
	printf("toy on f32[%d, %d] x f32[%d, %d] x f32[%d, %d]: %d of %d "
	    "values out of tolerance, max error %.2e; out[0] = %.6f\n", M, K,
	    K, K, K, N, bad, M * N, maxerr, out[0]);
	counters(dev, "toy");
	return bad != 0;
}

#ifndef TOY_HLO
static int
run_axpb(PallasDevice *dev)
{
	static float x[64 * 128], y[64 * 128];
	int i, bad = 0, err;

	for (i = 0; i < 64 * 128; i++)
		x[i] = (float)(i % 1000) * 0.25f - 100.0f;
	if ((err = axpb64(dev, x, y))) {
		fprintf(stderr, "toyprog: axpb: %s\n", pallas_last_error(dev));
		return 1;
	}
	for (i = 0; i < 64 * 128; i++)
		bad += y[i] != x[i] * 2.0f + 1.0f;
	printf("axpb on f32[64, 128]: %d of %d values wrong\n", bad, 64 * 128);
	return bad != 0;
}

static int
run_axpb_twice(PallasDevice *dev)
{
	static float x[64 * 128], y[64 * 128];
	int i, bad = 0, err;

	for (i = 0; i < 64 * 128; i++)
		x[i] = (float)(i % 1000) * 0.25f - 100.0f;
	if ((err = axpb_twice(dev, x, y))) {
		fprintf(stderr, "toyprog: axpb_twice: %s\n",
		    pallas_last_error(dev));
		return 1;
	}
	for (i = 0; i < 64 * 128; i++)
		bad += y[i] != x[i] * 4.0f + 5.0f;
	printf("axpb_twice on f32[64, 128]: %d of %d values wrong\n", bad,
	    64 * 128);
	counters(dev, "axpb_twice");
	return bad != 0;
}
#endif

int
main(void)
{
	PallasDevice *dev;
	int err, fail;

	if ((err = pallas_device_open(NULL, &dev))) {
		fprintf(stderr, "toyprog: %s\n", pallas_strerror(err));
		return 1;
	}
	fail = run_toy(dev);
#ifndef TOY_HLO
	fail |= run_axpb(dev);
	fail |= run_axpb_twice(dev);
#endif
	pallas_device_close(dev);
	return fail;
}
