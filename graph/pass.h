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

#endif
