/*
 * check_ast.c - unit tests of the parser and AST builder (dsl/grammar/):
 * tree shapes, names, ranges, precedence, error messages and recovery,
 * limits on nesting, and the printer.  Input comes through the raw lexer.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"

typedef struct Fix {
	Arena a;
	SrcMgr sm;
	Strtab st;
	Diag d;
	Lexer lx;
	FILE *out;		/* diagnostics, kept in msg */
	char *msg;
	size_t msglen;
} Fix;

static Fix fx;

static TokKind
lexsrc(void *ctx, Token *t)
{
	return lex_next(ctx, t);
}

static Ast *
parse(const char *src)
{
	int f;

	srcmgr_init(&fx.sm);
	strtab_init(&fx.st, &fx.a);
	fx.out = open_memstream(&fx.msg, &fx.msglen);
	ck_assert_ptr_nonnull(fx.out);
	diag_init(&fx.d, &fx.sm, fx.out);
	fx.d.max_errors = 0;
	f = srcmgr_add(&fx.sm, "t.pk", src, strlen(src));
	lex_init(&fx.lx, &fx.d, &fx.st, &fx.a, f);
	return parse_module(lexsrc, &fx.lx, &fx.d, &fx.a);
}

/* The diagnostics so far, as text. */
static const char *
msgs(void)
{
	fflush(fx.out);
	return fx.msg ? fx.msg : "";
}

static void
teardown(void)
{
	if (fx.out)
		fclose(fx.out);
	free(fx.msg);
	strtab_free(&fx.st);
	srcmgr_free(&fx.sm);
	arena_free(&fx.a);
	memset(&fx, 0, sizeof fx);
}

static void
setup(void)
{
	memset(&fx, 0, sizeof fx);
}

/* The expression of "func f() -> f32 { return EXPR; }". */
static Ast *
expr_of(const char *e)
{
	char src[4096];
	Ast *m, *fn, *ret;

	snprintf(src, sizeof src, "func f() -> f32 { return %s; }", e);
	m = parse(src);
	ck_assert_int_eq(fx.d.nerror, 0);
	ck_assert_int_eq(m->u.list.n, 1);
	fn = m->u.list.v[0];
	ck_assert_int_eq(fn->kind, AST_FUNC);
	ret = fn->u.def.body->u.list.v[0];
	ck_assert_int_eq(ret->kind, AST_RETURN);
	return ret->u.one.x;
}

static void
is_ident(const Ast *n, const char *name)
{
	ck_assert_int_eq(n->kind, AST_IDENT);
	ck_assert_str_eq(n->u.name, name);
}

static void
is_binary(const Ast *n, AstOp op)
{
	ck_assert_int_eq(n->kind, AST_BINARY);
	ck_assert_int_eq(n->u.binary.op, op);
}

static void
range(const Ast *n, int line, int col, int eline, int ecol)
{
	ck_assert_int_eq(n->loc.line, line);
	ck_assert_int_eq(n->loc.col, col);
	ck_assert_int_eq(n->loc.eline, eline);
	ck_assert_int_eq(n->loc.ecol, ecol);
}

static const char matmul[] =
    "kernel matmul<M, N, K>(x: bf16[M, K], y: bf16[K, N], out z: f32[M, N])\n"
    "grid (i: M / BM, j: N / BN, k: K / BK)\n"
    "semantics (parallel, parallel, arbitrary)\n"
    "blocks {\n"
    "    x: [BM, BK] at (i, k);\n"
    "    y: [BK, BN] at (k, j);\n"
    "    z: [BM, BN] at (i, j);\n"
    "}\n"
    "scratch { acc: f32[BM, BN]; }\n"
    "{\n"
    "    when (k == 0) { acc[...] = 0.0; }\n"
    "    acc[...] += dot(x[...], y[...]);\n"
    "    when (k == num_programs(k) - 1) { z[...] = acc[...]; }\n"
    "}\n"
    "\n"
    "export matmul<2048, 2048, 2048> as matmul_2048;\n";

