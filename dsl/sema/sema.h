/*
 * sema.h - the internal interface between the files of dsl/sema/: the
 * checking context, name scopes, and one entry point per file.  Only
 * the files of dsl/sema/ include it; other layers use dsl/sema/checked.h.
 */
#ifndef PALLAS_SEMA_SEMA_H
#define PALLAS_SEMA_SEMA_H

#include "dsl/sema/checked.h"

/* What a name is bound to. */
typedef enum BindKind {
	B_SIZE,		/* size parameter: val */
	B_TYPE,		/* dtype parameter: val is its DType */
	B_AXIS,		/* grid axis: index */
	B_OPERAND,	/* kernel operand: index */
	B_ABSENT,	/* operand whose 'when' is false for the instance */
	B_SCRATCH,	/* scratch buffer: index */
	B_SLOT,		/* let or for variable: index (slot) */
	B_FPARAM,	/* func parameter: index */
	B_FLET		/* func let: value (a shared DAG node) */
} BindKind;

typedef struct Bind Bind;
struct Bind {
	const char *name;
	BindKind kind;
	int index;
	int64_t val;
	CExpr *value;
	Loc loc;
	int depth;	/* block nesting of the declaration */
	Bind *next;	/* innermost first */
};

/*
 * An instance's arguments, one per parameter in declaration order: a
 * size, or, where dtype[i] is set, the DType that a dtype parameter
 * stands for (doc/language.md 4).
 */
#define SEMA_MAXPARAM 64
typedef struct SemaArgs {
	int64_t val[SEMA_MAXPARAM];
	uint8_t dtype[SEMA_MAXPARAM];
} SemaArgs;

/* Where an expression is checked: which names it may use. */
typedef enum Ctx {
	CTX_CONST,	/* compile-time integers: size parameters only */
	CTX_MAP,	/* index maps: + grid axes, SMEM table reads */
	CTX_BODY,	/* kernel body */
	CTX_FUNC	/* func body */
} Ctx;

typedef struct Sema {
	Diag *d;
	Arena *a;
	const MachPreset *mp;
	const Ast *module;
	Bind *scope;
	int depth;
	Ctx ctx;
	int dead;		/* > 0: checking code the size parameters
				   drop (a '?:' or when side never taken) */
	CKernel *k;		/* the kernel being checked, or NULL */
	CFunc *f;		/* the func being checked, or NULL */
	VEC(CSlotInfo) slots;
	const char *inst;	/* "matmul<2048, ...>" for notes, or NULL */
	Loc inst_loc;		/* the export that instantiated it */
	const char *inst_as;
	const char *exp_as;	/* the export being checked, or NULL */
	const char *exp_decl;	/* the kernel or func it names */
	Loc exp_loc;
	const char *entry;	/* the export compiled alone, or NULL */
	int quiet_budget;	/* not entry's instance: budgets unchecked */
	int exact_div;		/* '/' in constants must divide exactly */
	int returned;		/* the func body has a return */
	/* multiples declared with multiple_of, by node and by slot */
	VEC(struct SemaMult { const void *key; int64_t m; int64_t p; }) mult;
				/* m: the multiple known (with multiple_of's
				   promises), p: the one proved without them */
#define SLOT_KEY(slot) ((const void *)(uintptr_t)((slot) + 1))
} Sema;

/* sema.c: diagnostics that add the instantiation note. */
void se_error(Sema *S, Loc loc, const char *fmt, ...) PK_PRINTF(3, 4);
void se_warning(Sema *S, Loc loc, const char *fmt, ...) PK_PRINTF(3, 4);
#define se_note(S, ...) diag_note((S)->d, __VA_ARGS__)

/* scope.c: names, constants, instantiation. */
void scope_push(Sema *S);
void scope_pop(Sema *S);
Bind *scope_bind(Sema *S, const char *name, BindKind k, Loc loc);
Bind *scope_find(Sema *S, const char *name);
/* Reports an undefined name with a "did you mean" note if one is close. */
void scope_undefined(Sema *S, const char *what, const char *name, Loc loc);
/* Nonzero (after an error) if name is reserved: a type or a builtin. */
int scope_reserved(Sema *S, const char *name, Loc loc);
/* Binds a kernel's or func's parameters to an instance's arguments. */
void scope_bind_params(Sema *S, const AstList *tparams, const SemaArgs *args);
/*
 * The dtype a written name stands for: a dtype parameter's, or a dtype
 * name's.  0 with *t; 1 if name is no dtype (not reported: each site has
 * its own message); -1 after reporting a size parameter used as a dtype.
 */
int scope_dtype(Sema *S, const char *name, Loc loc, DType *t);
/* Reports dtype parameter b used as a value. */
void scope_type_not_value(Sema *S, const Bind *b, Loc loc);
/* A compile-time integer (section 8.1); returns 0 with *v, -1 on error. */
int const_eval(Sema *S, const Ast *e, int64_t *v);
/* A positive size: const_eval plus the > 0 check; what names it. */
int const_size(Sema *S, const Ast *e, const char *what, int64_t *v);
/* An export's size parameter: any integer within +-2^40. */
int const_param(Sema *S, const Ast *e, const char *what, int64_t *v);
const Ast *module_find(const Ast *module, const char *name);
int builtin_known(const char *name);

