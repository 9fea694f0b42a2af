/*
 * check_xlu.c - the vector structure ops and the elementwise ops over
 * every layout, end to end: lane and row reductions, broadcasts both
 * ways, transposes, rolls, reshapes, iota masks with where, the EUP
 * functions, an online-softmax step.  Each kernel is compiled, run on
 * the simulator (small and v4, every check on) and in interpret mode on
 * the same inputs (tests/unit/vliwtest.h).
 *
 * Tolerances (relative to 1 + |reference|): integer, mask, move and
 * max/min results are exact.  f32 sums are added in another order than
 * the interpreter's (a halving tree across lanes and sublanes), 1e-5
 * over 32-element rows of [-1, 1) values.  The EUP is exp2, log2 and
 * 1/x from the C library: exp and log are composed from them
 * (exp(x) = 2^xh * 2^xl with an exact split, log(x) = log2(x) ln 2),
 * each within a few ulps (about 1e-6 relative) of the interpreter's expf
 * and logf, so 2e-6; division is exact (tests/unit/check_div.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

static const char *const presets[] = { "small", "v4" };

static void
both(const char *src, const char *entry, double tol)
{
	VtOpts o = { .tol = tol, .seed = 3 };
	size_t k;

	for (k = 0; k < countof(presets); k++)
		vt_check(src, presets[k], entry, &o, NULL);
}

START_TEST(lane_reductions)
{
	both("kernel red(x: f32[16, 48], out s: f32[16, 48], out c: f32[16, 48])\n"
	    "grid (i: 2)\n"
	    "blocks { x: [8, 48] at (i, 0); s: [8, 48] at (i, 0);\n"
	    "         c: [8, 48] at (i, 0); }\n"
	    "{ let a = x[...];\n"
	    "  s[...] = a - rowmax(a) + rowsum(a) * 0.5;\n"
	    "  c[...] = a * rowmin(a) + mean(a, axis: 1, keepdims); }\n"
	    "export red;\n", "red", 1e-5);
}
END_TEST

START_TEST(row_reductions)
{
	both("kernel colred(x: f32[24, 48], out s: f32[1, 48],\n"
	    "    out mx: f32[1, 48], out mn: f32[1, 48])\n"
	    "{ let a = x[...];\n"
	    "  s[...] = sum(a, axis: 0, keepdims);\n"
	    "  mx[...] = max(a, axis: 0, keepdims);\n"
	    "  mn[...] = min(a, axis: 0, keepdims); }\n"
	    "export colred;\n", "colred", 1e-5);
}
END_TEST

START_TEST(int_reductions)
{
	both("kernel ired(x: i32[16, 32], out s: i32[16, 1], out t: i32[1, 32],\n"
	    "    out u: i32[16, 1])\n"
	    "{ s[...] = rowmax(x[...]) + rowsum(x[...]);\n"
	    "  t[...] = sum(x[...], axis: 0, keepdims) - min(x[...], axis: 0,\n"
	    "      keepdims);\n"
	    "  u[...] = rowmin(x[...] * 3); }\n"
	    "export ired;\n", "ired", 0);
}
END_TEST

START_TEST(broadcasts)
{
	both("kernel bc(x: f32[16, 32], r: f32[1, 32], c: f32[16, 1],\n"
	    "    out y: f32[16, 32], out z: f32[16, 32])\n"
	    "{ y[...] = x[...] * r[...] + c[...];\n"
	    "  z[...] = broadcast(c[...], [16, 32]) - broadcast(r[...], [16, 32])\n"
	    "      + rowmax(x[...]); }\n"
	    "export bc;\n", "bc", 0);
}
END_TEST

START_TEST(transposes)
{
	both("kernel tr(x: f32[32, 16], w: i32[16, 48], out y: f32[16, 32],\n"
	    "    out v: i32[48, 16])\n"
	    "{ y[...] = transpose(x[...]) * 2.0;\n"
	    "  v[...] = transpose(w[...]) + 1; }\n"
	    "export tr;\n", "tr", 0);
}
END_TEST

START_TEST(rolls)
{
	both("kernel rl(x: f32[16, 32], s: f32[8, 12], out y: f32[16, 32],\n"
	    "    out z: f32[16, 32], out t: f32[8, 12])\n"
	    "{ y[...] = roll(x[...], 3, axis: 1);\n"
	    "  z[...] = roll(x[...], 19, axis: 1) + roll(x[...], 5, axis: 0);\n"
	    "  t[...] = roll(s[...], -5, axis: 1) * roll(s[...], 3, axis: 0); }\n"
	    "export rl;\n", "rl", 0);
}
END_TEST

START_TEST(reshapes)
{
	both("kernel rs(x: f32[16, 32], out r: f32[16], out c: f32[32, 1])\n"
	    "{ r[...] = reshape(rowsum(x[...]), [16]);\n"
	    "  c[...] = reshape(x[0:1, :], [32, 1]) * 2.0; }\n"
	    "export rs;\n", "rs", 1e-5);
}
END_TEST

START_TEST(masks)
{
	both("kernel msk(x: f32[16, 32], b: i32[16, 32], out y: f32[16, 32],\n"
	    "    out k: i32[16, 32])\n"
	    "{ let a = x[...];\n"
	    "  let r = iota([16, 32], 0);\n"
	    "  let c = iota([16, 32], 1);\n"
	    "  let keep = c <= r || (a > 0.5 && !(c == 3));\n"
	    "  let odd = (b[...] & 1) == 1;\n"
	    "  y[...] = where(keep, a, -a * 2.0);\n"
	    "  k[...] = where(keep == odd, c - r, b[...]) +\n"
	    "      where(keep != odd, 100, 0); }\n"
	    "export msk;\n", "msk", 0);
}
END_TEST

START_TEST(eup)
{
	both("kernel eu(x: f32[16, 32], out y: f32[16, 32], out z: f32[16, 32],\n"
	    "    out w: f32[16, 32])\n"
	    "{ let a = x[...];\n"
	    "  y[...] = exp(a * 40.0 - 20.0) + exp(a);\n"
	    "  z[...] = log(a * a + 0.001) + tanh(a * 3.0);\n"
	    "  w[...] = a / (a * a + 0.25) + rsqrt(a * a + 0.5); }\n"
	    "export eu;\n", "eu", 2e-6);
}
END_TEST

/* exp(-inf) is 0 and exp(+inf) inf (the split must not make NaNs). */
START_TEST(exp_limits)
{
	both("kernel el(x: f32[8, 16], out y: f32[8, 16])\n"
	    "{ let a = x[...];\n"
	    "  y[...] = exp(where(a > 0.5, (a * -1.0e38) * 10.0, a * 100.0)) +\n"
	    "      exp(a - 3.0e38) + where(a < -0.9,\n"
	    "      exp((a * 0.0 + 3.0e38) * 10.0), 1.0); }\n"
	    "export el;\n", "el", 2e-6);
}
END_TEST

