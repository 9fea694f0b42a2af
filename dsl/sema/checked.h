/* CHECKED-API-READY */
/*
 * checked.h - the checked module: what dsl/sema/ produces from the AST and
 * what every later stage (interpret mode, the Mosaic backend, the graph
 * path) consumes.  Table of contents for dsl/sema/.
 *
 * Everything here is resolved: names are bound, size parameters are
 * instantiated to integers, every expression has a dtype and a static
 * shape, implicit broadcasts are explicit CX_BROADCAST nodes, weak literals
 * carry their final dtype, and block shapes, index maps, scratch, semantics
 * and budgets are checked against one machine preset.  All of it lives in
 * the arena given to sema_check() and is read-only afterwards.
 *
 * Conventions a consumer may rely on:
 *  - Elementwise nodes (CX_NEG..CX_SELECT) have operands whose shape equals
 *    the node's shape (operand 0 of CX_SELECT is a bool scalar), and, for
 *    arithmetic, whose dtype equals the node's dtype; comparisons have
 *    operands of one dtype and the node's dtype is DT_BOOL.
 *  - A store's value has exactly the slice's shape and the Ref's dtype.
 *  - Scalars are rank 0.  Integer scalars (grid indices, loop variables,
 *    dynamic starts) are DT_I32.
 *  - let and for variables are numbered "slots" per kernel or func
 *    (0 .. nslot-1), so an evaluator can keep their values in an array.
 */
#ifndef PALLAS_SEMA_CHECKED_H
#define PALLAS_SEMA_CHECKED_H

#include "util/util.h"
#include "dsl/dsl.h"
#include "machine/machine.h"

/* ---------------------------------------------------------- dtypes, shapes */

typedef enum DType {
	DT_F32, DT_BF16, DT_I32, DT_I8, DT_BOOL,
	DT_SEM,			/* counting semaphore (scratch only) */
	DT_DMA_SEM,		/* DMA completion semaphore (scratch only) */
	NDTYPE
} DType;

#define SEMA_MAXRANK 8

typedef struct Shape {
	int rank;			/* 0 = scalar */
	int64_t d[SEMA_MAXRANK];	/* d[0 .. rank), each >= 1 */
} Shape;

/* dtypes.c */
const char *dtype_name(DType t);	/* "f32", "bf16"... */
/* Bytes per element in memory: 4 2 4 1; bool and semaphores take 4. */
int dtype_size(DType t);
/* Rows packed per 32-bit sublane: bf16 2, i8 4, others 1. */
int dtype_packing(DType t);
int dtype_is_float(DType t);		/* f32, bf16 */
int dtype_is_int(DType t);		/* i32, i8 */
int64_t shape_numel(const Shape *s);	/* 1 for a scalar */
int shape_eq(const Shape *a, const Shape *b);
/* Appends "[2, 3]" ("[]" for a scalar). */
void shape_print(Buf *b, const Shape *s);

/* ---------------------------------------------------------- Refs, slices */

/* What a Ref names: an operand of the kernel or a scratch buffer. */
typedef enum CRefKind { CREF_OPERAND, CREF_SCRATCH } CRefKind;
typedef struct CRef {
	CRefKind kind;
	int index;		/* into CKernel.op or CKernel.scratch */
} CRef;

typedef struct CExpr CExpr;

/*
 * One dimension of a resolved slice.  Every dimension of the Ref (or
 * value) has one entry: '...', ':' and missing trailing items are
 * expanded to whole dimensions.
 */
typedef struct CIdx {
	int64_t start;		/* the first element when dyn is NULL */
	CExpr *dyn;		/* dynamic start (i32 scalar), or NULL */
	int64_t size;		/* elements selected (1 for an index) */
	int squeeze;		/* an integer index: the dimension is removed */
	int64_t multiple;	/* dyn is a multiple of this (proved or
				   declared with multiple_of); 1 = unknown */
	int64_t promised;	/* multiple when only multiple_of promises it
				   (checked at run time), else 0 */
} CIdx;

typedef struct CSlice {
	int n;			/* = rank of the Ref or value sliced */
	CIdx *dim;		/* n entries */
} CSlice;

/* ---------------------------------------------------------- expressions */

