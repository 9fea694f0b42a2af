/* TILE-API-READY */
/*
 * mosaic.h - the Mosaic layer: the tile IR, its builder, printer and
 * verifier, vreg layout selection, the lowering of kernel bodies, and
 * (mosaic.c and the pipeline files) the grid pipeline and allocation.
 * Table of contents for backend/mosaic/.
 *
 * The tile IR, QBE style: every value is a TRef, a 32-bit index into the
 * per-function value table TFunc.val (0 = none).  Ops live in the op
 * table TFunc.op and are listed, in order, by blocks (TFunc.blk); a block
 * belongs to one op's region (for body, if then/else) or is the
 * function's root block 0.  Control flow is structured: no branches, no
 * phis; 'for' and 'if' return values through TOP_YIELD.
 *
 * Three kinds of values:
 *  - scalars: i32, f32 or bool (DT_I32, DT_F32, DT_BOOL), rank 0, live
 *    in scalar registers / predicates;
 *  - vector tiles: a dtype, a static shape and a TLayout saying how the
 *    tile maps onto (sublanes x lanes) vregs.  A vector value is always
 *    small (it fits the register budget): block-sized data lives in
 *    memory (principle 7: every block-sized value has a home) and is
 *    streamed through vregs by 'for' loops over row chunks;
 *  - memory refs: a view of a buffer (TFunc.buf) in VMEM, SMEM or HBM
 *    with a dtype, a shape, strides in elements, and an element offset
 *    (static part in TVal.mem.off; dynamic parts come from the ops that
 *    made the view, so a ref may name a dynamic double-buffer slot).
 *
 * Memory layout of refs: VMEM arrays are stored tiled, (S * packing, L)
 * tiles over their last two dimensions (packing = 2 for bf16); a rank-1
 * array [N] is one row [1, N].  Strides and offsets are in elements of
 * the logical (untiled) array; the backend maps them onto tiles.  SMEM
 * holds 32-bit words, row-major.  HBM arrays are row-major.
 */
#ifndef PALLAS_MOSAIC_H
#define PALLAS_MOSAIC_H

#include "util/util.h"
#include "dsl/sema/checked.h"
#include "machine/machine.h"

typedef uint32_t TRef;		/* index into TFunc.val; 0 = none */
#define TNONE ((TRef)0)

/* ------------------------------------------------------------ layouts */

typedef enum TLayKind {
	TL_NONE,	/* scalars and refs */
	TL_NATIVE,	/* (S*pack, L) tiles over the last two dims: element
			   (r, c) is in vreg (r / tile_r, c / tile_c) */
	TL_LANE_REPL,	/* [R, C]: every lane of row r holds the same value
			   (row statistics such as a [BQ, 128] running max);
			   one vreg column, ceil(R / tile_r) vregs; C may be
			   1 or any width, broadcasting along lanes is free */
	TL_SUBLANE_REPL,/* [R, C]: every row holds the same values (a row
			   broadcast); ceil(C / tile_c) vregs, broadcasting
			   along sublanes is free */
	NTLAY
} TLayKind;

typedef struct TLayout {
	uint8_t kind;		/* TLayKind */
	uint8_t pack;		/* rows per 32-bit sublane: 1, or 2 (bf16) */
	uint16_t tile_r;	/* rows per vreg: S * pack */
	uint16_t tile_c;	/* columns per vreg: L */
	int16_t off_r, off_c;	/* element (0, 0) within its vreg; always 0
				   today (values are tile-aligned) */
	int nvreg;		/* vregs holding the whole value */
	int home;		/* 1: too big for registers: must live in a VMEM
				   home and be processed in chunks */
	int chunk_rows;		/* rows per chunk for home values (a multiple
				   of tile_r), else the rows of the value */
} TLayout;

/* ------------------------------------------------------------ values */

typedef enum TValKind { TV_NONE, TV_SCALAR, TV_VEC, TV_REF, NTVAL } TValKind;

typedef enum TSpace { TS_VMEM, TS_SMEM, TS_HBM, NTSPACE } TSpace;

