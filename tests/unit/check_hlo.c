/*
 * check_hlo.c - the HLO text reader, printer, shape inference and verifier
 * (graph/): round trips, '%' and typed-operand forms, layouts with tiles
 * and memory spaces, constants, metadata, verbatim attributes, inferred
 * shapes, diagnostics with positions, error recovery, and robustness on
 * every prefix and many mutations of real modules.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	char *err;
	size_t nerr;
	FILE *out;
	Buf print;
} Fx;

static void
fx_init(Fx *f)
{
	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->err, &f->nerr);
	diag_init(&f->d, &f->sm, f->out);
	f->d.max_errors = 0;
}

/* Reads and verifies text; NULL on errors (then f->err says why). */
static HloModule *
fx_read(Fx *f, const char *text, size_t n)
{
	int file = srcmgr_add(&f->sm, "m.hlo", text, n);
	HloModule *m = hlo_read(&f->d, file, &f->a, &f->strs);

	if (m && hlo_verify(m, &f->d) != 0)
		m = NULL;
	fflush(f->out);
	return m;
}

static HloModule *
fx_parse(Fx *f, const char *text)
{
	return fx_read(f, text, strlen(text));
}

static const char *
fx_print(Fx *f, const HloModule *m)
{
	f->print.n = 0;
	hlo_print(&f->print, m);
	return f->print.p ? f->print.p : "";
}

