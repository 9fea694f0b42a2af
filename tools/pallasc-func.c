/*
 * pallasc-func.c - pallasc --run of a func export: the func compiled
 * into one program (pallasc-prog.c) whose entry is its top-level
 * program, which runs its kernels one after another over HBM buffers,
 * then run on the simulator like a kernel: one call, one set of
 * counters, one trace, a region per step.  The same for an .hlo input's
 * module (sim_hlo).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/pallasc.h"

static const MachEntry *
entry_of(const MachProgram *p, const char *name)
{
	uint32_t i;

	for (i = 0; i < p->nentry; i++)
		if (strcmp(mach_program_strat(p, p->entry[i].name), name) == 0)
			return &p->entry[i];
	return NULL;
}

/* Runs entry 'name' of p: its operands the parameters args[0 .. nargs),
   the results res[0 .. nres), then constants (the program holds their
   data: no host buffer). */
static int
run(const RunOpts *r, const MachProgram *p, const char *name, InterpBuf *args,
    int nargs, InterpBuf *res, int nres, Diag *d, Buf *stats)
{
	const MachEntry *en = entry_of(p, name);
	InterpBuf *b;
	uint32_t i;
	int rc, np = 0, nr = 0;

	if (!en)
		bug("'%s' has no entry in its program", name);
	b = xcalloc((size_t)en->nopnd + 1, sizeof *b);
	for (i = 0; i < en->nopnd; i++) {
		const MachOperand *o = &p->opnd[en->first_opnd + i];
		if (o->role == MACH_ROLE_IN && np < nargs)
			b[i] = args[np++];
		else if (o->role == MACH_ROLE_OUT && nr < nres)
			b[i] = res[nr++];
	}
	if (np != nargs || nr != nres)
		bug("'%s': %d parameters and %d results in its program, %d "
		    "and %d in its source", name, np, nr, nargs, nres);
	rc = sim_program(r, p, name, NULL, d, b, (int)en->nopnd, stats, NULL);
	free(b);
	return rc;
}

/* tm (its one top-level program a 'what': "func", "module") compiled
   for mp and run; its footprint line, then the counters, in stats. */
static int
compile_run(const RunOpts *r, const TModule *tm, const MachPreset *mp,
    const char *what, InterpBuf *args, int nargs, InterpBuf *res, int nres,
    Arena *a, Diag *d, Buf *stats)
{
	const TTlp *t = tm->tlp.v[0];
	MachProgram *p = NULL;
	int rc = -1;

	if (vliw_compile_opts(tm, mp, &r->vliw, d, a, &p) == 0) {
		buf_printf(stats, "%s %s: %d kernel%s in one top-level "
		    "program, HBM scratch %lld bytes\n", what, t->name,
		    t->nstep, t->nstep == 1 ? "" : "s", (long long)t->scratch);
		rc = run(r, p, t->name, args, nargs, res, nres, d, stats);
	}
	mach_program_free(p);
	return rc;
}

int
sim_func(const RunOpts *r, const CheckedModule *m, const CExport *e,
    InterpBuf *args, InterpBuf *res, Diag *d, Buf *stats)
{
	CheckedModule one = *m;
	Arena a = { 0 };
	Strtab strs;
	TModule *tm;
	int rc = -1;

	strtab_init(&strs, &a);
	one.exp = (CExport *)e;
	one.nexport = 1;
	if (prog_module(r, &one, d, &a, &strs, NULL, &tm) == 0)
		rc = compile_run(r, tm, m->preset, "func", args,
		    e->func->nparam, res, 1, &a, d, stats);
	strtab_free(&strs);
	arena_free(&a);
	return rc;
}

int
sim_hlo(const RunOpts *r, HloModule *m, const MachPreset *mp, InterpBuf *args,
    InterpBuf *res, int nres, Diag *d, Buf *stats)
{
	Arena a = { 0 };
	Strtab strs;
	TModule *tm;
	int rc = -1;

	strtab_init(&strs, &a);
	tm = arena_alloc(&a, sizeof *tm);
	if (prog_hlo_module(r, m, mp, d, &a, &strs, NULL, tm) == 0)
		rc = compile_run(r, tm, mp, "module", args,
		    hlo_entry(m)->nparam, res, nres, &a, d, stats);
	strtab_free(&strs);
	arena_free(&a);
	return rc;
}
