/*
 * isel.c - instruction selection: one tile-IR function to LLO.
 *
 * Needs:    a verified, allocated TFunc (buffers have offsets, flags ids).
 * Gives:    an LFunc in virtual registers: block 0 is a prologue (the zero
 *           register, the static words of every DMA descriptor, the
 *           kernel's trace.begin), the body follows, the last block ends
 *           with trace.end and halt.  Operands come from the TB_HBM
 *           buffers (argument table slot 8 * operand index, as
 *           backend/mosaic/alloc.c lays it out); roles from the DMAs that
 *           read or write them.  A for with constant bounds marks the
 *           first block of its body with its trip count (LBlk.trips);
 *           memory ops carry their buffer's range (isel_tag).
 * Method:   one walk over the structured tile IR.  for -> pre-check,
 *           body, latch with a backward branch; if -> forward branches.
 *           Vector values are arrays of vregs (one per tile of their
 *           layout), one op per vreg; block-sized values arrive already
 *           chunked by Mosaic.  A DMA's descriptor lives in a backend
 *           SMEM area after TFunc.smem_bytes, one per dma_start site:
 *           static words are written once by the prologue, addresses at
 *           the site.  Dynamic flag indices become one guarded op per
 *           flag.
 * Subset:   f32, i32, bool and bf16 values; what the files below do not
 *           lower (a row stored into a column, some bf16 and DMA view
 *           shapes) is
 *           reported as not supported yet, naming the construct.
 * Files:    isel.c the walk, scalars and control flow; isel_sdiv.c scalar
 *           division; isel_ref.c memory views, loads and stores;
 *           isel_vec.c elementwise and EUP ops; isel_vdiv.c vector
 *           division; isel_xlu.c reductions,
 *           broadcasts, reshapes, rolls, transposes; isel_bf16.c packed
 *           bf16; isel_dma.c DMAs and flags; isel_mxu.c matmuls; isel.h
 *           what they share.
 * Entry:    vliw_isel(const TFunc *, const MachPreset *, Diag *, Arena *)
 */
#include "backend/vliw/isel.h"

static void ops(Isel *I, int blk);

/* ------------------------------------------------------------ scalars */

/* The scalar v of type t in a register (constants materialised here). */
int
isel_sval(Isel *I, const TVal *t, const Val *v)
{
	int d;

	if (!v->isconst)
		return v->r;
	if (t->dtype == DT_BOOL) {
		if (v->ci)
			return 0;	/* p0 */
		d = llo_new_reg(I->f, LC_P);
		add(I, OP_PNOT, d, 0, 0, 0);
		return d;
	}
	d = sreg(I);
	addi(I, OP_SMOVI, d, 0, t->dtype == DT_F32 ? (int64_t)f32_bits(v->cf)
	    : v->ci);
	return d;
}

int
isel_scal(Isel *I, TRef r)
{
	return isel_sval(I, tv(I, r), &I->val[r]);
}

int
isel_cst(Isel *I, TRef r, int64_t *out)
{
	if (!I->val[r].isconst || tv(I, r)->dtype == DT_F32)
		return 0;
	*out = I->val[r].ci;
	return 1;
}

static int
binop_s(TOpKind k, int *imm)
{
	static const struct { int op, opi; } t[] = {
		[TOP_ADD] = { OP_SADD, OP_SADDI },
		[TOP_SUB] = { OP_SSUB, 0 },
		[TOP_MUL] = { OP_SMUL, OP_SMULI },
		[TOP_MAX] = { OP_SMAX, OP_SMAXI },
		[TOP_MIN] = { OP_SMIN, OP_SMINI },
		[TOP_AND] = { OP_SAND, OP_SANDI },
		[TOP_OR] = { OP_SOR, OP_SORI },
		[TOP_XOR] = { OP_SXOR, OP_SXORI },
		[TOP_SHL] = { OP_SSHL, OP_SSHLI },
		[TOP_SHR] = { OP_SSRA, OP_SSRAI },
	};

	if ((size_t)k >= countof(t) || !t[k].op)
		return 0;
	*imm = t[k].opi;
	return t[k].op;
}

