/*
 * vliw.c - the VLIW backend's pipeline, written out in one place.
 *
 * Gives:    vliw_compile, vliw_compile_opts, vliw_check,
 *           vliw_compile_asm, vliw_compile_llo (vliw.h).
 * Order:    per tile-IR function: vliw_isel -> vliw_unroll (short loops)
 *           -> vliw_cse -> vliw_licm -> vliw_modulo -> vliw_unroll (EUP and
 *           XLU loops) -> vliw_sched -> vliw_regalloc (which spills and
 *           schedules again when the registers run out); then vliw_emit
 *           over all of them.
 */
#include <stdlib.h>

#include "backend/vliw/vliw.h"

/* The passes over LLO before scheduling (VliwOpts.off leaves some out);
   returns the loops software-pipelined or interleaved (which cost
   registers). */
static int
passes(LFunc *f, unsigned off)
{
	int n;

	if (!(off & VLIW_NO_UNROLL))
		vliw_unroll(f, VLIW_UNROLL_SHORT);
	if (!(off & VLIW_NO_CSE))
		vliw_cse(f);
	if (!(off & VLIW_NO_LICM))
		vliw_licm(f);
	n = off & VLIW_NO_MODULO ? 0 : vliw_modulo(f);
	if (!(off & VLIW_NO_INTERLEAVE))
		n += vliw_unroll(f, VLIW_UNROLL_INTERLEAVE);
	return n;
}

static int
spilled(const LFunc *f)
{
	return f->nspill[LC_S] + f->nspill[LC_V] + f->nspill[LC_M] +
	    f->nspill[LC_P];
}

/* One function through isel, the passes, sched and regalloc; NULL after
   an error.  A software pipeline needs registers for the iterations it
   overlaps, and so do interleaved copies: when the function then spills,
   it is compiled again without them, and the one that spills less is
   kept. */
static LFunc *
compile_func(const TFunc *tf, const MachPreset *p, unsigned off, Diag *d,
    Arena *a)
{
	LFunc *f = vliw_isel(tf, p, d, a), *g;
	int piped;

	if (!f)
		return NULL;
	piped = passes(f, off);
	vliw_sched(f);
	if (vliw_regalloc(f, d))
		return NULL;
	if (!piped || !spilled(f))
		return f;
	g = compile_func(tf, p, off | VLIW_NO_MODULO | VLIW_NO_INTERLEAVE, d,
	    a);
	return g && spilled(g) < spilled(f) ? g : f;
}

/* The scheduled, allocated functions of m (lf[0 .. m->func.n)). */
static int
backend(const TModule *m, const MachPreset *p, const VliwOpts *o, Diag *d,
    Arena *a, LFunc ***out)
{
	unsigned off = o ? o->off : 0;
	LFunc **lf = arena_alloc(a, sizeof *lf * (size_t)(m->func.n + 1));
	int i, rc = 0;

	for (i = 0; i < m->func.n; i++)
		if (!(lf[i] = compile_func(m->func.v[i], p, off, d, a)))
			rc = -1;
	*out = lf;
	return rc;
}

int
vliw_compile_opts(const TModule *m, const MachPreset *p, const VliwOpts *o,
    Diag *d, Arena *a, MachProgram **out)
{
	LFunc **lf;

	*out = NULL;
	if (backend(m, p, o, d, a, &lf))
		return -1;
	return vliw_emit_module(lf, m, m->func.n, p, d->sm, d, out);
}

int
vliw_check(const TModule *m, const MachPreset *p, const VliwOpts *o,
    Diag *d, Arena *a, Buf *table)
{
	MachProgram *prog;
	LFunc **lf;
	int i;

	if (backend(m, p, o, d, a, &lf) ||
	    vliw_emit_module(lf, m, m->func.n, p, d->sm, d, &prog))
		return -1;
	mach_program_free(prog);
	for (i = 0; table && i < m->func.n; i++)
		vliw_mem_table(table, m->func.v[i], lf[i]);
	return 0;
}

int
vliw_compile(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    MachProgram **out)
{
	return vliw_compile_opts(m, p, NULL, d, a, out);
}

int
vliw_compile_asm(const TModule *m, const MachPreset *p, const VliwOpts *o,
    Diag *d, Arena *a, Buf *text)
{
	MachProgram *prog;
	LFunc **lf;
	char *s;
	size_t len;
	int i;

	if (backend(m, p, o, d, a, &lf) ||
	    vliw_emit_module(lf, m, m->func.n, p, d->sm, d, &prog))
		return -1;
	for (i = 0; i < m->func.n; i++)
		vliw_spill_note(text, lf[i]);
	if (mach_disasm(prog, &s, &len) != MACH_OK)
		bug("vliw: the compiled program does not disassemble");
	buf_putn(text, s, len);
	free(s);
	mach_program_free(prog);
	return 0;
}

int
vliw_compile_llo(const TModule *m, const MachPreset *p, const VliwOpts *o,
    Diag *d, Arena *a, Buf *llo)
{
	int i, rc = 0;

	for (i = 0; i < m->func.n; i++) {
		LFunc *f = vliw_isel(m->func.v[i], p, d, a);
		if (!f) {
			rc = -1;
			continue;
		}
		passes(f, o ? o->off : 0);
		llo_print(llo, f);
	}
	return rc;
}
