/*
 * check_spill.c - register allocation under pressure (backend/vliw/
 * regalloc.c, spill.c): hand-built LLO functions that keep more vector,
 * scalar, mask and predicate values live at once than the small preset
 * has registers, in one block and across a loop, compiled through
 * sched, regalloc and emit and run on the simulator with poison on,
 * their results checked against the same computation in C; a .pk kernel
 * that keeps many vectors live, compared with plain C and with
 * interpret mode, whose -S text names its spill area; and the errors
 * when the spill area does not fit in VMEM or SMEM.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

/* ------------------------------------------------------------ helpers */

enum {
	OUTV = 0,	/* VMEM: the result rows */
	DESC = 64,	/* SMEM: the output DMA descriptor (0..7: out's address) */
	NOUT = 4	/* result vregs (the out operand's rows / S) */
};

typedef struct T {
	Arena a;
	const MachPreset *mp;
	LFunc *f;
	int z;		/* S register holding 0 */
} T;

static LIns *
op(T *t, int b, int o, int d, int a, int c2, int c3, int32_t imm)
{
	LIns *in = llo_add(t->f, b, o, d, a, c2, c3);

	in->imm = imm;
	return in;
}

static int
reg(T *t, LClass c)
{
	return llo_new_reg(t->f, c);
}

/* A function with one output, i32[NOUT * S, L], at SMEM slot 0. */
static void
start(T *t, const char *name)
{
	LOperand o;

	memset(t, 0, sizeof *t);
	t->mp = mach_preset("small");
	t->f = llo_new_func(&t->a, t->mp, name);
	memset(&o, 0, sizeof o);
	o.name = "out";
	o.role = MACH_ROLE_OUT;
	o.dtype = MACH_I32;
	o.rank = 2;
	o.shape[0] = NOUT * t->mp->sublanes;
	o.shape[1] = t->mp->lanes;
	o.bytes = (uint64_t)(o.shape[0] * o.shape[1] * 4);
	vec_push(&t->a, &t->f->opnd, o);
	t->f->vmem_base = OUTV + NOUT * (int64_t)o.bytes / NOUT;
	t->f->smem_base = DESC + 4 * MACH_DMA_WORDS;
	t->z = reg(t, LC_S);
	op(t, 0, OP_SMOVI, t->z, 0, 0, 0, 0);
}

static int64_t
vbytes(const T *t)
{
	return (int64_t)t->mp->sublanes * t->mp->lanes * 4;
}

/* Result row i (one vreg) = v. */
static void
result(T *t, int b, int i, int v)
{
	op(t, b, OP_VST, 0, t->z, v, 0, (int32_t)(OUTV + i * vbytes(t)))->x =
	    (uint16_t)(((1u << t->mp->sublanes) - 1) | 1u << 8);
}

static void
word(T *t, int b, int w, int32_t v)
{
	int s = reg(t, LC_S);

	op(t, b, OP_SMOVI, s, 0, 0, 0, v);
	op(t, b, OP_SST, 0, t->z, s, 0, DESC + 4 * w);
}

/* Ends block b: the result rows to out by DMA, then halt. */
static void
finish(T *t, int b)
{
	int lo = reg(t, LC_S), hi = reg(t, LC_S), w;

	for (w = 0; w < MACH_DMA_WORDS; w++)
		if (w != MACH_DMA_DST_LO && w != MACH_DMA_DST_HI)
			word(t, b, w, w == MACH_DMA_SRC_LO ? OUTV :
			    w == MACH_DMA_CTRL ? MACH_DMA_VMEM_HBM | 1 << 4 |
			    4 << 8 : w == MACH_DMA_COUNT0 ? (int32_t)(NOUT *
			    vbytes(t) / 4) : w > MACH_DMA_COUNT0 &&
			    w < MACH_DMA_SSTRIDE1 ? 1 : 0);
	op(t, b, OP_SLD, lo, t->z, 0, 0, 0);
	op(t, b, OP_SLD, hi, t->z, 0, 0, 4);
	op(t, b, OP_SST, 0, t->z, lo, 0, DESC + 4 * MACH_DMA_DST_LO);
	op(t, b, OP_SST, 0, t->z, hi, 0, DESC + 4 * MACH_DMA_DST_HI);
	op(t, b, OP_DMA, 0, t->z, 0, 0, DESC);
	op(t, b, OP_SYNCWAIT, 0, 0, 0, 0, 1);
	op(t, b, OP_HALT, 0, 0, 0, 0, 0);
}

