/*
 * pass_layout.c - layout assignment (hlo.md 3.4): every array value gets
 * an explicit minor_to_major.  Gives hlo_pass_layout (pass.h); needs
 * hlo_edit.c for the copies it inserts and the preset's lane count for
 * one TPU preference.
 *
 * Constraints, never broken (a copy is inserted instead):
 *   - the entry's parameters and result are laid out as
 *     entry_computation_layout says (else as written, else {n-1,...,0});
 *   - elementwise ops, slice, concatenate, pad, reverse and the dynamic
 *     slices read their same-rank operands in their result's layout;
 *   - a dot reads its lhs with the batch dimensions major and the
 *     contracting ones minor (the rows the MXU streams), its rhs with the
 *     batch dimensions major and either the contracting or the free
 *     dimensions minor (weights are pushed either way);
 *   - a custom-call reads its operands as operand_layout_constraints says,
 *     or else as they were given; opcodes this pass does not know keep
 *     their layouts and read their operands as given;
 *   - a fusion's or call's computation sees its operands' layouts.
 * Preferences decide the rest.  Each value carries a wish, the layout its
 * users would like, propagated backwards through the ops that keep
 * layouts.  Then, in def-before-use order, the ops that can produce any
 * layout (dot, transpose, reshape, reduce, copy) take their wish;
 * broadcasts, constants and iotas take the layout their first user
 * needs; an elementwise op takes an operand's layout.  A transpose nobody
 * wishes otherwise becomes a pure relabelling of its operand's order (the
 * layout-changing transpose of XLA), a reduce keeps its operand's order.
 *
 * No bitcast is created: every rewrite keeps the values, since the
 * evaluator ignores layouts.  Tiles are the next pass's (pass_tiling.c).
 */
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

/* A minor_to_major; n = -1 means none. */
typedef struct Perm {
	int n;
	int d[HLO_MAXRANK];
} Perm;

/* Wish priorities: a stronger wish replaces a weaker one. */
enum { W_NONE = -1, W_MXU, W_REDUCE, W_GIVEN, W_FIXED };

typedef struct CopyMemo {
	int from, to;
	Perm p;
} CopyMemo;

typedef struct LA {
	HloModule *m;
	int lanes;
	char *compdone;
	int changed;
} LA;

/* One computation being assigned. */
typedef struct CS {
	LA *la;
	HloComp *c;
	int n;			/* instructions before the pass added any */
	Perm *wish;
	int *prio;
	char *done;		/* result layout decided */
	HloShape *orig;		/* shapes as written */
	VEC(CopyMemo) memo;	/* copies made, one per value and layout */
	Arena a;
} CS;

static void la_comp(LA *la, int ci, const HloShape *params,
    const HloShape *rootreq);

/* ------------------------------------------------------------ perms */

static int
is_array(const HloShape *s)
{
	return s->type != HT_TUPLE && s->type != HT_TOKEN &&
	    s->type != HT_NONE;
}

static Perm
perm_none(void)
{
	Perm p;

	memset(&p, 0, sizeof p);
	p.n = -1;
	return p;
}

static Perm
perm_default(int rank)
{
	Perm p;
	int i;

	p.n = rank;
	for (i = 0; i < rank; i++)
		p.d[i] = rank - 1 - i;
	return p;
}

/* 1 if the array's layout is written out in full. */
static int
explicit(const HloShape *s)
{
	return s->layout.has && s->layout.nm2m == s->rank;
}

/* The array's minor_to_major; absent means the default. */
static Perm
perm_of(const HloShape *s)
{
	Perm p;

	if (!explicit(s))
		return perm_default(s->rank);
	p.n = s->rank;
	memcpy(p.d, s->layout.m2m, sizeof(int) * (size_t)s->rank);
	return p;
}

static int
perm_eq(const Perm *a, const Perm *b)
{
	return a->n == b->n &&
	    !memcmp(a->d, b->d, sizeof(int) * (size_t)(a->n > 0 ? a->n : 0));
}

/*
 * Gives array s the order p.  An order that changes drops the tiles and
 * other suffixes that described the old one; the memory space stays.
 */
static void
set_perm(LA *la, HloShape *s, const Perm *p)
{
	HloLayout *l = &s->layout;

	if (s->rank == 0 || p->n != s->rank)
		return;
	if (explicit(s) && !memcmp(l->m2m, p->d, sizeof(int) *
	    (size_t)p->n))
		return;
	l->has = 1;
	l->nm2m = p->n;
	memcpy(l->m2m, p->d, sizeof(int) * (size_t)p->n);
	l->ntile = 0;
	l->mid = l->post = NULL;
	la->changed = 1;
}

