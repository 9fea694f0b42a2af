/*
 * check_hlo_fusion.c - the fusion decisions of graph/pass_fusion.c and
 * graph/pass_mof.c, one test each, refusals included: an expensive
 * producer is not copied, a cheap one is, the softmax guard, the three
 * kinds, sibling and producer-consumer multi-output fusion, and a merge
 * refused because it would make a cycle.  Every test checks the
 * structure and that the module still computes the same values, bit for
 * bit.
 */
#include "tests/unit/hlotest.h"

#define HDR "HloModule m\n\n"
#define ADD "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n" \
    "  ROOT s = f32[] add(a, b)\n}\n\n"
#define MAX "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n" \
    "  ROOT s = f32[] maximum(a, b)\n}\n\n"

/* The n-th fusion of the entry, in order, or NULL. */
static const HloInstr *
fusion_n(const HloModule *m, int n)
{
	const HloComp *c = hlo_entry(m);
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == HLO_FUSION && n-- == 0)
			return c->instr.v[i];
	return NULL;
}

static const HloComp *
body(const HloModule *m, const HloInstr *f)
{
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(f->callee, 0);
	return m->comp.v[f->callee];
}

static const HloInstr *
root(const HloComp *c)
{
	return c->instr.v[c->root];
}

/* Instructions of opcode op in computation c. */
static int
count_in(const HloComp *c, HloOp op)
{
	int i, n = 0;

	for (i = 0; i < c->instr.n; i++)
		n += c->instr.v[i]->op == op;
	return n;
}

/* Runs fusion (and multi-output-fusion if mof), then checks meaning. */
static HloModule *
fuse(HFx *f, const char *text, int mof, int expect)
{
	HloModule *m = hfx_parse(f, text);

	ck_assert_int_eq(hfx_pass(f, m, "fusion"), expect);
	if (mof)
		hfx_pass(f, m, "multi-output-fusion");
	hfx_same_results(f, text, m, 0);
	return m;
}

/* e = exp(p) feeds two consumers x and y. */
#define EXP_TWO_USERS HDR \
    "ENTRY main {\n" \
    "  p = f32[4,8]{1,0} parameter(0)\n" \
    "  q = f32[4,8]{1,0} parameter(1)\n" \
    "  e = f32[4,8]{1,0} exponential(p)\n" \
    "  nq = f32[4,8]{1,0} negate(q)\n" \
    "  x = f32[4,8]{1,0} multiply(e, nq)\n" \
    "  aq = f32[4,8]{1,0} abs(q)\n" \
    "  y = f32[4,8]{1,0} add(e, aq)\n"

/* ... and the result tuple, which cannot take it: each consumer becomes a
   fusion, exp stays out (stored anyway). */
static const char expensive_text[] = EXP_TWO_USERS
    "  ROOT t = (f32[4,8]{1,0}, f32[4,8]{1,0}, f32[4,8]{1,0}) "
    "tuple(x, y, e)\n"
    "}\n";

/* Without e in the tuple both users take exp, so each fusion gets a copy
   and nothing stores e (as the TPU compiler does). */
static const char expensive_all_text[] = EXP_TWO_USERS
    "  ROOT t = (f32[4,8]{1,0}, f32[4,8]{1,0}) tuple(x, y)\n"
    "}\n";

START_TEST(expensive_producer_is_not_duplicated)
{
	HFx f;
	HloModule *m;
	int i;

	hfx_init(&f, NULL);
	m = fuse(&f, expensive_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	/* one exp in the whole module, outside both fusions */
	ck_assert_int_eq(hfx_count(m, HLO_EXP, 1), 1);
	ck_assert_int_eq(hfx_count(m, HLO_EXP, 0), 1);
	for (i = 0; i < 2; i++) {
		const HloInstr *fu = fusion_n(m, i);
		ck_assert_str_eq(fu->kind, "kLoop");
		ck_assert_int_eq(count_in(body(m, fu), HLO_EXP), 0);
	}
	hfx_free(&f);
}
END_TEST

START_TEST(expensive_producer_taken_by_all_users_is_copied)
{
	HFx f;
	HloModule *m;
	int i;

	hfx_init(&f, NULL);
	m = fuse(&f, expensive_all_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_EXP, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_EXP, 1), 2);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(count_in(body(m, fusion_n(m, i)), HLO_EXP),
		    1);
	hfx_free(&f);
}
END_TEST