typedef enum CxOp {
	/* leaves */
	CX_CONST,	/* u.cst, broadcast to the node's shape */
	CX_AXIS,	/* u.axis: the current index on that grid axis */
	CX_NPROG,	/* u.axis: that grid axis's extent */
	CX_SLOT,	/* u.slot: a let value or a for variable */
	CX_PARAM,	/* u.slot: a func parameter (index into CFunc.param) */
	CX_LOAD,	/* u.load: read a Ref's slice (SMEM table reads too) */
	/* elementwise unary: arg[0] */
	CX_NEG, CX_NOT, CX_BITNOT, CX_EXP, CX_LOG, CX_SQRT, CX_RSQRT,
	CX_TANH, CX_ABS,
	CX_CAST,	/* arg[0] converted to the node's dtype */
	/* elementwise binary: arg[0], arg[1] */
	CX_ADD, CX_SUB, CX_MUL, CX_DIV, CX_MOD, CX_MAX, CX_MIN,
	CX_SHL, CX_SHR, CX_BITAND, CX_BITOR, CX_BITXOR, CX_AND, CX_OR,
	CX_LT, CX_LE, CX_GT, CX_GE, CX_EQ, CX_NE,
	/* elementwise ternary */
	CX_WHERE,	/* arg[0] bool (same shape) ? arg[1] : arg[2] */
	CX_SELECT,	/* arg[0] bool scalar ? arg[1] : arg[2] */
	/* shape and structure */
	CX_IOTA,	/* u.axis: index along that dimension of the shape */
	CX_BROADCAST,	/* arg[0] to the node's shape (NumPy rules) */
	CX_RESHAPE,	/* arg[0], same elements, the node's shape */
	CX_TRANSPOSE,	/* arg[0] with its last two dimensions swapped */
	CX_ROLL,	/* arg[0] rotated by arg[1] (i32 scalar) along u.axis */
	CX_SLICE,	/* u.sl: a slice of the value arg[0] */
	/* reductions: arg[0] over u.red.axis (>= 0) */
	CX_SUM, CX_RMAX, CX_RMIN, CX_MEAN,
	CX_SOFTMAX,	/* u.red.axis (funcs) */
	CX_DOT,		/* u.dot: arg[0] . arg[1], batched over leading dims */
	CX_CALL,	/* u.call: a func calling a kernel; args = inputs */
	NCXOP
} CxOp;

struct CExpr {
	CxOp op;
	DType dtype;
	Shape shape;
	Loc loc;
	const char *named;	/* label from named("...", x), or NULL */
	int weak;		/* (sema-internal) an untyped literal whose
				   dtype still adapts; 0 once checked */
	int n;			/* operands */
	CExpr **arg;
	union {
		/* CX_CONST: ints and bools in i, floats in f */
		struct { int64_t i; double f; } cst;
		int axis;	/* CX_AXIS, CX_NPROG, CX_IOTA, CX_ROLL */
		int slot;	/* CX_SLOT, CX_PARAM */
		struct { CRef ref; CSlice sl; } load;	/* CX_LOAD */
		CSlice sl;	/* CX_SLICE */
		struct { int axis, keepdims; } red;	/* CX_SUM..CX_SOFTMAX */
		struct {
			int trans_a, trans_b;
			MachPrec prec;	/* for f32 operands */
			DType acc;	/* = the node's dtype */
		} dot;
		struct CKernel *call;	/* CX_CALL: the instantiated kernel */
	} u;
};

/* ---------------------------------------------------------- statements */

typedef struct CStmt CStmt;
typedef struct CBlock { CStmt **v; int n, cap; } CBlock;	/* a VEC */

typedef enum CStmtKind {
	CS_LET,		/* u.let */
	CS_STORE,	/* u.store (acc = NCXOP: plain store) */
	CS_WHEN,	/* u.when */
	CS_FOR,		/* u.loop */
	CS_DMA_START,	/* u.dma */
	CS_DMA_WAIT,	/* u.dma */
	CS_DMA_COPY,	/* u.dma (sem.ref unused) */
	CS_SEM_SIGNAL,	/* u.sem */
	CS_SEM_WAIT,	/* u.sem */
	CS_EVAL,	/* u.value: evaluated for nothing */
	CS_RETURN,	/* u.value (funcs) */
	CS_CHECK,	/* u.check: stop the run unless cond holds */
	NCSTMT
} CStmtKind;

/* A Ref with its slice (the place a store, DMA or semaphore names). */
typedef struct CPlace {
	CRef ref;
	CSlice sl;
	Shape shape;		/* the slice's shape (squeezed dims removed) */
} CPlace;

struct CStmt {
	CStmtKind kind;
	Loc loc;
	union {
		struct { int slot; const char *name; CExpr *value; } let;
		/*
		 * place = value, or place = place ACC value for 'op=' with
		 * acc one of CX_ADD, CX_SUB, CX_MUL, CX_DIV.
		 */
		struct { CPlace place; CxOp acc; CExpr *value; } store;
		struct { CExpr *cond; CBlock then, els; } when;
		/* for (slot in lo : hi : step); lo, hi i32 scalars */
		struct { int slot; const char *name; CExpr *lo, *hi;
			int64_t step; CBlock body; } loop;
		struct { CPlace src, dst, sem; } dma;
		struct { CPlace sem; CExpr *count; } sem;	/* count i32 */
		/* cond: a bool scalar, never constant; msg: the user's */
		struct { CExpr *cond; const char *msg; } check;
		CExpr *value;
	} u;
};