/* 1 if every array of a is explicitly laid out as the same array of b. */
static int
fits(const HloShape *a, const HloShape *b)
{
	Perm pa, pb;
	int i;

	if (a->type == HT_TUPLE || b->type == HT_TUPLE) {
		if (a->type != b->type || a->ntuple != b->ntuple)
			return a->type != b->type;	/* not comparable */
		for (i = 0; i < a->ntuple; i++)
			if (!fits(&a->elem[i], &b->elem[i]))
				return 0;
		return 1;
	}
	if (!is_array(a) || a->rank == 0 || a->rank != b->rank)
		return 1;
	pa = perm_of(a);
	pb = perm_of(b);
	return explicit(a) && perm_eq(&pa, &pb);
}

/*
 * Lays out every array of dst as the same array of src.  Tuple element
 * arrays may be shared with other shapes: a tuple that changes gets its
 * own copy first.
 */
static void
set_shape(LA *la, HloShape *dst, const HloShape *src)
{
	HloShape *e;
	int i;
	Perm p;

	if (fits(dst, src))
		return;
	if (dst->type == HT_TUPLE) {
		e = arena_alloc(la->m->arena, sizeof *e * (size_t)dst->ntuple);
		memcpy(e, dst->elem, sizeof *e * (size_t)dst->ntuple);
		dst->elem = e;
		for (i = 0; i < dst->ntuple; i++)
			set_shape(la, &dst->elem[i], &src->elem[i]);
		return;
	}
	p = perm_of(src);
	set_perm(la, dst, &p);
}

/*
 * s with every array laid out as in first, else as in second (NULL: no
 * second), else by default; first may be NULL or of another structure.
 */
static HloShape
merged(Arena *a, const HloShape *first, const HloShape *second,
    const HloShape *s)
{
	HloShape r = *s;
	int i, t1, t2;

	if (s->type == HT_TUPLE) {
		t1 = first && first->type == HT_TUPLE &&
		    first->ntuple == s->ntuple;
		t2 = second && second->type == HT_TUPLE &&
		    second->ntuple == s->ntuple;
		r.elem = arena_alloc(a, sizeof *r.elem * (size_t)s->ntuple);
		for (i = 0; i < s->ntuple; i++)
			r.elem[i] = merged(a, t1 ? &first->elem[i] : NULL,
			    t2 ? &second->elem[i] : NULL, &s->elem[i]);
		return r;
	}
	if (!is_array(s) || s->rank == 0)
		return r;
	if (first && first->type == s->type && first->rank == s->rank &&
	    explicit(first))
		r.layout = first->layout;
	else if (second && second->rank == s->rank && explicit(second))
		r.layout = second->layout;
	else {
		Perm p = perm_default(s->rank);
		memset(&r.layout, 0, sizeof r.layout);
		r.layout.has = 1;
		r.layout.nm2m = p.n;
		memcpy(r.layout.m2m, p.d, sizeof(int) * (size_t)p.n);
	}
	return r;
}

/* ------------------------------------------------------ the ops' rules */

static int
in_ints(const HloInts *x, int d)
{
	int i;

	for (i = 0; i < x->n; i++)
		if (x->v[i] == d)
			return 1;
	return 0;
}

/* 1 if the |x| most minor dimensions of p are those of x. */
static int
minor_in(const Perm *p, const HloInts *x)
{
	int i;

	for (i = 0; i < x->n && i < p->n; i++)
		if (!in_ints(x, p->d[i]))
			return 0;
	return 1;
}

/* 1 if the k most minor dimensions of p are in neither b nor c. */
static int
minor_free(const Perm *p, int k, const HloInts *b, const HloInts *c)
{
	int i;

	for (i = 0; i < k; i++)
		if (in_ints(b, p->d[i]) || in_ints(c, p->d[i]))
			return 0;
	return 1;
}

/* 1 if the batch dimensions b are p's most major ones. */
static int
batch_major(const Perm *p, const HloInts *b)
{
	int i;

	for (i = p->n - b->n; i < p->n; i++)
		if (!in_ints(b, p->d[i]))
			return 0;
	return 1;
}

/*
 * The order a dot wants for operand k: major to minor, the batch
 * dimensions, then for the lhs its free dimensions and the contracting
 * ones, for the rhs the contracting ones and its free dimensions.
 */
