/*
 * vliw.c - the VLIW backend's pipeline, written out in one place.
 *
 * Gives:    vliw_compile, vliw_compile_asm, vliw_compile_llo (vliw.h).
 * Order:    per tile-IR function: vliw_isel -> vliw_sched ->
 *           vliw_regalloc (which spills and schedules again when the
 *           registers run out); then vliw_emit over all of them.
 */
#include <stdlib.h>

#include "backend/vliw/vliw.h"

/* The scheduled, allocated functions of m (lf[0 .. m->func.n)). */
static int
backend(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    LFunc ***out)
{
	LFunc **lf = arena_alloc(a, sizeof *lf * (size_t)(m->func.n + 1));
	int i, rc = 0;

	for (i = 0; i < m->func.n; i++) {
		if (!(lf[i] = vliw_isel(m->func.v[i], p, d, a))) {
			rc = -1;
			continue;
		}
		vliw_sched(lf[i]);
		if (vliw_regalloc(lf[i], d))
			rc = -1;
	}
	*out = lf;
	return rc;
}

int
vliw_compile(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    MachProgram **out)
{
	LFunc **lf;

	*out = NULL;
	if (backend(m, p, d, a, &lf))
		return -1;
	return vliw_emit(lf, m->func.n, p, d->sm, d, out);
}

int
vliw_compile_asm(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    Buf *text)
{
	MachProgram *prog;
	LFunc **lf;
	char *s;
	size_t len;
	int i;

	if (backend(m, p, d, a, &lf) ||
	    vliw_emit(lf, m->func.n, p, d->sm, d, &prog))
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
vliw_compile_llo(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    Buf *llo)
{
	int i, rc = 0;

	for (i = 0; i < m->func.n; i++) {
		LFunc *f = vliw_isel(m->func.v[i], p, d, a);
		if (!f) {
			rc = -1;
			continue;
		}
		llo_print(llo, f);
	}
	return rc;
}
