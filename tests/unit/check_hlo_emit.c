/*
 * check_hlo_emit.c - the fusion emitter's kernels (graph/emit_pk.c):
 * every fusion the pipeline makes of the toy program, written as a .pk
 * kernel, compiled for small and v4 and run on the simulator (every
 * check on), computes what the reference evaluator computes for the
 * fused computation on the same inputs (at the MXU's precision); and the
 * ops it does not write are refused with the instruction named.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/hlotest.h"
#include "tests/unit/vliwtest.h"
#include "graph/lower.h"

/* The toy program's HLO (tests/golden/hlo/toy.hlo), read and optimised
   for preset; NULL without top_srcdir. */
static HloModule *
toy_optimized(HFx *f, const char *preset)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	Buf text = { 0 };
	HloModule *m;
	HloOptOpts o = { 0 };
	FILE *fp;
	int ch;

	if (!top)
		return NULL;
	snprintf(path, sizeof path, "%s/tests/golden/hlo/toy.hlo", top);
	ck_assert_msg((fp = fopen(path, "rb")) != NULL, "cannot open %s",
	    path);
	while ((ch = fgetc(fp)) != EOF)
		buf_printf(&text, "%c", ch);
	fclose(fp);
	m = hfx_parse(f, text.p);
	buf_free(&text);
	o.mp = mach_preset(preset);
	o.verify = 1;
	ck_assert_int_eq(hlo_optimize(m, &o, &f->d), 0);
	return m;
}

/* The fused computation as the entry of a module of its own, for the
   evaluator: a shallow copy of m. */
static HloModule
as_entry(const HloModule *m, int comp)
{
	HloModule e = *m;

	e.entry = comp;
	e.has_ecl = 0;
	return e;
}

/* Fusion in (of m's entry) on preset: emitted, compiled, run, compared
   with the evaluator; its kernel's cycles. */
static uint64_t
check_fusion(HFx *f, const HloModule *m, const HloInstr *in,
    const char *preset)
{
	const HloComp *c = m->comp.v[in->callee];
	HloModule e = as_entry(m, in->callee);
	HloBuf *args = hfx_args(&e, 99), res[HFX_MAXRES];
	Buf src = { 0 };
	char err[512];
	void *bufs[2 * HFX_MAXRES];
	float *out[HFX_MAXRES];
	VtUnit u;
	PallasStats st;
	int nres, i;
	int64_t k;

	(void)f;
	ck_assert_msg(hlo_fusion_pk(m, c, "fused", 0, &src, err, sizeof err) ==
	    0, "%s: %s\n%s", in->name, err, src.p);
	nres = hlo_eval_ex(&e, args, c->nparam, res, HFX_MAXRES,
	    HLO_EVAL_MXU_PRECISION, err, sizeof err);
	ck_assert_msg(nres > 0, "%s: %s", in->name, err);
	ck_assert_msg(vt_compile(&u, src.p, preset) == 0, "%s on %s: %s\n%s",
	    in->name, preset, u.text, src.p);
	for (i = 0; i < c->nparam; i++)
		bufs[i] = args[i].data;
	for (i = 0; i < nres; i++) {
		ck_assert_int_eq(res[i].type, HT_F32);
		out[i] = calloc((size_t)hlo_buf_elems(&res[i]), sizeof(float));
		bufs[c->nparam + i] = out[i];
	}
	vt_run(&u, "fused", bufs, (size_t)(c->nparam + nres), &st);
	for (i = 0; i < nres; i++) {
		const float *want = res[i].data;
		double top = 0;
		for (k = 0; k < hlo_buf_elems(&res[i]); k++)
			if (fabs(want[k]) > top)	/* NaN: not above */
				top = fabs(want[k]);
		for (k = 0; k < hlo_buf_elems(&res[i]); k++)
			if (isnan(want[k]) ? !isnan(out[i][k]) :
			    !(fabs(out[i][k] - want[k]) <= 1e-5 * (top + 1)))
				ck_abort_msg("%s on %s: result %d element %lld "
				    "= %.9g, want %.9g\n%s", in->name, preset,
				    i, (long long)k, out[i][k], want[k],
				    src.p);
		free(out[i]);
		hlo_buf_free(&res[i]);
	}
	printf("check_hlo_emit: %s on %s: %llu cycles, %u bundles\n",
	    in->name, preset, (unsigned long long)st.c.cycles,
	    u.prog->nbundle);
	for (i = 0; i < c->nparam; i++)
		hlo_buf_free(&args[i]);
	free(args);
	vt_free(&u);
	buf_free(&src);
	return st.c.cycles;
}

