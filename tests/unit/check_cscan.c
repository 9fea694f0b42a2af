/*
 * check_cscan.c - the C-file scanner (dsl/embed/cscan.c): the modules it
 * finds, their text against what the C compiler itself stringizes
 * (cscan_cases.h, compiled here and scanned as text), the layout, and
 * each malformed invocation's error.  Needs top_srcdir (make check).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/embed/embed.h"

static const struct Case {
	const char *name, *text;
} cases[] = {
#define PK_MODULE(name, ...) { #name, #__VA_ARGS__ },
#include "cscan_cases.h"
#undef PK_MODULE
};

typedef struct Fix {
	Arena a;
	SrcMgr sm;
	Diag d;
	FILE *err;
	char *errtext;
	size_t errlen;
	EmbedModule *m;
	int n;
} Fix;

static void
scan(Fix *f, const char *text, size_t len)
{
	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	f->err = open_memstream(&f->errtext, &f->errlen);
	diag_init(&f->d, &f->sm, f->err);
	f->n = embed_scan(&f->d, srcmgr_add(&f->sm, "t.c", text, len), &f->a,
	    &f->m);
	fflush(f->err);
}

static void
done(Fix *f)
{
	fclose(f->err);
	free(f->errtext);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

START_TEST(matches_the_compiler)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	Buf b = {0};
	Fix f;
	size_t i;

	ck_assert_ptr_nonnull(top);
	snprintf(path, sizeof path, "%s/tests/unit/cscan_cases.h", top);
	ck_assert_int_eq(read_file(path, &b), 0);
	scan(&f, b.p, b.n);
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, (int)countof(cases));
	for (i = 0; i < countof(cases); i++) {
		ck_assert_str_eq(f.m[i].name, cases[i].name);
		ck_assert_str_eq(f.m[i].text, cases[i].text);
		ck_assert_uint_eq(f.m[i].len, strlen(cases[i].text));
	}
	done(&f);
	buf_free(&b);
}
END_TEST

START_TEST(skips_what_is_not_an_invocation)
{
	static const char t[] =
	    "#define PK_MODULE(n, ...) x\n"
	    "#if PK_MODULE(a, b)\n#endif\n"
	    "// PK_MODULE(c, d)\n"
	    "/* PK_MODULE(e, f) */\n"
	    "const char *s = \"PK_MODULE(g, h)\";\n"
	    "int MY_PK_MODULE(i, j), PK_MODULE_X(k, l);\n"
	    "int PK_MODULE;\n"
	    "PK_MODULE(real, text)\n";
	Fix f;

	scan(&f, t, sizeof t - 1);
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, 1);
	ck_assert_str_eq(f.m[0].name, "real");
	ck_assert_int_eq(f.m[0].at.line, 9);
	ck_assert_int_eq(f.m[0].at.col, 1);
	done(&f);
}
END_TEST

START_TEST(layout_keeps_positions)
{
	static const char t[] = "int a;\nPK_MODULE(m,\n  kernel\n  k)\nint b;\n";
	Fix f;
	size_t i;

	scan(&f, t, sizeof t - 1);
	ck_assert_int_eq(f.n, 1);
	ck_assert_str_eq(f.m[0].text, "kernel k");
	for (i = 0; i < sizeof t - 1; i++) {
		int in = i >= f.m[0].begin && i < f.m[0].end;
		ck_assert_int_eq(f.m[0].layout[i], in || t[i] == '\n' ? t[i] :
		    ' ');
	}
	ck_assert(strstr(f.m[0].layout, "  kernel\n  k ") != NULL);
	done(&f);
}
END_TEST

/* Each malformed input: its error's text and position. */
START_TEST(errors)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "PK_MODULE(, x)", "t.c:1:11: error: PK_MODULE needs a module "
		    "name" },
		{ "PK_MODULE(9x, y)", "t.c:1:11: error: '9x' is not a C "
		    "identifier" },
		{ "PK_MODULE(a b)", "t.c:1:13: error: expected ',' after the "
		    "module name 'a'" },
		{ "PK_MODULE(a, (b)", "t.c:1:1: error: unterminated PK_MODULE "
		    "'a'" },
		{ "PK_MODULE(a, )", "t.c:1:1: error: module 'a' has no kernel "
		    "text" },
		{ "PK_MODULE(a, /* c */ )", "module 'a' has no kernel text" },
		{ "PK_MODULE(a, x\n  #define N 8\n)", "t.c:2:3: error: a line "
		    "starting with '#' inside PK_MODULE" },
		{ "PK_MODULE(a, x)\nPK_MODULE(a, y)", "t.c:2:1: error: a second "
		    "module named 'a'" },
		{ "PK_MODULE(a, \"x)", "unterminated PK_MODULE 'a'" },
		{ "PK_MODULE(", "PK_MODULE needs a module name" },
		{ "PK_MODULE(a, x ab\\\ncd y)", "t.c:1:18: error: a line splice "
		    "inside a token of module 'a'" },
		{ "PK_MODULE(a", "expected ',' after the module name 'a'" },
	};
	size_t i;

	for (i = 0; i < countof(bad); i++) {
		Fix f;
		scan(&f, bad[i].text, strlen(bad[i].text));
		ck_assert_msg(f.d.nerror > 0, "no error for %s", bad[i].text);
		ck_assert_msg(strstr(f.errtext, bad[i].want) != NULL,
		    "%s: got %s", bad[i].text, f.errtext);
		done(&f);
	}
}
END_TEST

/* Bytes that are not C do not crash the scan. */
START_TEST(odd_bytes)
{
	static const char t[] = "PK_MODULE(m, \0\xff\xfe x)\0PK_MODULE";
	Fix f;

	scan(&f, t, sizeof t - 1);
	ck_assert_int_eq(f.n, 1);
	ck_assert_str_eq(f.m[0].name, "m");
	done(&f);
	scan(&f, "", 0);
	ck_assert_int_eq(f.n, 0);
	done(&f);
}
END_TEST

static Suite *
cscan_suite(void)
{
	Suite *s = suite_create("cscan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, matches_the_compiler);
	tcase_add_test(tc, skips_what_is_not_an_invocation);
	tcase_add_test(tc, layout_keeps_positions);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, odd_bytes);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cscan_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
