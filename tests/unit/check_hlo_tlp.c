/*
 * check_hlo_tlp.c - the top-level program of a func (graph/tlp.c): for
 * the toy program and the naive attention, optimised for small and v4,
 * every step binds each operand of its kernel to a buffer of the
 * kernel's type; a buffer is written before it is read; the result is
 * written by a step; two scratch buffers whose live ranges meet never
 * share a byte, and all fit in the scratch size; and a func whose
 * result is a parameter (nothing computes it) is refused.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"
#include "graph/lower.h"
#include "graph/pass.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	char *err;		/* diagnostics */
	size_t nerr;
	FILE *out;
} Fx;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

static const char *
diags(Fx *f)
{
	fflush(f->out);
	return f->err ? f->err : "";
}

static void
fx_free(Fx *f)
{
	pp_free(f->pp);
	fclose(f->out);
	free(f->err);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

/* Func source 'src' checked for preset, its one func export's TLP (NULL
   after a diagnostic). */
static TTlp *
tlp_of(Fx *f, const char *src, const char *preset)
{
	const MachPreset *mp = mach_preset(preset);
	CheckedModule *cm;
	HloModule *hm;
	HloOptOpts o = { 0 };
	HloTlpKernels k = { 0 };
	const CExport *e;
	TModule *tm;
	Ast *ast;

	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->err, &f->nerr);
	diag_init(&f->d, &f->sm, f->out);
	f->pp = pp_new(&f->d, &f->strs, &f->a);
	ck_assert_int_eq(pp_push_text(f->pp, "t.pk", src, strlen(src)), 0);
	ast = parse_module(pp_source, f->pp, &f->d, &f->a);
	cm = sema_check(ast, mp, &f->d, &f->a);
	ck_assert_msg(f->d.nerror == 0, "%s", diags(f));
	e = &cm->exp[cm->nexport - 1];
	ck_assert_ptr_nonnull(e->func);
	hm = hlo_from_func(cm, e->func, &f->d, &f->a, &f->strs);
	ck_assert_ptr_nonnull(hm);
	o.mp = mp;
	o.verify = 1;
	ck_assert_int_eq(hlo_optimize(hm, &o, &f->d), 0);
	k.fm = hlo_fusion_kernels(hm, mp, "func", e->cname, &f->d, &f->a,
	    &f->strs, e->loc);
	ck_assert_msg(k.fm != NULL, "%s", diags(f));
	ck_assert_msg(mosaic_lower(k.fm, mp, &f->d, &f->a, &tm) == 0, "%s",
	    diags(f));
	k.km = hlo_func_callees(cm, e->func, e->cname, &f->a);
	ck_assert_ptr_nonnull(k.km);
	return hlo_tlp_build(hm, &k, e->cname, NULL, &f->d, &f->a, e->loc);
}

static int
meets(const TTlpBuf *x, const TTlpBuf *y)
{
	return x->first <= y->last && y->first <= x->last;
}

/* The invariants of the header, on t. */
static void
check_tlp(const TTlp *t)
{
	int i, j, u, nres = 0;

	ck_assert_int_gt(t->nstep, 0);
	for (i = 0; i < t->nstep; i++) {
		const TTlpStep *st = &t->step[i];
		ck_assert_int_gt(st->nbind, 0);
		for (j = 0; j < st->nbind; j++) {
			const TTlpBuf *b = &t->buf[st->bind[j].buf];
			ck_assert_int_ge(b->first == -1 ? 0 : i, b->first);
			ck_assert_int_ge(b->last, i);
			if (b->kind == TLP_TEMP || b->kind == TLP_RESULT)
				ck_assert_int_ge(b->first, 0);
		}
	}
	for (u = 0; u < t->nbuf; u++) {
		const TTlpBuf *x = &t->buf[u];
		if (x->kind == TLP_RESULT) {
			nres++;
			ck_assert_int_ge(x->first, 0);
		}
		if (x->kind != TLP_TEMP || x->first < 0)
			continue;
		ck_assert_int_le(x->offset + x->bytes, t->scratch);
		for (j = 0; j < t->nbuf; j++) {
			const TTlpBuf *y = &t->buf[j];
			if (j == u || y->kind != TLP_TEMP || y->first < 0 ||
			    !meets(x, y))
				continue;
			ck_assert_msg(x->offset + x->bytes <= y->offset ||
			    y->offset + y->bytes <= x->offset,
			    "%s and %s share scratch", x->name, y->name);
		}
	}
	ck_assert_int_eq(nres, 1);
}

