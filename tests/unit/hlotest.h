/*
 * hlotest.h - a fixture for the unit tests of the HLO passes: read a
 * module from text, run one pass or the pipeline, print, count opcodes,
 * and check that a rewritten module computes what the original did on
 * the same pseudo-random inputs.  Header-only (static inline functions,
 * each test program using some), one copy per test program.
 */
#ifndef PALLAS_TESTS_HLOTEST_H
#define PALLAS_TESTS_HLOTEST_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

typedef struct HFx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	char *err;
	size_t nerr;
	FILE *out;
	Buf print;
	HloPassCtx cx;
} HFx;

static inline void
hfx_init(HFx *f, const char *preset)
{
	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->err, &f->nerr);
	diag_init(&f->d, &f->sm, f->out);
	f->d.max_errors = 0;
	f->cx.mp = mach_preset(preset);
	f->cx.d = &f->d;
}

static inline void
hfx_free(HFx *f)
{
	fclose(f->out);
	free(f->err);
	buf_free(&f->print);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

/* Reads and verifies text; fails the test if it does not verify. */
static inline HloModule *
hfx_parse(HFx *f, const char *text)
{
	int file = srcmgr_add(&f->sm, "m.hlo", text, strlen(text));
	HloModule *m = hlo_read(&f->d, file, &f->a, &f->strs);

	if (m && hlo_verify(m, &f->d) != 0)
		m = NULL;
	fflush(f->out);
	ck_assert_msg(m != NULL, "%s", f->err ? f->err : "");
	return m;
}

static inline const char *
hfx_print(HFx *f, const HloModule *m)
{
	f->print.n = 0;
	hlo_print(&f->print, m);
	return f->print.p ? f->print.p : "";
}

/* Verifies m; fails the test with the printed module if it is broken. */
static inline void
hfx_verify(HFx *f, const HloModule *m, const char *after)
{
	int bad = hlo_verify(m, &f->d);

	fflush(f->out);
	ck_assert_msg(bad == 0, "after %s: %s\n%s", after,
	    f->err ? f->err : "", hfx_print(f, m));
}

/* Runs pass 'name' once, verifies; returns what the pass returned. */
static inline int
hfx_pass(HFx *f, HloModule *m, const char *name)
{
	int r = hlo_run_pass(m, name, &f->cx);

	hfx_verify(f, m, name);
	return r;
}

/* Instructions of opcode op in the entry (all computations if all). */
static inline int
hfx_count(const HloModule *m, HloOp op, int all)
{
	int j, i, n = 0;

	for (j = 0; j < m->comp.n; j++) {
		if (!all && j != m->entry)
			continue;
		for (i = 0; i < m->comp.v[j]->instr.n; i++)
			n += m->comp.v[j]->instr.v[i]->op == op;
	}
	return n;
}

#define HFX_MAXRES 16

/* Deterministic inputs for every entry parameter (values in [-2, 2]). */
static inline HloBuf *
hfx_args(const HloModule *m, uint32_t seed)
{
	const HloComp *c = hlo_entry(m);
	HloBuf *a = calloc((size_t)c->nparam + 1, sizeof *a);
	int i;
	int64_t k;

	for (i = 0; i < c->nparam; i++) {
		const HloShape *s = &hlo_param(c, i)->shape;
		a[i] = hlo_buf_new(s->type, s->rank, s->dim);
		for (k = 0; k < hlo_buf_elems(&a[i]); k++) {
			double v;
			seed = seed * 1664525u + 1013904223u;
			v = (double)(seed >> 8) / (1 << 24) * 4 - 2;
			switch (s->type) {
			case HT_F32: ((float *)a[i].data)[k] = (float)v; break;
			case HT_BF16: ((uint16_t *)a[i].data)[k] =
			    hlo_f32_to_bf16((float)v); break;
			case HT_S32: ((int32_t *)a[i].data)[k] =
			    (int32_t)(v * 8); break;
			case HT_S8: ((int8_t *)a[i].data)[k] = (int8_t)(v * 8);
			    break;
			case HT_PRED: ((uint8_t *)a[i].data)[k] = v > 0; break;
			default: break;
			}
		}
	}
	return a;
}

/*
 * Asserts that m computes what 'before' (the original text) computes,
 * on the same inputs: bit for bit if rtol is 0, else within rtol.
 */
static inline void
hfx_same_results(HFx *f, const char *before, const HloModule *m,
    double rtol)
{
	HFx g;
	HloModule *o;
	HloBuf *args, r0[HFX_MAXRES], r1[HFX_MAXRES];
	char err[512];
	int n0, n1, i, np;
	int64_t k;

	hfx_init(&g, NULL);
	o = hfx_parse(&g, before);
	np = hlo_entry(o)->nparam;
	args = hfx_args(o, 12345);
	n0 = hlo_eval(o, args, np, r0, HFX_MAXRES, err, sizeof err);
	ck_assert_msg(n0 >= 0, "before: %s", err);
	n1 = hlo_eval(m, args, np, r1, HFX_MAXRES, err, sizeof err);
	ck_assert_msg(n1 >= 0, "after: %s\n%s", err, hfx_print(f, m));
	ck_assert_int_eq(n0, n1);
	for (i = 0; i < n0; i++) {
		size_t es = hlo_type_size(r0[i].type);
		ck_assert_int_eq(r0[i].type, r1[i].type);
		ck_assert_int_eq(hlo_buf_elems(&r0[i]), hlo_buf_elems(&r1[i]));
		for (k = 0; k < hlo_buf_elems(&r0[i]); k++) {
			const char *x = (const char *)r0[i].data + k * es;
			const char *y = (const char *)r1[i].data + k * es;
			double a, b;
			if (rtol == 0 || r0[i].type != HT_F32) {
				if (memcmp(x, y, es) != 0)
					ck_abort_msg("result %d element %lld "
					    "differs\n%s", i, (long long)k,
					    hfx_print(f, m));
				continue;
			}
			a = *(const float *)x;
			b = *(const float *)y;
			/* asserted on failure only: one passing check an
			   element would be one message to Check's parent */
			if (!((isnan(a) && isnan(b)) || fabs(a - b) <=
			    rtol * (fabs(a) + fabs(b)) + rtol))
				ck_abort_msg("result %d element %lld: %g vs %g",
				    i, (long long)k, a, b);
		}
		hlo_buf_free(&r0[i]);
		hlo_buf_free(&r1[i]);
	}
	for (i = 0; i < np; i++)
		hlo_buf_free(&args[i]);
	free(args);
	hfx_free(&g);
}

/* Runs suite s; the exit status of the test program. */
static inline int
hfx_run(Suite *s)
{
	SRunner *r = srunner_create(s);
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
