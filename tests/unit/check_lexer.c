/*
 * check_lexer.c - the re2c lexer (dsl/grammar/lexer.re): every token
 * kind, numeric literals with their suffixes and overflow, comments,
 * strings, stray bytes and binary garbage, exact locations and ranges,
 * the bol/space flags the preprocessor relies on, files with NUL bytes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"

enum { MAXTOK = 256 };

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	FILE *out;
	char *text;
	size_t len;
	Token t[MAXTOK];
	int n;			/* tokens before TK_EOF */
	Token eof;
} Fx;

/* Lexes src[0..len) to the end; tokens in f->t, messages in f->text. */
static void
lexn(Fx *f, const char *src, size_t len)
{
	Lexer lx;
	Token t;
	int file;

	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	file = srcmgr_add(&f->sm, "l.pk", src, len);
	lex_init(&lx, &f->d, &f->strs, &f->a, file);
	while (lex_next(&lx, &t) != TK_EOF) {
		ck_assert_int_lt(f->n, MAXTOK);
		f->t[f->n++] = t;
	}
	f->eof = t;
	ck_assert_int_eq(lex_next(&lx, &t), TK_EOF);	/* and stays there */
	fflush(f->out);
}

static void
lexs(Fx *f, const char *src)
{
	lexn(f, src, strlen(src));
}

