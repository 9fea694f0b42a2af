/*
 * lower_scalar.c - part of the body lowering (lower.c): scalar expressions
 * (i32/f32/bool SSA values), the op tables.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include <string.h>

#include "backend/mosaic/lower.h"
#include "pallas/runtime.h"

TOpKind
ml_ew_op(CxOp op)
{
	switch (op) {
	case CX_NEG: return TOP_NEG;
	case CX_NOT: case CX_BITNOT: return TOP_NOT;
	case CX_EXP: return TOP_EXP;
	case CX_LOG: return TOP_LOG;
	case CX_SQRT: return TOP_SQRT;
	case CX_RSQRT: return TOP_RSQRT;
	case CX_TANH: return TOP_TANH;
	case CX_ABS: return TOP_ABS;
	case CX_CAST: return TOP_CONVERT;
	case CX_ADD: return TOP_ADD;
	case CX_SUB: return TOP_SUB;
	case CX_MUL: return TOP_MUL;
	case CX_DIV: return TOP_DIV;
	case CX_MOD: return TOP_REM;
	case CX_MAX: return TOP_MAX;
	case CX_MIN: return TOP_MIN;
	case CX_SHL: return TOP_SHL;
	case CX_SHR: return TOP_SHR;
	case CX_BITAND: case CX_AND: return TOP_AND;
	case CX_BITOR: case CX_OR: return TOP_OR;
	case CX_BITXOR: return TOP_XOR;
	case CX_WHERE: case CX_SELECT: return TOP_SELECT;
	default: return TOP_NOP;
	}
}

int
ml_cmp_of(CxOp op, TCmp *c)
{
	switch (op) {
	case CX_LT: *c = TC_LT; return 1;
	case CX_LE: *c = TC_LE; return 1;
	case CX_GT: *c = TC_GT; return 1;
	case CX_GE: *c = TC_GE; return 1;
	case CX_EQ: *c = TC_EQ; return 1;
	case CX_NE: *c = TC_NE; return 1;
	default: return 0;
	}
}

/* The scalar type the machine computes a dtype in. */
DType
ml_scalar_dt(DType t)
{
	return t == DT_BF16 ? DT_F32 : t == DT_I8 ? DT_I32 : t;
}

/* A constant of dtype t; bf16 rounded from f32, as interpret mode
   rounds it. */
TRef
ml_const_scalar(L *l, DType t, const CExpr *e)
{
	if (t == DT_BF16)
		return tile_const_f32(l->f, pallas_bf16_to_f32(
		    pallas_f32_to_bf16((float)e->u.cst.f)));
	t = ml_scalar_dt(t);
	if (t == DT_F32)
		return tile_const_f32(l->f, e->u.cst.f);
	if (t == DT_BOOL)
		return tile_const_bool(l->f, (int)e->u.cst.i);
	return tile_const_i32(l->f, e->u.cst.i);
}

/*
 * i8 arithmetic (doc/language.md, section 3) computes in i32 on values
 * sign-extended from their byte and wraps the result to i8, as interpret
 * mode does: these ops can leave [-128, 127] (the others cannot).
 */
int
ml_i8_wraps(CxOp op)
{
	switch (op) {
	case CX_ADD: case CX_SUB: case CX_MUL: case CX_DIV: case CX_SHL:
	case CX_NEG: case CX_ABS:
		return 1;
	default:
		return 0;
	}
}

/* The i32 scalar or vector v wrapped to i8 (its low byte, sign-extended):
   shifts by 24 up and back down. */
TRef
ml_wrap_i8(L *l, TRef v)
{
	const TVal *tv = tile_val(l->f, v);
	TRef k = tile_const_i32(l->f, 24);

	if (tv->kind == TV_VEC) {
		TVal ty = ml_vec_type(l, DT_I32, &tv->shape, tv->lay.kind);
		k = tile_emit(l->f, TOP_SPLAT, &k, 1, &ty, NULL);
	}
	return tile_binop(l->f, TOP_SHR, tile_binop(l->f, TOP_SHL, v, k), k);
}