static int
cmp_op(TCmp c, int imm)
{
	static const int r[NTCMP] = { OP_SCMPLT, OP_SCMPLE, OP_SCMPGT,
		OP_SCMPGE, OP_SCMPEQ, OP_SCMPNE };
	static const int i[NTCMP] = { OP_SCMPILT, OP_SCMPILE, OP_SCMPIGT,
		OP_SCMPIGE, OP_SCMPIEQ, OP_SCMPINE };

	return imm ? i[c] : r[c];
}

static TCmp
swap_cmp(TCmp c)
{
	static const TCmp s[NTCMP] = { TC_GT, TC_GE, TC_LT, TC_LE, TC_EQ,
		TC_NE };
	return s[c];
}

static int
bool_op(Isel *I, const TOp *o)
{
	int a, b, d, t;

	if (tv(I, o->arg[0])->dtype != DT_BOOL)	/* its registers are not p */
		bug("vliw: isel: a bool op on %s",
		    dtype_name(tv(I, o->arg[0])->dtype));
	a = isel_scal(I, o->arg[0]);
	d = llo_new_reg(I->f, LC_P);
	if (o->op == TOP_NOT) {
		add(I, OP_PNOT, d, a, 0, 0);
		return d;
	}
	b = isel_scal(I, o->arg[1]);
	switch (o->op) {
	case TOP_AND: add(I, OP_PAND, d, a, b, 0); break;
	case TOP_OR: add(I, OP_POR, d, a, b, 0); break;
	case TOP_XOR: case TOP_CMP:
		if (o->op == TOP_CMP && o->u.cmp != TC_NE && o->u.cmp != TC_EQ)
			return unsupported(I, "an ordered compare of bools");
		t = llo_new_reg(I->f, LC_P);
		add(I, OP_PAND, t, a, b, 0);
		add(I, OP_PNOT, t, t, 0, 0);
		add(I, OP_POR, d, a, b, 0);
		add(I, OP_PAND, d, d, t, 0);
		if (o->op == TOP_CMP && o->u.cmp == TC_EQ)
			add(I, OP_PNOT, d, d, 0, 0);
		break;
	default:
		return unsupported(I, arena_printf(I->a, "scalar bool '%s'",
		    tile_op_name(o->op)));
	}
	return d;
}

/*
 * The f32 in register x as an i32 that orders as the float (sign and
 * magnitude to two's complement: -0 and +0 both become 0); *nan gets a
 * predicate, true when x is a NaN.
 */
static int
f32_key(Isel *I, int x, int *nan)
{
	int s = sreg(I), m = sreg(I), k = sreg(I), d = sreg(I);

	*nan = llo_new_reg(I->f, LC_P);
	addi(I, OP_SSRAI, s, x, 31);
	addi(I, OP_SANDI, m, x, 0x7fffffff);
	addi(I, OP_SCMPIGT, *nan, m, 0x7f800000);
	add(I, OP_SXOR, k, m, s, 0);	/* -m = (m ^ -1) - -1 */
	add(I, OP_SSUB, d, k, s, 0);
	return d;
}

/*
 * A scalar f32 compare on the i32 ALUs, exact: the ordered keys compare
 * as the floats, and a NaN makes every compare false but != true.
 */
static int
f32_cmp(Isel *I, const TOp *o)
{
	int na, nb, n = llo_new_reg(I->f, LC_P), d = llo_new_reg(I->f, LC_P);
	int a = f32_key(I, isel_scal(I, o->arg[0]), &na);
	int b = f32_key(I, isel_scal(I, o->arg[1]), &nb);

	add(I, cmp_op(o->u.cmp, 0), d, a, b, 0);
	add(I, OP_POR, n, na, nb, 0);
	if (o->u.cmp == TC_NE) {
		add(I, OP_POR, d, d, n, 0);
		return d;
	}
	add(I, OP_PNOT, n, n, 0, 0);
	add(I, OP_PAND, d, d, n, 0);
	return d;
}

