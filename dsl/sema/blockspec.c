/*
 * blockspec.c - BlockSpecs: block shapes against the preset's tiling
 * rules (the last two dims divisible by (sublanes x packing, lanes) or
 * equal to the array's; the rank-1 rule; squeezed dims), index maps
 * (arity, integer type, allowed names), and the exact evaluation of every
 * map at every grid point, reporting the first out-of-range block as a
 * counterexample.  Maps that read SMEM tables are left to a run-time
 * check (COperand.runtime_check).
 *
 * Gives:    blockspec_shape(), blockspec_map(), blockspec_check_maps(),
 *           sema_map_constant(), sema_block_slots(), sema_slots_of()
 *           (checked.h: the buffer count both the budget and the
 *           backend's plan use).
 * Tests:    tests/diag/sema-block-*.pk, sema-map-*.pk, check_sema.c
 */
#include <string.h>

#include "dsl/sema/sema.h"

static int64_t
down(int64_t x, int64_t m)
{
	return x / m * m;
}

/* "[a, b]" with dimension d replaced by v. */
static const char *
with_dim(Sema *S, const COperand *o, int d, int64_t v)
{
	Shape s = o->block;
	Buf b = {0};
	const char *r;
	int i;

	s.d[d] = v;
	buf_putc(&b, '[');
	for (i = 0; i < s.rank; i++)
		buf_printf(&b, "%s", i ? ", " : ""),
		o->squeezed[i] ? buf_putc(&b, '_') :
		    buf_printf(&b, "%lld", (long long)s.d[i]);
	buf_putc(&b, ']');
	r = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return r;
}

/* One of the last two dims: multiple of unit, or the array's size. */
static void
tile_dim(Sema *S, const COperand *o, int d, int64_t unit, const char *which,
    Loc loc)
{
	int64_t b = o->block.d[d], a = o->shape.d[d], lo = down(b, unit);

	if (o->squeezed[d] || b == a || b % unit == 0)
		return;
	se_error(S, loc, "block dimension %d of '%s' is %lld: the %s "
	    "dimension of a block must be a multiple of %lld on preset '%s', "
	    "or equal the array's %lld", d, o->name, (long long)b, which,
	    (long long)unit, S->mp->name, (long long)a);
	if (lo > 0)
		se_note(S, loc, "use a block of %s or %s", with_dim(S, o, d, lo),
		    with_dim(S, o, d, lo + unit));
	else
		se_note(S, loc, "use a block of %s, or %s (the whole "
		    "dimension)", with_dim(S, o, d, unit), with_dim(S, o, d, a));
	if (o->dtype == DT_BF16 || o->dtype == DT_I8)
		se_note(S, loc, "%s packs %d rows per sublane, so its row tile "
		    "is %d x %d = %lld", dtype_name(o->dtype),
		    dtype_packing(o->dtype), S->mp->sublanes,
		    dtype_packing(o->dtype), (long long)S->mp->sublanes *
		    dtype_packing(o->dtype));
}

static int
pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

static void
tiling(Sema *S, const COperand *o, Loc loc)
{
	int r = o->block.rank;
	int64_t sub = (int64_t)S->mp->sublanes * dtype_packing(o->dtype);
	int64_t lanes = S->mp->lanes, b, min1;

	if (o->mem != MEM_VMEM || r == 0)
		return;
	if (r >= 2) {
		tile_dim(S, o, r - 1, lanes, "last", loc);
		tile_dim(S, o, r - 2, sub, "second-to-last", loc);
		return;
	}
	b = o->block.d[0];
	min1 = lanes * dtype_packing(o->dtype);
	if (o->squeezed[0] || b == o->shape.d[0] ||
	    b % (S->mp->sublanes * lanes) == 0 || (pow2(b) && b >= min1))
		return;
	se_error(S, loc, "the rank-1 block of '%s' is %lld: it must equal the "
	    "array's %lld, be a multiple of %lld, or a power of two >= %lld "
	    "on preset '%s'", o->name, (long long)b, (long long)o->shape.d[0],
	    (long long)S->mp->sublanes * lanes, (long long)min1, S->mp->name);
	se_note(S, loc, "use a block of [%lld] or [%lld]", (long long)min1,
	    (long long)o->shape.d[0]);
}