/* The largest physical register number written or read, per class. */
static void
max_regs(const LFunc *f, int mx[NLCLASS])
{
	static const int fld[] = { FLD_D, FLD_A, FLD_B, FLD_C };
	int b, i, k, r;
	LClass c;

	for (c = 0; c < NLCLASS; c++)
		mx[c] = -1;
	for (b = 0; b < f->blk.n; b++)
		for (i = 0; i < f->blk.v[b].ins.n; i++) {
			const LIns *in = &f->blk.v[b].ins.v[i];
			if (in->guard > mx[LC_P])
				mx[LC_P] = in->guard;
			for (k = 0; k < 4; k++) {
				c = llo_field_class(in->op, fld[k]);
				r = fld[k] == FLD_D ? in->d : fld[k] == FLD_A ?
				    in->a : fld[k] == FLD_B ? in->b : in->c;
				if (c != LC_NONE && r > mx[c])
					mx[c] = r;
			}
		}
}

/*
 * Schedules, allocates (expecting spills of class c), emits and runs
 * t's function on the small preset with poison on; out gets the result
 * rows.  Fails on a trap.
 */
static void
compile_run(T *t, LClass c, int32_t *out)
{
	Diag d;
	MachProgram *p;
	LFunc *fs[1] = { t->f };
	PallasDevice *dev;
	PallasProgram *pg;
	PallasTrap tr;
	void *img, *bufs[1] = { out };
	size_t len;
	char err[256];
	int mx[NLCLASS], rc;

	diag_init(&d, NULL, stderr);
	vliw_sched(t->f);
	ck_assert_int_eq(vliw_regalloc(t->f, &d), 0);
	ck_assert(t->f->allocated);
	ck_assert_int_gt(t->f->nspill[c], 0);
	max_regs(t->f, mx);
	ck_assert_int_lt(mx[LC_S], t->mp->nsreg);
	ck_assert_int_lt(mx[LC_V], t->mp->nvreg);
	ck_assert_int_lt(mx[LC_M], t->mp->nmreg);
	ck_assert_int_lt(mx[LC_P], t->mp->npreg);
	/* the areas lie above what the function uses */
	if (t->f->spill_vmem)
		ck_assert_int_ge(t->f->spill_vaddr, t->f->vmem_base);
	if (t->f->spill_smem)
		ck_assert_int_ge(t->f->spill_saddr, t->f->smem_base);
	ck_assert_int_eq(vliw_emit(fs, 1, t->mp, NULL, &d, &p), 0);
	ck_assert_int_eq(mach_image_write(p, &img, &len, err, sizeof err),
	    MACH_OK);
	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	pallas_device_set_poison(dev, PALLAS_POISON_NAN);
	ck_assert_msg(pallas_program_load(dev, img, len, &pg) == PALLAS_OK,
	    "%s", pallas_last_error(dev));
	rc = pallas_call(dev, pg, t->f->name, bufs, 1);
	pallas_last_trap(dev, &tr);
	ck_assert_msg(rc == PALLAS_OK, "%s: %s", pallas_last_error(dev),
	    tr.message);
	pallas_program_free(pg);
	pallas_device_close(dev);
	free(img);
	mach_program_free(p);
}

static int32_t *
new_out(const T *t)
{
	return calloc((size_t)(NOUT * vbytes(t)), 1);
}

/* Element (sublane i, lane j) of result row r. */
static int32_t
at(const T *t, const int32_t *out, int r, int i, int j)
{
	return out[(r * t->mp->sublanes + i) * t->mp->lanes + j];
}

/* ------------------------------------------------------------ vectors */

enum { NV = 40 };

/* a_k[i][j] = j * (k + 2) + i + k; two chains over them in opposite
   orders, so all are live at once whatever the order:
   fwd = sum a_k, rev = ((a_{N-1} * 3 + a_{N-2}) * 3 + ...) + a_0. */
static int32_t
va(int k, int i, int j)
{
	return j * (k + 2) + i + k;
}