static int
scalar_cmp(Isel *I, const TOp *o)
{
	int64_t c;
	int d;
	DType t = tv(I, o->arg[0])->dtype;

	if (t == DT_BOOL)
		return bool_op(I, o);
	if (t == DT_F32)
		return f32_cmp(I, o);
	if (t != DT_I32)
		return unsupported(I, arena_printf(I->a, "a scalar %s compare",
		    dtype_name(t)));
	d = llo_new_reg(I->f, LC_P);
	if (isel_cst(I, o->arg[1], &c))
		addi(I, cmp_op(o->u.cmp, 1), d, isel_scal(I, o->arg[0]), c);
	else if (isel_cst(I, o->arg[0], &c))
		addi(I, cmp_op(swap_cmp(o->u.cmp), 1), d, isel_scal(I, o->arg[1]), c);
	else
		add(I, cmp_op(o->u.cmp, 0), d, isel_scal(I, o->arg[0]),
		    isel_scal(I, o->arg[1]), 0);
	return d;
}

static int
scalar_select(Isel *I, const TOp *o)
{
	int p = isel_scal(I, o->arg[0]), a = isel_scal(I, o->arg[1]);
	int b = isel_scal(I, o->arg[2]), d, t;

	if (tv(I, o->res[0])->dtype != DT_BOOL) {
		d = sreg(I);
		add(I, OP_SSEL, d, a, b, p);
		return d;
	}
	d = llo_new_reg(I->f, LC_P);
	t = llo_new_reg(I->f, LC_P);
	add(I, OP_PAND, d, p, a, 0);		/* d = p & a | !p & b */
	add(I, OP_PNOT, t, p, 0, 0);
	add(I, OP_PAND, t, t, b, 0);
	add(I, OP_POR, d, d, t, 0);
	return d;
}

/* A scalar op; the result register, or -1 after a diagnostic. */
static int
scalar_op(Isel *I, const TOp *o)
{
	DType t = tv(I, o->res[0])->dtype;
	int op, opi, d;
	int64_t c;

	if (o->op == TOP_CMP)
		return scalar_cmp(I, o);
	if (o->op == TOP_SELECT)
		return scalar_select(I, o);
	if (t == DT_BOOL)
		return bool_op(I, o);
	if (t == DT_F32 && o->op == TOP_DIV)
		return isel_sfdiv(I, isel_scal(I, o->arg[0]),
		    isel_scal(I, o->arg[1]));
	if (t == DT_F32 && o->op == TOP_REM)
		return isel_sfrem(I, isel_scal(I, o->arg[0]),
		    isel_scal(I, o->arg[1]));
	if (t != DT_I32)
		return unsupported(I, arena_printf(I->a, "scalar %s '%s'",
		    dtype_name(t), tile_op_name(o->op)));
	d = sreg(I);
	if (o->op == TOP_NEG) {
		add(I, OP_SSUB, d, I->zero, isel_scal(I, o->arg[0]), 0);
		return d;
	}
	if (o->op == TOP_NOT) {
		addi(I, OP_SXORI, d, isel_scal(I, o->arg[0]), -1);
		return d;
	}
	if (o->op == TOP_ABS) {	/* max(a, -a): INT32_MIN stays, wrapped */
		int a = isel_scal(I, o->arg[0]), m = sreg(I);
		add(I, OP_SSUB, d, I->zero, a, 0);
		add(I, OP_SMAX, m, a, d, 0);
		return m;
	}
	if (o->op == TOP_DIV || o->op == TOP_REM)
		return isel_sdiv(I, isel_scal(I, o->arg[0]), o->arg[1],
		    o->op == TOP_REM);
	if (o->narg != 2 || !(op = binop_s(o->op, &opi)))
		return unsupported(I, arena_printf(I->a, "scalar i32 '%s'",
		    tile_op_name(o->op)));
	if (opi && isel_cst(I, o->arg[1], &c))
		addi(I, opi, d, isel_scal(I, o->arg[0]), c);
	else if (opi && o->op != TOP_SHL && o->op != TOP_SHR &&
	    isel_cst(I, o->arg[0], &c))
		addi(I, opi, d, isel_scal(I, o->arg[1]), c);
	else
		add(I, op, d, isel_scal(I, o->arg[0]), isel_scal(I, o->arg[1]), 0);
	return d;
}

