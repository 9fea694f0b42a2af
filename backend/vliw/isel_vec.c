/*
 * isel_vec.c - instruction selection for vector values: elementwise
 * VALU ops, compares and selects, masks, splats, iotas, converts, and the
 * EUP functions as push/pop pairs (the scheduler orders EUP FIFOs).
 *
 * Layouts: every operand is read tile by tile through isel_vtile(), so
 * native, lane-replicated and sublane-replicated operands mix freely; a
 * replicated result computes one vreg per row (column) of tiles, and a
 * native result computed from replicated operands reuses the vreg of a
 * neighbouring tile when the operands are the same registers.
 * Masks (bool vectors) are mask registers: and/or/xor/not, bool
 * compares (eq/ne), selects of masks, splats of bool scalars, converts
 * to and from 0/1 words.
 * Accuracy: exp(x) = exp2(x * log2 e) with the product split so its
 * rounding does not grow with |x|; log(x) = log2(x) * ln 2; x / y =
 * x * (1 / y); each within a few ulps of the C library (an exact f32
 * division, 95 VALU ops a tile, made Splash 2.4x slower).  i32 division
 * is isel_vdiv.c's, exact.
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

void
isel_vgeom(const TVal *t, VGeom *g)
{
	int rk = t->shape.rank, k;

	g->C = rk >= 1 ? t->shape.d[rk - 1] : 1;
	g->R = rk >= 2 ? t->shape.d[rk - 2] : 1;
	g->lead = 1;
	for (k = 0; k + 2 < rk; k++)
		g->lead *= t->shape.d[k];
	g->nr = (g->R + t->lay.tile_r - 1) / t->lay.tile_r;
	g->nc = (g->C + t->lay.tile_c - 1) / t->lay.tile_c;
}

/* Lead index of v for lead index l of want (NumPy broadcasting). */
static int64_t
lead_of(const TVal *v, const TVal *want, int64_t l)
{
	int nv = v->shape.rank - 2, nw = want->shape.rank - 2, k;
	int64_t idx = 0, mul = 1, d, x;

	for (k = nw - 1; k >= 0; k--) {
		d = want->shape.d[k];
		x = l % d;
		l /= d;
		if (k - (nw - nv) >= 0) {
			int64_t vd = v->shape.d[k - (nw - nv)];
			idx += (vd == 1 ? 0 : x) * mul;
			mul *= vd;
		}
	}
	return idx;
}

int
isel_vtile(Isel *I, TRef r, const TVal *want, int64_t l, int64_t i,
    int64_t j)
{
	const TVal *t = tv(I, r);
	const Val *v = &I->val[r];
	VGeom g, w;
	int k = t->lay.kind;
	int64_t ll;

	isel_vgeom(t, &g);
	isel_vgeom(want, &w);
	if ((g.R != w.R && k != TL_SUBLANE_REPL) ||
	    (g.C != w.C && k != TL_LANE_REPL) || !v->v ||
	    dtype_size(t->dtype) != 4 || (k != TL_NATIVE &&
	    k != TL_LANE_REPL && k != TL_SUBLANE_REPL))
		return unsupported(I, arena_printf(I->a, "a %s vector of rank "
		    "%d with this layout as an operand of this shape",
		    dtype_name(t->dtype), t->shape.rank));
	ll = lead_of(t, want, l);
	if (k == TL_LANE_REPL)
		return v->v[ll * g.nr + i];
	if (k == TL_SUBLANE_REPL)
		return v->v[ll * g.nc + j];
	return v->v[(ll * g.nr + i) * g.nc + j];
}

void
isel_vpack(Isel *I, const TVal *t, const int *tile, Val *out)
{
	VGeom g;
	int64_t l, i, j;
	int n = 0;

	isel_vgeom(t, &g);
	out->v = arena_alloc(I->a, sizeof(int) * (size_t)(t->lay.nvreg + 1));
	for (l = 0; l < g.lead; l++)
		for (i = 0; i < g.nr; i++)
			for (j = 0; j < g.nc; j++) {
				if ((t->lay.kind == TL_LANE_REPL && j) ||
				    (t->lay.kind == TL_SUBLANE_REPL && i))
					continue;
				if (n < t->lay.nvreg)
					out->v[n++] = tile[(l * g.nr + i) * g.nc + j];
			}
	out->nv = n;
}

int
isel_vimm(Isel *I, uint32_t bits)
{
	int d = llo_new_reg(I->f, LC_V);

	addi(I, OP_VBCASTI, d, 0, (int32_t)bits);
	return d;
}

int
isel_mask_to_v(Isel *I, int m)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, OP_VSEL, d, isel_vimm(I, 1), isel_vimm(I, 0), m);
	return d;
}

