/*
 * lower.c - the lowering of a checked kernel's BODY into the tile IR.
 *
 * Gives:    mosaic_lower_body() (mosaic.h).
 * Needs:    a TFunc whose current block is where the body goes (inside
 *           the grid loop nest), and MosaicRefs: the current block view of
 *           every operand, the scratch refs, the semaphore flags, the grid
 *           index scalars.
 * Gives back: ops appended to that block; internal VMEM homes
 *           (TB_INTERNAL buffers) for block-sized values.
 * Tests:    tests/unit/check_tile.c, tests/golden/tile/
 *
 * Strategy (principle 7: every block-sized value has a home; code grows
 * with logic, not block size):
 *  - Values are of three sorts: scalars (i32/f32/bool SSA values),
 *    small vectors (SSA, when mosaic_layout() says they fit the register
 *    budget), and block-sized values, which live in memory: either a view
 *    of a Ref (a load used as an operand is just a view, no copy) or a
 *    compiler-managed VMEM home (a TB_INTERNAL buffer).
 *  - A store (or the computation of a home) is one chunk loop nest over
 *    its output: a 'for' per leading dimension, a 'for' over row groups
 *    of layout.chunk_rows rows, and, when a row takes more than half the
 *    vreg budget, a 'for' over column chunks of that many vregs (static
 *    tail chunks when the sizes are not multiples).  The chunk loop runs
 *    whenever the output or any value of its tree exceeds the budget.
 *    The whole elementwise expression tree
 *    (arithmetic, EUP functions, compares, where/select, casts, iota,
 *    broadcasts, lane reductions, lane rolls) is evaluated per chunk on
 *    small SSA vectors: load the chunk of each leaf, compute, store.  When
 *    the output fits in registers there is no loop: the tree is evaluated
 *    once on whole values.
 *  - Ops that do not work chunk by chunk are "barriers", materialised into
 *    a home before the loop: dot (TOP_MATMUL, memory to memory; a store
 *    of a dot, or '+=' of one, writes the target directly), transposes
 *    (TOP_TRANSPOSE), rolls along rows (TOP_ROLLM), reductions along rows
 *    (a loop carrying the partial [1, W] result), lane reductions of
 *    rows wider than a chunk (a loop over column chunks carrying the
 *    partial [R, 1]), reductions without keepdims (a squeezed view of the
 *    keepdims home), value slices (a view of the home).  Small SSA values
 *    that a chunk loop would have to slice are spilled to a home first.
 *  - Loads from views whose last dimension is not contiguous (a column
 *    m[:, 0] read as a row) are left to instruction selection (a
 *    relayout through the XLU), as are masks of partial vregs.
 *  - let snapshots its value (a copy into a home, or an SSA value) so a
 *    later store to the Ref it read from cannot change it.  A store whose
 *    value reads the target Ref through a different slice reads a copy.
 *  - Lane reductions give lane-replicated [R, 1] chunks; their lane
 *    broadcasts stay lane-replicated (free), as mosaic_layout() describes.
 *  - Reductions over leading dims: per output chunk, a loop over the
 *    reduced dim carrying the partial chunk (the operand's tree fused).
 *    Reductions over rows of batched values loop over the leading dims.
 *  - Reshapes of block-sized values: a copy into a home, piece by piece
 *    (row groups, or row segments of the widths' gcd), positions from
 *    div/mod of the flat index.
 *  - Vector loads and stores of SMEM: element loops of sload/sstore; the
 *    vector side is a VMEM home accessed one element at a time.
 *  - Not lowered (reported as errors): dots of rank-1 or mixed-rank
 *    operands (sema rejects them first), func-only expressions.
 */
#include <math.h>
#include <string.h>

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

typedef struct L {
	TFunc *f;
	const CKernel *k;
	const MosaicRefs *refs;
	Diag *d;
	Val *slot;		/* [k->nslot] */
	VEC(Hoist) hoist;	/* barriers of the statement being lowered */
	const CPlace *dst;	/* the store being lowered, or NULL */
	int copy_flag;		/* TFunc.flag for dma copies, or -1 */
	int nhome;
	int err;
} L;

static Val ev_val(L *l, const CExpr *e);
static Val materialise(L *l, const CExpr *e);
static TRef access(L *l, TOpKind op, TRef ref, TRef val, const TIdx *idx,
    const TRef *dyn, int squeeze, const TVal *res);

static void
error(L *l, Loc loc, const char *msg)
{
	if (!l->err)
		diag_error(l->d, loc, "mosaic: %s", msg);
	l->err = 1;
}

/* ------------------------------------------------------------ helpers */

static TVal
vec_type(L *l, DType t, const Shape *s, TLayKind k)
{
	return tile_vec_type(l->f, t, s, k);
}

static int
lay_kind(L *l, TRef r)
{
	return tile_val(l->f, r)->lay.kind;
}

static TRef
home(L *l, DType t, const Shape *s)
{
	char name[32];
	int b;

	snprintf(name, sizeof name, "home%d", l->nhome++);
	b = tile_buffer(l->f, arena_printf(l->f->arena, "%s", name),
	    TB_INTERNAL, TS_VMEM, t, s, 1, -1);
	return tile_buf_ref(l->f, b);
}

