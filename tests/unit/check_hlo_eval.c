/*
 * check_hlo_eval.c - the reference evaluator (graph/eval*.c) against
 * hand-computed values and plain-C references (in double precision, with
 * tolerances): the toy program, softmax, layer norm (bf16), dot with batch
 * dims, reduce max/add/argmax, broadcast, transpose, reshape/slice/concat,
 * a causal mask; plus bf16 rounding, integer wrap-around, determinism and
 * clean errors for unsupported operations and bad arguments; s64 and u64
 * exact over their whole range.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	HloModule *m;
	HloBuf res[8];
	int nres;
	char err[256];
} Fx;

static void
load_text(Fx *f, const char *text, size_t n)
{
	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	diag_init(&f->d, &f->sm, stderr);
	f->m = hlo_read(&f->d, srcmgr_add(&f->sm, "m.hlo", text, n), &f->a,
	    &f->strs);
	ck_assert(f->m != NULL);
	ck_assert_int_eq(hlo_verify(f->m, &f->d), 0);
}

static void
load(Fx *f, const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	Buf b = {0};

	snprintf(path, sizeof path, "%s/tests/hlo/%s", top ? top : "..", name);
	ck_assert_msg(read_file(path, &b) == 0, "cannot read %s", path);
	load_text(f, b.p, b.n);
	buf_free(&b);
}

static void
run(Fx *f, HloBuf *args, int nargs)
{
	f->nres = hlo_eval(f->m, args, nargs, f->res, 8, f->err, sizeof f->err);
	ck_assert_msg(f->nres > 0, "%s", f->err);
}

static void
fx_free(Fx *f)
{
	int i;

	for (i = 0; i < f->nres; i++)
		hlo_buf_free(&f->res[i]);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static HloBuf
f32buf(int rank, const int64_t *dim)
{
	return hlo_buf_new(HT_F32, rank, dim);
}

/* Deterministic values in [-1, 1). */
static void
fill(HloBuf *b, unsigned seed)
{
	int64_t i, n = hlo_buf_elems(b);
	unsigned s = seed * 2654435761u + 1;

	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		((float *)b->data)[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1;
	}
}

static float
at(const HloBuf *b, int64_t i)
{
	return ((const float *)b->data)[i];
}

static void
near(double got, double want, double tol, const char *what, int64_t i)
{
	ck_assert_msg(fabs(got - want) <= tol * (1 + fabs(want)),
	    "%s[%lld]: got %.9g, want %.9g", what, (long long)i, got, want);
}

/* ------------------------------------------------------------ toy */

static void
softmax_rows(double *x, int rows, int cols)
{
	int i, j;

	for (i = 0; i < rows; i++) {
		double mx = -INFINITY, sum = 0;
		for (j = 0; j < cols; j++)
			mx = fmax(mx, x[i * cols + j]);
		for (j = 0; j < cols; j++)
			sum += x[i * cols + j] = exp(x[i * cols + j] - mx);
		for (j = 0; j < cols; j++)
			x[i * cols + j] /= sum;
	}
}

static void
matmul(const double *a, const HloBuf *b, double *c, int m, int k, int n)
{
	int i, j, l;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double s = 0;
			for (l = 0; l < k; l++)
				s += a[i * k + l] * at(b, l * n + j);
			c[i * n + j] = s;
		}
}

START_TEST(toy_program)
{
	static const int64_t dx[] = { 16, 64 }, dw1[] = { 64, 64 },
	    dg[] = { 64 }, dw2[] = { 64, 32 };
	static double x[16 * 64], h[16 * 64], y[16 * 32];
	HloBuf args[4];
	Fx f;
	int i, j;

	args[0] = f32buf(2, dx);
	args[1] = f32buf(2, dw1);
	args[2] = f32buf(1, dg);
	args[3] = f32buf(2, dw2);
	for (i = 0; i < 4; i++)
		fill(&args[i], (unsigned)i + 1);
	load(&f, "toy.hlo");
	run(&f, args, 4);
	ck_assert_int_eq(f.nres, 1);
	ck_assert_int_eq(f.res[0].rank, 2);
	ck_assert_int_eq(f.res[0].dim[1], 32);
	for (i = 0; i < 16 * 64; i++)
		x[i] = at(&args[0], i);
	matmul(x, &args[1], h, 16, 64, 64);
	for (i = 0; i < 16; i++) {	/* RMSNorm */
		double ss = 0;
		for (j = 0; j < 64; j++)
			ss += h[i * 64 + j] * h[i * 64 + j];
		for (j = 0; j < 64; j++)
			h[i * 64 + j] *= at(&args[2], j) / sqrt(ss / 64 + 1e-6);
	}
	softmax_rows(h, 16, 64);
	matmul(h, &args[3], y, 16, 64, 32);
	for (i = 0; i < 16 * 32; i++)
		near(at(&f.res[0], i), y[i], 1e-4, "toy", i);
	for (i = 0; i < 4; i++)
		hlo_buf_free(&args[i]);
	fx_free(&f);
}
END_TEST

START_TEST(runs_are_bit_identical)
{
	static const int64_t dx[] = { 16, 64 }, dw1[] = { 64, 64 },
	    dg[] = { 64 }, dw2[] = { 64, 32 };
	HloBuf args[4];
	Fx f, g;
	int i;

	args[0] = f32buf(2, dx);
	args[1] = f32buf(2, dw1);
	args[2] = f32buf(1, dg);
	args[3] = f32buf(2, dw2);
	for (i = 0; i < 4; i++)
		fill(&args[i], (unsigned)i + 7);
	load(&f, "toy.hlo");
	load(&g, "toy.hlo");
	run(&f, args, 4);
	run(&g, args, 4);
	ck_assert(memcmp(f.res[0].data, g.res[0].data, 16 * 32 * 4) == 0);
	for (i = 0; i < 4; i++)
		hlo_buf_free(&args[i]);
	fx_free(&f);
	fx_free(&g);
}
END_TEST

START_TEST(softmax)
{
	static const int64_t d[] = { 2, 4, 8 };
	static double x[64];
	HloBuf arg = f32buf(3, d);
	Fx f;
	int i;

	fill(&arg, 3);
	((float *)arg.data)[5] = 30;	/* exp would overflow without the max */
	for (i = 0; i < 64; i++)
		x[i] = at(&arg, i);
	softmax_rows(x, 8, 8);
	load(&f, "softmax.hlo");
	run(&f, &arg, 1);
	for (i = 0; i < 64; i++)
		near(at(&f.res[0], i), x[i], 1e-6, "softmax", i);
	hlo_buf_free(&arg);
	fx_free(&f);
}
END_TEST

START_TEST(layer_norm_bf16)
{
	static const int64_t d[] = { 4, 8 }, dv[] = { 8 };
	HloBuf args[3];
	Fx f;
	int i, j;

	args[0] = hlo_buf_new(HT_BF16, 2, d);
	args[1] = f32buf(1, dv);
	args[2] = f32buf(1, dv);
	for (i = 0; i < 32; i++)
		((uint16_t *)args[0].data)[i] =
		    hlo_f32_to_bf16((float)(i % 7) * 0.75f - 2);
	fill(&args[1], 5);
	fill(&args[2], 6);
	load(&f, "layer_norm.hlo");
	run(&f, args, 3);
	ck_assert_int_eq(f.res[0].type, HT_BF16);
	for (i = 0; i < 4; i++) {
		double mean = 0, var = 0, x;
		for (j = 0; j < 8; j++)
			mean += hlo_bf16_to_f32(((uint16_t *)args[0].data)[i * 8 + j]);
		mean /= 8;
		for (j = 0; j < 8; j++) {
			x = hlo_bf16_to_f32(((uint16_t *)args[0].data)[i * 8 + j]);
			var += (x - mean) * (x - mean);
		}
		var /= 8;
		for (j = 0; j < 8; j++) {
			double y;
			x = hlo_bf16_to_f32(((uint16_t *)args[0].data)[i * 8 + j]);
			y = (x - mean) / sqrt(var + 1e-5) * at(&args[1], j) +
			    at(&args[2], j);
			near(hlo_bf16_to_f32(((uint16_t *)f.res[0].data)[i * 8 + j]),
			    y, 1.0 / 128, "layer_norm", i * 8 + j);
		}
	}
	for (i = 0; i < 3; i++)
		hlo_buf_free(&args[i]);
	fx_free(&f);
}
END_TEST

START_TEST(dot_with_batch_dims)
{
	static const int64_t dq[] = { 2, 3, 4 }, dv[] = { 2, 4, 5 },
	    dk[] = { 2, 5, 4 };
	HloBuf args[3];
	Fx f;
	int b, i, j, l;

	args[0] = f32buf(3, dq);
	args[1] = f32buf(3, dv);
	args[2] = f32buf(3, dk);
	for (i = 0; i < 3; i++)
		fill(&args[i], (unsigned)i + 11);
	load(&f, "dot_batch.hlo");
	run(&f, args, 3);
	ck_assert_int_eq(f.nres, 2);
	for (b = 0; b < 2; b++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 5; j++) {
				double s1 = 0, s2 = 0;
				int o = (b * 3 + i) * 5 + j;
				for (l = 0; l < 4; l++) {
					double q = at(&args[0], (b * 3 + i) * 4 + l);
					s1 += q * at(&args[1], (b * 4 + l) * 5 + j);
					s2 += q * at(&args[2], (b * 5 + j) * 4 + l);
				}
				near(at(&f.res[0], o), s1, 1e-6, "bmm", o);
				near(at(&f.res[1], o), s2, 1e-6, "scores", o);
			}
	for (i = 0; i < 3; i++)
		hlo_buf_free(&args[i]);
	fx_free(&f);
}
END_TEST