/* s = a + b * k (registers; 0 = absent) into a new register. */
int
isel_madd(Isel *I, int a, int b, int64_t k)
{
	int t, d;

	if (!b)
		return a;
	t = b;
	if (k != 1) {
		t = sreg(I);
		addi(I, OP_SMULI, t, b, k);
	}
	if (!a)
		return t;
	d = sreg(I);
	add(I, OP_SADD, d, a, t, 0);
	return d;
}

/* ------------------------------------------------------------ matmul */

/* A matmul operand for isel_mxu.c: a tile-aligned f32 VMEM view. */
static int
mm_opnd(Isel *I, TRef ref, VliwMMOpnd *m)
{
	const Ref *r = I->val[ref].ref;
	int64_t R, C, S = I->mp->sublanes, L = I->mp->lanes;

	DType t = tv(I, ref)->dtype;

	if (isel_region(I, r, &m->rows, &m->cols))
		return -1;
	if (r->space != TS_VMEM || (t != DT_F32 && t != DT_BF16))
		return unsupported(I, "a matmul on operands that are not f32 "
		    "or bf16 in VMEM");
	m->pack = t == DT_BF16 ? 2 : 1;
	if (r->rank < 2 || r->start[r->rank - 2] % (S * m->pack) ||
	    r->start[r->rank - 1] % L)
		return unsupported(I, "a matmul on views that are not tile "
		    "aligned");
	m->base = isel_address(I, r, &m->imm);
	if (I->err)
		return -1;
	isel_mat(isel_rbuf(I, r), &R, &C);
	m->cstride = S * L * 4;
	m->rstride = (C + L - 1) / L * m->cstride;
	return 0;
}

static void
matmul(Isel *I, const TOp *o)
{
	VliwMM mm;
	const char *why;

	memset(&mm, 0, sizeof mm);
	if (mm_opnd(I, o->arg[0], &mm.dst) || mm_opnd(I, o->arg[1], &mm.lhs) ||
	    mm_opnd(I, o->arg[2], &mm.rhs))
		return;
	mm.trans_b = o->u.mm.trans_b;
	mm.accumulate = o->u.mm.accumulate;
	mm.prec = o->u.mm.prec;
	mm.zero = I->zero;
	mm.loc = I->loc;
	if ((why = vliw_isel_matmul(I->f, &I->cur, &mm)) != NULL)
		unsupported(I, why);
}

/* ------------------------------------------------------------ control */

static void
branch(Isel *I, int p, int neg, int *blk, int *idx)
{
	LIns *in = add(I, OP_BR, 0, 0, 0, 0);

	in->guard = p;
	in->gneg = (uint8_t)neg;
	*blk = I->cur;
	*idx = I->f->blk.v[I->cur].ins.n - 1;
}

static void
patch(Isel *I, int blk, int idx, int target)
{
	I->f->blk.v[blk].ins.v[idx].target = target;
}

static int
new_blk(Isel *I)
{
	return I->cur = llo_new_blk(I->f);
}

/* A copy of value v into fresh registers (for/yield moves). */
static void
move(Isel *I, const TVal *t, const Val *from, Val *to, int fresh)
{
	int i;

	if (t->kind == TV_SCALAR) {
		int s = isel_sval(I, t, from);
		int p = t->dtype == DT_BOOL;
		if (fresh)
			to->r = llo_new_reg(I->f, p ? LC_P : LC_S);
		if (p)
			add(I, OP_POR, to->r, s, s, 0);
		else
			add(I, OP_SMOV, to->r, s, 0, 0);
		return;
	}
	if (fresh) {
		to->nv = from->nv;
		to->v = isel_vregs(I, t);
	}
	for (i = 0; i < from->nv; i++)
		add(I, t->dtype == DT_BOOL ? OP_MOR : OP_VMOV, to->v[i],
		    from->v[i], t->dtype == DT_BOOL ? from->v[i] : 0, 0);
}

