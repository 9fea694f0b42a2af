/*
 * pallasc.c - the pallas-c compiler driver.
 *
 * Reads the command line, then runs the pipeline written out in compile():
 * preprocess -> parse -> (later: sema -> mosaic -> vliw -> object).  Each
 * --emit level stops the pipeline after the stage that prints it.  Exit
 * status: 0 success, 1 error in the input, 2 bad command line, 70 bug.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#if defined HAVE_MALLOC_H && defined HAVE_MALLOPT
#include <malloc.h>
#endif
#include "dsl/dsl.h"
#include "dsl/sema/checked.h"
#include "graph/graph.h"
#include "graph/lower.h"
#include "backend/mosaic/mosaic.h"
#include "backend/vliw/vliw.h"
#include "dsl/embed/embed.h"
#include "jit/key.h"
#include "tools/pallasc.h"

typedef enum Emit {
	EMIT_OBJ,		/* default: a relocatable object (-c) */
	EMIT_PP,		/* -E: the preprocessed token stream */
	EMIT_SYNTAX,		/* -fsyntax-only: check, print nothing */
	EMIT_AST,
	EMIT_SEMA,		/* the checked kernels and funcs */
	EMIT_HLO,		/* an .hlo input printed back (graph/) */
	EMIT_HLO_OPT,		/* HLO after the pass pipeline */
	EMIT_HLO_STATS,		/* what the pass pipeline did, in figures */
	EMIT_PIPELINE,		/* the grid pipeline plans and allocation */
	EMIT_FUSIONS,		/* a func's fusions as .pk kernels (graph/) */
	EMIT_TLP,		/* a func's top-level program (graph/tlp.c) */
	EMIT_TILE,		/* the tile IR (backend/mosaic) */
	EMIT_LLO,		/* LLO after isel (backend/vliw) */
	EMIT_ASM,		/* -S: the scheduled bundles (backend/vliw) */
	EMIT_HEADER,		/* the C header of the exports (-H) */
	EMIT_C,			/* the object's contents as C source */
} Emit;

/* The --emit levels. */
static const struct {
	const char *name;
	Emit emit;
} emits[] = {
	{ "pp", EMIT_PP },	{ "ast", EMIT_AST },	{ "sema", EMIT_SEMA },
	{ "hlo", EMIT_HLO },	{ "hlo-opt", EMIT_HLO_OPT }, { "tile", EMIT_TILE },
	{ "hlo-stats", EMIT_HLO_STATS },
	{ "pipeline", EMIT_PIPELINE },	{ "fusions", EMIT_FUSIONS },
	{ "tlp", EMIT_TLP },
	{ "llo", EMIT_LLO },	{ "asm", EMIT_ASM },	{ "header", EMIT_HEADER },
	{ "c", EMIT_C },	{ "obj", EMIT_OBJ },
};

typedef struct Options {
	const char *input;
	const char *output;	/* -o; NULL = stdout for text levels */
	const char *emit_name;	/* as given, for messages */
	Emit emit;
	const char *preset;	/* --preset / -m; NULL = the default (v4) */
	int werror;
	int color;		/* -1 = not given (auto) */
	DiagFormat format;
	VEC(const char *) incdir;
	VEC(const char *) macro;	/* "-DX=1" or "-UX", in order */
	RunOpts run;		/* --interpret --run (pallasc-run.c) */
	ObjOpts obj;		/* -c, -H, --elf-machine (pallasc-obj.c) */
	const char *module;	/* --module NAME: a C input's module */
	const EmbedModule *embed;	/* the C input's module being compiled */
	const char *ctext;	/* the C file, shown under diagnostics */
} Options;

