/*
 * verify.c - the HLO verifier: every instruction's operands and result
 * shape (hlo_infer_shape, plus the rules of the opcodes whose shape must
 * be written), layouts, parameter numbering, the root, and the entry
 * computation layout.  Reports each problem at the instruction's opcode and
 * keeps going; a module that passes is safe for the evaluator and passes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

typedef struct V {
	const HloModule *m;
	Diag *d;
	int nerr;
} V;

static void PK_PRINTF(3, 4)
err(V *v, Loc at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(v->d, DIAG_ERROR, at, fmt, ap);
	va_end(ap);
	v->nerr++;
}

static const char *
str(const HloShape *s, char *buf, size_t n)
{
	Buf b = {0};

	hlo_shape_print(&b, s);
	snprintf(buf, n, "%s", b.p ? b.p : "");
	buf_free(&b);
	return buf;
}

/* minor_to_major must be a permutation of the dimensions. */
static int
layout_ok(const HloShape *s)
{
	unsigned seen = 0;
	int i;

	if (s->type == HT_TUPLE) {
		for (i = 0; i < s->ntuple; i++)
			if (!layout_ok(&s->elem[i]))
				return 0;
		return 1;
	}
	if (!s->layout.has || (s->layout.nm2m == 0 && s->rank == 0))
		return 1;
	if (s->layout.nm2m != s->rank)
		return 0;
	for (i = 0; i < s->rank; i++) {
		int k = s->layout.m2m[i];
		if (k < 0 || k >= s->rank || (seen & 1u << k))
			return 0;
		seen |= 1u << k;
	}
	return 1;
}

/*
 * Tiles: the first applies to the most-minor dimensions, so it has at
 * least one and at most rank of them (a scalar takes one, {:T(128)}); a
 * '*' combines with the next more-minor dimension, so it is never last.
 * Later tiles re-tile the tiled shape and may have more dimensions.
 */
static const char *
tiles_bad(const HloShape *s)
{
	const HloLayout *l = &s->layout;
	const char *bad;
	int i, j;

	if (s->type == HT_TUPLE) {
		for (i = 0; i < s->ntuple; i++)
			if ((bad = tiles_bad(&s->elem[i])))
				return bad;
		return NULL;
	}
	if (!l->has || l->ntile == 0)
		return NULL;
	if (l->tile[0].n < 1 || l->tile[0].n > (s->rank ? s->rank : 1))
		return "its first tile must cover 1 to rank dimensions";
	for (i = 0; i < l->ntile; i++) {
		const HloTile *t = &l->tile[i];
		if (t->n < 1)
			return "a tile has no dimensions";
		for (j = 0; j < t->n; j++)
			if (t->d[j] == -1 && j == t->n - 1)
				return "a tile's most-minor size cannot be '*'";
	}
	return NULL;
}

static const HloShape *
opnd(const HloComp *c, const HloInstr *in, int i)
{
	return &c->instr.v[in->operand[i]]->shape;
}

/* broadcast: operand dimension i becomes result dimension dims[i]. */
static const char *
broadcast(const HloComp *c, const HloInstr *in)
{
	const HloShape *a = opnd(c, in, 0), *s = &in->shape;
	int i, j;

	if (in->dims.n != a->rank)
		return "'broadcast' needs one dimension per operand dimension";
	for (i = 0; i < a->rank; i++) {
		int64_t k = in->dims.v[i];
		if (k < 0 || k >= s->rank || s->dim[k] != a->dim[i])
			return "'broadcast' dimensions do not map the operand "
			    "onto the result";
		for (j = 0; j < i; j++)
			if (in->dims.v[j] == k)
				return "'broadcast' repeats a dimension";
	}
	return a->type == s->type ? NULL :
	    "'broadcast' cannot change the element type";
}

static int
same_dims(const HloShape *a, const HloShape *b)
{
	return a->rank == b->rank &&
	    !memcmp(a->dim, b->dim, (size_t)a->rank * sizeof a->dim[0]);
}

/* The dims of bitcast-convert's result s and operand a agree: the
   same, or the narrower side's with one more minor dim of the ratio. */
