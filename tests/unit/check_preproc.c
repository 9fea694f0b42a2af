/*
 * check_preproc.c - the preprocessor (dsl/grammar/preproc.c) and its #if
 * evaluator (ppexpr.c): every directive and its errors, macro expansion
 * with C's rules (argument pre-expansion, rescanning, no recursion, # and
 * ##), locations and expansion records, #include search and cycles, -D
 * and -U, the limits that stop runaway expansion, and random inputs.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsl/dsl.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	FILE *out;
	char *text;		/* everything Diag printed */
	size_t len;
	PP *pp;
	Buf res;		/* the output tokens, ' ' between them */
	Token tok[512];		/* the first output tokens */
	int n;			/* output tokens in all */
} Fx;

static void
fx_init(Fx *f)
{
	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	f->d.max_errors = 0;
	f->pp = pp_new(&f->d, &f->strs, &f->a);
}

/* Reads every token; returns the output spellings joined by spaces. */
static const char *
drain(Fx *f)
{
	Token t;

	while (pp_next(f->pp, &t) != TK_EOF) {
		if (f->n < (int)countof(f->tok))
			f->tok[f->n] = t;
		if (f->n++ > 0)
			buf_putc(&f->res, ' ');
		buf_putn(&f->res, t.text, (size_t)t.len);
	}
	ck_assert_int_eq(pp_next(f->pp, &t), TK_EOF);	/* stays at the end */
	buf_putc(&f->res, 0);
	fflush(f->out);
	return f->res.p;
}

/* Preprocesses src as the main file "t.pk". */
static const char *
run(Fx *f, const char *src)
{
	ck_assert_int_eq(pp_push_text(f->pp, "t.pk", src, strlen(src)), 0);
	return drain(f);
}

static const char *
msgs(Fx *f)
{
	fflush(f->out);
	return f->text ? f->text : "";
}

static void
fx_done(Fx *f)
{
	pp_free(f->pp);
	fclose(f->out);
	free(f->text);
	buf_free(&f->res);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static int
has(Fx *f, const char *needle)
{
	return strstr(msgs(f), needle) != NULL;
}

#define EXPECT_MSG(f, s) ck_assert_msg(has(f, s), "no '%s' in:\n%s", s, msgs(f))

/* Output of src without errors. */
static void
expect_out(const char *src, const char *want)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, src), want);
	ck_assert_msg(f.d.nerror == 0, "errors:\n%s", msgs(&f));
	fx_done(&f);
}

/* The output with all spaces removed (for the C standard's examples). */
static void
expect_squeezed(const char *src, const char *want)
{
	Fx f;
	char *s, *d;

	fx_init(&f);
	run(&f, src);
	ck_assert_msg(f.d.nerror == 0, "errors:\n%s", msgs(&f));
	for (s = d = f.res.p; *s; s++)
		if (*s != ' ')
			*d++ = *s;
	*d = 0;
	ck_assert_str_eq(f.res.p, want);
	fx_done(&f);
}

/* ------------------------------------------------------------ macros */

START_TEST(object_like)
{
	expect_out("#define X 1 + 2\nX * X\n", "1 + 2 * 1 + 2");
	expect_out("#define E\na E b E\n", "a b");
	expect_out("  #  define  Y  (3)\nY\n", "( 3 )");
	expect_out("#define A B\n#define B 7\nA\n", "7");
	expect_out("#define X 1\n#undef X\nX\n", "X");
	expect_out("#undef NEVER\nok\n", "ok");
}
END_TEST

START_TEST(function_like)
{
	expect_out("#define F(a, b) a - b\nF(1, 2) F((1,2), [3])\n",
	    "1 - 2 ( 1 , 2 ) - [ 3 ]");
	expect_out("#define F(x) <x>\nF + F;\n", "F + F ;");
	expect_out("#define F() z\nF() F ( )\n", "z z");
	expect_out("#define F(x) [x]\nF() F(\n  1\n  )\n", "[ ] [ 1 ]");
	expect_out("#define F (x) x\nF\n", "( x ) x");	/* space: object */
	expect_out("#define V(a, ...) a: __VA_ARGS__\nV(1) V(1, 2, 3)\n",
	    "1 : 1 : 2 , 3");
	expect_out("#define W(...) <__VA_ARGS__>\nW() W(a,b)\n",
	    "< > < a , b >");
}
END_TEST

START_TEST(argument_rules)
{
	/* arguments are expanded before substitution, then rescanned */
	expect_out("#define f(x) x+1\nf(f(1))\n", "1 + 1 + 1");
	expect_out("#define id(x) x\n#define g id(\ng 5)\n", "5");
	expect_out("#define f(x) x\n#define g f\ng(2)\n", "2");
	expect_out("#define f(x) #x x\n#define O 0\nf(O)\n", "\"O\" 0");
	/* a name left unexpanded inside an argument may be called later */
	expect_out("#define f(x) x\n#define g(x) x(1)\ng(f)\n", "1");
}
END_TEST

START_TEST(no_recursion)
{
	expect_out("#define foo foo + 1\nfoo\n", "foo + 1");
	expect_out("#define A B\n#define B A\nA B\n", "A B");
	expect_out("#define f(x) f(x)\nf(f(1))\n", "f ( f ( 1 ) )");
	expect_out("#define f(x) g(x)\n#define g(x) f(x)\nf(1)\n", "f ( 1 )");
}
END_TEST

START_TEST(painted_names_stay)
{
	Fx f;

	/* the inner foo is painted and not expanded even when rescanned */
	fx_init(&f);
	ck_assert_str_eq(run(&f, "#define foo a foo\n#define id(x) x\n"
	    "id(foo)\n"), "a foo");
	ck_assert_int_eq(f.tok[1].noexpand, 1);
	ck_assert_int_eq(f.tok[0].noexpand, 0);
	fx_done(&f);
}
END_TEST