static int
loop_cmp(Isel *I, int iv, TRef hi, int64_t step)
{
	int p = llo_new_reg(I->f, LC_P);
	int64_t c;
	TCmp k = step > 0 ? TC_LT : TC_GT;

	if (isel_cst(I, hi, &c))
		addi(I, cmp_op(k, 1), p, iv, c);
	else
		add(I, cmp_op(k, 0), p, iv, isel_scal(I, hi), 0);
	return p;
}

static void
lower_for(Isel *I, const TOp *o)
{
	const TBlock *body = &I->tf->blk.v[o->blk[0]];
	int64_t lo, hi, step = o->u.loop.step;
	int iv = sreg(I), i, pb = -1, pi = 0, top, p, known;

	known = isel_cst(I, o->arg[0], &lo) && isel_cst(I, o->arg[1], &hi);
	add(I, OP_SMOV, iv, isel_scal(I, o->arg[0]), 0, 0);
	I->val[body->arg.v[0]].r = iv;
	for (i = 2; i < o->narg; i++)
		move(I, tv(I, o->arg[i]), &I->val[o->arg[i]],
		    &I->val[body->arg.v[i - 1]], 1);
	if (!known || (step > 0 ? lo >= hi : lo <= hi))
		branch(I, loop_cmp(I, iv, o->arg[1], step), 1, &pb, &pi);
	top = new_blk(I);
	ops(I, o->blk[0]);
	if (I->err)
		return;
	if (o->nres) {		/* parallel copy through temporaries */
		const TOp *y = &I->tf->op.v[body->op.v[body->op.n - 1]];
		Val *tmp = arena_alloc(I->a, sizeof(Val) * (size_t)y->narg);
		for (i = 0; i < y->narg; i++)
			move(I, tv(I, y->arg[i]), &I->val[y->arg[i]], &tmp[i], 1);
		for (i = 0; i < y->narg; i++)
			move(I, tv(I, y->arg[i]), &tmp[i],
			    &I->val[body->arg.v[i + 1]], 0);
	}
	addi(I, OP_SADDI, iv, iv, step);
	p = loop_cmp(I, iv, o->arg[1], step);
	if (known && pb < 0)	/* counted */
		I->f->blk.v[top].trips = step > 0 ? (hi - lo + step - 1) / step
		    : (lo - hi - step - 1) / -step;
	{
		int bb, bi;
		branch(I, p, 0, &bb, &bi);
		patch(I, bb, bi, top);
	}
	new_blk(I);
	if (pb >= 0)
		patch(I, pb, pi, I->cur);
	for (i = 0; i < o->nres; i++)
		I->val[o->res[i]] = I->val[body->arg.v[i + 1]];
}

static void
lower_if(Isel *I, const TOp *o)
{
	int p = isel_scal(I, o->arg[0]), b1, i1, b2 = -1, i2 = 0;

	branch(I, p, 1, &b1, &i1);
	new_blk(I);
	ops(I, o->blk[0]);
	if (o->blk[1] >= 0) {
		branch(I, 0, 0, &b2, &i2);
		patch(I, b1, i1, new_blk(I));
		ops(I, o->blk[1]);
	}
	new_blk(I);
	if (b2 >= 0)
		patch(I, b2, i2, I->cur);
	else
		patch(I, b1, i1, I->cur);
}

/* A failed check: the trap, guarded by the condition, reads its record
   at the ref's SMEM address; a condition known false needs no code. */
static void
trap(Isel *I, const TOp *o)
{
	const Ref *rec = I->val[o->arg[1]].ref;
	int64_t c, imm;
	int base, t;
	LIns *in;

	if (isel_cst(I, o->arg[0], &c) && !c)
		return;
	base = isel_address(I, rec, &imm);
	if (I->err)
		return;
	if (!base)
		base = I->zero;
	if (imm) {
		t = sreg(I);
		addi(I, OP_SADDI, t, base, imm);
		base = t;
	}
	vec_push(I->a, &I->f->msg, o->name ? o->name : "");
	in = addi(I, OP_TRAP, 0, base, I->f->msg.n - 1);
	in->guard = isel_scal(I, o->arg[0]);
	isel_tag(in, isel_rbuf(I, rec));	/* reads the record only */
}

