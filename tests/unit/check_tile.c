/*
 * check_tile.c - unit tests of the tile IR (backend/mosaic/): the
 * builder and printer on a hand-built function, the verifier rejecting
 * broken IR, layout selection, and the body lowering's chunk loops
 * (principle 7: code size independent of the block size).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/mosaic/mosaic.h"
#include "dsl/dsl.h"

static const MachPreset *
v4(void)
{
	return mach_preset("v4");
}

static Shape
shape2(int64_t r, int64_t c)
{
	Shape s;

	memset(&s, 0, sizeof s);
	s.rank = 2;
	s.d[0] = r;
	s.d[1] = c;
	return s;
}

/* Sets the index of a load/store op to whole dims of shape s. */
static void
whole_idx(TFunc *f, int opi, const Shape *s)
{
	TIdx *d = arena_alloc(f->arena, s->rank * sizeof *d);
	int i;

	for (i = 0; i < s->rank; i++) {
		d[i].size = s->d[i];
		d[i].dyn = -1;
		d[i].multiple = 1;
	}
	f->op.v[opi].u.idx.n = s->rank;
	f->op.v[opi].u.idx.d = d;
}

/* x = load buf; store exp(x) back: a tiny function. */
static TFunc *
tiny(Arena *a, TRef *x)
{
	TFunc *f = tile_new_func(a, v4(), "tiny");
	Shape s = shape2(8, 128);
	TVal vt = tile_vec_type(f, DT_F32, &s, TL_NATIVE);
	int b = tile_buffer(f, "t", TB_SCRATCH, TS_VMEM, DT_F32, &s, 1, 0);
	TRef ref = tile_buf_ref(f, b), args[2], e;
	int opi;

	*x = tile_emit(f, TOP_LOAD, &ref, 1, &vt, &opi);
	whole_idx(f, opi, &s);
	e = tile_unop(f, TOP_EXP, *x);
	args[0] = ref;
	args[1] = e;
	tile_emit(f, TOP_STORE, args, 2, NULL, &opi);
	whole_idx(f, opi, &s);
	return f;
}

START_TEST(print_tiny)
{
	Arena a = {0};
	Buf b = {0};
	TRef x;
	TFunc *f = tiny(&a, &x);
	char err[200];
	const char *want =
	    "func @tiny preset v4\n"
	    "  buffer #0 \"t\" scratch vmem f32[8, 128] x1 4096 bytes at -\n"
	    "  body {\n"
	    "    %1 = buf #0 : memref<8x128xf32, vmem #0 strides [128,1]>\n"
	    "    %2 = load %1[0 : 8, 0 : 128] : vector<8x128xf32> "
	    "#native(8,128)x1\n"
	    "    %3 = exp %2 : vector<8x128xf32> #native(8,128)x1\n"
	    "    store %3, %1[0 : 8, 0 : 128]\n"
	    "  }\n";

	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	tile_print(&b, f);
	buf_putc(&b, 0);
	ck_assert_str_eq(b.p, want);
	buf_free(&b);
	arena_free(&a);
}
END_TEST

START_TEST(for_if_regions)
{
	Arena a = {0};
	Buf b = {0};
	TFunc *f = tile_new_func(&a, v4(), "loops");
	TRef lo = tile_const_i32(f, 0), hi = tile_const_i32(f, 64);
	TRef init = tile_const_f32(f, 0), iv, acc, sum;
	char err[200];
	int opi;

	iv = tile_begin_for(f, lo, hi, 8, &init, 1);
	acc = tile_block_arg(f, 1);
	tile_begin_if(f, tile_cmp(f, TC_LT, iv, hi));
	tile_else(f);
	tile_end_if(f);
	sum = tile_binop(f, TOP_ADD, acc, acc);
	opi = tile_end_for(f, &sum);
	ck_assert_int_eq(f->op.v[opi].nres, 1);
	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	tile_print(&b, f);
	buf_putc(&b, 0);
	ck_assert_ptr_nonnull(strstr(b.p, "%4 = for %5 = %1 to %2 step 8 "
	    "iter(%6 = %3) {"));
	ck_assert_ptr_nonnull(strstr(b.p, "} else {"));
	ck_assert_ptr_nonnull(strstr(b.p, "yield %8"));
	buf_free(&b);
	arena_free(&a);
}
END_TEST

