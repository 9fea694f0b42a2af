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
 * Files:    lower.h (the shared context), lower_view.c, lower_scalar.c,
 *           lower_chunk.c, lower_ew.c, lower_reduce.c, lower_dot.c,
 *           lower_shape.c; this file: statements, materialise().
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
 *    vector side is a VMEM home accessed one element at a time (rank-1
 *    loads: a lane tile of a [1, n] home at a time, the element's lane
 *    selected).
 *  - A value of a vector that scalar code needs (a condition, an index,
 *    an SMEM store) goes through memory: stored into a one-element VMEM
 *    home, copied by a VMEM->SMEM DMA, loaded (ml_extract).  Scalar f32
 *    arithmetic is done on the VPU and extracted.  A rank-0 Ref in VMEM
 *    is a [1, 1] buffer (the pipeline's), used whole.
 *  - Not lowered (reported as errors): dots of rank-1 or mixed-rank
 *    operands (sema rejects them first), func-only expressions.
 */
#include <string.h>

#include "backend/mosaic/lower.h"

static void stmts(L *l, const CBlock *b);

/*
 * The whole value of e: a scalar, a small SSA vector, or memory (a view
 * of a Ref, or a home holding it).
 */
Val
ml_materialise(L *l, const CExpr *e)
{
	Val v = { V_NONE, TNONE };

	if (l->err)
		return v;
	if (e->shape.rank == 0 && !(e->op >= CX_SUM && e->op <= CX_MEAN)) {
		v.kind = V_SCALAR;
		v.r = ml_ev_scalar(l, e);
		return v;
	}
	switch (e->op) {
	case CX_SLOT:
		return l->slot[e->u.slot];
	case CX_LOAD:
		return ml_mat_load(l, e);
	case CX_DOT:
		return ml_mat_dot(l, e);
	case CX_TRANSPOSE:
		return ml_mat_transpose(l, e);
	case CX_RESHAPE:
		return ml_mat_reshape(l, e);
	case CX_ROLL:
		if (!ml_lane_op_ok(l, e))
			return ml_mat_rollm(l, e);
		break;
	case CX_SUM: case CX_RMAX: case CX_RMIN: case CX_MEAN:
		if (!ml_is_lane_reduce(e))
			return ml_mat_reduce(l, e);
		if (!ml_lane_op_ok(l, e))
			return ml_mat_lane_wide(l, e);
		break;
	case CX_SLICE:
		v = ml_materialise(l, e->arg[0]);
		if (l->err)
			return v;
		v.r = ml_slice_view(l, ml_as_ref(l, v, e->loc), &e->u.sl);
		v.kind = V_REF;
		return v;
	case CX_PARAM: case CX_SOFTMAX: case CX_CALL:
		ml_error(l, e->loc, "this expression belongs to funcs, not "
		    "kernels");
		return v;
	default:
		break;
	}
	if (!mosaic_layout(l->f->preset, e->dtype, &e->shape, TL_NATIVE).home &&
	    !ml_tree_big(l, e)) {
		ml_hoist(l, e, NULL);
		v.kind = V_SSA;
		v.r = ml_ev(l, e, NULL);
		return v;
	}
	v.kind = V_REF;
	v.r = ml_home(l, e->dtype, &e->shape);
	ml_store_expr(l, v.r, e, NCXOP, e->loc);
	return v;
}

Val
ml_ev_val(L *l, const CExpr *e)
{
	CExpr *k;

	if (e->op == CX_LOAD && e->u.load.sl.n == 0)	/* rank-0 in VMEM */
		return (Val){ V_REF, ml_ref_of(l, e->u.load.ref) };
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
		return ml_materialise(l, k);
	}
	if (e->op >= CX_SUM && e->op <= CX_MEAN && e->shape.rank == 0)
		return ml_materialise(l, ml_keepdims(l, e));
	ml_error(l, e->loc, "this scalar expression is not supported");
	return (Val){ V_NONE, TNONE };
}

