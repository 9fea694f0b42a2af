/*
 * check_hlo_layout.c - layout assignment (graph/pass_layout.c) and TPU
 * tiling (graph/pass_tiling.c): layouts propagate through elementwise
 * chains, the entry layout is a constraint, copies appear exactly where
 * a layout must change (a dot's lhs, the entry result, a custom-call's
 * constraint) and nowhere else, the attention scores take XLA's {1,2,0}
 * where the preset's lanes make it pay, tiles follow the element type,
 * the rank and the preset, the text reads back, and the values stay bit
 * for bit.
 */
#include "tests/unit/hlotest.h"

/* The entry instruction called name (the test fails if there is none). */
static const HloInstr *
find(const HloModule *m, const char *name)
{
	const HloComp *c = hlo_entry(m);
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (strcmp(c->instr.v[i]->name, name) == 0)
			return c->instr.v[i];
	ck_abort_msg("no instruction '%s'", name);
	return NULL;
}

/* The printed shape of entry instruction name, "f32[8,16]{0,1}". */
static const char *
shape_of(const HloModule *m, const char *name)
{
	static char s[256];
	Buf b = {0};

	hlo_shape_print(&b, &find(m, name)->shape);
	snprintf(s, sizeof s, "%s", b.p ? b.p : "");
	buf_free(&b);
	return s;
}

#define ck_shape(m, name, want) \
	ck_assert_str_eq(shape_of((m), (name)), (want))

/* Both passes, then the values against the text's; returns the module. */
static HloModule *
both(HFx *f, const char *text, int eval)
{
	HloModule *m = hfx_parse(f, text);

	hfx_pass(f, m, "layout-assignment");
	hfx_pass(f, m, "tiling");
	if (eval)
		hfx_same_results(f, text, m, 0);
	return m;
}

static const char chain_text[] =
    "HloModule m, entry_computation_layout={(f32[8,16]{0,1}, "
    "f32[8,16]{0,1})->f32[8,16]{0,1}}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,16] parameter(0)\n"
    "  q = f32[8,16] parameter(1)\n"
    "  e = f32[8,16] exponential(p)\n"
    "  c = f32[] constant(2)\n"
    "  b = f32[8,16] broadcast(c), dimensions={}\n"
    "  m = f32[8,16] multiply(e, b)\n"
    "  ROOT a = f32[8,16] add(m, q)\n"
    "}\n";

START_TEST(elementwise_chains_take_the_entry_layout)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, chain_text);
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 1);
	/* the parameters had no layout: entry_computation_layout gives it */
	ck_shape(m, "p", "f32[8,16]{0,1}");
	ck_shape(m, "q", "f32[8,16]{0,1}");
	ck_shape(m, "e", "f32[8,16]{0,1}");
	ck_shape(m, "b", "f32[8,16]{0,1}");
	ck_shape(m, "m", "f32[8,16]{0,1}");
	ck_shape(m, "a", "f32[8,16]{0,1}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_same_results(&f, chain_text, m, 0);
	/* a second run has nothing left to do */
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 0);
	hfx_free(&f);
}
END_TEST

static const char relayout_text[] =
    "HloModule m, entry_computation_layout={(f32[8,16]{1,0})->"
    "f32[8,16]{0,1}}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,16]{1,0} parameter(0)\n"
    "  e = f32[8,16]{1,0} exponential(p)\n"
    "  ROOT n = f32[8,16]{1,0} negate(e)\n"
    "}\n";

START_TEST(entry_result_layout_costs_one_copy)
{
	HFx f;
	HloModule *m;
	const HloComp *c;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, relayout_text);
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 1);
	c = hlo_entry(m);
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	ck_assert_int_eq(c->instr.v[c->root]->op, HLO_COPY);
	ck_assert_int_eq(c->instr.v[c->root]->shape.layout.m2m[0], 0);
	/* the chain keeps the parameter's layout; only the end moves */
	ck_shape(m, "p", "f32[8,16]{1,0}");
	ck_shape(m, "n", "f32[8,16]{1,0}");
	ck_assert_int_eq(m->ecl_result.layout.m2m[0], 0);
	hfx_same_results(&f, relayout_text, m, 0);
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 0);
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	hfx_free(&f);
}
END_TEST

