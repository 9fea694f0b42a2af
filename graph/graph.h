/*
 * graph.h - the tensor-graph path: an HLO-like SSA IR, XLA's HLO text
 * reader and printer, shape inference, a verifier and the reference
 * evaluator.  Table of contents for graph/.
 *
 * Flow: HLO text -> hlo_read (hlo_lex.c, hlo_read*.c, hlo_attr.c) ->
 * HloModule -> hlo_verify -> hlo_print / hlo_eval.
 *
 * Values are integer handles: an instruction's operands are indices into
 * its computation's instruction array, a called computation is an index
 * into the module's computation array.  Everything lives in one arena.
 */
#ifndef PALLAS_GRAPH_H
#define PALLAS_GRAPH_H

#include "util/util.h"

#define HLO_MAXRANK 8		/* dims per array shape */
#define HLO_MAXTILES 4		/* tiles per layout: T(..)(..) */
#define HLO_MAXDEPTH 64		/* nesting of tuple shapes and literals */

/* Element types; HT_TUPLE marks a tuple shape.  ORDER TYPE (hlo.c). */
typedef enum HloType {
	HT_NONE,
	HT_PRED, HT_S8, HT_S16, HT_S32, HT_S64, HT_U8, HT_U16, HT_U32, HT_U64,
	HT_F16, HT_BF16, HT_F32, HT_F64, HT_TOKEN,
	HT_TUPLE,
	NHT
} HloType;

typedef enum HloOpClass { HC_LEAF, HC_UNARY, HC_BINARY, HC_OTHER, HC_PASS }
    HloOpClass;

typedef enum HloOp {
	HLO_INVALID,		/* an instruction that failed to parse */
#define HLO_OP(e, s, n, c) HLO_##e,
#include "graph/hlo_ops.def"
#undef HLO_OP
	NHLO
} HloOp;

/* compare direction= */
typedef enum HloCmp { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT,
    CMP_GE, NCMP } HloCmp;

/* One tile of a tiled layout, T(8,128); -1 stands for '*'. */
typedef struct HloTile {
	int n;
	int64_t d[HLO_MAXRANK];
} HloTile;

/*
 * {minor_to_major:T(..)..S(n)}.  Tiles and the memory space are modelled;
 * the other suffixes (L # * E before S, SC P M after it) are kept as text.
 */
typedef struct HloLayout {
	int has;		/* 1 = a layout was written */
	int nm2m;
	int m2m[HLO_MAXRANK];	/* minor_to_major */
	int ntile;
	HloTile tile[HLO_MAXTILES];
	int64_t memspace;	/* S(n); 0 = default (not printed) */
	/* memory-space assignment's offset of the value in S(n), when
	   placed: a fact of the compilation, not of the text (not printed
	   or read) */
	int placed;
	int64_t offset;
	const char *mid;	/* verbatim "L(..)E(..)..." suffixes, or NULL */
	const char *post;	/* verbatim "SC(..)P(..)M(..)" suffixes, or NULL */
} HloLayout;

typedef struct HloShape {
	HloType type;
	int rank;
	int64_t dim[HLO_MAXRANK];
	HloLayout layout;
	int ntuple;		/* HT_TUPLE: element count */
	struct HloShape *elem;	/* HT_TUPLE: the elements (arena) */
} HloShape;

/* A list of integers written {1,0}; 'has' tells {} from absent. */
typedef struct HloInts {
	int64_t *v;
	int n;
	int has;
} HloInts;

/*
 * One element of a constant (or of an evaluator value): f16, bf16, f32
 * and f64 in f, a double rounded to the type; pred and the integers in
 * i, wrapped to the type (u64 as its bits), so every s64 and u64 is
 * exact.  Which member holds the value is the type's: reading the other
 * is a bug, which is why this is a union and not a double.
 */
typedef union HloElem {
	double f;
	int64_t i;
} HloElem;

