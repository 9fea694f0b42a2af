/*
 * fuse.c - building fusions in place, for the fusion and multi-output
 * fusion passes: a new fused computation (placed before the entry, so
 * callees stay before callers), a plain instruction wrapped into a
 * fusion, a producer cloned into a fusion, the parameter that carries an
 * outside value, and the finishing touches (kind, shape, XLA-like name).
 *
 * Needs: indices into c->instr stay valid while a pass runs, so nothing
 * is deleted from the caller's computation here: an instruction that
 * moves into a fusion is detached (no operands, no users) and dropped by
 * hlo_fuse_tidy at the end of the pass.  Fused computations may be out
 * of order until then too.
 */
#include <stdio.h>
#include <string.h>

#include "graph/pass.h"

/* Linear scan: fusion decisions ask this a few times per operand. */
int
hlo_fuse_uses(const HloComp *c, int v)
{
	int i, k, n = c->root == v;

	for (i = 0; i < c->instr.n; i++)
		for (k = 0; k < c->instr.v[i]->noperand; k++)
			n += c->instr.v[i]->operand[k] == v;
	return n;
}

int
hlo_fuse_live(const HloComp *c, int i)
{
	const HloInstr *in = c->instr.v[i];

	return in->op == HLO_PARAMETER || hlo_has_side_effect(in) ||
	    hlo_fuse_uses(c, i) > 0;
}

/* HLO_INVALID never reaches a pass otherwise: the verifier refuses it. */
void
hlo_fuse_detach(HloInstr *in)
{
	in->op = HLO_INVALID;
	in->noperand = 0;
}

/* Emits i after its operands (iterative: chains may be long). */
static void
emit(const HloComp *c, int i, char *done, int *stack, int *order, int *n)
{
	int top = 0, k, j;

	if (done[i])
		return;
	done[i] = 2;
	stack[top++] = i;
	while (top) {
		const HloInstr *in = c->instr.v[j = stack[top - 1]];
		for (k = 0; k < in->noperand; k++)
			if (!done[in->operand[k]])
				break;
		if (k < in->noperand) {
			done[in->operand[k]] = 2;
			stack[top++] = in->operand[k];
			continue;
		}
		top--;
		done[j] = 1;
		order[(*n)++] = j;
	}
}

int
hlo_fuse_tidy(HloModule *m, HloComp *c)
{
	Arena a = {0};
	int n = c->instr.n, i, k, no = 0, changed = 0;
	char *done = arena_alloc(&a, (size_t)n + 1);
	int *stack = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	int *order = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	int *newidx = arena_alloc(&a, sizeof(int) * ((size_t)n + 1));
	HloInstr **old = arena_alloc(&a, sizeof *old * ((size_t)n + 1));

	for (i = 0; i < n; i++)
		if (c->instr.v[i]->op != HLO_INVALID)
			emit(c, i, done, stack, order, &no);
	for (i = 0; i < n; i++)
		old[i] = c->instr.v[i];
	for (i = 0; i < no; i++) {
		newidx[order[i]] = i;
		changed |= order[i] != i;
	}
	if (changed || no != n) {
		for (i = 0; i < no; i++) {
			HloInstr *in = old[order[i]];
			for (k = 0; k < in->noperand; k++)
				in->operand[k] = newidx[in->operand[k]];
			c->instr.v[i] = in;
		}
		c->instr.n = no;
		if (c->root >= 0)
			c->root = newidx[c->root];
	}
	arena_free(&a);
	(void)m;
	return changed || no != n;
}

void
hlo_fuse_drop_comp(HloModule *m, HloComp *fc)
{
	int ci = -1, j, i;

	for (j = 0; j < m->comp.n; j++)
		if (m->comp.v[j] == fc)
			ci = j;
	if (ci < 0 || ci == m->entry)
		return;
	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++)
			if (m->comp.v[j]->instr.v[i]->callee == ci &&
			    m->comp.v[j]->instr.v[i]->op != HLO_INVALID &&
			    m->comp.v[j] != fc)
				return;
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

/* 'base' itself if no string of m has it yet, else "base.N". */
static const char *
name_like(HloModule *m, const char *base)
{
	size_t n = strlen(base);

	if (!strtab_find(m->strs, base, n))
		return strtab_intern(m->strs, base, n);
	return hlo_fresh_name(m, base);
}

HloComp *
hlo_fuse_comp_new(HloModule *m, const HloComp *caller)
{
	HloComp *fc = hlo_comp_new(m, name_like(m, "fused_computation"));
	int pos = m->comp.n - 1, j, i;

	for (j = 0; j < m->comp.n - 1; j++)
		if (m->comp.v[j] == caller)
			pos = j;
	/* move it from the end to just before its caller (callees come
	   before callers) */
	for (j = m->comp.n - 1; j > pos; j--)
		m->comp.v[j] = m->comp.v[j - 1];
	m->comp.v[pos] = fc;
	if (m->entry >= pos)
		m->entry++;
	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->callee >= pos && m->comp.v[j] != fc)
				in->callee++;
		}
	return fc;
}