static const char usage_text[] =
"Usage: pallasc [options] FILE.pk|FILE.c|FILE.s\n"
"Compile a .pk kernel file, or the PK_MODULEs of a C file, for the\n"
"simulated TPU-like machine.\n"
"\n"
"Options:\n"
"  -o FILE                    write the output to FILE (default: standard\n"
"                             output for text levels)\n"
"  -c                         write an object (the default); without -o,\n"
"                             to FILE's base name with the suffix .o\n"
"                             (FILE.c: FILE-kernels.o)\n"
"  --module NAME              a C file's module NAME alone (default:\n"
"                             each in turn; objects hold them all)\n"
"  -H FILE                    also write the exports' C header to FILE\n"
"                             (-H without -c or -o: only the header)\n"
"  -I DIR                     search DIR for #include files\n"
"  -D NAME[=VALUE]            define a preprocessor macro (VALUE defaults to 1)\n"
"  -U NAME                    undefine a preprocessor macro\n"
"  -E                         preprocess only; same as --emit=pp\n"
"  -S                         the scheduled bundles in the assembler's\n"
"                             syntax; same as --emit=asm\n"
"  -fsyntax-only              check the syntax and the meaning, and that\n"
"                             the compiled path supports each kernel for\n"
"                             the preset (it compiles them, writing\n"
"                             nothing), and stop; with --interpret, only\n"
"                             what interpret mode needs\n"
"  --preset NAME, -m NAME     the machine preset: v4 (default), v5e, v6e,\n"
"                             small; checks and budgets follow it\n"
"  --emit=LEVEL               stop after LEVEL and print it:\n"
"                               pp     preprocessed tokens\n"
"                               ast    the syntax tree with source ranges\n"
"                               sema   the checked kernels and funcs, with\n"
"                                      their VMEM/SMEM budget tables, then\n"
"                                      what each compiled kernel allocates\n"
"                               hlo    the exported funcs lowered to HLO\n"
"                                      (--entry NAME: one), or an .hlo\n"
"                                      input, verified and printed\n"
"                               hlo-opt  the same after the HLO pass\n"
"                                      pipeline (see --dump-passes)\n"
"                               hlo-stats  after the pipeline: fusions\n"
"                                      by kind, instruction counts, the\n"
"                                      largest intermediate left in HBM,\n"
"                                      estimated HBM bytes unfused and\n"
"                                      fused, what is in VMEM and why\n"
"                                      the rest is not\n"
"                               pipeline  each kernel's grid pipeline: per\n"
"                                      step the copies that start, wait or\n"
"                                      are skipped, and the VMEM/SMEM layout\n"
"                                      (SMEM tables from --smem and\n"
"                                      --splash-mask, else symbolic)\n"
"                               fusions  each exported func's fusions,\n"
"                                      after the HLO pipeline, as the .pk\n"
"                                      kernels the fusion emitter writes\n"
"                                      (tile, llo and asm print those of a\n"
"                                      func, asm its top-level program too)\n"
"                               tlp    each exported func's top-level\n"
"                                      program: its HBM footprint, buffers\n"
"                                      (scratch offsets, live steps) and\n"
"                                      the kernels it runs, in order\n"
"                               llo    machine ops on virtual registers\n"
"                               asm    scheduled, allocated bundles (-S)\n"
"                               header the exports' C header (as -H)\n"
"                               c      the object as C source (the program\n"
"                                      images), to compile instead of it\n"
"  --run                      compile an export and run it on the simulated\n"
"                             machine of the preset (every check on, memory\n"
"                             poisoned): print a checksum and the first\n"
"                             values of each output, then the counters\n"
"                             (cycles, MXU utilisation, HBM bytes)\n"
"  --interpret --run          run an export in interpret mode (the numerical\n"
"                             reference) and print the same\n"
"  --trace FILE               with --run: write the run's Chrome trace\n"
"  --entry NAME               the export to run (default: the only one),\n"
"                             the func --emit=hlo lowers, the export\n"
"                             --emit=tile, llo or asm prints, or the one\n"
"                             -fsyntax-only and --emit=sema compile\n"
"  --input=KIND               generated inputs: zeros, ones, iota or\n"
"                             random[:SEED] (default random:0); SMEM tables\n"
"                             are zeros unless given\n"
"  --input-file NAME=FILE     read input NAME from a .npy file\n"
"  --smem NAME=FILE           read SMEM table NAME from a .npy file\n"
"  --splash-mask=MASK         fill block_mask, data_next (or a dKV kernel's\n"
"                             block_mask_t, data_next_t) and mask_desc of a\n"
"                             Splash export\n"
"                             for MASK (full, causal[:OFF], local:L,R[,OFF],\n"
"                             chunked:C, segments:Q.npy,KV.npy,\n"
"                             dense:M.npy, heads(M;M;...), and(M;M),\n"
"                             or(M;M)), which must be the one it\n"
"                             applies; segments also fills a SEGMENTS\n"
"                             export's ids q_seg and kv_seg; a DENSE\n"
"                             export takes dense, heads, and, or masks,\n"
"                             their stored blocks in mask_next, partial\n"
"  --splash-causal            the same as --splash-mask=causal\n"
"  --shuffle[=SEED]           randomise the order along parallel grid axes\n"
"  --save-dir DIR             save each output as DIR/NAME.npy instead\n"
"  --elf-machine NAME         the object's machine: x86-64 or aarch64\n"
"                             (default: the host's)\n"
"  -fdiagnostics-color=WHEN   colour diagnostics: auto (default), always, never\n"
"  -fdiagnostics-format=FMT   text (default) or json\n"
"  -fno-cse, -fno-licm, -fno-modulo-sched, -fno-unroll-loops\n"
"                             leave out a backend pass (common\n"
"                             subexpressions, loop invariants, software\n"
"                             pipelining of counted loops, unrolling of\n"
"                             short ones), to measure it\n"
"  --dump-passes=DIR          with --emit=hlo-opt: write the module before\n"
"                             the passes and after each one that changes\n"
"                             it to DIR/MODULE.NN.after_PASS.hlo\n"
"  -fno-hlo-PASS              with --emit=hlo-opt: leave out an HLO pass\n"
"                             (the list ends this help)\n"
"  --check-passes             with --emit=hlo-opt: evaluate the module on\n"
"                             --input before the passes and after each\n"
"                             one that changes it, and stop at the first\n"
"                             whose results differ\n"
"  -fno-bounds-check          leave out the run-time checks of compiled\n"
"                             code (index maps that SMEM tables feed,\n"
"                             dynamic indices, integer divisors: an index\n"
"                             out of range or a division by zero is then\n"
"                             not reported), to measure their cost\n"
"  -Werror                    treat warnings as errors\n"
"  --help                     print this help and exit\n"
"  --version                  print the version and exit\n"
"\n"
"FILE may be '-' for standard input.  A FILE ending in .hlo is read as an\n"
"XLA HLO text module (with -fsyntax-only, --emit=hlo, or --interpret --run\n"
"to evaluate its entry computation).  A FILE ending in .s is assembled\n"
"(see pallas-asm) for -c, -o, -H, --emit=header and --emit=c: one image\n"
"for the program, one C entry point per .entry.  A FILE ending in .c is\n"
"scanned for PK_MODULE(name, ...) (doc/embedded.md): every level works\n"
"on its modules, and the object binds to the same macro at link time.\n"
"Exit status: 0 success, 1 errors in the input, 2 bad usage, 70 internal error.\n";

