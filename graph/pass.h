/*
 * pass.h - what the HLO-to-HLO passes share: the pass table entry, the
 * context each pass gets, and the editing helpers of hlo_edit.c.  Not a
 * public API; the pipeline is listed once, in passes.c, and run through
 * hlo_optimize (graph.h).
 *
 * A pass edits the module in place and returns 1 if it changed it, 0 if
 * not, -1 after reporting an error through cx->d.  It may leave dead
 * instructions and instructions out of order behind (hlo_comp_clean
 * tidies them), but every instruction it adds must have its final shape
 * and a fresh name (hlo_add), so the verifier passes after it.
 */
#ifndef PALLAS_GRAPH_PASS_H
#define PALLAS_GRAPH_PASS_H

#include "graph/graph.h"

typedef struct HloPassCtx {
	const struct MachPreset *mp;	/* the target: tiling, VMEM, costs */
	Diag *d;
	Buf *stats;		/* decisions for --emit=hlo-stats, or NULL */
} HloPassCtx;

typedef int (*HloPassFn)(HloModule *m, HloPassCtx *cx);

typedef struct HloPass {
	const char *name;	/* -fno-hlo-NAME, dump file names */
	HloPassFn run;
	int group;		/* >0: run with the passes of the same group
				   until a round changes nothing */
	double rtol;		/* 0: values stay bit for bit; else the
				   relative error its rewrites may add */
	const char *what;	/* one line for --help */
} HloPass;

/*
 * Runs the pipeline's pass 'name' once on m (no verification, no hook),
 * for tests: 1 changed, 0 not, -1 error; a bug if there is no such pass.
 */
int hlo_run_pass(HloModule *m, const char *name, HloPassCtx *cx);

/* ------------------------------------------------------- the passes */
int hlo_pass_dce(HloModule *m, HloPassCtx *cx);	/* pass_dce.c */
int hlo_pass_fusion(HloModule *m, HloPassCtx *cx);	/* pass_fusion.c */
int hlo_pass_mof(HloModule *m, HloPassCtx *cx);		/* pass_mof.c */
int hlo_pass_schedule(HloModule *m, HloPassCtx *cx);	/* pass_schedule.c */
int hlo_pass_msa(HloModule *m, HloPassCtx *cx);	/* pass_msa.c */

/* --------------------------------------------------------- buffers.c */
/*
 * Buffers of one computation: every array leaf an instruction defines
 * is a buffer, except where it aliases one defined earlier
 * (get-tuple-element, tuple, bitcast, copy-done, a copy-start's source).
 * Live ranges are schedule positions: the text order, or an order the
 * caller passes.
 */
typedef struct HloBuffer {
	int def;		/* defining instruction */
	int leaf;		/* which array leaf of its shape */
	int64_t bytes;		/* padded to the layout's tiles */
	int64_t memspace;	/* S(n) of the defining leaf */
	int param;		/* defined by a parameter: live throughout */
	int out;		/* reaches the root: live to the end */
	int start, end;		/* live range, inclusive */
	int64_t offset;		/* from hlo_buffers_assign; -1 = none */
} HloBuffer;

typedef struct HloBuffers {
	const HloComp *c;
	int n;			/* instructions */
	int *first, *nleaf;	/* leaves of instruction i: leafbuf[first[i]..
				   first[i] + nleaf[i]) */
	int *leafbuf;		/* the buffer each leaf lives in */
	const HloShape **leafshape;	/* each leaf's array shape */
	int *rfirst, *reads;	/* the distinct buffers instruction i reads:
				   reads[rfirst[i]..rfirst[i + 1]) */
	HloBuffer *buf;
	int nbuf;
} HloBuffers;

/* Bytes of a shape, its arrays padded to their layout's tiles (T(8,128)
   etc.), dense where there are none; tuples sum their leaves. */
int64_t hlo_shape_bytes(const HloShape *s);
/* Aliasing, sizes and live ranges of c in its text order. */
void hlo_buffers_build(HloBuffers *b, Arena *a, const HloComp *c);
/* Live ranges again for the order pos[i] = position of instruction i
   (NULL: the text order). */
void hlo_buffers_live(HloBuffers *b, const int *pos);
/* The largest sum of the bytes of the buffers live at one position. */
int64_t hlo_buffers_peak(const HloBuffers *b);
/*
 * Offsets for the buffers keep(b, i, arg) accepts (NULL: all), first fit
 * by size, largest first, each aligned to 'align'; two buffers share
 * bytes only if their live ranges do not meet.  Returns the arena size.
 */
int64_t hlo_buffers_assign(HloBuffers *b, int64_t align,
    int (*keep)(const HloBuffers *b, int i, void *arg), void *arg);
/* pass_algsimp*.c, pass_constfold.c, pass_cse.c (helpers: pass_simp.h) */
int hlo_pass_algsimp(HloModule *m, HloPassCtx *cx);
int hlo_pass_algsimp_div(HloModule *m, HloPassCtx *cx);
int hlo_pass_constfold(HloModule *m, HloPassCtx *cx);
int hlo_pass_cse(HloModule *m, HloPassCtx *cx);
int hlo_pass_layout(HloModule *m, HloPassCtx *cx);	/* pass_layout.c */
int hlo_pass_tiling(HloModule *m, HloPassCtx *cx);	/* pass_tiling.c */

