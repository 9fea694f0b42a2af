/*
 * check_sema.c - unit tests of dsl/sema/ algorithms: exact index-map
 * evaluation (with SMEM tables), revisit enumeration, the inference of
 * the axes that carry state, budget arithmetic, the largest-fitting
 * block suggestion, the HBM check's boundary and per-export budgets,
 * and the dtypes of instances with dtype parameters.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dsl/sema/sema.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	FILE *out;
	CheckedModule *cm;
} Fx;

static Fx fx;

static TokKind
src(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* Checks src under preset (for export entry alone, unless NULL);
   returns the number of errors. */
static int
check_src_entry(const char *text, const char *preset, const char *entry)
{
	PP *pp;
	Ast *m;

	memset(&fx, 0, sizeof fx);
	srcmgr_init(&fx.sm);
	strtab_init(&fx.strs, &fx.a);
	fx.out = tmpfile();
	diag_init(&fx.d, &fx.sm, fx.out);
	fx.d.color = 0;
	pp = pp_new(&fx.d, &fx.strs, &fx.a);
	pp_push_text(pp, "t.pk", text, strlen(text));
	m = parse_module(src, pp, &fx.d, &fx.a);
	ck_assert_int_eq(fx.d.nerror, 0);
	fx.cm = sema_check_entry(m, mach_preset(preset), entry, &fx.d, &fx.a);
	pp_free(pp);
	return fx.d.nerror;
}

static int
check_src(const char *text, const char *preset)
{
	return check_src_entry(text, preset, NULL);
}

static void
done(void)
{
	fclose(fx.out);
	strtab_free(&fx.strs);
	srcmgr_free(&fx.sm);
	arena_free(&fx.a);
}

/* The diagnostics text, for asserting on messages. */
static const char *
messages(void)
{
	static char buf[8192];
	size_t n;

	rewind(fx.out);
	n = fread(buf, 1, sizeof buf - 1, fx.out);
	buf[n] = 0;
	return buf;
}

static const char gqa[] =
"kernel g<H, KVH>(smem nxt: i32[H, 4], q: f32[H, 512, 128],\n"
"    k: f32[KVH, 512, 128], out o: f32[H, 512, 128])\n"
"grid (h: H, i: 4)\n"
"semantics (parallel, arbitrary)\n"
"blocks { q: [_, 128, 128] at (h, i, 0);\n"
"    k: [_, 128, 128] at (h / (H / KVH), nxt[h, i], 0);\n"
"    o: [_, 128, 128] at (h, i, 0); }\n"
"{ o[...] = dot(q[...], k[...], trans_b); }\n"
"export g<8, 2>;\n";

static int
table(void *ctx, int op, const int64_t *idx, int64_t *v)
{
	(void)ctx;
	ck_assert_int_eq(op, 0);
	*v = 3 - idx[1];	/* nxt[h, i] = 3 - i */
	return 0;
}

START_TEST(map_eval_exact)
{
	CKernel *k;
	int64_t pt[2], start[3], v;

	ck_assert_int_eq(check_src(gqa, "v4"), 0);
	k = fx.cm->exp[0].kernel;
	ck_assert_int_eq(k->op[2].runtime_check, 1);	/* reads nxt */
	ck_assert_int_eq(k->op[1].runtime_check, 0);
	pt[0] = 5;	/* h = 5 -> KV head 5 / (8 / 2) = 1 */
	pt[1] = 1;
	ck_assert_int_eq(sema_block_start(k, 1, pt, NULL, NULL, start), 0);
	ck_assert_int_eq(start[0], 5);
	ck_assert_int_eq(start[1], 128);
	ck_assert_int_eq(sema_block_start(k, 2, pt, NULL, NULL, start),
	    SEMA_EVAL_UNKNOWN);
	ck_assert_int_eq(sema_block_start(k, 2, pt, table, NULL, start), 0);
	ck_assert_int_eq(start[0], 1);
	ck_assert_int_eq(start[1], 2 * 128);
	ck_assert_int_eq(sema_eval_int(k, k->op[2].map[0], pt, NULL, NULL,
	    NULL, &v), 0);
	ck_assert_int_eq(v, 1);
	done();
}
END_TEST

