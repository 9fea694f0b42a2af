/*
 * pass_fusion.c - producer/consumer fusion (XLA's InstructionFusion) on
 * the entry computation and the computations it runs (while bodies and
 * conditions, conditional branches, calls).  Consumers are visited in
 * reverse post-order;
 * for each, its operands' producers are tried latest first, and a
 * producer that may join is cloned into the consumer's fusion (a plain
 * consumer is wrapped first).  Kinds: kOutput (a dot with the elementwise
 * producers of its operands and its epilogue), kInput (a reduce or
 * transpose at the root), kLoop (the rest).
 *
 * Rules:
 *  - producers: elementwise and shape ops, iota, constants of at most
 *    MAXCONST elements, a dot into a fusion of epilogue ops; never
 *    parameters, reduces (only a fusion's root), custom-calls (opaque),
 *    copy-start/done, tuple, get-tuple-element, calls or fusions that
 *    were there before (a fusion already in the module grows as a
 *    consumer, if it is not kCustom and its computation is its own);
 *  - duplication: a producer with users outside the consumer is copied
 *    into it only if it is cheap (not IsExpensive: exp, log, divide,
 *    dot...) and effectively unary or no larger than its inputs, or if
 *    every one of its users can take it (then it dies: nothing stored);
 *  - the softmax guard: a producer feeding both a row-max reduce and the
 *    subtract before an exp is never duplicated (the copy could differ
 *    from the value the max was taken over).
 * Needs a verified module; keeps layouts as they are.  Values stay bit
 * for bit: a fused computation runs the same ops.
 */
#include <string.h>

#include "graph/pass.h"

enum { MAXCONST = 256 };

typedef struct Fz {
	HloModule *m;
	HloComp *c;
	VEC(int) ours;		/* fusions this run made */
	VEC(int) grown;		/* fusions it found and grew */
	int count;		/* count the refusals (once per consumer) */
	int nexp, nguard, nunary;	/* refused duplications, by reason */
	int kinds[3];		/* fusions made: kLoop, kInput, kOutput */
	int ngrown;
} Fz;

static int
elementwise(HloOp op)
{
	HloOpClass k = hlo_op_class(op);

	return k == HC_UNARY || k == HC_BINARY || op == HLO_COMPARE ||
	    op == HLO_SELECT || op == HLO_CLAMP || op == HLO_CONVERT ||
	    op == HLO_IS_FINITE;
}

static int
shape_op(HloOp op)
{
	switch (op) {
	case HLO_BROADCAST: case HLO_RESHAPE: case HLO_TRANSPOSE:
	case HLO_SLICE: case HLO_CONCATENATE: case HLO_BITCAST:
	case HLO_IOTA:
		return 1;
	default:
		return 0;
	}
}

/* IsExpensive: not to be computed twice (hlo.md 3.2). */
static int
expensive(const HloInstr *in)
{
	switch (in->op) {
	case HLO_EXP: case HLO_EXPM1: case HLO_LOG: case HLO_LOG1P:
	case HLO_SQRT: case HLO_RSQRT: case HLO_TANH: case HLO_LOGISTIC:
	case HLO_ERF: case HLO_SINE: case HLO_COSINE: case HLO_POWER:
	case HLO_ATAN2: case HLO_DOT: case HLO_REDUCE:
		return 1;
	case HLO_DIVIDE: case HLO_REMAINDER:
		return hlo_type_is_float(in->shape.type);
	default:
		return !elementwise(in->op) && !shape_op(in->op) &&
		    in->op != HLO_CONSTANT;
	}
}

/* 1 if i is among v[0..n) (the fusions made, or grown, so far). */
static int
listed(const int *v, int n, int i)
{
	int k;

	for (k = 0; k < n; k++)
		if (v[k] == i)
			return 1;
	return 0;
}

static int
is_ours(const Fz *z, int i)
{
	return listed(z->ours.v, z->ours.n, i);
}

/* Ops a fusion's body may take from outside as producers. */
static int
producer_ok(const HloInstr *p)
{
	if (p->op == HLO_CONSTANT)
		return p->shape.type != HT_TUPLE &&
		    hlo_shape_elems(&p->shape) <= MAXCONST;
	return elementwise(p->op) || shape_op(p->op) || p->op == HLO_DOT;
}

