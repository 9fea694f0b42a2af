/*
 * tlp.c - the top-level program of a func: its optimised module's entry
 * as a sequence of kernel runs over HBM buffers.  Each instruction that
 * computes (a fusion, or one left outside fusions) is the next kernel of
 * the module hlo_fusion_kernels made, in the same order; the kernel's
 * operand pN is the instruction's operand N, its output rN the
 * instruction's leaf N.  A custom-call runs the kernel it calls (one of
 * hlo_func_callees's, found by its backend_config), its inputs bound to
 * the call's operands.  Parameters, tuples, get-tuple-elements and
 * bitcasts name buffers other instructions defined.
 *
 * Buffers come from buffers.c's liveness over the schedule: the entry's
 * parameters and result are its operands, array constants are data in
 * the program, and every other buffer gets an offset in the entry's HBM
 * scratch (first fit; two buffers share bytes only when their live
 * ranges do not meet), so the scratch size is known here.
 *
 * A copy-start/copy-done pair (memory-space assignment's prefetch into
 * VMEM) is read as its source: the kernels take their operands from
 * HBM through their own pipelines, so the copy's destination is the
 * source buffer, live until the copy's last reader.
 *
 * Entry:    hlo_tlp_build, hlo_tlp_print (lower.h)
 * Tests:    tests/unit/check_hlo_tlp.c, tests/golden/tlp/, tests/e2e.sh
 */
#include <stdlib.h>
#include <string.h>

#include "graph/lower.h"
#include "graph/pass.h"
#include "machine/sim.h"

typedef struct Tb {
	const HloModule *m;
	const HloComp *c;
	const CheckedModule *fm;
	HloBuffers b;
	int *canon;		/* HloBuffer -> the buffer it stands for */
	TTlp *t;
	const char *const *pname;
	Diag *d;
	Arena *a;
	Loc at;
	int next;		/* fm's next export */
	int func0;		/* its index in the TModule */
	const CheckedModule *km;	/* the kernels custom-calls call */
	int kfunc0;
	const char *what;	/* "func", "module" */
} Tb;

static int
fail(Tb *s, const HloInstr *in, const char *what)
{
	diag_error(s->d, s->at, "%s '%s': %s (%s) %s", s->what, s->t->name,
	    in->name, hlo_op_name(in->op), what);
	return -1;
}

int
hlo_kernel_dtype(HloType t)
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

/* Bytes of an element in HBM, as the kernels address it (a bool or an
   i8 in a byte: backend/vliw/isel_ref.c, isel_esize). */
static int64_t
hbm_esize(DType t)
{
	return t == DT_BOOL || t == DT_I8 ? 1 : t == DT_BF16 ? 2 : 4;
}

/* Buffer u, or the one a copy's destination u stands for. */
static int
buf_of(const Tb *s, int u)
{
	while (s->canon[u] != u)
		u = s->canon[u];
	return u;
}

/* The buffer of leaf k of instruction i. */
static int
leaf_buf(const Tb *s, int i, int k)
{
	return buf_of(s, s->b.leafbuf[s->b.first[i] + k]);
}

/* A copy's destination is its source: the source lives as long. */
static void
fold_copies(Tb *s)
{
	int i, u, v;

	for (i = 0; i < s->c->instr.n; i++) {
		const HloInstr *in = s->c->instr.v[i];
		if (in->op != HLO_COPY_START || s->b.nleaf[i] < 2)
			continue;
		u = s->b.leafbuf[s->b.first[i]];
		v = buf_of(s, s->b.leafbuf[s->b.first[i] + 1]);
		if (u == v)
			continue;
		s->canon[u] = v;
		if (s->b.buf[u].end > s->b.buf[v].end)
			s->b.buf[v].end = s->b.buf[u].end;
	}
}