/* C11 6.10.3.5, example 3. */
START_TEST(c_standard_example)
{
	expect_squeezed(
	    "#define x 3\n"
	    "#define f(a) f(x * (a))\n"
	    "#undef x\n"
	    "#define x 2\n"
	    "#define g f\n"
	    "#define z z[0]\n"
	    "#define h g(~\n"
	    "#define m(a) a(w)\n"
	    "#define w 0,1\n"
	    "#define t(a) a\n"
	    "#define p() int\n"
	    "#define q(x) x\n"
	    "#define r(x,y) x ## y\n"
	    "#define str(x) # x\n"
	    "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
	    "g(x+(3,4)-w) | h 5) & m\n"
	    "(f)^m(m);\n"
	    "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n"
	    "char c[2][6] = { str(hello), str() };\n",
	    "f(2*(y+1))+f(2*(f(2*(z[0]))))%f(2*(0))+t(1);"
	    "f(2*(2+(3,4)-0,1))|f(2*(~5))&f(2*(0,1))^m(0,1);"
	    "inti[]={1,23,4,5,};"
	    "charc[2][6]={\"hello\",\"\"};");
}
END_TEST

/* C11 6.10.3.5, example 4 (without the character constant). */
START_TEST(c_standard_strings)
{
	expect_out(
	    "#define str(s) # s\n"
	    "#define xstr(s) str(s)\n"
	    "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\\n"
	    "    x ## s, x ## t)\n"
	    "#define glue(a, b) a ## b\n"
	    "#define xglue(a, b) glue(a, b)\n"
	    "#define HIGHLOW \"hello\"\n"
	    "#define LOW LOW \", world\"\n"
	    "debug(1, 2);\n"
	    "glue(HIGH, LOW);\n"
	    "xglue(HIGH, LOW)\n"
	    "xstr(__LINE__)\n",
	    "printf ( \"x\" \"1\" \"= %d, x\" \"2\" \"= %s\" , x1 , x2 ) ; "
	    "\"hello\" ; \"hello\" \", world\" \"12\"");
}
END_TEST

START_TEST(stringify)
{
	Fx f;

	expect_out("#define S(x) #x\nS(  a   +b  ) S() S(f(1,2))\n",
	    "\"a +b\" \"\" \"f(1,2)\"");
	fx_init(&f);
	ck_assert_str_eq(run(&f, "#define S(x) #x\nS(\"q\\\"\\n\")\n"),
	    "\"\\\"q\\\\\\\"\\\\n\\\"\"");
	ck_assert_int_eq(f.tok[0].kind, TK_STRING);
	ck_assert_str_eq(f.tok[0].v.s, "\"q\\\"\\n\"");
	ck_assert_int_eq(f.d.nerror, 0);
	fx_done(&f);
}
END_TEST

START_TEST(paste)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, "#define C(a,b) a##b\n"
	    "C(x,1) C(1,2) C(-,>) C(,y) C(x,) C(,) C(1.,5f) C(a b, c d)\n"),
	    "x1 12 -> y x 1.5f a bc d");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.tok[0].kind, TK_IDENT);
	ck_assert_ptr_eq(f.tok[0].text, strtab_intern(&f.strs, "x1", 2));
	ck_assert_int_eq(f.tok[1].kind, TK_INT);
	ck_assert_int_eq(f.tok[1].v.i, 12);
	ck_assert_int_eq(f.tok[2].kind, TK_ARROW);
	ck_assert_int_eq(f.tok[5].kind, TK_FLOAT);
	ck_assert_int_eq(f.tok[5].suffix, SUF_F32);
	fx_done(&f);
	/* chains, object-like ##, and a pasted name that is a macro */
	expect_out("#define C3(a,b,c) a##b##c\nC3(x,y,z) C3(,,) C3(1,,2)\n",
	    "xyz 12");
	expect_out("#define AB 42\n#define J A ## B\nJ\n", "42");
	expect_out("#define C(a,b) a##b\n#define XY done\nC(X,Y)\n", "done");
	/* ## operands are not expanded first */
	expect_out("#define C(a,b) a##b\n#define Q 1\nC(Q,2)\n", "Q2");
	expect_out("#define T(x) x ## _ ## x\nT(a)\n", "a_a");
}
END_TEST

START_TEST(bad_paste)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, "#define C(a,b) a ## b\nC(+,-) C(/,/) "
	    "C(x,\"s\")\n"), "+ - / / x \"s\"");
	ck_assert_int_eq(f.d.nerror, 3);
	EXPECT_MSG(&f, "t.pk:1:18: error: pasting \"+\" and \"-\" does not "
	    "give a valid preprocessing token");
	EXPECT_MSG(&f, "pasting \"/\" and \"/\"");
	EXPECT_MSG(&f, "note: in expansion of macro 'C'");
	EXPECT_MSG(&f, "t.pk:2:1: note: in expansion");
	fx_done(&f);
}
END_TEST

START_TEST(builtins)
{
	Fx f;

	expect_out("a\n__LINE__ __FILE__\n", "a 2 \"t.pk\"");
	expect_out("#define L __LINE__\n\nL\n", "3");
	expect_out("#define F(x) __LINE__ x\nF(\n1)\n", "2 1");
	expect_out("#if __LINE__ == 1\nyes\n#endif\n", "yes");
	expect_out("#ifdef __FILE__\nyes\n#endif\n", "yes");
	fx_init(&f);
	run(&f, "__LINE__\n");
	ck_assert_int_eq(f.tok[0].kind, TK_INT);
	ck_assert_int_eq(f.tok[0].v.i, 1);
	fx_done(&f);
	fx_init(&f);
	ck_assert_int_eq(pp_push_text(f.pp, "dir/we\"ird\n.pk", "__FILE__",
	    8), 0);
	drain(&f);
	ck_assert_int_eq(f.tok[0].kind, TK_STRING);
	ck_assert_str_eq(f.tok[0].v.s, "dir/we\"ird\n.pk");
	fx_done(&f);
}
END_TEST

