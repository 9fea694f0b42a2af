/*
 * pallasc-func.c - pallasc --run of a func export, before the top-level
 * program exists: the func lowered to HLO and optimised for the preset,
 * each of its kernels (graph/fusion_kernels.c: a fusion, or an
 * instruction left outside fusions) compiled and run on the simulator in
 * the entry's order, their results passed on by the driver as the
 * top-level program will pass them through HBM.  Each kernel's counters
 * are printed under its name.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/lower.h"
#include "tools/pallasc.h"

/* The value of an entry instruction: an array (owned or not) or a tuple
   of other instructions' values. */
typedef struct Val {
	InterpBuf *b;		/* array, or NULL */
	int n;			/* tuple: elements el[0 .. n) */
	InterpBuf **el;
	int nown;		/* el[0 .. nown) are this value's (a kernel's
				   outputs); the rest of el, and b, borrowed */
	InterpBuf *view;	/* a bitcast's struct (its data borrowed) */
} Val;

typedef struct Seq {
	const RunOpts *r;
	PallasStats sum;	/* over the kernels run */
	int nkernel;
	const HloComp *c;
	const CheckedModule *fm;
	Val *v;
	int next;		/* fm's next kernel */
	Diag *d;
	Buf *stats;
	const char *func;
} Seq;

static int
fail(const Seq *s, const HloInstr *in, const char *what)
{
	fprintf(stderr, "pallasc: error: func '%s': %s (%s) %s\n", s->func,
	    in->name, hlo_op_name(in->op), what);
	return -1;
}

/* Element k of instruction i's value as an array, or NULL. */
static InterpBuf *
array(const Seq *s, int i, int k)
{
	const Val *v = &s->v[i];

	if (v->b)
		return k == 0 ? v->b : NULL;
	return k < v->n ? v->el[k] : NULL;
}

/* Operand 0's array, or with in's shape (a bitcast's view). */
static int
alias(Seq *s, int i, const HloInstr *in, int reshape)
{
	InterpBuf *x = array(s, in->operand[0], 0);
	int k;

	if (!x)
		return fail(s, in, "reads no array");
	if (!reshape) {
		s->v[i].b = x;
		return 0;
	}
	s->v[i].view = xmalloc(sizeof(InterpBuf));
	*s->v[i].view = *x;
	s->v[i].view->shape.rank = in->shape.rank;
	for (k = 0; k < in->shape.rank; k++)
		s->v[i].view->shape.d[k] = in->shape.dim[k];
	s->v[i].b = s->v[i].view;
	return 0;
}

/* The next kernel of fm for instruction i: operands pN from in's
   operands, outputs rN made; run on the simulator. */
static int
run_one(Seq *s, int i, const HloInstr *in)
{
	const CExport *e = s->next < s->fm->nexport ?
	    &s->fm->exp[s->next++] : NULL;
	const CKernel *k = e ? e->kernel : NULL;
	InterpBuf *b, *x;
	PallasStats st;
	int j, n, nout = 0, rc;

	if (!k)
		return fail(s, in, "has no kernel");
	b = xcalloc((size_t)k->nop + 1, sizeof *b);
	s->v[i].el = xcalloc((size_t)k->nop + 1, sizeof(InterpBuf *));
	for (j = 0; j < k->nop; j++) {
		const COperand *op = &k->op[j];
		n = atoi(op->name + 1);
		if (op->role == ROLE_IN) {
			if (n >= in->noperand || !(x = array(s, in->operand[n],
			    0)) || x->dtype != op->dtype ||
			    !shape_eq(&x->shape, &op->shape)) {
				free(b);
				return fail(s, in, "has an operand its kernel "
				    "does not take");
			}
			b[j] = *x;
			continue;
		}
		if (interp_buf_try_alloc(&b[j], op->name, op->dtype,
		    &op->shape)) {
			free(b);
			return fail(s, in, "needs more host memory");
		}
		s->v[i].el[nout++] = xmalloc(sizeof(InterpBuf));
		*s->v[i].el[nout - 1] = b[j];
		s->v[i].nown = nout;
	}
	buf_printf(s->stats, "kernel %s:\n", e->cname);
	rc = sim_kernel(s->r, s->fm, e->cname, b, k->nop, s->d, s->stats, &st);
	if (!rc) {
		s->sum.c.cycles += st.c.cycles;
		s->sum.c.hbm_read_bytes += st.c.hbm_read_bytes;
		s->sum.c.hbm_write_bytes += st.c.hbm_write_bytes;
		s->sum.c.mxu_busy_cycles += st.c.mxu_busy_cycles;
		s->nkernel++;
	}
	free(b);	/* the outputs' structs are el's, their data too */
	if (in->op == HLO_FUSION && in->shape.type == HT_TUPLE)
		s->v[i].n = nout;	/* a multi-output fusion */
	else
		s->v[i].b = s->v[i].el[0];
	return rc;
}

/* The dtype of an HLO element type kernels have, or -1. */
static int
dtype_of(HloType t)
{
	switch (t) {
	case HT_F32: return DT_F32;
	case HT_BF16: return DT_BF16;
	case HT_S32: return DT_I32;
	case HT_S8: return DT_I8;
	case HT_PRED: return DT_BOOL;
	default: return -1;
	}
}

/* An array constant (the pipeline folds a mask into one) as the array
   the kernels that read it take. */
