/*
 * pallasc-func.c - pallasc --run of a func export: the func compiled
 * into one program (pallasc-prog.c) whose entry is its top-level
 * program, which runs its kernels one after another over HBM buffers,
 * then run on the simulator like a kernel: one call, one set of
 * counters, one trace, a region per step.
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

/* The entry's operands: the parameters, the result, then constants
   (the program holds their data: no host buffer). */
static int
run(const RunOpts *r, const MachProgram *p, const CExport *e, InterpBuf *args,
    InterpBuf *res, Diag *d, Buf *stats)
{
	const MachEntry *en = entry_of(p, e->cname);
	InterpBuf *b;
	uint32_t i, np = 0;
	int rc;

	if (!en)
		bug("func '%s' has no entry in its program", e->cname);
	b = xcalloc((size_t)en->nopnd + 1, sizeof *b);
	for (i = 0; i < en->nopnd; i++) {
		const MachOperand *o = &p->opnd[en->first_opnd + i];
		if (o->role == MACH_ROLE_IN)
			b[i] = args[np++];
		else if (o->role == MACH_ROLE_OUT)
			b[i] = *res;
	}
	if ((int)np != e->func->nparam)
		bug("func '%s': %u parameters in its program", e->cname, np);
	rc = sim_program(r, p, e->cname, NULL, d, b, (int)en->nopnd, stats,
	    NULL);
	free(b);
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
	MachProgram *p = NULL;
	int rc = -1;

	strtab_init(&strs, &a);
	one.exp = (CExport *)e;
	one.nexport = 1;
	if (prog_module(r, &one, d, &a, &strs, NULL, &tm) == 0 &&
	    vliw_compile_opts(tm, m->preset, &r->vliw, d, &a, &p) == 0) {
		const TTlp *t = tm->tlp.v[0];
		buf_printf(stats, "func %s: %d kernel%s in one top-level "
		    "program, HBM scratch %lld bytes\n", e->cname, t->nstep,
		    t->nstep == 1 ? "" : "s", (long long)t->scratch);
		rc = run(r, p, e, args, res, d, stats);
	}
	mach_program_free(p);
	strtab_free(&strs);
	arena_free(&a);
	return rc;
}