START_TEST(redefinition)
{
	Fx f;

	fx_init(&f);
	run(&f, "#define X (1 + 2)\n#define X (1 + 2)\n#define X (1 +2)\n"
	    "#define F(a) a\n#define F(b) b\nX\n");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.d.nwarning, 2);
	EXPECT_MSG(&f, "t.pk:3:9: warning: 'X' redefined");
	EXPECT_MSG(&f, "t.pk:2:9: note: this is the location of the previous "
	    "definition");
	EXPECT_MSG(&f, "t.pk:5:9: warning: 'F' redefined");
	ck_assert_str_eq(f.res.p, "( 1 + 2 )");
	fx_done(&f);
}
END_TEST

START_TEST(bad_defines)
{
	static const struct { const char *src, *msg; } tab[] = {
		{ "#define\n", "t.pk:1:1: error: no macro name given in #define" },
		{ "#define 3 x\n", "t.pk:1:9: error: macro names must be "
		    "identifiers" },
		{ "#define defined 1\n", "'defined' cannot be used as a macro" },
		{ "#define __LINE__ 1\n", "'__LINE__' cannot be used as a macro" },
		{ "#define __VA_ARGS__ 1\n", "'__VA_ARGS__' cannot be used" },
		{ "#define F(x,x) x\n", "duplicate macro parameter 'x'" },
		{ "#define F(x\n", "missing ')' in macro parameter list" },
		{ "#define F(x y) x\n", "expected ',' or ')' in macro parameter" },
		{ "#define F(1) x\n", "expected a parameter name, found '1'" },
		{ "#define F(x,) x\n", "expected a parameter name, found ')'" },
		{ "#define F(... x) x\n", "missing ')' after '...'" },
		{ "#define F(x) #y\n", "t.pk:1:14: error: '#' is not followed by "
		    "a macro parameter" },
		{ "#define F(x) x #\n", "'#' is not followed by a macro param" },
		{ "#define G ## a\n", "'##' cannot appear at either end" },
		{ "#define G(x) x ##\n", "'##' cannot appear at either end" },
		{ "#undef\n", "no macro name given in #undef directive" },
		{ "#undef 1\n", "macro names must be identifiers" },
		{ "#undef __FILE__\n", "'__FILE__' cannot be undefined" },
	};
	size_t i;
	Fx f;

	for (i = 0; i < countof(tab); i++) {
		fx_init(&f);
		run(&f, tab[i].src);
		ck_assert_msg(f.d.nerror == 1, "%s: %d errors:\n%s", tab[i].src,
		    f.d.nerror, msgs(&f));
		EXPECT_MSG(&f, tab[i].msg);
		fx_done(&f);
	}
	/* '#' in an object-like macro is an ordinary token */
	expect_out("#define H # x\nH\n", "# x");
}
END_TEST

START_TEST(argument_errors)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, "#define F(a, b) a b\nF(1) F(1,2,3) x\n"), "x");
	ck_assert_int_eq(f.d.nerror, 2);
	EXPECT_MSG(&f, "t.pk:2:1: error: macro 'F' requires 2 arguments, but "
	    "only 1 given");
	EXPECT_MSG(&f, "t.pk:2:6: error: macro 'F' passed 3 arguments, but "
	    "takes just 2");
	EXPECT_MSG(&f, "t.pk:1:9: note: macro 'F' defined here");
	fx_done(&f);
	fx_init(&f);
	run(&f, "#define F(a) a\nF((1, 2)\n");
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "t.pk:2:1: error: unterminated argument list invoking "
	    "macro 'F'");
	fx_done(&f);
	fx_init(&f);
	run(&f, "#define F(a) a\n#define G F(\nG 1\n");
	EXPECT_MSG(&f, "unterminated argument list invoking macro 'F'");
	fx_done(&f);
	fx_init(&f);
	run(&f, "#define V(a, b, ...) a\nV(1)\n");
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "macro 'V' requires 3 arguments, but only 1 given");
	fx_done(&f);
}
END_TEST

START_TEST(directives_in_arguments)
{
	Fx f;

	expect_out("#define f(x) x\nf(1\n#define Y 2\nY)\n", "1 2");
	expect_out("#define f(x) x\nf(1\n#if 0\n2\n#endif\n3)\n", "1 3");
	fx_init(&f);
	run(&f, "#define f(x) x\nf(1\n#include \"t.pk\"\n)\n");
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "t.pk:3:1: error: #include inside the arguments of a "
	    "macro");
	ck_assert_str_eq(f.res.p, "1");
	fx_done(&f);
}
END_TEST

/* ------------------------------------------------------ locations */

START_TEST(expansion_locations)
{
	Fx f;
	const SrcExp *e;
	Token t;

	fx_init(&f);
	run(&f, "#define BM 512\nx BM\n");
	t = f.tok[1];
	ck_assert_int_eq(t.kind, TK_INT);
	ck_assert_int_eq(t.loc.file, 1);
	ck_assert_int_eq(t.loc.line, 1);	/* spelled in the #define */
	ck_assert_int_eq(t.loc.col, 12);
	ck_assert_int_eq(t.loc.ecol, 14);
	ck_assert_int_gt(t.loc.exp, 0);
	e = &f.sm.exp.v[t.loc.exp];
	ck_assert_str_eq(e->macro, "BM");
	ck_assert_int_eq(e->use.line, 2);
	ck_assert_int_eq(e->use.col, 3);
	ck_assert_int_eq(e->use.exp, 0);
	ck_assert_int_eq(e->def.line, 1);
	ck_assert_int_eq(e->def.col, 9);
	ck_assert_int_eq(f.tok[0].loc.exp, 0);
	diag_error(&f.d, t.loc, "block size %d is too big", 512);
	EXPECT_MSG(&f, "t.pk:1:12: error: block size 512 is too big\n"
	    "    1 | #define BM 512\n"
	    "      |            ^~~\n"
	    "t.pk:2:3: note: in expansion of macro 'BM'\n"
	    "    2 | x BM\n"
	    "      |   ^~\n");
	fx_done(&f);
}
END_TEST