static int
region_id(Isel *I, const char *name)
{
	int i;

	for (i = 0; i < I->f->region.n; i++)
		if (strcmp(I->f->region.v[i], name) == 0)
			return i;
	vec_push(I->a, &I->f->region, name);
	return I->f->region.n - 1;
}

/* ------------------------------------------------------------ ops */

/* a op b on i32 (or 0/1 bools) constants, wrapping as the machine;
   0 if it cannot be folded. */
static int
fold2(TOpKind k, TCmp c, int64_t a, int64_t b, int64_t *r)
{
	uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
	int32_t x = (int32_t)a, y = (int32_t)b;

	switch (k) {
	case TOP_ADD: *r = (int32_t)(ua + ub); return 1;
	case TOP_SUB: *r = (int32_t)(ua - ub); return 1;
	case TOP_MUL: *r = (int32_t)(ua * ub); return 1;
	case TOP_AND: *r = x & y; return 1;
	case TOP_OR: *r = x | y; return 1;
	case TOP_XOR: *r = x ^ y; return 1;
	case TOP_MAX: *r = x > y ? x : y; return 1;
	case TOP_MIN: *r = x < y ? x : y; return 1;
	case TOP_CMP:
		switch (c) {
		case TC_LT: *r = x < y; return 1;
		case TC_LE: *r = x <= y; return 1;
		case TC_GT: *r = x > y; return 1;
		case TC_GE: *r = x >= y; return 1;
		case TC_EQ: *r = x == y; return 1;
		case TC_NE: *r = x != y; return 1;
		default: return 0;
		}
	default:
		return 0;
	}
}

/* a op b on f32 constants, rounded once as interpret mode's C; 0 if
   it cannot be folded. */
static int
fold2f(TOpKind k, double a, double b, double *r)
{
	float x = (float)a, y = (float)b;

	switch (k) {
	case TOP_ADD: *r = x + y; return 1;
	case TOP_SUB: *r = x - y; return 1;
	case TOP_MUL: *r = x * y; return 1;
	case TOP_DIV: *r = x / y; return 1;
	default: return 0;
	}
}

/* a c b on f32 constants, as interpret mode's C (NaN: only != holds). */
static int
fold_cmpf(TCmp c, double a, double b)
{
	float x = (float)a, y = (float)b;

	switch (c) {
	case TC_LT: return x < y;
	case TC_LE: return x <= y;
	case TC_GT: return x > y;
	case TC_GE: return x >= y;
	case TC_EQ: return x == y;
	default: return x != y;
	}
}

/* A scalar f32 op (or compare) on constants folded into *out; 1 when
   folded. */
static int
fold_f32(Isel *I, const TOp *o, Val *out)
{
	const Val *a = o->narg > 0 ? &I->val[o->arg[0]] : NULL;
	const Val *b = o->narg > 1 ? &I->val[o->arg[1]] : NULL;
	double r;

	if (o->narg != 2 || !a->isconst || !b->isconst ||
	    tv(I, o->arg[0])->dtype != DT_F32 ||
	    tv(I, o->arg[1])->dtype != DT_F32)
		return 0;
	out->isconst = 1;
	if (o->op == TOP_CMP) {
		out->ci = fold_cmpf(o->u.cmp, a->cf, b->cf);
		out->cf = (double)out->ci;
		return 1;
	}
	if (!fold2f(o->op, a->cf, b->cf, &r))
		return out->isconst = 0;
	out->cf = (float)r;
	return 1;
}

/*
 * Folds a scalar op whose operands are constants, and bool and/or/select
 * with one constant operand (the grid pipeline's conditions often are
 * "true and x"): *out becomes a constant or another value, no code.
 * Returns 1 when folded.
 */