static void
done(Fx *f)
{
	fclose(f->out);
	free(f->text);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static void
assert_loc(const Token *t, int line, int col, int eline, int ecol)
{
	ck_assert_int_eq(t->loc.line, line);
	ck_assert_int_eq(t->loc.col, col);
	ck_assert_int_eq(t->loc.eline, eline);
	ck_assert_int_eq(t->loc.ecol, ecol);
}

static int
contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

START_TEST(every_kind)
{
	static const struct { const char *s; TokKind k; } tab[] = {
		{ "name_1", TK_IDENT }, { "42", TK_INT }, { "4.5", TK_FLOAT },
		{ "\"s\"", TK_STRING }, { "(", TK_LPAREN }, { ")", TK_RPAREN },
		{ "[", TK_LBRACK }, { "]", TK_RBRACK }, { "{", TK_LBRACE },
		{ "}", TK_RBRACE }, { ",", TK_COMMA }, { ";", TK_SEMI },
		{ ":", TK_COLON }, { ".", TK_DOT }, { "...", TK_ELLIPSIS },
		{ "?", TK_QUESTION }, { "@", TK_AT }, { "#", TK_HASH },
		{ "##", TK_HASHHASH }, { "+", TK_PLUS }, { "-", TK_MINUS },
		{ "*", TK_STAR }, { "/", TK_SLASH }, { "%", TK_PERCENT },
		{ "&", TK_AMP }, { "|", TK_PIPE }, { "^", TK_CARET },
		{ "~", TK_TILDE }, { "!", TK_BANG }, { "&&", TK_ANDAND },
		{ "||", TK_OROR }, { "<<", TK_SHL }, { ">>", TK_SHR },
		{ "=", TK_ASSIGN }, { "+=", TK_PLUSEQ }, { "-=", TK_MINUSEQ },
		{ "*=", TK_STAREQ }, { "/=", TK_SLASHEQ }, { "==", TK_EQ },
		{ "!=", TK_NE }, { "<", TK_LT }, { ">", TK_GT }, { "<=", TK_LE },
		{ ">=", TK_GE }, { "->", TK_ARROW },
	};
	char seen[NTOK] = {0};
	Buf b = {0};
	Fx f;
	size_t i;
	int k;

	for (i = 0; i < countof(tab); i++)
		buf_printf(&b, "%s ", tab[i].s);
	lexs(&f, b.p);
	ck_assert_int_eq(f.n, (int)countof(tab));
	ck_assert_int_eq(f.d.nerror, 0);
	for (i = 0; i < countof(tab); i++) {
		ck_assert_msg(f.t[i].kind == tab[i].k, "'%s' lexed as %s",
		    tab[i].s, tok_kind_name(f.t[i].kind));
		ck_assert_int_eq(f.t[i].len, (int)strlen(tab[i].s));
		seen[tab[i].k] = 1;
	}
	for (k = 1; k < NTOK; k++)	/* the table covers tokens.def */
		ck_assert_msg(seen[k], "kind %s untested", tok_kind_name(k));
	for (k = 0; k < NTOK; k++)
		ck_assert_ptr_nonnull(tok_kind_name(k));
	ck_assert_str_eq(tok_kind_name(TK_LPAREN), "'('");
	ck_assert_str_eq(tok_kind_name(NTOK), "token");
	buf_free(&b);
	done(&f);
}
END_TEST

START_TEST(longest_match)
{
	Fx f;
	static const TokKind want[] = {
		TK_HASHHASH, TK_HASH, TK_ELLIPSIS, TK_DOT, TK_DOT, TK_SHL,
		TK_ASSIGN, TK_LE, TK_ARROW, TK_MINUS, TK_ANDAND, TK_AMP,
	};
	int i;

	lexs(&f, "###.....<<=<=->-&&&");
	ck_assert_int_eq(f.n, (int)countof(want));
	for (i = 0; i < f.n; i++)
		ck_assert_int_eq(f.t[i].kind, want[i]);
	done(&f);
}
END_TEST

START_TEST(integers)
{
	Fx f;

	lexs(&f, "0 42 0x1F 0XfF 0b101 0B1 010 9223372036854775807 7i32 "
	    "7i8 0x10i8 3f 2bf16");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, 13);
	ck_assert_int_eq(f.t[0].v.i, 0);
	ck_assert_int_eq(f.t[1].v.i, 42);
	ck_assert_int_eq(f.t[2].v.i, 31);
	ck_assert_int_eq(f.t[3].v.i, 255);
	ck_assert_int_eq(f.t[4].v.i, 5);
	ck_assert_int_eq(f.t[5].v.i, 1);
	ck_assert_int_eq(f.t[6].v.i, 8);	/* octal, as in C */
	ck_assert(f.t[7].v.i == 9223372036854775807ull);
	ck_assert_int_eq(f.t[8].v.i, 7);
	ck_assert_int_eq(f.t[8].suffix, SUF_I32);
	ck_assert_int_eq(f.t[9].suffix, SUF_I8);
	ck_assert_int_eq(f.t[10].v.i, 16);
	ck_assert_int_eq(f.t[10].suffix, SUF_I8);
	ck_assert_int_eq(f.t[11].kind, TK_INT);
	ck_assert_int_eq(f.t[11].suffix, SUF_F32);
	ck_assert_int_eq(f.t[12].suffix, SUF_BF16);
	ck_assert_int_eq(f.t[0].suffix, SUF_NONE);
	done(&f);
}
END_TEST

START_TEST(floats)
{
	Fx f;

	lexs(&f, "1.5 1. .25 1e3 2.5e-2 1E+2 1.5f 1.0f32 2.0bf16 3e2f 1e-999");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, 11);
	for (int i = 0; i < f.n; i++)
		ck_assert_int_eq(f.t[i].kind, TK_FLOAT);
	ck_assert(f.t[0].v.f == 1.5);
	ck_assert(f.t[1].v.f == 1.0);
	ck_assert(f.t[2].v.f == 0.25);
	ck_assert(f.t[3].v.f == 1000.0);
	ck_assert(f.t[4].v.f == 0.025);
	ck_assert(f.t[5].v.f == 100.0);
	ck_assert_int_eq(f.t[6].suffix, SUF_F32);
	ck_assert_int_eq(f.t[7].suffix, SUF_F32);
	ck_assert_int_eq(f.t[8].suffix, SUF_BF16);
	ck_assert_int_eq(f.t[9].suffix, SUF_F32);
	ck_assert(f.t[9].v.f == 300.0);
	ck_assert(f.t[10].v.f == 0.0);	/* underflow is not an error */
	ck_assert_int_eq(f.t[0].suffix, SUF_NONE);
	done(&f);
}
END_TEST