START_TEST(verify_dominance)
{
	Arena a = {0};
	TFunc *f = tile_new_func(&a, v4(), "dom");
	TRef lo = tile_const_i32(f, 0), inner;
	char err[200];

	tile_begin_for(f, lo, lo, 1, NULL, 0);
	inner = tile_const_i32(f, 3);
	tile_end_for(f, NULL);
	/* a value of the loop body used after the loop */
	tile_binop(f, TOP_ADD, inner, lo);
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not dominated"));
	arena_free(&a);
}
END_TEST

START_TEST(verify_use_before_def)
{
	Arena a = {0};
	TFunc *f = tile_new_func(&a, v4(), "ubd");
	TRef c = tile_const_i32(f, 1);
	char err[200];

	/* an op whose operand is its own (later) result */
	tile_binop(f, TOP_ADD, c, c);
	f->op.v[1].arg[1] = f->op.v[1].res[0];
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not dominated"));
	arena_free(&a);
}
END_TEST

START_TEST(verify_shapes)
{
	Arena a = {0};
	TFunc *f = tile_new_func(&a, v4(), "shapes");
	Shape s1 = shape2(8, 128), s2 = shape2(16, 128);
	TVal t1 = tile_vec_type(f, DT_F32, &s1, TL_NATIVE);
	TVal t2 = tile_vec_type(f, DT_F32, &s2, TL_NATIVE);
	TRef c = tile_const_f32(f, 1), x, y, args[2];
	char err[200];

	x = tile_emit(f, TOP_SPLAT, &c, 1, &t1, NULL);
	y = tile_emit(f, TOP_SPLAT, &c, 1, &t2, NULL);
	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	args[0] = x;
	args[1] = y;
	tile_emit(f, TOP_ADD, args, 2, &t1, NULL);
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "shape"));
	arena_free(&a);
}
END_TEST

START_TEST(verify_bounds_and_layout)
{
	Arena a = {0};
	TRef x;
	TFunc *f = tiny(&a, &x);
	char err[200];

	/* a load past the buffer's rows */
	f->op.v[1].u.idx.d[0].start = 4;
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "out of range"));
	f->op.v[1].u.idx.d[0].start = 0;
	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	/* a layout that disagrees with the shape */
	f->val.v[x].lay.nvreg = 3;
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "layout"));
	arena_free(&a);
}
END_TEST

START_TEST(verify_allocated_buffer)
{
	Arena a = {0};
	TRef x;
	TFunc *f = tiny(&a, &x);
	char err[200];

	f->buf.v[0].offset = (int64_t)v4()->vmem_bytes - 1024;
	ck_assert_int_eq(tile_verify(f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "beyond"));
	arena_free(&a);
}
END_TEST

START_TEST(layout_native_f32)
{
	Shape s = shape2(8, 128);
	TLayout l = mosaic_layout(v4(), DT_F32, &s, TL_NATIVE);

	ck_assert_int_eq(l.kind, TL_NATIVE);
	ck_assert_int_eq(l.tile_r, 8);
	ck_assert_int_eq(l.tile_c, 128);
	ck_assert_int_eq(l.pack, 1);
	ck_assert_int_eq(l.nvreg, 1);
	ck_assert_int_eq(l.home, 0);
	s = shape2(20, 200);	/* padded to 3 x 2 tiles */
	ck_assert_int_eq(mosaic_layout(v4(), DT_F32, &s, TL_NATIVE).nvreg, 6);
}
END_TEST

