/*
 * llo.c - LLO: the builder (functions, blocks, virtual registers, ops)
 * and the --emit=llo printer.
 *
 * Gives:    llo_new_func, llo_new_blk, llo_new_reg, llo_add,
 *           llo_field_class, llo_has_imm, llo_pure, llo_flat_regs,
 *           llo_counted_loop, llo_trip_locals, llo_print (vliw.h).
 * Printing: one op per line in assembly order of its format, virtual
 *           registers as %s3 / %v7 / %m1 / %p2 (physical ones, after
 *           vliw_regalloc, as s3 / v7 ...), labels as .bN, and after
 *           vliw_sched each op prefixed by its bundle, "[c]"; a memory
 *           op with a known range ends in "; touches [lo, hi)".
 */
#include <string.h>

#include "backend/vliw/vliw.h"

LFunc *
llo_new_func(Arena *a, const MachPreset *mp, const char *name)
{
	LFunc *f = arena_alloc(a, sizeof *f);
	int c;

	f->name = name;
	f->arena = a;
	f->mp = mp;
	for (c = 0; c < NLCLASS; c++)
		f->nreg[c] = 1;
	llo_new_blk(f);
	return f;
}

int
llo_new_blk(LFunc *f)
{
	LBlk b;

	memset(&b, 0, sizeof b);
	vec_push(f->arena, &f->blk, b);
	return f->blk.n - 1;
}

int
llo_new_reg(LFunc *f, LClass c)
{
	return f->nreg[c]++;
}

LIns *
llo_add(LFunc *f, int blk, int op, int d, int a, int b, int c)
{
	LIns in;
	LBlk *bk = &f->blk.v[blk];

	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.d = d;
	in.a = a;
	in.b = b;
	in.c = c;
	in.target = -1;
	vec_push(f->arena, &bk->ins, in);
	return &bk->ins.v[bk->ins.n - 1];
}

static LClass
kind_class(int k)
{
	switch (k) {
	case K_S: return LC_S;
	case K_V: return LC_V;
	case K_M: return LC_M;
	case K_P: return LC_P;
	default: return LC_NONE;
	}
}

LClass
llo_field_class(int op, int fld)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[op].fmt];
	int i;

	for (i = 0; i < fi->nopnd; i++)
		if (fi->opnd[i].field == fld)
			return kind_class(fi->opnd[i].kind);
	return LC_NONE;
}

int
llo_has_imm(int op)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[op].fmt];
	int i;

	for (i = 0; i < fi->nopnd; i++)
		if (fi->opnd[i].kind == K_IMM || fi->opnd[i].kind == K_LABEL)
			return 1;
	return 0;
}

static int
field(const LIns *in, int fld)
{
	switch (fld) {
	case FLD_D: return in->d;
	case FLD_A: return in->a;
	case FLD_B: return in->b;
	case FLD_C: return in->c;
	case FLD_I: return in->imm;
	case FLD_X: return in->x;
	case FLD_XLO: return in->x & 0xff;
	case FLD_XHI: return in->x >> 8;
	default: return 0;
	}
}

static void
reg(Buf *out, const LFunc *f, char cls, int r)
{
	buf_printf(out, "%s%c%d", f->allocated ? "" : "%", cls, r);
}

static void
opnd(Buf *out, const LFunc *f, const LIns *in, MachOpnd o)
{
	int v = field(in, o.field);

	switch (o.kind) {
	case K_S: reg(out, f, 's', v); break;
	case K_V: reg(out, f, 'v', v); break;
	case K_M: reg(out, f, 'm', v); break;
	case K_P: reg(out, f, 'p', v); break;
	case K_F: buf_printf(out, "f%d", v); break;
	case K_MXU: buf_printf(out, "mxu%d", v); break;
	case K_XLU: buf_printf(out, "xlu%d", v); break;
	case K_LABEL: buf_printf(out, ".b%d", in->target); break;
	case K_SMASK: buf_printf(out, "0x%x", v); break;
	default: buf_printf(out, "%d", v); break;
	}
}

static void
print_ins(Buf *out, const LFunc *f, const LIns *in)
{
	const MachOpInfo *oi = &mach_opinfo[in->op];
	const MachFmtInfo *fi = &mach_fmtinfo[oi->fmt];
	int i;

	buf_puts(out, "  ");
	if (f->scheduled)
		buf_printf(out, "[%d] ", in->cycle);
	if (in->guard || in->gneg) {
		buf_puts(out, in->gneg ? "(!" : "(");
		reg(out, f, 'p', in->guard);
		buf_puts(out, ") ");
	}
	buf_puts(out, oi->name);
	for (i = 0; i < fi->nopnd; i++) {
		buf_puts(out, i ? ", " : " ");
		opnd(out, f, in, fi->opnd[i]);
	}
	if (in->mhi > in->mlo)
		buf_printf(out, "  ; touches [%d, %d)", in->mlo, in->mhi);
	buf_putc(out, '\n');
}

