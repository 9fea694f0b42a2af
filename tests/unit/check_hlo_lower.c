/*
 * check_hlo_lower.c - from func to HLO (graph/lower*.c): the instructions
 * each construct becomes (matmul, batch matmul with trans_b, broadcasts
 * with keepdims, mean, softmax, causal masks, casts, slices and rolls,
 * named metadata, kernel calls as custom-calls, dot precision), clean
 * diagnostics for what HLO cannot express, round trips through the HLO
 * reader, and differential tests: interpret mode (interp_func) against
 * the reference evaluator on the lowered module (hlo_eval_ex with the
 * MXU's dot precision) for the toy program, a small causal attention and
 * a mix of constructs.  The [8, 2048, 128] attention func of
 * kernels/graph/ is only lowered and checked (evaluating it is slow).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "graph/lower.h"

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	CheckedModule *cm;
	HloModule *m;
	const CFunc *f;
	char *text;		/* diagnostics */
	size_t len;
	FILE *out;
} Fx;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

static const char *
diags(Fx *f)
{
	fflush(f->out);
	return f->text ? f->text : "";
}

/* Checks src and lowers its func 'name'; f->m is NULL if lowering failed. */
static void
lower_src(Fx *f, const char *src, const char *name)
{
	Ast *ast;
	int i;

	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	f->pp = pp_new(&f->d, &f->strs, &f->a);
	ck_assert_int_eq(pp_push_text(f->pp, "t.pk", src, strlen(src)), 0);
	ast = parse_module(pp_source, f->pp, &f->d, &f->a);
	f->cm = sema_check(ast, mach_preset(NULL), &f->d, &f->a);
	ck_assert_msg(f->d.nerror == 0, "%s", diags(f));
	for (i = 0; i < f->cm->nexport; i++)
		if (f->cm->exp[i].func && !strcmp(f->cm->exp[i].cname, name))
			f->f = f->cm->exp[i].func;
	ck_assert_msg(f->f != NULL, "no func %s", name);
	f->m = hlo_from_func(f->cm, f->f, &f->d, &f->a, &f->strs);
}

static void
lower_file(Fx *f, const char *path, const char *name)
{
	const char *top = getenv("top_srcdir");
	char full[1024];
	Buf b = {0};

	snprintf(full, sizeof full, "%s/%s", top ? top : "..", path);
	ck_assert_msg(read_file(full, &b) == 0, "cannot read %s", full);
	buf_putc(&b, 0);
	lower_src(f, b.p, name);
	buf_free(&b);
}

static void
fx_free(Fx *f)
{
	pp_free(f->pp);
	fclose(f->out);
	free(f->text);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static const HloComp *
entry(const Fx *f)
{
	ck_assert_ptr_nonnull(f->m);
	return hlo_entry(f->m);
}

/* The n-th (0-based) instruction of the entry with opcode op. */
static const HloInstr *
nth(const Fx *f, HloOp op, int n)
{
	const HloComp *c = entry(f);
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == op && n-- == 0)
			return c->instr.v[i];
	ck_abort_msg("no %s number %d", hlo_op_name(op), n);
	return NULL;
}

static int
count(const Fx *f, HloOp op)
{
	const HloComp *c = entry(f);
	int i, n = 0;

	for (i = 0; i < c->instr.n; i++)
		n += c->instr.v[i]->op == op;
	return n;
}

static const HloInstr *
operand(const Fx *f, const HloInstr *in, int i)
{
	return entry(f)->instr.v[in->operand[i]];
}

static const HloInstr *
root(const Fx *f)
{
	return entry(f)->instr.v[entry(f)->root];
}