static Perm
dot_canon(const HloInstr *dot, int k, int rank)
{
	const HloInts *b = &dot->dot[k ? DOT_RHS_BATCH : DOT_LHS_BATCH];
	const HloInts *c = &dot->dot[k ? DOT_RHS_CONTRACT : DOT_LHS_CONTRACT];
	int order[HLO_MAXRANK], n = 0, i, d;
	Perm p;

	for (i = 0; i < b->n; i++)
		order[n++] = (int)b->v[i];
	if (k)
		for (i = 0; i < c->n; i++)
			order[n++] = (int)c->v[i];
	for (d = 0; d < rank; d++)
		if (!in_ints(b, d) && !in_ints(c, d))
			order[n++] = d;
	if (!k)
		for (i = 0; i < c->n; i++)
			order[n++] = (int)c->v[i];
	p.n = rank;
	for (i = 0; i < rank; i++)
		p.d[i] = order[rank - 1 - i];
	return p;
}

/* 1 if dot operand k in order p can go to the MXU as it is. */
static int
dot_ok(const HloInstr *dot, int k, const Perm *p)
{
	const HloInts *b = &dot->dot[k ? DOT_RHS_BATCH : DOT_LHS_BATCH];
	const HloInts *c = &dot->dot[k ? DOT_RHS_CONTRACT : DOT_LHS_CONTRACT];

	if (b->n + c->n > p->n || !batch_major(p, b))
		return 0;
	return minor_in(p, c) ||
	    (k && minor_free(p, p->n - b->n - c->n, b, c));
}

static int
is_perm(const Perm *p)
{
	unsigned seen = 0;
	int i;

	for (i = 0; i < p->n; i++) {
		if (p->d[i] < 0 || p->d[i] >= p->n || (seen & 1u << p->d[i]))
			return 0;
		seen |= 1u << p->d[i];
	}
	return 1;
}

/*
 * operand_layout_constraints={f32[4,8]{0,1}, f32[8]{0}}: the order of
 * operand k into *p, or 0 if the text gives none for it (a tuple, say).
 */
static int
parse_constraint(const char *q, Perm *p)
{
	int rank = 0, n = 0, v;

	while (*q == ' ')
		q++;
	if (*q == '(')
		return 0;
	while (*q && *q != '[' && *q != ',' && *q != '}')
		q++;
	if (*q != '[')
		return 0;
	for (q++; *q && *q != ']'; q++)
		if (*q == ',' || (!rank && *q != ' '))
			rank++;
	if (*q != ']' || rank > HLO_MAXRANK)
		return 0;
	*p = perm_default(rank);
	if (*++q != '{')
		return 1;
	for (q++; *q >= '0' && *q <= '9' && n < rank; n++) {
		for (v = 0; *q >= '0' && *q <= '9'; q++)
			v = v * 10 + (*q - '0');
		p->d[n] = v;
		q += *q == ',';
	}
	return n == rank && is_perm(p);
}

static int
constraint(const HloInstr *in, int k, Perm *p)
{
	const char *q = NULL;
	int i, e = 0, depth = 0;

	for (i = 0; i < in->attrs.n; i++)
		if (strcmp(in->attrs.v[i].name, "operand_layout_constraints") ==
		    0)
			q = in->attrs.v[i].value;
	if (!q || *q != '{')
		return 0;
	for (q++; *q; q++) {
		if (e == k)
			return parse_constraint(q, p);
		for (; *q && !(depth == 0 && (*q == ',' || *q == '}')); q++)
			depth += (*q == '{' || *q == '[' || *q == '(') -
			    (*q == '}' || *q == ']' || *q == ')');
		if (*q != ',')
			return 0;
		e++;
	}
	return 0;
}

/* Opcodes whose same-rank operands are read in the result's layout. */
static int
keeps_layout(HloOp op)
{
	switch (op) {
	case HLO_COPY:
		return 0;
	case HLO_COMPARE: case HLO_SELECT: case HLO_CLAMP: case HLO_CONVERT:
	case HLO_IS_FINITE: case HLO_SLICE: case HLO_CONCATENATE:
	case HLO_PAD: case HLO_REVERSE: case HLO_DYNAMIC_SLICE:
	case HLO_DYNAMIC_UPDATE_SLICE:
		return 1;
	default:
		return hlo_op_class(op) == HC_UNARY ||
		    hlo_op_class(op) == HC_BINARY;
	}
}

/* Opcodes with rules below; the others are opaque. */
static int
known(HloOp op)
{
	switch (op) {
	case HLO_PARAMETER: case HLO_CONSTANT: case HLO_IOTA:
	case HLO_BROADCAST: case HLO_COPY: case HLO_TRANSPOSE:
	case HLO_RESHAPE: case HLO_REDUCE: case HLO_DOT: case HLO_TUPLE:
	case HLO_GTE: case HLO_FUSION: case HLO_CALL: case HLO_CUSTOM_CALL:
		return 1;
	default:
		return keeps_layout(op);
	}
}

