/*
 * parser.y - the bison grammar of the .pk language (doc/language.md).
 *
 * Needs:    tokens from parse.c's pklex(), which maps lexer tokens and
 *           recognises keywords (the lexer makes identifiers of all words).
 * Gives:    an AST (dsl/dsl.h); the actions only build nodes and record
 *           ranges, all meaning lives in dsl/sema/.  Finished declarations
 *           are appended to ParseCtx.decls as soon as they are reduced, so
 *           a parse that gives up still yields the declarations before.
 * Errors:   parse.error custom: yyreport_syntax_error() below collects the
 *           expected tokens (exact, thanks to LAC) and parse.c words the
 *           message.  Recovery with the error token at statement level
 *           (";" and the enclosing "}"), in the entries of the header
 *           clauses and at declaration level, so one run reports several
 *           errors.  Parser stack exhaustion becomes "nesting too deep".
 * Entry:    pkparse(), called by parse_module() in parse.c.
 * Tests:    tests/unit/check_ast.c, tests/golden/*.pk
 */

%define api.pure full
%define api.prefix {pk}
%define api.token.prefix {T_}
%define api.location.type {Loc}
%define parse.error custom
%define parse.lac full
%locations
%param {ParseCtx *pc}
%expect 0

%code requires {
#include "dsl/dsl.h"

/* The state of one parse, shared by parse.c and the grammar. */
typedef struct ParseCtx {
	TokSource next;		/* where tokens come from */
	void *src;
	Diag *diag;
	AstBuild b;
	AstList decls;		/* the module's declarations so far */
	Token tok;		/* the token read last: the lookahead */
	int keyword;		/* tok is a keyword */
} ParseCtx;

/* Parser stack limit; beyond it pkerror() reports "nesting too deep". */
#define YYMAXDEPTH 10000

/* Spans the locations of a rule's right-hand side, skipping empty ones. */
Loc parse_span(const ParseCtx *pc, const Loc *rhs, int n);
#define YYLLOC_DEFAULT(Cur, Rhs, N) ((Cur) = parse_span(pc, &(Rhs)[0], (N)))
}

%code provides {
int pklex(PKSTYPE *lval, Loc *lloc, ParseCtx *pc);
void pkerror(Loc *lloc, ParseCtx *pc, const char *msg);
/* Reports a syntax error at loc: what was expected, n names in exp. */
void parse_syntax_error(ParseCtx *pc, Loc loc, int ateof,
    const char *const *exp, int n);
}

%code {
#define B (&pc->b)
#define NAME(tok, loc) ((AstName){ (tok).text, (loc) })
static const AstList nolist;
static const AstName noname;

static AstList
list1(ParseCtx *pc, Ast *x)
{
	AstList l = {0};

	ast_push(B, &l, x);
	return l;
}

static AstList
append(ParseCtx *pc, AstList l, Ast *x)
{
	ast_push(B, &l, x);
	return l;
}
}

%union {
	Token tok;
	Ast *ast;
	AstList list;
	AstOp op;
	MemSpace mem;
	int flag;
	struct { MemSpace mem; Ast *buffers; } bopt;
}

%token <tok> IDENT "identifier"
%token <tok> INT "integer literal"
%token <tok> FLOAT "floating-point literal"
%token <tok> STRING "string literal"
%token ELLIPSIS "'...'" ANDAND "'&&'" OROR "'||'" SHL "'<<'" SHR "'>>'"
%token PLUSEQ "'+='" MINUSEQ "'-='" STAREQ "'*='" SLASHEQ "'/='"
%token EQ "'=='" NE "'!='" LE "'<='" GE "'>='" ARROW "'->'"
%token HASH "'#'" HASHHASH "'##'"
%token KERNEL "'kernel'" FUNC "'func'" EXPORT "'export'" AS "'as'"
%token OUT "'out'" GRID "'grid'" SEMANTICS "'semantics'" BLOCKS "'blocks'"
%token SCRATCH "'scratch'" ALIASES "'aliases'" PARAMS "'params'"
%token AT "'at'" ELEMENT "'element'" BUFFERS "'buffers'"
%token VMEM "'vmem'" SMEM "'smem'" ANY "'any'" HBM "'hbm'"
%token LET "'let'" WHEN "'when'" ELSE "'else'" FOR "'for'" IN "'in'"
%token RETURN "'return'" UNDERSCORE "'_'"
%token DMA_START "'dma_start'" DMA_WAIT "'dma_wait'" DMA_COPY "'dma_copy'"
%token SEM_SIGNAL "'sem_signal'" SEM_WAIT "'sem_wait'" CHECK "'check'"

