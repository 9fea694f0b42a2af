/*
 * driver.c - the C side of the end-to-end suite (tests/e2e/run.sh): links
 * the objects pallasc compiled from tests/e2e/FEATURE.pk and calls every
 * export through its generated header, in both forms (raw pointers, then
 * the _checked tensors, with different poison), on the simulated machine
 * with every check on.  Each output is compared with a plain-C reference
 * written here, and the raw and checked runs must agree bit for bit.
 *
 *   driver run DIR       every enabled export E: DIR/E/NAME.npy for its
 *                        inputs and outputs, DIR/E/args (pallasc's
 *                        --input-file and --smem options for them),
 *                        DIR/E/outs (output names and tolerances),
 *                        DIR/E/feature; prints cycles per export
 *   driver cmp A B TOL   two .npy files of one dtype and shape agree
 *                        within TOL (|a - b| <= TOL * (1 + |b|))
 *
 * Built with -DLN=<lanes> and -DE2E_HAVE_<feature> per compiled file; the
 * device's preset comes from $PALLAS_PRESET.  Exit status: 0 when every
 * check holds, 1 otherwise, 2 on bad use.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pallas/pallas.h>

#include "sizes.h"

#ifdef E2E_HAVE_elementwise
#include "elementwise.h"
#endif
#ifdef E2E_HAVE_eup
#include "eup.h"
#endif
#ifdef E2E_HAVE_iota
#include "iota.h"
#endif
#ifdef E2E_HAVE_control
#include "control.h"
#endif
#ifdef E2E_HAVE_matmul
#include "matmul.h"
#endif
#ifdef E2E_HAVE_squeeze
#include "squeeze.h"
#endif
#ifdef E2E_HAVE_squeeze_mid
#include "squeeze_mid.h"
#endif
#ifdef E2E_HAVE_smem
#include "smem.h"
#endif
#ifdef E2E_HAVE_scratch
#include "scratch.h"
#endif
#ifdef E2E_HAVE_buffering
#include "buffering.h"
#endif
#ifdef E2E_HAVE_views
#include "views.h"
#endif
#ifdef E2E_HAVE_dma
#include "dma.h"
#endif
#ifdef E2E_HAVE_reduce
#include "reduce.h"
#endif
#ifdef E2E_HAVE_broadcast
#include "broadcast.h"
#endif
#ifdef E2E_HAVE_transpose
#include "transpose.h"
#endif
#ifdef E2E_HAVE_roll
#include "roll.h"
#endif
#ifdef E2E_HAVE_bf16
#include "bf16.h"
#endif
#ifdef E2E_HAVE_divide
#include "divide.h"
#endif
#ifdef E2E_HAVE_narrow
#include "narrow.h"
#endif
#ifdef E2E_HAVE_unaligned
#include "unaligned.h"
#endif

enum { IN, OUT, TABLE };

/* One operand of the export under test: its host data (p), and for an
   output the checked call's copy (q). */
typedef struct Arr {
	const char *name;
	int role;
	PallasDtype dt;
	int rank;
	int64_t d[3];
	int64_t n;
	void *p, *q;
} Arr;

typedef struct Case {
	const char *feature, *name;
	double tol;		/* against interpret mode */
	Arr a[8];
	int na;
	PallasTensor t[8];	/* the checked call's arguments */
	uint64_t cycles;	/* the raw call's */
	int bad;
} Case;

static PallasDevice *dev;
static const char *outdir;
static int nfail;

/* ------------------------------------------------------------ values */

static float
value(int64_t i, int seed)
{
	return (float)((i * 37 + seed * 11) % 97) / 16.0f - 3.0f;
}

static int32_t
ivalue(int64_t i, int seed)
{
	return (int32_t)((i * 29 + seed * 7) % 61) - 30;
}

/* i8 inputs: the whole range of the type */
static int8_t
i8value(int64_t i, int seed)
{
	return (int8_t)((i * 29 + seed * 7) % 251 - 125);
}

/* bool inputs: about one in three true */
static uint8_t
bvalue(int64_t i, int seed)
{
	return (i * 7 + seed * 5) % 3 == 0;
}

/* v saturated to i8 (interpret mode's and the machine's converts). */
static int8_t
sat8(double v)
{
	return (int8_t)(v <= -128 ? -128 : v >= 127 ? 127 : (int)v);
}

static float
bf(uint16_t h)
{
	return pallas_bf16_to_f32(h);
}

/* ------------------------------------------------------------ operands */

static size_t
esize(PallasDtype dt)
{
	return dt == PALLAS_BF16 ? 2 : dt == PALLAS_I8 || dt == PALLAS_BOOL ?
	    1 : 4;
}

static void *
xcalloc0(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("driver");
		exit(2);
	}
	return p;
}

/* Adds an operand of shape d0 x d1 (x d2 if rank 3); inputs are filled
   from seed, outputs start as NaN (or INT_MIN) garbage. */
static void *
arr(Case *c, const char *name, int role, PallasDtype dt, int rank,
    int64_t d0, int64_t d1, int64_t d2, int seed)
{
	Arr *a = &c->a[c->na++];
	int64_t i;

	a->name = name;
	a->role = role;
	a->dt = dt;
	a->rank = rank;
	a->d[0] = d0;
	a->d[1] = d1;
	a->d[2] = d2;
	a->n = d0 * (rank > 1 ? d1 : 1) * (rank > 2 ? d2 : 1);
	a->p = xcalloc0((size_t)a->n, esize(dt));
	a->q = xcalloc0((size_t)a->n, esize(dt));
	for (i = 0; i < a->n; i++) {
		if (dt == PALLAS_F32)
			((float *)a->p)[i] = role == OUT ? NAN : value(i, seed);
		else if (dt == PALLAS_I32)
			((int32_t *)a->p)[i] = role == OUT ? INT32_MIN :
			    ivalue(i, seed);
		else if (dt == PALLAS_I8)
			((int8_t *)a->p)[i] = role == OUT ? INT8_MIN :
			    i8value(i, seed);
		else if (dt == PALLAS_BOOL)	/* 2: not a bool */
			((uint8_t *)a->p)[i] = role == OUT ? 2 :
			    bvalue(i, seed);
		else
			((uint16_t *)a->p)[i] = role == OUT ? 0x7fc0 :
			    pallas_f32_to_bf16(value(i, seed));
	}
	memcpy(a->q, a->p, (size_t)a->n * esize(dt));
	return a->p;
}

static float *
f32(Case *c, const char *name, int role, int64_t d0, int64_t d1, int seed)
{
	return arr(c, name, role, PALLAS_F32, 2, d0, d1, 0, seed);
}

static int32_t *
i32(Case *c, const char *name, int role, int64_t d0, int64_t d1, int seed)
{
	return arr(c, name, role, PALLAS_I32, 2, d0, d1, 0, seed);
}

static uint16_t *
bf16(Case *c, const char *name, int role, int64_t d0, int64_t d1, int seed)
{
	return arr(c, name, role, PALLAS_BF16, 2, d0, d1, 0, seed);
}

