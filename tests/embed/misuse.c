/*
 * misuse.c - the module API's unhappy paths: each returns an error code
 * and a message, and a module that does not compile says where, in this
 * file's own lines and columns.
 */
#include <stdio.h>
#include <string.h>

#include <pallas/pallas.h>

PK_MODULE(good,
    kernel twice<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] + x[...]; }
    export twice<16>;
)

PK_MODULE(syntax,
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0) y: [8, 128] at (i, 0); }
    { y[...] = x[...]; }
    export k<16>;
)

PK_MODULE(semantic,
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] + undefined_name; }
    export k<16>;
)

static int nfail;

static void
expect(int ok, const char *what, const char *detail)
{
	if (!ok) {
		printf("FAIL: %s%s%s\n", what, detail ? ": " : "",
		    detail ? detail : "");
		nfail++;
	}
}

/* A compile error's first line names this file, line and column. */
static void
expect_error_at(const char *name, const PallasSource *src, int line,
    int col)
{
	PallasDevice *dev;
	PallasModule *m;
	char want[128];
	int rc;

	if (pallas_device_open("small", &dev))
		return expect(0, name, "no device");
	rc = pallas_module_open(dev, src, NULL, &m);
	expect(rc == PALLAS_ECOMPILE, name, "wants PALLAS_ECOMPILE");
	expect(m != NULL, name, "a failed module still comes back");
	snprintf(want, sizeof want, "misuse.c:%d:%d: error: ", line, col);
	expect(strstr(pallas_module_diagnostics(m), want) != NULL, name,
	    pallas_module_diagnostics(m));
	expect(pallas_module_call(dev, m, "k", NULL, 0) == PALLAS_ECOMPILE,
	    name, "a call of a failed module");
	printf("%s: %s", name, pallas_module_diagnostics(m));
	pallas_device_close(dev);
}

int
main(void)
{
	static float x[16 * 128], y[16 * 128];
	static int32_t xi[16 * 128];
	PallasTensor ok[2] = {
		{ x, PALLAS_F32, 2, { 16, 128 } }, { y, PALLAS_F32, 2, { 16, 128 } },
	};
	PallasTensor shape[2] = {
		{ x, PALLAS_F32, 2, { 8, 128 } }, { y, PALLAS_F32, 2, { 16, 128 } },
	};
	PallasTensor dtype[2] = {
		{ xi, PALLAS_I32, 2, { 16, 128 } }, { y, PALLAS_F32, 2, { 16, 128 } },
	};
	const char *badflag[] = { "-fno-such-flag" };
	PallasModuleOptions bad = { badflag, 1 };
	PallasDevice *dev, *v4;
	PallasModule *m, *m4;

	if (pallas_device_open("small", &dev) || pallas_device_open("v4", &v4))
		return 99;
	expect(pallas_module_open(NULL, good, NULL, &m) == PALLAS_EINVAL &&
	    !m, "NULL device", NULL);
	expect(pallas_module_open(dev, NULL, NULL, &m) == PALLAS_EINVAL &&
	    !m, "NULL source", NULL);
	expect(pallas_module_call(dev, NULL, "twice", ok, 2) ==
	    PALLAS_EINVAL, "NULL module", NULL);
	expect(pallas_module_open(dev, good, NULL, &m) == PALLAS_OK,
	    "good module", pallas_module_diagnostics(m));
	expect(pallas_module_nexport(m) == 1 &&
	    strcmp(pallas_module_export(m, 0), "twice") == 0 &&
	    !pallas_module_export(m, 1), "export list", NULL);
	expect(pallas_module_call(dev, m, "twice", ok, 2) == PALLAS_OK,
	    "good call", pallas_last_error(dev));
	expect(pallas_module_call(dev, m, "thrice", ok, 2) == PALLAS_ENOENT &&
	    strstr(pallas_last_error(dev), "thrice"), "unknown export",
	    pallas_last_error(dev));
	expect(pallas_module_call(dev, m, "twice", shape, 2) ==
	    PALLAS_EMISMATCH, "wrong shape", pallas_last_error(dev));
	expect(pallas_module_call(dev, m, "twice", dtype, 2) ==
	    PALLAS_EMISMATCH, "wrong dtype", pallas_last_error(dev));
	expect(pallas_module_call(dev, m, "twice", ok, 1) ==
	    PALLAS_EMISMATCH, "too few tensors", pallas_last_error(dev));
	/* a module compiled for v4 called on a small device */
	expect(pallas_module_open(v4, good, NULL, &m4) == PALLAS_OK &&
	    m4 != m && strcmp(pallas_module_preset(m4), "v4") == 0,
	    "a second preset is a second module", NULL);
	expect(pallas_module_call(dev, m4, "twice", ok, 2) == PALLAS_EPRESET,
	    "module of another preset", pallas_last_error(dev));
	{
		const char *nullflag[] = { NULL };
		PallasModuleOptions nf = { nullflag, 1 }, neg = { NULL, -1 };
		expect(pallas_module_open(dev, good, &nf, &m) == PALLAS_EINVAL &&
		    !m, "a NULL flag", NULL);
		expect(pallas_module_open(dev, good, &neg, &m) ==
		    PALLAS_EINVAL && !m, "a negative flag count", NULL);
	}
	expect(pallas_module_open(dev, good, &bad, &m) == PALLAS_EINVAL &&
	    m && strstr(pallas_module_diagnostics(m), "-fno-such-flag"),
	    "unknown flag", m ? pallas_module_diagnostics(m) : NULL);
	{	/* the JIT's messages in JSON, at the same place */
		const char *json[] = { "-fdiagnostics-format=json" };
		PallasModuleOptions j = { json, 1 };
		expect(pallas_module_open(dev, syntax, &j, &m) ==
		    PALLAS_ECOMPILE && strstr(pallas_module_diagnostics(m),
		    "\"line\": 22, \"column\": 36") &&
		    pallas_module_diagnostics(m)[0] == '[', "JSON diagnostics",
		    pallas_module_diagnostics(m));
	}
	expect_error_at("syntax", syntax, 22, 36);
	expect_error_at("semantic", semantic, 31, 25);
	pallas_device_close(dev);
	pallas_device_close(v4);
	printf("misuse: %s\n", nfail ? "FAILED" : "all passed");
	return nfail != 0;
}