static int
usage_error(const char *fmt, const char *arg)
{
	fputs("pallasc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pallasc --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static int
set_emit(Options *o, const char *name)
{
	size_t i;

	for (i = 0; i < countof(emits); i++)
		if (strcmp(emits[i].name, name) == 0) {
			o->emit = emits[i].emit;
			o->emit_name = emits[i].name;
			return 0;
		}
	return usage_error("unknown --emit level '%s' (see --help)", name);
}

/* --preset NAME: one of the machine presets. */
static int
set_preset(Options *o, const char *name)
{
	char list[128] = "";
	const MachPreset *mp;
	int i;

	if (mach_preset(name)) {
		o->preset = name;
		return 0;
	}
	for (i = 0; (mp = mach_preset_at(i)); i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
		    i ? ", " : "", mp->name);
	fprintf(stderr, "pallasc: error: unknown preset '%s' (presets: %s)\n"
	    "Try 'pallasc --help' for more information.\n", name, list);
	return EXIT_USAGE;
}

/* The value of an option given as "-Xvalue" or "-X value". */
static const char *
optarg_of(int argc, char **argv, int *i, const char *flag)
{
	size_t n = strlen(flag);

	if (argv[*i][n])
		return argv[*i] + n;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* A long option "--name=value"; returns the value or NULL. */
static const char *
long_value(const char *arg, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	return NULL;
}

/* -fno-cse, -fno-licm, -fno-modulo-sched, -fno-unroll-loops: 0, or -1
   if arg is none. */
static int
pass_flag(VliwOpts *v, const char *arg)
{
	static const struct {
		const char *flag;
		unsigned bit;
	} pass[] = {
		{ "-fno-cse", VLIW_NO_CSE }, { "-fno-licm", VLIW_NO_LICM },
		{ "-fno-modulo-sched", VLIW_NO_MODULO },
		{ "-fno-unroll-loops", VLIW_NO_UNROLL | VLIW_NO_INTERLEAVE },
	};
	size_t k;

	for (k = 0; k < sizeof pass / sizeof pass[0]; k++)
		if (strcmp(arg, pass[k].flag) == 0) {
			v->off |= pass[k].bit;
			return 0;
		}
	return -1;
}

/* --dump-passes=DIR, -fno-hlo-NAME, --check-passes; -1 if none. */
static int
hlo_flag(Options *o, Arena *a, const char *arg)
{
	const char *v;
	Buf b = {0};

	if ((v = long_value(arg, "--dump-passes"))) {
		if (!*v)
			return usage_error("%s", "--dump-passes needs a directory");
		o->run.dump_dir = v;
		return 0;
	}
	if (strcmp(arg, "--check-passes") == 0) {
		o->run.check_passes = 1;
		return 0;
	}
	if (strncmp(arg, "-fno-hlo-", 9) != 0)
		return -1;
	if (hlo_pass_known(arg + 9)) {
		vec_push(a, &o->run.hlo_off, arg + 9);
		return 0;
	}
	hlo_pass_names(&b);
	fprintf(stderr, "pallasc: error: no HLO pass '%s' (passes: %s)\n"
	    "Try 'pallasc --help' for more information.\n", arg + 9, b.p);
	buf_free(&b);
	return EXIT_USAGE;
}

static int
parse_flag(Options *o, Arena *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;
	int rc;

	if (strcmp(arg, "-E") == 0)
		return set_emit(o, "pp");
	if (strcmp(arg, "-S") == 0)
		return set_emit(o, "asm");
	if (strcmp(arg, "-fsyntax-only") == 0) {
		o->emit = EMIT_SYNTAX;
		return 0;
	}
	if (strcmp(arg, "-Werror") == 0) {
		o->werror = 1;
		return 0;
	}
	if ((rc = pass_flag(&o->run.vliw, arg)) >= 0)
		return rc;
	if ((rc = hlo_flag(o, a, arg)) >= 0)
		return rc;
	if (strcmp(arg, "-fno-bounds-check") == 0) {
		o->run.mosaic.no_bounds_check = 1;
		return 0;
	}
	if ((v = long_value(arg, "--emit")))
		return set_emit(o, v);
	if ((v = long_value(arg, "--module")) || strcmp(arg, "--module") == 0) {
		if (!v && !(v = *i + 1 < argc ? argv[++*i] : NULL))
			return usage_error("missing argument to '%s'", arg);
		o->module = v;
		return 0;
	}
	if ((v = long_value(arg, "--preset")))
		return set_preset(o, v);
	if (strcmp(arg, "--preset") == 0 || strncmp(arg, "-m", 2) == 0) {
		if (!(v = arg[1] == 'm' ? optarg_of(argc, argv, i, "-m") :
		    *i + 1 < argc ? argv[++*i] : NULL))
			return usage_error("missing argument to '%s'", arg);
		return set_preset(o, v);
	}
	if ((v = long_value(arg, "-fdiagnostics-color"))) {
		o->color = diag_color_choice(v, stderr);
		return o->color < 0 ? usage_error(
		    "bad -fdiagnostics-color '%s': use auto, always or never", v) : 0;
	}
	if (strcmp(arg, "-fdiagnostics-color") == 0) {
		o->color = 1;
		return 0;
	}
	if ((v = long_value(arg, "-fdiagnostics-format"))) {
		if (strcmp(v, "text") == 0)
			o->format = DIAG_TEXT;
		else if (strcmp(v, "json") == 0)
			o->format = DIAG_JSON;
		else
			return usage_error(
			    "bad -fdiagnostics-format '%s': use text or json", v);
		return 0;
	}
	if (arg[1] == 'o' || arg[1] == 'I' || arg[1] == 'D' || arg[1] == 'U') {
		char flag[3] = { '-', arg[1], 0 };
		if (!(v = optarg_of(argc, argv, i, flag)))
			return usage_error("missing argument to '%s'", flag);
		if (arg[1] == 'o')
			o->output = v;
		else if (arg[1] == 'I')
			vec_push(a, &o->incdir, v);
		else
			vec_push(a, &o->macro, arena_printf(a, "%s%s", flag, v));
		return 0;
	}
	if ((rc = obj_flag(&o->obj, argc, argv, i)) >= 0)
		return rc;
	if ((rc = run_flag(&o->run, a, argc, argv, i)) >= 0)
		return rc;
	return usage_error("unknown option '%s'", arg);
}

/* Fills o from argv; returns 0, or an exit status to stop with. */
static int
parse_args(Options *o, Arena *a, int argc, char **argv, int *done)
{
	int i, rc;

	o->color = -1;
	o->emit_name = "obj";
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			Buf b = {0};
			hlo_pass_names(&b);
			fputs(usage_text, stdout);
			printf("HLO passes, in order: %s.\n", b.p);
			buf_free(&b);
			*done = 1;
			return 0;
		}
		if (strcmp(arg, "--version") == 0) {
			printf("pallasc (pallas-c) %s\n", PACKAGE_VERSION);
			*done = 1;
			return 0;
		}
		if (arg[0] == '-' && arg[1]) {
			if ((rc = parse_flag(o, a, argc, argv, &i)))
				return rc;
			continue;
		}
		if (o->input)
			return usage_error("more than one input file ('%s')", arg);
		o->input = arg;
	}
	if (!o->input)
		return usage_error("%s", "no input file");
	o->run.plan = o->emit == EMIT_PIPELINE;
	o->run.select = o->emit == EMIT_TILE || o->emit == EMIT_LLO ||
	    o->emit == EMIT_ASM || o->emit == EMIT_FUSIONS ||
	    o->emit == EMIT_TLP;
	o->run.lower = o->emit == EMIT_HLO || o->emit == EMIT_HLO_OPT ||
	    o->emit == EMIT_HLO_STATS;
	o->run.opt = o->emit == EMIT_HLO_OPT || o->emit == EMIT_HLO_STATS;
	o->run.stats = o->emit == EMIT_HLO_STATS;
	if ((o->run.dump_dir || o->run.check_passes || o->run.hlo_off.n) &&
	    !o->run.opt)
		return usage_error("%s", "--dump-passes, --check-passes and "
		    "-fno-hlo-NAME go with --emit=hlo-opt");
	o->run.check = o->emit == EMIT_SYNTAX || o->emit == EMIT_SEMA;
	return run_check_opts(&o->run);
}

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* --emit=pp: the tokens, a line break where the source had one. */
static void
print_tokens(PP *pp, Buf *out)
{
	Token t;
	int first = 1;

	while (pp_next(pp, &t) != TK_EOF) {
		if (!first)
			buf_putc(out, t.bol ? '\n' : ' ');
		buf_putn(out, t.text, (size_t)t.len);
		first = 0;
	}
	if (!first)
		buf_putc(out, '\n');
}

/*
 * The main output of the object levels: the object unless only -H was
 * asked for (-H FILE without -c or -o writes just the header) or
 * interpret mode runs.
 */
static ObjOut
obj_output(const Options *o)
{
	if (o->run.run)
		return OBJ_NONE;
	switch (o->emit) {
	case EMIT_OBJ:
		return o->obj.header && !o->obj.compile && !o->output ?
		    OBJ_NONE : OBJ_ELF;
	case EMIT_HEADER:
		return OBJ_HEADER;
	case EMIT_C:
		return OBJ_C;
	default:
		return OBJ_NONE;
	}
}

static int
write_output(const Options *o, const Buf *b)
{
	int out = o->output && strcmp(o->output, "-") != 0;	/* -o -: stdout */
	FILE *f = out ? fopen(o->output, "wb") : stdout;

	if (!f) {
		fprintf(stderr, "pallasc: error: cannot write '%s': %s\n",
		    o->output, strerror(errno));
		return EXIT_USER;
	}
	if (b->n)
		fwrite(b->p, 1, b->n, f);
	if ((f == stdout ? fflush(f) : fclose(f)) != 0) {
		fprintf(stderr, "pallasc: error: writing '%s' failed: %s\n",
		    out ? o->output : "standard output", strerror(errno));
		return EXIT_USER;
	}
	return EXIT_OK;
}

/* Command-line macros, -I paths and the main file. */
static int
setup_pp(PP *pp, const Options *o, Diag *d)
{
	int i, bad = 0;

	for (i = 0; i < o->incdir.n; i++)
		pp_add_include_dir(pp, o->incdir.v[i]);
	sema_predefine(pp, mach_preset(o->preset));
	for (i = 0; i < o->macro.n; i++) {
		const char *m = o->macro.v[i];
		if (m[1] == 'D')
			bad |= pp_define_cmdline(pp, m + 2) != 0;
		else
			bad |= pp_undef_cmdline(pp, m + 2) != 0;
	}
	if (bad)
		return -1;
	if (o->embed) {	/* a C input's module, at its C lines */
		int rc = pp_push_embedded(pp, o->input, o->embed->layout,
		    strlen(o->ctext));
		srcmgr_set_show(d->sm, d->sm->file.n - 1, o->ctext);
		return rc;
	}
	if (strcmp(o->input, "-") == 0) {
		Buf in = {0};
		int rc = read_file("-", &in);
		rc = rc ? -1 : pp_push_text(pp, "<stdin>", in.p, in.n);
		buf_free(&in);
		return rc;
	}
	return pp_push_file(pp, o->input);
}

/* The SrcMgr index of the file named on the command line. */
static int
main_file(const SrcMgr *sm, const char *input)
{
	int i;

	if (strcmp(input, "-") == 0)
		input = "<stdin>";
	for (i = 1; i < sm->file.n; i++)
		if (strcmp(sm->file.v[i].name, input) == 0)
			return i;
	return 0;
}

/* --emit=tile, llo and asm (-S) of tm, compiled for preset mp. */
static void
module_listing(const Options *o, const TModule *tm, const MachPreset *mp,
    Diag *d, Arena *a, Buf *out)
{
	if (o->emit == EMIT_TILE)
		tile_print_module(out, tm);
	else if (o->emit == EMIT_LLO)
		vliw_compile_llo(tm, mp, &o->run.vliw, d, a, out);
	else	/* with the budget */
		vliw_compile_asm(tm, mp, &o->run.vliw, d, a, out);
}

/*
 * The compiled-path check of -fsyntax-only and --emit=sema, after sema:
 * the kernel exports (the --entry one alone) through Mosaic and the VLIW
 * backend, the program dropped; then the func exports through the graph
 * path to their top-level programs the same way (their fusion kernels'
 * tables are not printed: --emit=tile shows those kernels).  What the
 * backend cannot do is reported here, at its source, so an export these
 * checks accept for a preset compiles for it.  table: --emit=sema's
 * memory tables (NULL: none).  --interpret: interpret mode's checks
 * alone (sema's).
 */
static int
check_compiled(const Options *o, const CheckedModule *cm, Diag *d,
    Arena *a, Strtab *strs, Buf *table)
{
	CheckedModule one, funcs;
	TModule *tm;
	int rc, i;

	if (o->run.interpret)
		return EXIT_OK;
	if ((rc = run_select(&o->run, cm, &one)) != EXIT_OK)
		return rc;
	mosaic_lower_opts(&one, one.preset, &o->run.mosaic, d, a, &tm);
	if (tm->func.n)	/* each export's errors are reported */
		vliw_check(tm, one.preset, &o->run.vliw, d, a, table);
	funcs = one;
	funcs.exp = arena_alloc(a, sizeof *funcs.exp *
	    ((size_t)one.nexport + 1));
	funcs.nexport = 0;
	for (i = 0; i < one.nexport; i++)
		if (one.exp[i].func)
			funcs.exp[funcs.nexport++] = one.exp[i];
	for (i = 0; i < funcs.nexport; i++) {	/* each func's errors */
		CheckedModule f = funcs;
		f.exp = &funcs.exp[i];
		f.nexport = 1;
		if (prog_module(&o->run, &f, d, a, strs, NULL, &tm) == 0)
			vliw_check(tm, one.preset, &o->run.vliw, d, a, NULL);
	}
	return EXIT_OK;		/* errors: the caller sees nerror */
}

/*
 * The same of func export e: the func lowered to HLO, through the pass
 * pipeline (with the driver's -fno-hlo-PASS), each fusion written as a
 * kernel (--emit=fusions prints those), then its program: the kernels
 * and the top-level program that runs them (--emit=tlp prints it, -S
 * its bundles after the kernels').
 */
static void
func_listing(const Options *o, const CheckedModule *cm, const CExport *e,
    Diag *d, Arena *a, Strtab *strs, Buf *out)
{
	CheckedModule one = *cm;
	HloModule *hm;
	TModule *tm;
	char err[640];

	if (o->emit == EMIT_FUSIONS) {
		if (!(hm = hlo_from_func(cm, e->func, d, a, strs)) ||
		    hlo_opt_module(&o->run, hm, cm->preset, e->cname, d) !=
		    EXIT_OK)
			return;
		buf_printf(out, "// func %s: its fusions for %s, as the fusion "
		    "emitter writes them\n", e->cname, cm->preset->name);
		if (hlo_fusions_pk(hm, (int64_t)cm->preset->vmem_bytes, out, err,
		    sizeof err) < 0)
			diag_error(d, e->loc, "func '%s': the fusion emitter "
			    "cannot write %s", e->cname, err);
		return;
	}
	one.exp = (CExport *)e;
	one.nexport = 1;
	if (prog_module(&o->run, &one, d, a, strs, o->emit == EMIT_TLP ? out :
	    NULL, &tm) == 0 && o->emit != EMIT_TLP)
		module_listing(o, tm, cm->preset, d, a, out);
}

/* The listings of the selected exports: kernels, then funcs' fusions. */
static int
listing(const Options *o, const CheckedModule *cm, Diag *d, Arena *a,
    Strtab *strs, Buf *out)
{
	CheckedModule one, kern;
	TModule *tm;
	int i, rc, nfunc = 0;

	if ((rc = run_select(&o->run, cm, &one)) != EXIT_OK)
		return rc;
	kern = one;
	kern.exp = arena_alloc(a, sizeof(CExport) * (size_t)(one.nexport + 1));
	kern.nexport = 0;
	for (i = 0; i < one.nexport; i++)
		if (one.exp[i].kernel)
			kern.exp[kern.nexport++] = one.exp[i];
		else
			nfunc++;
	if ((o->emit == EMIT_FUSIONS || o->emit == EMIT_TLP) && !nfunc) {
		fprintf(stderr, "pallasc: error: --emit=%s prints %s of funcs, "
		    "and %s exports none\n", o->emit_name,
		    o->emit == EMIT_TLP ? "the top-level programs" :
		    "the fusions", o->input);
		return EXIT_USER;
	}
	if (kern.nexport && o->emit != EMIT_FUSIONS && o->emit != EMIT_TLP &&
	    mosaic_lower_opts(&kern, kern.preset, &o->run.mosaic, d, a,
	    &tm) == 0)
		module_listing(o, tm, kern.preset, d, a, out);
	for (i = 0; i < one.nexport; i++)
		if (one.exp[i].func)
			func_listing(o, &one, &one.exp[i], d, a, strs, out);
	return EXIT_OK;
}

/*
 * -c / -o x.o / --emit=c: Mosaic, the VLIW backend, then the object (and
 * the -H header); the header of a module with funcs too, whose entries
 * exist only in the compiled program.
 */
static int
compile_object(const Options *o, const CheckedModule *cm, Diag *d, Arena *a,
    Strtab *strs, Buf *out)
{
	MachProgram *mp;
	TModule *tm;
	int rc;

	if (prog_module(&o->run, cm, d, a, strs, NULL, &tm) ||
	    vliw_compile_opts(tm, cm->preset, &o->run.vliw, d, a, &mp))
		return EXIT_USER;	/* reported through d */
	rc = obj_program(&o->obj, mp, o->input, obj_output(o), o->output, out);
	mach_program_free(mp);
	return rc;
}

/*
 * The pipeline, one stage after another; each --emit level returns after
 * the stage that produces it.  The caller reports errors and frees.
 */
static int
compile(const Options *o, Diag *d, Arena *a, Strtab *strs, Buf *out)
{
	PP *pp = pp_new(d, strs, a);
	CheckedModule *cm;
	Ast *ast;
	int rc = EXIT_OK;

	if (setup_pp(pp, o, d) != 0 || d->nerror)
		goto done;
	if (o->emit == EMIT_PP) {
		print_tokens(pp, out);
		goto done;
	}
	ast = parse_module(pp_source, pp, d, a);
	if (d->nerror)
		goto done;
	if (ast->u.list.n == 0) {
		Loc file = {0};	/* line 0: the message names the file */
		file.file = main_file(d->sm, o->input);
		diag_warning(d, file, "no kernel, func or export in this file");
	}
	if (o->emit == EMIT_AST) {
		ast_print(out, ast);
		goto done;
	}
	/* --entry: that export alone is compiled or run (run_check_opts) */
	cm = sema_check_entry(ast, mach_preset(o->preset), o->run.entry, d,
	    a);
	if (d->nerror)
		goto done;
	if (o->emit == EMIT_SEMA)
		sema_print(out, cm);
	if (o->emit == EMIT_SEMA || o->emit == EMIT_SYNTAX) {
		rc = check_compiled(o, cm, d, a, strs, o->emit == EMIT_SEMA ?
		    out : NULL);
		goto done;
	}
	if (o->run.lower) {
		rc = hlo_emit_module(&o->run, cm, d, a, strs, out);
		goto done;
	}
	if (o->run.run) {
		rc = run_module(&o->run, cm, d, out);
		goto done;
	}
	if (o->emit == EMIT_PIPELINE) {
		rc = plan_module(&o->run, cm, d, out);
		goto done;
	}
	if (o->run.select) {
		rc = listing(o, cm, d, a, strs, out);
		goto done;
	}
	if (obj_output(o) == OBJ_ELF || obj_output(o) == OBJ_C ||
	    prog_has_func(cm)) {
		rc = compile_object(o, cm, d, a, strs, out);
		goto done;
	}
	rc = obj_module(&o->obj, cm, o->input, obj_output(o), o->output, out);
done:
	pp_free(pp);
	return rc;
}

/* The flags a C input's modules were compiled with, as a program passes
 * them to pallas_module_open (jit_key sorts them into one order). */
static void
aot_flags(const Options *o, Arena *a, PallasModuleOptions *f)
{
	const char **v = arena_alloc(a, (size_t)(o->incdir.n + o->macro.n +
	    3) * sizeof *v);
	int i, n = 0;

	for (i = 0; i < o->incdir.n; i++)
		v[n++] = arena_printf(a, "-I%s", o->incdir.v[i]);
	for (i = 0; i < o->macro.n; i++)
		v[n++] = o->macro.v[i];
	if (o->run.mosaic.no_bounds_check)
		v[n++] = "-fno-bounds-check";
	if (o->run.vliw.off)	/* no JIT flag: never matched, so JIT'd */
		v[n++] = arena_printf(a, "-fvliw-off=%u", o->run.vliw.off);
	f->flag = v;
	f->nflag = n;
}

/* Module m of a C input through the pipeline into *om; 0, or -1 after
 * reporting through d. */
static int
aot_module(Options *o, const EmbedModule *m, Diag *d, Arena *a,
    Strtab *strs, ObjModule *om)
{
	PallasSource src = { m->name, m->text, o->input, m->at.line, NULL,
	    NULL, NULL, NULL };
	PallasModuleOptions f;
	char err[512];
	CheckedModule *cm;
	TModule *tm;
	Buf key = {0};
	void *img;
	PP *pp = pp_new(d, strs, a);
	int before = d->nerror;
	MachProgram *mp = NULL;
	Ast *ast;

	o->embed = m;
	if (setup_pp(pp, o, d) == 0 && d->nerror == before &&
	    (ast = parse_module(pp_source, pp, d, a)) && d->nerror == before &&
	    (cm = sema_check_entry(ast, mach_preset(o->preset), NULL, d, a)) &&
	    d->nerror == before &&
	    !mosaic_lower_opts(cm, cm->preset, &o->run.mosaic, d, a, &tm))
		vliw_compile_opts(tm, cm->preset, &o->run.vliw, d, a, &mp);
	pp_free(pp);
	if (!mp || d->nerror != before)
		return mach_program_free(mp), -1;
	if (mach_image_write(mp, &img, &om->len, err, sizeof err))
		bug("module %s: %s", m->name, err);
	aot_flags(o, a, &f);
	if (jit_key(&key, &src, mp->preset, &f, 0))
		die_oom();
	om->name = m->name;
	om->prog = mp;
	om->image = img;
	om->key = key.p;
	om->keylen = key.n;
	return 0;
}

/* The object levels of a C input: every module in one object. */
static int
aot_object(Options *o, const EmbedModule *mod, int n, Diag *d, Arena *a,
    Strtab *strs, Buf *out)
{
	ObjModule *om = arena_alloc(a, (size_t)(n + 1) * sizeof *om);
	int i, bad = 0, rc = EXIT_USER;

	for (i = 0; i < n; i++)
		bad |= aot_module(o, &mod[i], d, a, strs, &om[i]) != 0;
	if (!bad && n)
		rc = obj_embedded(&o->obj, om, n, o->input, obj_output(o),
		    o->output, out);
	else if (!bad) {
		fprintf(stderr, "pallasc: error: %s: no PK_MODULE to compile\n",
		    o->input);
	}
	for (i = 0; i < n; i++) {
		mach_program_free((MachProgram *)om[i].prog);
		free((void *)om[i].image);
		free((void *)om[i].key);
	}
	return rc;
}

/* --module NAME among a C input's modules: its index, or -1 after a
 * message listing them. */
static int
pick_module(const Options *o, const EmbedModule *mod, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(mod[i].name, o->module) == 0)
			return i;
	fprintf(stderr, "pallasc: error: %s has no module '%s'", o->input,
	    o->module);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : " (its modules: ",
		    mod[i].name);
	fputs(n ? ")\n" : "\n", stderr);
	return -1;
}