/* A let or for variable. */
typedef struct CSlotInfo {
	const char *name;
	DType dtype;
	Shape shape;
} CSlotInfo;

/* ---------------------------------------------------------- kernels */

typedef enum DimSem { DIM_ARBITRARY, DIM_PARALLEL, DIM_CORE_PARALLEL } DimSem;

typedef struct CAxis {
	const char *name;
	int64_t extent;		/* >= 1 */
	DimSem sem;
	int carries;		/* scratch or an output carries state along it */
	Loc loc;
} CAxis;

typedef enum OpRole { ROLE_SMEM_TABLE, ROLE_IN, ROLE_OUT } OpRole;

typedef struct COperand {
	const char *name;
	Loc loc;
	OpRole role;
	DType dtype;
	Shape shape;		/* the whole array */
	/*
	 * Where the body's Ref lives: MEM_VMEM (a block, pipelined),
	 * MEM_SMEM (an SMEM table, or an SMEM block), MEM_ANY (HBM, whole
	 * array, DMA only).  Never MEM_DEFAULT or MEM_HBM.
	 */
	MemSpace mem;
	int blocked;		/* has a window (block + index map) */
	Shape block;		/* block shape, squeezed dims as 1 (= shape
				   when not blocked) */
	uint8_t squeezed[SEMA_MAXRANK];
	Shape ref_shape;	/* what the body sees: block minus squeezed */
	/*
	 * The index map: map[d] for d < shape.rank, an i32 scalar
	 * expression over CX_AXIS, CX_NPROG, constants and CX_LOAD of SMEM
	 * tables; NULL = 0.  Block indices, or element offsets if element.
	 */
	CExpr **map;
	int element;
	int buffers;		/* 1 or 2 */
	int runtime_check;	/* the map reads an SMEM table: its range is
				   checked at run time, not here */
	int revisit_any;	/* out: declared revisitable (params revisit) */
	int alias_in;		/* out: index of the aliased input, or -1 */
	int64_t block_bytes;	/* one buffer in VMEM/SMEM, tile-padded */
} COperand;

typedef struct CScratch {
	const char *name;
	Loc loc;
	MemSpace mem;		/* MEM_VMEM or MEM_SMEM */
	DType dtype;
	Shape shape;
	int64_t bytes;		/* tile-padded in VMEM */
} CScratch;

typedef struct CParams {
	int64_t vmem_limit;	/* bytes; 0 = the preset's VMEM */
	const char *target;	/* preset name, or NULL */
	MachPrec precision;	/* default dot precision for f32 */
} CParams;

/* One line of the budget table. */
typedef struct CBudgetRow {
	const char *name;	/* operand, scratch, or "(internal)" */
	const char *what;	/* "in", "out", "smem table", "scratch",
				   "reserve" */
	MemSpace mem;
	DType dtype;
	Shape block;		/* the block (or whole array / scratch) */
	int buffers;
	int64_t bytes;		/* total: per-buffer bytes x buffers */
} CBudgetRow;

typedef struct CBudget {
	VEC(CBudgetRow) row;
	int64_t vmem_used, vmem_limit;
	int64_t smem_used, smem_limit;
} CBudget;

typedef struct CKernel {
	const char *name;	/* the kernel's declared name */
	Loc loc;
	int nparam;		/* parameters, instantiated */
	const char **param_name;
	int64_t *param_val;	/* a size, or a DType where param_dtype[i] */
	uint8_t *param_dtype;	/* nonzero: parameter i is a dtype parameter */
	int naxis;
	CAxis *axis;
	int nop;		/* operands in declaration order */
	COperand *op;
	int nscratch;
	CScratch *scratch;
	CParams params;
	CBlock body;
	int nslot;
	CSlotInfo *slot;
	CBudget budget;
	const MachPreset *preset;
} CKernel;

/* ---------------------------------------------------------- funcs */

typedef struct CFuncParam {
	const char *name;
	Loc loc;
	DType dtype;
	Shape shape;
} CFuncParam;

typedef struct CFunc {
	const char *name;
	Loc loc;
	int nparam;
	CFuncParam *param;
	DType rdtype;		/* result */
	Shape rshape;
	CBlock body;		/* CS_LET ... then CS_RETURN */
	CExpr *result;		/* the returned expression (a DAG: lets are
				   shared CExpr nodes, not CX_SLOT) */
	int nslot;
	CSlotInfo *slot;
} CFunc;

