/*
 * twice_main.c - a C program calling a kernel through the header pallasc
 * generates: the program image is linked in from the object, and the
 * typed entry points load it on the device at their first call.
 *
 *     pallasc examples/twice.s -o build/twice.o -H build/twice.h
 *     cc -Ibuild examples/twice_main.c build/twice.o \
 *         $(pkg-config --cflags --libs pallas)
 *
 * twice(dev, x, y) computes y = x + x on an (8, 16) f32 tile; x is
 * 0, 1, 2, ...  The checked form takes tensor descriptors and refuses
 * a wrong shape with a message naming the operand.
 */
#include <stdio.h>
#include <string.h>

#include "twice.h"

#define N 128

int
main(void)
{
	PallasDevice *dev;
	PallasTensor tx, ty;
	PallasStats st;
	float x[N], y[N];
	char text[4096];
	int err, i;

	for (i = 0; i < N; i++)
		x[i] = (float)i;
	if ((err = pallas_device_open("small", &dev))) {
		fprintf(stderr, "twice_main: %s\n", pallas_strerror(err));
		return 1;
	}
	if ((err = twice(dev, x, y))) {
		fprintf(stderr, "twice_main: %s\n", pallas_last_error(dev));
		pallas_device_close(dev);
		return 1;
	}
	printf("y[0..7] =");
	for (i = 0; i < 8; i++)
		printf(" %g", y[i]);
	printf(" ... y[%d] = %g\n", N - 1, y[N - 1]);
	pallas_last_stats(dev, &st);
	pallas_stats_format(&st, text, sizeof text);
	fputs(text, stdout);

	memset(&tx, 0, sizeof tx);
	tx.data = x;
	tx.dtype = PALLAS_F32;
	tx.rank = 2;
	tx.shape[0] = 16;	/* wrong: the kernel takes f32[8, 16] */
	tx.shape[1] = 8;
	ty = tx;
	ty.data = y;
	ty.shape[0] = 8;
	ty.shape[1] = 16;
	err = twice_checked(dev, &tx, &ty);
	printf("twice_checked with x as f32[16, 8]: %s\n",
	    err ? pallas_last_error(dev) : "accepted?");
	pallas_device_close(dev);
	return err == PALLAS_EMISMATCH ? 0 : 1;
}
