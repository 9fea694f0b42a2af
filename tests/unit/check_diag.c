/*
 * check_diag.c - the diagnostics engine (util/diag.c, util/source.c):
 * gcc's text form with caret and range, notes, macro-expansion notes,
 * JSON output, -Werror and the error cap.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct Fixture {
	SrcMgr sm;
	Diag d;
	char *text;
	size_t len;
	FILE *out;
	int file;
} Fixture;

static void
setup(Fixture *f, const char *src)
{
	srcmgr_init(&f->sm);
	f->file = srcmgr_add(&f->sm, "k.pk", src, strlen(src));
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
}

/* Closes the stream and returns everything printed. */
static const char *
output(Fixture *f)
{
	diag_finish(&f->d);
	fclose(f->out);
	return f->text;
}

static void
teardown(Fixture *f)
{
	free(f->text);
	srcmgr_free(&f->sm);
}

static Loc
at(int file, int line, int col, int ecol)
{
	Loc l = { file, line, col, line, ecol, 0 };
	return l;
}

START_TEST(text_caret_and_range)
{
	Fixture f;

	setup(&f, "kernel k() {\n    acc[...] += 1;\n}\n");
	diag_error(&f.d, at(f.file, 2, 5, 7), "scratch '%s' is not declared", "acc");
	ck_assert_str_eq(output(&f),
	    "k.pk:2:5: error: scratch 'acc' is not declared\n"
	    "    2 |     acc[...] += 1;\n"
	    "      |     ^~~\n");
	ck_assert_int_eq(f.d.nerror, 1);
	teardown(&f);
}
END_TEST

START_TEST(notes_follow_errors)
{
	Fixture f;

	setup(&f, "a\nb\n");
	diag_error(&f.d, at(f.file, 2, 1, 1), "second");
	diag_note(&f.d, at(f.file, 1, 1, 1), "first was here");
	ck_assert_str_eq(output(&f),
	    "k.pk:2:1: error: second\n"
	    "    2 | b\n"
	    "      | ^\n"
	    "k.pk:1:1: note: first was here\n"
	    "    1 | a\n"
	    "      | ^\n");
	ck_assert_int_eq(f.d.nerror, 1);
	teardown(&f);
}
END_TEST

START_TEST(expansion_note)
{
	Fixture f;
	Loc def, use;

	setup(&f, "#define BM 12x\nx = BM;\n");
	def = at(f.file, 1, 12, 14);
	use = at(f.file, 2, 5, 6);
	def.exp = srcmgr_add_exp(&f.sm, "BM", use, def);
	diag_error(&f.d, def, "bad literal");
	ck_assert_str_eq(output(&f),
	    "k.pk:1:12: error: bad literal\n"
	    "    1 | #define BM 12x\n"
	    "      |            ^~~\n"
	    "k.pk:2:5: note: in expansion of macro 'BM'\n"
	    "    2 | x = BM;\n"
	    "      |     ^~\n");
	teardown(&f);
}
END_TEST

START_TEST(no_location)
{
	Fixture f;
	Loc none = {0};

	setup(&f, "");
	diag_error(&f.d, none, "cannot open '%s'", "x.pk");
	ck_assert_str_eq(output(&f), "pallasc: error: cannot open 'x.pk'\n");
	teardown(&f);
}
END_TEST

START_TEST(werror_promotes)
{
	Fixture f;

	setup(&f, "x\n");
	f.d.werror = 1;
	diag_warning(&f.d, at(f.file, 1, 1, 1), "odd");
	ck_assert_ptr_nonnull(strstr(output(&f), "k.pk:1:1: error: odd"));
	ck_assert_int_eq(f.d.nerror, 1);
	ck_assert_int_eq(f.d.nwarning, 0);
	teardown(&f);
}
END_TEST

START_TEST(error_cap)
{
	Fixture f;
	int i;
	const char *s;

	setup(&f, "x\n");
	f.d.max_errors = 3;
	for (i = 0; i < 10; i++) {
		diag_error(&f.d, at(f.file, 1, 1, 1), "e%d", i);
		diag_note(&f.d, at(f.file, 1, 1, 1), "n%d", i);
	}
	s = output(&f);
	ck_assert_ptr_nonnull(strstr(s, "error: e2"));
	ck_assert_ptr_null(strstr(s, "error: e3"));
	ck_assert_ptr_null(strstr(s, "note: n3"));
	ck_assert_ptr_nonnull(strstr(s, "too many errors"));
	ck_assert_int_gt(f.d.nerror, 3);
	teardown(&f);
}
END_TEST