/*
 * A fusion that was in the module grows like one this pass made, unless
 * it is kCustom (opaque) or another instruction calls its computation.
 */
static int
growable(const Fz *z, const HloInstr *f)
{
	int j, i, n = 0;

	if (!f->kind || strcmp(f->kind, "kCustom") == 0 ||
	    !hlo_fuse_callee(z->m, f))
		return 0;
	/* callee is -1 where an instruction calls nothing */
	for (j = 0; j < z->m->comp.n; j++)
		for (i = 0; i < z->m->comp.v[j]->instr.n; i++)
			n += z->m->comp.v[j]->instr.v[i]->callee == f->callee;
	return n == 1;
}

static int
consumer_ok(const Fz *z, int i)
{
	const HloInstr *in = z->c->instr.v[i];

	if (in->op == HLO_FUSION)
		return is_ours(z, i) || growable(z, in);
	if (in->op == HLO_REDUCE)
		return in->noperand == 2;
	return elementwise(in->op) || shape_op(in->op) || in->op == HLO_DOT;
}

/* Ops that may run after a dot in its fusion (its epilogue). */
static int
epilogue_ok(HloOp op)
{
	return elementwise(op) || op == HLO_BROADCAST || op == HLO_RESHAPE ||
	    op == HLO_BITCAST || op == HLO_PARAMETER || op == HLO_CONSTANT ||
	    op == HLO_IOTA || op == HLO_REDUCE;
}

/* The consumer as a list of instructions: its body, or itself. */
static int
body(const Fz *z, int f, const HloInstr ***v)
{
	const HloInstr *in = z->c->instr.v[f];
	const HloComp *fc = hlo_fuse_callee(z->m, in);

	if (fc) {
		*v = (const HloInstr **)fc->instr.v;
		return fc->instr.n;
	}
	*v = (const HloInstr **)&z->c->instr.v[f];
	return 1;
}

/* A dot may join f if f has none and does only epilogue work. */
static int
dot_may_join(const Fz *z, int f)
{
	const HloInstr **v;
	int n = body(z, f, &v), i;

	for (i = 0; i < n; i++)
		if (v[i]->op == HLO_DOT || !epilogue_ok(v[i]->op))
			return 0;
	return 1;
}

/* A use of a value, seen through fusions: instruction i of comp c. */
typedef struct Use {
	const HloComp *c;
	int i;			/* the user */
	int v;			/* the value's index in c */
} Use;

enum { MAXUSE = 64 };

static int
reads(const HloInstr *in, int v)
{
	int k;

	for (k = 0; k < in->noperand; k++)
		if (in->operand[k] == v)
			return 1;
	return 0;
}

/* The users of c's value v, looking into the fusions that read it. */
static int
eff_uses(const HloModule *m, const HloComp *c, int v, Use *u)
{
	int i, k, j, n = 0;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		const HloComp *fc = hlo_fuse_callee(m, in);
		for (k = 0; k < in->noperand; k++) {
			int p;
			if (in->operand[k] != v)
				continue;
			if (!fc) {
				if (n < MAXUSE)
					u[n++] = (Use){ c, i, v };
				continue;
			}
			p = hlo_fuse_param_of(fc, k);
			for (j = 0; j < fc->instr.n; j++)
				if (reads(fc->instr.v[j], p) && n < MAXUSE)
					u[n++] = (Use){ fc, j, p };
		}
	}
	return n;
}

static int
max_reduce(const HloModule *m, const HloInstr *in)
{
	const HloComp *r;

	if (in->op != HLO_REDUCE || in->callee < 0 || in->callee >= m->comp.n)
		return 0;
	r = m->comp.v[in->callee];
	return r->root >= 0 && r->instr.v[r->root]->op == HLO_MAXIMUM;
}