/* -------------------------------------------------------- hlo_edit.c */
/* A name no instruction of m has: "base.N". */
const char *hlo_fresh_name(HloModule *m, const char *base);
/*
 * Appends to c an instruction of opcode op and shape 'shape' on the
 * operands ops[0..nops), named after its opcode; other fields as
 * hlo_instr_new leaves them.  It lands at the end of c: hlo_comp_clean
 * moves it before its users.
 */
HloInstr *hlo_add(HloModule *m, HloComp *c, HloOp op, const HloShape *shape,
    const int *ops, int nops);
/* Index of 'in' in c (a bug if it is not there). */
int hlo_index(const HloComp *c, const HloInstr *in);
/* Makes every use of instruction 'from' in c (and the root) use 'to'. */
void hlo_replace_uses(HloComp *c, int from, int to);
/* uses[i] = how many operand slots (and the root) name instruction i. */
int *hlo_use_counts(Arena *a, const HloComp *c);
/* 1 if removing an unused 'in' could change what the program does. */
int hlo_has_side_effect(const HloInstr *in);
/*
 * Drops the instructions of c the root does not reach (parameters and
 * side effects stay) and orders the rest so operands come first, keeping
 * the text order where it already holds.  Returns 1 if c changed.
 */
int hlo_comp_clean(HloModule *m, HloComp *c);
/*
 * hlo_comp_clean on every computation, then drops the computations no
 * instruction calls (by callee or by name in an opaque attribute) other
 * than the entry.  Returns 1 if m changed.
 */
int hlo_module_clean(HloModule *m);

/* ------------------------------------------------------------ fuse.c */
/*
 * Building fusions in the computation c of m while a pass runs: indices
 * into c->instr stay valid (nothing is deleted, an instruction that moves
 * into a fusion is detached: no operands, no users), new instructions
 * land at the end, and hlo_fuse_tidy tidies up after the pass.
 */
/* Operand slots (and the root) of c naming instruction v. */
int hlo_fuse_uses(const HloComp *c, int v);
/* 1 unless instruction i of c was detached or is dead. */
int hlo_fuse_live(const HloComp *c, int i);
/* Takes 'in' out of the graph (opcode HLO_INVALID, no operands). */
void hlo_fuse_detach(HloInstr *in);
/*
 * Drops c's detached instructions and orders the rest def-before-use,
 * keeping the text order where it holds.  Unlike hlo_comp_clean it keeps
 * dead code (that is dce's business).  Returns 1 if c changed.
 */
int hlo_fuse_tidy(HloModule *m, HloComp *c);
/* Removes fused computation fc from m if no live instruction calls it. */
void hlo_fuse_drop_comp(HloModule *m, HloComp *fc);
/* A new, empty computation "fused_computation[.N]" just before caller
   (the computation its fusion instruction will be in). */
HloComp *hlo_fuse_comp_new(HloModule *m, const HloComp *caller);
/* The computation a fusion calls, or NULL if f is not a fusion. */
HloComp *hlo_fuse_callee(const HloModule *m, const HloInstr *f);
/* Index in fc of its parameter number num (a bug if none). */
int hlo_fuse_param_of(const HloComp *fc, int64_t num);
/*
 * Index in f's computation of the parameter that carries c's value v
 * into fusion f (instruction f of c); adds operand and parameter
 * ("param_K[.N]") if f does not read v yet.
 */
int hlo_fuse_param(HloModule *m, HloComp *c, int f, int v);
/* Appends to 'to' a copy of src named 'name' on operands ops. */
HloInstr *hlo_fuse_clone(HloModule *m, HloComp *to, const HloInstr *src,
    const char *name, const int *ops);
/*
 * Wraps instruction i of c into a new fusion of it alone (it keeps its
 * name inside); c's uses of i become uses of the fusion, whose index is
 * returned.  Kind, shape and name are set by hlo_fuse_finish.
 */
int hlo_fuse_wrap(HloModule *m, HloComp *c, int i);
/*
 * Moves the producer of operand k of fusion f into it (its operands
 * become operands of f).  keep: the producer has other users, so it
 * stays and the fusion gets a copy under a fresh name.
 */
void hlo_fuse_producer(HloModule *m, HloComp *c, int f, int k, int keep);
/* 1 if fc has an instruction of opcode op. */
int hlo_fuse_has(const HloComp *fc, HloOp op);
/* fc's output instructions (a root tuple's operands, else the root). */
int hlo_fuse_outputs(const HloComp *fc, int *out, int max);
/* "kOutput" (a dot), "kInput" (a reduce or transpose output), "kLoop". */
const char *hlo_fuse_kind(const HloComp *fc);
/*
 * Orders f's computation, sets kind and shape from it and names f:
 * 'name', or (NULL) after its ops as XLA does (multiply_reduce_fusion).
 */
void hlo_fuse_finish(HloModule *m, HloComp *c, int f, const char *name);

#endif