static int
bitcast_dims(const HloShape *s, const HloShape *a)
{
	size_t ws = hlo_type_size(s->type), wa = hlo_type_size(a->type);
	const HloShape *n = ws < wa ? s : a, *w = ws < wa ? a : s;
	size_t ratio = ws < wa ? wa / ws : ws / wa;

	if (ws == wa)
		return same_dims(s, a);
	return ws && wa && n->rank == w->rank + 1 &&
	    (size_t)n->dim[n->rank - 1] == ratio &&
	    !memcmp(n->dim, w->dim, (size_t)w->rank * sizeof w->dim[0]);
}

/* Rules of the opcodes whose result shape is written, not inferred. */
static const char *
written(const HloModule *m, const HloComp *c, const HloInstr *in)
{
	const HloShape *s = &in->shape;
	const HloShape *a = in->noperand ? opnd(c, in, 0) : NULL;
	const HloComp *f;

	switch (in->op) {
	case HLO_PARAMETER:
		return in->num < c->nparam ? NULL :
		    "parameter numbers must be 0, 1, ... without gaps";
	case HLO_IOTA:
		return s->type != HT_TUPLE && in->num < s->rank ? NULL :
		    "'iota_dimension' is not a dimension of the result";
	case HLO_CONVERT:
		return s->type != HT_TUPLE && same_dims(s, a) ? NULL :
		    "'convert' cannot change the dimensions";
	case HLO_BROADCAST:
		return s->type == HT_TUPLE ? "a broadcast result must be an "
		    "array" : broadcast(c, in);
	case HLO_RESHAPE:
		return s->type == a->type && hlo_shape_elems(s) ==
		    hlo_shape_elems(a) ? NULL : "'reshape' must keep the "
		    "element type and count";
	case HLO_BITCAST:
		return s->type != HT_TUPLE && hlo_shape_elems(s) *
		    (int64_t)hlo_type_size(s->type) == hlo_shape_elems(a) *
		    (int64_t)hlo_type_size(a->type) ? NULL :
		    "'bitcast' must keep the size in bytes";
	case HLO_BITCAST_CONVERT:
		if (s->type == HT_TUPLE)
			return "a bitcast-convert result must be an array";
		return bitcast_dims(s, a) ? NULL : "'bitcast-convert' keeps the "
		    "dimensions between types of one width; the narrower side "
		    "has one more, minor, of the ratio of the widths";
	case HLO_DYNAMIC_SLICE: {
		int64_t sz[HLO_MAXRANK];
		int n = hlo_attr_ints(in, "dynamic_slice_sizes", sz,
		    HLO_MAXRANK);
		return s->type == a->type && n == s->rank &&
		    !memcmp(sz, s->dim, (size_t)n * sizeof *sz) ? NULL :
		    "the result of 'dynamic-slice' must have the operand's "
		    "type and dynamic_slice_sizes";
	}
	case HLO_FUSION:
		if (!in->kind || (strcmp(in->kind, "kLoop") &&
		    strcmp(in->kind, "kInput") && strcmp(in->kind, "kOutput") &&
		    strcmp(in->kind, "kCustom")))
			return "the kind of 'fusion' must be kLoop, kInput, "
			    "kOutput or kCustom";
		if (in->callee < 0 || in->callee >= m->comp.n)
			return "'fusion' has no called computation";
		f = m->comp.v[in->callee];
		return hlo_shape_same(s, &f->instr.v[f->root]->shape) ? NULL :
		    "the result shape of 'fusion' differs from its computation's "
		    "root";
	case HLO_COPY_START:
		return s->type == HT_TUPLE && s->ntuple >= 2 &&
		    hlo_shape_same(&s->elem[1], a) &&
		    hlo_shape_same(&s->elem[0], a) ? NULL :
		    "'copy-start' must give a (destination, source, context) "
		    "tuple of its operand's shape";
	default:
		return NULL;
	}
}

static void
instr(V *v, const HloComp *c, const HloInstr *in)
{
	char why[256], b1[128], b2[128];
	const char *bad;
	HloShape s;
	int rc;

	if (in->op == HLO_INVALID || in->op >= NHLO) {
		err(v, in->loc, "'%s' is not a valid instruction", in->name);
		return;
	}
	if (!layout_ok(&in->shape))
		err(v, in->loc, "layout of '%s' is not a permutation of its %d "
		    "dimensions", in->name, in->shape.rank);
	else if ((bad = tiles_bad(&in->shape)))
		err(v, in->loc, "layout of '%s': %s", in->name, bad);
	rc = hlo_infer_shape(v->m, c, in, &s, why, sizeof why);
	if (rc == HLO_INFER_ERROR)
		err(v, in->oploc, "%s", why[0] ? why : "invalid instruction");
	else if (rc == HLO_INFER_OK && !hlo_shape_same(&s, &in->shape))
		err(v, in->oploc, "'%s' is written as %s, but its operands "
		    "give %s", in->name, str(&in->shape, b1, sizeof b1),
		    str(&s, b2, sizeof b2));
	else if (rc == HLO_INFER_NONE && (bad = written(v->m, c, in)))
		err(v, in->oploc, "%s", bad);
}