/*
 * A constant's values in major-to-minor order.
 * XLA prints large constants as {...}: such a literal is 'elided', with
 * no values (v NULL, n 0); it prints back as {...}, cannot be evaluated.
 */
typedef struct HloLit {
	HloElem *v;
	int64_t n;
	int elided;
} HloLit;

/* metadata={...}; strings are kept escaped, as written. */
typedef struct HloMeta {
	int has;
	const char *op_type, *op_name, *source_file;
	int64_t source_line;	/* -1 = absent */
	const char *extra;	/* other keys, verbatim "k=v k=v", or NULL */
} HloMeta;

/* An attribute the IR does not model, kept verbatim for printing. */
typedef struct HloAttr {
	const char *name;
	const char *value;
} HloAttr;

/*
 * One instruction.  Which attribute fields are meaningful depends on op:
 *   num       parameter: its number; get-tuple-element: index=;
 *             iota: iota_dimension=
 *   lit       constant
 *   dims      broadcast, transpose, reduce, concatenate, reverse, sort:
 *             dimensions=
 *   dot[4]    dot: lhs_batch, rhs_batch, lhs_contracting, rhs_contracting
 *   slo..sst  slice: starts, limits, strides
 *   cmp       compare: direction=
 *   callee    reduce, call, sort, scatter, reduce-window: to_apply=;
 *             fusion: calls=  (-1 = none)
 * Other attributes stay verbatim in attrs (attr_text.c reads them when
 * needed), including while's condition=/body= and conditional's branch
 * computations, which are named as text.
 *   kind      fusion: kind= (kLoop, kInput, kOutput, kCustom)
 *   target    custom-call: custom_call_target= (escaped, no quotes)
 */
typedef struct HloInstr {
	HloOp op;
	const char *name;	/* interned, without '%' */
	HloShape shape;
	int *operand;		/* indices into the computation's instr */
	int noperand;
	Loc loc;		/* the instruction's name */
	Loc oploc;		/* its opcode */
	int64_t num;
	HloLit lit;
	HloInts dims;
	HloInts dot[4];
	HloInts slo, shi, sst;
	HloCmp cmp;
	int callee;
	const char *kind;
	const char *target;
	HloMeta meta;
	const char *backend_config;	/* verbatim with quotes or braces */
	VEC(HloAttr) attrs;	/* unmodelled attributes, in order */
} HloInstr;

enum { DOT_LHS_BATCH, DOT_RHS_BATCH, DOT_LHS_CONTRACT, DOT_RHS_CONTRACT };

typedef struct HloComp {
	const char *name;
	int is_entry;
	VEC(HloInstr *) instr;	/* in text order (the schedule) */
	int root;		/* index into instr */
	int nparam;		/* parameter instructions */
	const char *exec_thread;	/* execution_thread=, verbatim, or NULL */
	Loc loc;
} HloComp;

typedef struct HloModule {
	Arena *arena;
	Strtab *strs;
	const char *name;	/* NULL: the text had no HloModule line */
	VEC(HloAttr) attrs;	/* header attributes in order; value NULL is
				   entry_computation_layout, printed from ecl */
	int has_ecl;
	VEC(HloShape) ecl_param;
	HloShape ecl_result;
	VEC(HloComp *) comp;	/* callees before callers */
	int entry;		/* index into comp, -1 if none */
	int fresh;		/* next suffix hlo_fresh_name tries */
	struct HloModule *next;	/* the file's next module, or NULL */
} HloModule;