static int8_t *
i8(Case *c, const char *name, int role, int64_t d0, int64_t d1, int seed)
{
	return arr(c, name, role, PALLAS_I8, 2, d0, d1, 0, seed);
}

static uint8_t *
boolean(Case *c, const char *name, int role, int64_t d0, int64_t d1,
    int seed)
{
	return arr(c, name, role, PALLAS_BOOL, 2, d0, d1, 0, seed);
}

/* The checked call's tensors: inputs share the raw call's data, outputs
   get their own copy. */
static PallasTensor *
tensors(Case *c)
{
	int i, k;

	for (i = 0; i < c->na; i++) {
		Arr *a = &c->a[i];
		c->t[i].data = a->role == OUT ? a->q : a->p;
		c->t[i].dtype = a->dt;
		c->t[i].rank = a->rank;
		for (k = 0; k < a->rank; k++)
			c->t[i].shape[k] = a->d[k];
	}
	return c->t;
}

/* ------------------------------------------------------------ calls */

/* Before the raw call: NaN poison. */
static void
raw(void)
{
	pallas_device_set_poison(dev, PALLAS_POISON_NAN);
}

/* After the raw call: its status and cycles; then INT_MIN poison for the
   checked call.  0 if the call failed. */
static int
raw_done(Case *c, int err)
{
	PallasStats st;

	if (err) {
		printf("FAIL: %s: %s: %s\n", c->name, pallas_strerror(err),
		    pallas_last_error(dev));
		c->bad++;
		return 0;
	}
	pallas_last_stats(dev, &st);
	c->cycles = st.c.cycles;
	pallas_device_set_poison(dev, PALLAS_POISON_INT);
	return 1;
}

static void
checked_done(Case *c, int err)
{
	if (err) {
		printf("FAIL: %s (checked): %s: %s\n", c->name,
		    pallas_strerror(err), pallas_last_error(dev));
		c->bad++;
	}
}

/* Both calls of export E with the operands as arguments A...; the
   checked form gets tensors T[0 ...]. */
#define CALL(c, E, RAWARGS, CHKARGS)					\
	do {								\
		PallasTensor *T = tensors(c);				\
		(void)T;						\
		raw();							\
		if (raw_done(c, E RAWARGS))				\
			checked_done(c, E##_checked CHKARGS);		\
	} while (0)

/* ------------------------------------------------------------ checks */

/* got against want within tol * (1 + |want|) (or mag when > 0). */
static void
expect(Case *c, const char *what, int64_t i, double got, double want,
    double tol, double mag)
{
	double lim = tol * (mag > 0 ? mag : 1 + fabs(want));

	if (fabs(got - want) <= lim && !isnan(got))
		return;
	if (c->bad < 5)
		printf("FAIL: %s: %s[%lld] = %.9g, want %.9g\n", c->name, what,
		    (long long)i, got, want);
	c->bad++;
}

/* ------------------------------------------------------------ .npy */

static const char *
descr(PallasDtype dt)
{
	return dt == PALLAS_F32 ? "<f4" : dt == PALLAS_I32 ? "<i4" :
	    dt == PALLAS_I8 ? "|i1" : dt == PALLAS_BOOL ? "|b1" : "<u2";
}

/* data as DIR/NAME.npy, format 1.0 (the host is little-endian). */
static void
npy_write(const char *dir, const char *name, const Arr *a, const void *data)
{
	char path[1024], hdr[256], shape[96];
	size_t n, len;
	FILE *fp;

	if (a->rank == 3)
		snprintf(shape, sizeof shape, "(%lld, %lld, %lld)",
		    (long long)a->d[0], (long long)a->d[1], (long long)a->d[2]);
	else if (a->rank == 2)
		snprintf(shape, sizeof shape, "(%lld, %lld)",
		    (long long)a->d[0], (long long)a->d[1]);
	else
		snprintf(shape, sizeof shape, "(%lld,)", (long long)a->d[0]);
	n = (size_t)snprintf(hdr, sizeof hdr, "{'descr': '%s', "
	    "'fortran_order': False, 'shape': %s, }", descr(a->dt), shape);
	len = (10 + n + 1 + 63) / 64 * 64 - 10;
	memset(hdr + n, ' ', len - n);
	hdr[len - 1] = '\n';
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite("\x93NUMPY\x01\x00", 1, 8, fp) != 8 ||
	    fputc((int)(len & 0xff), fp) == EOF ||
	    fputc((int)(len >> 8), fp) == EOF ||
	    fwrite(hdr, 1, len, fp) != len ||
	    fwrite(data, esize(a->dt), (size_t)a->n, fp) != (size_t)a->n ||
	    fclose(fp)) {
		fprintf(stderr, "driver: cannot write %s\n", path);
		exit(2);
	}
}

typedef struct Npy {
	char descr[8];
	char shape[64];
	size_t n, esize;
	unsigned char *data;
} Npy;

/* Reads path (format 1.0, 2.0 or 3.0, C order); 0, or -1 with a message. */
static int
npy_read(const char *path, Npy *y)
{
	unsigned char m[12];
	char *hdr, *s, *e;
	size_t hl, pre, n = 1;
	long end;
	FILE *fp = fopen(path, "rb");

	memset(y, 0, sizeof *y);
	if (!fp || fread(m, 1, 10, fp) != 10 || memcmp(m, "\x93NUMPY", 6))
		return fprintf(stderr, "driver: %s: not a .npy file\n", path),
		    fp ? fclose(fp) : 0, -1;
	if (m[6] == 1) {
		hl = m[8] | (size_t)m[9] << 8;
		pre = 10;
	} else {
		if (fread(m + 10, 1, 2, fp) != 2)
			return fclose(fp), -1;
		hl = m[8] | (size_t)m[9] << 8 | (size_t)m[10] << 16 |
		    (size_t)m[11] << 24;
		pre = 12;
	}
	hdr = xcalloc0(hl + 1, 1);
	if (fread(hdr, 1, hl, fp) != hl || !(s = strstr(hdr, "'descr': '")) ||
	    strstr(hdr, "'fortran_order': True"))
		goto bad;
	snprintf(y->descr, sizeof y->descr, "%.3s", s + 10);
	y->esize = strcmp(y->descr, "<u2") == 0 ? 2 : y->descr[0] == '|' ? 1 :
	    4;
	if (!(s = strstr(hdr, "'shape': (")) || !(e = strchr(s, ')')))
		goto bad;
	snprintf(y->shape, sizeof y->shape, "%.*s", (int)(e - s - 9), s + 10);
	for (s += 10; s < e; s++)
		if (*s >= '0' && *s <= '9') {
			n *= strtoul(s, &s, 10);
			s--;
		}
	y->n = n;
	if (fseek(fp, 0, SEEK_END) || (end = ftell(fp)) < 0 ||
	    (size_t)end != pre + hl + n * y->esize ||
	    fseek(fp, (long)(pre + hl), SEEK_SET))
		goto bad;
	y->data = xcalloc0(n, y->esize);
	if (fread(y->data, y->esize, n, fp) != n)
		goto bad;
	free(hdr);
	fclose(fp);
	return 0;
bad:
	fprintf(stderr, "driver: %s: malformed or truncated .npy\n", path);
	free(hdr);
	fclose(fp);
	return -1;
}

