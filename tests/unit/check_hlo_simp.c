/*
 * check_hlo_simp.c - the simplification passes (graph/pass_algsimp*.c,
 * pass_constfold.c, pass_cse.c): one test per rule, each asserting that
 * the rewrite happened (or, for the refusals, did not) and that the
 * module still computes bit for bit what it computed before, through
 * the reference evaluator.
 */
#include "tests/unit/hlotest.h"

#define REDUCERS \
    "add {\n" \
    "  a = f32[] parameter(0)\n" \
    "  b = f32[] parameter(1)\n" \
    "  ROOT s = f32[] add(a, b)\n" \
    "}\n" \
    "max {\n" \
    "  a = f32[] parameter(0)\n" \
    "  b = f32[] parameter(1)\n" \
    "  ROOT s = f32[] maximum(a, b)\n" \
    "}\n"

#define MOD(body) "HloModule m\n" REDUCERS "ENTRY main {\n" body "}\n"

/*
 * Runs 'pass' then dce on text; asserts whether the pass changed it and
 * that the result computes the same values.  The module lives in f.
 */
static HloModule *
run(HFx *f, const char *text, const char *pass, int changed)
{
	HloModule *m;

	hfx_init(f, NULL);
	m = hfx_parse(f, text);
	ck_assert_int_eq(hfx_pass(f, m, pass), changed);
	hfx_pass(f, m, "dce");
	hfx_same_results(f, text, m, 0);
	return m;
}

static const HloInstr *
root(const HloModule *m)
{
	const HloComp *c = hlo_entry(m);

	return c->instr.v[c->root];
}

static const HloInstr *
operand(const HloModule *m, const HloInstr *in, int k)
{
	return hlo_entry(m)->instr.v[in->operand[k]];
}

/* ------------------------------------------------------- identities */
static const char add_negzero[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  z = f32[] constant(-0.0)\n"
    "  b = f32[4,8]{1,0} broadcast(z), dimensions={}\n"
    "  ROOT r = f32[4,8]{1,0} add(b, p)\n");
static const char add_poszero[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  b = f32[4,8]{1,0} broadcast(z), dimensions={}\n"
    "  ROOT r = f32[4,8]{1,0} add(p, b)\n");
static const char add_int_zero[] = MOD(
    "  p = s32[4]{0} parameter(0)\n"
    "  z = s32[4]{0} constant({0, 0, 0, 0})\n"
    "  ROOT r = s32[4]{0} add(p, z)\n");

START_TEST(add_of_negative_zero_is_removed)
{
	HFx f;
	HloModule *m = run(&f, add_negzero, "algsimp", 1);

	ck_assert_int_eq(root(m)->op, HLO_PARAMETER);
	hfx_free(&f);
	m = run(&f, add_int_zero, "algsimp", 1);
	ck_assert_int_eq(root(m)->op, HLO_PARAMETER);
	hfx_free(&f);
	/* -0.0 + 0.0 is +0.0: not an identity for floats */
	m = run(&f, add_poszero, "algsimp", 0);
	ck_assert_int_eq(hfx_count(m, HLO_ADD, 0), 1);
	hfx_free(&f);
}
END_TEST

static const char mul_one[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  c = f32[] constant(1)\n"
    "  b = f32[4,8]{1,0} broadcast(c), dimensions={}\n"
    "  s = f32[4,8]{1,0} subtract(p, b)\n"
    "  z = f32[] constant(0)\n"
    "  bz = f32[4,8]{1,0} broadcast(z), dimensions={}\n"
    "  t = f32[4,8]{1,0} subtract(s, bz)\n"
    "  d = f32[4,8]{1,0} divide(t, b)\n"
    "  ROOT r = f32[4,8]{1,0} multiply(b, d)\n");
static const char mul_zero_float[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  b = f32[4,8]{1,0} broadcast(z), dimensions={}\n"
    "  ROOT r = f32[4,8]{1,0} multiply(p, b)\n");
static const char mul_zero_int[] = MOD(
    "  p = s32[4,8]{1,0} parameter(0)\n"
    "  z = s32[] constant(0)\n"
    "  b = s32[4,8]{1,0} broadcast(z), dimensions={}\n"
    "  ROOT r = s32[4,8]{1,0} multiply(p, b)\n");

START_TEST(multiply_by_one_subtract_and_divide_identities)
{
	HFx f;
	HloModule *m = run(&f, mul_one, "algsimp", 1);

	/* (p - 1 - 0) / 1 * 1: the last three are identities */
	ck_assert_int_eq(root(m)->op, HLO_SUBTRACT);
	ck_assert_int_eq(hfx_count(m, HLO_DIVIDE, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_SUBTRACT, 0), 1);
	hfx_free(&f);
	/* x * 0 is 0 only for integers (NaN * 0, inf * 0) */
	m = run(&f, mul_zero_float, "algsimp", 0);
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 1);
	hfx_free(&f);
	m = run(&f, mul_zero_int, "algsimp", 1);
	ck_assert_int_eq(root(m)->op, HLO_BROADCAST);
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 0);
	hfx_free(&f);
}
END_TEST

static const char idempotent[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  q = pred[4,8]{1,0} parameter(1)\n"
    "  n = f32[4,8]{1,0} negate(p)\n"
    "  nn = f32[4,8]{1,0} negate(n)\n"
    "  mx = f32[4,8]{1,0} maximum(nn, nn)\n"
    "  mn = f32[4,8]{1,0} minimum(mx, mx)\n"
    "  ninf = f32[] constant(-inf)\n"
    "  bi = f32[4,8]{1,0} broadcast(ninf), dimensions={}\n"
    "  m2 = f32[4,8]{1,0} maximum(bi, mn)\n"
    "  cp = f32[4,8]{1,0} copy(m2)\n"
    "  ROOT s = f32[4,8]{1,0} select(q, cp, cp)\n");