START_TEST(bad_suffixes)
{
	Fx f;

	lexs(&f, "1.5i32 12abc 2.0i8 0x1Fz 1e 0b102");
	ck_assert_int_eq(f.n, 6);
	ck_assert_int_eq(f.d.nerror, 6);
	ck_assert(contains(f.text, "l.pk:1:4: error: invalid suffix 'i32' on "
	    "floating-point literal"));
	ck_assert(contains(f.text, "l.pk:1:10: error: invalid suffix 'abc' on "
	    "integer literal"));
	ck_assert(contains(f.text, "invalid suffix 'i8' on floating-point"));
	ck_assert(contains(f.text, "invalid suffix 'z' on integer"));
	ck_assert(contains(f.text, "invalid suffix 'e' on integer"));
	ck_assert(contains(f.text, "invalid suffix '2' on integer"));
	ck_assert(contains(f.text, "note: valid suffixes are f (f32), f32, "
	    "bf16, i32 and i8"));
	ck_assert_int_eq(f.t[0].kind, TK_FLOAT);
	ck_assert_int_eq(f.t[0].suffix, SUF_NONE);
	ck_assert_int_eq(f.t[1].kind, TK_INT);
	ck_assert_int_eq(f.t[1].v.i, 12);
	done(&f);
}
END_TEST

START_TEST(overflow)
{
	Fx f;

	lexs(&f, "9223372036854775808 18446744073709551616 0xffffffffffffffffff"
	    " 1e999 1.5e400f 08");
	ck_assert_int_eq(f.n, 6);
	ck_assert_int_eq(f.d.nerror, 6);
	ck_assert(contains(f.text, "l.pk:1:1: error: integer literal "
	    "'9223372036854775808' is too large for 64 bits"));
	ck_assert(contains(f.text, "'18446744073709551616' is too large"));
	ck_assert(contains(f.text, "'0xffffffffffffffffff' is too large"));
	ck_assert(contains(f.text, "floating-point literal '1e999' is too "
	    "large"));
	ck_assert(contains(f.text, "floating-point literal '1.5e400' is too "
	    "large"));
	ck_assert(contains(f.text, "invalid digit '8' in octal literal '08'"));
	ck_assert_int_eq(f.t[0].v.i, 0);
	ck_assert_int_eq(f.t[1].v.i, 0);
	done(&f);
}
END_TEST

START_TEST(too_long_literal)
{
	Buf b = {0};
	Fx f;
	int i;

	for (i = 0; i < 600; i++)
		buf_putc(&b, '1');
	buf_puts(&b, " x");
	lexs(&f, b.p);
	ck_assert_int_eq(f.n, 2);
	ck_assert_int_eq(f.d.nerror, 1);
	ck_assert(contains(f.text, "numeric literal is too long"));
	ck_assert_int_eq(f.t[0].len, 600);
	buf_free(&b);
	done(&f);
}
END_TEST

START_TEST(comments)
{
	Fx f;

	lexs(&f, "a // line comment * /\nb /* block\n comment */ c/**/d /* */");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, 4);
	ck_assert_str_eq(f.t[0].text, "a");
	ck_assert_str_eq(f.t[1].text, "b");
	assert_loc(&f.t[1], 2, 1, 2, 1);
	assert_loc(&f.t[2], 3, 13, 3, 13);
	assert_loc(&f.t[3], 3, 18, 3, 18);
	ck_assert_int_eq(f.t[2].bol, 0);	/* the line began in a comment */
	ck_assert_int_eq(f.t[2].space, 1);
	ck_assert_int_eq(f.t[3].space, 1);	/* a comment is white space */
	done(&f);
}
END_TEST

START_TEST(unterminated_comment)
{
	Fx f;

	lexs(&f, "a /* never\nends");
	ck_assert_int_eq(f.n, 1);
	ck_assert_int_eq(f.d.nerror, 1);
	ck_assert(contains(f.text, "l.pk:1:3: error: unterminated comment"));
	ck_assert(contains(f.text, "note: the comment starts here"));
	ck_assert_int_eq(f.eof.kind, TK_EOF);
	done(&f);
}
END_TEST

