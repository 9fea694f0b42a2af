/*
 * planprint.c - the --emit=pipeline dump: a kernel instance's pipeline
 * plan (per step, which copies start, are waited for or skipped, with
 * block indices and buffer slots) and its allocation table.
 *
 * Gives:    plan_print() (plan.h).
 * Format (doc/design.md, "Mosaic pipeline"): per step one line per
 * windowed operand, "NAME INDEX sSLOT ACTIONS"; an input with nothing to
 * do is "skip" (same block as the previous step), an output "new" or
 * "resident"; "after:" starts the actions after the body.  "?" is a
 * value decided at run time (SMEM tables not given); "if changed" and
 * "if pending" mark copies guarded by a run-time compare.
 */
#include "backend/mosaic/plan.h"

static const char *
role(const COperand *o)
{
	return o->role == ROLE_IN ? "in" : o->role == ROLE_OUT ? "out" :
	    "smem table";
}

static void
slot_str(Buf *b, int slot)
{
	if (slot < 0)
		buf_puts(b, "s?");
	else
		buf_printf(b, "s%d", slot);
}

static void
count_str(Buf *b, const char *what, int64_t n)
{
	if (n < 0)
		buf_printf(b, "  %s ?", what);
	else
		buf_printf(b, "  %s %lld", what, (long long)n);
}

static void
index_str(Buf *b, const MosaicPlan *p, int64_t s, int op)
{
	const COperand *o = &p->k->op[op];
	const PlanCell *c;
	int d;

	if (!p->enumerated || s < 0 || s >= p->nstep) {
		buf_puts(b, "(?)");
		return;
	}
	c = plan_cell(p, s, op);
	buf_putc(b, '(');
	for (d = 0; d < o->shape.rank; d++) {
		buf_puts(b, d ? ", " : "");
		if (c->known & (1u << d))
			buf_printf(b, "%lld", (long long)c->idx[d]);
		else
			buf_putc(b, '?');
	}
	buf_putc(b, ')');
}

static void
step_str(Buf *b, int64_t step)
{
	if (step < 0)
		buf_puts(b, "step ?");
	else
		buf_printf(b, "step %lld", (long long)step);
}

/* One event of operand e->op, as seen at step s (-1: prologue/epilogue). */
static void
event_str(Buf *b, const MosaicPlan *p, const PlanEv *e, int64_t s)
{
	const COperand *o = &p->k->op[e->op];

	switch (e->kind) {
	case PE_TABLE_START:
		buf_printf(b, "start %s -> smem", o->name);
		return;
	case PE_TABLE_WAIT:
		buf_printf(b, "wait %s", o->name);
		return;
	case PE_IN_START:
		buf_puts(b, o->role == ROLE_OUT ? "read back" : "start");
		if (e->step != s) {
			buf_putc(b, ' ');
			step_str(b, e->step);
			buf_putc(b, ' ');
			index_str(b, p, e->step, e->op);
		}
		buf_puts(b, " -> ");
		slot_str(b, e->slot);
		break;
	case PE_IN_WAIT:
		buf_puts(b, "wait ");
		slot_str(b, e->slot);
		break;
	case PE_OUT_START:
		buf_puts(b, "write back ");
		slot_str(b, e->slot);
		break;
	case PE_OUT_WAIT:
		buf_puts(b, "wait write-back");
		if (e->step != s) {
			buf_puts(b, " of ");
			step_str(b, e->step);
		}
		buf_puts(b, " (");
		slot_str(b, e->slot);
		buf_putc(b, ')');
		buf_puts(b, e->cond ? " if pending" : "");
		return;
	default:
		bug("plan event %d", e->kind);
	}
	buf_puts(b, e->cond ? " if changed" : "");
}

static void
operands(Buf *b, const MosaicPlan *p)
{
	const CKernel *k = p->k;
	int i;

	buf_puts(b, "  operands\n");
	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		const PlanOp *po = &p->op[i];
		buf_printf(b, "    %-12s %-10s %s", o->name, role(o),
		    dtype_name(o->dtype));
		shape_print(b, po->windowed ? &o->block : &o->shape);
		if (o->role == ROLE_SMEM_TABLE) {
			buf_puts(b, "  copied into SMEM by the prologue\n");
			continue;
		}
		if (!po->windowed) {
			buf_puts(b, "  in HBM, not pipelined\n");
			continue;
		}
		buf_printf(b, " %s  buffers %d  index %s", o->mem == MEM_SMEM ?
		    "smem" : "vmem", po->nbuf, po->constant ? "constant" :
		    po->dynamic ? "from SMEM tables" : "varies");
		if (o->role == ROLE_IN || o->revisit_any)
			count_str(b, "copies in", po->copies_in);
		if (o->role == ROLE_OUT)
			count_str(b, "write-backs", po->copies_out);
		buf_putc(b, '\n');
	}
}

static void
list(Buf *b, const char *title, const MosaicPlan *p, const PlanEv *e,
    int n)
{
	int j;

	if (!n)
		return;
	buf_printf(b, "  %s\n", title);
	for (j = 0; j < n; j++) {
		buf_puts(b, "    ");
		if (e[j].kind != PE_TABLE_START && e[j].kind != PE_TABLE_WAIT)
			buf_printf(b, "%s: ", p->k->op[e[j].op].name);
		event_str(b, p, &e[j], -1);
		buf_putc(b, '\n');
	}
}

