/*
 * jit.h - the compiler inside a user's program: what PK_MODULE's run-time
 * path shares (compile.c compiles one embedded module; module.c keeps the
 * process's modules and implements include/pallas/module.h).
 */
#ifndef PALLAS_JIT_H
#define PALLAS_JIT_H

#include <stddef.h>

/* One compile: an embedded module's text, for a preset, with flags. */
typedef struct JitInput {
	const char *name;	/* the module's name */
	const char *file;	/* the C file (__FILE__), for positions */
	int line;		/* __LINE__ of the PK_MODULE */
	const char *text;	/* its text as C's # operator spelt it */
	const char *preset;
	const char *const *flag;	/* -D, -U, -I, -f..., as pallasc's */
	int nflag;
} JitInput;

/* What a compile gives: the program image on success (malloc'd), and the
 * diagnostics text in either case (malloc'd, "" if none). */
typedef struct JitOutput {
	void *image;
	size_t len;
	char *diag;
	int from_file;		/* 1: positions mapped through the C file */
} JitOutput;

/*
 * Compiles in into out.  0 on success; -1 on a compile error (out->diag
 * says why; out->image NULL); -2 on a bad flag (out->diag says which).
 * Never exits: an internal error or out of memory is a -1 with its text.
 * Safe to call from several threads at once.
 */
int jit_compile(const JitInput *in, JitOutput *out);
void jit_output_free(JitOutput *out);

#endif