START_TEST(reduce_max_add_argmax)
{
	static const int64_t d[] = { 3, 4 };
	static const float x[] = { 1, 5, 2, 0, -1, -3, -2, -7, 4, 4, 9, 1 };
	static const float rowsum[] = { 8, -13, 18 }, colmax[] = { 4, 5, 9, 1 };
	static const float amv[] = { 5, -1, 9 };
	static const int32_t ami[] = { 1, 0, 2 };
	HloBuf arg = f32buf(2, d);
	Fx f;
	int i;

	memcpy(arg.data, x, sizeof x);
	load(&f, "reduce.hlo");
	run(&f, &arg, 1);
	ck_assert_int_eq(f.nres, 5);
	ck_assert_int_eq(f.res[4].type, HT_S32);
	for (i = 0; i < 3; i++) {
		ck_assert(at(&f.res[0], i) == rowsum[i]);
		ck_assert(at(&f.res[3], i) == amv[i]);
		ck_assert_int_eq(((int32_t *)f.res[4].data)[i], ami[i]);
	}
	for (i = 0; i < 4; i++)
		ck_assert(at(&f.res[1], i) == colmax[i]);
	ck_assert_int_eq(f.res[2].rank, 0);
	ck_assert(at(&f.res[2], 0) == 13);
	hlo_buf_free(&arg);
	fx_free(&f);
}
END_TEST

START_TEST(broadcast)
{
	static const int64_t dr[] = { 3 }, dc[] = { 2 }, dm[] = { 3, 2 };
	static const float sum[] = { 11, 12, 13, 11, 12, 13 };
	static const float bc[] = { 7, 7, 7, 8, 8, 8 };
	static const float bt[] = { 1, 3, 5, 2, 4, 6 };
	HloBuf args[4];
	Fx f;
	int i;

	args[0] = f32buf(0, NULL);
	args[1] = f32buf(1, dr);
	args[2] = f32buf(1, dc);
	args[3] = f32buf(2, dm);
	((float *)args[0].data)[0] = 10;
	for (i = 0; i < 3; i++)
		((float *)args[1].data)[i] = (float)i + 1;
	((float *)args[2].data)[0] = 7;
	((float *)args[2].data)[1] = 8;
	for (i = 0; i < 6; i++)
		((float *)args[3].data)[i] = (float)i + 1;
	load(&f, "broadcast.hlo");
	run(&f, args, 4);
	for (i = 0; i < 6; i++) {
		ck_assert(at(&f.res[0], i) == sum[i]);
		ck_assert(at(&f.res[1], i) == bc[i]);
		ck_assert(at(&f.res[2], i) == bt[i]);
	}
	for (i = 0; i < 24; i++)
		ck_assert(at(&f.res[3], i) == (float)(i % 3 + 1));
	for (i = 0; i < 4; i++)
		hlo_buf_free(&args[i]);
	fx_free(&f);
}
END_TEST

START_TEST(transpose)
{
	static const int64_t da[] = { 2, 3 }, db[] = { 2, 3, 4 };
	static const float at_[] = { 0, 3, 1, 4, 2, 5 };
	HloBuf args[2];
	Fx f;
	int i, j, k;

	args[0] = f32buf(2, da);
	args[1] = hlo_buf_new(HT_S32, 3, db);
	for (i = 0; i < 6; i++)
		((float *)args[0].data)[i] = (float)i;
	for (i = 0; i < 24; i++)
		((int32_t *)args[1].data)[i] = i * 10 - 100;
	load(&f, "transpose.hlo");
	run(&f, args, 2);
	for (i = 0; i < 6; i++)
		ck_assert(at(&f.res[0], i) == at_[i]);
	/* bt[k][i][j] = b[i][j][k] */
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				ck_assert_int_eq(((int32_t *)f.res[1].data)
				    [(k * 2 + i) * 3 + j],
				    ((i * 3 + j) * 4 + k) * 10 - 100);
	ck_assert_int_eq(((int32_t *)f.res[1].data)[1 * 6 + 0], -90);
	hlo_buf_free(&args[0]);
	hlo_buf_free(&args[1]);
	fx_free(&f);
}
END_TEST

START_TEST(reshape_slice_concatenate)
{
	static const int64_t d[] = { 2, 3, 4 };
	static const float cat[] = { 6, 8, 10, 12, 14, 16, 6, 8, 10, 12, 14, 16 };
	HloBuf arg = f32buf(3, d);
	Fx f;
	int i;

	for (i = 0; i < 24; i++)
		((float *)arg.data)[i] = (float)i;
	load(&f, "reshape.hlo");
	run(&f, &arg, 1);
	ck_assert_int_eq(f.res[0].dim[0], 6);
	ck_assert_int_eq(f.res[1].dim[1], 6);
	for (i = 0; i < 24; i++) {
		ck_assert(at(&f.res[0], i) == (float)i);
		ck_assert(at(&f.res[1], i) == (float)i);
	}
	for (i = 0; i < 12; i++)
		ck_assert(at(&f.res[2], i) == cat[i]);
	hlo_buf_free(&arg);
	fx_free(&f);
}
END_TEST

START_TEST(causal_mask_pred_and_bf16)
{
	static const int64_t d[] = { 4, 4 };
	HloBuf arg = f32buf(2, d);
	Fx f;
	int i, j;

	for (i = 0; i < 16; i++)
		((float *)arg.data)[i] = 1.1f * (float)i;
	load(&f, "mask.hlo");
	run(&f, &arg, 1);
	ck_assert_int_eq(f.res[1].type, HT_PRED);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			float x = 1.1f * (float)(i * 4 + j);
			ck_assert_int_eq(((uint8_t *)f.res[1].data)[i * 4 + j],
			    i >= j);
			if (i >= j) {
				ck_assert(at(&f.res[0], i * 4 + j) == x);
				ck_assert(at(&f.res[2], i * 4 + j) ==
				    hlo_bf16_to_f32(hlo_f32_to_bf16(x)));
			} else
				ck_assert(isinf(at(&f.res[2], i * 4 + j)) &&
				    at(&f.res[2], i * 4 + j) < 0);
		}
	ck_assert(at(&f.res[2], 4) == 4.40625f);	/* 4.4 in bf16 */
	hlo_buf_free(&arg);
	fx_free(&f);
}
END_TEST

START_TEST(bf16_rounding)
{
	static const struct { uint32_t in; uint16_t out; } c[] = {
		{ 0x3f800000, 0x3f80 },		/* 1 */
		{ 0x3f808000, 0x3f80 },		/* halfway, even stays */
		{ 0x3f818000, 0x3f82 },		/* halfway, odd rounds up */
		{ 0x3f808001, 0x3f81 },		/* above halfway */
		{ 0x7f7fffff, 0x7f80 },		/* overflow to inf */
		{ 0xff800000, 0xff80 },		/* -inf */
		{ 0x80000000, 0x8000 },		/* -0 */
	};
	size_t i;
	float nan = NAN;
	uint32_t u;

	for (i = 0; i < countof(c); i++) {
		float x;
		memcpy(&x, &c[i].in, 4);
		ck_assert_uint_eq(hlo_f32_to_bf16(x), c[i].out);
	}
	ck_assert(isnan(hlo_bf16_to_f32(hlo_f32_to_bf16(nan))));
	u = 0x7f800001;		/* signalling NaN stays NaN */
	memcpy(&nan, &u, 4);
	ck_assert(isnan(hlo_bf16_to_f32(hlo_f32_to_bf16(nan))));
}
END_TEST

START_TEST(integers_wrap)
{
	static const char text[] = "ENTRY e {\n"
	    "  a = s32[4] parameter(0)\n  b = s32[4] parameter(1)\n"
	    "  s = s32[4] add(a, b)\n  m = s32[4] multiply(a, b)\n"
	    "  q = s32[4] divide(a, b)\n  r = s32[4] remainder(a, b)\n"
	    "  ROOT t = (s32[4], s32[4], s32[4], s32[4]) tuple(s, m, q, r)\n}\n";
	static const int64_t d[] = { 4 };
	static const int32_t a[] = { 2147483647, -7, 65536, -2147483647 - 1 };
	static const int32_t b[] = { 1, 2, 65536, -1 };
	static const int32_t sum[] = { -2147483647 - 1, -5, 131072, 2147483647 };
	static const int32_t mul[] = { 2147483647, -14, 0, -2147483647 - 1 };
	static const int32_t quo[] = { 2147483647, -3, 1, -2147483647 - 1 };
	static const int32_t rem[] = { 0, -1, 0, 0 };
	HloBuf args[2];
	Fx f;
	int i;

	args[0] = hlo_buf_new(HT_S32, 1, d);
	args[1] = hlo_buf_new(HT_S32, 1, d);
	memcpy(args[0].data, a, sizeof a);
	memcpy(args[1].data, b, sizeof b);
	load_text(&f, text, sizeof text - 1);
	run(&f, args, 2);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(((int32_t *)f.res[0].data)[i], sum[i]);
		ck_assert_int_eq(((int32_t *)f.res[1].data)[i], mul[i]);
		ck_assert_int_eq(((int32_t *)f.res[2].data)[i], quo[i]);
		ck_assert_int_eq(((int32_t *)f.res[3].data)[i], rem[i]);
	}
	hlo_buf_free(&args[0]);
	hlo_buf_free(&args[1]);
	fx_free(&f);
}
END_TEST

