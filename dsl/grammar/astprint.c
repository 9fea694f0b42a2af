/*
 * astprint.c - the --emit=ast dump of a syntax tree.
 *
 * Gives:    one line per node, indented two spaces per level:
 *               [role: ]Kind [fields] @line:col-eline:ecol
 *           Children follow their parent in source order; a role names a
 *           child whose part is not clear from its kind (cond:, then:,
 *           src:...).  Names and operators are printed as spelled, strings
 *           JSON-quoted, floats in the shortest form that reads back to the
 *           same double.  The format is stable: golden tests diff it.
 * Method:   recursion over the tree; the parser bounds the height by
 *           AST_MAX_HEIGHT, and print() stops below that depth anyway.
 * Entry:    ast_print()
 * Tests:    tests/golden/ (*.pk next to *.ast), tests/unit/check_ast.c
 */
#include <stdlib.h>

#include "dsl/dsl.h"

static void print(Buf *b, const Ast *n, int depth, const char *role);

static const char *sufname[NSUF] = { "", "f32", "bf16", "i32", "i8" };

static void
indent(Buf *b, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		buf_puts(b, "  ");
}

static void
loc(Buf *b, Loc l)
{
	if (!l.file)
		buf_puts(b, " @?");
	else
		buf_printf(b, " @%d:%d-%d:%d", l.line, l.col, l.eline, l.ecol);
}

/* The shortest %g form that reads back as exactly v. */
static void
putfloat(Buf *b, double v)
{
	char s[64];
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(s, sizeof s, "%.*g", prec, v);
		if (strtod(s, NULL) == v)
			break;
	}
	snprintf(s, sizeof s, "%.*g", prec, v);
	buf_puts(b, s);
}

static void
suffix(Buf *b, LitSuffix s)
{
	if (s != SUF_NONE && s < NSUF)
		buf_printf(b, " %s", sufname[s]);
}

static void
name(Buf *b, AstName n)
{
	buf_printf(b, " %s", n.s ? n.s : "?");
}

/* The fields of n that go on its own line. */
static void
fields(Buf *b, const Ast *n)
{
	switch (n->kind) {
	case AST_KERNEL: case AST_FUNC:
		name(b, n->u.def.name);
		break;
	case AST_EXPORT:
		name(b, n->u.export.name);
		if (n->u.export.as.s)
			buf_printf(b, " as %s", n->u.export.as.s);
		break;
	case AST_OPERAND:
		name(b, n->u.var.name);
		if (n->u.var.out)
			buf_puts(b, " out");
		if (n->u.var.mem != MEM_DEFAULT)
			buf_printf(b, " %s", ast_mem_name(n->u.var.mem));
		break;
	case AST_TYPE:
		name(b, n->u.type.dtype);
		break;
	case AST_AXIS: case AST_PARAM: case AST_KWARG:
		name(b, n->u.named.name);
		break;
	case AST_BLOCKSPEC:
		name(b, n->u.spec.name);
		if (n->u.spec.mem != MEM_DEFAULT)
			buf_printf(b, " %s", ast_mem_name(n->u.spec.mem));
		break;
	case AST_ALIAS:
		buf_printf(b, " %s = %s", n->u.alias.out.s, n->u.alias.in.s);
		break;
	case AST_LET:
		name(b, n->u.let.name);
		break;
	case AST_ASSIGN:
		buf_printf(b, " %s%s", n->u.assign.op == AOP_ASSIGN ? "" :
		    ast_op_spelling(n->u.assign.op), "=");
		break;
	case AST_FOR:
		name(b, n->u.loop.var);
		break;
	case AST_IDENT:
		buf_printf(b, " %s", n->u.name);
		break;
	case AST_INT:
		buf_printf(b, " %llu", (unsigned long long)n->u.ival.v);
		suffix(b, n->u.ival.suffix);
		break;
	case AST_FLOAT:
		buf_putc(b, ' ');
		putfloat(b, n->u.fval.v);
		suffix(b, n->u.fval.suffix);
		break;
	case AST_STRING:
		buf_putc(b, ' ');
		buf_json_str(b, n->u.str);
		break;
	case AST_UNARY:
		buf_printf(b, " %s", ast_op_spelling(n->u.unary.op));
		break;
	case AST_BINARY:
		buf_printf(b, " %s", ast_op_spelling(n->u.binary.op));
		break;
	case AST_CAST:
		name(b, n->u.cast.dtype);
		break;
	case AST_CALL:
		name(b, n->u.call.name);
		break;
	default:
		break;
	}
}

static void
list(Buf *b, const AstList *l, int depth, const char *role)
{
	int i;

	for (i = 0; i < l->n; i++)
		print(b, l->v[i], depth, role);
}

