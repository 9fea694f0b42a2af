/*
 * kernel.c - one kernel instance: binds the size and dtype parameters,
 * then checks the operands and the clauses (grid, semantics, blocks,
 * scratch, aliases, params) into a CKernel, then runs the body and the
 * whole-kernel checks in order.
 *
 * Gives:    kernel_check() (sema.h).
 * Tests:    tests/diag/sema-*.pk, tests/golden/sema/
 */
#include <string.h>

#include "dsl/sema/sema.h"

/* A type: dtype and shape; what names the thing for messages. */
static int
type_check(Sema *S, const Ast *t, const char *what, int allow_sem,
    DType *dt, Shape *sh)
{
	int i, bad = 0, rc;

	memset(sh, 0, sizeof *sh);
	if ((rc = scope_dtype(S, t->u.type.dtype.s, t->u.type.dtype.loc,
	    dt)) < 0)
		return -1;
	if (rc) {
		se_error(S, t->u.type.dtype.loc, "unknown dtype '%s'",
		    t->u.type.dtype.s);
		se_note(S, t->u.type.dtype.loc, "dtypes are f32, bf16, i32, "
		    "i8 and bool (and sem, dma_sem for scratch)");
		return -1;
	}
	if (!allow_sem && (*dt == DT_SEM || *dt == DT_DMA_SEM)) {
		se_error(S, t->loc, "%s cannot be a semaphore: semaphores "
		    "live in scratch", what);
		return -1;
	}
	if (t->u.type.dims.n > SEMA_MAXRANK) {
		se_error(S, t->loc, "%s has rank %d; at most %d dimensions "
		    "are supported", what, t->u.type.dims.n, SEMA_MAXRANK);
		return -1;
	}
	sh->rank = t->u.type.dims.n;
	for (i = 0; i < sh->rank; i++) {
		char *w = arena_printf(S->a, "dimension %d of %s", i, what);
		if (const_size(S, t->u.type.dims.v[i], w, &sh->d[i]))
			bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * Whether operand p is in the instance: its 'when (c)' holds, or it has
 * none.  c must be a bool that the size parameters decide.
 */
static int
present(Sema *S, const Ast *p)
{
	const Ast *w = p->u.var.when;
	Ctx ctx = S->ctx;
	CExpr *c;
	int t;

	if (!w)
		return 1;
	S->ctx = CTX_CONST;
	c = expr_check(S, w);
	S->ctx = ctx;
	if (!c)
		return 1;
	if (c->dtype != DT_BOOL || c->shape.rank || (t = expr_truth(c)) < 0) {
		se_error(S, w->loc, "the 'when' of operand '%s' must be a bool "
		    "that the size parameters decide", p->u.var.name.s);
		se_note(S, w->loc, "compare size parameters, as in 'when "
		    "(SINK != 0)'");
		return 1;
	}
	return t;
}

static void
operands(Sema *S, CKernel *k, const AstList *params)
{
	int j, stage = 0;

	k->nop = 0;
	k->op = arena_alloc(S->a, sizeof *k->op * (size_t)(params->n + 1));
	for (j = 0; j < params->n; j++) {
		const Ast *p = params->v[j];
		int i = k->nop;
		COperand *o = &k->op[i];
		const char *w;
		int st;

		if (!present(S, p)) {
			/* not in the C entry point nor the program; its
			   type is not checked (its sizes may be nonsense
			   for this instance) */
			scope_bind(S, p->u.var.name.s, B_ABSENT,
			    p->u.var.when->loc);
			continue;
		}
		k->nop++;

		o->name = p->u.var.name.s;
		o->loc = p->loc;
		o->alias_in = -1;
		o->buffers = 2;
		o->blocked = 1;
		o->mem = MEM_VMEM;
		if (p->u.var.mem == MEM_SMEM) {
			o->role = ROLE_SMEM_TABLE;
			o->mem = MEM_SMEM;
			o->blocked = 0;
			if (p->u.var.out) {
				se_error(S, p->loc, "output '%s' cannot be an "
				    "SMEM table; SMEM tables are inputs",
				    o->name);
				o->role = ROLE_OUT;
			}
		} else
			o->role = p->u.var.out ? ROLE_OUT : ROLE_IN;
		if (p->u.var.mem == MEM_ANY || p->u.var.mem == MEM_HBM) {
			o->mem = MEM_ANY;
			o->blocked = 0;
		}
		st = o->role == ROLE_SMEM_TABLE ? 0 : o->role == ROLE_IN ? 1 : 2;
		if (st < stage) {
			se_error(S, p->loc, "%s '%s' comes after %s",
			    st == 0 ? "SMEM table" : "input", o->name,
			    stage == 2 ? "an output" : "an input");
			se_note(S, p->loc, "write SMEM tables first, then "
			    "inputs, then outputs");
		} else
			stage = st;
		w = arena_printf(S->a, "operand '%s'", o->name);
		if (type_check(S, p->u.var.type, w, 0, &o->dtype, &o->shape) == 0)
			o->block = o->shape;
		o->ref_shape = o->block;
		scope_bind(S, o->name, B_OPERAND, p->u.var.name.loc)->index = i;
	}
}

static void
grid(Sema *S, CKernel *k, const Ast *g)
{
	int i;

	k->naxis = g ? g->u.list.n : 0;
	if (k->naxis > SEMA_MAXRANK) {
		se_error(S, g->loc, "a grid has at most %d axes", SEMA_MAXRANK);
		k->naxis = 0;
	}
	k->axis = arena_alloc(S->a, sizeof *k->axis * (size_t)(k->naxis + 1));
	for (i = 0; i < k->naxis; i++) {
		const Ast *x = g->u.list.v[i];
		CAxis *a = &k->axis[i];
		char *w;

		a->name = x->u.named.name.s;
		a->loc = x->u.named.name.loc;
		a->sem = DIM_ARBITRARY;
		w = arena_printf(S->a, "the extent of grid axis '%s'", a->name);
		if (const_size(S, x->u.named.value, w, &a->extent))
			a->extent = 1;
		scope_bind(S, a->name, B_AXIS, a->loc)->index = i;
	}
}

static void
semantics(Sema *S, CKernel *k, const Ast *s)
{
	int i;

	if (!s)
		return;
	if (s->u.list.n != k->naxis) {
		se_error(S, s->loc, "semantics lists %d entr%s for a grid of "
		    "%d ax%s", s->u.list.n, s->u.list.n == 1 ? "y" : "ies",
		    k->naxis, k->naxis == 1 ? "is" : "es");
		se_note(S, s->loc, "write one of parallel or arbitrary per "
		    "grid axis, in order");
		return;
	}
	for (i = 0; i < k->naxis; i++) {
		const Ast *w = s->u.list.v[i];
		const char *n = w->kind == AST_IDENT ? w->u.name : "";
		if (strcmp(n, "parallel") == 0)
			k->axis[i].sem = DIM_PARALLEL;
		else if (strcmp(n, "arbitrary") == 0)
			k->axis[i].sem = DIM_ARBITRARY;
		else if (strcmp(n, "core_parallel") == 0)
			k->axis[i].sem = DIM_CORE_PARALLEL;
		else {
			se_error(S, w->loc, "unknown dimension semantics '%s'",
			    n);
			se_note(S, w->loc, "use parallel or arbitrary");
		}
	}
}

static int
find_operand(Sema *S, CKernel *k, AstName n, const char *what)
{
	Bind *b = scope_find(S, n.s);

	if (b && b->kind == B_OPERAND)
		return b->index;
	if (b && b->kind == B_ABSENT)
		return -2;	/* not in the instance: unchecked, as its type */
	if (b)
		se_error(S, n.loc, "%s '%s' is not an operand", what, n.s);
	else
		scope_undefined(S, "operand", n.s, n.loc);
	(void)k;
	return -1;
}

static void
blockspec(Sema *S, CKernel *k, const Ast *sp, const Ast **seen)
{
	int i = find_operand(S, k, sp->u.spec.name, "block for");
	COperand *o;
	MemSpace m = sp->u.spec.mem;
	int64_t v;

	if (i < 0)
		return;
	o = &k->op[i];
	if (seen[i]) {
		se_error(S, sp->loc, "second block for operand '%s'", o->name);
		se_note(S, seen[i]->loc, "the first is here");
		return;
	}
	seen[i] = sp;
	if (o->role == ROLE_SMEM_TABLE) {
		se_error(S, sp->loc, "SMEM table '%s' cannot have a block; "
		    "it is copied whole into SMEM", o->name);
		return;
	}
	if (o->mem == MEM_ANY && m != MEM_ANY && m != MEM_HBM) {
		se_error(S, sp->loc, "operand '%s' is declared in HBM and "
		    "cannot have a block", o->name);
		return;
	}
	if (m == MEM_ANY || m == MEM_HBM) {
		o->mem = MEM_ANY;
		o->blocked = 0;
		if (sp->u.spec.shape || sp->u.spec.map) {
			se_error(S, sp->loc, "an HBM operand has no block "
			    "shape nor index map");
			se_note(S, sp->loc, "write '%s: any;' and move data "
			    "with dma_start / dma_copy", o->name);
		}
		return;
	}
	if (m == MEM_SMEM)
		o->mem = MEM_SMEM;
	if (sp->u.spec.buffers) {
		S->ctx = CTX_CONST;
		if (const_eval(S, sp->u.spec.buffers, &v) == 0) {
			if (v != 1 && v != 2) {
				se_error(S, sp->u.spec.buffers->loc, "buffers "
				    "%lld: only 1 or 2 buffers are supported",
				    (long long)v);
			} else
				o->buffers = (int)v;
		}
	}
	blockspec_shape(S, k, i, sp);
}

static void
blocks(Sema *S, CKernel *k, const Ast *b)
{
	const Ast **seen = arena_alloc(S->a, sizeof *seen * (size_t)(k->nop + 1));
	int i;

	for (i = 0; b && i < b->u.list.n; i++)
		if (b->u.list.v[i]->kind == AST_BLOCKSPEC)
			blockspec(S, k, b->u.list.v[i], seen);
	for (i = 0; i < k->nop; i++) {
		COperand *o = &k->op[i];
		if (!seen[i] && o->blocked)
			o->buffers = 1;	/* a whole array: copied once */
		o->map = arena_alloc(S->a, sizeof *o->map *
		    (size_t)(o->shape.rank + 1));
		k->op[i].ref_shape = o->block;
		if (o->blocked) {
			int d, r = 0;
			for (d = 0; d < o->block.rank; d++)
				if (!o->squeezed[d])
					o->ref_shape.d[r++] = o->block.d[d];
			o->ref_shape.rank = r;
		}
	}
	for (i = 0; b && i < b->u.list.n; i++) {
		const Ast *sp = b->u.list.v[i];
		Bind *x;
		if (sp->kind != AST_BLOCKSPEC || !sp->u.spec.map)
			continue;
		x = scope_find(S, sp->u.spec.name.s);
		if (x && x->kind == B_OPERAND && seen[x->index] == sp &&
		    k->op[x->index].blocked)
			blockspec_map(S, k, x->index, sp->u.spec.map);
	}
}

static void
scratch(Sema *S, CKernel *k, const Ast *s)
{
	int i;

	k->nscratch = s ? s->u.list.n : 0;
	k->scratch = arena_alloc(S->a, sizeof *k->scratch *
	    (size_t)(k->nscratch + 1));
	for (i = 0; i < k->nscratch; i++) {
		const Ast *p = s->u.list.v[i];
		CScratch *c = &k->scratch[i];
		const char *w = arena_printf(S->a, "scratch '%s'",
		    p->u.var.name.s);

		c->name = p->u.var.name.s;
		c->loc = p->loc;
		c->mem = p->u.var.mem == MEM_SMEM ? MEM_SMEM : MEM_VMEM;
		if (p->u.var.mem == MEM_ANY || p->u.var.mem == MEM_HBM)
			se_error(S, p->loc, "scratch '%s' must be in vmem or "
			    "smem", c->name);
		if (type_check(S, p->u.var.type, w, 1, &c->dtype, &c->shape)) {
			c->shape.rank = 0;
			c->dtype = DT_F32;
		}
		if (c->dtype == DT_SEM || c->dtype == DT_DMA_SEM)
			c->mem = MEM_SMEM;
		c->bytes = c->mem == MEM_VMEM ?
		    shape_tile_bytes(S->mp, c->dtype, &c->shape) :
		    shape_numel(&c->shape) * 4;
		scope_bind(S, c->name, B_SCRATCH, p->u.var.name.loc)->index = i;
	}
}

static void
alias(Sema *S, CKernel *k, const Ast *al)
{
	int o = find_operand(S, k, al->u.alias.out, "alias of");
	int in = find_operand(S, k, al->u.alias.in, "alias to");
	Buf a = {0}, b = {0};

	if ((o == -2) != (in == -2) && o != -1 && in != -1) {
		/* half an alias would leave the output uninitialised */
		AstName gone = o == -2 ? al->u.alias.out : al->u.alias.in;
		se_error(S, al->loc, "the alias of '%s' to '%s' has one side "
		    "only: '%s' is not in this instance", al->u.alias.out.s,
		    al->u.alias.in.s, gone.s);
		se_note(S, al->loc, "give both operands the same 'when'");
		return;
	}
	if (o < 0 || in < 0)
		return;
	if (k->op[o].role != ROLE_OUT || k->op[in].role != ROLE_IN) {
		se_error(S, al->loc, "an alias pairs an output with an input: "
		    "write 'OUT = IN;'");
		return;
	}
	if (k->op[o].alias_in >= 0) {
		se_error(S, al->loc, "output '%s' is aliased twice",
		    k->op[o].name);
		return;
	}
	shape_print(&a, &k->op[o].shape);
	shape_print(&b, &k->op[in].shape);
	if (k->op[o].dtype != k->op[in].dtype ||
	    !shape_eq(&k->op[o].shape, &k->op[in].shape))
		se_error(S, al->loc, "output '%s' (%s%s) cannot alias input "
		    "'%s' (%s%s): dtypes and shapes must be equal",
		    k->op[o].name, dtype_name(k->op[o].dtype), a.p,
		    k->op[in].name, dtype_name(k->op[in].dtype), b.p);
	else
		k->op[o].alias_in = in;
	buf_free(&a);
	buf_free(&b);
}

static void
param_precision(Sema *S, CKernel *k, const Ast *v)
{
	const char *n = v->kind == AST_IDENT ? v->u.name : "";
	Bind *b = v->kind == AST_IDENT ? scope_find(S, n) : NULL;

	if (b && b->kind == B_SIZE) {
		/* chosen by the export: 0 default, 1 high, 2 highest */
		static const MachPrec by[3] = { MACH_PREC_DEFAULT,
		    MACH_PREC_HIGH, MACH_PREC_HIGHEST };
		if (b->val >= 0 && b->val <= 2)
			k->params.precision = by[b->val];
		else
			se_error(S, v->loc, "precision '%s' is %lld: a size "
			    "parameter that chooses a precision is 0 (default), "
			    "1 (high) or 2 (highest)", n, (long long)b->val);
	} else if (strcmp(n, "default") == 0)
		k->params.precision = MACH_PREC_DEFAULT;
	else if (strcmp(n, "high") == 0)
		k->params.precision = MACH_PREC_HIGH;
	else if (strcmp(n, "highest") == 0)
		k->params.precision = MACH_PREC_HIGHEST;
	else
		se_error(S, v->loc, "precision must be default, high or "
		    "highest");
}

static void
param(Sema *S, CKernel *k, const Ast *p)
{
	const char *key = p->u.named.name.s;
	const Ast *v = p->u.named.value;
	int64_t x;

	if (strcmp(key, "vmem_limit") == 0) {
		if (const_size(S, v, "vmem_limit", &x) == 0)
			k->params.vmem_limit = x;
	} else if (strcmp(key, "target") == 0) {
		if (v->kind != AST_STRING) {
			se_error(S, v->loc, "target must be a string such as "
			    "\"v4\"");
			return;
		}
		k->params.target = v->u.str;
		if (!mach_preset(v->u.str)) {
			se_error(S, v->loc, "unknown target \"%s\"", v->u.str);
			se_note(S, v->loc, "targets: v4, v5e, v6e, small");
		} else if (strcmp(v->u.str, S->mp->name) != 0) {
			se_error(S, v->loc, "kernel '%s' is written for target "
			    "\"%s\" but the preset is '%s'", k->name, v->u.str,
			    S->mp->name);
			se_note(S, v->loc, "compile with --preset %s, or remove "
			    "the target parameter", v->u.str);
		}
	} else if (strcmp(key, "precision") == 0) {
		param_precision(S, k, v);
	} else if (strcmp(key, "revisit") == 0) {
		Bind *b = v->kind == AST_IDENT ? scope_find(S, v->u.name) : NULL;
		if (!b || b->kind != B_OPERAND ||
		    k->op[b->index].role != ROLE_OUT) {
			se_error(S, v->loc, "revisit names an output whose "
			    "blocks may be revisited");
			return;
		}
		k->op[b->index].revisit_any = 1;
	} else {
		se_error(S, p->u.named.name.loc, "unknown kernel parameter "
		    "'%s'", key);
		se_note(S, p->u.named.name.loc, "parameters are vmem_limit, "
		    "target, precision and revisit");
	}
}

static const Ast *
clause(Sema *S, const Ast *def, AstKind kind, const char *word)
{
	const Ast *found = NULL;
	int i;

	for (i = 0; i < def->u.def.clauses.n; i++) {
		const Ast *c = def->u.def.clauses.v[i];
		if (c->kind != kind)
			continue;
		if (found) {
			se_error(S, c->loc, "second '%s' clause", word);
			se_note(S, found->loc, "the first is here");
		} else
			found = c;
	}
	return found;
}

static void
body_and_checks(Sema *S, CKernel *k, const Ast *def)
{
	int before = S->d->nerror;

	S->ctx = CTX_BODY;
	S->slots.n = 0;
	scope_push(S);
	body_check(S, def->u.def.body, &k->body);
	scope_pop(S);
	k->nslot = S->slots.n;
	k->slot = arena_alloc(S->a, sizeof *k->slot * (size_t)(k->nslot + 1));
	if (k->nslot)
		memcpy(k->slot, S->slots.v, sizeof *k->slot * (size_t)k->nslot);
	if (S->d->nerror != before)
		return;
	refs_check(S, k);
	revisit_check(S, k);
	semantics_check(S, k);
}

CKernel *
kernel_check(Sema *S, const Ast *def, const SemaArgs *args)
{
	CKernel *k = arena_alloc(S->a, sizeof *k);
	const Ast *a;
	int i, before;

	k->name = def->u.def.name.s;
	k->loc = def->loc;
	k->preset = S->mp;
	k->nparam = def->u.def.tparams.n;
	k->param_name = arena_alloc(S->a, sizeof(char *) * (size_t)(k->nparam + 1));
	k->param_val = arena_alloc(S->a, sizeof(int64_t) * (size_t)(k->nparam + 1));
	k->param_dtype = arena_alloc(S->a, (size_t)(k->nparam + 1));
	S->k = k;
	S->f = NULL;
	S->ctx = CTX_CONST;
	before = S->d->nerror;
	scope_push(S);
	for (i = 0; i < k->nparam; i++) {
		k->param_name[i] = def->u.def.tparams.v[i]->u.name;
		k->param_val[i] = args->val[i];
		k->param_dtype[i] = args->dtype[i];
	}
	scope_bind_params(S, &def->u.def.tparams, args);
	operands(S, k, &def->u.def.params);
	grid(S, k, clause(S, def, AST_GRID, "grid"));
	semantics(S, k, clause(S, def, AST_SEMANTICS, "semantics"));
	semantics_prefix(S, k);
	scratch(S, k, clause(S, def, AST_SCRATCH, "scratch"));
	if ((a = clause(S, def, AST_PARAMS, "params")))
		for (i = 0; i < a->u.list.n; i++)
			param(S, k, a->u.list.v[i]);
	blocks(S, k, clause(S, def, AST_BLOCKS, "blocks"));
	if ((a = clause(S, def, AST_ALIASES, "aliases")))
		for (i = 0; i < a->u.list.n; i++)
			alias(S, k, a->u.list.v[i]);
	/* The rest depends on the declarations: skip it after an error. */
	if (S->d->nerror == before) {
		blockspec_check_maps(S, k);
		budget_check(S, k);
		body_and_checks(S, k, def);
	}
	scope_pop(S);
	S->k = NULL;
	return k;
}