/* A view op on ref with idx[0..n); dynamic starts in dyn[] (TNONE). */
static TRef
view(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n, TOpKind op,
    const TVal *res)
{
	TRef args[1 + 2 * SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, (n ? n : 1) * sizeof *d);
	int i, na = 1, opi;
	TRef r;

	args[0] = ref;
	for (i = 0; i < n; i++) {
		d[i] = idx[i];
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	r = tile_emit(l->f, op, args, na, res, &opi);
	l->f->op.v[opi].u.idx.n = n;
	l->f->op.v[opi].u.idx.d = d;
	return r;
}

/* The type of a view of ref with the given index (strides kept). */
static TVal
view_type(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n)
{
	TVal t = *tile_val(l->f, ref);
	int i, r = 0;

	for (i = 0; i < n; i++) {
		t.mem.off += idx[i].start * t.mem.stride[i];
		if (dyn[i] != TNONE)
			t.mem.dyn = 1;
		if (idx[i].squeeze)
			continue;
		t.shape.d[r] = idx[i].size;
		t.mem.stride[r++] = t.mem.stride[i];
	}
	t.shape.rank = r;
	return t;
}

static TRef
mkview(L *l, TRef ref, const TIdx *idx, const TRef *dyn, int n)
{
	TVal t = view_type(l, ref, idx, dyn, n);

	return view(l, ref, idx, dyn, n, TOP_VIEW, &t);
}

/* Whole-dimension index of shape s. */
static void
whole(TIdx *idx, TRef *dyn, const Shape *s)
{
	int i;

	for (i = 0; i < s->rank; i++) {
		memset(&idx[i], 0, sizeof idx[i]);
		idx[i].size = s->d[i];
		idx[i].multiple = 1;
		idx[i].dyn = -1;
		dyn[i] = TNONE;
	}
}

static TRef
load_whole(L *l, TRef ref)
{
	const TVal *rv = tile_val(l->f, ref);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TVal t = vec_type(l, rv->dtype, &rv->shape, TL_NATIVE);

	whole(idx, dyn, &rv->shape);
	return view(l, ref, idx, dyn, rv->shape.rank, TOP_LOAD, &t);
}

static void
store_whole(L *l, TRef ref, TRef v)
{
	const TVal *rv = tile_val(l->f, ref);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TRef args[2 + SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	int i, opi;

	whole(idx, dyn, &rv->shape);
	for (i = 0; i < rv->shape.rank; i++)
		d[i] = idx[i];
	args[0] = ref;
	args[1] = v;
	tile_emit(l->f, TOP_STORE, args, 2, NULL, &opi);
	l->f->op.v[opi].u.idx.n = rv->shape.rank;
	l->f->op.v[opi].u.idx.d = d;
}

/* A Val as a ref: small vectors are spilled into a home. */
static TRef
as_ref(L *l, Val v, Loc loc)
{
	const TVal *t;
	TRef h;

	if (v.kind == V_REF)
		return v.r;
	if (v.kind != V_SSA) {
		error(l, loc, "a scalar where a block is needed");
		return TNONE;
	}
	t = tile_val(l->f, v.r);
	h = home(l, t->dtype, &t->shape);
	store_whole(l, h, v.r);
	return h;
}

/* ------------------------------------------------------------ scalars */

static TOpKind
ew_op(CxOp op)
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

static int
cmp_of(CxOp op, TCmp *c)
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
static DType
scalar_dt(DType t)
{
	return t == DT_BF16 ? DT_F32 : t == DT_I8 ? DT_I32 : t;
}

static TRef
const_scalar(L *l, DType t, const CExpr *e)
{
	t = scalar_dt(t);
	if (t == DT_F32)
		return tile_const_f32(l->f, e->u.cst.f);
	if (t == DT_BOOL)
		return tile_const_bool(l->f, (int)e->u.cst.i);
	return tile_const_i32(l->f, e->u.cst.i);
}

static TRef ev_scalar(L *l, const CExpr *e);

/* The ref and index of a slice (of a Ref or of a value's home). */
static TRef
slice_view(L *l, TRef ref, const CSlice *sl)
{
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	int i;

	for (i = 0; i < sl->n && i < SEMA_MAXRANK; i++) {
		const CIdx *c = &sl->dim[i];
		idx[i].start = c->dyn ? 0 : c->start;
		idx[i].size = c->size;
		idx[i].multiple = c->multiple;
		idx[i].squeeze = c->squeeze;
		idx[i].dyn = -1;
		dyn[i] = c->dyn ? ev_scalar(l, c->dyn) : TNONE;
	}
	return mkview(l, ref, idx, dyn, sl->n);
}

static TRef
ref_of(L *l, CRef r)
{
	return r.kind == CREF_OPERAND ? l->refs->operand[r.index] :
	    l->refs->scratch[r.index];
}

static TRef
scalar_binop(L *l, const CExpr *e)
{
	TRef a = ev_scalar(l, e->arg[0]), b = ev_scalar(l, e->arg[1]);
	TCmp c;

	if (cmp_of(e->op, &c))
		return tile_cmp(l->f, c, a, b);
	return tile_binop(l->f, ew_op(e->op), a, b);
}

/* A whole small vector reduced to its one element. */
static TRef
extract(L *l, TRef v)
{
	TVal t = tile_scalar_type(scalar_dt(tile_val(l->f, v)->dtype));

	return tile_emit(l->f, TOP_EXTRACT, &v, 1, &t, NULL);
}

static TRef
ev_scalar(L *l, const CExpr *e)
{
	TRef args[3];
	TVal t;
	Val v;

	if (l->err)
		return tile_const_i32(l->f, 0);
	t = tile_scalar_type(scalar_dt(e->dtype));
	switch (e->op) {
	case CX_CONST:
		return const_scalar(l, e->dtype, e);
	case CX_AXIS:
		return l->refs->axis[e->u.axis];
	case CX_NPROG:
		return tile_const_i32(l->f, l->k->axis[e->u.axis].extent);
	case CX_SLOT:
		if (l->slot[e->u.slot].kind == V_SCALAR)
			return l->slot[e->u.slot].r;
		break;
	case CX_LOAD: {
		TRef ref = ref_of(l, e->u.load.ref);
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
				dyn[i] = c->dyn ? ev_scalar(l, c->dyn) : TNONE;
			}
			return view(l, ref, idx, dyn, e->u.load.sl.n,
			    TOP_SLOAD, &t);
		}
		break;
	}
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_ABS: case CX_EXP:
	case CX_LOG: case CX_SQRT: case CX_RSQRT: case CX_TANH:
		return tile_unop(l->f, ew_op(e->op), ev_scalar(l, e->arg[0]));
	case CX_CAST:
		args[0] = ev_scalar(l, e->arg[0]);
		if (tile_val(l->f, args[0])->dtype == t.dtype)
			return args[0];
		return tile_emit(l->f, TOP_CONVERT, args, 1, &t, NULL);
	case CX_WHERE: case CX_SELECT:
		args[0] = ev_scalar(l, e->arg[0]);
		args[1] = ev_scalar(l, e->arg[1]);
		args[2] = ev_scalar(l, e->arg[2]);
		return tile_emit(l->f, TOP_SELECT, args, 3, &t, NULL);
	default:
		if (e->n == 2 && (ew_op(e->op) != TOP_NOP ||
		    cmp_of(e->op, &(TCmp){0})))
			return scalar_binop(l, e);
		break;
	}
	/* a scalar out of vectors: a one-element vector, then extract */
	v = ev_val(l, e);
	if (v.kind == V_SCALAR)
		return v.r;
	if (v.kind == V_REF)
		v.r = load_whole(l, v.r);
	if (l->err)
		return tile_const_i32(l->f, 0);
	return extract(l, v.r);
}

/* ------------------------------------------------------------ chunks */

/* The chunk of a shape s (aligned to the output's last dims) in c. */
static Shape
chunk_shape(const Ctx *c, const Shape *s)
{
	Shape o = *s;
	int j, i;

	if (!c)
		return o;
	for (j = 0; j < s->rank; j++) {
		i = j + c->r - s->rank;
		if (i < 0 || s->d[j] == 1)
			continue;
		if (i < c->r - 2 && c->iter[i])
			o.d[j] = 1;
		else if (i == c->r - 2 && c->rowpos != TNONE)
			o.d[j] = c->rows;
		else if (i == c->r - 1 && c->colpos != TNONE)
			o.d[j] = c->cols;
	}
	return o;
}

/* Loads the chunk of a memory value of shape s (a ref view). */
static TRef
load_chunk(L *l, const Ctx *c, TRef ref, TLayKind k)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape cs = chunk_shape(c, &rv->shape);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	TVal t = vec_type(l, rv->dtype, &cs, k);
	int j, i;

	whole(idx, dyn, &rv->shape);
	for (j = 0; c && j < rv->shape.rank; j++) {
		i = j + c->r - rv->shape.rank;
		idx[j].size = cs.d[j];
		if (i < 0 || rv->shape.d[j] == 1)
			continue;
		if (i < c->r - 2 && c->iter[i])
			dyn[j] = c->lead[i];
		else if (i == c->r - 2 && c->rowpos != TNONE) {
			dyn[j] = c->rowpos;
			idx[j].multiple = c->rows;
		} else if (i == c->r - 1 && c->colpos != TNONE) {
			dyn[j] = c->colpos;
			idx[j].multiple = c->cols;
		}
	}
	return view(l, ref, idx, dyn, rv->shape.rank, TOP_LOAD, &t);
}

static void
store_chunk(L *l, const Ctx *c, TRef ref, TRef v)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape cs = chunk_shape(c, &rv->shape);
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK], args[2 + SEMA_MAXRANK];
	TIdx *d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	int j, i, na = 2, opi;

	whole(idx, dyn, &rv->shape);
	args[0] = ref;
	args[1] = v;
	for (j = 0; j < rv->shape.rank; j++) {
		i = j + c->r - rv->shape.rank;
		d[j] = idx[j];
		d[j].size = cs.d[j];
		if (i < c->r - 2 && c->iter[i]) {
			d[j].dyn = na;
			args[na++] = c->lead[i];
		} else if (i == c->r - 2 && c->rowpos != TNONE) {
			d[j].dyn = na;
			d[j].multiple = c->rows;
			args[na++] = c->rowpos;
		} else if (i == c->r - 1 && c->colpos != TNONE) {
			d[j].dyn = na;
			d[j].multiple = c->cols;
			args[na++] = c->colpos;
		}
	}
	tile_emit(l->f, TOP_STORE, args, na, NULL, &opi);
	l->f->op.v[opi].u.idx.n = rv->shape.rank;
	l->f->op.v[opi].u.idx.d = d;
}

static const Val *
hoisted(L *l, const CExpr *e)
{
	int i;

	for (i = 0; i < l->hoist.n; i++)
		if (l->hoist.v[i].e == e)
			return &l->hoist.v[i].v;
	return NULL;
}

static void
add_hoist(L *l, const CExpr *e, Val v)
{
	Hoist h;

	h.e = e;
	h.v = v;
	vec_push(l->f->arena, &l->hoist, h);
}

/* Does a vector of shape s need slicing along iterated dims of c? */
static int
needs_slicing(const Ctx *c, const Shape *s)
{
	Shape cs = chunk_shape(c, s);

	return !shape_eq(&cs, s);
}

static int
is_lane_reduce(const CExpr *e)
{
	return e->op >= CX_SUM && e->op <= CX_MEAN && e->u.red.keepdims &&
	    e->arg[0]->shape.rank >= 1 &&
	    e->u.red.axis == e->arg[0]->shape.rank - 1;
}

static int
same_slice(const CSlice *a, const CSlice *b)
{
	int i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->dim[i].start != b->dim[i].start ||
		    a->dim[i].size != b->dim[i].size ||
		    a->dim[i].dyn != b->dim[i].dyn ||
		    a->dim[i].squeeze != b->dim[i].squeeze)
			return 0;
	return 1;
}

/* ------------------------------------------------------------ chunk loops */

typedef void ChunkFn(L *l, const Ctx *c, void *arg);

/* Are the rows of s wider than a chunk (column chunks needed)? */
static int
wide(const MachPreset *p, const Shape *s)
{
	int64_t cols = s->rank ? s->d[s->rank - 1] : 1;

	return (cols + p->lanes - 1) / p->lanes > mosaic_vreg_budget(p) / 2;
}