HloComp *
hlo_fuse_callee(const HloModule *m, const HloInstr *f)
{
	if (f->op != HLO_FUSION || f->callee < 0 || f->callee >= m->comp.n)
		return NULL;
	return m->comp.v[f->callee];
}

int
hlo_fuse_param_of(const HloComp *fc, int64_t num)
{
	int i;

	for (i = 0; i < fc->instr.n; i++)
		if (fc->instr.v[i]->op == HLO_PARAMETER &&
		    fc->instr.v[i]->num == num)
			return i;
	bug("fused computation '%s' has no parameter %lld", fc->name,
	    (long long)num);
}

int
hlo_fuse_param(HloModule *m, HloComp *c, int f, int v)
{
	HloInstr *fi = c->instr.v[f], *p;
	HloComp *fc = hlo_fuse_callee(m, fi);
	char base[32];
	int k, *ops;

	for (k = 0; k < fi->noperand; k++)
		if (fi->operand[k] == v)
			return hlo_fuse_param_of(fc, k);
	ops = arena_alloc(m->arena, sizeof(int) * (size_t)(fi->noperand + 1));
	if (fi->noperand)
		memcpy(ops, fi->operand, sizeof(int) * (size_t)fi->noperand);
	ops[fi->noperand] = v;
	fi->operand = ops;
	snprintf(base, sizeof base, "param_%d", fi->noperand);
	p = hlo_instr_new(m, fc, HLO_PARAMETER, name_like(m, base));
	p->shape = c->instr.v[v]->shape;
	p->num = fi->noperand++;
	return fc->instr.n - 1;
}

HloInstr *
hlo_fuse_clone(HloModule *m, HloComp *to, const HloInstr *src,
    const char *name, const int *ops)
{
	HloInstr *in = hlo_instr_new(m, to, src->op, name);
	int i;

	*in = *src;
	in->name = name;
	in->operand = NULL;
	if (src->noperand) {
		in->operand = arena_alloc(m->arena,
		    sizeof(int) * (size_t)src->noperand);
		memcpy(in->operand, ops, sizeof(int) * (size_t)src->noperand);
	}
	/* the attribute vector is not shared: a later push would clash */
	memset(&in->attrs, 0, sizeof in->attrs);
	for (i = 0; i < src->attrs.n; i++)
		vec_push(m->arena, &in->attrs, src->attrs.v[i]);
	return in;
}

int
hlo_fuse_wrap(HloModule *m, HloComp *c, int i)
{
	HloComp *fc = hlo_fuse_comp_new(m, c);
	HloInstr *src = c->instr.v[i], *f;
	int ops[64], *o = ops, k, fi;

	f = hlo_add(m, c, HLO_FUSION, &src->shape, NULL, 0);
	fi = c->instr.n - 1;
	f->callee = hlo_find_comp(m, fc->name);
	f->kind = strtab_intern(m->strs, "kLoop", 5);
	f->meta = src->meta;
	if (src->noperand > 64)
		o = arena_alloc(m->arena,
		    sizeof(int) * (size_t)src->noperand);
	for (k = 0; k < src->noperand; k++)
		o[k] = hlo_fuse_param(m, c, fi, src->operand[k]);
	hlo_fuse_clone(m, fc, src, src->name, o);
	fc->root = fc->instr.n - 1;
	hlo_replace_uses(c, i, fi);
	hlo_fuse_detach(src);
	return fi;
}

/* Removes parameter number k of fusion f (unused by now). */
static void
drop_param(HloModule *m, HloComp *c, int f, int k)
{
	HloInstr *fi = c->instr.v[f];
	HloComp *fc = hlo_fuse_callee(m, fi);
	int pi = hlo_fuse_param_of(fc, k), i, j;

	for (i = pi; i + 1 < fc->instr.n; i++)
		fc->instr.v[i] = fc->instr.v[i + 1];
	fc->instr.n--;
	fc->nparam--;
	for (i = 0; i < fc->instr.n; i++) {
		HloInstr *in = fc->instr.v[i];
		if (in->op == HLO_PARAMETER && in->num > k)
			in->num--;
		for (j = 0; j < in->noperand; j++)
			if (in->operand[j] > pi)
				in->operand[j]--;
	}
	if (fc->root > pi)
		fc->root--;
	for (j = k; j + 1 < fi->noperand; j++)
		fi->operand[j] = fi->operand[j + 1];
	fi->noperand--;
}