START_TEST(negate_negate_max_min_select_copy)
{
	HFx f;
	HloModule *m = run(&f, idempotent, "algsimp", 1);

	ck_assert_int_eq(root(m)->op, HLO_PARAMETER);
	ck_assert_int_eq(root(m)->num, 0);
	ck_assert_int_eq(hlo_entry(m)->instr.n, 2);
	hfx_free(&f);
}
END_TEST

/* --------------------------------------------------------- division */
static const char div_64[] = MOD(
    "  p = f32[16,64]{1,0} parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  s = f32[16]{0} reduce(p, z), dimensions={1}, to_apply=add\n"
    "  c = f32[] constant(64)\n"
    "  b = f32[16]{0} broadcast(c), dimensions={}\n"
    "  ROOT d = f32[16]{0} divide(s, b), metadata={op_name=\"mean\"}\n");
static const char div_3[] = MOD(
    "  p = f32[16]{0} parameter(0)\n"
    "  c = f32[] constant(3)\n"
    "  b = f32[16]{0} broadcast(c), dimensions={}\n"
    "  ROOT d = f32[16]{0} divide(p, b)\n");
static const char div_array[] = MOD(
    "  p = bf16[4]{0} parameter(0)\n"
    "  c = bf16[4]{0} constant({2, -0.25, 1024, 0.5})\n"
    "  ROOT d = bf16[4]{0} divide(p, c)\n");
static const char div_int[] = MOD(
    "  p = s32[4]{0} parameter(0)\n"
    "  c = s32[4]{0} constant({8, 8, 8, 8})\n"
    "  ROOT d = s32[4]{0} divide(p, c)\n");
static const char div_int3[] = MOD(
    "  p = s32[4]{0} parameter(0)\n"
    "  c = s32[4]{0} constant({3, 3, 3, 3})\n"
    "  ROOT d = s32[4]{0} divide(p, c)\n");
static const char div_u32[] = MOD(
    "  p = u32[4]{0} parameter(0)\n"
    "  c = u32[] constant(16)\n"
    "  b = u32[4]{0} broadcast(c), dimensions={}\n"
    "  ROOT d = u32[4]{0} divide(p, b)\n");
static const char div_pred[] = MOD(
    "  p = f32[16]{0} parameter(0)\n"
    "  q = f32[16]{0} parameter(1)\n"
    "  y = f32[] parameter(2)\n"
    "  l = pred[16]{0} compare(p, q), direction=LT\n"
    "  x = f32[16]{0} convert(l)\n"
    "  b = f32[16]{0} broadcast(y), dimensions={}\n"
    "  ROOT d = f32[16]{0} divide(x, b)\n");

START_TEST(divide_by_power_of_two_becomes_multiply)
{
	HFx f;
	HloModule *m = run(&f, div_64, "algsimp", 1);
	const HloInstr *r = root(m), *k;

	/* the seed's mean: divide(sum, 64) -> multiply(sum, 0.015625) */
	ck_assert_int_eq(r->op, HLO_MULTIPLY);
	ck_assert_str_eq(r->meta.op_name, "mean");
	k = operand(m, operand(m, r, 1), 0);
	ck_assert_int_eq(k->op, HLO_CONSTANT);
	ck_assert(k->lit.v[0].f == 0.015625);
	hfx_free(&f);
	m = run(&f, div_array, "algsimp", 1);
	ck_assert_int_eq(root(m)->op, HLO_MULTIPLY);
	k = operand(m, root(m), 1);
	ck_assert(k->lit.v[1].f == -4 && k->lit.v[2].f == 1.0 / 1024);
	hfx_free(&f);
}
END_TEST

START_TEST(divide_by_other_constants_stays_at_rtol_0)
{
	HFx f;
	HloModule *m = run(&f, div_3, "algsimp", 0);

	/* 1/3 is not exact: x * (1/3) rounds differently from x / 3 */
	ck_assert_int_eq(root(m)->op, HLO_DIVIDE);
	hfx_free(&f);
	m = run(&f, div_int3, "algsimp", 0);
	ck_assert_int_eq(root(m)->op, HLO_DIVIDE);
	hfx_free(&f);
}
END_TEST

/* HandleDivide rule 2: s32 / 2^k truncates toward zero through a select
   and an arithmetic shift; u32 / 2^k is a logical shift (bit for bit,
   negative dividends included). */
START_TEST(integer_divide_by_power_of_two_becomes_shift)
{
	HFx f;
	HloModule *m = run(&f, div_int, "algsimp", 1);

	ck_assert_int_eq(root(m)->op, HLO_SHIFT_RIGHT_ARITHMETIC);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_SELECT);
	hfx_free(&f);
	m = run(&f, div_u32, "algsimp", 1);
	ck_assert_int_eq(root(m)->op, HLO_SHIFT_RIGHT_LOGICAL);
	hfx_free(&f);
}
END_TEST

/* Rule 10: convert(pred) / broadcast(scalar) -> x * broadcast(1 / y),
   exact (0 or 1 times the one rounding of 1 / y). */
START_TEST(pred_divided_by_scalar_becomes_multiply)
{
	HFx f;
	HloModule *m = run(&f, div_pred, "algsimp", 1);
	const HloInstr *b;

	ck_assert_int_eq(root(m)->op, HLO_MULTIPLY);
	b = operand(m, root(m), 1);
	ck_assert_int_eq(b->op, HLO_BROADCAST);
	ck_assert_int_eq(operand(m, b, 0)->op, HLO_DIVIDE);
	ck_assert_int_eq(operand(m, b, 0)->shape.rank, 0);
	hfx_free(&f);
}
END_TEST