static void
ints_are(const HloInts *x, int n, const int64_t *want)
{
	int i;

	ck_assert_int_eq(x->n, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(x->v[i], want[i]);
}

static void
dims_are(const HloShape *s, int rank, const int64_t *want)
{
	int i;

	ck_assert_int_eq(s->rank, rank);
	for (i = 0; i < rank; i++)
		ck_assert_int_eq(s->dim[i], want[i]);
}

static char *
printed(const HloModule *m)
{
	Buf b = {0};

	hlo_print(&b, m);
	buf_putc(&b, 0);
	return b.p;
}

/* ------------------------------------------------------------ constructs */

START_TEST(matmul)
{
	static const int64_t c1[] = { 1 }, c0[] = { 0 }, rd[] = { 4, 16 };
	Fx f;
	const HloInstr *d;

	lower_src(&f, "func mm(x: f32[4, 8], w: f32[8, 16]) -> f32[4, 16] "
	    "{ return x @ w; }\nexport mm;\n", "mm");
	ck_assert_str_eq(f.m->name, "jit_mm");
	d = root(&f);
	ck_assert_int_eq(d->op, HLO_DOT);
	ints_are(&d->dot[DOT_LHS_CONTRACT], 1, c1);
	ints_are(&d->dot[DOT_RHS_CONTRACT], 1, c0);
	ck_assert(!d->dot[DOT_LHS_BATCH].has && !d->dot[DOT_RHS_BATCH].has);
	dims_are(&d->shape, 2, rd);
	ck_assert_int_eq(operand(&f, d, 0)->op, HLO_PARAMETER);
	ck_assert_int_eq(operand(&f, d, 1)->num, 1);
	ck_assert_int_eq(d->attrs.n, 0);	/* default precision: none */
	ck_assert(f.m->has_ecl);
	ck_assert_int_eq(f.m->ecl_param.n, 2);
	fx_free(&f);
}
END_TEST

START_TEST(batch_matmul_trans_b)
{
	static const int64_t b0[] = { 0 }, c2[] = { 2 }, c1[] = { 1 },
	    rd[] = { 2, 4, 3 };
	Fx f;
	const HloInstr *d;

	lower_src(&f, "func bm(q: f32[2, 4, 8], k: f32[2, 5, 8], v: f32[2, 5, "
	    "3]) -> f32[2, 4, 3] {\n let s = dot(q, k, trans_b, precision: "
	    "highest);\n return s @ v;\n}\nexport bm;\n", "bm");
	d = nth(&f, HLO_DOT, 0);
	ints_are(&d->dot[DOT_LHS_BATCH], 1, b0);
	ints_are(&d->dot[DOT_RHS_BATCH], 1, b0);
	ints_are(&d->dot[DOT_LHS_CONTRACT], 1, c2);
	ints_are(&d->dot[DOT_RHS_CONTRACT], 1, c2);
	dims_are(&d->shape, 3, (const int64_t[]){ 2, 4, 5 });
	ck_assert_int_eq(d->attrs.n, 1);
	ck_assert_str_eq(d->attrs.v[0].name, "operand_precision");
	ck_assert_str_eq(d->attrs.v[0].value, "{highest,highest}");
	d = root(&f);
	ck_assert_int_eq(d->op, HLO_DOT);
	ints_are(&d->dot[DOT_RHS_CONTRACT], 1, c1);
	dims_are(&d->shape, 3, rd);
	ck_assert_int_eq(count(&f, HLO_TRANSPOSE), 0);
	fx_free(&f);
}
END_TEST

/* x - max(x, keepdims): reduce, reshape to [4, 1], reshape, broadcast. */
START_TEST(broadcast_keepdims)
{
	static const int64_t d0[] = { 0 }, d1[] = { 1 }, r41[] = { 4, 1 };
	Fx f;
	const HloInstr *sub, *b, *r, *k, *red;

	lower_src(&f, "func c(x: f32[4, 8]) -> f32[4, 8] {\n"
	    "    return x - max(x, axis: 1, keepdims);\n}\nexport c;\n", "c");
	sub = root(&f);
	ck_assert_int_eq(sub->op, HLO_SUBTRACT);
	b = operand(&f, sub, 1);
	ck_assert_int_eq(b->op, HLO_BROADCAST);
	ints_are(&b->dims, 1, d0);
	r = operand(&f, b, 0);
	ck_assert_int_eq(r->op, HLO_RESHAPE);
	dims_are(&r->shape, 1, (const int64_t[]){ 4 });
	k = operand(&f, r, 0);
	ck_assert_int_eq(k->op, HLO_RESHAPE);
	dims_are(&k->shape, 2, r41);
	red = operand(&f, k, 0);
	ck_assert_int_eq(red->op, HLO_REDUCE);
	ints_are(&red->dims, 1, d1);
	ck_assert_int_eq(f.m->comp.v[red->callee]->instr.v[2]->op,
	    HLO_MAXIMUM);
	ck_assert(isinf(operand(&f, red, 1)->lit.v[0].f) &&
	    operand(&f, red, 1)->lit.v[0].f < 0);
	fx_free(&f);
}
END_TEST

START_TEST(mean_divides_by_count)
{
	Fx f;
	const HloInstr *dv, *bc, *red;

	lower_src(&f, "func m(x: f32[4, 6]) -> f32[4] {\n"
	    "    return mean(x, axis: 1);\n}\nexport m;\n", "m");
	dv = root(&f);
	ck_assert_int_eq(dv->op, HLO_DIVIDE);
	red = operand(&f, dv, 0);
	ck_assert_int_eq(red->op, HLO_REDUCE);
	ck_assert_int_eq(f.m->comp.v[red->callee]->instr.v[2]->op, HLO_ADD);
	ck_assert_double_eq(operand(&f, red, 1)->lit.v[0].f, 0);
	bc = operand(&f, dv, 1);
	ck_assert_int_eq(bc->op, HLO_BROADCAST);
	ck_assert_int_eq(bc->dims.n, 0);
	ck_assert_double_eq(operand(&f, bc, 0)->lit.v[0].f, 6);
	fx_free(&f);
}
END_TEST

/* reduce-max, subtract, exponential, reduce-add, divide (bf16 in f32). */
START_TEST(softmax_expanded)
{
	static const HloOp seq[] = { HLO_CONVERT, HLO_REDUCE, HLO_BROADCAST,
	    HLO_SUBTRACT, HLO_EXP, HLO_REDUCE, HLO_BROADCAST, HLO_DIVIDE,
	    HLO_CONVERT };
	Fx f;
	const HloComp *c;
	size_t i, k = 0;

	lower_src(&f, "func s(x: bf16[3, 5]) -> bf16[3, 5] {\n"
	    "    return softmax(x, axis: 1);\n}\nexport s;\n", "s");
	c = entry(&f);
	for (i = 0; i < (size_t)c->instr.n; i++) {
		HloOp op = c->instr.v[i]->op;
		if (op == HLO_PARAMETER || op == HLO_CONSTANT)
			continue;
		ck_assert_msg(k < countof(seq) && op == seq[k], "instruction "
		    "%zu is %s", i, hlo_op_name(op));
		k++;
	}
	ck_assert_uint_eq(k, countof(seq));
	ck_assert_int_eq(nth(&f, HLO_EXP, 0)->shape.type, HT_F32);
	ck_assert_int_eq(root(&f)->shape.type, HT_BF16);
	ck_assert_int_eq(f.m->comp.v[nth(&f, HLO_REDUCE, 0)->callee]->
	    instr.v[2]->op, HLO_MAXIMUM);
	ck_assert_int_eq(f.m->comp.v[nth(&f, HLO_REDUCE, 1)->callee]->
	    instr.v[2]->op, HLO_ADD);
	ck_assert_str_eq(nth(&f, HLO_EXP, 0)->meta.op_name, "jit(s)/exp");
	fx_free(&f);
}
END_TEST

START_TEST(causal_mask)
{
	static const int64_t d12[] = { 1, 2 };
	Fx f;
	const HloInstr *sel, *cmp, *pb;

	lower_src(&f, "func m(s: f32[2, 4, 4]) -> f32[2, 4, 4] {\n"
	    "    return where(iota([4, 4], 1) <= iota([4, 4], 0), s, -inf);\n"
	    "}\nexport m;\n", "m");
	sel = root(&f);
	ck_assert_int_eq(sel->op, HLO_SELECT);
	pb = operand(&f, sel, 0);
	ck_assert_int_eq(pb->op, HLO_BROADCAST);
	ck_assert_int_eq(pb->shape.type, HT_PRED);
	ints_are(&pb->dims, 2, d12);
	cmp = operand(&f, pb, 0);
	ck_assert_int_eq(cmp->op, HLO_COMPARE);
	ck_assert_int_eq(cmp->cmp, CMP_LE);
	ck_assert_int_eq(operand(&f, cmp, 0)->op, HLO_IOTA);
	ck_assert_int_eq(operand(&f, cmp, 0)->num, 1);
	ck_assert_int_eq(operand(&f, cmp, 1)->num, 0);
	ck_assert_int_eq(operand(&f, cmp, 0)->shape.type, HT_S32);
	ck_assert_int_eq(operand(&f, operand(&f, sel, 2), 0)->op,
	    HLO_CONSTANT);
	fx_free(&f);
}
END_TEST

START_TEST(named_metadata)
{
	Fx f;
	const HloInstr *in;

	lower_src(&f, "func g(x: f32[4, 4]) -> f32[4, 4] {\n"
	    "    let a = named(\"outer\", exp(named(\"in\\\"ner\", x @ x)));\n"
	    "    return a + 1.0;\n}\nexport g;\n", "g");
	in = nth(&f, HLO_DOT, 0);
	ck_assert_str_eq(in->meta.op_name, "jit(g)/outer/in\\\"ner/dot_general");
	ck_assert_str_eq(in->meta.source_file, "t.pk");
	ck_assert_int_eq(in->meta.source_line, 2);
	ck_assert_str_eq(nth(&f, HLO_EXP, 0)->meta.op_name,
	    "jit(g)/outer/exp");
	ck_assert_str_eq(root(&f)->meta.op_name, "jit(g)/add");
	ck_assert_int_eq(root(&f)->meta.source_line, 3);
	ck_assert_str_eq(nth(&f, HLO_PARAMETER, 0)->meta.op_name, "x");
	ck_assert(!nth(&f, HLO_CONSTANT, 0)->meta.has);
	fx_free(&f);
}
END_TEST

START_TEST(kernel_call_is_custom_call)
{
	Fx f;
	const HloInstr *cc;

	lower_src(&f, "kernel double_rows<N>(x: f32[N, 128], out y: f32[N, "
	    "128])\ngrid (i: N / 8)\nblocks { x: [8, 128] at (i, 0); y: [8, "
	    "128] at (i, 0); }\n{ y[...] = x[...] * 2.0; }\n"
	    "func t(x: f32[16, 128]) -> f32[16, 128] {\n"
	    "    return named(\"k\", double_rows(x)) + 1.0;\n}\nexport t;\n",
	    "t");
	cc = operand(&f, root(&f), 0);
	ck_assert_int_eq(cc->op, HLO_CUSTOM_CALL);
	ck_assert_str_eq(cc->target, "double_rows");
	ck_assert_str_eq(cc->backend_config,
	    "{\"kernel\": \"double_rows\", \"instance\": \"double_rows<16>\"}");
	ck_assert_str_eq(cc->meta.op_name, "jit(t)/k/pallas_call");
	ck_assert_int_eq(operand(&f, cc, 0)->op, HLO_PARAMETER);
	dims_are(&cc->shape, 2, (const int64_t[]){ 16, 128 });
	fx_free(&f);
}
END_TEST

START_TEST(casts_slices_rolls)
{
	Fx f;
	const HloInstr *cat, *s0;

	lower_src(&f, "func r(x: f32[4, 8]) -> f32[8] {\n"
	    "    let y = roll(x, 3, axis: 1);\n"
	    "    return (y[1, :] as i32) as f32;\n}\nexport r;\n", "r");
	cat = nth(&f, HLO_CONCATENATE, 0);
	ck_assert_int_eq(cat->dims.v[0], 1);
	s0 = operand(&f, cat, 0);
	ck_assert_int_eq(s0->op, HLO_SLICE);
	ck_assert_int_eq(s0->slo.v[1], 5);
	ck_assert_int_eq(s0->shi.v[1], 8);
	ck_assert_int_eq(operand(&f, cat, 1)->shi.v[1], 5);
	ck_assert_int_eq(count(&f, HLO_CONVERT), 2);
	ck_assert_int_eq(root(&f)->op, HLO_CONVERT);
	ck_assert_int_eq(operand(&f, root(&f), 0)->shape.type, HT_S32);
	fx_free(&f);
}
END_TEST

START_TEST(unused_lets_left_out)
{
	Fx f;

	lower_src(&f, "func u(x: f32[4]) -> f32[4] {\n"
	    "    let dead = exp(x);\n    return x * 2.0;\n}\nexport u;\n", "u");
	ck_assert_int_eq(count(&f, HLO_EXP), 0);
	ck_assert_int_eq(count(&f, HLO_MULTIPLY), 1);
	fx_free(&f);
}
END_TEST

START_TEST(unsupported_constructs)
{
	static const struct { const char *src, *msg; } cases[] = {
		{ "func u(x: i32[4]) -> i32[4] { return x << 2; }\nexport u;\n",
		    "t.pk:1:38: error: a shift cannot be lowered to HLO "
		    "(in func 'u')" },
		{ "func u(x: f32[8], n: i32) -> f32[8] {\n"
		    "    return roll(x, n, axis: 0);\n}\nexport u;\n",
		    "t.pk:2:12: error: a roll by a shift known only at run time "
		    "cannot be lowered to HLO (in func 'u')" },
	};
	size_t i;

	for (i = 0; i < countof(cases); i++) {
		Fx f;
		lower_src(&f, cases[i].src, "u");
		ck_assert_ptr_null(f.m);
		ck_assert_msg(strstr(diags(&f), cases[i].msg) != NULL,
		    "case %zu: %s", i, diags(&f));
		fx_free(&f);
	}
}
END_TEST

/* ------------------------------------------------------------ text */

static void
round_trip(const HloModule *m)
{
	char *t1 = printed(m), *t2;
	Arena a = {0};
	SrcMgr sm;
	Strtab strs;
	Diag d;
	HloModule *r;

	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, stderr);
	r = hlo_read(&d, srcmgr_add(&sm, "r.hlo", t1, strlen(t1)), &a, &strs);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(hlo_verify(r, &d), 0);
	t2 = printed(r);
	ck_assert_str_eq(t1, t2);
	free(t1);
	free(t2);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
}