static int
fold(Isel *I, const TOp *o, Val *out)
{
	int64_t a, b, r;
	int ka = o->narg > 0 && isel_cst(I, o->arg[0], &a);
	int kb = o->narg > 1 && isel_cst(I, o->arg[1], &b);
	DType t = tv(I, o->res[0])->dtype;

	if (t == DT_F32 || (o->op == TOP_CMP &&
	    tv(I, o->arg[0])->dtype == DT_F32))
		return fold_f32(I, o, out);
	if (t != DT_I32 && t != DT_BOOL)
		return 0;
	if (o->op == TOP_SELECT && ka) {
		*out = I->val[o->arg[a ? 1 : 2]];
		return 1;
	}
	if (o->narg == 2 && ka && kb && fold2(o->op, o->u.cmp, a, b, &r)) {
		out->isconst = 1;
		out->ci = r;
		return 1;
	}
	if (o->narg == 1 && ka && (o->op == TOP_NOT || o->op == TOP_NEG)) {
		out->isconst = 1;
		out->ci = o->op == TOP_NEG ? (int32_t)(0u - (uint32_t)a) :
		    t == DT_BOOL ? !a : ~(int32_t)a;
		return 1;
	}
	if (t != DT_BOOL || o->narg != 2 || ka == kb ||
	    (o->op != TOP_AND && o->op != TOP_OR))
		return 0;
	if (ka) {		/* the constant second */
		b = a;
		a = 1;
	}
	if ((o->op == TOP_AND) == (b != 0))	/* true and x, false or x */
		*out = I->val[o->arg[kb ? 0 : 1]];
	else {
		out->isconst = 1;
		out->ci = o->op == TOP_OR;
	}
	(void)a;
	return 1;
}

static void
scalar_or_vector(Isel *I, const TOp *o)
{
	Val *out = &I->val[o->res[0]];
	int r;

	if (tv(I, o->res[0])->kind == TV_VEC) {
		isel_vector_op(I, o, out);
		return;
	}
	if (fold(I, o, out))
		return;
	if ((r = scalar_op(I, o)) >= 0)
		out->r = r;
}

static void
op(Isel *I, const TOp *o)
{
	Val *out = o->nres ? &I->val[o->res[0]] : NULL;

	I->loc = o->loc;
	switch (o->op) {
	case TOP_NOP: case TOP_YIELD: break;
	case TOP_CONST:
		out->isconst = 1;
		out->ci = o->u.cst.i;
		out->cf = tv(I, o->res[0])->dtype == DT_F32 ? o->u.cst.f :
		    (double)o->u.cst.i;
		break;
	case TOP_BUF: out->ref = isel_ref_of_buf(I, o->u.buf); break;
	case TOP_SLOT: {
		Ref *q = arena_alloc(I->a, sizeof *q);
		int64_t c;
		*q = *I->val[o->arg[0]].ref;
		if (isel_cst(I, o->arg[1], &c))
			q->sslot = c;
		else
			q->slot = isel_scal(I, o->arg[1]);
		out->ref = q;
		break;
	}
	case TOP_VIEW:
		out->ref = isel_narrow(I, I->val[o->arg[0]].ref, o, o->u.idx.n,
		    o->u.idx.d);
		break;
	case TOP_LOAD: isel_vaccess(I, o, 0); break;
	case TOP_STORE: isel_vaccess(I, o, 1); break;
	case TOP_SLOAD: isel_saccess(I, o, 0); break;
	case TOP_SSTORE: isel_saccess(I, o, 1); break;
	case TOP_DMA_START: isel_dma(I, o); break;
	case TOP_MATMUL: matmul(I, o); break;
	case TOP_DMA_WAIT:
		isel_flag_op(I, o, OP_SYNCTAKE, 0, isel_dma_count(I, o));
		break;
	case TOP_SEM_SIGNAL: case TOP_SEM_WAIT: {
		int64_t c;
		if (!isel_cst(I, o->arg[0], &c))
			return (void)unsupported(I, "a dynamic semaphore count");
		isel_flag_op(I, o, o->op == TOP_SEM_WAIT ? OP_SYNCTAKE : OP_SYNCADD,
		    0, c);
		break;
	}
	case TOP_FOR: lower_for(I, o); break;
	case TOP_IF: lower_if(I, o); break;
	case TOP_TRAP: trap(I, o); break;
	case TOP_TRACE:
		addi(I, o->u.cst.i ? OP_TBEGIN : OP_TEND, 0, 0,
		    region_id(I, o->name ? o->name : I->tf->name));
		break;
	case TOP_NEG: case TOP_NOT: case TOP_ABS: case TOP_EXP: case TOP_LOG:
	case TOP_SQRT: case TOP_REM: case TOP_TANH: case TOP_RSQRT:
	case TOP_RECIP: case TOP_CONVERT:
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_MAX:
	case TOP_MIN: case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL:
	case TOP_SHR: case TOP_CMP: case TOP_SELECT: case TOP_SPLAT:
	case TOP_IOTA:
		scalar_or_vector(I, o);
		break;
	case TOP_BROADCAST: case TOP_RESHAPE: case TOP_REDUCE: case TOP_ROLL:
	case TOP_VTRANSPOSE:
		isel_xlu_op(I, o, out);
		break;
	case TOP_TRANSPOSE: case TOP_ROLLM:
		isel_xlu_mem(I, o);
		break;
	default:
		unsupported(I, arena_printf(I->a, "'%s'", tile_op_name(o->op)));
		break;
	}
}