START_TEST(strings)
{
	Fx f;

	lexs(&f, "\"a\\n\\t\\x41\\\\\\\"\\'z\" \"\"");
	ck_assert_int_eq(f.d.nerror, 0);
	ck_assert_int_eq(f.n, 2);
	ck_assert_int_eq(f.t[0].kind, TK_STRING);
	ck_assert_str_eq(f.t[0].v.s, "a\n\tA\\\"'z");
	ck_assert_int_eq(f.t[0].len, 18);	/* the spelling, quotes too */
	ck_assert_str_eq(f.t[1].v.s, "");
	done(&f);
}
END_TEST

START_TEST(bad_strings)
{
	Fx f;

	lexs(&f, "\"bad \\q esc\" \"open\nx \"\\x4\"");
	ck_assert_int_eq(f.n, 4);
	ck_assert_int_eq(f.d.nerror, 3);
	ck_assert(contains(f.text, "l.pk:1:6: error: unknown escape sequence "
	    "'\\q'"));
	ck_assert(contains(f.text, "l.pk:1:14: error: missing terminating '\"' "
	    "character"));
	ck_assert(contains(f.text, "unknown escape sequence '\\x'"));
	ck_assert_int_eq(f.t[1].kind, TK_STRING);
	ck_assert_str_eq(f.t[1].v.s, "open");
	ck_assert_str_eq(f.t[2].text, "x");
	assert_loc(&f.t[2], 2, 1, 2, 1);
	done(&f);
}
END_TEST

START_TEST(stray_characters)
{
	Fx f;

	lexs(&f, "a $ b ` \x01 c \\ d");
	ck_assert_int_eq(f.n, 4);
	ck_assert_int_eq(f.d.nerror, 4);
	ck_assert(contains(f.text, "l.pk:1:3: error: stray '$' in program"));
	ck_assert(contains(f.text, "l.pk:1:7: error: stray '`' in program"));
	ck_assert(contains(f.text, "l.pk:1:9: error: stray '\\x01' in program"));
	ck_assert(contains(f.text, "stray '\\' in program"));
	ck_assert_int_eq(f.t[1].space, 1);
	done(&f);
}
END_TEST

START_TEST(binary_garbage)
{
	static const char src[] = "x \x80\x81\xfe\xff y\xc3\xa9z \xe2 "
	    "\x01\x02\x7f\x90 w";
	Fx f;

	lexn(&f, src, sizeof src - 1);
	ck_assert_int_eq(f.n, 4);	/* x y z w */
	ck_assert_int_eq(f.d.nerror, 4);	/* one per run of bytes */
	ck_assert(contains(f.text, "l.pk:1:3: error: stray bytes in program "
	    "(4 bytes: not printable ASCII)"));
	ck_assert(contains(f.text, "l.pk:1:9: error: stray bytes in program "
	    "(2 bytes"));
	ck_assert(contains(f.text, "l.pk:1:13: error: stray bytes in program "
	    "(1 byte:"));
	ck_assert(contains(f.text, "l.pk:1:15: error: stray bytes in program "
	    "(4 bytes"));
	ck_assert_str_eq(f.t[2].text, "z");
	assert_loc(&f.t[2], 1, 11, 1, 11);
	assert_loc(&f.t[3], 1, 20, 1, 20);
	done(&f);
}
END_TEST

START_TEST(random_bytes_terminate)
{
	unsigned seed = 12345;
	char buf[512];
	Fx f;
	int round, i;

	for (round = 0; round < 200; round++) {
		for (i = 0; i < (int)sizeof buf; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = (char)(seed >> 16);
		}
		lexn(&f, buf, sizeof buf);
		ck_assert_int_eq(f.eof.kind, TK_EOF);
		done(&f);
	}
}
END_TEST

