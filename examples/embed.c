/*
 * embed.c - a kernel written inside a C file, built either way:
 *
 *   JIT: cc examples/embed.c $(pkg-config --cflags --libs pallas)
 *        (the module compiles on first use, for the device's preset)
 *   AOT: pallasc -m small examples/embed.c -o embed-kernels.o
 *        cc examples/embed.c embed-kernels.o $(pkg-config ...)
 *        (the module binds to the precompiled program)
 *
 * Checks y = 2x (and z = x*x + 1) against plain C and prints the
 * machine's counters and how the modules were obtained.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pallas/pallas.h>

PK_MODULE(scale,
    // y = 2x, eight rows a grid step
    kernel scale2<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] * 2.0; }
    export scale2<1024>;
)

PK_MODULE(square,
    PK_PP(#define ONE 1.0)
    kernel sq1<N>(x: f32[N, 128], out z: f32[N, 128])
    grid (i: N / 8)
    semantics (parallel)
    blocks { x: [8, 128] at (i, 0); z: [8, 128] at (i, 0); }
    { z[...] = x[...] * x[...] + ONE; }
    export sq1<1024>;
)

#define ROWS 1024
#define COLS 128

/* Opens module src on dev and calls its export with x in and y out. */
static int
run(PallasDevice *dev, const PallasSource *src, const char *name,
    float *x, float *y)
{
	PallasTensor t[2] = {
		{ x, PALLAS_F32, 2, { ROWS, COLS } },
		{ y, PALLAS_F32, 2, { ROWS, COLS } },
	};
	PallasModule *m;
	int err;

	if ((err = pallas_module_open(dev, src, NULL, &m))) {
		fprintf(stderr, "%s", m ? pallas_module_diagnostics(m) :
		    pallas_strerror(err));
		return err;
	}
	if ((err = pallas_module_call(dev, m, name, t, 2)))
		fprintf(stderr, "embed: %s\n", pallas_last_error(dev));
	printf("module %s: %s for %s\n", src->name, pallas_module_is_aot(m) ?
	    "compiled ahead of time" : "compiled at run time",
	    pallas_module_preset(m));
	return err;
}

int
main(void)
{
	static float x[ROWS * COLS], y[ROWS * COLS], z[ROWS * COLS];
	PallasJitStats js;
	PallasDevice *dev;
	PallasStats st;
	char text[4096];
	int i, bad = 0, err;

	for (i = 0; i < ROWS * COLS; i++)
		x[i] = (float)(i % 1000) * 0.25f - 100.0f;
	if ((err = pallas_device_open(NULL, &dev))) {
		fprintf(stderr, "embed: %s\n", pallas_strerror(err));
		return 1;
	}
	if (run(dev, scale, "scale2", x, y) || run(dev, square, "sq1", x, z)) {
		pallas_device_close(dev);
		return 1;
	}
	for (i = 0; i < ROWS * COLS; i++)
		bad += y[i] != x[i] * 2.0f || z[i] != x[i] * x[i] + 1.0f;
	printf("y = 2x and z = x*x + 1 on f32[%d, %d]: %d of %d values "
	    "wrong; y[1] = %g, z[1] = %g\n", ROWS, COLS, bad, ROWS * COLS,
	    y[1], z[1]);
	pallas_last_stats(dev, &st);
	pallas_stats_format(&st, text, sizeof text);
	fputs(text, stdout);
	pallas_jit_stats(&js);
	printf("jit: %llu compiles, %llu from the disk cache, %llu bound "
	    "ahead of time\n", (unsigned long long)js.compiles,
	    (unsigned long long)js.disk_hits,
	    (unsigned long long)js.aot_binds);
	pallas_device_close(dev);
	return bad != 0;
}