/* The TTlpBuf of HloBuffer u, from its defining leaf. */
static int
describe(Tb *s, int u)
{
	const HloBuffer *h = &s->b.buf[u];
	const HloInstr *in = s->c->instr.v[h->def];
	const HloShape *sh = s->b.leafshape[s->b.first[h->def] + h->leaf];
	TTlpBuf *t = &s->t->buf[u];
	int k, dt = hlo_kernel_dtype(sh->type);

	t->dtype = dt < 0 ? DT_SEM : (DType)dt;	/* a token, a copy's context: no
					   kernel operand has DT_SEM */
	t->shape.rank = sh->rank;
	t->bytes = hbm_esize(t->dtype);
	for (k = 0; k < sh->rank; k++) {
		t->shape.d[k] = sh->dim[k];
		t->bytes *= sh->dim[k];
	}
	t->name = s->b.nleaf[h->def] > 1 ? arena_printf(s->a, "%s.%d",
	    in->name, h->leaf) : in->name;
	if (in->op == HLO_PARAMETER) {
		t->kind = TLP_PARAM;
		if (s->pname)
			t->name = s->pname[in->num];
	} else if (in->op == HLO_CONSTANT)
		t->kind = TLP_CONST;
	if (h->out && t->kind != TLP_TEMP)
		return fail(s, in, "is the result, which the top-level "
		    "program cannot return without a kernel writing it yet");
	if (h->out) {
		t->kind = TLP_RESULT;
		t->name = "result";
	}
	return 0;
}

/* An array constant's elements as the kernels' dense bytes. */
static int
constant_data(Tb *s, int u)
{
	TTlpBuf *t = &s->t->buf[u];
	const HloInstr *in = s->c->instr.v[s->b.buf[u].def];
	int64_t j, n = t->bytes / hbm_esize(t->dtype);
	uint8_t *p;

	if (in->lit.elided || in->lit.n != n)
		return fail(s, in, "is a constant without its elements");
	p = arena_alloc(s->a, (size_t)t->bytes + 1);
	for (j = 0; j < n; j++) {
		const HloElem *e = &in->lit.v[j];
		double x = hlo_type_is_float(in->shape.type) ? e->f :
		    (double)e->i;
		float f = (float)x;
		int32_t w = (int32_t)e->i;
		uint16_t h;
		switch (t->dtype) {
		case DT_F32: memcpy(p + 4 * j, &f, 4); break;
		case DT_I32: memcpy(p + 4 * j, &w, 4); break;
		case DT_BF16:
			h = mach_bf16(f);
			memcpy(p + 2 * j, &h, 2);
			break;
		case DT_BOOL: p[j] = x != 0; break;
		default: p[j] = (uint8_t)(int8_t)e->i; break;
		}
	}
	t->data = p;
	return 0;
}

/* Binds kernel operand op of step st (instruction in's) to buffer u. */
static int
bind(Tb *s, const HloInstr *in, TTlpStep *st, const COperand *op, int u)
{
	TTlpBuf *b = &s->t->buf[u];

	if (b->dtype != op->dtype || !shape_eq(&b->shape, &op->shape))
		return fail(s, in, "has an operand whose type is not its "
		    "kernel's");
	if (op->role == ROLE_OUT && b->first < 0)
		b->first = s->t->nstep;
	b->last = s->t->nstep;
	st->bind[st->nbind].opnd = op->name;
	st->bind[st->nbind++].buf = u;
	return 0;
}

/* The next step, running function func (export e) for instruction in. */
static TTlpStep *
new_step(Tb *s, const HloInstr *in, int func, const CExport *e)
{
	TTlpStep *st = &s->t->step[s->t->nstep];

	st->func = func;
	st->name = e->cname;
	/* the kernel's code is a region named after it already */
	st->region = in->meta.op_name;
	st->bind = arena_alloc(s->a, sizeof *st->bind *
	    ((size_t)e->kernel->nop + 1));
	return st;
}

/* Binds the operands of the next fusion kernel to instruction i's
   buffers: pN is operand N, rN leaf N. */
