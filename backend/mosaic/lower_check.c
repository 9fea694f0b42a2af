/*
 * lower_check.c - run-time checks of a body's dynamic indices (and of its
 * integer divisors, which must not be 0, as in interpret mode).  A dynamic
 * start that interval arithmetic (range.c) cannot prove inside its
 * dimension, and a start whose alignment only multiple_of promises (the
 * compiled access relies on it), are compared on the scalar unit before
 * the access; a failure stops the program with interpret mode's message
 * (the machine's trap), so an out-of-range index is never a silent read
 * of a neighbouring buffer.  Not emitted with -fno-bounds-check.  The
 * body's check statements trap the same way (ml_check), also with
 * -fno-bounds-check: they are the user's assertions.
 *
 * Needs:    the slot ranges the statements record (ml_range_slot).
 * Gives:    ml_index(), ml_index_of(), ml_divisor(), ml_vdivisor(),
 *           ml_check(), ml_range_slot() (lower.h).
 * Record:   "(index record)", SMEM i32 words: the grid point (one word
 *           per axis), then the start and the end of the failing slice;
 *           the trap's message reads them (%N).
 * Tests:    tests/bounds/run.sh (dyn.pk, check.pk)
 */
#include "backend/mosaic/lower.h"

/* Stores v into word w of the record (a fresh ref of it). */
static void
rec_store(L *l, TRef v, int64_t w)
{
	TIdx idx = { w, 1, -1, 1, 1 };
	TRef ref = tile_buf_ref(l->f, l->recbuf - 1), dyn = TNONE;

	ml_access(l, TOP_SSTORE, ref, v, &idx, &dyn, 1, NULL);
}

/* "(i=%0, j=%1)": the grid point in the record. */
static const char *
point(L *l)
{
	Buf b = {0};
	const char *s;
	int a;

	buf_putc(&b, '(');
	for (a = 0; a < l->k->naxis; a++)
		buf_printf(&b, "%s%s=%%%d", a ? ", " : "",
		    l->k->axis[a].name, a);
	buf_puts(&b, ")");
	s = arena_printf(l->f->arena, "%s", b.p);
	buf_free(&b);
	return s;
}

/* Stops the program when bad holds, with message text, whose %N read
   the record: the grid point, then v and v + size (none if v is
   TNONE). */
static void
trap_text(L *l, TRef bad, TRef v, int64_t size, const char *text)
{
	int64_t n = l->k->naxis;
	TRef args[2];
	Shape sh = { 1, { 0 } };
	int a, opi;

	if (!l->recbuf) {
		sh.d[0] = n + 2;
		l->recbuf = 1 + tile_buffer(l->f, "(index record)",
		    TB_INTERNAL, TS_SMEM, DT_I32, &sh, 1, -1);
	}
	for (a = 0; a < n; a++)
		rec_store(l, l->refs->axis[a], a);
	if (v != TNONE) {
		rec_store(l, v, n);
		rec_store(l, tile_binop(l->f, TOP_ADD, v,
		    tile_const_i32(l->f, size)), n + 1);
	}
	args[0] = bad;
	args[1] = tile_buf_ref(l->f, l->recbuf - 1);
	tile_emit(l->f, TOP_TRAP, args, 2, NULL, &opi);
	l->f->op.v[opi].name = text;
}

/* The same, "at grid point P MSG" (MSG without a grid). */
static void
trap(L *l, TRef bad, TRef v, int64_t size, const char *msg)
{
	trap_text(l, bad, v, size, l->k->naxis ? arena_printf(l->f->arena,
	    "at grid point %s %s", point(l), msg) : msg);
}

static void
bounds(L *l, const CIdx *c, TRef v, int d, int64_t dim, const char *name)
{
	int64_t n = l->k->naxis;
	TRef bad = tile_binop(l->f, TOP_OR,
	    tile_cmp(l->f, TC_LT, v, tile_const_i32(l->f, 0)),
	    tile_cmp(l->f, TC_GT, v, tile_const_i32(l->f, dim - c->size)));

	trap(l, bad, v, c->size, c->squeeze ?
	    arena_printf(l->f->arena, "the index %%%d is out of bounds for "
	    "dimension %d of '%s' (size %lld)", (int)n, d, name,
	    (long long)dim) :
	    arena_printf(l->f->arena, "the slice %%%d:%%%d is out of bounds "
	    "for dimension %d of '%s' (size %lld)", (int)n, (int)n + 1, d,
	    name, (long long)dim));
}

static void
promise(L *l, const CIdx *c, TRef v, int d, const char *name)
{
	int64_t m = c->promised;
	TRef r = (m & (m - 1)) == 0 ?
	    tile_binop(l->f, TOP_AND, v, tile_const_i32(l->f, m - 1)) :
	    tile_binop(l->f, TOP_REM, v, tile_const_i32(l->f, m));

	trap(l, tile_cmp(l->f, TC_NE, r, tile_const_i32(l->f, 0)), v,
	    c->size, arena_printf(l->f->arena, "the start %%%d of dimension "
	    "%d of '%s' is not a multiple of %lld, as multiple_of promised",
	    (int)l->k->naxis, d, name, (long long)m));
}

