/*
 * pass_schedule.c - scheduling: a post-order of every computation that
 * is not a fusion's body, then a memory-aware list schedule; the one
 * with the lower peak of live bytes (buffers.c) wins, as XLA's default
 * memory scheduler keeps the best of its candidates.  Afterwards the
 * text order of each such computation is its schedule and the module
 * says is_scheduled=true, which memory-space assignment relies on.
 */
#include <string.h>

#include "graph/pass.h"

/* fused[ci]: computation ci is the body of a fusion (not scheduled). */
static char *
fused_comps(Arena *a, const HloModule *m)
{
	char *f = arena_alloc(a, (size_t)m->comp.n + 1);
	int j, i;

	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++) {
			const HloInstr *in = m->comp.v[j]->instr.v[i];
			if (in->op == HLO_FUSION && in->callee >= 0 &&
			    in->callee < m->comp.n)
				f[in->callee] = 1;
		}
	return f;
}

typedef struct Sched {
	const HloComp *c;
	int n;
	int *order, norder;
	char *done;
	int *stack;
} Sched;

/* Appends i after its operands, in operand order (iterative DFS). */
static void
dfs(Sched *s, int i)
{
	int top = 0;

	if (s->done[i])
		return;
	s->done[i] = 2;
	s->stack[top++] = i;
	while (top) {
		const HloInstr *in = s->c->instr.v[s->stack[top - 1]];
		int k, pushed = 0;
		for (k = 0; k < in->noperand && !pushed; k++)
			if (!s->done[in->operand[k]]) {
				s->done[in->operand[k]] = 2;
				s->stack[top++] = in->operand[k];
				pushed = 1;
			}
		if (!pushed) {
			s->done[s->stack[top - 1]] = 1;
			s->order[s->norder++] = s->stack[--top];
		}
	}
}

/*
 * Parameters first (in text order: they are live throughout anyway),
 * then the root's post-order, then what the root does not reach (side
 * effects), each after its operands.
 */
static void
post_order(Sched *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->c->instr.v[i]->op == HLO_PARAMETER) {
			s->done[i] = 1;
			s->order[s->norder++] = i;
		}
	if (s->c->root >= 0)
		dfs(s, s->c->root);
	for (i = 0; i < s->n; i++)
		dfs(s, i);
}

/* Bytes the buffers instruction i defines (aliases define none). */
static int64_t *
defined_bytes(Arena *a, const HloBuffers *b)
{
	int64_t *d = arena_alloc(a, sizeof *d * ((size_t)b->n + 1));
	int i;

	for (i = 0; i < b->nbuf; i++)
		d[b->buf[i].def] += b->buf[i].bytes;
	return d;
}

/* Scheduling i now frees what it reads last, less what it defines. */
static int64_t
gain(const HloBuffers *b, const int *left, const int64_t *def, int i)
{
	int64_t g = -def[i];
	int j;

	for (j = b->rfirst[i]; j < b->rfirst[i + 1]; j++) {
		const HloBuffer *f = &b->buf[b->reads[j]];
		if (left[b->reads[j]] == 1 && !f->param && !f->out)
			g += f->bytes;
	}
	return g;
}

/*
 * Greedy list scheduling: among the ready instructions, the one that
 * frees the most bytes net of what it defines; ties by post-order.
 */
static void
list_order(Sched *s, Arena *a, const HloBuffers *b, const int *rank,
    int *out)
{
	int n = s->n, i, j, k, nready = 0, nout = 0;
	int *left = arena_alloc(a, sizeof(int) * ((size_t)b->nbuf + 1));
	int *pend = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	int *ufirst = arena_alloc(a, sizeof(int) * ((size_t)n + 2));
	int *users, *ready = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	int64_t *def = defined_bytes(a, b);
	int nslot = 0;

	for (i = 0; i < b->rfirst[n]; i++)
		left[b->reads[i]]++;
	for (i = 0; i < n; i++) {
		pend[i] = s->c->instr.v[i]->noperand;
		nslot += pend[i];
		for (k = 0; k < pend[i]; k++)
			ufirst[s->c->instr.v[i]->operand[k] + 1]++;
	}
	for (i = 0; i < n; i++)
		ufirst[i + 1] += ufirst[i];
	users = arena_alloc(a, sizeof(int) * ((size_t)nslot + 1));
	{
		int *fill = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
		for (i = 0; i < n; i++)
			for (k = 0; k < s->c->instr.v[i]->noperand; k++) {
				int o = s->c->instr.v[i]->operand[k];
				users[ufirst[o] + fill[o]++] = i;
			}
	}
	for (i = 0; i < n; i++)
		if (!pend[i])
			ready[nready++] = i;
	while (nready) {
		int best = 0;
		int64_t bg = 0;
		for (j = 0; j < nready; j++) {
			int x = ready[j];
			/* parameters first, as in the post-order */
			int64_t g = s->c->instr.v[x]->op == HLO_PARAMETER ?
			    INT64_MAX : gain(b, left, def, x);
			if (j == 0 || g > bg || (g == bg &&
			    rank[x] < rank[ready[best]])) {
				best = j;
				bg = g;
			}
		}
		i = ready[best];
		ready[best] = ready[--nready];
		out[nout++] = i;
		for (j = b->rfirst[i]; j < b->rfirst[i + 1]; j++)
			left[b->reads[j]]--;
		for (j = ufirst[i]; j < ufirst[i + 1]; j++)
			if (--pend[users[j]] == 0)
				ready[nready++] = users[j];
	}
	if (nout != n)
		bug("list scheduling of '%s' left instructions out",
		    s->c->name);
}