static int
step(Tb *s, int i)
{
	const HloInstr *in = s->c->instr.v[i];
	const CExport *e = s->next < s->fm->nexport ?
	    &s->fm->exp[s->next] : NULL;
	const CKernel *k = e ? e->kernel : NULL;
	TTlpStep *st;
	int j, n, u, o;

	if (!k)
		return fail(s, in, "has no kernel");
	st = new_step(s, in, s->func0 + s->next++, e);
	for (j = 0; j < k->nop; j++) {
		const COperand *op = &k->op[j];
		n = atoi(op->name + 1);
		if (op->role == ROLE_IN) {
			if (n >= in->noperand ||
			    s->b.nleaf[o = in->operand[n]] != 1)
				return fail(s, in, "has an operand its kernel "
				    "does not take");
			u = leaf_buf(s, o, 0);
		} else if (op->role == ROLE_OUT && n < s->b.nleaf[i])
			u = leaf_buf(s, i, n);
		else
			return fail(s, in, "has a kernel whose operands are "
			    "not its own");
		if (bind(s, in, st, op, u))
			return -1;
	}
	s->t->nstep++;
	return 0;
}

/* The export of km that custom-call in calls, or NULL. */
static const CExport *
callee(Tb *s, const HloInstr *in, int *func)
{
	int j;

	for (j = 0; s->km && in->backend_config && j < s->km->nexport; j++)
		if (!strcmp(hlo_kernel_config(s->a, s->km->exp[j].kernel),
		    in->backend_config)) {
			*func = s->kfunc0 + j;
			return &s->km->exp[j];
		}
	return NULL;
}

/* A custom-call of a kernel: its inputs (SMEM tables too), in
   declaration order, are the call's operands; its one output is the
   call's result.  The entry fills SMEM inputs from their buffers; an
   output in SMEM it does not copy back yet, so that is refused. */
static int
call_step(Tb *s, int i)
{
	const HloInstr *in = s->c->instr.v[i];
	const CExport *e;
	const CKernel *k;
	TTlpStep *st;
	int j, n = 0, u, func;

	if (!(e = callee(s, in, &func)))
		return fail(s, in, "calls no kernel of this compilation");
	k = e->kernel;
	for (j = 0; j < k->nop; j++)
		if (k->op[j].role == ROLE_OUT && k->op[j].mem == MEM_SMEM)
			return fail(s, in, arena_printf(s->a, "calls kernel "
			    "'%s', whose output '%s' is in SMEM, which the "
			    "top-level program does not copy back yet "
			    "(--interpret --run runs it)", k->name,
			    k->op[j].name));
	st = new_step(s, in, func, e);
	for (j = 0; j < k->nop; j++) {
		const COperand *op = &k->op[j];
		if (op->role == ROLE_OUT)
			u = leaf_buf(s, i, 0);
		else if (n < in->noperand && s->b.nleaf[in->operand[n]] == 1)
			u = leaf_buf(s, in->operand[n++], 0);
		else
			return fail(s, in, "has an operand its kernel does not "
			    "take");
		if (bind(s, in, st, op, u))
			return -1;
	}
	s->t->nstep++;
	return 0;
}

static int
walk(Tb *s)
{
	int i;

	for (i = 0; i < s->c->instr.n; i++) {
		const HloInstr *in = s->c->instr.v[i];
		if (hlo_instr_kernel(in)) {
			if (step(s, i))
				return -1;
			continue;
		}
		switch (in->op) {
		case HLO_PARAMETER: case HLO_CONSTANT: case HLO_TUPLE:
		case HLO_GTE: case HLO_BITCAST: case HLO_COPY_START:
		case HLO_COPY_DONE:
			break;
		case HLO_CUSTOM_CALL:
			if (call_step(s, i))
				return -1;
			break;
		default:
			return fail(s, in, "is not run on the machine yet");
		}
	}
	if (s->next != s->fm->nexport)
		bug("tlp: %d kernels of '%s' left over", s->fm->nexport -
		    s->next, s->t->name);
	return 0;
}

/* Scratch for buffers no operand of the entry holds. */
static int
keep_temp(const HloBuffers *b, int i, void *arg)
{
	const Tb *s = arg;

	(void)b;
	return buf_of(s, i) == i && s->t->buf[i].kind == TLP_TEMP &&
	    s->t->buf[i].first >= 0;
}