/* The toy program's shape, w2 laid out {0,1} by the entry as on v6e. */
static const char toy_text[] =
    "HloModule toy, entry_computation_layout={(f32[16,64]{1,0}, "
    "f32[64,64]{1,0}, f32[64,32]{0,1})->f32[16,32]{1,0}}\n"
    "\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  x = f32[16,64]{1,0} parameter(0)\n"
    "  w1 = f32[64,64]{1,0} parameter(1)\n"
    "  w2 = f32[64,32]{1,0} parameter(2)\n"
    "  h = f32[16,64]{1,0} dot(x, w1), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  sq = f32[16,64]{1,0} multiply(h, h)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[16]{0} reduce(sq, z), dimensions={1}, to_apply=add\n"
    "  rb = f32[16,64]{1,0} broadcast(r), dimensions={0}\n"
    "  d = f32[16,64]{1,0} divide(h, rb)\n"
    "  ROOT o = f32[16,32]{1,0} dot(d, w2), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "}\n";

START_TEST(toy_needs_no_copy_and_w2_keeps_its_entry_layout)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, "v6e");
	m = both(&f, toy_text, 1);
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	/* seed-dumps.md 1.2, pass 0026 */
	ck_shape(m, "w2", "f32[64,32]{0,1:T(8,128)}");
	ck_shape(m, "h", "f32[16,64]{1,0:T(8,128)}");
	ck_shape(m, "r", "f32[16]{0:T(128)}");
	ck_shape(m, "z", "f32[]{:T(128)}");
	ck_shape(m, "o", "f32[16,32]{1,0:T(8,128)}");
	hfx_free(&f);
}
END_TEST

static const char dot_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  a = f32[16,8]{1,0} parameter(0)\n"
    "  b = f32[16,32]{1,0} parameter(1)\n"
    "  c = f32[32,16]{1,0} parameter(2)\n"
    "  d = f32[8,32]{1,0} dot(a, b), lhs_contracting_dims={0}, "
    "rhs_contracting_dims={0}\n"
    "  e = f32[8,32]{1,0} dot(a, c), lhs_contracting_dims={0}, "
    "rhs_contracting_dims={1}\n"
    "  ROOT t = (f32[8,32]{1,0}, f32[8,32]{1,0}) tuple(d, e)\n"
    "}\n";

START_TEST(dot_lhs_with_contracting_major_is_copied_once)
{
	HFx f;
	HloModule *m;
	const HloInstr *d, *e;
	const HloComp *c;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, "HloModule m\n\nENTRY main {\n"
	    "  a = f32[16,8]{1,0} parameter(0)\n"
	    "  b = f32[16,32]{1,0} parameter(1)\n"
	    "  ROOT d = f32[8,32]{1,0} dot(a, b), lhs_contracting_dims={0}, "
	    "rhs_contracting_dims={0}\n}\n");
	hfx_pass(&f, m, "layout-assignment");
	/* the lhs is transposed for the MXU; the rhs is pushed as it is */
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	c = hlo_entry(m);
	d = c->instr.v[c->root];
	ck_assert_int_eq(c->instr.v[d->operand[0]]->op, HLO_COPY);
	ck_assert_int_eq(c->instr.v[d->operand[0]]->shape.layout.m2m[0], 0);
	ck_assert_int_eq(c->instr.v[d->operand[1]]->op, HLO_PARAMETER);
	hfx_free(&f);

	/* two dots on the same lhs share one copy */
	hfx_init(&f, "v6e");
	m = hfx_parse(&f, dot_text);
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 1);
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	e = find(m, "e");
	d = find(m, "d");
	ck_assert_int_eq(d->operand[0], e->operand[0]);
	hfx_same_results(&f, dot_text, m, 0);
	hfx_free(&f);
}
END_TEST

/* Attention on [2,S,8]: softmax over the keys, then P @ V. */
static const char *
attention_text(int s)
{
	static char t[2048];

	snprintf(t, sizeof t,
	    "HloModule att\n"
	    "\n"
	    "max {\n"
	    "  a = f32[] parameter(0)\n"
	    "  b = f32[] parameter(1)\n"
	    "  ROOT m = f32[] maximum(a, b)\n"
	    "}\n"
	    "\n"
	    "add {\n"
	    "  a = f32[] parameter(0)\n"
	    "  b = f32[] parameter(1)\n"
	    "  ROOT s = f32[] add(a, b)\n"
	    "}\n"
	    "\n"
	    "ENTRY main {\n"
	    "  q = f32[2,%d,8]{2,1,0} parameter(0)\n"
	    "  k = f32[2,%d,8]{2,1,0} parameter(1)\n"
	    "  v = f32[2,%d,8]{2,1,0} parameter(2)\n"
	    "  s = f32[2,%d,%d] dot(q, k), lhs_batch_dims={0}, "
	    "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
	    "rhs_contracting_dims={2}\n"
	    "  ninf = f32[] constant(-inf)\n"
	    "  mx = f32[2,%d] reduce(s, ninf), dimensions={2}, to_apply=max\n"
	    "  mb = f32[2,%d,%d] broadcast(mx), dimensions={0,1}\n"
	    "  sub = f32[2,%d,%d] subtract(s, mb)\n"
	    "  ex = f32[2,%d,%d] exponential(sub)\n"
	    "  zero = f32[] constant(0)\n"
	    "  sum = f32[2,%d] reduce(ex, zero), dimensions={2}, to_apply=add\n"
	    "  sb = f32[2,%d,%d] broadcast(sum), dimensions={0,1}\n"
	    "  p = f32[2,%d,%d] divide(ex, sb)\n"
	    "  ROOT o = f32[2,%d,8] dot(p, v), lhs_batch_dims={0}, "
	    "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
	    "rhs_contracting_dims={1}\n"
	    "}\n", s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s);
	return t;
}