/*
 * A C input (doc/embedded.md): its PK_MODULEs, found by scanning the C
 * tokens rather than running cpp, which would take the kernel text's
 * lines and columns away and need the program's own flags.  The object
 * levels put every module in one object; the others run compile() on
 * each module in turn (--module NAME: on that one).
 */
static int
compile_c(Options *o, Diag *d, Arena *a, Strtab *strs, Buf *out)
{
	const char *name = strcmp(o->input, "-") ? o->input : "<stdin>";
	EmbedModule *mod;
	Buf text = {0};
	int file, n, i, rc;

	if ((rc = read_file(o->input, &text))) {
		fprintf(stderr, "pallasc: error: cannot read '%s': %s\n",
		    o->input, strerror(rc));
		return EXIT_USER;
	}
	file = srcmgr_add(d->sm, name, text.p ? text.p : "", text.n);
	buf_free(&text);
	o->ctext = srcmgr_file(d->sm, file)->text;
	n = embed_scan(d, file, a, &mod);
	if (d->nerror)
		return EXIT_USER;
	if (o->module) {
		if ((i = pick_module(o, mod, n)) < 0)
			return EXIT_USER;
		mod += i;
		n = 1;
	}
	if (obj_output(o) != OBJ_NONE || o->obj.header)
		return aot_object(o, mod, n, d, a, strs, out);
	if (n == 0) {
		Loc at = {0};
		at.file = file;
		diag_warning(d, at, "no PK_MODULE in this file");
	}
	for (i = 0, rc = EXIT_OK; i < n && rc == EXIT_OK && !d->nerror; i++) {
		o->embed = &mod[i];
		rc = compile(o, d, a, strs, out);
	}
	return rc;
}

