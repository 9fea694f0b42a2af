/*
 * check_e2e.c - kernels compiled end to end: each is compiled from
 * source, run on the simulator (small preset and v4, every check on) and
 * in interpret mode on the same inputs, and the outputs compared
 * (tests/unit/vliwtest.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/vliwtest.h"

static const char *const presets[] = { "small", "v4" };

static void
both(const char *src, const char *entry, double tol)
{
	VtOpts o = { .tol = tol, .seed = 1 };
	size_t k;

	for (k = 0; k < countof(presets); k++)
		vt_check(src, presets[k], entry, &o, NULL);
}

/* ------------------------------------------------------------ elementwise */

START_TEST(elementwise)
{
	both("kernel ew(x: f32[64, 256], y: f32[64, 256], out z: f32[64, 256])\n"
	    "grid (i: 8, j: 2)\n"
	    "blocks { x: [8, 128] at (i, j); y: [8, 128] at (i, j);\n"
	    "         z: [8, 128] at (i, j); }\n"
	    "{ let a = x[...]; let b = y[...];\n"
	    "  z[...] = where(a > b, a * b - 1.5, max(a, b) + 2.0) / 4.0; }\n"
	    "export ew;\n", "ew", 1e-6);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("e2e");
	TCase *t = tcase_create("kernels");

	tcase_set_timeout(t, 600);
	tcase_add_test(t, elementwise);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int nf;

	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
