/*
 * interpose.c - a program with functions named like the compiler's own
 * (xmalloc, bug_at, diag_error): the JIT must keep calling its own, so
 * these must never run while a module compiles (libpallas links with
 * -Bsymbolic).
 */
#include <stdio.h>
#include <stdlib.h>

#include <pallas/pallas.h>

static int stolen;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void diag_error(void *d, int loc, const char *fmt, ...);

void *
xmalloc(size_t n)
{
	stolen++;
	return malloc(n);
}

void *
xcalloc(size_t n, size_t m)
{
	stolen++;
	return calloc(n, m);
}

void
diag_error(void *d, int loc, const char *fmt, ...)
{
	(void)d;
	(void)loc;
	(void)fmt;
	stolen++;
}

PK_MODULE(bad,
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...] + nosuchname; }
    export k<16>;
)

int
main(void)
{
	PallasDevice *dev;
	PallasModule *m;
	int rc;

	if (pallas_device_open("small", &dev))
		return 99;
	rc = pallas_module_open(dev, bad, NULL, &m);
	printf("interpose: rc %d, %d calls of the program's functions\n", rc,
	    stolen);
	pallas_device_close(dev);
	return rc != PALLAS_ECOMPILE || stolen != 0 ||
	    !m || !*pallas_module_diagnostics(m);
}