START_TEST(attention_scores_keep_the_query_index_minor)
{
	HFx f;
	HloModule *m;
	const HloInstr *o;
	const char *t = attention_text(128);
	char text[2048];

	/* seed-dumps.md 2: {1,2,0} scores, one copy to {2,1,0} for P @ V */
	hfx_init(&f, "v6e");
	m = both(&f, t, 1);
	ck_shape(m, "s", "f32[2,128,128]{1,2,0:T(8,128)}");
	ck_shape(m, "ex", "f32[2,128,128]{1,2,0:T(8,128)}");
	ck_shape(m, "p", "f32[2,128,128]{1,2,0:T(8,128)}");
	ck_shape(m, "mb", "f32[2,128,128]{1,2,0:T(8,128)}");
	ck_shape(m, "mx", "f32[2,128]{1,0:T(2,128)}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	o = find(m, "o");
	ck_assert_int_eq(hlo_entry(m)->instr.v[o->operand[0]]->op, HLO_COPY);
	hfx_free(&f);

	/* 32 keys fill small's 16 lanes, not v6e's 128 */
	snprintf(text, sizeof text, "%s", attention_text(32));
	hfx_init(&f, "v6e");
	m = both(&f, text, 1);
	ck_shape(m, "s", "f32[2,32,32]{2,1,0:T(8,128)}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_free(&f);
	hfx_init(&f, "small");
	m = both(&f, text, 1);
	ck_shape(m, "s", "f32[2,32,32]{1,2,0:T(8,16)}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	hfx_free(&f);
}
END_TEST

static const char transpose_text[] =
    "HloModule m\n"
    "\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,16]{1,0} parameter(0)\n"
    "  t = f32[16,8]{1,0} transpose(p), dimensions={1,0}\n"
    "  n = f32[16,8]{1,0} negate(t)\n"
    "  z = f32[] constant(0)\n"
    "  ROOT r = f32[16]{0} reduce(n, z), dimensions={1}, to_apply=add\n"
    "}\n";

static const char transpose_root_text[] =
    "HloModule m, entry_computation_layout={(f32[8,16]{1,0})->"
    "f32[16,8]{1,0}}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,16]{1,0} parameter(0)\n"
    "  t = f32[16,8]{1,0} transpose(p), dimensions={1,0}\n"
    "  ROOT n = f32[16,8]{1,0} negate(t)\n"
    "}\n";

START_TEST(transpose_relabels_unless_a_user_wants_rows)
{
	HFx f;
	HloModule *m;

	/* nobody cares: the transpose only renames the dimensions */
	hfx_init(&f, "v6e");
	m = hfx_parse(&f, transpose_text);
	hfx_pass(&f, m, "layout-assignment");
	ck_shape(m, "t", "f32[16,8]{0,1}");
	ck_shape(m, "n", "f32[16,8]{0,1}");
	ck_shape(m, "r", "f32[16]{0}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_same_results(&f, transpose_text, m, 0);
	hfx_free(&f);

	/* the entry result wants rows: the transpose moves the data */
	hfx_init(&f, "v6e");
	m = hfx_parse(&f, transpose_root_text);
	hfx_pass(&f, m, "layout-assignment");
	ck_shape(m, "t", "f32[16,8]{1,0}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_same_results(&f, transpose_root_text, m, 0);
	hfx_free(&f);
}
END_TEST

static const char *
custom_text(const char *constraint)
{
	static char t[1024];

	snprintf(t, sizeof t,
	    "HloModule m\n"
	    "\n"
	    "ENTRY main {\n"
	    "  p = f32[16,8]{1,0} parameter(0)\n"
	    "  t = f32[8,16]{1,0} transpose(p), dimensions={1,0}\n"
	    "  e = f32[16,8]{1,0} exponential(p)\n"
	    "  ROOT k = (f32[8,16]{1,0}) custom-call(t, e), "
	    "custom_call_target=\"k\"%s\n"
	    "}\n", constraint);
	return t;
}

START_TEST(custom_call_operands_follow_constraints_or_stay_as_given)
{
	HFx f;
	HloModule *m;
	const HloInstr *k;
	const HloComp *c;

	/* no constraint: the operands keep the layouts they were given */
	hfx_init(&f, "v6e");
	m = hfx_parse(&f, custom_text(""));
	hfx_pass(&f, m, "layout-assignment");
	ck_shape(m, "t", "f32[8,16]{1,0}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_free(&f);

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, custom_text(", operand_layout_constraints="
	    "{f32[8,16]{0,1}, f32[16,8]{0,1}}"));
	hfx_pass(&f, m, "layout-assignment");
	/* the transpose can produce {0,1} itself; the exp needs a copy */
	ck_shape(m, "t", "f32[8,16]{0,1}");
	ck_shape(m, "e", "f32[16,8]{1,0}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 1);
	c = hlo_entry(m);
	k = find(m, "k");
	ck_assert_int_eq(c->instr.v[k->operand[1]]->op, HLO_COPY);
	ck_assert_int_eq(c->instr.v[k->operand[1]]->shape.layout.m2m[0], 0);
	hfx_free(&f);
}
END_TEST

static const char call_text[] =
    "HloModule m, entry_computation_layout={(f32[8,16]{0,1})->"
    "f32[8,16]{0,1}}\n"
    "\n"
    "f {\n"
    "  a = f32[8,16] parameter(0)\n"
    "  ROOT n = f32[8,16] negate(a)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,16] parameter(0)\n"
    "  ROOT c = f32[8,16] call(p), to_apply=f\n"
    "}\n";

START_TEST(called_computations_see_their_operands_layouts)
{
	HFx f;
	HloModule *m;
	const HloComp *g;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, call_text);
	hfx_pass(&f, m, "layout-assignment");
	g = m->comp.v[hlo_find_comp(m, strtab_intern(&f.strs, "f", 1))];
	ck_assert_int_eq(g->instr.v[g->root]->shape.layout.has, 1);
	ck_assert_int_eq(g->instr.v[g->root]->shape.layout.m2m[0], 0);
	ck_assert_int_eq(hlo_param(g, 0)->shape.layout.m2m[0], 0);
	ck_shape(m, "c", "f32[8,16]{0,1}");
	ck_assert_int_eq(hfx_count(m, HLO_COPY, 1), 0);
	hfx_same_results(&f, call_text, m, 0);
	hfx_free(&f);
}
END_TEST

static const char bitcast_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[768] parameter(0)\n"
    "  dead = f32[768] negate(p)\n"
    "  b = f32[1,768] bitcast(p)\n"
    "  ROOT r = f32[12,64] bitcast(b)\n"
    "}\n";

START_TEST(row_major_bitcasts_become_reshapes_and_dead_code_stays)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, bitcast_text);
	ck_assert_int_eq(hfx_pass(&f, m, "layout-assignment"), 1);
	ck_assert_int_eq(hfx_count(m, HLO_BITCAST, 1), 0);
	ck_assert_int_eq(hfx_count(m, HLO_RESHAPE, 1), 2);
	/* dead code is the dce pass's business */
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 1), 1);
	ck_shape(m, "r", "f32[12,64]{1,0}");
	hfx_same_results(&f, bitcast_text, m, 0);
	hfx_free(&f);
}
END_TEST

static const char types_text[] =
    "HloModule m\n"
    "\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  x = f32[16,64] parameter(0)\n"
    "  x2 = f32[2,64] parameter(1)\n"
    "  x4 = f32[3,64] parameter(2)\n"
    "  w = s32[16,64] parameter(3)\n"
    "  h = bf16[16,64] convert(x)\n"
    "  b = s8[16,64] convert(w)\n"
    "  c = pred[16,64] compare(x, x), direction=GT\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[16] reduce(x, z), dimensions={1}, to_apply=add\n"
    "  s = f32[] reduce(r, z), dimensions={0}, to_apply=add\n"
    "  ROOT t = (bf16[16,64], s8[16,64], pred[16,64], f32[16], f32[], "
    "f32[2,64], f32[3,64], s32[16,64]) tuple(h, b, c, r, s, x2, x4, w)\n"
    "}\n";

START_TEST(tiles_follow_type_rank_and_preset)
{
	HFx f, g;
	HloModule *m, *back;
	char *once;

	hfx_init(&f, "v6e");
	m = both(&f, types_text, 1);
	ck_shape(m, "x", "f32[16,64]{1,0:T(8,128)}");
	ck_shape(m, "w", "s32[16,64]{1,0:T(8,128)}");
	ck_shape(m, "h", "bf16[16,64]{1,0:T(8,128)(2,1)}");
	ck_shape(m, "b", "s8[16,64]{1,0:T(8,128)(4,1)}");
	ck_shape(m, "c", "pred[16,64]{1,0:T(8,128)(4,1)}");
	ck_shape(m, "r", "f32[16]{0:T(128)}");
	ck_shape(m, "s", "f32[]{:T(128)}");
	/* few rows: a shorter tile, as XLA's TPU table says */
	ck_shape(m, "x2", "f32[2,64]{1,0:T(2,128)}");
	ck_shape(m, "x4", "f32[3,64]{1,0:T(4,128)}");
	/* the text reads back and prints the same */
	once = strdup(hfx_print(&f, m));
	hfx_init(&g, "v6e");
	back = hfx_parse(&g, once);
	ck_assert_str_eq(hfx_print(&g, back), once);
	/* tiling is done once: a second run changes nothing */
	ck_assert_int_eq(hfx_pass(&f, m, "tiling"), 0);
	free(once);
	hfx_free(&g);
	hfx_free(&f);

	/* the small preset's vregs are 8 x 16 */
	hfx_init(&f, "small");
	m = both(&f, types_text, 1);
	ck_shape(m, "x", "f32[16,64]{1,0:T(8,16)}");
	ck_shape(m, "h", "bf16[16,64]{1,0:T(8,16)(2,1)}");
	ck_shape(m, "c", "pred[16,64]{1,0:T(8,16)(4,1)}");
	ck_shape(m, "r", "f32[16]{0:T(16)}");
	ck_shape(m, "s", "f32[]{:T(16)}");
	ck_shape(m, "x2", "f32[2,64]{1,0:T(2,16)}");
	hfx_free(&f);
}
END_TEST

START_TEST(tiling_alone_fills_default_layouts)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, chain_text);
	ck_assert_int_eq(hfx_pass(&f, m, "tiling"), 1);
	ck_shape(m, "e", "f32[8,16]{1,0:T(8,128)}");
	ck_shape(m, "c", "f32[]{:T(128)}");
	/* the entry layout's own order is kept, tiled */
	ck_assert_int_eq(m->ecl_result.layout.m2m[0], 0);
	ck_assert_int_eq(m->ecl_result.layout.ntile, 1);
	hfx_same_results(&f, chain_text, m, 0);
	hfx_free(&f);
}
END_TEST

