/*
 * check_interp.c - interpret mode against plain-C references: the matmul
 * kernels (f32 and bf16 inputs), the Splash forward kernel with a causal
 * mask on several GQA shapes, the seed's toy func; and the pipeline's
 * behaviour: block copies skipped for repeated indices, output revisits,
 * reads of uninitialised scratch, out-of-range block indices, shuffled
 * parallel axes, never-written outputs, DMAs, check statements.
 *
 * The .pk files are read from $top_srcdir (tests/interp/, kernels/).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "kernels/matmul/matmul_host.h"
#include "kernels/splash/splash_host.h"
#include "pallas/splash_mask.h"
#include "tests/unit/splashmask.h"

typedef struct Fixture {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	CheckedModule *m;
	char *text;		/* diagnostics printed */
	size_t len;
	FILE *out;
} Fixture;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* Parses and checks top_srcdir/path against preset (NULL: v4). */
static void
load_for(Fixture *f, const char *path, const char *preset)
{
	const MachPreset *mp = mach_preset(preset);
	const char *top = getenv("top_srcdir");
	char full[1024];
	Ast *ast;

	memset(f, 0, sizeof *f);
	snprintf(full, sizeof full, "%s/%s", top ? top : ".", path);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	f->pp = pp_new(&f->d, &f->strs, &f->a);
	ck_assert_ptr_nonnull(mp);
	sema_predefine(f->pp, mp);	/* as pallasc does */
	ck_assert_int_eq(pp_push_file(f->pp, full), 0);
	ast = parse_module(pp_source, f->pp, &f->d, &f->a);
	f->m = sema_check(ast, mp, &f->d, &f->a);
	fflush(f->out);
	ck_assert_msg(f->d.nerror == 0, "%s: %s", path, f->text);
}

static void
load(Fixture *f, const char *path)
{
	load_for(f, path, NULL);
}

static const char *
diags(Fixture *f)
{
	fflush(f->out);
	return f->text ? f->text : "";
}

static void
unload(Fixture *f)
{
	pp_free(f->pp);
	fclose(f->out);
	free(f->text);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static const CExport *
export_named(Fixture *f, const char *name)
{
	int i;

	for (i = 0; i < f->m->nexport; i++)
		if (strcmp(f->m->exp[i].cname, name) == 0)
			return &f->m->exp[i];
	ck_abort_msg("no export '%s'", name);
	return NULL;
}

static const CKernel *
kernel_named(Fixture *f, const char *name)
{
	const CExport *e = export_named(f, name);

	ck_assert_ptr_nonnull(e->kernel);
	return e->kernel;
}

/* Buffers for every operand of k, inputs random (seeded by position). */
static InterpBuf *
operands(const CKernel *k, uint64_t seed)
{
	InterpBuf *b = xcalloc((size_t)k->nop, sizeof(InterpBuf));
	int i;

	for (i = 0; i < k->nop; i++) {
		interp_buf_alloc(&b[i], k->op[i].name, k->op[i].dtype,
		    &k->op[i].shape);
		if (k->op[i].role == ROLE_IN)
			interp_fill(&b[i], INTERP_RANDOM, seed + (uint64_t)i);
	}
	return b;
}

static void
free_operands(const CKernel *k, InterpBuf *b)
{
	int i;

	for (i = 0; i < k->nop; i++)
		interp_buf_free(&b[i]);
	free(b);
}

/* max |got - want| / max |want| over n floats. */
static double
rel_err(const float *got, const float *want, int64_t n)
{
	double e = 0, m = 0;
	int64_t i;

	for (i = 0; i < n; i++) {
		e = fmax(e, fabs((double)got[i] - want[i]));
		m = fmax(m, fabs((double)want[i]));
	}
	return m > 0 ? e / m : e;
}

/* ------------------------------------------------------------ matmul */

START_TEST(matmul_bf16_inputs)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	float *ref;
	int64_t M, N, K;

	load(&f, "tests/interp/matmul_small.pk");
	k = kernel_named(&f, "matmul_small");
	M = k->op[2].shape.d[0];
	N = k->op[2].shape.d[1];
	K = k->op[0].shape.d[1];
	b = operands(k, 1);
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), 0);
	ref = xmalloc((size_t)(M * N) * sizeof(float));
	matmul_ref_bf16((int)M, (int)N, (int)K, b[0].data, b[1].data, ref);
	ck_assert_double_le(rel_err(b[2].data, ref, M * N), 1e-6);
	free(ref);
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(matmul_bf16_output)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	float *ref;
	int64_t M, N, K, i;

	load(&f, "tests/interp/matmul_small.pk");
	k = kernel_named(&f, "matmul_bf16_small");
	M = k->op[2].shape.d[0];
	N = k->op[2].shape.d[1];
	K = k->op[0].shape.d[1];
	b = operands(k, 2);
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), 0);
	ref = xmalloc((size_t)(M * N) * sizeof(float));
	matmul_ref_bf16((int)M, (int)N, (int)K, b[0].data, b[1].data, ref);
	for (i = 0; i < M * N; i++) {	/* one bf16 rounding of the sum */
		float got = matmul_bf16_to_f32(((uint16_t *)b[2].data)[i]);
		ck_assert_float_le(fabsf(got - ref[i]),
		    fabsf(ref[i]) * 0x1p-8f + 1e-5f);
	}
	free(ref);
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(matmul_f32_inputs)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	float *ref;
	int64_t M, N, K;

	load(&f, "tests/interp/matmul_small.pk");
	k = kernel_named(&f, "matmul_f32_small");
	M = k->op[2].shape.d[0];
	N = k->op[2].shape.d[1];
	K = k->op[0].shape.d[1];
	b = operands(k, 3);
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), 0);
	ref = xmalloc((size_t)(M * N) * sizeof(float));
	matmul_ref_f32((int)M, (int)N, (int)K, b[0].data, b[1].data, ref);
	ck_assert_double_le(rel_err(b[2].data, ref, M * N), 1e-6);
	free(ref);
	free_operands(k, b);
	unload(&f);
}
END_TEST