/* The rules that change the rounding: algsimp-div, within its
   tolerance; each case's root after the pass and that root's second
   operand (HLO_INVALID: not checked). */
static const struct {
	const char *text;
	HloOp root, op1;
} rounding[] = {
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  a = f32[16]{0} exponential(p)\n"
	    "  b = f32[16]{0} exponential(q)\n"
	    "  ROOT d = f32[16]{0} divide(a, b)\n"), HLO_EXP, HLO_INVALID },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  b = f32[16]{0} exponential(q)\n"
	    "  ROOT d = f32[16]{0} divide(p, b)\n"), HLO_MULTIPLY, HLO_EXP },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  a = f32[16]{0} abs(q)\n"
	    "  b = f32[16]{0} sqrt(a)\n"
	    "  ROOT d = f32[16]{0} divide(p, b)\n"), HLO_MULTIPLY, HLO_RSQRT },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  a = f32[16]{0} abs(q)\n"
	    "  b = f32[16]{0} rsqrt(a)\n"
	    "  ROOT d = f32[16]{0} divide(p, b)\n"), HLO_MULTIPLY, HLO_SQRT },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  a = f32[16]{0} abs(q)\n"
	    "  c = f32[] constant(3)\n"
	    "  e = f32[16]{0} broadcast(c), dimensions={}\n"
	    "  b = f32[16]{0} power(a, e)\n"
	    "  ROOT d = f32[16]{0} divide(p, b)\n"), HLO_MULTIPLY, HLO_POWER },
	{ div_3, HLO_MULTIPLY, HLO_BROADCAST },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  r = f32[16]{0} parameter(2)\n"
	    "  s = f32[16]{0} parameter(3)\n"
	    "  a = f32[16]{0} divide(p, q)\n"
	    "  b = f32[16]{0} divide(r, s)\n"
	    "  ROOT d = f32[16]{0} divide(a, b)\n"), HLO_DIVIDE, HLO_MULTIPLY },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  r = f32[16]{0} parameter(2)\n"
	    "  a = f32[16]{0} divide(p, q)\n"
	    "  ROOT d = f32[16]{0} divide(a, r)\n"), HLO_DIVIDE, HLO_MULTIPLY },
	{ MOD("  p = f32[16]{0} parameter(0)\n"
	    "  q = f32[16]{0} parameter(1)\n"
	    "  r = f32[16]{0} parameter(2)\n"
	    "  b = f32[16]{0} divide(q, r)\n"
	    "  ROOT d = f32[16]{0} divide(p, b)\n"), HLO_DIVIDE, HLO_PARAMETER },
};

START_TEST(divide_rules_that_round)
{
	const char *text = rounding[_i].text;
	HFx f;
	HloModule *m;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, text);
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp"), 0);
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp-div"), 1);
	hfx_pass(&f, m, "dce");
	hfx_same_results(&f, text, m, hlo_pass_tolerance("algsimp-div"));
	ck_assert_int_eq(root(m)->op, rounding[_i].root);
	if (rounding[_i].op1 != HLO_INVALID)
		ck_assert_int_eq(operand(m, root(m), 1)->op,
		    rounding[_i].op1);
	hfx_free(&f);
}
END_TEST

/* ------------------------------------------------------- shape ops */
static const char reshapes[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  a = f32[32]{0} reshape(p)\n"
    "  b = f32[2,16]{1,0} reshape(a)\n"
    "  c = f32[2,16]{1,0} reshape(b)\n"
    "  ROOT d = f32[8,4]{1,0} reshape(c)\n");

/* XLA's run_algsimp_pass test: the two bitcasts become one */
static const char bitcasts[] = MOD(
    "  arg0 = f32[768] parameter(0)\n"
    "  bitcast = f32[1,768] bitcast(arg0)\n"
    "  ROOT bitcast1 = f32[1,12,64] bitcast(bitcast)\n");