START_TEST(spill_vectors)
{
	T t;
	int a[NV], k, i, j, lane, sub, c, x, fwd, rev, three;
	int32_t *out, f, r;

	start(&t, "vecs");
	lane = reg(&t, LC_V);
	sub = reg(&t, LC_V);
	op(&t, 0, OP_VIOTAL, lane, 0, 0, 0, 0);
	op(&t, 0, OP_VIOTAS, sub, 0, 0, 0, 0);
	for (k = 0; k < NV; k++) {
		c = reg(&t, LC_V);
		x = reg(&t, LC_V);
		a[k] = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, k + 2);
		op(&t, 0, OP_VMULI, x, lane, c, 0, 0);
		c = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, k);
		op(&t, 0, OP_VADDI, x, x, sub, 0, 0);
		op(&t, 0, OP_VADDI, a[k], x, c, 0, 0);
	}
	fwd = a[0];
	for (k = 1; k < NV; k++) {
		x = reg(&t, LC_V);
		op(&t, 0, OP_VADDI, x, fwd, a[k], 0, 0);
		fwd = x;
	}
	three = reg(&t, LC_V);
	op(&t, 0, OP_VBCASTI, three, 0, 0, 0, 3);
	rev = a[NV - 1];
	for (k = NV - 2; k >= 0; k--) {
		x = reg(&t, LC_V);
		op(&t, 0, OP_VMULI, x, rev, three, 0, 0);
		op(&t, 0, OP_VADDI, x, x, a[k], 0, 0);
		rev = x;
	}
	result(&t, 0, 0, fwd);
	result(&t, 0, 1, rev);
	result(&t, 0, 2, a[0]);
	result(&t, 0, 3, a[NV - 1]);
	finish(&t, 0);
	out = new_out(&t);
	compile_run(&t, LC_V, out);
	for (i = 0; i < t.mp->sublanes; i++)
		for (j = 0; j < t.mp->lanes; j++) {
			f = 0;
			for (k = 0; k < NV; k++)
				f = (int32_t)((uint32_t)f + (uint32_t)va(k, i, j));
			r = va(NV - 1, i, j);
			for (k = NV - 2; k >= 0; k--)
				r = (int32_t)((uint32_t)r * 3u +
				    (uint32_t)va(k, i, j));
			ck_assert_int_eq(at(&t, out, 0, i, j), f);
			ck_assert_int_eq(at(&t, out, 1, i, j), r);
			ck_assert_int_eq(at(&t, out, 2, i, j), va(0, i, j));
			ck_assert_int_eq(at(&t, out, 3, i, j), va(NV - 1, i, j));
		}
	free(out);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ scalars */

enum { NS = 48 };

/* s_k after the guarded writes: k % 4 == 1 under a false guard (kept),
   k % 4 == 3 under a true one. */
static int32_t
sv(int k)
{
	return k % 4 == 3 ? 1000 + k : k * 37 + 5;
}

/* NS scalars live at once (more than the 32 s registers): a forward
   sum and a reverse xor-shift chain, broadcast into the result.  Some
   are written again under a guard (a spilled register written under a
   false guard keeps its value). */
START_TEST(spill_scalars)
{
	T t;
	int s[NS], k, fwd, rev, x, v, pt, pf;
	int32_t *out, f = 0, r;

	start(&t, "scal");
	pt = reg(&t, LC_P);
	pf = reg(&t, LC_P);
	op(&t, 0, OP_SCMPIEQ, pt, t.z, 0, 0, 0);
	op(&t, 0, OP_SCMPINE, pf, t.z, 0, 0, 0);
	for (k = 0; k < NS; k++) {
		s[k] = reg(&t, LC_S);
		op(&t, 0, OP_SMOVI, s[k], 0, 0, 0, k * 37);
		op(&t, 0, OP_SADDI, s[k], s[k], 0, 0, 5);
	}
	for (k = 1; k < NS; k += 2)
		op(&t, 0, OP_SMOVI, s[k], 0, 0, 0, k % 4 == 3 ? 1000 + k :
		    -7)->guard = k % 4 == 3 ? pt : pf;
	fwd = s[0];
	for (k = 1; k < NS; k++) {
		x = reg(&t, LC_S);
		op(&t, 0, OP_SADD, x, fwd, s[k], 0, 0);
		fwd = x;
	}
	rev = s[NS - 1];
	for (k = NS - 2; k >= 0; k--) {
		x = reg(&t, LC_S);
		op(&t, 0, OP_SMULI, x, rev, 0, 0, 5);
		op(&t, 0, OP_SXOR, x, x, s[k], 0, 0);
		rev = x;
	}
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, fwd, 0, 0, 0);
	result(&t, 0, 0, v);
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, rev, 0, 0, 0);
	result(&t, 0, 1, v);
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, s[NS / 2], 0, 0, 0);
	result(&t, 0, 2, v);
	result(&t, 0, 3, v);
	finish(&t, 0);
	out = new_out(&t);
	compile_run(&t, LC_S, out);
	for (k = 0; k < NS; k++)
		f += sv(k);
	r = sv(NS - 1);
	for (k = NS - 2; k >= 0; k--)
		r = (int32_t)((uint32_t)r * 5u) ^ sv(k);
	ck_assert_int_eq(at(&t, out, 0, 3, 5), f);
	ck_assert_int_eq(at(&t, out, 1, 7, 15), r);
	ck_assert_int_eq(at(&t, out, 2, 0, 0), sv(NS / 2));
	free(out);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ predicates */