START_TEST(layout_bf16_packed)
{
	Shape s = shape2(16, 128);
	TLayout l = mosaic_layout(v4(), DT_BF16, &s, TL_NATIVE);

	ck_assert_int_eq(l.pack, 2);
	ck_assert_int_eq(l.tile_r, 16);
	ck_assert_int_eq(l.nvreg, 1);
	s = shape2(32, 256);
	ck_assert_int_eq(mosaic_layout(v4(), DT_BF16, &s, TL_NATIVE).nvreg, 4);
	ck_assert_int_eq(mosaic_layout(v4(), DT_F32, &s, TL_NATIVE).nvreg, 8);
}
END_TEST

START_TEST(layout_lane_replicated)
{
	Shape s = shape2(128, 128);
	TLayout n = mosaic_layout(v4(), DT_F32, &s, TL_NATIVE);
	TLayout r = mosaic_layout(v4(), DT_F32, &s, TL_LANE_REPL);

	ck_assert_int_eq(n.nvreg, 16);
	ck_assert_int_eq(r.kind, TL_LANE_REPL);
	ck_assert_int_eq(r.nvreg, 16);
	s = shape2(128, 512);	/* still one vreg column */
	ck_assert_int_eq(mosaic_layout(v4(), DT_F32, &s, TL_LANE_REPL).nvreg,
	    16);
	ck_assert_int_eq(mosaic_layout(v4(), DT_F32, &s, TL_NATIVE).nvreg, 64);
	s = shape2(8, 1);
	ck_assert_int_eq(mosaic_layout(v4(), DT_F32, &s, TL_LANE_REPL).nvreg,
	    1);
}
END_TEST

START_TEST(layout_home)
{
	Shape s = shape2(512, 512);
	TLayout l = mosaic_layout(v4(), DT_F32, &s, TL_NATIVE);

	ck_assert_int_eq(l.nvreg, 256);
	ck_assert_int_eq(l.home, 1);
	ck_assert_int_eq(l.chunk_rows, 8);
	ck_assert_int_le(mosaic_vreg_budget(v4()), v4()->nvreg / 2);
	s = shape2(512, 512);
	l = mosaic_layout(v4(), DT_BF16, &s, TL_NATIVE);
	ck_assert_int_eq(l.chunk_rows, 16);
	s = shape2(16, 16);	/* small preset: 8 x 16 vregs */
	l = mosaic_layout(mach_preset("small"), DT_F32, &s, TL_NATIVE);
	ck_assert_int_eq(l.nvreg, 2);
	ck_assert_int_eq(l.home, 0);
}
END_TEST

/* ---------------------------------------------------------- lowering */

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

typedef struct Lowered {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	TModule *tm;
	int rc;
} Lowered;

/* Parses, checks and lowers text (or the file top_srcdir/path). */
static void
lower_src(Lowered *lw, const char *text, const char *path)
{
	const char *top = getenv("top_srcdir");
	char full[1024];
	PP *pp;
	Ast *ast;
	CheckedModule *m;

	memset(lw, 0, sizeof *lw);
	srcmgr_init(&lw->sm);
	strtab_init(&lw->strs, &lw->a);
	diag_init(&lw->d, &lw->sm, stderr);
	pp = pp_new(&lw->d, &lw->strs, &lw->a);
	sema_predefine(pp, mach_preset(NULL));	/* as pallasc does */
	if (path) {
		snprintf(full, sizeof full, "%s/%s", top ? top : ".", path);
		ck_assert_int_eq(pp_push_file(pp, full), 0);
	} else
		ck_assert_int_eq(pp_push_text(pp, "t.pk", text, strlen(text)),
		    0);
	ast = parse_module(pp_source, pp, &lw->d, &lw->a);
	ck_assert_int_eq(lw->d.nerror, 0);
	m = sema_check(ast, v4(), &lw->d, &lw->a);
	ck_assert_int_eq(lw->d.nerror, 0);
	lw->rc = mosaic_lower(m, v4(), &lw->d, &lw->a, &lw->tm);
	pp_free(pp);
}

static void
lower_text(Lowered *lw, const char *text)
{
	lower_src(lw, text, NULL);
}

static void
lowered_free(Lowered *lw)
{
	strtab_free(&lw->strs);
	srcmgr_free(&lw->sm);
	arena_free(&lw->a);
}