/* Cheap to produce in any layout: they take their first user's. */
static int
adopts(HloOp op)
{
	return op == HLO_CONSTANT || op == HLO_IOTA || op == HLO_BROADCAST;
}

/* ----------------------------------------------------------- wishes */

static HloInstr *
I(const CS *s, int i)
{
	return s->c->instr.v[i];
}

static void
offer(CS *s, int v, const Perm *p, int prio)
{
	if (v >= s->n || !is_array(&s->orig[v]) || p->n != s->orig[v].rank ||
	    prio <= s->prio[v])
		return;
	s->wish[v] = *p;
	s->prio[v] = prio;
}

/* Offers the arrays of shape to v (through a tuple instruction). */
static void
offer_shape(CS *s, int v, const HloShape *shape, int prio)
{
	HloInstr *in = I(s, v);
	int k;
	Perm p;

	if (shape->type == HT_TUPLE) {
		if (in->op == HLO_TUPLE && in->noperand == shape->ntuple)
			for (k = 0; k < in->noperand; k++)
				offer_shape(s, in->operand[k], &shape->elem[k],
				    prio);
		return;
	}
	p = perm_of(shape);
	offer(s, v, &p, prio);
}

static int
reduced(const HloInstr *in, int d)
{
	return in_ints(&in->dims, d);
}

/*
 * A reduce over the minor dimension is a cross-lane (XLU) reduction on
 * the TPU.  With a kept dimension that fills whole rows of lanes placed
 * minor instead, it becomes elementwise work across vregs: XLA lays the
 * attention scores [8,2048,2048] reduced over 2 out as {1,2,0}.
 */
static void
reduce_wish(CS *s, const HloInstr *in)
{
	const HloShape *a = &s->orig[in->operand[0]];
	int r = a->rank, k, d, j, i;
	Perm p;

	if (!is_array(a) || r < 2 || !reduced(in, r - 1))
		return;
	for (k = r - 2; k >= 0 && reduced(in, k); k--)
		;
	if (k < 0 || a->dim[k] < s->la->lanes || a->dim[k] % s->la->lanes)
		return;
	p.n = r;
	p.d[0] = k;
	for (d = r - 1, j = 1; d >= 0; d--)
		if (d != k)
			p.d[j++] = d;
	for (i = 0; i < in->noperand / 2; i++)
		offer(s, in->operand[i], &p, W_REDUCE);
}

/* What the users of instruction i wish for its operands. */
static void
pass_wishes(CS *s, int i)
{
	HloInstr *in = I(s, i);
	const Perm *w = &s->wish[i];
	int k, pr = s->prio[i];
	Perm p;

	if (keeps_layout(in->op) && pr > W_NONE) {
		for (k = 0; k < in->noperand; k++)
			offer(s, in->operand[k], w, pr);
	} else if (in->op == HLO_TRANSPOSE && pr > W_NONE &&
	    in->dims.n == w->n) {
		/* result dimension j is operand dimension dims[j] */
		p.n = w->n;
		for (k = 0; k < w->n; k++)
			p.d[k] = (int)in->dims.v[w->d[k]];
		offer(s, in->operand[0], &p, pr);
	} else if (in->op == HLO_REDUCE) {
		reduce_wish(s, in);
	} else if (in->op == HLO_DOT) {
		for (k = 0; k < 2; k++) {
			p = dot_canon(in, k, s->orig[in->operand[k]].rank);
			offer(s, in->operand[k], &p, W_MXU);
		}
	} else if (in->op == HLO_CUSTOM_CALL || !known(in->op)) {
		for (k = 0; k < in->noperand; k++) {
			int v = in->operand[k];
			if (in->op == HLO_CUSTOM_CALL && constraint(in, k, &p))
				offer(s, v, &p, W_FIXED);
			else
				offer_shape(s, v, &s->orig[v], W_GIVEN);
		}
	}
}

/* -------------------------------------------------- results, copies */

static int
pending(const CS *s, int v)
{
	return v < s->n && !s->done[v];
}

static void
fix(CS *s, int v, const Perm *p)
{
	set_perm(s->la, &I(s, v)->shape, p);
	if (v < s->n)
		s->done[v] = 1;
}

/* Decides a deferred value now: its wish, else the default. */
static void
settle(CS *s, int v)
{
	Perm p;

	if (!pending(s, v))
		return;
	p = s->prio[v] > W_NONE ? s->wish[v] :
	    perm_default(I(s, v)->shape.rank);
	fix(s, v, &p);
}