START_TEST(toy_text)
{
	Fx f, g;
	char *t1, *t2;

	lower_file(&f, "kernels/graph/toy.pk", "toy");
	lower_file(&g, "kernels/graph/toy.pk", "toy");
	t1 = printed(f.m);
	t2 = printed(g.m);
	ck_assert_str_eq(t1, t2);	/* deterministic */
	ck_assert(strstr(t1, "HloModule jit_toy, entry_computation_layout="
	    "{(f32[16,64]{1,0}, f32[64,64]{1,0}, f32[64,32]{1,0})->"
	    "f32[16,32]{1,0}}\n") == t1);
	ck_assert(strstr(t1, "\nENTRY main.41 {\n"));
	ck_assert(strstr(t1, "  dot.4 = f32[16,64]{1,0} dot(Arg_0.1, Arg_1.2), "
	    "lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
	    "metadata={op_name=\"jit(toy)/matmul_1/dot_general\""));
	ck_assert(strstr(t1, "to_apply=region_1.24, metadata={op_name=\""
	    "jit(toy)/softmax/reduce_max\""));
	ck_assert_int_eq(count(&f, HLO_REDUCE), 3);
	ck_assert_int_eq(count(&f, HLO_DOT), 2);
	ck_assert_int_eq(f.m->comp.n, 4);
	round_trip(f.m);
	free(t1);
	free(t2);
	fx_free(&f);
	fx_free(&g);
}
END_TEST