/* Shuffled parallel axes give bit-identical results and the same copies. */
START_TEST(matmul_shuffled_order)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	InterpOptions o = {0};
	InterpStats st = {0};
	int64_t in[3] = {0}, out[3] = {0};
	float *first;
	size_t bytes;
	int seed;

	load(&f, "tests/interp/matmul_small.pk");
	k = kernel_named(&f, "matmul_small");
	b = operands(k, 4);
	st.copy_in = in;
	st.copy_out = out;
	o.stats = &st;
	ck_assert_int_eq(interp_kernel(k, b, k->nop, &o, &f.d), 0);
	/* x and y change block every step; z once per (i, j) */
	ck_assert_int_eq(in[0], st.steps);
	ck_assert_int_eq(out[2], k->axis[0].extent * k->axis[1].extent);
	bytes = (size_t)shape_numel(&k->op[2].shape) * 4;
	first = xmalloc(bytes);
	memcpy(first, b[2].data, bytes);
	for (seed = 1; seed <= 3; seed++) {
		memset(b[2].data, 0, bytes);
		o.shuffle = 1;
		o.seed = (uint64_t)seed;
		ck_assert_int_eq(interp_kernel(k, b, k->nop, &o, &f.d), 0);
		ck_assert_mem_eq(b[2].data, first, bytes);
	}
	free(first);
	free_operands(k, b);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------------ splash */

/*
 * Causal, except that the rows of the second query block of head 0 (ctx:
 * the block size) keep no key: no block runs for them.
 */
static int
causal_with_empty_rows(void *ctx, int h, int q, int k)
{
	int bq = *(const int *)ctx;

	return k <= q && !(h == 0 && q >= bq && q < 2 * bq);
}

/* max |x - ref| / max |ref| over n values; NaN fails. */
static double
rel_err_d(const char *what, const float *x, const double *ref, int64_t n)
{
	double e = 0, m = 0;
	int64_t i;

	for (i = 0; i < n; i++) {
		ck_assert_msg(!isnan(x[i]), "%s[%lld] is NaN", what,
		    (long long)i);
		e = fmax(e, fabs(x[i] - ref[i]));
		m = fmax(m, fabs(ref[i]));
	}
	return m > 0 ? e / m : e;
}

static void
copy_buf(InterpBuf *to, const InterpBuf *from)
{
	ck_assert_int_eq(shape_numel(&to->shape), shape_numel(&from->shape));
	ck_assert_int_eq(to->dtype, from->dtype);
	memcpy(to->data, from->data, (size_t)shape_numel(&to->shape) *
	    (size_t)interp_elem_size(to->dtype));
}

/* Runs one Splash export against the double reference, with the mask it
   applies (tests/unit/splashmask.h), or with causal_with_empty_rows if
   'empty'. */
static void
splash_run(const char *file, const char *name, int empty, double *err_o,
    double *err_lse, InterpStats *st)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	InterpOptions o = {0};
	SplashDims n;
	int64_t BQ, BKV, nq, i;
	double *ro, *rl, el = 0, ml = 0;
	float *q, *kf, *vf;
	int bq;
	SplashMaskFn *fn;
	void *ctx;
	float sinks[SPLASH_TEST_MAXH];

	load(&f, file);
	k = kernel_named(&f, name);
	n = export_dims(k);
	BQ = sema_param(k, "BQ");
	BKV = sema_param(k, "BKV");
	bq = (int)BQ;
	fn = empty ? causal_with_empty_rows : export_mask;
	ctx = empty ? (void *)&bq : export_mask_ctx(k);
	b = operands(k, 10);
	nq = (int64_t)n.H * n.Sq;
	splash_test_sinks(k, b, &n, sinks);
	splash_test_segments(k, b);
	splash_test_dense_blocks(k, b);
	q = splash_prescale(&b[splash_operand(k, "q")], &n);
	kf = splash_floats(&b[splash_operand(k, "k")]);
	vf = splash_floats(&b[splash_operand(k, "v")]);
	ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv, (int)BQ,
	    (int)BKV, fn, ctx, b[1].data, b[0].data), 0);
	export_desc(k, b, 0);
	o.stats = st;
	ck_assert_msg(interp_kernel(k, b, k->nop, &o, &f.d) == 0, "%s",
	    diags(&f));
	ro = xmalloc((size_t)(nq * n.Dv) * sizeof(double));
	rl = xmalloc((size_t)nq * sizeof(double));
	ck_assert_int_eq(splash_reference(&n, q, kf, vf, fn, ctx, ro, rl), 0);
	*err_o = rel_err_d("o", b[splash_operand(k, "o")].data, ro,
	    nq * n.Dv);
	/* a row that keeps no key: lse -inf, as the reference */
	for (i = 0; i < nq; i++) {
		float x = ((float *)b[splash_operand(k, "lse")].data)[i];
		ck_assert_msg(x == rl[i] || (isfinite(x) && isfinite(rl[i])),
		    "lse[%lld] = %g, want %g", (long long)i, x, rl[i]);
		if (isfinite(rl[i])) {
			el = fmax(el, fabs(x - rl[i]));
			ml = fmax(ml, fabs(rl[i]));
		}
	}
	*err_lse = el / ml;
	printf("splash %-22s H=%d KVH=%d Sq=%d Skv=%d Dqk=%d Dv=%d: max rel "
	    "err o %.3g, lse %.3g\n", name, n.H, n.KVH, n.Sq, n.Skv, n.Dqk,
	    n.Dv, *err_o, *err_lse);
	free(ro);
	free(rl);
	free(q);
	free(kf);
	free(vf);
	free_operands(k, b);
	unload(&f);
}

static void
splash_case(const char *file, const char *name, double *err_o,
    double *err_lse, InterpStats *st)
{
	splash_run(file, name, 0, err_o, err_lse, st);
}

