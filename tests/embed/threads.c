/*
 * threads.c - the JIT under threads: 8 threads open and call the same
 * module and modules of their own at once; each module compiles once.
 * Run with PALLAS_CACHE=0 (tests/embed.sh), so every module is compiled
 * in this process.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <pallas/pallas.h>

/* One module all threads share, and one per thread pair (stringized
 * text is written out: PK_MODULE's arguments are not macro-expanded). */
PK_MODULE(shared,
    kernel mul<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] * 3.0; }
    export mul<16>;
)
PK_MODULE(own0, kernel mul<N>(x: f32[N, 128], out y: f32[N, 128]) grid (i: N / 8) blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); } { y[...] = x[...] * 0.0; } export mul<16>;)
PK_MODULE(own1, kernel mul<N>(x: f32[N, 128], out y: f32[N, 128]) grid (i: N / 8) blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); } { y[...] = x[...] * 1.0; } export mul<16>;)
PK_MODULE(own2, kernel mul<N>(x: f32[N, 128], out y: f32[N, 128]) grid (i: N / 8) blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); } { y[...] = x[...] * 2.0; } export mul<16>;)
PK_MODULE(own3, kernel mul<N>(x: f32[N, 128], out y: f32[N, 128]) grid (i: N / 8) blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); } { y[...] = x[...] * 3.0; } export mul<16>;)

#define NTHREAD 8
#define ROWS 16

static const PallasSource *const own[4] = { own0, own1, own2, own3 };

typedef struct Job {
	int id;
	int bad;
} Job;

/* Opens src on a device of its own, calls it, checks y = k x. */
static int
check(const PallasSource *src, float k)
{
	float x[ROWS * 128], y[ROWS * 128];
	PallasTensor t[2] = {
		{ x, PALLAS_F32, 2, { ROWS, 128 } },
		{ y, PALLAS_F32, 2, { ROWS, 128 } },
	};
	PallasDevice *dev;
	PallasModule *m;
	int i, bad = 0;

	for (i = 0; i < ROWS * 128; i++)
		x[i] = (float)i - 100.0f;
	if (pallas_device_open("small", &dev))
		return 1;
	if (pallas_module_open(dev, src, NULL, &m) ||
	    pallas_module_call(dev, m, "mul", t, 2)) {
		fprintf(stderr, "threads: %s: %s%s\n", src->name,
		    pallas_last_error(dev), pallas_module_diagnostics(m));
		bad = 1;
	}
	for (i = 0; !bad && i < ROWS * 128; i++)
		bad |= y[i] != x[i] * k;
	pallas_device_close(dev);
	return bad;
}

static void *
work(void *arg)
{
	Job *j = arg;
	int r;

	for (r = 0; r < 3; r++) {
		j->bad |= check(shared, 3.0f);
		j->bad |= check(own[j->id % 4], (float)(j->id % 4));
	}
	return NULL;
}

int
main(void)
{
	pthread_t th[NTHREAD];
	Job job[NTHREAD];
	PallasJitStats js;
	int i, bad = 0;

	for (i = 0; i < NTHREAD; i++) {
		job[i].id = i;
		job[i].bad = 0;
		if (pthread_create(&th[i], NULL, work, &job[i]))
			return 99;
	}
	for (i = 0; i < NTHREAD; i++) {
		pthread_join(th[i], NULL);
		bad |= job[i].bad;
	}
	pallas_jit_stats(&js);
	printf("threads: %d threads, %llu compiles, %llu opens served by "
	    "an open module\n", NTHREAD, (unsigned long long)js.compiles,
	    (unsigned long long)js.memory_hits);
	if (js.compiles != 5) {
		printf("FAIL: 5 modules, %llu compiles\n",
		    (unsigned long long)js.compiles);
		bad = 1;
	}
	if (js.memory_hits != NTHREAD * 3 * 2 - 5) {
		printf("FAIL: %llu memory hits\n",
		    (unsigned long long)js.memory_hits);
		bad = 1;
	}
	return bad;
}
