/*
 * pass_mof.c - multi-output fusion on the entry computation, after
 * producer/consumer fusion.  A unit is a kLoop/kInput/kOutput fusion, a
 * plain dot or a plain single-input reduce.  Walking the values in
 * def-before-use order (XLA's driver), for each value it first merges
 * sibling units that read it (the value is then read once), then merges
 * the value's own unit into one consumer while other users still read
 * it (producer-consumer): the merged fusion's root is a tuple and the
 * outside users read get-tuple-element.  Sweeps repeat until one merges
 * nothing.
 *
 * Legality: no cycle (no path from one part through an outside
 * instruction to the other), at most one dot, a dot only with epilogue
 * ops, a producer whose outputs are not reduces, no extra outputs on a
 * dot's fusion, siblings both kLoop over one shape or both kInput over
 * one reduce shape, at least one sibling already a fusion.  Profit: the
 * bytes no longer read (the shared operands, or the producer's output
 * the consumer read); the most profitable sibling pair goes first.
 * Values stay bit for bit.
 */
#include <string.h>

#include "graph/pass.h"

enum { K_LOOP, K_INPUT, K_OUTPUT, MAXOUT = 32, MAXU = 32 };

typedef struct Unit {
	int fusion;		/* already a fusion (else a plain op) */
	int dot;		/* computes a dot */
	int kind;		/* K_LOOP, K_INPUT, K_OUTPUT */
	int reduce_out;		/* an output is a reduce or transpose */
	int epilogue;		/* every op may follow a dot */
	const HloShape *out;	/* the first output */
	const HloShape *hero;	/* kInput: the reduce's operand, else out */
	const HloInts *rdims;	/* kInput: the reduce's dimensions */
} Unit;

typedef struct Mz {
	HloModule *m;
	HloComp *c;
	VEC(HloComp *) old;	/* computations merges left uncalled */
	int nsib, npc, ncycle;	/* merges and cycle refusals */
} Mz;

static int
epilogue_op(HloOp op)
{
	HloOpClass k = hlo_op_class(op);

	return k == HC_UNARY || k == HC_BINARY || op == HLO_COMPARE ||
	    op == HLO_SELECT || op == HLO_CLAMP || op == HLO_CONVERT ||
	    op == HLO_BROADCAST || op == HLO_RESHAPE || op == HLO_BITCAST ||
	    op == HLO_PARAMETER || op == HLO_CONSTANT || op == HLO_IOTA ||
	    op == HLO_REDUCE || op == HLO_TUPLE;
}

static int
fusion_unit(const Mz *z, const HloInstr *in, Unit *u)
{
	const HloComp *fc = hlo_fuse_callee(z->m, in);
	int out[MAXOUT], n, k, i;

	if (!fc || !in->kind || fc->root < 0 || (strcmp(in->kind, "kLoop") &&
	    strcmp(in->kind, "kInput") && strcmp(in->kind, "kOutput")))
		return 0;
	if (fc->instr.v[fc->root]->op != HLO_TUPLE &&
	    in->shape.type == HT_TUPLE)
		return 0;
	/* a merge's outputs must fit MAXOUT */
	if (fc->instr.v[fc->root]->op == HLO_TUPLE &&
	    fc->instr.v[fc->root]->noperand > MAXOUT / 2)
		return 0;
	u->fusion = 1;
	u->dot = hlo_fuse_has(fc, HLO_DOT);
	u->kind = u->dot ? K_OUTPUT : strcmp(hlo_fuse_kind(fc), "kInput") ?
	    K_LOOP : K_INPUT;
	u->epilogue = 1;
	for (i = 0; i < fc->instr.n; i++)
		u->epilogue &= epilogue_op(fc->instr.v[i]->op);
	n = hlo_fuse_outputs(fc, out, MAXOUT);
	u->out = u->hero = &fc->instr.v[out[0]]->shape;
	for (k = 0; k < n; k++) {
		const HloInstr *o = fc->instr.v[out[k]];
		if (o->op != HLO_REDUCE && o->op != HLO_TRANSPOSE)
			continue;
		if (!u->reduce_out) {
			u->hero = &fc->instr.v[o->operand[0]]->shape;
			u->rdims = &o->dims;
		}
		u->reduce_out = 1;
	}
	return 1;
}

