/*
 * ifunc.c - interpret mode for funcs: a straightforward evaluator of the
 * checked func's result DAG (each shared node computed once), and the
 * kernel calls a func makes, run with interp_kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/iint.h"

static int
check_args(const CFunc *f, const InterpBuf *a, int n, Diag *d)
{
	Buf want = {0}, got = {0};
	int i;

	if (n != f->nparam) {
		diag_error(d, f->loc, "func '%s' takes %d arguments, %d given",
		    f->name, f->nparam, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const CFuncParam *p = &f->param[i];
		if (a[i].dtype == p->dtype && shape_eq(&a[i].shape, &p->shape)
		    && (a[i].data || shape_numel(&p->shape) == 0))
			continue;
		shape_print(&want, &p->shape);
		shape_print(&got, &a[i].shape);
		diag_error(d, p->loc, "parameter '%s' is %s%s, but the buffer "
		    "given is %s%s", p->name, dtype_name(p->dtype), want.p,
		    dtype_name(a[i].dtype), got.p);
		buf_free(&want);
		buf_free(&got);
		return -1;
	}
	return 0;
}

/* A value's elements as a new host buffer. */
static void
to_buf(const Val *v, const char *name, InterpBuf *b)
{
	interp_buf_alloc(b, name, v->t, &v->s);
	ival_to_host(v->e, b);
}

int
ifunc_call(Run *r, const CExpr *e, const Val *a, Val *v)
{
	const CKernel *k = e->u.call;
	InterpBuf *b = xcalloc((size_t)k->nop + 1, sizeof(InterpBuf));
	int i, nin = 0, out = -1, rc;
	Elt *res;

	for (i = 0; i < k->nop; i++) {
		if (k->op[i].role == ROLE_OUT) {
			if (out >= 0)
				bug("call of kernel '%s' with two outputs",
				    k->name);
			out = i;
			interp_buf_alloc(&b[i], k->op[i].name, k->op[i].dtype,
			    &k->op[i].shape);
		} else if (nin < e->n)
			to_buf(&a[nin++], k->op[i].name, &b[i]);
	}
	if (out < 0 || nin != e->n)
		bug("call of kernel '%s' does not match its operands",
		    k->name);
	rc = interp_kernel(k, b, k->nop, r->o, r->d);
	if (rc == 0) {
		ival_new(r, v, e->dtype, &e->shape);
		res = ival_from_host(&b[out]);
		memcpy(v->e, res, (size_t)v->n * sizeof(Elt));
		free(res);
	} else
		diag_note(r->d, e->loc, "in the call of kernel '%s' here",
		    k->name);
	for (i = 0; i < k->nop; i++)
		interp_buf_free(&b[i]);
	free(b);
	return rc;
}

int
interp_func(const CFunc *f, const InterpBuf *args, int nargs,
    InterpBuf *result, const InterpOptions *o, Diag *d)
{
	static const InterpOptions defaults;
	Arena a = {0};
	Memo memo = {0};
	Run r;
	Val v;
	Elt *e;
	int i, rc;

	if (check_args(f, args, nargs, d))
		return -1;
	if (result->dtype != f->rdtype || !shape_eq(&result->shape,
	    &f->rshape))
		bug("result buffer of func '%s' has the wrong type", f->name);
	memset(&r, 0, sizeof r);
	r.d = d;
	r.a = &a;
	r.o = o ? o : &defaults;
	r.memo = &memo;
	r.slot = xcalloc((size_t)f->nparam + 1, sizeof(Val));
	for (i = 0; i < f->nparam; i++) {
		ival_new(&r, &r.slot[i], args[i].dtype, &args[i].shape);
		e = ival_from_host(&args[i]);
		memcpy(r.slot[i].e, e, (size_t)r.slot[i].n * sizeof(Elt));
		free(e);
	}
	rc = ieval(&r, f->result, &v);
	if (rc == 0)
		ival_to_host(v.e, result);
	free(r.slot);
	free(memo.key);
	free(memo.val);
	arena_free(&a);
	return rc;
}