static void
let(L *l, const CStmt *s)
{
	const CExpr *e = s->u.let.value;
	Val v;

	if (e->shape.rank == 0 && ml_scalar_on_vpu(l, e)) {
		/* kept as a [1, 1] vector (see ml_scalar_on_vpu) */
		Shape one = { 2, { 1, 1 } };
		ml_hoist(l, e, NULL);
		v.kind = V_SSA;
		v.r = ml_ev_arg(l, e, NULL, &one);
	} else if (e->shape.rank == 0) {
		v.kind = V_SCALAR;
		v.r = ml_ev_scalar(l, e);
		ml_range_slot(l, s->u.let.slot, e, NULL);
	} else {
		v = ml_materialise(l, e);
		/* a view of a Ref may change under later stores: copy it */
		if (!l->err && v.kind == V_REF && !ml_is_home(l, v.r))
			v = ml_snapshot(l, v.r, s->loc);
	}
	l->slot[s->u.let.slot] = v;
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
	return ml_slice_view(l, ref, &sl);
}

static void
store(L *l, const CStmt *s)
{
	const CPlace *p = &s->u.store.place;
	const CExpr *e = s->u.store.value;
	CxOp acc = s->u.store.acc;
	TRef ref = ml_ref_of(l, p->ref), dst, a, b;

	if (tile_val(l->f, ref)->mem.space == TS_SMEM) {
		ml_smem_store(l, s, ref);
		return;
	}
	dst = place_view(l, p, ref);
	if (e->op == CX_DOT && (acc == NCXOP || acc == CX_ADD) &&
	    e->dtype == tile_val(l->f, dst)->dtype &&
	    !reads_ref(e->arg[0], p->ref) && !reads_ref(e->arg[1], p->ref)) {
		if (ml_dot_operands(l, e, &a, &b) == 0)
			ml_matmul(l, dst, a, b, e, acc == CX_ADD);
		return;
	}
	l->dst = p;
	ml_store_expr(l, dst, e, acc, s->loc);
	l->dst = NULL;
}

static void
when(L *l, const CStmt *s)
{
	tile_begin_if(l->f, ml_ev_scalar(l, s->u.when.cond));
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
	TRef lo = ml_ev_scalar(l, s->u.loop.lo);
	TRef hi = ml_ev_scalar(l, s->u.loop.hi);
	Val v;

	v.kind = V_SCALAR;
	ml_range_slot(l, s->u.loop.slot, s->u.loop.lo, s->u.loop.hi);
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
		x = c->dyn ? ml_index(l, &p->sl, i, sc->shape.d[i], sc->name) :
		    tile_const_i32(l->f, 0);
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
	return ml_slice_view(l, ml_ref_of(l, p->ref), &p->sl);
}

static void
dma(L *l, const CStmt *s)
{
	TRef args[3], idx = TNONE;
	int g;

	args[0] = dma_place(l, &s->u.dma.src);
	args[1] = dma_place(l, &s->u.dma.dst);
	if (s->kind == CS_DMA_COPY)
		g = ml_copy_flag(l);
	else
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

	args[0] = ml_ev_scalar(l, s->u.sem.count);
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
	case CS_CHECK:
		ml_check(l, s);
		break;
	default:
		ml_error(l, s->loc, "this statement belongs to funcs, not "
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
	l.xslot = arena_alloc(f->arena, (k->nslot ? k->nslot : 1) *
	    sizeof *l.xslot);
	memset(l.xslot, 0, (k->nslot ? k->nslot : 1) * sizeof *l.xslot);
	l.rng.n = k->nslot;
	l.rng.lo = arena_alloc(f->arena, (k->nslot + 1) * sizeof(int64_t));
	l.rng.hi = arena_alloc(f->arena, (k->nslot + 1) * sizeof(int64_t));
	l.rng.known = arena_alloc(f->arena, (size_t)k->nslot + 1);
	memset(l.rng.known, 0, (size_t)k->nslot + 1);
	stmts(&l, &k->body);
	return l.err ? -1 : 0;
}