START_TEST(json_with_children)
{
	Fixture f;

	setup(&f, "ab\ncd\n");
	f.d.format = DIAG_JSON;
	diag_error(&f.d, at(f.file, 1, 1, 2), "say \"hi\"");
	diag_note(&f.d, at(f.file, 2, 2, 2), "here");
	diag_warning(&f.d, at(f.file, 2, 1, 1), "w");
	ck_assert_str_eq(output(&f),
	    "[{\"kind\": \"error\", \"message\": \"say \\\"hi\\\"\", \"locations\": "
	    "[{\"caret\": {\"file\": \"k.pk\", \"line\": 1, \"column\": 1}, "
	    "\"finish\": {\"file\": \"k.pk\", \"line\": 1, \"column\": 2}}], "
	    "\"children\": [{\"kind\": \"note\", \"message\": \"here\", "
	    "\"locations\": [{\"caret\": {\"file\": \"k.pk\", \"line\": 2, "
	    "\"column\": 2}, \"finish\": {\"file\": \"k.pk\", \"line\": 2, "
	    "\"column\": 2}}]}]},\n"
	    "{\"kind\": \"warning\", \"message\": \"w\", \"locations\": "
	    "[{\"caret\": {\"file\": \"k.pk\", \"line\": 2, \"column\": 1}, "
	    "\"finish\": {\"file\": \"k.pk\", \"line\": 2, \"column\": 1}}]}]\n");
	teardown(&f);
}
END_TEST

START_TEST(json_empty)
{
	Fixture f;

	setup(&f, "");
	f.d.format = DIAG_JSON;
	ck_assert_str_eq(output(&f), "[]\n");
	teardown(&f);
}
END_TEST

START_TEST(lines_and_spans)
{
	SrcMgr sm;
	int file, n;
	const char *s;
	Loc a, b, c;

	srcmgr_init(&sm);
	file = srcmgr_add(&sm, "f", "one\r\ntwo\nthree", 14);
	ck_assert_int_eq(srcmgr_file(&sm, file)->nline, 3);
	s = srcmgr_line(&sm, file, 1, &n);
	ck_assert_int_eq(n, 3);
	ck_assert(strncmp(s, "one", 3) == 0);
	s = srcmgr_line(&sm, file, 3, &n);
	ck_assert_int_eq(n, 5);
	ck_assert_ptr_null(srcmgr_line(&sm, file, 4, &n));
	ck_assert_ptr_null(srcmgr_line(&sm, 99, 1, &n));
	a = at(file, 1, 2, 3);
	b = at(file, 3, 1, 5);
	c = loc_span(a, b);
	ck_assert_int_eq(c.line, 1);
	ck_assert_int_eq(c.col, 2);
	ck_assert_int_eq(c.eline, 3);
	ck_assert_int_eq(c.ecol, 5);
	srcmgr_free(&sm);
}
END_TEST

START_TEST(color_choice)
{
	ck_assert_int_eq(diag_color_choice("always", stderr), 1);
	ck_assert_int_eq(diag_color_choice("never", stderr), 0);
	ck_assert_int_eq(diag_color_choice("sometimes", stderr), -1);
}
END_TEST

/* Inside the JIT, bug() and die_oom() return to the caller's jump
 * buffer with their message instead of exiting (util_recover_set). */
START_TEST(recover_returns)
{
	UtilRecover r;
	volatile int where = 0;

	if (setjmp(r.jb) == 0) {
		util_recover_set(&r);
		where = 1;
		bug("broken %d", 42);
		where = 2;	/* not reached */
	}
	util_recover_set(NULL);
	ck_assert_int_eq(where, 1);
	ck_assert_ptr_nonnull(strstr(r.msg, "internal compiler error at "));
	ck_assert_ptr_nonnull(strstr(r.msg, "broken 42"));
	if (setjmp(r.jb) == 0) {
		util_recover_set(&r);
		die_oom();
	}
	util_recover_set(NULL);
	ck_assert_str_eq(r.msg, "out of memory");
}
END_TEST

static Suite *
diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, text_caret_and_range);
	tcase_add_test(tc, notes_follow_errors);
	tcase_add_test(tc, expansion_note);
	tcase_add_test(tc, no_location);
	tcase_add_test(tc, werror_promotes);
	tcase_add_test(tc, error_cap);
	tcase_add_test(tc, json_with_children);
	tcase_add_test(tc, json_empty);
	tcase_add_test(tc, lines_and_spans);
	tcase_add_test(tc, color_choice);
	tcase_add_test(tc, recover_returns);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(diag_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
