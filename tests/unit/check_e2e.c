/*
 * check_e2e.c - the end-to-end suite's kernels (tests/e2e/FEATURE.pk, one file
 * per feature) compiled in-process: every export of a file is compiled,
 * run on the simulator (small preset and v4, poison on, every check on)
 * and in interpret mode on the same random inputs, and the outputs
 * compared (tests/unit/vliwtest.h).  One Check test per file.  The same
 * kernels are linked into a C program and checked against plain C by
 * tests/e2e/run.sh.
 *
 * Needs top_srcdir in the environment (make check sets it).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"
#include "kernels/splash/splash_host.h"
#include "pallas/splash_mask.h"
#include "tests/unit/splashmask.h"

/*
 * PENDING: the features the backend does not lower yet.  A pending test
 * only checks that compiling its file still fails with "not supported by
 * the compiled path yet" on some preset; once the file compiles on every
 * preset that check fails, saying so: delete the name here to enable the test.
 * E2E_PENDING=run in the environment runs the pending tests for real.
 * Keep tests/e2e/run.sh's PENDING list the same.
 */
static const char *const pending[] = {
	/* e.g. "reduce", */
	NULL
};

static const char *const presets[] = { "small", "v4" };

/* The text of top_srcdir/tests/e2e/NAME; free() it. */
static char *
slurp(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *fp;
	char *text;
	long n;

	ck_assert_msg(top != NULL, "top_srcdir is not set");
	snprintf(path, sizeof path, "%s/tests/e2e/%s", top, name);
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	ck_assert(n > 0);
	rewind(fp);
	text = xmalloc((size_t)n + 1);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, fp), (size_t)n);
	text[n] = 0;
	fclose(fp);
	return text;
}

/* tests/e2e/FEATURE.pk with its #include "sizes.h" replaced by the text
   of sizes.h (the harness compiles from memory, without include
   directories); free() it. */
static char *
source(const char *feature)
{
	static const char inc[] = "#include \"sizes.h\"";
	char file[256], *pk, *sizes, *at, *src;
	size_t n;

	snprintf(file, sizeof file, "%s.pk", feature);
	pk = slurp(file);
	sizes = slurp("sizes.h");
	at = strstr(pk, inc);
	ck_assert_msg(at != NULL, "%s does not include sizes.h", file);
	n = strlen(pk) + strlen(sizes) + 1;
	src = xmalloc(n);
	snprintf(src, n, "%.*s%s%s", (int)(at - pk), pk, sizes,
	    at + sizeof inc - 1);
	free(pk);
	free(sizes);
	return src;
}

static int
is_pending(const char *feature)
{
	const char *run = getenv("E2E_PENDING");
	size_t i;

	if (run && strcmp(run, "run") == 0)
		return 0;
	for (i = 0; pending[i]; i++)
		if (strcmp(pending[i], feature) == 0)
			return 1;
	return 0;
}

/* A pending feature: the backend still refuses it on some preset, with
   its message and nothing else. */
static void
still_pending(const char *feature, const char *src)
{
	size_t k;
	int refused = 0;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		if (vt_compile(&u, src, presets[k]) != 0) {
			const char *m = strstr(u.text, "not supported by "
			    "the compiled path yet");
			ck_assert_msg(m != NULL, "%s on %s fails otherwise: %s",
			    feature, presets[k], u.text);
			printf("%s on %s: pending: %.*s\n", feature, presets[k],
			    (int)strcspn(m, "\n"), m);
			refused++;
		}
		vt_free(&u);
	}
	ck_assert_msg(refused > 0, "%s compiles on every preset now: remove it "
	    "from PENDING in tests/unit/check_e2e.c (and tests/e2e/run.sh)",
	    feature);
}

/*
 * Runs the exports entries (NULL-terminated) of tests/e2e/FEATURE.pk on
 * both presets against interpret mode, within tol; tables fills the SMEM
 * tables if not NULL.
 */