static const char toy[] =
    "func toy(x: f32[16, 64], w1: f32[64, 64], w2: f32[64, 32]) -> "
    "f32[16, 32] {\n"
    "    let h = x @ w1;\n"
    "    let h = h / sqrt(mean(h * h, axis: 1, keepdims) + 1e-6);\n"
    "    return softmax(h, axis: 1) @ w2;\n"
    "}\n"
    "export toy;\n";

static const char attention[] =
    "func attention(q: f32[2, 32, 128], k: f32[2, 32, 128], "
    "v: f32[2, 32, 128]) -> f32[2, 32, 128] {\n"
    "    let s = dot(q, k, trans_b) * 0.125;\n"
    "    return softmax(s, axis: 2) @ v;\n"
    "}\n"
    "export attention;\n";

START_TEST(programs_keep_their_invariants)
{
	static const char *const preset[] = { "small", "v4" };
	static const char *const src[] = { toy, attention };
	int p, s;

	for (s = 0; s < 2; s++)
		for (p = 0; p < 2; p++) {
			Fx f;
			TTlp *t = tlp_of(&f, src[s], preset[p]);
			ck_assert_msg(t != NULL, "%s", diags(&f));
			check_tlp(t);
			fx_free(&f);
		}
}
END_TEST

/* A kernel call is a step of the called kernel, bound to the call's
   operand and result. */
START_TEST(a_call_is_a_step)
{
	static const char src[] =
	    "kernel add_one(x: f32[8, 128], out y: f32[8, 128])\n"
	    "{ y[...] = x[...] + 1.0; }\n"
	    "func f(x: f32[8, 128]) -> f32[8, 128] {\n"
	    "    return add_one(x * 2.0) * 3.0;\n"
	    "}\n"
	    "export f;\n";
	Fx f;
	TTlp *t;
	int i, calls = 0;

	t = tlp_of(&f, src, "small");
	ck_assert_msg(t != NULL, "%s", diags(&f));
	check_tlp(t);
	ck_assert_int_eq(t->nstep, 3);
	for (i = 0; i < t->nstep; i++)
		if (!strcmp(t->step[i].name, "f.add_one")) {
			calls++;
			ck_assert_int_eq(i, 1);
			ck_assert_int_eq(t->step[i].nbind, 2);
			ck_assert_str_eq(t->step[i].bind[0].opnd, "x");
			ck_assert_int_eq(t->buf[t->step[i].bind[0].buf].first,
			    0);
			ck_assert_str_eq(t->step[i].bind[1].opnd, "y");
		}
	ck_assert_int_eq(calls, 1);
	fx_free(&f);
}
END_TEST

/* Nothing computes the result: the program refuses, naming it. */
START_TEST(a_result_no_step_writes_is_refused)
{
	static const char src[] =
	    "func id(x: f32[8, 128]) -> f32[8, 128] { return x; }\n"
	    "export id;\n";
	Fx f;

	ck_assert_ptr_null(tlp_of(&f, src, "small"));
	ck_assert_msg(strstr(diags(&f), "is the result") != NULL, "%s",
	    diags(&f));
	fx_free(&f);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hlo_tlp");
	TCase *tc = tcase_create("tlp");
	SRunner *r;
	int nf;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, programs_keep_their_invariants);
	tcase_add_test(tc, a_call_is_a_step);
	tcase_add_test(tc, a_result_no_step_writes_is_refused);
	suite_add_tcase(s, tc);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
