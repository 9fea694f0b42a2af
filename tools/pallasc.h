/*
 * pallasc.h - what the driver's files share: the options and entry of
 * interpret mode (pallasc-run.c), called from pallasc.c.
 */
#ifndef PALLAS_TOOLS_PALLASC_H
#define PALLAS_TOOLS_PALLASC_H

#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "dsl/sema/checked.h"

/* --interpret --run and its options. */
typedef struct RunOpts {
	int interpret, run;	/* both are needed to run */
	const char *entry;	/* --entry: the export to run */
	const char *fill;	/* --input: "random:0" unless given */
	VEC(const char *) file;	/* --input-file NAME=PATH */
	VEC(const char *) smem;	/* --smem NAME=PATH */
	int splash_causal;	/* --splash-causal */
	const char *save_dir;	/* --save-dir */
	int shuffle;		/* --shuffle[=SEED] */
	uint64_t seed;
} RunOpts;

/*
 * If argv[*i] is an interpret-mode option, records it (consuming its
 * argument) and returns 0, or EXIT_USAGE after a message; returns -1 if
 * the option is not one of them.
 */
int run_flag(RunOpts *r, Arena *a, int argc, char **argv, int *i);

/* Checks the options once all are read: 0, or EXIT_USAGE. */
int run_check_opts(const RunOpts *r);

/*
 * Runs the chosen export of a checked module in interpret mode; prints
 * checksums to out or saves .npy files.  Returns an exit status
 * (EXIT_USER after reporting through d or on stderr).
 */
int run_module(const RunOpts *r, const CheckedModule *m, Diag *d,
    Buf *out);

#endif
