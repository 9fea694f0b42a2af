/*
 * pallasc-prog.c - the program of a compilation: the kernel exports
 * lowered by Mosaic, then for each func export its kernels (each fusion
 * and each instruction left outside fusions, graph/fusion_kernels.c)
 * lowered the same way and its top-level program (graph/tlp.c) over
 * them and the kernels it calls, all in one TModule, so one VLIW compilation gives one program
 * whose entries are the kernel exports and the funcs.
 */
#include <string.h>

#include "backend/mosaic/mosaic.h"
#include "graph/lower.h"
#include "tools/pallasc.h"

/* The functions of module km lowered and appended to tm: the index of
   the first. */
static int
append(const RunOpts *r, const CheckedModule *km, Diag *d, Arena *a,
    TModule *tm)
{
	TModule *ktm;
	int i, func0 = tm->func.n;

	if (!km->nexport)
		return func0;
	if (mosaic_lower_opts(km, km->preset, &r->mosaic, d, a, &ktm))
		return -1;
	for (i = 0; i < ktm->func.n; i++)
		vec_push(a, &tm->func, ktm->func.v[i]);
	return func0;
}

/* Func export e's kernels (its fusions', and those it calls) appended
   to tm, and its top-level program. */
static int
add_func(const RunOpts *r, const CheckedModule *cm, const CExport *e,
    Diag *d, Arena *a, Strtab *strs, TModule *tm, Buf *tlp_text)
{
	const CFunc *f = e->func;
	const char **pname;
	HloTlpKernels k;
	HloModule *hm;
	TTlp *t;
	int i;

	memset(&k, 0, sizeof k);
	if (!(hm = hlo_from_func(cm, f, d, a, strs)) ||
	    hlo_opt_module(r, hm, cm->preset, e->cname, d) != EXIT_OK ||
	    !(k.fm = hlo_fusion_kernels(hm, cm->preset, e->cname, d, a, strs,
	    e->loc)) || (k.func0 = append(r, k.fm, d, a, tm)) < 0)
		return -1;
	if (!(k.km = hlo_func_callees(cm, f, e->cname, a)))
		bug("out of memory");
	if ((k.kfunc0 = append(r, k.km, d, a, tm)) < 0)
		return -1;
	pname = arena_alloc(a, sizeof *pname * ((size_t)f->nparam + 1));
	for (i = 0; i < f->nparam; i++)
		pname[i] = f->param[i].name;
	if (!(t = hlo_tlp_build(hm, &k, e->cname, pname, d, a, e->loc)))
		return -1;
	vec_push(a, &tm->tlp, t);
	if (tlp_text)
		hlo_tlp_print(tlp_text, t);
	return 0;
}

int
prog_module(const RunOpts *r, const CheckedModule *cm, Diag *d, Arena *a,
    Strtab *strs, Buf *tlp_text, TModule **out)
{
	TModule *tm;
	int i, rc;

	rc = mosaic_lower_opts(cm, cm->preset, &r->mosaic, d, a, &tm);
	*out = tm;
	for (i = 0; i < cm->nexport; i++)
		if (cm->exp[i].func && add_func(r, cm, &cm->exp[i], d, a, strs,
		    tm, tlp_text))
			rc = -1;
	return rc;
}

int
prog_has_func(const CheckedModule *cm)
{
	int i;

	for (i = 0; i < cm->nexport; i++)
		if (cm->exp[i].func)
			return 1;
	return 0;
}