/* A while loop's body is a program too: its ops fuse; its fused
   computation comes before it; the reducer it calls stays as it is. */
static const char while_text[] = HDR ADD
    "cond {\n"
    "  s = (s32[], f32[4,8]{1,0}) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n"
    "  n = s32[] constant(3)\n"
    "  ROOT c = pred[] compare(i, n), direction=LT\n"
    "}\n"
    "body {\n"
    "  s = (s32[], f32[4,8]{1,0}) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n"
    "  x = f32[4,8]{1,0} get-tuple-element(s), index=1\n"
    "  one = s32[] constant(1)\n"
    "  j = s32[] add(i, one)\n"
    "  h = f32[] constant(0.5)\n"
    "  hb = f32[4,8]{1,0} broadcast(h), dimensions={}\n"
    "  t = f32[4,8]{1,0} tanh(x)\n"
    "  y = f32[4,8]{1,0} multiply(t, hb)\n"
    "  ROOT r = (s32[], f32[4,8]{1,0}) tuple(j, y)\n"
    "}\n"
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  z = s32[] constant(0)\n"
    "  t0 = (s32[], f32[4,8]{1,0}) tuple(z, p)\n"
    "  w = (s32[], f32[4,8]{1,0}) while(t0), condition=cond, body=body\n"
    "  x = f32[4,8]{1,0} get-tuple-element(w), index=1\n"
    "  zf = f32[] constant(0)\n"
    "  ROOT s = f32[4]{0} reduce(x, zf), dimensions={1}, to_apply=add\n"
    "}\n";

static int
comp_named(const HloModule *m, const char *name)
{
	int j;

	for (j = 0; j < m->comp.n; j++)
		if (strcmp(m->comp.v[j]->name, name) == 0)
			return j;
	return -1;
}

START_TEST(while_bodies_fuse)
{
	HFx f;
	HloModule *m;
	const HloComp *b;
	int j, k, bi;

	hfx_init(&f, NULL);
	m = fuse(&f, while_text, 0, 1);
	bi = comp_named(m, "body");
	ck_assert_int_ge(bi, 0);
	b = m->comp.v[bi];
	/* tanh, the broadcast and the multiply in one kLoop fusion */
	ck_assert_int_eq(count_in(b, HLO_TANH), 0);
	ck_assert_int_eq(count_in(b, HLO_MULTIPLY), 0);
	ck_assert_int_ge(count_in(b, HLO_FUSION), 1);
	for (k = 0; k < b->instr.n; k++)
		if (b->instr.v[k]->op == HLO_FUSION)
			ck_assert_int_lt(b->instr.v[k]->callee, bi);
	/* the reducer is not a program: nothing fused in it */
	j = comp_named(m, "add");
	ck_assert_int_eq(count_in(m->comp.v[j], HLO_FUSION), 0);
	ck_assert_int_eq(count_in(m->comp.v[j], HLO_ADD), 1);
	hfx_free(&f);
}
END_TEST

/*
 * Fusions already in the module (an imported XLA dump) grow as
 * consumers: the tanh joins fused.1.  fused.2's computation is also
 * called by fused.3, and kCustom is opaque: those stay as they are.
 */
static const char existing_text[] = HDR
    "fc1 {\n"
    "  a = f32[4,8]{1,0} parameter(0)\n"
    "  ROOT e = f32[4,8]{1,0} exponential(a)\n"
    "}\n\n"
    "fc2 {\n"
    "  a = f32[4,8]{1,0} parameter(0)\n"
    "  ROOT n = f32[4,8]{1,0} negate(a)\n"
    "}\n\n"
    "fc4 {\n"
    "  a = f32[4,8]{1,0} parameter(0)\n"
    "  ROOT n = f32[4,8]{1,0} sine(a)\n"
    "}\n\n"
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  t = f32[4,8]{1,0} tanh(p)\n"
    "  fused.1 = f32[4,8]{1,0} fusion(t), kind=kLoop, calls=fc1\n"
    "  u = f32[4,8]{1,0} cosine(p)\n"
    "  fused.2 = f32[4,8]{1,0} fusion(u), kind=kLoop, calls=fc2\n"
    "  fused.3 = f32[4,8]{1,0} fusion(fused.1), kind=kLoop, calls=fc2\n"
    "  w = f32[4,8]{1,0} floor(p)\n"
    "  fused.4 = f32[4,8]{1,0} fusion(w), kind=kCustom, calls=fc4\n"
    "  ROOT r = (f32[4,8]{1,0}, f32[4,8]{1,0}, f32[4,8]{1,0}) "
    "tuple(fused.2, fused.3, fused.4)\n"
    "}\n";

