/*
 * func_calls.c - the kernels a func calls: every distinct kernel
 * instance its expression DAG names in a CX_CALL (lowered to a
 * custom-call whose backend_config is hlo_kernel_config), as the exports
 * of a checked module, so that they compile with the func's fusion
 * kernels and its top-level program can run them (graph/tlp.c).
 *
 * Entry:    hlo_func_callees (lower.h)
 * Tests:    tests/unit/check_hlo_tlp.c, tests/e2e.sh (examples/toyprog.pk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph/lower.h"

typedef struct Calls {
	const CExpr **seen;	/* open addressing over the DAG's nodes */
	size_t cap, n;
	const char *prefix;
	Arena *a;
	CheckedModule *km;
	int cap_exp;
	int failed;		/* out of memory */
} Calls;

static size_t
slot(const Calls *c, const CExpr *e)
{
	size_t h = (size_t)((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15u;

	return h & (c->cap - 1);
}

/* Whether e was seen before (and records it). */
static int
seen(Calls *c, const CExpr *e)
{
	size_t i, cap;
	const CExpr **old;

	if (2 * (c->n + 1) > c->cap) {
		old = c->seen;
		cap = c->cap;
		c->cap = cap ? 2 * cap : 64;
		if (!(c->seen = calloc(c->cap, sizeof *c->seen))) {
			c->failed = 1;
			c->seen = old;
			c->cap = cap;
			return 1;
		}
		c->n = 0;
		for (i = 0; i < cap; i++)
			if (old[i])
				(void)seen(c, old[i]);
		free(old);
	}
	for (i = slot(c, e); c->seen[i]; i = (i + 1) & (c->cap - 1))
		if (c->seen[i] == e)
			return 1;
	c->seen[i] = e;
	c->n++;
	return 0;
}

/* Kernel k as an export, unless an export has its instance already. */
static void
add(Calls *c, CKernel *k)
{
	CheckedModule *km = c->km;
	const char *cfg = hlo_kernel_config(c->a, k);
	CExport *e;
	int i;

	for (i = 0; i < km->nexport; i++)
		if (!strcmp(hlo_kernel_config(c->a, km->exp[i].kernel), cfg))
			return;
	if (km->nexport == c->cap_exp) {
		CExport *v;
		c->cap_exp = c->cap_exp ? 2 * c->cap_exp : 4;
		v = arena_alloc(c->a, sizeof *v * (size_t)c->cap_exp);
		if (km->nexport)
			memcpy(v, km->exp, sizeof *v * (size_t)km->nexport);
		km->exp = v;
	}
	e = &km->exp[km->nexport];
	memset(e, 0, sizeof *e);
	e->kernel = k;
	e->loc = k->loc;
	e->cname = km->nexport ? arena_printf(c->a, "%s.%s.%d", c->prefix,
	    k->name, km->nexport) : arena_printf(c->a, "%s.%s", c->prefix,
	    k->name);
	km->nexport++;
}

static void
walk(Calls *c, const CExpr *e)
{
	int i;

	if (!e || seen(c, e))
		return;
	if (e->op == CX_CALL)
		add(c, e->u.call);
	for (i = 0; i < e->n; i++)
		walk(c, e->arg[i]);
}

CheckedModule *
hlo_func_callees(const CheckedModule *cm, const CFunc *f, const char *prefix,
    Arena *a)
{
	Calls c;

	memset(&c, 0, sizeof c);
	c.prefix = prefix;
	c.a = a;
	c.km = arena_alloc(a, sizeof *c.km);
	memset(c.km, 0, sizeof *c.km);
	c.km->preset = cm->preset;
	walk(&c, f->result);
	free(c.seen);
	return c.failed ? NULL : c.km;
}