static int
count_ops(const TFunc *f, TOpKind k)
{
	int i, n = 0;

	for (i = 0; i < f->op.n; i++)
		n += f->op.v[i].op == k;
	return n;
}

static const char big_src[] =
    "kernel big<R>(x: f32[R, 512], out y: f32[R, 512])\n"
    "{ let t = exp(x[...]) * 0.5; y[...] = t + 1.0; }\n"
    "export big<512> as big512;\n"
    "export big<2048> as big2048;\n";

START_TEST(lower_home_chunks)
{
	Lowered lw;
	const TFunc *f, *g;
	char err[200];
	int i, nhome = 0, found = 0;

	lower_text(&lw, big_src);
	ck_assert_int_eq(lw.rc, 0);
	ck_assert_int_eq(lw.tm->func.n, 2);
	f = lw.tm->func.v[0];
	g = lw.tm->func.v[1];
	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	for (i = 0; i < f->buf.n; i++)
		if (f->buf.v[i].kind == TB_INTERNAL &&
		    f->buf.v[i].space == TS_VMEM) {
			nhome++;
			ck_assert_int_eq(f->buf.v[i].shape.d[0], 512);
		}
	ck_assert_int_eq(nhome, 1);	/* t lives in a VMEM home */
	ck_assert_int_eq(count_ops(f, TOP_FOR), 2);
	/* every vector in the function is one chunk: [8, 512] */
	for (i = 1; i < f->val.n; i++) {
		const TVal *v = &f->val.v[i];
		if (v->kind != TV_VEC)
			continue;
		ck_assert_int_eq(v->lay.home, 0);
		ck_assert_int_eq(v->shape.d[0], 8);
		found++;
	}
	ck_assert_int_gt(found, 0);
	/* code size does not grow with the block */
	ck_assert_int_eq(f->op.n, g->op.n);
	lowered_free(&lw);
}
END_TEST

static const char row_src[] =
    "kernel rows(x: f32[256, 128], out s: f32[1, 128], out m: f32[256, 128])\n"
    "{ s[...] = sum(x[...], axis: 0, keepdims);\n"
    "  m[...] = broadcast(rowmax(x[...]), [256, 128]); }\n"
    "export rows;\n";

START_TEST(lower_reductions)
{
	Lowered lw;
	const TFunc *f;
	char err[200];
	int i, carried = 0, repl = 0;

	lower_text(&lw, row_src);
	ck_assert_int_eq(lw.rc, 0);
	f = lw.tm->func.v[0];
	ck_assert_int_eq(tile_verify(f, err, sizeof err), 0);
	for (i = 0; i < f->op.n; i++)
		if (f->op.v[i].op == TOP_FOR && f->op.v[i].nres == 1)
			carried++;
	ck_assert_int_eq(carried, 1);	/* the row sum carries [1, 128] */
	for (i = 1; i < f->val.n; i++)
		repl += f->val.v[i].lay.kind == TL_LANE_REPL;
	ck_assert_int_ge(repl, 2);	/* rowmax and its broadcast */
	lowered_free(&lw);
}
END_TEST

static const char dot_src[] =
    "kernel d(a: bf16[128, 128], b: bf16[128, 128], out z: f32[128, 128])\n"
    "scratch { acc: f32[128, 128]; }\n"
    "{ acc[...] = 0.0; acc[...] += dot(a[...], b[...]); z[...] = acc[...]; }\n"
    "export d;\n";

START_TEST(lower_dot_accumulates)
{
	Lowered lw;
	const TFunc *f;
	int i, n = 0;

	lower_text(&lw, dot_src);
	ck_assert_int_eq(lw.rc, 0);
	f = lw.tm->func.v[0];
	for (i = 0; i < f->op.n; i++)
		if (f->op.v[i].op == TOP_MATMUL) {
			n++;
			ck_assert_int_eq(f->op.v[i].u.mm.accumulate, 1);
			ck_assert_int_eq(f->op.v[i].u.mm.acc, DT_F32);
		}
	ck_assert_int_eq(n, 1);
	for (i = 0; i < f->buf.n; i++)	/* straight into acc: no home */
		ck_assert(f->buf.v[i].kind != TB_INTERNAL ||
		    f->buf.v[i].space != TS_VMEM);
	lowered_free(&lw);
}
END_TEST