%type <ast> decl kernel func export param type clause axis spec map alias
%type <ast> kv var block stmt when for_stmt expr cond_expr or_expr and_expr
%type <ast> bor_expr xor_expr band_expr eq_expr rel_expr shift_expr add_expr
%type <ast> mul_expr cast_expr unary_expr postfix_expr primary ident
%type <ast> bdim item arg shape_opt map_opt step_opt count_opt type_ann
%type <ast> buffers
%type <list> tparams_opt idents idents_opt params_paren params params_opt
%type <list> clauses axes axes_opt specs vars aliases kvs stmts exprs
%type <list> exprs_opt bdims items args args_opt targs_opt targs
%type <op> assign_op
%type <mem> memspace mem_opt
%type <flag> out_opt
%type <bopt> bopts

%%

module:
	  %empty
	| module decl		{ if ($2) ast_push(B, &pc->decls, $2); }
	;

decl:
	  kernel
	| func
	| export
	| error ';'		{ $$ = ast_leaf(B, AST_ERROR, @$); }
	| error '}'		{ $$ = ast_leaf(B, AST_ERROR, @$); }
	;

/* ------------------------------------------------------------ kernel */

kernel:
	  KERNEL IDENT tparams_opt params_paren clauses block
		{ $$ = ast_def(B, AST_KERNEL, @$, NAME($2, @2), $3, $4, $5,
		      NULL, $6); }
	;

tparams_opt:
	  %empty		{ $$ = nolist; }
	| '<' idents '>'	{ $$ = $2; }
	;

idents:
	  ident			{ $$ = list1(pc, $1); }
	| idents ',' ident	{ $$ = append(pc, $1, $3); }
	;

idents_opt:
	  %empty		{ $$ = nolist; }
	| idents
	| idents ','
	;

ident:
	  IDENT			{ $$ = ast_ident(B, @$, $1.text); }
	;

params_paren:
	  '(' params_opt ')'	{ $$ = $2; }
	| '(' error ')'		{ $$ = nolist; }
	;

params_opt:
	  %empty		{ $$ = nolist; }
	| params
	| params ','
	;

params:
	  param			{ $$ = list1(pc, $1); }
	| params ',' param	{ $$ = append(pc, $1, $3); }
	;

param:
	  out_opt mem_opt IDENT ':' type
		{ $$ = ast_var(B, @$, $1, $2, NAME($3, @3), $5, NULL); }
	| out_opt mem_opt IDENT ':' type WHEN '(' expr ')'
		{ $$ = ast_var(B, @$, $1, $2, NAME($3, @3), $5, $8); }
	;

out_opt:
	  %empty		{ $$ = 0; }
	| OUT			{ $$ = 1; }
	;

mem_opt:
	  %empty		{ $$ = MEM_DEFAULT; }
	| memspace
	;

memspace:
	  VMEM			{ $$ = MEM_VMEM; }
	| SMEM			{ $$ = MEM_SMEM; }
	| ANY			{ $$ = MEM_ANY; }
	| HBM			{ $$ = MEM_HBM; }
	;

type:
	  IDENT			{ $$ = ast_type(B, @$, NAME($1, @1), nolist); }
	| IDENT '[' exprs ']'	{ $$ = ast_type(B, @$, NAME($1, @1), $3); }
	;