START_TEST(attention_full_size)
{
	Fx f;
	const HloInstr *s, *pv;

	lower_file(&f, "kernels/graph/attention.pk", "attention");
	s = nth(&f, HLO_DOT, 0);
	dims_are(&s->shape, 3, (const int64_t[]){ 8, 2048, 2048 });
	ck_assert_int_eq(s->dot[DOT_RHS_CONTRACT].v[0], 2);
	pv = root(&f);
	dims_are(&pv->shape, 3, (const int64_t[]){ 8, 2048, 128 });
	ck_assert_str_eq(pv->meta.op_name, "jit(attention)/pv/dot_general");
	ck_assert_int_eq(count(&f, HLO_IOTA), 2);
	ck_assert_int_eq(count(&f, HLO_SELECT), 1);
	ck_assert_int_eq(count(&f, HLO_REDUCE), 2);
	ck_assert_int_eq(hlo_verify(f.m, &f.d), 0);
	round_trip(f.m);
	fx_free(&f);
}
END_TEST

/* ------------------------------------------------------------ differential */

static HloType
htype(DType t)
{
	return hlo_type_of_dtype(t);
}

/*
 * Runs f->f on random inputs both ways; returns the largest error of
 * hlo_eval relative to the largest magnitude of interp's result.
 */
