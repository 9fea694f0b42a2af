/*
 * dsl.h - the .pk frontend: preprocessor, parser, AST.  Table of contents
 * for dsl/; the lexer's interface is dsl/grammar/token.h.
 *
 * Flow: SrcMgr file -> Lexer (tokens) -> PP (directives, macros) ->
 * parser (bison, actions build the AST only) -> Ast.  Every stage reports
 * through one Diag; none stops at the first error.
 */
#ifndef PALLAS_DSL_H
#define PALLAS_DSL_H

#include "util/util.h"
#include "dsl/grammar/token.h"

/* ---------------------------------------------- preproc.c, ppexpr.c */
typedef struct PP PP;

/* A preprocessor reading through d->sm; tokens and names live in a. */
PP *pp_new(Diag *d, Strtab *strs, Arena *a);
void pp_free(PP *pp);
void pp_add_include_dir(PP *pp, const char *dir);
/* -DNAME or -DNAME=VALUE; returns 0, or -1 after reporting a bad name. */
int pp_define_cmdline(PP *pp, const char *arg);
/* -UNAME; returns 0, or -1 after reporting a bad name. */
int pp_undef_cmdline(PP *pp, const char *name);
/* Opens the main file; returns 0, or -1 after reporting why it could not. */
int pp_push_file(PP *pp, const char *path);
/* Uses text[0..len) named 'name' as the main file (tests, embedded .pk). */
int pp_push_text(PP *pp, const char *name, const char *text, size_t len);
/*
 * The same for a module embedded in a C file (dsl/embed/): there,
 * PK_PP(#directive ...) is a directive line ending at its ')', and
 * #include "f" is relative to name's directory, as in a .pk file.
 */
int pp_push_embedded(PP *pp, const char *name, const char *text,
    size_t len);
/* The next token after preprocessing; TK_EOF once every file is done. */
TokKind pp_next(PP *pp, Token *t);

/* Answers 'defined NAME' for pp_eval_expr: nonzero if NAME is a macro. */
typedef int PPDefinedFn(void *ctx, const char *name);
/*
 * Evaluates the macro-expanded #if expression t[0..n) in 64-bit signed
 * arithmetic (wrapping, no undefined behaviour) into *val; returns 0, or
 * -1 after reporting the first error.  'at' is the directive.
 */
int pp_eval_expr(Diag *d, const Token *t, int n, Loc at,
    PPDefinedFn *defined, void *ctx, int64_t *val);

/* --------------------------------------------------------------- ast.c */
/*
 * The syntax tree of a .pk module (doc/language.md).  A node has a kind,
 * the source range it covers (Loc, first to last token) and its height;
 * the union member each kind uses is named next to it.  Names are
 * interned strings, so equal names are equal pointers.  Nodes live in the
 * parse arena and are never freed one by one.  The parser keeps every
 * tree at most AST_MAX_HEIGHT high, so recursive walks are safe.
 */
#define AST_MAX_HEIGHT 1000

typedef struct Ast Ast;
typedef struct AstList { Ast **v; int n, cap; } AstList;	/* a VEC */
typedef struct AstName { const char *s; Loc loc; } AstName;	/* s: NULL = none */

/* Memory spaces of operands, blocks and scratch. */
typedef enum MemSpace {
	MEM_DEFAULT,		/* not written: vmem for blocks and scratch */
	MEM_VMEM, MEM_SMEM, MEM_ANY, MEM_HBM, NMEM
} MemSpace;

/* Operators; assignments use AOP_ASSIGN or the arithmetic op of 'op='. */
typedef enum AstOp {
	AOP_ADD, AOP_SUB, AOP_MUL, AOP_DIV, AOP_MOD, AOP_MATMUL,
	AOP_SHL, AOP_SHR, AOP_LT, AOP_LE, AOP_GT, AOP_GE, AOP_EQ, AOP_NE,
	AOP_BITAND, AOP_BITXOR, AOP_BITOR, AOP_AND, AOP_OR,
	AOP_NEG, AOP_PLUS, AOP_NOT, AOP_BITNOT,		/* unary */
	AOP_ASSIGN,
	NAOP
} AstOp;