/* The value v laid out as p: v itself, or a copy of it. */
static int
as_perm(CS *s, int v, const Perm *p)
{
	HloShape sh = I(s, v)->shape;
	Perm q;
	CopyMemo cm;
	int i;

	if (!is_array(&sh) || sh.rank == 0 || p->n != sh.rank)
		return v;
	if (pending(s, v)) {
		fix(s, v, p);
		return v;
	}
	q = perm_of(&sh);
	if (perm_eq(&q, p))
		return v;
	for (i = 0; i < s->memo.n; i++)
		if (s->memo.v[i].from == v && perm_eq(&s->memo.v[i].p, p))
			return s->memo.v[i].to;
	memset(&sh.layout, 0, sizeof sh.layout);
	sh.layout.memspace = I(s, v)->shape.layout.memspace;
	set_perm(s->la, &sh, p);
	hlo_add(s->la->m, s->c, HLO_COPY, &sh, &v, 1);
	s->la->changed = 1;
	cm.from = v;
	cm.to = s->c->instr.n - 1;
	cm.p = *p;
	vec_push(&s->a, &s->memo, cm);
	return cm.to;
}

/* The value v laid out as shape says: v, a copy, or a rebuilt tuple. */
static int
as_shape(CS *s, int v, const HloShape *want)
{
	HloShape *t = &I(s, v)->shape, *el, tu;
	HloInstr *g;
	int k, n, *ops;
	Perm p;

	if (want->type != HT_TUPLE) {
		if (!is_array(want) || t->type == HT_TUPLE)
			return v;
		p = perm_of(want);
		return as_perm(s, v, &p);
	}
	if (t->type != HT_TUPLE || t->ntuple != want->ntuple || fits(t, want))
		return v;
	n = want->ntuple;
	ops = arena_alloc(&s->a, sizeof(int) * (size_t)n);
	el = arena_alloc(&s->a, sizeof *el * (size_t)n);
	for (k = 0; k < n; k++) {
		g = hlo_add(s->la->m, s->c, HLO_GTE, &I(s, v)->shape.elem[k],
		    &v, 1);
		g->num = k;
		ops[k] = as_shape(s, s->c->instr.n - 1, &want->elem[k]);
		el[k] = I(s, ops[k])->shape;
	}
	tu = hlo_shape_tuple(s->la->m->arena, el, n);
	hlo_add(s->la->m, s->c, HLO_TUPLE, &tu, ops, n);
	s->la->changed = 1;
	return s->c->instr.n - 1;
}

/* The layout v was written with, the default where it had none. */
static HloShape
given(CS *s, int v)
{
	return merged(&s->a, NULL, NULL, &s->orig[v]);
}

/* ------------------------------------------------- per-opcode rules */

static void
assign_same(CS *s, int i)
{
	HloInstr *in = I(s, i);
	const Perm *w = &s->wish[i];
	int k, have = 0, r = in->shape.rank;
	Perm pick, q;

	if (!is_array(&in->shape))
		return;
	for (k = 0; k < in->noperand; k++) {
		int v = in->operand[k];
		if (I(s, v)->shape.rank != r || !is_array(&I(s, v)->shape) ||
		    pending(s, v))
			continue;
		q = perm_of(&I(s, v)->shape);
		if (!have)
			pick = q, have = 1;
		if (s->prio[i] > W_NONE && perm_eq(&q, w)) {
			pick = q;
			break;
		}
	}
	if (!have)
		pick = s->prio[i] > W_NONE ? *w : perm_default(r);
	fix(s, i, &pick);
	for (k = 0; k < in->noperand; k++)
		if (I(s, in->operand[k])->shape.rank == r)
			in->operand[k] = as_perm(s, in->operand[k], &pick);
}

/* Copy, reshape: the wish, else (copy) the operand's order. */
static void
assign_free(CS *s, int i)
{
	HloInstr *in = I(s, i);
	int v = in->operand[0];
	Perm p;

	settle(s, v);
	if (s->prio[i] > W_NONE)
		p = s->wish[i];
	else if (in->op == HLO_COPY && I(s, v)->shape.type != HT_TUPLE)
		p = perm_of(&I(s, v)->shape);
	else
		p = perm_default(in->shape.rank);
	fix(s, i, &p);
}