static double
differential(Fx *f, uint64_t seed)
{
	const CFunc *fn = f->f;
	InterpBuf *in = xcalloc((size_t)fn->nparam + 1, sizeof *in), r;
	HloBuf *args = xcalloc((size_t)fn->nparam + 1, sizeof *args), res[2];
	char err[256];
	double mx = 0, worst = 0;
	int64_t i, n;
	int k;

	for (k = 0; k < fn->nparam; k++) {
		interp_buf_alloc(&in[k], fn->param[k].name, fn->param[k].dtype,
		    &fn->param[k].shape);
		interp_fill(&in[k], INTERP_RANDOM, seed + (uint64_t)k);
		args[k].type = htype(fn->param[k].dtype);
		args[k].rank = fn->param[k].shape.rank;
		memcpy(args[k].dim, fn->param[k].shape.d, sizeof args[k].dim);
		args[k].data = in[k].data;
	}
	interp_buf_alloc(&r, "r", fn->rdtype, &fn->rshape);
	ck_assert_msg(interp_func(fn, in, fn->nparam, &r, NULL, &f->d) == 0,
	    "%s", diags(f));
	ck_assert_int_eq(hlo_eval_ex(f->m, args, fn->nparam, res, 2,
	    HLO_EVAL_MXU_PRECISION, err, sizeof err), 1);
	n = shape_numel(&fn->rshape);
	ck_assert_int_eq(hlo_buf_elems(&res[0]), n);
	for (i = 0; i < n; i++)
		mx = fmax(mx, fabs(interp_buf_get(&r, i)));
	for (i = 0; i < n; i++) {
		InterpBuf h = r;
		h.data = res[0].data;
		worst = fmax(worst, fabs(interp_buf_get(&h, i) -
		    interp_buf_get(&r, i)));
	}
	for (k = 0; k < fn->nparam; k++)
		interp_buf_free(&in[k]);
	interp_buf_free(&r);
	hlo_buf_free(&res[0]);
	free(in);
	free(args);
	return mx > 0 ? worst / mx : worst;
}

