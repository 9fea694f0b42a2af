/*
 * matmul.c - links kernels/matmul/matmul.pk, compiled by pallasc for
 * the small preset, and runs its two exports on the simulated machine:
 *
 *     pallasc --preset small kernels/matmul/matmul.pk -o matmul.o \
 *         -H matmul.h
 *     cc -I. examples/matmul.c matmul.o \
 *         $(pkg-config --cflags --libs pallas) -lm
 *
 * matmul_small multiplies bf16 matrices into f32, matmul_f32_small f32
 * matrices at full precision.  Both are checked against plain C (within
 * 1e-5 of the sum of |products|), and the counters are printed with the
 * MXU utilisation: MXU busy cycles / (cycles x MXUs).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"

/* MXUs per preset (doc/machine.md's preset table). */
static int
mxus(const char *preset)
{
	static const struct { const char *name; int n; } t[] = {
		{ "v4", 4 }, { "v5e", 4 }, { "v6e", 2 }, { "small", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(t[i].name, preset) == 0)
			return t[i].n;
	return 1;
}

static float
value(long i, int seed)
{
	return (float)((i * 37 + seed * 11) % 97) / 16.0f - 3.0f;
}

static uint16_t
to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u += 0x7fff + (u >> 16 & 1);	/* nearest even */
	return (uint16_t)(u >> 16);
}

static float
from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Values of z [m, n] off the reference x [m, k] . y [k, n]. */
static int
check(const float *x, const float *y, const float *z, int m, int n, int k)
{
	int i, j, l, bad = 0;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double s = 0, mag = 0;
			for (l = 0; l < k; l++) {
				double p = (double)x[i * k + l] * y[l * n + j];
				s += p;
				mag += fabs(p);
			}
			bad += fabs(z[i * n + j] - s) > 1e-5 * mag;
		}
	return bad;
}

static void
report(PallasDevice *dev, const char *what, int bad, int n)
{
	PallasStats st;
	char text[4096];

	pallas_last_stats(dev, &st);
	printf("%s: %d of %d values wrong\n", what, bad, n);
	printf("  %llu cycles, MXU busy %llu cycles: %.1f%% MXU utilisation;"
	    " HBM %llu bytes read, %llu written\n",
	    (unsigned long long)st.c.cycles,
	    (unsigned long long)st.c.mxu_busy_cycles,
	    st.c.cycles ? 100.0 * (double)st.c.mxu_busy_cycles /
	    ((double)st.c.cycles * mxus(st.preset)) : 0.0,
	    (unsigned long long)st.c.hbm_read_bytes,
	    (unsigned long long)st.c.hbm_write_bytes);
	pallas_stats_format(&st, text, sizeof text);
	fputs(text, stdout);
}

int
main(void)
{
	/* matmul_small: bf16 [128, 128] . [128, 64]; f32: [64, 64] . [64, 64] */
	static float xf[128 * 128], yf[128 * 64], z[128 * 64];
	static uint16_t xb[128 * 128], yb[128 * 64];
	PallasDevice *dev;
	int i, bad, nbad = 0, err;

	if ((err = pallas_device_open(NULL, &dev))) {
		fprintf(stderr, "matmul: %s\n", pallas_strerror(err));
		return 1;
	}
	for (i = 0; i < 128 * 128; i++) {
		xb[i] = to_bf16(value(i, 1));
		xf[i] = from_bf16(xb[i]);
	}
	for (i = 0; i < 128 * 64; i++) {
		yb[i] = to_bf16(value(i, 7));
		yf[i] = from_bf16(yb[i]);
	}
	if ((err = matmul_small(dev, xb, yb, z)))
		goto fail;
	bad = check(xf, yf, z, 128, 64, 128);
	nbad += bad;
	report(dev, "matmul_small (bf16 -> f32, 128x64x128)", bad, 128 * 64);
	for (i = 0; i < 64 * 64; i++) {
		xf[i] = value(i, 3);
		yf[i] = value(i, 5);
	}
	if ((err = matmul_f32_small(dev, xf, yf, z)))
		goto fail;
	bad = check(xf, yf, z, 64, 64, 64);
	nbad += bad;
	report(dev, "matmul_f32_small (f32 highest, 64x64x64)", bad, 64 * 64);
	pallas_device_close(dev);
	return nbad != 0;
fail:
	fprintf(stderr, "matmul: %s\n", pallas_last_error(dev));
	pallas_device_close(dev);
	return 1;
}