/* A lane-wise op (lane reduction, lane roll) on rows of one chunk. */
static int
lane_op_ok(L *l, const CExpr *e)
{
	if (e->op == CX_ROLL)
		return e->u.axis == e->shape.rank - 1 &&
		    !wide(l->f->preset, &e->shape);
	return is_lane_reduce(e) && !wide(l->f->preset, &e->arg[0]->shape);
}

static int
is_chunkable(L *l, const CExpr *e)
{
	switch (e->op) {
	case CX_CONST: case CX_SLOT: case CX_LOAD:
		return 0;	/* leaves */
	case CX_ROLL: case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return lane_op_ok(l, e);
	case CX_IOTA: case CX_BROADCAST:
		return 1;
	default:
		return ew_op(e->op) != TOP_NOP || cmp_of(e->op, &(TCmp){0});
	}
}

/* Does a value of the chunk-evaluated part of e exceed the budget? */
static int
tree_big(L *l, const CExpr *e)
{
	int i;

	if (e->shape.rank == 0)
		return 0;
	if (mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home)
		return 1;
	if (!is_chunkable(l, e))
		return 0;
	for (i = 0; i < e->n; i++)
		if (tree_big(l, e->arg[i]))
			return 1;
	return 0;
}

/*
 * Plans the chunk loop nest over out (dtype t) for computing e (NULL: a
 * copy): fills c and returns 1 when the output or a value computed on
 * the way needs chunks, 0 when everything fits in registers whole.
 */
static int
plan(L *l, DType t, const Shape *out, Ctx *c, Loc loc, const CExpr *e)
{
	TLayout lay = mosaic_layout(l->f->preset, t, out, TL_NATIVE);
	int64_t cols, colv;
	int i;

	memset(c, 0, sizeof *c);
	c->r = out->rank;
	c->out = *out;
	c->rowpos = TNONE;
	c->colpos = TNONE;
	if ((!lay.home && !(e && tree_big(l, e)) &&
	    !wide(l->f->preset, out)) || out->rank == 0)
		return 0;
	if (!lay.home)
		lay.chunk_rows = lay.tile_r;
	cols = out->d[out->rank - 1];
	colv = (cols + lay.tile_c - 1) / lay.tile_c;
	(void)loc;
	if (colv > mosaic_vreg_budget(l->f->preset) / 2) {
		/* wide rows: column chunks of half the budget */
		c->cols = (int64_t)lay.tile_c *
		    (mosaic_vreg_budget(l->f->preset) / 2);
		c->colpos = (TRef)~0u;
	}
	for (i = 0; i + 2 < out->rank; i++)
		c->iter[i] = out->d[i] > 1;
	c->rows = out->rank >= 2 ? out->d[out->rank - 2] : 1;
	if (c->rows > lay.chunk_rows) {
		c->rows = lay.chunk_rows;
		c->rowpos = (TRef)~0u;	/* planned: set by the loops */
	}
	return 1;
}

/* The column chunks of one row chunk (or the whole width). */
static void
col_loop(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	int64_t cols, cc = c->cols, full;

	if (c->colpos == TNONE) {
		fn(l, c, arg);
		return;
	}
	cols = c->out.d[c->r - 1];
	full = cols / cc * cc;
	if (full / cc >= 2) {
		c->colpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), cc, NULL, 0);
		fn(l, c, arg);
		tile_end_for(l->f, NULL);
	} else {
		c->colpos = tile_const_i32(l->f, 0);
		fn(l, c, arg);
	}
	if (cols > full) {
		c->cols = cols - full;
		c->colpos = tile_const_i32(l->f, full);
		fn(l, c, arg);
		c->cols = cc;
	}
	c->colpos = (TRef)~0u;
}

static void
row_loop(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	int64_t rows = c->out.d[c->r - 2], cr = c->rows;
	int64_t full = rows / cr * cr;

	if (full / cr >= 2) {
		c->rowpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), cr, NULL, 0);
		col_loop(l, c, fn, arg);
		tile_end_for(l->f, NULL);
	} else {
		c->rowpos = tile_const_i32(l->f, 0);
		col_loop(l, c, fn, arg);
	}
	if (rows > full) {
		c->rows = rows - full;
		c->rowpos = tile_const_i32(l->f, full);
		col_loop(l, c, fn, arg);
		c->rows = cr;
	}
	c->rowpos = (TRef)~0u;
}

static void
lead_loops(L *l, Ctx *c, int i, ChunkFn *fn, void *arg)
{
	if (i < c->r - 2) {
		if (!c->iter[i]) {
			lead_loops(l, c, i + 1, fn, arg);
			return;
		}
		c->lead[i] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, c->out.d[i]), 1, NULL, 0);
		lead_loops(l, c, i + 1, fn, arg);
		tile_end_for(l->f, NULL);
		return;
	}
	if (c->rowpos != TNONE)
		row_loop(l, c, fn, arg);
	else
		col_loop(l, c, fn, arg);
}

/* Runs fn once per chunk of the plan c (NULL: once, whole). */
static void
run_chunks(L *l, Ctx *c, ChunkFn *fn, void *arg)
{
	if (!c || l->err) {
		if (!l->err)
			fn(l, NULL, arg);
		return;
	}
	lead_loops(l, c, 0, fn, arg);
}

/* ------------------------------------------------------------ evaluation */

static TRef ev(L *l, const CExpr *e, const Ctx *c);

static TRef
splat(L *l, TRef s, DType t, const Shape *sh)
{
	TVal ty = vec_type(l, t, sh, TL_NATIVE);

	return tile_emit(l->f, TOP_SPLAT, &s, 1, &ty, NULL);
}

static TRef
leaf(L *l, const Ctx *c, Val v)
{
	if (v.kind == V_REF)
		return load_chunk(l, c, v.r, TL_NATIVE);
	return v.r;
}

static void
copy_fn(L *l, const Ctx *c, void *arg)
{
	TRef *sd = arg;

	store_chunk(l, c, sd[1], load_chunk(l, c, sd[0], TL_NATIVE));
}

/* Copies the memory value ref into a new home (or SSA when small). */
static Val
snapshot(L *l, TRef ref, Loc loc)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape s = rv->shape;
	DType t = rv->dtype;
	TRef sd[2];
	Val v;
	Ctx c;

	if (!plan(l, t, &s, &c, loc, NULL)) {
		v.kind = V_SSA;
		v.r = load_whole(l, ref);
		return v;
	}
	sd[0] = ref;
	sd[1] = home(l, t, &s);
	run_chunks(l, &c, copy_fn, sd);
	v.kind = V_REF;
	v.r = sd[1];
	return v;
}

static int
is_home(L *l, TRef ref)
{
	const TVal *v = tile_val(l->f, ref);

	return l->f->buf.v[v->mem.buf].kind == TB_INTERNAL;
}

static void
hoist(L *l, const CExpr *e, const Ctx *c)
{
	Val v;
	int i;

	if (l->err || hoisted(l, e))
		return;
	if (e->shape.rank == 0) {
		v.kind = V_SCALAR;
		v.r = ev_scalar(l, e);
		add_hoist(l, e, v);
		return;
	}
	switch (e->op) {
	case CX_CONST:
		return;
	case CX_SLOT:
		v = l->slot[e->u.slot];
		if (v.kind == V_SSA && c && needs_slicing(c, &e->shape)) {
			v.r = as_ref(l, v, e->loc);
			v.kind = V_REF;
			add_hoist(l, e, v);
		}
		return;
	case CX_NEG: case CX_NOT: case CX_BITNOT: case CX_EXP: case CX_LOG:
	case CX_SQRT: case CX_RSQRT: case CX_TANH: case CX_ABS: case CX_CAST:
	case CX_ADD: case CX_SUB: case CX_MUL: case CX_DIV: case CX_MOD:
	case CX_MAX: case CX_MIN: case CX_SHL: case CX_SHR: case CX_BITAND:
	case CX_BITOR: case CX_BITXOR: case CX_AND: case CX_OR: case CX_LT:
	case CX_LE: case CX_GT: case CX_GE: case CX_EQ: case CX_NE:
	case CX_WHERE: case CX_SELECT: case CX_IOTA: case CX_BROADCAST:
		for (i = 0; i < e->n; i++)
			hoist(l, e->arg[i], c);
		return;
	case CX_ROLL:
		if (lane_op_ok(l, e)) {
			hoist(l, e->arg[0], c);
			hoist(l, e->arg[1], c);
			return;
		}
		break;
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		if (lane_op_ok(l, e)) {
			hoist(l, e->arg[0], c);
			return;
		}
		break;
	default:
		break;
	}
	v = materialise(l, e);
	if (v.kind == V_SSA && c && needs_slicing(c, &e->shape)) {
		v.r = as_ref(l, v, e->loc);
		v.kind = V_REF;
	}
	add_hoist(l, e, v);
}

/* The layout of an elementwise result: lane-replicated when all its
   vector operands are. */