void
blockspec_shape(Sema *S, CKernel *k, int op, const Ast *sp)
{
	COperand *o = &k->op[op];
	const Ast *sh = sp->u.spec.shape;
	int d, bad = 0;

	if (!sh)
		goto done;
	if (sh->kind != AST_DIMS || sh->u.list.n != o->shape.rank) {
		se_error(S, sh->loc, "the block of '%s' has %d dimension%s but "
		    "'%s' has %d (%s)", o->name, sh->u.list.n,
		    sh->u.list.n == 1 ? "" : "s", o->name, o->shape.rank,
		    type_str(S, o->dtype, &o->shape));
		se_note(S, sh->loc, "write one block size per dimension, or _ "
		    "to squeeze a dimension");
		return;
	}
	for (d = 0; d < o->shape.rank; d++) {
		const Ast *x = sh->u.list.v[d];
		if (x->kind == AST_SQUEEZED) {
			o->squeezed[d] = 1;
			o->block.d[d] = 1;
			continue;
		}
		if (const_size(S, x, arena_printf(S->a, "block dimension %d "
		    "of '%s'", d, o->name), &o->block.d[d]))
			bad = 1;
	}
	if (bad)
		return;
	tiling(S, o, sh->loc);
done:
	o->block_bytes = o->mem == MEM_SMEM ? shape_numel(&o->block) * 4 :
	    shape_tile_bytes(S->mp, o->dtype, &o->block);
}

/* Does index expression e read an SMEM table? */
int
sema_reads_table(const CExpr *e)
{
	int i;

	if (!e)
		return 0;
	if (e->op == CX_LOAD)
		return 1;
	for (i = 0; i < e->n; i++)
		if (sema_reads_table(e->arg[i]))
			return 1;
	return 0;
}

static int
uses_axis(const CKernel *k, const CExpr *e)
{
	int i;

	if (!e)
		return 0;
	if (e->op == CX_AXIS && k->axis[e->u.axis].extent > 1)
		return 1;
	for (i = 0; i < e->n; i++)
		if (uses_axis(k, e->arg[i]))
			return 1;
	return 0;
}

/*
 * Is o's block the same at every step, whatever the tables hold?
 * Exact over grids of up to SEMA_CONST_STEPS points, else structural
 * (no map names an axis of more than one step).
 */
int
sema_map_constant(const CKernel *k, const COperand *o)
{
	int64_t pt[SEMA_MAXRANK + 1] = {0}, first[SEMA_MAXRANK], v;
	int d, at_first = 1;

	if (!o->map)
		return 1;
	for (d = 0; d < o->shape.rank; d++)
		if (sema_reads_table(o->map[d]))
			return 0;
	if (grid_size(k) > SEMA_CONST_STEPS || k->naxis > SEMA_MAXRANK) {
		for (d = 0; d < o->shape.rank; d++)
			if (uses_axis(k, o->map[d]))
				return 0;
		return 1;
	}
	do {
		for (d = 0; d < o->shape.rank; d++) {
			v = 0;
			if (o->map[d] && sema_eval_int(k, o->map[d], pt, NULL,
			    NULL, NULL, &v))
				return 0;
			if (at_first)
				first[d] = v;
			else if (v != first[d])
				return 0;
		}
		at_first = 0;
	} while (grid_next(k, pt));
	return 1;
}

int
sema_slots_of(const COperand *o, int constant)
{
	return o->buffers == 1 || constant ? 1 : 2;
}

