/*
 * pass_cse.c - common subexpression elimination (XLA's HloCSE): two
 * instructions of one computation with the same opcode, the same
 * operands, the same shape and layout, and the same attributes (a
 * constant's values bit for bit, the called computation, every
 * unmodelled attribute and backend_config as written) compute the same
 * value, so the later one's uses move to the earlier one.  Metadata is
 * not compared; the survivor keeps its own.
 *
 * Never merged: parameters, anything with a side effect (a custom-call
 * with custom_call_has_side_effect=true, opaque opcodes), async copies,
 * whose start and done pair up by identity, and constants whose values
 * were not written out.  Instructions are
 * visited operands first, so chains of duplicates merge in one run.
 */
#include <string.h>

#include "graph/pass_simp.h"

static int
str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int
ints_eq(const HloInts *a, const HloInts *b)
{
	return a->n == b->n && a->has == b->has && (a->n == 0 ||
	    memcmp(a->v, b->v, sizeof(int64_t) * (size_t)a->n) == 0);
}

static int
shape_eq(const HloShape *a, const HloShape *b)
{
	int k;

	if (a->type != b->type)
		return 0;
	if (a->type != HT_TUPLE)
		return hlo_shape_same(a, b) && simp_layout_eq(a, b);
	if (a->ntuple != b->ntuple)
		return 0;
	for (k = 0; k < a->ntuple; k++)
		if (!shape_eq(&a->elem[k], &b->elem[k]))
			return 0;
	return 1;
}

static int
attrs_eq(const HloInstr *a, const HloInstr *b)
{
	int k;

	if (a->attrs.n != b->attrs.n)
		return 0;
	for (k = 0; k < a->attrs.n; k++)
		if (!str_eq(a->attrs.v[k].name, b->attrs.v[k].name) ||
		    !str_eq(a->attrs.v[k].value, b->attrs.v[k].value))
			return 0;
	return 1;
}

static int
same(const HloInstr *a, const HloInstr *b, const int *repl)
{
	int k;

	if (a->op != b->op || a->noperand != b->noperand)
		return 0;
	for (k = 0; k < a->noperand; k++)
		if (repl[a->operand[k]] != repl[b->operand[k]])
			return 0;
	if (!shape_eq(&a->shape, &b->shape) || a->num != b->num ||
	    a->lit.n != b->lit.n || (a->lit.n && memcmp(a->lit.v, b->lit.v,
	    sizeof *a->lit.v * (size_t)a->lit.n) != 0))
		return 0;
	if (!ints_eq(&a->dims, &b->dims) || !ints_eq(&a->slo, &b->slo) ||
	    !ints_eq(&a->shi, &b->shi) || !ints_eq(&a->sst, &b->sst))
		return 0;
	for (k = 0; k < 4; k++)
		if (!ints_eq(&a->dot[k], &b->dot[k]))
			return 0;
	return a->cmp == b->cmp && a->callee == b->callee &&
	    str_eq(a->kind, b->kind) && str_eq(a->target, b->target) &&
	    str_eq(a->backend_config, b->backend_config) && attrs_eq(a, b);
}

static uint64_t
mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 0x100000001b3ull;
}

static uint64_t
hash(const HloInstr *in, const int *repl)
{
	uint64_t h = 0xcbf29ce484222325ull, bits;
	int k;

	h = mix(h, (uint64_t)in->op);
	h = mix(h, (uint64_t)in->shape.type);
	for (k = 0; k < in->noperand; k++)
		h = mix(h, (uint64_t)repl[in->operand[k]]);
	for (k = 0; k < in->shape.rank && in->shape.type != HT_TUPLE; k++)
		h = mix(h, (uint64_t)in->shape.dim[k]);
	h = mix(h, (uint64_t)in->num);
	if (in->lit.n) {
		memcpy(&bits, &in->lit.v[0], sizeof bits);
		h = mix(mix(h, (uint64_t)in->lit.n), bits);
	}
	return h;
}

static int
mergeable(const HloInstr *in)
{
	/* a constant read as {...} has values nobody knows: two of them
	   need not be equal */
	if (in->op == HLO_CONSTANT && (in->shape.type == HT_TUPLE ||
	    in->lit.n != hlo_shape_elems(&in->shape)))
		return 0;
	return in->op != HLO_PARAMETER && in->op != HLO_COPY_START &&
	    in->op != HLO_COPY_DONE && in->op != HLO_INVALID &&
	    !hlo_has_side_effect(in);
}

static int
cse_comp(HloModule *m, HloComp *c)
{
	Arena a = {0};
	int n = c->instr.n, size = 16, k, i, j, changed = 0;
	int *order = simp_order(&a, c), *repl, *table;

	while (size < 2 * n)
		size *= 2;
	repl = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	table = arena_alloc(&a, sizeof(int) * (size_t)size);
	for (i = 0; i < n; i++)
		repl[i] = i;
	for (k = 0; k < size; k++)
		table[k] = -1;
	for (k = 0; k < n; k++) {
		const HloInstr *in = c->instr.v[i = order[k]];
		unsigned slot;
		if (!mergeable(in))
			continue;
		slot = (unsigned)hash(in, repl) & (unsigned)(size - 1);
		for (; (j = table[slot]) >= 0; slot = (slot + 1) &
		    (unsigned)(size - 1))
			if (same(c->instr.v[j], in, repl))
				break;
		if (j >= 0) {
			repl[i] = j;
			changed = 1;
		} else
			table[slot] = i;
	}
	if (changed) {
		for (i = 0; i < n; i++) {
			HloInstr *in = c->instr.v[i];
			for (k = 0; k < in->noperand; k++)
				in->operand[k] = repl[in->operand[k]];
		}
		if (c->root >= 0)
			c->root = repl[c->root];
		hlo_comp_clean(m, c);	/* drop the merged copies */
	}
	arena_free(&a);
	return changed;
}

int
hlo_pass_cse(HloModule *m, HloPassCtx *cx)
{
	int j, changed = 0;

	(void)cx;
	for (j = 0; j < m->comp.n; j++)
		changed |= cse_comp(m, m->comp.v[j]);
	return changed;
}