static TLayKind
ew_layout(L *l, const TRef *a, int n)
{
	int i, nv = 0;

	for (i = 0; i < n; i++) {
		if (tile_val(l->f, a[i])->kind != TV_VEC)
			continue;
		nv++;
		if (lay_kind(l, a[i]) != TL_LANE_REPL)
			return TL_NATIVE;
	}
	return nv ? TL_LANE_REPL : TL_NATIVE;
}

static TRef
ev_ew(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef a[3];
	TVal t;
	TCmp cmp;
	int i, opi;
	TRef r;

	for (i = 0; i < e->n && i < 3; i++) {
		a[i] = ev(l, e->arg[i], c);
		if (tile_val(l->f, a[i])->kind == TV_SCALAR &&
		    !(e->op == CX_SELECT && i == 0))
			a[i] = splat(l, a[i], e->arg[i]->dtype, cs);
	}
	t = vec_type(l, e->dtype, cs, ew_layout(l, a, e->n));
	if (cmp_of(e->op, &cmp)) {
		r = tile_emit(l->f, TOP_CMP, a, 2, &t, &opi);
		l->f->op.v[opi].u.cmp = cmp;
		return r;
	}
	return tile_emit(l->f, ew_op(e->op), a, e->n, &t, NULL);
}

static TRef
ev_iota(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	int i = e->u.axis + (c ? c->r - e->shape.rank : 0);
	TVal t = vec_type(l, DT_I32, cs, TL_NATIVE);
	TRef off = TNONE;
	int opi, n = 0;

	if (c && i < c->r - 2 && c->iter[i])
		return splat(l, c->lead[i], DT_I32, cs);
	if (c && i == c->r - 2 && c->rowpos != TNONE) {
		off = c->rowpos;
		n = 1;
	} else if (c && i == c->r - 1 && c->colpos != TNONE) {
		off = c->colpos;
		n = 1;
	}
	tile_emit(l->f, TOP_IOTA, &off, n, &t, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	return l->f->op.v[opi].res[0];
}

static TRef
ev_broadcast(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef a = ev(l, e->arg[0], c);
	const TVal *av = tile_val(l->f, a);
	TLayKind k = TL_NATIVE;
	TVal t;

	if (av->kind == TV_SCALAR)
		return splat(l, a, e->dtype, cs);
	if (av->lay.kind == TL_LANE_REPL)
		k = TL_LANE_REPL;
	else if (av->shape.rank >= 2 && cs->rank >= 2 &&
	    av->shape.d[av->shape.rank - 2] == 1 &&
	    cs->d[cs->rank - 2] > 1 &&
	    av->shape.d[av->shape.rank - 1] == cs->d[cs->rank - 1])
		k = TL_SUBLANE_REPL;
	t = vec_type(l, e->dtype, cs, k);
	return tile_emit(l->f, TOP_BROADCAST, &a, 1, &t, NULL);
}

static TRef
reduce(L *l, TRef v, CxOp op, int axis)
{
	const TVal *av = tile_val(l->f, v);
	Shape s = av->shape;
	TVal t;
	int opi;
	TRef r;

	s.d[axis] = 1;
	t = vec_type(l, av->dtype, &s, axis == s.rank - 1 ? TL_LANE_REPL :
	    TL_NATIVE);
	r = tile_emit(l->f, TOP_REDUCE, &v, 1, &t, &opi);
	l->f->op.v[opi].u.red.kind = op == CX_RMAX ? TR_MAX :
	    op == CX_RMIN ? TR_MIN : TR_SUM;
	l->f->op.v[opi].u.red.axis = axis;
	return r;
}

static TRef
scale(L *l, TRef v, int64_t n)
{
	const TVal *av = tile_val(l->f, v);
	TRef s = splat(l, tile_const_f32(l->f, 1.0 / (double)n), av->dtype,
	    &av->shape);

	return tile_binop(l->f, TOP_MUL, v, s);
}

static TRef
ev_lane_reduce(L *l, const CExpr *e, const Ctx *c)
{
	TRef a = ev(l, e->arg[0], c);
	int axis = e->arg[0]->shape.rank - 1;
	TRef r = reduce(l, a, e->op, axis);

	if (e->op == CX_MEAN)
		r = scale(l, r, e->arg[0]->shape.d[axis]);
	return r;
}

static TRef
ev_roll(L *l, const CExpr *e, const Ctx *c, const Shape *cs)
{
	TRef a[2];
	TVal t = vec_type(l, e->dtype, cs, TL_NATIVE);
	int opi;
	TRef r;

	a[0] = ev(l, e->arg[0], c);
	a[1] = ev_scalar(l, e->arg[1]);
	r = tile_emit(l->f, TOP_ROLL, a, 2, &t, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	return r;
}

/* The chunk c of e as a vector (or a scalar for rank-0 e). */
static TRef
ev(L *l, const CExpr *e, const Ctx *c)
{
	const Val *h = hoisted(l, e);
	Shape cs;

	if (h)
		return leaf(l, c, *h);
	if (l->err)
		return tile_const_i32(l->f, 0);
	if (e->shape.rank == 0)
		return ev_scalar(l, e);
	cs = chunk_shape(c, &e->shape);
	switch (e->op) {
	case CX_CONST:
		return splat(l, const_scalar(l, e->dtype, e), e->dtype, &cs);
	case CX_SLOT:
		return leaf(l, c, l->slot[e->u.slot]);
	case CX_IOTA:
		return ev_iota(l, e, c, &cs);
	case CX_BROADCAST:
		return ev_broadcast(l, e, c, &cs);
	case CX_ROLL:
		return ev_roll(l, e, c, &cs);
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		return ev_lane_reduce(l, e, c);
	default:
		if (ew_op(e->op) != TOP_NOP || cmp_of(e->op, &(TCmp){0}))
			return ev_ew(l, e, c, &cs);
	}
	bug("mosaic: %s was not hoisted", cx_op_name(e->op));
}

/* ------------------------------------------------------------ stores */

typedef struct StoreArg {
	TRef dst;
	const CExpr *e;
	CxOp acc;		/* NCXOP: plain store */
} StoreArg;

static void
store_fn(L *l, const Ctx *c, void *arg)
{
	StoreArg *sa = arg;
	const TVal *dv = tile_val(l->f, sa->dst);
	Shape cs = chunk_shape(c, &dv->shape);
	TRef v = ev(l, sa->e, c), old;

	if (l->err)
		return;
	if (tile_val(l->f, v)->kind == TV_SCALAR)
		v = splat(l, v, dv->dtype, &cs);
	if (sa->acc != NCXOP) {
		old = load_chunk(l, c, sa->dst, TL_NATIVE);
		v = tile_binop(l->f, ew_op(sa->acc), old, v);
	}
	if (c)
		store_chunk(l, c, sa->dst, v);
	else
		store_whole(l, sa->dst, v);
}

/* dst (a ref) = e, or dst = dst acc e; chunked as dst needs. */
static void
store_expr(L *l, TRef dst, const CExpr *e, CxOp acc, Loc loc)
{
	const TVal *dv = tile_val(l->f, dst);
	StoreArg sa;
	Ctx c;
	int chunked = plan(l, dv->dtype, &dv->shape, &c, loc, e);

	hoist(l, e, chunked ? &c : NULL);
	sa.dst = dst;
	sa.e = e;
	sa.acc = acc;
	run_chunks(l, chunked ? &c : NULL, store_fn, &sa);
}

/* ------------------------------------------------------------ barriers */

static void
matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	TRef args[3];
	int opi;

	args[0] = dst;
	args[1] = a;
	args[2] = b;
	tile_emit(l->f, TOP_MATMUL, args, 3, NULL, &opi);
	l->f->op.v[opi].loc = e->loc;
	l->f->op.v[opi].u.mm.trans_b = e->u.dot.trans_b;
	l->f->op.v[opi].u.mm.prec = e->u.dot.prec;
	l->f->op.v[opi].u.mm.acc = e->u.dot.acc;
	l->f->op.v[opi].u.mm.accumulate = accumulate;
}

/* A transposed copy of ref (last two dims swapped) in a new home. */
static TRef
transpose_ref(L *l, TRef ref)
{
	const TVal *rv = tile_val(l->f, ref);
	Shape s = rv->shape;
	int64_t x = s.d[s.rank - 1];
	TRef args[2];

	s.d[s.rank - 1] = s.d[s.rank - 2];
	s.d[s.rank - 2] = x;
	args[0] = home(l, rv->dtype, &s);
	args[1] = ref;
	tile_emit(l->f, TOP_TRANSPOSE, args, 2, NULL, NULL);
	return args[0];
}

/* The operands of a dot as refs: a and b; 0, or -1 after an error. */
static int
dot_operands(L *l, const CExpr *e, TRef *a, TRef *b)
{
	if (e->arg[0]->shape.rank < 2 || e->arg[1]->shape.rank < 2 ||
	    e->arg[0]->shape.rank != e->arg[1]->shape.rank) {
		error(l, e->loc, "dot of rank-1 or mixed-rank operands is not "
		    "supported yet");
		return -1;
	}
	*a = as_ref(l, materialise(l, e->arg[0]), e->loc);
	*b = as_ref(l, materialise(l, e->arg[1]), e->loc);
	if (l->err)
		return -1;
	if (e->u.dot.trans_a)
		*a = transpose_ref(l, *a);
	return 0;
}

static Val
mat_dot(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef a, b;

	if (dot_operands(l, e, &a, &b))
		return v;
	v.r = home(l, e->dtype, &e->shape);
	matmul(l, v.r, a, b, e, 0);
	return v;
}

static Val
mat_transpose(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef a = as_ref(l, materialise(l, e->arg[0]), e->loc);

	if (!l->err)
		v.r = transpose_ref(l, a);
	return v;
}

static Val
mat_rollm(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef args[3];
	int opi;

	args[1] = as_ref(l, materialise(l, e->arg[0]), e->loc);
	args[2] = ev_scalar(l, e->arg[1]);
	if (l->err)
		return v;
	args[0] = home(l, e->dtype, &e->shape);
	tile_emit(l->f, TOP_ROLLM, args, 3, NULL, &opi);
	l->f->op.v[opi].u.axis = e->u.axis;
	v.r = args[0];
	return v;
}

static TRef
identity(L *l, CxOp op, DType t, const Shape *s)
{
	TRef x;

	if (dtype_is_float(t))
		x = tile_const_f32(l->f, op == CX_RMAX ? -INFINITY :
		    op == CX_RMIN ? INFINITY : 0.0);
	else
		x = tile_const_i32(l->f, op == CX_RMAX ? INT32_MIN :
		    op == CX_RMIN ? INT32_MAX : 0);
	return splat(l, x, t, s);
}

static TRef
combine(L *l, CxOp op, TRef a, TRef b)
{
	return tile_binop(l->f, op == CX_RMAX ? TOP_MAX : op == CX_RMIN ?
	    TOP_MIN : TOP_ADD, a, b);
}

/* One row chunk's partial reduction, combined into acc. */
static TRef
row_part(L *l, const CExpr *e, Ctx *c, TRef acc)
{
	const CExpr *a = e->arg[0];
	TRef part = reduce(l, ev(l, a, c), e->op, a->shape.rank - 2);

	return combine(l, e->op, acc, part);
}

typedef struct Rows {
	const CExpr *e;
	TRef home;		/* the keepdims result [.., 1, W] */
	Ctx c;			/* the plan over the operand */
} Rows;

/* One column chunk (or the whole width) of a reduction along rows: the
   rows in chunks, the partial [1, cols] result carried by the loop. */
static void
rows_fn(L *l, const Ctx *ck, void *arg)
{
	Rows *w = arg;
	const CExpr *e = w->e, *a = e->arg[0];
	int r = a->shape.rank;
	int64_t rows = a->shape.d[r - 2], full;
	Ctx c = w->c;
	Shape ks;
	TRef acc;
	int i;

	c.colpos = ck ? ck->colpos : TNONE;
	c.cols = ck ? ck->cols : 0;
	for (i = 0; ck && i + 2 < r; i++)
		c.lead[i] = ck->lead[i];
	if (c.rowpos == TNONE) {
		acc = reduce(l, ev(l, a, &c), e->op, r - 2);
	} else {
		ks = chunk_shape(&c, &a->shape);
		ks.d[r - 2] = 1;
		acc = identity(l, e->op, e->dtype, &ks);
		full = rows / c.rows * c.rows;
		c.rowpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), c.rows, &acc, 1);
		acc = row_part(l, e, &c, tile_block_arg(l->f, 1));
		acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
		if (rows > full) {
			c.rowpos = tile_const_i32(l->f, full);
			c.rows = rows - full;
			acc = row_part(l, e, &c, acc);
		}
	}
	if (e->op == CX_MEAN)
		acc = scale(l, acc, rows);
	if (ck)
		store_chunk(l, ck, w->home, acc);
	else
		store_whole(l, w->home, acc);
}

