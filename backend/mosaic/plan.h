/*
 * plan.h - the grid pipeline's plan and the kernel's memory layout: the
 * part of backend/mosaic/ that decides WHEN blocks move and WHERE they
 * live.  (The tile IR itself and the lowering of bodies are declared in
 * backend/mosaic/mosaic.h, which includes this header.)
 *
 * The plan follows Pallas' top-level pipeline (doc/design.md, "Mosaic
 * pipeline"), and agrees with interpret mode's copy semantics
 * (dsl/interp/interp.c): grid steps in lexicographic order, last axis
 * fastest; an input block is copied when its block index differs from
 * the previous step's, the copy for step s+1 starting before the body of
 * step s (double buffering) or right before the body of step s+1 (one
 * buffer); an output block is written back when its index changes and
 * after the last step.  SMEM tables are copied in by the prologue.
 */
#ifndef PALLAS_MOSAIC_PLAN_H
#define PALLAS_MOSAIC_PLAN_H

#include "dsl/sema/checked.h"

/* ---------------------------------------------------------- plan.c */

/* Grids with more steps are planned per operand only (not per step). */
#define PLAN_MAX_STEPS 65536

typedef enum PlanEvKind {
	PE_TABLE_START,	/* prologue: SMEM table 'op' HBM -> SMEM starts */
	PE_TABLE_WAIT,	/* prologue: ... waited for */
	PE_IN_START,	/* block of 'step' of operand 'op' HBM -> slot;
			   on an output: a revisited block read back */
	PE_IN_WAIT,	/* ... waited for, before the body of 'step' */
	PE_OUT_START,	/* output block of 'step' slot -> HBM starts */
	PE_OUT_WAIT,	/* ... waited for */
	NPLANEV
} PlanEvKind;

typedef struct PlanEv {
	PlanEvKind kind;
	int op;			/* CKernel.op index */
	int slot;		/* buffer slot; -1: known only at run time */
	int64_t step;		/* the step whose block moves (-1: tables) */
	/*
	 * 1: happens only if a run-time compare says so (the block index
	 * changed, or for a wait: the copy it waits for was started); the
	 * indices depend on SMEM tables that the plan was not given.
	 */
	int cond;
} PlanEv;

/* One windowed operand at one step. */
typedef struct PlanCell {
	int64_t *idx;		/* the index map's values (block indices, or
				   element offsets), one per dimension */
	uint8_t known;		/* bit d: idx[d] is known */
	int8_t change;		/* 1: another block than the previous step's
				   (always at step 0), 0: the same, -1:
				   unknown (decided at run time) */
	int8_t slot;		/* the buffer slot the body uses; -1 unknown */
	int8_t revisit;		/* outputs: 1 the block was written back
				   before (read back: revisit any), -1 maybe */
} PlanCell;

typedef struct PlanStep {
	int64_t *pt;		/* grid point, naxis entries */
	int pre, npre;		/* events before the body: ev[pre ..) */
	int post, npost;	/* events after the body */
} PlanStep;

typedef struct PlanOp {
	int windowed;		/* a pipelined block (not an SMEM table or
				   an 'any' operand) */
	int nbuf;		/* buffer slots: 1 or 2; 0 if not windowed */
	int constant;		/* the index is the same at every step */
	int dynamic;		/* the index map reads SMEM tables */
	/* copies over the whole grid (-1: depend on unknown tables or the
	   grid was too large to enumerate): blocks copied in (inputs, and
	   revisited output blocks read back), blocks written back */
	int64_t copies_in, copies_out;
} PlanOp;

typedef struct MosaicPlan {
	const CKernel *k;
	int64_t nstep;		/* grid points */
	int enumerated;		/* step[] and cell[] are filled */
	int concrete;		/* every event is decided at compile time */
	int tables;		/* SMEM table operands (copied in) */
	PlanOp *op;		/* k->nop entries */
	PlanStep *step;		/* nstep entries when enumerated */
	PlanCell *cell;		/* [step * k->nop + op] when enumerated */
	PlanEv *ev;		/* all step events */
	int nev;
	PlanEv *pro, *epi;	/* prologue and epilogue events */
	int npro, nepi;
} MosaicPlan;

/*
 * Plans the pipeline of checked kernel k.  tables[op], for each SMEM
 * table operand, holds its contents (int32, C order), or tables (or an
 * entry) is NULL when the contents are unknown: then block indices read
 * from the tables are unknown and the plan is symbolic (events marked
 * cond).  With known tables, an index map that cannot be evaluated, a
 * block out of range, or a forbidden output revisit is a user error:
 * reported through d, and NULL is returned.  Everything lives in a.
 */