/* Every vector value of every function fits the vreg budget. */
static void
assert_small_vectors(const TModule *tm)
{
	int i, j, budget = mosaic_vreg_budget(v4());
	char err[200];

	for (i = 0; i < tm->func.n; i++) {
		const TFunc *f = tm->func.v[i];
		ck_assert_msg(tile_verify(f, err, sizeof err) == 0, "%s", err);
		for (j = 1; j < f->val.n; j++)
			if (f->val.v[j].kind == TV_VEC)
				ck_assert_int_le(f->val.v[j].lay.nvreg, budget);
	}
}

static const char wide_src[] =
    "kernel w(x: f32[16, 1000], out y: f32[16, 1000], out s: f32[16, 1],\n"
    "    out c: f32[1, 1000])\n"
    "{ y[...] = x[...] * 2.0 + iota([16, 1000], 1) as f32;\n"
    "  s[...] = rowsum(x[...]); c[...] = sum(x[...], axis: 0, keepdims); }\n"
    "export w;\n";

START_TEST(lower_wide_rows)
{
	Lowered lw;
	const TFunc *f;
	int i, chunk = 0, tail = 0;

	lower_text(&lw, wide_src);
	ck_assert_int_eq(lw.rc, 0);
	assert_small_vectors(lw.tm);
	f = lw.tm->func.v[0];
	/* column chunks of 4 vregs (512) and a tail (488), never 1000 */
	for (i = 1; i < f->val.n; i++) {
		const TVal *v = &f->val.v[i];
		if (v->kind != TV_VEC)
			continue;
		ck_assert_int_ne(v->shape.d[v->shape.rank - 1], 1000);
		chunk += v->shape.d[v->shape.rank - 1] == 512;
		tail += v->shape.d[v->shape.rank - 1] == 488;
	}
	ck_assert_int_gt(chunk, 0);
	ck_assert_int_gt(tail, 0);
	lowered_free(&lw);
}
END_TEST

START_TEST(lower_kernels_in_budget)
{
	Lowered lw;

	lower_src(&lw, NULL, "kernels/splash/splash.pk");
	ck_assert_int_eq(lw.rc, 0);
	ck_assert_int_eq(lw.tm->func.n, 6);	/* fwd, dq, dkv: two exports each */
	assert_small_vectors(lw.tm);
	lowered_free(&lw);
	lower_src(&lw, NULL, "kernels/matmul/matmul.pk");
	ck_assert_int_eq(lw.rc, 0);
	assert_small_vectors(lw.tm);
	lowered_free(&lw);
}
END_TEST

static Suite *
tile_suite(void)
{
	Suite *s = suite_create("tile");
	TCase *ir = tcase_create("ir"), *lay = tcase_create("layout");
	TCase *low = tcase_create("lower");

	tcase_add_test(ir, print_tiny);
	tcase_add_test(ir, for_if_regions);
	tcase_add_test(ir, verify_dominance);
	tcase_add_test(ir, verify_use_before_def);
	tcase_add_test(ir, verify_shapes);
	tcase_add_test(ir, verify_bounds_and_layout);
	tcase_add_test(ir, verify_allocated_buffer);
	tcase_add_test(lay, layout_native_f32);
	tcase_add_test(lay, layout_bf16_packed);
	tcase_add_test(lay, layout_lane_replicated);
	tcase_add_test(lay, layout_home);
	tcase_add_test(low, lower_home_chunks);
	tcase_add_test(low, lower_reductions);
	tcase_add_test(low, lower_dot_accumulates);
	tcase_add_test(low, lower_wide_rows);
	tcase_add_test(low, lower_kernels_in_budget);
	tcase_set_timeout(low, 60);
	suite_add_tcase(s, ir);
	suite_add_tcase(s, lay);
	suite_add_tcase(s, low);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(tile_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
