/*
 * hlo_edit.c - editing an HloModule in place, for the passes: fresh
 * names, new instructions, rewiring uses, and the clean-up that drops
 * dead code and restores def-before-use order.  See pass.h.
 */
#include <stdio.h>
#include <string.h>

#include "graph/pass.h"

const char *
hlo_fresh_name(HloModule *m, const char *base)
{
	char buf[128];
	int n;

	/* any interned string counts as taken: names are interned too */
	for (;;) {
		n = snprintf(buf, sizeof buf, "%.100s.%d", base, m->fresh++);
		if (!strtab_find(m->strs, buf, (size_t)n))
			return strtab_intern(m->strs, buf, (size_t)n);
	}
}

HloInstr *
hlo_add(HloModule *m, HloComp *c, HloOp op, const HloShape *shape,
    const int *ops, int nops)
{
	HloInstr *in = hlo_instr_new(m, c, op,
	    hlo_fresh_name(m, hlo_op_name(op)));

	in->shape = *shape;
	in->noperand = nops;
	if (nops) {
		in->operand = arena_alloc(m->arena, sizeof(int) * (size_t)nops);
		memcpy(in->operand, ops, sizeof(int) * (size_t)nops);
	}
	return in;
}

int
hlo_index(const HloComp *c, const HloInstr *in)
{
	int i;

	for (i = c->instr.n - 1; i >= 0; i--)
		if (c->instr.v[i] == in)
			return i;
	bug("instruction '%s' is not in computation '%s'", in->name, c->name);
}

void
hlo_replace_uses(HloComp *c, int from, int to)
{
	int i, k;

	for (i = 0; i < c->instr.n; i++) {
		HloInstr *in = c->instr.v[i];
		for (k = 0; k < in->noperand; k++)
			if (in->operand[k] == from)
				in->operand[k] = to;
	}
	if (c->root == from)
		c->root = to;
}

int *
hlo_use_counts(Arena *a, const HloComp *c)
{
	int *u = arena_alloc(a, sizeof(int) * (size_t)(c->instr.n + 1));
	int i, k;

	for (i = 0; i < c->instr.n; i++)
		for (k = 0; k < c->instr.v[i]->noperand; k++)
			u[c->instr.v[i]->operand[k]]++;
	if (c->root >= 0)
		u[c->root]++;
	return u;
}

/* An unmodelled attribute 'name' whose value is "true". */
static int
attr_true(const HloInstr *in, const char *name)
{
	int i;

	for (i = 0; i < in->attrs.n; i++)
		if (strcmp(in->attrs.v[i].name, name) == 0)
			return strcmp(in->attrs.v[i].value, "true") == 0;
	return 0;
}

int
hlo_has_side_effect(const HloInstr *in)
{
	if (in->op == HLO_PARAMETER)
		return 1;
	if (in->op == HLO_CUSTOM_CALL)
		return attr_true(in, "custom_call_has_side_effect");
	/* opaque opcodes (infeed, send, collectives...) are kept */
	return hlo_op_class(in->op) == HC_PASS;
}

typedef struct Order {
	HloComp *c;
	char *live, *done;
	int *order, n;
	int *stack;
} Order;

static void
mark_live(Order *o, int i)
{
	int top = 0, k;

	o->stack[top++] = i;
	o->live[i] = 1;
	while (top) {
		HloInstr *in = o->c->instr.v[o->stack[--top]];
		for (k = 0; k < in->noperand; k++)
			if (!o->live[in->operand[k]]) {
				o->live[in->operand[k]] = 1;
				o->stack[top++] = in->operand[k];
			}
	}
}

/* Emits i after its operands (iterative DFS: chains may be long). */
static void
emit_after_operands(Order *o, int i)
{
	int top = 0, k, j;

	if (o->done[i])
		return;
	o->done[i] = 2;
	o->stack[top++] = i;
	while (top) {
		HloInstr *in = o->c->instr.v[j = o->stack[top - 1]];
		int pushed = 0;
		for (k = 0; k < in->noperand && !pushed; k++)
			if (o->done[in->operand[k]] == 0) {
				/* done: 0 new, 2 on the stack, 1 emitted */
				o->done[in->operand[k]] = 2;
				o->stack[top++] = in->operand[k];
				pushed = 1;
			}
		if (pushed)
			continue;
		top--;
		o->done[j] = 1;
		o->order[o->n++] = j;
	}
}

int
hlo_comp_clean(HloModule *m, HloComp *c)
{
	int n = c->instr.n, i, k, changed = 0;
	Arena a = {0};
	Order o = { c, 0, 0, 0, 0, 0 };
	int *newidx;
	HloInstr **old;

	o.live = arena_alloc(&a, (size_t)n + 1);
	o.done = arena_alloc(&a, (size_t)n + 1);
	o.order = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	o.stack = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	newidx = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	old = arena_alloc(&a, sizeof *old * ((size_t)n + 1));
	if (c->root >= 0)
		mark_live(&o, c->root);
	for (i = 0; i < n; i++)
		if (!o.live[i] && hlo_has_side_effect(c->instr.v[i]))
			mark_live(&o, i);
	for (i = 0; i < n; i++)
		if (o.live[i])
			emit_after_operands(&o, i);
	for (i = 0; i < n; i++) {
		newidx[i] = -1;
		old[i] = c->instr.v[i];
	}
	for (i = 0; i < o.n; i++) {
		newidx[o.order[i]] = i;
		changed |= o.order[i] != i;
	}
	changed |= o.n != n;
	if (changed) {
		c->nparam = 0;
		for (i = 0; i < o.n; i++) {
			HloInstr *in = old[o.order[i]];
			for (k = 0; k < in->noperand; k++)
				in->operand[k] = newidx[in->operand[k]];
			c->instr.v[i] = in;
			c->nparam += in->op == HLO_PARAMETER;
		}
		c->instr.n = o.n;
		if (c->root >= 0)
			c->root = newidx[c->root];
	}
	arena_free(&a);
	(void)m;
	return changed;
}

static int
ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
}

/* 1 if text names 'name' as a whole word (with or without '%'). */
static int
names(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && (p = strstr(p, name)); p += n)
		if ((p == text || !ident_char(p[-1])) && !ident_char(p[n]))
			return 1;
	return 0;
}

/* 1 if some instruction of m other than those of c itself calls c. */
static int
called(const HloModule *m, int ci)
{
	const HloComp *c = m->comp.v[ci];
	int j, i, k;

	for (j = 0; j < m->comp.n; j++) {
		if (j == ci)
			continue;
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			const HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->callee == ci)
				return 1;
			for (k = 0; k < in->attrs.n; k++)
				if (names(in->attrs.v[k].value, c->name))
					return 1;
		}
	}
	return 0;
}

/* Removes computation ci, renumbering callees and the entry. */
static void
drop_comp(HloModule *m, int ci)
{
	int j, i;

	for (j = ci; j + 1 < m->comp.n; j++)
		m->comp.v[j] = m->comp.v[j + 1];
	m->comp.n--;
	if (m->entry > ci)
		m->entry--;
	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->callee > ci)
				in->callee--;
		}
}

int
hlo_module_clean(HloModule *m)
{
	int changed = 0, j, again = 1;

	for (j = 0; j < m->comp.n; j++)
		changed |= hlo_comp_clean(m, m->comp.v[j]);
	/* callers come after callees: dropping one may orphan earlier ones */
	while (again) {
		again = 0;
		for (j = m->comp.n - 1; j >= 0; j--)
			if (j != m->entry && !called(m, j)) {
				drop_comp(m, j);
				changed = again = 1;
			}
	}
	return changed;
}
