/*
 * pipeline.c - the grid pipeline of a kernel instance in the tile IR: its
 * buffers and sync flags, the prologue (SMEM tables copied in, step 0's
 * input blocks started), the loop nest over the grid (last axis fastest),
 * per step the index maps evaluated from the grid scalars and SMEM table
 * loads, the copies of the plan (plan.c) guarded by run-time compares of
 * block indices, the call into the body's lowering, the write-backs, and
 * the epilogue.
 *
 * Needs:    a checked kernel, its plan (buffer counts), an empty TFunc.
 * Gives:    mosaic_emit_pipeline() (plan.h).
 * Per step, the code does what the plan lists (plan.c has the rules):
 *   nxt = index maps at the next point;  cur = at this point;
 *   inputs:  if (has_next && nxt != cur) start nxt -> other slot (two
 *            slots) ; if (cur != prev) [start (one slot)] wait slot;
 *   body;
 *   outputs: if (!has_next || nxt != cur) { two slots: wait the pending
 *            write-back, mark this one to start, flip } ; one slot:
 *            start the write-back and wait at once;
 *   prev = cur; flip the inputs' slots that changed.
 * A marked write-back starts at the next step, after that step's input
 * copies have started (or in the epilogue): the machine's DMAs share
 * HBM bandwidth in the order they start, and the inputs are needed a
 * step later while the write-back is not waited for until its slot
 * comes round again.  Outputs that read their block back keep the
 * plain order.
 * The per-operand state (slot, pending write-back, previous index) lives
 * in a small SMEM buffer (TB_INTERNAL), so the loops carry no values.
 * Index maps that the compiler can decide are still compared at run time
 * (a few scalar ops per step); the plan shows the decided outcome.
 * A block that may run past the end of its array (a cdiv grid, an
 * element offset near the end) is copied clipped: only its part inside
 * moves, in and out, each copy site choosing among the few static
 * shapes that part can take by comparing min(block, n - start) per
 * dimension at run time (clip_all(), copy_block()); its flags are marked
 * TFlag.clip, so that isel makes every shape raise them equally.
 * Run-time checks (unless MosaicOpts.no_bounds_check): a block index or
 * element offset, or an SMEM table index inside a map, that interval
 * arithmetic over the grid cannot prove in range (a value read from a
 * table is unknown) is compared with its range before any copy uses
 * it: a double-buffered input's map at the next point (its prefetch),
 * every other operand's at this point, inputs' at point 0 in the
 * prologue.  A failure is a TOP_TRAP whose message names the operand,
 * the dimension, the range and, from a small SMEM record the step fills
 * (the grid point, the value), the point and the value.
 * Tests:    tests/golden/tile/, tests/unit/check_pipeline.c (plan),
 *           tests/bounds/run.sh (run-time checks)
 */
#include <string.h>

#include "backend/mosaic/mosaic.h"
#include "backend/mosaic/plan.h"

#define SENTINEL INT32_MIN	/* "no previous block" */

typedef struct Pe {
	TFunc *f;
	const CKernel *k;
	const MosaicPlan *p;
	Diag *d;
	int *blk, *hbm, *flag;	/* per operand: buffer, HBM buffer, flags */
	TRef *blkref, *hbmref;
	int tflag;
	TRef st;		/* the SMEM state buffer */
	int *soff;		/* per operand: first state word */
	int checks;		/* emit run-time checks of the maps */
	TRef rec;		/* the check record: the point (words 0 ..
				   naxis), the next point (naxis .. 2 naxis),
				   the value (2 naxis); TNONE without checks */
	int at;			/* the point the maps are evaluated at:
				   REC_CUR, REC_NXT or REC_ZERO */
	int tcheck;		/* 1: check the table indices (and divisors)
				   of the maps being emitted */
	int cur;		/* the operand whose map is being emitted */
	struct Clip **clip;	/* per windowed operand (clip_all()) */
	int bad;
} Pe;

enum { REC_CUR, REC_NXT, REC_ZERO };

/* State words of operand i: slot, pending, prev[0 .. rank). */
enum { W_SLOT, W_PEND, W_WB, W_PREV };

static TRef
ci(Pe *P, int64_t v)
{
	return tile_const_i32(P->f, v);
}

/* A view of ref with starts start[d] + dyn[d] (TNONE: none). */
static TRef
view(Pe *P, TRef ref, const int64_t *size, const TRef *dyn,
    const uint8_t *squeeze, int n)
{
	TRef args[1 + SEMA_MAXRANK];
	TIdx *x = arena_alloc(P->f->arena, sizeof *x * (size_t)(n + 1));
	TVal t = *tile_val(P->f, ref);
	int i, na = 1, r = 0, opi;
	TRef res;

	args[0] = ref;
	for (i = 0; i < n; i++) {
		x[i] = (TIdx){ 0, size[i], -1, 1, squeeze && squeeze[i] };
		if (dyn && dyn[i] != TNONE) {
			x[i].dyn = na;
			args[na++] = dyn[i];
			t.mem.dyn = 1;
		}
		if (x[i].squeeze)
			continue;
		t.shape.d[r] = size[i];
		t.mem.stride[r++] = t.mem.stride[i];
	}
	t.shape.rank = r;
	res = tile_emit(P->f, TOP_VIEW, args, na, &t, &opi);
	P->f->op.v[opi].u.idx.n = n;
	P->f->op.v[opi].u.idx.d = x;
	return res;
}

/* Scalar load/store of an SMEM ref at indices (static start + dyn). */
static TRef
smem_access(Pe *P, TOpKind op, TRef ref, TRef val, const int64_t *start,
    const TRef *dyn, int n)
{
	TRef args[2 + SEMA_MAXRANK];
	TIdx *x = arena_alloc(P->f->arena, sizeof *x * (size_t)(n + 1));
	DType dt = tile_val(P->f, ref)->dtype;
	TVal t = tile_scalar_type(dt == DT_I8 ? DT_I32 : dt);	/* i8: the
				   word's low byte, sign-extended by isel */
	int i, na = 1, opi;
	TRef res;

	args[0] = ref;
	if (op == TOP_SSTORE)
		args[na++] = val;
	for (i = 0; i < n; i++) {
		x[i] = (TIdx){ start[i], 1, -1, 1, 1 };
		if (dyn && dyn[i] != TNONE) {
			x[i].dyn = na;
			args[na++] = dyn[i];
		}
	}
	res = tile_emit(P->f, op, args, na, op == TOP_SLOAD ? &t : NULL,
	    &opi);
	P->f->op.v[opi].u.idx.n = n;
	P->f->op.v[opi].u.idx.d = x;
	return res;
}

