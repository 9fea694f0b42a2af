/*
 * lower.c - from func to HLO: the module jax.jit would produce for a
 * checked func.  Owns the module's frame (header, entry_computation_layout,
 * parameters, reducer computations, the entry computation "main.N" last),
 * the names (one id counter over the module, as "dot.5", "region_0.1",
 * "Arg_0.1"), the metadata (op_name "jit(f)/<named labels>/<primitive>",
 * source_file, source_line) and the instruction builders that
 * lower_ops.c uses.  The lets of the func are lowered in source order, so
 * the instruction order follows the program as jax's tracing does; lets
 * the result does not use are left out.
 *
 * Gives:    hlo_from_func(), hlo_type_of_dtype() (lower.h).
 * Tests:    tests/unit/check_hlo_lower.c, tests/golden/hlo/.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/lower_int.h"

HloType
hlo_type_of_dtype(DType t)
{
	switch (t) {
	case DT_F32: return HT_F32;
	case DT_BF16: return HT_BF16;
	case DT_I32: return HT_S32;
	case DT_I8: return HT_S8;
	case DT_BOOL: return HT_PRED;
	default: return HT_NONE;
	}
}

HloShape
lw_shape(HloType t, int rank, const int64_t *dim)
{
	HloShape s = hlo_shape_array(t, rank, dim);
	int i;

	if (rank == 0)
		return s;
	s.layout.has = 1;
	s.layout.nm2m = rank;
	for (i = 0; i < rank; i++)
		s.layout.m2m[i] = rank - 1 - i;
	return s;
}

HloShape
lw_shape_of(const CExpr *e)
{
	return lw_shape(hlo_type_of_dtype(e->dtype), e->shape.rank,
	    e->shape.d);
}

HloInstr *
lw_in(const Lw *L, int i)
{
	return L->c->instr.v[i];
}

HloShape
lw_sh(const Lw *L, int i)
{
	return L->c->instr.v[i]->shape;
}

HloInts
lw_ints(Lw *L, const int64_t *v, int n)
{
	HloInts x;

	x.has = 1;
	x.n = n;
	x.v = arena_alloc(L->m->arena, sizeof *x.v * (size_t)(n + 1));
	if (n)
		memcpy(x.v, v, sizeof *x.v * (size_t)n);
	return x;
}

/* s with '"' and '\' escaped as HLO strings are kept; controls as '?'. */
const char *
lw_escape(Arena *a, const char *s)
{
	Buf b = {0};
	const char *r;

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(&b, '\\');
		buf_putc(&b, (unsigned char)*s < 0x20 ? '?' : *s);
	}
	r = arena_strndup(a, b.p ? b.p : "", b.n);
	buf_free(&b);
	return r;
}

static const char *
intern(Lw *L, const char *s)
{
	return strtab_intern(L->s, s, strlen(s));
}

/* Where the source says it: a macro's expansion, not its definition. */
static Loc
use_site(const SrcMgr *sm, Loc l)
{
	int guard = 0;

	while (l.exp > 0 && l.exp < sm->exp.n && guard++ < 64)
		l = sm->exp.v[l.exp].use;
	return l;
}

static void
metadata(Lw *L, HloInstr *in, const char *prim)
{
	Loc l = use_site(L->d->sm, L->loc);
	const SrcFile *f = l.file ? srcmgr_file(L->d->sm, l.file) : NULL;

	in->meta.has = 1;
	in->meta.op_name = arena_printf(L->m->arena, "%s/%s", L->scope, prim);
	if (f) {
		in->meta.source_file = lw_escape(L->m->arena, f->name);
		in->meta.source_line = l.line;
	}
}

/* A new instruction in computation c named "<base>.<id>". */
static HloInstr *
instr(Lw *L, HloComp *c, HloOp op, const char *base, HloShape sh)
{
	char name[80];
	HloInstr *in;

	snprintf(name, sizeof name, "%s.%d", base, L->next++);
	in = hlo_instr_new(L->m, c, op, intern(L, name));
	in->shape = sh;
	return in;
}

int
lw_emit(Lw *L, HloOp op, HloShape sh, const int *ops, int n,
    const char *prim)
{
	HloInstr *in = instr(L, L->c, op, hlo_op_name(op), sh);

	in->noperand = n;
	in->operand = arena_alloc(L->m->arena, sizeof(int) * (size_t)(n + 1));
	if (n)
		memcpy(in->operand, ops, sizeof(int) * (size_t)n);
	if (prim)
		metadata(L, in, prim);
	return L->c->instr.n - 1;
}