enum { NP = 24, PCUT = 11 };

/* NP predicates p_k = (PCUT < k) ... as (x < k) with x = PCUT, live at
   once (more than p1..p15): a reverse chain guarded by p_k and a
   forward chain guarded by !p_k, and one through pnot. */
START_TEST(spill_predicates)
{
	T t;
	int p[NP], k, x, acc, acc2, acc3, q, v;
	int32_t *out, e1 = 0, e2 = 0, e3 = 0;

	start(&t, "preds");
	x = reg(&t, LC_S);
	acc = reg(&t, LC_S);
	acc2 = reg(&t, LC_S);
	acc3 = reg(&t, LC_S);
	op(&t, 0, OP_SMOVI, x, 0, 0, 0, PCUT);
	op(&t, 0, OP_SMOVI, acc, 0, 0, 0, 0);
	op(&t, 0, OP_SMOVI, acc2, 0, 0, 0, 0);
	op(&t, 0, OP_SMOVI, acc3, 0, 0, 0, 0);
	for (k = 0; k < NP; k++) {
		p[k] = reg(&t, LC_P);
		op(&t, 0, OP_SCMPILT, p[k], x, 0, 0, k);
	}
	for (k = NP - 1; k >= 0; k--)		/* acc |= 1 << k if p_k */
		op(&t, 0, OP_SORI, acc, acc, 0, 0, 1 << k)->guard = p[k];
	for (k = 0; k < NP; k++) {		/* acc2 += k + 1 if !p_k */
		LIns *in = op(&t, 0, OP_SADDI, acc2, acc2, 0, 0, k + 1);
		in->guard = p[k];
		in->gneg = 1;
	}
	for (k = NP - 1; k >= 0; k -= 2) {	/* acc3 += 100 if !p_k */
		q = reg(&t, LC_P);
		op(&t, 0, OP_PNOT, q, p[k], 0, 0, 0);
		op(&t, 0, OP_SADDI, acc3, acc3, 0, 0, 100)->guard = q;
	}
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, acc, 0, 0, 0);
	result(&t, 0, 0, v);
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, acc2, 0, 0, 0);
	result(&t, 0, 1, v);
	v = reg(&t, LC_V);
	op(&t, 0, OP_VBCAST, v, acc3, 0, 0, 0);
	result(&t, 0, 2, v);
	result(&t, 0, 3, v);
	finish(&t, 0);
	out = new_out(&t);
	compile_run(&t, LC_P, out);
	for (k = 0; k < NP; k++) {
		if (PCUT < k)
			e1 |= 1 << k;
		else
			e2 += k + 1;
	}
	for (k = NP - 1; k >= 0; k -= 2)
		e3 += PCUT < k ? 0 : 100;
	ck_assert_int_eq(at(&t, out, 0, 1, 2), e1);
	ck_assert_int_eq(at(&t, out, 1, 4, 9), e2);
	ck_assert_int_eq(at(&t, out, 2, 7, 0), e3);
	free(out);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ masks */

enum { NM = 13 };

/* NM masks m_k = lane < k + 1 live at once (more than the 8 m
   registers): cnt = sum of m_k (forward), first = the smallest k with
   m_k (reverse selects), so cnt = NM - lane and first = lane for lanes
   below NM, 0 and -1 above. */