/* A reduction along rows (the second-last dim) into a home, squeezed
   when the reduction drops the dim. */
static Val
mat_reduce_rows(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	int r = a->shape.rank, i;
	Shape ks = a->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_REF, TNONE };
	Rows w;
	Ctx ck;
	int chunked, batched = 0;

	ks.d[r - 2] = 1;
	chunked = plan(l, a->dtype, &a->shape, &w.c, e->loc, a);
	/* batched: one (row loop of one) matrix per trip of the leading
	   loops, whether or not the rows need chunks */
	for (i = 0; i + 2 < r; i++)
		if ((w.c.iter[i] = a->shape.d[i] > 1))
			batched = chunked = 1;
	hoist(l, a, chunked ? &w.c : NULL);
	w.e = e;
	w.home = home(l, e->dtype, &ks);
	memset(&ck, 0, sizeof ck);
	ck.r = r;
	ck.out = ks;
	for (i = 0; i + 2 < r; i++)
		ck.iter[i] = w.c.iter[i];
	ck.rowpos = TNONE;
	ck.colpos = w.c.colpos;
	ck.cols = w.c.cols;
	run_chunks(l, ck.colpos != TNONE || batched ? &ck : NULL, rows_fn,
	    &w);
	v.r = w.home;
	if (!e->u.red.keepdims && !l->err) {
		whole(idx, dyn, &ks);
		idx[r - 2].squeeze = 1;
		v.r = mkview(l, v.r, idx, dyn, r);
	}
	return v;
}

typedef struct Wide {
	const CExpr *e;
	TRef home;
	int64_t cols;		/* column chunk */
} Wide;

static TRef
lane_part(L *l, const CExpr *e, Ctx *c, TRef acc)
{
	const CExpr *a = e->arg[0];
	TRef part = reduce(l, ev(l, a, c), e->op, a->shape.rank - 1);

	return combine(l, e->op, acc, part);
}

/* One row chunk of a lane reduction over wide rows: the columns in
   chunks, the partial [rows, 1] result carried. */
static void
lane_wide_fn(L *l, const Ctx *c0, void *arg)
{
	Wide *w = arg;
	const CExpr *a = w->e->arg[0];
	Ctx c = *c0;
	int64_t cols = a->shape.d[a->shape.rank - 1], full;
	Shape ks = chunk_shape(&c, &w->e->shape);
	TRef acc = identity(l, w->e->op, w->e->dtype, &ks);

	c.cols = w->cols;
	full = cols / c.cols * c.cols;
	if (full > 0) {
		c.colpos = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, full), c.cols, &acc, 1);
		acc = lane_part(l, w->e, &c, tile_block_arg(l->f, 1));
		acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
	}
	if (cols > full) {
		c.colpos = tile_const_i32(l->f, full);
		c.cols = cols - full;
		acc = lane_part(l, w->e, &c, acc);
	}
	if (w->e->op == CX_MEAN)
		acc = scale(l, acc, cols);
	c.colpos = TNONE;
	store_chunk(l, &c, w->home, acc);
}

/* A lane reduction (keepdims) of rows too wide for one chunk. */
static Val
mat_lane_wide(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	Val v = { V_REF, TNONE };
	Wide w;
	Ctx c;

	plan(l, a->dtype, &a->shape, &c, e->loc, a);
	hoist(l, a, &c);
	w.e = e;
	w.home = home(l, e->dtype, &e->shape);
	w.cols = c.cols > 0 ? c.cols : l->f->preset->lanes;
	c.colpos = TNONE;
	run_chunks(l, &c, lane_wide_fn, &w);
	v.r = w.home;
	return v;
}

typedef struct Lead {
	const CExpr *e;
	TRef home;		/* the keepdims result */
	Ctx op;			/* the operand's chunk: the output's, with
				   the reduced dim iterated */
} Lead;

/* One chunk of a reduction over a leading dim: a loop over that dim
   carrying the chunk's partial result; the operand's tree is evaluated
   on one slice of the chunk per trip. */
static void
lead_fn(L *l, const Ctx *c, void *arg)
{
	Lead *w = arg;
	const CExpr *a = w->e->arg[0];
	int ax = w->e->u.red.axis, i;
	int64_t n = a->shape.d[ax];
	Shape ks = chunk_shape(c, &tile_val(l->f, w->home)->shape);
	Ctx oc = w->op;
	TRef acc;

	if (c) {
		for (i = 0; i + 2 < oc.r; i++)
			oc.lead[i] = c->lead[i];
		oc.rowpos = c->rowpos;
		oc.rows = c->rows;
		oc.colpos = c->colpos;
		oc.cols = c->cols;
	}
	acc = identity(l, w->e->op, w->e->dtype, &ks);
	oc.lead[ax] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
	    tile_const_i32(l->f, n), 1, &acc, 1);
	acc = combine(l, w->e->op, tile_block_arg(l->f, 1), ev(l, a, &oc));
	acc = l->f->op.v[tile_end_for(l->f, &acc)].res[0];
	if (w->e->op == CX_MEAN)
		acc = scale(l, acc, n);
	if (c)
		store_chunk(l, c, w->home, acc);
	else
		store_whole(l, w->home, acc);
}