START_TEST(toy_interp_vs_hlo_eval)
{
	Fx f;
	uint64_t seed;

	lower_file(&f, "kernels/graph/toy.pk", "toy");
	for (seed = 1; seed <= 3; seed++)
		ck_assert_double_le(differential(&f, seed * 10), 1e-5);
	fx_free(&f);
}
END_TEST

/* The attention func at [2, 64, 32], every dot at f32 precision. */
static const char attention_small[] =
    "func attention(q: f32[2, 64, 32], k: f32[2, 64, 32], v: f32[2, 64, 32])"
    " -> f32[2, 64, 32] {\n"
    "    let s = named(\"scores\", dot(q, k, trans_b) * 0.17677669529663687);\n"
    "    let row = iota([64, 64], 0);\n"
    "    let col = iota([64, 64], 1);\n"
    "    let s = named(\"causal_mask\", where(col <= row, s, -inf));\n"
    "    let p = named(\"softmax\", softmax(s, axis: 2));\n"
    "    return named(\"pv\", p @ v);\n"
    "}\nexport attention;\n";

START_TEST(attention_small_interp_vs_hlo_eval)
{
	Fx f;

	lower_src(&f, attention_small, "attention");
	ck_assert_double_le(differential(&f, 7), 1e-5);
	fx_free(&f);
}
END_TEST

