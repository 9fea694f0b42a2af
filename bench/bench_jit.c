/*
 * bench_jit.c - what the JIT costs: the first pallas_module_open of a
 * module (a compile, or a disk cache read in a second process) and a
 * second open (the process's module), for a small elementwise module and
 * for Splash attention embedded in C (kernels/splash/splash.pk through
 * PK_PP(#include)).  Prints figures; make bench runs it twice with one
 * cache directory, so the second run shows the disk cache.
 */
#include <stdio.h>
#include <time.h>

#include <pallas/pallas.h>

PK_MODULE(scale,
    kernel scale2<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] * 2.0; }
    export scale2<1024>;
)

PK_MODULE(splash,
    PK_PP(#include "../kernels/splash/splash.pk")
)

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Opens src twice on dev; prints both times. */
static int
measure(PallasDevice *dev, const PallasSource *src)
{
	PallasJitStats before, after;
	PallasModule *m;
	double t0, t1, t2;
	int rc;

	pallas_jit_stats(&before);
	t0 = now();
	rc = pallas_module_open(dev, src, NULL, &m);
	t1 = now();
	rc |= pallas_module_open(dev, src, NULL, &m);
	t2 = now();
	pallas_jit_stats(&after);
	if (rc) {
		fprintf(stderr, "%s", pallas_module_diagnostics(m));
		return 1;
	}
	printf("%-8s %-6s first open %9.3f ms (%s), second open %7.4f ms\n",
	    src->name, pallas_module_preset(m), (t1 - t0) * 1e3,
	    after.compiles > before.compiles ? "compiled" :
	    after.disk_hits > before.disk_hits ? "from the disk cache" :
	    "ahead of time", (t2 - t1) * 1e3);
	return 0;
}

int
main(void)
{
	PallasDevice *dev;
	int bad;

	if (pallas_device_open(NULL, &dev))
		return 1;
	bad = measure(dev, scale) | measure(dev, splash);
	pallas_device_close(dev);
	return bad;
}