void
llo_print(Buf *out, const LFunc *f)
{
	int b, i;

	buf_printf(out, "llo @%s preset %s\n", f->name, f->mp->name);
	for (i = 0; i < f->opnd.n; i++) {
		const LOperand *o = &f->opnd.v[i];
		buf_printf(out, "  operand %d \"%s\" role %d dtype %d smem %u "
		    "bytes %llu\n", i, o->name, o->role, o->dtype, o->smem_addr,
		    (unsigned long long)o->bytes);
	}
	for (b = 0; b < f->blk.n; b++) {
		buf_printf(out, ".b%d:", b);
		if (f->scheduled)
			buf_printf(out, "  ; %d bundles", f->blk.v[b].nbundle);
		buf_putc(out, '\n');
		for (i = 0; i < f->blk.v[b].ins.n; i++)
			print_ins(out, f, &f->blk.v[b].ins.v[i]);
	}
}

int
llo_pure(const LIns *in)
{
	const MachOpInfo *oi = &mach_opinfo[in->op];
	LClass dc = llo_field_class(in->op, FLD_D);
	const int src[] = { in->a, in->b, in->c };
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	int i;

	if ((oi->unit != U_SALU && oi->unit != U_VALU) || oi->flags ||
	    in->op == OP_NOP || in->guard || in->gneg || dc == LC_NONE)
		return 0;
	for (i = 0; i < 3; i++)
		if (llo_field_class(in->op, fld[i]) == dc && src[i] == in->d)
			return 0;
	return 1;
}

int
llo_flat_regs(const LIns *in, const int *base, int r[4], int *d)
{
	static const int fld[] = { FLD_A, FLD_B, FLD_C };
	const int v[] = { in->a, in->b, in->c };
	LClass c;
	int k, n = 0;

	if (in->guard)
		r[n++] = base[LC_P] + in->guard;
	for (k = 0; k < 3; k++)
		if ((c = llo_field_class(in->op, fld[k])) != LC_NONE &&
		    !(c == LC_P && v[k] == 0))
			r[n++] = base[c] + v[k];
	c = llo_field_class(in->op, FLD_D);
	*d = c == LC_NONE || (c == LC_P && in->d == 0) ? -1 : base[c] + in->d;
	return n;
}

/* Does an op other than block b's last branch to block b? */
static int
entered_elsewhere(const LFunc *f, int b)
{
	int k, i;

	for (k = 0; k < f->blk.n; k++)
		for (i = 0; i < f->blk.v[k].ins.n; i++)
			if (f->blk.v[k].ins.v[i].target == b &&
			    !(k == b && i == f->blk.v[b].ins.n - 1))
				return 1;
	return 0;
}

int
llo_counted_loop(const LFunc *f, int b)
{
	const LBlk *bk;
	const LIns *last;
	int i;

	if (b <= 0 || b >= f->blk.n || f->blk.v[b].trips < 1 ||
	    f->blk.v[b].ins.n < 2)
		return 0;
	bk = &f->blk.v[b];
	last = &bk->ins.v[bk->ins.n - 1];
	if (last->op != OP_BR || last->target != b || !last->guard ||
	    last->gneg)
		return 0;
	for (i = 0; i + 1 < bk->ins.n; i++)
		if (mach_opinfo[bk->ins.v[i].op].flags & MACH_F_CTRL)
			return 0;
	if (entered_elsewhere(f, b))
		return 0;
	bk = &f->blk.v[b - 1];	/* falls in, maybe after a guarded br */
	if (bk->ins.n == 0)
		return 1;
	last = &bk->ins.v[bk->ins.n - 1];
	return !(mach_opinfo[last->op].flags & MACH_F_CTRL) ||
	    (last->op == OP_BR && (last->guard || last->gneg));
}

char *
llo_trip_locals(Arena *a, const LIns *body, int n, const int *base)
{
	int nflat = base[NLCLASS], i, k, r[4], d, nr;
	char *seen = arena_alloc(a, (size_t)nflat + 1);
	char *local = arena_alloc(a, (size_t)nflat + 1);

	memset(seen, 0, (size_t)nflat + 1);
	memset(local, 0, (size_t)nflat + 1);
	for (i = 0; i < n; i++) {
		nr = llo_flat_regs(&body[i], base, r, &d);
		for (k = 0; k < nr; k++)
			seen[r[k]] = 1;
		if (d >= 0 && !seen[d] && !body[i].guard)
			local[d] = 1;
		if (d >= 0)
			seen[d] = 1;
	}
	return local;
}