static void
feature(const char *name, const char *const *entries, double tol,
    void (*tables)(const CKernel *, InterpBuf *, void *))
{
	VtOpts o = { .tol = tol, .seed = 1, .tables = tables };
	char *src = source(name);
	size_t k;

	if (is_pending(name)) {
		still_pending(name, src);
		free(src);
		return;
	}
	for (k = 0; k < countof(presets); k++) {
		const char *const *e;
		for (e = entries; *e; e++)
			vt_check(src, presets[k], *e, &o, NULL);
	}
	free(src);
}

#define FEATURE(name, tol, tables, ...)					\
	START_TEST(name)						\
	{								\
		static const char *const e[] = { __VA_ARGS__, NULL };	\
		feature(#name, e, tol, tables);				\
	}								\
	END_TEST

/* smem.pk's tables: t a permutation of the row blocks with fixed points
   (t[i] == i adds 100), w a scale per block (divide.pk's w too). */
static void
gather_tables(const CKernel *k, InterpBuf *b, void *arg)
{
	int i, j;

	(void)arg;
	for (i = 0; i < k->nop; i++) {
		int64_t n = shape_numel(&b[i].shape);
		if (k->op[i].role != ROLE_SMEM_TABLE)
			continue;
		for (j = 0; j < n; j++)
			interp_buf_set(&b[i], j, strcmp(b[i].name, "t") == 0 ?
			    (j == 0 ? n - 1 : j == n - 1 ? 0 : j) : 0.5 + j);
	}
}

FEATURE(elementwise, 1e-6, NULL, "ew_f32", "ew_i32")
FEATURE(iota, 0, NULL, "iota_mask")
FEATURE(control, 0, NULL, "branches", "loops")
FEATURE(matmul, 1e-5, NULL, "mm_f32_tb", "mm_bf16", "mm_bf16_tb")
FEATURE(squeeze, 0, NULL, "squeeze_lead")
FEATURE(smem, 0, gather_tables, "gather")
FEATURE(scratch, 1e-6, NULL, "accumulate")
FEATURE(buffering, 0, NULL, "buf_single", "buf_double", "buf_mixed")
FEATURE(views, 0, NULL, "col_views", "elem_offsets")
FEATURE(dma, 0, NULL, "dma_rows")
FEATURE(eup, 1e-5, NULL, "ew_math")
FEATURE(reduce, 1e-5, NULL, "reduce_rows", "reduce_cols")
FEATURE(broadcast, 0, NULL, "bcast")
FEATURE(transpose, 0, NULL, "transpose_blocks")
FEATURE(roll, 0, NULL, "roll_blocks")
FEATURE(squeeze_mid, 0, NULL, "squeeze_mid")
FEATURE(bf16, 0, NULL, "ew_bf16")
FEATURE(divide, 1e-6, gather_tables, "div_i32", "div_f32")
FEATURE(narrow, 0, NULL, "ew_bool", "ew_i8")
FEATURE(unaligned, 0, NULL, "wide", "narrow_cols", "odd_rows", "dma_wide")
FEATURE(dtype_params, 0, NULL, "scale_bf16", "scale_f32")

/* ------------------------------------------------------------ Splash */


/*
 * A backward kernel's inputs as a forward pass would leave them (random
 * ones would make exp(s - lse) overflow): q scaled by 1/sqrt(D), then o,
 * lse and di = rowsum(dout * o) of the reference forward pass with the
 * export's mask.
 */
static void
bwd_inputs(const CKernel *k, InterpBuf *b)
{
	SplashDims n = export_dims(k);
	int64_t nq = (int64_t)n.H * n.Sq, i, d;
	float sinks[SPLASH_TEST_MAXH];
	int io = splash_operand(k, "o"), il = splash_operand(k, "lse");
	int idi = splash_operand(k, "di"), ido = splash_operand(k, "dout");
	float *q, *kf, *vf;
	double *o = xmalloc((size_t)(nq * n.Dv) * sizeof(double));
	double *lse = xmalloc((size_t)nq * sizeof(double));

	splash_test_sinks(k, NULL, &n, sinks);	/* the forward's */
	q = splash_prescale(&b[splash_operand(k, "q")], &n);
	kf = splash_floats(&b[splash_operand(k, "k")]);
	vf = splash_floats(&b[splash_operand(k, "v")]);
	ck_assert_int_eq(splash_reference(&n, q, kf, vf, export_mask,
	    export_mask_ctx(k), o, lse), 0);
	for (i = 0; i < nq; i++) {
		double di = 0;
		interp_buf_set(&b[il], i, lse[i]);
		for (d = 0; d < n.Dv; d++) {
			di += o[i * n.Dv + d] *
			    interp_buf_get(&b[ido], i * n.Dv + d);
			if (io >= 0)
				interp_buf_set(&b[io], i * n.Dv + d,
				    o[i * n.Dv + d]);
		}
		if (idi >= 0 && k->op[idi].role != ROLE_OUT)
			interp_buf_set(&b[idi], i, di);
	}
	free(q);
	free(kf);
	free(vf);
	free(o);
	free(lse);
}

/* The block_mask and data_next tables of the mask the export applies
   (its MASK, MA, MB, MC: tests/unit/splashmask.h), or their transposes
   block_mask_t and data_next_t for a dKV kernel; a backward kernel's
   inputs as bwd_inputs. */
static void
causal_tables(const CKernel *k, InterpBuf *b, void *arg)
{
	int i, bm = -1, dn = -1, t = 0;
	SplashDims n = export_dims(k);
	float sinks[SPLASH_TEST_MAXH];
	int BQ = (int)sema_param(k, "BQ"), BKV = (int)sema_param(k, "BKV");
	SplashTransposed tr = { export_mask, export_mask_ctx(k) };

	(void)arg;
	for (i = 0; i < k->nop; i++) {
		const char *name = k->op[i].name;
		if (strncmp(name, "block_mask", 10) == 0)
			bm = i;
		else if (strncmp(name, "data_next", 9) == 0)
			dn = i;
		else
			continue;	/* mask_desc, sinks, the arrays */
		t = strcmp(name, "block_mask_t") == 0 ||
		    strcmp(name, "data_next_t") == 0;
	}
	ck_assert(bm >= 0 && dn >= 0);
	if (t)
		ck_assert_int_eq(splash_mask_tables(n.H, n.Skv, n.Sq, BKV, BQ,
		    splash_transposed, &tr, b[bm].data, b[dn].data), 0);
	else
		ck_assert_int_eq(splash_mask_tables(n.H, n.Sq, n.Skv, BQ, BKV,
		    export_mask, tr.ctx, b[bm].data, b[dn].data), 0);
	export_desc(k, b, t);
	splash_test_sinks(k, b, &n, sinks);	/* a forward's operand */
	splash_test_segments(k, b);
	splash_test_dense_blocks(k, b);
	if (splash_operand(k, "lse") >= 0 &&
	    k->op[splash_operand(k, "lse")].role == ROLE_IN)
		bwd_inputs(k, b);
}

/* The causal tables with no block to run for query block 1 of head 0:
   its rows keep no key (o = 0, lse = -inf in both modes, no NaN). */
static void
empty_row_tables(const CKernel *k, InterpBuf *b, void *arg)
{
	int i, bm = -1, j, nk;

	causal_tables(k, b, arg);
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE &&
		    strcmp(k->op[i].name, "block_mask") == 0)
			bm = i;
	nk = (int)k->op[bm].shape.d[2];
	for (j = 0; j < nk; j++)
		((int32_t *)b[bm].data)[nk + j] = 0;
}

