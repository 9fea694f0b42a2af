/*
 * print.c - the --emit=sema dump of a checked module: per export the
 * instance, grid with semantics (and the axes that carry state),
 * operands with blocks, index maps and buffering, scratch, params, the
 * budget table, and the typed body, one statement per line.
 *
 * Gives:    sema_print(), cx_op_name() (checked.h).
 * Tests:    tests/golden/sema/
 */
#include <math.h>
#include <string.h>

#include "dsl/sema/sema.h"

static const char *const opnames[NCXOP] = {
	"const", "axis", "num_programs", "slot", "param", "load",
	"neg", "not", "bitnot", "exp", "log", "sqrt", "rsqrt", "tanh", "abs",
	"cast",
	"add", "sub", "mul", "div", "mod", "max", "min", "shl", "shr",
	"bitand", "bitor", "bitxor", "and", "or",
	"lt", "le", "gt", "ge", "eq", "ne",
	"where", "select",
	"iota", "broadcast", "reshape", "transpose", "roll", "slice",
	"sum", "rowmax", "rowmin", "mean", "softmax", "dot", "call",
};	/* ORDER CX */

const char *
cx_op_name(CxOp op)
{
	return op < NCXOP ? opnames[op] : "?";
}

typedef struct P {
	Buf *b;
	const CKernel *k;
	const CFunc *f;
} P;

static void type(Buf *b, DType t, const Shape *s)
{
	buf_puts(b, dtype_name(t));
	if (s->rank)
		shape_print(b, s);
}

static void expr(P *p, const CExpr *e);

static void
slice(P *p, const CSlice *sl)
{
	int i;

	buf_putc(p->b, '[');
	for (i = 0; i < sl->n; i++) {
		const CIdx *x = &sl->dim[i];
		if (i)
			buf_puts(p->b, ", ");
		if (x->squeeze && x->dyn)
			expr(p, x->dyn);
		else if (x->squeeze)
			buf_printf(p->b, "%lld", (long long)x->start);
		else if (x->dyn) {
			buf_puts(p->b, "ds(");
			expr(p, x->dyn);
			buf_printf(p->b, ", %lld", (long long)x->size);
			if (x->multiple > 1)
				buf_printf(p->b, ", multiple %lld",
				    (long long)x->multiple);
			buf_putc(p->b, ')');
		} else
			buf_printf(p->b, "%lld:%lld", (long long)x->start,
			    (long long)(x->start + x->size));
	}
	buf_putc(p->b, ']');
}

static const char *
refname(const P *p, CRef r)
{
	return r.kind == CREF_SCRATCH ? p->k->scratch[r.index].name :
	    p->k->op[r.index].name;
}

static void
constant(P *p, const CExpr *e)
{
	if (dtype_is_float(e->dtype)) {
		if (isinf(e->u.cst.f))
			buf_puts(p->b, e->u.cst.f < 0 ? "-inf" : "inf");
		else
			buf_printf(p->b, "%.9g", e->u.cst.f);
	} else
		buf_printf(p->b, "%lld", (long long)e->u.cst.i);
}

static void
expr(P *p, const CExpr *e)
{
	int i;

	switch (e->op) {
	case CX_CONST:
		constant(p, e);
		break;
	case CX_AXIS:
		buf_puts(p->b, p->k ? p->k->axis[e->u.axis].name : "?");
		return;
	case CX_SLOT:
		buf_printf(p->b, "%%%s", p->k ? p->k->slot[e->u.slot].name :
		    p->f->slot[e->u.slot].name);
		return;
	case CX_PARAM:
		buf_puts(p->b, p->f->param[e->u.slot].name);
		return;
	case CX_LOAD:
		buf_puts(p->b, refname(p, e->u.load.ref));
		slice(p, &e->u.load.sl);
		break;
	default:
		buf_puts(p->b, cx_op_name(e->op));
		if (e->op == CX_NPROG || e->op == CX_IOTA || e->op == CX_ROLL)
			buf_printf(p->b, ".%d", e->u.axis);
		if (e->op >= CX_SUM && e->op <= CX_SOFTMAX)
			buf_printf(p->b, ".%d%s", e->u.red.axis,
			    e->u.red.keepdims ? "k" : "");
		if (e->op == CX_DOT)
			buf_printf(p->b, "%s%s.p%d", e->u.dot.trans_a ? ".ta" : "",
			    e->u.dot.trans_b ? ".tb" : "", (int)e->u.dot.prec);
		if (e->op == CX_CALL)
			buf_printf(p->b, ".%s", e->u.call->name);
		buf_putc(p->b, '(');
		for (i = 0; i < e->n; i++) {
			if (i)
				buf_puts(p->b, ", ");
			expr(p, e->arg[i]);
		}
		if (e->op == CX_SLICE) {
			buf_puts(p->b, ", ");
			slice(p, &e->u.sl);
		}
		buf_putc(p->b, ')');
		break;
	}
	buf_putc(p->b, ':');
	type(p->b, e->dtype, &e->shape);
	if (e->named)
		buf_printf(p->b, "@\"%s\"", e->named);
}