static const HloInstr *
instr_named(const HloModule *m, const char *name)
{
	const HloComp *c = hlo_entry(m);
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (strcmp(c->instr.v[i]->name, name) == 0)
			return c->instr.v[i];
	return NULL;
}

START_TEST(existing_fusions_grow)
{
	HFx f;
	HloModule *m;
	const HloInstr *f1, *f2, *f4;
	Buf st = {0};

	hfx_init(&f, NULL);
	f.cx.stats = &st;
	m = fuse(&f, existing_text, 0, 1);
	f1 = instr_named(m, "fused.1");
	ck_assert_ptr_nonnull(f1);
	ck_assert_int_eq(count_in(body(m, f1), HLO_TANH), 1);
	ck_assert_int_eq(hlo_entry(m)->instr.v[f1->operand[0]]->op,
	    HLO_PARAMETER);
	ck_assert_str_eq(f1->kind, "kLoop");
	/* the shared and the kCustom computations take nothing */
	f2 = instr_named(m, "fused.2");
	ck_assert_ptr_nonnull(f2);
	ck_assert_int_eq(hlo_entry(m)->instr.v[f2->operand[0]]->op,
	    HLO_COSINE);
	f4 = instr_named(m, "fused.4");
	ck_assert_ptr_nonnull(f4);
	ck_assert_int_eq(hlo_entry(m)->instr.v[f4->operand[0]]->op,
	    HLO_FLOOR);
	buf_putc(&st, 0);
	ck_assert_msg(strstr(st.p, "1 already there grown") != NULL, "%s",
	    st.p);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/* A broadcast of a constant is cheap: each consumer gets its own. */
static const char cheap_text[] = HDR
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  q = f32[4,8]{1,0} parameter(1)\n"
    "  c = f32[] constant(2)\n"
    "  bc = f32[4,8]{1,0} broadcast(c), dimensions={}\n"
    "  x = f32[4,8]{1,0} multiply(p, bc)\n"
    "  y = f32[4,8]{1,0} add(q, bc)\n"
    "  ROOT t = (f32[4,8]{1,0}, f32[4,8]{1,0}) tuple(x, y)\n"
    "}\n";

START_TEST(cheap_producer_is_duplicated)
{
	HFx f;
	HloModule *m;
	int i;

	hfx_init(&f, NULL);
	m = fuse(&f, cheap_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_BROADCAST, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_CONSTANT, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_BROADCAST, 1), 2);
	for (i = 0; i < 2; i++) {
		const HloComp *b = body(m, fusion_n(m, i));
		ck_assert_int_eq(count_in(b, HLO_BROADCAST), 1);
		ck_assert_int_eq(b->nparam, 1);
	}
	hfx_free(&f);
}
END_TEST

/*
 * s = negate(p) is cheap and unary, yet it feeds the row max and the
 * subtract before exp: it must not be copied.  With a sum instead of
 * the max the same graph copies it.
 */
#define GUARD_TEXT(RED, INIT) HDR ADD MAX \
    "ENTRY main {\n" \
    "  p = f32[4,8]{1,0} parameter(0)\n" \
    "  s = f32[4,8]{1,0} negate(p)\n" \
    "  i = f32[] constant(" INIT ")\n" \
    "  m = f32[4]{0} reduce(s, i), dimensions={1}, to_apply=" RED "\n" \
    "  b = f32[4,8]{1,0} broadcast(m), dimensions={0}\n" \
    "  d = f32[4,8]{1,0} subtract(s, b)\n" \
    "  ROOT e = f32[4,8]{1,0} exponential(d)\n" \
    "}\n"

static const char guard_text[] = GUARD_TEXT("max", "-inf");
static const char noguard_text[] = GUARD_TEXT("add", "0");

START_TEST(softmax_guard_keeps_the_shifted_value_single)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, NULL);
	m = fuse(&f, guard_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 1), 1);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 0), 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	hfx_free(&f);

	hfx_init(&f, NULL);
	m = fuse(&f, noguard_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 1), 2);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 0), 0);
	hfx_free(&f);
}
END_TEST