/* A memory view (TV_REF). */
typedef struct TMem {
	TSpace space;
	int buf;		/* TFunc.buf index */
	int64_t stride[SEMA_MAXRANK];	/* elements per step of each dim */
	int64_t off;		/* static element offset into one slot of
				   the buffer */
	int dyn;		/* 1: the view also has a dynamic offset or a
				   dynamic slot (bounds checked at run time) */
} TMem;

typedef struct TVal {
	TValKind kind;
	DType dtype;
	Shape shape;		/* rank 0 for scalars */
	TLayout lay;		/* TV_VEC */
	TMem mem;		/* TV_REF */
	int def;		/* defining op (TFunc.op), or -1: a block
				   argument of block 'blk' */
	int blk;		/* block that defines it */
	const char *name;	/* printing hint, or NULL */
} TVal;

/* ------------------------------------------------------------ buffers */

typedef enum TBufKind {
	TB_BLOCK,	/* an operand's block buffer(s) (pipeline) */
	TB_SMEM_TABLE,	/* an SMEM table operand copied in before the grid */
	TB_HBM,		/* an operand's whole array in HBM (the argument) */
	TB_SCRATCH,	/* a kernel scratch buffer */
	TB_INTERNAL,	/* a compiler-managed home (body lowering) */
	NTBUF
} TBufKind;

typedef struct TBuf {
	const char *name;
	TBufKind kind;
	TSpace space;
	DType dtype;
	Shape shape;		/* one slot */
	int nslot;		/* 1, or 2 when double-buffered */
	int64_t slot_bytes;	/* one slot, tile-padded in VMEM */
	int64_t offset;		/* byte address from allocation; -1 before */
	int src;		/* operand or scratch index; -1 internal */
} TBuf;

/* A sync flag (or a group of count consecutive flags). */
typedef struct TFlag {
	const char *name;
	int count;
	int id;			/* first machine flag from allocation; -1 */
	int clip;		/* 1: the copies on these flags take several
				   shapes (a block clipped at its array's
				   end): each start raises its flag as often
				   as the copy of most descriptors does, and
				   each wait takes that many (isel) */
} TFlag;

/* ------------------------------------------------------------ ops */

typedef enum TCmp { TC_LT, TC_LE, TC_GT, TC_GE, TC_EQ, TC_NE, NTCMP } TCmp;
typedef enum TRed { TR_SUM, TR_MAX, TR_MIN, NTRED } TRed;

/*
 * One dimension of an indexed access (TOP_VIEW, TOP_LOAD, TOP_STORE,
 * TOP_SLOAD, TOP_SSTORE): the start is 'start' plus, when dyn >= 0, the
 * i32 scalar operand arg[dyn]; 'multiple' says the dynamic part is a
 * multiple of it (alignment).  squeeze (TOP_VIEW only) removes the dim.
 */
typedef struct TIdx {
	int64_t start;
	int64_t size;
	int dyn;		/* operand index, or -1 */
	int64_t multiple;	/* 1 = unknown */
	int squeeze;
} TIdx;

/*
 * The ops.  Each entry says its operands (arg), results (res) and which
 * union member of TOp it uses.  "ew" = elementwise over scalars or over
 * vectors of one shape (vector operands of an op share shape and layout
 * rules of mosaic_layout); the result dtype is the operands' unless said.
 */