typedef enum AstKind {
	/* declarations */
	AST_MODULE,		/* list: the declarations, in order */
	AST_KERNEL,		/* def (ret is NULL) */
	AST_FUNC,		/* def */
	AST_EXPORT,		/* export */
	AST_OPERAND,		/* var: operand, func parameter, scratch buffer */
	AST_TYPE,		/* type */
	AST_GRID,		/* list of AST_AXIS */
	AST_AXIS,		/* named: axis name, extent */
	AST_SEMANTICS,		/* list of AST_IDENT */
	AST_BLOCKS,		/* list of AST_BLOCKSPEC */
	AST_BLOCKSPEC,		/* spec */
	AST_MAP,		/* list: index map returning block indices */
	AST_ELEMENT_MAP,	/* list: index map returning element offsets */
	AST_SQUEEZED,		/* (leaf) '_' in a block shape */
	AST_SCRATCH,		/* list of AST_OPERAND */
	AST_ALIASES,		/* list of AST_ALIAS */
	AST_ALIAS,		/* alias */
	AST_PARAMS,		/* list of AST_PARAM */
	AST_PARAM,		/* named: key, value */
	/* statements */
	AST_BLOCK,		/* list: statements */
	AST_LET,		/* let */
	AST_ASSIGN,		/* assign */
	AST_EXPR_STMT,		/* one */
	AST_WHEN,		/* when */
	AST_FOR,		/* loop */
	AST_RETURN,		/* one */
	AST_DMA_START,		/* dma: src, dst, sem */
	AST_DMA_WAIT,		/* dma: src, dst, sem */
	AST_DMA_COPY,		/* dma: src, dst (sem NULL) */
	AST_SEM_SIGNAL,		/* sem */
	AST_SEM_WAIT,		/* sem */
	AST_CHECK,		/* list: the arguments (condition, message) */
	/* expressions */
	AST_IDENT,		/* name */
	AST_INT,		/* ival */
	AST_FLOAT,		/* fval */
	AST_STRING,		/* str */
	AST_DIMS,		/* list: '[' a, b ']' (shapes, block shapes) */
	AST_UNARY,		/* unary */
	AST_BINARY,		/* binary */
	AST_COND,		/* cond: c ? a : b */
	AST_CAST,		/* cast: x as dtype */
	AST_CALL,		/* call */
	AST_KWARG,		/* named: keyword argument name: value */
	AST_INDEX,		/* index: base[items] */
	AST_SLICE,		/* slice: lo:hi, either may be NULL */
	AST_ELLIPSIS,		/* (leaf) '...' */
	AST_ERROR,		/* (leaf) where a syntax error was recovered */
	NAST
} AstKind;

struct Ast {
	AstKind kind;
	Loc loc;		/* the whole construct, first to last token */
	int height;		/* 1 for a leaf */
	union {
		AstList list;
		struct {
			AstName name;
			AstList tparams;	/* AST_IDENT: size parameters */
			AstList params;		/* AST_OPERAND */
			AstList clauses;	/* GRID, SEMANTICS, BLOCKS... */
			Ast *ret;		/* AST_TYPE; func only */
			Ast *body;		/* AST_BLOCK */
		} def;
		struct {
			AstName name;
			AstList targs;		/* expressions; none = n 0 */
			AstName as;		/* s NULL: exported as name */
		} export;
		struct {
			AstName name;
			int out;		/* declared 'out' */
			MemSpace mem;
			Ast *type;		/* AST_TYPE */
			Ast *when;		/* present only if true, or NULL */
		} var;
		struct {
			AstName dtype;		/* f32, bf16, i32, i8, bool, sem... */
			AstList dims;		/* expressions; n 0 = scalar */
		} type;
		struct { AstName name; Ast *value; } named;
		struct {
			AstName name;		/* the operand */
			Ast *shape;		/* AST_DIMS or NULL (whole array) */
			Ast *map;		/* AST_MAP, AST_ELEMENT_MAP or NULL */
			MemSpace mem;
			Ast *buffers;		/* expression or NULL (default 2) */
		} spec;
		struct { AstName out, in; } alias;
		struct { AstName name; Ast *type, *value; } let; /* type may be NULL */
		struct { AstOp op; Ast *target, *value; } assign;
		struct { Ast *x; } one;
		/* els: NULL, AST_BLOCK or AST_WHEN */
		struct { Ast *cond, *then, *els; } when;
		/* step may be NULL */
		struct { AstName var; Ast *lo, *hi, *step, *body; } loop;
		struct { Ast *src, *dst, *sem; } dma;
		struct { Ast *sem, *count; } sem;	/* count may be NULL (1) */
		const char *name;
		struct { uint64_t v; LitSuffix suffix; } ival;
		struct { double v; LitSuffix suffix; } fval;
		const char *str;			/* decoded, NUL-ended */
		struct { AstOp op; Ast *x; } unary;
		struct { AstOp op; Ast *l, *r; } binary;
		struct { Ast *c, *a, *b; } cond;
		struct { Ast *x; AstName dtype; } cast;
		struct { AstName name; AstList args; } call;	/* args: exprs, AST_KWARG */
		/* items: expressions, AST_SLICE, AST_ELLIPSIS */
		struct { Ast *base; AstList items; } index;
		struct { Ast *lo, *hi; } slice;
	} u;
};