static const struct { const char *file, *name; } splash_shapes[] = {
	{ "kernels/splash/splash.pk", "splash_fwd_small" },	/* 2:1 */
	{ "kernels/splash/splash.pk", "splash_fwd_h4_s512" },	/* 4:2 */
	{ "tests/interp/splash_shapes.pk", "splash_h4_kv2_s256" },
	{ "tests/interp/splash_shapes.pk", "splash_h4_kv1_s256" },
	/* each mask kind, D = 32 */
	{ "tests/interp/splash_shapes.pk", "splash_full" },
	{ "tests/interp/splash_shapes.pk", "splash_causal_m40" },
	{ "tests/interp/splash_shapes.pk", "splash_causal_p17" },
	{ "tests/interp/splash_shapes.pk", "splash_local_48_0" },
	{ "tests/interp/splash_shapes.pk", "splash_local_20_36" },
	{ "tests/interp/splash_shapes.pk", "splash_local_inf_10" },
	{ "tests/interp/splash_shapes.pk", "splash_chunked_64" },
	{ "tests/interp/splash_shapes.pk", "splash_chunked_50" },
	/* Sq != Skv, Dqk != Dv */
	{ "tests/interp/splash_shapes.pk", "splash_rect_causal" },
	{ "tests/interp/splash_shapes.pk", "splash_rect_local" },
	{ "tests/interp/splash_shapes.pk", "splash_d64_32" },
	{ "tests/interp/splash_shapes.pk", "splash_d96_64" },
	/* bf16 inputs */
	{ "tests/interp/splash_shapes.pk", "splash_bf16_causal" },
	{ "tests/interp/splash_shapes.pk", "splash_bf16_local" },
	{ "tests/interp/splash_shapes.pk", "splash_bf16_rect" },
	/* logits scaled and soft-capped in the kernel */
	{ "tests/interp/splash_shapes.pk", "splash_cap_scale" },
	{ "tests/interp/splash_shapes.pk", "splash_bf16_cap_sinks" },
	/* sinks, with rows that keep no key */
	{ "tests/interp/splash_shapes.pk", "splash_sinks" },
	/* f32 at the default precision */
	{ "tests/interp/splash_shapes.pk", "splash_f32_fast" },
	/* segment ids */
	{ "tests/interp/splash_shapes.pk", "splash_segments" },
	/* a dense mask, stored */
	{ "tests/interp/splash_shapes.pk", "splash_dense" },
	/* a mask per head, and/or of masks, stored */
	{ "tests/interp/splash_shapes.pk", "splash_stored" },
};

/* Splash's own tolerances: f32 1e-5; bf16 inputs, and f32 dots at the
   default precision (one bf16 pass, "fast"), 3e-3 on outputs and 2e-2
   on gradients (relative to the largest reference value). */
static double
splash_tol(const char *name, int grad)
{
	if (!strstr(name, "bf16") && !strstr(name, "fast"))
		return 1e-5;
	return grad ? 2e-2 : 3e-3;
}

START_TEST(splash_masks_vs_reference)
{
	double eo, el;

	splash_case(splash_shapes[_i].file, splash_shapes[_i].name, &eo, &el,
	    NULL);
	ck_assert_double_le(eo, splash_tol(splash_shapes[_i].name, 0));
	/* the export's precision is the one used: one pass rounds q and k
	   to bf16, which moves the logits by about 1e-3 */
	if (strstr(splash_shapes[_i].name, "fast")) {
		ck_assert_double_gt(eo, 1e-5);
		ck_assert_double_le(el, 1e-3);
	} else
		ck_assert_double_le(el, 1e-5);
}
END_TEST

/* Rows that keep no key give o = 0 and lse = -inf, never NaN. */
START_TEST(splash_empty_rows_are_zero)
{
	double eo, el;

	splash_run("kernels/splash/splash.pk", "splash_fwd_small", 1, &eo,
	    &el, NULL);
	ck_assert_double_le(eo, 1e-5);
	ck_assert_double_le(el, 1e-5);
}
END_TEST

/*
 * Tables built for another mask (by the library, for local:20,36,3)
 * given to a causal export: its check of mask_desc stops it with an
 * error instead of wrong numbers.  The same with a right mask and a
 * wrong block size in the description.
 */
START_TEST(splash_tables_of_another_mask_are_refused)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	InterpOptions o = {0};
	SplashMask *m = splash_mask_local(20, 36, 3);
	SplashMaskInfo info;
	int round;

	load(&f, "kernels/splash/splash.pk");
	k = kernel_named(&f, "splash_fwd_small");
	b = operands(k, 10);
	for (round = 0; round < 2; round++) {
		ck_assert_int_eq(splash_mask_info(m, 2, 256, 256, 128, 128, 0,
		    &info, NULL, 0), 0);
		memcpy(b[0].data, info.data_next, 2 * 2 * 2 * 4);
		memcpy(b[1].data, info.block_mask, 2 * 2 * 2 * 4);
		memcpy(b[2].data, info.desc, sizeof info.desc);
		if (round == 1)		/* causal, as the export, but BKV 64 */
			((int32_t *)b[2].data)[8] = 64;
		ck_assert_int_ne(interp_kernel(k, b, k->nop, &o, &f.d), 0);
		ck_assert_msg(strstr(diags(&f), "check failed at grid point "
		    "(h=0, i=0, j=0): the Splash tables were built for another "
		    "mask, shapes or block sizes"), "%s", diags(&f));
		splash_mask_info_free(&info);
		splash_mask_free(m);
		m = splash_mask_causal(0);
	}
	splash_mask_free(m);
	free_operands(k, b);
	unload(&f);
}
END_TEST

/*
 * A DENSE export has room for MA stored blocks: tables that say they use
 * fewer run (the tests' mask uses MA - 3), tables that say they use more
 * (or a negative count) stop it with an error, as tables of another mask
 * do.
 */
START_TEST(splash_stored_blocks_past_the_room_are_refused)
{
	int round;

	for (round = 0; round < 3; round++) {
		Fixture f;
		const CKernel *k;
		InterpBuf *b;
		InterpOptions o = {0};
		SplashDims n;
		int32_t *d;

		load(&f, "tests/interp/splash_shapes.pk");
		k = kernel_named(&f, "splash_stored");
		n = export_dims(k);
		b = operands(k, 10);
		ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv,
		    (int)sema_param(k, "BQ"), (int)sema_param(k, "BKV"),
		    export_mask, export_mask_ctx(k), b[1].data, b[0].data), 0);
		splash_test_dense_blocks(k, b);
		export_desc(k, b, 0);
		d = b[splash_operand(k, "mask_desc")].data;
		ck_assert_int_eq(d[2], sema_param(k, "MA"));
		d[2] = round == 0 ? d[2] - 3 : round == 1 ? d[2] + 1 : -1;
		if (round == 0)
			ck_assert_msg(interp_kernel(k, b, k->nop, &o, &f.d) ==
			    0, "%s", diags(&f));
		else {
			ck_assert_int_ne(interp_kernel(k, b, k->nop, &o, &f.d),
			    0);
			ck_assert_msg(strstr(diags(&f), "check failed at grid "
			    "point (h=0, i=0, j=0): the Splash tables were "
			    "built for another mask, shapes or block sizes"),
			    "%s", diags(&f));
		}
		free_operands(k, b);
		unload(&f);
	}
}
END_TEST