int
lw_const(Lw *L, HloType t, double v)
{
	int i = lw_emit(L, HLO_CONSTANT, lw_shape(t, 0, NULL), NULL, 0, NULL);
	HloInstr *in = lw_in(L, i);

	in->lit.n = 1;
	in->lit.v = arena_alloc(L->m->arena, sizeof *in->lit.v);
	if (!hlo_type_is_float(t))
		in->lit.v[0].i = (int64_t)v;	/* small integers only */
	else
		in->lit.v[0].f = t == HT_F32 ? (double)(float)v :
		    t == HT_BF16 ? (double)hlo_bf16_to_f32(hlo_f32_to_bf16(
		    (float)v)) : v;
	return i;
}

int
lw_broadcast(Lw *L, int x, HloShape sh, const int64_t *dims,
    const char *prim)
{
	int r = lw_emit(L, HLO_BROADCAST, sh, &x, 1, prim);

	lw_in(L, r)->dims = lw_ints(L, dims, lw_sh(L, x).rank);
	return r;
}

int
lw_reshape(Lw *L, int x, HloShape sh, const char *prim)
{
	HloShape xs = lw_sh(L, x);

	if (xs.rank == sh.rank && !memcmp(xs.dim, sh.dim,
	    sizeof xs.dim[0] * (size_t)xs.rank))
		return x;
	return lw_emit(L, HLO_RESHAPE, sh, &x, 1, prim);
}

int
lw_convert(Lw *L, int x, HloType t, const char *prim)
{
	HloShape xs = lw_sh(L, x);

	if (xs.type == t)
		return x;
	return lw_emit(L, HLO_CONVERT, lw_shape(t, xs.rank, xs.dim), &x, 1,
	    prim);
}

/* region_K.N { Arg_0, Arg_1: scalars of t; ROOT combine(Arg_0, Arg_1) } */
static int
region(Lw *L, HloType t, HloOp combine)
{
	char name[64];
	HloComp *r;
	HloInstr *in;
	HloShape s = lw_shape(t, 0, NULL);

	snprintf(name, sizeof name, "region_%d.%d", L->nregion++, L->next++);
	r = hlo_comp_new(L->m, intern(L, name));
	instr(L, r, HLO_PARAMETER, "Arg_0", s)->num = 0;
	instr(L, r, HLO_PARAMETER, "Arg_1", s)->num = 1;
	in = instr(L, r, combine, hlo_op_name(combine), s);
	in->noperand = 2;
	in->operand = arena_alloc(L->m->arena, 2 * sizeof(int));
	in->operand[0] = 0;
	in->operand[1] = 1;
	r->root = 2;
	return L->m->comp.n - 1;
}

int
lw_reduce(Lw *L, int x, int axis, HloOp combine, double init,
    const char *prim)
{
	HloShape xs = lw_sh(L, x), s;
	int64_t d[HLO_MAXRANK], ax = axis;
	int ops[2], i, n = 0, r;

	for (i = 0; i < xs.rank; i++)
		if (i != axis)
			d[n++] = xs.dim[i];
	s = lw_shape(xs.type, n, d);
	ops[0] = x;
	ops[1] = lw_const(L, xs.type, init);
	i = region(L, xs.type, combine);
	r = lw_emit(L, HLO_REDUCE, s, ops, 2, prim);
	lw_in(L, r)->dims = lw_ints(L, &ax, 1);
	lw_in(L, r)->callee = i;
	return r;
}

int
lw_unsupported(Lw *L, const char *what)
{
	diag_error(L->d, L->loc, "%s cannot be lowered to HLO (in func '%s')",
	    what, L->f->name);
	L->failed = 1;
	return -1;
}

static void
params(Lw *L)
{
	const CFunc *f = L->f;
	int i;

	L->param = arena_alloc(L->m->arena, sizeof(int) *
	    (size_t)(f->nparam + 1));
	for (i = 0; i < f->nparam; i++) {
		const CFuncParam *p = &f->param[i];
		HloShape s = lw_shape(hlo_type_of_dtype(p->dtype), p->shape.rank,
		    p->shape.d);
		char base[32];
		HloInstr *in;
		snprintf(base, sizeof base, "Arg_%d", i);
		in = instr(L, L->c, HLO_PARAMETER, base, s);
		in->num = i;
		in->meta.has = 1;
		in->meta.op_name = lw_escape(L->m->arena, p->name);
		L->param[i] = L->c->instr.n - 1;
		vec_push(L->m->arena, &L->m->ecl_param, s);
	}
}

