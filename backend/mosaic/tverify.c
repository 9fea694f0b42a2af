/*
 * tverify.c - the tile IR verifier, run after every transform (the
 * lowering, the pipeline, allocation).
 *
 * Checks, and reports the first failure:
 *  - every value is defined exactly once, by the op or block its TVal
 *    names, and every use is dominated by its definition: defined
 *    earlier in the same block or in an enclosing one (structured
 *    regions: nothing defined inside a for/if body is visible after it);
 *  - op arity and operand kinds (scalar, vector, ref), dtypes and shapes
 *    of elementwise ops, compares, selects, loads and stores, matmuls;
 *  - vector layouts agree with mosaic_layout() for their shape;
 *  - indexed accesses: one index per dimension, static parts in range;
 *    static views stay within one slot of their buffer; buffers and
 *    flags exist, allocated buffers fit the preset's memories;
 *  - for/if regions: bounds are i32, carried values and yields match.
 *
 * Gives:    tile_verify() (mosaic.h).
 * Tests:    tests/unit/check_tile.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/mosaic/mosaic.h"

typedef struct V {
	const TFunc *f;
	char *vis;		/* per value: 1 while visible */
	char *err;
	size_t len;
	int bad;
} V;

static int
fail(V *v, const TOp *o, const char *fmt, const char *what)
{
	char msg[160];

	if (v->bad++)
		return -1;
	snprintf(msg, sizeof msg, fmt, what);
	if (o)
		snprintf(v->err, v->len, "op %d (%s): %s", (int)(o - v->f->op.v),
		    tile_op_name(o->op), msg);
	else
		snprintf(v->err, v->len, "%s", msg);
	return -1;
}

static const TVal *
val(V *v, TRef r)
{
	return &v->f->val.v[r];
}

static int
kind_is(V *v, TRef r, TValKind k)
{
	return r != TNONE && (int)r < v->f->val.n && val(v, r)->kind == k;
}

static int
is_i32(V *v, TRef r)
{
	return kind_is(v, r, TV_SCALAR) && val(v, r)->dtype == DT_I32;
}

static int
same_type(V *v, TRef a, TRef b)
{
	const TVal *x = val(v, a), *y = val(v, b);

	return x->kind == y->kind && x->dtype == y->dtype &&
	    shape_eq(&x->shape, &y->shape);
}

static int
check_layout(V *v, const TOp *o, TRef r)
{
	const TVal *x = val(v, r);
	TLayout want;

	if (x->kind != TV_VEC)
		return 0;
	want = mosaic_layout(v->f->preset, x->dtype, &x->shape,
	    (TLayKind)x->lay.kind);
	if (x->lay.kind == TL_NONE || want.nvreg != x->lay.nvreg ||
	    want.tile_r != x->lay.tile_r || want.tile_c != x->lay.tile_c)
		return fail(v, o, "%s: vector layout disagrees with its shape",
		    "result");
	return 0;
}

/* One index per dimension of ref r, in range; sizes give the shape. */
static int
check_idx(V *v, const TOp *o, TRef r, int squeeze_ok, Shape *sizes)
{
	const TVal *x = val(v, r);
	int i;

	sizes->rank = 0;
	if (o->u.idx.n != x->shape.rank)
		return fail(v, o, "%s: index count differs from the rank",
		    "access");
	for (i = 0; i < o->u.idx.n; i++) {
		const TIdx *d = &o->u.idx.d[i];
		if (d->dyn >= 0 && (d->dyn >= o->narg || !is_i32(v, o->arg[d->dyn])))
			return fail(v, o, "%s: dynamic start is not an i32 "
			    "operand", "access");
		if (d->start < 0 || d->size < 1 ||
		    d->start + d->size > x->shape.d[i])
			return fail(v, o, "%s: static index out of range",
			    "access");
		if (d->squeeze && (!squeeze_ok || d->size != 1))
			return fail(v, o, "%s: bad squeeze", "access");
		if (!d->squeeze)
			sizes->d[sizes->rank++] = d->size;
	}
	return 0;
}