static TRef
state_get(Pe *P, int i, int w)
{
	int64_t at = P->soff[i] + w;

	return smem_access(P, TOP_SLOAD, P->st, TNONE, &at, NULL, 1);
}

static void
state_set(Pe *P, int i, int w, TRef v)
{
	int64_t at = P->soff[i] + w;

	smem_access(P, TOP_SSTORE, P->st, v, &at, NULL, 1);
}

static void
sync_op(Pe *P, TOpKind op, TRef a, TRef b, int flag, TRef idx)
{
	TRef args[3];
	int n = 0, opi;

	args[n++] = a;
	if (b != TNONE)
		args[n++] = b;
	args[n++] = idx;
	tile_emit(P->f, op, args, n, NULL, &opi);
	P->f->op.v[opi].u.flag.flag = flag;
	P->f->op.v[opi].u.flag.dyn = 1;
}

/* ------------------------------------------------------ clipped blocks */

/*
 * The parts of operand i's blocks inside its array.  A block may run
 * past the end (a dimension the block does not divide, an element offset
 * near the end): interpret mode pads it with poison and drops the writes
 * there, so a copy moves only the part inside, rows [0, e) of the block
 * on each dimension.  Per dimension the extents e a copy may have, one
 * (the block's) where every block fits; a copy takes one extent per
 * dimension, chosen at run time from the block's start (min(b, n -
 * start)), so its shapes are the product of the counts, each a static
 * copy (the descriptors isel builds).  lo, hi: the range of the index
 * map's values (checked at run time unless range() proves it).
 */
#define MAXWIN 16	/* extents of one dimension */
#define MAXSHAPE 16	/* shapes of one operand's copies */

typedef struct Clip {
	int nwin[SEMA_MAXRANK];
	int64_t e[SEMA_MAXRANK][MAXWIN];
	int64_t lo[SEMA_MAXRANK], hi[SEMA_MAXRANK];
	uint8_t soft[SEMA_MAXRANK];	/* extents of offsets the plan does
					   not know: may be given up (fit()) */
	int nshape;		/* the product of nwin */
	int clipped;		/* some extent is not the block's */
} Clip;

/* Adds the extent of a block starting at s (of b, in an array of n) to
   dimension d; -1 when d has MAXWIN already. */
static int
add_win(Clip *c, int d, int64_t s, int64_t b, int64_t n)
{
	int64_t e = n - s < b ? n - s : b;
	int w;

	for (w = 0; w < c->nwin[d]; w++)
		if (c->e[d][w] == e)
			return 0;
	if (w == MAXWIN)
		return -1;
	c->e[d][c->nwin[d]++] = e;
	return 0;
}

/* The extents of element offsets the plan knows at every step: 0, 1
   (some step unknown, or no enumerated plan), -1 (too many). */
static int
plan_starts(Pe *P, int i, int d, Clip *c, int64_t b, int64_t n)
{
	int64_t s;

	if (!P->p->enumerated)
		return 1;
	for (s = 0; s < P->p->nstep; s++)
		if (!(plan_cell(P->p, s, i)->known & 1u << d))
			return 1;
	for (s = 0; s < P->p->nstep; s++)
		if (add_win(c, d, plan_cell(P->p, s, i)->idx[d], b, n))
			return -1;
	return 0;
}

/* The extents of element offsets in [lo, hi] (those in [0, n)). */
static int
range_starts(Clip *c, int d, int64_t lo, int64_t hi, int64_t b, int64_t n)
{
	int64_t s;

	lo = lo < 0 ? 0 : lo;
	hi = hi > n - 1 ? n - 1 : hi;
	if (lo <= hi && lo < n - b && add_win(c, d, lo, b, n))
		return -1;
	for (s = lo > n - b ? lo : n - b; s <= hi; s++)
		if (add_win(c, d, s, b, n))
			return -1;
	return 0;
}

/* One extent, the block's at offset 0: offsets keep the block inside
   the array, as the run-time check makes sure. */
static int
whole(Clip *c, int d, int64_t b, int64_t n)
{
	c->nwin[d] = 0;
	c->soft[d] = 0;
	c->lo[d] = 0;
	c->hi[d] = n > b ? n - b : 0;
	return add_win(c, d, 0, b, n);
}

/*
 * Dimension d of operand i: block indices reach the last, partial block
 * (cdiv grids); element offsets take the extents of their values, known
 * from the plan (too many is an error), else of every value range() or
 * the array allows: then at most MAXWIN, or whole() (the block must
 * fit, as checked at run time).  -1 after an error.
 */
static int
clip_dim(Pe *P, int i, int d, Clip *c)
{
	const COperand *o = &P->k->op[i];
	int64_t n = o->shape.d[d], b = o->block.d[d], lo, hi, nb;
	int r;

	if (!o->element) {
		nb = (n + b - 1) / b;
		c->lo[d] = 0;
		c->hi[d] = nb - 1;
		add_win(c, d, 0, b, n);
		return add_win(c, d, (nb - 1) * b, b, n);
	}
	c->lo[d] = 0;
	c->hi[d] = n - 1;
	if (!o->map || !o->map[d])
		return add_win(c, d, 0, b, n);
	if ((r = plan_starts(P, i, d, c, b, n)) == 0)
		return 0;
	if (r > 0) {
		c->soft[d] = 1;
		if (!mosaic_range(P->k, NULL, o->map[d], &lo, &hi)) {
			lo = 0;
			hi = n - 1;
		}
		return range_starts(c, d, lo, hi, b, n) ? whole(c, d, b, n) :
		    0;
	}
	diag_error(P->d, o->map[d]->loc, "not supported by the compiled "
	    "path yet: the blocks of '%s' meet the end of dimension %d "
	    "(%lld elements) in more than %d ways", o->name, d,
	    (long long)n, MAXWIN);
	diag_note(P->d, mosaic_file_loc(o->map[d]->loc), "%s",
	    MOSAIC_NOT_YET_HINT);
	return -1;
}