/* dtypes.c */
int dtype_lookup(const char *name, DType *t);	/* 0, or -1 unknown */
/* Dot support: 0, or -1 with a reason in why. */
int dtype_dot_ok(const MachPreset *mp, DType a, DType b, DType acc,
    const char **why);
int64_t shape_tile_bytes(const MachPreset *mp, DType t, const Shape *s);

/* kernel.c: a kernel instance from its declaration. */
CKernel *kernel_check(Sema *S, const Ast *def, const SemaArgs *args);
/* func.c */
CFunc *func_check(Sema *S, const Ast *def, const SemaArgs *args);
/* A call that is no builtin: a kernel called from a func, or an error. */
CExpr *func_call_kernel(Sema *S, const Ast *call);

/* types.c: expressions. */
CExpr *expr_check(Sema *S, const Ast *e);
CExpr *cx_new(Sema *S, CxOp op, DType t, const Shape *sh, Loc loc, int n);
CExpr *cx_const_int(Sema *S, int64_t v, DType t, Loc loc);
/* Converts a weak literal or broadcasts to shape; reports mismatches. */
CExpr *expr_coerce(Sema *S, CExpr *e, DType t, const Shape *sh, Loc loc,
    const char *what);
int expr_is_weak(const CExpr *e);
/* 1 or 0 if e is a bool constant, else -1. */
int expr_truth(const CExpr *e);
/* Reports a use of absent operand b, except in dead code. */
void scope_absent_use(Sema *S, const Bind *b, Loc loc);
int broadcast_shapes(const Shape *a, const Shape *b, Shape *out);
/* Resolves index items against a Ref (or value) of 'shape'. */
int slice_check(Sema *S, const AstList *items, const Shape *shape,
    Loc loc, CSlice *sl, Shape *out);
int64_t expr_known_multiple(Sema *S, const CExpr *e);
int64_t expr_proved_multiple(Sema *S, const CExpr *e);
CExpr *elementwise2(Sema *S, const Ast *at, CxOp op, const char *spell,
    CExpr *l, CExpr *r);
CExpr *cast_to(Sema *S, CExpr *x, DType t, Loc loc);
/* builtins.c: calls. */
CExpr *builtin_call(Sema *S, const Ast *e);
CExpr *dot_build(Sema *S, const Ast *at, CExpr *a, CExpr *b, int ta, int tb,
    MachPrec prec, DType acc, int acc_given);
/* slice.c: r[items] on a Ref (a load) or on a value. */
CExpr *index_check(Sema *S, const Ast *e);
/* A Ref with its slice: 0, 1 if e names no Ref, -1 after an error. */
int place_check(Sema *S, const Ast *e, CPlace *p, DType *t);
void ref_type(const CKernel *k, CRef r, DType *t, Shape *sh);
/* The textual type "f32[2, 3]" (dtype alone for a scalar). */
const char *type_str(Sema *S, DType t, const Shape *sh);

/* body.c: statements of a kernel or func body. */
void body_check(Sema *S, const Ast *block, CBlock *out);
int slot_new(Sema *S, const char *name, DType t, const Shape *sh);

/* blockspec.c: block shapes and index maps. */
void blockspec_shape(Sema *S, CKernel *k, int op, const Ast *spec);
void blockspec_map(Sema *S, CKernel *k, int op, const Ast *map);
/* Evaluates every map at every grid point; reports the first failure. */
void blockspec_check_maps(Sema *S, CKernel *k);

/* revisit.c */
void revisit_check(Sema *S, CKernel *k);
/* 0: one run per block; 1: reported a revisit; -1: map not static. */
int revisit_output(Sema *S, CKernel *k, const COperand *o);

/* semantics.c */
void semantics_prefix(Sema *S, CKernel *k);
void semantics_check(Sema *S, CKernel *k);

/* budget.c */
void budget_check(Sema *S, CKernel *k);
/* A kernel instance's operands must fit the preset's HBM; the error is
 * located at the export. */
void budget_hbm(Sema *S, const CExport *e);
/* Halves block dims until the VMEM use fits limit; fills blocks[]. */
int budget_suggest(const MachPreset *mp, const CKernel *k, int64_t limit,
    Shape *blocks, int *buffers);
int64_t budget_vmem(const MachPreset *mp, const CKernel *k,
    const Shape *blocks, const int *buffers);

/* refs.c: Ref misuse in the body. */
void refs_check(Sema *S, CKernel *k);
int refs_alignment(Sema *S, const CPlace *p, DType t, int vmem, Loc loc);

/* evalidx.c */
/* Formats "(h=1, i=3, j=0)". */
const char *grid_point_str(Sema *S, const CKernel *k, const int64_t *pt);
/* Steps pt to the next grid point in order; 0 after the last. */
int grid_next(const CKernel *k, int64_t *pt);
int64_t grid_size(const CKernel *k);
#define SEMA_MAX_ENUM ((int64_t)1 << 22)	/* grid points enumerated */

#endif
