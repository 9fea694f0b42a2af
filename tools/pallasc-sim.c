/*
 * pallasc-sim.c - the driver's compiled runs: pallasc --run without
 * --interpret.  The chosen kernel export goes through the whole backend
 * (Mosaic, VLIW) to a program image, which runs on the simulated machine
 * of the preset, every check on and memory poisoned, with the inputs
 * interpret mode would make; its outputs come back in the host buffers
 * and the run's counters (cycles, MXU utilisation, HBM bytes) follow.
 * A failed run-time check of an index map is reported at the map.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/mosaic/mosaic.h"
#include "backend/vliw/vliw.h"
#include "pallas/runtime.h"
#include "tools/pallasc.h"

/* The program of export 'name' alone (the others are not compiled). */
static MachProgram *
compile_one(const CheckedModule *m, const char *name, const RunOpts *r,
    Diag *d, Arena *a)
{
	TModule *tm, one = { 0 };
	MachProgram *p = NULL;
	CheckedModule sub = *m;
	int i;

	for (i = 0; i < m->nexport; i++)
		if (strcmp(m->exp[i].cname, name) == 0)
			break;
	sub.exp = m->exp + i;
	sub.nexport = 1;
	if (mosaic_lower_opts(&sub, m->preset, &r->mosaic, d, a, &tm))
		return NULL;
	one = *tm;
	if (vliw_compile_opts(&one, m->preset, &r->vliw, d, a, &p))
		return NULL;
	return p;
}

/* One line of headline figures, then the runtime's summary. */
static void
print_stats(Buf *out, const MachProgram *p, const PallasStats *st)
{
	const MachPreset *mp = p->mp;
	char text[4096];
	const PallasCounters *c = &st->c;
	double util = c->cycles && mp->nmxu ? 100.0 *
	    (double)c->mxu_busy_cycles / ((double)c->cycles * mp->nmxu) : 0;

	buf_printf(out, "simulated %s: %llu cycles (%llu stalled in waits), "
	    "%llu bundles issued of %u in the program; MXU utilisation "
	    "%.1f%%; HBM %llu bytes read, %llu written\n", mp->name,
	    (unsigned long long)c->cycles,
	    (unsigned long long)c->stall_cycles,
	    (unsigned long long)c->bundles, p->nbundle, util,
	    (unsigned long long)c->hbm_read_bytes,
	    (unsigned long long)c->hbm_write_bytes);
	if (c->mxu_flops) {
		double peak = (double)mp->nmxu * (double)mp->mxu_dim *
		    (double)mp->mxu_dim * (mp->mxu_rows_per_cycle > 0 ?
		    mp->mxu_rows_per_cycle : 1) * 2.0;
		buf_printf(out, "MXU: %llu flops, %.1f%% of the preset's peak "
		    "(%.0f flops a cycle)\n", (unsigned long long)c->mxu_flops,
		    100.0 * (double)c->mxu_flops / (peak * (double)c->cycles),
		    peak);
	}
	pallas_stats_format(st, text, sizeof text);
	buf_puts(out, text);
}

/* Is l where trap t points (file, line and first column)? */
static int
at_trap(const SrcMgr *sm, Loc l, const PallasTrap *t)
{
	const SrcFile *f;

	return l.line == (int)t->line && l.col == (int)t->col &&
	    (f = srcmgr_file(sm, l.file)) && strcmp(f->name, t->file) == 0;
}

/* The expression of e (or below it) at file:line:col, else NULL. */
static const CExpr *
expr_at(const SrcMgr *sm, const CExpr *e, const PallasTrap *t)
{
	const CExpr *x;
	int i;

	if (!e)
		return NULL;
	if (at_trap(sm, e->loc, t))
		return e;
	for (i = 0; i < e->n; i++)
		if ((x = expr_at(sm, e->arg[i], t)))
			return x;
	if (e->op == CX_LOAD)
		for (i = 0; i < e->u.load.sl.n; i++)
			if ((x = expr_at(sm, e->u.load.sl.dim[i].dyn, t)))
				return x;
	return NULL;
}

/* The source location of trap t (its column alone), file 0 if none. */
static Loc
trap_loc(const SrcMgr *sm, const PallasTrap *t)
{
	Loc l = {0};
	int i;

	for (i = 1; i < sm->file.n; i++)
		if (strcmp(sm->file.v[i].name, t->file) == 0) {
			l.file = i;
			l.line = l.eline = (int)t->line;
			l.col = l.ecol = (int)t->col;
			break;
		}
	return l;
}