/* The entry's outputs: the root's leaves in order ("result", or
   "result_K" of a tuple), each a buffer a step writes. */
static int
results(Tb *s)
{
	TTlp *t = s->t;
	const HloInstr *root = s->c->instr.v[s->c->root];
	int k, j, u, n = s->b.nleaf[s->c->root];

	for (k = 0; k < n; k++) {
		u = leaf_buf(s, s->c->root, k);
		if (t->buf[u].kind != TLP_RESULT)
			return fail(s, root, "gives a result that is "
			    "not an array a kernel writes");
		for (j = t->nopnd - k; j < t->nopnd; j++)
			if (t->opnd[j] == u)
				return fail(s, root, "gives the same array "
				    "twice as results, which the top-level "
				    "program does not do yet");
		if (n > 1)
			t->buf[u].name = arena_printf(s->a, "result_%d", k);
		t->opnd[t->nopnd++] = u;
	}
	return 0;
}

/* The entry's operands: parameters by number, the results, constants. */
static int
operands(Tb *s)
{
	TTlp *t = s->t;
	int i, u;

	t->opnd = arena_alloc(s->a, sizeof(int) * ((size_t)t->nbuf + 1));
	for (i = 0; i < s->c->instr.n; i++)
		if (s->c->instr.v[i]->op == HLO_PARAMETER)
			t->opnd[s->c->instr.v[i]->num] = s->b.leafbuf[
			    s->b.first[i]];
	t->nopnd = s->c->nparam;
	if (results(s))
		return -1;
	for (u = 0; u < t->nbuf; u++)
		if (t->buf[u].kind == TLP_CONST && t->buf[u].last >= 0) {
			if (constant_data(s, u))
				return -1;
			t->opnd[t->nopnd++] = u;
		}
	return 0;
}

TTlp *
hlo_tlp_build(const HloModule *m, const HloTlpKernels *k, const char *name,
    const char *const *pname, Diag *d, Arena *a, Loc at)
{
	Tb s = { 0 };
	int u, n0 = d->nerror;

	s.m = m;
	s.c = hlo_entry(m);
	s.fm = k->fm;
	s.func0 = k->func0;
	s.km = k->km;
	s.kfunc0 = k->kfunc0;
	s.what = k->what ? k->what : "func";
	s.pname = pname;
	s.d = d;
	s.a = a;
	s.at = at;
	s.t = arena_alloc(a, sizeof *s.t);
	s.t->name = name;
	hlo_buffers_build(&s.b, a, s.c);
	s.canon = arena_alloc(a, sizeof(int) * ((size_t)s.b.nbuf + 1));
	s.t->nbuf = s.b.nbuf;
	s.t->buf = arena_alloc(a, sizeof *s.t->buf * ((size_t)s.b.nbuf + 1));
	s.t->step = arena_alloc(a, sizeof *s.t->step *
	    ((size_t)s.c->instr.n + 1));	/* a step at most per instruction */
	for (u = 0; u < s.b.nbuf; u++) {
		s.canon[u] = u;
		s.t->buf[u].kind = TLP_TEMP;	/* unused until a step binds it */
		s.t->buf[u].name = "";
		s.t->buf[u].first = s.t->buf[u].last = -1;
	}
	fold_copies(&s);
	for (u = 0; u < s.b.nbuf; u++)
		if (buf_of(&s, u) == u && describe(&s, u))
			return NULL;
	if (walk(&s) || operands(&s))
		return NULL;
	/* dense bytes: the kernels address their operands row-major */
	for (u = 0; u < s.b.nbuf; u++)
		s.b.buf[u].bytes = s.t->buf[u].bytes;
	s.t->scratch = hlo_buffers_assign(&s.b, 512, keep_temp, &s);
	for (u = 0; u < s.b.nbuf; u++)
		s.t->buf[u].offset = s.b.buf[u].offset;
	return d->nerror == n0 ? s.t : NULL;
}