START_TEST(unsupported_and_bad_arguments_fail_cleanly)
{
	static const int64_t d[] = { 1024 }, wrong[] = { 1023 };
	HloBuf args[2];
	Fx f;

	args[0] = f32buf(1, d);
	args[1] = f32buf(1, d);
	load(&f, "jax_triton_add_kernel.hlo");
	ck_assert_int_eq(hlo_eval(f.m, args, 2, f.res, 8, f.err,
	    sizeof f.err), -1);
	ck_assert_ptr_nonnull(strstr(f.err, "'custom-call' is not supported"));
	ck_assert_int_eq(hlo_eval(f.m, args, 1, f.res, 8, f.err,
	    sizeof f.err), -1);
	ck_assert_ptr_nonnull(strstr(f.err, "1 arguments given"));
	hlo_buf_free(&args[1]);
	args[1] = f32buf(1, wrong);
	ck_assert_int_eq(hlo_eval(f.m, args, 2, f.res, 8, f.err,
	    sizeof f.err), -1);
	ck_assert_ptr_nonnull(strstr(f.err, "argument 1 does not match"));
	hlo_buf_free(&args[0]);
	hlo_buf_free(&args[1]);
	fx_free(&f);
}
END_TEST

START_TEST(corpus_copy_and_bitcast)
{
	static const int64_t d[] = { 2, 3 }, d768[] = { 768 };
	HloBuf args[2];
	Fx f;
	int i;

	args[0] = f32buf(0, NULL);
	args[1] = f32buf(2, d);
	((float *)args[0].data)[0] = 2.5f;
	for (i = 0; i < 6; i++)
		((float *)args[1].data)[i] = (float)i;
	load(&f, "xla_parser_copy_start_copy_done.hlo");
	run(&f, args, 2);
	ck_assert_int_eq(f.nres, 2);
	ck_assert(at(&f.res[0], 0) == 2.5f);
	ck_assert(at(&f.res[1], 5) == 5);
	hlo_buf_free(&args[0]);
	hlo_buf_free(&args[1]);
	fx_free(&f);
	args[0] = f32buf(1, d768);
	fill(&args[0], 9);
	load(&f, "xla_run_algsimp_pass.hlo");
	run(&f, args, 1);
	ck_assert_int_eq(f.res[0].rank, 3);
	ck_assert(memcmp(f.res[0].data, args[0].data, 768 * 4) == 0);
	hlo_buf_free(&args[0]);
	fx_free(&f);
}
END_TEST

/* ------------------------------------------- types, new opcodes */

static HloBuf
buf_of(HloType t, int rank, const int64_t *dim, const void *data)
{
	HloBuf b = hlo_buf_new(t, rank, dim);

	memcpy(b.data, data, (size_t)hlo_buf_elems(&b) * hlo_type_size(t));
	return b;
}

static void
run_text(Fx *f, const char *text, HloBuf *args, int nargs)
{
	int i;

	load_text(f, text, strlen(text));
	run(f, args, nargs);
	for (i = 0; i < nargs; i++)
		hlo_buf_free(&args[i]);
}

START_TEST(f16_conversion_rounds_to_nearest_even)
{
	/* 1 + 2^-11 is half-way between 1 and 1 + 2^-10: even is 1. */
	ck_assert_uint_eq(hlo_f32_to_f16(1.0f), 0x3c00);
	ck_assert_uint_eq(hlo_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
	ck_assert_uint_eq(hlo_f32_to_f16(1.0f + 0x3p-11f), 0x3c02);
	ck_assert_uint_eq(hlo_f32_to_f16(-2.0f), 0xc000);
	ck_assert_uint_eq(hlo_f32_to_f16(65504.0f), 0x7bff);
	ck_assert_uint_eq(hlo_f32_to_f16(65519.0f), 0x7bff);
	ck_assert_uint_eq(hlo_f32_to_f16(65520.0f), 0x7c00);
	ck_assert_uint_eq(hlo_f32_to_f16(0x1p-24f), 0x0001);
	ck_assert_uint_eq(hlo_f32_to_f16(0x1p-25f), 0x0000);
	ck_assert_uint_eq(hlo_f32_to_f16(0x3p-25f), 0x0002);
	ck_assert_uint_eq(hlo_f32_to_f16(0x1p-14f), 0x0400);
	ck_assert_uint_eq(hlo_f32_to_f16(NAN) & 0x7e00, 0x7e00);
	ck_assert(hlo_f16_to_f32(0x3c01) == 1.0f + 0x1p-10f);
	ck_assert(hlo_f16_to_f32(0x0001) == 0x1p-24f);
	ck_assert(hlo_f16_to_f32(0xfc00) == -INFINITY);
	ck_assert(hlo_f16_to_f32(0x7bff) == 65504.0f);
}
END_TEST

START_TEST(f16_u32_s64_u8_arithmetic)
{
	static const char text[] = "ENTRY e {\n"
	    "  h = f16[4] parameter(0)\n  g = f16[4] parameter(1)\n"
	    "  u = u32[3] parameter(2)\n  v = u32[3] parameter(3)\n"
	    "  s = s64[2] parameter(4)\n  t = s64[2] parameter(5)\n"
	    "  b = u8[2] parameter(6)\n  c = u8[2] parameter(7)\n"
	    "  hg = f16[4] add(h, g)\n  uv = u32[3] add(u, v)\n"
	    "  um = u32[3] multiply(u, v)\n  st = s64[2] multiply(s, t)\n"
	    "  bc = u8[2] add(b, c)\n  hf = f32[4] convert(hg)\n"
	    "  ROOT r = (f16[4], u32[3], u32[3], s64[2], u8[2], f32[4]) "
	    "tuple(hg, uv, um, st, bc, hf)\n}\n";
	static const int64_t d4[] = { 4 }, d3[] = { 3 }, d2[] = { 2 };
	/* 1 + 2^-11 ties to 1; 65504 + 16 = 65520 rounds to inf;
	   subnormals add exactly; 1 + 3 * 2^-11 ties to 0x3c02. */
	uint16_t h[4], g[4];
	static const uint16_t hg[] = { 0x3c00, 0x7c00, 0x0002, 0x3c02 };
	static const uint32_t u[] = { 4294967295u, 65536, 7 };
	static const uint32_t v[] = { 1, 65536, 3 };
	static const int64_t s[] = { (int64_t)1 << 40, -3 };
	static const int64_t t[] = { (int64_t)1 << 10, (int64_t)1 << 40 };
	static const uint8_t b[] = { 200, 255 }, c[] = { 100, 1 };
	HloBuf args[8];
	Fx f;
	int i;

	h[0] = 0x3c00; g[0] = hlo_f32_to_f16(0x1p-11f);
	h[1] = 0x7bff; g[1] = hlo_f32_to_f16(16.0f);
	h[2] = 0x0001; g[2] = 0x0001;	/* 2^-24 + 2^-24 = 2^-23 */
	h[3] = 0x3c00; g[3] = hlo_f32_to_f16(0x3p-11f);
	args[0] = buf_of(HT_F16, 1, d4, h);
	args[1] = buf_of(HT_F16, 1, d4, g);
	args[2] = buf_of(HT_U32, 1, d3, u);
	args[3] = buf_of(HT_U32, 1, d3, v);
	args[4] = buf_of(HT_S64, 1, d2, s);
	args[5] = buf_of(HT_S64, 1, d2, t);
	args[6] = buf_of(HT_U8, 1, d2, b);
	args[7] = buf_of(HT_U8, 1, d2, c);
	run_text(&f, text, args, 8);
	ck_assert_int_eq(f.nres, 6);
	for (i = 0; i < 4; i++) {
		uint16_t want = hg[i];
		ck_assert_uint_eq(((uint16_t *)f.res[0].data)[i], want);
		ck_assert(((float *)f.res[5].data)[i] == hlo_f16_to_f32(want));
	}
	ck_assert_uint_eq(((uint32_t *)f.res[1].data)[0], 0);
	ck_assert_uint_eq(((uint32_t *)f.res[1].data)[1], 131072);
	ck_assert_uint_eq(((uint32_t *)f.res[2].data)[1], 0);	/* 2^32 */
	ck_assert_uint_eq(((uint32_t *)f.res[2].data)[2], 21);
	ck_assert(((int64_t *)f.res[3].data)[0] == (int64_t)1 << 50);
	ck_assert(((int64_t *)f.res[3].data)[1] == -((int64_t)3 << 40));
	ck_assert_uint_eq(((uint8_t *)f.res[4].data)[0], 44);	/* 300 */
	ck_assert_uint_eq(((uint8_t *)f.res[4].data)[1], 0);
	fx_free(&f);
}
END_TEST

START_TEST(shifts_follow_xla)
{
	static const char text[] = "ENTRY e {\n"
	    "  a = s32[6] parameter(0)\n  n = s32[6] parameter(1)\n"
	    "  l = s32[6] shift-left(a, n)\n"
	    "  rl = s32[6] shift-right-logical(a, n)\n"
	    "  ra = s32[6] shift-right-arithmetic(a, n)\n"
	    "  b = u8[2] parameter(2)\n  m = u8[2] parameter(3)\n"
	    "  bl = u8[2] shift-left(b, m)\n"
	    "  ROOT r = (s32[6], s32[6], s32[6], u8[2]) tuple(l, rl, ra, bl)\n"
	    "}\n";
	static const int64_t d6[] = { 6 }, d2[] = { 2 };
	static const int32_t a[] = { 1, 1, -1, -8, 8, -8 };
	static const int32_t n[] = { 31, 32, 28, 1, 40, -1 };
	/* amounts >= 32 (and -1, which is 2^32 - 1 unsigned) give 0, or
	   the sign for an arithmetic right shift */
	static const int32_t l[] = { INT32_MIN, 0, -268435456, -16, 0, 0 };
	static const int32_t rl[] = { 0, 0, 15, 2147483644, 0, 0 };
	static const int32_t ra[] = { 0, 0, -1, -4, 0, -1 };
	static const uint8_t b[] = { 0x81, 1 }, m[] = { 1, 8 };
	HloBuf args[4];
	Fx f;
	int i;

	args[0] = buf_of(HT_S32, 1, d6, a);
	args[1] = buf_of(HT_S32, 1, d6, n);
	args[2] = buf_of(HT_U8, 1, d2, b);
	args[3] = buf_of(HT_U8, 1, d2, m);
	run_text(&f, text, args, 4);
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(((int32_t *)f.res[0].data)[i], l[i]);
		ck_assert_int_eq(((int32_t *)f.res[1].data)[i], rl[i]);
		ck_assert_int_eq(((int32_t *)f.res[2].data)[i], ra[i]);
	}
	ck_assert_uint_eq(((uint8_t *)f.res[3].data)[0], 2);
	ck_assert_uint_eq(((uint8_t *)f.res[3].data)[1], 0);
	fx_free(&f);
}
END_TEST