START_TEST(nested_locations)
{
	Fx f;
	const SrcExp *e;

	fx_init(&f);
	run(&f, "#define A (B)\n#define B 7\n  A\n");
	ck_assert_str_eq(f.res.p, "( 7 )");
	e = &f.sm.exp.v[f.tok[1].loc.exp];
	ck_assert_str_eq(e->macro, "B");
	ck_assert_int_eq(e->use.line, 1);	/* the B in A's body */
	ck_assert_int_eq(e->use.col, 12);
	e = &f.sm.exp.v[e->use.exp];
	ck_assert_str_eq(e->macro, "A");
	ck_assert_int_eq(e->use.line, 3);
	ck_assert_int_eq(e->use.col, 3);
	ck_assert_int_eq(e->use.exp, 0);
	diag_error(&f.d, f.tok[1].loc, "bad");
	EXPECT_MSG(&f, "note: in expansion of macro 'B'");
	EXPECT_MSG(&f, "t.pk:3:3: note: in expansion of macro 'A'");
	fx_done(&f);
}
END_TEST

START_TEST(argument_locations)
{
	Fx f;
	const SrcExp *e;

	fx_init(&f);
	run(&f, "#define F(x) (x)\nF( q )\n");
	ck_assert_str_eq(f.res.p, "( q )");
	ck_assert_int_eq(f.tok[1].loc.line, 2);	/* where q was written */
	ck_assert_int_eq(f.tok[1].loc.col, 4);
	e = &f.sm.exp.v[f.tok[1].loc.exp];
	ck_assert_str_eq(e->macro, "F");
	ck_assert_int_eq(f.tok[0].loc.line, 1);
	ck_assert_int_eq(f.tok[0].loc.col, 14);
	ck_assert_int_eq(f.tok[0].loc.exp, f.tok[1].loc.exp);
	fx_done(&f);
}
END_TEST

/* ----------------------------------------------------- conditionals */

START_TEST(conditionals)
{
	expect_out("#if 1\na\n#else\nb\n#endif\n", "a");
	expect_out("#if 0\na\n#else\nb\n#endif\n", "b");
	expect_out("#if 0\na\n#elif 2 > 1\nb\n#elif 1\nc\n#else\nd\n#endif\n",
	    "b");
	expect_out("#if 0\n#elif 0\n#else\nd\n#endif\n", "d");
	expect_out("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n",
	    "a");
	expect_out("#ifdef Y\na\n#else\nb\n#endif\n#ifndef Y\nc\n#endif\n",
	    "b c");
	expect_out("#if 1\n#if 0\na\n#else\nb\n#endif\n#endif\n", "b");
	expect_out("#if 0\n#if 1\na\n#else\nb\n#endif\nc\n#else\nd\n#endif\n",
	    "d");
	expect_out("#define X 3\n#if defined X && defined(X) && X == 3\nok\n"
	    "#endif\n", "ok");
	expect_out("#if defined(NOPE) || NOPE\nbad\n#else\nok\n#endif\n", "ok");
	expect_out("#define F(x) (x * 2)\n#if F(3) == 6\nok\n#endif\n", "ok");
	expect_out("#define D defined(Z)\n#define Z\n#if D\nok\n#endif\n", "ok");
	expect_out("#if 0 && 1 / 0\nno\n#elif 1 || 1 % 0\nyes\n#endif\n",
	    "yes");
	expect_out("#\n# /* null */\nok\n", "ok");
}
END_TEST

START_TEST(skipped_groups)
{
	/* directives, bad directives and lexical garbage are not looked at */
	expect_out("#if 0\n#foo\n#define X 1\n#include \"nowhere.pk\"\n"
	    "#error no\ndon't $ \"open\n#elif 0\n#bar\n#else\nX\n#endif\n", "X");
	expect_out("#if 0\n#if garbage ((\n#elif 1/0\n#endif\n#elif 1\nok\n"
	    "#endif\n", "ok");
	expect_out("#if 1\nok\n#elif 1/0\n#else\n#endif\n", "ok");
}
END_TEST

START_TEST(conditional_errors)
{
	static const struct { const char *src, *msg; int line; } tab[] = {
		{ "#if 1\n#else\n#else\n#endif\n", "#else after #else", 3 },
		{ "#if 1\n#else\n#elif 1\n#endif\n", "#elif after #else", 3 },
		{ "#endif\n", "#endif without #if", 1 },
		{ "x\n#else\n", "#else without #if", 2 },
		{ "#elif 1\n", "#elif without #if", 1 },
		{ "a\n#if 1\nb\n", "unterminated #if", 2 },
		{ "#ifdef X\n", "unterminated #ifdef", 1 },
		{ "#ifndef X\n#else\n", "unterminated #ifndef", 1 },
		{ "#foo bar\n", "invalid preprocessing directive '#foo'", 1 },
		{ "#1\n", "invalid preprocessing directive '#1'", 1 },
		{ "#ifdef\n#endif\n", "no macro name given in #ifdef", 1 },
		{ "#ifndef 3\n#endif\n", "macro names must be identifiers", 1 },
		{ "#if\n#endif\n", "missing expression", 1 },
		{ "#if 1 +\n#endif\n", "expected a value at the end", 1 },
		{ "#if 1/0\n#endif\n", "division by zero", 1 },
		{ "#if 0\n#elif 1 % 0\n#endif\n", "division by zero", 2 },
		{ "#if 1 2\n#endif\n", "missing binary operator before token '2'",
		    1 },
		{ "#if 1.5\n#endif\n", "floating-point literal in preprocessor", 1 },
		{ "#if \"s\"\n#endif\n", "string literal in preprocessor", 1 },
		{ "#if defined\n#endif\n", "operator 'defined' requires an "
		    "identifier", 1 },
		{ "#if defined(X\n#endif\n", "missing ')' after 'defined'", 1 },
		{ "#if (1\n#endif\n", "missing ')' in preprocessor expression", 1 },
		{ "#if 1 ? 2\n#endif\n", "expected ':' in conditional", 1 },
		{ "#if 1 = 1\n#endif\n", "missing binary operator before token "
		    "'='", 1 },
		{ "#if )\n#endif\n", "token ')' is not valid in preprocessor", 1 },
		{ "#error bad size: 4 + x\n", "error: #error bad size: 4 + x", 1 },
	};
	size_t i;
	Fx f;
	char want[64];

	for (i = 0; i < countof(tab); i++) {
		fx_init(&f);
		run(&f, tab[i].src);
		ck_assert_msg(f.d.nerror == 1, "%s: %d errors:\n%s", tab[i].src,
		    f.d.nerror, msgs(&f));
		EXPECT_MSG(&f, tab[i].msg);
		snprintf(want, sizeof want, "t.pk:%d:", tab[i].line);
		EXPECT_MSG(&f, want);
		fx_done(&f);
	}
}
END_TEST