static int
check_ref_bounds(V *v, const TOp *o, TRef r)
{
	const TVal *x = val(v, r);
	const TBuf *b;
	int64_t last = x->mem.off;
	int i;

	if (x->mem.buf < 0 || x->mem.buf >= v->f->buf.n)
		return fail(v, o, "%s: ref of a missing buffer", "result");
	b = &v->f->buf.v[x->mem.buf];
	if (x->dtype != b->dtype || x->mem.space != b->space)
		return fail(v, o, "%s: ref dtype or space differs from its "
		    "buffer", "result");
	for (i = 0; i < x->shape.rank; i++)
		last += (x->shape.d[i] - 1) * x->mem.stride[i];
	if (x->mem.off < 0 || last >= shape_numel(&b->shape))
		return fail(v, o, "%s: view outside its buffer", "result");
	return 0;
}

static int
check_ew(V *v, const TOp *o)
{
	int i, first = o->op == TOP_SELECT ? 1 : 0;
	const TVal *r;

	if (o->nres != 1)
		return fail(v, o, "%s: needs one result", "elementwise");
	r = val(v, o->res[0]);
	for (i = first; i < o->narg; i++) {
		const TVal *a = val(v, o->arg[i]);
		if (a->kind != r->kind || !shape_eq(&a->shape, &r->shape))
			return fail(v, o, "%s: operand shape or kind differs "
			    "from the result", "elementwise");
		if (o->op != TOP_CONVERT && o->op != TOP_CMP &&
		    a->dtype != r->dtype)
			return fail(v, o, "%s: operand dtype differs from the "
			    "result", "elementwise");
	}
	if (o->op == TOP_CMP && (r->dtype != DT_BOOL ||
	    !same_type(v, o->arg[0], o->arg[1])))
		return fail(v, o, "%s: compare operands or result", "cmp");
	if (o->op == TOP_SELECT) {
		const TVal *c = val(v, o->arg[0]);
		if (c->dtype != DT_BOOL || (c->kind == TV_VEC &&
		    !shape_eq(&c->shape, &r->shape)))
			return fail(v, o, "%s: condition is not a bool of the "
			    "shape", "select");
	}
	return 0;
}

static int
nargs(V *v, const TOp *o, int lo, int hi)
{
	if (o->narg < lo || o->narg > hi)
		return fail(v, o, "%s: wrong number of operands", "arity");
	return 0;
}

static int
check_mem(V *v, const TOp *o)
{
	Shape s;
	const TVal *r;

	if (!kind_is(v, o->arg[0], TV_REF))
		return fail(v, o, "%s: operand 0 is not a ref", "access");
	if (o->op == TOP_STORE || o->op == TOP_SSTORE) {
		if (o->narg < 2)
			return fail(v, o, "%s: no value", "store");
	}
	if (check_idx(v, o, o->arg[0], o->op == TOP_VIEW ||
	    o->op == TOP_SLOAD || o->op == TOP_SSTORE, &s))
		return -1;
	switch (o->op) {
	case TOP_VIEW:
		if (o->nres != 1 || !kind_is(v, o->res[0], TV_REF) ||
		    !shape_eq(&val(v, o->res[0])->shape, &s))
			return fail(v, o, "%s: result is not a ref of the "
			    "sizes", "view");
		return check_ref_bounds(v, o, o->res[0]);
	case TOP_LOAD:
		r = o->nres == 1 ? val(v, o->res[0]) : NULL;
		if (!r || r->kind != TV_VEC || !shape_eq(&r->shape, &s) ||
		    r->dtype != val(v, o->arg[0])->dtype)
			return fail(v, o, "%s: result is not a vector of the "
			    "sizes", "load");
		return 0;
	case TOP_STORE:
		r = val(v, o->arg[1]);
		if (r->kind != TV_VEC || !shape_eq(&r->shape, &s) ||
		    r->dtype != val(v, o->arg[0])->dtype)
			return fail(v, o, "%s: value is not a vector of the "
			    "sizes", "store");
		return 0;
	case TOP_SLOAD:
		if (o->nres != 1 || !kind_is(v, o->res[0], TV_SCALAR) ||
		    s.rank != 0)
			return fail(v, o, "%s: needs a scalar result and full "
			    "indexing", "sload");
		return 0;
	default:	/* TOP_SSTORE */
		if (!kind_is(v, o->arg[1], TV_SCALAR) || s.rank != 0)
			return fail(v, o, "%s: needs a scalar and full "
			    "indexing", "sstore");
		return 0;
	}
}