int
isel_v_to_mask(Isel *I, int v)
{
	int d = llo_new_reg(I->f, LC_M);

	add(I, OP_VCMPNEI, d, v, isel_vimm(I, 0), 0);
	return d;
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

/* A mask register equal to the bool scalar value (register or
   constant) everywhere. */
static int
mask_splat(Isel *I, TRef s)
{
	const Val *v = &I->val[s];
	int m = llo_new_reg(I->f, LC_M), z = isel_vimm(I, 0), one, t, w;

	if (v->isconst) {
		add(I, v->ci ? OP_VCMPEQI : OP_VCMPNEI, m, z, z, 0);
		return m;
	}
	one = sreg(I);
	addi(I, OP_SMOVI, one, 0, 1);
	t = sreg(I);
	add(I, OP_SSEL, t, one, I->zero, isel_scal(I, s));
	w = llo_new_reg(I->f, LC_V);
	add(I, OP_VBCAST, w, t, 0, 0);
	add(I, OP_VCMPNEI, m, w, z, 0);
	return m;
}

/* A packed i8 vreg holding the i32 scalar s's low byte everywhere. */
static int
splat_i8(Isel *I, const Val *s)
{
	int b, w, r;

	if (s->isconst)
		return isel_vimm(I, ((uint32_t)s->ci & 0xffu) * 0x01010101u);
	addi(I, OP_SANDI, b = sreg(I), s->r, 0xff);
	addi(I, OP_SMULI, w = sreg(I), b, 0x01010101);
	r = llo_new_reg(I->f, LC_V);
	add(I, OP_VBCAST, r, w, 0, 0);
	return r;
}

static void
vsplat(Isel *I, const TOp *o, Val *out)
{
	const Val *s = &I->val[o->arg[0]];
	const TVal *st = tv(I, o->arg[0]), *t = tv(I, o->res[0]);
	int i, r;

	if (t->dtype == DT_BOOL)
		r = mask_splat(I, o->arg[0]);
	else if (t->dtype == DT_I8)	/* packed: the byte in every byte */
		r = splat_i8(I, s);
	else if (s->isconst)
		r = isel_vimm(I, st->dtype == DT_F32 ? f32_bits(s->cf) :
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
int
isel_eup(Isel *I, int op, int a)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, op, 0, a, 0, 0);
	add(I, OP_EPOP, d, 0, 0, 0);
	return d;
}

int
isel_vop(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, op, d, a, b, 0);
	return d;
}

/*
 * exp(x) = 2^(x log2 e).  x = xh + xl with xh the top 12 significant
 * bits, log2 e = ch + cl likewise, so th = xh * ch is exact and
 * tl = xh * cl + xl * log2 e is small: exp(x) = 2^th * 2^tl, both on the
 * EUP.  tl is NaN only for infinite x (then 2^th alone is right).
 */
static int
vexp(Isel *I, int x)
{
	const double l2e = 1.4426950408889634;
	uint32_t chb = f32_bits(l2e) & 0xfffff000u;
	float ch;
	int hi, lo, th, tl, m, d;

	memcpy(&ch, &chb, 4);
	hi = isel_vop(I, OP_VAND, x, isel_vimm(I, 0xfffff000u));
	lo = isel_vop(I, OP_VSUBF, x, hi);
	th = isel_vop(I, OP_VMULF, hi, isel_vimm(I, chb));
	tl = isel_vop(I, OP_VADDF, isel_vop(I, OP_VMULF, hi,
	    isel_vimm(I, f32_bits(l2e - (double)ch))),
	    isel_vop(I, OP_VMULF, lo, isel_vimm(I, f32_bits(l2e))));
	m = llo_new_reg(I->f, LC_M);
	add(I, OP_VCMPEQF, m, tl, tl, 0);
	d = llo_new_reg(I->f, LC_V);
	add(I, OP_VSEL, d, tl, isel_vimm(I, 0), m);
	return isel_vop(I, OP_VMULF, isel_eup(I, OP_EEXP2, th), isel_eup(I,
	    OP_EEXP2, d));
}

int
isel_vsel(Isel *I, int m, int a, int b)
{
	int d = llo_new_reg(I->f, LC_V);

	add(I, OP_VSEL, d, a, b, m);
	return d;
}

/* sqrt(x) = x * rsqrt(x), and x itself for 0 and +inf. */
static int
vsqrt(Isel *I, int x)
{
	int z = llo_new_reg(I->f, LC_M), n = llo_new_reg(I->f, LC_M);
	int m = llo_new_reg(I->f, LC_M);

	add(I, OP_VCMPEQF, z, x, isel_vimm(I, 0), 0);
	add(I, OP_VCMPEQF, n, x, isel_vimm(I, 0x7f800000u), 0);
	add(I, OP_MOR, m, z, n, 0);
	return isel_vsel(I, m, x, isel_vop(I, OP_VMULF, x, isel_eup(I,
	    OP_ERSQRT, x)));
}