/* One online-softmax step as in Splash: lane-replicated statistics. */
START_TEST(softmax)
{
	both("kernel sm(x: f32[32, 64], out y: f32[32, 64], out l: f32[32, 16])\n"
	    "grid (i: 4)\n"
	    "blocks { x: [8, 64] at (i, 0); y: [8, 64] at (i, 0);\n"
	    "         l: [8, 16] at (i, 0); }\n"
	    "{ let s = x[...] * 4.0;\n"
	    "  let m = rowmax(s);\n"
	    "  let p = exp(s - m);\n"
	    "  let d = rowsum(p);\n"
	    "  y[...] = p / d;\n"
	    "  l[...] = m + log(d); }\n"
	    "export sm;\n", "sm", 1e-5);
}
END_TEST

/* A reduction taken out of the vector unit for a condition (a store,
   a VMEM->SMEM DMA and a scalar load). */
START_TEST(extract_when)
{
	both("kernel ex(x: f32[8, 16], out y: f32[8, 16])\n"
	    "{ let t = sum(sum(x[...], axis: 1), axis: 0);\n"
	    "  y[...] = x[...] * 2.0;\n"
	    "  when (t > 0.0) { y[...] = x[...]; } }\n"
	    "export ex;\n", "ex", 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("xlu");
	TCase *t = tcase_create("ops");

	tcase_set_timeout(t, 600);
	tcase_add_test(t, lane_reductions);
	tcase_add_test(t, row_reductions);
	tcase_add_test(t, int_reductions);
	tcase_add_test(t, broadcasts);
	tcase_add_test(t, transposes);
	tcase_add_test(t, rolls);
	tcase_add_test(t, reshapes);
	tcase_add_test(t, masks);
	tcase_add_test(t, eup);
	tcase_add_test(t, exp_limits);
	tcase_add_test(t, softmax);
	tcase_add_test(t, extract_when);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