clauses:
	  %empty		{ $$ = nolist; }
	| clauses clause	{ $$ = append(pc, $1, $2); }
	;

clause:
	  GRID '(' axes_opt ')'	{ $$ = ast_list(B, AST_GRID, @$, $3); }
	| GRID '(' error ')'	{ $$ = ast_leaf(B, AST_ERROR, @$); }
	| SEMANTICS '(' idents_opt ')'
		{ $$ = ast_list(B, AST_SEMANTICS, @$, $3); }
	| SEMANTICS '(' error ')'
		{ $$ = ast_leaf(B, AST_ERROR, @$); }
	| BLOCKS '{' specs '}'	{ $$ = ast_list(B, AST_BLOCKS, @$, $3); }
	| BLOCKS '{' specs error '}'
		{ yyerrok; $$ = ast_list(B, AST_BLOCKS, @$, $3); }
	| SCRATCH '{' vars '}'	{ $$ = ast_list(B, AST_SCRATCH, @$, $3); }
	| SCRATCH '{' vars error '}'
		{ yyerrok; $$ = ast_list(B, AST_SCRATCH, @$, $3); }
	| ALIASES '{' aliases '}'
		{ $$ = ast_list(B, AST_ALIASES, @$, $3); }
	| ALIASES '{' aliases error '}'
		{ yyerrok; $$ = ast_list(B, AST_ALIASES, @$, $3); }
	| PARAMS '{' kvs '}'	{ $$ = ast_list(B, AST_PARAMS, @$, $3); }
	| PARAMS '{' kvs error '}'
		{ yyerrok; $$ = ast_list(B, AST_PARAMS, @$, $3); }
	;

axes_opt:
	  %empty		{ $$ = nolist; }
	| axes
	| axes ','
	;

axes:
	  axis			{ $$ = list1(pc, $1); }
	| axes ',' axis		{ $$ = append(pc, $1, $3); }
	;

axis:
	  IDENT ':' expr	{ $$ = ast_named(B, AST_AXIS, @$, NAME($1, @1), $3); }
	;

specs:
	  %empty		{ $$ = nolist; }
	| specs spec		{ $$ = append(pc, $1, $2); }
	| specs error ';'
		{ yyerrok; $$ = append(pc, $1, ast_leaf(B, AST_ERROR, @3)); }
	;

spec:
	  IDENT ':' shape_opt map_opt bopts ';'
		{ $$ = ast_blockspec(B, @$, NAME($1, @1), $3, $4, $5.mem,
		      $5.buffers); }
	;

shape_opt:
	  %empty		{ $$ = NULL; }
	| '[' bdims ']'		{ $$ = ast_list(B, AST_DIMS, @$, $2); }
	;

bdims:
	  bdim			{ $$ = list1(pc, $1); }
	| bdims ',' bdim	{ $$ = append(pc, $1, $3); }
	;

bdim:
	  expr
	| UNDERSCORE		{ $$ = ast_leaf(B, AST_SQUEEZED, @$); }
	;

map_opt:
	  %empty		{ $$ = NULL; }
	| map
	;

map:
	  AT '(' exprs_opt ')'	{ $$ = ast_list(B, AST_MAP, @$, $3); }
	| AT ELEMENT '(' exprs_opt ')'
		{ $$ = ast_list(B, AST_ELEMENT_MAP, @$, $4); }
	;

/* At most one memory space and one buffer count, in either order. */
bopts:
	  %empty		{ $$.mem = MEM_DEFAULT; $$.buffers = NULL; }
	| memspace		{ $$.mem = $1; $$.buffers = NULL; }
	| buffers		{ $$.mem = MEM_DEFAULT; $$.buffers = $1; }
	| memspace buffers	{ $$.mem = $1; $$.buffers = $2; }
	| buffers memspace	{ $$.mem = $2; $$.buffers = $1; }
	;

buffers:
	  BUFFERS primary	{ $$ = $2; }
	;