static const char loop_text[] = HDR
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  q = f32[4,8]{1,0} parameter(1)\n"
    "  n = f32[4,8]{1,0} negate(p)\n"
    "  ROOT a = f32[4,8]{1,0} add(n, q)\n"
    "}\n";

static const char input_text[] = HDR ADD
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  sq = f32[4,8]{1,0} multiply(p, p)\n"
    "  z = f32[] constant(0)\n"
    "  ROOT r = f32[4]{0} reduce(sq, z), dimensions={1}, to_apply=add\n"
    "}\n";

static const char transpose_text[] = HDR
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  n = f32[4,8]{1,0} negate(p)\n"
    "  ROOT t = f32[8,4]{1,0} transpose(n), dimensions={1,0}\n"
    "}\n";

static const char output_text[] = HDR
    "ENTRY main {\n"
    "  x = f32[4,8]{1,0} parameter(0)\n"
    "  w = f32[8,16]{1,0} parameter(1)\n"
    "  bias = f32[16]{0} parameter(2)\n"
    "  bx = f32[4,8]{1,0} bitcast(x)\n"
    "  d = f32[4,16]{1,0} dot(bx, w), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  bb = f32[4,16]{1,0} broadcast(bias), dimensions={1}\n"
    "  ROOT a = f32[4,16]{1,0} add(d, bb)\n"
    "}\n";

/* Each text fuses to one fusion at the root with the given kind. */
static void
one_fusion(const char *text, const char *kind, HloOp hero, int nparam)
{
	HFx f;
	HloModule *m;
	const HloInstr *fu;
	const HloComp *b;

	hfx_init(&f, NULL);
	m = fuse(&f, text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 1);
	fu = root(hlo_entry(m));
	ck_assert_int_eq(fu->op, HLO_FUSION);
	ck_assert_str_eq(fu->kind, kind);
	b = body(m, fu);
	ck_assert_int_eq(count_in(b, hero), 1);
	ck_assert_int_eq(b->nparam, nparam);
	/* only the parameters are left outside */
	ck_assert_int_eq(hlo_entry(m)->instr.n, nparam + 1);
	hfx_free(&f);
}

START_TEST(kinds_loop_input_output)
{
	one_fusion(loop_text, "kLoop", HLO_NEGATE, 2);
	one_fusion(input_text, "kInput", HLO_REDUCE, 1);
	one_fusion(transpose_text, "kInput", HLO_TRANSPOSE, 1);
	/* the dot with its bitcast operand and its bias epilogue */
	one_fusion(output_text, "kOutput", HLO_DOT, 3);
}
END_TEST

/* Tiled layouts stay as they were, inside and on the fusion. */
static const char tiled_text[] = HDR
    "ENTRY main {\n"
    "  p = f32[16,128]{1,0:T(8,128)} parameter(0)\n"
    "  q = f32[16,128]{1,0:T(8,128)} parameter(1)\n"
    "  n = f32[16,128]{1,0:T(8,128)} negate(p)\n"
    "  ROOT a = f32[16,128]{1,0:T(8,128)} add(n, q)\n"
    "}\n";

START_TEST(layouts_are_kept)
{
	HFx f;
	HloModule *m;
	const HloInstr *fu;
	const HloComp *b;
	int i;

	hfx_init(&f, NULL);
	m = fuse(&f, tiled_text, 0, 1);
	fu = root(hlo_entry(m));
	ck_assert_int_eq(fu->op, HLO_FUSION);
	ck_assert_int_eq(fu->shape.layout.ntile, 1);
	b = body(m, fu);
	for (i = 0; i < b->instr.n; i++) {
		const HloTile *t = &b->instr.v[i]->shape.layout.tile[0];
		ck_assert_int_eq(b->instr.v[i]->shape.layout.ntile, 1);
		ck_assert_int_eq(t->n, 2);
		ck_assert_int_eq(t->d[0], 8);
		ck_assert_int_eq(t->d[1], 128);
	}
	hfx_free(&f);
}
END_TEST

/* Two reductions of the same input: one kInput fusion, two outputs. */
static const char sibling_text[] = HDR ADD
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  z0 = f32[] constant(0)\n"
    "  r1 = f32[4]{0} reduce(p, z0), dimensions={1}, to_apply=add\n"
    "  sq = f32[4,8]{1,0} multiply(p, p)\n"
    "  z1 = f32[] constant(0)\n"
    "  r2 = f32[4]{0} reduce(sq, z1), dimensions={1}, to_apply=add\n"
    "  ROOT t = (f32[4]{0}, f32[4]{0}) tuple(r1, r2)\n"
    "}\n";

