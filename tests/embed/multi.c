/*
 * multi.c - one program of two C files (this and other.c), each with its
 * modules, and what the embedded text may use: PK_PP(#include) relative
 * to this file's directory and -D flags given at run time.  Prints how
 * each module was obtained; tests/embed.sh builds it JIT and with both
 * files' AOT objects.
 */
#include <stdio.h>
#include <string.h>

#include <pallas/pallas.h>

const PallasSource *other_source(void);

PK_MODULE(inc_mod,
    PK_PP(#include "inc.pk")
    kernel mul<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] * INC_FACTOR; }
    export mul<16>;
)

PK_MODULE(flag_mod,
    kernel add<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] + OFFSET; }
    export add<16>;
)

/* y = f(x) for module src's export, checked against want(x). */
static int
check(PallasDevice *dev, const PallasSource *src, const char *name,
    const PallasModuleOptions *opt, float k, float c)
{
	static float x[16 * 128], y[16 * 128];
	PallasTensor t[2] = {
		{ x, PALLAS_F32, 2, { 16, 128 } }, { y, PALLAS_F32, 2, { 16, 128 } },
	};
	PallasModule *m;
	int i, bad = 0;

	for (i = 0; i < 16 * 128; i++)
		x[i] = (float)i - 1000.0f;
	if (pallas_module_open(dev, src, opt, &m) ||
	    pallas_module_call(dev, m, name, t, 2)) {
		printf("FAIL: %s: %s%s", src->name, pallas_module_diagnostics(m),
		    pallas_last_error(dev));
		return 1;
	}
	for (i = 0; i < 16 * 128; i++)
		bad += y[i] != x[i] * k + c;
	printf("%s: %s, %d wrong\n", src->name, pallas_module_is_aot(m) ?
	    "ahead of time" : "at run time", bad);
	return bad != 0;
}

int
main(void)
{
	const char *flags[] = { "-DOFFSET=0.5" };
	PallasModuleOptions opt = { flags, 1 };
	PallasJitStats js;
	PallasDevice *dev;
	int bad;

	if (pallas_device_open("small", &dev))
		return 99;
	bad = check(dev, inc_mod, "mul", NULL, 4.0f, 0.0f);
	bad |= check(dev, flag_mod, "add", &opt, 1.0f, 0.5f);
	bad |= check(dev, other_source(), "neg", NULL, -1.0f, 0.0f);
	pallas_jit_stats(&js);
	printf("jit: %llu compiles, %llu bound ahead of time\n",
	    (unsigned long long)js.compiles, (unsigned long long)js.aot_binds);
	pallas_device_close(dev);
	return bad;
}