vars:
	  %empty		{ $$ = nolist; }
	| vars var ';'		{ $$ = append(pc, $1, $2); }
	| vars error ';'
		{ yyerrok; $$ = append(pc, $1, ast_leaf(B, AST_ERROR, @3)); }
	;

var:
	  mem_opt IDENT ':' type
		{ $$ = ast_var(B, @$, 0, $1, NAME($2, @2), $4, NULL); }
	;

aliases:
	  %empty		{ $$ = nolist; }
	| aliases alias		{ $$ = append(pc, $1, $2); }
	| aliases error ';'
		{ yyerrok; $$ = append(pc, $1, ast_leaf(B, AST_ERROR, @3)); }
	;

alias:
	  IDENT '=' IDENT ';'	{ $$ = ast_alias(B, @$, NAME($1, @1), NAME($3, @3)); }
	;

kvs:
	  %empty		{ $$ = nolist; }
	| kvs kv		{ $$ = append(pc, $1, $2); }
	| kvs error ';'
		{ yyerrok; $$ = append(pc, $1, ast_leaf(B, AST_ERROR, @3)); }
	;

kv:
	  IDENT ':' expr ';'	{ $$ = ast_named(B, AST_PARAM, @$, NAME($1, @1), $3); }
	;

/* -------------------------------------------------------- func, export */

func:
	  FUNC IDENT tparams_opt params_paren ARROW type block
		{ $$ = ast_def(B, AST_FUNC, @$, NAME($2, @2), $3, $4, nolist,
		      $6, $7); }
	;

export:
	  EXPORT IDENT targs_opt ';'
		{ $$ = ast_export(B, @$, NAME($2, @2), $3, noname); }
	| EXPORT IDENT targs_opt AS IDENT ';'
		{ $$ = ast_export(B, @$, NAME($2, @2), $3, NAME($5, @5)); }
	;

/* Size arguments stop below the comparisons, so '>' closes the list. */
targs_opt:
	  %empty		{ $$ = nolist; }
	| '<' targs '>'		{ $$ = $2; }
	;

targs:
	  shift_expr		{ $$ = list1(pc, $1); }
	| targs ',' shift_expr	{ $$ = append(pc, $1, $3); }
	;

/* --------------------------------------------------------- statements */

block:
	  '{' stmts '}'		{ $$ = ast_list(B, AST_BLOCK, @$, $2); }
	| '{' stmts error '}'
		{ yyerrok; $$ = ast_list(B, AST_BLOCK, @$,
		      append(pc, $2, ast_leaf(B, AST_ERROR, @3))); }
	;

stmts:
	  %empty		{ $$ = nolist; }
	| stmts stmt		{ $$ = append(pc, $1, $2); }
	;

stmt:
	  LET IDENT type_ann '=' expr ';'
		{ $$ = ast_let(B, @$, NAME($2, @2), $3, $5); }
	| expr assign_op expr ';'
		{ $$ = ast_assign(B, @$, $2, $1, $3); }
	| expr ';'		{ $$ = ast_one(B, AST_EXPR_STMT, @$, $1); }
	| when
	| for_stmt
	| RETURN expr ';'	{ $$ = ast_one(B, AST_RETURN, @$, $2); }
	| DMA_START '(' expr ',' expr ',' expr ')' ';'
		{ $$ = ast_dma(B, AST_DMA_START, @$, $3, $5, $7); }
	| DMA_WAIT '(' expr ',' expr ',' expr ')' ';'
		{ $$ = ast_dma(B, AST_DMA_WAIT, @$, $3, $5, $7); }
	| DMA_COPY '(' expr ',' expr ')' ';'
		{ $$ = ast_dma(B, AST_DMA_COPY, @$, $3, $5, NULL); }
	| SEM_SIGNAL '(' expr count_opt ')' ';'
		{ $$ = ast_semop(B, AST_SEM_SIGNAL, @$, $3, $4); }
	| SEM_WAIT '(' expr count_opt ')' ';'
		{ $$ = ast_semop(B, AST_SEM_WAIT, @$, $3, $4); }
	| CHECK '(' exprs_opt ')' ';'
		{ $$ = ast_list(B, AST_CHECK, @$, $3); }
	| block
	| error ';'		{ yyerrok; $$ = ast_leaf(B, AST_ERROR, @$); }
	| error block		{ yyerrok; $$ = ast_leaf(B, AST_ERROR, @$); }
	;