static int
check_matmul(V *v, const TOp *o)
{
	const TVal *d, *a, *b;
	int r;
	int64_t m, n, k, k2, n2;

	if (nargs(v, o, 3, 3))
		return -1;
	if (!kind_is(v, o->arg[0], TV_REF) || !kind_is(v, o->arg[1], TV_REF) ||
	    !kind_is(v, o->arg[2], TV_REF))
		return fail(v, o, "%s: operands must be refs", "matmul");
	d = val(v, o->arg[0]);
	a = val(v, o->arg[1]);
	b = val(v, o->arg[2]);
	r = d->shape.rank;
	if (r < 2 || a->shape.rank != r || b->shape.rank != r)
		return fail(v, o, "%s: operands need one rank >= 2", "matmul");
	m = a->shape.d[r - 2];
	k = a->shape.d[r - 1];
	k2 = o->u.mm.trans_b ? b->shape.d[r - 1] : b->shape.d[r - 2];
	n2 = o->u.mm.trans_b ? b->shape.d[r - 2] : b->shape.d[r - 1];
	n = d->shape.d[r - 1];
	if (k != k2 || n != n2 || d->shape.d[r - 2] != m ||
	    a->dtype != b->dtype || d->dtype != o->u.mm.acc)
		return fail(v, o, "%s: shapes or dtypes do not match",
		    "matmul");
	return 0;
}

static int
check_flag(V *v, const TOp *o)
{
	if (o->u.flag.flag < 0 || o->u.flag.flag >= v->f->flag.n)
		return fail(v, o, "%s: no such flag", "sync");
	if (o->u.flag.dyn && (o->narg < 1 || !is_i32(v, o->arg[o->narg - 1])))
		return fail(v, o, "%s: flag index is not i32", "sync");
	return 0;
}

static int
check_sync(V *v, const TOp *o)
{
	int n = o->narg - (o->u.flag.dyn ? 1 : 0);

	if (check_flag(v, o))
		return -1;
	switch (o->op) {
	case TOP_DMA_START:
		if (n != 2 || !kind_is(v, o->arg[0], TV_REF) ||
		    !kind_is(v, o->arg[1], TV_REF))
			return fail(v, o, "%s: needs two refs", "dma");
		if (shape_numel(&val(v, o->arg[0])->shape) !=
		    shape_numel(&val(v, o->arg[1])->shape) ||
		    val(v, o->arg[0])->dtype != val(v, o->arg[1])->dtype)
			return fail(v, o, "%s: source and destination "
			    "differ", "dma");
		return 0;
	case TOP_DMA_WAIT:
		if (n != 1 || !kind_is(v, o->arg[0], TV_REF))
			return fail(v, o, "%s: needs the destination ref",
			    "dma_wait");
		return 0;
	default:
		if (n != 1 || !is_i32(v, o->arg[0]))
			return fail(v, o, "%s: needs an i32 count", "sem");
		return 0;
	}
}

static int block(V *v, int b);

static int
check_for(V *v, const TOp *o)
{
	const TBlock *body;
	const TOp *last;
	int i, nc = o->narg - 2;

	if (o->narg < 2 || !is_i32(v, o->arg[0]) || !is_i32(v, o->arg[1]) ||
	    o->u.loop.step <= 0)
		return fail(v, o, "%s: bounds must be i32, step > 0", "for");
	if (o->blk[0] <= 0 || o->blk[0] >= v->f->blk.n)
		return fail(v, o, "%s: no body", "for");
	body = &v->f->blk.v[o->blk[0]];
	if (body->owner != o - v->f->op.v || body->arg.n != nc + 1 ||
	    o->nres != nc || !is_i32(v, body->arg.v[0]))
		return fail(v, o, "%s: body arguments or results", "for");
	for (i = 0; i < nc; i++)
		if (!same_type(v, o->arg[2 + i], body->arg.v[1 + i]) ||
		    !same_type(v, o->arg[2 + i], o->res[i]))
			return fail(v, o, "%s: carried value types", "for");
	if (nc) {
		last = body->op.n ? &v->f->op.v[body->op.v[body->op.n - 1]] :
		    NULL;
		if (!last || last->op != TOP_YIELD || last->narg != nc)
			return fail(v, o, "%s: body must end in a yield of the "
			    "carried values", "for");
		for (i = 0; i < nc; i++)
			if (!same_type(v, last->arg[i], o->res[i]))
				return fail(v, o, "%s: yield types", "for");
	}
	return block(v, o->blk[0]);
}