/* The actions of op i in events e[0 .. n), "; "-separated. */
static int
actions(Buf *b, const MosaicPlan *p, int64_t s, int i, const PlanEv *e,
    int n, int any)
{
	int j;

	for (j = 0; j < n; j++) {
		if (e[j].op != i)
			continue;
		buf_puts(b, any++ ? "; " : "");
		event_str(b, p, &e[j], s);
	}
	return any;
}

static void
step_line(Buf *b, const MosaicPlan *p, int64_t s, int i)
{
	const CKernel *k = p->k;
	const PlanStep *st = &p->step[s];
	const PlanCell *c = plan_cell(p, s, i);
	int any, after = 0, j;

	buf_printf(b, "    %-12s ", k->op[i].name);
	index_str(b, p, s, i);
	buf_putc(b, ' ');
	slot_str(b, c->slot);
	buf_puts(b, "  ");
	if (k->op[i].role == ROLE_OUT)
		buf_puts(b, c->change > 0 ? "new" : c->change == 0 ?
		    "resident" : "new if changed");
	else if (c->change == 0)
		buf_puts(b, "skip");
	any = k->op[i].role == ROLE_OUT || c->change == 0;
	any = actions(b, p, s, i, p->ev + st->pre, st->npre, any);
	for (j = 0; j < st->npost; j++)
		after |= p->ev[st->post + j].op == i;
	if (after) {
		buf_puts(b, any ? "; after: " : "after: ");
		actions(b, p, s, i, p->ev + st->post, st->npost, 0);
	}
	buf_putc(b, '\n');
}

static void
steps(Buf *b, const MosaicPlan *p)
{
	const CKernel *k = p->k;
	int64_t s;
	int i, a;

	if (!p->enumerated) {
		buf_printf(b, "  steps: not listed (more than %d)\n",
		    PLAN_MAX_STEPS);
		return;
	}
	for (s = 0; s < p->nstep; s++) {
		buf_printf(b, "  step %lld (", (long long)s);
		for (a = 0; a < k->naxis; a++)
			buf_printf(b, "%s%s=%lld", a ? ", " : "",
			    k->axis[a].name, (long long)p->step[s].pt[a]);
		buf_puts(b, ")\n");
		for (i = 0; i < k->nop; i++)
			if (p->op[i].windowed)
				step_line(b, p, s, i);
	}
}

static const char *
kind_name(AllocKind k)
{
	static const char *const name[NALLOCKIND] = {
		[AK_BLOCK] = "block", [AK_SCRATCH] = "scratch",
		[AK_SEM] = "semaphore", [AK_INTERNAL] = "internal",
		[AK_ARGS] = "arguments", [AK_DESC] = "descriptors",
		[AK_TABLE] = "smem table", [AK_FLAG] = "flag",
	};
	return name[k];
}

static void
alloc_table(Buf *b, const CKernel *k, const MosaicAlloc *al)
{
	int i;

	buf_printf(b, "  allocation (preset %s: vmem tile %lld bytes, smem "
	    "align %lld)\n", k->preset->name, (long long)al->vmem_align,
	    (long long)al->smem_align);
	buf_printf(b, "    %-14s %-12s %-5s %10s %10s %6s  %s\n", "name",
	    "kind", "mem", "offset", "bytes", "slots", "flags");
	for (i = 0; i < al->nrow; i++) {
		const AllocRow *r = &al->row[i];
		buf_printf(b, "    %-14s %-12s ", r->name, kind_name(r->kind));
		if (r->mem == MEM_ANY)
			buf_printf(b, "%-5s %10s %10s %6s  ", "-", "-", "-",
			    "-");
		else
			buf_printf(b, "%-5s %10lld %10lld %6d  ",
			    r->mem == MEM_VMEM ? "vmem" : "smem",
			    (long long)r->offset, (long long)r->bytes,
			    r->nbuf);
		if (r->nflag == 0)
			buf_puts(b, "-");
		else if (r->nflag == 1)
			buf_printf(b, "f%d", r->flag);
		else
			buf_printf(b, "f%d-f%d", r->flag,
			    r->flag + r->nflag - 1);
		buf_putc(b, '\n');
	}
	buf_printf(b, "    vmem %lld of %lld bytes, smem %lld of %lld "
	    "bytes, %d of %d flags\n", (long long)al->vmem_used,
	    (long long)al->vmem_limit, (long long)al->smem_used,
	    (long long)al->smem_limit, al->nflag, al->flag_limit);
}

void
plan_print(Buf *out, const char *cname, const MosaicPlan *p,
    const MosaicAlloc *al)
{
	const CKernel *k = p->k;
	int i;

	buf_printf(out, "pipeline %s = kernel %s<", cname, k->name);
	for (i = 0; i < k->nparam; i++) {
		buf_printf(out, "%s%s=", i ? ", " : "", k->param_name[i]);
		sema_param_print(out, k, i);
	}
	buf_puts(out, ">\n  grid (");
	for (i = 0; i < k->naxis; i++)
		buf_printf(out, "%s%s: %lld", i ? ", " : "", k->axis[i].name,
		    (long long)k->axis[i].extent);
	buf_printf(out, "), %lld steps, %s\n", (long long)p->nstep,
	    p->concrete ? "every copy decided at compile time" :
	    "some copies decided at run time");
	operands(out, p);
	list(out, "prologue", p, p->pro, p->npro);
	steps(out, p);
	list(out, "epilogue", p, p->epi, p->nepi);
	if (al)
		alloc_table(out, k, al);
	buf_putc(out, '\n');
}