START_TEST(reshape_chains_merge)
{
	HFx f;
	HloModule *m = run(&f, reshapes, "algsimp", 1);

	ck_assert_int_eq(hfx_count(m, HLO_RESHAPE, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	hfx_free(&f);
	m = run(&f, bitcasts, "algsimp", 1);
	ck_assert_int_eq(hfx_count(m, HLO_BITCAST, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	ck_assert_int_eq(root(m)->shape.rank, 3);
	hfx_free(&f);
}
END_TEST

static const char broadcasts[] = MOD(
    "  p = f32[4]{0} parameter(0)\n"
    "  a = f32[4]{0} broadcast(p), dimensions={0}\n"
    "  b = f32[4,8]{1,0} broadcast(a), dimensions={0}\n"
    "  ROOT c = f32[3,4,8]{2,1,0} broadcast(b), dimensions={1,2}\n");

static const char sink[] = MOD(
    "  p = f32[16]{0} parameter(0)\n"
    "  q = f32[4,4]{1,0} parameter(1)\n"
    "  a = f32[16,1]{1,0} reshape(p)\n"
    "  c = f32[] constant(2)\n"
    "  b = f32[16,1]{1,0} broadcast(c), dimensions={}\n"
    "  e = f32[16,1]{1,0} exponential(a)\n"
    "  m = f32[16,1]{1,0} multiply(e, b)\n"
    "  r = f32[4,4]{1,0} reshape(p)\n"
    "  s = f32[4,4]{1,0} add(r, q)\n"
    "  ROOT t = (f32[16,1]{1,0}, f32[4,4]{1,0}) tuple(m, s)\n");

START_TEST(degenerate_reshapes_move_to_the_users)
{
	HFx f;
	HloModule *m = run(&f, sink, "algsimp", 1);
	const HloInstr *r = operand(m, root(m), 0);

	/* exp and multiply run on f32[16]; one reshape at the end */
	ck_assert_int_eq(r->op, HLO_RESHAPE);
	ck_assert_int_eq(operand(m, r, 0)->op, HLO_MULTIPLY);
	ck_assert_int_eq(operand(m, r, 0)->shape.rank, 1);
	/* [16] -> [4,4] is not degenerate: the add stays on [4,4] */
	ck_assert_int_eq(operand(m, root(m), 1)->op, HLO_ADD);
	ck_assert_int_eq(hfx_count(m, HLO_RESHAPE, 0), 2);
	hfx_free(&f);
}
END_TEST

START_TEST(broadcast_chains_merge)
{
	HFx f;
	HloModule *m = run(&f, broadcasts, "algsimp", 1);

	ck_assert_int_eq(hfx_count(m, HLO_BROADCAST, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	ck_assert_int_eq(root(m)->dims.n, 1);
	ck_assert_int_eq(root(m)->dims.v[0], 1);
	hfx_free(&f);
}
END_TEST

static const char transposes[] = MOD(
    "  p = f32[2,3,4]{2,1,0} parameter(0)\n"
    "  a = f32[3,4,2]{2,1,0} transpose(p), dimensions={1,2,0}\n"
    "  b = f32[4,2,3]{2,1,0} transpose(a), dimensions={1,2,0}\n"
    "  c = f32[4,3,2]{2,1,0} transpose(b), dimensions={0,2,1}\n"
    "  ROOT d = f32[4,3,2]{2,1,0} transpose(c), dimensions={0,1,2}\n");
static const char transpose_ones[] = MOD(
    "  p = f32[16,1]{1,0} parameter(0)\n"
    "  t = f32[1,16]{1,0} transpose(p), dimensions={1,0}\n"
    "  ROOT r = f32[16]{0} reshape(t)\n");
static const char transpose_back[] = MOD(
    "  p = f32[2,3]{1,0} parameter(0)\n"
    "  t = f32[3,2]{1,0} transpose(p), dimensions={1,0}\n"
    "  ROOT r = f32[2,3]{1,0} transpose(t), dimensions={1,0}\n");

START_TEST(transpose_chains_compose)
{
	HFx f;
	HloModule *m = run(&f, transposes, "algsimp", 1);

	ck_assert_int_eq(hfx_count(m, HLO_TRANSPOSE, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	hfx_free(&f);
	/* a transpose that moves a size-1 dim is a reshape, which merges */
	m = run(&f, transpose_ones, "algsimp", 1);
	ck_assert_int_eq(hfx_count(m, HLO_TRANSPOSE, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_RESHAPE, 0), 1);
	hfx_free(&f);
	/* two transposes that undo each other: nothing left */
	m = run(&f, transpose_back, "algsimp", 1);
	ck_assert_int_eq(root(m)->op, HLO_PARAMETER);
	hfx_free(&f);
}
END_TEST

static const char slices[] = MOD(
    "  p = f32[16,8]{1,0} parameter(0)\n"
    "  a = f32[16,8]{1,0} slice(p), slice={[0:16], [0:8]}\n"
    "  b = f32[7,8]{1,0} slice(a), slice={[1:15:2], [0:8]}\n"
    "  ROOT c = f32[3,4]{1,0} slice(b), slice={[2:7:2], [1:8:2]}\n");

START_TEST(slice_chains_compose)
{
	HFx f;
	HloModule *m = run(&f, slices, "algsimp", 1);

	ck_assert_int_eq(hfx_count(m, HLO_SLICE, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	ck_assert_int_eq(root(m)->slo.v[0], 5);
	ck_assert_int_eq(root(m)->sst.v[0], 4);
	hfx_free(&f);
}
END_TEST

static const char converts[] = MOD(
    "  p = bf16[4,8]{1,0} parameter(0)\n"
    "  a = f32[4,8]{1,0} convert(p)\n"
    "  b = f64[4,8]{1,0} convert(a)\n"
    "  c = bf16[4,8]{1,0} convert(b)\n"
    "  q = s8[4,8]{1,0} parameter(1)\n"
    "  d = s32[4,8]{1,0} convert(q)\n"
    "  e = f32[4,8]{1,0} convert(d)\n"
    "  f = bf16[4,8]{1,0} convert(e)\n"
    "  ROOT t = (bf16[4,8]{1,0}, bf16[4,8]{1,0}) tuple(c, f)\n");
static const char convert_lossy[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  a = bf16[4,8]{1,0} convert(p)\n"
    "  ROOT b = f32[4,8]{1,0} convert(a)\n");

START_TEST(convert_chains_merge_where_exact)
{
	HFx f;
	HloModule *m = run(&f, converts, "algsimp", 1);

	/* what the rules added was visited in the same run */
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp"), 0);
	/* bf16 -> f32 -> f64 -> bf16 is p; s8 -> s32 -> f32 -> bf16 is one */
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 1);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_PARAMETER);
	hfx_free(&f);
	/* f32 -> bf16 rounds: the pair is not the identity */
	m = run(&f, convert_lossy, "algsimp", 0);
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 2);
	hfx_free(&f);
}
END_TEST

/* ------------------------------------------------------ reduce, dot */
static const char reduce_ones[] = MOD(
    "  p = f32[16,1]{1,0} parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  ROOT s = f32[16]{0} reduce(p, z), dimensions={1}, to_apply=add\n");
static const char reduce_ones_negzero[] = MOD(
    "  p = f32[16,1]{1,0} parameter(0)\n"
    "  z = f32[] constant(-0.0)\n"
    "  ROOT s = f32[16]{0} reduce(p, z), dimensions={1}, to_apply=add\n");
static const char reduce_bcast[] = MOD(
    "  p = f32[16]{0} parameter(0)\n"
    "  b = f32[16,64]{1,0} broadcast(p), dimensions={0}\n"
    "  z = f32[] constant(-inf)\n"
    "  ROOT s = f32[16]{0} reduce(b, z), dimensions={1}, to_apply=max\n");
static const char reduce_bcast_add[] = MOD(
    "  p = f32[16]{0} parameter(0)\n"
    "  b = f32[16,64]{1,0} broadcast(p), dimensions={0}\n"
    "  z = f32[] constant(0)\n"
    "  ROOT s = f32[16]{0} reduce(b, z), dimensions={1}, to_apply=add\n");

START_TEST(reduce_over_size_one_dims)
{
	HFx f;
	HloModule *m = run(&f, reduce_ones, "algsimp", 1);

	/* 0.0 + x keeps the add: -0.0 + 0.0 is +0.0; the reshape the
	   rule made moves past it */
	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_ADD, 0), 1);
	ck_assert_int_eq(root(m)->op, HLO_RESHAPE);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_ADD);
	hfx_free(&f);
	m = run(&f, reduce_ones_negzero, "algsimp", 1);
	/* what the rules added was visited in the same run */
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp"), 0);
	ck_assert_int_eq(root(m)->op, HLO_RESHAPE);
	hfx_free(&f);
}
END_TEST

START_TEST(max_reduce_of_broadcast)
{
	HFx f;
	HloModule *m = run(&f, reduce_bcast, "algsimp", 1);

	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 0), 0);
	/* what the rules added was visited in the same run */
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp"), 0);
	ck_assert_int_eq(root(m)->op, HLO_PARAMETER);
	hfx_free(&f);
	/* a float sum of copies is not x * n (rounding at every step) */
	m = run(&f, reduce_bcast_add, "algsimp", 0);
	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 0), 1);
	hfx_free(&f);
}
END_TEST

