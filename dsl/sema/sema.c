/*
 * sema.c - the entry point of semantic analysis.  For a parsed module:
 * declarations must have unique names; each export names a kernel or
 * func, gives all its parameters (constants, or dtype names for dtype
 * parameters) and gets a unique C name; each export is instantiated and
 * checked (kernel.c lists the checks of one kernel in order);
 * declarations without parameters are checked even when not exported.
 * An instance's HBM budget is checked once the rest of it is free of
 * errors; for a caller that compiles one export alone
 * (sema_check_entry) the budgets of the others are left out.
 *
 * Gives:    sema_check(), sema_check_entry() (checked.h), se_error(),
 *           se_warning() (sema.h).
 * Tests:    tests/diag/sema-*.pk, tests/golden/sema/, check_sema.c
 */
#include <stdio.h>
#include <string.h>

#include "dsl/sema/sema.h"

static void
inst_note(Sema *S)
{
	if (S->inst)
		diag_note(S->d, S->inst_loc, "in %s, exported as '%s'", S->inst,
		    S->inst_as);
}

void
se_error(Sema *S, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(S->d, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	inst_note(S);
}

void
se_warning(Sema *S, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(S->d, DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
	inst_note(S);
}

static void
unique_decls(Sema *S, const Ast *m)
{
	int i, j;

	for (i = 0; i < m->u.list.n; i++) {
		const Ast *x = m->u.list.v[i];
		if ((x->kind != AST_KERNEL && x->kind != AST_FUNC) ||
		    !x->u.def.name.s)
			continue;
		scope_reserved(S, x->u.def.name.s, x->u.def.name.loc);
		for (j = 0; j < i; j++) {
			const Ast *y = m->u.list.v[j];
			if ((y->kind == AST_KERNEL || y->kind == AST_FUNC) &&
			    y->u.def.name.s &&
			    strcmp(y->u.def.name.s, x->u.def.name.s) == 0) {
				se_error(S, x->u.def.name.loc, "redefinition of "
				    "'%s'", x->u.def.name.s);
				se_note(S, y->u.def.name.loc, "'%s' was first "
				    "defined here", x->u.def.name.s);
				break;
			}
		}
	}
}

/* The closest declaration name, for "did you mean". */
static void
unknown_decl(Sema *S, const Ast *ex)
{
	const Ast *m = S->module;
	Bind *save = S->scope;
	int i;

	scope_push(S);
	for (i = 0; i < m->u.list.n; i++) {
		const Ast *x = m->u.list.v[i];
		if ((x->kind == AST_KERNEL || x->kind == AST_FUNC) &&
		    x->u.def.name.s) {
			Bind *b = arena_alloc(S->a, sizeof *b);
			b->name = x->u.def.name.s;
			b->depth = S->depth;
			b->next = S->scope;
			S->scope = b;
		}
	}
	scope_undefined(S, "kernel or func", ex->u.export.name.s,
	    ex->u.export.name.loc);
	scope_pop(S);
	S->scope = save;
}

/*
 * An export argument that is a dtype name makes its parameter a dtype
 * parameter in this instance: 0 with *t, 1 if e is no dtype name, -1
 * after an error (a semaphore type).
 */
static int
export_dtype(Sema *S, const Ast *e, DType *t)
{
	if (e->kind != AST_IDENT || dtype_lookup(e->u.name, t))
		return 1;
	if (*t == DT_SEM || *t == DT_DMA_SEM) {
		se_error(S, e->loc, "'%s' cannot be a dtype argument",
		    e->u.name);
		se_note(S, e->loc, "dtype parameters stand for f32, bf16, "
		    "i32, i8 or bool");
		return -1;
	}
	return 0;
}

static int
export_args(Sema *S, const Ast *ex, const Ast *def, SemaArgs *args)
{
	int n = def->u.def.tparams.n, i, bad = 0, rc;
	DType t;

	if (ex->u.export.targs.n != n) {
		se_error(S, ex->loc, "'%s' has %d size parameter%s but the "
		    "export gives %d", def->u.def.name.s, n, n == 1 ? "" : "s",
		    ex->u.export.targs.n);
		se_note(S, def->u.def.name.loc, "'%s' is declared here",
		    def->u.def.name.s);
		return -1;
	}
	S->ctx = CTX_CONST;
	for (i = 0; i < n; i++) {
		const Ast *e = ex->u.export.targs.v[i];
		args->dtype[i] = (rc = export_dtype(S, e, &t)) == 0;
		if (rc == 0)
			args->val[i] = t;
		else if (rc < 0 || const_param(S, e, arena_printf(S->a,
		    "size parameter '%s'", def->u.def.tparams.v[i]->u.name),
		    &args->val[i]))
			bad = 1;
	}
	return bad ? -1 : 0;
}

/* "'scale<bf16, 64>'": an instance, as notes name it. */
static const char *
inst_name(Sema *S, const Ast *def, const SemaArgs *args)
{
	Buf b = {0};
	const char *s;
	int i;

	buf_printf(&b, "'%s<", def->u.def.name.s);
	for (i = 0; i < def->u.def.tparams.n; i++) {
		buf_puts(&b, i ? ", " : "");
		if (args->dtype[i])
			buf_puts(&b, dtype_name((DType)args->val[i]));
		else
			buf_printf(&b, "%lld", (long long)args->val[i]);
	}
	buf_puts(&b, ">'");
	s = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return s;
}

static void
instantiate(Sema *S, CheckedModule *cm, const Ast *ex, const Ast *def,
    const SemaArgs *args, const char *cname)
{
	CExport e = {0};
	int before = S->d->nerror;

	e.cname = cname;
	e.loc = ex ? ex->loc : def->loc;
	S->inst = NULL;
	if (def->u.def.tparams.n) {
		S->inst = inst_name(S, def, args);
		S->inst_loc = e.loc;
		S->inst_as = cname;
	}
	S->exp_as = ex ? cname : NULL;
	S->exp_decl = def->u.def.name.s;
	S->exp_loc = e.loc;
	/* Budgets depend on the preset; one too big must not stop another
	   export that the caller compiles alone. */
	S->quiet_budget = S->entry && (!ex || strcmp(cname, S->entry) != 0);
	S->scope = NULL;
	S->depth = 0;
	if (def->kind == AST_KERNEL)
		e.kernel = kernel_check(S, def, args);
	else
		e.func = func_check(S, def, args);
	if (S->d->nerror == before)
		budget_hbm(S, &e);
	S->inst = NULL;
	S->exp_as = NULL;
	S->quiet_budget = 0;
	if (ex)
		cm->exp[cm->nexport++] = e;
	else
		cm->local[cm->nlocal++] = e;
}

static int
failed_before(const Ast **bad, int nbad, const Ast *def)
{
	int i;

	for (i = 0; i < nbad; i++)
		if (bad[i] == def)
			return 1;
	return 0;
}

static void
exports(Sema *S, CheckedModule *cm)
{
	const Ast *m = S->module;
	const Ast **bad = arena_alloc(S->a, sizeof *bad * (size_t)(m->u.list.n + 1));
	const Ast **seen = arena_alloc(S->a, sizeof *seen * (size_t)(m->u.list.n + 1));
	int i, j, nbad = 0, nseen = 0;
	SemaArgs args;

	for (i = 0; i < m->u.list.n; i++) {
		const Ast *ex = m->u.list.v[i], *def;
		const char *cname;
		int before = S->d->nerror;
		if (ex->kind != AST_EXPORT || !ex->u.export.name.s)
			continue;
		cname = ex->u.export.as.s ? ex->u.export.as.s :
		    ex->u.export.name.s;
		for (j = 0; j < nseen; j++) {
			const Ast *o = seen[j];
			const char *on = o->u.export.as.s ? o->u.export.as.s :
			    o->u.export.name.s;
			if (strcmp(on, cname) == 0) {
				se_error(S, ex->loc, "a second export named '%s'",
				    cname);
				se_note(S, o->loc, "the first is here");
				break;
			}
		}
		seen[nseen++] = ex;
		if (!(def = module_find(m, ex->u.export.name.s))) {
			unknown_decl(S, ex);
			continue;
		}
		if (def->u.def.tparams.n > SEMA_MAXPARAM ||
		    export_args(S, ex, def, &args) ||
		    failed_before(bad, nbad, def))
			continue;
		instantiate(S, cm, ex, def, &args, cname);
		if (S->d->nerror != before)
			bad[nbad++] = def;
	}
}

/* Declarations without size parameters that no export names. */
static void
unexported(Sema *S, CheckedModule *cm)
{
	const Ast *m = S->module;
	int i, j, used;

	for (i = 0; i < m->u.list.n; i++) {
		const Ast *def = m->u.list.v[i];
		if ((def->kind != AST_KERNEL && def->kind != AST_FUNC) ||
		    def->u.def.tparams.n || !def->u.def.name.s)
			continue;
		for (used = 0, j = 0; j < m->u.list.n; j++) {
			const Ast *ex = m->u.list.v[j];
			used |= ex->kind == AST_EXPORT && ex->u.export.name.s &&
			    strcmp(ex->u.export.name.s, def->u.def.name.s) == 0;
		}
		if (!used)
			instantiate(S, cm, NULL, def, NULL, def->u.def.name.s);
	}
}

CheckedModule *
sema_check(const Ast *module, const MachPreset *preset, Diag *d, Arena *a)
{
	return sema_check_entry(module, preset, NULL, d, a);
}

CheckedModule *
sema_check_entry(const Ast *module, const MachPreset *preset,
    const char *entry, Diag *d, Arena *a)
{
	CheckedModule *cm = arena_alloc(a, sizeof *cm);
	Sema S = {0};

	S.d = d;
	S.a = a;
	S.mp = preset ? preset : mach_preset(NULL);
	S.module = module;
	S.entry = entry;
	cm->preset = S.mp;
	cm->exp = arena_alloc(a, sizeof *cm->exp *
	    (size_t)(module->u.list.n + 1));
	cm->local = arena_alloc(a, sizeof *cm->local *
	    (size_t)(module->u.list.n + 1));
	unique_decls(&S, module);
	exports(&S, cm);
	unexported(&S, cm);
	return cm;
}

/*
 * The macros a kernel may use to adapt to the preset (doc/language.md 2):
 * __PK_LANES__, __PK_SUBLANES__ and __PK_PRESET_<NAME>__.  The driver
 * defines them before the command line's -D and -U.
 */
void
sema_predefine(PP *pp, const MachPreset *mp)
{
	char m[64];
	size_t i, n;

	snprintf(m, sizeof m, "__PK_LANES__=%d", mp->lanes);
	pp_define_cmdline(pp, m);
	snprintf(m, sizeof m, "__PK_SUBLANES__=%d", mp->sublanes);
	pp_define_cmdline(pp, m);
	n = (size_t)snprintf(m, sizeof m, "__PK_PRESET_%s__", mp->name);
	for (i = 0; i < n && i < sizeof m; i++)
		if (m[i] >= 'a' && m[i] <= 'z')
			m[i] = (char)(m[i] - 'a' + 'A');
	pp_define_cmdline(pp, m);
}