/* ---------------------------------------------------------- module */

typedef struct CExport {
	const char *cname;	/* the C entry point: 'as' name or decl name */
	Loc loc;
	CKernel *kernel;	/* exactly one of kernel, func */
	CFunc *func;
} CExport;

typedef struct CheckedModule {
	const MachPreset *preset;
	int nexport;
	CExport *exp;
	/* kernels and funcs without size parameters that no export names:
	   checked too (cname = the declared name), but no entry points */
	int nlocal;
	CExport *local;
} CheckedModule;

/* ---------------------------------------------------------- sema.c */
/*
 * Checks a parsed module against a preset and instantiates its exports.
 * Reports every independent error through d; returns the checked module
 * (complete only when d->nerror did not grow).  Never NULL.
 */
CheckedModule *sema_check(const Ast *module, const MachPreset *preset,
    Diag *d, Arena *a);
/*
 * The same for a caller that compiles one export alone (pallasc --run or
 * --entry): the memory budgets (VMEM, SMEM, HBM: they depend on the
 * preset) are enforced for that export only, so that another one too big
 * for the preset does not stop it.  Every other check applies to all.
 */
CheckedModule *sema_check_entry(const Ast *module, const MachPreset *preset,
    const char *entry, Diag *d, Arena *a);

/* ---------------------------------------------------------- print.c */
/* Appends the --emit=sema dump (always with each kernel's budget table). */
void sema_print(Buf *out, const CheckedModule *m);
const char *cx_op_name(CxOp op);	/* "add", "dot"... */

/* ---------------------------------------------------------- evalidx.c */
/*
 * Reads element idx[0 .. rank) of SMEM table operand 'op' into *v;
 * returns 0, or -1 when the table's contents are not known.
 */
typedef int SemaTableFn(void *ctx, int op, const int64_t *idx, int64_t *v);

enum { SEMA_EVAL_OK = 0, SEMA_EVAL_UNKNOWN = -1, SEMA_EVAL_ERROR = -2 };

/*
 * Evaluates an integer or bool scalar expression of a kernel (index maps,
 * conditions) at grid point pt[0 .. k->naxis).  slots may be NULL (then
 * CX_SLOT is unknown); tab may be NULL (tables unknown).  Returns
 * SEMA_EVAL_OK with *out, SEMA_EVAL_UNKNOWN when it depends on something
 * unknown, SEMA_EVAL_ERROR on division by zero or an out-of-range table
 * index.  Arithmetic is 32-bit two's complement, as on the machine.
 */
int sema_eval_int(const CKernel *k, const CExpr *e, const int64_t *pt,
    const int64_t *slots, SemaTableFn *tab, void *ctx, int64_t *out);

/*
 * Defines the preset's macros (__PK_LANES__, __PK_SUBLANES__,
 * __PK_PRESET_<NAME>__) in pp, as pallasc does before -D and -U.
 */
void sema_predefine(PP *pp, const MachPreset *mp);

/* The value of kernel k's size parameter 'name' (sizes are positive),
   or -1 when k has no size parameter of that name. */
int64_t sema_param(const CKernel *k, const char *name);
/* Appends parameter i's argument: "64", or a dtype's name ("bf16"). */
void sema_param_print(Buf *b, const CKernel *k, int i);

/* Does an index-map expression read an SMEM table (a CX_LOAD)? */
int sema_reads_table(const CExpr *e);

/*
 * Is blocked operand o's block the same at every grid step whatever the
 * tables hold?  Exact over grids of up to SEMA_CONST_STEPS points, else
 * structural.  sema_block_slots: the block slots o gets in VMEM (or
 * SMEM): 1 when it asks for 'buffers 1' or its block is constant, else
 * 2 (double buffering).  The checks' budget and the compiled path's
 * allocation both count slots with it; sema_slots_of gives the same
 * from a sema_map_constant result the caller already has.
 */
#define SEMA_CONST_STEPS 65536
int sema_map_constant(const CKernel *k, const COperand *o);
int sema_block_slots(const CKernel *k, const COperand *o);
int sema_slots_of(const COperand *o, int constant);

/*
 * The first element of operand op's block on each dimension at grid
 * point pt (block index x block size, or the element offset): returns
 * SEMA_EVAL_OK with start[0 .. rank), or as sema_eval_int.
 */
int sema_block_start(const CKernel *k, int op, const int64_t *pt,
    SemaTableFn *tab, void *ctx, int64_t *start);

#endif