START_TEST(map_counterexample)
{
	static const char s[] =
	"kernel c(x: f32[512, 128], out z: f32[512, 128])\n"
	"grid (i: 2, j: 3)\n"
	"blocks { x: [128, 128] at (i + j, 0); z: [128, 128] at (i * 3 + j, 0); }\n"
	"{ z[...] = x[...]; }\n";

	ck_assert_int_eq(check_src(s, "v4"), 1);
	/* x: i + j <= 3 stays inside; z: 3 * i + j = 4 first at (1, 1). */
	ck_assert_ptr_nonnull(strstr(messages(), "at grid point (i=1, j=1) "
	    "the block index 4 of 'z' dim 0 is outside [0, 4)"));
	done();
}
END_TEST

START_TEST(revisit_enumeration)
{
	static const char ok[] =
	"kernel r(x: f32[256, 256], out z: f32[256, 128])\n"
	"grid (i: 2, k: 2)\n"
	"blocks { x: [128, 128] at (i, k); z: [128, 128] at (i, 0); }\n"
	"{ when (k == 0) { z[...] = 0.0; } z[...] += x[...]; }\n";
	static const char bad[] =
	"kernel r(x: f32[256, 256], out z: f32[256, 128])\n"
	"grid (k: 2, i: 2)\n"
	"blocks { x: [128, 128] at (i, k); z: [128, 128] at (i, 0); }\n"
	"{ z[...] = x[...]; }\n";
	CKernel *k;

	ck_assert_int_eq(check_src(ok, "v4"), 0);
	k = fx.cm->local[0].kernel;
	ck_assert_int_eq(fx.cm->nlocal, 1);
	ck_assert_int_eq(revisit_output(&(Sema){ .d = &fx.d, .a = &fx.a,
	    .mp = mach_preset("v4") }, k, &k->op[1]), 0);
	done();
	ck_assert_int_eq(check_src(bad, "v4"), 1);
	ck_assert_ptr_nonnull(strstr(messages(), "output 'z' revisits block "
	    "(0, 0) at grid point (k=1, i=0)"));
	ck_assert_ptr_nonnull(strstr(messages(), "after grid point (k=0, i=0)"));
	done();
}
END_TEST

START_TEST(carry_inference)
{
	static const char s[] =
	"kernel m(x: f32[256, 256], y: f32[256, 256], out z: f32[256, 256])\n"
	"grid (i: 2, j: 2, k: 2)\n"
	"blocks { x: [128, 128] at (i, k); y: [128, 128] at (k, j);\n"
	"    z: [128, 128] at (i, j); }\n"
	"scratch { acc: f32[128, 128]; }\n"
	"{ when (k == 0) { acc[...] = 0.0; }\n"
	"  acc[...] += dot(x[...], y[...]);\n"
	"  when (k == num_programs(k) - 1) { z[...] = acc[...]; } }\n";
	CKernel *k;

	ck_assert_int_eq(check_src(s, "v4"), 0);
	k = fx.cm->local[0].kernel;
	ck_assert_int_eq(k->axis[0].carries, 0);
	ck_assert_int_eq(k->axis[1].carries, 0);
	ck_assert_int_eq(k->axis[2].carries, 1);
	done();
}
END_TEST

START_TEST(budget_arithmetic)
{
	static const char s[] =
	"kernel b(x: bf16[1024, 1024], out z: f32[1024, 1024], out w: f32[1024, 1])\n"
	"grid (i: 4)\n"
	"blocks { x: [256, 1024] at (i, 0); z: [256, 1024] at (i, 0) buffers 1;\n"
	"    w: [256, 1] at (i, 0); }\n"
	"scratch { t: f32[8, 100]; smem c: i32[10]; }\n"
	"{ t[...] = 0.0; z[...] = x[...] as f32; w[...] = 1.0; c[0] = 1; }\n";
	CKernel *k;
	int64_t want;

	ck_assert_int_eq(check_src(s, "v4"), 0);
	k = fx.cm->local[0].kernel;
	/* x: 256 x 1024 bf16 x 2 buffers; z: f32 x 1; w: [256, 1] pads to
	 * [256, 128] x 2; t: [8, 100] pads to [8, 128]. */
	want = 256 * 1024 * 2 * 2 + 256 * 1024 * 4 + 256 * 128 * 4 * 2 +
	    8 * 128 * 4;
	ck_assert_int_eq(k->budget.vmem_used, want);
	ck_assert_int_eq(k->budget.smem_used, 40);
	ck_assert_int_eq(k->budget.vmem_limit, 16 << 20);
	done();
}
END_TEST