type_ann:
	  %empty		{ $$ = NULL; }
	| ':' type		{ $$ = $2; }
	;

assign_op:
	  '='			{ $$ = AOP_ASSIGN; }
	| PLUSEQ		{ $$ = AOP_ADD; }
	| MINUSEQ		{ $$ = AOP_SUB; }
	| STAREQ		{ $$ = AOP_MUL; }
	| SLASHEQ		{ $$ = AOP_DIV; }
	;

count_opt:
	  %empty		{ $$ = NULL; }
	| ',' expr		{ $$ = $2; }
	;

when:
	  WHEN '(' expr ')' block
		{ $$ = ast_when(B, @$, $3, $5, NULL); }
	| WHEN '(' expr ')' block ELSE block
		{ $$ = ast_when(B, @$, $3, $5, $7); }
	| WHEN '(' expr ')' block ELSE when
		{ $$ = ast_when(B, @$, $3, $5, $7); }
	;

for_stmt:
	  FOR '(' IDENT IN expr ':' expr step_opt ')' block
		{ $$ = ast_for(B, @$, NAME($3, @3), $5, $7, $8, $10); }
	;

step_opt:
	  %empty		{ $$ = NULL; }
	| ':' expr		{ $$ = $2; }
	;

/* -------------------------------------------------------- expressions */
/* One nonterminal per precedence level, lowest first (as in C). */

expr:
	  cond_expr
	;

cond_expr:
	  or_expr
	| or_expr '?' expr ':' cond_expr
		{ $$ = ast_cond(B, @$, $1, $3, $5); }
	;

or_expr:
	  and_expr
	| or_expr OROR and_expr	{ $$ = ast_binary(B, @$, AOP_OR, $1, $3); }
	;

and_expr:
	  bor_expr
	| and_expr ANDAND bor_expr
		{ $$ = ast_binary(B, @$, AOP_AND, $1, $3); }
	;

bor_expr:
	  xor_expr
	| bor_expr '|' xor_expr	{ $$ = ast_binary(B, @$, AOP_BITOR, $1, $3); }
	;

xor_expr:
	  band_expr
	| xor_expr '^' band_expr
		{ $$ = ast_binary(B, @$, AOP_BITXOR, $1, $3); }
	;

band_expr:
	  eq_expr
	| band_expr '&' eq_expr	{ $$ = ast_binary(B, @$, AOP_BITAND, $1, $3); }
	;

eq_expr:
	  rel_expr
	| eq_expr EQ rel_expr	{ $$ = ast_binary(B, @$, AOP_EQ, $1, $3); }
	| eq_expr NE rel_expr	{ $$ = ast_binary(B, @$, AOP_NE, $1, $3); }
	;

rel_expr:
	  shift_expr
	| rel_expr '<' shift_expr
		{ $$ = ast_binary(B, @$, AOP_LT, $1, $3); }
	| rel_expr '>' shift_expr
		{ $$ = ast_binary(B, @$, AOP_GT, $1, $3); }
	| rel_expr LE shift_expr
		{ $$ = ast_binary(B, @$, AOP_LE, $1, $3); }
	| rel_expr GE shift_expr
		{ $$ = ast_binary(B, @$, AOP_GE, $1, $3); }
	;

shift_expr:
	  add_expr
	| shift_expr SHL add_expr
		{ $$ = ast_binary(B, @$, AOP_SHL, $1, $3); }
	| shift_expr SHR add_expr
		{ $$ = ast_binary(B, @$, AOP_SHR, $1, $3); }
	;