/* Without a wish, the operand's memory order under new names. */
static void
assign_transpose(CS *s, int i)
{
	HloInstr *in = I(s, i);
	int v = in->operand[0], inv[HLO_MAXRANK], k;
	Perm p, q;

	settle(s, v);
	q = perm_of(&I(s, v)->shape);
	if (s->prio[i] > W_NONE || in->dims.n != q.n) {
		assign_free(s, i);
		return;
	}
	for (k = 0; k < q.n; k++)
		inv[in->dims.v[k]] = k;
	p.n = q.n;
	for (k = 0; k < q.n; k++)
		p.d[k] = inv[q.d[k]];
	fix(s, i, &p);
}

/* The operand's order with the reduced dimensions left out. */
static Perm
reduce_result(const HloInstr *in, const HloShape *a)
{
	int newidx[HLO_MAXRANK], d, k, j = 0;
	Perm q = perm_of(a), p;

	for (d = 0; d < a->rank; d++)
		newidx[d] = reduced(in, d) ? -1 : j++;
	p.n = j;
	for (k = 0, j = 0; k < q.n; k++)
		if (newidx[q.d[k]] >= 0)
			p.d[j++] = newidx[q.d[k]];
	return p;
}

static void
assign_reduce(CS *s, int i)
{
	HloInstr *in = I(s, i);
	int n = in->noperand / 2, k;
	Perm p, p0;
	HloShape want;

	for (k = 0; k < in->noperand; k++)
		settle(s, in->operand[k]);
	p0 = perm_of(&I(s, in->operand[0])->shape);
	for (k = 1; k < n; k++)
		in->operand[k] = as_perm(s, in->operand[k], &p0);
	if (in->shape.type != HT_TUPLE) {
		p = s->prio[i] > W_NONE ? s->wish[i] :
		    reduce_result(in, &I(s, in->operand[0])->shape);
		fix(s, i, &p);
		return;
	}
	want = merged(&s->a, NULL, NULL, &in->shape);
	for (k = 0; k < want.ntuple && k < n; k++) {
		p = reduce_result(in, &I(s, in->operand[k])->shape);
		set_perm(s->la, &want.elem[k], &p);
	}
	set_shape(s->la, &in->shape, &want);
	s->done[i] = 1;
}

static void
assign_dot(CS *s, int i)
{
	HloInstr *in = I(s, i);
	int k;
	Perm p;

	for (k = 0; k < 2; k++) {
		int v = in->operand[k];
		p = dot_canon(in, k, I(s, v)->shape.rank);
		if (pending(s, v))
			fix(s, v, &p);
		else {
			Perm q = perm_of(&I(s, v)->shape);
			if (!dot_ok(in, k, &q))
				in->operand[k] = as_perm(s, v, &p);
		}
	}
	p = s->prio[i] > W_NONE ? s->wish[i] : perm_default(in->shape.rank);
	fix(s, i, &p);
}

static void
assign_tuple(CS *s, int i)
{
	HloInstr *in = I(s, i);
	HloShape want = in->shape;
	int k;

	if (in->shape.type != HT_TUPLE || in->shape.ntuple != in->noperand) {
		s->done[i] = 1;
		return;
	}
	want.elem = arena_alloc(&s->a, sizeof *want.elem *
	    (size_t)in->noperand);
	for (k = 0; k < in->noperand; k++) {
		settle(s, in->operand[k]);
		want.elem[k] = I(s, in->operand[k])->shape;
	}
	set_shape(s->la, &in->shape, &want);
	s->done[i] = 1;
}

static void
assign_gte(CS *s, int i)
{
	HloInstr *in = I(s, i);
	const HloShape *t = &I(s, in->operand[0])->shape;

	if (t->type == HT_TUPLE && in->num >= 0 && in->num < t->ntuple)
		set_shape(s->la, &in->shape, &t->elem[in->num]);
	s->done[i] = 1;
}

/* Keeps the result as given; operands as given or as constrained. */
static void
assign_opaque(CS *s, int i)
{
	HloInstr *in = I(s, i);
	HloShape want = given(s, i);
	int k;
	Perm p;

	set_shape(s->la, &in->shape, &want);
	s->done[i] = 1;
	for (k = 0; k < in->noperand; k++) {
		int v = in->operand[k];
		if (in->op == HLO_CUSTOM_CALL && constraint(in, k, &p))
			in->operand[k] = as_perm(s, v, &p);
		else {
			want = given(s, v);
			in->operand[k] = as_shape(s, v, &want);
		}
	}
}

/*
 * A fusion or call: its computation is laid out for the operands of its
 * first caller; later callers copy their operands to match.
 */