static void
params(V *v, const HloComp *c)
{
	int i, j;

	for (i = 0; i < c->instr.n; i++) {
		const HloInstr *a = c->instr.v[i];
		if (a->op != HLO_PARAMETER)
			continue;
		for (j = 0; j < i; j++)
			if (c->instr.v[j]->op == HLO_PARAMETER &&
			    c->instr.v[j]->num == a->num) {
				err(v, a->loc, "parameter number %lld is used "
				    "twice in '%s'", (long long)a->num, c->name);
				diag_note(v->d, c->instr.v[j]->loc, "first "
				    "used here");
			}
	}
}

static void
entry_layout(V *v, const HloComp *e)
{
	const HloModule *m = v->m;
	int i;

	if (m->ecl_param.n != e->nparam) {
		err(v, e->loc, "entry_computation_layout has %d parameters, "
		    "'%s' has %d", m->ecl_param.n, e->name, e->nparam);
		return;
	}
	for (i = 0; i < e->nparam; i++) {
		const HloInstr *p = hlo_param(e, i);
		if (p && !hlo_shape_same(&p->shape, &m->ecl_param.v[i]))
			err(v, p->oploc, "parameter %d does not match "
			    "entry_computation_layout", i);
	}
	if (!hlo_shape_same(&e->instr.v[e->root]->shape, &m->ecl_result))
		err(v, e->instr.v[e->root]->loc, "the root of '%s' does not "
		    "match entry_computation_layout", e->name);
}

/*
 * Operands must not form a cycle (the text may use a name before its
 * line, but not depend on itself): a depth-first walk with an explicit
 * stack, as a chain may be long.  One error per cycle, at the
 * instruction that closes it.
 */
static void
acyclic(V *v, const HloComp *c)
{
	int n = c->instr.n, top, i, u, k;
	char *state = xcalloc((size_t)n + 1, 1);	/* 0 new, 1 open, 2 done */
	int *node = xmalloc(sizeof(int) * ((size_t)n + 1));
	int *next = xmalloc(sizeof(int) * ((size_t)n + 1));

	for (i = 0; i < n; i++) {
		if (state[i])
			continue;
		top = 0;
		node[0] = i;
		next[0] = 0;
		state[i] = 1;
		while (top >= 0) {
			const HloInstr *in = c->instr.v[node[top]];
			if (next[top] == in->noperand) {
				state[node[top--]] = 2;
				continue;
			}
			u = in->operand[next[top]++];
			if (u < 0 || u >= n || state[u] == 2)
				continue;
			if (state[u] == 1) {
				if (u == node[top])
					err(v, in->loc, "'%s' uses itself",
					    in->name);
				else
					err(v, in->loc, "'%s' and '%s' use "
					    "each other through their operands "
					    "(a cycle)", in->name,
					    c->instr.v[u]->name);
				continue;
			}
			state[u] = 1;
			k = ++top;
			node[k] = u;
			next[k] = 0;
		}
	}
	free(state);
	free(node);
	free(next);
}

int
hlo_verify(const HloModule *m, Diag *d)
{
	V v = { m, d, 0 };
	int i, j;

	for (i = 0; i < m->comp.n; i++) {
		const HloComp *c = m->comp.v[i];
		if (c->root < 0 || c->root >= c->instr.n) {
			err(&v, c->loc, "computation '%s' has no root", c->name);
			continue;
		}
		for (j = 0; j < c->instr.n; j++)
			instr(&v, c, c->instr.v[j]);
		params(&v, c);
		acyclic(&v, c);
	}
	if (!hlo_entry(m)) {
		Loc none = {0};
		err(&v, none, "the module has no entry computation");
	} else if (m->has_ecl && hlo_entry(m)->root >= 0)
		entry_layout(&v, hlo_entry(m));
	return v.nerr;
}
