/*
 * tprint.c - the --emit=tile text of the tile IR, in an MLIR-like form
 * close to Mosaic's dumps:
 *
 *   func @name preset v4
 *     buffer #0 "acc" scratch vmem f32[128, 128] x1 65536 bytes at -
 *     flag ^0 "x.in" x2
 *     %3 = load %1[%2 + 0 (mult 8), 0 : 8, 128]
 *          : vector<8x128xf32> #native(8,128)x1
 *     for %4 = %0 to %5 step 8 { ... }
 *
 * Values print as %N (their index), buffers as #N, flags as ^N.  The
 * output is stable: it depends only on the IR (golden tests).
 *
 * Gives:    tile_print(), tile_print_module(), tile_print_layout().
 * Tests:    tests/unit/check_tile.c, tests/golden/tile/
 */
#include <math.h>

#include "backend/mosaic/mosaic.h"

static const char *const bufkinds[NTBUF] = {
	"block", "smem_table", "hbm", "scratch", "internal",
};	/* ORDER TB */
static const char *const cmps[NTCMP] = { "lt", "le", "gt", "ge", "eq", "ne" };
static const char *const reds[NTRED] = { "sum", "max", "min" };
static const char *const precs[NMACHPREC] = { "default", "high", "highest" };

void
tile_print_layout(Buf *b, const TLayout *l)
{
	static const char *const k[NTLAY] = {
		"none", "native", "lane_repl", "sublane_repl",
	};

	buf_printf(b, "#%s(%d,%d)x%d", l->kind < NTLAY ? k[l->kind] : "?",
	    l->tile_r, l->tile_c, l->nvreg);
	if (l->home)
		buf_printf(b, " home(rows %d)", l->chunk_rows);
}

static void
dims(Buf *b, const Shape *s, const char *sep)
{
	int i;

	for (i = 0; i < s->rank; i++)
		buf_printf(b, "%lld%s", (long long)s->d[i], sep);
}

static void
type(Buf *b, const TFunc *f, TRef r)
{
	const TVal *v = tile_val(f, r);
	int i;

	switch (v->kind) {
	case TV_SCALAR:
		buf_puts(b, dtype_name(v->dtype));
		break;
	case TV_VEC:
		buf_puts(b, "vector<");
		dims(b, &v->shape, "x");
		buf_printf(b, "%s> ", dtype_name(v->dtype));
		tile_print_layout(b, &v->lay);
		break;
	case TV_REF:
		buf_puts(b, "memref<");
		dims(b, &v->shape, "x");
		buf_printf(b, "%s, %s #%d", dtype_name(v->dtype),
		    tile_space_name(v->mem.space), v->mem.buf);
		if (v->mem.off)
			buf_printf(b, " +%lld", (long long)v->mem.off);
		buf_puts(b, " strides [");
		for (i = 0; i < v->shape.rank; i++)
			buf_printf(b, "%s%lld", i ? "," : "",
			    (long long)v->mem.stride[i]);
		buf_printf(b, "]%s>", v->mem.dyn ? " dyn" : "");
		break;
	default:
		buf_puts(b, "?");
	}
}

static void
refs(Buf *b, const TRef *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		buf_printf(b, "%s%%%u", i ? ", " : "", (unsigned)r[i]);
}

static void
indices(Buf *b, const TOp *o)
{
	int i;

	buf_putc(b, '[');
	for (i = 0; i < o->u.idx.n; i++) {
		const TIdx *x = &o->u.idx.d[i];
		if (i)
			buf_puts(b, ", ");
		if (x->dyn >= 0 && x->dyn < o->narg)
			buf_printf(b, "%%%u + ", (unsigned)o->arg[x->dyn]);
		buf_printf(b, "%lld", (long long)x->start);
		if (x->dyn >= 0 && x->multiple > 1)
			buf_printf(b, " (mult %lld)", (long long)x->multiple);
		if (x->squeeze)
			buf_puts(b, " sq");
		else
			buf_printf(b, " : %lld", (long long)x->size);
	}
	buf_putc(b, ']');
}

static void
flagref(Buf *b, const TOp *o)
{
	buf_printf(b, " ^%d", o->u.flag.flag);
	if (o->u.flag.dyn && o->narg > 0)
		buf_printf(b, "[%%%u]", (unsigned)o->arg[o->narg - 1]);
}

static void block(Buf *b, const TFunc *f, int blk, int ind);

static void
indent(Buf *b, int n)
{
	while (n-- > 0)
		buf_puts(b, "  ");
}