/* kernels/splash/splash.pk compiled and simulated against interpret
   mode with a causal mask, forward and backward: small (2 heads over 1
   KV head, S 256, 32-row blocks) and v4 (2:1, S 256, and 4:2, S 512,
   128-row blocks).  The EUP
   exp and reciprocal differ from the host's by a few ulps. */
START_TEST(splash)
{
	static const char *const small[] = { "splash_fwd_small",
		"splash_bwd_dq_small", "splash_bwd_dkv_small", NULL };
	static const char *const v4[] = { "splash_fwd_small",
		"splash_fwd_h4_s512", "splash_bwd_dq_h4_s512",
		"splash_bwd_dkv_h4_s512", NULL };
	VtOpts o = { .tol = 1e-5, .seed = 3, .tables = causal_tables };
	char *src = slurp("../../kernels/splash/splash.pk");
	VtUnit us, u4;
	int i;

	/* one compile per preset: minutes under the sanitizers */
	ck_assert_msg(vt_compile(&us, src, "small") == 0, "%s", us.text);
	ck_assert_msg(vt_compile(&u4, src, "v4") == 0, "%s", u4.text);
	for (i = 0; small[i]; i++)
		vt_check_unit(&us, "small", small[i], &o, NULL);
	for (i = 0; v4[i]; i++)
		vt_check_unit(&u4, "v4", v4[i], &o, NULL);
	o.tables = empty_row_tables;
	vt_check_unit(&us, "small", "splash_fwd_small", &o, NULL);
	vt_check_unit(&u4, "v4", "splash_fwd_small", &o, NULL);
	vt_roundtrip(&us);
	vt_roundtrip(&u4);
	vt_free(&us);
	vt_free(&u4);
	free(src);
}
END_TEST

