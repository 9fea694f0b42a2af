/*
 * pallasc.h - what the driver's files share: the options and entry of
 * interpret mode (pallasc-run.c), called from pallasc.c.
 */
#ifndef PALLAS_TOOLS_PALLASC_H
#define PALLAS_TOOLS_PALLASC_H

#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "dsl/sema/checked.h"
#include "graph/graph.h"
#include "backend/vliw/vliw.h"
#include "pallas/runtime.h"

/* --run (compiled, on the simulator), --interpret --run, and options. */
typedef struct RunOpts {
	int interpret, run;	/* --run alone: compiled and simulated */
	const char *trace;	/* --trace FILE: Chrome trace of a compiled run */
	const char *entry;	/* --entry: the export to run */
	const char *fill;	/* --input: "random:0" unless given */
	VEC(const char *) file;	/* --input-file NAME=PATH */
	VEC(const char *) smem;	/* --smem NAME=PATH */
	const char *splash_mask;	/* --splash-mask=DESC (--splash-causal:
				   "causal"), or NULL */
	const char *save_dir;	/* --save-dir */
	int shuffle;		/* --shuffle[=SEED] */
	uint64_t seed;
	int plan;		/* --emit=pipeline: takes --entry, --smem and
				   --splash-mask without --run */
	int lower;		/* --emit=hlo: takes --entry without --run */
	int select;		/* --emit=tile, llo, asm: --entry picks the
				   export to print */
	int check;		/* -fsyntax-only, --emit=sema: --entry picks
				   the export to check; with --interpret
				   only interpret mode's checks */
	VliwOpts vliw;		/* -fno-cse, -fno-licm, -fno-modulo-sched:
				   for every compile, not only --run */
	MosaicOpts mosaic;	/* -fno-bounds-check, as vliw */
	int opt;		/* --emit=hlo-opt: the passes run first */
	const char *dump_dir;	/* --dump-passes=DIR */
	VEC(const char *) hlo_off;	/* -fno-hlo-NAME: passes left out */
	int check_passes;	/* --check-passes */
	int stats;		/* --emit=hlo-stats: figures, not the module */
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
 * Runs the chosen export of a checked module, in interpret mode or
 * compiled on the simulator; prints checksums to out or saves .npy files.  Returns an exit status
 * (EXIT_USER after reporting through d or on stderr).
 */
int run_module(const RunOpts *r, const CheckedModule *m, Diag *d,
    Buf *out);

/*
 * m with only the export --entry names (all of m without --entry) in
 * *out, for the printing levels.  0, or EXIT_USER after a message that
 * lists the exports.
 */
int run_select(const RunOpts *r, const CheckedModule *m, CheckedModule *out);

/*
 * pallasc-sim.c: compiles export 'name' of m (a kernel) alone, runs it on
 * the simulator with b[0 .. n) as its operands (inputs filled, outputs
 * overwritten) and appends its counters to stats (and into *st if not
 * NULL).  0, or -1 after reporting through d or on stderr.
 */
int sim_kernel(const RunOpts *r, const CheckedModule *m, const char *name,
    InterpBuf *b, int n, Diag *d, Buf *stats, PallasStats *st);
/*
 * Runs entry 'entry' of prog on a fresh device (every check on, memory
 * poisoned, --trace honoured) with b[0 .. n) as its operands, in the
 * entry's order; a failed run-time check of kernel k (NULL: none) is
 * reported at its source.  Counters appended to stats (and *st).
 */
int sim_program(const RunOpts *r, const MachProgram *prog, const char *entry,
    const CKernel *k, Diag *d, InterpBuf *b, int n, Buf *stats,
    PallasStats *st);
/*
 * pallasc-func.c: runs func export e of m on the simulator, compiled
 * into one program whose entry is its top-level program, from args (one
 * per parameter) into res (allocated); the counters (one region per
 * step) appended to stats.  0, or -1 after a message.
 */
int sim_func(const RunOpts *r, const CheckedModule *m, const CExport *e,
    InterpBuf *args, InterpBuf *res, Diag *d, Buf *stats);
/* The same for an .hlo input's module m (optimised in place) for preset
   mp: args one per parameter of its entry, res[0 .. nres) its results
   (the root's arrays). */
int sim_hlo(const RunOpts *r, HloModule *m, const MachPreset *mp,
    InterpBuf *args, InterpBuf *res, int nres, Diag *d, Buf *stats);

/*
 * pallasc-prog.c: the TModule of m's exports: the kernels, then each
 * func's kernels and top-level program (printed into tlp_text if not
 * NULL, for --emit=tlp).  0, or -1 after reporting through d (*out is
 * set either way).  prog_has_func: does m export a func?
 */
int prog_module(const RunOpts *r, const CheckedModule *m, Diag *d, Arena *a,
    Strtab *strs, Buf *tlp_text, TModule **out);
int prog_has_func(const CheckedModule *m);
/*
 * The same for an .hlo input's module hm: its entry, optimised for mp,
 * as the top-level program named after the module (a C identifier, as
 * are its parameters' names), appended to tm with its kernels; a
 * custom-call is an error (no kernel of this compilation).  0, or -1
 * after reporting through d.
 */
int prog_hlo_module(const RunOpts *r, HloModule *hm, const MachPreset *mp,
    Diag *d, Arena *a, Strtab *strs, Buf *tlp_text, TModule *tm);

/*
 * pallasc-splash.c: --splash-mask.  run_splash_tables fills the Splash
 * tables of kernel k in b (allocated) from the mask given, and a
 * SEGMENTS kernel's ids where b holds them; 0, or -1 after a message.
 * run_splash_fills says whether it fills operand i.
 */
int run_splash_tables(const RunOpts *r, const CKernel *k, InterpBuf *b);
int run_splash_fills(const CKernel *k, int i);

/*
 * The SMEM tables of kernel k that --smem files and --splash-mask
 * give: allocates b[i] for every table operand i (the caller frees them
 * with interp_buf_free) and sets known[i] for those filled.  Returns 0,
 * or -1 after a message on stderr.
 */
int run_smem_tables(const RunOpts *r, const CKernel *k, InterpBuf *b,
    int *known);

/*
 * Input number idx of an export (or HLO entry), b allocated and named:
 * read from the .npy file path if not NULL, else made by the --input
 * generator seeded by idx.  0, or -1 after a message on stderr.
 */
int run_input(const RunOpts *r, int idx, const char *path, InterpBuf *b);
/* Prints one output's checksum line, or saves it under --save-dir. */
int run_output(const RunOpts *r, const InterpBuf *b, Buf *out);

/*
 * pallasc-hlo.c: --emit=hlo of a .pk module: every exported func (or
 * --entry's) lowered to an HLO module and printed.  An exit status.
 */
int hlo_emit_module(const RunOpts *r, const CheckedModule *m, Diag *d,
    Arena *a, Strtab *s, Buf *out);
/*
 * --interpret --run of an .hlo module read from 'file': its entry on the
 * reference evaluator (f32 dots with the MXU's precision), inputs and
 * outputs as for a .pk export.  An exit status.
 */
int hlo_run_module(const RunOpts *r, const HloModule *m,
    const char *file, Arena *a, Buf *out);
/* --run of one compiled: its entry as a top-level program for preset mp
   (the module optimised in place), on the same inputs, its counters
   after the output. */
int hlo_sim_module(const RunOpts *r, HloModule *m, const MachPreset *mp,
    Diag *d, Arena *a, Buf *out);

/*
 * The entry's arguments as --input and --input-file make them: b[i] owns
 * the data args[i] points at.  0, or -1 after a message on stderr.
 * hlo_free_args frees both.
 */
int hlo_make_args(const RunOpts *r, const HloComp *c, InterpBuf **b,
    HloBuf **args);
void hlo_free_args(const HloComp *c, InterpBuf *b, HloBuf *args);

/*
 * pallasc-hloopt.c: runs the HLO pass pipeline on m for preset mp with
 * the options of r (--dump-passes, -fno-hlo-NAME, --check-passes); name
 * prefixes the dump files of a module without a name.  An exit status.
 */
int hlo_opt_module(const RunOpts *r, HloModule *m, const MachPreset *mp,
    const char *name, Diag *d);
/* hlo_opt_module, then the optimised module (--emit=hlo-opt) or its
   figures (--emit=hlo-stats, r->stats) appended to out. */
int hlo_opt_emit(const RunOpts *r, HloModule *m, const MachPreset *mp,
    const char *name, Diag *d, Buf *out);

/* pallasc-plan.c: --emit=pipeline of every exported kernel (or --entry's);
   returns an exit status. */
int plan_module(const RunOpts *r, const CheckedModule *m, Diag *d,
    Buf *out);

/* pallasc-obj.c: -c, -H FILE, --elf-machine and the object outputs. */
typedef struct ObjOpts {
	const char *header;	/* -H FILE: also write the C header there */
	const char *machine;	/* --elf-machine NAME; NULL = the host's */
	int compile;		/* -c */
} ObjOpts;

/* What the main output of an object-level --emit is. */
typedef enum ObjOut { OBJ_NONE, OBJ_ELF, OBJ_C, OBJ_HEADER } ObjOut;

/* As run_flag, for -c, -H FILE and --elf-machine NAME. */
int obj_flag(ObjOpts *b, int argc, char **argv, int *i);
/* 1 if path names an assembly file (FILE.s). */
int obj_is_asm_input(const char *path);
/* cc -c's default output: input's base name with the suffix .o. */
const char *obj_default_output(Arena *a, const char *input);
/*
 * An assembly input: assembles it (preset from .preset, else 'preset'),
 * appends 'what' to out and writes the -H header.  'output' (-o, or
 * NULL) names the header's include guard.  An exit status.
 */
int obj_asm(const ObjOpts *b, const char *input, const char *preset,
    ObjOut what, const char *output, Buf *out);
/* The same for a checked .pk module: headers only; OBJ_ELF and OBJ_C
   say they are not available yet (EXIT_USAGE). */
/* The object, its C source and the header of a compiled program. */
int obj_program(const ObjOpts *b, const MachProgram *p, const char *input,
    ObjOut what, const char *output, Buf *out);
int obj_module(const ObjOpts *b, const CheckedModule *m, const char *input,
    ObjOut what, const char *output, Buf *out);

/* A C input's module compiled ahead of time (doc/embedded.md). */
typedef struct ObjModule {
	const char *name;
	const MachProgram *prog;
	const void *image;	/* mach_image_write of prog */
	size_t len;
	const void *key;	/* jit_key(..., 0): what PK_MODULE matches */
	size_t keylen;
} ObjModule;
/*
 * One object for all of a C input's modules: images pk_image_pkm_NAME
 * (the program) and pk_image_pkk_NAME (its key), which PK_MODULE's weak
 * references bind to; header entry points NAME_EXPORT.  An exit status.
 */
int obj_embedded(const ObjOpts *b, const ObjModule *mod, int n,
    const char *input, ObjOut what, const char *output, Buf *out);

#endif
