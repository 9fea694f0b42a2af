/*
 * body.c - statements of kernel and func bodies: let, stores (and
 * op-assignments), when, for, DMAs and semaphores, checks, into CStmt
 * blocks.
 * Values are immutable; only Refs are stored into, and never inputs.
 *
 * Gives:    body_check(), slot_new() (sema.h).
 * Tests:    tests/diag/sema-stmt-*.pk, sema-ref-*.pk, sema-check-*.pk
 */
#include <string.h>

#include "dsl/sema/sema.h"

int
slot_new(Sema *S, const char *name, DType t, const Shape *sh)
{
	CSlotInfo si;

	si.name = name;
	si.dtype = t;
	si.shape = *sh;
	vec_push(S->a, &S->slots, si);
	return S->slots.n - 1;
}

static CStmt *
stmt_new(Sema *S, CStmtKind k, Loc loc)
{
	CStmt *s = arena_alloc(S->a, sizeof *s);

	s->kind = k;
	s->loc = loc;
	return s;
}

static CExpr *
finish_weak(Sema *S, CExpr *v, Loc loc)
{
	if (v && v->weak)
		v = expr_coerce(S, v, v->dtype, &v->shape, loc, "the value");
	return v;
}

static void
let(Sema *S, const Ast *x, CBlock *out)
{
	CExpr *v = expr_check(S, x->u.let.value);
	const Ast *ty = x->u.let.type;
	CStmt *s;
	Bind *b;
	DType t;
	Shape sh = {0};
	int i, rc;

	if (v && ty) {
		rc = scope_dtype(S, ty->u.type.dtype.s,
		    ty->u.type.dtype.loc, &t);
		if (rc > 0)
			se_error(S, ty->loc, "unknown dtype '%s'",
			    ty->u.type.dtype.s);
		if (rc)
			v = NULL;
		else {
			sh.rank = ty->u.type.dims.n;
			for (i = 0; i < sh.rank && i < SEMA_MAXRANK; i++)
				if (const_size(S, ty->u.type.dims.v[i],
				    "a dimension", &sh.d[i]))
					v = NULL;
			if (v && !v->weak && !shape_eq(&v->shape, &sh)) {
				se_error(S, x->loc, "'%s' is declared %s but "
				    "its value is %s", x->u.let.name.s,
				    type_str(S, t, &sh), type_str(S, v->dtype,
				    &v->shape));
				v = NULL;
			}
			if (v)
				v = expr_coerce(S, v, t, &sh, x->loc,
				    arena_printf(S->a, "the value of '%s'",
				    x->u.let.name.s));
		}
	}
	v = finish_weak(S, v, x->loc);
	if (!v) {	/* bind the name anyway, to report no more about it */
		scope_bind(S, x->u.let.name.s, B_SLOT, x->u.let.name.loc)->index
		    = -1;
		return;
	}
	s = stmt_new(S, CS_LET, x->loc);
	s->u.let.name = x->u.let.name.s;
	s->u.let.value = v;
	s->u.let.slot = slot_new(S, s->u.let.name, v->dtype, &v->shape);
	if (v->shape.rank == 0 && dtype_is_int(v->dtype)) {
		struct SemaMult m = { SLOT_KEY(s->u.let.slot),
		    expr_known_multiple(S, v), expr_proved_multiple(S, v) };
		vec_push(S->a, &S->mult, m);
	}
	b = scope_bind(S, s->u.let.name, S->ctx == CTX_FUNC ? B_FLET : B_SLOT,
	    x->u.let.name.loc);
	b->index = s->u.let.slot;
	b->value = v;
	vec_push(S->a, out, s);
}