void
hlo_fuse_producer(HloModule *m, HloComp *c, int f, int k, int keep)
{
	HloInstr *fi = c->instr.v[f];
	HloComp *fc = hlo_fuse_callee(m, fi);
	HloInstr *p = c->instr.v[fi->operand[k]];
	int ops[64], *o = ops, j, pk, ci;

	if (p->noperand > 64)
		o = arena_alloc(m->arena, sizeof(int) * (size_t)p->noperand);
	for (j = 0; j < p->noperand; j++)
		o[j] = hlo_fuse_param(m, c, f, p->operand[j]);
	hlo_fuse_clone(m, fc, p, keep ? hlo_fresh_name(m, p->name) : p->name,
	    o);
	ci = fc->instr.n - 1;
	pk = hlo_fuse_param_of(fc, k);
	hlo_replace_uses(fc, pk, ci);
	drop_param(m, c, f, k);
	if (!keep)
		hlo_fuse_detach(p);
}

int
hlo_fuse_has(const HloComp *fc, HloOp op)
{
	int i;

	for (i = 0; i < fc->instr.n; i++)
		if (fc->instr.v[i]->op == op)
			return 1;
	return 0;
}

/* The root's values: the operands of a root tuple, else the root. */
int
hlo_fuse_outputs(const HloComp *fc, int *out, int max)
{
	const HloInstr *r = fc->instr.v[fc->root];
	int k, n = 0;

	if (r->op != HLO_TUPLE) {
		out[0] = fc->root;
		return 1;
	}
	for (k = 0; k < r->noperand && n < max; k++)
		out[n++] = r->operand[k];
	return n;
}

const char *
hlo_fuse_kind(const HloComp *fc)
{
	int out[64], n, k;

	if (hlo_fuse_has(fc, HLO_DOT))
		return "kOutput";
	n = hlo_fuse_outputs(fc, out, 64);
	for (k = 0; k < n; k++) {
		HloOp op = fc->instr.v[out[k]]->op;
		if (op == HLO_REDUCE || op == HLO_TRANSPOSE)
			return "kInput";
	}
	return "kLoop";
}

/* Ops that do not name a fusion: data movement and leaves. */
static int
trivial(HloOp op)
{
	switch (op) {
	case HLO_PARAMETER: case HLO_CONSTANT: case HLO_IOTA:
	case HLO_BROADCAST: case HLO_RESHAPE: case HLO_BITCAST:
	case HLO_CONVERT: case HLO_TUPLE: case HLO_GTE:
		return 1;
	default:
		return 0;
	}
}

static void
put_op(Buf *b, HloOp op)
{
	const char *s;

	for (s = hlo_op_name(op); *s; s++)
		buf_putc(b, *s == '-' ? '_' : *s);
	buf_puts(b, "_");
}

/* The nearest non-trivial producer of fc's instruction r, or -1. */
static int
nearest(const HloComp *fc, int r)
{
	const HloInstr *in = fc->instr.v[r];
	int k, p;

	for (k = 0; k < in->noperand; k++)
		if (!trivial(fc->instr.v[in->operand[k]]->op))
			return in->operand[k];
	for (k = 0; k < in->noperand; k++)
		if ((p = nearest(fc, in->operand[k])) >= 0)
			return p;
	return -1;
}

/*
 * As XLA names small fusions after their ops (multiply_reduce_fusion,
 * add_sqrt_fusion): the root's op, after the nearest op producing it,
 * when the fusion does at most 3 non-trivial things; "fusion" otherwise.
 */
static const char *
fusion_name(HloModule *m, const HloComp *fc)
{
	Buf b = {0};
	const char *name;
	int out[1], r, p, i, nt = 0;

	for (i = 0; i < fc->instr.n; i++)
		nt += !trivial(fc->instr.v[i]->op);
	hlo_fuse_outputs(fc, out, 1);
	r = out[0];
	if (nt >= 1 && nt <= 3 && !trivial(fc->instr.v[r]->op)) {
		if (nt > 1 && (p = nearest(fc, r)) >= 0)
			put_op(&b, fc->instr.v[p]->op);
		put_op(&b, fc->instr.v[r]->op);
	}
	buf_puts(&b, "fusion");
	name = name_like(m, b.p);
	buf_free(&b);
	return name;
}

void
hlo_fuse_finish(HloModule *m, HloComp *c, int f, const char *name)
{
	HloInstr *fi = c->instr.v[f];
	HloComp *fc = hlo_fuse_callee(m, fi);
	const char *k = hlo_fuse_kind(fc);
	char base[32];
	int i;

	hlo_comp_clean(m, fc);
	/* parameters were renumbered as producers joined: name them again */
	for (i = 0; i < fc->instr.n; i++) {
		HloInstr *p = fc->instr.v[i];
		if (p->op != HLO_PARAMETER)
			continue;
		snprintf(base, sizeof base, "param_%lld", (long long)p->num);
		if (strncmp(p->name, base, strlen(base)) != 0 ||
		    (p->name[strlen(base)] && p->name[strlen(base)] != '.'))
			p->name = name_like(m, base);
	}
	fi->kind = strtab_intern(m->strs, k, strlen(k));
	fi->shape = fc->instr.v[fc->root]->shape;
	fi->name = name ? name : fusion_name(m, fc);
}