START_TEST(bitcast_convert_keeps_bits)
{
	static const char text[] = "ENTRY e {\n"
	    "  x = f32[2] parameter(0)\n  i = s32[2] bitcast-convert(x)\n"
	    "  k = s32[2] parameter(1)\n  y = f32[2] bitcast-convert(k)\n"
	    "  ROOT r = (s32[2], f32[2]) tuple(i, y)\n}\n";
	static const int64_t d[] = { 2 };
	static const float x[] = { 1.0f, -0.0f };
	static const int32_t k[] = { 0x40490fdb, 0x7f800000 };
	HloBuf args[2];
	Fx f;
	float y0;
	int32_t k0 = k[0];

	args[0] = buf_of(HT_F32, 1, d, x);
	args[1] = buf_of(HT_S32, 1, d, k);
	run_text(&f, text, args, 2);
	ck_assert_int_eq(((int32_t *)f.res[0].data)[0], 0x3f800000);
	ck_assert_int_eq(((int32_t *)f.res[0].data)[1], INT32_MIN);
	memcpy(&y0, &k0, sizeof y0);
	ck_assert(at(&f.res[1], 0) == y0);
	ck_assert(isinf(at(&f.res[1], 1)));
	fx_free(&f);
}
END_TEST

/* Between widths: the narrower side has a minor dim of the ratio, the
   host's bytes in order (1.0f is 00 00 80 3f), and back again. */
START_TEST(bitcast_convert_between_widths)
{
	static const char text[] = "ENTRY e {\n"
	    "  x = f32[2] parameter(0)\n"
	    "  b = u8[2,4] bitcast-convert(x)\n"
	    "  h = s16[2,2] bitcast-convert(x)\n"
	    "  y = f32[2] bitcast-convert(b)\n"
	    "  z = f32[2] bitcast-convert(h)\n"
	    "  ROOT r = (u8[2,4], f32[2], f32[2]) tuple(b, y, z)\n}\n";
	static const int64_t d[] = { 2 };
	static const float x[] = { 1.0f, -2.5f };
	static const uint8_t want[] = { 0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0 };
	HloBuf args[1];
	Fx f;
	int i;

	args[0] = buf_of(HT_F32, 1, d, x);
	run_text(&f, text, args, 1);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(((uint8_t *)f.res[0].data)[i], want[i]);
	for (i = 0; i < 2; i++) {
		ck_assert(at(&f.res[1], i) == x[i]);
		ck_assert(at(&f.res[2], i) == x[i]);
	}
	fx_free(&f);
}
END_TEST

START_TEST(pad_reverse_dynamic_slices)
{
	/* x = {{1,2,3},{4,5,6}}; padding 1_0_1 on dim 0 (one row before,
	   one between), -1_1 on dim 1 (drop column 0, one after). */
	static const char text[] = "ENTRY e {\n"
	    "  x = f32[2,3] parameter(0)\n  z = f32[] constant(9)\n"
	    "  p = f32[4,3] pad(x, z), padding=1_0_1x-1_1\n"
	    "  v = f32[2,3] reverse(x), dimensions={0,1}\n"
	    "  i = s32[] parameter(1)\n  j = s32[] parameter(2)\n"
	    "  d = f32[1,2] dynamic-slice(x, i, j), dynamic_slice_sizes={1,2}\n"
	    "  u = f32[1,2] constant({ {7, 8} })\n"
	    "  w = f32[2,3] dynamic-update-slice(x, u, i, j)\n"
	    "  ROOT r = (f32[4,3], f32[2,3], f32[1,2], f32[2,3]) "
	    "tuple(p, v, d, w)\n}\n";
	static const int64_t d23[] = { 2, 3 };
	static const float x[] = { 1, 2, 3, 4, 5, 6 };
	static const float pad[] = { 9, 9, 9, 2, 3, 9, 9, 9, 9, 5, 6, 9 };
	static const float rev[] = { 6, 5, 4, 3, 2, 1 };
	/* starts (5, -3) clamp to (1, 0) */
	static const float ds[] = { 4, 5 };
	static const float dus[] = { 1, 2, 3, 7, 8, 6 };
	int32_t i0 = 5, j0 = -3;
	HloBuf args[3];
	Fx f;
	int k;

	args[0] = buf_of(HT_F32, 2, d23, x);
	args[1] = buf_of(HT_S32, 0, NULL, &i0);
	args[2] = buf_of(HT_S32, 0, NULL, &j0);
	run_text(&f, text, args, 3);
	for (k = 0; k < 12; k++)
		ck_assert(at(&f.res[0], k) == pad[k]);
	for (k = 0; k < 6; k++) {
		ck_assert(at(&f.res[1], k) == rev[k]);
		ck_assert(at(&f.res[3], k) == dus[k]);
	}
	ck_assert(at(&f.res[2], 0) == ds[0] && at(&f.res[2], 1) == ds[1]);
	fx_free(&f);
}
END_TEST

START_TEST(gather_and_scatter_as_jax_emits_them)
{
	/* jnp.take(x, idx, axis=0) and x.at[idx].add(u) */
	static const char text[] = "add {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[4,3] parameter(0)\n  i = s32[2] parameter(1)\n"
	    "  g = f32[2,3] gather(x, i), offset_dims={1}, "
	    "collapsed_slice_dims={0}, start_index_map={0}, "
	    "index_vector_dim=1, slice_sizes={1,3}\n"
	    "  y = f32[4] parameter(2)\n  k = s32[3,1] parameter(3)\n"
	    "  u = f32[3] parameter(4)\n"
	    "  s = f32[4] scatter(y, k, u), update_window_dims={}, "
	    "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
	    "index_vector_dim=1, to_apply=add\n"
	    "  ROOT r = (f32[2,3], f32[4]) tuple(g, s)\n}\n";
	static const int64_t d43[] = { 4, 3 }, d2[] = { 2 }, d4[] = { 4 };
	static const int64_t d31[] = { 3, 1 }, d3[] = { 3 };
	float x[12];
	/* index 7 is clamped to row 3 by gather */
	static const int32_t idx[] = { 7, 1 };
	static const float y[] = { 1, 2, 3, 4 };
	/* two updates of element 1, one out of range (skipped) */
	static const int32_t k[] = { 1, 1, 9 };
	static const float u[] = { 10, 5, 100 };
	HloBuf args[5];
	Fx f;
	int i, j;

	for (i = 0; i < 12; i++)
		x[i] = (float)(10 * (i / 3) + i % 3);
	args[0] = buf_of(HT_F32, 2, d43, x);
	args[1] = buf_of(HT_S32, 1, d2, idx);
	args[2] = buf_of(HT_F32, 1, d4, y);
	args[3] = buf_of(HT_S32, 2, d31, k);
	args[4] = buf_of(HT_F32, 1, d3, u);
	run_text(&f, text, args, 5);
	for (j = 0; j < 3; j++) {
		ck_assert(at(&f.res[0], j) == x[3 * 3 + j]);
		ck_assert(at(&f.res[0], 3 + j) == x[1 * 3 + j]);
	}
	ck_assert(at(&f.res[1], 0) == 1 && at(&f.res[1], 1) == 17);
	ck_assert(at(&f.res[1], 2) == 3 && at(&f.res[1], 3) == 4);
	fx_free(&f);
}
END_TEST