/*
 * Node construction (used by the parser and by tests).  Each constructor
 * records the node's height; a node higher than AST_MAX_HEIGHT is replaced
 * by an AST_ERROR leaf after one "nested too deeply" error through diag.
 */
typedef struct AstBuild {
	Arena *arena;
	Diag *diag;
	int toodeep;		/* the nesting error was reported */
} AstBuild;

Ast *ast_leaf(AstBuild *b, AstKind k, Loc loc);	/* SQUEEZED ELLIPSIS ERROR */
Ast *ast_list(AstBuild *b, AstKind k, Loc loc, AstList items);
Ast *ast_ident(AstBuild *b, Loc loc, const char *name);
Ast *ast_int(AstBuild *b, Loc loc, uint64_t v, LitSuffix suffix);
Ast *ast_float(AstBuild *b, Loc loc, double v, LitSuffix suffix);
Ast *ast_string(AstBuild *b, Loc loc, const char *s);
Ast *ast_def(AstBuild *b, AstKind k, Loc loc, AstName name, AstList tparams,
    AstList params, AstList clauses, Ast *ret, Ast *body);
Ast *ast_export(AstBuild *b, Loc loc, AstName name, AstList targs, AstName as);
Ast *ast_var(AstBuild *b, Loc loc, int out, MemSpace mem, AstName name,
    Ast *type, Ast *when);
Ast *ast_type(AstBuild *b, Loc loc, AstName dtype, AstList dims);
Ast *ast_named(AstBuild *b, AstKind k, Loc loc, AstName name, Ast *value);
Ast *ast_blockspec(AstBuild *b, Loc loc, AstName name, Ast *shape, Ast *map,
    MemSpace mem, Ast *buffers);
Ast *ast_alias(AstBuild *b, Loc loc, AstName out, AstName in);
Ast *ast_let(AstBuild *b, Loc loc, AstName name, Ast *type, Ast *value);
Ast *ast_assign(AstBuild *b, Loc loc, AstOp op, Ast *target, Ast *value);
Ast *ast_one(AstBuild *b, AstKind k, Loc loc, Ast *x);	/* EXPR_STMT RETURN */
Ast *ast_when(AstBuild *b, Loc loc, Ast *cond, Ast *then, Ast *els);
Ast *ast_for(AstBuild *b, Loc loc, AstName var, Ast *lo, Ast *hi, Ast *step,
    Ast *body);
Ast *ast_dma(AstBuild *b, AstKind k, Loc loc, Ast *src, Ast *dst, Ast *sem);
Ast *ast_semop(AstBuild *b, AstKind k, Loc loc, Ast *sem, Ast *count);
Ast *ast_unary(AstBuild *b, Loc loc, AstOp op, Ast *x);
Ast *ast_binary(AstBuild *b, Loc loc, AstOp op, Ast *l, Ast *r);
Ast *ast_cond(AstBuild *b, Loc loc, Ast *c, Ast *x, Ast *y);
Ast *ast_cast(AstBuild *b, Loc loc, Ast *x, AstName dtype);
Ast *ast_call(AstBuild *b, Loc loc, AstName f, AstList args);
Ast *ast_index(AstBuild *b, Loc loc, Ast *base, AstList items);
Ast *ast_slice(AstBuild *b, Loc loc, Ast *lo, Ast *hi);
void ast_push(AstBuild *b, AstList *l, Ast *x);	/* appends x to l */

const char *ast_kind_name(AstKind k);	/* "Kernel", "Binary"... */
const char *ast_op_spelling(AstOp op);	/* "+", "+=", "as"... */
const char *ast_mem_name(MemSpace m);	/* "vmem"...; "" for MEM_DEFAULT */

/* ------------------------------------------------------ parse.c, parser.y */
/* Where the parser reads tokens: pp_next or lex_next behind a ctx. */
typedef TokKind (*TokSource)(void *ctx, Token *t);

/*
 * Parses a whole module.  Always returns an AST_MODULE node (partial
 * after syntax errors: constructs that could not be recovered are left
 * out, recovered statements and declarations become AST_ERROR).  Syntax
 * errors are reported through d; d->nerror counts them.
 */
Ast *parse_module(TokSource next, void *ctx, Diag *d, Arena *a);

/* ------------------------------------------------------------ astprint.c */
/* Appends the --emit=ast dump: one node per line, indented, with ranges. */
void ast_print(Buf *out, const Ast *module);

#endif
