/*
 * fuzz_cscan.c - libFuzzer target for C inputs: the PK_MODULE scanner
 * (dsl/embed/cscan.c) over arbitrary bytes, then each module's text at
 * its C positions through the embedded preprocessor (PK_PP), the parser
 * and sema, as pallasc does with a C file.  Any crash, hang, leak or
 * sanitizer report is a bug.
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdio.h>

#include "dsl/dsl.h"
#include "dsl/embed/embed.h"
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
	EmbedModule *mod;
	Arena a = {0};
	SrcMgr sm;
	Strtab strs;
	Diag d;
	int file, n, i;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, sink);
	d.max_errors = 0;
	file = srcmgr_add(&sm, "fuzz.c", (const char *)data, size);
	n = embed_scan(&d, file, &a, &mod);
	for (i = 0; i < n && i < 4; i++) {
		PP *pp = pp_new(&d, &strs, &a);
		int before = d.nerror;
		if (pp_push_embedded(pp, "fuzz.c", mod[i].layout, size) == 0) {
			Ast *ast = parse_module(pp_source, pp, &d, &a);
			srcmgr_set_show(&sm, sm.file.n - 1, (const char *)data);
			if (d.nerror == before)
				sema_check(ast, mach_preset("small"), &d, &a);
		}
		pp_free(pp);
	}
	diag_finish(&d);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
	return 0;
}