START_TEST(kernel_structure)
{
	Ast *m = parse(matmul), *k, *x, *grid, *blocks, *spec, *body, *st;

	ck_assert_int_eq(fx.d.nerror, 0);
	ck_assert_int_eq(m->kind, AST_MODULE);
	ck_assert_int_eq(m->u.list.n, 2);
	range(m, 1, 1, 16, 47);
	k = m->u.list.v[0];
	ck_assert_int_eq(k->kind, AST_KERNEL);
	ck_assert_str_eq(k->u.def.name.s, "matmul");
	range(k, 1, 1, 14, 1);
	ck_assert_int_eq(k->u.def.tparams.n, 3);
	is_ident(k->u.def.tparams.v[2], "K");
	range(k->u.def.tparams.v[2], 1, 21, 1, 21);
	ck_assert_int_eq(k->u.def.params.n, 3);
	x = k->u.def.params.v[2];
	ck_assert_int_eq(x->kind, AST_OPERAND);
	ck_assert_str_eq(x->u.var.name.s, "z");
	ck_assert_int_eq(x->u.var.out, 1);
	ck_assert_str_eq(x->u.var.type->u.type.dtype.s, "f32");
	ck_assert_int_eq(x->u.var.type->u.type.dims.n, 2);
	range(x, 1, 54, 1, 69);
	ck_assert_int_eq(k->u.def.clauses.n, 4);
	grid = k->u.def.clauses.v[0];
	ck_assert_int_eq(grid->kind, AST_GRID);
	ck_assert_int_eq(grid->u.list.n, 3);
	ck_assert_str_eq(grid->u.list.v[1]->u.named.name.s, "j");
	is_binary(grid->u.list.v[1]->u.named.value, AOP_DIV);
	ck_assert_int_eq(k->u.def.clauses.v[1]->kind, AST_SEMANTICS);
	is_ident(k->u.def.clauses.v[1]->u.list.v[2], "arbitrary");
	blocks = k->u.def.clauses.v[2];
	ck_assert_int_eq(blocks->kind, AST_BLOCKS);
	spec = blocks->u.list.v[1];
	ck_assert_str_eq(spec->u.spec.name.s, "y");
	ck_assert_int_eq(spec->u.spec.shape->kind, AST_DIMS);
	ck_assert_int_eq(spec->u.spec.map->kind, AST_MAP);
	is_ident(spec->u.spec.map->u.list.v[0], "k");
	range(spec, 6, 5, 6, 26);
	ck_assert_int_eq(k->u.def.clauses.v[3]->kind, AST_SCRATCH);
	body = k->u.def.body;
	ck_assert_int_eq(body->kind, AST_BLOCK);
	ck_assert_int_eq(body->u.list.n, 3);
	st = body->u.list.v[1];
	ck_assert_int_eq(st->kind, AST_ASSIGN);
	ck_assert_int_eq(st->u.assign.op, AOP_ADD);
	range(st, 12, 5, 12, 36);
	ck_assert_int_eq(st->u.assign.value->kind, AST_CALL);
	ck_assert_str_eq(st->u.assign.value->u.call.name.s, "dot");
	ck_assert_int_eq(st->u.assign.target->kind, AST_INDEX);
	ck_assert_int_eq(st->u.assign.target->u.index.items.v[0]->kind,
	    AST_ELLIPSIS);
	ck_assert_int_eq(body->u.list.v[0]->kind, AST_WHEN);
	x = m->u.list.v[1];
	ck_assert_int_eq(x->kind, AST_EXPORT);
	ck_assert_str_eq(x->u.export.name.s, "matmul");
	ck_assert_str_eq(x->u.export.as.s, "matmul_2048");
	ck_assert_int_eq(x->u.export.targs.n, 3);
	ck_assert_int_eq(x->u.export.targs.v[0]->u.ival.v, 2048);
}
END_TEST