/* Can the body write through this place?  Reports why not. */
static int
writable(Sema *S, const CPlace *p, const Ast *target)
{
	const char *n;

	if (p->ref.kind == CREF_SCRATCH) {
		const CScratch *c = &S->k->scratch[p->ref.index];
		if (c->dtype == DT_SEM || c->dtype == DT_DMA_SEM) {
			se_error(S, target->loc, "semaphore '%s' cannot be "
			    "assigned; use sem_signal / sem_wait", c->name);
			return -1;
		}
		return 0;
	}
	n = S->k->op[p->ref.index].name;
	switch (S->k->op[p->ref.index].role) {
	case ROLE_IN:
	case ROLE_SMEM_TABLE:
		se_error(S, target->loc, "cannot write to input '%s'", n);
		se_note(S, S->k->op[p->ref.index].loc, "inputs are read-only: "
		    "declare '%s' 'out', or copy it into a scratch buffer", n);
		return -1;
	default:
		break;
	}
	if (S->k->op[p->ref.index].mem == MEM_ANY) {
		se_error(S, target->loc, "operand '%s' stays in HBM and cannot "
		    "be stored to", n);
		se_note(S, target->loc, "write a VMEM scratch and copy it with "
		    "dma_copy");
		return -1;
	}
	return 0;
}

static int
target_place(Sema *S, const Ast *target, CPlace *p, DType *t)
{
	int rc;
	const Ast *base = target->kind == AST_INDEX ? target->u.index.base :
	    target;

	if (S->ctx == CTX_FUNC) {
		se_error(S, target->loc, "a func has no Refs to assign; use "
		    "let");
		return -1;
	}
	rc = place_check(S, target, p, t);
	if (rc == 1) {
		Bind *b = base->kind == AST_IDENT ? scope_find(S, base->u.name)
		    : NULL;
		if (b && b->kind == B_ABSENT)
			scope_absent_use(S, b, target->loc);
		else if (b && b->kind == B_SLOT)
			se_error(S, target->loc, "'%s' is a value; values are "
			    "immutable (only Refs can be assigned)", b->name);
		else if (base->kind == AST_IDENT && !b)
			scope_undefined(S, "Ref", base->u.name, base->loc);
		else
			se_error(S, target->loc, "only Refs (operands and "
			    "scratch) can be assigned");
		return -1;
	}
	return rc;
}

static void
assign(Sema *S, const Ast *x, CBlock *out)
{
	CPlace p;
	DType t;
	CExpr *v;
	CStmt *s;
	static const CxOp acc[] = { [AOP_ADD] = CX_ADD, [AOP_SUB] = CX_SUB,
	    [AOP_MUL] = CX_MUL, [AOP_DIV] = CX_DIV };

	if (target_place(S, x->u.assign.target, &p, &t)) {
		expr_check(S, x->u.assign.value);
		return;
	}
	if (writable(S, &p, x->u.assign.target))
		return;
	v = expr_check(S, x->u.assign.value);
	v = expr_coerce(S, v, t, &p.shape, x->u.assign.value->loc,
	    "the stored value");
	if (!v)
		return;
	s = stmt_new(S, CS_STORE, x->loc);
	s->u.store.place = p;
	s->u.store.value = v;
	s->u.store.acc = NCXOP;
	if (x->u.assign.op != AOP_ASSIGN) {
		if (x->u.assign.op >= countof(acc) || !acc[x->u.assign.op]) {
			se_error(S, x->loc, "unsupported assignment operator");
			return;
		}
		if (t == DT_BOOL) {
			se_error(S, x->loc, "'%s' needs numbers, not bool",
			    ast_op_spelling(x->u.assign.op));
			return;
		}
		s->u.store.acc = acc[x->u.assign.op];
	}
	vec_push(S->a, out, s);
}

/* The condition of statement what; vnote: the note for a vector. */
static CExpr *
bool_scalar(Sema *S, const Ast *e, const char *what, const char *vnote)
{
	CExpr *c = expr_check(S, e);

	if (c && (c->dtype != DT_BOOL || c->shape.rank)) {
		se_error(S, e->loc, "the condition of %s must be a bool "
		    "scalar, not %s", what, type_str(S, c->dtype, &c->shape));
		if (c->shape.rank)
			se_note(S, e->loc, "%s", vnote);
		return NULL;
	}
	return c;
}