static double
npy_get(const Npy *y, size_t i)
{
	if (strcmp(y->descr, "<f4") == 0) {
		float f;
		memcpy(&f, y->data + 4 * i, 4);
		return f;
	}
	if (strcmp(y->descr, "<i4") == 0) {
		int32_t v;
		memcpy(&v, y->data + 4 * i, 4);
		return v;
	}
	if (strcmp(y->descr, "|i1") == 0)
		return (int8_t)y->data[i];
	if (strcmp(y->descr, "|b1") == 0)
		return y->data[i];	/* raw: a 2 is not a bool */
	return bf(((const uint16_t *)(const void *)y->data)[i]);
}

static int
cmp(const char *pa, const char *pb, double tol)
{
	Npy a, b;
	size_t i, bad = 0;
	double worst = 0;

	if (npy_read(pa, &a) || npy_read(pb, &b))
		return 1;
	if (strcmp(a.descr, b.descr) || strcmp(a.shape, b.shape)) {
		printf("FAIL: %s is %s (%s), %s is %s (%s)\n", pa, a.descr,
		    a.shape, pb, b.descr, b.shape);
		return 1;
	}
	for (i = 0; i < a.n; i++) {
		double x = npy_get(&a, i), y = npy_get(&b, i);
		double e = fabs(x - y) / (1 + fabs(y));
		if (x == y || e <= tol)
			continue;
		if (bad++ < 5)
			printf("FAIL: %s[%zu] = %.9g, interpret mode %.9g\n",
			    pa, i, x, y);
		if (e > worst || isnan(e))
			worst = e;
	}
	free(a.data);
	free(b.data);
	if (bad)
		printf("FAIL: %s: %zu of %zu values differ (worst %.3g)\n", pa,
		    bad, a.n, worst);
	return bad != 0;
}

/* ------------------------------------------------------------ a case */

static void
begin(Case *c, const char *feature, const char *name, double tol)
{
	memset(c, 0, sizeof *c);
	c->feature = feature;
	c->name = name;
	c->tol = tol;
}

/* Raw and checked outputs agree; everything saved; the line printed. */
static void
finish(Case *c)
{
	char dir[1024], path[1100];
	FILE *args, *outs, *feat;
	int i;

	for (i = 0; i < c->na; i++) {
		Arr *a = &c->a[i];
		if (a->role == OUT && memcmp(a->p, a->q, (size_t)a->n *
		    esize(a->dt))) {
			printf("FAIL: %s: output %s differs between the raw and "
			    "the checked call\n", c->name, a->name);
			c->bad++;
		}
	}
	snprintf(dir, sizeof dir, "%s/%s", outdir, c->name);
	if (mkdir(dir, 0777) && errno != EEXIST) {
		perror(dir);
		exit(2);
	}
	snprintf(path, sizeof path, "%s/args", dir);
	args = fopen(path, "w");
	snprintf(path, sizeof path, "%s/outs", dir);
	outs = fopen(path, "w");
	snprintf(path, sizeof path, "%s/feature", dir);
	feat = fopen(path, "w");
	if (!args || !outs || !feat) {
		perror(path);
		exit(2);
	}
	fprintf(feat, "%s\n", c->feature);
	for (i = 0; i < c->na; i++) {
		Arr *a = &c->a[i];
		npy_write(dir, a->name, a, a->p);
		if (a->role == OUT)
			fprintf(outs, "%s %g\n", a->name, c->tol);
		else
			fprintf(args, "%s\n%s=%s/%s.npy\n", a->role == TABLE ?
			    "--smem" : "--input-file", a->name, dir, a->name);
	}
	if (fclose(args) | fclose(outs) | fclose(feat)) {
		perror(dir);
		exit(2);
	}
	printf("%-18s %-6s %8llu cycles  %s\n", c->name,
	    pallas_device_preset(dev), (unsigned long long)c->cycles,
	    c->bad ? "FAIL" : "ok");
	nfail += c->bad != 0;
	for (i = 0; i < c->na; i++) {
		free(c->a[i].p);
		free(c->a[i].q);
	}
}

/* Walks the [d0, d1] elements of a row-major array. */
#define EACH2(r, k, d0, d1) \
	for (r = 0; r < (d0); r++) for (k = 0; k < (d1); k++)

/* ------------------------------------------------------------ features */