static void
assign_call(CS *s, int i)
{
	HloInstr *in = I(s, i);
	LA *la = s->la;
	HloComp *cal;
	HloShape *ps;
	int k;

	if (in->callee < 0 || in->callee >= la->m->comp.n ||
	    la->m->comp.v[in->callee]->nparam != in->noperand) {
		assign_opaque(s, i);
		return;
	}
	cal = la->m->comp.v[in->callee];
	for (k = 0; k < in->noperand; k++)
		settle(s, in->operand[k]);
	if (!la->compdone[in->callee]) {
		ps = arena_alloc(&s->a, sizeof *ps *
		    (size_t)(in->noperand + 1));
		for (k = 0; k < in->noperand; k++)
			ps[k] = I(s, in->operand[k])->shape;
		la_comp(la, in->callee, ps, NULL);
	} else
		for (k = 0; k < in->noperand; k++)
			in->operand[k] = as_shape(s, in->operand[k],
			    &hlo_param(cal, k)->shape);
	set_shape(la, &in->shape, &cal->instr.v[cal->root]->shape);
	s->done[i] = 1;
}

static void
assign(CS *s, int i)
{
	HloInstr *in = I(s, i);

	if (adopts(in->op)) {
		/* deferred to the first user, unless nobody can want more */
		if (!is_array(&in->shape) || in->shape.rank == 0)
			s->done[i] = 1;
		return;
	}
	switch (in->op) {
	case HLO_COPY: case HLO_RESHAPE:
		if (in->shape.type == HT_TUPLE)
			assign_opaque(s, i);
		else
			assign_free(s, i);
		return;
	case HLO_TRANSPOSE: assign_transpose(s, i); return;
	case HLO_REDUCE: assign_reduce(s, i); return;
	case HLO_DOT: assign_dot(s, i); return;
	case HLO_TUPLE: assign_tuple(s, i); return;
	case HLO_GTE: assign_gte(s, i); return;
	case HLO_FUSION: case HLO_CALL: assign_call(s, i); return;
	default:
		if (keeps_layout(in->op) && in->shape.type != HT_TUPLE) {
			assign_same(s, i);
			s->done[i] = 1;
		} else
			assign_opaque(s, i);
	}
}

/* ------------------------------------------------------ computations */

/*
 * Lays out computation ci.  params: its parameters' shapes (NULL: as
 * written); rootreq: the root's (NULL: free, the caller adapts).
 */
static void
la_comp(LA *la, int ci, const HloShape *params, const HloShape *rootreq)
{
	CS s;
	HloComp *c = la->m->comp.v[ci];
	int i, n = c->instr.n;

	memset(&s, 0, sizeof s);
	la->compdone[ci] = 1;
	s.la = la;
	s.c = c;
	s.n = n;
	s.wish = arena_alloc(&s.a, sizeof *s.wish * (size_t)(n + 1));
	s.prio = arena_alloc(&s.a, sizeof *s.prio * (size_t)(n + 1));
	s.done = arena_alloc(&s.a, (size_t)n + 1);
	s.orig = arena_alloc(&s.a, sizeof *s.orig * (size_t)(n + 1));
	for (i = 0; i < n; i++) {
		s.orig[i] = c->instr.v[i]->shape;
		s.wish[i] = perm_none();
		s.prio[i] = W_NONE;
	}
	if (rootreq && c->root >= 0)
		offer_shape(&s, c->root, rootreq, W_FIXED);
	for (i = n - 1; i >= 0; i--)
		pass_wishes(&s, i);
	for (i = 0; i < n; i++) {
		HloInstr *in = c->instr.v[i];
		HloShape want;
		if (in->op != HLO_PARAMETER)
			continue;
		want = params && in->num >= 0 && in->num < c->nparam ?
		    merged(&s.a, &params[in->num], NULL, &in->shape) :
		    given(&s, i);
		set_shape(la, &in->shape, &want);
		s.done[i] = 1;
	}
	for (i = 0; i < n; i++)
		if (!s.done[i])
			assign(&s, i);
	if (rootreq && c->root >= 0)
		c->root = as_shape(&s, c->root, rootreq);
	for (i = 0; i < n; i++)
		settle(&s, i);
	arena_free(&s.a);
}