/*
 * Tables of the tests' segment ids given ids of which one, q_seg[600],
 * moved to a segment of its own: block (4, 4), full in the tables, is
 * then partial.  Each kernel counts the difference over that block's
 * row of steps and stops at the row's last step (the dKV kernel's rows
 * run over query heads and blocks).
 */
START_TEST(splash_tables_of_other_segment_ids_are_refused)
{
	static const char *const name[3] = { "splash_segments",
	    "splash_segments_dq", "splash_segments_dkv" };
	static const char *const at[3] = { "(h=0, i=4, j=7)",
	    "(h=0, i=4, j=7)", "(g=0, j=4, r=1, i=7)" };
	int w;

	for (w = 0; w < 3; w++) {
		Fixture f;
		const CKernel *k;
		InterpBuf *b;
		InterpOptions o = {0};
		SplashDims n;
		SplashTransposed t;
		int BQ, BKV, qs;
		char want[160];

		load(&f, "tests/interp/splash_shapes.pk");
		k = kernel_named(&f, name[w]);
		n = export_dims(k);
		BQ = (int)sema_param(k, "BQ");
		BKV = (int)sema_param(k, "BKV");
		t.fn = export_mask;
		t.ctx = export_mask_ctx(k);
		b = operands(k, 10);
		if (w == 2)
			ck_assert_int_eq(splash_mask_tables(n.H, n.Skv, n.Sq,
			    BKV, BQ, splash_transposed, &t, b[1].data,
			    b[0].data), 0);
		else
			ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv,
			    BQ, BKV, t.fn, t.ctx, b[1].data, b[0].data), 0);
		ck_assert_int_eq(((int32_t *)b[1].data)[4 * (n.Sq / BQ) + 4],
		    SPLASH_BLOCK_FULL);
		export_desc(k, b, w == 2);
		splash_test_segments(k, b);
		qs = splash_operand(k, "q_seg");
		interp_buf_set(&b[qs], 600, 1000);
		ck_assert_int_ne(interp_kernel(k, b, k->nop, &o, &f.d), 0);
		snprintf(want, sizeof want, "check failed at grid point %s: "
		    "the Splash tables were built for other segment ids",
		    at[w]);
		ck_assert_msg(strstr(diags(&f), want), "%s: %s", name[w],
		    diags(&f));
		free_operands(k, b);
		unload(&f);
	}
}
END_TEST

/* o and lse of one export of tests/interp/splash_blocks.pk (inputs from
   seed 10, the same for every export of the file), to free. */
static void
splash_block_run(Fixture *f, const char *name, float **o, float **lse,
    int64_t *len)
{
	const CKernel *k = kernel_named(f, name);
	SplashDims n = export_dims(k);
	InterpBuf *b = operands(k, 10);
	InterpOptions opt = {0};
	size_t no = (size_t)n.H * n.Sq * n.Dv, nl = (size_t)n.H * n.Sq;

	free(splash_prescale(&b[3], &n));
	ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv,
	    (int)sema_param(k, "BQ"), (int)sema_param(k, "BKV"), export_mask,
	    export_mask_ctx(k), b[1].data, b[0].data), 0);
	export_desc(k, b, 0);
	ck_assert_msg(interp_kernel(k, b, k->nop, &opt, &f->d) == 0, "%s",
	    diags(f));
	*o = xmalloc(no * sizeof(float));
	*lse = xmalloc(nl * sizeof(float));
	memcpy(*o, b[6].data, no * sizeof(float));
	memcpy(*lse, b[7].data, nl * sizeof(float));
	*len = (int64_t)nl;
	free_operands(k, b);
}

/* max |x - y| / max |y| over the finite y; x and y infinite together. */
static double
rel_diff(const float *x, const float *y, size_t n)
{
	double e = 0, m = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		ck_assert(isfinite(x[i]) == isfinite(y[i]));
		if (!isfinite(y[i]))
			continue;
		e = fmax(e, fabs((double)x[i] - y[i]));
		m = fmax(m, fabs((double)y[i]));
	}
	return m > 0 ? e / m : e;
}

/*
 * Block sizes from 128 to 1024, equal or not, agree within 1e-5 (f32);
 * and up to 2048 on S 2048, on v6e, whose VMEM holds them (v4's does
 * not: the checks refuse those exports there).
 */
static const struct {
	const char *preset, *name[6];
} splash_block_sets[] = {
	{ NULL, { "splash_blk_128", "splash_blk_256", "splash_blk_512",
	    "splash_blk_256_1024", "splash_blk_128_512",
	    "splash_blk_512_128" } },
	{ NULL, { "splash_blkl_128", "splash_blkl_512_256",
	    "splash_blkl_128_1024" } },
	{ "v6e", { "splash_blk2k_256", "splash_blk2k_2048_256",
	    "splash_blk2k_256_2048", "splash_blk2k_2048" } },
};

START_TEST(splash_block_sizes_agree)
{
	const char *const *set = splash_block_sets[_i].name;
	Fixture f;
	float *o0, *l0, *o, *l;
	int64_t nl;
	int i;

	load_for(&f, "tests/interp/splash_blocks.pk",
	    splash_block_sets[_i].preset);
	splash_block_run(&f, set[0], &o0, &l0, &nl);
	for (i = 1; i < 6 && set[i]; i++) {
		double eo, el;
		splash_block_run(&f, set[i], &o, &l, &nl);
		eo = rel_diff(o, o0, (size_t)nl * 32);
		el = rel_diff(l, l0, (size_t)nl);
		printf("splash %s against %s: o %.3g, lse %.3g\n", set[i],
		    set[0], eo, el);
		ck_assert_double_le(eo, 1e-5);
		ck_assert_double_le(el, 1e-5);
		free(o);
		free(l);
	}
	free(o0);
	free(l0);
	unload(&f);
}
END_TEST

/* Skipped steps repeat the K/V block index: no copy is made for them. */
START_TEST(splash_skipped_steps_fetch_nothing)
{
	int64_t in[8] = {0}, out[8] = {0};
	InterpStats st = {0};
	int32_t bm[16], dn[16];
	double eo, el;

	st.copy_in = in;
	st.copy_out = out;
	splash_case("tests/interp/splash_shapes.pk", "splash_h1_s512", &eo,
	    &el, &st);
	ck_assert_double_le(eo, 1e-5);
	splash_causal_tables(1, 512, 128, 128, bm, dn);
	ck_assert_int_eq(st.steps, 16);
	ck_assert_int_eq(in[3], 4);		/* q: once per query block */
	ck_assert_int_eq(in[4], splash_kv_fetches(1, 1, 4, 4, dn));
	ck_assert_int_eq(in[4], 9);		/* k: 9 of 16 steps */
	ck_assert_int_eq(in[5], 9);		/* v */
	ck_assert_int_eq(out[6], 4);		/* o, lse: once per row */
	ck_assert_int_eq(out[7], 4);
	ck_assert_int_eq(in[6], 0);
	ck_assert_int_eq(st.poisoned_out, 0);
}
END_TEST