/* A reduction over a leading dim (not one of the last two) into a home
   of the keepdims shape, computed in the chunks of that shape (each a
   loop over the reduced dim), squeezed when the reduction drops the
   dim. */
static Val
mat_reduce_lead(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	int r = a->shape.rank, ax = e->u.red.axis;
	Shape ks = a->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_REF, TNONE };
	Lead w;
	Ctx c;
	int chunked;

	ks.d[ax] = 1;
	chunked = plan(l, e->dtype, &ks, &c, e->loc, NULL);
	w.e = e;
	w.op = c;
	w.op.out = a->shape;
	w.op.iter[ax] = 1;
	hoist(l, a, &w.op);
	w.home = home(l, e->dtype, &ks);
	run_chunks(l, chunked ? &c : NULL, lead_fn, &w);
	v.r = w.home;
	if (!e->u.red.keepdims && !l->err) {
		whole(idx, dyn, &ks);
		idx[ax].squeeze = 1;
		v.r = mkview(l, v.r, idx, dyn, r);
	}
	return v;
}

/* The keepdims form of a reduction without keepdims. */
static CExpr *
keepdims(L *l, const CExpr *e)
{
	CExpr *k = arena_alloc(l->f->arena, sizeof *k);

	*k = *e;
	k->u.red.keepdims = 1;
	k->shape = e->arg[0]->shape;
	k->shape.d[e->u.red.axis] = 1;
	return k;
}

static Val
mat_reduce(L *l, const CExpr *e)
{
	const CExpr *a = e->arg[0];
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Val v = { V_NONE, TNONE };
	TVal t;

	if (a->shape.rank >= 2 && e->u.red.axis == a->shape.rank - 2)
		return mat_reduce_rows(l, e);
	if (e->u.red.axis != a->shape.rank - 1)
		return mat_reduce_lead(l, e);
	/* over lanes without keepdims: squeeze the keepdims value */
	v = materialise(l, keepdims(l, e));
	if (l->err || e->shape.rank == 0)
		return v;
	if (v.kind == V_SSA) {
		t = vec_type(l, e->dtype, &e->shape, TL_NATIVE);
		v.r = tile_emit(l->f, TOP_RESHAPE, &v.r, 1, &t, NULL);
		return v;
	}
	whole(idx, dyn, &tile_val(l->f, v.r)->shape);
	idx[a->shape.rank - 1].squeeze = 1;
	v.r = mkview(l, v.r, idx, dyn, a->shape.rank);
	return v;
}

/* The index of the piece of 'h' rows and 'w' columns of shape s that
   starts at flat element fe (i32): row and column positions from div and
   mod, leading indices likewise; dims of size 1 static. */
static void
piece_idx(L *l, const Shape *s, TRef fe, int64_t h, int64_t w, TIdx *idx,
    TRef *dyn)
{
	int r = s->rank, i;
	int64_t c = r ? s->d[r - 1] : 1;
	TRef rest;

	whole(idx, dyn, s);
	for (i = 0; i < r; i++)
		idx[i].size = 1;
	idx[r - 1].size = w;
	if (w < c) {
		dyn[r - 1] = tile_binop(l->f, TOP_REM, fe,
		    tile_const_i32(l->f, c));
		idx[r - 1].multiple = w;
	}
	rest = r >= 2 ? tile_binop(l->f, TOP_DIV, fe,
	    tile_const_i32(l->f, c)) : TNONE;
	for (i = r - 2; i >= 0; i--) {
		if (i == r - 2) {
			idx[i].size = h;
			idx[i].multiple = h;
		}
		if (s->d[i] > 1)
			dyn[i] = i == 0 ? rest : tile_binop(l->f, TOP_REM, rest,
			    tile_const_i32(l->f, s->d[i]));
		if (i > 0 && s->d[i] > 1)
			rest = tile_binop(l->f, TOP_DIV, rest,
			    tile_const_i32(l->f, s->d[i]));
	}
}

static int64_t
gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * A reshape of a block-sized value: a copy into a home, piece by piece.
 * A piece lies within one row of both shapes: row groups of tile_r rows
 * when the rows keep their width and both row counts are multiples of
 * tile_r, else [1, P] segments, P = gcd of the two widths (halved while
 * wider than half the budget).  Each trip computes the piece's position
 * in both shapes, loads, relayouts (TOP_RESHAPE) when the piece shapes'
 * ranks differ, and stores.
 */
static Val
reshape_home(L *l, const CExpr *e, Val src)
{
	const MachPreset *p = l->f->preset;
	TLayout lay = mosaic_layout(p, e->dtype, &e->shape, TL_NATIVE);
	Val v = { V_REF, TNONE };
	const TVal *sv;
	Shape ss, ds = e->shape, ps, pd;
	TIdx si[SEMA_MAXRANK], di[SEMA_MAXRANK];
	TRef sdyn[SEMA_MAXRANK], ddyn[SEMA_MAXRANK], j, fe, x;
	int64_t cs, cd, rs, rd, h = 1, w, n, maxw;
	int i;
	TVal t;

	x = as_ref(l, src, e->loc);
	if (l->err)
		return v;
	sv = tile_val(l->f, x);
	ss = sv->shape;
	cs = ss.d[ss.rank - 1];
	cd = ds.d[ds.rank - 1];
	rs = ss.rank >= 2 ? ss.d[ss.rank - 2] : 1;
	rd = ds.rank >= 2 ? ds.d[ds.rank - 2] : 1;
	maxw = (int64_t)p->lanes * (mosaic_vreg_budget(p) / 2);
	if (cs == cd && rs % lay.tile_r == 0 && rd % lay.tile_r == 0 &&
	    !wide(p, &ds)) {
		h = lay.tile_r;
		w = cs;
	} else {
		w = gcd(cs, cd);
		while (w > maxw && w % 2 == 0)
			w /= 2;
	}
	n = shape_numel(&ds) / (h * w);
	v.r = home(l, e->dtype, &ds);
	j = n > 1 ? tile_begin_for(l->f, tile_const_i32(l->f, 0),
	    tile_const_i32(l->f, n), 1, NULL, 0) : tile_const_i32(l->f, 0);
	fe = tile_binop(l->f, TOP_MUL, j, tile_const_i32(l->f, h * w));
	piece_idx(l, &ss, fe, h, w, si, sdyn);
	piece_idx(l, &ds, fe, h, w, di, ddyn);
	for (i = 0; i < ss.rank; i++)
		ps.d[i] = si[i].size;
	ps.rank = ss.rank;
	for (i = 0; i < ds.rank; i++)
		pd.d[i] = di[i].size;
	pd.rank = ds.rank;
	t = vec_type(l, e->dtype, &ps, TL_NATIVE);
	x = access(l, TOP_LOAD, x, TNONE, si, sdyn, 0, &t);
	if (!shape_eq(&ps, &pd)) {
		t = vec_type(l, e->dtype, &pd, TL_NATIVE);
		x = tile_emit(l->f, TOP_RESHAPE, &x, 1, &t, NULL);
	}
	access(l, TOP_STORE, v.r, x, di, ddyn, 0, NULL);
	if (n > 1)
		tile_end_for(l->f, NULL);
	return v;
}

static Val
mat_reshape(L *l, const CExpr *e)
{
	Val v = materialise(l, e->arg[0]);
	TVal t;

	if (l->err)
		return v;
	if (mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home ||
	    mosaic_layout(l->f->preset, e->dtype, &e->arg[0]->shape,
	    TL_NATIVE).home)
		return reshape_home(l, e, v);
	if (v.kind == V_REF)
		v.r = load_whole(l, v.r);
	t = vec_type(l, e->dtype, &e->shape, TL_NATIVE);
	v.kind = V_SSA;
	v.r = tile_emit(l->f, TOP_RESHAPE, &v.r, 1, &t, NULL);
	return v;
}

/* ------------------------------------------------------------ SMEM vectors */

/*
 * SMEM is scalar memory: a vector access of an SMEM ref is a loop nest
 * over its elements (sload / sstore), and the vector side is a VMEM
 * home accessed one [1, .., 1] element at a time.
 */
typedef void ElemFn(L *l, const TIdx *idx, const TRef *dyn, void *arg);

/* fn once per element of shape s: idx/dyn index one element (dims of
   size 1 static, the others loop variables). */
