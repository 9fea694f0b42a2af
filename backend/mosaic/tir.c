/*
 * tir.c - the tile IR builder: functions, values, ops in nested blocks,
 * buffers and sync flags (mosaic.h).
 *
 * Gives:    tile_new_func(), tile_emit() and its short forms, tile_buffer(),
 *           tile_flag(), tile_begin_for/end_for, tile_begin_if/else/end_if,
 *           tile_val(), tile_op_name(), tile_space_name(), tile_bytes().
 * Needs:    nothing but the arena; types are given by the callers.
 * Tests:    tests/unit/check_tile.c
 */
#include <string.h>

#include "backend/mosaic/mosaic.h"

static const char *const opnames[NTOP] = {
	"nop", "const", "program_id", "num_programs", "splat",
	"neg", "not", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "recip",
	"convert",
	"add", "sub", "mul", "div", "rem", "max", "min", "and", "or", "xor",
	"shl", "shr", "cmp", "select",
	"iota", "broadcast", "reshape", "reduce", "roll", "vtranspose",
	"buf", "slot", "view", "load", "store", "sload", "sstore",
	"matmul", "transpose", "rollm",
	"dma_start", "dma_wait", "sem_signal", "sem_wait",
	"for", "if", "yield", "trace", "trap",
};	/* ORDER TOP */

const char *
tile_op_name(TOpKind op)
{
	return op < NTOP ? opnames[op] : "?";
}

const char *
tile_space_name(TSpace s)
{
	static const char *const n[NTSPACE] = { "vmem", "smem", "hbm" };

	return s < NTSPACE ? n[s] : "?";
}

static int64_t
roundup(int64_t x, int64_t m)
{
	return (x + m - 1) / m * m;
}

int64_t
tile_bytes(const MachPreset *p, TSpace sp, DType t, const Shape *s)
{
	int64_t rows = 1, cols = 1, lead = 1;
	int i;

	if (sp == TS_HBM)	/* bool a byte, as the host holds it */
		return shape_numel(s) * (t == DT_BOOL ? 1 : dtype_size(t));
	if (sp != TS_VMEM)	/* SMEM: a word an element, but bf16 */
		return shape_numel(s) * (t == DT_I8 ? 4 : dtype_size(t));
	if (s->rank >= 1)
		cols = s->d[s->rank - 1];
	if (s->rank >= 2)
		rows = s->d[s->rank - 2];
	for (i = 0; i + 2 < s->rank; i++)
		lead *= s->d[i];
	return lead * roundup(rows, (int64_t)p->sublanes * dtype_packing(t)) *
	    roundup(cols, p->lanes) * dtype_size(t);
}

/* Opens block b as the innermost block of the builder. */
static int
new_block(TFunc *f, int owner)
{
	TBlock b;

	memset(&b, 0, sizeof b);
	b.owner = owner;
	vec_push(f->arena, &f->blk, b);
	return f->blk.n - 1;
}

TFunc *
tile_new_func(Arena *a, const MachPreset *p, const char *name)
{
	TFunc *f = arena_alloc(a, sizeof *f);
	TVal none;

	f->arena = a;
	f->preset = p;
	f->name = name;
	memset(&none, 0, sizeof none);
	none.def = -1;
	vec_push(a, &f->val, none);
	new_block(f, -1);
	vec_push(a, &f->cur, 0);
	return f;
}

TVal
tile_scalar_type(DType t)
{
	TVal v;

	memset(&v, 0, sizeof v);
	v.kind = TV_SCALAR;
	v.dtype = t;
	v.def = -1;
	return v;
}

TVal
tile_vec_type(const TFunc *f, DType t, const Shape *s, TLayKind want)
{
	TVal v = tile_scalar_type(t);

	v.kind = TV_VEC;
	v.shape = *s;
	v.lay = mosaic_layout(f->preset, t, s, want);
	return v;
}