START_TEST(precedence)
{
	Ast *e;

	e = expr_of("a + b * c");
	is_binary(e, AOP_ADD);
	is_ident(e->u.binary.l, "a");
	is_binary(e->u.binary.r, AOP_MUL);
	teardown();

	e = expr_of("a - b - c");		/* left associative */
	is_binary(e, AOP_SUB);
	is_binary(e->u.binary.l, AOP_SUB);
	is_ident(e->u.binary.r, "c");
	teardown();

	e = expr_of("x @ w + b");
	is_binary(e, AOP_ADD);
	is_binary(e->u.binary.l, AOP_MATMUL);
	teardown();

	e = expr_of("a < b == c && d || e");
	is_binary(e, AOP_OR);
	is_binary(e->u.binary.l, AOP_AND);
	is_binary(e->u.binary.l->u.binary.l, AOP_EQ);
	is_binary(e->u.binary.l->u.binary.l->u.binary.l, AOP_LT);
	teardown();

	e = expr_of("-x as f32 * 2");	/* unary, then as, then * */
	is_binary(e, AOP_MUL);
	ck_assert_int_eq(e->u.binary.l->kind, AST_CAST);
	ck_assert_str_eq(e->u.binary.l->u.cast.dtype.s, "f32");
	ck_assert_int_eq(e->u.binary.l->u.cast.x->kind, AST_UNARY);
	teardown();

	e = expr_of("c ? a : d ? b : e");	/* right associative */
	ck_assert_int_eq(e->kind, AST_COND);
	is_ident(e->u.cond.a, "a");
	ck_assert_int_eq(e->u.cond.b->kind, AST_COND);
	teardown();

	e = expr_of("1 << 2 + 3 & 4");
	is_binary(e, AOP_BITAND);
	is_binary(e->u.binary.l, AOP_SHL);
	is_binary(e->u.binary.l->u.binary.r, AOP_ADD);
	teardown();

	e = expr_of("(a + b) * c");
	is_binary(e, AOP_MUL);
	is_binary(e->u.binary.l, AOP_ADD);
	range(e->u.binary.l, 1, 26, 1, 32);	/* the parentheses included */
}
END_TEST

START_TEST(slices_and_calls)
{
	Ast *e, *it;

	e = expr_of("m[:, 0:1]");
	ck_assert_int_eq(e->kind, AST_INDEX);
	ck_assert_int_eq(e->u.index.items.n, 2);
	it = e->u.index.items.v[0];
	ck_assert_int_eq(it->kind, AST_SLICE);
	ck_assert_ptr_null(it->u.slice.lo);
	ck_assert_ptr_null(it->u.slice.hi);
	it = e->u.index.items.v[1];
	ck_assert_int_eq(it->u.slice.lo->u.ival.v, 0);
	ck_assert_int_eq(it->u.slice.hi->u.ival.v, 1);
	teardown();

	e = expr_of("x[ds(i * 8, 8), a:, :b, 3]");
	ck_assert_int_eq(e->u.index.items.n, 4);
	ck_assert_int_eq(e->u.index.items.v[0]->kind, AST_CALL);
	ck_assert_ptr_null(e->u.index.items.v[1]->u.slice.hi);
	ck_assert_ptr_null(e->u.index.items.v[2]->u.slice.lo);
	ck_assert_int_eq(e->u.index.items.v[3]->kind, AST_INT);
	teardown();

	e = expr_of("mean(h * h, axis: 1, keepdims)");
	ck_assert_int_eq(e->kind, AST_CALL);
	ck_assert_int_eq(e->u.call.args.n, 3);
	ck_assert_int_eq(e->u.call.args.v[1]->kind, AST_KWARG);
	ck_assert_str_eq(e->u.call.args.v[1]->u.named.name.s, "axis");
	is_ident(e->u.call.args.v[2], "keepdims");
	teardown();

	e = expr_of("iota([BQ, 128], 1) + 1.5f + 7i8");
	is_binary(e->u.binary.l, AOP_ADD);
	ck_assert_int_eq(e->u.binary.l->u.binary.l->u.call.args.v[0]->kind,
	    AST_DIMS);
	ck_assert_int_eq(e->u.binary.l->u.binary.r->kind, AST_FLOAT);
	ck_assert_int_eq(e->u.binary.l->u.binary.r->u.fval.suffix, SUF_F32);
	ck_assert_int_eq(e->u.binary.r->u.ival.suffix, SUF_I8);
}
END_TEST