static void
elem_loops(L *l, const Shape *s, int i, TIdx *idx, TRef *dyn, ElemFn *fn,
    void *arg)
{
	if (i == 0)
		whole(idx, dyn, s);
	if (i == s->rank) {
		fn(l, idx, dyn, arg);
		return;
	}
	idx[i].size = 1;
	if (s->d[i] > 1)
		dyn[i] = tile_begin_for(l->f, tile_const_i32(l->f, 0),
		    tile_const_i32(l->f, s->d[i]), 1, NULL, 0);
	elem_loops(l, s, i + 1, idx, dyn, fn, arg);
	if (s->d[i] > 1)
		tile_end_for(l->f, NULL);
}

/* An indexed access op: arg0 ref, [value], the dynamic starts. */
static TRef
access(L *l, TOpKind op, TRef ref, TRef val, const TIdx *idx,
    const TRef *dyn, int squeeze, const TVal *res)
{
	int n = tile_val(l->f, ref)->shape.rank, i, na = 1, opi;
	TIdx *d = arena_alloc(l->f->arena, (n ? n : 1) * sizeof *d);
	TRef args[2 + SEMA_MAXRANK];

	args[0] = ref;
	if (val != TNONE)
		args[na++] = val;
	for (i = 0; i < n; i++) {
		d[i] = idx[i];
		d[i].squeeze = squeeze;
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	tile_emit(l->f, op, args, na, res, &opi);
	l->f->op.v[opi].u.idx.n = n;
	l->f->op.v[opi].u.idx.d = d;
	return l->f->op.v[opi].nres ? l->f->op.v[opi].res[0] : TNONE;
}

typedef struct Elem {
	TRef smem;		/* the SMEM view */
	TRef vmem;		/* the VMEM side (home), or TNONE */
	TRef scalar;		/* a scalar stored everywhere, or TNONE */
	CxOp acc;		/* NCXOP: plain store */
} Elem;

static TRef
sload(L *l, TRef ref, const TIdx *idx, const TRef *dyn)
{
	TVal t = tile_scalar_type(scalar_dt(tile_val(l->f, ref)->dtype));

	return access(l, TOP_SLOAD, ref, TNONE, idx, dyn, 1, &t);
}

/* smem element -> a [1, .., 1] vector stored into the home. */
static void
sload_fn(L *l, const TIdx *idx, const TRef *dyn, void *arg)
{
	Elem *w = arg;
	const TVal *hv = tile_val(l->f, w->vmem);
	Shape one = hv->shape;
	TRef x = sload(l, w->smem, idx, dyn);
	int i;

	for (i = 0; i < one.rank; i++)
		one.d[i] = 1;
	x = splat(l, x, hv->dtype, &one);
	access(l, TOP_STORE, w->vmem, x, idx, dyn, 0, NULL);
}

/* home (or scalar) element -> smem element, accumulated when asked. */
static void
sstore_fn(L *l, const TIdx *idx, const TRef *dyn, void *arg)
{
	Elem *w = arg;
	const TVal *hv;
	Shape one;
	TRef x = w->scalar;
	TVal t;
	int i;

	if (x == TNONE) {
		hv = tile_val(l->f, w->vmem);
		one = hv->shape;
		for (i = 0; i < one.rank; i++)
			one.d[i] = 1;
		t = vec_type(l, hv->dtype, &one, TL_NATIVE);
		x = extract(l, access(l, TOP_LOAD, w->vmem, TNONE, idx, dyn,
		    0, &t));
	}
	if (w->acc != NCXOP)
		x = tile_binop(l->f, ew_op(w->acc), sload(l, w->smem, idx,
		    dyn), x);
	access(l, TOP_SSTORE, w->smem, x, idx, dyn, 1, NULL);
}

/* A vector load of an SMEM slice: copied element by element into a
   VMEM home. */
static Val
smem_load(L *l, TRef ref, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Elem w;

	memset(&w, 0, sizeof w);
	w.smem = slice_view(l, ref, &e->u.load.sl);
	w.vmem = home(l, tile_val(l->f, w.smem)->dtype, &e->shape);
	elem_loops(l, &e->shape, 0, idx, dyn, sload_fn, &w);
	v.r = w.vmem;
	return v;
}

/* A VMEM or HBM load as a view; SMEM vectors through a home. */
static Val
mat_load(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef ref = ref_of(l, e->u.load.ref);

	if (tile_val(l->f, ref)->mem.space == TS_SMEM)
		return smem_load(l, ref, e);
	v.r = slice_view(l, ref, &e->u.load.sl);
	if (l->dst && l->dst->ref.kind == e->u.load.ref.kind &&
	    l->dst->ref.index == e->u.load.ref.index &&
	    !same_slice(&l->dst->sl, &e->u.load.sl))
		v = snapshot(l, v.r, e->loc);
	return v;
}

/*
 * The whole value of e: a scalar, a small SSA vector, or memory (a view
 * of a Ref, or a home holding it).
 */
static Val
materialise(L *l, const CExpr *e)
{
	Val v = { V_NONE, TNONE };

	if (l->err)
		return v;
	if (e->shape.rank == 0 && !(e->op >= CX_SUM && e->op <= CX_MEAN)) {
		v.kind = V_SCALAR;
		v.r = ev_scalar(l, e);
		return v;
	}
	switch (e->op) {
	case CX_SLOT:
		return l->slot[e->u.slot];
	case CX_LOAD:
		return mat_load(l, e);
	case CX_DOT:
		return mat_dot(l, e);
	case CX_TRANSPOSE:
		return mat_transpose(l, e);
	case CX_RESHAPE:
		return mat_reshape(l, e);
	case CX_ROLL:
		if (!lane_op_ok(l, e))
			return mat_rollm(l, e);
		break;
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		if (!is_lane_reduce(e))
			return mat_reduce(l, e);
		if (!lane_op_ok(l, e))
			return mat_lane_wide(l, e);
		break;
	case CX_SLICE:
		v = materialise(l, e->arg[0]);
		if (l->err)
			return v;
		v.r = slice_view(l, as_ref(l, v, e->loc), &e->u.sl);
		v.kind = V_REF;
		return v;
	case CX_PARAM: case CX_SOFTMAX: case CX_CALL:
		error(l, e->loc, "this expression belongs to funcs, not "
		    "kernels");
		return v;
	default:
		break;
	}
	if (!mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home &&
	    !tree_big(l, e)) {
		hoist(l, e, NULL);
		v.kind = V_SSA;
		v.r = ev(l, e, NULL);
		return v;
	}
	v.kind = V_REF;
	v.r = home(l, e->dtype, &e->shape);
	store_expr(l, v.r, e, NCXOP, e->loc);
	return v;
}

static Val
ev_val(L *l, const CExpr *e)
{
	CExpr *k;

	if (e->op == CX_LOAD) {		/* a VMEM element: a [1, ..] view */
		CSlice sl = e->u.load.sl;
		int i;
		k = arena_alloc(l->f->arena, sizeof *k);
		*k = *e;
		sl.dim = arena_alloc(l->f->arena, (sl.n ? sl.n : 1) *
		    sizeof *sl.dim);
		for (i = 0; i < sl.n; i++) {
			sl.dim[i] = e->u.load.sl.dim[i];
			sl.dim[i].squeeze = 0;
		}
		k->u.load.sl = sl;
		k->shape.rank = sl.n;
		for (i = 0; i < sl.n; i++)
			k->shape.d[i] = 1;
		return materialise(l, k);
	}
	if (e->op >= CX_SUM && e->op <= CX_MEAN && e->shape.rank == 0)
		return materialise(l, keepdims(l, e));
	error(l, e->loc, "this scalar expression is not supported");
	return (Val){ V_NONE, TNONE };
}

/* ------------------------------------------------------------ statements */

static void stmts(L *l, const CBlock *b);

static void
let(L *l, const CStmt *s)
{
	const CExpr *e = s->u.let.value;
	Val v;

	if (e->shape.rank == 0) {
		v.kind = V_SCALAR;
		v.r = ev_scalar(l, e);
	} else {
		v = materialise(l, e);
		/* a view of a Ref may change under later stores: copy it */
		if (!l->err && v.kind == V_REF && !is_home(l, v.r))
			v = snapshot(l, v.r, s->loc);
	}
	l->slot[s->u.let.slot] = v;
}

/* A vector store into an SMEM slice: the value (broadcast to the
   place) computed into a VMEM home, then stored element by element. */
static void
smem_vstore(L *l, const CStmt *s, TRef ref)
{
	const CPlace *p = &s->u.store.place;
	const CExpr *e = s->u.store.value;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	Elem w;

	memset(&w, 0, sizeof w);
	w.acc = s->u.store.acc;
	if (e->shape.rank == 0)
		w.scalar = ev_scalar(l, e);
	else {
		w.vmem = home(l, tile_val(l->f, ref)->dtype, &p->shape);
		store_expr(l, w.vmem, e, NCXOP, s->loc);
	}
	w.smem = slice_view(l, ref, &p->sl);
	if (!l->err)
		elem_loops(l, &p->shape, 0, idx, dyn, sstore_fn, &w);
}

/* An SMEM element store (with its accumulation). */
static void
smem_store(L *l, const CStmt *s, TRef ref)
{
	const CPlace *p = &s->u.store.place;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK], args[2 + SEMA_MAXRANK], v;
	TIdx *d;
	int i, na = 2, opi;

	if (p->shape.rank != 0) {
		smem_vstore(l, s, ref);
		return;
	}
	v = ev_scalar(l, s->u.store.value);
	for (i = 0; i < p->sl.n; i++) {
		const CIdx *c = &p->sl.dim[i];
		memset(&idx[i], 0, sizeof idx[i]);
		idx[i].start = c->dyn ? 0 : c->start;
		idx[i].size = 1;
		idx[i].squeeze = 1;
		idx[i].multiple = 1;
		dyn[i] = c->dyn ? ev_scalar(l, c->dyn) : TNONE;
	}
	if (s->u.store.acc != NCXOP) {
		TVal t = tile_scalar_type(tile_val(l->f, v)->dtype);
		TRef old = view(l, ref, idx, dyn, p->sl.n, TOP_SLOAD, &t);
		v = tile_binop(l->f, ew_op(s->u.store.acc), old, v);
	}
	d = arena_alloc(l->f->arena, SEMA_MAXRANK * sizeof *d);
	args[0] = ref;
	args[1] = v;
	for (i = 0; i < p->sl.n; i++) {
		d[i] = idx[i];
		d[i].dyn = -1;
		if (dyn[i] != TNONE) {
			d[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	tile_emit(l->f, TOP_SSTORE, args, na, NULL, &opi);
	l->f->op.v[opi].u.idx.n = p->sl.n;
	l->f->op.v[opi].u.idx.d = d;
}

static int
reads_ref(const CExpr *e, CRef r)
{
	return e->op == CX_LOAD && e->u.load.ref.kind == r.kind &&
	    e->u.load.ref.index == r.index;
}

/* The target view of a VMEM place; rank-0 places keep unit dims. */
static TRef
place_view(L *l, const CPlace *p, TRef ref)
{
	CSlice sl = p->sl;
	int i;

	if (p->shape.rank == 0) {
		sl.dim = arena_alloc(l->f->arena, (sl.n ? sl.n : 1) *
		    sizeof *sl.dim);
		for (i = 0; i < sl.n; i++) {
			sl.dim[i] = p->sl.dim[i];
			sl.dim[i].squeeze = 0;
		}
	}
	return slice_view(l, ref, &sl);
}

static void
store(L *l, const CStmt *s)
{
	const CPlace *p = &s->u.store.place;
	const CExpr *e = s->u.store.value;
	CxOp acc = s->u.store.acc;
	TRef ref = ref_of(l, p->ref), dst, a, b;

	if (tile_val(l->f, ref)->mem.space == TS_SMEM) {
		smem_store(l, s, ref);
		return;
	}
	dst = place_view(l, p, ref);
	if (e->op == CX_DOT && (acc == NCXOP || acc == CX_ADD) &&
	    e->dtype == tile_val(l->f, dst)->dtype &&
	    !reads_ref(e->arg[0], p->ref) && !reads_ref(e->arg[1], p->ref)) {
		if (dot_operands(l, e, &a, &b) == 0)
			matmul(l, dst, a, b, e, acc == CX_ADD);
		return;
	}
	l->dst = p;
	store_expr(l, dst, e, acc, s->loc);
	l->dst = NULL;
}

static void
when(L *l, const CStmt *s)
{
	tile_begin_if(l->f, ev_scalar(l, s->u.when.cond));
	stmts(l, &s->u.when.then);
	if (s->u.when.els.n) {
		tile_else(l->f);
		stmts(l, &s->u.when.els);
	}
	tile_end_if(l->f);
}

static void
loop(L *l, const CStmt *s)
{
	TRef lo = ev_scalar(l, s->u.loop.lo), hi = ev_scalar(l, s->u.loop.hi);
	Val v;

	v.kind = V_SCALAR;
	v.r = tile_begin_for(l->f, lo, hi, s->u.loop.step, NULL, 0);
	l->slot[s->u.loop.slot] = v;
	stmts(l, &s->u.loop.body);
	tile_end_for(l->f, NULL);
}

/* The flag group and element index of a semaphore place. */
static int
sem_flag(L *l, const CPlace *p, TRef *idx)
{
	const CScratch *sc = &l->k->scratch[p->ref.index];
	int g = l->refs->scratch_flag[p->ref.index], i;
	int64_t stride = 1;
	TRef sum = TNONE, x;

	*idx = TNONE;
	if (p->ref.kind != CREF_SCRATCH || g < 0)
		bug("mosaic: semaphore place is not a semaphore scratch");
	if (shape_numel(&sc->shape) <= 1)
		return g;
	for (i = p->sl.n - 1; i >= 0; i--) {
		const CIdx *c = &p->sl.dim[i];
		x = c->dyn ? ev_scalar(l, c->dyn) : tile_const_i32(l->f, 0);
		if (c->start && !c->dyn)
			x = tile_const_i32(l->f, c->start);
		if (stride != 1)
			x = tile_binop(l->f, TOP_MUL, x,
			    tile_const_i32(l->f, stride));
		sum = sum == TNONE ? x : tile_binop(l->f, TOP_ADD, sum, x);
		stride *= sc->shape.d[i];
	}
	*idx = sum;
	return g;
}

static void
sync_op(L *l, TOpKind op, TRef *args, int n, int g, TRef idx)
{
	int opi;

	if (idx != TNONE)
		args[n++] = idx;
	tile_emit(l->f, op, args, n, NULL, &opi);
	l->f->op.v[opi].u.flag.flag = g;
	l->f->op.v[opi].u.flag.dyn = idx != TNONE;
}

static TRef
dma_place(L *l, const CPlace *p)
{
	return slice_view(l, ref_of(l, p->ref), &p->sl);
}

static void
dma(L *l, const CStmt *s)
{
	TRef args[3], idx = TNONE;
	int g;

	args[0] = dma_place(l, &s->u.dma.src);
	args[1] = dma_place(l, &s->u.dma.dst);
	if (s->kind == CS_DMA_COPY) {
		if (l->copy_flag < 0)
			l->copy_flag = tile_flag(l->f, "copy", 1);
		g = l->copy_flag;
	} else
		g = sem_flag(l, &s->u.dma.sem, &idx);
	if (s->kind != CS_DMA_WAIT)
		sync_op(l, TOP_DMA_START, args, 2, g, idx);
	if (s->kind != CS_DMA_START)
		sync_op(l, TOP_DMA_WAIT, args + 1, 1, g, idx);
}

static void
sem(L *l, const CStmt *s)
{
	TRef args[2], idx;
	int g;

	args[0] = ev_scalar(l, s->u.sem.count);
	g = sem_flag(l, &s->u.sem.sem, &idx);
	sync_op(l, s->kind == CS_SEM_SIGNAL ? TOP_SEM_SIGNAL : TOP_SEM_WAIT,
	    args, 1, g, idx);
}

static void
stmt(L *l, const CStmt *s)
{
	Loc outer = l->f->loc;

	l->f->loc = s->loc;	/* every op it makes points at this statement */
	l->hoist.n = 0;
	switch (s->kind) {
	case CS_LET:
		let(l, s);
		break;
	case CS_STORE:
		store(l, s);
		break;
	case CS_WHEN:
		when(l, s);
		break;
	case CS_FOR:
		loop(l, s);
		break;
	case CS_DMA_START: case CS_DMA_WAIT: case CS_DMA_COPY:
		dma(l, s);
		break;
	case CS_SEM_SIGNAL: case CS_SEM_WAIT:
		sem(l, s);
		break;
	case CS_EVAL:
		break;		/* no effects: nothing to compute */
	default:
		error(l, s->loc, "this statement belongs to funcs, not "
		    "kernels");
		break;
	}
	l->hoist.n = 0;
	l->f->loc = outer;
}

static void
stmts(L *l, const CBlock *b)
{
	int i;

	for (i = 0; i < b->n && !l->err; i++)
		stmt(l, b->v[i]);
}

int
mosaic_lower_body(TFunc *f, const CKernel *k, const MosaicRefs *refs,
    Diag *d)
{
	L l;

	memset(&l, 0, sizeof l);
	l.f = f;
	l.k = k;
	l.refs = refs;
	l.d = d;
	l.copy_flag = -1;
	l.slot = arena_alloc(f->arena, (k->nslot ? k->nslot : 1) *
	    sizeof *l.slot);
	stmts(&l, &k->body);
	return l.err ? -1 : 0;
}