/* The shapes of c's copies, giving up the extents of unknown offsets
   (the last dimensions first) until they are at most MAXSHAPE. */
static int
fit(const COperand *o, Clip *c)
{
	int d, n;

	for (;;) {
		for (n = 1, d = 0; d < o->shape.rank; d++)
			n *= c->nwin[d];
		for (d = o->shape.rank - 1; d >= 0 && !c->soft[d]; d--)
			;
		if (n <= MAXSHAPE || d < 0)
			break;
		whole(c, d, o->block.d[d], o->shape.d[d]);
	}
	c->nshape = n;
	for (d = 0; d < o->shape.rank; d++)
		c->clipped |= c->nwin[d] > 1 || c->e[d][0] != o->block.d[d];
	return n;
}

/* The clips of the windowed operands; -1 after an error. */
static int
clip_all(Pe *P)
{
	const CKernel *k = P->k;
	const COperand *o;
	int i, d, bad = 0;
	Clip *c;

	P->clip = arena_alloc(P->f->arena, sizeof *P->clip *
	    (size_t)(k->nop + 1));
	for (i = 0; i < k->nop; i++) {
		P->clip[i] = NULL;
		if (!P->p->op[i].windowed)
			continue;
		o = &k->op[i];
		c = P->clip[i] = arena_alloc(P->f->arena, sizeof *c);
		memset(c, 0, sizeof *c);
		for (d = 0; d < o->shape.rank; d++)
			if (clip_dim(P, i, d, c))
				break;
		if (d < o->shape.rank) {
			bad = 1;
			continue;
		}
		if (fit(o, c) <= MAXSHAPE)
			continue;
		diag_error(P->d, o->loc, "not supported by the compiled path "
		    "yet: the blocks of '%s' meet the ends of its array in %d "
		    "shapes (at most %d)", o->name, c->nshape, MAXSHAPE);
		diag_note(P->d, mosaic_file_loc(o->loc), "%s",
		    MOSAIC_NOT_YET_HINT);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * SMEM tables are copied whole into SMEM words; a bf16 one would need
 * widening on the way (the DMA copies 32-bit and 8-bit elements only):
 * refused at the operand.  -1 after an error.
 */
static int
tables_ok(Pe *P)
{
	int i, bad = 0;

	for (i = 0; i < P->k->nop; i++) {
		const COperand *o = &P->k->op[i];
		if (o->mem != MEM_SMEM || o->dtype != DT_BF16)
			continue;
		diag_error(P->d, o->loc, "not supported by the compiled path "
		    "yet: a bf16 operand in SMEM ('%s'; use f32) (kernel '%s')",
		    o->name, P->k->name);
		diag_note(P->d, mosaic_file_loc(o->loc), "%s",
		    MOSAIC_NOT_YET_HINT);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* ------------------------------------------------------ run-time checks */

/* 1 if e needs a run-time check to lie in [lo, hi]. */
static int
unproved(const Pe *P, const CExpr *e, int64_t lo, int64_t hi)
{
	int64_t a, b;

	return P->checks && !(mosaic_range(P->k, NULL, e, &a, &b) && a >= lo &&
	    b <= hi);
}

/* "(h=%0, i=%1)": the grid point of the record, or point 0. */
static const char *
point_text(Pe *P)
{
	const CKernel *k = P->k;
	Buf b = { 0 };
	const char *s;
	int a;

	buf_putc(&b, '(');
	for (a = 0; a < k->naxis; a++) {
		buf_printf(&b, "%s%s=", a ? ", " : "", k->axis[a].name);
		if (P->at == REC_ZERO)
			buf_putc(&b, '0');
		else
			buf_printf(&b, "%%%d", (P->at == REC_NXT ? k->naxis :
			    0) + a);
	}
	buf_putc(&b, ')');
	s = arena_printf(P->f->arena, "%s", b.p);
	buf_free(&b);
	return s;
}

/*
 * Stops the program when bad holds: "at grid point P " and msg, which
 * reads the value v from the record's last word (%N), the ops located
 * at loc.
 */
static void
stop(Pe *P, TRef bad, TRef v, const char *msg, Loc loc)
{
	Loc save = P->f->loc;
	int64_t vw = 2 * P->k->naxis;
	TRef args[2];
	int opi;

	P->f->loc = loc;
	args[0] = bad;
	args[1] = P->rec;
	smem_access(P, TOP_SSTORE, P->rec, v, &vw, NULL, 1);
	tile_emit(P->f, TOP_TRAP, args, 2, NULL, &opi);
	P->f->op.v[opi].name = arena_printf(P->f->arena, "at grid point %s "
	    "%s", point_text(P), msg);
	P->f->loc = save;
}

/* Stops the program unless lo <= v <= hi: "the WHAT V OF is outside
   [lo, hi + 1)". */
static void
check(Pe *P, TRef v, int64_t lo, int64_t hi, const char *what,
    const char *of, Loc loc)
{
	Loc save = P->f->loc;
	TRef bad;

	P->f->loc = loc;
	bad = tile_binop(P->f, TOP_OR, tile_cmp(P->f, TC_LT, v, ci(P, lo)),
	    tile_cmp(P->f, TC_GT, v, ci(P, hi)));
	P->f->loc = save;
	stop(P, bad, v, arena_printf(P->f->arena, "the %s %%%d %s is outside "
	    "[%lld, %lld)", what, (int)(2 * P->k->naxis), of, (long long)lo,
	    (long long)hi + 1), loc);
}

/* 1 if the divisor of e (a division) may be 0. */
static int
divisor_unproved(const Pe *P, const CExpr *e)
{
	return P->checks && !mosaic_nonzero(P->k, NULL, e->arg[1]);
}

/* Stops the program when the divisor v of the map e (e->arg[1]) is 0,
   unless interval arithmetic proves it nonzero. */
static void
check_divisor(Pe *P, const CExpr *e, TRef v)
{
	Loc save = P->f->loc;
	TRef bad;

	if (!divisor_unproved(P, e))
		return;
	P->f->loc = e->loc;
	bad = tile_cmp(P->f, TC_EQ, v, ci(P, 0));
	P->f->loc = save;
	stop(P, bad, v, arena_printf(P->f->arena, "the index map of '%s' "
	    "divides by zero", P->k->op[P->cur].name), e->loc);
}

/* 1 if an SMEM table read in e has an index to check, or a division in
   e a divisor. */
static int
table_unproved(const Pe *P, const CExpr *e)
{
	const CSlice *sl;
	int d, i;

	if ((e->op == CX_DIV || e->op == CX_MOD) && divisor_unproved(P, e))
		return 1;

	if (e->op == CX_LOAD) {
		sl = &e->u.load.sl;
		for (d = 0; d < sl->n; d++)
			if (sl->dim[d].dyn && (table_unproved(P,
			    sl->dim[d].dyn) || unproved(P, sl->dim[d].dyn,
			    -sl->dim[d].start, P->k->op[e->u.load.ref.index]
			    .shape.d[d] - 1 - sl->dim[d].start)))
				return 1;
		return 0;
	}
	for (i = 0; i < e->n; i++)
		if (e->arg[i] && table_unproved(P, e->arg[i]))
			return 1;
	return 0;
}

/* The range of operand i's index on dimension d (clip_dim()). */
static void
index_range(const Pe *P, int i, int d, int64_t *lo, int64_t *hi)
{
	const struct Clip *c = P->clip[i];

	*lo = c ? c->lo[d] : 0;
	*hi = c ? c->hi[d] : 0;
}

/* 1 if operand i's map needs a run-time check (sema checks the maps it
   can evaluate at every point; range() has to prove the others). */
static int
map_unproved(const Pe *P, int i)
{
	const COperand *o = &P->k->op[i];
	int64_t lo, hi;
	int d;

	if (!P->checks || !o->runtime_check || !o->map)
		return 0;
	for (d = 0; d < o->shape.rank; d++) {
		if (!o->map[d])
			continue;
		index_range(P, i, d, &lo, &hi);
		if (unproved(P, o->map[d], lo, hi) ||
		    table_unproved(P, o->map[d]))
			return 1;
	}
	return 0;
}

/* 1 if operand i's map is checked at the next point (its prefetch). */
static int
checked_next(const Pe *P, int i)
{
	return P->k->op[i].role == ROLE_IN && P->p->op[i].nbuf == 2;
}

/* Stores the grid point and the next one into the record, when a check
   of this step reports them. */
static void
rec_point(Pe *P, const TRef *axis, const TRef *nxt)
{
	int a, i, n = P->k->naxis, cur = 0, next = 0;

	if (P->rec == TNONE)
		return;
	for (i = 0; i < P->k->nop; i++)
		if (P->p->op[i].windowed && map_unproved(P, i)) {
			cur |= !checked_next(P, i);
			next |= checked_next(P, i);
		}
	for (a = 0; a < n; a++) {
		int64_t w = a, x = n + a;
		if (cur)
			smem_access(P, TOP_SSTORE, P->rec, axis[a], &w, NULL,
			    1);
		if (next)
			smem_access(P, TOP_SSTORE, P->rec, nxt[a], &x, NULL,
			    1);
	}
}

/* 1 if index maps a and b compute the same value (structurally). */
static int
same_map(const CExpr *a, const CExpr *b)
{
	int i;

	if (!a || !b)
		return a == b;
	if (a->op != b->op || a->n != b->n || a->dtype != b->dtype)
		return 0;
	switch (a->op) {
	case CX_CONST:
		return a->u.cst.i == b->u.cst.i;
	case CX_AXIS: case CX_NPROG:
		return a->u.axis == b->u.axis;
	case CX_LOAD:
		if (a->u.load.ref.index != b->u.load.ref.index ||
		    a->u.load.ref.kind != b->u.load.ref.kind ||
		    a->u.load.sl.n != b->u.load.sl.n)
			return 0;
		for (i = 0; i < a->u.load.sl.n; i++)
			if (a->u.load.sl.dim[i].start !=
			    b->u.load.sl.dim[i].start ||
			    !same_map(a->u.load.sl.dim[i].dyn,
			    b->u.load.sl.dim[i].dyn))
				return 0;
		break;
	default:
		break;
	}
	for (i = 0; i < a->n; i++)
		if (!same_map(a->arg[i], b->arg[i]))
			return 0;
	return 1;
}

/* 1 if an operand before i checks the same index as i's dim d at the
   same point against the same range (Splash's k and v): one check. */
static int
checked_before(const Pe *P, int i, int d)
{
	const COperand *o = &P->k->op[i], *q;
	int64_t lo, hi, l2, h2;
	int j;

	index_range(P, i, d, &lo, &hi);
	for (j = 0; j < i; j++) {
		q = &P->k->op[j];
		if (!P->p->op[j].windowed || !map_unproved(P, j) ||
		    checked_next(P, j) != checked_next(P, i) ||
		    q->role != o->role ||
		    q->shape.rank <= d || !q->map || q->element != o->element)
			continue;
		index_range(P, j, d, &l2, &h2);
		if (l2 == lo && h2 == hi && same_map(q->map[d], o->map[d]))
			return 1;
	}
	return 0;
}

/* Checks operand i's indices idx (at P->at) where range() cannot. */
static void
check_indices(Pe *P, int i, const TRef *idx)
{
	const COperand *o = &P->k->op[i];
	int64_t lo, hi;
	int d;

	if (!map_unproved(P, i))
		return;
	for (d = 0; d < o->shape.rank; d++) {
		if (!o->map[d] || checked_before(P, i, d))
			continue;
		index_range(P, i, d, &lo, &hi);
		if (unproved(P, o->map[d], lo, hi))
			check(P, idx[d], lo, hi, o->element ? "element offset" :
			    "block index", arena_printf(P->f->arena,
			    "of '%s' dim %d", o->name, d), o->map[d]->loc);
	}
}

/* ------------------------------------------------------ index maps */

static TRef emit_map(Pe *P, const CExpr *e, const TRef *axis);

static TRef
map_load(Pe *P, const CExpr *e, const TRef *axis)
{
	const CSlice *sl = &e->u.load.sl;
	int64_t start[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	int d, op = e->u.load.ref.index;

	for (d = 0; d < sl->n; d++) {
		const COperand *t = &P->k->op[op];
		start[d] = sl->dim[d].start;
		dyn[d] = sl->dim[d].dyn ? emit_map(P, sl->dim[d].dyn, axis) :
		    TNONE;
		if (P->tcheck && dyn[d] != TNONE && unproved(P, sl->dim[d].dyn,
		    -start[d], t->shape.d[d] - 1 - start[d]))
			check(P, start[d] ? tile_binop(P->f, TOP_ADD, dyn[d],
			    ci(P, start[d])) : dyn[d], 0, t->shape.d[d] - 1,
			    "index", arena_printf(P->f->arena, "of SMEM table "
			    "'%s' dim %d", t->name, d), e->loc);
	}
	return smem_access(P, TOP_SLOAD, P->blkref[op], TNONE, start, dyn,
	    sl->n);
}

static int
binop_of(CxOp op, TOpKind *t)
{
	static const struct { CxOp c; TOpKind t; } m[] = {
		{ CX_ADD, TOP_ADD }, { CX_SUB, TOP_SUB }, { CX_MUL, TOP_MUL },
		{ CX_DIV, TOP_DIV }, { CX_MOD, TOP_REM }, { CX_MAX, TOP_MAX },
		{ CX_MIN, TOP_MIN }, { CX_SHL, TOP_SHL }, { CX_SHR, TOP_SHR },
		{ CX_BITAND, TOP_AND }, { CX_BITOR, TOP_OR },
		{ CX_BITXOR, TOP_XOR }, { CX_AND, TOP_AND }, { CX_OR, TOP_OR },
	};
	size_t i;

	for (i = 0; i < countof(m); i++)
		if (m[i].c == op) {
			*t = m[i].t;
			return 1;
		}
	return 0;
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

/*
 * A cast in an index map, as sema_eval_int() computes it: every integer
 * is an i32 (an i8 table entry sign-extended), a cast to i8 saturates
 * (as in bodies), one to bool compares with 0, a bool becomes 0 or 1.
 */
static TRef
map_cast(Pe *P, const CExpr *e, TRef v)
{
	TRef args[3];
	TVal ty = tile_scalar_type(DT_I32);

	if (tile_val(P->f, v)->dtype == DT_BOOL) {
		if (e->dtype == DT_BOOL)
			return v;
		args[0] = v;
		args[1] = ci(P, 1);
		args[2] = ci(P, 0);
		return tile_emit(P->f, TOP_SELECT, args, 3, &ty, NULL);
	}
	if (e->dtype == DT_BOOL)
		return tile_cmp(P->f, TC_NE, v, ci(P, 0));
	if (e->dtype != DT_I8)
		return v;
	return tile_binop(P->f, TOP_MIN, tile_binop(P->f, TOP_MAX, v,
	    ci(P, -128)), ci(P, 127));
}

/* An index-map expression as i32 (or bool) scalars. */
static TRef
emit_map(Pe *P, const CExpr *e, const TRef *axis)
{
	TOpKind t;
	TCmp c;
	TRef args[3];
	TVal ty;

	switch (e->op) {
	case CX_CONST:
		return e->dtype == DT_BOOL ? tile_const_bool(P->f,
		    e->u.cst.i != 0) : ci(P, e->u.cst.i);
	case CX_AXIS: return axis[e->u.axis];
	case CX_NPROG: return ci(P, P->k->axis[e->u.axis].extent);
	case CX_LOAD: return map_load(P, e, axis);
	case CX_CAST: return map_cast(P, e, emit_map(P, e->arg[0], axis));
	case CX_NEG: return tile_unop(P->f, TOP_NEG, emit_map(P, e->arg[0],
	    axis));
	case CX_NOT: return tile_unop(P->f, TOP_NOT, emit_map(P, e->arg[0],
	    axis));
	case CX_SELECT:
		args[0] = emit_map(P, e->arg[0], axis);
		args[1] = emit_map(P, e->arg[1], axis);
		args[2] = emit_map(P, e->arg[2], axis);
		ty = *tile_val(P->f, args[1]);
		return tile_emit(P->f, TOP_SELECT, args, 3, &ty, NULL);
	default:
		break;
	}
	if (binop_of(e->op, &t)) {
		args[0] = emit_map(P, e->arg[0], axis);
		args[1] = emit_map(P, e->arg[1], axis);
		if ((t == TOP_DIV || t == TOP_REM) && P->tcheck)
			check_divisor(P, e, args[1]);
		return tile_binop(P->f, t, args[0], args[1]);
	}
	if (cmp_of(e->op, &c))
		return tile_cmp(P->f, c, emit_map(P, e->arg[0], axis),
		    emit_map(P, e->arg[1], axis));
	if (!P->bad)
		diag_error(P->d, e->loc, "the pipeline cannot evaluate '%s' "
		    "in an index map", cx_op_name(e->op));
	P->bad = 1;
	return ci(P, 0);
}

/* Operand i's index map at the point axis into idx[]. */
static void
indices(Pe *P, int i, const TRef *axis, TRef *idx)
{
	const COperand *o = &P->k->op[i];
	int d;

	P->cur = i;
	for (d = 0; d < o->shape.rank; d++)
		idx[d] = o->map && o->map[d] ? emit_map(P, o->map[d], axis) :
		    ci(P, 0);
}

/* a != b on any dimension (bool). */
static TRef
differs(Pe *P, int rank, const TRef *a, const TRef *b)
{
	TRef r = tile_const_bool(P->f, 0);
	int d;

	for (d = 0; d < rank; d++)
		r = tile_binop(P->f, TOP_OR, r, tile_cmp(P->f, TC_NE, a[d],
		    b[d]));
	return r;
}

/* The HBM view of operand i's block at index idx. */
static TRef
hbm_block(Pe *P, int i, const TRef *idx)
{
	const COperand *o = &P->k->op[i];
	TRef st[SEMA_MAXRANK];
	int d;

	for (d = 0; d < o->shape.rank; d++)
		st[d] = o->element ? idx[d] : tile_binop(P->f, TOP_MUL,
		    idx[d], ci(P, o->block.d[d]));
	return view(P, P->hbmref[i], o->block.d, st, NULL, o->shape.rank);
}

static TRef
slot_ref(Pe *P, int i, TRef slot)
{
	TRef args[2] = { P->blkref[i], slot };
	TVal t = *tile_val(P->f, P->blkref[i]);

	if (P->p->op[i].nbuf == 1)
		return P->blkref[i];
	return tile_emit(P->f, TOP_SLOT, args, 2, &t, NULL);
}

/*
 * Starts the copy of operand i's block at index idx between its HBM
 * array and slot (a ref of its block buffer; TNONE: slot fidx, its ref
 * made after the HBM view), to HBM when out, raising flag element fidx.
 * A block that may run past the array (clip_all()) copies only its part
 * inside: one copy per shape, each under the compare of its extents
 * with min(b, n - start).
 */
static void
copy_block(Pe *P, int i, const TRef *idx, TRef slot, TRef fidx, int out)
{
	const COperand *o = &P->k->op[i];
	const Clip *c = P->clip[i];
	int r = o->shape.rank, d, s, q, w;
	TRef st[SEMA_MAXRANK], end[SEMA_MAXRANK], hbm, blk, cond, h;
	int64_t n[SEMA_MAXRANK];

	if (!c || !c->clipped) {
		hbm = hbm_block(P, i, idx);
		if (slot == TNONE)
			slot = slot_ref(P, i, fidx);
		sync_op(P, TOP_DMA_START, out ? slot : hbm, out ? hbm : slot,
		    P->flag[i], fidx);
		return;
	}
	if (slot == TNONE)
		slot = slot_ref(P, i, fidx);
	for (d = 0; d < r; d++) {
		st[d] = o->element ? idx[d] : tile_binop(P->f, TOP_MUL,
		    idx[d], ci(P, o->block.d[d]));
		end[d] = c->nwin[d] < 2 ? TNONE : tile_binop(P->f, TOP_MIN,
		    ci(P, o->block.d[d]), tile_binop(P->f, TOP_SUB,
		    ci(P, o->shape.d[d]), st[d]));
	}
	for (s = 0; s < c->nshape; s++) {
		cond = TNONE;
		for (q = s, d = r - 1; d >= 0; d--) {
			w = q % c->nwin[d];
			q /= c->nwin[d];
			n[d] = c->e[d][w];
			if (end[d] == TNONE)
				continue;
			h = tile_cmp(P->f, TC_EQ, end[d], ci(P, n[d]));
			cond = cond == TNONE ? h : tile_binop(P->f, TOP_AND,
			    cond, h);
		}
		if (cond != TNONE)
			tile_begin_if(P->f, cond);
		hbm = view(P, P->hbmref[i], n, st, NULL, r);
		blk = view(P, slot, n, NULL, NULL, r);
		sync_op(P, TOP_DMA_START, out ? blk : hbm, out ? hbm : blk,
		    P->flag[i], fidx);
		if (cond != TNONE)
			tile_end_if(P->f);
	}
}

/* ------------------------------------------------------ buffers */

static TSpace
space(MemSpace m)
{
	return m == MEM_SMEM ? TS_SMEM : m == MEM_ANY ? TS_HBM : TS_VMEM;
}

/* The buffer shape of a block or scratch s in m: a rank-0 one in VMEM
   is a [1, 1] matrix (one element of a tile; vectors have rank 1 up),
   which the body sees whole. */
static const Shape *
buf_shape(MemSpace m, const Shape *s)
{
	static const Shape one = { 2, { 1, 1 } };

	return s->rank == 0 && space(m) == TS_VMEM ? &one : s;
}

static void
buffers(Pe *P, MosaicRefs *refs)
{
	const CKernel *k = P->k;
	int i, words = 0;
	Shape sh = { 1, { 0 } };

	for (i = 0; i < k->nop; i++) {
		const COperand *o = &k->op[i];
		const PlanOp *po = &P->p->op[i];
		P->hbm[i] = tile_buffer(P->f, o->name, TB_HBM, TS_HBM,
		    o->dtype, &o->shape, 1, i);
		P->hbmref[i] = tile_buf_ref(P->f, P->hbm[i]);
		refs->operand[i] = P->hbmref[i];
		P->blk[i] = P->flag[i] = -1;
		if (o->role == ROLE_SMEM_TABLE)
			P->blk[i] = tile_buffer(P->f, o->name, TB_SMEM_TABLE,
			    TS_SMEM, o->dtype, &o->shape, 1, i);
		else if (po->windowed)
			P->blk[i] = tile_buffer(P->f, o->name, TB_BLOCK,
			    space(o->mem), o->dtype, buf_shape(o->mem,
			    &o->block), po->nbuf, i);
		if (P->blk[i] >= 0)
			P->blkref[i] = tile_buf_ref(P->f, P->blk[i]);
		if (o->role == ROLE_SMEM_TABLE)
			refs->operand[i] = P->blkref[i];
		if (po->windowed) {
			P->flag[i] = tile_flag(P->f, o->name, po->nbuf);
			P->f->flag.v[P->flag[i]].clip = P->clip[i]->clipped;
			P->soff[i] = words;
			words += W_PREV + o->shape.rank;
		}
	}
	P->tflag = P->p->tables ? tile_flag(P->f, "(tables)", 1) : -1;
	for (i = 0; i < k->nscratch; i++) {
		const CScratch *c = &k->scratch[i];
		refs->scratch_flag[i] = -1;
		if (c->dtype == DT_SEM || c->dtype == DT_DMA_SEM) {
			refs->scratch_flag[i] = tile_flag(P->f, c->name,
			    (int)shape_numel(&c->shape));
			continue;
		}
		refs->scratch[i] = tile_buf_ref(P->f, tile_buffer(P->f,
		    c->name, TB_SCRATCH, space(c->mem), c->dtype,
		    buf_shape(c->mem, &c->shape), 1, i));
	}
	sh.d[0] = words ? words : 1;
	P->st = tile_buf_ref(P->f, tile_buffer(P->f, "(pipeline state)",
	    TB_INTERNAL, TS_SMEM, DT_I32, &sh, 1, -1));
	P->rec = TNONE;
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && map_unproved(P, i))
			break;
	sh.d[0] = 2 * k->naxis + 1;
	if (i < k->nop)
		P->rec = tile_buf_ref(P->f, tile_buffer(P->f, "(check record)",
		    TB_INTERNAL, TS_SMEM, DT_I32, &sh, 1, -1));
}

/* ------------------------------------------------------ prologue */

static void
prologue(Pe *P, const TRef *zero)
{
	const CKernel *k = P->k;
	TRef idx[SEMA_MAXRANK], z = ci(P, 0);
	int i, d;

	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE)
			sync_op(P, TOP_DMA_START, P->hbmref[i], P->blkref[i],
			    P->tflag, z);
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE)
			sync_op(P, TOP_DMA_WAIT, P->blkref[i], TNONE, P->tflag,
			    z);
	for (i = 0; i < k->nop; i++) {
		if (!P->p->op[i].windowed)
			continue;
		state_set(P, i, W_SLOT, z);
		state_set(P, i, W_PEND, z);
		state_set(P, i, W_WB, z);
		for (d = 0; d < k->op[i].shape.rank; d++)
			state_set(P, i, W_PREV + d, ci(P, SENTINEL));
		if (k->op[i].role != ROLE_IN)
			continue;
		P->at = REC_ZERO;
		P->tcheck = 1;
		indices(P, i, zero, idx);
		check_indices(P, i, idx);
		P->tcheck = 0;
		copy_block(P, i, idx, P->blkref[i], z, 0);
	}
}

/* ------------------------------------------------------ one step */

typedef struct Cur {
	TRef idx[SEMA_MAXRANK], nxt[SEMA_MAXRANK];
	TRef slot, chg, nchg;	/* chg: another block than the previous
				   step's; nchg: the next step's differs */
} Cur;

/* The next grid point and whether there is one. */
static TRef
next_point(Pe *P, const TRef *axis, TRef *nxt)
{
	const CKernel *k = P->k;
	TRef carry = tile_const_bool(P->f, 1), one = ci(P, 1), z = ci(P, 0);
	TRef t, wrap, args[3];
	TVal ty = tile_scalar_type(DT_I32);
	int a;

	for (a = k->naxis - 1; a >= 0; a--) {
		args[0] = carry;
		args[1] = tile_binop(P->f, TOP_ADD, axis[a], one);
		args[2] = axis[a];
		t = tile_emit(P->f, TOP_SELECT, args, 3, &ty, NULL);
		wrap = tile_cmp(P->f, TC_EQ, t, ci(P, k->axis[a].extent));
		args[0] = wrap;
		args[1] = z;
		args[2] = t;
		nxt[a] = tile_emit(P->f, TOP_SELECT, args, 3, &ty, NULL);
		carry = tile_binop(P->f, TOP_AND, carry, wrap);
	}
	return tile_unop(P->f, TOP_NOT, carry);
}

/* Double-buffered inputs: the next step's copy. */
static void
input_next(Pe *P, int i, Cur *c)
{
	TRef one = ci(P, 1);

	if (P->p->op[i].nbuf != 2)
		return;
	tile_begin_if(P->f, c->nchg);
	copy_block(P, i, c->nxt, slot_ref(P, i, tile_binop(P->f, TOP_SUB,
	    one, c->slot)), tile_binop(P->f, TOP_SUB, one, c->slot), 0);
	tile_end_if(P->f);
}

/* 1 if output i's write-backs start a step late (see the header). */
static int
deferred(const Pe *P, int i)
{
	return P->p->op[i].nbuf == 2 && !P->k->op[i].revisit_any;
}

/* The write-back marked by the previous step, if any: the slot it
   filled (not the current one) to the block it computed. */
static void
output_start(Pe *P, int i)
{
	TRef prev[SEMA_MAXRANK], z = ci(P, 0), slot;
	int d;

	if (!deferred(P, i))
		return;
	tile_begin_if(P->f, tile_cmp(P->f, TC_NE, state_get(P, i, W_WB), z));
	for (d = 0; d < P->k->op[i].shape.rank; d++)
		prev[d] = state_get(P, i, W_PREV + d);
	slot = tile_binop(P->f, TOP_SUB, ci(P, 1), state_get(P, i, W_SLOT));
	copy_block(P, i, prev, TNONE, slot, 1);
	state_set(P, i, W_WB, z);
	tile_end_if(P->f);
}

static void
input_pre(Pe *P, int i, Cur *c, TRef first)
{
	if (P->p->op[i].nbuf != 2) {
		tile_begin_if(P->f, tile_binop(P->f, TOP_AND, c->chg,
		    tile_unop(P->f, TOP_NOT, first)));
		copy_block(P, i, c->idx, P->blkref[i], ci(P, 0), 0);
		tile_end_if(P->f);
	}
	tile_begin_if(P->f, c->chg);
	sync_op(P, TOP_DMA_WAIT, slot_ref(P, i, c->slot), TNONE, P->flag[i],
	    c->slot);
	tile_end_if(P->f);
}

/* Revisitable outputs read their block back when they enter one. */
static void
output_pre(Pe *P, int i, Cur *c)
{
	if (!P->k->op[i].revisit_any)
		return;
	tile_begin_if(P->f, c->chg);
	copy_block(P, i, c->idx, P->blkref[i], ci(P, 0), 0);
	sync_op(P, TOP_DMA_WAIT, P->blkref[i], TNONE, P->flag[i], ci(P, 0));
	tile_end_if(P->f);
}

static void
output_post(Pe *P, int i, Cur *c, TRef has_next)
{
	TRef one = ci(P, 1), src, other, wb;

	wb = tile_binop(P->f, TOP_OR, tile_unop(P->f, TOP_NOT, has_next),
	    c->nchg);
	tile_begin_if(P->f, wb);
	src = slot_ref(P, i, c->slot);
	if (!deferred(P, i))
		copy_block(P, i, c->idx, src, c->slot, 1);
	if (P->p->op[i].nbuf == 1) {
		sync_op(P, TOP_DMA_WAIT, src, TNONE, P->flag[i], c->slot);
	} else {
		other = tile_binop(P->f, TOP_SUB, one, c->slot);
		tile_begin_if(P->f, tile_cmp(P->f, TC_NE, state_get(P, i,
		    W_PEND), ci(P, 0)));
		sync_op(P, TOP_DMA_WAIT, slot_ref(P, i, other), TNONE,
		    P->flag[i], other);
		tile_end_if(P->f);
		state_set(P, i, W_PEND, one);
		state_set(P, i, W_SLOT, other);
		if (deferred(P, i))
			state_set(P, i, W_WB, one);
	}
	tile_end_if(P->f);
}

/* After the body: remember the index; inputs flip at a change. */
static void
remember(Pe *P, int i, Cur *c)
{
	int d;

	for (d = 0; d < P->k->op[i].shape.rank; d++)
		state_set(P, i, W_PREV + d, c->idx[d]);
	if (P->k->op[i].role != ROLE_IN || P->p->op[i].nbuf != 2)
		return;
	tile_begin_if(P->f, c->nchg);
	state_set(P, i, W_SLOT, tile_binop(P->f, TOP_SUB, ci(P, 1), c->slot));
	tile_end_if(P->f);
}

static void
current(Pe *P, int i, Cur *c, const TRef *axis, const TRef *nxt,
    TRef has_next)
{
	int r = P->k->op[i].shape.rank, d, next = checked_next(P, i);
	TRef prev[SEMA_MAXRANK];

	P->at = REC_CUR;
	P->tcheck = !next;
	indices(P, i, axis, c->idx);
	P->at = REC_NXT;
	P->tcheck = next;
	indices(P, i, nxt, c->nxt);
	P->tcheck = 0;
	for (d = 0; d < r; d++)
		prev[d] = state_get(P, i, W_PREV + d);
	c->slot = P->p->op[i].nbuf == 2 ? state_get(P, i, W_SLOT) : ci(P, 0);
	c->chg = differs(P, r, c->idx, prev);
	c->nchg = tile_binop(P->f, TOP_AND, has_next, differs(P, r, c->idx,
	    c->nxt));
}

/* The body's view of operand i: the current slot, squeezed (a rank-0
   block in VMEM: the slot's [1, 1]). */
static TRef
body_view(Pe *P, int i, Cur *c)
{
	const COperand *o = &P->k->op[i];

	if (buf_shape(o->mem, &o->block) != &o->block)
		return slot_ref(P, i, c->slot);
	return view(P, slot_ref(P, i, c->slot), o->block.d, NULL,
	    o->squeezed, o->shape.rank);
}

static int
step(Pe *P, MosaicRefs *refs, const TRef *axis, MosaicBodyFn *body,
    void *ctx)
{
	const CKernel *k = P->k;
	Cur *c = arena_alloc(P->f->arena, sizeof *c * (size_t)(k->nop + 1));
	TRef nxt[SEMA_MAXRANK + 1], has_next, first;
	int i, a;

	has_next = next_point(P, axis, nxt);
	rec_point(P, axis, nxt);	/* before the maps' table checks */
	first = tile_const_bool(P->f, 1);
	for (a = 0; a < k->naxis; a++)
		first = tile_binop(P->f, TOP_AND, first, tile_cmp(P->f, TC_EQ,
		    axis[a], ci(P, 0)));
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed)
			current(P, i, &c[i], axis, nxt, has_next);
	/* the checks after every index, so that their loads have landed */
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed) {
			P->at = checked_next(P, i) ? REC_NXT : REC_CUR;
			check_indices(P, i, P->at == REC_NXT ? c[i].nxt :
			    c[i].idx);
		}
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && k->op[i].role == ROLE_IN)
			input_next(P, i, &c[i]);
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && k->op[i].role == ROLE_OUT)
			output_start(P, i);
	for (i = 0; i < k->nop; i++) {
		if (!P->p->op[i].windowed)
			continue;
		if (k->op[i].role == ROLE_IN)
			input_pre(P, i, &c[i], first);
		else
			output_pre(P, i, &c[i]);
		refs->operand[i] = body_view(P, i, &c[i]);
	}
	if (P->bad || body(P->f, k, refs, ctx, P->d))
		return -1;
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed && k->op[i].role == ROLE_OUT)
			output_post(P, i, &c[i], has_next);
	for (i = 0; i < k->nop; i++)
		if (P->p->op[i].windowed)
			remember(P, i, &c[i]);
	return 0;
}