typedef enum TOpKind {
	TOP_NOP,
	/* scalars and grid */
	TOP_CONST,	/* -> scalar of dtype; u.cst */
	TOP_PROGRAM_ID,	/* -> i32: grid index on u.axis (pipeline) */
	TOP_NUM_PROGRAMS,/* -> i32: extent of grid axis u.axis */
	TOP_SPLAT,	/* arg0 scalar -> vector of the result's shape */
	/* elementwise unary, ew */
	TOP_NEG, TOP_NOT, TOP_ABS,
	TOP_EXP, TOP_LOG, TOP_SQRT, TOP_RSQRT, TOP_TANH, TOP_RECIP, /* EUP */
	TOP_CONVERT,	/* arg0 -> the result's dtype (f32<->bf16/i32...) */
	/* elementwise binary, ew */
	TOP_ADD, TOP_SUB, TOP_MUL, TOP_DIV, TOP_REM, TOP_MAX, TOP_MIN,
	TOP_AND, TOP_OR, TOP_XOR,	/* bool or integer */
	TOP_SHL, TOP_SHR,		/* integer */
	TOP_CMP,	/* arg0, arg1 -> bool (mask for vectors); u.cmp */
	TOP_SELECT,	/* arg0 bool (scalar, or mask of the shape) ? arg1 :
			   arg2 */
	/* vector structure */
	TOP_IOTA,	/* -> i32 vector, element = its index along u.axis,
			   plus arg0 (i32 scalar offset) when present */
	TOP_BROADCAST,	/* arg0 vector -> result shape (NumPy rules:
			   size-1 dims expand, missing leading dims added) */
	TOP_RESHAPE,	/* arg0 vector, same elements, the result's shape
			   (a relayout when the last two dims change) */
	TOP_REDUCE,	/* arg0 vector reduced over u.red.axis (the last or
			   second-last), kept as size 1 */
	TOP_ROLL,	/* arg0 vector rotated by arg1 (i32) along u.axis:
			   out[i] = in[(i - shift) mod n]; lane axis: XLU */
	TOP_VTRANSPOSE,	/* arg0 vector [.., A, B] -> [.., B, A] (XLU) */
	/* memory */
	TOP_BUF,	/* -> ref of slot 0 of buffer u.buf (whole shape) */
	TOP_SLOT,	/* arg0 ref of a buffer's slot 0, arg1 i32 slot ->
			   the same view in that slot (dynamic) */
	TOP_VIEW,	/* arg0 ref, dynamic starts -> sub-view; u.idx */
	TOP_LOAD,	/* arg0 ref (VMEM), starts -> vector of the sizes;
			   u.idx (no squeeze) */
	TOP_STORE,	/* arg0 ref, arg1 vector, starts; u.idx; no result.
			   Partial vregs are masked by the backend */
	TOP_SLOAD,	/* arg0 ref (SMEM), indices -> scalar; u.idx */
	TOP_SSTORE,	/* arg0 ref (SMEM), arg1 scalar, indices; u.idx */
	TOP_MATMUL,	/* arg0 dst ref [M, N] (f32 or acc dtype), arg1 lhs
			   ref [M, K], arg2 rhs ref [K, N] ([N, K] when
			   trans_b); batched over equal leading dims;
			   u.mm; dst = (accumulate ? dst : 0) + lhs . rhs */
	TOP_TRANSPOSE,	/* arg0 dst ref, arg1 src ref: last two dims
			   swapped (XLU, whole blocks) */
	TOP_ROLLM,	/* arg0 dst ref, arg1 src ref, arg2 i32 shift:
			   rotate along u.axis, in memory */
	/* DMA and sync flags: u.flag.flag is a TFunc.flag group; the
	   machine flag is its id, plus the i32 element index arg[last]
	   when u.flag.dyn.  The pipeline emits these, and the body's DMA
	   and semaphore statements lower to them. */
	TOP_DMA_START,	/* arg0 src ref, arg1 dst ref, [flag index];
			   completion raises the flag by the bytes copied */
	TOP_DMA_WAIT,	/* arg0 ref (the destination, for its size),
			   [flag index]; waits for that copy, then lowers
			   the flag by its bytes */
	TOP_SEM_SIGNAL,	/* arg0 i32 count, [flag index]: flag += count */
	TOP_SEM_WAIT,	/* arg0 i32 count, [flag index]: wait flag >=
			   count, then flag -= count */
	/* structured control flow */
	TOP_FOR,	/* arg0 lo, arg1 hi (i32), arg2.. initial carried
			   values; u.loop.step; blk[0] = body with block
			   arguments (iv, carried...); results = the carried
			   values after the last trip */
	TOP_IF,		/* arg0 bool scalar; blk[0] then, blk[1] else (or
			   -1 when there are no results and no else) */
	TOP_YIELD,	/* terminator of for/if blocks with results: args =
			   the block's results (carried values) */
	TOP_TRACE,	/* a region marker for the trace; u.name, u.cst.i =
			   1 begin, 0 end */
	/* run-time checks (the pipeline's index maps) */
	TOP_TRAP,	/* arg0 bool: the check failed; arg1 SMEM ref of
			   i32 words (the record); name: the message.  When
			   arg0 holds, the program stops with the message,
			   each %N in it replaced by word N of the record
			   (the machine's trap op) */
	NTOP
} TOpKind;