/*
 * What a Splash run on the simulator must cost, from its export and the
 * tables: the MXU flops of the blocks the mask keeps (counted from the
 * mask itself, element by element) and, for the forward kernel, the HBM
 * bytes of a pipeline that fetches nothing for skipped steps.
 */
typedef struct {
	uint64_t flops, read, written;	/* read, written: forward only */
} SplashCost;

/* The blocks of the grid (h, i, j) with at least one kept element. */
static long
kept_blocks(const CKernel *k, SplashDims n, int BQ, int BKV)
{
	void *ctx = export_mask_ctx(k);
	long c = 0;
	int h, i, j, q, kk;

	for (h = 0; h < n.H; h++)
		for (i = 0; i < n.Sq / BQ; i++)
			for (j = 0; j < n.Skv / BKV; j++) {
				int any = 0;
				for (q = i * BQ; q < (i + 1) * BQ && !any; q++)
					for (kk = j * BKV; kk < (j + 1) * BKV &&
					    !any; kk++)
						any = export_mask(ctx, h, q, kk);
				c += any;
			}
	return c;
}

static void
cost_tables(const CKernel *k, InterpBuf *b, void *arg)
{
	SplashCost *c = arg;
	SplashDims n = export_dims(k);
	uint64_t BQ = (uint64_t)sema_param(k, "BQ");
	uint64_t BKV = (uint64_t)sema_param(k, "BKV");
	uint64_t nq = (uint64_t)n.Sq / BQ, nk = (uint64_t)n.Skv / BKV;
	uint64_t blk = 2 * BQ * BKV, run;
	uint64_t e = (uint64_t)interp_elem_size(k->op[splash_operand(k, "q")].dtype);
	long kvf;

	causal_tables(k, b, NULL);
	run = (uint64_t)kept_blocks(k, n, (int)BQ, (int)BKV);
	if (splash_operand(k, "dout") < 0) {		/* forward */
		kvf = splash_kv_fetches(n.H, n.KVH, (int)nq, (int)nk,
		    b[0].data);
		ck_assert(kvf > 0);
		c->flops = run * blk * (uint64_t)(n.Dqk + n.Dv);
		c->read = 2 * n.H * nq * nk * 4 + 10 * 4 +	/* mask_desc */
		    (splash_operand(k, "sinks") >= 0 ? n.H * 4 : 0) +
		    /* ids: a q block per row, a kv block per step */
		    (splash_operand(k, "q_seg") >= 0 ? n.H * (n.Sq +
		    nq * n.Skv) * 4 : 0) +
		    /* stored blocks: mask_next, and a block once per
		       change of its index */
		    (splash_operand(k, "partial") >= 0 ? n.H * nq * nk * 4 +
		    (uint64_t)splash_kv_fetches(n.H, 1, (int)nq, (int)nk,
		    b[splash_operand(k, "mask_next")].data) * BQ * BKV : 0) +
		    n.H * nq * BQ * n.Dqk * e +
		    (uint64_t)kvf * BKV * (uint64_t)(n.Dqk + n.Dv) * e;
		c->written = (uint64_t)n.H * n.Sq * (uint64_t)(n.Dv + 1) * 4;
	} else if (splash_operand(k, "dq") >= 0)	/* s, dp, dq */
		c->flops = run * blk * (uint64_t)(2 * n.Dqk + n.Dv);
	else					/* s, dp, dv, dk */
		c->flops = run * blk * (uint64_t)(2 * n.Dqk + 2 * n.Dv);
}

