/*
 * mosaic.c - the driver's entry into the Mosaic layer: every exported
 * kernel instance planned, its grid pipeline and body emitted into the
 * tile IR, its memory allocated, and the result verified after each
 * transform (a verifier failure is a bug: an internal error naming the
 * pass).
 *
 * Gives:    mosaic_lower(), mosaic_lower_opts() (mosaic.h).
 * Order:    mosaic_plan (tables unknown: the code compares indices at
 *           run time) -> mosaic_emit_pipeline + mosaic_lower_body ->
 *           tile_verify -> mosaic_alloc (internal homes from the body's
 *           TB_INTERNAL buffers) -> offsets and flag ids -> tile_verify.
 * Tests:    tests/golden/tile/
 */
#include <string.h>

#include "backend/mosaic/mosaic.h"
#include "backend/mosaic/plan.h"

static int
body(TFunc *f, const CKernel *k, const MosaicRefs *refs, void *ctx,
    Diag *d)
{
	(void)ctx;
	return mosaic_lower_body(f, k, refs, d);
}

static void
verify(const TFunc *f, const char *pass)
{
	char err[256];

	if (tile_verify(f, err, sizeof err))
		bug("mosaic: %s: kernel '%s' fails verification: %s", pass,
		    f->name, err);
}

/* The machine flag of fl: by its operand or scratch name; -1 if none. */
static int
flag_id(const TFlag *fl, const CKernel *k, const MosaicAlloc *al)
{
	int i;

	if (strcmp(fl->name, "(tables)") == 0)
		return al->table_flag;
	for (i = 0; i < k->nop; i++)
		if (al->op_row[i] >= 0 && strcmp(k->op[i].name, fl->name) == 0
		    && al->row[al->op_row[i]].nflag == fl->count)
			return al->row[al->op_row[i]].flag;
	for (i = 0; i < k->nscratch; i++)
		if (strcmp(k->scratch[i].name, fl->name) == 0 &&
		    al->row[al->scr_row[i]].nflag == fl->count)
			return al->row[al->scr_row[i]].flag;
	return -1;	/* the body's own (dma_copy...): after the others */
}

/* After a memory overflow: the export, and its VMEM by kind of buffer. */
static void
over_note(const TFunc *f, const CKernel *k, Diag *d)
{
	int64_t sum[NTBUF] = {0};
	int i, nhome = 0;

	for (i = 0; i < f->buf.n; i++) {
		const TBuf *b = &f->buf.v[i];
		if (b->space != TS_VMEM)
			continue;
		sum[b->kind] += b->slot_bytes * b->nslot;
		nhome += b->kind == TB_INTERNAL;
	}
	diag_note(d, mosaic_file_loc(k->loc), "in export '%s': VMEM blocks "
	    "%lld bytes, scratch %lld, %d internal buffers (homes of the "
	    "body's block-sized values) %lld; smaller blocks shrink all three",
	    f->name, (long long)sum[TB_BLOCK], (long long)sum[TB_SCRATCH],
	    nhome, (long long)sum[TB_INTERNAL]);
}

/* Lays out f's buffers and flags; -1 after reporting. */
static int
allocate(TFunc *f, const CKernel *k, const MosaicPlan *p, Diag *d,
    Arena *a)
{
	AllocReq *req = arena_alloc(a, sizeof *req * (size_t)(f->buf.n + 1));
	MosaicAlloc *al;
	int i, n = 0, row;

	for (i = 0; i < f->buf.n; i++)
		if (f->buf.v[i].kind == TB_INTERNAL)
			req[n++] = (AllocReq){ f->buf.v[i].name,
			    f->buf.v[i].slot_bytes * f->buf.v[i].nslot,
			    f->buf.v[i].space == TS_SMEM };
	if (!(al = mosaic_alloc(k, p, req, n, d, a))) {
		over_note(f, k, d);
		return -1;
	}
	for (i = n = 0; i < f->buf.n; i++) {
		TBuf *b = &f->buf.v[i];
		switch (b->kind) {
		case TB_BLOCK: case TB_SMEM_TABLE: row = al->op_row[b->src];
			break;
		case TB_SCRATCH: row = al->scr_row[b->src]; break;
		case TB_INTERNAL: row = al->req_row[n++]; break;
		default: row = -1; break;	/* HBM: the argument table */
		}
		if (row >= 0)
			b->offset = al->row[row].offset;
	}
	for (i = 0; i < f->flag.n; i++) {
		TFlag *fl = &f->flag.v[i];
		if ((fl->id = flag_id(fl, k, al)) >= 0)
			continue;
		fl->id = al->nflag;
		al->nflag += fl->count;
		if (al->nflag > al->flag_limit) {
			diag_error(d, k->loc, "kernel '%s' needs %d sync flags "
			    "but preset '%s' has %d", k->name, al->nflag,
			    k->preset->name, al->flag_limit);
			return -1;
		}
	}
	f->vmem_bytes = al->vmem_used;
	f->vmem_limit = al->vmem_limit;
	f->smem_bytes = al->smem_used;
	return 0;
}

static TFunc *
lower_kernel(const CKernel *k, const char *name, const MachPreset *mp,
    const MosaicOpts *o, Diag *d, Arena *a)
{
	TFunc *f;
	MosaicPlan *p;

	f = tile_new_func(a, mp, name);
	p = mosaic_plan(k, NULL, d, a);

	if (!p || mosaic_emit_pipeline(f, k, p, !(o && o->no_bounds_check),
	    body, NULL, d))
		return NULL;
	verify(f, "pipeline");
	if (allocate(f, k, p, d, a))
		return NULL;
	verify(f, "alloc");
	return f;
}

int
mosaic_lower(const CheckedModule *m, const MachPreset *p, Diag *d, Arena *a,
    TModule **out)
{
	return mosaic_lower_opts(m, p, NULL, d, a, out);
}

int
mosaic_lower_opts(const CheckedModule *m, const MachPreset *p,
    const MosaicOpts *o, Diag *d, Arena *a, TModule **out)
{
	TModule *tm = arena_alloc(a, sizeof *tm);
	int i, rc = 0;

	*out = tm;
	for (i = 0; i < m->nexport; i++) {
		TFunc *f;
		if (!m->exp[i].kernel)
			continue;
		f = lower_kernel(m->exp[i].kernel, m->exp[i].cname, p, o, d,
		    a);
		if (!f) {
			rc = -1;
			continue;
		}
		vec_push(a, &tm->func, f);
	}
	return rc;
}
