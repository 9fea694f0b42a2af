/*
 * npycheck.c - the C side of the driver's interpret-mode test
 * (tests/interp/run.sh): writes inputs as .npy files and checks the
 * outputs pallasc saved against the plain-C references.
 *
 *   npycheck gen-matmul DIR M K N SEED    DIR/x.npy [M,K], DIR/y.npy [K,N]
 *   npycheck matmul DIR TOL               DIR/z.npy against x . y
 *   npycheck gen-splash DIR H KVH S D SEED  DIR/q.npy (scaled), k, v
 *   npycheck splash DIR TOL               DIR/o.npy, lse.npy, causal mask
 *   npycheck table FILE [DTYPE] V...      an i32 (or i8, bool, f32) vector
 *                                         as a .npy file
 *   npycheck iseq FILE R C LO N [I,J=V]...  an i32 [R, C] matrix,
 *                                         element k = LO + k mod N, then
 *                                         element (I, J) set to V
 *   npycheck same A B TOL                 A.npy equals B.npy: same dtype
 *                                         and shape, bit for bit (TOL 0)
 *                                         or floats within TOL (relative)
 *
 * Exit status 0 when the check holds, 1 when it does not, 2 on bad use.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/interp.h"
#include "kernels/matmul/matmul_host.h"
#include "kernels/splash/splash_host.h"

static void
load(const char *dir, const char *name, InterpBuf *b)
{
	char path[1024], err[256];

	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	if (interp_npy_read(path, b, err, sizeof err)) {
		fprintf(stderr, "npycheck: %s\n", err);
		exit(1);
	}
	if (b->dtype != DT_F32) {
		fprintf(stderr, "npycheck: %s is not f32\n", path);
		exit(1);
	}
}

static void
save(const char *dir, const char *name, int rank, const int64_t *d,
    uint64_t seed, float scale)
{
	char path[1024], err[256];
	InterpBuf b;
	Shape s = { rank, {0} };
	int64_t i;

	memcpy(s.d, d, (size_t)rank * sizeof(int64_t));
	interp_buf_alloc(&b, name, DT_F32, &s);
	interp_fill(&b, INTERP_RANDOM, seed);
	for (i = 0; i < shape_numel(&s); i++)
		((float *)b.data)[i] *= scale;
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	if (interp_npy_write(path, &b, err, sizeof err)) {
		fprintf(stderr, "npycheck: %s\n", err);
		exit(1);
	}
	interp_buf_free(&b);
}

/* max |got - want| / max |want|, printed; 0 if within tol. */
static int
compare(const char *what, const float *got, const double *want,
    int64_t n, double tol)
{
	double e = 0, m = 0;
	int64_t i;

	for (i = 0; i < n; i++) {
		e = fmax(e, fabs(got[i] - want[i]));
		m = fmax(m, fabs(want[i]));
	}
	e = m > 0 ? e / m : e;
	printf("%s: max relative error %.3g (tolerance %.3g)\n", what, e, tol);
	return e <= tol && !isnan(e) ? 0 : 1;
}

static int
check_matmul(const char *dir, double tol)
{
	InterpBuf x, y, z;
	int64_t M, K, N, i;
	float *ref;
	double *want;
	int rc;

	load(dir, "x", &x);
	load(dir, "y", &y);
	load(dir, "z", &z);
	M = x.shape.d[0];
	K = x.shape.d[1];
	N = y.shape.d[1];
	if (y.shape.d[0] != K || z.shape.d[0] != M || z.shape.d[1] != N) {
		fprintf(stderr, "npycheck: matmul shapes disagree\n");
		return 1;
	}
	ref = xmalloc((size_t)(M * N) * sizeof(float));
	want = xmalloc((size_t)(M * N) * sizeof(double));
	matmul_ref_f32((int)M, (int)N, (int)K, x.data, y.data, ref);
	for (i = 0; i < M * N; i++)
		want[i] = ref[i];
	rc = compare("z", z.data, want, M * N, tol);
	free(ref);
	free(want);
	interp_buf_free(&x);
	interp_buf_free(&y);
	interp_buf_free(&z);
	return rc;
}