/* 1 if instruction i of the entry is a unit; its summary in *u. */
static int
unit(const Mz *z, int i, Unit *u)
{
	const HloInstr *in = z->c->instr.v[i];

	memset(u, 0, sizeof *u);
	/* a tuple-valued root would need a new root tuple: left alone */
	if (!hlo_fuse_live(z->c, i) || (z->c->root == i &&
	    in->shape.type == HT_TUPLE))
		return 0;
	if (in->op == HLO_FUSION)
		return fusion_unit(z, in, u);
	u->out = u->hero = &in->shape;
	if (in->op == HLO_DOT) {
		u->dot = 1;
		u->kind = K_OUTPUT;
		return 1;
	}
	if (in->op == HLO_REDUCE && in->noperand == 2 &&
	    in->shape.type != HT_TUPLE) {
		u->kind = K_INPUT;
		u->reduce_out = u->epilogue = 1;
		u->hero = &z->c->instr.v[in->operand[0]]->shape;
		u->rdims = &in->dims;
		return 1;
	}
	return 0;
}

static int
same_dims(const HloShape *a, const HloShape *b)
{
	return a->type != HT_TUPLE && b->type != HT_TUPLE &&
	    a->rank == b->rank &&
	    !memcmp(a->dim, b->dim, sizeof a->dim[0] * (size_t)a->rank);
}

static int
same_ints(const HloInts *a, const HloInts *b)
{
	/* an empty list may have no storage: memcmp wants real pointers */
	return a->n == b->n && (a->n == 0 ||
	    !memcmp(a->v, b->v, sizeof a->v[0] * (size_t)a->n));
}

static int64_t
bytes(const HloShape *s)
{
	int64_t e = hlo_shape_elems(s);

	return e < 0 ? 0 : e * (int64_t)hlo_type_size(s->type);
}

/*
 * 1 if a path of uses leads from instruction 'from' to 'to'.  The users
 * are listed once per question (CSR), so a question costs O(edges).
 */
static int
reaches(const HloComp *c, int from, int to)
{
	Arena a = {0};
	int n = c->instr.n, *start, *user, *fill, *stack, top = 0, i, k;
	int found = 0, ne = 0;
	char *seen;

	start = arena_alloc(&a, sizeof(int) * (size_t)(n + 2));
	fill = arena_alloc(&a, sizeof(int) * (size_t)(n + 1));
	for (i = 0; i < n; i++)
		for (k = 0; k < c->instr.v[i]->noperand; k++, ne++)
			start[c->instr.v[i]->operand[k] + 1]++;
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	user = arena_alloc(&a, sizeof(int) * (size_t)(ne + 1));
	for (i = 0; i < n; i++)
		for (k = 0; k < c->instr.v[i]->noperand; k++) {
			int v = c->instr.v[i]->operand[k];
			user[start[v] + fill[v]++] = i;
		}
	stack = arena_alloc(&a, sizeof(int) * (size_t)(n + 1));
	seen = arena_alloc(&a, (size_t)n + 1);
	stack[top++] = from;
	seen[from] = 1;
	while (top && !found) {
		int v = stack[--top];
		for (k = start[v]; k < start[v + 1] && !found; k++)
			if (!seen[user[k]]) {
				seen[user[k]] = 1;
				found = user[k] == to;
				stack[top++] = user[k];
			}
	}
	arena_free(&a);
	return found;
}

/* 1 if instruction i reads v or a get-tuple-element of v. */
static int
reads_value(const HloComp *c, const HloInstr *in, int v)
{
	int k;

	for (k = 0; k < in->noperand; k++) {
		const HloInstr *o = c->instr.v[in->operand[k]];
		if (in->operand[k] == v || (o->op == HLO_GTE &&
		    o->operand[0] == v))
			return 1;
	}
	return 0;
}

/* Outside users of a's values (a, its GTEs) other than b, into u. */
static int
other_users(const HloComp *c, int a, int b, int *u, int max)
{
	int i, n = 0;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		if (i == b || i == a || (in->op == HLO_GTE &&
		    in->operand[0] == a) || !reads_value(c, in, a))
			continue;
		if (n < max)
			u[n++] = i;
	}
	if (c->root == a && n < max)
		u[n++] = a;
	return n;
}

/* The bytes b reads from a (a's values b names). */
static int64_t
read_bytes(const HloComp *c, int a, int b)
{
	const HloInstr *in = c->instr.v[b];
	int64_t s = 0;
	int k;

	for (k = 0; k < in->noperand; k++) {
		const HloInstr *o = c->instr.v[in->operand[k]];
		if (in->operand[k] == a || (o->op == HLO_GTE &&
		    o->operand[0] == a))
			s += bytes(&o->shape);
	}
	return s;
}