static void stmt(Sema *S, const Ast *x, CBlock *out);

static void
nested(Sema *S, const Ast *block, CBlock *out)
{
	scope_push(S);
	if (block->kind == AST_BLOCK)
		body_check(S, block, out);
	else
		stmt(S, block, out);
	scope_pop(S);
}

/* Reports statement what (with a note) in a func, where it has no
   place; 1 if it was. */
static int
in_func(Sema *S, const Ast *x, const char *what, const char *note)
{
	if (S->ctx != CTX_FUNC)
		return 0;
	se_error(S, x->loc, "%s is not allowed in a func", what);
	se_note(S, x->loc, "%s", note);
	return 1;
}

/*
 * A block of a when whose condition the size parameters decide, into
 * out; if the block is never taken, it is checked as dead code (it may
 * use operands absent from the instance) and dropped.
 */
static void
dead_nested(Sema *S, const Ast *block, CBlock *out, int dead)
{
	CBlock drop;

	if (!dead) {
		nested(S, block, out);
		return;
	}
	memset(&drop, 0, sizeof drop);
	S->dead++;
	nested(S, block, &drop);
	S->dead--;
}

static void
when(Sema *S, const Ast *x, CBlock *out)
{
	CExpr *c;
	CStmt *s;
	int t;

	if (in_func(S, x, "when", "use where(c, a, b) to choose between "
	    "values"))
		return;
	c = bool_scalar(S, x->u.when.cond, "when", "for an elementwise choice "
	    "use where(c, a, b)");
	if (c && (t = expr_truth(c)) >= 0) {
		/* the size parameters decide: the side taken, in place */
		CBlock keep;
		int i;
		memset(&keep, 0, sizeof keep);
		dead_nested(S, x->u.when.then, &keep, t == 0);
		if (x->u.when.els)
			dead_nested(S, x->u.when.els, &keep, t == 1);
		for (i = 0; i < keep.n; i++)
			vec_push(S->a, out, keep.v[i]);
		return;
	}
	s = stmt_new(S, CS_WHEN, x->loc);
	s->u.when.cond = c;
	nested(S, x->u.when.then, &s->u.when.then);
	if (x->u.when.els)
		nested(S, x->u.when.els, &s->u.when.els);
	if (c)
		vec_push(S->a, out, s);
}

static CExpr *
i32_scalar(Sema *S, const Ast *e, const char *what)
{
	return expr_coerce(S, expr_check(S, e), DT_I32, &(Shape){0}, e->loc,
	    what);
}

/* gcd(a, step): what a loop variable starting at a multiple of a is a
   multiple of. */
static int64_t
gcd_step(int64_t a, int64_t g)
{
	while (a % g) {
		int64_t t = a % g;
		a = g;
		g = t;
	}
	return g;
}

static void
loop(Sema *S, const Ast *x, CBlock *out)
{
	CStmt *s = stmt_new(S, CS_FOR, x->loc);
	int64_t step = 1;
	Ctx save = S->ctx;
	Bind *b;
	struct SemaMult m;

	s->u.loop.lo = i32_scalar(S, x->u.loop.lo, "the loop's start");
	s->u.loop.hi = i32_scalar(S, x->u.loop.hi, "the loop's end");
	if (x->u.loop.step) {
		S->ctx = CTX_CONST;
		if (const_size(S, x->u.loop.step, "the loop's step", &step))
			step = 1;
		S->ctx = save;
	}
	s->u.loop.step = step;
	s->u.loop.name = x->u.loop.var.s;
	s->u.loop.slot = slot_new(S, s->u.loop.name, DT_I32, &(Shape){0});
	if (s->u.loop.lo) {
		m.key = SLOT_KEY(s->u.loop.slot);
		m.m = gcd_step(expr_known_multiple(S, s->u.loop.lo), step);
		m.p = gcd_step(expr_proved_multiple(S, s->u.loop.lo), step);
		vec_push(S->a, &S->mult, m);
	}
	scope_push(S);
	b = scope_bind(S, s->u.loop.name, B_SLOT, x->u.loop.var.loc);
	b->index = s->u.loop.slot;
	body_check(S, x->u.loop.body, &s->u.loop.body);
	scope_pop(S);
	if (s->u.loop.lo && s->u.loop.hi)
		vec_push(S->a, out, s);
}

