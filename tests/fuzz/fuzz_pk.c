/*
 * fuzz_pk.c - libFuzzer target for the .pk frontend: preprocessor,
 * parser and semantic checks over arbitrary bytes.  Any crash, hang, leak or sanitizer report
 * is a bug; each input that found one is kept in tests/fuzz/regress/.
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdio.h>

#include "dsl/dsl.h"
#include "dsl/sema/checked.h"
#include "machine/machine.h"

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
	Ast *ast;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, sink);
	d.max_errors = 0;	/* exercise every error path */
	pp = pp_new(&d, &strs, &a);
	pp_define_cmdline(pp, "BM=128");
	if (pp_push_text(pp, "fuzz.pk", (const char *)data, size) == 0) {
		ast = parse_module(pp_source, pp, &d, &a);
		if (d.nerror == 0)	/* as the driver: sema only on a good tree */
			sema_check(ast, mach_preset(size % 2 ? "small" : "v4"),
			    &d, &a);
	}
	pp_free(pp);
	diag_finish(&d);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
	return 0;
}