/* The i32 scalar or vector v saturated to [-128, 127] (a cast to i8). */
TRef
ml_clamp_i8(L *l, TRef v)
{
	const TVal *tv = tile_val(l->f, v);
	TRef lo = tile_const_i32(l->f, -128), hi = tile_const_i32(l->f, 127);

	if (tv->kind == TV_VEC) {
		TVal ty = ml_vec_type(l, DT_I32, &tv->shape, tv->lay.kind);
		lo = tile_emit(l->f, TOP_SPLAT, &lo, 1, &ty, NULL);
		hi = tile_emit(l->f, TOP_SPLAT, &hi, 1, &ty, NULL);
	}
	return tile_binop(l->f, TOP_MIN, tile_binop(l->f, TOP_MAX, v, lo),
	    hi);
}

/* The i32 result r of e's op, wrapped when e is i8 arithmetic that can
   leave the i8 range. */
TRef
ml_fix_i8(L *l, const CExpr *e, TRef r)
{
	return e->dtype == DT_I8 && ml_i8_wraps(e->op) ? ml_wrap_i8(l, r) : r;
}

static TRef
scalar_binop(L *l, const CExpr *e)
{
	TRef a = ml_ev_scalar(l, e->arg[0]), b = ml_ev_scalar(l, e->arg[1]);
	TCmp c;

	if (ml_cmp_of(e->op, &c))
		return tile_cmp(l->f, c, a, b);
	if ((e->op == CX_DIV || e->op == CX_MOD) && !dtype_is_float(e->dtype))
		ml_divisor(l, e, b);
	return ml_fix_i8(l, e, tile_binop(l->f, ml_ew_op(e->op), a, b));
}

/* The scalar v of e's operand converted to e's dtype (t): bool and the
   integers on the scalar ALU (a bool is a predicate: a select makes it
   0 or 1, a compare with 0 makes one), to i8 saturating. */
static TRef
scalar_cast(L *l, const CExpr *e, TRef v, const TVal *t)
{
	DType from = tile_val(l->f, v)->dtype;
	TRef args[3];

	if (e->dtype == DT_I8 && from == DT_I32 && e->arg[0]->dtype != DT_I8)
		return ml_clamp_i8(l, v);
	if (from == t->dtype)
		return v;
	if (from == DT_BOOL && t->dtype == DT_I32) {
		args[0] = v;
		args[1] = tile_const_i32(l->f, 1);
		args[2] = tile_const_i32(l->f, 0);
		return tile_emit(l->f, TOP_SELECT, args, 3, t, NULL);
	}
	if (from == DT_I32 && t->dtype == DT_BOOL)
		return tile_cmp(l->f, TC_NE, v, tile_const_i32(l->f, 0));
	args[0] = v;
	return tile_emit(l->f, TOP_CONVERT, args, 1, t, NULL);
}

/* The flag of the body's synchronous copies (dma_copy, extracts). */
int
ml_copy_flag(L *l)
{
	if (l->copy_flag < 0)
		l->copy_flag = tile_flag(l->f, "copy", 1);
	return l->copy_flag;
}

/* The one-element buffers of extracts of dtype t (f32 or i32) from
   vectors of rank r: a VMEM home and an SMEM word, made once. */
static void
extract_bufs(L *l, DType t, int r, TRef *vm, TRef *sm)
{
	int k = t == DT_F32, *b = l->xbuf[k][r];
	const char *name;
	Shape one;
	int i;

	one.rank = r;
	for (i = 0; i < r; i++)
		one.d[i] = 1;
	if (!b[0]) {
		name = arena_printf(l->f->arena, "(extract %s, rank %d)",
		    dtype_name(t), r);
		b[0] = 1 + tile_buffer(l->f, name, TB_INTERNAL, TS_VMEM, t,
		    &one, 1, -1);
		b[1] = 1 + tile_buffer(l->f, name, TB_INTERNAL, TS_SMEM, t,
		    &one, 1, -1);
	}
	*vm = tile_buf_ref(l->f, b[0] - 1);
	*sm = tile_buf_ref(l->f, b[1] - 1);
}

