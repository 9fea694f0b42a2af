/*
 * isel_vec.c - instruction selection for vector values: elementwise
 * VALU ops, compares and selects, splats, iotas, converts, and the EUP
 * functions as push/pop pairs.
 */
#include "backend/vliw/isel.h"

/* ------------------------------------------------------------ vectors */

static int
vclass(DType t)
{
	return t == DT_BOOL ? LC_M : LC_V;
}

int *
isel_vregs(Isel *I, const TVal *t)
{
	int *v = arena_alloc(I->a, sizeof(int) * (size_t)(t->lay.nvreg + 1));
	int i;

	for (i = 0; i < t->lay.nvreg; i++)
		v[i] = llo_new_reg(I->f, vclass(t->dtype));
	return v;
}

/* Vreg grid of a vector value: rows of vregs, columns of vregs. */
int
isel_vgrid(Isel *I, const TVal *t, int64_t *nr, int64_t *nc, int64_t *R,
    int64_t *C)
{
	int rk = t->shape.rank;

	if (t->lay.kind != TL_NATIVE || rk > 2 || dtype_size(t->dtype) != 4)
		return unsupported(I, arena_printf(I->a, "a %s vector of rank %d "
		    "with this layout", dtype_name(t->dtype), rk));
	*C = rk >= 1 ? t->shape.d[rk - 1] : 1;
	*R = rk >= 2 ? t->shape.d[rk - 2] : 1;
	*nr = (*R + t->lay.tile_r - 1) / t->lay.tile_r;
	*nc = (*C + t->lay.tile_c - 1) / t->lay.tile_c;
	return 0;
}

static int
vop_f(TOpKind k, DType t)
{
	int f = t == DT_F32;

	switch (k) {
	case TOP_ADD: return f ? OP_VADDF : OP_VADDI;
	case TOP_SUB: return f ? OP_VSUBF : OP_VSUBI;
	case TOP_MUL: return f ? OP_VMULF : OP_VMULI;
	case TOP_MAX: return f ? OP_VMAXF : OP_VMAXI;
	case TOP_MIN: return f ? OP_VMINF : OP_VMINI;
	case TOP_AND: return t == DT_BOOL ? OP_MAND : OP_VAND;
	case TOP_OR: return t == DT_BOOL ? OP_MOR : OP_VOR;
	case TOP_XOR: return t == DT_BOOL ? OP_MXOR : OP_VXOR;
	case TOP_SHL: return f ? 0 : OP_VSHL;
	case TOP_SHR: return f ? 0 : OP_VSRA;
	default: return 0;
	}
}

static int
vcmp_op(TCmp c, int f)
{
	static const int fo[NTCMP] = { OP_VCMPLTF, OP_VCMPLEF, OP_VCMPGTF,
		OP_VCMPGEF, OP_VCMPEQF, OP_VCMPNEF };
	static const int io[NTCMP] = { OP_VCMPLTI, OP_VCMPLEI, OP_VCMPGTI,
		OP_VCMPGEI, OP_VCMPEQI, OP_VCMPNEI };
	return f ? fo[c] : io[c];
}

static int
bcast_imm(Isel *I, uint32_t bits)
{
	int d = llo_new_reg(I->f, LC_V);

	addi(I, OP_VBCASTI, d, 0, (int32_t)bits);
	return d;
}

static void
vsplat(Isel *I, const TOp *o, Val *out)
{
	const Val *s = &I->val[o->arg[0]];
	const TVal *st = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int i, r;

	if (t->dtype == DT_BOOL) {
		unsupported(I, "a splat of a bool");
		return;
	}
	if (s->isconst)
		r = bcast_imm(I, st->dtype == DT_F32 ? f32_bits(s->cf) :
		    (uint32_t)s->ci);
	else {
		r = llo_new_reg(I->f, LC_V);
		add(I, OP_VBCAST, r, s->r, 0, 0);
	}
	out->nv = t->lay.nvreg;
	out->v = arena_alloc(I->a, sizeof(int) * (size_t)(out->nv + 1));
	for (i = 0; i < out->nv; i++)
		out->v[i] = r;		/* one register serves every vreg */
}

/* EUP: d = f(a) through a push and a pop. */
static int
eup(Isel *I, int op, int a)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, op, 0, a, 0, 0);
	add(I, OP_EPOP, d, 0, 0, 0);
	return d;
}