static void block(P *p, const CBlock *b, int ind);

static void
place(P *p, const CPlace *pl)
{
	buf_puts(p->b, refname(p, pl->ref));
	slice(p, &pl->sl);
}

static void
stmt(P *p, const CStmt *s, int ind)
{
	buf_printf(p->b, "%*s", ind, "");
	switch (s->kind) {
	case CS_LET:
		buf_printf(p->b, "let %%%s = ", s->u.let.name);
		expr(p, s->u.let.value);
		break;
	case CS_STORE:
		place(p, &s->u.store.place);
		buf_printf(p->b, " %s= ", s->u.store.acc == NCXOP ? "" :
		    cx_op_name(s->u.store.acc));
		expr(p, s->u.store.value);
		break;
	case CS_WHEN:
		buf_puts(p->b, "when ");
		expr(p, s->u.when.cond);
		buf_putc(p->b, '\n');
		block(p, &s->u.when.then, ind + 2);
		if (s->u.when.els.n) {
			buf_printf(p->b, "%*selse\n", ind, "");
			block(p, &s->u.when.els, ind + 2);
		}
		return;
	case CS_FOR:
		buf_printf(p->b, "for %%%s in ", s->u.loop.name);
		expr(p, s->u.loop.lo);
		buf_puts(p->b, " : ");
		expr(p, s->u.loop.hi);
		buf_printf(p->b, " : %lld\n", (long long)s->u.loop.step);
		block(p, &s->u.loop.body, ind + 2);
		return;
	case CS_DMA_START: case CS_DMA_WAIT: case CS_DMA_COPY:
		buf_puts(p->b, s->kind == CS_DMA_START ? "dma_start " :
		    s->kind == CS_DMA_WAIT ? "dma_wait " : "dma_copy ");
		place(p, &s->u.dma.src);
		buf_puts(p->b, " -> ");
		place(p, &s->u.dma.dst);
		if (s->kind != CS_DMA_COPY) {
			buf_puts(p->b, " sem ");
			place(p, &s->u.dma.sem);
		}
		break;
	case CS_SEM_SIGNAL: case CS_SEM_WAIT:
		buf_puts(p->b, s->kind == CS_SEM_SIGNAL ? "sem_signal " :
		    "sem_wait ");
		place(p, &s->u.sem.sem);
		buf_puts(p->b, " ");
		expr(p, s->u.sem.count);
		break;
	case CS_EVAL: case CS_RETURN:
		buf_puts(p->b, s->kind == CS_EVAL ? "eval " : "return ");
		expr(p, s->u.value);
		break;
	case CS_CHECK:
		buf_puts(p->b, "check ");
		expr(p, s->u.check.cond);
		buf_puts(p->b, " ");
		buf_json_str(p->b, s->u.check.msg);
		break;
	default:
		break;
	}
	buf_putc(p->b, '\n');
}

static void
block(P *p, const CBlock *b, int ind)
{
	int i;

	for (i = 0; i < b->n; i++)
		stmt(p, b->v[i], ind);
}

static const char *const semname[] = { "arbitrary", "parallel",
    "core_parallel" };
static const char *const rolename[] = { "smem_table", "in", "out" };
static const char *const precname[] = { "default", "high", "highest" };

