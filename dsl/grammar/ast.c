/*
 * ast.c - construction of syntax-tree nodes, and the names of kinds and
 * operators.
 *
 * Gives:    nodes allocated in the build's arena with their kind, range,
 *           fields and height.  Every constructor ends in done(), which
 *           enforces AST_MAX_HEIGHT: a node that would be higher becomes
 *           an AST_ERROR leaf (one diagnostic per build), so that every
 *           later recursive walk of the tree is bounded.
 * Entry:    ast_*() in dsl/dsl.h, used by the parser's actions only.
 * Tests:    tests/unit/check_ast.c
 */

#include "dsl/dsl.h"

static const char *kindname[NAST] = {
	"Module", "Kernel", "Func", "Export", "Operand", "Type", "Grid", "Axis",
	"Semantics", "Blocks", "BlockSpec", "Map", "ElementMap", "Squeezed",
	"Scratch", "Aliases", "Alias", "Params", "Param",
	"Block", "Let", "Assign", "ExprStmt", "When", "For", "Return",
	"DmaStart", "DmaWait", "DmaCopy", "SemSignal", "SemWait",
	"Check",
	"Ident", "Int", "Float", "String", "Dims", "Unary", "Binary", "Cond",
	"Cast", "Call", "Kwarg", "Index", "Slice", "Ellipsis", "Error",
};	/* ORDER AST */

static const char *opname[NAOP] = {
	"+", "-", "*", "/", "%", "@", "<<", ">>", "<", "<=", ">", ">=", "==",
	"!=", "&", "^", "|", "&&", "||", "-", "+", "!", "~", "=",
};	/* ORDER AOP */

static const char *memname[NMEM] = { "", "vmem", "smem", "any", "hbm" };

const char *
ast_kind_name(AstKind k)
{
	return k < NAST ? kindname[k] : "?";
}

const char *
ast_op_spelling(AstOp op)
{
	return op < NAOP ? opname[op] : "?";
}

const char *
ast_mem_name(MemSpace m)
{
	return m < NMEM ? memname[m] : "?";
}

void
ast_push(AstBuild *b, AstList *l, Ast *x)
{
	vec_push(b->arena, l, x);
}

static Ast *
alloc(AstBuild *b, AstKind k, Loc loc)
{
	Ast *n = arena_alloc(b->arena, sizeof *n);

	n->kind = k;
	n->loc = loc;
	n->height = 1;
	return n;
}

static int
hof(const Ast *x)
{
	return x ? x->height : 0;
}

static int
max2(int a, int b)
{
	return a > b ? a : b;
}

static int
hlist(const AstList *l)
{
	int i, h = 0;

	for (i = 0; i < l->n; i++)
		h = max2(h, hof(l->v[i]));
	return h;
}

/* The height of the children of n (0 for a leaf). */
static int
childheight(const Ast *n)
{
	switch (n->kind) {
	case AST_KERNEL:
	case AST_FUNC:
		return max2(max2(hlist(&n->u.def.tparams), hlist(&n->u.def.params)),
		    max2(hlist(&n->u.def.clauses),
		    max2(hof(n->u.def.ret), hof(n->u.def.body))));
	case AST_EXPORT:
		return hlist(&n->u.export.targs);
	case AST_OPERAND:
		return max2(hof(n->u.var.type), hof(n->u.var.when));
	case AST_TYPE:
		return hlist(&n->u.type.dims);
	case AST_AXIS: case AST_PARAM: case AST_KWARG:
		return hof(n->u.named.value);
	case AST_BLOCKSPEC:
		return max2(max2(hof(n->u.spec.shape), hof(n->u.spec.map)),
		    hof(n->u.spec.buffers));
	case AST_LET:
		return max2(hof(n->u.let.type), hof(n->u.let.value));
	case AST_ASSIGN:
		return max2(hof(n->u.assign.target), hof(n->u.assign.value));
	case AST_EXPR_STMT: case AST_RETURN:
		return hof(n->u.one.x);
	case AST_WHEN:
		return max2(hof(n->u.when.cond),
		    max2(hof(n->u.when.then), hof(n->u.when.els)));
	case AST_FOR:
		return max2(max2(hof(n->u.loop.lo), hof(n->u.loop.hi)),
		    max2(hof(n->u.loop.step), hof(n->u.loop.body)));
	case AST_DMA_START: case AST_DMA_WAIT: case AST_DMA_COPY:
		return max2(max2(hof(n->u.dma.src), hof(n->u.dma.dst)),
		    hof(n->u.dma.sem));
	case AST_SEM_SIGNAL: case AST_SEM_WAIT:
		return max2(hof(n->u.sem.sem), hof(n->u.sem.count));
	case AST_UNARY:
		return hof(n->u.unary.x);
	case AST_BINARY:
		return max2(hof(n->u.binary.l), hof(n->u.binary.r));
	case AST_COND:
		return max2(hof(n->u.cond.c),
		    max2(hof(n->u.cond.a), hof(n->u.cond.b)));
	case AST_CAST:
		return hof(n->u.cast.x);
	case AST_CALL:
		return hlist(&n->u.call.args);
	case AST_INDEX:
		return max2(hof(n->u.index.base), hlist(&n->u.index.items));
	case AST_SLICE:
		return max2(hof(n->u.slice.lo), hof(n->u.slice.hi));
	case AST_MODULE: case AST_GRID: case AST_SEMANTICS: case AST_BLOCKS:
	case AST_MAP: case AST_ELEMENT_MAP: case AST_SCRATCH: case AST_ALIASES:
	case AST_PARAMS: case AST_BLOCK: case AST_DIMS: case AST_CHECK:
		return hlist(&n->u.list);
	default:
		return 0;
	}
}