START_TEST(else_note_and_recovery)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, "#if 0\na\n#else\nb\n#else\nc\n#endif\nd\n"),
	    "b d");
	EXPECT_MSG(&f, "t.pk:5:1: error: #else after #else");
	EXPECT_MSG(&f, "t.pk:3:1: note: the #else is here");
	fx_done(&f);
	/* an #if whose expression is bad counts as false */
	fx_init(&f);
	ck_assert_str_eq(run(&f, "#if 1 +\na\n#else\nb\n#endif\n"), "b");
	ck_assert_int_eq(f.d.nerror, 1);
	fx_done(&f);
}
END_TEST

START_TEST(warnings_and_extra_tokens)
{
	Fx f;

	fx_init(&f);
	ck_assert_str_eq(run(&f, "#warning careful now\n#ifdef X junk\n#endif\n"
	    "#if 1\n#else x\n#endif y\nz\n"), "z");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.d.nwarning, 4);
	EXPECT_MSG(&f, "t.pk:1:1: warning: #warning careful now");
	EXPECT_MSG(&f, "t.pk:2:10: warning: extra tokens at end of #ifdef");
	EXPECT_MSG(&f, "extra tokens at end of #else directive");
	EXPECT_MSG(&f, "extra tokens at end of #endif directive");
	fx_done(&f);
}
END_TEST

/* --------------------------------------------------- #if arithmetic */

/* Evaluates src (lexed, not expanded); returns the value or -999999. */
static int64_t
eval(const char *src, int *nerror)
{
	Fx f;
	Lexer lx;
	Token t[600];
	int n = 0, file;
	int64_t v;
	Loc at = {0};

	fx_init(&f);
	file = srcmgr_add(&f.sm, "e.pk", src, strlen(src));
	lex_init(&lx, &f.d, &f.strs, &f.a, file);
	while (n < 600 && lex_next(&lx, &t[n]) != TK_EOF)
		n++;
	at.file = file;
	at.line = at.col = 1;
	if (pp_eval_expr(&f.d, t, n, at, NULL, NULL, &v) < 0)
		v = -999999;
	*nerror = f.d.nerror;
	fx_done(&f);
	return v;
}

START_TEST(expression_values)
{
	static const struct { const char *src; int64_t v; } tab[] = {
		{ "2 + 3 * 4", 14 }, { "(2 + 3) * 4", 20 }, { "10 - 4 - 3", 3 },
		{ "100 / 10 / 5", 2 }, { "1 << 2 + 1", 8 }, { "-1 >> 1", -1 },
		{ "-16 >> 2", -4 }, { "7 / -2", -3 }, { "7 % -2", 1 },
		{ "-7 % 2", -1 }, { "1 ? 2 : 3", 2 }, { "0 ? 1 : 0 ? 2 : 3", 3 },
		{ "1 ? 0 ? 4 : 5 : 6", 5 }, { "!0 + ~0", 0 }, { "- - 5", 5 },
		{ "+4", 4 }, { "1 == 1 && 2 != 3", 1 }, { "1 < 2 == 1", 1 },
		{ "3 & 5 | 8 ^ 1", 9 }, { "2 > 1 > 0", 1 }, { "5 <= 5", 1 },
		{ "5 >= 6", 0 }, { "0 || 0", 0 }, { "2 && 3", 1 },
		{ "1 | 2 ^ 3 & 4", 3 }, { "3 - 1 == 2 ? 10 : 20", 10 },
		{ "0x10 + 0b11 + 010", 27 }, { "undefined_name + 1", 1 },
		{ "defined X", 0 }, { "9223372036854775807 + 1",
		    INT64_MIN }, { "-9223372036854775807 - 1", INT64_MIN },
		{ "(-9223372036854775807 - 1) / -1", INT64_MIN },
		{ "(-9223372036854775807 - 1) % -1", 0 },
		{ "4611686018427387904 * 4", 0 }, { "1 << 63", INT64_MIN },
		{ "- (-9223372036854775807 - 1)", INT64_MIN },
		{ "0 && 1 / 0", 0 }, { "1 || 1 % 0", 1 }, { "0 ? 1 / 0 : 5", 5 },
		{ "1 ? 5 : 1 / 0", 5 }, { "0 && (1 << 99)", 0 },
		{ "0 && (0 || 1 / 0)", 0 }, { "3i32 + 1", 4 },
	};
	size_t i;
	int nerr;

	for (i = 0; i < countof(tab); i++) {
		int64_t v = eval(tab[i].src, &nerr);
		ck_assert_msg(v == tab[i].v && nerr == 0, "%s = %lld (want %lld, "
		    "%d errors)", tab[i].src, (long long)v, (long long)tab[i].v,
		    nerr);
	}
}
END_TEST

START_TEST(expression_errors)
{
	static const char *tab[] = {
		"1 / 0", "1 % 0", "1 << 64", "1 >> -1", "(", ")", "1 +", "* 2",
		"1 2", "defined", "defined(", "defined(X", "1 ? 2", "1.0", "\"s\"",
		"1 , 2", "x = 1", "1 ? 2 : ", "~", "(1))",
	};
	size_t i;
	int nerr;

	for (i = 0; i < countof(tab); i++) {
		int64_t v = eval(tab[i], &nerr);
		ck_assert_msg(v == -999999 && nerr == 1, "%s: %lld, %d errors",
		    tab[i], (long long)v, nerr);
	}
}
END_TEST