TVal
tile_ref_type(const TFunc *f, int b, const Shape *s)
{
	TVal v;
	int64_t st = 1;
	int i;

	if (b < 0 || b >= f->buf.n)
		bug("tile_ref_type: no buffer %d", b);
	v = tile_scalar_type(f->buf.v[b].dtype);
	v.kind = TV_REF;
	v.shape = *s;
	v.mem.space = f->buf.v[b].space;
	v.mem.buf = b;
	for (i = s->rank - 1; i >= 0; i--) {
		v.mem.stride[i] = st;
		st *= s->d[i];
	}
	return v;
}

TRef
tile_new_val(TFunc *f, TVal ty)
{
	ty.def = -1;
	ty.blk = f->cur.v[f->cur.n - 1];
	vec_push(f->arena, &f->val, ty);
	return (TRef)(f->val.n - 1);
}

const TVal *
tile_val(const TFunc *f, TRef r)
{
	if (r == TNONE || (int)r >= f->val.n)
		bug("tile_val: bad ref %u", (unsigned)r);
	return &f->val.v[r];
}

TRef
tile_emit(TFunc *f, TOpKind op, const TRef *args, int narg, const TVal *res,
    int *opi)
{
	TOp o;
	int cur = f->cur.v[f->cur.n - 1], i;

	memset(&o, 0, sizeof o);
	o.op = (uint16_t)op;
	o.narg = narg;
	o.blk[0] = o.blk[1] = -1;
	o.parent = cur;
	o.loc = f->loc;		/* the statement being lowered, if any */
	if (narg) {
		o.arg = arena_alloc(f->arena, narg * sizeof *o.arg);
		for (i = 0; i < narg; i++)
			o.arg[i] = args[i];
	}
	if (res) {
		o.nres = 1;
		o.res = arena_alloc(f->arena, sizeof *o.res);
		o.res[0] = tile_new_val(f, *res);
		f->val.v[o.res[0]].def = f->op.n;
	}
	vec_push(f->arena, &f->op, o);
	vec_push(f->arena, &f->blk.v[cur].op, f->op.n - 1);
	if (opi)
		*opi = f->op.n - 1;
	return res ? f->op.v[f->op.n - 1].res[0] : TNONE;
}

static TRef
constant(TFunc *f, DType t, int64_t i, double d)
{
	TVal ty = tile_scalar_type(t);
	int opi;
	TRef r = tile_emit(f, TOP_CONST, NULL, 0, &ty, &opi);

	f->op.v[opi].u.cst.i = i;
	f->op.v[opi].u.cst.f = d;
	return r;
}

TRef tile_const_i32(TFunc *f, int64_t v) { return constant(f, DT_I32, v, 0); }
TRef tile_const_f32(TFunc *f, double v) { return constant(f, DT_F32, 0, v); }
TRef tile_const_bool(TFunc *f, int v) { return constant(f, DT_BOOL, !!v, 0); }

TRef
tile_binop(TFunc *f, TOpKind op, TRef a, TRef b)
{
	TRef args[2] = { a, b };
	TVal ty = *tile_val(f, a);

	return tile_emit(f, op, args, 2, &ty, NULL);
}

TRef
tile_unop(TFunc *f, TOpKind op, TRef a)
{
	TVal ty = *tile_val(f, a);

	return tile_emit(f, op, &a, 1, &ty, NULL);
}

TRef
tile_cmp(TFunc *f, TCmp c, TRef a, TRef b)
{
	TRef args[2] = { a, b };
	TVal ty = *tile_val(f, a);
	int opi;
	TRef r;

	ty.dtype = DT_BOOL;
	if (ty.kind == TV_VEC)
		ty.lay = mosaic_layout(f->preset, DT_BOOL, &ty.shape,
		    (TLayKind)ty.lay.kind);
	r = tile_emit(f, TOP_CMP, args, 2, &ty, &opi);
	f->op.v[opi].u.cmp = c;
	return r;
}

int
tile_buffer(TFunc *f, const char *name, TBufKind kind, TSpace sp, DType t,
    const Shape *s, int nslot, int src)
{
	TBuf b;

	memset(&b, 0, sizeof b);
	b.name = name;
	b.kind = kind;
	b.space = sp;
	b.dtype = t;
	b.shape = *s;
	b.nslot = nslot;
	b.slot_bytes = tile_bytes(f->preset, sp, t, s);
	b.offset = -1;
	b.src = src;
	vec_push(f->arena, &f->buf, b);
	return f->buf.n - 1;
}

