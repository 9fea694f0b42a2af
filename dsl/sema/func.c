/*
 * func.c - funcs: tensor programs over whole arrays (doc/language.md 9).
 * Parameters and result are typed; the body is lets and a return, and
 * its expressions form a DAG (a let is the node it names).  A call of a
 * kernel with one output infers the kernel's size parameters from the
 * argument shapes, and its dtype parameters from the argument dtypes,
 * and instantiates it.
 *
 * Gives:    func_check(), func_call_kernel() (sema.h).
 * Tests:    tests/diag/sema-func-*.pk
 */
#include <string.h>

#include "dsl/sema/sema.h"

static int
param_type(Sema *S, const Ast *t, const char *what, DType *dt, Shape *sh)
{
	int i, bad = 0, rc;

	memset(sh, 0, sizeof *sh);
	if ((rc = scope_dtype(S, t->u.type.dtype.s, t->u.type.dtype.loc,
	    dt)) < 0)
		return -1;
	if (rc || *dt == DT_SEM || *dt == DT_DMA_SEM) {
		se_error(S, t->u.type.dtype.loc, "'%s' is not a dtype of values",
		    t->u.type.dtype.s);
		return -1;
	}
	if (t->u.type.dims.n > SEMA_MAXRANK) {
		se_error(S, t->loc, "%s has more than %d dimensions", what,
		    SEMA_MAXRANK);
		return -1;
	}
	sh->rank = t->u.type.dims.n;
	for (i = 0; i < sh->rank; i++)
		bad |= const_size(S, t->u.type.dims.v[i], arena_printf(S->a,
		    "dimension %d of %s", i, what), &sh->d[i]) != 0;
	return bad ? -1 : 0;
}

CFunc *
func_check(Sema *S, const Ast *def, const SemaArgs *args)
{
	CFunc *f = arena_alloc(S->a, sizeof *f);
	int i;

	f->name = def->u.def.name.s;
	f->loc = def->loc;
	S->f = f;
	S->k = NULL;
	S->ctx = CTX_CONST;
	S->slots.n = 0;
	scope_push(S);
	if (def->u.def.tparams.n)
		scope_bind_params(S, &def->u.def.tparams, args);
	f->nparam = def->u.def.params.n;
	f->param = arena_alloc(S->a, sizeof *f->param * (size_t)(f->nparam + 1));
	for (i = 0; i < f->nparam; i++) {
		const Ast *p = def->u.def.params.v[i];
		CFuncParam *q = &f->param[i];
		q->name = p->u.var.name.s;
		q->loc = p->loc;
		if (p->u.var.out || p->u.var.mem != MEM_DEFAULT)
			se_error(S, p->loc, "a func parameter is an input value: "
			    "no 'out' and no memory space");
		if (p->u.var.when)
			se_error(S, p->u.var.when->loc, "a func parameter "
			    "cannot be optional; only kernel operands have "
			    "'when'");
		param_type(S, p->u.var.type, arena_printf(S->a, "parameter "
		    "'%s'", q->name), &q->dtype, &q->shape);
		scope_bind(S, q->name, B_FPARAM, p->u.var.name.loc)->index = i;
	}
	if (def->u.def.ret)
		param_type(S, def->u.def.ret, "the result", &f->rdtype,
		    &f->rshape);
	S->ctx = CTX_FUNC;
	S->returned = 0;
	scope_push(S);
	body_check(S, def->u.def.body, &f->body);
	scope_pop(S);
	scope_pop(S);
	if (!S->returned && def->u.def.body)
		se_error(S, def->u.def.body->loc, "func '%s' does not return a "
		    "value", f->name);
	f->nslot = S->slots.n;
	f->slot = arena_alloc(S->a, sizeof *f->slot * (size_t)(f->nslot + 1));
	if (f->nslot)
		memcpy(f->slot, S->slots.v, sizeof *f->slot * (size_t)f->nslot);
	S->f = NULL;
	return f;
}

static int
tparam_index(const Ast *def, const char *name)
{
	int j;

	for (j = 0; j < def->u.def.tparams.n; j++)
		if (strcmp(def->u.def.tparams.v[j]->u.name, name) == 0)
			return j;
	return -1;
}

/* Gives parameter j the value v (a DType if is_dtype) that an argument
   implies, unless another argument implied another. */
static int
infer_one(Sema *S, const Ast *def, int j, int64_t v, int is_dtype,
    SemaArgs *args, uint8_t *known, Loc at)
{
	const char *p = def->u.def.tparams.v[j]->u.name;
	const char *k = def->u.def.name.s;

	if (known[j] && args->dtype[j] != is_dtype) {
		se_error(S, at, "parameter '%s' of '%s' would be both a size "
		    "and a dtype", p, k);
		return -1;
	}
	if (known[j] && args->val[j] != v) {
		if (is_dtype)
			se_error(S, at, "dtype parameter '%s' of '%s' would "
			    "be both %s and %s", p, k,
			    dtype_name((DType)args->val[j]),
			    dtype_name((DType)v));
		else
			se_error(S, at, "size parameter '%s' of '%s' would be "
			    "both %lld and %lld", p, k,
			    (long long)args->val[j], (long long)v);
		return -1;
	}
	args->val[j] = v;
	args->dtype[j] = (uint8_t)is_dtype;
	known[j] = 1;
	return 0;
}