/* An assembly input: -c/-o, -H, --emit=header, --emit=c, -fsyntax-only. */
static int
compile_asm(const Options *o, Buf *out)
{
	if (o->emit != EMIT_OBJ && o->emit != EMIT_HEADER &&
	    o->emit != EMIT_C && o->emit != EMIT_SYNTAX)
		return usage_error("an assembly input takes -c, -o, -H, "
		    "--emit=header, --emit=c or -fsyntax-only, not --emit=%s",
		    o->emit_name);
	if (o->run.run)
		return usage_error("%s", "an assembly input is run by "
		    "'pallas-asm run', not by pallasc");
	return obj_asm(&o->obj, o->input, o->preset, obj_output(o),
	    o->output, out);
}

/* FILE.c: kernels embedded in C (PK_MODULE). */
static int
is_c_input(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && strcmp(path + n - 2, ".c") == 0;
}

static int
is_hlo_input(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && strcmp(path + n - 4, ".hlo") == 0;
}

/* Is emit one an .hlo input compiles for (its top-level programs)? */
static int
hlo_compiles(Emit emit)
{
	return emit == EMIT_OBJ || emit == EMIT_HEADER || emit == EMIT_C ||
	    emit == EMIT_TLP || emit == EMIT_ASM;
}

/*
 * An .hlo input's modules compiled: each entry, optimised, one top-level
 * program of the machine program (named after its module), written as
 * an object, a header or C, or listed (--emit=tlp, -S).
 */