/* ---------------------------------------------------------- reachability */

static size_t
hash(const Lw *L, const CExpr *e)
{
	return (size_t)(((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15ull) &
	    (L->cap - 1);
}

/* The memo slot of e (-1: reachable, not lowered yet), or NULL. */
int *
lw_memo(Lw *L, const CExpr *e, int add)
{
	size_t i, j;

	if (add && (L->n + 1) * 2 > L->cap) {
		const CExpr **ok = L->key;
		int *ov = L->val;
		size_t oc = L->cap;
		L->cap = L->cap ? L->cap * 2 : 64;
		L->key = xcalloc(L->cap, sizeof *L->key);
		L->val = xcalloc(L->cap, sizeof *L->val);
		L->n = 0;
		for (j = 0; j < oc; j++)
			if (ok[j])
				*lw_memo(L, ok[j], 1) = ov[j];
		free(ok);
		free(ov);
	}
	if (!L->cap)
		return NULL;
	for (i = hash(L, e); L->key[i] && L->key[i] != e; i = (i + 1) &
	    (L->cap - 1))
		;
	if (!L->key[i] && !add)
		return NULL;
	if (!L->key[i]) {
		L->key[i] = e;
		L->val[i] = -1;
		L->n++;
	}
	return &L->val[i];
}

/* Marks every node the result uses (iteratively: chains may be long). */
static void
mark(Lw *L, const CExpr *root)
{
	VEC(const CExpr *) work = {0};
	Arena tmp = {0};
	int i;

	vec_push(&tmp, &work, root);
	while (work.n) {
		const CExpr *e = work.v[--work.n];
		if (lw_memo(L, e, 0))
			continue;
		lw_memo(L, e, 1);
		for (i = 0; i < e->n; i++)
			vec_push(&tmp, &work, (const CExpr *)e->arg[i]);
	}
	arena_free(&tmp);
}

/* Lowers the used lets in order, then the result; the root, or -1. */
static int
body(Lw *L)
{
	const CBlock *b = &L->f->body;
	int i, *slot;

	mark(L, L->f->result);
	for (i = 0; i < b->n && !L->failed; i++) {
		const CStmt *st = b->v[i];
		if (st->kind != CS_LET)
			continue;
		slot = lw_memo(L, st->u.let.value, 0);
		if (slot && *slot < 0)
			lw_expr(L, st->u.let.value);
	}
	return L->failed ? -1 : lw_expr(L, L->f->result);
}

HloModule *
hlo_from_func(const CheckedModule *cm, const CFunc *f, Diag *d, Arena *a,
    Strtab *s)
{
	Lw L;
	HloAttr ecl;
	char name[64];
	int root, nerr = d->nerror;

	(void)cm;
	memset(&L, 0, sizeof L);
	L.m = hlo_module_new(a, s);
	L.c = arena_alloc(a, sizeof *L.c);
	L.c->root = -1;
	L.f = f;
	L.d = d;
	L.s = s;
	L.next = 1;
	L.m->name = intern(&L, arena_printf(a, "jit_%s", f->name));
	L.scope = arena_printf(a, "jit(%s)", lw_escape(a, f->name));
	L.loc = f->loc;
	params(&L);
	root = f->result ? body(&L) : -1;
	free(L.key);
	free(L.val);
	if (root < 0 || L.failed)
		return NULL;
	snprintf(name, sizeof name, "main.%d", L.next++);
	L.c->name = intern(&L, name);
	L.c->is_entry = 1;
	L.c->root = root;
	L.c->loc = f->loc;
	vec_push(a, &L.m->comp, L.c);
	L.m->entry = L.m->comp.n - 1;
	L.m->has_ecl = 1;
	L.m->ecl_result = lw_sh(&L, root);
	ecl.name = intern(&L, "entry_computation_layout");
	ecl.value = NULL;
	vec_push(a, &L.m->attrs, ecl);
	if (hlo_verify(L.m, d) != 0 || d->nerror != nerr)
		bug("the HLO module of func '%s' does not verify", f->name);
	return L.m;
}