START_TEST(expression_depth)
{
	Buf b = {0};
	int i, nerr;
	Fx f;

	for (i = 0; i < 290; i++)
		buf_putc(&b, '(');
	buf_putc(&b, '1');
	for (i = 0; i < 290; i++)
		buf_putc(&b, ')');
	ck_assert(eval(b.p, &nerr) == -999999);
	ck_assert_int_eq(nerr, 1);
	buf_free(&b);
	/* deep nesting through the preprocessor does not crash either */
	fx_init(&f);
	buf_puts(&b, "#if ");
	for (i = 0; i < 100000; i++)
		buf_puts(&b, "-(");
	buf_puts(&b, "\n#endif\nok\n");
	ck_assert_str_eq(run(&f, b.p), "ok");
	EXPECT_MSG(&f, "nested too deeply");
	buf_free(&b);
	fx_done(&f);
}
END_TEST

/* ----------------------------------------------------------- #include */

static char tmpdir[64];

static void
put_file(const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

static void
make_tree(void)
{
	char path[512];

	strcpy(tmpdir, "/tmp/check_preproc.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(path, sizeof path, "%s/inc", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/sub", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	put_file("main.pk", "#include \"b.pk\"\nmain __FILE__\n"
	    "#include <c.pk>\n#define NAME \"sub/d.pk\"\n#include NAME\nend\n");
	put_file("b.pk", "#define FROM_B 1\nb __LINE__ __FILE__\n");
	put_file("inc/c.pk", "c\n");
	put_file("sub/d.pk", "#include \"e.pk\"\nd\n");	/* e: next to d */
	put_file("sub/e.pk", "e FROM_B\n");
	put_file("cyc1.pk", "#include \"cyc2.pk\"\n");
	put_file("cyc2.pk", "x\n#include \"cyc1.pk\"\ny\n");
	put_file("self.pk", "s\n#include \"self.pk\"\n");
	put_file("open.pk", "#if 1\nopen\n");
	put_file("missing.pk", "#include \"nope.pk\"\nafter\n");
	put_file("angled.pk", "#include <b.pk>\n");
	put_file("bad.pk", "#include\n#include 42\n#include <c.pk\n"
	    "#include \"\"\n#include \"inc/c.pk\" extra\n");
	put_file("args.pk", "#define f(x) x\nf(1,\n#include \"b.pk\"\n)\n");
}

static void
rm_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Preprocesses tmpdir/name with -I tmpdir/inc. */
static const char *
run_file(Fx *f, const char *name)
{
	char path[512], inc[512];

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	snprintf(inc, sizeof inc, "%s/inc", tmpdir);
	pp_add_include_dir(f->pp, inc);
	ck_assert_int_eq(pp_push_file(f->pp, path), 0);
	return drain(f);
}

START_TEST(include_search)
{
	Fx f;
	char want[1024];
	const SrcFile *sf;

	make_tree();
	fx_init(&f);
	run_file(&f, "main.pk");
	ck_assert_msg(f.d.nerror == 0, "%s", msgs(&f));
	snprintf(want, sizeof want, "b 2 \"%s/b.pk\" main \"%s/main.pk\" c e 1 "
	    "d end", tmpdir, tmpdir);
	ck_assert_str_eq(f.res.p, want);
	/* b.pk's SrcFile records where it was included */
	sf = srcmgr_file(&f.sm, f.tok[0].loc.file);
	snprintf(want, sizeof want, "%s/b.pk", tmpdir);
	ck_assert_str_eq(sf->name, want);
	ck_assert_int_eq(sf->included_at.line, 1);
	ck_assert_int_eq(sf->included_at.col, 10);
	ck_assert_int_eq(srcmgr_file(&f.sm, sf->included_at.file)->included_at.file,
	    0);
	fx_done(&f);
	rm_tree();
}
END_TEST

START_TEST(include_errors)
{
	Fx f;
	char want[1024];

	make_tree();
	fx_init(&f);
	ck_assert_str_eq(run_file(&f, "cyc1.pk"), "x y");
	ck_assert_int_eq(f.d.nerror, 1);
	snprintf(want, sizeof want, "%s/cyc2.pk:2:10: error: #include cycle: "
	    "%s/cyc1.pk -> %s/cyc2.pk -> %s/cyc1.pk", tmpdir, tmpdir, tmpdir,
	    tmpdir);
	EXPECT_MSG(&f, want);
	fx_done(&f);

	fx_init(&f);
	ck_assert_str_eq(run_file(&f, "self.pk"), "s");
	EXPECT_MSG(&f, "self.pk -> ");
	ck_assert_int_eq(f.d.nerror, 1);
	fx_done(&f);

	fx_init(&f);
	ck_assert_str_eq(run_file(&f, "missing.pk"), "after");
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "missing.pk:1:10: error: cannot find include file "
	    "'nope.pk'");
	snprintf(want, sizeof want, "note: searched in '%s', '%s/inc'", tmpdir,
	    tmpdir);
	EXPECT_MSG(&f, want);
	fx_done(&f);

	fx_init(&f);	/* <f> does not look next to the includer */
	run_file(&f, "angled.pk");
	EXPECT_MSG(&f, "cannot find include file 'b.pk'");
	fx_done(&f);

	fx_init(&f);	/* a conditional must end in its own file */
	ck_assert_str_eq(run_file(&f, "open.pk"), "open");
	EXPECT_MSG(&f, "open.pk:1:1: error: unterminated #if");
	fx_done(&f);

	fx_init(&f);
	ck_assert_str_eq(run_file(&f, "bad.pk"), "c");
	ck_assert_int_eq(f.d.nerror, 4);
	ck_assert_int_eq(f.d.nwarning, 1);
	EXPECT_MSG(&f, "bad.pk:1:1: error: #include expects \"FILENAME\" or "
	    "<FILENAME>");
	EXPECT_MSG(&f, "bad.pk:2:10: error: #include expects");
	EXPECT_MSG(&f, "bad.pk:3:10: error: #include expects");
	EXPECT_MSG(&f, "bad.pk:4:10: error: #include expects");
	EXPECT_MSG(&f, "bad.pk:5:21: warning: extra tokens at end of #include");
	fx_done(&f);

	fx_init(&f);
	run_file(&f, "args.pk");
	EXPECT_MSG(&f, "#include inside the arguments of a macro");
	fx_done(&f);

	fx_init(&f);
	ck_assert_int_eq(pp_push_file(f.pp, "/nonexistent/x.pk"), -1);
	EXPECT_MSG(&f, "pallasc: error: cannot read '/nonexistent/x.pk': ");
	fx_done(&f);

	fx_init(&f);	/* a directory is not an include file */
	run(&f, "#include \"/tmp\"\n");
	EXPECT_MSG(&f, "cannot find include file '/tmp'");
	fx_done(&f);
	rm_tree();
}
END_TEST

START_TEST(include_depth)
{
	char name[32], text[64];
	Fx f;
	int i;

	make_tree();
	for (i = 0; i < 210; i++) {
		snprintf(name, sizeof name, "n%d.pk", i);
		snprintf(text, sizeof text, "#include \"n%d.pk\"\nv%d\n", i + 1, i);
		put_file(name, text);
	}
	put_file("n210.pk", "last\n");
	fx_init(&f);
	run_file(&f, "n0.pk");
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "n199.pk:1:1: error: #include nested more than 200 deep");
	ck_assert_int_eq(f.n, 200);
	ck_assert_str_eq(f.tok[0].text, "v199");
	fx_done(&f);
	rm_tree();
}
END_TEST