/* The i32 0 / 1 vector of mask m. */
static TRef
mask_to_i32(L *l, TRef m)
{
	const TVal *tv = tile_val(l->f, m);
	TVal ty = ml_vec_type(l, DT_I32, &tv->shape, tv->lay.kind);
	TRef a[3], one = tile_const_i32(l->f, 1);
	TRef zero = tile_const_i32(l->f, 0);

	a[0] = m;
	a[1] = tile_emit(l->f, TOP_SPLAT, &one, 1, &ty, NULL);
	a[2] = tile_emit(l->f, TOP_SPLAT, &zero, 1, &ty, NULL);
	return tile_emit(l->f, TOP_SELECT, a, 3, &ty, NULL);
}

/* A synchronization op of the copy flag. */
static void
copy_op(L *l, TOpKind op, TRef *args, int n)
{
	int opi;

	tile_emit(l->f, op, args, n, NULL, &opi);
	l->f->op.v[opi].u.flag.flag = ml_copy_flag(l);
	l->f->op.v[opi].u.flag.dyn = 0;
}

/*
 * A whole small vector reduced to its one element.  The machine has no
 * move from vector registers to scalar ones, so the element goes through
 * memory: a store into a one-element VMEM home, an on-chip DMA of its
 * word into SMEM (VMEM->SMEM), waited for at once (nothing else touches
 * either buffer meanwhile), and a scalar load.  bool goes as i32 0 / 1,
 * bf16 as f32, i8 as i32.
 */
TRef
ml_extract(L *l, TRef v)
{
	const TVal *tv = tile_val(l->f, v);
	DType from = tv->dtype, t = from == DT_BOOL ? DT_I32 :
	    ml_scalar_dt(from);
	int r = tv->shape.rank;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK], args[2], x;
	TVal st = tile_scalar_type(t);

	if (r < 1 || r > SEMA_MAXRANK || shape_numel(&tv->shape) != 1)
		bug("mosaic: an extract from a vector of %lld elements",
		    (long long)shape_numel(&tv->shape));
	v = from == DT_BOOL ? mask_to_i32(l, v) : ml_widen(l, v);
	extract_bufs(l, t, r, &args[0], &args[1]);
	ml_store_whole(l, args[0], v);
	copy_op(l, TOP_DMA_START, args, 2);
	copy_op(l, TOP_DMA_WAIT, args + 1, 1);
	ml_whole(idx, dyn, &tile_val(l->f, args[1])->shape);
	x = ml_access(l, TOP_SLOAD, args[1], TNONE, idx, dyn, 1, &st);
	if (from == DT_BOOL)
		x = tile_cmp(l->f, TC_NE, x, tile_const_i32(l->f, 0));
	return x;
}

/* Is block b open (so that a value made in it dominates what is being
   emitted now)? */
static int
block_open(L *l, int b)
{
	int i;

	for (i = 0; i < l->f->cur.n; i++)
		if (l->f->cur.v[i] == b)
			return 1;
	return 0;
}

/* The scalar of V_SSA slot s: extracted once, where the first use that
   needs it can be seen from here, else again. */
static TRef
slot_scalar(L *l, int s)
{
	XSlot *x = &l->xslot[s];

	if (x->r != TNONE && block_open(l, x->blk))
		return x->r;
	x->r = ml_extract(l, l->slot[s].r);
	x->blk = l->f->cur.v[l->f->cur.n - 1];
	return x->r;
}

/*
 * f32 (and bf16) arithmetic other than division, and conversions to or
 * from floats: the scalar unit has no FPU, so a rank-0 e that needs one
 * in scalar code is computed on the VPU as a [1, 1] vector
 * (ml_scalar_on_vpu) and extracted once, at its root.  Compares, selects
 * and division of floats are done on the integer ALU (exactly).
 */
static int
needs_fpu(L *l, const CExpr *e)
{
	switch (e->op) {
	case CX_CONST: case CX_AXIS: case CX_NPROG: case CX_SLOT: case CX_LOAD:
	case CX_WHERE: case CX_SELECT: case CX_DIV:
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return 0;
	case CX_CAST:
		return ml_scalar_dt(e->dtype) !=
		    ml_scalar_dt(e->arg[0]->dtype) &&
		    (dtype_is_float(e->dtype) ||
		    dtype_is_float(e->arg[0]->dtype)) && ml_scalar_on_vpu(l, e);
	default:
		return !ml_cmp_of(e->op, &(TCmp){0}) &&
		    dtype_is_float(e->dtype) && ml_scalar_on_vpu(l, e);
	}
}