/* The check statement of b (or nested in it) at trap t, else NULL. */
static const CStmt *
check_at(const SrcMgr *sm, const CBlock *b, const PallasTrap *t)
{
	const CStmt *s, *x;
	int i;

	for (i = 0; i < b->n; i++) {
		s = b->v[i];
		if (s->kind == CS_CHECK && at_trap(sm, s->loc, t))
			return s;
		x = s->kind == CS_WHEN ? check_at(sm, &s->u.when.then, t) :
		    s->kind == CS_FOR ? check_at(sm, &s->u.loop.body, t) : NULL;
		if (!x && s->kind == CS_WHEN)
			x = check_at(sm, &s->u.when.els, t);
		if (x)
			return x;
	}
	return NULL;
}

/*
 * A failed run-time check (an index map or a dynamic index of the body
 * out of range, a broken multiple_of promise, a false check statement)
 * is an error in the input, reported at the map, index or check as
 * interpret mode would; 0 if t is another trap, or has no location in
 * the sources.
 */
static int
report_check(const CKernel *k, const PallasTrap *t, Diag *d)
{
	const CExpr *e = NULL;
	const CStmt *s;
	int i, j;

	if (t->kind != PALLAS_TRAP_CHECK || !k)
		return 0;
	if ((s = check_at(d->sm, &k->body, t))) {	/* the user's check */
		diag_error(d, s->loc, "%s", t->reason);
		return 1;
	}
	for (i = 0; i < k->nop && !e; i++)
		for (j = 0; k->op[i].map && j < k->op[i].shape.rank && !e; j++)
			e = expr_at(d->sm, k->op[i].map[j], t);
	if (e)
		diag_error(d, e->loc, "%s", t->reason);
	else if (t->line && trap_loc(d->sm, t).file)
		diag_error(d, trap_loc(d->sm, t), "%s", t->reason);
	else
		return 0;
	diag_note(d, (Loc){ 0 }, "a run-time check of the compiled kernel "
	    "'%s' failed (-fno-bounds-check leaves such checks out)",
	    k->name);
	return 1;
}

int
sim_program(const RunOpts *r, const MachProgram *prog, const char *entry,
    const CKernel *k, Diag *d, InterpBuf *b, int n, Buf *stats,
    PallasStats *out_st)
{
	PallasDevice *dev = NULL;
	PallasProgram *pg = NULL;
	PallasStats st;
	PallasTrap tr;
	void *img = NULL, **bufs = xcalloc((size_t)n + 1, sizeof *bufs);
	size_t len;
	char err[512];
	int i, rc = -1;

	for (i = 0; i < n; i++)
		bufs[i] = b[i].data;
	if (mach_image_write(prog, &img, &len, err, sizeof err) != MACH_OK) {
		fprintf(stderr, "pallasc: error: %s\n", err);
		goto out;
	}
	if (pallas_device_open(prog->preset, &dev) != PALLAS_OK) {
		fprintf(stderr, "pallasc: error: cannot open a '%s' device\n",
		    prog->preset);
		goto out;
	}
	pallas_device_set_poison(dev, PALLAS_POISON_NAN);
	if (r->trace)
		pallas_device_set_trace(dev, r->trace);
	if (pallas_program_load(dev, img, len, &pg) != PALLAS_OK) {
		fprintf(stderr, "pallasc: error: %s\n", pallas_last_error(dev));
		goto out;
	}
	if (pallas_call(dev, pg, entry, bufs, (size_t)n) != PALLAS_OK) {
		pallas_last_trap(dev, &tr);
		if (report_check(k, &tr, d))
			goto out;
		fprintf(stderr, "pallasc: error: %s: %s\n", entry,
		    tr.kind != PALLAS_TRAP_NONE ? tr.message :
		    pallas_last_error(dev));
		goto out;
	}
	pallas_last_stats(dev, &st);
	print_stats(stats, prog, &st);
	if (out_st)
		*out_st = st;
	rc = 0;
out:
	pallas_program_free(pg);
	pallas_device_close(dev);
	free(img);
	free(bufs);
	return rc;
}

int
sim_kernel(const RunOpts *r, const CheckedModule *m, const char *name,
    InterpBuf *b, int n, Diag *d, Buf *stats, PallasStats *st)
{
	Arena a = { 0 };
	MachProgram *p;
	int rc = -1, i;

	for (i = 0; i < m->nexport; i++)
		if (strcmp(m->exp[i].cname, name) == 0)
			break;
	if ((p = compile_one(m, name, r, d, &a)) != NULL)
		rc = sim_program(r, p, name, i < m->nexport ? m->exp[i].kernel :
		    NULL, d, b, n, stats, st);
	mach_program_free(p);
	arena_free(&a);
	return rc;
}