/* The attributes and operands of op o after its name. */
static void
operands(Buf *b, const TFunc *f, const TOp *o)
{
	int nflagarg = o->u.flag.dyn ? 1 : 0;

	switch (o->op) {
	case TOP_CONST:
		if (tile_val(f, o->res[0])->dtype == DT_F32) {
			if (isinf(o->u.cst.f))
				buf_puts(b, o->u.cst.f < 0 ? " -inf" : " inf");
			else
				buf_printf(b, " %.9g", o->u.cst.f);
		} else
			buf_printf(b, " %lld", (long long)o->u.cst.i);
		return;
	case TOP_PROGRAM_ID: case TOP_NUM_PROGRAMS:
		buf_printf(b, " axis %d", o->u.axis);
		return;
	case TOP_BUF:
		buf_printf(b, " #%d", o->u.buf);
		return;
	case TOP_VIEW: case TOP_LOAD: case TOP_SLOAD:
		buf_printf(b, " %%%u", (unsigned)o->arg[0]);
		indices(b, o);
		return;
	case TOP_STORE: case TOP_SSTORE:
		buf_printf(b, " %%%u, %%%u", (unsigned)o->arg[1],
		    (unsigned)o->arg[0]);
		indices(b, o);
		return;
	case TOP_DMA_START: case TOP_DMA_WAIT:
	case TOP_SEM_SIGNAL: case TOP_SEM_WAIT:
		buf_putc(b, ' ');
		refs(b, o->arg, o->narg - nflagarg);
		flagref(b, o);
		return;
	case TOP_TRACE:
		buf_printf(b, " %s \"%s\"", o->u.cst.i ? "begin" : "end",
		    o->name ? o->name : "");
		return;
	case TOP_TRAP:
		buf_putc(b, ' ');
		refs(b, o->arg, o->narg);
		buf_printf(b, " \"%s\"", o->name ? o->name : "");
		return;
	default:
		break;
	}
	if (o->narg) {
		buf_putc(b, ' ');
		refs(b, o->arg, o->narg);
	}
	switch (o->op) {
	case TOP_CMP:
		buf_printf(b, " {%s}", cmps[o->u.cmp]);
		break;
	case TOP_REDUCE:
		buf_printf(b, " {%s, axis %d}", reds[o->u.red.kind],
		    o->u.red.axis);
		break;
	case TOP_IOTA: case TOP_ROLL: case TOP_ROLLM:
		buf_printf(b, " {axis %d}", o->u.axis);
		break;
	case TOP_MATMUL:
		buf_printf(b, " {%s%s, precision %s, acc %s}",
		    o->u.mm.accumulate ? "accumulate, " : "",
		    o->u.mm.trans_b ? "trans_b" : "normal",
		    precs[o->u.mm.prec], dtype_name(o->u.mm.acc));
		break;
	default:
		break;
	}
}

static void
op(Buf *b, const TFunc *f, const TOp *o, int ind)
{
	const TBlock *body;
	int i;

	indent(b, ind);
	if (o->nres) {
		refs(b, o->res, o->nres);
		buf_puts(b, " = ");
	}
	buf_puts(b, tile_op_name(o->op));
	if (o->op == TOP_FOR) {
		body = &f->blk.v[o->blk[0]];
		buf_printf(b, " %%%u = %%%u to %%%u step %lld",
		    (unsigned)body->arg.v[0], (unsigned)o->arg[0],
		    (unsigned)o->arg[1], (long long)o->u.loop.step);
		if (o->narg > 2) {
			buf_puts(b, " iter(");
			for (i = 2; i < o->narg; i++)
				buf_printf(b, "%s%%%u = %%%u", i > 2 ? ", " : "",
				    (unsigned)body->arg.v[i - 1],
				    (unsigned)o->arg[i]);
			buf_putc(b, ')');
		}
		buf_puts(b, " {\n");
		block(b, f, o->blk[0], ind + 1);
		indent(b, ind);
		buf_puts(b, "}\n");
		return;
	}
	if (o->op == TOP_IF) {
		buf_printf(b, " %%%u {\n", (unsigned)o->arg[0]);
		block(b, f, o->blk[0], ind + 1);
		if (o->blk[1] >= 0) {
			indent(b, ind);
			buf_puts(b, "} else {\n");
			block(b, f, o->blk[1], ind + 1);
		}
		indent(b, ind);
		buf_puts(b, "}\n");
		return;
	}
	operands(b, f, o);
	if (o->nres == 1) {
		buf_puts(b, " : ");
		type(b, f, o->res[0]);
	}
	buf_putc(b, '\n');
}

static void
block(Buf *b, const TFunc *f, int blk, int ind)
{
	const TBlock *bl = &f->blk.v[blk];
	int i;

	for (i = 0; i < bl->op.n; i++)
		op(b, f, &f->op.v[bl->op.v[i]], ind);
}

static void
buffers(Buf *b, const TFunc *f)
{
	int i;

	for (i = 0; i < f->buf.n; i++) {
		const TBuf *x = &f->buf.v[i];
		buf_printf(b, "  buffer #%d \"%s\" %s %s %s", i,
		    x->name ? x->name : "", bufkinds[x->kind],
		    tile_space_name(x->space), dtype_name(x->dtype));
		shape_print(b, &x->shape);
		buf_printf(b, " x%d %lld bytes at ", x->nslot,
		    (long long)x->slot_bytes);
		if (x->offset < 0)
			buf_puts(b, "-\n");
		else
			buf_printf(b, "%lld\n", (long long)x->offset);
	}
	for (i = 0; i < f->flag.n; i++) {
		const TFlag *x = &f->flag.v[i];
		buf_printf(b, "  flag ^%d \"%s\" x%d%s at ", i,
		    x->name ? x->name : "", x->count, x->clip ? " clip" : "");
		if (x->id < 0)
			buf_puts(b, "-\n");
		else
			buf_printf(b, "f%d\n", x->id);
	}
}

void
tile_print(Buf *b, const TFunc *f)
{
	buf_printf(b, "func @%s preset %s\n", f->name ? f->name : "",
	    f->preset ? f->preset->name : "-");
	buffers(b, f);
	if (f->vmem_bytes || f->smem_bytes)
		buf_printf(b, "  allocated vmem %lld smem %lld bytes\n",
		    (long long)f->vmem_bytes, (long long)f->smem_bytes);
	buf_puts(b, "  body {\n");
	block(b, f, 0, 2);
	buf_puts(b, "  }\n");
}

void
tile_print_module(Buf *b, const TModule *m)
{
	int i;

	for (i = 0; i < m->func.n; i++) {
		if (i)
			buf_putc(b, '\n');
		tile_print(b, m->func.v[i]);
	}
}