/* entry of u (compiled for small) against interpret mode (within tol),
   and at the cost above. */
static void
splash_cost_check(VtUnit *u, const char *entry, double tol)
{
	SplashCost c = {0};
	VtOpts o = { .tol = tol, .seed = 5, .tables = cost_tables,
		.arg = &c };
	VtResult r;

	vt_check_unit(u, "small", entry, &o, &r);
	ck_assert_msg(r.st.c.mxu_flops == c.flops, "%s: %llu MXU flops, the "
	    "kept blocks make %llu", entry,
	    (unsigned long long)r.st.c.mxu_flops,
	    (unsigned long long)c.flops);
	if (c.read)
		ck_assert_msg(r.st.c.hbm_read_bytes == c.read &&
		    r.st.c.hbm_write_bytes == c.written, "%s: HBM %llu bytes "
		    "read, %llu written; want %llu and %llu", entry,
		    (unsigned long long)r.st.c.hbm_read_bytes,
		    (unsigned long long)r.st.c.hbm_write_bytes,
		    (unsigned long long)c.read, (unsigned long long)c.written);
}

/* splash_fwd_small compiled for small, given the tables of local:20,36,3
   (built by the library): the kernel's check of mask_desc stops it, and
   the C caller gets PALLAS_ECHECK with the message, not wrong numbers. */
START_TEST(splash_tables_of_another_mask_trap)
{
	static float q[2 * 256 * 32], kv[256 * 32], o[2 * 256 * 32], l[512];
	const char *want = "check failed at grid point (h=0, i=0, j=0): the "
	    "Splash tables were built for another mask, shapes or block sizes";
	char *src = slurp("../../kernels/splash/splash.pk");
	SplashMask *m = splash_mask_local(20, 36, 3);
	SplashMaskInfo info;
	PallasTrap tr;
	void *bufs[8];
	char err[256];
	VtUnit u;

	ck_assert_msg(vt_compile(&u, src, "small") == 0, "%s", u.text);
	ck_assert_int_eq(splash_mask_info(m, 2, 256, 256, 32, 32, 0, &info,
	    NULL, 0), 0);
	bufs[0] = info.data_next;
	bufs[1] = info.block_mask;
	bufs[2] = info.desc;
	bufs[3] = q;
	bufs[4] = bufs[5] = kv;
	bufs[6] = o;
	bufs[7] = l;
	vt_run_check(&u, "splash_fwd_small", bufs, 8, &tr, err, sizeof err);
	ck_assert_str_eq(tr.reason, want);
	splash_mask_info_free(&info);
	splash_mask_free(m);
	vt_free(&u);
	free(src);
}
END_TEST

/* The Splash kernels followed by the exports of file (which includes
   them): the text has no file name to include from.  To free. */
static char *
splash_with(const char *file)
{
	char *kern = slurp("../../kernels/splash/splash.pk");
	char *exports = slurp(file);
	char *inc = strstr(exports, "#include"), *src;

	ck_assert_ptr_nonnull(inc);
	memcpy(inc, "//", 2);
	src = xmalloc(strlen(kern) + strlen(exports) + 2);
	sprintf(src, "%s\n%s", kern, exports);
	free(kern);
	free(exports);
	return src;
}

/*
 * Export entry of u (a SEGMENTS kernel) given the tests' tables but ids
 * of which one, in a full block on the diagonal, moved to a segment of
 * its own: the compiled kernel stops, the caller gets PALLAS_ECHECK, and
 * the trap's reason is interpret mode's message.
 */