static int
check_if(V *v, const TOp *o)
{
	int i;

	if (o->narg != 1 || !kind_is(v, o->arg[0], TV_SCALAR) ||
	    val(v, o->arg[0])->dtype != DT_BOOL)
		return fail(v, o, "%s: condition must be a bool scalar", "if");
	for (i = 0; i < 2; i++) {
		int b = o->blk[i];
		if (b < 0 && i == 1)
			continue;
		if (b <= 0 || b >= v->f->blk.n ||
		    v->f->blk.v[b].owner != o - v->f->op.v)
			return fail(v, o, "%s: bad region", "if");
		if (block(v, b))
			return -1;
	}
	return 0;
}

/* Checks of one op kind (regions excluded). */
static int
check_kind(V *v, const TOp *o)
{
	switch (o->op) {
	case TOP_NOP: case TOP_TRACE:
		return 0;
	case TOP_TRAP:
		if (nargs(v, o, 2, 2) || !kind_is(v, o->arg[0], TV_SCALAR) ||
		    val(v, o->arg[0])->dtype != DT_BOOL ||
		    !kind_is(v, o->arg[1], TV_REF) ||
		    val(v, o->arg[1])->mem.space != TS_SMEM || o->nres)
			return fail(v, o, "%s: a bool and an SMEM record",
			    "trap");
		return 0;
	case TOP_CONST: case TOP_PROGRAM_ID: case TOP_NUM_PROGRAMS:
		if (o->nres != 1 || !kind_is(v, o->res[0], TV_SCALAR))
			return fail(v, o, "%s: needs a scalar result", "const");
		return nargs(v, o, 0, 0);
	case TOP_SPLAT:
		if (nargs(v, o, 1, 1) || !kind_is(v, o->arg[0], TV_SCALAR) ||
		    o->nres != 1 || !kind_is(v, o->res[0], TV_VEC))
			return fail(v, o, "%s: scalar to vector", "splat");
		return 0;
	case TOP_NEG: case TOP_NOT: case TOP_ABS: case TOP_EXP: case TOP_LOG:
	case TOP_SQRT: case TOP_RSQRT: case TOP_TANH: case TOP_RECIP:
	case TOP_CONVERT:
		return nargs(v, o, 1, 1) || check_ew(v, o);
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_REM:
	case TOP_MAX: case TOP_MIN: case TOP_AND: case TOP_OR: case TOP_XOR:
	case TOP_SHL: case TOP_SHR: case TOP_CMP:
		return nargs(v, o, 2, 2) || check_ew(v, o);
	case TOP_SELECT:
		return nargs(v, o, 3, 3) || check_ew(v, o);
	case TOP_IOTA:
		if (o->nres != 1 || !kind_is(v, o->res[0], TV_VEC) ||
		    o->u.axis < 0 || o->u.axis >= val(v, o->res[0])->shape.rank)
			return fail(v, o, "%s: axis out of range", "iota");
		return nargs(v, o, 0, 1);
	case TOP_BROADCAST: case TOP_RESHAPE: case TOP_REDUCE:
	case TOP_VTRANSPOSE: case TOP_ROLL:
		if (nargs(v, o, 1, 2) || !kind_is(v, o->arg[0], TV_VEC) ||
		    o->nres != 1 || !kind_is(v, o->res[0], TV_VEC))
			return fail(v, o, "%s: vector to vector", "shape op");
		if (o->op == TOP_RESHAPE && shape_numel(&val(v, o->arg[0])->shape)
		    != shape_numel(&val(v, o->res[0])->shape))
			return fail(v, o, "%s: element counts differ",
			    "reshape");
		return 0;
	case TOP_BUF:
		if (o->u.buf < 0 || o->u.buf >= v->f->buf.n || o->nres != 1 ||
		    !kind_is(v, o->res[0], TV_REF))
			return fail(v, o, "%s: no such buffer", "buf");
		return check_ref_bounds(v, o, o->res[0]);
	case TOP_SLOT:
		if (nargs(v, o, 2, 2) || !kind_is(v, o->arg[0], TV_REF) ||
		    !is_i32(v, o->arg[1]) || o->nres != 1 ||
		    !same_type(v, o->arg[0], o->res[0]))
			return fail(v, o, "%s: ref and i32 slot", "slot");
		return 0;
	case TOP_VIEW: case TOP_LOAD: case TOP_STORE: case TOP_SLOAD:
	case TOP_SSTORE:
		return check_mem(v, o);
	case TOP_MATMUL:
		return check_matmul(v, o);
	case TOP_TRANSPOSE: case TOP_ROLLM:
		if (nargs(v, o, 2, 3) || !kind_is(v, o->arg[0], TV_REF) ||
		    !kind_is(v, o->arg[1], TV_REF))
			return fail(v, o, "%s: needs two refs", "memory op");
		return 0;
	case TOP_DMA_START: case TOP_DMA_WAIT: case TOP_SEM_SIGNAL:
	case TOP_SEM_WAIT:
		return check_sync(v, o);
	case TOP_FOR:
		return check_for(v, o);
	case TOP_IF:
		return check_if(v, o);
	case TOP_YIELD:
		return 0;	/* checked by the owner */
	default:
		return fail(v, o, "%s: unknown op", "op");
	}
}