START_TEST(largest_fitting_block)
{
	static const char s[] =
	"kernel m(x: f32[4096, 4096], y: f32[4096, 4096], out z: f32[4096, 4096])\n"
	"grid (i: 4, j: 4, k: 4)\n"
	"semantics (parallel, parallel, arbitrary)\n"
	"blocks { x: [1024, 1024] at (i, k); y: [1024, 1024] at (k, j);\n"
	"    z: [1024, 1024] at (i, j); }\n"
	"{ when (k == 0) { z[...] = 0.0; } z[...] += dot(x[...], y[...]); }\n";
	const MachPreset *mp = mach_preset("v4");
	CKernel *k;
	Shape b[3];
	int n[3];

	ck_assert_int_eq(check_src(s, "v4"), 1);	/* 24 MiB + reserve */
	ck_assert_ptr_nonnull(strstr(messages(), "the largest blocks that fit: "
	    "x [512, 512], y [512, 512], z [512, 512]"));
	done();
	/* Direct: with the limit 6 MiB every 1024 halves to 512 (6 MiB). */
	ck_assert_int_eq(check_src(s, "v5e"), 0);
	k = fx.cm->local[0].kernel;
	ck_assert_int_eq(budget_suggest(mp, k, 6 << 20, b, n), 0);
	ck_assert_int_eq(b[0].d[0], 512);
	ck_assert_int_eq(b[2].d[1], 512);
	ck_assert_int_eq(budget_vmem(mp, k, b, n), 6 << 20);
	ck_assert_int_eq(budget_suggest(mp, k, (6 << 20) - 1, b, n), 0);
	ck_assert_int_eq(b[0].d[0], 256);
	ck_assert_int_eq(budget_suggest(mp, k, 1000, b, n), -1);
	done();
}
END_TEST

/*
 * The HBM check follows the runtime's layout exactly: on small (4 MiB)
 * two f32[N, 16] operands fit while 0x10000 + span(64 N) + 64 N <= 4 MiB:
 * at N = 32192, not at 32200 (the next multiple of 8).
 */
START_TEST(hbm_budget_boundary)
{
	static const char s[] =
	"kernel add<N>(x: f32[N, 16], out y: f32[N, 16])\n"
	"grid (i: N / 8)\n"
	"blocks { x: [8, 16] at (i, 0); y: [8, 16] at (i, 0); }\n"
	"{ y[...] = x[...] + 1.0; }\n"
	"export add<32192> as fits;\n"
	"export add<32200> as over;\n";

	ck_assert_uint_le(MACH_HBM_BASE + mach_hbm_span(64 * 32192) +
	    64 * 32192, 4 << 20);
	ck_assert_uint_gt(MACH_HBM_BASE + mach_hbm_span(64 * 32200) +
	    64 * 32200, 4 << 20);
	ck_assert_int_eq(check_src(s, "small"), 1);
	ck_assert_ptr_nonnull(strstr(messages(), "error: export 'over' needs "
	    "3.93 MiB of HBM for its operands but preset 'small' has 4 MiB"));
	ck_assert_ptr_null(strstr(messages(), "'fits'"));
	done();
	ck_assert_int_eq(check_src(s, "v4"), 0);
	done();
}
END_TEST

/* Budgets are per export: with an entry, only its own are enforced. */
START_TEST(budgets_per_export)
{
	static const char s[] =
	"kernel add<N, B>(x: f32[N, 128], out y: f32[N, 128])\n"
	"grid (i: N / B)\n"
	"blocks { x: [B, 128] at (i, 0); y: [B, 128] at (i, 0); }\n"
	"{ y[...] = x[...] + 1.0; }\n"
	"kernel copy<N>(x: f32[N, 128], out y: f32[N, 128])\n"
	"grid (i: N / 8)\n"
	"blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }\n"
	"{ y[...] = x[...]; }\n"
	"export add<64, 8> as good;\n"
	"export add<1024, 512> as bad;\n"
	"export copy<65536> as huge;\n";

	ck_assert_int_eq(check_src(s, "small"), 2);	/* VMEM, HBM */
	ck_assert_ptr_nonnull(strstr(messages(), "exported as 'bad'"));
	ck_assert_ptr_nonnull(strstr(messages(), "export 'huge' needs"));
	done();
	ck_assert_int_eq(check_src_entry(s, "small", "good"), 0);
	ck_assert_int_eq(fx.cm->nexport, 3);
	done();
	ck_assert_int_eq(check_src_entry(s, "small", "bad"), 1);
	ck_assert_ptr_null(strstr(messages(), "huge"));
	done();
}
END_TEST