/*
 * Runs the forward export 'fwd' for o and lse, then its backward exports
 * (splash_bwd_dq, giving dq and di, and splash_bwd_dkv, taking that di)
 * on a random upstream gradient, and gives the relative errors of dq,
 * dk, dv against splash_reference_vjp, and of splash_sinks_grad's dsinks
 * for an export with sinks (else 0).  The mask is the exports' own, or
 * causal_with_empty_rows if 'empty'.
 */
static void
splash_bwd_run(const char *file, const char *const name[3], int empty,
    double err[4])
{
	Fixture f;
	const CKernel *kf, *kq, *kk;
	InterpBuf *bf, *bq, *bk;
	InterpOptions o = {0};
	SplashDims n;
	int64_t BQ, BKV, nq, nkv, i;
	double *rq, *rk, *rv, rs[SPLASH_TEST_MAXH];
	float *q, *x[3], sinks[SPLASH_TEST_MAXH];
	int bq0, j;
	SplashTransposed t;

	load(&f, file);
	kf = kernel_named(&f, name[0]);
	kq = kernel_named(&f, name[1]);
	kk = kernel_named(&f, name[2]);
	n = export_dims(kf);
	BQ = sema_param(kf, "BQ");
	BKV = sema_param(kf, "BKV");
	for (i = 0; i < kf->nparam; i++) {
		ck_assert_int_eq(kq->param_val[i], kf->param_val[i]);
		ck_assert_int_eq(kk->param_val[i], kf->param_val[i]);
	}
	bq0 = (int)BQ;
	t.fn = empty ? causal_with_empty_rows : export_mask;
	t.ctx = empty ? (void *)&bq0 : export_mask_ctx(kf);
	nq = (int64_t)n.H * n.Sq;
	nkv = (int64_t)n.KVH * n.Skv;

	/* forward: o, lse */
	bf = operands(kf, 20);
	splash_test_sinks(kf, bf, &n, sinks);
	splash_test_segments(kf, bf);	/* dq and dkv copy them */
	splash_test_dense_blocks(kf, bf);
	q = splash_prescale(&bf[splash_operand(kf, "q")], &n);
	ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv, (int)BQ,
	    (int)BKV, t.fn, t.ctx, bf[1].data, bf[0].data), 0);
	export_desc(kf, bf, 0);
	ck_assert_msg(interp_kernel(kf, bf, kf->nop, &o, &f.d) == 0, "%s",
	    diags(&f));

	/* dq and di: tables, q, k, v, o, lse as the forward's; dout random */
	bq = operands(kq, 21);
	for (i = 0; i < kq->nop; i++)
		if (kq->op[i].role != ROLE_OUT &&
		    (j = splash_operand(kf, kq->op[i].name)) >= 0)
			copy_buf(&bq[i], &bf[j]);
	splash_test_dense_blocks(kq, bq);	/* partial_tr */
	ck_assert_msg(interp_kernel(kq, bq, kq->nop, &o, &f.d) == 0, "%s",
	    diags(&f));

	/* dk and dv: the transposed tables; q, k, v, lse as the forward's,
	   dout and di as dq's */
	bk = operands(kk, 22);
	ck_assert_int_eq(splash_mask_tables(n.H, n.Skv, n.Sq, (int)BKV,
	    (int)BQ, splash_transposed, &t, bk[1].data, bk[0].data), 0);
	export_desc(kk, bk, 1);
	splash_test_dense_blocks(kk, bk);
	for (i = 0; i < kk->nop; i++) {
		const char *nm = kk->op[i].name;
		if (kk->op[i].role != ROLE_IN)	/* tables: transposed */
			continue;
		if ((j = splash_operand(kq, nm)) >= 0 && (strcmp(nm, "dout")
		    == 0 || strcmp(nm, "di") == 0))
			copy_buf(&bk[i], &bq[j]);
		else if ((j = splash_operand(kf, nm)) >= 0)
			copy_buf(&bk[i], &bf[j]);
	}
	ck_assert_msg(interp_kernel(kk, bk, kk->nop, &o, &f.d) == 0, "%s",
	    diags(&f));

	rq = xmalloc((size_t)(nq * n.Dqk) * sizeof(double));
	rk = xmalloc((size_t)(nkv * n.Dqk) * sizeof(double));
	rv = xmalloc((size_t)(nkv * n.Dv) * sizeof(double));
	x[0] = splash_floats(&bf[splash_operand(kf, "k")]);
	x[1] = splash_floats(&bf[splash_operand(kf, "v")]);
	x[2] = splash_floats(&bq[splash_operand(kq, "dout")]);
	ck_assert_int_eq(splash_reference_vjp(&n, q, x[0], x[1], x[2], t.fn,
	    t.ctx, rq, rk, rv, n.sinks ? rs : NULL), 0);
	for (i = 0; i < 3; i++)
		free(x[i]);
	free(q);
	err[0] = rel_err_d("dq", bq[splash_operand(kq, "dq")].data, rq,
	    nq * n.Dqk);
	err[1] = rel_err_d("dk", bk[splash_operand(kk, "dk")].data, rk,
	    nkv * n.Dqk);
	err[2] = rel_err_d("dv", bk[splash_operand(kk, "dv")].data, rv,
	    nkv * n.Dv);
	err[3] = 0;
	if (n.sinks) {
		/* the library's dsinks from the kernels' lse and di */
		float ds[SPLASH_TEST_MAXH];
		ck_assert_int_eq(splash_sinks_grad(n.H, n.Sq, n.sinks,
		    bf[splash_operand(kf, "lse")].data,
		    bq[splash_operand(kq, "di")].data, ds), 0);
		err[3] = rel_err_d("dsinks", ds, rs, n.H);
	}
	printf("splash bwd %-18s H=%d KVH=%d Sq=%d Skv=%d Dqk=%d Dv=%d: max "
	    "rel err dq %.3g, dk %.3g, dv %.3g, dsinks %.3g\n", name[0], n.H,
	    n.KVH, n.Sq, n.Skv, n.Dqk, n.Dv, err[0], err[1], err[2], err[3]);
	free(rq);
	free(rk);
	free(rv);
	free_operands(kf, bf);
	free_operands(kq, bq);
	free_operands(kk, bk);
	unload(&f);
}