/* ----------------------------------------------------------- hlo.c */
const char *hlo_op_name(HloOp op);
HloOpClass hlo_op_class(HloOp op);
int hlo_op_arity(HloOp op);		/* -1 = variable */
HloOp hlo_op_lookup(const char *s, size_t n);	/* HLO_INVALID if none */
const char *hlo_type_name(HloType t);
HloType hlo_type_lookup(const char *s, size_t n);	/* HT_NONE if none */
int hlo_type_is_float(HloType t);
int hlo_type_is_int(HloType t);		/* signed or unsigned, not pred */
const char *hlo_cmp_name(HloCmp c);
HloModule *hlo_module_new(Arena *a, Strtab *strs);
HloComp *hlo_comp_new(HloModule *m, const char *name);
HloInstr *hlo_instr_new(HloModule *m, HloComp *c, HloOp op, const char *name);
int hlo_find_comp(const HloModule *m, const char *name);	/* -1 */
int hlo_find_instr(const HloComp *c, const char *name);	/* -1 */
const HloComp *hlo_entry(const HloModule *m);		/* NULL if none */
/* The parameter instruction numbered n in c, or NULL. */
const HloInstr *hlo_param(const HloComp *c, int64_t n);

/* --------------------------------------------------------- shape.c */
/* Elements of an array shape; -1 on overflow past 2^62 or for a tuple. */
int64_t hlo_shape_elems(const HloShape *s);
/* Same element type and dims (tuples element-wise); layouts ignored. */
int hlo_shape_same(const HloShape *a, const HloShape *b);
int hlo_shape_is_scalar(const HloShape *s);
HloShape hlo_shape_array(HloType t, int rank, const int64_t *dim);
HloShape hlo_shape_tuple(Arena *a, const HloShape *elem, int n);
void hlo_shape_print(Buf *b, const HloShape *s);
/* Layout as "{1,0:T(8,128)S(1)}"; nothing for a plain scalar layout. */
void hlo_layout_print(Buf *b, const HloLayout *l, int rank);
/* 1 if the layout is absent or the default {rank-1,...,0} with no tiles
   (in any memory space). */
int hlo_layout_is_default(const HloLayout *l, int rank);

/* ----------------------------------------------------- attr_text.c */
/* A window={...}: per spatial dimension; missing fields are 1 (0 pad). */
typedef struct HloWindow {
	int rank;
	int64_t size[HLO_MAXRANK], stride[HLO_MAXRANK];
	int64_t lo[HLO_MAXRANK], hi[HLO_MAXRANK];
	int64_t lhs_dilate[HLO_MAXRANK], rhs_dilate[HLO_MAXRANK];
	int reversed;		/* some rhs_reversal is 1 */
} HloWindow;

/* dim_labels=b01f_01io->b01f: operand dimension of each role. */
typedef struct HloDimLabels {
	int nspatial;
	int lb, lf, ls[HLO_MAXRANK];	/* lhs batch, feature, spatial */
	int ki, ko, ks[HLO_MAXRANK];	/* kernel in, out, spatial */
	int ob, of, os[HLO_MAXRANK];	/* output batch, feature, spatial */
} HloDimLabels;

/* The verbatim value of unmodelled attribute 'name', or NULL. */
const char *hlo_attr_get(const HloInstr *in, const char *name);
/* "{1,2}" into v[0..max): the count, or -1 if malformed or NULL. */
int hlo_ints_text(const char *s, int64_t *v, int max);
int hlo_attr_ints(const HloInstr *in, const char *name, int64_t *v,
    int max);
/* padding=lo_hi[_interior]x...: 0, or -1 if malformed or not rank long. */
int hlo_padding_text(const char *s, int rank, int64_t *lo, int64_t *hi,
    int64_t *interior);
/* window={...} (s NULL: no window, rank 0): 0, or -1 if malformed. */
int hlo_window_text(const char *s, HloWindow *w);
int hlo_dim_labels_text(const char *s, HloDimLabels *l);
/* The computation named by attribute 'name' (condition=, body=), or -1. */
int hlo_attr_comp(const HloModule *m, const HloInstr *in, const char *name);
/*
 * conditional's branches into br[0..max): branch_computations={..}, or
 * true_computation, false_computation (in that order); count or -1.
 */