int
sema_block_slots(const CKernel *k, const COperand *o)
{
	return sema_slots_of(o, o->buffers == 1 || sema_map_constant(k, o));
}

void
blockspec_map(Sema *S, CKernel *k, int op, const Ast *map)
{
	COperand *o = &k->op[op];
	Ctx save = S->ctx;
	int d;

	o->element = map->kind == AST_ELEMENT_MAP;
	if (map->u.list.n != o->shape.rank) {
		se_error(S, map->loc, "the index map of '%s' gives %d "
		    "index%s but '%s' has %d dimension%s", o->name,
		    map->u.list.n, map->u.list.n == 1 ? "" : "es", o->name,
		    o->shape.rank, o->shape.rank == 1 ? "" : "s");
		se_note(S, map->loc, "give one %s per dimension",
		    o->element ? "element offset" : "block index");
		return;
	}
	S->ctx = CTX_MAP;
	for (d = 0; d < o->shape.rank; d++) {
		const Ast *x = map->u.list.v[d];
		CExpr *e = expr_check(S, x);
		if (!e)
			continue;
		if (!dtype_is_int(e->dtype) || e->shape.rank) {
			se_error(S, x->loc, "index %d of the map of '%s' must "
			    "be an integer scalar, not %s", d, o->name,
			    type_str(S, e->dtype, &e->shape));
			continue;
		}
		e->weak = 0;
		o->map[d] = e;
		if (sema_reads_table(e))
			o->runtime_check = 1;
	}
	S->ctx = save;
}

/* Checks operand o's map at point pt; returns 0, or -1 after an error. */
static int
map_at(Sema *S, CKernel *k, COperand *o, const int64_t *pt)
{
	int d, rc;
	int64_t v, n;

	for (d = 0; d < o->shape.rank; d++) {
		if (!o->map[d])
			continue;
		rc = sema_eval_int(k, o->map[d], pt, NULL, NULL, NULL, &v);
		if (rc == SEMA_EVAL_UNKNOWN)
			continue;
		if (rc == SEMA_EVAL_ERROR) {
			se_error(S, o->map[d]->loc, "at grid point %s the index "
			    "map of '%s' divides by zero",
			    grid_point_str(S, k, pt), o->name);
			return -1;
		}
		n = o->element ? o->shape.d[d] :
		    (o->shape.d[d] + o->block.d[d] - 1) / o->block.d[d];
		if (v >= 0 && v < n)
			continue;
		se_error(S, o->map[d]->loc, "at grid point %s the %s %lld of "
		    "'%s' dim %d is outside [0, %lld)", grid_point_str(S, k, pt),
		    o->element ? "element offset" : "block index", (long long)v,
		    o->name, d, (long long)n);
		se_note(S, o->map[d]->loc, "'%s' has %lld elements on dimension "
		    "%d%s", o->name, (long long)o->shape.d[d], d, o->element ?
		    "" : arena_printf(S->a, " in blocks of %lld",
		    (long long)o->block.d[d]));
		return -1;
	}
	return 0;
}

void
blockspec_check_maps(Sema *S, CKernel *k)
{
	int64_t pt[SEMA_MAXRANK + 1] = {0};
	int i, *done;

	if (grid_size(k) > SEMA_MAX_ENUM) {
		se_warning(S, k->loc, "the grid of '%s' has more than %lld "
		    "points; its index maps are checked at run time", k->name,
		    (long long)SEMA_MAX_ENUM);
		for (i = 0; i < k->nop; i++)
			k->op[i].runtime_check = k->op[i].blocked;
		return;
	}
	if (k->naxis > SEMA_MAXRANK)
		return;
	done = arena_alloc(S->a, sizeof *done * (size_t)(k->nop + 1));
	do {
		for (i = 0; i < k->nop; i++)
			if (k->op[i].blocked && !done[i] &&
			    map_at(S, k, &k->op[i], pt))
				done[i] = 1;
	} while (grid_next(k, pt));
}