START_TEST(clauses_and_statements)
{
	static const char src[] =
	    "kernel k<N>(smem t: i32[N], any h: f32[N, 128], x: f32[N, 128],\n"
	    "    out y: f32[N, 128],)\n"
	    "grid (i: N / 8)\n"
	    "blocks { x: [_, 128] at element (i * 8 - 1, 0) buffers 1 vmem;\n"
	    "         y: [8, 128] at (t[i], 0); h: any; }\n"
	    "scratch { buf: f32[2, 8, 128]; sems: dma_sem[2]; smem c: i32[1]; }\n"
	    "aliases { y = x; }\n"
	    "params { vmem_limit: 16 << 20; target: \"v4\"; precision: highest; }\n"
	    "{\n"
	    "  for (s in 0 : 2 : 1) {\n"
	    "    dma_start(h[ds(s * 8, 8), :], buf[s], sems[s]);\n"
	    "  }\n"
	    "  dma_wait(h[0:8, :], buf[0], sems[0]);\n"
	    "  dma_copy(h[0:8, :], buf[1]);\n"
	    "  sem_signal(c, 2); sem_wait(c);\n"
	    "  when (i == 0) { } else when (i == 1) { } else { let z: f32 = 1.0; }\n"
	    "}\n";
	Ast *m = parse(src), *k, *spec, *body, *w, *c;

	ck_assert_str_eq(msgs(), "");
	k = m->u.list.v[0];
	ck_assert_int_eq(k->u.def.params.n, 4);
	ck_assert_int_eq(k->u.def.params.v[0]->u.var.mem, MEM_SMEM);
	ck_assert_int_eq(k->u.def.params.v[1]->u.var.mem, MEM_ANY);
	spec = k->u.def.clauses.v[1]->u.list.v[0];
	ck_assert_int_eq(spec->u.spec.shape->u.list.v[0]->kind, AST_SQUEEZED);
	ck_assert_int_eq(spec->u.spec.map->kind, AST_ELEMENT_MAP);
	ck_assert_int_eq(spec->u.spec.buffers->u.ival.v, 1);
	ck_assert_int_eq(spec->u.spec.mem, MEM_VMEM);
	spec = k->u.def.clauses.v[1]->u.list.v[2];
	ck_assert_ptr_null(spec->u.spec.shape);
	ck_assert_ptr_null(spec->u.spec.map);
	ck_assert_int_eq(spec->u.spec.mem, MEM_ANY);
	c = k->u.def.clauses.v[2];
	ck_assert_int_eq(c->u.list.n, 3);
	ck_assert_int_eq(c->u.list.v[2]->u.var.mem, MEM_SMEM);
	c = k->u.def.clauses.v[3];
	ck_assert_int_eq(c->kind, AST_ALIASES);
	ck_assert_str_eq(c->u.list.v[0]->u.alias.out.s, "y");
	ck_assert_str_eq(c->u.list.v[0]->u.alias.in.s, "x");
	c = k->u.def.clauses.v[4];
	ck_assert_int_eq(c->kind, AST_PARAMS);
	ck_assert_int_eq(c->u.list.v[1]->u.named.value->kind, AST_STRING);
	ck_assert_str_eq(c->u.list.v[1]->u.named.value->u.str, "v4");
	body = k->u.def.body;
	ck_assert_int_eq(body->u.list.n, 6);
	ck_assert_int_eq(body->u.list.v[0]->kind, AST_FOR);
	ck_assert_str_eq(body->u.list.v[0]->u.loop.var.s, "s");
	ck_assert_ptr_nonnull(body->u.list.v[0]->u.loop.step);
	ck_assert_int_eq(body->u.list.v[1]->kind, AST_DMA_WAIT);
	ck_assert_int_eq(body->u.list.v[2]->kind, AST_DMA_COPY);
	ck_assert_ptr_null(body->u.list.v[2]->u.dma.sem);
	ck_assert_int_eq(body->u.list.v[3]->kind, AST_SEM_SIGNAL);
	ck_assert_ptr_null(body->u.list.v[4]->u.sem.count);
	w = body->u.list.v[5];
	ck_assert_int_eq(w->kind, AST_WHEN);
	ck_assert_int_eq(w->u.when.els->kind, AST_WHEN);
	ck_assert_int_eq(w->u.when.els->u.when.els->kind, AST_BLOCK);
}
END_TEST