typedef struct TOp {
	uint16_t op;		/* TOpKind */
	int narg;
	TRef *arg;
	int nres;
	TRef *res;
	int blk[2];		/* region blocks of TOP_FOR / TOP_IF, or -1 */
	int parent;		/* the block this op sits in */
	Loc loc;
	union {
		struct { int64_t i; double f; } cst;	/* TOP_CONST,
							   TOP_TRACE */
		int axis;	/* PROGRAM_ID, NUM_PROGRAMS, IOTA, ROLL,
				   ROLLM */
		TCmp cmp;	/* TOP_CMP */
		struct { TRed kind; int axis; } red;	/* TOP_REDUCE */
		int buf;	/* TOP_BUF */
		struct { int n; TIdx *d; } idx;	/* VIEW LOAD STORE SLOAD
						   SSTORE */
		struct {
			int trans_b;
			MachPrec prec;	/* f32 operands */
			DType acc;	/* accumulation/result dtype */
			int accumulate;	/* dst += instead of dst = */
		} mm;		/* TOP_MATMUL */
		struct { int flag; int dyn; } flag;	/* DMA_*, SEM_* */
		struct { int64_t step; } loop;	/* TOP_FOR */
	} u;
	const char *name;	/* TOP_TRACE region name, TOP_TRAP message, or
				   NULL */
} TOp;

typedef struct TBlock {
	VEC(int) op;		/* ops in order (TFunc.op indices) */
	VEC(TRef) arg;		/* block arguments (for: iv, carried) */
	int owner;		/* op owning this region, -1 for the root */
} TBlock;

/* One kernel instance (or one fusion) in the tile IR. */
typedef struct TFunc {
	const char *name;
	Arena *arena;
	const MachPreset *preset;
	VEC(TVal) val;		/* [0] unused (TNONE) */
	VEC(TOp) op;
	VEC(TBlock) blk;	/* [0] is the root block */
	VEC(TBuf) buf;
	VEC(TFlag) flag;
	VEC(int) cur;		/* builder: stack of open blocks */
	int64_t vmem_bytes, smem_bytes;	/* allocation totals (0 before) */
	int64_t vmem_limit;	/* the kernel's vmem_limit or the preset's */
	Loc loc;		/* builder: stamped on each new op (a statement) */
} TFunc;

/*
 * A top-level program (graph/tlp.c builds it, backend/vliw/tlp.c links
 * it): the entry of a func export, which runs functions of its module
 * one after another, each function's HBM operands bound to the entry's
 * own operands or to buffers in the entry's HBM scratch.  The functions
 * it runs are its own: they are not entries of the program.
 */
typedef enum TTlpKind {
	TLP_PARAM,		/* an input of the entry */
	TLP_RESULT,		/* the entry's output */
	TLP_CONST,		/* an array constant: data in the program */
	TLP_TEMP		/* in the scratch, at 'offset' */
} TTlpKind;

typedef struct TTlpBuf {
	TTlpKind kind;
	const char *name;
	DType dtype;
	Shape shape;
	int64_t bytes;		/* dense, row-major */
	int64_t offset;		/* TEMP: from the scratch's start */
	const void *data;	/* CONST: 'bytes' bytes */
	int first, last;	/* the steps that write and last read it */
} TTlpBuf;

/* A function's operand and the buffer it is bound to. */
typedef struct TTlpBind {
	const char *opnd;	/* the function's operand name */
	int buf;		/* TTlp.buf index */
} TTlpBind;

typedef struct TTlpStep {
	int func;		/* TModule.func index */
	const char *name;	/* its function's */
	const char *region;	/* the step's trace region */
	int nbind;
	TTlpBind *bind;
} TTlpStep;

typedef struct TTlp {
	const char *name;	/* the entry point */
	int nbuf;
	TTlpBuf *buf;
	int nopnd;		/* the entry's operands: buf[opnd[i]], in */
	int *opnd;		/* order (parameters, result, constants) */
	int64_t scratch;	/* bytes of HBM the TEMP buffers take */
	int nstep;
	TTlpStep *step;
} TTlp;