int
tile_flag(TFunc *f, const char *name, int count)
{
	TFlag fl;

	fl.name = name;
	fl.count = count;
	fl.id = -1;
	fl.clip = 0;
	vec_push(f->arena, &f->flag, fl);
	return f->flag.n - 1;
}

TRef
tile_buf_ref(TFunc *f, int b)
{
	TVal ty = tile_ref_type(f, b, &f->buf.v[b].shape);
	int opi;
	TRef r = tile_emit(f, TOP_BUF, NULL, 0, &ty, &opi);

	f->op.v[opi].u.buf = b;
	return r;
}

/* Opens the region blk[which] of op opi; its arguments are added after. */
static int
open_region(TFunc *f, int opi, int which)
{
	int b = new_block(f, opi);

	f->op.v[opi].blk[which] = b;
	vec_push(f->arena, &f->cur, b);
	return b;
}

static TRef
block_arg(TFunc *f, int b, TVal ty)
{
	TRef r = tile_new_val(f, ty);

	f->val.v[r].blk = b;
	vec_push(f->arena, &f->blk.v[b].arg, r);
	return r;
}

TRef
tile_begin_for(TFunc *f, TRef lo, TRef hi, int64_t step, const TRef *init,
    int ncarry)
{
	TRef args[2 + 16];
	int opi, b, i;

	if (ncarry > 16 || step <= 0)
		bug("tile_begin_for: %d carried values, step %lld", ncarry,
		    (long long)step);
	args[0] = lo;
	args[1] = hi;
	for (i = 0; i < ncarry; i++)
		args[2 + i] = init[i];
	tile_emit(f, TOP_FOR, args, 2 + ncarry, NULL, &opi);
	f->op.v[opi].u.loop.step = step;
	if (ncarry) {
		TOp *o = &f->op.v[opi];
		o->nres = ncarry;
		o->res = arena_alloc(f->arena, ncarry * sizeof *o->res);
		for (i = 0; i < ncarry; i++) {
			TRef r = tile_new_val(f, *tile_val(f, init[i]));
			f->val.v[r].def = opi;
			f->op.v[opi].res[i] = r;
		}
	}
	b = open_region(f, opi, 0);
	block_arg(f, b, tile_scalar_type(DT_I32));
	for (i = 0; i < ncarry; i++)
		block_arg(f, b, *tile_val(f, init[i]));
	return f->blk.v[b].arg.v[0];
}

TRef
tile_block_arg(const TFunc *f, int i)
{
	const TBlock *b = &f->blk.v[f->cur.v[f->cur.n - 1]];

	if (i < 0 || i >= b->arg.n)
		bug("tile_block_arg: no argument %d", i);
	return b->arg.v[i];
}

/* Closes the innermost block; returns the op owning it. */
static int
close_block(TFunc *f, TOpKind want)
{
	int b, owner;

	if (f->cur.n < 2)
		bug("tile: no open region to close");
	b = f->cur.v[--f->cur.n];
	owner = f->blk.v[b].owner;
	if (f->op.v[owner].op != want)
		bug("tile: closing a %s region as %s",
		    tile_op_name(f->op.v[owner].op), tile_op_name(want));
	return owner;
}

int
tile_end_for(TFunc *f, const TRef *yield)
{
	int b = f->cur.v[f->cur.n - 1];
	int ncarry = f->blk.v[b].arg.n - 1;

	if (ncarry > 0)
		tile_emit(f, TOP_YIELD, yield, ncarry, NULL, NULL);
	return close_block(f, TOP_FOR);
}

void
tile_begin_if(TFunc *f, TRef cond)
{
	int opi;

	tile_emit(f, TOP_IF, &cond, 1, NULL, &opi);
	open_region(f, opi, 0);
}

void
tile_else(TFunc *f)
{
	int owner = close_block(f, TOP_IF);

	if (f->op.v[owner].blk[1] >= 0)
		bug("tile_else: two else regions");
	open_region(f, owner, 1);
}

int
tile_end_if(TFunc *f)
{
	return close_block(f, TOP_IF);
}