static void
fx_free(Fx *f)
{
	fclose(f->out);
	free(f->err);
	buf_free(&f->print);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static const HloInstr *
instr_named(const HloModule *m, const char *comp, const char *name)
{
	int i, j;

	for (i = 0; i < m->comp.n; i++)
		if (strcmp(m->comp.v[i]->name, comp) == 0)
			for (j = 0; j < m->comp.v[i]->instr.n; j++)
				if (strcmp(m->comp.v[i]->instr.v[j]->name,
				    name) == 0)
					return m->comp.v[i]->instr.v[j];
	return NULL;
}

static char *
slurp(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	Buf b = {0};

	snprintf(path, sizeof path, "%s/tests/hlo/%s", top ? top : "..", name);
	if (read_file(path, &b) != 0)
		return NULL;
	return b.p;
}

START_TEST(canonical_text_is_a_fixed_point)
{
	const char *text =
	    "HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n"
	    "\n"
	    "ENTRY main {\n"
	    "  p = f32[4]{0} parameter(0)\n"
	    "  ROOT n = f32[4]{0} negate(p), metadata={op_name=\"jit(f)/neg\" "
	    "source_file=\"f.py\" source_line=3}\n"
	    "}\n";
	Fx f;
	HloModule *m;

	fx_init(&f);
	m = fx_parse(&f, text);
	ck_assert_msg(m != NULL, "%s", f.err);
	ck_assert_str_eq(fx_print(&f, m), text);
	fx_free(&f);
}
END_TEST

START_TEST(percent_names_and_typed_operands)
{
	Fx f;
	HloModule *m;

	fx_init(&f);
	m = fx_parse(&f, "ENTRY %f (a: f32[]) -> f32[] {\n"
	    "  %a = f32[] parameter(0)\n"
	    "  ROOT %b = f32[] add(f32[] %a, f32[] %a)\n}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	ck_assert_ptr_null(m->name);
	ck_assert_str_eq(fx_print(&f, m), "ENTRY f {\n"
	    "  a = f32[] parameter(0)\n"
	    "  ROOT b = f32[] add(a, a)\n}\n");
	fx_free(&f);
}
END_TEST

START_TEST(shapes_are_inferred)
{
	Fx f;
	HloModule *m;
	Buf b = {0};

	fx_init(&f);
	m = fx_parse(&f, "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n"
	    " ROOT s = add(x, y)\n}\n"
	    "ENTRY e {\n a = f32[2,3] parameter(0)\n b = f32[3,5] parameter(1)\n"
	    " d = dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
	    " t = transpose(d), dimensions={1,0}\n"
	    " z = f32[] constant(0)\n"
	    " r = reduce(t, z), dimensions={0}, to_apply=add\n"
	    " c = compare(r, r), direction=LT\n"
	    " ROOT u = tuple(c, t)\n}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	hlo_shape_print(&b, &instr_named(m, "e", "d")->shape);
	buf_puts(&b, " ");
	hlo_shape_print(&b, &instr_named(m, "e", "t")->shape);
	buf_puts(&b, " ");
	hlo_shape_print(&b, &instr_named(m, "e", "r")->shape);
	buf_puts(&b, " ");
	hlo_shape_print(&b, &instr_named(m, "e", "u")->shape);
	ck_assert_str_eq(b.p, "f32[2,5] f32[5,2] f32[2] (pred[2], f32[5,2])");
	buf_free(&b);
	fx_free(&f);
}
END_TEST

START_TEST(layouts_tiles_and_memory_spaces)
{
	Fx f;
	HloModule *m;
	const HloShape *s;

	fx_init(&f);
	m = fx_parse(&f, "ENTRY e {\n"
	    "  p = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)} parameter(0)\n"
	    "  q = f32[]{:T(128)} parameter(1)\n"
	    "  ROOT r = u8[4,256]{1,0:T(*,128)L(4)E(8)S(2)SC(0:1)} parameter(2)\n"
	    "}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	s = &instr_named(m, "e", "p")->shape;
	ck_assert_int_eq(s->type, HT_BF16);
	ck_assert_int_eq(s->layout.nm2m, 4);
	ck_assert_int_eq(s->layout.m2m[2], 0);
	ck_assert_int_eq(s->layout.ntile, 2);
	ck_assert_int_eq(s->layout.tile[0].d[1], 128);
	ck_assert_int_eq(s->layout.tile[1].d[0], 2);
	ck_assert_int_eq(s->layout.memspace, 1);
	s = &instr_named(m, "e", "r")->shape;
	ck_assert_int_eq(s->layout.tile[0].d[0], -1);
	ck_assert_str_eq(s->layout.mid, "L(4)E(8)");
	ck_assert_str_eq(s->layout.post, "SC(0:1)");
	ck_assert_str_eq(fx_print(&f, m), "ENTRY e {\n"
	    "  p = bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)} parameter(0)\n"
	    "  q = f32[]{:T(128)} parameter(1)\n"
	    "  ROOT r = u8[4,256]{1,0:T(*,128)L(4)E(8)S(2)SC(0:1)} parameter(2)\n"
	    "}\n");
	fx_free(&f);
}
END_TEST

START_TEST(constants_values_and_printing)
{
	Fx f;
	HloModule *m;
	const HloInstr *in;

	fx_init(&f);
	m = fx_parse(&f, "ENTRY e {\n"
	    "  a = f32[4] constant({0.1, -inf, 1e-12, 3})\n"
	    "  b = bf16[2] constant({1.00390625, 3.3})\n"
	    "  c = s32[2,2] constant({ { 1, -2 }, { 3, 4 } })\n"
	    "  d = pred[3] constant({true, 0, 1})\n"
	    "  ROOT n = f32[] constant(nan)\n}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	in = instr_named(m, "e", "a");
	ck_assert_int_eq(in->lit.n, 4);
	ck_assert(in->lit.v[0].f == (double)0.1f);
	in = instr_named(m, "e", "b");
	ck_assert(in->lit.v[0].f == 1.0);	/* ties to even in bf16 */
	ck_assert(in->lit.v[1].f == 3.296875);
	ck_assert(instr_named(m, "e", "c")->lit.v[1].i == -2);
	ck_assert_str_eq(fx_print(&f, m), "ENTRY e {\n"
	    "  a = f32[4] constant({0.1, -inf, 1e-12, 3})\n"
	    "  b = bf16[2] constant({1, 3.3})\n"
	    "  c = s32[2,2] constant({ {1, -2}, {3, 4} })\n"
	    "  d = pred[3] constant({true, false, true})\n"
	    "  ROOT n = f32[] constant(nan)\n}\n");
	fx_free(&f);
}
END_TEST

START_TEST(metadata_and_verbatim_attributes)
{
	Fx f;
	HloModule *m;
	const HloInstr *in;

	fx_init(&f);
	m = fx_parse(&f, "ENTRY e {\n"
	    "  p = f32[4] parameter(0), sharding={devices=[2]0,1}\n"
	    "  ROOT c = f32[4] custom-call(p), backend_config={\n"
	    "      \"k\": [1,\n       2]\n    },\n"
	    "    custom_call_target=\"tpu_custom_call\",\n"
	    "    metadata={op_name=\"a\\\"b\" source_line=7 deduplicated_name=\"x\"},"
	    " api_version=API_VERSION_STATUS_RETURNING\n}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	in = instr_named(m, "e", "c");
	ck_assert_str_eq(in->target, "tpu_custom_call");
	ck_assert_str_eq(in->meta.op_name, "a\\\"b");
	ck_assert_int_eq(in->meta.source_line, 7);
	ck_assert_str_eq(in->meta.extra, "deduplicated_name=\"x\"");
	ck_assert_int_eq(in->attrs.n, 1);
	ck_assert_str_eq(in->attrs.v[0].value, "API_VERSION_STATUS_RETURNING");
	ck_assert_str_eq(in->backend_config, "{\"k\": [1,2]}");
	ck_assert_str_eq(fx_print(&f, m), "ENTRY e {\n"
	    "  p = f32[4] parameter(0), sharding={devices=[2]0,1}\n"
	    "  ROOT c = f32[4] custom-call(p), custom_call_target="
	    "\"tpu_custom_call\", api_version=API_VERSION_STATUS_RETURNING, "
	    "metadata={op_name=\"a\\\"b\" source_line=7 deduplicated_name=\"x\"}, "
	    "backend_config={\"k\": [1,2]}\n}\n");
	fx_free(&f);
}
END_TEST

START_TEST(entry_root_and_structure)
{
	Fx f;
	HloModule *m;
	const HloComp *e;

	fx_init(&f);
	m = fx_parse(&f, "f {\n ROOT p = f32[] parameter(0)\n}\n"
	    "g {\n p = f32[] parameter(0)\n ROOT c = f32[] call(p), to_apply=f\n"
	    " n = f32[] negate(p)\n}\n");
	ck_assert_msg(m != NULL, "%s", f.err);
	ck_assert_int_eq(m->comp.n, 2);
	ck_assert_int_eq(m->entry, 1);	/* no ENTRY: the last one */
	e = hlo_entry(m);
	ck_assert_str_eq(e->instr.v[e->root]->name, "c");
	ck_assert_int_eq(e->instr.v[e->root]->callee, 0);
	ck_assert_int_eq(hlo_op_lookup("copy-start", 10), HLO_COPY_START);
	ck_assert_str_eq(hlo_op_name(HLO_GTE), "get-tuple-element");
	fx_free(&f);
}
END_TEST

START_TEST(diagnostic_names_opcode_and_position)
{
	Fx f;

	fx_init(&f);
	ck_assert_ptr_null(fx_parse(&f, "HloModule m\n\nENTRY main {\n"
	    "  p = f32[4] parameter(0)\n  ROOT r = f32[4] frob(p)\n}\n"));
	ck_assert_str_eq(f.err, "m.hlo:5:19: error: unknown HLO opcode 'frob'\n"
	    "    5 |   ROOT r = f32[4] frob(p)\n"
	    "      |                   ^~~~\n");
	fx_free(&f);
}
END_TEST

START_TEST(errors_recover_to_the_next_instruction)
{
	Fx f;

	fx_init(&f);
	ck_assert_ptr_null(fx_parse(&f, "ENTRY main {\n"
	    "  p = f32[4] parameter(0)\n"
	    "  a = f32[4] add(p, p, , )\n"
	    "  b = f32[4] negate(a)\n"
	    "  c = f32[4] cholesky(b)\n"
	    "  d = f32[4] negate(c)\n"
	    "  ROOT e = f32[4] negate(nothing)\n}\n"));
	ck_assert_int_eq(f.d.nerror, 3);
	ck_assert_ptr_nonnull(strstr(f.err, "m.hlo:3:24: error: expected an "
	    "operand name, found ','"));
	ck_assert_ptr_nonnull(strstr(f.err, "m.hlo:5:14: error: unsupported "
	    "HLO opcode 'cholesky'"));
	ck_assert_ptr_nonnull(strstr(f.err, "m.hlo:7:26: error: use of "
	    "undefined value 'nothing'"));
	fx_free(&f);
}
END_TEST

/* Found by fuzz_hlo: a NUL byte inside a verbatim value broke the round
   trip; the text now ends at a NUL, with an error. */
START_TEST(elided_constants_and_several_modules)
{
	static const char text[] = "HloModule a\n\nENTRY main {\n"
	    "  ROOT c = pred[8,16] constant({...})\n}\n"
	    "// -----\n"
	    "HloModule b\n\nENTRY main {\n"
	    "  ROOT c = f16[2] constant({1.5, 65504})\n}\n";
	HloModule *m;
	Fx f;

	fx_init(&f);
	m = fx_parse(&f, text);
	ck_assert_msg(m != NULL, "%s", f.err);
	ck_assert_int_eq(hlo_verify(m, &f.d), 0);
	ck_assert_str_eq(m->name, "a");
	ck_assert(hlo_entry(m)->instr.v[0]->lit.elided);
	ck_assert_int_eq(hlo_entry(m)->instr.v[0]->lit.n, 0);
	ck_assert_str_eq(fx_print(&f, m), "HloModule a\n\nENTRY main {\n"
	    "  ROOT c = pred[8,16] constant({...})\n}\n");
	ck_assert_ptr_nonnull(m->next);
	ck_assert_str_eq(m->next->name, "b");
	ck_assert_ptr_null(m->next->next);
	/* shortest text that reads back to the same f16 */
	ck_assert_str_eq(fx_print(&f, m->next), "HloModule b\n\nENTRY main {\n"
	    "  ROOT c = f16[2] constant({1.5, 6.55e+04})\n}\n");
	/* a later module's errors are located in the whole file */
	ck_assert_ptr_null(fx_parse(&f, "ENTRY e {\n  ROOT c = f32[] "
	    "constant(1)\n}\n// -----\nENTRY e {\n  ROOT c = f32[] "
	    "negate(q)\n}\n"));
	ck_assert_ptr_nonnull(strstr(f.err, "m.hlo:6:25: error: use of "
	    "undefined value 'q'"));
	fx_free(&f);
}
END_TEST

START_TEST(nul_byte_is_an_error)
{
	static const char text[] = "ENTRY e {\n  ROOT p = f32[] parameter(0),"
	    " backend_config={\"a\0b\"}\n}\n";
	Fx f;

	fx_init(&f);
	ck_assert_ptr_null(fx_read(&f, text, sizeof text - 1));
	ck_assert_ptr_nonnull(strstr(f.err, "m.hlo:2:50: error: NUL byte in "
	    "HLO text"));
	fx_free(&f);
}
END_TEST

START_TEST(verifier_checks_written_shapes)
{
	Fx f;

	fx_init(&f);
	ck_assert_ptr_null(fx_parse(&f, "ENTRY main {\n"
	    "  p = f32[2,3] parameter(0)\n"
	    "  t = f32[2,3] transpose(p), dimensions={1,0}\n"
	    "  r = f32[7] reshape(p)\n"
	    "  ROOT b = s32[2,3] broadcast(p), dimensions={0,1}\n}\n"));
	ck_assert_int_eq(f.d.nerror, 3);
	ck_assert_ptr_nonnull(strstr(f.err, "'t' is written as f32[2,3], but "
	    "its operands give f32[3,2]"));
	ck_assert_ptr_nonnull(strstr(f.err, "'reshape' must keep the element "
	    "type and count"));
	ck_assert_ptr_nonnull(strstr(f.err, "'broadcast' cannot change the "
	    "element type"));
	fx_free(&f);
}
END_TEST

/* Every prefix of a real module reads or fails cleanly, never crashes. */
static void
prefixes(const char *name)
{
	char *text = slurp(name);
	size_t n, i;

	ck_assert_msg(text != NULL, "cannot read %s (top_srcdir?)", name);
	n = strlen(text);
	for (i = 0; i <= n; i++) {
		Fx f;
		fx_init(&f);
		fx_read(&f, text, i);
		fx_free(&f);
	}
	free(text);
}

START_TEST(prefixes_never_crash)
{
	prefixes("syntax.hlo");
	prefixes("xla_parser_copy_start_copy_done.hlo");
	prefixes("xla_cpu_tiled_dot.hlo");
}
END_TEST

/* Single-character mutations: read cleanly, and round-trip if accepted. */
START_TEST(mutations_never_crash)
{
	static const char subst[] = "{}()[],=%:\"0-";
	char *text = slurp("syntax.hlo");
	size_t n, i, k;

	ck_assert(text != NULL);
	n = strlen(text);
	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof subst - 1; k++) {
			char save = text[i];
			Fx f;
			HloModule *m;
			text[i] = subst[k];
			fx_init(&f);
			if ((m = fx_read(&f, text, n))) {
				char *once = xstrdup(fx_print(&f, m));
				HloModule *m2 = fx_parse(&f, once);
				ck_assert_msg(m2 != NULL, "%s\n%s\n%s", f.err,
				    text, once);
				ck_assert_str_eq(fx_print(&f, m2), once);
				free(once);
			}
			fx_free(&f);
			text[i] = save;
		}
	free(text);
}
END_TEST

START_TEST(corpus_modules_verify)
{
	static const char *names[] = {
		"xla_run_algsimp_pass.hlo", "xla_cpu_tiled_dot.hlo",
		"xla_cpu_tiled_reduce_row.hlo", "jax_triton_add_kernel.hlo",
		"xla_parser_copy_start_copy_done.hlo", "toy.hlo",
	};
	size_t i;

	for (i = 0; i < countof(names); i++) {
		char *text = slurp(names[i]);
		Fx f;
		ck_assert_msg(text != NULL, "%s", names[i]);
		fx_init(&f);
		ck_assert_msg(fx_parse(&f, text) != NULL, "%s: %s", names[i],
		    f.err);
		fx_free(&f);
		free(text);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo");
	TCase *t = tcase_create("read-print");

	tcase_set_timeout(t, 0);
	tcase_add_test(t, canonical_text_is_a_fixed_point);
	tcase_add_test(t, percent_names_and_typed_operands);
	tcase_add_test(t, shapes_are_inferred);
	tcase_add_test(t, layouts_tiles_and_memory_spaces);
	tcase_add_test(t, constants_values_and_printing);
	tcase_add_test(t, metadata_and_verbatim_attributes);
	tcase_add_test(t, entry_root_and_structure);
	tcase_add_test(t, diagnostic_names_opcode_and_position);
	tcase_add_test(t, errors_recover_to_the_next_instruction);
	tcase_add_test(t, nul_byte_is_an_error);
	tcase_add_test(t, elided_constants_and_several_modules);
	tcase_add_test(t, verifier_checks_written_shapes);
	tcase_add_test(t, prefixes_never_crash);
	tcase_add_test(t, mutations_never_crash);
	tcase_add_test(t, corpus_modules_verify);
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