/* -------------------------------------------------------- -D and -U */

START_TEST(command_line)
{
	Fx f;
	const SrcFile *sf;

	fx_init(&f);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "N=4"), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "FOO"), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "EMPTY="), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "TWICE(x)=x+x"), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "GONE=1"), 0);
	ck_assert_int_eq(pp_undef_cmdline(f.pp, "GONE"), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "S=\"a=b\""), 0);
	ck_assert_str_eq(run(&f, "N FOO [EMPTY] TWICE(2) GONE S\n"
	    "#ifdef EMPTY\nyes\n#endif\n"),
	    "4 1 [ ] 2 + 2 GONE \"a=b\" yes");
	ck_assert_int_eq(f.d.nerror, 0);
	sf = srcmgr_file(&f.sm, f.tok[0].loc.file);
	ck_assert_str_eq(sf->name, "<command line>");
	ck_assert_str_eq(f.sm.exp.v[f.tok[0].loc.exp].macro, "N");
	fx_done(&f);
}
END_TEST

START_TEST(command_line_errors)
{
	static const struct { const char *arg, *msg; int undef; } tab[] = {
		{ "3X", "pallasc: error: -D3X: macro names must be identifiers", 0 },
		{ "=1", "pallasc: error: -D=1: no macro name given", 0 },
		{ "", "no macro name given", 0 },
		{ "A-B=1", "-DA-B=1: macro names must be identifiers", 0 },
		{ "defined", "'defined' cannot be used as a macro name", 0 },
		{ "__LINE__=3", "'__LINE__' cannot be used as a macro name", 0 },
		{ "F(x=1", "expected ',' or ')' in macro parameter list", 0 },
		{ "X=\"open", "missing terminating", 0 },
		{ "3", "pallasc: error: -U3: macro names must be identifiers", 1 },
		{ "", "pallasc: error: -U: no macro name given", 1 },
		{ "A B", "-UA B: macro names must be identifiers", 1 },
		{ "__FILE__", "-U__FILE__: '__FILE__' cannot be undefined", 1 },
	};
	size_t i;
	Fx f;

	for (i = 0; i < countof(tab); i++) {
		fx_init(&f);
		if (tab[i].undef)
			ck_assert_int_eq(pp_undef_cmdline(f.pp, tab[i].arg), -1);
		else
			ck_assert_int_eq(pp_define_cmdline(f.pp, tab[i].arg), -1);
		ck_assert_int_eq(f.d.nerror, 1);
		EXPECT_MSG(&f, tab[i].msg);
		fx_done(&f);
	}
	/* a redefinition on the command line warns like #define does */
	fx_init(&f);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "N=1"), 0);
	ck_assert_int_eq(pp_define_cmdline(f.pp, "N=2"), 0);
	ck_assert_int_eq(f.d.nwarning, 1);
	EXPECT_MSG(&f, "<command line>:1:1: warning: 'N' redefined");
	fx_done(&f);
}
END_TEST

/* ------------------------------------------------------------ limits */

START_TEST(exponential_expansion)
{
	Buf b = {0};
	Fx f;
	int i;

	buf_puts(&b, "#define A0 x x\n");
	for (i = 1; i <= 30; i++)
		buf_printf(&b, "#define A%d A%d A%d\n", i, i - 1, i - 1);
	buf_puts(&b, "A30 after A30\n");
	fx_init(&f);
	run(&f, b.p);
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "error: macro expansion exceeds 1000000 tokens");
	EXPECT_MSG(&f, "note: in expansion of macro 'A30'");
	ck_assert_int_lt(f.n, 1000000);
	ck_assert(strstr(f.res.p, "after A30") != NULL);	/* no more */
	buf_free(&b);
	fx_done(&f);
}
END_TEST