static const char dot_t[] = MOD(
    "  a = f32[8,16]{1,0} parameter(0)\n"
    "  b = f32[8,4]{1,0} parameter(1)\n"
    "  t = f32[16,8]{1,0} transpose(a), dimensions={1,0}\n"
    "  u = f32[4,8]{1,0} transpose(b), dimensions={1,0}\n"
    "  ROOT d = f32[16,4]{1,0} dot(t, u), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={1}, operand_precision={highest,highest}\n");
static const char dot_t_reorder[] = MOD(
    "  a = f32[2,3,8]{2,1,0} parameter(0)\n"
    "  b = f32[8,4]{1,0} parameter(1)\n"
    "  t = f32[3,2,8]{2,1,0} transpose(a), dimensions={1,0,2}\n"
    "  ROOT d = f32[3,2,4]{2,1,0} dot(t, b), lhs_contracting_dims={2}, "
    "rhs_contracting_dims={0}\n");

START_TEST(dot_of_transpose_folds)
{
	HFx f;
	HloModule *m = run(&f, dot_t, "algsimp", 1);

	/* what the rules added was visited in the same run */
	ck_assert_int_eq(hfx_pass(&f, m, "algsimp"), 0);
	ck_assert_int_eq(hfx_count(m, HLO_TRANSPOSE, 0), 0);
	ck_assert_int_eq(root(m)->dot[DOT_LHS_CONTRACT].v[0], 0);
	ck_assert_int_eq(root(m)->dot[DOT_RHS_CONTRACT].v[0], 0);
	ck_assert_int_eq(root(m)->attrs.n, 1);
	hfx_free(&f);
	/* folding would swap the output's dims: the transpose stays */
	m = run(&f, dot_t_reorder, "algsimp", 0);
	ck_assert_int_eq(hfx_count(m, HLO_TRANSPOSE, 0), 1);
	hfx_free(&f);
}
END_TEST

/* dots that sum one product per element */
static const char dot_outer[] = MOD(
    "  a = f32[8,1]{1,0} parameter(0)\n"
    "  b = f32[1,4]{1,0} parameter(1)\n"
    "  ROOT d = f32[8,4]{1,0} dot(a, b), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n");
static const char dot_batch_bf16[] = MOD(
    "  a = bf16[2,8,1]{2,1,0} parameter(0)\n"
    "  b = bf16[2,1,4]{2,1,0} parameter(1)\n"
    "  ROOT d = f32[2,8,4]{2,1,0} dot(a, b), lhs_batch_dims={0}, "
    "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
    "rhs_contracting_dims={1}\n");
static const char dot_none[] = MOD(
    "  a = f32[3]{0} parameter(0)\n"
    "  b = f32[5]{0} parameter(1)\n"
    "  ROOT d = f32[3,5]{1,0} dot(a, b)\n");
/* these stay: an integer dot, a batch dim after a free one, depth 2 */
static const char dot_int[] = MOD(
    "  a = s32[8,1]{1,0} parameter(0)\n"
    "  b = s32[1,4]{1,0} parameter(1)\n"
    "  ROOT d = s32[8,4]{1,0} dot(a, b), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n");
static const char dot_batch_late[] = MOD(
    "  a = f32[8,2,1]{2,1,0} parameter(0)\n"
    "  b = f32[2,1,4]{2,1,0} parameter(1)\n"
    "  ROOT d = f32[2,8,4]{2,1,0} dot(a, b), lhs_batch_dims={1}, "
    "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
    "rhs_contracting_dims={1}\n");