START_TEST(spill_masks)
{
	T t;
	int m[NM], k, lane, c, one, cnt, first, x, sel;
	int32_t *out;
	int i, j;

	start(&t, "masks");
	lane = reg(&t, LC_V);
	one = reg(&t, LC_V);
	cnt = reg(&t, LC_V);
	first = reg(&t, LC_V);
	op(&t, 0, OP_VIOTAL, lane, 0, 0, 0, 0);
	op(&t, 0, OP_VBCASTI, one, 0, 0, 0, 1);
	op(&t, 0, OP_VBCASTI, cnt, 0, 0, 0, 0);
	op(&t, 0, OP_VBCASTI, first, 0, 0, 0, -1);
	for (k = 0; k < NM; k++) {
		c = reg(&t, LC_V);
		m[k] = reg(&t, LC_M);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, k + 1);
		op(&t, 0, OP_VCMPLTI, m[k], lane, c, 0, 0);
	}
	for (k = 0; k < NM; k++) {
		x = reg(&t, LC_V);
		sel = reg(&t, LC_V);
		c = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, 0);
		op(&t, 0, OP_VSEL, sel, one, c, m[k], 0);
		op(&t, 0, OP_VADDI, x, cnt, sel, 0, 0);
		cnt = x;
	}
	for (k = NM - 1; k >= 0; k--) {
		x = reg(&t, LC_V);
		c = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, k);
		op(&t, 0, OP_VSEL, x, c, first, m[k], 0);
		first = x;
	}
	result(&t, 0, 0, cnt);
	result(&t, 0, 1, first);
	result(&t, 0, 2, lane);
	result(&t, 0, 3, one);
	finish(&t, 0);
	out = new_out(&t);
	compile_run(&t, LC_M, out);
	for (i = 0; i < t.mp->sublanes; i++)
		for (j = 0; j < t.mp->lanes; j++) {
			ck_assert_int_eq(at(&t, out, 0, i, j), j < NM ? NM - j :
			    0);
			ck_assert_int_eq(at(&t, out, 1, i, j), j < NM ? j : -1);
		}
	free(out);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ loops */

enum { NL = 24, ITER = 3 };

/* NL vectors defined before a loop, all read in its body (acc += a_k
   for k ascending, each iteration) and after it in reverse order:
   spilled values are reloaded in the loop, whose branch reads a
   predicate computed in the body. */
START_TEST(spill_across_loop)
{
	T t;
	int a[NL], k, lane, c, x, acc, rev, i_, p, body, out_b, three;
	int32_t *out, e, r;
	int i, j;

	start(&t, "loopy");
	lane = reg(&t, LC_V);
	acc = reg(&t, LC_V);
	i_ = reg(&t, LC_S);
	op(&t, 0, OP_VIOTAL, lane, 0, 0, 0, 0);
	op(&t, 0, OP_VBCASTI, acc, 0, 0, 0, 0);
	op(&t, 0, OP_SMOVI, i_, 0, 0, 0, 0);
	for (k = 0; k < NL; k++) {
		c = reg(&t, LC_V);
		a[k] = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, c, 0, 0, 0, 7 * k + 1);
		op(&t, 0, OP_VADDI, a[k], lane, c, 0, 0);
	}
	body = llo_new_blk(t.f);
	for (k = 0; k < NL; k++)
		op(&t, body, OP_VADDI, acc, acc, a[k], 0, 0);
	p = reg(&t, LC_P);
	op(&t, body, OP_SADDI, i_, i_, 0, 0, 1);
	op(&t, body, OP_SCMPILT, p, i_, 0, 0, ITER);
	{
		LIns *br = op(&t, body, OP_BR, 0, 0, 0, 0, 0);
		br->guard = p;
		br->target = body;
	}
	out_b = llo_new_blk(t.f);
	three = reg(&t, LC_V);
	op(&t, out_b, OP_VBCASTI, three, 0, 0, 0, 3);
	rev = a[NL - 1];
	for (k = NL - 2; k >= 0; k--) {
		x = reg(&t, LC_V);
		op(&t, out_b, OP_VMULI, x, rev, three, 0, 0);
		op(&t, out_b, OP_VADDI, x, x, a[k], 0, 0);
		rev = x;
	}
	result(&t, out_b, 0, acc);
	result(&t, out_b, 1, rev);
	result(&t, out_b, 2, a[NL / 2]);
	result(&t, out_b, 3, lane);
	finish(&t, out_b);
	out = new_out(&t);
	compile_run(&t, LC_V, out);
	for (i = 0; i < t.mp->sublanes; i++)
		for (j = 0; j < t.mp->lanes; j++) {
			e = 0;
			for (k = 0; k < NL; k++)
				e += ITER * (j + 7 * k + 1);
			r = j + 7 * (NL - 1) + 1;
			for (k = NL - 2; k >= 0; k--)
				r = (int32_t)((uint32_t)r * 3u +
				    (uint32_t)(j + 7 * k + 1));
			ck_assert_int_eq(at(&t, out, 0, i, j), e);
			ck_assert_int_eq(at(&t, out, 1, i, j), r);
			ck_assert_int_eq(at(&t, out, 2, i, j), j + 7 * (NL / 2) +
			    1);
		}
	free(out);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ errors */