static int
hlo_object(const Options *o, HloModule *m, Diag *d, Arena *a, Strtab *strs,
    Buf *out)
{
	const MachPreset *mp = mach_preset(o->preset);
	TModule *tm = arena_alloc(a, sizeof *tm);
	MachProgram *p;
	HloModule *x;
	int rc;

	for (x = m; x; x = x->next)
		if (prog_hlo_module(&o->run, x, mp, d, a, strs,
		    o->emit == EMIT_TLP ? out : NULL, tm))
			return EXIT_USER;
	if (o->emit == EMIT_TLP)
		return EXIT_OK;
	if (o->emit == EMIT_ASM)
		return vliw_compile_asm(tm, mp, &o->run.vliw, d, a, out) ?
		    EXIT_USER : EXIT_OK;
	if (vliw_compile_opts(tm, mp, &o->run.vliw, d, a, &p))
		return EXIT_USER;
	rc = obj_program(&o->obj, p, o->input, obj_output(o), o->output, out);
	mach_program_free(p);
	return rc;
}

/* An .hlo input: read, verify, and for --emit=hlo print it back; run in
   interpret mode or compiled (hlo_sim_module), or compile it
   (hlo_object). */
static int
compile_hlo(const Options *o, Diag *d, Arena *a, Strtab *strs, Buf *out)
{
	Buf in = {0};
	HloModule *m, *x;
	int rc = read_file(o->input, &in), bad;

	if (o->emit != EMIT_HLO && !o->run.opt &&
	    o->emit != EMIT_SYNTAX && !o->run.run && !hlo_compiles(o->emit)) {
		buf_free(&in);
		return usage_error("an .hlo input takes -fsyntax-only, "
		    "--emit=hlo, --emit=hlo-opt, --emit=hlo-stats, "
		    "--emit=tlp, -S, -o, -H, --emit=c or --interpret --run, "
		    "not --emit=%s", o->emit_name);
	}
	if (rc != 0) {
		fprintf(stderr, "pallasc: error: cannot read '%s': %s\n",
		    o->input, strerror(rc));
		return EXIT_USER;
	}
	m = hlo_read(d, srcmgr_add(d->sm, o->input, in.p ? in.p : "", in.n),
	    a, strs);
	buf_free(&in);
	/* A file of several "// -----" separated modules (--emit=hlo's
	   output for several funcs): every one is checked and printed;
	   --run runs the first. */
	for (x = m, bad = !m; x; x = x->next)
		bad |= hlo_verify(x, d) != 0;
	if (bad)
		return EXIT_USER;
	if (!o->run.run && hlo_compiles(o->emit))
		return hlo_object(o, m, d, a, strs, out);
	if (o->run.run && !o->run.interpret)	/* the first module */
		return hlo_sim_module(&o->run, m, mach_preset(o->preset), d,
		    a, out);
	if (o->emit != EMIT_HLO && !o->run.opt)
		return o->run.run ? hlo_run_module(&o->run, m, o->input, a,
		    out) : d->nerror ? EXIT_USER : EXIT_OK;
	for (x = m; x; x = x->next) {
		if (x != m)
			buf_puts(out, "\n// -----\n\n");
		if (!o->run.opt)
			hlo_print(out, x);
		else if (hlo_opt_emit(&o->run, x, mach_preset(o->preset),
		    o->input, d, out) != EXIT_OK)
			return EXIT_USER;
	}
	return d->nerror ? EXIT_USER : EXIT_OK;
}

