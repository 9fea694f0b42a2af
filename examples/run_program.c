/*
 * run_program.c - a C program that links the pallas runtime (libpallasrt),
 * loads a program image, runs one entry point on the simulated machine and
 * prints its results and counters.
 *
 *     pallas-asm as examples/twice.s -o twice.pkimg
 *     cc examples/run_program.c $(pkg-config --cflags --libs pallas)
 *     ./a.out twice.pkimg twice
 *
 * The entry here takes one f32 input and one f32 output of 128 elements
 * (x in, y out); x is filled with 0, 1, 2, ...
 */
#include <stdio.h>
#include <stdlib.h>

#include <pallas/pallas.h>

#define N 128

static int
fail(PallasDevice *dev, const char *what, int err)
{
	fprintf(stderr, "run_program: %s: %s\n", what,
	    dev && pallas_last_error(dev) ? pallas_last_error(dev) :
	    pallas_strerror(err));
	return 1;
}

int
main(int argc, char **argv)
{
	PallasDevice *dev = NULL;
	PallasProgram *prog = NULL;
	PallasStats st;
	float x[N], y[N];
	void *bufs[2] = { x, y };
	char text[4096];
	int err, i, rc = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: run_program IMAGE ENTRY\n");
		return 2;
	}
	for (i = 0; i < N; i++)
		x[i] = (float)i;
	if ((err = pallas_device_open("small", &dev)))
		return fail(dev, "open", err);
	if ((err = pallas_program_load_file(dev, argv[1], &prog))) {
		rc = fail(dev, argv[1], err);
		goto out;
	}
	if ((err = pallas_call(dev, prog, argv[2], bufs, 2))) {
		rc = fail(dev, argv[2], err);
		goto out;
	}
	printf("y[0..7] =");
	for (i = 0; i < 8; i++)
		printf(" %g", y[i]);
	printf(" ... y[%d] = %g\n", N - 1, y[N - 1]);
	pallas_last_stats(dev, &st);
	pallas_stats_format(&st, text, sizeof text);
	fputs(text, stdout);
out:
	pallas_program_free(prog);
	pallas_device_close(dev);
	return rc;
}