static const struct { const char *file, *name[3]; } splash_bwd_shapes[] = {
	{ "kernels/splash/splash.pk", { "splash_fwd_small",
	    "splash_bwd_dq_small", "splash_bwd_dkv_small" } },
	{ "kernels/splash/splash.pk", { "splash_fwd_h4_s512",
	    "splash_bwd_dq_h4_s512", "splash_bwd_dkv_h4_s512" } },
#define BWD(x) { "tests/interp/splash_shapes.pk", { x, x "_dq", x "_dkv" } }
	BWD("splash_h4_kv1_s256"),
	BWD("splash_full"),
	BWD("splash_causal_m40"),
	BWD("splash_causal_p17"),
	BWD("splash_local_48_0"),
	BWD("splash_local_20_36"),
	BWD("splash_local_inf_10"),
	BWD("splash_chunked_64"),
	BWD("splash_chunked_50"),
	BWD("splash_rect_causal"),
	BWD("splash_rect_local"),
	BWD("splash_d64_32"),
	BWD("splash_d96_64"),
	BWD("splash_bf16_causal"),
	BWD("splash_bf16_local"),
	BWD("splash_bf16_rect"),
	BWD("splash_cap_scale"),
	BWD("splash_bf16_cap_sinks"),
	BWD("splash_sinks"),
	BWD("splash_f32_fast"),
	BWD("splash_segments"),
	BWD("splash_dense"),
	BWD("splash_stored"),
#undef BWD
};

START_TEST(splash_bwd_vs_reference)
{
	double e[4], tol = splash_tol(splash_bwd_shapes[_i].name[0], 1);

	splash_bwd_run(splash_bwd_shapes[_i].file, splash_bwd_shapes[_i].name,
	    0, e);
	ck_assert_double_le(e[0], tol);
	ck_assert_double_le(e[1], tol);
	ck_assert_double_le(e[2], tol);
	ck_assert_double_le(e[3], tol);
}
END_TEST

/* Rows that keep no key have no gradient and make no NaN. */
START_TEST(splash_bwd_empty_rows)
{
	double e[4];

	splash_bwd_run("kernels/splash/splash.pk", splash_bwd_shapes[0].name,
	    1, e);
	ck_assert_double_le(e[0], 1e-5);
	ck_assert_double_le(e[1], 1e-5);
	ck_assert_double_le(e[2], 1e-5);
}
END_TEST

/*
 * The reference gradients against central differences of
 * splash_reference's loss sum(o * dout), on values and a step that
 * floats hold exactly (multiples of 2^-8, step 2^-12): 2 heads over one
 * KV head, 6 queries over 8 keys, Dqk 4, Dv 3, a causal mask offset by 2
 * that leaves row 0 of head 1 empty; plain logits, then scaled by 1.75
 * and soft-capped at 0.5 (which bends them: |q . k| reaches 1), then
 * that with sinks (their gradient too).
 */
enum { VH = 2, VSQ = 6, VSKV = 8, VDQK = 4, VDV = 3 };
static const float vjp_sinks[VH] = { 0.25f, -0.5f };
static const SplashDims vjp_cases[] = {
	{ VH, 1, VSQ, VSKV, VDQK, VDV, 0, 0, NULL },
	{ VH, 1, VSQ, VSKV, VDQK, VDV, 1.75, 0.5, NULL },
	{ VH, 1, VSQ, VSKV, VDQK, VDV, 1.75, 0.5, vjp_sinks },
};

static int
vjp_mask(void *ctx, int h, int q, int k)
{
	(void)ctx;
	return k <= q + 2 && !(h == 1 && q == 0) && !(q == 5 && k == 2);
}

static double
vjp_loss(const SplashDims *n, const float *q, const float *k,
    const float *v, const float *dout)
{
	double o[VH * VSQ * VDV], l = 0;
	int i;

	ck_assert_int_eq(splash_reference(n, q, k, v, vjp_mask, NULL, o,
	    NULL), 0);
	for (i = 0; i < VH * VSQ * VDV; i++)
		l += o[i] * dout[i];
	return l;
}

/* x[0..n) in multiples of 2^-6 in [-0.5, 0.5) */
static void
vjp_fill(float *x, int n, uint64_t *s)
{
	int i;

	for (i = 0; i < n; i++) {
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		x[i] = (float)((int)(*s >> 58) - 32) / 64;
	}
}

START_TEST(splash_vjp_finite_differences)
{
	enum { NQ = VH * VSQ * VDQK, NK = VSKV * VDQK, NV = VSKV * VDV };
	float q[NQ], k[NK], v[NV], dout[VH * VSQ * VDV], sk[VH];
	float *x[4] = { q, k, v, sk };
	double dq[NQ], dk[NK], dv[NV], dsk[VH], *g[4] = { dq, dk, dv, dsk };
	SplashDims d = vjp_cases[_i], *n = &d;
	const int len[4] = { NQ, NK, NV, d.sinks ? VH : 0 };
	const float eps = 1.0f / 4096;
	uint64_t s = 12345;
	int a, i;

	vjp_fill(q, NQ, &s);
	vjp_fill(k, NK, &s);
	vjp_fill(v, NV, &s);
	vjp_fill(dout, VH * VSQ * VDV, &s);
	if (d.sinks) {			/* perturbed below, as q, k, v */
		memcpy(sk, d.sinks, sizeof sk);
		d.sinks = sk;
	}
	ck_assert_int_eq(splash_reference_vjp(n, q, k, v, dout, vjp_mask,
	    NULL, dq, dk, dv, dsk), 0);
	for (a = 0; a < 4; a++)
		for (i = 0; i < len[a]; i++) {
			float x0 = x[a][i];
			double up, dn;
			x[a][i] = x0 + eps;
			up = vjp_loss(n, q, k, v, dout);
			x[a][i] = x0 - eps;
			dn = vjp_loss(n, q, k, v, dout);
			x[a][i] = x0;
			ck_assert_msg(fabs((up - dn) / (2 * eps) - g[a][i]) < 1e-5,
			    "operand %d [%d]: finite difference %g, vjp %g", a,
			    i, (up - dn) / (2 * eps), g[a][i]);
		}
	/* the empty row (head 1, row 0) has no gradient */
	for (i = 0; i < VDQK; i++)
		ck_assert(dq[VSQ * VDQK + i] == 0);
}
END_TEST

