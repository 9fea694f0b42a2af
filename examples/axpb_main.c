/*
 * axpb_main.c - links a kernel compiled by pallasc and runs it on the
 * simulated machine:
 *
 *     pallasc examples/axpb.pk -o axpb.o -H axpb.h
 *     cc -I. examples/axpb_main.c axpb.o $(pkg-config --cflags --libs pallas)
 *
 * Checks y = 2x + 1 against plain C and prints the machine's counters.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "axpb.h"

#define ROWS 64
#define COLS 128

int
main(void)
{
	static float x[ROWS * COLS], y[ROWS * COLS];
	PallasDevice *dev;
	PallasStats st;
	char text[4096];
	int i, bad = 0, err;

	for (i = 0; i < ROWS * COLS; i++)
		x[i] = (float)(i % 1000) * 0.25f - 100.0f;
	if ((err = pallas_device_open(NULL, &dev))) {
		fprintf(stderr, "axpb: %s\n", pallas_strerror(err));
		return 1;
	}
	if ((err = axpb64(dev, x, y))) {
		fprintf(stderr, "axpb: %s\n", pallas_last_error(dev));
		pallas_device_close(dev);
		return 1;
	}
	for (i = 0; i < ROWS * COLS; i++)
		bad += y[i] != x[i] * 2.0f + 1.0f;
	printf("y = 2x + 1 on f32[%d, %d]: %d of %d values wrong; "
	    "y[0] = %g, y[%d] = %g\n", ROWS, COLS, bad, ROWS * COLS, y[0],
	    ROWS * COLS - 1, y[ROWS * COLS - 1]);
	pallas_last_stats(dev, &st);
	pallas_stats_format(&st, text, sizeof text);
	fputs(text, stdout);
	pallas_device_close(dev);
	return bad != 0;
}