/* Records n's height; too high a node becomes an error leaf. */
static Ast *
done(AstBuild *b, Ast *n)
{
	n->height = childheight(n) + 1;
	if (n->height <= AST_MAX_HEIGHT)
		return n;
	if (!b->toodeep && b->diag) {
		diag_error(b->diag, n->loc,
		    "expression or statement nested too deeply (more than %d "
		    "levels)", AST_MAX_HEIGHT);
		b->toodeep = 1;
	}
	return alloc(b, AST_ERROR, n->loc);
}

Ast *
ast_leaf(AstBuild *b, AstKind k, Loc loc)
{
	return alloc(b, k, loc);
}

Ast *
ast_list(AstBuild *b, AstKind k, Loc loc, AstList items)
{
	Ast *n = alloc(b, k, loc);

	n->u.list = items;
	return done(b, n);
}

Ast *
ast_ident(AstBuild *b, Loc loc, const char *name)
{
	Ast *n = alloc(b, AST_IDENT, loc);

	n->u.name = name;
	return n;
}

Ast *
ast_int(AstBuild *b, Loc loc, uint64_t v, LitSuffix suffix)
{
	Ast *n = alloc(b, AST_INT, loc);

	n->u.ival.v = v;
	n->u.ival.suffix = suffix;
	return n;
}

Ast *
ast_float(AstBuild *b, Loc loc, double v, LitSuffix suffix)
{
	Ast *n = alloc(b, AST_FLOAT, loc);

	n->u.fval.v = v;
	n->u.fval.suffix = suffix;
	return n;
}

Ast *
ast_string(AstBuild *b, Loc loc, const char *s)
{
	Ast *n = alloc(b, AST_STRING, loc);

	n->u.str = s ? s : "";
	return n;
}

Ast *
ast_def(AstBuild *b, AstKind k, Loc loc, AstName name, AstList tparams,
    AstList params, AstList clauses, Ast *ret, Ast *body)
{
	Ast *n = alloc(b, k, loc);

	n->u.def.name = name;
	n->u.def.tparams = tparams;
	n->u.def.params = params;
	n->u.def.clauses = clauses;
	n->u.def.ret = ret;
	n->u.def.body = body;
	return done(b, n);
}

Ast *
ast_export(AstBuild *b, Loc loc, AstName name, AstList targs, AstName as)
{
	Ast *n = alloc(b, AST_EXPORT, loc);

	n->u.export.name = name;
	n->u.export.targs = targs;
	n->u.export.as = as;
	return done(b, n);
}

Ast *
ast_var(AstBuild *b, Loc loc, int out, MemSpace mem, AstName name, Ast *type,
    Ast *when)
{
	Ast *n = alloc(b, AST_OPERAND, loc);

	n->u.var.name = name;
	n->u.var.out = out;
	n->u.var.mem = mem;
	n->u.var.type = type;
	n->u.var.when = when;
	return done(b, n);
}

Ast *
ast_type(AstBuild *b, Loc loc, AstName dtype, AstList dims)
{
	Ast *n = alloc(b, AST_TYPE, loc);

	n->u.type.dtype = dtype;
	n->u.type.dims = dims;
	return done(b, n);
}

Ast *
ast_named(AstBuild *b, AstKind k, Loc loc, AstName name, Ast *value)
{
	Ast *n = alloc(b, k, loc);

	n->u.named.name = name;
	n->u.named.value = value;
	return done(b, n);
}