/* Every fusion of the toy program, on small and v4. */
START_TEST(toy_fusions_run_on_the_machine)
{
	static const char *const preset[] = { "small", "v4" };
	int p, i, n;

	for (p = 0; p < 2; p++) {
		HFx f;
		HloModule *m;
		const HloComp *c;
		hfx_init(&f, preset[p]);
		if (!(m = toy_optimized(&f, preset[p]))) {
			hfx_free(&f);
			return;
		}
		c = hlo_entry(m);
		for (i = n = 0; i < c->instr.n; i++)
			if (c->instr.v[i]->op == HLO_FUSION) {
				ck_assert_uint_gt(check_fusion(&f, m,
				    c->instr.v[i], preset[p]), 0);
				n++;
			}
		/* matmul + rms sum (multi-output), rms scale, softmax max,
		   exp sum, and the normalised matmul */
		ck_assert_int_ge(n, 4);
		hfx_free(&f);
	}
}
END_TEST

/*
 * Modules of one instruction left outside fusions (the emitter's
 * hlo_instr_pk), covering the ops it writes: each kernel compiled for v4
 * and run against the evaluator of the whole module.
 */
static const char *const single[] = {
	/* reduce over the rows with max, from -inf */
	"HloModule m\n"
	"mx { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
	" ROOT c = f32[] maximum(a, b) }\n"
	"ENTRY e { x = f32[64,128] parameter(0)\n"
	" i = f32[] constant(-inf)\n"
	" ROOT r = f32[128] reduce(x, i), dimensions={0}, to_apply=mx }\n",
	/* q k^T, batched, at the highest precision */
	"HloModule m\n"
	"ENTRY e { q = f32[2,32,128] parameter(0)\n"
	" k = f32[2,64,128] parameter(1)\n"
	" ROOT s = f32[2,32,64] dot(q, k), lhs_batch_dims={0}, "
	"rhs_batch_dims={0}, lhs_contracting_dims={2}, "
	"rhs_contracting_dims={2}, operand_precision={highest,highest} }\n",
	/* a transpose */
	"HloModule m\n"
	"ENTRY e { x = f32[128,256] parameter(0)\n"
	" ROOT t = f32[256,128] transpose(x), dimensions={1,0} }\n",
	/* a fusion: select of a comparison with an iota, converts through
	   bf16, negate, tanh, a broadcast scalar */
	"HloModule m\n"
	"f { x = f32[16,128] parameter(0)\n"
	" i = s32[16,128] iota(), iota_dimension=1\n"
	" fi = f32[16,128] convert(i)\n"
	" h = f32[] constant(0.5)\n"
	" hb = f32[16,128] broadcast(h), dimensions={}\n"
	" y = f32[16,128] multiply(fi, hb)\n"
	" c = pred[16,128] compare(x, y), direction=LT\n"
	" b = bf16[16,128] convert(x)\n"
	" bx = f32[16,128] convert(b)\n"
	" n = f32[16,128] negate(bx)\n"
	" t = f32[16,128] tanh(n)\n"
	" ROOT s = f32[16,128] select(c, t, y) }\n"
	"ENTRY e { x = f32[16,128] parameter(0)\n"
	" ROOT r = f32[16,128] fusion(x), kind=kLoop, calls=f }\n",
};

/* One kernel's module: emitted for VMEM vmem (0: no row grid),
   compiled for v4, run against the evaluator of the whole module; 1 if
   its kernel has a batch grid, 2 a row grid, 3 both. */
