/*
 * fuzz_pk.c - libFuzzer target for the .pk frontend: preprocessor and
 * parser over arbitrary bytes.  Any crash, hang, leak or sanitizer report
 * is a bug; each input that found one is kept in tests/fuzz/regress/.
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdio.h>

#include "dsl/dsl.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	Arena a = {0};
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, sink);
	d.max_errors = 0;	/* exercise every error path */
	pp = pp_new(&d, &strs, &a);
	pp_define_cmdline(pp, "BM=128");
	if (pp_push_text(pp, "fuzz.pk", (const char *)data, size) == 0)
		parse_module(pp_source, pp, &d, &a);
	pp_free(pp);
	diag_finish(&d);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
	return 0;
}