START_TEST(func_and_export)
{
	static const char src[] =
	    "func toy(x: f32[16, 64], w1: f32[64, 64]) -> f32[16, 64] {\n"
	    "    let h = named(\"matmul_1\", x @ w1);\n"
	    "    return h;\n"
	    "}\n"
	    "export toy;\n";
	Ast *m = parse(src), *f, *let;

	ck_assert_int_eq(fx.d.nerror, 0);
	f = m->u.list.v[0];
	ck_assert_int_eq(f->kind, AST_FUNC);
	ck_assert_str_eq(f->u.def.ret->u.type.dtype.s, "f32");
	let = f->u.def.body->u.list.v[0];
	ck_assert_int_eq(let->kind, AST_LET);
	ck_assert_str_eq(let->u.let.name.s, "h");
	ck_assert_ptr_null(let->u.let.type);
	ck_assert_str_eq(let->u.let.value->u.call.args.v[0]->u.str, "matmul_1");
	ck_assert_int_eq(m->u.list.v[1]->kind, AST_EXPORT);
	ck_assert_int_eq(m->u.list.v[1]->u.export.targs.n, 0);
	ck_assert_ptr_null(m->u.list.v[1]->u.export.as.s);
}
END_TEST

START_TEST(recovery_two_errors)
{
	static const char src[] =
	    "kernel k(x: f32[8], out y: f32[8]) {\n"
	    "    let a = x[...] +;\n"
	    "    y[...] = a;\n"
	    "    y[...] = a foo;\n"
	    "}\n"
	    "export k;\n";
	Ast *m = parse(src), *body;

	ck_assert_int_eq(fx.d.nerror, 2);
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "t.pk:2:21: error: expected expression before ';'"));
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "t.pk:4:16: error: expected ';' before 'foo'"));
	ck_assert_int_eq(m->u.list.n, 2);
	body = m->u.list.v[0]->u.def.body;
	ck_assert_int_eq(body->u.list.n, 3);
	ck_assert_int_eq(body->u.list.v[0]->kind, AST_ERROR);
	ck_assert_int_eq(body->u.list.v[1]->kind, AST_ASSIGN);
	ck_assert_int_eq(body->u.list.v[2]->kind, AST_ERROR);
	range(body->u.list.v[2], 4, 5, 4, 19);
	ck_assert_int_eq(m->u.list.v[1]->kind, AST_EXPORT);
}
END_TEST

START_TEST(error_messages)
{
	parse("kernel k(x: f32[8]) { let params = 1; }");
	ck_assert_int_eq(fx.d.nerror, 1);
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "error: expected identifier before 'params'"));
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "note: 'params' is a keyword and cannot be used as a name"));
	teardown();

	parse("kernel");
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "t.pk:1:7: error: expected identifier before end of file"));
	teardown();

	parse("func f( -> f32 {}");
	ck_assert_ptr_nonnull(strstr(msgs(), "error: unexpected '->', "
	    "expected one of: identifier, 'out', 'vmem', 'smem', 'any', "
	    "'hbm', ')'"));
	teardown();

	parse("export m<16 as k16;");
	ck_assert_ptr_nonnull(strstr(msgs(),
	    "error: expected '>' or ',' before ';'"));
	teardown();

	parse("kernel k() grid (i 4) blocks { x [8]; } { y = 1; }");
	ck_assert_int_eq(fx.d.nerror, 2);
	ck_assert_ptr_nonnull(strstr(msgs(), "expected ':' before '4'"));
	ck_assert_ptr_nonnull(strstr(msgs(), "expected ':' before '['"));
}
END_TEST