/* a op b on scalars: f32 ones on the VPU (but division, which the
   scalar unit does exactly), extracted. */
TRef
ml_sbinop(L *l, TOpKind op, TRef a, TRef b)
{
	Shape one = { 2, { 1, 1 } };

	if (tile_val(l->f, a)->dtype != DT_F32 || op == TOP_DIV)
		return tile_binop(l->f, op, a, b);
	return ml_extract(l, tile_binop(l->f, op, ml_splat(l, a, DT_F32,
	    &one), ml_splat(l, b, DT_F32, &one)));
}

/* Rank-0 e computed on the VPU, then extracted. */
static TRef
vpu_scalar(L *l, const CExpr *e)
{
	Shape one = { 2, { 1, 1 } };

	ml_hoist(l, e, NULL);
	return ml_extract(l, ml_ev_arg(l, e, NULL, &one));
}

TRef
ml_ev_scalar(L *l, const CExpr *e)
{
	TRef args[3];
	TVal t;
	Val v;

	if (l->err)
		return tile_const_i32(l->f, 0);
	if (needs_fpu(l, e))
		return vpu_scalar(l, e);
	t = tile_scalar_type(ml_scalar_dt(e->dtype));
	switch (e->op) {
	case CX_CONST:
		return ml_const_scalar(l, e->dtype, e);
	case CX_AXIS:
		return l->refs->axis[e->u.axis];
	case CX_NPROG:
		return tile_const_i32(l->f, l->k->axis[e->u.axis].extent);
	case CX_SLOT:
		if (l->slot[e->u.slot].kind == V_SCALAR)
			return l->slot[e->u.slot].r;
		if (l->slot[e->u.slot].kind == V_SSA)
			return slot_scalar(l, e->u.slot);
		break;
	case CX_LOAD: {
		TRef ref = ml_ref_of(l, e->u.load.ref);
		if (tile_val(l->f, ref)->mem.space == TS_SMEM) {
			TIdx idx[SEMA_MAXRANK];
			TRef dyn[SEMA_MAXRANK];
			int i;
			for (i = 0; i < e->u.load.sl.n; i++) {
				const CIdx *c = &e->u.load.sl.dim[i];
				memset(&idx[i], 0, sizeof idx[i]);
				idx[i].start = c->dyn ? 0 : c->start;
				idx[i].size = 1;
				idx[i].squeeze = 1;
				idx[i].multiple = 1;
				dyn[i] = c->dyn ? ml_index_of(l, ref,
				    &e->u.load.sl, i) : TNONE;
			}
			return ml_view(l, ref, idx, dyn, e->u.load.sl.n,
			    TOP_SLOAD, &t);
		}
		break;
	}
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_ABS: case CX_EXP:
	case CX_LOG: case CX_SQRT: case CX_RSQRT: case CX_TANH:
		return ml_fix_i8(l, e, tile_unop(l->f, ml_ew_op(e->op),
		    ml_ev_scalar(l, e->arg[0])));
	case CX_CAST:
		args[0] = ml_ev_scalar(l, e->arg[0]);
		return scalar_cast(l, e, args[0], &t);
	case CX_WHERE: case CX_SELECT:
		args[0] = ml_ev_scalar(l, e->arg[0]);
		args[1] = ml_ev_scalar(l, e->arg[1]);
		args[2] = ml_ev_scalar(l, e->arg[2]);
		return tile_emit(l->f, TOP_SELECT, args, 3, &t, NULL);
	default:
		if (e->n == 2 && (ml_ew_op(e->op) != TOP_NOP ||
		    ml_cmp_of(e->op, &(TCmp){0})))
			return scalar_binop(l, e);
		break;
	}
	/* a scalar out of vectors: a one-element vector, then extract */
	v = ml_ev_val(l, e);
	if (v.kind == V_SCALAR)
		return v.r;
	if (v.kind == V_REF)
		v.r = ml_load_whole(l, v.r);
	if (l->err)
		return tile_const_i32(l->f, 0);
	return ml_extract(l, v.r);
}