static int
constant(Seq *s, int i, const HloInstr *in)
{
	Shape sh = { 0 };
	InterpBuf *b;
	int t = dtype_of(in->shape.type), k;
	int64_t j;

	if (t < 0 || in->lit.elided || in->lit.n != hlo_shape_elems(&in->shape))
		return fail(s, in, "is a constant kernels cannot take");
	sh.rank = in->shape.rank;
	for (k = 0; k < sh.rank; k++)
		sh.d[k] = in->shape.dim[k];
	b = xcalloc(1, sizeof *b);
	if (interp_buf_try_alloc(b, in->name, (DType)t, &sh)) {
		free(b);
		return fail(s, in, "needs more host memory");
	}
	for (j = 0; j < in->lit.n; j++)
		interp_buf_set(b, j, hlo_type_is_float(in->shape.type) ?
		    in->lit.v[j].f : (double)in->lit.v[j].i);
	s->v[i].el = xcalloc(2, sizeof(InterpBuf *));
	s->v[i].el[0] = s->v[i].b = b;
	s->v[i].nown = 1;
	return 0;
}

static int
step(Seq *s, int i)
{
	const HloInstr *in = s->c->instr.v[i];
	int k;

	switch (in->op) {
	case HLO_PARAMETER:
		return 0;	/* set by the caller */
	case HLO_CONSTANT:
		return in->shape.rank == 0 ? 0 : constant(s, i, in);
	case HLO_TUPLE:
		s->v[i].n = in->noperand;
		s->v[i].el = xcalloc((size_t)in->noperand + 1,
		    sizeof(InterpBuf *));
		for (k = 0; k < in->noperand; k++)
			if (!(s->v[i].el[k] = array(s, in->operand[k], 0)))
				return fail(s, in, "holds no array");
		return 0;
	case HLO_GTE:
		if (!(s->v[i].b = array(s, in->operand[0], (int)in->num)))
			return fail(s, in, "reads no array");
		return 0;
	case HLO_BITCAST:
		return alias(s, i, in, 1);
	case HLO_COPY_START:
	case HLO_COPY_DONE:	/* the copy's value is its operand's */
		if (in->op == HLO_COPY_DONE)
			return (s->v[i].b = array(s, in->operand[0], 0)) ? 0 :
			    fail(s, in, "reads no array");
		return alias(s, i, in, 0);
	case HLO_CUSTOM_CALL:
		return fail(s, in, "calls a kernel, which funcs do not do on "
		    "the machine yet (--interpret --run runs it)");
	case HLO_OPT_BARRIER:
	case HLO_AFTER_ALL:
		return fail(s, in, "is not run on the machine yet");
	default:
		return run_one(s, i, in);
	}
}

static void
free_vals(Seq *s)
{
	int i, k;

	for (i = 0; i < s->c->instr.n; i++) {
		for (k = 0; k < s->v[i].nown; k++) {
			interp_buf_free(s->v[i].el[k]);
			free(s->v[i].el[k]);
		}
		free(s->v[i].el);
		free(s->v[i].view);
	}
	free(s->v);
}

int
sim_func(const RunOpts *r, const CheckedModule *m, const CExport *e,
    InterpBuf *args, InterpBuf *res, Diag *d, Buf *stats)
{
	Arena a = { 0 };
	Strtab strs;
	HloModule *hm;
	Seq s = { 0 };
	InterpBuf *x;
	int i, rc = -1;

	if (r->trace) {
		fprintf(stderr, "pallasc: error: --trace of a func: its kernels "
		    "run one by one, not as one program yet\n");
		return -1;
	}
	strtab_init(&strs, &a);
	s.r = r;
	s.d = d;
	s.stats = stats;
	s.func = e->cname;
	if (!(hm = hlo_from_func(m, e->func, d, &a, &strs)) ||
	    hlo_opt_module(r, hm, m->preset, e->cname, d) != EXIT_OK ||
	    !(s.fm = hlo_fusion_kernels(hm, m->preset, e->cname, d, &a,
	    &strs, e->loc)))
		goto done;
	s.c = hlo_entry(hm);
	s.v = xcalloc((size_t)s.c->instr.n + 1, sizeof(Val));
	for (i = 0; i < s.c->instr.n; i++)
		if (s.c->instr.v[i]->op == HLO_PARAMETER)
			s.v[i].b = &args[s.c->instr.v[i]->num];
	for (i = 0, rc = 0; i < s.c->instr.n && !rc; i++)
		rc = step(&s, i);
	if (!rc && (!(x = array(&s, s.c->root, 0)) || x->dtype != res->dtype ||
	    !shape_eq(&x->shape, &res->shape)))
		rc = fail(&s, s.c->instr.v[s.c->root], "is not the func's "
		    "result");
	else if (!rc)
		memcpy(res->data, x->data, (size_t)interp_buf_bytes(res->dtype,
		    &res->shape));
	if (!rc)
		buf_printf(stats, "func %s on %s: %d kernels, %llu cycles, HBM "
		    "%llu bytes read, %llu written, MXU busy %llu cycles (the "
		    "kernels' sums; no top-level program yet)\n", e->cname,
		    m->preset->name, s.nkernel,
		    (unsigned long long)s.sum.c.cycles,
		    (unsigned long long)s.sum.c.hbm_read_bytes,
		    (unsigned long long)s.sum.c.hbm_write_bytes,
		    (unsigned long long)s.sum.c.mxu_busy_cycles);
	free_vals(&s);
done:
	strtab_free(&strs);
	arena_free(&a);
	return rc;
}