START_TEST(tiling_per_preset)
{
	static const char s[] =
	"kernel t(x: bf16[64, 64], out z: bf16[64, 64])\n"
	"grid (i: 8)\n"
	"blocks { x: [8, 64] at (i, 0); z: [8, 64] at (i, 0); }\n"
	"{ z[...] = x[...]; }\n";

	/* bf16 rows pack in 16 on every preset. */
	ck_assert_int_eq(check_src(s, "small"), 2);
	ck_assert_ptr_nonnull(strstr(messages(), "multiple of 16 on preset "
	    "'small'"));
	done();
}
END_TEST

/* A dtype parameter: each instance has the dtype its export gives,
   wherever T is written (operands, scratch, casts). */
static void
dtype_instance(const CKernel *k, DType t)
{
	const CStmt *st = k->body.v[2];
	Buf b = {0};

	ck_assert_int_eq(k->nparam, 2);
	ck_assert(k->param_dtype[0] && !k->param_dtype[1]);
	ck_assert_int_eq(k->param_val[0], t);
	ck_assert_int_eq(sema_param(k, "T"), -1);
	ck_assert_int_eq(sema_param(k, "N"), 64);
	ck_assert_int_eq(k->op[0].dtype, t);
	ck_assert_int_eq(k->op[1].dtype, DT_F32);
	ck_assert_int_eq(k->op[2].dtype, t);
	ck_assert_int_eq(k->scratch[0].dtype, t);
	/* z[...] = y[...] as T: a conversion unless T is f32 already */
	ck_assert_int_eq(st->kind, CS_STORE);
	ck_assert_int_eq(st->u.store.value->dtype, t);
	ck_assert_int_eq(st->u.store.value->op, t == DT_F32 ? CX_LOAD :
	    CX_CAST);
	sema_param_print(&b, k, 0);
	buf_putc(&b, 0);
	ck_assert_str_eq(b.p, dtype_name(t));
	buf_free(&b);
}

START_TEST(dtype_params)
{
	static const char s[] =
	"kernel k<T, N>(x: T[N, 128], y: f32[N, 128], out z: T[N, 128])\n"
	"grid (i: N / 16)\n"
	"blocks { x: [16, 128] at (i, 0); y: [16, 128] at (i, 0);\n"
	"    z: [16, 128] at (i, 0); }\n"
	"scratch { s: T[16, 128]; }\n"
	"{ s[...] = x[...]; z[...] = s[...]; z[...] = y[...] as T; }\n"
	"export k<bf16, 64> as k_bf16;\n"
	"export k<f32, 64> as k_f32;\n";
	Buf b = {0};

	ck_assert_int_eq(check_src(s, "v4"), 0);
	ck_assert_int_eq(fx.cm->nexport, 2);
	dtype_instance(fx.cm->exp[0].kernel, DT_BF16);
	dtype_instance(fx.cm->exp[1].kernel, DT_F32);
	sema_print(&b, fx.cm);
	buf_putc(&b, 0);
	ck_assert_ptr_nonnull(strstr(b.p, "kernel k<T=bf16, N=64>"));
	ck_assert_ptr_nonnull(strstr(b.p, "kernel k<T=f32, N=64>"));
	buf_free(&b);
	done();
}
END_TEST

/* What the parameters decide folds: '?:' on a constant condition is the
   chosen side alone, an integer parameter as f32 and rsqrt of it are
   constants (rsqrt(4 as f32) = 0.5). */
START_TEST(param_folds)
{
	static const char s[] =
	"kernel k<C, R>(x: f32[16, 128], out z: f32[16, 128])\n"
	"grid (i: 1)\n"
	"blocks { x: [16, 128] at (0, 0); z: [16, 128] at (0, 0); }\n"
	"{ z[...] = C > 0 ? x[...] * rsqrt(R as f32) : x[...] + 1.0; }\n"
	"export k<0, 4> as k_plain;\n"
	"export k<1, 4> as k_scaled;\n";
	const CExpr *v, *c;

	ck_assert_int_eq(check_src(s, "v4"), 0);
	ck_assert_int_eq(fx.cm->nexport, 2);
	v = fx.cm->exp[0].kernel->body.v[0]->u.store.value;
	ck_assert_int_eq(v->op, CX_ADD);
	v = fx.cm->exp[1].kernel->body.v[0]->u.store.value;
	ck_assert_int_eq(v->op, CX_MUL);
	c = v->arg[1];
	ck_assert_int_eq(c->op, CX_CONST);
	ck_assert_int_eq(c->dtype, DT_F32);
	ck_assert(c->u.cst.f == 0.5);
	done();
}
END_TEST