TRef
ml_index(L *l, const CSlice *sl, int d, int64_t dim, const char *name)
{
	const CIdx *c = &sl->dim[d];
	TRef v = ml_ev_scalar(l, c->dyn);
	Loc save = l->f->loc;
	int64_t lo, hi;

	if (!l->refs->checks || l->err)
		return v;
	l->f->loc = c->dyn->loc;
	if (!(mosaic_range(l->k, &l->rng, c->dyn, &lo, &hi) && lo >= 0 &&
	    hi <= dim - c->size))
		bounds(l, c, v, d, dim, name);
	if (c->promised)
		promise(l, c, v, d, name);
	l->f->loc = save;
	return v;
}

/* Stops the program when the i32 scalar v, the divisor of e (an integer
   / or %), is 0, unless interval arithmetic proves it nonzero. */
void
ml_divisor(L *l, const CExpr *e, TRef v)
{
	Loc save = l->f->loc;

	if (!l->refs->checks || l->err || mosaic_nonzero(l->k, &l->rng,
	    e->arg[1]))
		return;
	l->f->loc = e->loc;
	trap(l, tile_cmp(l->f, TC_EQ, v, tile_const_i32(l->f, 0)), v, 0,
	    "integer division by zero");
	l->f->loc = save;
}

/*
 * The same for a vector divisor v: any element 0 stops the program.  The
 * mask of zeros, as i32, is max-reduced to one element and extracted
 * (ml_extract, a VMEM->SMEM copy waited for: a few hundred cycles per
 * division, where a divisor that is not a nonzero constant is rare).
 */
void
ml_vdivisor(L *l, const CExpr *e, TRef v)
{
	TVal vt = *tile_val(l->f, v);	/* emits move the values */
	TVal mt = ml_vec_type(l, DT_BOOL, &vt.shape, vt.lay.kind);
	TVal it = ml_vec_type(l, DT_I32, &vt.shape, vt.lay.kind);
	TRef a[3], zero, one, any;
	Loc save = l->f->loc;
	int d, opi;

	if (!l->refs->checks || l->err || mosaic_nonzero(l->k, &l->rng,
	    e->arg[1]))
		return;
	l->f->loc = e->loc;
	zero = tile_const_i32(l->f, 0);
	one = tile_const_i32(l->f, 1);
	a[0] = v;
	a[1] = tile_emit(l->f, TOP_SPLAT, &zero, 1, &vt, NULL);
	a[0] = tile_emit(l->f, TOP_CMP, a, 2, &mt, &opi);
	l->f->op.v[opi].u.cmp = TC_EQ;
	a[1] = tile_emit(l->f, TOP_SPLAT, &one, 1, &it, NULL);
	a[2] = tile_emit(l->f, TOP_SPLAT, &zero, 1, &it, NULL);
	any = tile_emit(l->f, TOP_SELECT, a, 3, &it, NULL);
	for (d = vt.shape.rank - 1; d >= 0; d--)
		if (tile_val(l->f, any)->shape.d[d] > 1)
			any = ml_reduce(l, any, CX_RMAX, d);
	any = ml_extract(l, any);
	trap(l, tile_cmp(l->f, TC_NE, any, zero), zero, 0,
	    "integer division by zero");
	l->f->loc = save;
}

/* s with every % doubled: a trap message reads %N from the record. */
static const char *
literal(L *l, const char *s)
{
	Buf b = {0};
	const char *r;

	for (; *s; s++) {
		if (*s == '%')
			buf_putc(&b, '%');
		buf_putc(&b, *s);
	}
	r = arena_printf(l->f->arena, "%s", b.p ? b.p : "");
	buf_free(&b);
	return r;
}

/*
 * check(cond, "msg"): stops the program unless cond holds, with
 * interpret mode's message (istmt.c), "check failed at grid point
 * (i=1): msg".  The user's assertion, not a bounds check: kept with
 * -fno-bounds-check.
 */
void
ml_check(L *l, const CStmt *s)
{
	TRef c = ml_ev_scalar(l, s->u.check.cond);
	const char *msg = literal(l, s->u.check.msg);

	if (l->err)
		return;
	trap_text(l, tile_unop(l->f, TOP_NOT, c), TNONE, 0, l->k->naxis ?
	    arena_printf(l->f->arena, "check failed at grid point %s: %s",
	    point(l), msg) : arena_printf(l->f->arena, "check failed: %s",
	    msg));
}

TRef
ml_index_of(L *l, TRef ref, const CSlice *sl, int d)
{
	const TVal *t = tile_val(l->f, ref);
	const TBuf *b = &l->f->buf.v[t->mem.buf];

	return ml_index(l, sl, d, t->shape.d[d], b->kind == TB_INTERNAL ?
	    "a value" : b->name);
}

void
ml_range_slot(L *l, int slot, const CExpr *lo, const CExpr *hi)
{
	int64_t a, b, c, e;

	if (slot < 0 || slot >= l->rng.n)
		return;
	l->rng.known[slot] = 0;
	if (!mosaic_range(l->k, &l->rng, lo, &a, &b))
		return;
	if (hi) {	/* a for variable: lo <= v < hi */
		if (!mosaic_range(l->k, &l->rng, hi, &c, &e))
			return;
		b = e - 1 > a ? e - 1 : a;
	}
	l->rng.lo[slot] = a;
	l->rng.hi[slot] = b;
	l->rng.known[slot] = 1;
}