#ifdef E2E_HAVE_elementwise
static void
t_elementwise(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "elementwise", "ew_f32", 1e-6);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *y = f32(&c, "y", IN, ROWS, COLS, 2);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, ew_f32, (dev, x, y, z), (dev, &T[0], &T[1], &T[2]));
		EACH2(r, k, ROWS, COLS) {
			float a = x[r * COLS + k], b = y[r * COLS + k], s;
			i = r * COLS + k;
			s = (a > b ? a * b - 1.5f : fmaxf(a, b) + 2.0f) / 4.0f;
			s = s - fminf(a, -b) + fabsf(a - 0.25f) *
			    (k / BC == 1 ? 0.5f : 2.0f);
			expect(&c, "z", i, z[i], s, 1e-6, 0);
		}
	}
	finish(&c);

	begin(&c, "elementwise", "ew_i32", 0);
	{
		int32_t *x = i32(&c, "x", IN, ROWS, COLS, 3);
		int32_t *y = i32(&c, "y", IN, ROWS, COLS, 4);
		int32_t *z = i32(&c, "z", OUT, ROWS, COLS, 0);
		float *f = f32(&c, "f", OUT, ROWS, COLS, 0);
		CALL(&c, ew_i32, (dev, x, y, z, f),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		for (i = 0; i < ROWS * COLS; i++) {
			int32_t a = x[i], b = y[i], q, w;
			q = ((a * 3 - b) ^ (a & 12)) |
			    (int32_t)((uint32_t)b << 2);
			w = a < b ? q >> 1 : (a > b ? a : b) - (a < ~b ? a : ~b);
			expect(&c, "z", i, z[i], w + (a < 0 ? -a : a), 0, 0);
			expect(&c, "f", i, f[i], (float)(a - b) * 0.5f, 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_eup
static void
t_eup(void)
{
	Case c;
	int64_t i;

	begin(&c, "eup", "ew_math", 1e-5);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 5);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, ew_math, (dev, x, z), (dev, &T[0], &T[1]));
		for (i = 0; i < ROWS * COLS; i++) {
			double a = x[i], p = fabs(a) + 0.5;
			expect(&c, "z", i, z[i], exp(a) + log(p) + sqrt(p) /
			    sqrt(p + 1) + tanh(a), 1e-5, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_iota
static void
t_iota(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "iota", "iota_mask", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		int32_t *m = i32(&c, "k", OUT, ROWS, COLS, 0);
		CALL(&c, iota_mask, (dev, x, z, m), (dev, &T[0], &T[1], &T[2]));
		EACH2(r, k, ROWS, COLS) {
			i = r * COLS + k;
			expect(&c, "z", i, z[i], r >= k ? x[i] : -100.0, 0, 0);
			expect(&c, "k", i, m[i], ((r + k) & 3) == 0 ?
			    r * 1000 + k : -k, 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_control
static void
t_control(void)
{
	Case c;
	int64_t r, k, i, q;

	begin(&c, "control", "branches", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, branches, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, ROWS, COLS) {
			int64_t bi = r / BR, bj = k / BC;
			i = r * COLS + k;
			expect(&c, "z", i, z[i], bi == 0 ? x[i] * 2.0f :
			    bj == 1 && bi != 2 ? -x[i] : x[i] + 3.0f, 0, 0);
		}
	}
	finish(&c);

	begin(&c, "control", "loops", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 2);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		float *s = f32(&c, "s", OUT, 8, COLS, 0);
		CALL(&c, loops, (dev, x, z, s), (dev, &T[0], &T[1], &T[2]));
		EACH2(r, k, ROWS, COLS) {
			i = r * COLS + k;
			expect(&c, "z", i, z[i], r / 8 % 2 == 0 ? x[i] * 2.0f :
			    -x[i], 0, 0);
		}
		EACH2(r, k, 8, COLS) {
			float want = x[r * COLS + k];
			for (q = 1; q < ROWS / 8 - k / BC; q++)
				want += x[(q * 8 + r) * COLS + k];
			expect(&c, "s", r * COLS + k, s[r * COLS + k], want, 0,
			    0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_matmul
/* z [M, N] against x [M, K] . y ([N, K] when tb, else [K, N]), within
   1e-5 of the sum of |products|; relu when asked. */
static void
mm_check(Case *c, const float *x, const float *y, const float *z, int tb,
    int relu)
{
	int64_t i, j, l;

	EACH2(i, j, MM, MN) {
		double s = 0, mag = 0;
		for (l = 0; l < MK; l++) {
			double p = (double)x[i * MK + l] *
			    (tb ? y[j * MK + l] : y[l * MN + j]);
			s += p;
			mag += fabs(p);
		}
		if (relu)
			s = s > 0 ? s : 0;
		expect(c, "z", i * MN + j, z[i * MN + j], s, 1e-5, mag + 1e-30);
	}
}

static float *
widen(const uint16_t *h, int64_t n)
{
	float *f = xcalloc0((size_t)n, sizeof *f);
	int64_t i;

	for (i = 0; i < n; i++)
		f[i] = bf(h[i]);
	return f;
}

static void
t_matmul(void)
{
	Case c;
	float *xf, *yf;

	begin(&c, "matmul", "mm_f32_tb", 1e-5);
	{
		float *x = f32(&c, "x", IN, MM, MK, 1);
		float *y = f32(&c, "y", IN, MN, MK, 2);
		float *z = f32(&c, "z", OUT, MM, MN, 0);
		CALL(&c, mm_f32_tb, (dev, x, y, z), (dev, &T[0], &T[1], &T[2]));
		mm_check(&c, x, y, z, 1, 0);
	}
	finish(&c);

	begin(&c, "matmul", "mm_bf16", 1e-5);
	{
		uint16_t *x = bf16(&c, "x", IN, MM, MK, 3);
		uint16_t *y = bf16(&c, "y", IN, MK, MN, 4);
		float *z = f32(&c, "z", OUT, MM, MN, 0);
		CALL(&c, mm_bf16, (dev, x, y, z), (dev, &T[0], &T[1], &T[2]));
		xf = widen(x, MM * MK);
		yf = widen(y, MK * MN);
		mm_check(&c, xf, yf, z, 0, 0);
		free(xf);
		free(yf);
	}
	finish(&c);

	begin(&c, "matmul", "mm_bf16_tb", 1e-5);
	{
		uint16_t *x = bf16(&c, "x", IN, MM, MK, 5);
		uint16_t *y = bf16(&c, "y", IN, MN, MK, 6);
		float *z = f32(&c, "z", OUT, MM, MN, 0);
		CALL(&c, mm_bf16_tb, (dev, x, y, z), (dev, &T[0], &T[1], &T[2]));
		xf = widen(x, MM * MK);
		yf = widen(y, MN * MK);
		mm_check(&c, xf, yf, z, 1, 1);
		free(xf);
		free(yf);
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_squeeze
static void
t_squeeze(void)
{
	Case c;
	int64_t i;

	begin(&c, "squeeze", "squeeze_lead", 0);
	{
		float *x = arr(&c, "x", IN, PALLAS_F32, 3, HEADS, ROWS, COLS, 1);
		float *z = arr(&c, "z", OUT, PALLAS_F32, 3, HEADS, ROWS, COLS, 0);
		CALL(&c, squeeze_lead, (dev, x, z), (dev, &T[0], &T[1]));
		for (i = 0; i < HEADS * ROWS * COLS; i++)
			expect(&c, "z", i, z[i], x[i] * 2.0f +
			    (i / (ROWS * COLS) == 1 ? 1.0f : 0.5f), 0, 0);
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_squeeze_mid
static void
t_squeeze_mid(void)
{
	Case c;
	int64_t h, r, k;

	begin(&c, "squeeze_mid", "squeeze_mid", 0);
	{
		float *x = arr(&c, "x", IN, PALLAS_F32, 3, ROWS, HEADS, COLS, 1);
		float *z = arr(&c, "z", OUT, PALLAS_F32, 3, HEADS, ROWS, COLS, 0);
		CALL(&c, squeeze_mid, (dev, x, z), (dev, &T[0], &T[1]));
		for (h = 0; h < HEADS; h++)
			EACH2(r, k, ROWS, COLS)
				expect(&c, "z", (h * ROWS + r) * COLS + k,
				    z[(h * ROWS + r) * COLS + k],
				    x[(r * HEADS + h) * COLS + k] - 1.0f, 0, 0);
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_smem
static void
t_smem(void)
{
	Case c;
	int64_t i, r, k;

	begin(&c, "smem", "gather", 0);
	{
		/* block 2 twice, fixed points at 1 (and 2 if NT > 4) */
		int32_t *t = arr(&c, "t", TABLE, PALLAS_I32, 1, NT, 0, 0, 0);
		float *w = arr(&c, "w", TABLE, PALLAS_F32, 1, NT, 0, 0, 0);
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		for (i = 0; i < NT; i++) {
			t[i] = i == 0 ? NT - 2 : i == NT - 1 ? 0 : (int32_t)i;
			w[i] = 0.5f + (float)i;
		}
		CALL(&c, gather, (dev, t, w, x, z),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		EACH2(r, k, ROWS, COLS) {
			int64_t b = r / BR, src = (t[b] * BR + r % BR) * COLS + k;
			expect(&c, "z", r * COLS + k, z[r * COLS + k], x[src] *
			    w[b] + (t[b] == b ? 100.0f : 0.0f), 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_scratch
static void
t_scratch(void)
{
	Case c;
	int64_t r, k, q;

	begin(&c, "scratch", "accumulate", 1e-6);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, BR, COLS, 0);
		CALL(&c, accumulate, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, BR, COLS) {
			float acc = x[r * COLS + k];
			for (q = 1; q < ROWS / BR; q++)
				acc += x[(q * BR + r) * COLS + k] * 0.5f;
			expect(&c, "z", r * COLS + k, z[r * COLS + k],
			    acc + 10.0f, 1e-6, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_buffering
static void
t_buffering(void)
{
	static const char *const names[3] = {
		"buf_single", "buf_double", "buf_mixed",
	};
	uint64_t cyc[3];
	Case c;
	int m;
	int64_t i;

	for (m = 0; m < 3; m++) {
		begin(&c, "buffering", names[m], 0);
		{
			float *x = f32(&c, "x", IN, ROWS, COLS, 1 + m);
			float *y = f32(&c, "y", IN, ROWS, COLS, 4 + m);
			float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
			if (m == 0)
				CALL(&c, buf_single, (dev, x, y, z),
				    (dev, &T[0], &T[1], &T[2]));
			else if (m == 1)
				CALL(&c, buf_double, (dev, x, y, z),
				    (dev, &T[0], &T[1], &T[2]));
			else
				CALL(&c, buf_mixed, (dev, x, y, z),
				    (dev, &T[0], &T[1], &T[2]));
			for (i = 0; i < ROWS * COLS; i++)
				expect(&c, "z", i, z[i], x[i] * y[i] + x[i], 0,
				    0);
		}
		cyc[m] = c.cycles;
		finish(&c);
	}
	/* the point of double buffering: copies overlap the steps */
	if (!(cyc[1] < cyc[2] && cyc[2] < cyc[0])) {
		printf("FAIL: buffering: cycles double %llu, mixed %llu, "
		    "single %llu: not double < mixed < single\n",
		    (unsigned long long)cyc[1], (unsigned long long)cyc[2],
		    (unsigned long long)cyc[0]);
		nfail++;
	}
}
#endif

#ifdef E2E_HAVE_views
static void
t_views(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "views", "col_views", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, col_views, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, ROWS, COLS) {
			float want = r % BR == 0 ?
			    x[(r + BR - 1) * COLS + k] + 100.0f :
			    k < LN ? x[r * COLS + COLS - LN + k] :
			    x[r * COLS + k - LN] * 2.0f;
			i = r * COLS + k;
			expect(&c, "z", i, z[i], want, 0, 0);
		}
	}
	finish(&c);

	begin(&c, "views", "elem_offsets", 0);
	{
		float *x = f32(&c, "x", IN, ROWS + 8, COLS, 2);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, elem_offsets, (dev, x, z), (dev, &T[0], &T[1]));
		for (i = 0; i < ROWS * COLS; i++)
			expect(&c, "z", i, z[i], x[i + 4 * COLS] + 1.0f, 0, 0);
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_dma
static void
t_dma(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "dma", "dma_rows", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, dma_rows, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, ROWS, COLS) {
			int64_t o = ((ROWS / BR - 1 - r / BR) * BR + r % BR) *
			    COLS + k;
			i = r * COLS + k;
			expect(&c, "z", i, z[i], x[i] * 2.0f - x[o], 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_reduce
static void
t_reduce(void)
{
	Case c;
	int64_t r, k;

	begin(&c, "reduce", "reduce_rows", 1e-5);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *s = f32(&c, "s", OUT, ROWS, 1, 0);
		float *m = f32(&c, "m", OUT, ROWS, 1, 0);
		float *a = f32(&c, "a", OUT, ROWS, 1, 0);
		CALL(&c, reduce_rows, (dev, x, s, m, a),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		for (r = 0; r < ROWS; r++) {
			double sum = 0, hi = -INFINITY, lo = INFINITY;
			for (k = 0; k < COLS; k++) {
				double v = x[r * COLS + k];
				sum += v;
				hi = fmax(hi, v);
				lo = fmin(lo, v);
			}
			expect(&c, "s", r, s[r], sum, 1e-5, 0);
			expect(&c, "m", r, m[r], hi, 0, 0);
			expect(&c, "a", r, a[r], sum / COLS - lo, 1e-5, 0);
		}
	}
	finish(&c);

	begin(&c, "reduce", "reduce_cols", 1e-5);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 2);
		float *s = f32(&c, "s", OUT, 1, COLS, 0);
		float *m = f32(&c, "m", OUT, 1, COLS, 0);
		CALL(&c, reduce_cols, (dev, x, s, m), (dev, &T[0], &T[1], &T[2]));
		for (k = 0; k < COLS; k++) {
			double sum = 0, hi = -INFINITY;
			for (r = 0; r < ROWS; r++) {
				sum += x[r * COLS + k];
				hi = fmax(hi, x[r * COLS + k]);
			}
			expect(&c, "s", k, s[k], sum, 1e-5, 0);
			expect(&c, "m", k, m[k], hi + sum / ROWS, 1e-5, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_broadcast
static void
t_broadcast(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "broadcast", "bcast", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *rr = f32(&c, "r", IN, ROWS, 1, 2);
		float *cc = f32(&c, "c", IN, 1, COLS, 3);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		float *w = f32(&c, "w", OUT, ROWS, COLS, 0);
		CALL(&c, bcast, (dev, x, rr, cc, z, w),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4]));
		EACH2(r, k, ROWS, COLS) {
			i = r * COLS + k;
			expect(&c, "z", i, z[i], x[i] * rr[r] + cc[k], 1e-6, 0);
			expect(&c, "w", i, w[i], x[(r - r % BR) * COLS + k] -
			    rr[r], 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_transpose
static void
t_transpose(void)
{
	Case c;
	int64_t r, k;

	begin(&c, "transpose", "transpose_blocks", 0);
	{
		float *x = f32(&c, "x", IN, 2 * LN, 3 * LN, 1);
		float *z = f32(&c, "z", OUT, 3 * LN, 2 * LN, 0);
		CALL(&c, transpose_blocks, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, 3 * LN, 2 * LN)
			expect(&c, "z", r * 2 * LN + k, z[r * 2 * LN + k],
			    x[k * 3 * LN + r] * 2.0f + 1.0f, 0, 0);
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_roll
/* Element (r, k) of the [BR, BC] block at (r0, k0) of x rolled by (sr, sk). */
static float
rolled(const float *x, int64_t r0, int64_t k0, int64_t r, int64_t k,
    int64_t sr, int64_t sk)
{
	return x[(r0 + (r - sr % BR + BR) % BR) * COLS + k0 +
	    (k - sk % BC + BC) % BC];
}

static void
t_roll(void)
{
	Case c;
	int64_t r, k;

	begin(&c, "roll", "roll_blocks", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		CALL(&c, roll_blocks, (dev, x, z), (dev, &T[0], &T[1]));
		EACH2(r, k, ROWS, COLS) {
			int64_t r0 = r - r % BR, k0 = k - k % BC;
			int64_t br = r % BR, bk = k % BC;
			float want = rolled(x, r0, k0, br, bk, 0, 3) +
			    rolled(x, r0, k0, br, bk, 1, 0) * 2.0f +
			    rolled(x, r0, k0, br, bk, 0, r / BR + 1) * 4.0f;
			expect(&c, "z", r * COLS + k, z[r * COLS + k], want,
			    1e-6, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_divide
/* C's truncating i32 / and %, with divide.pk's zero divisors replaced. */
static void
t_divide_i32(void)
{
	Case c;
	int64_t r, k;

	begin(&c, "divide", "div_i32", 0);
	{
		int32_t *x = i32(&c, "x", IN, ROWS, COLS, 1);
		int32_t *y = i32(&c, "y", IN, ROWS, COLS, 2);
		int32_t *q = i32(&c, "q", OUT, ROWS, COLS, 0);
		int32_t *m = i32(&c, "r", OUT, ROWS, COLS, 0);
		CALL(&c, div_i32, (dev, x, y, q, m),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		EACH2(r, k, ROWS, COLS) {
			int64_t i = r * COLS + k;
			int32_t a = x[i] * 7919, b = y[i] ? y[i] : -7;
			int32_t col = (int32_t)(k / BC * BC);
			expect(&c, "q", i, q[i], a / b + a / 3 * 100 +
			    a / -4 * 10000, 0, 0);
			expect(&c, "r", i, m[i], a % b + a % 3 * 100 +
			    a % -4 * 10000 + (col - 5) / 3, 0, 0);
		}
	}
	finish(&c);
}

/* f32 division: vectors x * (1 / y), within an ulp or two of C's;
   scalars (s's w[i] / w[0]) correctly rounded. */
static void
t_divide_f32(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "divide", "div_f32", 1e-6);
	{
		float *w = arr(&c, "w", TABLE, PALLAS_F32, 1, NT, 0, 0, 0);
		float *x = f32(&c, "x", IN, ROWS, COLS, 1);
		float *y = f32(&c, "y", IN, ROWS, COLS, 2);
		float *z = f32(&c, "z", OUT, ROWS, COLS, 0);
		float *s = f32(&c, "s", OUT, ROWS, COLS, 0);
		for (i = 0; i < NT; i++)
			w[i] = 0.3f + (float)i * 1.7f;
		CALL(&c, div_f32, (dev, w, x, y, z, s),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4]));
		EACH2(r, k, ROWS, COLS) {
			float a = x[r * COLS + k], b = y[r * COLS + k];
			float wq = w[r / BR] / w[0], q = b == 0.0f ? 0.375f : b;
			i = r * COLS + k;
			expect(&c, "z", i, z[i], a / q + a / 3.0f, 1e-6, 0);
			expect(&c, "s", i, s[i], a * wq - a / 0.25f +
			    a * (1.0f / 7.0f), 1e-6, 0);
		}
	}
	finish(&c);
}

static void
t_divide(void)
{
	t_divide_i32();
	t_divide_f32();
}
#endif

#ifdef E2E_HAVE_bf16
/* f rounded to bf16: what every bf16 op does to its f32 result. */
static float
r16(float f)
{
	return bf(pallas_f32_to_bf16(f));
}

static void
t_bf16_ops(void)
{
	Case c;
	int64_t i;

	begin(&c, "bf16", "bf16_ops", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 1);
		uint16_t *y = bf16(&c, "y", IN, ROWS, COLS, 2);
		uint16_t *z = bf16(&c, "z", OUT, ROWS, COLS, 0);
		uint16_t *w = bf16(&c, "w", OUT, ROWS, COLS, 0);
		float *f = f32(&c, "c", OUT, ROWS, COLS, 0);
		CALL(&c, bf16_ops, (dev, x, y, z, w, f),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4]));
		for (i = 0; i < ROWS * COLS; i++) {
			float a = bf(x[i]), b = bf(y[i]), s;
			s = r16(r16(r16(a * r16(0.3f)) + r16(b * a)) - 1.0f);
			expect(&c, "z", i, bf(z[i]), r16(s + a), 0, 0);
			s = r16((a > b ? a : -b) + r16(fmaxf(a, b) *
			    fminf(a, 0.5f)));
			expect(&c, "w", i, bf(w[i]), s, 0, 0);
			expect(&c, "c", i, f[i], r16(fabsf(a - b)) + (a >= b),
			    0, 0);
		}
	}
	finish(&c);
}

static void
t_bf16_casts(void)
{
	Case c;
	int64_t i;

	begin(&c, "bf16", "bf16_casts", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 3);
		int32_t *k = i32(&c, "k", IN, ROWS, COLS, 4);
		float *y = f32(&c, "y", IN, ROWS, COLS, 5);
		int32_t *a = i32(&c, "a", OUT, ROWS, COLS, 0);
		uint16_t *b = bf16(&c, "b", OUT, ROWS, COLS, 0);
		uint16_t *z = bf16(&c, "c", OUT, ROWS, COLS, 0);
		CALL(&c, bf16_casts, (dev, x, k, y, a, b, z),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4], &T[5]));
		for (i = 0; i < ROWS * COLS; i++) {
			float v = bf(x[i]);
			expect(&c, "a", i, a[i], (int32_t)r16(v * 3.0f), 0, 0);
			expect(&c, "b", i, bf(b[i]), r16(r16((float)k[i]) + v),
			    0, 0);
			expect(&c, "c", i, bf(z[i]), r16(r16(y[i] * 0.3f) * v),
			    0, 0);
		}
	}
	finish(&c);
}

/* The EUP's exp and tanh are within a few f32 ulps of the C library's:
   the bf16 results within one bf16 ulp. */
static void
t_bf16_eup(void)
{
	Case c;
	int64_t i;

	begin(&c, "bf16", "bf16_eup", 1.0 / 128);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 6);
		uint16_t *e = bf16(&c, "e", OUT, ROWS, COLS, 0);
		uint16_t *t = bf16(&c, "t", OUT, ROWS, COLS, 0);
		CALL(&c, bf16_eup, (dev, x, e, t), (dev, &T[0], &T[1], &T[2]));
		for (i = 0; i < ROWS * COLS; i++) {
			float v = bf(x[i]);
			expect(&c, "e", i, bf(e[i]), r16(expf(r16(v * 0.5f))),
			    1.0 / 128, 0);
			expect(&c, "t", i, bf(t[i]), r16(r16(tanhf(v)) +
			    r16(sqrtf(fabsf(v)))), 1.0 / 128, 0);
		}
	}
	finish(&c);
}

/* The inputs are multiples of 1/16 below 4: every sum is exact in f32,
   whatever its order. */
static void
t_bf16_reduce(void)
{
	Case c;
	int64_t r, k;

	begin(&c, "bf16", "bf16_reduce", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 7);
		uint16_t *s = bf16(&c, "s", OUT, ROWS, 1, 0);
		uint16_t *m = bf16(&c, "m", OUT, ROWS, 1, 0);
		uint16_t *cs = bf16(&c, "cs", OUT, 1, COLS, 0);
		uint16_t *cm = bf16(&c, "cm", OUT, 1, COLS, 0);
		CALL(&c, bf16_reduce, (dev, x, s, m, cs, cm),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4]));
		for (r = 0; r < ROWS; r++) {
			float sum = 0, hi = -INFINITY;
			for (k = 0; k < COLS; k++) {
				sum += bf(x[r * COLS + k]);
				hi = fmaxf(hi, bf(x[r * COLS + k]));
			}
			expect(&c, "s", r, bf(s[r]), r16(sum), 0, 0);
			expect(&c, "m", r, bf(m[r]), r16(hi - r16(sum /
			    COLS)), 0, 0);
		}
		for (k = 0; k < COLS; k++) {
			float sum = 0, hi = -INFINITY, lo = INFINITY;
			for (r = 0; r < ROWS; r++) {
				sum += bf(x[r * COLS + k]);
				hi = fmaxf(hi, bf(x[r * COLS + k]));
				lo = fminf(lo, bf(x[r * COLS + k]));
			}
			expect(&c, "cs", k, bf(cs[k]), r16(sum), 0, 0);
			expect(&c, "cm", k, bf(cm[k]), r16(hi + lo), 0, 0);
		}
	}
	finish(&c);
}

static void
t_bf16_bcast(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "bf16", "bf16_bcast", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 8);
		uint16_t *rr = bf16(&c, "r", IN, ROWS, 1, 9);
		uint16_t *cc = bf16(&c, "c", IN, 1, COLS, 10);
		uint16_t *z = bf16(&c, "z", OUT, ROWS, COLS, 0);
		uint16_t *w = bf16(&c, "w", OUT, ROWS, COLS, 0);
		CALL(&c, bf16_bcast, (dev, x, rr, cc, z, w),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4]));
		EACH2(r, k, ROWS, COLS) {
			float v = bf(x[r * COLS + k]);
			float row8 = bf(x[(r - r % 16 + 8) * COLS + k]);
			i = r * COLS + k;
			expect(&c, "z", i, bf(z[i]), r16(r16(v * bf(rr[r])) +
			    bf(cc[k])), 0, 0);
			expect(&c, "w", i, bf(w[i]), r16(r16(v - row8) + 0.5f),
			    0, 0);
		}
	}
	finish(&c);
}

static void
t_bf16_views(void)
{
	Case c;
	int64_t r, k, i;

	begin(&c, "bf16", "bf16_views", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, 48, COLS, 11);
		uint16_t *h = bf16(&c, "h", IN, 8, COLS, 12);
		uint16_t *z = bf16(&c, "z", OUT, 16, COLS, 0);
		uint16_t *v = bf16(&c, "v", OUT, 8, COLS, 0);
		uint16_t *q = bf16(&c, "q", OUT, 48, COLS, 0);
		uint16_t *rr = bf16(&c, "r", OUT, 2, 48, 0);
		CALL(&c, bf16_views, (dev, x, h, z, v, q, rr),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4], &T[5]));
		EACH2(r, k, 16, COLS) {
			float want = r16(bf(x[(r + 8) * COLS + k]) +
			    bf(x[(r + 32) * COLS + k]));
			if (k < LN)
				want = r16(want - bf(x[r * COLS + k + LN / 2]));
			expect(&c, "z", r * COLS + k, bf(z[r * COLS + k]), want,
			    0, 0);
		}
		EACH2(r, k, 8, COLS) {
			i = r * COLS + k;
			expect(&c, "v", i, bf(v[i]), r16(r16(r16(bf(h[i]) *
			    bf(x[(r + 24) * COLS + k])) - bf(x[i])) +
			    bf(x[3 * COLS + k])), 0, 0);
		}
		EACH2(r, k, 48, COLS) {
			float want = bf(x[r * COLS + k]);
			i = r * COLS + k;
			if (r >= 8 && r < 16)
				want = r16(bf(h[(r - 8) * COLS + k]) + 1.0f);
			else if (r >= 16 && r < 32 && k < LN / 2)
				want = r16(bf(x[(r - 16) * COLS + k]) * 2.0f);
			else if (r >= 37 && r < 40 && k >= LN / 2 + 1 &&
			    k < LN / 2 + LN + 4)
				want = bf(x[(r - 19) * COLS + k - LN / 2 + 4]);
			expect(&c, "q", i, bf(q[i]), want, 0, 0);
		}
		for (r = 0; r < 48; r++) {
			float sum = 0, hi = -INFINITY;
			for (k = 0; k < COLS; k++) {
				sum += bf(x[r * COLS + k]);
				hi = fmaxf(hi, bf(x[r * COLS + k]));
			}
			expect(&c, "r", r, bf(rr[r]), hi, 0, 0);
			expect(&c, "r", 48 + r, bf(rr[48 + r]), r16(sum), 0, 0);
		}
	}
	finish(&c);
}

/* The f32 sums of t (bf16 values of mixed magnitudes) are not exact:
   their order may differ between the modes and C. */
static void
t_bf16_big(void)
{
	Case c;
	int64_t r, k;
	const int64_t M = 2 * ROWS * 2;

	begin(&c, "bf16", "bf16_big", 1e-5);
	{
		uint16_t *x = bf16(&c, "x", IN, M, COLS, 13);
		uint16_t *z = bf16(&c, "z", OUT, M, COLS, 0);
		float *s = f32(&c, "s", OUT, M, 1, 0);
		CALL(&c, bf16_big, (dev, x, z, s), (dev, &T[0], &T[1], &T[2]));
		for (r = 0; r < M; r++) {
			double sum = 0;
			for (k = 0; k < COLS; k++) {
				float v = bf(x[r * COLS + k]);
				float t = r16(r16(v * v) - r16(v * 0.75f));
				expect(&c, "z", r * COLS + k,
				    bf(z[r * COLS + k]), t, 0, 0);
				sum += t;
			}
			expect(&c, "s", r, s[r], sum, 1e-5, 0);
		}
	}
	finish(&c);
}

static void
t_bf16(void)
{
	Case c;
	int64_t i;

	begin(&c, "bf16", "ew_bf16", 0);
	{
		uint16_t *x = bf16(&c, "x", IN, ROWS, COLS, 1);
		float *y = f32(&c, "y", IN, ROWS, COLS, 2);
		uint16_t *z = bf16(&c, "z", OUT, ROWS, COLS, 0);
		float *f = f32(&c, "f", OUT, ROWS, COLS, 0);
		CALL(&c, ew_bf16, (dev, x, y, z, f),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		for (i = 0; i < ROWS * COLS; i++) {
			float a = bf(x[i]);
			expect(&c, "z", i, z[i], pallas_f32_to_bf16(a * 2.0f +
			    y[i]), 0, 0);
			expect(&c, "f", i, f[i], a - y[i], 0, 0);
		}
	}
	finish(&c);
	t_bf16_ops();
	t_bf16_casts();
	t_bf16_eup();
	t_bf16_reduce();
	t_bf16_bcast();
	t_bf16_views();
	t_bf16_big();
}
#endif

#ifdef E2E_HAVE_narrow
static void
t_narrow(void)
{
	Case c;
	int64_t i;

	begin(&c, "narrow", "ew_bool", 0);
	{
		uint8_t *m = boolean(&c, "m", IN, ROWS, COLS, 1);
		float *x = f32(&c, "x", IN, ROWS, COLS, 2);
		float *y = f32(&c, "y", OUT, ROWS, COLS, 0);
		uint8_t *b = boolean(&c, "b", OUT, ROWS, COLS, 0);
		CALL(&c, ew_bool, (dev, m, x, y, b),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		for (i = 0; i < ROWS * COLS; i++) {
			expect(&c, "y", i, y[i], m[i] ? x[i] : 0.0f, 0, 0);
			expect(&c, "b", i, b[i], x[i] > 0.0f || !m[i], 0, 0);
		}
	}
	finish(&c);

	begin(&c, "narrow", "ew_i8", 0);
	{
		int8_t *x = i8(&c, "x", IN, I8ROWS, COLS, 3);
		float *f = f32(&c, "f", IN, I8ROWS, COLS, 4);
		int32_t *w = i32(&c, "w", OUT, I8ROWS, COLS, 0);
		float *g = f32(&c, "g", OUT, I8ROWS, COLS, 0);
		int8_t *z = i8(&c, "z", OUT, I8ROWS, COLS, 0);
		int8_t *h = i8(&c, "h", OUT, I8ROWS, COLS, 0);
		CALL(&c, ew_i8, (dev, x, f, w, g, z, h),
		    (dev, &T[0], &T[1], &T[2], &T[3], &T[4], &T[5]));
		for (i = 0; i < I8ROWS * COLS; i++) {
			expect(&c, "w", i, w[i], x[i] + 1, 0, 0);
			expect(&c, "g", i, g[i], x[i] * 0.5f, 0, 0);
			expect(&c, "z", i, z[i], sat8(x[i] * 5 - 7), 0, 0);
			expect(&c, "h", i, h[i], sat8(f[i] * 64.0f), 0, 0);
		}
	}
	finish(&c);
}
#endif

#ifdef E2E_HAVE_unaligned
static void
t_unaligned(void)
{
	Case c;
	int64_t i;

	begin(&c, "unaligned", "wide", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, WIDE, 1);
		float *y = f32(&c, "y", OUT, ROWS, WIDE, 0);
		CALL(&c, wide, (dev, x, y), (dev, &T[0], &T[1]));
		for (i = 0; i < ROWS * WIDE; i++)
			expect(&c, "y", i, y[i], x[i] * 2.0f + 1.0f, 0, 0);
	}
	finish(&c);

	begin(&c, "unaligned", "narrow_cols", 0);
	{
		int32_t *x = i32(&c, "x", IN, ROWS, HALF, 2);
		int32_t *y = i32(&c, "y", OUT, ROWS, HALF, 0);
		CALL(&c, narrow_cols, (dev, x, y), (dev, &T[0], &T[1]));
		for (i = 0; i < ROWS * HALF; i++)
			expect(&c, "y", i, y[i], x[i] * 3 - 1, 0, 0);
	}
	finish(&c);

	begin(&c, "unaligned", "odd_rows", 0);
	{
		float *x = f32(&c, "x", IN, ODDR, WIDE, 3);
		uint8_t *m = boolean(&c, "m", IN, ODDR, WIDE, 4);
		float *y = f32(&c, "y", OUT, ODDR, WIDE, 0);
		uint8_t *b = boolean(&c, "b", OUT, ODDR, WIDE, 0);
		CALL(&c, odd_rows, (dev, x, m, y, b),
		    (dev, &T[0], &T[1], &T[2], &T[3]));
		for (i = 0; i < ODDR * WIDE; i++) {
			expect(&c, "y", i, y[i], m[i] ? x[i] - 0.5f : x[i], 0,
			    0);
			expect(&c, "b", i, b[i], x[i] < 0.0f, 0, 0);
		}
	}
	finish(&c);

	begin(&c, "unaligned", "dma_wide", 0);
	{
		float *x = f32(&c, "x", IN, ROWS, WIDE, 5);
		uint8_t *m = boolean(&c, "m", IN, ROWS, WIDE, 6);
		float *z = f32(&c, "z", OUT, ROWS, WIDE, 0);
		CALL(&c, dma_wide, (dev, x, m, z), (dev, &T[0], &T[1], &T[2]));
		for (i = 0; i < ROWS * WIDE; i++)
			expect(&c, "z", i, z[i], m[i] ? x[i] : -1.0f, 0, 0);
	}
	finish(&c);
}
#endif

/* ------------------------------------------------------------ main */

static int
run(void)
{
	int err;

	if ((err = pallas_device_open(NULL, &dev))) {
		fprintf(stderr, "driver: %s\n", pallas_strerror(err));
		return 2;
	}
#ifdef E2E_HAVE_elementwise
	t_elementwise();
#endif
#ifdef E2E_HAVE_eup
	t_eup();
#endif
#ifdef E2E_HAVE_iota
	t_iota();
#endif
#ifdef E2E_HAVE_control
	t_control();
#endif
#ifdef E2E_HAVE_matmul
	t_matmul();
#endif
#ifdef E2E_HAVE_squeeze
	t_squeeze();
#endif
#ifdef E2E_HAVE_squeeze_mid
	t_squeeze_mid();
#endif
#ifdef E2E_HAVE_smem
	t_smem();
#endif
#ifdef E2E_HAVE_scratch
	t_scratch();
#endif
#ifdef E2E_HAVE_buffering
	t_buffering();
#endif
#ifdef E2E_HAVE_views
	t_views();
#endif
#ifdef E2E_HAVE_dma
	t_dma();
#endif
#ifdef E2E_HAVE_reduce
	t_reduce();
#endif
#ifdef E2E_HAVE_broadcast
	t_broadcast();
#endif
#ifdef E2E_HAVE_transpose
	t_transpose();
#endif
#ifdef E2E_HAVE_roll
	t_roll();
#endif
#ifdef E2E_HAVE_bf16
	t_bf16();
#endif
#ifdef E2E_HAVE_divide
	t_divide();
#endif
#ifdef E2E_HAVE_narrow
	t_narrow();
#endif
#ifdef E2E_HAVE_unaligned
	t_unaligned();
#endif
	pallas_device_close(dev);
	return nfail != 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "run") == 0) {
		outdir = argv[2];
		return run();
	}
	if (argc == 5 && strcmp(argv[1], "cmp") == 0)
		return cmp(argv[2], argv[3], strtod(argv[4], NULL));
	fprintf(stderr, "usage: driver run DIR | driver cmp A.npy B.npy TOL\n");
	return 2;
}