static int
check_splash(const char *dir, double tol)
{
	InterpBuf q, k, v, o, lse;
	int64_t H, KVH, S, D;
	SplashDims n = {0};
	double *ro, *rl;
	int rc;

	load(dir, "q", &q);
	load(dir, "k", &k);
	load(dir, "v", &v);
	load(dir, "o", &o);
	load(dir, "lse", &lse);
	H = q.shape.d[0];
	S = q.shape.d[1];
	D = q.shape.d[2];
	KVH = k.shape.d[0];
	n.H = (int)H;
	n.KVH = (int)KVH;
	n.Sq = n.Skv = (int)S;
	n.Dqk = n.Dv = (int)D;
	ro = xmalloc((size_t)(H * S * D) * sizeof(double));
	rl = xmalloc((size_t)(H * S) * sizeof(double));
	if (!shape_eq(&o.shape, &q.shape) || splash_reference(&n, q.data,
	    k.data, v.data, splash_causal, NULL, ro, rl)) {
		fprintf(stderr, "npycheck: splash shapes disagree\n");
		return 1;
	}
	rc = compare("o", o.data, ro, H * S * D, tol);
	rc |= compare("lse", lse.data, rl, H * S, tol);
	free(ro);
	free(rl);
	interp_buf_free(&q);
	interp_buf_free(&k);
	interp_buf_free(&v);
	interp_buf_free(&o);
	interp_buf_free(&lse);
	return rc;
}

static int
table(const char *path, int n, char **v)
{
	Shape s = { 1, { n } };
	InterpBuf b;
	DType t = DT_I32;
	char err[256];
	int i, rc;

	if (n > 1 && (strcmp(v[0], "i8") == 0 || strcmp(v[0], "bool") == 0 ||
	    strcmp(v[0], "f32") == 0)) {
		t = v[0][0] == 'i' ? DT_I8 : v[0][0] == 'b' ? DT_BOOL : DT_F32;
		s.d[0] = --n;
		v++;
	}
	interp_buf_alloc(&b, "t", t, &s);
	for (i = 0; i < n; i++)
		interp_buf_set(&b, i, strtod(v[i], NULL));
	rc = interp_npy_write(path, &b, err, sizeof err);
	if (rc)
		fprintf(stderr, "npycheck: %s\n", err);
	interp_buf_free(&b);
	return rc ? 1 : 0;
}

static int
iseq(const char *path, int n, char **v)
{
	Shape s = { 2, { atoi(v[0]), atoi(v[1]) } };
	long lo = atol(v[2]), m = atol(v[3]);
	InterpBuf b;
	char err[256];
	int64_t k;
	int i, r, c, rc;

	if (s.d[0] <= 0 || s.d[1] <= 0 || m <= 0)
		return 2;
	interp_buf_alloc(&b, "x", DT_I32, &s);
	for (k = 0; k < s.d[0] * s.d[1]; k++)
		interp_buf_set(&b, k, (double)(lo + k % m));
	for (i = 4; i < n; i++) {
		double x;
		if (sscanf(v[i], "%d,%d=%lf", &r, &c, &x) != 3 || r < 0 ||
		    c < 0 || r >= s.d[0] || c >= s.d[1])
			return 2;
		interp_buf_set(&b, (int64_t)r * s.d[1] + c, x);
	}
	rc = interp_npy_write(path, &b, err, sizeof err);
	if (rc)
		fprintf(stderr, "npycheck: %s\n", err);
	interp_buf_free(&b);
	return rc ? 1 : 0;
}

/* Element i of b as a double (bf16 widened, integers and bools too). */
static double
elem(const InterpBuf *b, int64_t i)
{
	uint32_t w;
	float f;

	switch (b->dtype) {
	case DT_F32:
		return ((const float *)b->data)[i];
	case DT_BF16:
		w = (uint32_t)((const uint16_t *)b->data)[i] << 16;
		memcpy(&f, &w, 4);
		return f;
	case DT_I32:
		return ((const int32_t *)b->data)[i];
	case DT_I8:
		return ((const int8_t *)b->data)[i];
	default:
		return ((const uint8_t *)b->data)[i];
	}
}