static const char dot_deep[] = MOD(
    "  a = f32[8,2]{1,0} parameter(0)\n"
    "  b = f32[2,4]{1,0} parameter(1)\n"
    "  ROOT d = f32[8,4]{1,0} dot(a, b), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n");

START_TEST(dot_of_depth_one_is_a_multiply)
{
	static const char *const becomes[] = { dot_outer, dot_batch_bf16,
	    dot_none };
	static const char *const stays[] = { dot_int, dot_batch_late,
	    dot_deep };
	HFx f;
	HloModule *m;
	size_t k;

	for (k = 0; k < sizeof becomes / sizeof becomes[0]; k++) {
		const HloInstr *mul, *zero;
		m = run(&f, becomes[k], "algsimp", 1);
		ck_assert_int_eq(hfx_count(m, HLO_DOT, 0), 0);
		/* + 0.0, as the dot's sum starts there: -0.0 products too */
		ck_assert_int_eq(root(m)->op, HLO_ADD);
		zero = operand(m, operand(m, root(m), 1), 0);
		ck_assert_int_eq(zero->op, HLO_CONSTANT);
		ck_assert(zero->lit.v[0].f == 0 && !signbit(zero->lit.v[0].f));
		mul = operand(m, root(m), 0);
		ck_assert_int_eq(mul->op, HLO_MULTIPLY);
		ck_assert_int_eq(operand(m, mul, 0)->op, HLO_BROADCAST);
		ck_assert_int_eq(operand(m, mul, 1)->op, HLO_BROADCAST);
		hfx_free(&f);
	}
	/* bf16 operands are converted to the f32 result first */
	m = run(&f, dot_batch_bf16, "algsimp", 1);
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 2);
	hfx_free(&f);
	for (k = 0; k < sizeof stays / sizeof stays[0]; k++) {
		m = run(&f, stays[k], "algsimp", 0);
		ck_assert_int_eq(hfx_count(m, HLO_DOT, 0), 1);
		hfx_free(&f);
	}
}
END_TEST

/* ------------------------------------------------ constant folding */
static const char folds[] = MOD(
    "  p = f32[4]{0} parameter(0)\n"
    "  a = f32[4]{0} constant({1, 2, 3, 4})\n"
    "  i = f32[4]{0} iota(), iota_dimension=0\n"
    "  s = f32[4]{0} add(a, i)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[] reduce(s, z), dimensions={0}, to_apply=add\n"
    "  k = s32[] constant(768)\n"
    "  c = f32[] convert(k)\n"
    "  bc = f32[4]{0} broadcast(c), dimensions={}\n"
    "  br = f32[4]{0} broadcast(r), dimensions={}\n"
    "  e = f32[4]{0} exponential(s)\n"
    "  m = f32[4]{0} multiply(bc, br)\n"
    "  q = f32[4]{0} add(m, e)\n"
    "  ROOT o = f32[4]{0} add(p, q)\n");
static const char dot_fold[] = MOD(
    "  a = s32[2,2]{1,0} constant({{1, 2}, {3, 4}})\n"
    "  b = f32[2,2]{1,0} constant({{1, 2}, {3, 4}})\n"
    "  p = f32[2,2]{1,0} parameter(0)\n"
    "  i = s32[2,2]{1,0} dot(a, a), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  c = f32[2,2]{1,0} convert(i)\n"
    "  f = f32[2,2]{1,0} dot(b, b), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  g = f32[2,2]{1,0} add(c, f)\n"
    "  ROOT r = f32[2,2]{1,0} add(g, p)\n");
static const char big_fold[] = MOD(
    "  i = s32[512,256]{1,0} iota(), iota_dimension=0\n"
    "  j = s32[512,256]{1,0} iota(), iota_dimension=1\n"
    "  ROOT c = pred[512,256]{1,0} compare(i, j), direction=GE\n");
/* under the cap, with operands the evaluator keeps in malloc'd memory
   (over 64 KiB of values) */
static const char mask_fold[] = MOD(
    "  p = pred[128,128]{1,0} parameter(0)\n"
    "  i = s32[128,128]{1,0} iota(), iota_dimension=0\n"
    "  j = s32[128,128]{1,0} iota(), iota_dimension=1\n"
    "  c = pred[128,128]{1,0} compare(i, j), direction=GE\n"
    "  ROOT o = pred[128,128]{1,0} and(c, p)\n");

static const char fold_64[] = MOD(
    "  p = s64[2]{0} parameter(0)\n"
    "  a = s64[2]{0} constant({9007199254740993, 9223372036854775807})\n"
    "  b = s64[2]{0} constant({2, 1})\n"
    "  m = s64[2]{0} multiply(a, b)\n"
    "  c = s64[2]{0} add(m, b)\n"
    "  u = u64[] constant(18446744073709551615)\n"
    "  o = u64[] constant(1)\n"
    "  d = u64[] subtract(u, o)\n"
    "  q = s64[2]{0} add(p, c)\n"
    "  ROOT r = (s64[2]{0}, u64[]) tuple(q, d)\n");