int hlo_branches(const HloModule *m, const HloInstr *in, int *br, int max);
/*
 * The computations 'in' runs as programs into c[0..max): a while's
 * condition and body, a conditional's branches, a call's callee (not
 * reducers, comparators or fused computations).  The count of those
 * that name a computation of m; 0 for any other instruction.
 */
int hlo_programs(const HloModule *m, const HloInstr *in, int *c, int max);

/* --------------------------------------------------------- infer.c */
enum { HLO_INFER_OK = 0, HLO_INFER_NONE = 1, HLO_INFER_ERROR = -1 };
/*
 * Checks in's operands and attributes against its opcode's rules and,
 * where XLA can infer it, computes the result shape into *out (no
 * layout).  Returns HLO_INFER_OK, HLO_INFER_NONE (operands fine but the
 * result shape must be written), or HLO_INFER_ERROR with a message in why.
 */
int hlo_infer_shape(const HloModule *m, const HloComp *c, const HloInstr *in,
    HloShape *out, char *why, size_t nwhy);

/* ---------------- hlo_lex.c, hlo_read.c, hlo_read_shape.c, hlo_attr.c */
/*
 * Reads the HLO text module in file 'file' of d->sm (XLA's syntax: with or
 * without HloModule line, '%' names, typed operands).  Reports every
 * syntax error it finds through d and returns NULL if there was one.
 * A file of several modules separated by "// -----" lines (what
 * --emit=hlo writes for several funcs) gives them all, chained through
 * 'next'; the other functions of this file take one module each.
 */
HloModule *hlo_read(Diag *d, int file, Arena *a, Strtab *strs);

/* ---------------------------------------------------- hlo_print.c */
/*
 * Appends m in XLA's text syntax, canonical form: no '%', short operands,
 * modelled attributes first, then unmodelled ones as written, metadata,
 * backend_config.  hlo_read of the output prints the same text again.
 */
void hlo_print(Buf *b, const HloModule *m);
void hlo_print_instr(Buf *b, const HloModule *m, const HloComp *c,
    const HloInstr *in);
/* A value of type t; a float in the shortest text that reads back to
   the same t. */
void hlo_print_number(Buf *b, HloType t, HloElem v);

/* -------------------------------------------------------- verify.c */
/*
 * Checks the module's invariants: operand counts and shapes (through
 * hlo_infer_shape), layouts, parameter numbering, called computations,
 * the entry layout.  Reports through d; returns the number of errors.
 */
int hlo_verify(const HloModule *m, Diag *d);

/* ------------------------------------------- eval.c, eval_array.c */
/* A host buffer: dense, row-major, element type's natural C type
   (pred: uint8_t 0/1, f16 and bf16: uint16_t bits; u64 unsupported). */
typedef struct HloBuf {
	HloType type;
	int rank;
	int64_t dim[HLO_MAXRANK];
	void *data;
} HloBuf;

size_t hlo_type_size(HloType t);	/* bytes per element; 0 if none */
int64_t hlo_buf_elems(const HloBuf *b);
/* A buffer of the given type and dims with zeroed, malloc'd data. */
HloBuf hlo_buf_new(HloType t, int rank, const int64_t *dim);
void hlo_buf_free(HloBuf *b);
float hlo_bf16_to_f32(uint16_t h);
uint16_t hlo_f32_to_bf16(float f);	/* round to nearest even; NaN quiet */
float hlo_f16_to_f32(uint16_t h);
uint16_t hlo_f32_to_f16(float f);	/* round to nearest even; NaN quiet */
/*
 * Runs the entry computation of a verified module on args (one per entry
 * parameter, matching its shape).  Results go to res[0..]: one buffer per
 * array leaf of the root shape, tuples flattened in order; the caller frees
 * them with hlo_buf_free.  Returns the number of results, or -1 with a
 * message in err (unsupported opcode or type, mismatched argument, size
 * limit).  Deterministic: f32 results are rounded to float after every
 * operation, bf16 to bf16 (nearest even), integers wrap.
 */