/* An operand with a false 'when' is not in the instance, and the when
   side that uses it is dropped: a when the parameters decide is the
   side it takes, in place. */
START_TEST(optional_operands)
{
	static const char s[] =
	"kernel k<S>(smem t: f32[4] when (S != 0), x: f32[16, 128],\n"
	"    out z: f32[16, 128])\n"
	"grid (i: 1)\n"
	"blocks { x: [16, 128] at (0, 0); z: [16, 128] at (0, 0); }\n"
	"{\n"
	"    when (S != 0) { z[...] = x[...] + t[0]; } else { z[...] = x[...]; }\n"
	"    z[...] = z[...] * (S != 0 ? t[1] : 2.0);\n"
	"}\n"
	"export k<0> as k_plain;\n"
	"export k<1> as k_table;\n";
	const CKernel *k0, *k1;
	const CStmt *w;

	ck_assert_int_eq(check_src(s, "v4"), 0);
	k0 = fx.cm->exp[0].kernel;
	k1 = fx.cm->exp[1].kernel;
	ck_assert_int_eq(k0->nop, 2);
	ck_assert_str_eq(k0->op[0].name, "x");
	ck_assert_int_eq(k1->nop, 3);
	ck_assert_str_eq(k1->op[0].name, "t");
	/* k_plain: z = x, then z = z * 2 */
	ck_assert_int_eq(k0->body.n, 2);
	w = k0->body.v[0];
	ck_assert_int_eq(w->kind, CS_STORE);
	ck_assert_int_eq(w->u.store.value->op, CX_LOAD);
	ck_assert_int_eq(k0->body.v[1]->u.store.value->arg[1]->op, CX_CONST);
	/* k_table: z = x + t[0], then z = z * t[1] */
	ck_assert_int_eq(k1->body.n, 2);
	ck_assert_int_eq(k1->body.v[0]->u.store.value->op, CX_ADD);
	ck_assert_int_ne(k1->body.v[1]->u.store.value->arg[1]->op, CX_CONST);
	done();
}
END_TEST

/* A check that folds to false fails the instance, except in a side its
   parameters drop: there nothing runs (so a kernel may check what only
   its other instances need). */
START_TEST(check_in_a_dropped_side)
{
	static const char s[] =
	"kernel k<S>(x: f32[16, 128], out z: f32[16, 128])\n"
	"grid (i: 1)\n"
	"blocks { x: [16, 128] at (0, 0); z: [16, 128] at (0, 0); }\n"
	"{\n"
	"    when (S == 2) { check(S == 2, \"two\"); z[...] = x[...] * 2.0; }\n"
	"    else { z[...] = x[...]; }\n"
	"}\n"
	"export k<%d> as k_%d;\n";
	char src[sizeof s + 16];

	snprintf(src, sizeof src, s, 1, 1);
	ck_assert_int_eq(check_src(src, "v4"), 0);
	ck_assert_int_eq(fx.cm->exp[0].kernel->body.n, 1);
	done();
	snprintf(src, sizeof src, s, 2, 2);
	ck_assert_int_eq(check_src(src, "v4"), 0);
	done();
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sema");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nfail;

	tcase_add_test(tc, map_eval_exact);
	tcase_add_test(tc, map_counterexample);
	tcase_add_test(tc, revisit_enumeration);
	tcase_add_test(tc, carry_inference);
	tcase_add_test(tc, budget_arithmetic);
	tcase_add_test(tc, largest_fitting_block);
	tcase_add_test(tc, tiling_per_preset);
	tcase_add_test(tc, hbm_budget_boundary);
	tcase_add_test(tc, budgets_per_export);
	tcase_add_test(tc, dtype_params);
	tcase_add_test(tc, param_folds);
	tcase_add_test(tc, optional_operands);
	tcase_add_test(tc, check_in_a_dropped_side);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? 1 : 0;
}