START_TEST(constants_fold_through_the_evaluator)
{
	HFx f;
	HloModule *m = run(&f, folds, "constant-folding", 1);
	const HloInstr *q;

	ck_assert_int_eq(hfx_count(m, HLO_REDUCE, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_EXP, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_IOTA, 0), 0);
	/* broadcast scalars fold into one broadcast scalar */
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 0);
	q = operand(m, root(m), 1);
	ck_assert_int_eq(q->op, HLO_CONSTANT);
	ck_assert_int_eq(q->lit.n, 4);
	hfx_free(&f);
	/* an integer dot folds; a float dot rounds as the target's MXU
	   does, so it stays */
	m = run(&f, dot_fold, "constant-folding", 1);
	ck_assert_int_eq(hfx_count(m, HLO_DOT, 0), 1);
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 0);
	ck_assert_int_eq(operand(m, root(m), 0)->op, HLO_ADD);
	hfx_free(&f);
	/* s64 and u64 fold to their exact values, wrapped */
	m = run(&f, fold_64, "constant-folding", 1);
	ck_assert_ptr_nonnull(strstr(hfx_print(&f, m), "s64[2]{0} constant("
	    "{18014398509481988, -9223372036854775808})"));
	ck_assert_ptr_nonnull(strstr(hfx_print(&f, m), "u64[] constant("
	    "18446744073709551614)"));
	hfx_free(&f);
	/* a [512,256] result is over the size cap: the iotas stay */
	m = run(&f, big_fold, "constant-folding", 0);
	ck_assert_int_eq(hfx_count(m, HLO_IOTA, 0), 2);
	hfx_free(&f);
	m = run(&f, mask_fold, "constant-folding", 1);
	ck_assert_int_eq(hfx_count(m, HLO_IOTA, 0), 0);
	ck_assert_int_eq(operand(m, root(m), 0)->lit.n, 128 * 128);
	hfx_free(&f);
}
END_TEST

/* ------------------------------------------------------------- cse */
static const char dups[] = MOD(
    "  p = f32[4,8]{1,0} parameter(0)\n"
    "  e1 = f32[4,8]{1,0} exponential(p), metadata={op_name=\"a\"}\n"
    "  e2 = f32[4,8]{1,0} exponential(p), metadata={op_name=\"b\"}\n"
    "  n1 = f32[4,8]{1,0} negate(e1)\n"
    "  n2 = f32[4,8]{1,0} negate(e2)\n"
    "  c1 = f32[] constant(2)\n"
    "  c2 = f32[] constant(2)\n"
    "  c3 = f32[] constant(3)\n"
    "  b1 = f32[4,8]{1,0} broadcast(c1), dimensions={}\n"
    "  b2 = f32[4,8]{1,0} broadcast(c2), dimensions={}\n"
    "  b3 = f32[4,8]{1,0} broadcast(c3), dimensions={}\n"
    "  m1 = f32[4,8]{1,0} multiply(n1, b1)\n"
    "  m2 = f32[4,8]{1,0} multiply(n2, b2)\n"
    "  m3 = f32[4,8]{1,0} multiply(n2, b3)\n"
    "  lt = pred[4,8]{1,0} compare(m1, m2), direction=LT\n"
    "  gt = pred[4,8]{1,0} compare(m1, m2), direction=GT\n"
    "  s1 = f32[4,8]{1,0} select(lt, m1, m3)\n"
    "  s2 = f32[4,8]{1,0} select(gt, m2, m3)\n"
    "  ROOT t = (f32[4,8]{1,0}, f32[4,8]{1,0}) tuple(s1, s2)\n");

START_TEST(cse_merges_identical_instructions)
{
	HFx f;
	HloModule *m = run(&f, dups, "cse", 1);
	const HloComp *c;
	int i;

	ck_assert_int_eq(hfx_count(m, HLO_EXP, 0), 1);
	ck_assert_int_eq(hfx_count(m, HLO_NEGATE, 0), 1);
	/* 2 and 2 merge, 3 stays apart */
	ck_assert_int_eq(hfx_count(m, HLO_CONSTANT, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 2);
	/* compares in different directions are different */
	ck_assert_int_eq(hfx_count(m, HLO_COMPARE, 0), 2);
	c = hlo_entry(m);
	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == HLO_EXP)
			ck_assert_str_eq(c->instr.v[i]->meta.op_name, "a");
	ck_assert_int_eq(hfx_pass(&f, m, "cse"), 0);
	hfx_free(&f);
}
END_TEST

static const char effects[] =
    "HloModule m\n"
    "ENTRY main {\n"
    "  p = f32[4]{0} parameter(0)\n"
    "  a = f32[4]{0} custom-call(p), custom_call_target=\"t\", "
    "custom_call_has_side_effect=true\n"
    "  b = f32[4]{0} custom-call(p), custom_call_target=\"t\", "
    "custom_call_has_side_effect=true\n"
    "  c = f32[4]{0} custom-call(p), custom_call_target=\"u\"\n"
    "  d = f32[4]{0} custom-call(p), custom_call_target=\"v\"\n"
    "  e = f32[4]{0} custom-call(p), custom_call_target=\"v\"\n"
    "  ROOT t = (f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}) "
    "tuple(a, b, c, d, e)\n"
    "}\n";

START_TEST(cse_keeps_side_effects_apart)
{
	HFx f;
	HloModule *m;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, effects);
	/* d and e are the same pure call; a and b have effects */
	ck_assert_int_eq(hfx_pass(&f, m, "cse"), 1);
	ck_assert_int_eq(hfx_count(m, HLO_CUSTOM_CALL, 0), 4);
	ck_assert_int_eq(hfx_pass(&f, m, "cse"), 0);
	hfx_free(&f);
}
END_TEST

static const char unknown[] = MOD(
    "  a = f32[4]{0} constant({1, 2, 3, 4})\n"
    "  b = f32[4]{0} constant({1, 2, 3, 4})\n"
    "  ROOT c = f32[4]{0} add(a, b)\n");