/* Batching dims: batch b of the indices gathers from (and scatters
   into) batch b of the operand: g[b] = x[b, i[b], :], s[b, i[b], :] +=
   u[b, :]. */
START_TEST(gather_and_scatter_with_batching_dims)
{
	static const char text[] = "add {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[2,3,4] parameter(0)\n  i = s32[2,1] parameter(1)\n"
	    "  g = f32[2,4] gather(x, i), offset_dims={1}, "
	    "collapsed_slice_dims={1}, start_index_map={1}, "
	    "operand_batching_dims={0}, start_indices_batching_dims={0}, "
	    "index_vector_dim=1, slice_sizes={1,1,4}\n"
	    "  u = f32[2,4] parameter(2)\n"
	    "  s = f32[2,3,4] scatter(x, i, u), update_window_dims={1}, "
	    "inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, "
	    "input_batching_dims={0}, scatter_indices_batching_dims={0}, "
	    "index_vector_dim=1, to_apply=add\n"
	    "  ROOT r = (f32[2,4], f32[2,3,4]) tuple(g, s)\n}\n";
	static const int64_t d234[] = { 2, 3, 4 }, d21[] = { 2, 1 };
	static const int64_t d24[] = { 2, 4 };
	static const int32_t idx[] = { 2, 1 };
	float x[24], u[8];
	HloBuf args[3];
	Fx f;
	int b, r, c;

	for (b = 0; b < 24; b++)
		x[b] = (float)b;
	for (b = 0; b < 8; b++)
		u[b] = 100.0f * (float)(b + 1);
	args[0] = buf_of(HT_F32, 3, d234, x);
	args[1] = buf_of(HT_S32, 2, d21, idx);
	args[2] = buf_of(HT_F32, 2, d24, u);
	run_text(&f, text, args, 3);
	for (b = 0; b < 2; b++)
		for (c = 0; c < 4; c++)
			ck_assert(at(&f.res[0], 4 * b + c) ==
			    x[12 * b + 4 * idx[b] + c]);
	for (b = 0; b < 2; b++)
		for (r = 0; r < 3; r++)
			for (c = 0; c < 4; c++)
				ck_assert(at(&f.res[1], 12 * b + 4 * r + c) ==
				    x[12 * b + 4 * r + c] + (r == idx[b] ?
				    u[4 * b + c] : 0));
	fx_free(&f);
}
END_TEST

/* Two operands scattered in step: the combiner sees both current values
   and both updates (a sum and a max), two updates hit element 1. */
START_TEST(scatter_with_two_operands)
{
	static const char text[] = "comb {\n"
	    "  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
	    "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
	    "  s = f32[] add(a, c)\n  m = s32[] maximum(b, d)\n"
	    "  ROOT t = (f32[], s32[]) tuple(s, m)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[4] parameter(0)\n  y = s32[4] parameter(1)\n"
	    "  k = s32[3,1] parameter(2)\n"
	    "  u = f32[3] parameter(3)\n  v = s32[3] parameter(4)\n"
	    "  ROOT r = (f32[4], s32[4]) scatter(x, y, k, u, v), "
	    "update_window_dims={}, inserted_window_dims={0}, "
	    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
	    "to_apply=comb\n}\n";
	static const int64_t d4[] = { 4 }, d31[] = { 3, 1 }, d3[] = { 3 };
	static const float x[] = { 1, 2, 3, 4 }, u[] = { 10, 5, 7 };
	static const int32_t y[] = { 5, 5, 5, 5 }, k[] = { 1, 1, 3 };
	static const int32_t v[] = { 9, 2, 1 };
	HloBuf args[5];
	Fx f;

	args[0] = buf_of(HT_F32, 1, d4, x);
	args[1] = buf_of(HT_S32, 1, d4, y);
	args[2] = buf_of(HT_S32, 2, d31, k);
	args[3] = buf_of(HT_F32, 1, d3, u);
	args[4] = buf_of(HT_S32, 1, d3, v);
	run_text(&f, text, args, 5);
	ck_assert(at(&f.res[0], 0) == 1 && at(&f.res[0], 1) == 17);
	ck_assert(at(&f.res[0], 2) == 3 && at(&f.res[0], 3) == 11);
	ck_assert_int_eq(((int32_t *)f.res[1].data)[1], 9);
	ck_assert_int_eq(((int32_t *)f.res[1].data)[3], 5);
	ck_assert_int_eq(((int32_t *)f.res[1].data)[0], 5);
	fx_free(&f);
}
END_TEST

START_TEST(sort_is_stable_with_two_operands)
{
	static const char text[] = "lt {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n"
	    "  ROOT l = pred[] compare(a, b), direction=LT\n}\n"
	    "ENTRY e {\n"
	    "  k = f32[2,5] parameter(0)\n  v = s32[2,5] parameter(1)\n"
	    "  ROOT s = (f32[2,5], s32[2,5]) sort(k, v), dimensions={1}, "
	    "is_stable=true, to_apply=lt\n}\n";
	static const int64_t d[] = { 2, 5 };
	static const float k[] = { 3, 1, 2, 1, 0, 5, 5, 4, 5, 4 };
	static const int32_t v[] = { 0, 1, 2, 3, 4, 0, 1, 2, 3, 4 };
	static const float ks[] = { 0, 1, 1, 2, 3, 4, 4, 5, 5, 5 };
	static const int32_t vs[] = { 4, 1, 3, 2, 0, 2, 4, 0, 1, 3 };
	HloBuf args[2];
	Fx f;
	int i;

	args[0] = buf_of(HT_F32, 2, d, k);
	args[1] = buf_of(HT_S32, 2, d, v);
	run_text(&f, text, args, 2);
	for (i = 0; i < 10; i++) {
		ck_assert(at(&f.res[0], i) == ks[i]);
		ck_assert_int_eq(((int32_t *)f.res[1].data)[i], vs[i]);
	}
	fx_free(&f);
}
END_TEST

START_TEST(reduce_window_sums_and_maxes)
{
	static const char text[] = "add {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n}\n"
	    "max {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] maximum(a, b)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
	    "  c = f32[4] reduce-window(x, z), window={size=2 pad=1_0}, "
	    "to_apply=add\n"
	    "  y = f32[3,4] parameter(1)\n  m = f32[] constant(-inf)\n"
	    "  w = f32[2,2] reduce-window(y, m), window={size=2x2 stride=1x2}, "
	    "to_apply=max\n"
	    "  ROOT r = (f32[4], f32[2,2]) tuple(c, w)\n}\n";
	static const int64_t d4[] = { 4 }, d34[] = { 3, 4 };
	static const float x[] = { 1, 2, 3, 4 };
	static const float y[] = { 1, 9, 2, 3, 4, 0, 8, 1, 0, 7, 6, 5 };
	HloBuf args[2];
	Fx f;
	int i, j, a, b;

	args[0] = buf_of(HT_F32, 1, d4, x);
	args[1] = buf_of(HT_F32, 2, d34, y);
	run_text(&f, text, args, 2);
	/* running pairs with a zero before: 0+1, 1+2, 2+3, 3+4 */
	for (i = 0; i < 4; i++)
		ck_assert(at(&f.res[0], i) == (i ? x[i - 1] : 0) + x[i]);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			float mx = -INFINITY;
			for (a = 0; a < 2; a++)
				for (b = 0; b < 2; b++)
					mx = fmaxf(mx, y[(i + a) * 4 + 2 * j + b]);
			ck_assert(at(&f.res[1], i * 2 + j) == mx);
		}
	fx_free(&f);
}
END_TEST

START_TEST(while_and_conditional)
{
	static const char text[] = "cond {\n"
	    "  s = (s32[], f32[]) parameter(0)\n"
	    "  i = s32[] get-tuple-element(s), index=0\n"
	    "  n = s32[] constant(5)\n"
	    "  ROOT c = pred[] compare(i, n), direction=LT\n}\n"
	    "body {\n"
	    "  s = (s32[], f32[]) parameter(0)\n"
	    "  i = s32[] get-tuple-element(s), index=0\n"
	    "  x = f32[] get-tuple-element(s), index=1\n"
	    "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
	    "  y = f32[] add(x, x)\n"
	    "  ROOT t = (s32[], f32[]) tuple(j, y)\n}\n"
	    "neg {\n  a = f32[] parameter(0)\n  ROOT n = f32[] negate(a)\n}\n"
	    "same {\n  a = f32[] parameter(0)\n  ROOT c = f32[] copy(a)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[] parameter(0)\n  p = pred[] parameter(1)\n"
	    "  k = s32[] parameter(2)\n  z = s32[] constant(0)\n"
	    "  s = (s32[], f32[]) tuple(z, x)\n"
	    "  w = (s32[], f32[]) while(s), condition=cond, body=body\n"
	    "  b = (s32[], f32[]) opt-barrier(w)\n"
	    "  y = f32[] get-tuple-element(b), index=1\n"
	    "  c = f32[] conditional(p, x, x), true_computation=neg, "
	    "false_computation=same\n"
	    "  d = f32[] conditional(k, x, x), "
	    "branch_computations={neg, same}\n"
	    "  ROOT r = (f32[], f32[], f32[]) tuple(y, c, d)\n}\n";
	float x = 1.5f;
	uint8_t p = 1;
	int32_t k = 7;		/* out of range: the last branch */
	HloBuf args[3];
	Fx f;

	args[0] = buf_of(HT_F32, 0, NULL, &x);
	args[1] = buf_of(HT_PRED, 0, NULL, &p);
	args[2] = buf_of(HT_S32, 0, NULL, &k);
	run_text(&f, text, args, 3);
	ck_assert(at(&f.res[0], 0) == x * 32);
	ck_assert(at(&f.res[1], 0) == -x);
	ck_assert(at(&f.res[2], 0) == x);
	fx_free(&f);
}
END_TEST