/* The entry: parameters and result as entry_computation_layout says. */
static void
la_entry(LA *la)
{
	HloModule *m = la->m;
	HloComp *e = m->comp.v[m->entry];
	const HloShape *ecl;
	HloShape *ps, root;
	Arena a = {0};
	int i;

	ps = arena_alloc(&a, sizeof *ps * (size_t)(e->nparam + 1));
	for (i = 0; i < e->nparam; i++) {
		const HloInstr *p = hlo_param(e, i);
		ecl = m->has_ecl && i < m->ecl_param.n ? &m->ecl_param.v[i] :
		    NULL;
		if (p)
			ps[i] = merged(&a, ecl, &p->shape, &p->shape);
	}
	root = e->instr.v[e->root]->shape;
	root = merged(&a, m->has_ecl ? &m->ecl_result : NULL, &root, &root);
	la_comp(la, m->entry, ps, &root);
	if (m->has_ecl) {
		for (i = 0; i < e->nparam && i < m->ecl_param.n; i++)
			if (hlo_param(e, i))
				set_shape(la, &m->ecl_param.v[i],
				    &hlo_param(e, i)->shape);
		set_shape(la, &m->ecl_result, &e->instr.v[e->root]->shape);
	}
	arena_free(&a);
}

/*
 * Orders c so operands come first, keeping the text order where it holds
 * and every instruction, dead or not (dead code is the dce pass's).
 * Returns 1 if the order changed.
 */
static int
order(HloComp *c)
{
	int n = c->instr.n, i, k, top, changed = 0, no = 0;
	Arena a = {0};
	char *st = arena_alloc(&a, (size_t)n + 1);	/* 1 open, 2 placed */
	int *stack = arena_alloc(&a, sizeof(int) * (size_t)(n + 1));
	int *newidx = arena_alloc(&a, sizeof(int) * (size_t)(n + 1));
	HloInstr **old = arena_alloc(&a, sizeof *old * (size_t)(n + 1));

	memcpy(old, c->instr.v, sizeof *old * (size_t)n);
	for (i = 0; i < n; i++) {
		if (st[i])
			continue;
		stack[0] = i;
		st[i] = 1;
		top = 1;
		while (top > 0) {
			HloInstr *in = old[stack[top - 1]];
			for (k = 0; k < in->noperand; k++)
				if (!st[in->operand[k]])
					break;
			if (k < in->noperand) {
				st[stack[top++] = in->operand[k]] = 1;
				continue;
			}
			st[stack[--top]] = 2;
			newidx[stack[top]] = no;
			changed |= stack[top] != no;
			c->instr.v[no++] = in;
		}
	}
	if (changed) {
		for (i = 0; i < n; i++)
			for (k = 0; k < old[i]->noperand; k++)
				old[i]->operand[k] = newidx[old[i]->operand[k]];
		if (c->root >= 0)
			c->root = newidx[c->root];
	}
	arena_free(&a);
	return changed;
}

/*
 * A bitcast written between row-major shapes, before any layout was
 * chosen, means what a reshape means; as a reshape it stays right
 * whatever layouts its operand and result get.
 */
static int
bitcasts_to_reshapes(HloModule *m)
{
	int j, i, changed = 0;

	for (j = 0; j < m->comp.n; j++) {
		HloComp *c = m->comp.v[j];
		for (i = 0; i < c->instr.n; i++) {
			HloInstr *in = c->instr.v[i];
			const HloShape *a;
			if (in->op != HLO_BITCAST || in->noperand != 1)
				continue;
			a = &c->instr.v[in->operand[0]]->shape;
			if (is_array(&in->shape) && a->type == in->shape.type &&
			    hlo_layout_is_default(&in->shape.layout,
			    in->shape.rank) &&
			    hlo_layout_is_default(&a->layout, a->rank)) {
				in->op = HLO_RESHAPE;
				changed = 1;
			}
		}
	}
	return changed;
}

int
hlo_pass_layout(HloModule *m, HloPassCtx *cx)
{
	LA la;
	Arena a = {0};
	int j, changed = 0;

	memset(&la, 0, sizeof la);
	la.m = m;
	la.lanes = cx->mp ? cx->mp->lanes : 128;
	la.compdone = arena_alloc(&a, (size_t)m->comp.n + 1);
	changed |= bitcasts_to_reshapes(m);
	/* the rules read operands before users */
	for (j = 0; j < m->comp.n; j++)
		changed |= order(m->comp.v[j]);
	if (m->entry >= 0 && m->comp.v[m->entry]->root >= 0)
		la_entry(&la);
	/* callers come after callees: the rest, outermost first */
	for (j = m->comp.n - 1; j >= 0; j--)
		if (!la.compdone[j] && m->comp.v[j]->root >= 0) {
			HloComp *c = m->comp.v[j];
			HloShape root = merged(&a, NULL, NULL,
			    &c->instr.v[c->root]->shape);
			la_comp(&la, j, NULL, &root);
		}
	/* the copies were appended: move them before their users */
	if (la.changed)
		for (j = 0; j < m->comp.n; j++)
			order(m->comp.v[j]);
	arena_free(&a);
	return changed | la.changed;
}