START_TEST(nul_bytes)
{
	static const char src[] = "a\0b \"s\0t\" c";
	Fx f;

	/* a NUL byte marks a binary file: one error, no tokens */
	lexn(&f, src, sizeof src - 1);
	ck_assert_int_eq(f.n, 0);
	ck_assert_int_eq(f.d.nerror, 1);
	ck_assert(contains(f.text, "l.pk: error: this is not a text file: it "
	    "contains a NUL byte at offset 1"));
	ck_assert_int_eq(f.eof.kind, TK_EOF);
	done(&f);
}
END_TEST

START_TEST(locations)
{
	Fx f;

	lexs(&f, "  abc +=\n\tx 12345\r\n\"str\"  \n\n   y");
	ck_assert_int_eq(f.n, 6);
	assert_loc(&f.t[0], 1, 3, 1, 5);
	assert_loc(&f.t[1], 1, 7, 1, 8);
	assert_loc(&f.t[2], 2, 2, 2, 2);
	assert_loc(&f.t[3], 2, 4, 2, 8);
	assert_loc(&f.t[4], 3, 1, 3, 5);
	assert_loc(&f.t[5], 5, 4, 5, 4);
	ck_assert_int_eq(f.t[0].loc.file, 1);
	ck_assert_int_eq(f.t[0].loc.exp, 0);
	ck_assert_int_eq(f.eof.loc.line, 5);
	ck_assert_int_eq(f.eof.len, 0);
	done(&f);
}
END_TEST

START_TEST(flags)
{
	Fx f;

	lexs(&f, "a b\n  c(d \\\n e\n#x");
	ck_assert_int_eq(f.n, 8);
	ck_assert(f.t[0].bol && f.t[0].space);
	ck_assert(!f.t[1].bol && f.t[1].space);
	ck_assert(f.t[2].bol && f.t[2].space);
	ck_assert(!f.t[3].bol && !f.t[3].space);
	ck_assert(!f.t[4].bol && !f.t[4].space);
	ck_assert(!f.t[5].bol && f.t[5].space);	/* backslash-newline folded */
	assert_loc(&f.t[5], 3, 2, 3, 2);
	ck_assert(f.t[6].bol && f.t[6].kind == TK_HASH);
	ck_assert(!f.t[7].bol && !f.t[7].space && !f.t[7].noexpand);
	done(&f);
}
END_TEST

START_TEST(idents_interned)
{
	Fx f;

	lexs(&f, "abc abc _x9 abd");
	ck_assert_ptr_eq(f.t[0].text, f.t[1].text);
	ck_assert_ptr_ne(f.t[0].text, f.t[3].text);
	ck_assert_str_eq(f.t[2].text, "_x9");
	ck_assert_ptr_eq(f.t[0].text, strtab_intern(&f.strs, "abc", 3));
	done(&f);
}
END_TEST

START_TEST(empty_input)
{
	Fx f;

	lexs(&f, "");
	ck_assert_int_eq(f.n, 0);
	ck_assert_int_eq(f.eof.kind, TK_EOF);
	ck_assert_int_eq(f.d.nerror, 0);
	done(&f);
}
END_TEST

static Suite *
lexer_suite(void)
{
	Suite *s = suite_create("lexer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_kind);
	tcase_add_test(tc, longest_match);
	tcase_add_test(tc, integers);
	tcase_add_test(tc, floats);
	tcase_add_test(tc, bad_suffixes);
	tcase_add_test(tc, overflow);
	tcase_add_test(tc, too_long_literal);
	tcase_add_test(tc, comments);
	tcase_add_test(tc, unterminated_comment);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, bad_strings);
	tcase_add_test(tc, stray_characters);
	tcase_add_test(tc, binary_garbage);
	tcase_add_test(tc, random_bytes_terminate);
	tcase_add_test(tc, nul_bytes);
	tcase_add_test(tc, locations);
	tcase_add_test(tc, flags);
	tcase_add_test(tc, idents_interned);
	tcase_add_test(tc, empty_input);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(lexer_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
