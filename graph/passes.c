/*
 * passes.c - the HLO-to-HLO pass pipeline, listed once, and the loop
 * that runs it: groups of passes repeat until a round changes nothing
 * (XLA's fixed-point pipelines), a pass the options turn off is skipped,
 * and after every pass the module may be verified and shown to a hook.
 */
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

/* algsimp-div's tolerance: a few roundings of bf16 (2^-8 each). */
#define ALGSIMP_DIV_RTOL 0x1p-5

/* In order.  A group number > 0 runs its passes as one fixed point. */
static const HloPass pipeline[] = {
	{ "algsimp", hlo_pass_algsimp, 1, 0,
	    "exact algebraic identities, shape-op merging, x/2^k" },
	{ "algsimp-div", hlo_pass_algsimp_div, 1, ALGSIMP_DIV_RTOL,
	    "HandleDivide's rounding rules: x/C as x*(1/C), exp, sqrt, pow "
	    "and nested divides" },
	{ "constant-folding", hlo_pass_constfold, 1, 0,
	    "instructions of constants evaluated into constants" },
	{ "cse", hlo_pass_cse, 1, 0, "identical instructions merged" },
	{ "dce", hlo_pass_dce, 1, 0, "dead instructions and computations" },
	{ "layout-assignment", hlo_pass_layout, 0, 0,
	    "minor_to_major for every array, copies where one must change" },
	{ "tiling", hlo_pass_tiling, 0, 0,
	    "TPU tiles from the preset's vreg shape (T(8,128) on v6e)" },
	{ "fusion", hlo_pass_fusion, 0, 0,
	    "producer/consumer fusion (kLoop, kInput, kOutput)" },
	{ "multi-output-fusion", hlo_pass_mof, 0, 0,
	    "sibling and producer-consumer multi-output fusion" },
	{ "scheduling", hlo_pass_schedule, 0, 0,
	    "post-order, then memory-aware list schedule (is_scheduled)" },
	{ "memory-space-assignment", hlo_pass_msa, 0, 0,
	    "values into VMEM (S(1)), prefetches as copy-start/copy-done" },
};

enum { NPASS = sizeof pipeline / sizeof pipeline[0], MAXROUNDS = 16 };

int
hlo_pass_known(const char *name)
{
	int i;

	for (i = 0; i < NPASS; i++)
		if (strcmp(pipeline[i].name, name) == 0)
			return 1;
	return 0;
}

double
hlo_pass_tolerance(const char *name)
{
	int i;

	for (i = 0; i < NPASS; i++)
		if (strcmp(pipeline[i].name, name) == 0)
			return pipeline[i].rtol;
	return 0;
}

int
hlo_run_pass(HloModule *m, const char *name, HloPassCtx *cx)
{
	int i;

	for (i = 0; i < NPASS; i++)
		if (strcmp(pipeline[i].name, name) == 0)
			return pipeline[i].run(m, cx);
	bug("no HLO pass '%s'", name);
}

void
hlo_pass_names(Buf *b)
{
	int i, j;

	for (i = 0; i < NPASS; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(pipeline[j].name, pipeline[i].name) == 0)
				break;
		if (j == i)
			buf_printf(b, "%s%s", b->n ? ", " : "", pipeline[i].name);
	}
}

static int
is_off(const HloOptOpts *o, const char *name)
{
	int i;

	for (i = 0; i < o->noff; i++)
		if (strcmp(o->off[i], name) == 0)
			return 1;
	return 0;
}

/* One pass: run, check, show.  1 changed, 0 not, -1 error or stop. */
static int
run_pass(HloModule *m, const HloPass *p, const HloOptOpts *o,
    HloPassCtx *cx)
{
	int r = p->run(m, cx);

	if (r < 0)
		return -1;
	if (o->verify && hlo_verify(m, cx->d) != 0) {
		Buf b = {0};
		hlo_print(&b, m);
		bug("pass '%s' left a module that does not verify:\n%.*s",
		    p->name, (int)b.n, b.p ? b.p : "");
	}
	if (o->after && o->after(m, p->name, r, o->arg))
		return -1;
	return r;
}

/* The passes [i, end) of one group, to a fixed point. */
static int
run_group(HloModule *m, int i, int end, const HloOptOpts *o,
    HloPassCtx *cx)
{
	int round, k, r, changed = 1;

	for (round = 0; changed && round < MAXROUNDS; round++) {
		changed = 0;
		for (k = i; k < end; k++) {
			if (is_off(o, pipeline[k].name))
				continue;
			if ((r = run_pass(m, &pipeline[k], o, cx)) < 0)
				return -1;
			changed |= r;
		}
	}
	return 0;
}

int
hlo_optimize(HloModule *m, const HloOptOpts *o, Diag *d)
{
	HloPassCtx cx;
	int i, end;

	cx.mp = o->mp ? o->mp : mach_preset(NULL);
	cx.d = d;
	cx.stats = o->stats;
	for (i = 0; i < NPASS; i = end) {
		end = i + 1;
		if (pipeline[i].group > 0)
			while (end < NPASS && pipeline[end].group ==
			    pipeline[i].group)
				end++;
		if (pipeline[i].group > 0) {
			if (run_group(m, i, end, o, &cx) < 0)
				return -1;
		} else if (!is_off(o, pipeline[i].name) &&
		    run_pass(m, &pipeline[i], o, &cx) < 0)
			return -1;
	}
	return d->nerror ? -1 : 0;
}