START_TEST(convolution_dot_forms)
{
	/* bf_io->bf is a plain dot; 0bf_0oi->0bf with size=B stride=B-1
	   lhs_dilate=B is XLA TPU's batched dot (here B = 2). */
	static const char text[] = "ENTRY e {\n"
	    "  a = f32[2,3] parameter(0)\n  b = f32[3,4] parameter(1)\n"
	    "  c = f32[2,4] convolution(a, b), dim_labels=bf_io->bf\n"
	    "  q = f32[2,3,5] parameter(2)\n  k = f32[2,4,5] parameter(3)\n"
	    "  s = f32[2,3,4] convolution(q, k), window={size=2 stride=1 "
	    "lhs_dilate=2}, dim_labels=0bf_0oi->0bf\n"
	    "  ROOT r = (f32[2,4], f32[2,3,4]) tuple(c, s)\n}\n";
	static const int64_t d23[] = { 2, 3 }, d34[] = { 3, 4 };
	static const int64_t d235[] = { 2, 3, 5 }, d245[] = { 2, 4, 5 };
	HloBuf args[4], in[4];
	Fx f;
	int i, j, l, z;

	args[0] = f32buf(2, d23);
	args[1] = f32buf(2, d34);
	args[2] = f32buf(3, d235);
	args[3] = f32buf(3, d245);
	for (i = 0; i < 4; i++) {
		fill(&args[i], 20 + (unsigned)i);
		in[i] = buf_of(HT_F32, args[i].rank, args[i].dim, args[i].data);
	}
	run_text(&f, text, args, 4);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 4; j++) {
			double sum = 0;
			for (l = 0; l < 3; l++)
				sum += (double)at(&in[0], i * 3 + l) *
				    at(&in[1], l * 4 + j);
			near(at(&f.res[0], i * 4 + j), sum, 1e-6, "bf_io", j);
		}
	for (z = 0; z < 2; z++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 4; j++) {
				double sum = 0;
				for (l = 0; l < 5; l++)
					sum += (double)at(&in[2], (z * 3 + i) * 5 +
					    l) * at(&in[3], (z * 4 + j) * 5 + l);
				near(at(&f.res[1], (z * 3 + i) * 4 + j), sum,
				    1e-6, "0bf_0oi", j);
			}
	for (i = 0; i < 4; i++)
		hlo_buf_free(&in[i]);
	fx_free(&f);
}
END_TEST

START_TEST(collectives_are_read_but_not_evaluated)
{
	static const char text[] = "add {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n}\n"
	    "ENTRY e {\n  x = f32[4] parameter(0)\n"
	    "  ROOT r = f32[4] all-reduce(x), replica_groups={}, "
	    "to_apply=add\n}\n";
	static const int64_t d[] = { 4 };
	HloBuf arg = f32buf(1, d);
	Fx f;

	load_text(&f, text, sizeof text - 1);
	ck_assert_int_eq(hlo_eval(f.m, &arg, 1, f.res, 8, f.err,
	    sizeof f.err), -1);
	ck_assert_ptr_nonnull(strstr(f.err, "'all-reduce' is not supported "
	    "by the evaluator"));
	hlo_buf_free(&arg);
	f.nres = 0;
	fx_free(&f);
}
END_TEST

START_TEST(large_values_are_released_after_their_last_use)
{
	/* values of 128 KiB and more live on the heap and are freed after
	   their last use; views (reshape), tuples and loops share them */
	static const char text[] = "cond {\n"
	    "  s = (s32[], f32[128,128]) parameter(0)\n"
	    "  i = s32[] get-tuple-element(s), index=0\n"
	    "  n = s32[] constant(3)\n"
	    "  ROOT c = pred[] compare(i, n), direction=LT\n}\n"
	    "body {\n"
	    "  s = (s32[], f32[128,128]) parameter(0)\n"
	    "  i = s32[] get-tuple-element(s), index=0\n"
	    "  x = f32[128,128] get-tuple-element(s), index=1\n"
	    "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
	    "  y = f32[128,128] add(x, x)\n"
	    "  ROOT t = (s32[], f32[128,128]) tuple(j, y)\n}\n"
	    "ENTRY e {\n"
	    "  x = f32[128,128] parameter(0)\n"
	    "  y = f32[128,128] negate(x)\n"
	    "  r = f32[16384] reshape(y)\n"
	    "  t = (f32[16384], f32[128,128]) tuple(r, y)\n"
	    "  g = f32[16384] get-tuple-element(t), index=0\n"
	    "  a = f32[16384] add(g, g)\n"
	    "  b = f32[128,128] reshape(a)\n"
	    "  c = f32[128,128] add(b, x)\n"
	    "  z = s32[] constant(0)\n"
	    "  s = (s32[], f32[128,128]) tuple(z, c)\n"
	    "  w = (s32[], f32[128,128]) while(s), condition=cond, body=body\n"
	    "  ROOT o = f32[128,128] get-tuple-element(w), index=1\n}\n";
	static const int64_t d[] = { 128, 128 };
	HloBuf arg = f32buf(2, d), in;
	Fx f;
	int i;

	fill(&arg, 31);
	in = buf_of(HT_F32, 2, d, arg.data);
	run_text(&f, text, &arg, 1);
	/* -2x + x = -x, doubled three times */
	for (i = 0; i < 128 * 128; i++)
		ck_assert(at(&f.res[0], i) == -8 * at(&in, i));
	hlo_buf_free(&in);
	fx_free(&f);
}
END_TEST

START_TEST(bitcast_reinterprets_tiled_layouts)
{
	/* x[i][j] = 10 i + j.  {0,1} is column-major: its bitcast to a
	   row-major [3,2] is the transpose.  T(2,2) on [4,6] stores 2x2
	   tiles in row-major tile order: element (i, j) is at tile
	   (i/2, j/2), within-tile (i%2, j%2).  T(2,4)(2,1) on [4,8]: the
	   (2,1) re-tiling of each 2x4 tile puts element (r, c) of the tile
	   at (c, r).  reshape ignores layouts. */
	static const char text[] = "ENTRY e {\n"
	    "  a = f32[2,3]{0,1} parameter(0)\n"
	    "  ta = f32[3,2]{1,0} bitcast(a)\n"
	    "  b = f32[4,6]{1,0:T(2,2)} parameter(1)\n"
	    "  tb = f32[2,3,2,2]{3,2,1,0} bitcast(b)\n"
	    "  c = bf16[4,8]{1,0:T(2,4)(2,1)} parameter(2)\n"
	    "  tc = bf16[2,2,4,2]{3,2,1,0} bitcast(c)\n"
	    "  rb = f32[24]{0} reshape(b)\n"
	    "  ROOT r = (f32[3,2], f32[2,3,2,2], bf16[2,2,4,2], f32[24]) "
	    "tuple(ta, tb, tc, rb)\n}\n";
	static const int64_t d23[] = { 2, 3 }, d46[] = { 4, 6 };
	static const int64_t d48[] = { 4, 8 };
	HloBuf args[3];
	Fx f;
	int i, j, k, l;

	args[0] = f32buf(2, d23);
	args[1] = f32buf(2, d46);
	args[2] = hlo_buf_new(HT_BF16, 2, d48);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			((float *)args[0].data)[i * 3 + j] = (float)(10 * i + j);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 6; j++)
			((float *)args[1].data)[i * 6 + j] = (float)(10 * i + j);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 8; j++)
			((uint16_t *)args[2].data)[i * 8 + j] =
			    hlo_f32_to_bf16((float)(10 * i + j));
	run_text(&f, text, args, 3);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			ck_assert(at(&f.res[0], i * 2 + j) == 10 * j + i);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 2; k++)
				for (l = 0; l < 2; l++)
					ck_assert(at(&f.res[1], ((i * 3 + j) * 2 +
					    k) * 2 + l) == 10 * (2 * i + k) +
					    2 * j + l);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 4; k++)
				for (l = 0; l < 2; l++)
					ck_assert(hlo_bf16_to_f32(((uint16_t *)
					    f.res[2].data)[((i * 2 + j) * 4 + k) *
					    2 + l]) == 10 * (2 * i + l) + 4 * j +
					    k);
	for (i = 0; i < 24; i++)
		ck_assert(at(&f.res[3], i) == 10 * (i / 6) + i % 6);
	fx_free(&f);
}
END_TEST

/* ------------------------------------------------------ s64 and u64 */

#define P53 ((int64_t)1 << 53)