static int
near(double x, double y, double tol)
{
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	if (x == y)
		return 1;
	return fabs(x - y) <= tol * (1 + fabs(y));
}

/* A and B agree: bit for bit when tol is 0, else within tol. */
static int
same(const char *pa, const char *pb, double tol)
{
	InterpBuf a, b;
	char err[256];
	int64_t i, n, bad = 0;
	size_t sz;

	if (interp_npy_read(pa, &a, err, sizeof err) ||
	    interp_npy_read(pb, &b, err, sizeof err)) {
		fprintf(stderr, "npycheck: %s\n", err);
		return 1;
	}
	if (a.dtype != b.dtype || !shape_eq(&a.shape, &b.shape)) {
		fprintf(stderr, "npycheck: %s and %s differ in dtype or "
		    "shape\n", pa, pb);
		return 1;
	}
	n = shape_numel(&a.shape);
	sz = interp_elem_size(a.dtype);
	for (i = 0; i < n; i++) {
		if (tol == 0 ? memcmp((char *)a.data + i * sz,
		    (char *)b.data + i * sz, sz) == 0 :
		    near(elem(&a, i), elem(&b, i), tol))
			continue;
		if (bad++ < 4)
			fprintf(stderr, "npycheck: %s[%lld] = %.9g, %s has "
			    "%.9g\n", pa, (long long)i, elem(&a, i), pb,
			    elem(&b, i));
	}
	if (bad)
		fprintf(stderr, "npycheck: %lld of %lld elements differ\n",
		    (long long)bad, (long long)n);
	interp_buf_free(&a);
	interp_buf_free(&b);
	return bad != 0;
}

int
main(int argc, char **argv)
{
	int64_t d[4];
	int i;

	if (argc == 7 && strcmp(argv[1], "gen-matmul") == 0) {
		for (i = 0; i < 3; i++)
			d[i] = strtoll(argv[3 + i], NULL, 10);
		save(argv[2], "x", 2, (int64_t[]){ d[0], d[1] },
		    strtoull(argv[6], NULL, 10), 1);
		save(argv[2], "y", 2, (int64_t[]){ d[1], d[2] },
		    strtoull(argv[6], NULL, 10) + 1, 1);
		return 0;
	}
	if (argc == 8 && strcmp(argv[1], "gen-splash") == 0) {
		uint64_t seed = strtoull(argv[7], NULL, 10);
		for (i = 0; i < 4; i++)
			d[i] = strtoll(argv[3 + i], NULL, 10);
		save(argv[2], "q", 3, (int64_t[]){ d[0], d[2], d[3] }, seed,
		    1 / sqrtf((float)d[3]));
		save(argv[2], "k", 3, (int64_t[]){ d[1], d[2], d[3] },
		    seed + 1, 1);
		save(argv[2], "v", 3, (int64_t[]){ d[1], d[2], d[3] },
		    seed + 2, 1);
		return 0;
	}
	if (argc >= 4 && strcmp(argv[1], "table") == 0)
		return table(argv[2], argc - 3, argv + 3);
	if (argc >= 7 && strcmp(argv[1], "iseq") == 0)
		return iseq(argv[2], argc - 3, argv + 3);
	if (argc == 4 && strcmp(argv[1], "matmul") == 0)
		return check_matmul(argv[2], atof(argv[3]));
	if (argc == 4 && strcmp(argv[1], "splash") == 0)
		return check_splash(argv[2], atof(argv[3]));
	if (argc == 5 && strcmp(argv[1], "same") == 0)
		return same(argv[2], argv[3], atof(argv[4]));
	fprintf(stderr, "usage: npycheck gen-matmul DIR M K N SEED | "
	    "matmul DIR TOL | gen-splash DIR H KVH S D SEED | splash DIR TOL "
	    "| table FILE [i8|bool] V... | iseq FILE R C LO N [I,J=V]... "
	    "| same A B TOL\n");
	return 2;
}