START_TEST(cse_keeps_unknown_constants_apart)
{
	HFx f;
	HloModule *m;
	HloComp *c;
	int i;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, unknown);
	c = m->comp.v[m->entry];
	/* as a constant printed {...} reads: no values */
	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == HLO_CONSTANT)
			c->instr.v[i]->lit.n = 0;
	ck_assert_int_eq(hfx_pass(&f, m, "cse"), 0);
	ck_assert_int_eq(hfx_pass(&f, m, "constant-folding"), 0);
	ck_assert_int_eq(hfx_count(m, HLO_CONSTANT, 0), 2);
	hfx_free(&f);
}
END_TEST

/* ------------------------------------------------------- the group */
static const char rms[] = MOD(
    "  x = f32[16,64]{1,0} parameter(0)\n"
    "  sq = f32[16,64]{1,0} multiply(x, x)\n"
    "  z = f32[] constant(0)\n"
    "  s = f32[16]{0} reduce(sq, z), dimensions={1}, to_apply=add\n"
    "  r1 = f32[16,1]{1,0} reshape(s)\n"
    "  n = s32[] constant(64)\n"
    "  nf = f32[] convert(n)\n"
    "  bn = f32[16,1]{1,0} broadcast(nf), dimensions={}\n"
    "  mean = f32[16,1]{1,0} divide(r1, bn)\n"
    "  eps = f32[] constant(1e-06)\n"
    "  be = f32[16,1]{1,0} broadcast(eps), dimensions={}\n"
    "  a = f32[16,1]{1,0} add(mean, be)\n"
    "  q = f32[16,1]{1,0} sqrt(a)\n"
    "  nb = f32[16,1]{1,0} broadcast(q), dimensions={0,1}\n"
    "  t = f32[1,16]{1,0} transpose(nb), dimensions={1,0}\n"
    "  v = f32[16]{0} reshape(t)\n"
    "  b = f32[16,64]{1,0} broadcast(v), dimensions={0}\n"
    "  ROOT o = f32[16,64]{1,0} divide(x, b)\n");

START_TEST(pipeline_reaches_a_fixed_point)
{
	HFx f;
	HloModule *m;
	HloOptOpts o = {0};
	const HloInstr *q;

	/* the simplification group alone: later passes fuse the entry */
	static const char *const later[] = { "layout-assignment", "tiling",
		"fusion", "multi-output-fusion", "scheduling",
		"memory-space-assignment" };

	hfx_init(&f, NULL);
	m = hfx_parse(&f, rms);
	o.verify = 1;
	o.off = later;
	o.noff = sizeof later / sizeof later[0];
	ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
	hfx_same_results(&f, rms, m, 0);
	/* convert(64) folded, then divide(sum, 64) -> multiply by 1/64 */
	ck_assert_int_eq(hfx_count(m, HLO_DIVIDE, 0), 1);
	ck_assert_int_eq(hfx_count(m, HLO_MULTIPLY, 0), 2);
	ck_assert_int_eq(hfx_count(m, HLO_CONVERT, 0), 0);
	/* no-op broadcast, transpose and reshape pairs gone, and the
	   [16,1] chain runs on f32[16]: mean, + eps, sqrt */
	ck_assert_int_eq(hfx_count(m, HLO_TRANSPOSE, 0), 0);
	ck_assert_int_eq(hfx_count(m, HLO_BROADCAST, 0), 3);
	ck_assert_int_eq(hfx_count(m, HLO_RESHAPE, 0), 0);
	q = operand(m, operand(m, root(m), 1), 0);
	ck_assert_int_eq(q->op, HLO_SQRT);
	ck_assert_int_eq(q->shape.rank, 1);
	hfx_free(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_simp");
	TCase *a = tcase_create("algsimp");
	TCase *k = tcase_create("constant-folding");
	TCase *c = tcase_create("cse");
	TCase *g = tcase_create("group");

	tcase_add_test(a, add_of_negative_zero_is_removed);
	tcase_add_test(a, multiply_by_one_subtract_and_divide_identities);
	tcase_add_test(a, negate_negate_max_min_select_copy);
	tcase_add_test(a, divide_by_power_of_two_becomes_multiply);
	tcase_add_test(a, divide_by_other_constants_stays_at_rtol_0);
	tcase_add_test(a, integer_divide_by_power_of_two_becomes_shift);
	tcase_add_test(a, pred_divided_by_scalar_becomes_multiply);
	tcase_add_loop_test(a, divide_rules_that_round, 0,
	    (int)(sizeof rounding / sizeof rounding[0]));
	tcase_add_test(a, reshape_chains_merge);
	tcase_add_test(a, broadcast_chains_merge);
	tcase_add_test(a, degenerate_reshapes_move_to_the_users);
	tcase_add_test(a, transpose_chains_compose);
	tcase_add_test(a, slice_chains_compose);
	tcase_add_test(a, convert_chains_merge_where_exact);
	tcase_add_test(a, reduce_over_size_one_dims);
	tcase_add_test(a, max_reduce_of_broadcast);
	tcase_add_test(a, dot_of_transpose_folds);
	tcase_add_test(a, dot_of_depth_one_is_a_multiply);
	suite_add_tcase(s, a);
	tcase_add_test(k, constants_fold_through_the_evaluator);
	suite_add_tcase(s, k);
	tcase_add_test(c, cse_merges_identical_instructions);
	tcase_add_test(c, cse_keeps_side_effects_apart);
	tcase_add_test(c, cse_keeps_unknown_constants_apart);
	suite_add_tcase(s, c);
	tcase_add_test(g, pipeline_reaches_a_fixed_point);
	suite_add_tcase(s, g);
	return s;
}

int
main(void)
{
	return hfx_run(suite());
}