static int
vconvert(Isel *I, DType from, DType to, int a)
{
	int d;

	if (from == to)
		return a;
	if (from == DT_BOOL) {
		d = llo_new_reg(I->f, LC_V);
		add(I, OP_VSEL, d, isel_vimm(I, to == DT_F32 ?
		    f32_bits(1.0) : 1), isel_vimm(I, 0), a);
		return d;
	}
	if (to == DT_BOOL) {
		d = llo_new_reg(I->f, LC_M);
		add(I, from == DT_F32 ? OP_VCMPNEF : OP_VCMPNEI, d, a,
		    isel_vimm(I, 0), 0);
		return d;
	}
	if (from == DT_I32 && to == DT_F32)
		return isel_vop(I, OP_VCVTIF, a, 0);
	if (from == DT_F32 && to == DT_I32)
		return isel_vop(I, OP_VCVTFI, a, 0);
	return unsupported(I, arena_printf(I->a, "a vector convert from %s "
	    "to %s", dtype_name(from), dtype_name(to)));
}

static int
vunary(Isel *I, TOpKind k, DType from, DType to, int a)
{
	int d;

	switch (k) {
	case TOP_NEG:
		if (from != DT_F32)
			return isel_vop(I, OP_VSUBI, isel_vimm(I, 0), a);
		return isel_vop(I, OP_VNEGF, a, 0);
	case TOP_ABS:
		if (from != DT_F32)
			return isel_vop(I, OP_VMAXI, a, isel_vop(I, OP_VSUBI,
			    isel_vimm(I, 0), a));
		return isel_vop(I, OP_VABSF, a, 0);
	case TOP_NOT:
		if (from == DT_BOOL) {
			d = llo_new_reg(I->f, LC_M);
			add(I, OP_MNOT, d, a, 0, 0);
			return d;
		}
		return isel_vop(I, OP_VNOT, a, 0);
	case TOP_CONVERT:
		return vconvert(I, from, to, a);
	default:
		break;
	}
	if (from != DT_F32)
		return unsupported(I, arena_printf(I->a, "vector %s '%s'",
		    dtype_name(from), tile_op_name(k)));
	switch (k) {
	case TOP_EXP: return vexp(I, a);
	case TOP_LOG:
		return isel_vop(I, OP_VMULF, isel_eup(I, OP_ELOG2, a),
		    isel_vimm(I, f32_bits(0.6931471805599453)));
	case TOP_SQRT: return vsqrt(I, a);
	case TOP_TANH: return isel_eup(I, OP_ETANH, a);
	case TOP_RSQRT: return isel_eup(I, OP_ERSQRT, a);
	case TOP_RECIP: return isel_eup(I, OP_ERCP, a);
	default:
		return unsupported(I, arena_printf(I->a, "vector '%s'",
		    tile_op_name(k)));
	}
}

static int
mop(Isel *I, int op, int a, int b)
{
	int d = llo_new_reg(I->f, LC_M);

	add(I, op, d, a, b, 0);
	return d;
}

/* A binary op (or compare) on one tile of each operand. */
static int
vbinary(Isel *I, const TOp *o, DType t, int a, int b)
{
	int op, d;

	if (o->op == TOP_CMP && t == DT_BOOL) {
		if (o->u.cmp != TC_EQ && o->u.cmp != TC_NE)
			return unsupported(I, "an ordered compare of masks");
		d = mop(I, OP_MXOR, a, b);
		return o->u.cmp == TC_NE ? d : mop(I, OP_MNOT, d, 0);
	}
	if (o->op == TOP_CMP)
		return mop(I, vcmp_op(o->u.cmp, t == DT_F32), a, b);
	if (o->op == TOP_DIV && t == DT_F32)
		return isel_vop(I, OP_VMULF, a, isel_eup(I, OP_ERCP, b));
	if (o->op == TOP_REM && t == DT_F32)
		return isel_vfrem(I, a, b);
	if ((o->op == TOP_DIV || o->op == TOP_REM) && t == DT_I32)
		return isel_vdiv_i32(I, a, b, o->arg[1], o->op == TOP_REM);
	if (!(op = vop_f(o->op, t)))
		return unsupported(I, arena_printf(I->a, "vector %s '%s'",
		    dtype_name(t), tile_op_name(o->op)));
	if (t == DT_BOOL)
		return mop(I, op, a, b);
	return isel_vop(I, op, a, b);
}

/* c ? a : b on one tile; masks select through and/or. */
static int
vselect(Isel *I, DType t, int c, int a, int b)
{
	if (t != DT_BOOL)
		return isel_vsel(I, c, a, b);
	return mop(I, OP_MOR, mop(I, OP_MAND, c, a),
	    mop(I, OP_MAND, mop(I, OP_MNOT, c, 0), b));
}