/* Producer-consumer: may unit a join its consumer b, as an output? */
static int
pc_legal(Mz *z, int a, int b)
{
	Unit ua, ub;
	int u[MAXU], n, k;

	if (a == b || !unit(z, a, &ua) || !unit(z, b, &ub) ||
	    !reads_value(z->c, z->c->instr.v[b], a))
		return 0;
	if (ua.reduce_out || ub.kind == K_OUTPUT || (ua.dot && ub.dot) ||
	    (ua.dot && !ub.epilogue) || !same_dims(ua.out, ub.hero))
		return 0;
	n = other_users(z->c, a, b, u, MAXU);
	if (n == 0)
		return 0;
	for (k = 0; k < n; k++)
		if (u[k] != a && reaches(z->c, u[k], b)) {
			z->ncycle++;
			return 0;
		}
	return read_bytes(z->c, a, b) > 0;
}

/* Bytes of the non-scalar operands a and b both read. */
static int64_t
shared_bytes(const HloComp *c, int a, int b)
{
	const HloInstr *x = c->instr.v[a], *y = c->instr.v[b];
	int64_t s = 0;
	int i, j, k;

	for (i = 0; i < x->noperand; i++) {
		for (k = 0; k < i && x->operand[k] != x->operand[i]; k++)
			;
		if (k < i)
			continue;
		for (j = 0; j < y->noperand; j++)
			if (y->operand[j] == x->operand[i]) {
				const HloShape *sh =
				    &c->instr.v[x->operand[i]]->shape;
				if (!hlo_shape_is_scalar(sh))
					s += bytes(sh);
				break;
			}
	}
	return s;
}

/* Siblings: the bytes merging a and b saves, or 0 if they may not. */
static int64_t
sib_profit(Mz *z, int a, int b)
{
	Unit ua, ub;

	if (a == b || !unit(z, a, &ua) || !unit(z, b, &ub))
		return 0;
	if ((!ua.fusion && !ub.fusion) || ua.dot || ub.dot ||
	    ua.kind != ub.kind || !same_dims(ua.hero, ub.hero) ||
	    (ua.kind == K_LOOP && !same_dims(ua.out, ub.out)) ||
	    (ua.kind == K_INPUT && !same_ints(ua.rdims, ub.rdims)))
		return 0;
	if (reaches(z->c, a, b) || reaches(z->c, b, a)) {
		z->ncycle++;
		return 0;
	}
	return shared_bytes(z->c, a, b);
}

static int
same_layout(const HloLayout *a, const HloLayout *b)
{
	return a->has == b->has && a->nm2m == b->nm2m && a->ntile == b->ntile &&
	    a->memspace == b->memspace && !a->mid && !b->mid && !a->post &&
	    !b->post && !memcmp(a->m2m, b->m2m, sizeof a->m2m[0] *
	    (size_t)a->nm2m) && !memcmp(a->tile, b->tile, sizeof a->tile[0] *
	    (size_t)a->ntile);
}

/*
 * An instruction of nc computing what 'in' on operands ops computes, or
 * -1: both halves of a merge may hold a copy of one cheap producer (the
 * fusion pass duplicated it), which one fusion needs only once.  Only
 * attribute-free ops, broadcasts and scalar constants are compared.
 */
static int
same_in(const HloComp *nc, const HloInstr *in, const int *ops)
{
	HloOpClass k = hlo_op_class(in->op);
	int i, j;

	if (k != HC_UNARY && k != HC_BINARY && in->op != HLO_BROADCAST &&
	    !(in->op == HLO_CONSTANT && in->lit.n == 1 && in->lit.v))
		return -1;
	for (i = 0; i < nc->instr.n; i++) {
		const HloInstr *o = nc->instr.v[i];
		if (o->op != in->op || o->noperand != in->noperand ||
		    !hlo_shape_same(&o->shape, &in->shape) ||
		    !same_layout(&o->shape.layout, &in->shape.layout))
			continue;
		for (j = 0; j < in->noperand && o->operand[j] == ops[j]; j++)
			;
		if (j < in->noperand)
			continue;
		if (in->op == HLO_BROADCAST && !same_ints(&o->dims, &in->dims))
			continue;
		if (in->op == HLO_CONSTANT && (o->lit.n != 1 ||
		    in->lit.n != 1 || memcmp(o->lit.v, in->lit.v,
		    sizeof in->lit.v[0])))
			continue;
		return i;
	}
	return -1;
}