START_TEST(mof_siblings_read_their_operand_once)
{
	HFx f;
	HloModule *m;
	const HloInstr *fu;
	const HloComp *b;

	hfx_init(&f, NULL);
	m = fuse(&f, sibling_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	ck_assert_int_eq(hfx_pass(&f, m, "multi-output-fusion"), 1);
	hfx_same_results(&f, sibling_text, m, 0);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 1);
	fu = fusion_n(m, 0);
	ck_assert_str_eq(fu->kind, "kInput");
	ck_assert_int_eq(fu->noperand, 1);
	ck_assert_int_eq(fu->shape.type, HT_TUPLE);
	b = body(m, fu);
	ck_assert_int_eq(root(b)->op, HLO_TUPLE);
	ck_assert_int_eq(count_in(b, HLO_REDUCE), 2);
	ck_assert_int_eq(hfx_count(m, HLO_GTE, 0), 2);
	hfx_free(&f);
}
END_TEST

/*
 * The negate is cheap, so each reduce's fusion gets a copy; the two are
 * siblings over p, and the merged fusion computes the negate once.
 */
static const char sibling_copy_text[] = HDR ADD
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  q = f32[8]{0} parameter(1)\n"
    "  n = f32[4,8]{1,0} negate(p)\n"
    "  bq = f32[4,8]{1,0} broadcast(q), dimensions={1}\n"
    "  y = f32[4,8]{1,0} multiply(n, bq)\n"
    "  z0 = f32[] constant(0)\n"
    "  r1 = f32[4]{0} reduce(y, z0), dimensions={1}, to_apply=add\n"
    "  z1 = f32[] constant(0)\n"
    "  r2 = f32[4]{0} reduce(n, z1), dimensions={1}, to_apply=add\n"
    "  ROOT t = (f32[4]{0}, f32[4]{0}) tuple(r1, r2)\n"
    "}\n";

START_TEST(mof_siblings_share_a_copied_producer)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, NULL);
	m = fuse(&f, sibling_copy_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 1), 2);
	ck_assert_int_eq(hfx_pass(&f, m, "multi-output-fusion"), 1);
	hfx_same_results(&f, sibling_copy_text, m, 0);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 1);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 1), 1);
	ck_assert_int_eq(count_in(body(m, fusion_n(m, 0)), HLO_REDUCE), 2);
	hfx_free(&f);
}
END_TEST

/*
 * The seed's matmul_1 and RMS square-sum: the dot has two users, so
 * fusion leaves it alone; multi-output fusion puts it in the reduce's
 * fusion, kOutput with root tuple(reduce, dot), and the divide reads the
 * dot through get-tuple-element.  Merging it into the divide's fusion
 * instead would make a cycle (the divide reads the reduce).
 */
static const char pc_text[] = HDR ADD
    "ENTRY main {\n"
    "  x = f32[8,16]{1,0} parameter(0)\n"
    "  w = f32[16,16]{1,0} parameter(1)\n"
    "  h = f32[8,16]{1,0} dot(x, w), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  sq = f32[8,16]{1,0} multiply(h, h)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[8]{0} reduce(sq, z), dimensions={1}, to_apply=add\n"
    "  br = f32[8,16]{1,0} broadcast(r), dimensions={0}\n"
    "  ROOT d = f32[8,16]{1,0} divide(h, br)\n"
    "}\n";

START_TEST(mof_producer_consumer_dot_and_square_sum)
{
	HFx f;
	HloModule *m;
	const HloInstr *fu, *t;
	const HloComp *b, *e;

	hfx_init(&f, NULL);
	m = fuse(&f, pc_text, 0, 1);
	ck_assert_int_eq(hfx_count(m, HLO_DOT, 0), 1);
	ck_assert_int_eq(hfx_pass(&f, m, "multi-output-fusion"), 1);
	hfx_same_results(&f, pc_text, m, 0);
	e = hlo_entry(m);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_DOT, 0), 0);
	fu = fusion_n(m, 0);
	ck_assert_str_eq(fu->name, "multiply_reduce_fusion");
	ck_assert_str_eq(fu->kind, "kOutput");
	b = body(m, fu);
	t = root(b);
	ck_assert_int_eq(t->op, HLO_TUPLE);
	ck_assert_int_eq(t->noperand, 2);
	ck_assert_int_eq(b->instr.v[t->operand[0]]->op, HLO_REDUCE);
	ck_assert_int_eq(b->instr.v[t->operand[1]]->op, HLO_DOT);
	/* the divide's fusion reads both outputs */
	fu = root(e);
	ck_assert_int_eq(fu->op, HLO_FUSION);
	ck_assert_int_eq(e->instr.v[fu->operand[0]]->op, HLO_GTE);
	ck_assert_int_eq(e->instr.v[fu->operand[1]]->op, HLO_GTE);
	hfx_free(&f);
}
END_TEST