/* iota along axis: base iota plus the tile's offset (and arg0). */
static void
viota(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	VGeom g;
	int64_t l, i, j, k, n;
	int rows, base, r, *tile;

	isel_vgeom(t, &g);
	if (t->lay.kind != TL_NATIVE || t->dtype != DT_I32 ||
	    o->u.axis < t->shape.rank - 2) {
		unsupported(I, "an iota along a leading dimension or not "
		    "native i32");
		return;
	}
	rows = o->u.axis == t->shape.rank - 2;
	base = llo_new_reg(I->f, LC_V);
	add(I, rows ? OP_VIOTAS : OP_VIOTAL, base, 0, 0, 0);
	if (o->narg > 0) {
		r = llo_new_reg(I->f, LC_V);
		add(I, OP_VBCAST, r, isel_scal(I, o->arg[0]), 0, 0);
		base = isel_vop(I, OP_VADDI, base, r);
	}
	n = g.lead * g.nr * g.nc;
	tile = arena_alloc(I->a, sizeof(int) * (size_t)(n + 1));
	for (l = 0; l < g.lead; l++)
		for (i = 0; i < g.nr; i++)
			for (j = 0; j < g.nc; j++) {
				k = rows ? i * t->lay.tile_r : j * t->lay.tile_c;
				r = base;
				if (k)
					r = isel_vop(I, OP_VADDI, base,
					    isel_vimm(I, (uint32_t)k));
				tile[(l * g.nr + i) * g.nc + j] = r;
			}
	isel_vpack(I, t, tile, out);
}

/* One tile of an elementwise op from the operands' tiles a[]. */
static int
ew_tile(Isel *I, const TOp *o, DType at, DType rt, const int *a)
{
	if (o->op == TOP_SELECT)
		return vselect(I, rt, a[0], a[1], a[2]);
	if (o->narg == 1)
		return vunary(I, o->op, at, rt, a[0]);
	return vbinary(I, o, at, a[0], a[1]);
}

/*
 * An elementwise op over every tile of the result's grid (one per row or
 * column of tiles for replicated results).  A tile whose operands are
 * the registers of the tile to its left (above) reuses its result.
 */
static void
elementwise(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	DType at = tv(I, o->arg[o->op == TOP_SELECT ? 1 : 0])->dtype;
	VGeom g;
	int64_t l, i, j, n, k, q;
	int *tile, *opr, a[3], smask = 0;

	isel_vgeom(t, &g);
	n = g.lead * g.nr * g.nc;
	tile = arena_alloc(I->a, sizeof(int) * (size_t)(n + 1));
	opr = arena_alloc(I->a, sizeof(int) * (size_t)(3 * n + 1));
	if (o->op == TOP_SELECT && tv(I, o->arg[0])->kind == TV_SCALAR)
		smask = mask_splat(I, o->arg[0]);
	for (l = 0; l < g.lead && !I->err; l++)
		for (i = 0; i < g.nr && !I->err; i++)
			for (j = 0; j < g.nc && !I->err; j++) {
				k = (l * g.nr + i) * g.nc + j;
				tile[k] = 0;
				if ((t->lay.kind == TL_LANE_REPL && j) ||
				    (t->lay.kind == TL_SUBLANE_REPL && i))
					continue;
				for (q = 0; q < o->narg && q < 3; q++)
					a[q] = opr[3 * k + q] = q == 0 && smask ?
					    smask : isel_vtile(I, o->arg[q], t,
					    l,
					    i, j);
				if (I->err)
					return;
				if (j && !memcmp(a, &opr[3 * (k - 1)],
				    sizeof(int) *
				    (size_t)o->narg))
					tile[k] = tile[k - 1];
				else if (i && !memcmp(a, &opr[3 * (k - g.nc)],
				    sizeof(int) * (size_t)o->narg))
					tile[k] = tile[k - g.nc];
				else
					tile[k] = ew_tile(I, o, at, t->dtype,
					    a);
			}
	if (!I->err)
		isel_vpack(I, t, tile, out);
}

void
isel_vector_op(Isel *I, const TOp *o, Val *out)
{
	const TVal *t = tv(I, o->res[0]);
	DType at = o->narg ? tv(I, o->arg[0])->dtype : t->dtype;

	if (o->op == TOP_SPLAT) {
		vsplat(I, o, out);
		return;
	}
	if (o->op == TOP_IOTA) {
		viota(I, o, out);
		return;
	}
	if (o->op == TOP_CONVERT && (at == DT_BF16 || t->dtype == DT_BF16 ||
	    at == DT_I8 || t->dtype == DT_I8)) {
		isel_convert_bf16(I, o, out);
		return;
	}
	elementwise(I, o, out);
}