typedef struct TModule {
	VEC(TFunc *) func;
	VEC(TTlp *) tlp;	/* top-level programs (funcs) */
} TModule;

/* ------------------------------------------------------------ tir.c */
/*
 * The builder.  tile_new_func opens the root block; tile_emit appends an
 * op to the innermost open block.  Every result type is given by the
 * caller through tile_*_type; ops never infer types.  All memory comes
 * from the arena.  bug() on misuse (a pass bug, not user input).
 */
TFunc *tile_new_func(Arena *a, const MachPreset *p, const char *name);
/* Value types for results. */
TVal tile_scalar_type(DType t);
/* A vector type with the layout mosaic_layout() picks for it (native,
   or lane-replicated when repl says so). */
TVal tile_vec_type(const TFunc *f, DType t, const Shape *s, TLayKind want);
/* A ref type: a view of buffer b, shape s, row-major strides, offset 0. */
TVal tile_ref_type(const TFunc *f, int b, const Shape *s);
/* Adds a value of type ty (def -1 until tile_emit binds it). */
TRef tile_new_val(TFunc *f, TVal ty);
/*
 * Appends op 'op' with args[0..narg) and one result of type *res (NULL:
 * no result) to the current block; returns the result (or TNONE).  The
 * returned op index is in *opi when opi is not NULL (to set u.*).
 */
TRef tile_emit(TFunc *f, TOpKind op, const TRef *args, int narg,
    const TVal *res, int *opi);
/* Short forms. */
TRef tile_const_i32(TFunc *f, int64_t v);
TRef tile_const_f32(TFunc *f, double v);
TRef tile_const_bool(TFunc *f, int v);
TRef tile_binop(TFunc *f, TOpKind op, TRef a, TRef b);	/* same type */
TRef tile_unop(TFunc *f, TOpKind op, TRef a);
TRef tile_cmp(TFunc *f, TCmp c, TRef a, TRef b);
/* Adds a buffer; returns its index.  slot_bytes computed (tile-padded
   in VMEM), offset -1. */
int tile_buffer(TFunc *f, const char *name, TBufKind kind, TSpace sp,
    DType t, const Shape *s, int nslot, int src);
int tile_flag(TFunc *f, const char *name, int count);
/* TOP_BUF: the ref of slot 0 of buffer b. */
TRef tile_buf_ref(TFunc *f, int b);
/*
 * Structured control flow.  tile_begin_for emits a TOP_FOR with bounds
 * lo, hi, step and ncarry initial values, opens its body and returns the
 * induction variable; the carried values are tile_block_arg(f, 1 + i).
 * tile_end_for closes it (yielding 'yield' values when ncarry > 0) and
 * returns the op index; results are TFunc.op[i].res.
 */
TRef tile_begin_for(TFunc *f, TRef lo, TRef hi, int64_t step,
    const TRef *init, int ncarry);
TRef tile_block_arg(const TFunc *f, int i);
int tile_end_for(TFunc *f, const TRef *yield);
/* if (cond) { ... } [else { ... }]: no results. */
void tile_begin_if(TFunc *f, TRef cond);
void tile_else(TFunc *f);
int tile_end_if(TFunc *f);
/* Type of a value (asserted in range). */
const TVal *tile_val(const TFunc *f, TRef r);
const char *tile_op_name(TOpKind op);	/* "add", "matmul"... */
const char *tile_space_name(TSpace s);	/* "vmem", "smem", "hbm" */
/* Bytes of one (tile-padded in VMEM) slot of shape s, dtype t. */
int64_t tile_bytes(const MachPreset *p, TSpace sp, DType t, const Shape *s);

/* ------------------------------------------------------------ tprint.c */
/* Appends the --emit=tile text of f (stable; used by the goldens). */
void tile_print(Buf *b, const TFunc *f);
void tile_print_module(Buf *b, const TModule *m);
void tile_print_layout(Buf *b, const TLayout *l);	/* "#native(8,128)x4" */

/* ------------------------------------------------------------ tverify.c */
/*
 * Checks f: values defined once and before use in an enclosing block
 * (structured dominance), op arity and operand kinds, shapes, dtypes and
 * layouts consistent, static views within their buffers, for/if regions
 * well formed.  Returns 0, or -1 with the first problem in err.
 */