/* The softmax guard: v feeds a row max and a subtract that feeds exp. */
static int
softmax_guard(const HloModule *m, const HloComp *c, int v)
{
	Use u[MAXUSE], w[MAXUSE];
	int n = eff_uses(m, c, v, u), i, j, nw, max = 0, subexp = 0;

	for (i = 0; i < n; i++) {
		const HloInstr *in = u[i].c->instr.v[u[i].i];
		if (max_reduce(m, in) && in->operand[0] == u[i].v)
			max = 1;
		if (in->op != HLO_SUBTRACT || in->operand[0] != u[i].v)
			continue;
		nw = eff_uses(m, u[i].c, u[i].i, w);
		for (j = 0; j < nw; j++)
			if (w[j].c->instr.v[w[j].i]->op == HLO_EXP)
				subexp = 1;
	}
	return max && subexp;
}

/*
 * XLA's ComputeGloballyUnfusible, short: a copy re-reads the inputs, so
 * only a producer with at most one input of its own size, or inputs no
 * larger than its output, is worth copying.
 */
static int
cheap_copy(const HloComp *c, const HloInstr *p)
{
	int64_t out = hlo_shape_elems(&p->shape), in = 0, e;
	int k, full = 0;

	for (k = 0; k < p->noperand; k++) {
		e = hlo_shape_elems(&c->instr.v[p->operand[k]]->shape);
		in += e;
		full += e == out;
	}
	return full <= 1 || in <= out;
}

/*
 * XLA's "fusible into all its users": every user of producer pi can take
 * it (each a consumer this pass grows), so copies replace it and it
 * dies.  Then an expensive or wide producer is copied too, as the TPU
 * compiler copies the toy's exp into two fusions rather than store it
 * (../shared/reference/seed-dumps.md, 1.3).  Never a dot or a reduce.
 */
static int
all_users_take(const Fz *z, int pi)
{
	const HloInstr *p = z->c->instr.v[pi];
	int j;

	if (z->c->root == pi || p->op == HLO_DOT || p->op == HLO_REDUCE)
		return 0;
	for (j = 0; j < z->c->instr.n; j++)
		if (reads(z->c->instr.v[j], pi) && hlo_fuse_live(z->c, j) &&
		    !consumer_ok(z, j))
			return 0;
	return 1;
}

/* Operand slots of consumer f that read v (a fusion reads it once). */
static int
slots(const HloInstr *f, int v)
{
	int k, n = 0;

	for (k = 0; k < f->noperand; k++)
		n += f->operand[k] == v;
	return n;
}

/* 1 if the producer of operand k of f may join f; *dup: as a copy. */
static int
should_fuse(Fz *z, int f, int k, int *dup)
{
	const HloInstr *fi = z->c->instr.v[f];
	int pi = fi->operand[k];
	const HloInstr *p = z->c->instr.v[pi];

	if (!producer_ok(p))
		return 0;
	if (p->op == HLO_DOT && !dot_may_join(z, f))
		return 0;
	*dup = hlo_fuse_uses(z->c, pi) > slots(fi, pi);
	if (!*dup)
		return 1;
	if (softmax_guard(z->m, z->c, pi)) {
		z->nguard += z->count;
		return 0;
	}
	if ((expensive(p) || !cheap_copy(z->c, p)) && !all_users_take(z, pi)) {
		if (expensive(p))
			z->nexp += z->count;
		else
			z->nunary += z->count;
		return 0;
	}
	return 1;
}

/* The operand of f to try next: the latest producer that may join. */
static int
next_operand(Fz *z, int f, int *dup)
{
	const HloInstr *fi = z->c->instr.v[f];
	int best = -1, k, d;

	for (k = 0; k < fi->noperand; k++)
		if ((best < 0 || fi->operand[k] > fi->operand[best]) &&
		    should_fuse(z, f, k, &d)) {
			best = k;
			*dup = d;
		}
	return best;
}

static int
slot_of(const HloInstr *f, int v)
{
	int k;

	for (k = 0; k < f->noperand; k++)
		if (f->operand[k] == v)
			return k;
	bug("fusion '%s' does not read instruction %d", f->name, v);
}

