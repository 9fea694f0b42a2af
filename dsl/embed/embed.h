/*
 * embed.h - kernels embedded in C files: finding each PK_MODULE(name,
 * ...) of a C file (cscan.c) for pallasc's C inputs and for the JIT,
 * which re-reads the C file to give diagnostics its lines and columns.
 * doc/embedded.md has the user's view.
 */
#ifndef PALLAS_DSL_EMBED_H
#define PALLAS_DSL_EMBED_H

#include "util/util.h"

typedef struct EmbedModule {
	const char *name;	/* the module's name */
	Loc at;			/* the PK_MODULE token */
	size_t begin, end;	/* its text in the C file: after the ','
				   that follows the name, to the ')' */
	const char *text;	/* the text as C's #__VA_ARGS__ spells it */
	size_t len;
	const char *layout;	/* the C file with every byte outside
				   [begin, end) blanked (newlines kept) */
} EmbedModule;

/*
 * Finds the PK_MODULE invocations of file 'file' of d->sm (C text):
 * comments, string and character literals, line splices and directive
 * lines are skipped, parentheses matched, as C's translation phases 1-4
 * see them.  Malformed invocations are reported through d.  Returns the
 * number found, the modules in *out (allocated from a).
 */
int embed_scan(Diag *d, int file, Arena *a, EmbedModule **out);

#endif
