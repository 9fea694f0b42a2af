/*
 * check_hlo_pass.c - the pass pipeline's frame (graph/passes.c) and the
 * editing helpers every pass leans on (graph/hlo_edit.c): dead code,
 * def-before-use order after appends, fresh names, computations nobody
 * calls, side effects that stay, and the pipeline's switches.
 */
#include "tests/unit/hlotest.h"

static const char dead_text[] =
    "HloModule m\n"
    "\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  q = f32[4,8]{1,0} parameter(1)\n"
    "  z = f32[] constant(0)\n"
    "  dead = f32[4] reduce(p, z), dimensions={1}, to_apply=add\n"
    "  e = f32[4,8]{1,0} exponential(q)\n"
    "  cc = f32[4,8]{1,0} custom-call(p), custom_call_target=\"t\", "
    "custom_call_has_side_effect=true\n"
    "  ROOT m = f32[4,8]{1,0} multiply(p, e)\n"
    "}\n";

START_TEST(dce_drops_dead_code_and_orphaned_computations)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, dead_text);
	ck_assert_int_eq(m->comp.n, 2);
	ck_assert_int_eq(hfx_pass(&f, m, "dce"), 1);
	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 1), 0);
	ck_assert_int_eq(hfx_count(m, HLO_CONSTANT, 1), 0);
	/* the reducer had one caller, which died */
	ck_assert_int_eq(m->comp.n, 1);
	/* parameters and side effects stay */
	ck_assert_int_eq(hfx_count(m, HLO_PARAMETER, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_CUSTOM_CALL, 0), 1);
	ck_assert_int_eq(hfx_pass(&f, m, "dce"), 0);
	hfx_free(&f);
}
END_TEST

static const char chain_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8]{0} parameter(0)\n"
    "  ROOT n = f32[8]{0} negate(p)\n"
    "}\n";

START_TEST(appended_instructions_move_before_their_users)
{
	HFx f;
	HloModule *m;
	HloComp *c;
	HloInstr *e, *n;
	int op, root;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, chain_text);
	c = m->comp.v[m->entry];
	root = c->root;
	/* negate(exp(p)): the exp is appended after the negate */
	op = c->instr.v[root]->operand[0];
	e = hlo_add(m, c, HLO_EXP, &c->instr.v[op]->shape, &op, 1);
	ck_assert_ptr_nonnull(e->name);
	ck_assert_ptr_null(strtab_find(&f.strs, "negate.0x", 9));
	c->instr.v[root]->operand[0] = hlo_index(c, e);
	ck_assert_int_eq(hlo_comp_clean(m, c), 1);
	n = c->instr.v[c->root];
	ck_assert_int_eq(n->op, HLO_NEGATE);
	ck_assert_ptr_eq(c->instr.v[n->operand[0]], e);
	ck_assert_int_lt(n->operand[0], c->root);
	hfx_verify(&f, m, "clean");
	/* the text reads back and prints the same */
	{
		HFx g;
		char *t = strdup(hfx_print(&f, m));
		hfx_init(&g, NULL);
		ck_assert_str_eq(hfx_print(&g, hfx_parse(&g, t)), t);
		free(t);
		hfx_free(&g);
	}
	hfx_free(&f);
}
END_TEST

START_TEST(fresh_names_are_unique)
{
	HFx f;
	HloModule *m;
	const char *a, *b;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, chain_text);
	a = hlo_fresh_name(m, "n");
	b = hlo_fresh_name(m, "n");
	ck_assert_ptr_ne(a, b);
	ck_assert_str_ne(a, b);
	ck_assert_ptr_ne(a, hlo_entry(m)->instr.v[1]->name);
	hfx_free(&f);
}
END_TEST

static int nafter;

static int
count_after(const HloModule *m, const char *pass, int changed, void *arg)
{
	(void)m;
	(void)pass;
	(void)changed;
	(void)arg;
	nafter++;
	return 0;
}

START_TEST(pipeline_keeps_meaning_and_obeys_off)
{
	HFx f;
	HloModule *m;
	HloOptOpts o = {0};
	const char *off[] = { "dce" };

	hfx_init(&f, NULL);
	m = hfx_parse(&f, dead_text);
	o.verify = 1;
	o.after = count_after;
	nafter = 0;
	ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
	ck_assert_int_gt(nafter, 0);
	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 1), 0);
	ck_assert(hlo_pass_known("dce"));
	ck_assert(!hlo_pass_known("no-such-pass"));
	hfx_free(&f);

	hfx_init(&f, NULL);
	m = hfx_parse(&f, dead_text);
	o.off = off;
	o.noff = 1;
	ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 1), 1);
	hfx_free(&f);

	hfx_init(&f, NULL);
	m = hfx_parse(&f, chain_text);
	o.noff = 0;
	ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
	hfx_same_results(&f, chain_text, m, 0);
	hfx_free(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_pass");
	TCase *t = tcase_create("frame");

	tcase_add_test(t, dce_drops_dead_code_and_orphaned_computations);
	tcase_add_test(t, appended_instructions_move_before_their_users);
	tcase_add_test(t, fresh_names_are_unique);
	tcase_add_test(t, pipeline_keeps_meaning_and_obeys_off);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return hfx_run(suite());
}