static int
check_op(V *v, int opi, int blk)
{
	const TOp *o = &v->f->op.v[opi];
	int i;

	if (o->parent != blk)
		return fail(v, o, "%s: listed in a block it does not name",
		    "op");
	for (i = 0; i < o->narg; i++) {
		TRef r = o->arg[i];
		if (r == TNONE || (int)r >= v->f->val.n)
			return fail(v, o, "%s: bad operand", "use");
		if (!v->vis[r])
			return fail(v, o, "%s: operand not dominated by its "
			    "definition", "use");
	}
	if (check_kind(v, o))
		return -1;
	for (i = 0; i < o->nres; i++) {
		TRef r = o->res[i];
		if (r == TNONE || (int)r >= v->f->val.n ||
		    val(v, r)->def != opi || v->vis[r])
			return fail(v, o, "%s: result defined twice or not by "
			    "this op", "def");
		if (check_layout(v, o, r))
			return -1;
		v->vis[r] = 1;
	}
	return 0;
}

static int
block(V *v, int b)
{
	const TBlock *bl = &v->f->blk.v[b];
	int i, rc = 0;

	for (i = 0; i < bl->arg.n; i++) {
		TRef r = bl->arg.v[i];
		if (val(v, r)->def != -1 || val(v, r)->blk != b || v->vis[r])
			return fail(v, NULL, "%s: bad block argument", "block");
		v->vis[r] = 1;
	}
	for (i = 0; i < bl->op.n && !rc; i++) {
		const TOp *o = &v->f->op.v[bl->op.v[i]];
		if (o->op == TOP_YIELD && (i != bl->op.n - 1 || b == 0))
			rc = fail(v, o, "%s: yield must end a region",
			    "yield");
		else
			rc = check_op(v, bl->op.v[i], b);
	}
	/* leaving the region: its definitions go out of scope */
	for (i = 0; i < bl->arg.n; i++)
		v->vis[bl->arg.v[i]] = 0;
	for (i = 0; i < bl->op.n; i++) {
		const TOp *o = &v->f->op.v[bl->op.v[i]];
		int j;
		for (j = 0; j < o->nres && b != 0; j++)
			v->vis[o->res[j]] = 0;
	}
	return rc;
}

static int
check_buffers(V *v)
{
	const MachPreset *p = v->f->preset;
	int i;

	for (i = 0; i < v->f->buf.n; i++) {
		const TBuf *b = &v->f->buf.v[i];
		uint64_t lim = b->space == TS_VMEM ? p->vmem_bytes :
		    b->space == TS_SMEM ? p->smem_bytes : p->hbm_bytes;
		if (b->nslot < 1 || b->slot_bytes < 0)
			return fail(v, NULL, "%s: buffer with no slots",
			    b->name ? b->name : "?");
		if (b->offset >= 0 && b->space != TS_HBM &&
		    (uint64_t)(b->offset + b->nslot * b->slot_bytes) > lim)
			return fail(v, NULL, "%s: buffer beyond its memory",
			    b->name ? b->name : "?");
	}
	return 0;
}

int
tile_verify(const TFunc *f, char *err, size_t len)
{
	V v;
	int rc;

	memset(&v, 0, sizeof v);
	v.f = f;
	v.err = err;
	v.len = len;
	if (len)
		err[0] = 0;
	v.vis = xcalloc((size_t)f->val.n + 1, 1);
	rc = check_buffers(&v);
	if (!rc)
		rc = block(&v, 0);
	free(v.vis);
	return rc ? -1 : 0;
}