/*
 * The backend builds and frees a scratch arena per scheduling round; with
 * glibc's default trim threshold every free hands the pages back to the
 * kernel and the next round faults them in again, which more than doubled
 * compile time.  The driver is a short-lived process: keep the heap.
 */
static void
keep_heap(void)
{
#if defined HAVE_MALLOC_H && defined HAVE_MALLOPT && defined M_TRIM_THRESHOLD
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
#endif
}

int
main(int argc, char **argv)
{
	Options o = {0};
	Arena a = {0};
	SrcMgr sm;
	Strtab strs;
	Diag d;
	Buf out = {0};
	int done = 0, rc;

	keep_heap();
	if ((rc = parse_args(&o, &a, argc, argv, &done)) || done) {
		arena_free(&a);
		return rc;
	}
	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, stderr);
	d.format = o.format;
	d.werror = o.werror;
	d.color = o.color >= 0 ? o.color : diag_color_choice("auto", stderr);
	if (obj_output(&o) == OBJ_ELF && !o.output)
		o.output = obj_default_output(&a, o.input);
	rc = is_hlo_input(o.input) ? compile_hlo(&o, &d, &a, &strs, &out) :
	    obj_is_asm_input(o.input) ? compile_asm(&o, &out) :
	    is_c_input(o.input) ? compile_c(&o, &d, &a, &strs, &out) :
	    compile(&o, &d, &a, &strs, &out);
	diag_finish(&d);
	if (d.nerror)
		rc = EXIT_USER;
	else if (rc == EXIT_OK)
		rc = write_output(&o, &out);
	buf_free(&out);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
	return rc;
}