static void
segment_ids_trap(VtUnit *u, const char *entry)
{
	const CKernel *k = vt_kernel(u, entry);
	InterpBuf *b = xcalloc((size_t)k->nop + 1, sizeof *b);
	void **bufs = xcalloc((size_t)k->nop + 1, sizeof *bufs);
	int i, nq = (int)(sema_param(k, "SQ") / sema_param(k, "BQ"));
	int BQ = (int)sema_param(k, "BQ");
	const char *want = "the Splash tables were built for other segment "
	    "ids";
	PallasTrap tr;
	size_t before;
	char err[256];

	for (i = 0; i < k->nop; i++) {
		interp_buf_alloc(&b[i], k->op[i].name, k->op[i].dtype,
		    &k->op[i].shape);
		if (k->op[i].role == ROLE_IN)
			interp_fill(&b[i], INTERP_RANDOM, 7 + (uint64_t)i);
	}
	causal_tables(k, b, NULL);
	for (i = 0; i < nq && ((int32_t *)b[1].data)[i * nq + i] !=
	    SPLASH_BLOCK_FULL; i++)
		;
	ck_assert_int_lt(i, nq);
	interp_buf_set(&b[splash_operand(k, "q_seg")], i * BQ + BQ / 2, 1000);
	for (i = 0; i < k->nop; i++)
		bufs[i] = b[i].data;
	vt_run_check(u, entry, bufs, (size_t)k->nop, &tr, err, sizeof err);
	ck_assert_msg(strstr(tr.reason, want), "%s: %s", entry, tr.reason);
	fflush(u->out);
	before = u->len;
	ck_assert_int_ne(interp_kernel(k, b, k->nop, NULL, &u->d), 0);
	fflush(u->out);
	ck_assert_msg(strstr(u->text + before, tr.reason), "%s: compiled: "
	    "%s; interpreted: %s", entry, tr.reason, u->text + before);
	for (i = 0; i < k->nop; i++)
		interp_buf_free(&b[i]);
	free(b);
	free(bufs);
}

/* Each mask kind the kernel applies, Sq != Skv and Dqk != Dv, bf16,
   soft-cap and sinks (tests/interp/splash_shapes.pk), forward and
   backward, compiled for small, v4 and v6e, against interpret mode; on
   small, the blocks that run and the bytes copied as splash_cost_check,
   and segment ids that differ from the tables' as segment_ids_trap. */
START_TEST(splash_masks)
{
	static const char *const e[] = { "splash_full", "splash_causal_m40",
		"splash_causal_p17", "splash_local_48_0", "splash_local_20_36",
		"splash_local_inf_10", "splash_chunked_64",
		"splash_chunked_50", "splash_rect_causal", "splash_rect_local",
		"splash_d64_32", "splash_d96_64", "splash_bf16_causal",
		"splash_bf16_local", "splash_bf16_rect", "splash_cap_scale",
		"splash_bf16_cap_sinks", "splash_sinks", "splash_f32_fast",
		"splash_segments", "splash_dense", "splash_stored", NULL };
	VtOpts o = { .tol = 1e-5, .seed = 5, .tables = causal_tables };
	char *src = splash_with("../../tests/interp/splash_shapes.pk");
	VtUnit small, v4, v6e;
	int i;

	/* one compile per preset for every export */
	ck_assert_msg(vt_compile(&small, src, "small") == 0, "%s", small.text);
	ck_assert_msg(vt_compile(&v4, src, "v4") == 0, "%s", v4.text);
	ck_assert_msg(vt_compile(&v6e, src, "v6e") == 0, "%s", v6e.text);
	for (i = 0; e[i]; i++) {
		char name[3][64];
		int j;
		snprintf(name[0], sizeof name[0], "%s", e[i]);
		snprintf(name[1], sizeof name[1], "%s_dq", e[i]);
		snprintf(name[2], sizeof name[2], "%s_dkv", e[i]);
		/* bf16, and f32 dots at the default precision ("fast"): p
		   (or ds) rounds to bf16 before its dot, and the EUP's exp
		   differs from the host's by ulps, so a value may round the
		   other way */
		o.tol = strstr(e[i], "bf16") || strstr(e[i], "fast") ? 2e-3 :
		    1e-5;
		for (j = 0; j < 3; j++) {
			splash_cost_check(&small, name[j], o.tol);
			vt_check_unit(&v4, "v4", name[j], &o, NULL);
			vt_check_unit(&v6e, "v6e", name[j], &o, NULL);
		}
	}
	segment_ids_trap(&small, "splash_segments");
	segment_ids_trap(&small, "splash_segments_dq");
	segment_ids_trap(&small, "splash_segments_dkv");
	vt_roundtrip(&small);
	vt_free(&small);
	vt_free(&v4);
	vt_free(&v6e);
	free(src);
}
END_TEST

