/*
 * lower.h - what the files of the body lowering (lower*.c) share: the
 * lowering context, the sorts of values, the chunk plan, and each file's
 * functions, grouped by the file that defines them.  Internal to
 * backend/mosaic; the entry point is mosaic_lower_body() (mosaic.h).
 */
#ifndef PALLAS_BACKEND_MOSAIC_LOWER_H
#define PALLAS_BACKEND_MOSAIC_LOWER_H

#include "backend/mosaic/mosaic.h"

typedef enum VKind { V_NONE, V_SCALAR, V_SSA, V_REF } VKind;

/* A value of the body: a scalar, a small vector, or memory. */
typedef struct Val {
	VKind kind;
	TRef r;
} Val;

typedef struct Hoist {
	const CExpr *e;
	Val v;
} Hoist;

/* Where the chunk loop is: which part of the output the chunk covers. */
typedef struct Ctx {
	int r;			/* output rank */
	Shape out;		/* the whole output */
	int iter[SEMA_MAXRANK];	/* leading dim i iterated (chunk size 1) */
	TRef lead[SEMA_MAXRANK];/* its index */
	TRef rowpos;		/* first row of the chunk, TNONE = all rows */
	int64_t rows;		/* rows of the chunk */
	TRef colpos;		/* first column, TNONE = the whole width */
	int64_t cols;		/* columns of the chunk */
} Ctx;

/* A V_SSA slot's value extracted to a scalar (see ml_extract). */
typedef struct XSlot {
	TRef r;			/* the scalar, or TNONE */
	int blk;		/* the block it was extracted in */
} XSlot;

typedef struct L {
	TFunc *f;
	const CKernel *k;
	const MosaicRefs *refs;
	Diag *d;
	Val *slot;		/* [k->nslot] */
	VEC(Hoist) hoist;	/* barriers of the statement being lowered */
	const CPlace *dst;	/* the store being lowered, or NULL */
	int copy_flag;		/* TFunc.flag for dma copies, or -1 */
	MosaicRanges rng;	/* [k->nslot]: ranges of int slots known */
	int recbuf;		/* 1 + the index record's TFunc.buf, or 0 */
	int nhome;
	int xbuf[2][SEMA_MAXRANK + 1][2];	/* 1 + the VMEM, SMEM buffers
						   of extracts (i32, f32) by
						   rank, or 0 */
	XSlot *xslot;		/* [k->nslot] */
	int err;
} L;

typedef void ChunkFn(L *l, const Ctx *c, void *arg);

/* lower.c */
Val ml_materialise(L *l, const CExpr *e);
Val ml_ev_val(L *l, const CExpr *e);

/* lower_check.c */
TRef ml_index(L *l, const CSlice *sl, int d, int64_t dim, const char *name);
TRef ml_index_of(L *l, TRef ref, const CSlice *sl, int d);
void ml_divisor(L *l, const CExpr *e, TRef v);
void ml_vdivisor(L *l, const CExpr *e, TRef v);
void ml_check(L *l, const CStmt *s);
void ml_range_slot(L *l, int slot, const CExpr *lo, const CExpr *hi);

/* lower_view.c */
void ml_error(L *l, Loc loc, const char *msg);
TVal ml_vec_type(L *l, DType t, const Shape *s, TLayKind k);
int ml_lay_kind(L *l, TRef r);
TRef ml_home(L *l, DType t, const Shape *s);
TRef ml_view(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n,
    TOpKind op, const TVal *res);
TRef ml_mkview(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n);
void ml_whole(TIdx *idx, TRef *dyn, const Shape *s);
TRef ml_load_whole(L *l, TRef ref);
void ml_store_whole(L *l, TRef ref, TRef v);
TRef ml_as_ref(L *l, Val v, Loc loc);
TRef ml_slice_view(L *l, TRef ref, const CSlice *sl);
TRef ml_ref_of(L *l, CRef r);
int ml_is_home(L *l, TRef ref);
TRef ml_access(L *l, TOpKind op, TRef ref, TRef val, const TIdx *idx,
    const TRef *dyn, int squeeze, const TVal *res);
Val ml_mat_load(L *l, const CExpr *e);
void ml_smem_store(L *l, const CStmt *s, TRef ref);

/* lower_scalar.c */
TOpKind ml_ew_op(CxOp op);
int ml_cmp_of(CxOp op, TCmp *c);
DType ml_scalar_dt(DType t);
TRef ml_const_scalar(L *l, DType t, const CExpr *e);
int ml_copy_flag(L *l);
TRef ml_extract(L *l, TRef v);
TRef ml_sbinop(L *l, TOpKind op, TRef a, TRef b);
int ml_i8_wraps(CxOp op);
TRef ml_wrap_i8(L *l, TRef v);
TRef ml_clamp_i8(L *l, TRef v);
TRef ml_fix_i8(L *l, const CExpr *e, TRef r);
TRef ml_ev_scalar(L *l, const CExpr *e);

/* lower_chunk.c */
Shape ml_chunk_shape(const Ctx *c, const Shape *s);
TRef ml_load_chunk(L *l, const Ctx *c, TRef ref, TLayKind k);
void ml_store_chunk(L *l, const Ctx *c, TRef ref, TRef v);
const Val *ml_hoisted(L *l, const CExpr *e);
int ml_is_lane_reduce(const CExpr *e);
int ml_wide(const MachPreset *p, const Shape *s);
int ml_lane_op_ok(L *l, const CExpr *e);
int ml_tree_big(L *l, const CExpr *e);
int ml_plan(L *l, DType t, const Shape *out, Ctx *c, Loc loc, const CExpr *e);
void ml_run_chunks(L *l, Ctx *c, ChunkFn *fn, void *arg);
Val ml_snapshot(L *l, TRef ref, Loc loc);
void ml_hoist(L *l, const CExpr *e, const Ctx *c);
void ml_store_expr(L *l, TRef dst, const CExpr *e, CxOp acc, Loc loc);

/* lower_ew.c */
DType ml_wide_dt(DType t);
TRef ml_widen(L *l, TRef v);
TRef ml_narrow(L *l, TRef v, DType t);
TRef ml_binop(L *l, TOpKind op, TRef a, TRef b);
TRef ml_emit_wide(L *l, TOpKind op, TRef *a, int n, const TVal *t,
    int *opi);
TRef ml_splat(L *l, TRef s, DType t, const Shape *sh);
int ml_scalar_on_vpu(L *l, const CExpr *e);
TRef ml_ev_arg(L *l, const CExpr *e, const Ctx *c, const Shape *cs);
TRef ml_ev(L *l, const CExpr *e, const Ctx *c);

/* lower_reduce.c */
TRef ml_reduce(L *l, TRef v, CxOp op, int axis);
TRef ml_scale(L *l, TRef v, int64_t n);
Val ml_mat_lane_wide(L *l, const CExpr *e);
CExpr *ml_keepdims(L *l, const CExpr *e);
Val ml_mat_reduce(L *l, const CExpr *e);

/* lower_dot.c */
void ml_matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e,
    int accumulate);
int ml_dot_operands(L *l, const CExpr *e, TRef *a, TRef *b);
Val ml_mat_dot(L *l, const CExpr *e);

/* lower_shape.c */
TRef ml_transpose_ref(L *l, TRef ref);
Val ml_mat_transpose(L *l, const CExpr *e);
Val ml_mat_rollm(L *l, const CExpr *e);
Val ml_mat_reshape(L *l, const CExpr *e);

#endif