START_TEST(exponential_arguments)
{
	Buf b = {0};
	Fx f;
	int i;

	/* each level doubles through argument substitution */
	buf_puts(&b, "#define D(x) x x\n");
	for (i = 0; i < 40; i++)
		buf_puts(&b, "D(");
	buf_puts(&b, "y");
	for (i = 0; i < 40; i++)
		buf_puts(&b, ")");
	buf_puts(&b, "\n");
	fx_init(&f);
	run(&f, b.p);
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "macro expansion exceeds 1000000 tokens");
	buf_free(&b);
	fx_done(&f);
	/* stringizing a string doubles its backslashes at each level */
	fx_init(&f);
	buf_puts(&b, "#define S(x) #x\n#define X(x) S(x)\n");
	for (i = 0; i < 60; i++)
		buf_puts(&b, "X(");
	buf_puts(&b, "\"\\\\\"");
	for (i = 0; i < 60; i++)
		buf_puts(&b, ")");
	buf_puts(&b, "\n");
	run(&f, b.p);
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "bytes of text");
	buf_free(&b);
	fx_done(&f);
}
END_TEST

START_TEST(nesting_limit)
{
	Buf b = {0};
	Fx f;
	int i;

	buf_puts(&b, "#define f(x) x\n");
	for (i = 0; i < 5000; i++)
		buf_puts(&b, "f(");
	buf_puts(&b, "1");
	for (i = 0; i < 5000; i++)
		buf_puts(&b, ")");
	buf_puts(&b, "\nf(2)\n");
	fx_init(&f);
	run(&f, b.p);
	ck_assert_int_eq(f.d.nerror, 1);
	EXPECT_MSG(&f, "macro arguments nested more than 200 deep");
	buf_free(&b);
	fx_done(&f);
	/* 150 levels are fine */
	b.n = 0;
	buf_puts(&b, "#define f(x) x\n");
	for (i = 0; i < 150; i++)
		buf_puts(&b, "f(");
	buf_puts(&b, "1");
	for (i = 0; i < 150; i++)
		buf_puts(&b, ")");
	expect_out(b.p, "1");
	buf_free(&b);
}
END_TEST

/* Random programs from preprocessor fragments: every one must end. */
START_TEST(random_programs)
{
	static const char *frag[] = {
		"#define ", "#undef ", "#if ", "#ifdef ", "#elif ", "#else",
		"#endif", "#include \"t.pk\"", "#error x", "#", "\n", "\n", " ",
		"A", "B", "F", "G", "(", ")", ",", "##", "#", "x", "1", "0",
		"/0", "defined", "__LINE__", "__FILE__", "\"s\"", "...",
		"__VA_ARGS__", "F(", "A B", "A(x) x x", "G(a,b) a##b", "#x",
		"/*", "*/", "\\\n", "\xff", "&&", "?", ":", "-", "<", ">",
	};
	unsigned seed = 1;
	Buf b = {0};
	Fx f;
	int round, i;

	for (round = 0; round < 600; round++) {
		b.n = 0;
		for (i = 0; i < 80; i++) {
			seed = seed * 1103515245u + 12345u;
			buf_puts(&b, frag[(seed >> 16) % countof(frag)]);
		}
		fx_init(&f);
		ck_assert_int_eq(pp_push_text(f.pp, "r.pk", b.p, b.n), 0);
		drain(&f);
		fx_done(&f);
	}
	buf_free(&b);
}
END_TEST

/* Inputs that once broke the preprocessor under the fuzzer. */
START_TEST(fuzz_regressions)
{
	static const char *tab[] = {
		/* empty arguments: NULL + 0 in argument pointer arithmetic */
		("#define ne S#els)x\n#define X(S) S(S#els)x\n"
		"#define X(S) S(x)\nX(\\)\\\")\n__LINE__E__ _\"\n"),
		/* a directive run while looking for '(' used the contexts */
		"#define X(x) x\nX\n#include X\nY\n",
		"#define X(x) x\nX\n#if X(1) + X\n#endif\nY\n",
	};
	size_t i;
	Fx f;

	for (i = 0; i < countof(tab); i++) {
		fx_init(&f);
		run(&f, tab[i]);
		fx_done(&f);
	}
}
END_TEST

START_TEST(no_input)
{
	Fx f;
	Token t;

	fx_init(&f);
	ck_assert_int_eq(pp_next(f.pp, &t), TK_EOF);
	ck_assert_str_eq(run(&f, ""), "");
	fx_done(&f);
}
END_TEST

static Suite *
preproc_suite(void)
{
	Suite *s = suite_create("preproc");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, object_like);
	tcase_add_test(tc, function_like);
	tcase_add_test(tc, argument_rules);
	tcase_add_test(tc, no_recursion);
	tcase_add_test(tc, painted_names_stay);
	tcase_add_test(tc, c_standard_example);
	tcase_add_test(tc, c_standard_strings);
	tcase_add_test(tc, stringify);
	tcase_add_test(tc, paste);
	tcase_add_test(tc, bad_paste);
	tcase_add_test(tc, builtins);
	tcase_add_test(tc, redefinition);
	tcase_add_test(tc, bad_defines);
	tcase_add_test(tc, argument_errors);
	tcase_add_test(tc, directives_in_arguments);
	tcase_add_test(tc, expansion_locations);
	tcase_add_test(tc, nested_locations);
	tcase_add_test(tc, argument_locations);
	tcase_add_test(tc, conditionals);
	tcase_add_test(tc, skipped_groups);
	tcase_add_test(tc, conditional_errors);
	tcase_add_test(tc, else_note_and_recovery);
	tcase_add_test(tc, warnings_and_extra_tokens);
	tcase_add_test(tc, expression_values);
	tcase_add_test(tc, expression_errors);
	tcase_add_test(tc, expression_depth);
	tcase_add_test(tc, include_search);
	tcase_add_test(tc, include_errors);
	tcase_add_test(tc, include_depth);
	tcase_add_test(tc, command_line);
	tcase_add_test(tc, command_line_errors);
	tcase_add_test(tc, exponential_expansion);
	tcase_add_test(tc, exponential_arguments);
	tcase_add_test(tc, nesting_limit);
	tcase_add_test(tc, random_programs);
	tcase_add_test(tc, fuzz_regressions);
	tcase_add_test(tc, no_input);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(preproc_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