static void
epilogue(Pe *P)
{
	const CKernel *k = P->k;
	TRef other;
	int i;

	for (i = 0; i < k->nop; i++) {
		if (!P->p->op[i].windowed || k->op[i].role != ROLE_OUT ||
		    P->p->op[i].nbuf != 2)
			continue;
		output_start(P, i);
		other = tile_binop(P->f, TOP_SUB, ci(P, 1),
		    state_get(P, i, W_SLOT));
		tile_begin_if(P->f, tile_cmp(P->f, TC_NE, state_get(P, i,
		    W_PEND), ci(P, 0)));
		sync_op(P, TOP_DMA_WAIT, slot_ref(P, i, other), TNONE,
		    P->flag[i], other);
		tile_end_if(P->f);
	}
}

int
mosaic_emit_pipeline(TFunc *f, const CKernel *k, const MosaicPlan *p,
    int checks, MosaicBodyFn *body, void *ctx, Diag *d)
{
	Pe P;
	MosaicRefs refs;
	size_t no = (size_t)k->nop + 1, ns = (size_t)k->nscratch + 1;
	TRef axis[SEMA_MAXRANK + 1], zero[SEMA_MAXRANK + 1];
	int a, rc;

	memset(&P, 0, sizeof P);
	P.f = f;
	P.k = k;
	P.p = p;
	P.d = d;
	P.checks = checks;
	P.blk = arena_alloc(f->arena, sizeof(int) * no);
	P.hbm = arena_alloc(f->arena, sizeof(int) * no);
	P.flag = arena_alloc(f->arena, sizeof(int) * no);
	P.soff = arena_alloc(f->arena, sizeof(int) * no);
	P.blkref = arena_alloc(f->arena, sizeof(TRef) * no);
	P.hbmref = arena_alloc(f->arena, sizeof(TRef) * no);
	refs.operand = arena_alloc(f->arena, sizeof(TRef) * no);
	refs.scratch = arena_alloc(f->arena, sizeof(TRef) * ns);
	refs.scratch_flag = arena_alloc(f->arena, sizeof(int) * ns);
	refs.axis = axis;
	refs.checks = checks;
	if (k->naxis > SEMA_MAXRANK)
		bug("mosaic_emit_pipeline: %d grid axes", k->naxis);
	if (clip_all(&P) || tables_ok(&P))
		return -1;
	buffers(&P, &refs);
	for (a = 0; a < k->naxis; a++)
		zero[a] = ci(&P, 0);
	prologue(&P, zero);
	for (a = 0; a < k->naxis; a++)
		axis[a] = tile_begin_for(f, ci(&P, 0), ci(&P,
		    k->axis[a].extent), 1, NULL, 0);
	rc = step(&P, &refs, axis, body, ctx);
	for (a = 0; a < k->naxis; a++)
		tile_end_for(f, NULL);
	if (rc || P.bad)
		return -1;
	epilogue(&P);
	return 0;
}