START_TEST(empty_and_garbage)
{
	Ast *m = parse("");

	ck_assert_int_eq(m->kind, AST_MODULE);
	ck_assert_int_eq(m->u.list.n, 0);
	ck_assert_int_eq(fx.d.nerror, 0);
	teardown();

	m = parse("} } ) ; kernel ; # ## . }");
	ck_assert_int_eq(m->kind, AST_MODULE);
	ck_assert_int_ge(fx.d.nerror, 1);
}
END_TEST

START_TEST(deep_nesting)
{
	size_t n = 10000, i, len;
	char *src = malloc(3 * n + 64), *p = src;
	Ast *m;

	p += sprintf(p, "func f() -> f32 { return ");
	for (i = 0; i < n; i++)
		*p++ = '(';
	*p++ = 'x';
	for (i = 0; i < n; i++)
		*p++ = ')';
	strcpy(p, "; }");
	m = parse(src);
	ck_assert_int_eq(m->kind, AST_MODULE);
	ck_assert_int_eq(fx.d.nerror, 1);
	ck_assert_ptr_nonnull(strstr(msgs(), "error: nesting too deep"));
	teardown();

	/* a long flat chain builds a deep tree with a shallow parser stack */
	p = src;
	p += sprintf(p, "func f() -> f32 { return x");
	len = (3 * n) / 4;
	for (i = 0; i < len; i++)
		p += sprintf(p, "+x");
	strcpy(p, "; }");
	m = parse(src);
	ck_assert_int_eq(fx.d.nerror, 1);
	ck_assert_ptr_nonnull(strstr(msgs(), "nested too deeply"));
	ck_assert_int_le(m->height, AST_MAX_HEIGHT);
	free(src);
}
END_TEST

START_TEST(printer)
{
	Buf b = {0};
	Ast *m = parse("kernel k(x: f32[8]) { x[...] += -1.5 * x[0:4]; }\n"
	    "export k<2> as k2;\n");

	ck_assert_int_eq(fx.d.nerror, 0);
	ast_print(&b, m);
	buf_putc(&b, 0);
	ck_assert_str_eq(b.p,
	    "Module @1:1-2:18\n"
	    "  Kernel k @1:1-1:48\n"
	    "    Operand x @1:10-1:18\n"
	    "      Type f32 @1:13-1:18\n"
	    "        Int 8 @1:17-1:17\n"
	    "    body: Block @1:21-1:48\n"
	    "      Assign += @1:23-1:46\n"
	    "        target: Index @1:23-1:28\n"
	    "          Ident x @1:23-1:23\n"
	    "          Ellipsis @1:25-1:27\n"
	    "        value: Binary * @1:33-1:45\n"
	    "          Unary - @1:33-1:36\n"
	    "            Float 1.5 @1:34-1:36\n"
	    "          Index @1:40-1:45\n"
	    "            Ident x @1:40-1:40\n"
	    "            Slice @1:42-1:44\n"
	    "              lo: Int 0 @1:42-1:42\n"
	    "              hi: Int 4 @1:44-1:44\n"
	    "  Export k as k2 @2:1-2:18\n"
	    "    targ: Int 2 @2:10-2:10\n");
	buf_free(&b);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("ast");
	TCase *tc = tcase_create("parse");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, kernel_structure);
	tcase_add_test(tc, precedence);
	tcase_add_test(tc, slices_and_calls);
	tcase_add_test(tc, clauses_and_statements);
	tcase_add_test(tc, func_and_export);
	tcase_add_test(tc, recovery_two_errors);
	tcase_add_test(tc, error_messages);
	tcase_add_test(tc, empty_and_garbage);
	tcase_add_test(tc, deep_nesting);
	tcase_add_test(tc, printer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
