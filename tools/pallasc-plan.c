/*
 * pallasc-plan.c - the driver's --emit=pipeline: for every exported
 * kernel (or the one --entry names), the pipeline plan and the memory
 * layout of backend/mosaic/, printed by plan_print.  SMEM tables given
 * by --smem NAME=FILE.npy or --splash-causal make the plan concrete;
 * without them the table-dependent copies are decided at run time.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/mosaic/plan.h"
#include "tools/pallasc.h"

/* The known tables as int32 arrays (C order), NULL entries otherwise. */
static int32_t **
int_tables(const CKernel *k, const InterpBuf *b, const int *known)
{
	int32_t **t = xcalloc((size_t)k->nop + 1, sizeof *t);
	int64_t j, n;
	int i;

	for (i = 0; i < k->nop; i++) {
		if (!known[i])
			continue;
		n = shape_numel(&b[i].shape);
		t[i] = xmalloc((size_t)(n ? n : 1) * sizeof(int32_t));
		for (j = 0; j < n; j++)
			t[i][j] = (int32_t)interp_buf_get(&b[i], j);
	}
	return t;
}

static int
plan_kernel(const RunOpts *r, const char *cname, const CKernel *k,
    Diag *d, Buf *out)
{
	InterpBuf *b = xcalloc((size_t)k->nop + 1, sizeof *b);
	int *known = xcalloc((size_t)k->nop + 1, sizeof *known);
	int32_t **t = NULL;
	Arena a = {0};
	MosaicPlan *p;
	MosaicAlloc *al;
	int i, rc = run_smem_tables(r, k, b, known);

	if (rc == 0) {
		t = int_tables(k, b, known);
		p = mosaic_plan(k, (const int32_t *const *)t, d, &a);
		al = p ? mosaic_alloc(k, p, NULL, 0, d, &a) : NULL;
		if (al)
			plan_print(out, cname, p, al);
		else
			rc = -1;
	}
	for (i = 0; i < k->nop; i++) {
		interp_buf_free(&b[i]);
		if (t)
			free(t[i]);
	}
	free(t);
	free(b);
	free(known);
	arena_free(&a);
	return rc;
}

int
plan_module(const RunOpts *r, const CheckedModule *m, Diag *d, Buf *out)
{
	int i, found = 0, rc = EXIT_OK;

	for (i = 0; i < m->nexport; i++) {
		const CExport *e = &m->exp[i];
		if (r->entry && strcmp(e->cname, r->entry) != 0)
			continue;
		found = 1;
		if (!e->kernel) {
			if (r->entry) {
				fprintf(stderr, "pallasc: error: '%s' is a "
				    "func: it has no grid pipeline\n",
				    e->cname);
				return EXIT_USER;
			}
			continue;
		}
		if (plan_kernel(r, e->cname, e->kernel, d, out))
			rc = EXIT_USER;
	}
	if (r->entry && !found) {
		fprintf(stderr, "pallasc: error: no export named '%s'\n",
		    r->entry);
		return EXIT_USER;
	}
	return rc;
}