int hlo_eval(const HloModule *m, const HloBuf *args, int nargs, HloBuf *res,
    int maxres, char *err, size_t nerr);
/*
 * hlo_eval_ex flags.  HLO_EVAL_MXU_PRECISION: f32 dot operands as the
 * machine's MXU (and interpret mode) takes them: operand_precision
 * default (or absent) one bf16 pass, high three (bf16x3), highest exact.
 */
enum { HLO_EVAL_MXU_PRECISION = 1 };
/* hlo_eval with flags (0: hlo_eval). */
int hlo_eval_ex(const HloModule *m, const HloBuf *args, int nargs,
    HloBuf *res, int maxres, unsigned flags, char *err, size_t nerr);

/* -------------------------------------------------------- passes.c */
/*
 * The HLO-to-HLO pass pipeline (listed in passes.c) and its options.
 * 'after' sees the module after every pass that ran, with the pass's
 * name and whether it changed the module: the driver's --dump-passes
 * writes it, tests evaluate it.  A nonzero return stops the pipeline.
 */
typedef struct HloOptOpts {
	const struct MachPreset *mp;	/* the target (NULL: the default) */
	const char *const *off;	/* pass names left out (-fno-hlo-NAME) */
	int noff;
	int verify;		/* hlo_verify after every pass; a broken
				   module is a bug() naming the pass */
	int (*after)(const HloModule *m, const char *pass, int changed,
	    void *arg);
	void *arg;
	Buf *stats;		/* the passes' decisions, or NULL */
} HloOptOpts;
/* Runs the pipeline on m in place: 0, or -1 after reporting through d. */
int hlo_optimize(HloModule *m, const HloOptOpts *o, Diag *d);
/* 1 if 'name' is a pass of the pipeline. */
int hlo_pass_known(const char *name);
/* The relative tolerance a pass's rewrites need (0: bit for bit). */
double hlo_pass_tolerance(const char *name);
/* The pass names, comma separated, for messages and --help. */
void hlo_pass_names(Buf *b);

/* -------------------------------------------------------- emit_pk.c */
/*
 * The fused computation c of m as the source of a .pk kernel NAME
 * (operands p0.. by parameter number, outputs r0.. for the root's
 * arrays; a grid over a leading batch dimension, and over rows when the
 * whole would take more than half of vmem bytes: 0 never), appended to
 * out followed by "export NAME;": what the fusion emitter gives the
 * kernel path's checks, interpret mode and backend.  0, or -1 with the
 * first instruction it cannot write named in err (what was appended is
 * then incomplete).
 */
int hlo_fusion_pk(const HloModule *m, const HloComp *c, const char *name,
    int64_t vmem, Buf *out, char *err, size_t nerr);
/* The same for instruction in of computation c, left outside fusions: a
   kernel of its operands p0.. (the operand's number; scalar constants
   written inline) and its result r0. */
int hlo_instr_pk(const HloModule *m, const HloComp *c, const HloInstr *in,
    const char *name, Buf *out, char *err, size_t nerr);

/* ------------------------------------------------------ hlo_stats.c */
/* Instructions of m: of the entry, or of every computation. */
int hlo_instr_count(const HloModule *m, int entry_only);
/*
 * --emit=hlo-stats of a module optimised for preset mp: fusions by kind,
 * instruction counts (before_entry, before_all: hlo_instr_count before
 * the passes), the largest intermediate still in HBM, the HBM bytes an
 * unfused and
 * the fused program would move (from shapes: each instruction reads its
 * operands and writes its result), what is in VMEM, then the passes'
 * decisions (HloOptOpts.stats) as given.
 */
void hlo_stats(Buf *b, const HloModule *m, const struct MachPreset *mp,
    int before_entry, int before_all, const char *decisions,
    size_t ndecisions);

#endif