static int
vunary(Isel *I, TOpKind k, DType from, DType to, int a)
{
	int d = llo_new_reg(I->f, to == DT_BOOL ? LC_M : LC_V), t;

	switch (k) {
	case TOP_NEG:
		if (from != DT_F32) {
			t = bcast_imm(I, 0);
			add(I, OP_VSUBI, d, t, a, 0);
		} else
			add(I, OP_VNEGF, d, a, 0, 0);
		return d;
	case TOP_ABS:
		if (from != DT_F32) {
			t = llo_new_reg(I->f, LC_V);
			add(I, OP_VSUBI, t, bcast_imm(I, 0), a, 0);
			add(I, OP_VMAXI, d, a, t, 0);
		} else
			add(I, OP_VABSF, d, a, 0, 0);
		return d;
	case TOP_NOT:
		add(I, from == DT_BOOL ? OP_MNOT : OP_VNOT, d, a, 0, 0);
		return d;
	case TOP_CONVERT:
		if (from == to)
			return a;
		if (from == DT_I32 && to == DT_F32)
			add(I, OP_VCVTIF, d, a, 0, 0);
		else if (from == DT_F32 && to == DT_I32)
			add(I, OP_VCVTFI, d, a, 0, 0);
		else
			return unsupported(I, "this vector convert");
		return d;
	case TOP_EXP:
		add(I, OP_VMULF, d, a, bcast_imm(I, f32_bits(1.4426950408889634)),
		    0);
		return eup(I, OP_EEXP2, d);
	case TOP_LOG:
		t = eup(I, OP_ELOG2, a);
		add(I, OP_VMULF, d, t, bcast_imm(I, f32_bits(0.6931471805599453)),
		    0);
		return d;
	case TOP_TANH: return eup(I, OP_ETANH, a);
	case TOP_RSQRT: return eup(I, OP_ERSQRT, a);
	case TOP_RECIP: return eup(I, OP_ERCP, a);
	default:
		return unsupported(I, arena_printf(I->a, "vector '%s'",
		    tile_op_name(k)));
	}
}

static int
vbinary(Isel *I, const TOp *o, DType t, int a, int b)
{
	int op, d;

	if (o->op == TOP_CMP) {
		d = llo_new_reg(I->f, LC_M);
		add(I, vcmp_op(o->u.cmp, t == DT_F32), d, a, b, 0);
		return d;
	}
	if (o->op == TOP_DIV && t == DT_F32) {
		d = llo_new_reg(I->f, LC_V);
		add(I, OP_VMULF, d, a, eup(I, OP_ERCP, b), 0);
		return d;
	}
	if (!(op = vop_f(o->op, t)))
		return unsupported(I, arena_printf(I->a, "vector %s '%s'",
		    dtype_name(t), tile_op_name(o->op)));
	d = llo_new_reg(I->f, t == DT_BOOL ? LC_M : LC_V);
	add(I, op, d, a, b, 0);
	return d;
}

/* iota along axis: base iota plus the vreg's offset (and arg0). */
static void
viota(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	int64_t nr, nc, R, C, i, j, k;
	int rows, base, dyn = 0, r;

	if (isel_vgrid(I, t, &nr, &nc, &R, &C))
		return;
	rows = t->shape.rank == 2 && o->u.axis == 0;
	base = llo_new_reg(I->f, LC_V);
	add(I, rows ? OP_VIOTAS : OP_VIOTAL, base, 0, 0, 0);
	if (o->narg > 0) {
		dyn = llo_new_reg(I->f, LC_V);
		add(I, OP_VBCAST, dyn, isel_scal(I, o->arg[0]), 0, 0);
		r = llo_new_reg(I->f, LC_V);
		add(I, OP_VADDI, r, base, dyn, 0);
		base = r;
	}
	out->nv = (int)(nr * nc);
	out->v = arena_alloc(I->a, sizeof(int) * (size_t)(out->nv + 1));
	for (i = 0; i < nr; i++)
		for (j = 0; j < nc; j++) {
			k = rows ? i * t->lay.tile_r : j * t->lay.tile_c;
			r = base;
			if (k) {
				r = llo_new_reg(I->f, LC_V);
				add(I, OP_VADDI, r, base, bcast_imm(I, (uint32_t)k),
				    0);
			}
			out->v[i * nc + j] = r;
		}
}

void
isel_vector_op(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	DType at = o->narg ? tv(I, o->arg[0])->dtype : t->dtype;
	int i;

	if (o->op == TOP_SPLAT) {
		vsplat(I, o, out);
		return;
	}
	if (o->op == TOP_IOTA) {
		viota(I, o, out);
		return;
	}
	if (o->op == TOP_CONVERT && (at == DT_BF16 || t->dtype == DT_BF16)) {
		isel_convert_bf16(I, o, out);
		return;
	}
	out->nv = t->lay.nvreg;
	out->v = isel_vregs(I, t);
	for (i = 0; i < out->nv && !I->err; i++) {
		const Val *a = &I->val[o->arg[0]];
		if (o->op == TOP_SELECT) {
			int d = llo_new_reg(I->f, LC_V);
			add(I, OP_VSEL, d, I->val[o->arg[1]].v[i],
			    I->val[o->arg[2]].v[i], a->v[i]);
			out->v[i] = d;
		} else if (o->narg == 1)
			out->v[i] = vunary(I, o->op, at, t->dtype, a->v[i]);
		else
			out->v[i] = vbinary(I, o, at, a->v[i],
			    I->val[o->arg[1]].v[i]);
	}
}