/* Grows a fusion from consumer i; 1 if one was made. */
static int
visit(Fz *z, int i)
{
	int f = i, k, dup, pi;

	if (!hlo_fuse_live(z->c, i) || !consumer_ok(z, i))
		return 0;
	while ((k = next_operand(z, f, &dup)) >= 0) {
		pi = z->c->instr.v[f]->operand[k];
		if (f == i && z->c->instr.v[i]->op != HLO_FUSION) {
			f = hlo_fuse_wrap(z->m, z->c, i);
			vec_push(z->m->arena, &z->ours, f);
			k = slot_of(z->c->instr.v[f], pi);
		} else if (!is_ours(z, f) && !listed(z->grown.v, z->grown.n,
		    f))
			vec_push(z->m->arena, &z->grown, f);
		hlo_fuse_producer(z->m, z->c, f, k, dup);
	}
	/* what stays outside, once, for the statistics */
	z->count = 1;
	for (k = 0; k < z->c->instr.v[f]->noperand; k++)
		should_fuse(z, f, k, &dup);
	z->count = 0;
	return f != i;
}

/* Counts the fusions made in z->c by kind. */
static void
count_kinds(Fz *z)
{
	int i;

	for (i = 0; i < z->ours.n; i++) {
		const char *k = z->c->instr.v[z->ours.v[i]]->kind;
		z->kinds[k[1] == 'L' ? 0 : k[1] == 'I' ? 1 : 2]++;
	}
}

static void
stats(const Fz *z, Buf *b)
{
	const int *n = z->kinds;

	buf_printf(b, "fusion: %d fusions (kLoop %d, kInput %d, kOutput %d)",
	    n[0] + n[1] + n[2], n[0], n[1], n[2]);
	if (z->ngrown)
		buf_printf(b, ", %d already there grown", z->ngrown);
	buf_printf(b, "; copies refused: %d expensive, %d softmax guard, %d "
	    "too many inputs\n", z->nexp, z->nguard, z->nunary);
}

/*
 * The computations that run as programs: the entry and, through it,
 * while conditions and bodies, conditional branches and calls (not
 * reducers, comparators or fused computations).  Callers come after
 * their callees, so one pass from the end reaches them all.
 */
static char *
control_comps(Arena *a, const HloModule *m)
{
	char *ctl = arena_alloc(a, (size_t)m->comp.n + 1);
	int j, i, k, n, c[64];

	if (m->entry >= 0)
		ctl[m->entry] = 1;
	for (j = m->comp.n - 1; j >= 0; j--)
		for (i = 0; ctl[j] && i < m->comp.v[j]->instr.n; i++) {
			n = hlo_programs(m, m->comp.v[j]->instr.v[i], c, 64);
			for (k = 0; k < n; k++)
				ctl[c[k]] = 1;
		}
	return ctl;
}

/* Fuses computation c; 1 if it changed. */
static int
fuse_comp(Fz *z, HloComp *c)
{
	int i, changed;

	z->c = c;
	z->ours.n = z->grown.n = 0;
	changed = hlo_fuse_tidy(z->m, c);
	for (i = c->instr.n - 1; i >= 0; i--)
		visit(z, i);
	for (i = 0; i < z->ours.n; i++)
		hlo_fuse_finish(z->m, c, z->ours.v[i], NULL);
	/* a grown fusion keeps its name; its kind may change (a dot in) */
	for (i = 0; i < z->grown.n; i++)
		hlo_fuse_finish(z->m, c, z->grown.v[i],
		    c->instr.v[z->grown.v[i]]->name);
	count_kinds(z);
	z->ngrown += z->grown.n;
	changed |= z->ours.n > 0 || z->grown.n > 0;
	if (z->ours.n || z->grown.n)
		hlo_fuse_tidy(z->m, c);
	return changed;
}

int
hlo_pass_fusion(HloModule *m, HloPassCtx *cx)
{
	Arena a = {0};
	HloComp **todo;
	char *ctl;
	Fz z;
	int j, n = 0, changed = 0;

	memset(&z, 0, sizeof z);
	z.m = m;
	/* the list first: fusing adds computations and moves indices */
	ctl = control_comps(&a, m);
	todo = arena_alloc(&a, sizeof *todo * ((size_t)m->comp.n + 1));
	for (j = 0; j < m->comp.n; j++)
		if (ctl[j])
			todo[n++] = m->comp.v[j];
	for (j = 0; j < n; j++)
		changed |= fuse_comp(&z, todo[j]);
	if (cx->stats)
		stats(&z, cx->stats);
	arena_free(&a);
	return changed;
}