/* Blocks of 2048 rows or keys (tests/interp/splash_blocks.pk), compiled
   for v6e, whose VMEM holds them, against interpret mode. */
START_TEST(splash_blocks_2048)
{
	static const char *const e[] = { "splash_blk2k_256",
		"splash_blk2k_2048_256", "splash_blk2k_256_2048",
		"splash_blk2k_2048" };
	VtOpts o = { .tol = 1e-5, .seed = 5, .tables = causal_tables };
	char *src = splash_with("../../tests/interp/splash_blocks.pk");
	VtUnit v6e;
	size_t i;

	ck_assert_msg(vt_compile(&v6e, src, "v6e") == 0, "%s", v6e.text);
	for (i = 0; i < sizeof e / sizeof *e; i++)
		vt_check_unit(&v6e, "v6e", e[i], &o, NULL);
	vt_free(&v6e);
	free(src);
}
END_TEST

/*
 * A check statement compiled: with the zero table it holds and the run
 * gives interpret mode's outputs; with t[1] = 9 the entry point returns
 * PALLAS_ECHECK, and the trap's reason is interpret mode's message with
 * the grid point (tests/bounds/run.sh checks pallasc --run's).
 */
static const char check_src[] =
    "kernel guarded(smem t: i32[4], x: f32[2, 32, 128],\n"
    "    out z: f32[2, 32, 128])\n"
    "grid (h: 2, i: 4)\n"
    "blocks { x: [_, 8, 128] at (h, i, 0); z: [_, 8, 128] at (h, i, 0); }\n"
    "{\n"
    "    check(t[i] >= 0 && t[i] < 4, \"t[i] is not a block of x\");\n"
    "    z[...] = x[...] * 2.0;\n"
    "}\n"
    "export guarded;\n";

static void
check_traps(VtUnit *u)
{
	static const int32_t bad[4] = { 0, 9, 0, 0 };
	static float x[2 * 32 * 128], z[2 * 32 * 128];
	const char *want = "check failed at grid point (h=0, i=1): t[i] is "
	    "not a block of x";
	void *bufs[3] = { (void *)bad, x, z };
	PallasTrap tr;
	char err[512];

	vt_run_check(u, "guarded", bufs, 3, &tr, err, sizeof err);
	ck_assert_str_eq(tr.reason, want);
	ck_assert_msg(strstr(err, want), "%s", err);
}

START_TEST(check_stmt)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		vt_check(check_src, presets[k], "guarded", NULL, NULL);
		ck_assert_msg(vt_compile(&u, check_src, presets[k]) == 0, "%s",
		    u.text);
		check_traps(&u);
		vt_free(&u);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("e2e");
	TCase *t = tcase_create("kernels"), *m;

	tcase_set_timeout(t, 600);
	tcase_add_test(t, elementwise);
	tcase_add_test(t, iota);
	tcase_add_test(t, control);
	tcase_add_test(t, matmul);
	tcase_add_test(t, squeeze);
	tcase_add_test(t, smem);
	tcase_add_test(t, scratch);
	tcase_add_test(t, buffering);
	tcase_add_test(t, views);
	tcase_add_test(t, dma);
	tcase_add_test(t, eup);
	tcase_add_test(t, reduce);
	tcase_add_test(t, divide);
	tcase_add_test(t, broadcast);
	tcase_add_test(t, transpose);
	tcase_add_test(t, roll);
	tcase_add_test(t, squeeze_mid);
	tcase_add_test(t, bf16);
	tcase_add_test(t, narrow);
	tcase_add_test(t, unaligned);
	tcase_add_test(t, dtype_params);
	tcase_add_test(t, check_stmt);
	tcase_add_test(t, splash_tables_of_another_mask_trap);

	suite_add_tcase(s, t);
	/* three compiles of a program of every mask's export and 171
	   runs: minutes under the sanitizers */
	m = tcase_create("splash_masks");
	tcase_set_timeout(m, 1200);
	tcase_add_test(m, splash);
	tcase_add_test(m, splash_masks);
	tcase_add_test(m, splash_blocks_2048);
	suite_add_tcase(s, m);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