/* Copies fusion x's body into fusion fi's computation; map: x -> new. */
static void
copy_body(Mz *z, int fi, int x, int a, const int *amap, const int *aout,
    int *map)
{
	HloInstr *xi = z->c->instr.v[x];
	HloComp *xc = hlo_fuse_callee(z->m, xi);
	HloComp *nc = hlo_fuse_callee(z->m, z->c->instr.v[fi]);
	int ops[64], *ov, i, k;

	for (i = 0; i < xc->instr.n; i++) {
		HloInstr *in = xc->instr.v[i];
		if (in->op == HLO_PARAMETER) {
			int v = xi->operand[in->num];
			const HloInstr *o = z->c->instr.v[v];
			if (a >= 0 && v == a)
				map[i] = amap[aout[0]];
			else if (a >= 0 && o->op == HLO_GTE &&
			    o->operand[0] == a)
				map[i] = amap[aout[o->num]];
			else
				map[i] = hlo_fuse_param(z->m, z->c, fi, v);
			continue;
		}
		ov = in->noperand <= 64 ? ops : arena_alloc(z->m->arena,
		    sizeof(int) * (size_t)in->noperand);
		for (k = 0; k < in->noperand; k++)
			ov[k] = map[in->operand[k]];
		if ((map[i] = same_in(nc, in, ov)) >= 0)
			continue;
		hlo_fuse_clone(z->m, nc, in, in->name, ov);
		map[i] = nc->instr.n - 1;
	}
}

/*
 * Points the users of x (detached by now; tuple: its root was a tuple,
 * read through GTEs) at output positions pos[] of fusion fi.
 */
static void
rewire(Mz *z, int x, int tuple, int fi, const int *pos)
{
	HloComp *c = z->c;
	HloInstr *g;
	int i;

	if (!tuple) {
		if (hlo_fuse_uses(c, x) == 0)
			return;
		g = hlo_add(z->m, c, HLO_GTE,
		    &c->instr.v[fi]->shape.elem[pos[0]], &fi, 1);
		g->num = pos[0];
		hlo_replace_uses(c, x, c->instr.n - 1);
		return;
	}
	for (i = 0; i < c->instr.n; i++) {
		HloInstr *in = c->instr.v[i];
		if (in->op != HLO_GTE || in->noperand != 1 ||
		    in->operand[0] != x)
			continue;
		if (!hlo_fuse_live(c, i) || pos[in->num] < 0) {
			hlo_fuse_detach(in);
			continue;
		}
		in->operand[0] = fi;
		in->num = pos[in->num];
	}
}

/* 1 if output j of unit a has a user other than b. */
static int
output_needed(const HloComp *c, int a, int b, int j, int tuple)
{
	int i, k;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		if (i == b)
			continue;
		for (k = 0; k < in->noperand; k++) {
			const HloInstr *o = c->instr.v[in->operand[k]];
			if (!tuple && in->operand[k] == a)
				return 1;
			if (tuple && o->op == HLO_GTE && o->operand[0] == a &&
			    o->num == j)
				return 1;
		}
	}
	return c->root == a;
}

/*
 * Merges units a and b into one fusion, a's body first.  pc: a is the
 * producer, b reads it and the root is tuple(b's outputs, a's outputs
 * still read outside); else siblings, tuple(a's, b's).
 */