/* A semaphore element: scratch of dtype want, indexed to a scalar. */
static int
sem_place(Sema *S, const Ast *e, DType want, CPlace *p)
{
	DType t;
	int rc = place_check(S, e, p, &t);

	if (rc < 0)
		return -1;
	if (rc > 0 || p->ref.kind != CREF_SCRATCH || t != want ||
	    p->shape.rank) {
		se_error(S, e->loc, "expected one element of a %s scratch "
		    "buffer", dtype_name(want));
		return -1;
	}
	return 0;
}

static int
dma_place(Sema *S, const Ast *e, CPlace *p, DType *t, const char *what)
{
	int rc = place_check(S, e, p, t);

	if (rc > 0)
		se_error(S, e->loc, "the %s of a DMA must be a Ref", what);
	if (rc)
		return -1;
	if (*t == DT_SEM || *t == DT_DMA_SEM) {
		se_error(S, e->loc, "a DMA cannot copy semaphores");
		return -1;
	}
	return 0;
}

static void
dma(Sema *S, const Ast *x, CBlock *out)
{
	CStmtKind k = x->kind == AST_DMA_START ? CS_DMA_START :
	    x->kind == AST_DMA_WAIT ? CS_DMA_WAIT : CS_DMA_COPY;
	CStmt *s = stmt_new(S, k, x->loc);
	DType ts, td;
	int bad;

	bad = dma_place(S, x->u.dma.src, &s->u.dma.src, &ts, "source");
	bad |= dma_place(S, x->u.dma.dst, &s->u.dma.dst, &td, "destination");
	if (x->u.dma.sem)
		bad |= sem_place(S, x->u.dma.sem, DT_DMA_SEM, &s->u.dma.sem);
	if (bad)
		return;
	if (ts != td || !shape_eq(&s->u.dma.src.shape, &s->u.dma.dst.shape)) {
		se_error(S, x->loc, "a DMA copies between equal types: the "
		    "source is %s and the destination %s",
		    type_str(S, ts, &s->u.dma.src.shape),
		    type_str(S, td, &s->u.dma.dst.shape));
		return;
	}
	if (k != CS_DMA_WAIT && writable(S, &s->u.dma.dst, x->u.dma.dst) == 0)
		;
	else if (k != CS_DMA_WAIT)
		return;
	vec_push(S->a, out, s);
}

static void
semop(Sema *S, const Ast *x, CBlock *out)
{
	CStmt *s = stmt_new(S, x->kind == AST_SEM_SIGNAL ? CS_SEM_SIGNAL :
	    CS_SEM_WAIT, x->loc);

	if (sem_place(S, x->u.sem.sem, DT_SEM, &s->u.sem.sem))
		return;
	s->u.sem.count = x->u.sem.count ? i32_scalar(S, x->u.sem.count,
	    "the count") : cx_const_int(S, 1, DT_I32, x->loc);
	if (s->u.sem.count)
		vec_push(S->a, out, s);
}

static void
kernel_only(Sema *S, const Ast *x, CBlock *out)
{
	if (S->ctx == CTX_FUNC) {
		se_error(S, x->loc, "DMAs and semaphores are for kernels");
		return;
	}
	if (x->kind == AST_SEM_SIGNAL || x->kind == AST_SEM_WAIT)
		semop(S, x, out);
	else
		dma(S, x, out);
}