int tile_verify(const TFunc *f, char *err, size_t len);

/* ------------------------------------------------------------ layout.c */
/*
 * The layout of a vector value of dtype t and shape s on preset p:
 * native (S*pack, L) tiling, or want (TL_LANE_REPL / TL_SUBLANE_REPL)
 * when the caller knows the value is replicated; nvreg counted; home set
 * when nvreg exceeds mosaic_vreg_budget(p), with chunk_rows.
 */
TLayout mosaic_layout(const MachPreset *p, DType t, const Shape *s,
    TLayKind want);
/* Vregs one SSA vector value may take (the rest of the file is left to
   temporaries of the chunk loops). */
int mosaic_vreg_budget(const MachPreset *p);

/* ------------------------------------------------------------ lower.c */

/*
 * The handoff from the pipeline to the body lowering: refs valid at the
 * point where the body is lowered (inside the grid loop nest, after the
 * current step's input waits).
 */
typedef struct MosaicRefs {
	/* [k->nop]: operand i as the body sees it: a VMEM view of the
	   CURRENT block buffer (dtype op.dtype, shape op.ref_shape; made
	   with TOP_SLOT/TOP_VIEW, so the slot may be dynamic), the SMEM
	   table or SMEM block ref, or the HBM ref for MEM_ANY */
	TRef *operand;
	TRef *scratch;		/* [k->nscratch]: ref of each scratch buffer
				   (TNONE for semaphore scratch) */
	int *scratch_flag;	/* [k->nscratch]: TFunc.flag index of a
				   semaphore scratch (one flag per element),
				   -1 otherwise */
	TRef *axis;		/* [k->naxis]: i32 scalars, the grid index */
	int checks;		/* emit run-time checks of dynamic indices */
} MosaicRefs;

/*
 * Lowers the body of k into the current block of f, using refs.  Adds
 * internal VMEM homes (TB_INTERNAL) for block-sized values.  Reports what
 * the backend cannot lower through d; returns 0, or -1 after an error.
 */
int mosaic_lower_body(TFunc *f, const CKernel *k, const MosaicRefs *refs,
    Diag *d);

/* ------------------------------------------------------------ mosaic.c */
/*
 * The driver's one entry (pipeline engineer): every exported kernel of m
 * lowered into a TFunc (grid pipeline + body), allocated and verified.
 * Returns 0, or -1 after reporting through d.
 */
int mosaic_lower(const CheckedModule *m, const MachPreset *p, Diag *d,
    Arena *a, TModule **out);
/* Options of the Mosaic layer (pallasc's -f flags). */
typedef struct MosaicOpts {
	int no_bounds_check;	/* -fno-bounds-check: no run-time checks of
				   the index maps (to measure their cost) */
} MosaicOpts;
/* mosaic_lower with options (o may be NULL: the defaults). */
/* ------------------------------------------------------------ range.c */
/* The known ranges of a body's slots: known[s] set when every value
   slot s takes lies in [lo[s], hi[s]]. */
typedef struct MosaicRanges {
	int n;
	int64_t *lo, *hi;
	char *known;
} MosaicRanges;
/*
 * [*lo, *hi] holds every value the integer expression e takes over the
 * grid (and the ranges r gives its slots; r may be NULL): 1, or 0 when
 * interval arithmetic cannot bound it.
 */
int mosaic_range(const CKernel *k, const MosaicRanges *r, const CExpr *e,
    int64_t *lo, int64_t *hi);
/* 1 if interval arithmetic proves every value of e nonzero (a divisor
   that needs no run-time check). */
int mosaic_nonzero(const CKernel *k, const MosaicRanges *r, const CExpr *e);

/* The note after a "not supported by the compiled path yet" error. */
#define MOSAIC_NOT_YET_HINT "interpret mode runs it (--interpret --run); " \
	"doc/compiled.md lists what the compiled path supports"

/* loc's file alone (line 0: a note without a source line). */
static inline Loc
mosaic_file_loc(Loc loc)
{
	Loc f = {0};

	f.file = loc.file;
	return f;
}

int mosaic_lower_opts(const CheckedModule *m, const MachPreset *p,
    const MosaicOpts *o, Diag *d, Arena *a, TModule **out);

#endif