static int
run_module(const char *text, int64_t vmem)
{
	HFx f;
	HloModule *m;
	const HloComp *c;
	HloBuf *args, res[HFX_MAXRES];
	Buf src = { 0 };
	char err[512];
	void *bufs[HFX_MAXRES + 1];
	float *out;
	VtUnit u;
	int64_t k, n;
	int i;

	int grid;

	hfx_init(&f, "v4");
	m = hfx_parse(&f, text);
	c = hlo_entry(m);
	ck_assert_msg(hlo_fusions_pk(m, vmem, &src, err, sizeof err) == 1,
	    "%s", err);
	args = hfx_args(m, 7);
	ck_assert_int_eq(hlo_eval_ex(m, args, c->nparam, res, HFX_MAXRES,
	    HLO_EVAL_MXU_PRECISION, err, sizeof err), 1);
	ck_assert_msg(vt_compile(&u, src.p, "v4") == 0, "%s\n%s", u.text,
	    src.p);
	for (i = 0; i < c->nparam; i++)
		bufs[i] = args[i].data;
	n = hlo_buf_elems(&res[0]);
	out = calloc((size_t)n, sizeof *out);
	bufs[c->nparam] = out;
	vt_run(&u, u.cm->exp[0].cname, bufs, (size_t)c->nparam + 1, NULL);
	for (k = 0; k < n; k++)
		if (!(fabs(out[k] - ((float *)res[0].data)[k]) <= 1e-5 *
		    (1 + fabs(((float *)res[0].data)[k]))))
			ck_abort_msg("element %lld = %.9g, want %.9g\n%s",
			    (long long)k, out[k], ((float *)res[0].data)[k],
			    src.p);
	grid = (strstr(src.p, "grid (b: ") != NULL) |
	    (strstr(src.p, "i: ") != NULL) << 1;
	free(out);
	hlo_buf_free(&res[0]);
	for (i = 0; i < c->nparam; i++)
		hlo_buf_free(&args[i]);
	free(args);
	vt_free(&u);
	buf_free(&src);
	hfx_free(&f);
	return grid;
}

START_TEST(leftovers_run_on_the_machine)
{
	ck_assert_int_eq(run_module(single[_i], 0), 0);
}
END_TEST

/*
 * A fusion whose values keep a leading batch dimension gets a grid over
 * it (one slice a step), as the naive attention's: q k^T per head, its
 * row max, and exp(s - max) with the max broadcast down the rows.
 */
START_TEST(batched_fusions_get_a_grid)
{
	ck_assert_int_eq(run_module(
	    "HloModule m\n"
	    "mx { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
	    " ROOT c = f32[] maximum(a, b) }\n"
	    "f { q = f32[2,32,128] parameter(0)\n"
	    " k = f32[2,32,128] parameter(1)\n"
	    " s = f32[2,32,32] dot(q, k), lhs_batch_dims={0}, "
	    "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
	    "rhs_contracting_dims={2}\n"
	    " i = f32[] constant(-inf)\n"
	    " m = f32[2,32] reduce(s, i), dimensions={2}, to_apply=mx\n"
	    " mb = f32[2,32,32] broadcast(m), dimensions={0,1}\n"
	    " d = f32[2,32,32] subtract(s, mb)\n"
	    " ROOT e = f32[2,32,32] exponential(d) }\n"
	    "ENTRY e { q = f32[2,32,128] parameter(0)\n"
	    " k = f32[2,32,128] parameter(1)\n"
	    " ROOT r = f32[2,32,32] fusion(q, k), kind=kOutput, calls=f }\n",
	    0), 1);
}
END_TEST

/*
 * A fusion larger than the VMEM it is emitted for gets a row grid:
 * q k^T / 16 masked causally (an iota along the rows, offset by the
 * step) then exp(s - m) with m broadcast down the rows: q and m tiled, k
 * whole; the same results as the evaluator, and as one block when VMEM
 * is plenty.
 */
static const char rows_module[] =
    "HloModule m\n"
    "f { q = f32[256,128] parameter(0)\n"
    " k = f32[256,128] parameter(1)\n"
    " m = f32[256] parameter(2)\n"
    " s = f32[256,256] dot(q, k), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={1}, operand_precision={highest,highest}\n"
    " h = f32[] constant(0.0625)\n"
    " hb = f32[256,256] broadcast(h), dimensions={}\n"
    " sh = f32[256,256] multiply(s, hb)\n"
    " mb = f32[256,256] broadcast(m), dimensions={0}\n"
    " d = f32[256,256] subtract(sh, mb)\n"
    " e = f32[256,256] exponential(d)\n"
    " r = s32[256,256] iota(), iota_dimension=0\n"
    " c = s32[256,256] iota(), iota_dimension=1\n"
    " p = pred[256,256] compare(c, r), direction=LE\n"
    " z = f32[] constant(0)\n"
    " zb = f32[256,256] broadcast(z), dimensions={}\n"
    " ROOT o = f32[256,256] select(p, e, zb) }\n"
    "ENTRY e { q = f32[256,128] parameter(0)\n"
    " k = f32[256,128] parameter(1)\n"
    " m = f32[256] parameter(2)\n"
    " ROOT r = f32[256,256] fusion(q, k, m), kind=kOutput, calls=f }\n";