static void
opt(Buf *b, const Ast *n, int depth, const char *role)
{
	if (n)
		print(b, n, depth, role);
}

/* The children of n, one level deeper. */
static void
children(Buf *b, const Ast *n, int d)
{
	switch (n->kind) {
	case AST_KERNEL: case AST_FUNC:
		list(b, &n->u.def.tparams, d, "tparam");
		list(b, &n->u.def.params, d, NULL);
		list(b, &n->u.def.clauses, d, NULL);
		opt(b, n->u.def.ret, d, "returns");
		opt(b, n->u.def.body, d, "body");
		break;
	case AST_EXPORT:
		list(b, &n->u.export.targs, d, "targ");
		break;
	case AST_OPERAND:
		opt(b, n->u.var.type, d, NULL);
		opt(b, n->u.var.when, d, "when");
		break;
	case AST_TYPE:
		list(b, &n->u.type.dims, d, NULL);
		break;
	case AST_AXIS: case AST_PARAM: case AST_KWARG:
		opt(b, n->u.named.value, d, NULL);
		break;
	case AST_BLOCKSPEC:
		opt(b, n->u.spec.shape, d, "shape");
		opt(b, n->u.spec.map, d, "at");
		opt(b, n->u.spec.buffers, d, "buffers");
		break;
	case AST_LET:
		opt(b, n->u.let.type, d, "type");
		opt(b, n->u.let.value, d, NULL);
		break;
	case AST_ASSIGN:
		opt(b, n->u.assign.target, d, "target");
		opt(b, n->u.assign.value, d, "value");
		break;
	case AST_EXPR_STMT: case AST_RETURN:
		opt(b, n->u.one.x, d, NULL);
		break;
	case AST_WHEN:
		opt(b, n->u.when.cond, d, "cond");
		opt(b, n->u.when.then, d, "then");
		opt(b, n->u.when.els, d, "else");
		break;
	case AST_FOR:
		opt(b, n->u.loop.lo, d, "from");
		opt(b, n->u.loop.hi, d, "to");
		opt(b, n->u.loop.step, d, "step");
		opt(b, n->u.loop.body, d, "body");
		break;
	case AST_DMA_START: case AST_DMA_WAIT: case AST_DMA_COPY:
		opt(b, n->u.dma.src, d, "src");
		opt(b, n->u.dma.dst, d, "dst");
		opt(b, n->u.dma.sem, d, "sem");
		break;
	case AST_SEM_SIGNAL: case AST_SEM_WAIT:
		opt(b, n->u.sem.sem, d, "sem");
		opt(b, n->u.sem.count, d, "count");
		break;
	case AST_UNARY:
		opt(b, n->u.unary.x, d, NULL);
		break;
	case AST_BINARY:
		opt(b, n->u.binary.l, d, NULL);
		opt(b, n->u.binary.r, d, NULL);
		break;
	case AST_COND:
		opt(b, n->u.cond.c, d, "cond");
		opt(b, n->u.cond.a, d, "then");
		opt(b, n->u.cond.b, d, "else");
		break;
	case AST_CAST:
		opt(b, n->u.cast.x, d, NULL);
		break;
	case AST_CALL:
		list(b, &n->u.call.args, d, NULL);
		break;
	case AST_INDEX:
		opt(b, n->u.index.base, d, NULL);
		list(b, &n->u.index.items, d, NULL);
		break;
	case AST_SLICE:
		opt(b, n->u.slice.lo, d, "lo");
		opt(b, n->u.slice.hi, d, "hi");
		break;
	case AST_MODULE: case AST_GRID: case AST_SEMANTICS: case AST_BLOCKS:
	case AST_MAP: case AST_ELEMENT_MAP: case AST_SCRATCH: case AST_ALIASES:
	case AST_PARAMS: case AST_BLOCK: case AST_DIMS: case AST_CHECK:
		list(b, &n->u.list, d, NULL);
		break;
	default:
		break;
	}
}

static void
print(Buf *b, const Ast *n, int depth, const char *role)
{
	indent(b, depth);
	if (role)
		buf_printf(b, "%s: ", role);
	if (depth > AST_MAX_HEIGHT + 1) {	/* a tree not built by the parser */
		buf_puts(b, "...\n");
		return;
	}
	buf_puts(b, ast_kind_name(n->kind));
	fields(b, n);
	loc(b, n->loc);
	buf_putc(b, '\n');
	children(b, n, depth + 1);
}

void
ast_print(Buf *out, const Ast *module)
{
	if (module)
		print(out, module, 0, NULL);
}