/* ------------------------------------------------------------ toy */

static void
bf16_round_all(float *x, int n)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = matmul_bf16_to_f32(matmul_f32_to_bf16(x[i]));
}

/* The toy in double, with dot's default precision: inputs to bf16. */
static void
toy_reference(const float *x, const float *w1, const float *w2, float *out)
{
	float xb[16 * 64], w1b[64 * 64], w2b[64 * 32], p[16 * 64];
	double h[16 * 64];
	int i, j, c;

	memcpy(xb, x, sizeof xb);
	memcpy(w1b, w1, sizeof w1b);
	memcpy(w2b, w2, sizeof w2b);
	bf16_round_all(xb, 16 * 64);
	bf16_round_all(w1b, 64 * 64);
	bf16_round_all(w2b, 64 * 32);
	for (i = 0; i < 16; i++) {
		double ms = 0, m = -INFINITY, s = 0;
		for (j = 0; j < 64; j++) {
			double acc = 0;
			for (c = 0; c < 64; c++)
				acc += (double)xb[i * 64 + c] * w1b[c * 64 + j];
			h[i * 64 + j] = acc;
			ms += acc * acc;
		}
		ms = sqrt(ms / 64 + 1e-6);
		for (j = 0; j < 64; j++) {
			h[i * 64 + j] /= ms;
			m = fmax(m, h[i * 64 + j]);
		}
		for (j = 0; j < 64; j++)
			s += exp(h[i * 64 + j] - m);
		for (j = 0; j < 64; j++)
			p[i * 64 + j] = (float)(exp(h[i * 64 + j] - m) / s);
	}
	bf16_round_all(p, 16 * 64);
	for (i = 0; i < 16; i++)
		for (j = 0; j < 32; j++) {
			double acc = 0;
			for (c = 0; c < 64; c++)
				acc += (double)p[i * 64 + c] * w2b[c * 32 + j];
			out[i * 32 + j] = (float)acc;
		}
}

START_TEST(toy_func_vs_reference)
{
	Fixture f;
	const CExport *e;
	InterpBuf a[3], r;
	float ref[16 * 32];
	int i;

	load(&f, "tests/interp/toy.pk");
	e = export_named(&f, "toy");
	ck_assert_ptr_nonnull(e->func);
	for (i = 0; i < 3; i++) {
		interp_buf_alloc(&a[i], e->func->param[i].name, DT_F32,
		    &e->func->param[i].shape);
		interp_fill(&a[i], INTERP_RANDOM, 20 + (uint64_t)i);
	}
	interp_buf_alloc(&r, "toy", DT_F32, &e->func->rshape);
	ck_assert_int_eq(interp_func(e->func, a, 3, &r, NULL, &f.d), 0);
	toy_reference(a[0].data, a[1].data, a[2].data, ref);
	/* p's bf16 rounding may fall either side: a few bf16 ulps of p */
	ck_assert_double_le(rel_err(r.data, ref, 16 * 32), 2e-3);
	for (i = 0; i < 3; i++)
		interp_buf_free(&a[i]);
	interp_buf_free(&r);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------------ checks */

/* Kernel name (SMEM table t: i32[4] first) with table t: 0 if it ran,
   else -1 with f's diagnostics. */
static int
run_table(Fixture *f, const char *name, const int32_t *t, InterpBuf **out)
{
	const CKernel *k = kernel_named(f, name);
	InterpBuf *b = operands(k, 30);

	memcpy(b[0].data, t, 4 * sizeof(int32_t));
	*out = b;
	return interp_kernel(k, b, k->nop, NULL, &f->d);
}

START_TEST(revisit_detected)
{
	static const int32_t ok[4] = { 0, 0, 1, 1 }, bad[4] = { 0, 1, 0, 1 };
	Fixture f;
	InterpBuf *b;
	const CKernel *k;

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "gather_rows");
	ck_assert_int_eq(run_table(&f, "gather_rows", ok, &b), 0);
	/* block 0 holds the last write into it: x rows 8..15, doubled */
	ck_assert(((float *)b[2].data)[5 * 128] ==
	    2 * ((float *)b[1].data)[13 * 128]);
	free_operands(k, b);
	ck_assert_int_eq(run_table(&f, "gather_rows", bad, &b), -1);
	ck_assert_msg(strstr(diags(&f), "error: output 'y' revisits block "
	    "(0, 0)"), "%s", diags(&f));
	ck_assert(strstr(diags(&f), "note: at grid point (i=2) of kernel "
	    "'gather_rows'"));
	free_operands(k, b);
	unload(&f);
}
END_TEST

/* Kernel name of file path with table t stops with one error, want. */
static void
table_fails(const char *path, const char *name, const int32_t *t,
    const char *want)
{
	Fixture f;
	InterpBuf *b;

	load(&f, path);
	ck_assert_int_eq(run_table(&f, name, t, &b), -1);
	ck_assert_msg(strstr(diags(&f), want), "%s", diags(&f));
	ck_assert_int_eq(f.d.nerror, 1);
	free_operands(kernel_named(&f, name), b);
	unload(&f);
}

START_TEST(block_index_out_of_range)
{
	static const int32_t bad[4] = { 0, 0, 2, 2 };

	table_fails("tests/interp/checks.pk", "gather_rows", bad,
	    "block index (2, 0) of 'y' is out of range");
}
END_TEST

START_TEST(dynamic_slice_out_of_bounds)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "dyn_rows");
	b = operands(k, 45);
	((int32_t *)b[0].data)[0] = 1;
	ck_assert_msg(interp_kernel(k, b, k->nop, NULL, &f.d) == 0, "%s",
	    diags(&f));
	ck_assert(((float *)b[2].data)[3] == ((float *)b[1].data)[8 * 128 + 3]);
	((int32_t *)b[0].data)[0] = 2;
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), -1);
	ck_assert_msg(strstr(diags(&f), "error: slice 16:24 is out of bounds "
	    "for dimension 0 of 'x' (size 16)"), "%s", diags(&f));
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(check_passes)
{
	static const int32_t ok[4] = { 3, 1, 7, 0 };
	Fixture f;
	InterpBuf *b;
	int i;

	load(&f, "tests/bounds/check.pk");
	ck_assert_msg(run_table(&f, "tbl", ok, &b) == 0, "%s", diags(&f));
	for (i = 0; i < 2 * 32 * 128; i++)
		ck_assert(((float *)b[2].data)[i] ==
		    ((float *)b[1].data)[i] + 1.0f);
	ck_assert_str_eq(diags(&f), "");
	free_operands(kernel_named(&f, "tbl"), b);
	unload(&f);
}
END_TEST