/*
 * a feeds b and c, and b reads c: merging a into b would leave c
 * between the two halves of one fusion.  c's shape is not a's, so a
 * may not join c either, nor are b and c siblings.  Nothing changes.
 */
static const char cycle_text[] = HDR
    "fa {\n"
    "  pa = f32[4,8]{1,0} parameter(0)\n"
    "  ROOT na = f32[4,8]{1,0} negate(pa)\n"
    "}\n\n"
    "fc {\n"
    "  pc = f32[4,8]{1,0} parameter(0)\n"
    "  sc = f32[4,1]{1,0} slice(pc), slice={[0:4], [0:1]}\n"
    "  ROOT rc = f32[4]{0} reshape(sc)\n"
    "}\n\n"
    "fb {\n"
    "  pb0 = f32[4,8]{1,0} parameter(0)\n"
    "  pb1 = f32[4]{0} parameter(1)\n"
    "  bb = f32[4,8]{1,0} broadcast(pb1), dimensions={0}\n"
    "  ROOT mb = f32[4,8]{1,0} multiply(pb0, bb)\n"
    "}\n\n"
    "ENTRY main {\n"
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  a = f32[4,8]{1,0} fusion(p), kind=kLoop, calls=fa\n"
    "  c = f32[4]{0} fusion(a), kind=kLoop, calls=fc\n"
    "  ROOT b = f32[4,8]{1,0} fusion(a, c), kind=kLoop, calls=fb\n"
    "}\n";

START_TEST(mof_refused_for_a_cycle)
{
	HFx f;
	HloModule *m;
	Buf st = {0};

	hfx_init(&f, NULL);
	f.cx.stats = &st;
	m = hfx_parse(&f, cycle_text);
	ck_assert_int_eq(hfx_pass(&f, m, "multi-output-fusion"), 0);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 3);
	ck_assert_int_eq(hfx_count(m, HLO_GTE, 0), 0);
	ck_assert_ptr_nonnull(st.p);
	ck_assert_ptr_nonnull(strstr(st.p, "; 1 refused for a cycle"));
	hfx_same_results(&f, cycle_text, m, 0);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/* The whole pipeline runs both passes, keeps meaning and verifies. */
START_TEST(pipeline_runs_both_passes)
{
	HFx f;
	HloModule *m;
	HloOptOpts o = {0};

	ck_assert(hlo_pass_known("fusion"));
	ck_assert(hlo_pass_known("multi-output-fusion"));
	hfx_init(&f, NULL);
	m = hfx_parse(&f, pc_text);
	o.verify = 1;
	ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
	hfx_same_results(&f, pc_text, m, 0);
	ck_assert_int_eq(hfx_count(m, HLO_FUSION, 0), 2);
	hfx_free(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_fusion");
	TCase *t = tcase_create("fusion");
	TCase *u = tcase_create("mof");

	tcase_add_test(t, expensive_producer_is_not_duplicated);
	tcase_add_test(t, expensive_producer_taken_by_all_users_is_copied);
	tcase_add_test(t, while_bodies_fuse);
	tcase_add_test(t, existing_fusions_grow);
	tcase_add_test(t, cheap_producer_is_duplicated);
	tcase_add_test(t, softmax_guard_keeps_the_shifted_value_single);
	tcase_add_test(t, kinds_loop_input_output);
	tcase_add_test(t, layouts_are_kept);
	tcase_add_test(u, mof_siblings_read_their_operand_once);
	tcase_add_test(u, mof_siblings_share_a_copied_producer);
	tcase_add_test(u, mof_producer_consumer_dot_and_square_sum);
	tcase_add_test(u, mof_refused_for_a_cycle);
	tcase_add_test(u, pipeline_runs_both_passes);
	suite_add_tcase(s, t);
	suite_add_tcase(s, u);
	return s;
}

int
main(void)
{
	return hfx_run(suite());
}