static const int64_t *
s64s(const Fx *f, int k)
{
	return f->res[k].data;
}

static const uint64_t *
u64s(const Fx *f, int k)
{
	return f->res[k].data;
}

static const uint8_t *
preds(const Fx *f, int k)
{
	return f->res[k].data;
}

/* 2^53 + 1 and beyond: every bit counts, arithmetic wraps modulo 2^64 */
START_TEST(s64_arithmetic_is_exact)
{
	static const char text[] = "ENTRY e {\n"
	    "  a = s64[4] parameter(0)\n  one = s64[] constant(1)\n"
	    "  b = s64[4] broadcast(one), dimensions={}\n"
	    "  sum = s64[4] add(a, b)\n"
	    "  k = s64[4] constant({3, -1, -1, 2})\n"
	    "  q = s64[4] divide(a, k)\n  r = s64[4] remainder(a, k)\n"
	    "  n = s64[4] negate(a)\n  ab = s64[4] abs(a)\n"
	    "  m = s64[4] multiply(a, a)\n"
	    "  ROOT t = (s64[4], s64[4], s64[4], s64[4], s64[4], s64[4]) "
	    "tuple(sum, q, r, n, ab, m)\n}\n";
	static const int64_t d[] = { 4 };
	static const int64_t a[] = { P53 + 1, INT64_MAX, INT64_MIN, -7 };
	static const int64_t sum[] = { P53 + 2, INT64_MIN, INT64_MIN + 1, -6 };
	static const int64_t q[] = { 3002399751580331, -INT64_MAX, INT64_MIN,
	    -3 };
	static const int64_t r[] = { 0, 0, 0, -1 };
	static const int64_t n[] = { -P53 - 1, -INT64_MAX, INT64_MIN, 7 };
	static const int64_t ab[] = { P53 + 1, INT64_MAX, INT64_MIN, 7 };
	HloBuf args[1];
	Fx f;
	int i;

	args[0] = buf_of(HT_S64, 1, d, a);
	run_text(&f, text, args, 1);
	ck_assert_int_eq(f.nres, 6);
	for (i = 0; i < 4; i++) {
		ck_assert(s64s(&f, 0)[i] == sum[i]);
		ck_assert(s64s(&f, 1)[i] == q[i]);
		ck_assert(s64s(&f, 2)[i] == r[i]);
		ck_assert(s64s(&f, 3)[i] == n[i]);
		ck_assert(s64s(&f, 4)[i] == ab[i]);
		ck_assert(s64s(&f, 5)[i] == (int64_t)((uint64_t)a[i] *
		    (uint64_t)a[i]));
	}
	fx_free(&f);
}
END_TEST

START_TEST(s64_compare_select_reduce_sort_dot)
{
	static const char text[] = "add {\n"
	    "  x = s64[] parameter(0)\n  y = s64[] parameter(1)\n"
	    "  ROOT s = s64[] add(x, y)\n}\n"
	    "max {\n"
	    "  x = s64[] parameter(0)\n  y = s64[] parameter(1)\n"
	    "  ROOT s = s64[] maximum(x, y)\n}\n"
	    "lt {\n"
	    "  x = s64[] parameter(0)\n  y = s64[] parameter(1)\n"
	    "  ROOT l = pred[] compare(x, y), direction=LT\n}\n"
	    "ENTRY e {\n"
	    "  a = s64[4] parameter(0)\n"
	    "  p = s64[] constant(9007199254740992)\n"
	    "  b = s64[4] broadcast(p), dimensions={}\n"
	    "  gt = pred[4] compare(a, b), direction=GT\n"
	    "  lo = s64[] constant(9007199254740993)\n"
	    "  hi = s64[] constant(9007199254740994)\n"
	    "  c = s64[4] clamp(lo, a, hi)\n"
	    "  s = s64[4] select(gt, a, b)\n"
	    "  z = s64[] constant(0)\n"
	    "  sum = s64[] reduce(a, z), dimensions={0}, to_apply=add\n"
	    "  w = s64[3] reduce-window(a, z), window={size=2}, to_apply=max\n"
	    "  o = s64[4] sort(a), dimensions={0}, to_apply=lt\n"
	    "  x = s64[2] constant({1099511627777, 3})\n"
	    "  y = s64[2] constant({1048576, 1})\n"
	    "  d = s64[] dot(x, y), lhs_contracting_dims={0}, "
	    "rhs_contracting_dims={0}\n"
	    "  ROOT t = (pred[4], s64[4], s64[4], s64[], s64[3], s64[4], "
	    "s64[]) tuple(gt, c, s, sum, w, o, d)\n}\n";
	static const int64_t d4[] = { 4 };
	static const int64_t a[] = { P53 + 1, P53, P53 + 3, P53 + 2 };
	static const uint8_t gt[] = { 1, 0, 1, 1 };
	static const int64_t c[] = { P53 + 1, P53 + 1, P53 + 2, P53 + 2 };
	static const int64_t s[] = { P53 + 1, P53, P53 + 3, P53 + 2 };
	static const int64_t w[] = { P53 + 1, P53 + 3, P53 + 3 };
	static const int64_t o[] = { P53, P53 + 1, P53 + 2, P53 + 3 };
	HloBuf args[1];
	Fx f;
	int i;

	args[0] = buf_of(HT_S64, 1, d4, a);
	run_text(&f, text, args, 1);
	ck_assert_int_eq(f.nres, 7);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(preds(&f, 0)[i], gt[i]);
		ck_assert(s64s(&f, 1)[i] == c[i]);
		ck_assert(s64s(&f, 2)[i] == s[i]);
		ck_assert(s64s(&f, 5)[i] == o[i]);
	}
	ck_assert(s64s(&f, 3)[0] == 4 * P53 + 6);
	for (i = 0; i < 3; i++)
		ck_assert(s64s(&f, 4)[i] == w[i]);
	ck_assert(s64s(&f, 6)[0] == ((int64_t)1 << 60) + (1 << 20) + 3);
	fx_free(&f);
}
END_TEST

/* u64 is unsigned throughout: compare, divide, shifts, minimum */
START_TEST(u64_is_unsigned_and_exact)
{
	static const char text[] = "ENTRY e {\n"
	    "  a = u64[3] parameter(0)\n  z = u64[] constant(0)\n"
	    "  zb = u64[3] broadcast(z), dimensions={}\n"
	    "  gt = pred[3] compare(a, zb), direction=GT\n"
	    "  k = u64[3] constant({3, 7, 0})\n"
	    "  q = u64[3] divide(a, k)\n  r = u64[3] remainder(a, k)\n"
	    "  sh = u64[3] constant({63, 1, 64})\n"
	    "  srl = u64[3] shift-right-logical(a, sh)\n"
	    "  shl = u64[3] shift-left(a, sh)\n"
	    "  one = u64[] constant(1)\n"
	    "  ob = u64[3] broadcast(one), dimensions={}\n"
	    "  sum = u64[3] add(a, ob)\n  mn = u64[3] minimum(a, k)\n"
	    "  ROOT t = (pred[3], u64[3], u64[3], u64[3], u64[3], u64[3], "
	    "u64[3]) tuple(gt, q, r, srl, shl, sum, mn)\n}\n";
	static const int64_t d3[] = { 3 };
	static const uint64_t a[] = { UINT64_MAX, (uint64_t)1 << 63, 5 };
	static const uint64_t q[] = { 6148914691236517205u,
	    1317624576693539401u, UINT64_MAX };
	static const uint64_t r[] = { 0, 1, 5 };
	static const uint64_t srl[] = { 1, (uint64_t)1 << 62, 0 };
	static const uint64_t shl[] = { (uint64_t)1 << 63, 0, 0 };
	static const uint64_t sum[] = { 0, ((uint64_t)1 << 63) + 1, 6 };
	static const uint64_t mn[] = { 3, 7, 0 };
	HloBuf args[1];
	Fx f;
	int i;

	args[0] = buf_of(HT_U64, 1, d3, a);
	run_text(&f, text, args, 1);
	ck_assert_int_eq(f.nres, 7);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(preds(&f, 0)[i], 1);
		ck_assert(u64s(&f, 1)[i] == q[i]);
		ck_assert(u64s(&f, 2)[i] == r[i]);
		ck_assert(u64s(&f, 3)[i] == srl[i]);
		ck_assert(u64s(&f, 4)[i] == shl[i]);
		ck_assert(u64s(&f, 5)[i] == sum[i]);
		ck_assert(u64s(&f, 6)[i] == mn[i]);
	}
	fx_free(&f);
}
END_TEST

/*
 * To a float in one rounding: 2^60 + 2^36 + 1 is just above the f32 tie
 * 2^60 + 2^36, which a double (2^60 + 2^36) would turn into an exact
 * tie and round to even, 2^60.  Floats to s64 and u64 saturate.
 */