/* t[1] = 9 is not a row: the run stops at (h=0, i=1), at the check. */
START_TEST(check_fails)
{
	static const int32_t bad[4] = { 0, 9, 1, 2 };

	table_fails("tests/bounds/check.pk", "tbl", bad, "check.pk:16:5: "
	    "error: check failed at grid point (h=0, i=1): t[i] is not a row "
	    "of the block\n");
}
END_TEST

START_TEST(uninitialised_scratch_read)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "read_uninit");
	b = operands(k, 40);
	((int32_t *)b[0].data)[0] = 1;
	((int32_t *)b[0].data)[1] = 1;
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), 0);
	ck_assert(((float *)b[2].data)[9 * 128] ==
	    ((float *)b[1].data)[9 * 128] + 1);
	((int32_t *)b[0].data)[0] = 0;
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), -1);
	ck_assert_msg(strstr(diags(&f), "error: read of 'acc' before it was "
	    "written"), "%s", diags(&f));
	ck_assert(strstr(diags(&f), "(i=0)"));
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(unwritten_output_poisoned)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	InterpStats st = {0};
	InterpOptions o = {0};
	float *y;

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "half_write");
	b = operands(k, 50);
	o.stats = &st;
	o.warn_unwritten = 1;
	ck_assert_int_eq(interp_kernel(k, b, k->nop, &o, &f.d), 0);
	ck_assert_int_eq(st.poisoned_out, 8 * 128);
	ck_assert(strstr(diags(&f), "warning: 1024 of 2048 elements of "
	    "output 'y' were never written"));
	y = b[1].data;
	ck_assert(y[3 * 128 + 7] == ((float *)b[0].data)[3 * 128 + 7]);
	ck_assert(isnan(y[4 * 128]) && isnan(y[15 * 128 + 127]));
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(dma_through_scratch)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	int i;

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "dma_scale");
	b = operands(k, 60);
	ck_assert_msg(interp_kernel(k, b, k->nop, NULL, &f.d) == 0, "%s",
	    diags(&f));
	for (i = 0; i < 16 * 128; i++)
		ck_assert(((float *)b[1].data)[i] ==
		    3 * ((float *)b[0].data)[i]);
	free_operands(k, b);
	unload(&f);
}
END_TEST

START_TEST(func_calls_kernel)
{
	Fixture f;
	const CExport *e;
	InterpBuf x, r;
	int i;

	load(&f, "tests/interp/checks.pk");
	e = export_named(&f, "twice_plus_one");
	ck_assert_ptr_nonnull(e->func);
	interp_buf_alloc(&x, "x", DT_F32, &e->func->param[0].shape);
	interp_fill(&x, INTERP_RANDOM, 80);
	interp_buf_alloc(&r, "r", DT_F32, &e->func->rshape);
	ck_assert_msg(interp_func(e->func, &x, 1, &r, NULL, &f.d) == 0, "%s",
	    diags(&f));
	for (i = 0; i < 16 * 128; i++)
		ck_assert(((float *)r.data)[i] ==
		    2 * ((float *)x.data)[i] + 1);
	interp_buf_free(&x);
	interp_buf_free(&r);
	unload(&f);
}
END_TEST

START_TEST(wrong_buffers_rejected)
{
	Fixture f;
	const CKernel *k;
	InterpBuf *b;
	Shape s = { 2, { 8, 128 } };

	load(&f, "tests/interp/checks.pk");
	k = kernel_named(&f, "half_write");
	b = operands(k, 70);
	interp_buf_free(&b[0]);
	interp_buf_alloc(&b[0], "x", DT_F32, &s);
	ck_assert_int_eq(interp_kernel(k, b, k->nop, NULL, &f.d), -1);
	ck_assert_msg(strstr(diags(&f), "operand 'x' is f32[16, 128], but "
	    "the buffer given is f32[8, 128]"), "%s", diags(&f));
	free_operands(k, b);
	unload(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("interp");
	TCase *t = tcase_create("kernels");
	TCase *c = tcase_create("checks");

	/* the Splash cases run S 1024 problems: slow under the sanitizers */
	tcase_set_timeout(t, 900);
	tcase_add_test(t, matmul_bf16_inputs);
	tcase_add_test(t, matmul_bf16_output);
	tcase_add_test(t, matmul_f32_inputs);
	tcase_add_test(t, matmul_shuffled_order);
	tcase_add_test(t, splash_empty_rows_are_zero);
	tcase_add_loop_test(t, splash_masks_vs_reference, 0,
	    (int)countof(splash_shapes));
	tcase_add_test(t, splash_skipped_steps_fetch_nothing);
	tcase_add_test(t, splash_tables_of_another_mask_are_refused);
	tcase_add_test(t, splash_tables_of_other_segment_ids_are_refused);
	tcase_add_test(t, splash_stored_blocks_past_the_room_are_refused);
	tcase_add_loop_test(t, splash_block_sizes_agree, 0, 3);
	tcase_add_loop_test(t, splash_vjp_finite_differences, 0, 3);
	tcase_add_test(t, splash_bwd_empty_rows);
	tcase_add_loop_test(t, splash_bwd_vs_reference, 0,
	    (int)countof(splash_bwd_shapes));
	tcase_add_test(t, toy_func_vs_reference);
	suite_add_tcase(s, t);
	tcase_add_test(c, revisit_detected);
	tcase_add_test(c, block_index_out_of_range);
	tcase_add_test(c, dynamic_slice_out_of_bounds);
	tcase_add_test(c, check_passes);
	tcase_add_test(c, check_fails);
	tcase_add_test(c, uninitialised_scratch_read);
	tcase_add_test(c, unwritten_output_poisoned);
	tcase_add_test(c, dma_through_scratch);
	tcase_add_test(c, func_calls_kernel);
	tcase_add_test(c, wrong_buffers_rejected);
	suite_add_tcase(s, c);
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