/* Binds the parameters an operand's type names alone: as its dtype (a
   dtype parameter) or as a dimension (a size parameter). */
static int
infer(Sema *S, const Ast *def, const Ast *type, const CExpr *x,
    SemaArgs *args, uint8_t *known, Loc at)
{
	int i, j;

	if (type->u.type.dims.n != x->shape.rank) {
		se_error(S, at, "kernel '%s' expects rank %d here, the argument "
		    "has rank %d", def->u.def.name.s, type->u.type.dims.n,
		    x->shape.rank);
		return -1;
	}
	if ((j = tparam_index(def, type->u.type.dtype.s)) >= 0 &&
	    infer_one(S, def, j, x->dtype, 1, args, known, at))
		return -1;
	for (i = 0; i < x->shape.rank; i++) {
		const Ast *d = type->u.type.dims.v[i];
		if (d->kind == AST_IDENT &&
		    (j = tparam_index(def, d->u.name)) >= 0 &&
		    infer_one(S, def, j, x->shape.d[i], 0, args, known, at))
			return -1;
	}
	return 0;
}

static CKernel *
instantiate(Sema *S, const Ast *def, const SemaArgs *args)
{
	Sema save = *S;
	CKernel *k;

	S->scope = NULL;
	S->depth = 0;
	S->slots.v = NULL;
	S->slots.n = S->slots.cap = 0;
	k = kernel_check(S, def, args);
	save.mult = S->mult;
	*S = save;
	return k;
}

CExpr *
func_call_kernel(Sema *S, const Ast *e)
{
	const Ast *def = module_find(S->module, e->u.call.name.s);
	const AstList *ps;
	SemaArgs args;
	uint8_t known[SEMA_MAXPARAM] = {0};
	CExpr *x, *in[64];
	CKernel *k;
	int i, nin = 0, out = -1;

	if (!def || def->kind != AST_KERNEL) {
		scope_undefined(S, "function", e->u.call.name.s, e->loc);
		return NULL;
	}
	if (S->ctx != CTX_FUNC) {
		se_error(S, e->loc, "kernel '%s' can only be called from a func",
		    e->u.call.name.s);
		return NULL;
	}
	memset(&args, 0, sizeof args);
	ps = &def->u.def.params;
	for (i = 0; i < ps->n; i++) {
		if (ps->v[i]->u.var.out)
			out = out < 0 ? i : -2;
		if (ps->v[i]->u.var.when) {
			se_error(S, e->loc, "a func cannot call kernel '%s': "
			    "its operand '%s' is optional", e->u.call.name.s,
			    ps->v[i]->u.var.name.s);
			se_note(S, ps->v[i]->u.var.when->loc, "calls of "
			    "kernels with 'when' operands are not supported "
			    "yet; export the kernel and call it from C");
			return NULL;
		}
	}
	if (out < 0 || ps->n > 64 || def->u.def.tparams.n > SEMA_MAXPARAM) {
		se_error(S, e->loc, "a func can call only a kernel with exactly "
		    "one output");
		return NULL;
	}
	if (e->u.call.args.n != ps->n - 1) {
		se_error(S, e->loc, "kernel '%s' takes %d inputs, not %d",
		    e->u.call.name.s, ps->n - 1, e->u.call.args.n);
		return NULL;
	}
	for (i = 0; i < ps->n; i++) {
		if (i == out)
			continue;
		if (!(x = expr_check(S, e->u.call.args.v[nin])))
			return NULL;
		in[nin] = x;
		if (infer(S, def, ps->v[i]->u.var.type, x, &args, known,
		    e->u.call.args.v[nin]->loc))
			return NULL;
		nin++;
	}
	for (i = 0; i < def->u.def.tparams.n; i++)
		if (!known[i]) {
			se_error(S, e->loc, "cannot infer size parameter '%s' of "
			    "'%s' from the arguments",
			    def->u.def.tparams.v[i]->u.name, e->u.call.name.s);
			return NULL;
		}
	k = instantiate(S, def, &args);
	x = cx_new(S, CX_CALL, k->op[out].dtype, &k->op[out].shape, e->loc,
	    nin);
	for (i = 0; i < nin; i++) {
		int o = i < out ? i : i + 1;
		x->arg[i] = expr_coerce(S, in[i], k->op[o].dtype, &k->op[o].shape,
		    e->u.call.args.v[i]->loc, arena_printf(S->a, "argument "
		    "'%s'", k->op[o].name));
		if (!x->arg[i])
			return NULL;
	}
	x->u.call = k;
	return x;
}
