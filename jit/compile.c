/*
 * compile.c - one embedded module through the whole pipeline (the
 * preprocessor, parser, sema, Mosaic, the VLIW backend) to a program
 * image, inside a user's program: diagnostics are captured as text, and
 * a broken invariant or out of memory returns instead of exiting
 * (util_recover_set).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"
#include "dsl/embed/embed.h"
#include "dsl/sema/checked.h"
#include "backend/mosaic/mosaic.h"
#include "backend/vliw/vliw.h"
#include "jit/jit.h"

/* What one compile holds; in memory, so a longjmp back keeps it. */
typedef struct Job {
	const JitInput *in;
	const MachPreset *mp;
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	MosaicOpts mo;
	VliwOpts vo;
	MachProgram *prog;
	FILE *f;		/* the diagnostics, into a memory stream */
	char *diag;
	size_t ndiag;
	Buf ctext;		/* the C file: shown under diagnostics */
	int from_file;
} Job;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* The flags pallasc would take for these; 0, or -1 after a message. */
static int
apply_flags(Job *j)
{
	const JitInput *in = j->in;
	int i, bad = 0;

	for (i = 0; i < in->nflag; i++) {
		const char *f = in->flag[i];
		if (strncmp(f, "-I", 2) == 0 && f[2])
			pp_add_include_dir(j->pp, f + 2);
		else if ((strncmp(f, "-D", 2) == 0 || strncmp(f, "-U", 2) == 0)
		    && f[2])
			bad |= (f[1] == 'D' ? pp_define_cmdline(j->pp, f + 2) :
			    pp_undef_cmdline(j->pp, f + 2)) != 0;
		else if (strcmp(f, "-Werror") == 0)
			j->d.werror = 1;
		else if (strcmp(f, "-fno-bounds-check") == 0)
			j->mo.no_bounds_check = 1;
		else if (strcmp(f, "-fdiagnostics-format=json") == 0)
			j->d.format = DIAG_JSON;
		else if (strcmp(f, "-fdiagnostics-format=text") == 0)
			j->d.format = DIAG_TEXT;
		else {
			fprintf(j->f, "pallas: error: unknown module flag '%s' "
			    "(the JIT takes -DNAME[=VALUE], -UNAME, -IDIR, "
			    "-Werror, -fno-bounds-check, "
			    "-fdiagnostics-format=text|json)\n", f);
			return -2;
		}
	}
	return bad ? -1 : 0;
}

/*
 * The module's text at its place in the C file: through the C file
 * itself when it can be read and still holds this module's text (every
 * position exact, the C line shown under a diagnostic), else the text as
 * C spelt it, on the PK_MODULE's line (columns count in that text).
 */
static int
push_source(Job *j)
{
	const JitInput *in = j->in;
	EmbedModule *mod;
	Buf *c = &j->ctext, text = {0};
	int file, n, i, k, rc;

	if (read_file(in->file, c) == 0 && c->p) {
		Diag quiet;
		FILE *null = fopen("/dev/null", "w");
		file = srcmgr_add(&j->sm, in->file, c->p, c->n);
		diag_init(&quiet, &j->sm, null ? null : j->f);
		quiet.max_errors = 1;
		n = embed_scan(&quiet, file, &j->a, &mod);
		if (null)
			fclose(null);
		for (i = 0; i < n; i++)
			if (strcmp(mod[i].name, in->name) == 0 &&
			    strcmp(mod[i].text, in->text) == 0)
				break;
		if (i < n) {
			j->from_file = 1;
			rc = pp_push_embedded(j->pp, in->file, mod[i].layout,
			    c->n);
			srcmgr_set_show(&j->sm, j->sm.file.n - 1, c->p);
			return rc;
		}
	}
	for (k = 1; k < in->line; k++)
		buf_putc(&text, '\n');
	buf_puts(&text, in->text);
	rc = pp_push_embedded(j->pp, in->file, text.p, text.n);
	buf_free(&text);
	return rc;
}

/* The pipeline; 0, or -1 with the errors reported through j->d. */
static int
run(Job *j, JitOutput *out)
{
	char err[512];
	CheckedModule *cm;
	TModule *tm;
	Ast *ast;
	int rc;

	j->pp = pp_new(&j->d, &j->strs, &j->a);
	sema_predefine(j->pp, j->mp);
	if ((rc = apply_flags(j)) != 0)
		return rc;
	if (push_source(j) != 0 || j->d.nerror)
		return -1;
	ast = parse_module(pp_source, j->pp, &j->d, &j->a);
	if (j->d.nerror)
		return -1;
	cm = sema_check_entry(ast, j->mp, NULL, &j->d, &j->a);
	if (j->d.nerror || mosaic_lower_opts(cm, j->mp, &j->mo, &j->d, &j->a,
	    &tm) || vliw_compile_opts(tm, j->mp, &j->vo, &j->d, &j->a,
	    &j->prog) || j->d.nerror)
		return -1;
	if (j->prog->nentry == 0) {
		fprintf(j->f, "%s:%d: error: module '%s' exports no kernel\n",
		    j->in->file, j->in->line, j->in->name);
		return -1;
	}
	if (mach_image_write(j->prog, &out->image, &out->len, err,
	    sizeof err)) {
		fprintf(j->f, "%s:%d: error: module '%s': %s\n", j->in->file,
		    j->in->line, j->in->name, err);
		return -1;
	}
	return 0;
}

static void
finish(Job *j, JitOutput *out)
{
	diag_finish(&j->d);
	fclose(j->f);
	out->diag = j->diag ? j->diag : calloc(1, 1);
	out->from_file = j->from_file;
}

int
jit_compile(const JitInput *in, JitOutput *out)
{
	UtilRecover rec;
	Job *j;
	int rc;

	memset(out, 0, sizeof *out);
	if (!(j = calloc(1, sizeof *j)))
		return -1;
	j->in = in;
	if (!(j->f = open_memstream(&j->diag, &j->ndiag))) {
		free(j);
		return -1;
	}
	if (!(j->mp = mach_preset(in->preset))) {
		fprintf(j->f, "pallas: error: unknown preset '%s'\n",
		    in->preset);
		finish(j, out);
		free(j);
		return -2;
	}
	srcmgr_init(&j->sm);
	strtab_init(&j->strs, &j->a);
	diag_init(&j->d, &j->sm, j->f);
	j->d.color = 0;
	if (setjmp(rec.jb)) {
		/* the compile's memory may be mid-change: it is dropped */
		util_recover_set(NULL);
		fprintf(j->f, "%s:%d: error: module '%s': %s\n", in->file,
		    in->line, in->name, rec.msg);
		finish(j, out);
		free(out->image);
		out->image = NULL;
		free(j);
		return -1;
	}
	util_recover_set(&rec);
	rc = run(j, out);
	util_recover_set(NULL);
	if (rc == -1 && !j->from_file)
		fprintf(j->f, "%s:%d: note: %s could not be read at run time "
		    "(or no longer holds module '%s'), so columns count in "
		    "the module's text as C spelt it\n", in->file, in->line,
		    in->file, in->name);
	if (j->pp)
		pp_free(j->pp);
	mach_program_free(j->prog);
	strtab_free(&j->strs);
	srcmgr_free(&j->sm);
	arena_free(&j->a);
	buf_free(&j->ctext);
	finish(j, out);
	if (rc) {
		free(out->image);
		out->image = NULL;
		out->len = 0;
	}
	free(j);
	return rc;
}

void
jit_output_free(JitOutput *out)
{
	free(out->image);
	free(out->diag);
	memset(out, 0, sizeof *out);
}