/* Broadcasts, keepdims, mean, where, casts, bf16, rolls, slices, tanh. */
START_TEST(mixed_interp_vs_hlo_eval)
{
	Fx f;

	lower_src(&f, "func mix(x: f32[6, 8], b: bf16[8], w: f32[8, 8]) -> "
	    "f32[6, 8] {\n"
	    "    let c = x - mean(x, axis: 1, keepdims);\n"
	    "    let v = rsqrt(mean(c * c, axis: -1, keepdims) + 1e-5);\n"
	    "    let y = c * v + (b as f32);\n"
	    "    let z = where(y > 0.0, y, tanh(y) * 0.5);\n"
	    "    let r = roll(z, 2, axis: 1) + max(z, axis: 0, keepdims);\n"
	    "    let t = dot(r, w, precision: high) + min(r, axis: 1, "
	    "keepdims);\n"
	    "    return (sum(t as bf16, axis: 0, keepdims) as f32) + t;\n"
	    "}\nexport mix;\n", "mix");
	ck_assert_double_le(differential(&f, 3), 1e-5);
	fx_free(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_lower");
	TCase *t = tcase_create("constructs"), *x = tcase_create("text"),
	    *d = tcase_create("differential");

	tcase_set_timeout(t, 0);
	tcase_set_timeout(x, 0);
	tcase_set_timeout(d, 0);
	tcase_add_test(t, matmul);
	tcase_add_test(t, batch_matmul_trans_b);
	tcase_add_test(t, broadcast_keepdims);
	tcase_add_test(t, mean_divides_by_count);
	tcase_add_test(t, softmax_expanded);
	tcase_add_test(t, causal_mask);
	tcase_add_test(t, named_metadata);
	tcase_add_test(t, kernel_call_is_custom_call);
	tcase_add_test(t, casts_slices_rolls);
	tcase_add_test(t, unused_lets_left_out);
	tcase_add_test(t, unsupported_constructs);
	suite_add_tcase(s, t);
	tcase_add_test(x, toy_text);
	tcase_add_test(x, attention_full_size);
	suite_add_tcase(s, x);
	tcase_add_test(d, toy_interp_vs_hlo_eval);
	tcase_add_test(d, attention_small_interp_vs_hlo_eval);
	tcase_add_test(d, mixed_interp_vs_hlo_eval);
	suite_add_tcase(s, d);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int nfail;

	srunner_run_all(r, CK_NORMAL);
	nfail = srunner_ntests_failed(r);
	srunner_free(r);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