START_TEST(large_fusions_get_a_row_grid)
{
	ck_assert_int_eq(run_module(rows_module, 3 << 20), 2);
	ck_assert_int_eq(run_module(rows_module, 64 << 20), 0);
}
END_TEST

/* What the emitter does not write is refused, naming the instruction. */
START_TEST(unwritten_ops_are_refused)
{
	static const struct { const char *text, *want; } t[] = {
		{ "HloModule m\n"
		  "fused {\n"
		  "  p = f32[8,128] parameter(0)\n"
		  "  ROOT s = f32[8,128] sine(p)\n"
		  "}\n"
		  "ENTRY e {\n"
		  "  x = f32[8,128] parameter(0)\n"
		  "  ROOT f = f32[8,128] fusion(x), kind=kLoop, calls=fused\n"
		  "}\n", "s (sine): an op the fusion emitter does not write" },
		{ "HloModule m\n"
		  "fused {\n"
		  "  p = f32[8,128] parameter(0)\n"
		  "  c = f32[8,128] constant({...})\n"
		  "  ROOT a = f32[8,128] add(p, c)\n"
		  "}\n"
		  "ENTRY e {\n"
		  "  x = f32[8,128] parameter(0)\n"
		  "  ROOT f = f32[8,128] fusion(x), kind=kLoop, calls=fused\n"
		  "}\n", "c (constant): an array constant" },
		{ "HloModule m\n"
		  "fused {\n"
		  "  p = f64[8,128] parameter(0)\n"
		  "  ROOT a = f64[8,128] add(p, p)\n"
		  "}\n"
		  "ENTRY e {\n"
		  "  x = f64[8,128] parameter(0)\n"
		  "  ROOT f = f64[8,128] fusion(x), kind=kLoop, calls=fused\n"
		  "}\n", "p (parameter): an element type (f64)" },
		{ "HloModule m\n"
		  "fused {\n"
		  "  p = f32[8,16,128] parameter(0)\n"
		  "  ROOT t = f32[16,8,128] transpose(p), dimensions={1,0,2}\n"
		  "}\n"
		  "ENTRY e {\n"
		  "  x = f32[8,16,128] parameter(0)\n"
		  "  ROOT f = f32[16,8,128] fusion(x), kind=kLoop, calls=fused\n"
		  "}\n", "t (transpose): a transpose other than of the last two" },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		HFx f;
		HloModule *m;
		Buf src = { 0 };
		char err[256];
		hfx_init(&f, "v4");
		const HloInstr *fu;
		m = hfx_parse(&f, t[i].text);
		fu = hlo_entry(m)->instr.v[hlo_entry(m)->root];
		ck_assert_int_eq(fu->op, HLO_FUSION);
		ck_assert_int_eq(hlo_fusion_pk(m, m->comp.v[fu->callee], "k", 0,
		    &src, err, sizeof err), -1);
		ck_assert_msg(strstr(err, t[i].want), "%s", err);
		buf_free(&src);
		hfx_free(&f);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hlo_emit");
	TCase *t = tcase_create("core");

	tcase_set_timeout(t, 300);
	tcase_add_test(t, toy_fusions_run_on_the_machine);
	tcase_add_loop_test(t, leftovers_run_on_the_machine, 0,
	    (int)(sizeof single / sizeof single[0]));
	tcase_add_test(t, batched_fusions_get_a_grid);
	tcase_add_test(t, large_fusions_get_a_row_grid);
	tcase_add_test(t, unwritten_ops_are_refused);
	suite_add_tcase(s, t);
	return vt_run_suite(s);
}
