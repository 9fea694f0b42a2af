/*
 * vliw.c - the VLIW backend's pipeline, written out in one place.
 *
 * Gives:    vliw_compile, vliw_compile_llo (vliw.h).
 * Order:    per tile-IR function: vliw_isel -> vliw_sched ->
 *           vliw_regalloc; then vliw_emit over all of them.
 */
#include "backend/vliw/vliw.h"

int
vliw_compile(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    MachProgram **out)
{
	LFunc **lf = arena_alloc(a, sizeof *lf * (size_t)(m->func.n + 1));
	int i, rc = 0;

	*out = NULL;
	for (i = 0; i < m->func.n; i++) {
		if (!(lf[i] = vliw_isel(m->func.v[i], p, d, a))) {
			rc = -1;
			continue;
		}
		vliw_sched(lf[i]);
		if (vliw_regalloc(lf[i], d))
			rc = -1;
	}
	if (rc)
		return -1;
	return vliw_emit(lf, m->func.n, p, d->sm, d, out);
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