static void
merge(Mz *z, int a, int b, int pc)
{
	HloComp *c = z->c, *nc, *ac, *bc;
	HloInstr *f, *t;
	int aout[MAXOUT], bout[MAXOUT], apos[MAXOUT], bpos[MAXOUT];
	int el[2 * MAXOUT], *amap, *bmap, na, nb, ne = 0, fi, i, atup, btup;
	HloShape sh[2 * MAXOUT];
	const char *name;

	if (c->instr.v[a]->op != HLO_FUSION)
		a = hlo_fuse_wrap(z->m, c, a), hlo_fuse_finish(z->m, c, a, 0);
	if (c->instr.v[b]->op != HLO_FUSION)
		b = hlo_fuse_wrap(z->m, c, b), hlo_fuse_finish(z->m, c, b, 0);
	ac = hlo_fuse_callee(z->m, c->instr.v[a]);
	bc = hlo_fuse_callee(z->m, c->instr.v[b]);
	hlo_comp_clean(z->m, ac);
	hlo_comp_clean(z->m, bc);
	vec_push(z->m->arena, &z->old, ac);
	vec_push(z->m->arena, &z->old, bc);
	name = c->instr.v[pc ? b : a]->name;
	nc = hlo_fuse_comp_new(z->m, c);
	f = hlo_add(z->m, c, HLO_FUSION, &c->instr.v[b]->shape, NULL, 0);
	fi = c->instr.n - 1;
	f->callee = hlo_find_comp(z->m, nc->name);
	f->meta = c->instr.v[b]->meta;
	amap = arena_alloc(z->m->arena, sizeof(int) * (size_t)ac->instr.n);
	bmap = arena_alloc(z->m->arena, sizeof(int) * (size_t)bc->instr.n);
	na = hlo_fuse_outputs(ac, aout, MAXOUT);
	nb = hlo_fuse_outputs(bc, bout, MAXOUT);
	atup = ac->instr.v[ac->root]->op == HLO_TUPLE;
	btup = bc->instr.v[bc->root]->op == HLO_TUPLE;
	copy_body(z, fi, a, -1, NULL, NULL, amap);
	copy_body(z, fi, b, pc ? a : -1, amap, aout, bmap);
	for (i = 0; !pc && i < na; i++)
		apos[i] = ne, el[ne++] = amap[aout[i]];
	for (i = 0; i < nb; i++)
		bpos[i] = ne, el[ne++] = bmap[bout[i]];
	for (i = 0; pc && i < na; i++) {
		apos[i] = -1;
		if (output_needed(c, a, b, i, atup))
			apos[i] = ne, el[ne++] = amap[aout[i]];
	}
	for (i = 0; i < ne; i++)
		sh[i] = nc->instr.v[el[i]]->shape;
	t = hlo_instr_new(z->m, nc, HLO_TUPLE, hlo_fresh_name(z->m, "tuple"));
	t->shape = hlo_shape_tuple(z->m->arena, sh, ne);
	t->noperand = ne;
	t->operand = arena_alloc(z->m->arena, sizeof(int) * (size_t)ne);
	memcpy(t->operand, el, sizeof(int) * (size_t)ne);
	nc->root = nc->instr.n - 1;
	hlo_fuse_finish(z->m, c, fi, name);
	hlo_fuse_detach(c->instr.v[b]);
	rewire(z, b, btup, fi, bpos);
	hlo_fuse_detach(c->instr.v[a]);
	rewire(z, a, atup, fi, apos);
}

/* The live units among the users of v (or of its GTEs), in order. */
static int
unit_users(const Mz *z, int v, int *u)
{
	Unit x;
	int i, n = 0;

	for (i = 0; i < z->c->instr.n && n < MAXU; i++)
		if (i != v && reads_value(z->c, z->c->instr.v[i], v) &&
		    unit(z, i, &x))
			u[n++] = i;
	return n;
}

/* Sibling merges among the users of v, best first. */
static int
siblings(Mz *z, int v)
{
	int u[MAXU], n, i, j, ba, bb, any = 0;
	int64_t best, p;

	if (z->c->instr.v[v]->op == HLO_TUPLE)
		return 0;
	for (;;) {
		best = 0;
		ba = bb = -1;
		n = unit_users(z, v, u);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if ((p = sib_profit(z, u[i], u[j])) > best) {
					best = p;
					ba = u[i];
					bb = u[j];
				}
		if (ba < 0)
			return any;
		merge(z, ba, bb, 0);
		z->nsib++;
		any = 1;
	}
}

/* Producer-consumer: v's unit into its first consumer that may take it. */
static int
producer(Mz *z, int v)
{
	Unit x;
	int u[MAXU], n, i;

	if (!unit(z, v, &x))
		return 0;
	n = unit_users(z, v, u);
	for (i = 0; i < n; i++)
		if (pc_legal(z, v, u[i])) {
			merge(z, v, u[i], 1);
			z->npc++;
			return 1;
		}
	return 0;
}

static int
sweep(Mz *z)
{
	int n = z->c->instr.n, i, any = 0;

	for (i = 0; i < n; i++) {
		if (!hlo_fuse_live(z->c, i))
			continue;
		any |= siblings(z, i);
		if (hlo_fuse_live(z->c, i))
			any |= producer(z, i);
	}
	return any;
}

int
hlo_pass_mof(HloModule *m, HloPassCtx *cx)
{
	Mz z;
	int round, changed = 0, i;

	memset(&z, 0, sizeof z);
	z.m = m;
	if (m->entry < 0)
		return 0;
	z.c = m->comp.v[m->entry];
	changed = hlo_fuse_tidy(m, z.c);
	for (round = 0; round < 8 && sweep(&z); round++) {
		changed = 1;
		hlo_fuse_tidy(m, z.c);
	}
	for (i = 0; i < z.old.n; i++)
		hlo_fuse_drop_comp(m, z.old.v[i]);
	if (cx->stats)
		buf_printf(cx->stats, "multi-output-fusion: %d sibling, %d "
		    "producer-consumer merges; %d refused for a cycle\n",
		    z.nsib, z.npc, z.ncycle);
	return changed;
}