START_TEST(pipeline_runs_both_and_keeps_meaning)
{
	static const char *const texts[] = { chain_text, relayout_text,
	    toy_text, dot_text, transpose_text, transpose_root_text,
	    call_text, types_text };
	size_t i;

	for (i = 0; i < countof(texts); i++) {
		HFx f;
		HloModule *m;
		HloOptOpts o = {0};

		hfx_init(&f, "v6e");
		m = hfx_parse(&f, texts[i]);
		o.mp = f.cx.mp;
		o.verify = 1;
		ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
		ck_assert_msg(strstr(hfx_print(&f, m), ":T(") != NULL,
		    "module %zu not tiled", i);
		hfx_same_results(&f, texts[i], m, 0);
		hfx_free(&f);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_layout");
	TCase *t = tcase_create("layout");
	TCase *u = tcase_create("tiling");

	tcase_add_test(t, elementwise_chains_take_the_entry_layout);
	tcase_add_test(t, entry_result_layout_costs_one_copy);
	tcase_add_test(t, toy_needs_no_copy_and_w2_keeps_its_entry_layout);
	tcase_add_test(t, dot_lhs_with_contracting_major_is_copied_once);
	tcase_add_test(t, attention_scores_keep_the_query_index_minor);
	tcase_add_test(t, transpose_relabels_unless_a_user_wants_rows);
	tcase_add_test(t,
	    custom_call_operands_follow_constraints_or_stay_as_given);
	tcase_add_test(t, called_computations_see_their_operands_layouts);
	tcase_add_test(t,
	    row_major_bitcasts_become_reshapes_and_dead_code_stays);
	tcase_add_test(u, tiles_follow_type_rank_and_preset);
	tcase_add_test(u, tiling_alone_fills_default_layouts);
	tcase_add_test(u, pipeline_runs_both_and_keeps_meaning);
	suite_add_tcase(s, t);
	suite_add_tcase(s, u);
	return s;
}

int
main(void)
{
	return hfx_run(suite());
}