static void
ret(Sema *S, const Ast *x, CBlock *out)
{
	CStmt *s;
	CExpr *v;

	if (S->ctx != CTX_FUNC) {
		se_error(S, x->loc, "return is only allowed in a func; a "
		    "kernel stores its results into its outputs");
		return;
	}
	S->returned = 1;
	v = expr_check(S, x->u.one.x);
	v = expr_coerce(S, v, S->f->rdtype, &S->f->rshape, x->u.one.x->loc,
	    "the returned value");
	if (!v)
		return;
	s = stmt_new(S, CS_RETURN, x->loc);
	s->u.value = v;
	S->f->result = v;
	vec_push(S->a, out, s);
}

static void
eval(Sema *S, const Ast *x, CBlock *out)
{
	CExpr *v = expr_check(S, x->u.one.x);
	CStmt *s;

	if (!v)
		return;
	se_warning(S, x->loc, "expression result unused");
	s = stmt_new(S, CS_EVAL, x->loc);
	s->u.value = v;
	vec_push(S->a, out, s);
}

/*
 * check(cond, "message"): stops the run where cond is false.  A
 * condition that folds to true (size parameters decide it) needs no
 * code, so it makes no statement; one that folds to false would stop
 * every run, so it is an error now.
 */
static void
check(Sema *S, const Ast *x, CBlock *out)
{
	const AstList *a = &x->u.list;
	CExpr *c;
	CStmt *s;

	if (in_func(S, x, "check", "check in the kernel body: a failed "
	    "check names the grid point it stopped at"))
		return;
	if (a->n != 2) {
		se_error(S, x->loc, "check takes 2 arguments, a condition and "
		    "a message, not %d", a->n);
		return;
	}
	if (a->v[1]->kind != AST_STRING) {
		se_error(S, a->v[1]->loc, "the message of check must be a "
		    "string literal");
		se_note(S, a->v[1]->loc, "as in check(i < 4, \"i is out of "
		    "range\")");
		return;
	}
	c = bool_scalar(S, a->v[0], "check", "check tests one bool; reduce "
	    "the condition first, e.g. min(where(c, 1, 0), axis: 0) == 1 "
	    "(every element of a rank-1 c holds)");
	if (!c)
		return;
	if (c->op == CX_CONST) {
		/* in a side the parameters drop, nothing runs to fail */
		if (!c->u.cst.i && !S->dead)
			se_error(S, x->loc, "check always fails: %s",
			    a->v[1]->u.str);
		return;
	}
	s = stmt_new(S, CS_CHECK, x->loc);
	s->u.check.cond = c;
	s->u.check.msg = a->v[1]->u.str;
	vec_push(S->a, out, s);
}

static void
stmt(Sema *S, const Ast *x, CBlock *out)
{
	switch (x->kind) {
	case AST_LET: let(S, x, out); break;
	case AST_ASSIGN: assign(S, x, out); break;
	case AST_EXPR_STMT: eval(S, x, out); break;
	case AST_WHEN: when(S, x, out); break;
	case AST_FOR: loop(S, x, out); break;
	case AST_RETURN: ret(S, x, out); break;
	case AST_BLOCK: nested(S, x, out); break;
	case AST_CHECK: check(S, x, out); break;
	case AST_DMA_START: case AST_DMA_WAIT: case AST_DMA_COPY:
	case AST_SEM_SIGNAL: case AST_SEM_WAIT:
		kernel_only(S, x, out);
		break;
	default:
		break;	/* AST_ERROR: reported by the parser */
	}
}

void
body_check(Sema *S, const Ast *block, CBlock *out)
{
	int i;

	if (!block)
		return;
	if (block->kind != AST_BLOCK) {
		stmt(S, block, out);
		return;
	}
	for (i = 0; i < block->u.list.n; i++)
		stmt(S, block->u.list.v[i], out);
}