static void
operand(P *p, const COperand *o)
{
	int d;

	buf_printf(p->b, "  operand %s %s ", o->name, rolename[o->role]);
	type(p->b, o->dtype, &o->shape);
	buf_printf(p->b, " %s", ast_mem_name(o->mem));
	if (o->blocked) {
		buf_puts(p->b, " block [");
		for (d = 0; d < o->block.rank; d++)
			if (o->squeezed[d])
				buf_printf(p->b, "%s_", d ? ", " : "");
			else
				buf_printf(p->b, "%s%lld", d ? ", " : "",
				    (long long)o->block.d[d]);
		buf_printf(p->b, "] %s(", o->element ? "at element " : "at ");
		for (d = 0; d < o->shape.rank; d++) {
			if (d)
				buf_puts(p->b, ", ");
			if (o->map[d])
				expr(p, o->map[d]);
			else
				buf_putc(p->b, '0');
		}
		buf_printf(p->b, ") buffers %d", o->buffers);
	}
	if (o->runtime_check)
		buf_puts(p->b, " runtime-check");
	if (o->revisit_any)
		buf_puts(p->b, " revisit-any");
	if (o->alias_in >= 0)
		buf_printf(p->b, " alias %s", p->k->op[o->alias_in].name);
	buf_putc(p->b, '\n');
}

static void
budget(P *p, const CBudget *B)
{
	int i;

	buf_printf(p->b, "  budget\n    %-12s %-10s %-5s %-20s %7s %10s\n",
	    "name", "what", "mem", "block", "buffers", "bytes");
	for (i = 0; i < B->row.n; i++) {
		const CBudgetRow *r = &B->row.v[i];
		Buf t = {0};
		if (strcmp(r->what, "internal") == 0)
			buf_putc(&t, '-');
		else
			type(&t, r->dtype, &r->block);
		buf_putc(&t, 0);
		buf_printf(p->b, "    %-12s %-10s %-5s %-20s %7d %10lld\n",
		    r->name, r->what, ast_mem_name(r->mem), t.p, r->buffers,
		    (long long)r->bytes);
		buf_free(&t);
	}
	buf_printf(p->b, "    vmem %lld of %lld bytes\n",
	    (long long)B->vmem_used, (long long)B->vmem_limit);
	buf_printf(p->b, "    smem %lld of %lld bytes\n",
	    (long long)B->smem_used, (long long)B->smem_limit);
}

static void
kernel(Buf *b, const CKernel *k)
{
	P p = { b, k, NULL };
	int i;

	buf_printf(b, "kernel %s<", k->name);
	for (i = 0; i < k->nparam; i++) {
		buf_printf(b, "%s%s=", i ? ", " : "", k->param_name[i]);
		sema_param_print(b, k, i);
	}
	buf_puts(b, ">\n  grid (");
	for (i = 0; i < k->naxis; i++)
		buf_printf(b, "%s%s: %lld %s%s", i ? ", " : "", k->axis[i].name,
		    (long long)k->axis[i].extent, semname[k->axis[i].sem],
		    k->axis[i].carries ? " carries" : "");
	buf_puts(b, ")\n");
	for (i = 0; i < k->nop; i++)
		operand(&p, &k->op[i]);
	for (i = 0; i < k->nscratch; i++) {
		buf_printf(b, "  scratch %s %s ", k->scratch[i].name,
		    ast_mem_name(k->scratch[i].mem));
		type(b, k->scratch[i].dtype, &k->scratch[i].shape);
		buf_putc(b, '\n');
	}
	buf_printf(b, "  params vmem_limit %lld target %s precision %s\n",
	    (long long)k->params.vmem_limit, k->params.target ?
	    k->params.target : "-", precname[k->params.precision]);
	budget(&p, &k->budget);
	buf_puts(b, "  body\n");
	block(&p, &k->body, 4);
}

static void
func(Buf *b, const CFunc *f)
{
	P p = { b, NULL, f };
	int i;

	buf_printf(b, "func %s(", f->name);
	for (i = 0; i < f->nparam; i++) {
		buf_printf(b, "%s%s: ", i ? ", " : "", f->param[i].name);
		type(b, f->param[i].dtype, &f->param[i].shape);
	}
	buf_puts(b, ") -> ");
	type(b, f->rdtype, &f->rshape);
	buf_puts(b, "\n  body\n");
	block(&p, &f->body, 4);
}

void
sema_print(Buf *out, const CheckedModule *m)
{
	int i;

	buf_printf(out, "preset %s\n", m->preset->name);
	for (i = 0; i < m->nexport; i++) {
		buf_printf(out, "\nexport %s = ", m->exp[i].cname);
		if (m->exp[i].kernel)
			kernel(out, m->exp[i].kernel);
		else if (m->exp[i].func)
			func(out, m->exp[i].func);
	}
}
