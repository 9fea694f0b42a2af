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

/* The optimised module hm as the top-level program 'name' over its
   fusion kernels and the kernels km its custom-calls call (NULL: none,
   an .hlo input's "module" rather than a "func" in messages), both
   appended to tm; its parameters named pname[i]. */
static int
add_program(const RunOpts *r, HloModule *hm, const MachPreset *mp,
    const CheckedModule *km, const char *name, const char *const *pname,
    Loc at, Diag *d, Arena *a, Strtab *strs, TModule *tm, Buf *tlp_text)
{
	HloTlpKernels k;
	TTlp *t;

	memset(&k, 0, sizeof k);
	k.what = km ? "func" : "module";
	if (hlo_opt_module(r, hm, mp, name, d) != EXIT_OK ||
	    !(k.fm = hlo_fusion_kernels(hm, mp, k.what, name, d, a, strs,
	    at)) ||
	    (k.func0 = append(r, k.fm, d, a, tm)) < 0)
		return -1;
	k.km = km;
	if (km && (k.kfunc0 = append(r, km, d, a, tm)) < 0)
		return -1;
	if (!(t = hlo_tlp_build(hm, &k, name, pname, d, a, at)))
		return -1;
	vec_push(a, &tm->tlp, t);
	if (tlp_text)
		hlo_tlp_print(tlp_text, t);
	return 0;
}

/* Func export e's kernels (its fusions', and those it calls) appended
   to tm, and its top-level program. */
static int
add_func(const RunOpts *r, const CheckedModule *cm, const CExport *e,
    Diag *d, Arena *a, Strtab *strs, TModule *tm, Buf *tlp_text)
{
	const CFunc *f = e->func;
	const CheckedModule *km;
	const char **pname;
	HloModule *hm;
	int i;

	if (!(hm = hlo_from_func(cm, f, d, a, strs)))
		return -1;
	if (!(km = hlo_func_callees(cm, f, e->cname, a)))
		bug("out of memory");
	pname = arena_alloc(a, sizeof *pname * ((size_t)f->nparam + 1));
	for (i = 0; i < f->nparam; i++)
		pname[i] = f->param[i].name;
	return add_program(r, hm, cm->preset, km, e->cname, pname, e->loc, d,
	    a, strs, tm, tlp_text);
}

/* s as a C identifier: other characters as '_', a leading digit
   after one. */
static const char *
c_ident(Arena *a, const char *s)
{
	size_t n = strlen(s), i;
	char *p = arena_alloc(a, n + 2), *q = p;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		*q++ = '_';
	for (i = 0; i < n; i++)
		*q++ = (char)((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') ? s[i] : '_');
	*q = 0;
	return p;
}

int
prog_hlo_module(const RunOpts *r, HloModule *hm, const MachPreset *mp,
    Diag *d, Arena *a, Strtab *strs, Buf *tlp_text, TModule *tm)
{
	const HloComp *c = hlo_entry(hm);
	const char **pname;
	const char *name;
	int i, j;

	if (!c)
		return -1;
	name = c_ident(a, hm->name ? hm->name : c->name);
	pname = arena_alloc(a, sizeof *pname * ((size_t)c->nparam + 1));
	for (i = 0; i < c->nparam; i++) {
		const HloInstr *p = hlo_param(c, i);
		pname[i] = c_ident(a, p ? p->name : "arg");
		for (j = 0; j < i; j++)	/* two names the same once mapped */
			if (!strcmp(pname[j], pname[i]))
				pname[i] = arena_printf(a, "%s_%d", pname[i],
				    i);
	}
	return add_program(r, hm, mp, NULL, name, pname, c->loc, d, a, strs,
	    tm, tlp_text);
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