static char *
regalloc_error(T *t)
{
	Diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	diag_init(&d, NULL, f);
	vliw_sched(t->f);
	ck_assert_int_eq(vliw_regalloc(t->f, &d), -1);
	ck_assert(!t->f->allocated);
	fclose(f);
	return text;
}

/* 40 vectors live, room for 3 spilled vregs only. */
START_TEST(spill_vmem_does_not_fit)
{
	T t;
	int v[40], k;
	char *text, want[256];

	start(&t, "bigv");
	t.f->vmem_base = (int64_t)t.mp->vmem_bytes - 3 * vbytes(&t);
	for (k = 0; k < 40; k++) {
		v[k] = reg(&t, LC_V);
		op(&t, 0, OP_VBCASTI, v[k], 0, 0, 0, k);
	}
	for (k = 0; k < 40; k++)
		result(&t, 0, 0, v[k]);
	finish(&t, 0);
	text = regalloc_error(&t);
	ck_assert_ptr_nonnull(strstr(text, "kernel 'bigv' needs more than 16 "
	    "vector registers at once"));
	snprintf(want, sizeof want, "VMEM spill area (%lld bytes after the "
	    "kernel's %lld) does not fit in the %llu bytes of preset 'small'",
	    (long long)(4 * vbytes(&t)), (long long)t.f->vmem_base,
	    (unsigned long long)t.mp->vmem_bytes);
	ck_assert_msg(strstr(text, want) != NULL, "%s", text);
	free(text);
	arena_free(&t.a);
}
END_TEST

/* 48 scalars live and no SMEM left. */
START_TEST(spill_smem_does_not_fit)
{
	T t;
	int s[48], k, acc, x;
	char *text;

	start(&t, "bigs");
	t.f->smem_base = (int64_t)t.mp->smem_bytes;
	for (k = 0; k < 48; k++) {
		s[k] = reg(&t, LC_S);
		op(&t, 0, OP_SMOVI, s[k], 0, 0, 0, k);
		op(&t, 0, OP_SADDI, s[k], s[k], 0, 0, 1);
	}
	acc = s[47];
	for (k = 46; k >= 0; k--) {
		x = reg(&t, LC_S);
		op(&t, 0, OP_SADD, x, acc, s[k], 0, 0);
		acc = x;
	}
	for (k = 0; k < 48; k++)
		op(&t, 0, OP_SST, 0, t.z, s[k], 0, DESC);
	op(&t, 0, OP_SST, 0, t.z, acc, 0, DESC);
	op(&t, 0, OP_HALT, 0, 0, 0, 0, 0);
	text = regalloc_error(&t);
	ck_assert_msg(strstr(text, "kernel 'bigs' needs more than 32 scalar "
	    "registers at once, and its SMEM spill area (4 bytes after the "
	    "kernel's 4096) does not fit in the 4096 bytes of preset "
	    "'small'") != NULL, "%s", text);
	free(text);
	arena_free(&t.a);
}
END_TEST

/* ------------------------------------------------------------ .pk */

enum { NK = 24 };

/* y = (a_0 + ... + a_{NK-1}) * 0.5 + max(a_0, max(a_1, ... a_{NK-1})),
   a_k = x * (k + 1) + z * (k % 5 + 0.5): both chains need every a_k. */