add_expr:
	  mul_expr
	| add_expr '+' mul_expr	{ $$ = ast_binary(B, @$, AOP_ADD, $1, $3); }
	| add_expr '-' mul_expr	{ $$ = ast_binary(B, @$, AOP_SUB, $1, $3); }
	;

mul_expr:
	  cast_expr
	| mul_expr '*' cast_expr
		{ $$ = ast_binary(B, @$, AOP_MUL, $1, $3); }
	| mul_expr '/' cast_expr
		{ $$ = ast_binary(B, @$, AOP_DIV, $1, $3); }
	| mul_expr '%' cast_expr
		{ $$ = ast_binary(B, @$, AOP_MOD, $1, $3); }
	| mul_expr '@' cast_expr
		{ $$ = ast_binary(B, @$, AOP_MATMUL, $1, $3); }
	;

cast_expr:
	  unary_expr
	| cast_expr AS IDENT	{ $$ = ast_cast(B, @$, $1, NAME($3, @3)); }
	;

unary_expr:
	  postfix_expr
	| '-' unary_expr	{ $$ = ast_unary(B, @$, AOP_NEG, $2); }
	| '+' unary_expr	{ $$ = ast_unary(B, @$, AOP_PLUS, $2); }
	| '!' unary_expr	{ $$ = ast_unary(B, @$, AOP_NOT, $2); }
	| '~' unary_expr	{ $$ = ast_unary(B, @$, AOP_BITNOT, $2); }
	;

postfix_expr:
	  primary
	| postfix_expr '[' items ']'
		{ $$ = ast_index(B, @$, $1, $3); }
	;

primary:
	  ident
	| INT			{ $$ = ast_int(B, @$, $1.v.i, $1.suffix); }
	| FLOAT			{ $$ = ast_float(B, @$, $1.v.f, $1.suffix); }
	| STRING		{ $$ = ast_string(B, @$, $1.v.s); }
	| '(' expr ')'		{ $$ = $2; $$->loc = @$; }
	| IDENT '(' args_opt ')'
		{ $$ = ast_call(B, @$, NAME($1, @1), $3); }
	| '[' exprs ']'		{ $$ = ast_list(B, AST_DIMS, @$, $2); }
	;

args_opt:
	  %empty		{ $$ = nolist; }
	| args
	;

args:
	  arg			{ $$ = list1(pc, $1); }
	| args ',' arg		{ $$ = append(pc, $1, $3); }
	;

arg:
	  expr
	| IDENT ':' expr	{ $$ = ast_named(B, AST_KWARG, @$, NAME($1, @1), $3); }
	;

items:
	  item			{ $$ = list1(pc, $1); }
	| items ',' item	{ $$ = append(pc, $1, $3); }
	;

item:
	  expr
	| ELLIPSIS		{ $$ = ast_leaf(B, AST_ELLIPSIS, @$); }
	| ':'			{ $$ = ast_slice(B, @$, NULL, NULL); }
	| ':' expr		{ $$ = ast_slice(B, @$, NULL, $2); }
	| expr ':'		{ $$ = ast_slice(B, @$, $1, NULL); }
	| expr ':' expr		{ $$ = ast_slice(B, @$, $1, $3); }
	;

exprs:
	  expr			{ $$ = list1(pc, $1); }
	| exprs ',' expr	{ $$ = append(pc, $1, $3); }
	;

exprs_opt:
	  %empty		{ $$ = nolist; }
	| exprs
	;

%%

/* Collects what the parser expected and lets parse.c word the message. */
static int
yyreport_syntax_error(const yypcontext_t *yc, ParseCtx *pc)
{
	yysymbol_kind_t sym[YYNTOKENS];
	const char *names[YYNTOKENS];
	int i, n = yypcontext_expected_tokens(yc, sym, YYNTOKENS);

	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		names[i] = yysymbol_name(sym[i]);
	parse_syntax_error(pc, *yypcontext_location(yc),
	    yypcontext_token(yc) == YYSYMBOL_YYEOF, names, n);
	return 0;
}