static void
ops(Isel *I, int blk)
{
	const TBlock *b = &I->tf->blk.v[blk];
	int i;

	for (i = 0; i < b->op.n && !I->err; i++)
		op(I, &I->tf->op.v[b->op.v[i]]);
}

/* Entry operands: every TB_HBM buffer, by operand index. */
static void
operands(Isel *I)
{
	const TFunc *tf = I->tf;
	int i, k, n = 0;

	for (i = 0; i < tf->buf.n; i++)
		if (tf->buf.v[i].kind == TB_HBM && tf->buf.v[i].src >= n)
			n = tf->buf.v[i].src + 1;
	for (k = 0; k < n; k++) {
		LOperand o;
		memset(&o, 0, sizeof o);
		for (i = 0; i < tf->buf.n; i++) {
			const TBuf *b = &tf->buf.v[i];
			int j;
			if (b->kind != TB_HBM || b->src != k)
				continue;
			o.name = b->name;
			o.dtype = vliw_mach_dtype(b->dtype);
			o.rank = b->shape.rank;
			o.bytes = (uint64_t)isel_esize(b);
			for (j = 0; j < o.rank && j < MACH_MAXRANK; j++) {
				o.shape[j] = b->shape.d[j];
				o.bytes *= (uint64_t)b->shape.d[j];
			}
		}
		o.role = I->role[k] == 3 ? MACH_ROLE_INOUT : I->role[k] == 2 ?
		    MACH_ROLE_OUT : MACH_ROLE_IN;
		o.smem_addr = (uint32_t)(8 * k);
		if (!o.name)
			o.name = "";
		vec_push(I->a, &I->f->opnd, o);
	}
}

LFunc *
vliw_isel(const TFunc *tf, const MachPreset *mp, Diag *d, Arena *a)
{
	Isel *I = arena_alloc(a, sizeof *I);
	int i, kreg;

	I->tf = tf;
	I->mp = mp;
	I->d = d;
	I->a = a;
	I->f = llo_new_func(a, mp, tf->name);
	I->val = arena_alloc(a, sizeof(Val) * (size_t)(tf->val.n + 1));
	I->desc_base = (tf->smem_bytes + 63) / 64 * 64;
	isel_dma_quanta(I);
	for (i = 0; i < tf->buf.n; i++)
		if (tf->buf.v[i].kind == TB_HBM && tf->buf.v[i].src >=
		    (int)countof(I->role))
			return unsupported(I, "this many operands"), NULL;
	I->zero = sreg(I);
	addi(I, OP_SMOVI, I->zero, 0, 0);
	kreg = region_id(I, tf->name);
	addi(I, OP_TBEGIN, 0, 0, kreg);
	new_blk(I);
	ops(I, 0);
	if (I->err)
		return NULL;
	addi(I, OP_TEND, 0, 0, kreg);
	add(I, OP_HALT, 0, 0, 0, 0);
	operands(I);
	I->f->vmem_base = tf->vmem_bytes;	/* the spill areas go above */
	I->f->vmem_limit = tf->vmem_limit;
	I->f->smem_base = I->desc_base + 64 * (int64_t)I->ndesc;
	return I->f;
}