Ast *
ast_blockspec(AstBuild *b, Loc loc, AstName name, Ast *shape, Ast *map,
    MemSpace mem, Ast *buffers)
{
	Ast *n = alloc(b, AST_BLOCKSPEC, loc);

	n->u.spec.name = name;
	n->u.spec.shape = shape;
	n->u.spec.map = map;
	n->u.spec.mem = mem;
	n->u.spec.buffers = buffers;
	return done(b, n);
}

Ast *
ast_alias(AstBuild *b, Loc loc, AstName out, AstName in)
{
	Ast *n = alloc(b, AST_ALIAS, loc);

	n->u.alias.out = out;
	n->u.alias.in = in;
	return n;
}

Ast *
ast_let(AstBuild *b, Loc loc, AstName name, Ast *type, Ast *value)
{
	Ast *n = alloc(b, AST_LET, loc);

	n->u.let.name = name;
	n->u.let.type = type;
	n->u.let.value = value;
	return done(b, n);
}

Ast *
ast_assign(AstBuild *b, Loc loc, AstOp op, Ast *target, Ast *value)
{
	Ast *n = alloc(b, AST_ASSIGN, loc);

	n->u.assign.op = op;
	n->u.assign.target = target;
	n->u.assign.value = value;
	return done(b, n);
}

Ast *
ast_one(AstBuild *b, AstKind k, Loc loc, Ast *x)
{
	Ast *n = alloc(b, k, loc);

	n->u.one.x = x;
	return done(b, n);
}

Ast *
ast_when(AstBuild *b, Loc loc, Ast *cond, Ast *then, Ast *els)
{
	Ast *n = alloc(b, AST_WHEN, loc);

	n->u.when.cond = cond;
	n->u.when.then = then;
	n->u.when.els = els;
	return done(b, n);
}

Ast *
ast_for(AstBuild *b, Loc loc, AstName var, Ast *lo, Ast *hi, Ast *step,
    Ast *body)
{
	Ast *n = alloc(b, AST_FOR, loc);

	n->u.loop.var = var;
	n->u.loop.lo = lo;
	n->u.loop.hi = hi;
	n->u.loop.step = step;
	n->u.loop.body = body;
	return done(b, n);
}

Ast *
ast_dma(AstBuild *b, AstKind k, Loc loc, Ast *src, Ast *dst, Ast *sem)
{
	Ast *n = alloc(b, k, loc);

	n->u.dma.src = src;
	n->u.dma.dst = dst;
	n->u.dma.sem = sem;
	return done(b, n);
}

Ast *
ast_semop(AstBuild *b, AstKind k, Loc loc, Ast *sem, Ast *count)
{
	Ast *n = alloc(b, k, loc);

	n->u.sem.sem = sem;
	n->u.sem.count = count;
	return done(b, n);
}

Ast *
ast_unary(AstBuild *b, Loc loc, AstOp op, Ast *x)
{
	Ast *n = alloc(b, AST_UNARY, loc);

	n->u.unary.op = op;
	n->u.unary.x = x;
	return done(b, n);
}

Ast *
ast_binary(AstBuild *b, Loc loc, AstOp op, Ast *l, Ast *r)
{
	Ast *n = alloc(b, AST_BINARY, loc);

	n->u.binary.op = op;
	n->u.binary.l = l;
	n->u.binary.r = r;
	return done(b, n);
}

Ast *
ast_cond(AstBuild *b, Loc loc, Ast *c, Ast *x, Ast *y)
{
	Ast *n = alloc(b, AST_COND, loc);

	n->u.cond.c = c;
	n->u.cond.a = x;
	n->u.cond.b = y;
	return done(b, n);
}

Ast *
ast_cast(AstBuild *b, Loc loc, Ast *x, AstName dtype)
{
	Ast *n = alloc(b, AST_CAST, loc);

	n->u.cast.x = x;
	n->u.cast.dtype = dtype;
	return done(b, n);
}

Ast *
ast_call(AstBuild *b, Loc loc, AstName f, AstList args)
{
	Ast *n = alloc(b, AST_CALL, loc);

	n->u.call.name = f;
	n->u.call.args = args;
	return done(b, n);
}

Ast *
ast_index(AstBuild *b, Loc loc, Ast *base, AstList items)
{
	Ast *n = alloc(b, AST_INDEX, loc);

	n->u.index.base = base;
	n->u.index.items = items;
	return done(b, n);
}

Ast *
ast_slice(AstBuild *b, Loc loc, Ast *lo, Ast *hi)
{
	Ast *n = alloc(b, AST_SLICE, loc);

	n->u.slice.lo = lo;
	n->u.slice.hi = hi;
	return done(b, n);
}