static char *
many_src(void)
{
	Buf b = { 0 };
	int k;

	buf_puts(&b, "kernel many(x: f32[8, 16], z: f32[8, 16], "
	    "out y: f32[8, 16])\n{\n    let u = x[...];\n"
	    "    let w = z[...];\n");
	for (k = 0; k < NK; k++)
		buf_printf(&b, "    let a%d = u * %d.0 + w * %d.5;\n", k, k + 1,
		    k % 5);
	buf_puts(&b, "    y[...] = (a0");
	for (k = 1; k < NK; k++)
		buf_printf(&b, " + a%d", k);
	buf_puts(&b, ") * 0.5 + ");
	for (k = 0; k < NK - 1; k++)
		buf_printf(&b, "max(a%d, ", k);
	buf_printf(&b, "a%d", NK - 1);
	for (k = 0; k < NK - 1; k++)
		buf_putc(&b, ')');
	buf_puts(&b, ";\n}\nexport many;\n");
	buf_putc(&b, 0);
	return b.p;
}

START_TEST(spill_pk_kernel)
{
	char *src = many_src();
	float x[8 * 16], z[8 * 16], y[8 * 16], a[NK], s, m;
	void *bufs[3] = { x, z, y };
	VtUnit u;
	VtOpts o;
	int i, k;

	for (i = 0; i < 8 * 16; i++) {
		x[i] = (float)((i * 7) % 23) * 0.25f - 2.0f;
		z[i] = (float)((i * 5) % 17) * 0.5f - 4.0f;
	}
	ck_assert_msg(vt_compile(&u, src, "small") == 0, "%s", u.text);
	vt_run(&u, "many", bufs, 3, NULL);
	for (i = 0; i < 8 * 16; i++) {
		for (k = 0; k < NK; k++)
			a[k] = x[i] * (float)(k + 1) + z[i] * ((float)(k % 5) +
			    0.5f);
		s = a[0];
		for (k = 1; k < NK; k++)
			s += a[k];
		m = a[NK - 1];
		for (k = NK - 2; k >= 0; k--)
			m = a[k] > m ? a[k] : m;
		ck_assert_msg(fabsf(y[i] - (s * 0.5f + m)) <= 1e-4f *
		    (1.0f + fabsf(s * 0.5f + m)), "y[%d] = %g, want %g", i,
		    (double)y[i], (double)(s * 0.5f + m));
	}
	vt_free(&u);
	/* and against interpret mode, with the -S round trip */
	memset(&o, 0, sizeof o);
	o.tol = 1e-5;
	o.seed = 7;
	vt_check(src, "small", "many", &o, NULL);
	free(src);
}
END_TEST

/* -S (vliw_compile_asm) names the spill area, and the text assembles. */
START_TEST(spill_pk_asm_note)
{
	char *src = many_src();
	VtUnit u;
	TModule *tm;
	Buf text = { 0 };
	MachProgram *q;
	char err[1024];
	const char *note;

	ck_assert_msg(vt_compile(&u, src, "small") == 0, "%s", u.text);
	ck_assert_int_eq(mosaic_lower(u.cm, u.cm->preset, &u.d, &u.a, &tm), 0);
	ck_assert_int_eq(vliw_compile_asm(tm, u.cm->preset, NULL, &u.d, &u.a,
	    &text), 0);
	buf_putc(&text, 0);
	ck_assert_msg(strncmp(text.p, "# many: VMEM ", 13) == 0, "%s", text.p);
	note = strstr(text.p, " + spill ");
	ck_assert_msg(note && note < strchr(text.p, '\n'), "%.200s", text.p);
	ck_assert_ptr_nonnull(strstr(text.p, " vector, 0 mask) of 262144 "
	    "bytes; SMEM "));
	ck_assert_msg(mach_asm("<S>", text.p, strlen(text.p), NULL, &q, err,
	    sizeof err) == MACH_OK, "%s", err);
	ck_assert_int_eq(q->nins, u.prog->nins);
	mach_program_free(q);
	buf_free(&text);
	vt_free(&u);
	free(src);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("spill");
	TCase *t = tcase_create("llo");

	tcase_add_test(t, spill_vectors);
	tcase_add_test(t, spill_scalars);
	tcase_add_test(t, spill_predicates);
	tcase_add_test(t, spill_masks);
	tcase_add_test(t, spill_across_loop);
	tcase_add_test(t, spill_vmem_does_not_fit);
	tcase_add_test(t, spill_smem_does_not_fit);
	suite_add_tcase(s, t);
	t = tcase_create("pk");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, spill_pk_kernel);
	tcase_add_test(t, spill_pk_asm_note);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