static int64_t
peak_of(HloBuffers *b, Arena *a, const int *order)
{
	int *pos = arena_alloc(a, sizeof(int) * ((size_t)b->n + 1));
	int i;

	for (i = 0; i < b->n; i++)
		pos[order[i]] = i;
	hlo_buffers_live(b, pos);
	return hlo_buffers_peak(b);
}

/* Puts c's instructions in 'order'; 1 if that moved any. */
static int
apply(HloComp *c, Arena *a, const int *order)
{
	int n = c->instr.n, i, k, moved = 0;
	int *newidx = arena_alloc(a, sizeof(int) * ((size_t)n + 1));
	HloInstr **old = arena_alloc(a, sizeof *old * ((size_t)n + 1));

	for (i = 0; i < n; i++) {
		newidx[order[i]] = i;
		old[i] = c->instr.v[i];
		moved |= order[i] != i;
	}
	if (!moved)
		return 0;
	for (i = 0; i < n; i++) {
		HloInstr *in = old[order[i]];
		for (k = 0; k < in->noperand; k++)
			in->operand[k] = newidx[in->operand[k]];
		c->instr.v[i] = in;
	}
	if (c->root >= 0)
		c->root = newidx[c->root];
	return 1;
}

static int
schedule_comp(HloComp *c)
{
	Arena a = {0};
	Sched s;
	HloBuffers b;
	int *rank, *list, i, r;
	int64_t pp, pl;

	memset(&s, 0, sizeof s);
	s.c = c;
	s.n = c->instr.n;
	s.order = arena_alloc(&a, sizeof(int) * ((size_t)s.n + 1));
	s.done = arena_alloc(&a, (size_t)s.n + 1);
	s.stack = arena_alloc(&a, sizeof(int) * ((size_t)s.n + 1));
	post_order(&s);
	rank = arena_alloc(&a, sizeof(int) * ((size_t)s.n + 1));
	for (i = 0; i < s.n; i++)
		rank[s.order[i]] = i;
	hlo_buffers_build(&b, &a, c);
	list = arena_alloc(&a, sizeof(int) * ((size_t)s.n + 1));
	list_order(&s, &a, &b, rank, list);
	pp = peak_of(&b, &a, s.order);
	pl = peak_of(&b, &a, list);
	r = apply(c, &a, pl < pp ? list : s.order);
	arena_free(&a);
	return r;
}

/* Sets the header attribute is_scheduled=true; 1 if it was not. */
static int
mark_scheduled(HloModule *m)
{
	HloAttr at;
	int i;

	for (i = 0; i < m->attrs.n; i++)
		if (strcmp(m->attrs.v[i].name, "is_scheduled") == 0) {
			if (m->attrs.v[i].value &&
			    strcmp(m->attrs.v[i].value, "true") == 0)
				return 0;
			m->attrs.v[i].value = "true";
			return 1;
		}
	/* XLA prints it first, before entry_computation_layout */
	at.name = "is_scheduled";
	at.value = "true";
	vec_push(m->arena, &m->attrs, at);
	memmove(m->attrs.v + 1, m->attrs.v,
	    sizeof *m->attrs.v * (size_t)(m->attrs.n - 1));
	m->attrs.v[0] = at;
	return 1;
}

int
hlo_pass_schedule(HloModule *m, HloPassCtx *cx)
{
	Arena a = {0};
	char *fused = fused_comps(&a, m);
	int j, changed = 0;

	(void)cx;
	for (j = 0; j < m->comp.n; j++)
		if (!fused[j])
			changed |= schedule_comp(m->comp.v[j]);
	arena_free(&a);
	return mark_scheduled(m) | changed;
}