START_TEST(s64_and_u64_convert_and_bitcast)
{
	static const char text[] = "ENTRY e {\n"
	    "  s = s64[3] parameter(0)\n  u = u64[1] parameter(1)\n"
	    "  f = f32[3] convert(s)\n  b = bf16[3] convert(s)\n"
	    "  d = f64[1] convert(u)\n  us = s64[1] convert(u)\n"
	    "  x = f64[2] constant({1e19, 4611686018427387904})\n"
	    "  xs = s64[2] convert(x)\n  xu = u64[2] convert(x)\n"
	    "  k = s64[] constant(4607182418800017409)\n"
	    "  kf = f64[] bitcast-convert(k)\n"
	    "  w = u32[1,2] bitcast-convert(u)\n"
	    "  ROOT t = (f32[3], bf16[3], f64[1], s64[1], s64[2], u64[2], "
	    "f64[], u32[1,2]) tuple(f, b, d, us, xs, xu, kf, w)\n}\n";
	static const int64_t d3[] = { 3 }, d1[] = { 1 };
	static const int64_t s[] = { ((int64_t)1 << 60) + ((int64_t)1 << 36) +
	    1, P53 + 1, -(((int64_t)1 << 60) + ((int64_t)1 << 52) + 1) };
	static const uint64_t u[] = { 0x0123456789abcdefu };
	static const float bf[] = { 0x1p60f, 0x1p53f, -0x1.02p60f };
	uint32_t halves[2];
	HloBuf args[2];
	Fx f;
	int i;

	args[0] = buf_of(HT_S64, 1, d3, s);
	args[1] = buf_of(HT_U64, 1, d1, u);
	run_text(&f, text, args, 2);
	ck_assert_int_eq(f.nres, 8);
	ck_assert(at(&f.res[0], 0) == 0x1.000002p60f);
	for (i = 0; i < 3; i++) {
		ck_assert(at(&f.res[0], i) == (float)s[i]);
		ck_assert_uint_eq(((uint16_t *)f.res[1].data)[i],
		    hlo_f32_to_bf16(bf[i]));
	}
	ck_assert(((double *)f.res[2].data)[0] == (double)u[0]);
	ck_assert(s64s(&f, 3)[0] == (int64_t)u[0]);
	ck_assert(s64s(&f, 4)[0] == INT64_MAX);
	ck_assert(s64s(&f, 4)[1] == (int64_t)1 << 62);
	ck_assert(u64s(&f, 5)[0] == 10000000000000000000u);
	ck_assert(u64s(&f, 5)[1] == (uint64_t)1 << 62);
	ck_assert(((double *)f.res[6].data)[0] == 1 + 0x1p-52);
	memcpy(halves, u, sizeof halves);
	ck_assert_uint_eq(((uint32_t *)f.res[7].data)[0], halves[0]);
	ck_assert_uint_eq(((uint32_t *)f.res[7].data)[1], halves[1]);
	fx_free(&f);
}
END_TEST

/* Indices of type s64 and u64 clamp (or skip) by their exact values. */
START_TEST(s64_and_u64_indices)
{
	static const char text[] = "add {\n"
	    "  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n}\n"
	    "ENTRY e {\n"
	    "  a = f32[8] parameter(0)\n  i = s64[] parameter(1)\n"
	    "  j = u64[] constant(18446744073709551615)\n"
	    "  k = s64[] constant(-9223372036854775808)\n"
	    "  di = f32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}\n"
	    "  dj = f32[2] dynamic-slice(a, j), dynamic_slice_sizes={2}\n"
	    "  dk = f32[2] dynamic-slice(a, k), dynamic_slice_sizes={2}\n"
	    "  gi = s64[2] constant({9223372036854775807, 2})\n"
	    "  g = f32[2] gather(a, gi), offset_dims={}, "
	    "collapsed_slice_dims={0}, start_index_map={0}, "
	    "index_vector_dim=1, slice_sizes={1}\n"
	    "  si = u64[2,1] constant({ {18446744073709551615}, {1} })\n"
	    "  su = f32[2] constant({100, 10})\n"
	    "  s = f32[8] scatter(a, si, su), update_window_dims={}, "
	    "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
	    "index_vector_dim=1, to_apply=add\n"
	    "  ROOT t = (f32[2], f32[2], f32[2], f32[2], f32[8]) "
	    "tuple(di, dj, dk, g, s)\n}\n";
	static const int64_t d8[] = { 8 };
	static const float a[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const int64_t i3[] = { 3 };
	HloBuf args[2];
	Fx f;
	int i;

	args[0] = buf_of(HT_F32, 1, d8, a);
	args[1] = buf_of(HT_S64, 0, NULL, i3);
	run_text(&f, text, args, 2);
	ck_assert(at(&f.res[0], 0) == 3 && at(&f.res[0], 1) == 4);
	ck_assert(at(&f.res[1], 0) == 6 && at(&f.res[1], 1) == 7);
	ck_assert(at(&f.res[2], 0) == 0 && at(&f.res[2], 1) == 1);
	ck_assert(at(&f.res[3], 0) == 7 && at(&f.res[3], 1) == 2);
	for (i = 0; i < 8; i++)	/* 2^64 - 1 is out of range: skipped */
		ck_assert(at(&f.res[4], i) == a[i] + (i == 1 ? 10 : 0));
	fx_free(&f);
}
END_TEST

/* Read and printed back digit for digit; out of range is an error. */
START_TEST(s64_and_u64_constants_round_trip)
{
	static const char text[] = "ENTRY e {\n"
	    "  a = s64[3] constant({9223372036854775807, "
	    "-9223372036854775808, 9007199254740993})\n"
	    "  ROOT b = u64[2] constant({18446744073709551615, "
	    "9223372036854775808})\n}\n";
	static const char *const bad[] = {
	    "ENTRY e {\n  ROOT a = s64[] constant(9223372036854775808)\n}\n",
	    "ENTRY e {\n  ROOT a = u64[] constant(18446744073709551616)\n}\n",
	    "ENTRY e {\n  ROOT a = u64[] constant(-1)\n}\n",
	};
	Buf b = {0};
	Fx f;
	int i;

	load_text(&f, text, sizeof text - 1);
	hlo_print(&b, f.m);
	buf_putc(&b, 0);
	ck_assert_msg(strstr(b.p, "s64[3] constant({9223372036854775807, "
	    "-9223372036854775808, 9007199254740993})") != NULL, "%s", b.p);
	ck_assert_msg(strstr(b.p, "u64[2] constant({18446744073709551615, "
	    "9223372036854775808})") != NULL, "%s", b.p);
	buf_free(&b);
	f.nres = hlo_eval(f.m, NULL, 0, f.res, 8, f.err, sizeof f.err);
	ck_assert_msg(f.nres == 1, "%s", f.err);
	ck_assert(u64s(&f, 0)[0] == UINT64_MAX);
	ck_assert(u64s(&f, 0)[1] == (uint64_t)1 << 63);
	fx_free(&f);
	for (i = 0; i < 3; i++) {
		memset(&f, 0, sizeof f);
		srcmgr_init(&f.sm);
		strtab_init(&f.strs, &f.a);
		diag_init(&f.d, &f.sm, stderr);
		ck_assert_ptr_null(hlo_read(&f.d, srcmgr_add(&f.sm, "m.hlo",
		    bad[i], strlen(bad[i])), &f.a, &f.strs));
		fx_free(&f);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_eval");
	TCase *t = tcase_create("eval");

	tcase_set_timeout(t, 0);
	tcase_add_test(t, toy_program);
	tcase_add_test(t, runs_are_bit_identical);
	tcase_add_test(t, softmax);
	tcase_add_test(t, layer_norm_bf16);
	tcase_add_test(t, dot_with_batch_dims);
	tcase_add_test(t, reduce_max_add_argmax);
	tcase_add_test(t, broadcast);
	tcase_add_test(t, transpose);
	tcase_add_test(t, reshape_slice_concatenate);
	tcase_add_test(t, causal_mask_pred_and_bf16);
	tcase_add_test(t, bf16_rounding);
	tcase_add_test(t, integers_wrap);
	tcase_add_test(t, unsupported_and_bad_arguments_fail_cleanly);
	tcase_add_test(t, corpus_copy_and_bitcast);
	tcase_add_test(t, f16_conversion_rounds_to_nearest_even);
	tcase_add_test(t, f16_u32_s64_u8_arithmetic);
	tcase_add_test(t, shifts_follow_xla);
	tcase_add_test(t, bitcast_convert_keeps_bits);
	tcase_add_test(t, bitcast_convert_between_widths);
	tcase_add_test(t, pad_reverse_dynamic_slices);
	tcase_add_test(t, gather_and_scatter_as_jax_emits_them);
	tcase_add_test(t, gather_and_scatter_with_batching_dims);
	tcase_add_test(t, scatter_with_two_operands);
	tcase_add_test(t, sort_is_stable_with_two_operands);
	tcase_add_test(t, reduce_window_sums_and_maxes);
	tcase_add_test(t, while_and_conditional);
	tcase_add_test(t, convolution_dot_forms);
	tcase_add_test(t, collectives_are_read_but_not_evaluated);
	tcase_add_test(t, large_values_are_released_after_their_last_use);
	tcase_add_test(t, bitcast_reinterprets_tiled_layouts);
	tcase_add_test(t, s64_arithmetic_is_exact);
	tcase_add_test(t, s64_compare_select_reduce_sort_dot);
	tcase_add_test(t, u64_is_unsigned_and_exact);
	tcase_add_test(t, s64_and_u64_convert_and_bitcast);
	tcase_add_test(t, s64_and_u64_indices);
	tcase_add_test(t, s64_and_u64_constants_round_trip);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