MosaicPlan *mosaic_plan(const CKernel *k, const int32_t *const *tables,
    Diag *d, Arena *a);

/* The cell of operand op at step s (enumerated plans only). */
const PlanCell *plan_cell(const MosaicPlan *p, int64_t s, int op);

/* ---------------------------------------------------------- alloc.c */

/* A VMEM buffer the body's lowering asks for (a large value's home). */
typedef struct AllocReq {
	const char *name;
	int64_t bytes;
	int smem;		/* 1: in SMEM (scalar state), else VMEM */
} AllocReq;

typedef enum AllocKind {
	AK_BLOCK,		/* an operand's block buffers (VMEM or SMEM) */
	AK_SCRATCH,		/* a scratch buffer */
	AK_SEM,			/* semaphore scratch: sync flags only */
	AK_INTERNAL,		/* a request of the body's lowering */
	AK_ARGS,		/* SMEM argument table: HBM address per operand */
	AK_DESC,		/* SMEM DMA descriptors */
	AK_TABLE,		/* an SMEM table operand's copy */
	AK_FLAG,		/* a sync flag only (the table copies) */
	NALLOCKIND
} AllocKind;

typedef struct AllocRow {
	const char *name;
	AllocKind kind;
	MemSpace mem;		/* MEM_VMEM or MEM_SMEM; MEM_ANY: flags only */
	int index;		/* operand, scratch or request; -1 */
	int64_t offset;		/* byte offset of slot 0 */
	int64_t bytes;		/* one slot */
	int64_t stride;		/* slot s is at offset + s * stride */
	int nbuf;		/* slots (1 or 2) */
	int flag;		/* first sync flag, -1 none */
	int nflag;		/* flags: one per slot (per element for sems) */
} AllocRow;

typedef struct MosaicAlloc {
	AllocRow *row;
	int nrow;
	int *op_row;		/* per operand: its row, or -1 (any) */
	int *scr_row;		/* per scratch buffer: its row */
	int *req_row;		/* per request: its row */
	int64_t *arg;		/* per operand: SMEM offset of its 8-byte
				   HBM address in the argument table */
	int64_t *desc;		/* per operand: SMEM offset of its DMA
				   descriptor (64 bytes), or -1 */
	int table_flag;		/* the prologue's table copies, or -1 */
	int64_t vmem_align, smem_align;
	int64_t vmem_used, vmem_limit;
	int64_t smem_used, smem_limit;
	int nflag, flag_limit;
} MosaicAlloc;

/*
 * Lays out kernel k for its preset, following plan p (buffer counts):
 * VMEM for block slots, VMEM scratch and the requests req[0 .. nreq)
 * (in SMEM those marked smem),
 * each aligned to a vreg tile (sublanes x lanes x 4 bytes); SMEM for the
 * argument table, DMA descriptors, SMEM tables, SMEM blocks and SMEM
 * scratch (8-byte aligned); sync flags per block slot, one for the
 * table copies, one per semaphore element.  If VMEM use exceeds the
 * kernel's vmem_limit (or the preset's VMEM), SMEM or the flags the
 * preset's, reports an error naming the buffer that does not fit and
 * returns NULL.
 */
MosaicAlloc *mosaic_alloc(const CKernel *k, const MosaicPlan *p,
    const AllocReq *req, int nreq, Diag *d, Arena *a);

/* ---------------------------------------------------------- pipeline.c */
struct TFunc;
struct MosaicRefs;
/* Lowers k's body at the current point of f (mosaic_lower_body). */
typedef int MosaicBodyFn(struct TFunc *f, const CKernel *k,
    const struct MosaicRefs *refs, void *ctx, Diag *d);
/*
 * Emits the grid pipeline of k into the empty tile-IR function f, as
 * plan p lists it (buffers, flags, prologue, loop nest, per-step copies
 * guarded by run-time index compares, epilogue), calling body inside the
 * loop nest with the current blocks' refs.  checks: bounds-check the
 * index maps that cannot be proved in range (TOP_TRAP).  Returns 0, or
 * -1 after an error reported through d.
 */
int mosaic_emit_pipeline(struct TFunc *f, const CKernel *k,
    const MosaicPlan *p, int checks, MosaicBodyFn *body, void *ctx,
    Diag *d);

/* ---------------------------------------------------------- planprint.c */
/*
 * Appends the --emit=pipeline dump of one kernel instance: the operands'
 * buffering, the prologue, every step's copies (start, wait, skip) with
 * block indices and slots, the epilogue, and (if al is not NULL) the
 * allocation table.  cname is the export's name.
 */
void plan_print(Buf *out, const char *cname, const MosaicPlan *p,
    const MosaicAlloc *al);

#endif
