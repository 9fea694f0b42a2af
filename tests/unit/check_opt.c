/*
 * check_opt.c - the LLO optimisation passes (backend/vliw/cse.c,
 * backend/vliw/licm.c, backend/vliw/unroll.c): on hand-built LLO, what
 * each pass removes, hoists or copies and every case it must refuse; on LLO from source, the address
 * arithmetic of a chunk loop; end to end, kernels with chunk loops
 * compiled with the passes (compared with interpret mode, small preset
 * and v4), and the same kernel compiled with and without the passes:
 * equal outputs, fewer simulated cycles with them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

/* ------------------------------------------------------------ helpers */

typedef struct Hand {
	Arena a;
	LFunc *f;
} Hand;

static void
hand_new(Hand *h, int nblk)
{
	int i;

	memset(h, 0, sizeof *h);
	h->f = llo_new_func(&h->a, mach_preset("small"), "t");
	for (i = 1; i < nblk; i++)
		llo_new_blk(h->f);
}

static void
hand_free(Hand *h)
{
	arena_free(&h->a);
}

/* Appends op with an immediate. */
static LIns *
addi(Hand *h, int b, int op, int d, int a, int32_t imm)
{
	LIns *in = llo_add(h->f, b, op, d, a, 0, 0);

	in->imm = imm;
	return in;
}

static LIns *
br(Hand *h, int b, int guard, int target)
{
	LIns *in = llo_add(h->f, b, OP_BR, 0, 0, 0, 0);

	in->guard = guard;
	in->target = target;
	return in;
}

static int
sreg(Hand *h)
{
	return llo_new_reg(h->f, LC_S);
}

/* Index of the op of block b writing register d with op, or -1. */
static int
find(const LFunc *f, int b, int op, int d)
{
	int i;

	for (i = 0; i < f->blk.v[b].ins.n; i++)
		if (f->blk.v[b].ins.v[i].op == op && f->blk.v[b].ins.v[i].d == d)
			return i;
	return -1;
}

static int
nops(const LFunc *f, int b)
{
	return f->blk.v[b].ins.n;
}

static const LIns *
at(const LFunc *f, int b, int i)
{
	return &f->blk.v[b].ins.v[i];
}

/* --------------------------------------------------------------- cse */

/* Two equal address computations: the second goes, its reads (in this
   block and a later one, and a guard) follow the first. */
START_TEST(cse_removes_duplicate)
{
	Hand h;
	int i1, s2, s3, s4, p1, p2, s5;
	LIns *in;

	hand_new(&h, 2);
	i1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h), s4 = sreg(&h);
	s5 = sreg(&h);
	p1 = llo_new_reg(h.f, LC_P), p2 = llo_new_reg(h.f, LC_P);
	addi(&h, 0, OP_SMOVI, i1, 0, 5);
	addi(&h, 0, OP_SMULI, s2, i1, 512);
	addi(&h, 0, OP_SCMPILT, p1, s2, 9);
	addi(&h, 0, OP_SMULI, s3, i1, 512);
	addi(&h, 0, OP_SCMPILT, p2, s3, 9);
	llo_add(h.f, 0, OP_SADD, s4, s2, s3, 0);
	in = addi(&h, 1, OP_SADDI, s5, s3, 1);
	in->guard = p2;
	llo_add(h.f, 1, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 2);	/* s3 = ..., p2 = ... */
	ck_assert_int_eq(nops(h.f, 0), 4);
	ck_assert_int_eq(find(h.f, 0, OP_SMULI, s3), -1);
	ck_assert_int_eq(find(h.f, 0, OP_SCMPILT, p2), -1);
	in = &h.f->blk.v[0].ins.v[find(h.f, 0, OP_SADD, s4)];
	ck_assert_int_eq(in->a, s2);
	ck_assert_int_eq(in->b, s2);
	ck_assert_int_eq(at(h.f, 1, 0)->a, s2);
	ck_assert_int_eq(at(h.f, 1, 0)->guard, p1);
	ck_assert_int_eq(vliw_cse(h.f), 0);	/* nothing left */
	hand_free(&h);
}
END_TEST

/* A dest written twice (either one) is left alone. */
START_TEST(cse_refuses_multiple_writes)
{
	Hand h;
	int s1, s2, s3;

	hand_new(&h, 1);
	s1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h);
	addi(&h, 0, OP_SMOVI, s1, 0, 3);
	addi(&h, 0, OP_SMULI, s2, s1, 4);
	addi(&h, 0, OP_SMULI, s3, s1, 4);
	addi(&h, 0, OP_SMOVI, s3, 0, 7);	/* s3 written again */
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	ck_assert_int_eq(nops(h.f, 0), 5);
	hand_free(&h);

	hand_new(&h, 1);
	s1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h);
	addi(&h, 0, OP_SMOVI, s1, 0, 3);
	addi(&h, 0, OP_SMULI, s2, s1, 4);
	addi(&h, 0, OP_SMULI, s3, s1, 4);
	addi(&h, 0, OP_SMOVI, s2, 0, 7);	/* the kept one twice */
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	hand_free(&h);
}
END_TEST

/* A source written between the two: different values. */
START_TEST(cse_refuses_redefined_source)
{
	Hand h;
	int iv, s2, s3;

	hand_new(&h, 1);
	iv = sreg(&h), s2 = sreg(&h), s3 = sreg(&h);
	addi(&h, 0, OP_SMOVI, iv, 0, 0);
	addi(&h, 0, OP_SMULI, s2, iv, 512);
	addi(&h, 0, OP_SADDI, iv, iv, 8);
	addi(&h, 0, OP_SMULI, s3, iv, 512);
	llo_add(h.f, 0, OP_SADD, sreg(&h), s2, s3, 0);
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	ck_assert_int_ge(find(h.f, 0, OP_SMULI, s3), 0);
	hand_free(&h);
}
END_TEST

/* Guarded ops, loads, and an op across a control op stay. */
START_TEST(cse_refuses_impure)
{
	Hand h;
	int s1, s2, s3, s4, s5, p1;
	LIns *in;

	hand_new(&h, 1);
	s1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h), s4 = sreg(&h);
	s5 = sreg(&h);
	p1 = llo_new_reg(h.f, LC_P);
	addi(&h, 0, OP_SMOVI, s1, 0, 64);
	addi(&h, 0, OP_SCMPILT, p1, s1, 9);
	addi(&h, 0, OP_SMULI, s2, s1, 4);
	in = addi(&h, 0, OP_SMULI, s3, s1, 4);
	in->guard = p1;				/* guarded */
	addi(&h, 0, OP_SLD, s4, s1, 0);
	llo_add(h.f, 0, OP_SST, 0, s1, s2, 0);	/* may overlap */
	addi(&h, 0, OP_SLD, s5, s1, 0);
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	ck_assert_int_eq(nops(h.f, 0), 8);
	hand_free(&h);

	/* a guarded br between: the table ends there */
	hand_new(&h, 2);
	s1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h);
	p1 = llo_new_reg(h.f, LC_P);
	addi(&h, 0, OP_SMOVI, s1, 0, 64);
	addi(&h, 0, OP_SCMPILT, p1, s1, 9);
	addi(&h, 0, OP_SMULI, s2, s1, 4);
	br(&h, 0, p1, 1);
	addi(&h, 0, OP_SMULI, s3, s1, 4);
	llo_add(h.f, 1, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	hand_free(&h);
}
END_TEST

/* A vector load again from memory nothing wrote since is the first
   load's value; a store to another range (LIns.mlo/mhi) does not end it,
   one to its own does.  Scalar loads stay. */
static LIns *
vacc(Hand *h, int op, int d, int base, int v, int32_t lo)
{
	LIns *in = llo_add(h->f, 0, op, d, base, v, 0);

	in->x = 0xff | 1u << 8;
	in->mlo = lo;
	in->mhi = lo + 4096;
	return in;
}

START_TEST(cse_loads)
{
	Hand h;
	int s1, s2, s3, v1, v2, v3, v4;
	LIns *in;

	hand_new(&h, 1);
	s1 = sreg(&h), s2 = sreg(&h), s3 = sreg(&h);
	v1 = llo_new_reg(h.f, LC_V), v2 = llo_new_reg(h.f, LC_V);
	v3 = llo_new_reg(h.f, LC_V), v4 = llo_new_reg(h.f, LC_V);
	addi(&h, 0, OP_SMOVI, s1, 0, 0);
	vacc(&h, OP_VLD, v1, s1, 0, 0);
	vacc(&h, OP_VST, 0, s1, v1, 8192);		/* elsewhere */
	vacc(&h, OP_VLD, v2, s1, 0, 0);
	llo_add(h.f, 0, OP_VADDF, v3, v1, v2, 0);
	vacc(&h, OP_VST, 0, s1, v3, 0);		/* its own range */
	vacc(&h, OP_VLD, v4, s1, 0, 0);
	addi(&h, 0, OP_SLD, s2, s1, 0);
	addi(&h, 0, OP_SLD, s3, s1, 0);
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 1);
	ck_assert_int_eq(nops(h.f, 0), 9);
	in = &h.f->blk.v[0].ins.v[find(h.f, 0, OP_VADDF, v3)];
	ck_assert_int_eq(in->a, v1);
	ck_assert_int_eq(in->b, v1);
	ck_assert_int_ge(find(h.f, 0, OP_VLD, v4), 0);
	ck_assert_int_ge(find(h.f, 0, OP_SLD, s3), 0);
	hand_free(&h);
}
END_TEST

/* In a loop: the duplicate's dest read between the two holds the
   previous trip's value, so it must stay; equal ops in two different
   blocks are not merged. */
START_TEST(cse_refuses_read_between)
{
	Hand h;
	int iv, s2, s3, s4, p;

	hand_new(&h, 3);
	iv = sreg(&h), s2 = sreg(&h), s3 = sreg(&h), s4 = sreg(&h);
	p = llo_new_reg(h.f, LC_P);
	addi(&h, 0, OP_SMOVI, iv, 0, 0);
	addi(&h, 1, OP_SMULI, s2, iv, 512);
	addi(&h, 1, OP_SADDI, s4, s3, 1);	/* s3 of the last trip */
	addi(&h, 1, OP_SMULI, s3, iv, 512);
	addi(&h, 1, OP_SADDI, iv, iv, 8);
	addi(&h, 1, OP_SCMPILT, p, iv, 64);
	br(&h, 1, p, 1);
	addi(&h, 2, OP_SMULI, sreg(&h), iv, 512);	/* another block */
	llo_add(h.f, 2, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 0);
	ck_assert_int_ge(find(h.f, 1, OP_SMULI, s3), 0);
	ck_assert_int_eq(nops(h.f, 2), 2);
	hand_free(&h);
}
END_TEST

/* Vector ops: a broadcast and a product computed twice. */
START_TEST(cse_vector)
{
	Hand h;
	int v1, v2, v3, v4, v5, v6;

	hand_new(&h, 1);
	v1 = llo_new_reg(h.f, LC_V), v2 = llo_new_reg(h.f, LC_V);
	v3 = llo_new_reg(h.f, LC_V), v4 = llo_new_reg(h.f, LC_V);
	v5 = llo_new_reg(h.f, LC_V), v6 = llo_new_reg(h.f, LC_V);
	addi(&h, 0, OP_VBCASTI, v1, 0, 0x3f800000);
	addi(&h, 0, OP_VBCASTI, v2, 0, 0x3f800000);
	llo_add(h.f, 0, OP_VMULF, v3, v1, v1, 0);
	llo_add(h.f, 0, OP_VMULF, v4, v2, v2, 0);	/* = v3 once v2 = v1 */
	addi(&h, 0, OP_VBCASTI, v6, 0, 0x40000000);	/* another imm */
	llo_add(h.f, 0, OP_VADDF, v5, v3, v4, 0);
	llo_add(h.f, 0, OP_HALT, 0, 0, 0, 0);
	ck_assert_int_eq(vliw_cse(h.f), 2);
	ck_assert_int_eq(at(h.f, 0, find(h.f, 0, OP_VADDF, v5))->b, v3);
	ck_assert_int_ge(find(h.f, 0, OP_VBCASTI, v6), 0);
	hand_free(&h);
}
END_TEST

/* -------------------------------------------------------------- licm */

/* The loop of the example: block 0 sets up and may skip the loop, block
   1 is the loop, block 2 follows.  Registers in r[]. */
enum { R_BASE, R_IV, R_INV, R_INV2, R_VAR, R_ADDR, R_V, R_C, R_P, R_SKIP,
    NR };

static void
loop_func(Hand *h, int *r)
{
	hand_new(h, 3);
	r[R_BASE] = sreg(h), r[R_IV] = sreg(h), r[R_INV] = sreg(h);
	r[R_INV2] = sreg(h), r[R_VAR] = sreg(h), r[R_ADDR] = sreg(h);
	r[R_V] = llo_new_reg(h->f, LC_V), r[R_C] = llo_new_reg(h->f, LC_V);
	r[R_P] = llo_new_reg(h->f, LC_P), r[R_SKIP] = llo_new_reg(h->f, LC_P);
	addi(h, 0, OP_SMOVI, r[R_BASE], 0, 2);
	addi(h, 0, OP_SMOVI, r[R_IV], 0, 0);
	addi(h, 0, OP_SCMPIGE, r[R_SKIP], r[R_BASE], 100);
	br(h, 0, r[R_SKIP], 2);
	/* the loop */
	addi(h, 1, OP_SMULI, r[R_INV], r[R_BASE], 1024);	/* invariant */
	addi(h, 1, OP_SADDI, r[R_INV2], r[R_INV], 16);	/* then this */
	addi(h, 1, OP_SMULI, r[R_VAR], r[R_IV], 512);	/* varies */
	llo_add(h->f, 1, OP_SADD, r[R_ADDR], r[R_INV2], r[R_VAR], 0);
	addi(h, 1, OP_VLD, r[R_V], r[R_ADDR], 0)->x = 0xff;
	addi(h, 1, OP_VBCASTI, r[R_C], 0, 0x3f800000);	/* invariant */
	llo_add(h->f, 1, OP_VADDF, r[R_V], r[R_V], r[R_C], 0);
	addi(h, 1, OP_VST, 0, r[R_ADDR], 0)->b = r[R_V];
	addi(h, 1, OP_SADDI, r[R_IV], r[R_IV], 8);
	addi(h, 1, OP_SCMPILT, r[R_P], r[R_IV], 64);
	br(h, 1, r[R_P], 1);
	llo_add(h->f, 2, OP_HALT, 0, 0, 0, 0);
}

START_TEST(licm_hoists)
{
	Hand h;
	int r[NR], k0, k1, k2;
	Loc loc = { 0 };

	loop_func(&h, r);
	loc.file = 1;
	h.f->blk.v[1].ins.v[0].loc = loc;
	ck_assert_int_eq(vliw_licm(h.f), 3);
	/* block 0: the three, in order, before its br */
	ck_assert_int_eq(nops(h.f, 0), 7);
	k0 = find(h.f, 0, OP_SMULI, r[R_INV]);
	k1 = find(h.f, 0, OP_SADDI, r[R_INV2]);
	k2 = find(h.f, 0, OP_VBCASTI, r[R_C]);
	ck_assert_int_eq(k0, 3);
	ck_assert_int_eq(k1, 4);
	ck_assert_int_eq(k2, 5);
	ck_assert_int_eq(at(h.f, 0, 3)->imm, 1024);
	ck_assert_int_eq(at(h.f, 0, 3)->loc.file, 1);
	ck_assert_int_eq(at(h.f, 0, 6)->op, OP_BR);
	ck_assert_int_eq(at(h.f, 0, 6)->target, 2);
	/* the loop keeps what varies, the load and the store */
	ck_assert_int_eq(nops(h.f, 1), 8);
	ck_assert_int_eq(find(h.f, 1, OP_SMULI, r[R_INV]), -1);
	ck_assert_int_ge(find(h.f, 1, OP_SMULI, r[R_VAR]), 0);
	ck_assert_int_ge(find(h.f, 1, OP_VLD, r[R_V]), 0);
	ck_assert_int_eq(at(h.f, 1, nops(h.f, 1) - 1)->target, 1);
	ck_assert_int_eq(vliw_licm(h.f), 0);
	hand_free(&h);
}
END_TEST

/* A pure op with no trap but an invariant load next to it: the load
   stays (loads are not pure), so its user stays too. */
START_TEST(licm_refuses_load)
{
	Hand h;
	int r[NR], s, t;

	loop_func(&h, r);
	s = sreg(&h), t = sreg(&h);
	/* insert at the loop's start: s = smem[base]; t = s + 1 */
	{
		LBlk *bk = &h.f->blk.v[1];
		LIns a, b;
		addi(&h, 1, OP_SLD, s, r[R_BASE], 0);
		addi(&h, 1, OP_SADDI, t, s, 1);
		a = bk->ins.v[bk->ins.n - 2];
		b = bk->ins.v[bk->ins.n - 1];
		memmove(&bk->ins.v[2], &bk->ins.v[0],
		    sizeof(LIns) * (size_t)(bk->ins.n - 2));
		bk->ins.v[0] = a;
		bk->ins.v[1] = b;
	}
	ck_assert_int_eq(vliw_licm(h.f), 3);
	ck_assert_int_ge(find(h.f, 1, OP_SLD, s), 0);
	ck_assert_int_ge(find(h.f, 1, OP_SADDI, t), 0);
	ck_assert_int_eq(find(h.f, 0, OP_SLD, s), -1);
	hand_free(&h);
}
END_TEST

/* The invariant op's dest written twice, its dest read earlier in the
   loop (last trip's value), read after the loop, and a guarded op: none
   moves. */
START_TEST(licm_refuses_unsafe_ops)
{
	Hand h;
	int r[NR], n;

	/* dest written twice: R_INV again after the loop */
	loop_func(&h, r);
	addi(&h, 2, OP_SMOVI, r[R_INV], 0, 1);
	n = vliw_licm(h.f);
	ck_assert_int_eq(n, 1);			/* only the broadcast */
	ck_assert_int_ge(find(h.f, 1, OP_SMULI, r[R_INV]), 0);
	ck_assert_int_ge(find(h.f, 1, OP_SADDI, r[R_INV2]), 0);
	hand_free(&h);

	/* dest read in the loop before the op */
	loop_func(&h, r);
	{	/* v = C at the loop's start: the last trip's broadcast */
		LBlk *bk = &h.f->blk.v[1];
		LIns m;
		llo_add(h.f, 1, OP_VMOV, llo_new_reg(h.f, LC_V), r[R_C], 0, 0);
		m = bk->ins.v[bk->ins.n - 1];
		memmove(&bk->ins.v[1], &bk->ins.v[0],
		    sizeof(LIns) * (size_t)(bk->ins.n - 1));
		bk->ins.v[0] = m;
	}
	n = vliw_licm(h.f);
	ck_assert_int_eq(n, 2);			/* the two scalars */
	ck_assert_int_ge(find(h.f, 1, OP_VBCASTI, r[R_C]), 0);
	hand_free(&h);

	/* dest read after the loop */
	loop_func(&h, r);
	llo_add(h.f, 2, OP_SADD, sreg(&h), r[R_INV2], r[R_INV2], 0);
	ck_assert_int_eq(vliw_licm(h.f), 2);	/* R_INV, broadcast */
	ck_assert_int_ge(find(h.f, 1, OP_SADDI, r[R_INV2]), 0);
	hand_free(&h);

	/* guarded */
	loop_func(&h, r);
	h.f->blk.v[1].ins.v[0].guard = r[R_SKIP];
	ck_assert_int_eq(vliw_licm(h.f), 1);
	ck_assert_int_ge(find(h.f, 1, OP_SMULI, r[R_INV]), 0);
	hand_free(&h);
}
END_TEST

/* Loops entered otherwise than by falling through from the block
   before: nothing moves. */
START_TEST(licm_refuses_entry)
{
	Hand h;
	int r[NR];

	/* block 0 ends in an unguarded br elsewhere */
	loop_func(&h, r);
	h.f->blk.v[0].ins.v[3].guard = 0;
	ck_assert_int_eq(vliw_licm(h.f), 0);
	ck_assert_int_eq(nops(h.f, 1), 11);
	hand_free(&h);

	/* block 0 ends in halt */
	loop_func(&h, r);
	h.f->blk.v[0].ins.v[3].op = OP_HALT;
	h.f->blk.v[0].ins.v[3].guard = 0;
	h.f->blk.v[0].ins.v[3].target = -1;
	ck_assert_int_eq(vliw_licm(h.f), 0);
	hand_free(&h);

	/* another block branches into the loop */
	loop_func(&h, r);
	br(&h, 2, r[R_SKIP], 1);
	ck_assert_int_eq(vliw_licm(h.f), 0);
	hand_free(&h);

	/* a control op inside the loop */
	loop_func(&h, r);
	h.f->blk.v[1].ins.v[5].op = OP_BR;	/* replaces the broadcast */
	h.f->blk.v[1].ins.v[5].guard = r[R_SKIP];
	h.f->blk.v[1].ins.v[5].target = 2;
	ck_assert_int_eq(vliw_licm(h.f), 0);
	hand_free(&h);

	/* block 0 is itself a loop (its final br goes back to it) */
	loop_func(&h, r);
	h.f->blk.v[0].ins.v[3].target = 0;
	ck_assert_int_eq(vliw_licm(h.f), 0);
	hand_free(&h);
}
END_TEST

/* A predecessor with no final br: hoisted ops go at its end. */
START_TEST(licm_plain_predecessor)
{
	Hand h;
	int r[NR];

	loop_func(&h, r);
	h.f->blk.v[0].ins.n--;		/* drop the skip branch */
	ck_assert_int_eq(vliw_licm(h.f), 3);
	ck_assert_int_eq(nops(h.f, 0), 6);
	ck_assert_int_eq(at(h.f, 0, 5)->op, OP_VBCASTI);
	hand_free(&h);
}
END_TEST

/* ------------------------------------------------ LLO from source */

typedef struct Front {
	VtUnit u;
	TModule *tm;
	const MachPreset *mp;
} Front;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* Parses, checks and lowers src to tile IR for preset. */
static void
front(Front *fr, const char *src, const char *preset)
{
	VtUnit *u = &fr->u;
	Ast *ast;

	memset(fr, 0, sizeof *fr);
	fr->mp = mach_preset(preset);
	ck_assert_ptr_nonnull(fr->mp);
	srcmgr_init(&u->sm);
	strtab_init(&u->strs, &u->a);
	u->out = open_memstream(&u->text, &u->len);
	diag_init(&u->d, &u->sm, u->out);
	u->pp = pp_new(&u->d, &u->strs, &u->a);
	sema_predefine(u->pp, fr->mp);
	ck_assert_int_eq(pp_push_text(u->pp, "<test>", src, strlen(src)), 0);
	ast = parse_module(pp_source, u->pp, &u->d, &u->a);
	u->cm = sema_check(ast, fr->mp, &u->d, &u->a);
	ck_assert_int_eq(u->d.nerror, 0);
	ck_assert_int_eq(mosaic_lower(u->cm, fr->mp, &u->d, &u->a, &fr->tm),
	    0);
}

static const char ew_src[] =
    "kernel ew<M, N, BR>(x: f32[M, N], y: f32[M, N], out z: f32[M, N])\n"
    "grid (i: M / BR)\n"
    "semantics (parallel)\n"
    "blocks { x: [BR, 128] at (i, 0); y: [BR, 128] at (i, 0);\n"
    "         z: [BR, 128] at (i, 0); }\n"
    "{ z[...] = x[...] * y[...] + 1.0; }\n"
    "#ifdef __PK_PRESET_SMALL__\n"
    "export ew<128, 128, 32> as ew_small;\n"
    "#else\n"
    "export ew<1024, 128, 256> as ew;\n"
    "#endif\n";

/* 1 if register r of class S is written in block b. */
static int
written_in(const LFunc *f, int b, int r)
{
	int i;

	for (i = 0; i < f->blk.v[b].ins.n; i++) {
		const LIns *in = &f->blk.v[b].ins.v[i];
		if (llo_field_class(in->op, FLD_D) == LC_S && in->d == r)
			return 1;
	}
	return 0;
}

/* The chunk loop of the example after vliw_isel and the passes: no
   smuli of a register the loop does not write, no two equal smuli; the
   loads, stores and the broadcast of 1.0 outside. */
START_TEST(llo_chunk_loop)
{
	Front fr;
	LFunc *f;
	int b, i, j, loops = 0, before = 0, after = 0;

	front(&fr, ew_src, "v4");
	f = vliw_isel(fr.tm->func.v[0], fr.mp, &fr.u.d, &fr.u.a);
	ck_assert_ptr_nonnull(f);
	for (b = 0; b < f->blk.n; b++)
		before += f->blk.v[b].ins.n;
	ck_assert_int_gt(vliw_cse(f), 0);
	ck_assert_int_gt(vliw_licm(f), 0);
	for (b = 0; b < f->blk.n; b++)
		after += f->blk.v[b].ins.n;
	ck_assert_int_lt(after, before);
	for (b = 1; b < f->blk.n; b++) {
		const LBlk *bk = &f->blk.v[b];
		int vld = 0, bcast = 0;
		if (!bk->ins.n || bk->ins.v[bk->ins.n - 1].op != OP_BR ||
		    bk->ins.v[bk->ins.n - 1].target != b)
			continue;
		loops++;
		for (i = 0; i < bk->ins.n; i++) {
			const LIns *x = &bk->ins.v[i];
			vld += x->op == OP_VLD;
			bcast += x->op == OP_VBCASTI;
			if (x->op != OP_SMULI)
				continue;
			ck_assert_msg(written_in(f, b, x->a),
			    "invariant smuli %%s%d left in loop .b%d", x->a, b);
			for (j = i + 1; j < bk->ins.n; j++) {
				const LIns *y = &bk->ins.v[j];
				ck_assert_msg(!(y->op == OP_SMULI &&
				    y->a == x->a && y->imm == x->imm),
				    "duplicate smuli in loop .b%d", b);
			}
		}
		if (vld == 2) {		/* the chunk loop of z = x * y + 1 */
			ck_assert_int_eq(bcast, 0);
			ck_assert_int_le(bk->ins.n, 12);	/* of 18 */
		}
	}
	ck_assert_int_gt(loops, 0);
	vt_free(&fr.u);
}
END_TEST

/* ------------------------------------------------------- end to end */

static const char *const presets[] = { "small", "v4" };

#define HEAD "#define LANES __PK_LANES__\n"

/* Compiles src through the pipeline (vliw_compile_opts), with or
   without the two passes, into fr->u.prog. */
static void
compile(Front *fr, const char *src, const char *preset, int opt)
{
	VliwOpts o;

	front(fr, src, preset);
	memset(&o, 0, sizeof o);
	o.off = opt ? 0 : VLIW_NO_CSE | VLIW_NO_LICM;
	ck_assert_int_eq(vliw_compile_opts(fr->tm, fr->mp, &o, &fr->u.d,
	    &fr->u.a, &fr->u.prog), 0);
}

/* Runs entry of the program of fr on inputs filled from seed; the
   operand buffers in bufs (freed by the caller); returns the cycles. */
static uint64_t
run(Front *fr, const char *entry, float **bufs, int *n, size_t *bytes)
{
	const MachProgram *p = fr->u.prog;
	uint32_t e, k;
	int i = 0;

	for (e = 0; e < p->nentry; e++)
		if (strcmp(mach_program_strat(p, p->entry[e].name), entry) == 0)
			break;
	ck_assert_uint_lt(e, p->nentry);
	for (k = 0; k < p->entry[e].nopnd; k++, i++) {
		const MachOperand *o = &p->opnd[p->entry[e].first_opnd + k];
		size_t j, m = (size_t)o->bytes / sizeof(float);
		bytes[i] = (size_t)o->bytes;
		bufs[i] = malloc(bytes[i] ? bytes[i] : 1);
		for (j = 0; j < m; j++)
			bufs[i][j] = (float)((j * 7 + k * 3) % 23) * 0.25f -
			    2.0f;
	}
	*n = i;
	return vt_run(&fr->u, entry, (void *const *)bufs, (size_t)i, NULL);
}

/* src with and without the passes: outputs equal bit for bit, and
   fewer cycles with them if faster. */
static void
with_without(const char *src, const char *preset, const char *entry,
    int faster)
{
	Front on, off;
	float *b1[16], *b2[16];
	size_t n1b[16], n2b[16];
	int n1, n2, i;
	uint64_t c1, c2;

	compile(&on, src, preset, 1);
	compile(&off, src, preset, 0);
	c1 = run(&on, entry, b1, &n1, n1b);
	c2 = run(&off, entry, b2, &n2, n2b);
	ck_assert_int_eq(n1, n2);
	for (i = 0; i < n1; i++) {
		ck_assert_uint_eq(n1b[i], n2b[i]);
		ck_assert_msg(memcmp(b1[i], b2[i], n1b[i]) == 0,
		    "%s on %s: operand %d differs with the passes", entry,
		    preset, i);
		free(b1[i]);
		free(b2[i]);
	}
	printf("%s on %s: %llu cycles with cse+licm, %llu without\n", entry,
	    preset, (unsigned long long)c1, (unsigned long long)c2);
	if (faster)
		ck_assert_uint_lt(c1, c2);
	else
		ck_assert_uint_le(c1, c2);
	vt_free(&on.u);
	vt_free(&off.u);
}

static const char rows_src[] = HEAD
    "kernel rows(x: f32[256, LANES], out s: f32[1, LANES],\n"
    "    out m: f32[256, LANES])\n"
    "{ s[...] = sum(x[...], axis: 0, keepdims);\n"
    "  m[...] = broadcast(rowmax(x[...]), [256, LANES]) + 2.0; }\n"
    "export rows;\n";

START_TEST(fewer_cycles)
{
	with_without(ew_src, "v4", "ew", 1);
	with_without(ew_src, "small", "ew_small", 0);
	with_without(rows_src, "small", "rows", 0);
	with_without(rows_src, "v4", "rows", 0);
}
END_TEST


static void
both(const char *src, const char *entry)
{
	VtOpts o = { .tol = 0, .seed = 5 };
	size_t k;

	for (k = 0; k < sizeof presets / sizeof presets[0]; k++)
		vt_check(src, presets[k], entry, &o, NULL);
}

START_TEST(e2e_elementwise)
{
	both(HEAD "kernel ew2<M>(x: f32[M, 2 * LANES], y: f32[M, 2 * LANES],\n"
	    "    out z: f32[M, 2 * LANES])\n"
	    "grid (i: M / 32)\n"
	    "semantics (parallel)\n"
	    "blocks { x: [32, 2 * LANES] at (i, 0); y: [32, 2 * LANES] at (i, 0);\n"
	    "         z: [32, 2 * LANES] at (i, 0); }\n"
	    "{ let t = x[...] * y[...] + 1.0; z[...] = t * t - y[...]; }\n"
	    "export ew2<128>;\n", "ew2");
}
END_TEST

/* A loop carrying a value: the column sum over row chunks (summed in
   another order than interpret mode's), and a row max broadcast back. */
START_TEST(e2e_carried)
{
	VtOpts o = { .tol = 1e-5, .seed = 5 };
	size_t k;

	for (k = 0; k < sizeof presets / sizeof presets[0]; k++)
		vt_check(rows_src, presets[k], "rows", &o, NULL);
}
END_TEST

/* Squeezed leading block dims and a strided view. */
START_TEST(e2e_views)
{
	both(HEAD "kernel sq(x: f32[4, 64, 2 * LANES], out z: f32[4, 64, 2 * LANES])\n"
	    "grid (h: 4, i: 2)\n"
	    "blocks { x: [_, 32, 2 * LANES] at (h, i, 0);\n"
	    "         z: [_, 32, 2 * LANES] at (h, i, 0); }\n"
	    "{ z[...] = x[...] * 2.0 + 1.0; }\n"
	    "export sq;\n", "sq");
	both(HEAD "kernel strided(x: f32[4, 8, LANES], y: f32[3, 264, LANES],\n"
	    "    out z: f32[4, LANES], out w: f32[3, LANES])\n"
	    "{ z[...] = x[:, 3, :] * 2.0;\n"
	    "  w[...] = y[:, 5, :] + y[:, 260, :]; }\n"
	    "export strided;\n", "strided");
}
END_TEST

/* The example's kernel itself on both presets. */
START_TEST(e2e_example)
{
	VtOpts o = { .tol = 0, .seed = 2 };

	vt_check(ew_src, "v4", "ew", &o, NULL);
	vt_check(ew_src, "small", "ew_small", &o, NULL);
}
END_TEST

/* ------------------------------------------------------------ unroll */

/*
 * block 0: s1 = 0; block 1, a loop of T trips: s2 = s1 * 4, s3 = s2 + 1,
 * sst s3 -> [s2], s1 += 1, p1 = s1 < T, (p1) br 1; block 2: s4 = s3
 * (the last trip's s3, read after the loop), halt.
 */
static void
short_loop(Hand *h, int T, int *r)
{
	int s1, s2, s3, p1;

	hand_new(h, 3);
	s1 = sreg(h), s2 = sreg(h), s3 = sreg(h);
	p1 = llo_new_reg(h->f, LC_P);
	r[0] = s1, r[1] = s2, r[2] = s3, r[3] = sreg(h);
	addi(h, 0, OP_SMOVI, s1, 0, 0);
	h->f->blk.v[1].trips = T;
	addi(h, 1, OP_SMULI, s2, s1, 4);
	addi(h, 1, OP_SADDI, s3, s2, 1);
	llo_add(h->f, 1, OP_SST, 0, s2, s3, 0);
	addi(h, 1, OP_SADDI, s1, s1, 1);
	addi(h, 1, OP_SCMPILT, p1, s1, T);
	br(h, 1, p1, 1);
	llo_add(h->f, 2, OP_SMOV, r[3], s3, 0, 0);
	llo_add(h->f, 2, OP_HALT, 0, 0, 0, 0);
}

/* Three trips become three copies in one block with the blocks around;
   the first two copies write their own s2 and s3, the last the loop's,
   which the op after the loop reads.  With a second reader of p1, the
   exit test stays in every copy. */
START_TEST(unroll_short_loop)
{
	Hand h;
	int r[4], k, n = 0;
	const LIns *in;

	short_loop(&h, 3, r);
	ck_assert_int_eq(vliw_unroll(h.f, VLIW_UNROLL_SHORT), 1);
	ck_assert_int_eq(h.f->blk.n, 1);
	/* the copies without the exit test (only the br read p1) */
	ck_assert_int_eq(nops(h.f, 0), 1 + 3 * 4 + 2);
	for (k = 0; k < h.f->blk.v[0].ins.n; k++) {
		in = at(h.f, 0, k);
		ck_assert_int_ne(in->op, OP_BR);
		ck_assert_int_ne(in->op, OP_SCMPILT);
		if (in->op != OP_SMULI)
			continue;
		ck_assert_int_eq(in->a, r[0]);	/* the counter: shared */
		ck_assert(n == 2 ? in->d == r[1] : in->d != r[1]);
		n++;
	}
	ck_assert_int_eq(n, 3);
	in = at(h.f, 0, nops(h.f, 0) - 2);
	ck_assert_int_eq(in->op, OP_SMOV);
	ck_assert_int_eq(in->a, r[2]);
	ck_assert_int_eq(at(h.f, 0, nops(h.f, 0) - 3)->d, r[0]);	/* s1 += 1 */
	hand_free(&h);

	short_loop(&h, 3, r);
	in = &h.f->blk.v[1].ins.v[h.f->blk.v[1].ins.n - 1];
	llo_add(h.f, 0, OP_PNOT, llo_new_reg(h.f, LC_P), in->guard, 0, 0);
	ck_assert_int_eq(vliw_unroll(h.f, VLIW_UNROLL_SHORT), 1);
	ck_assert_int_eq(nops(h.f, 0), 2 + 3 * 5 + 2);
	hand_free(&h);
}
END_TEST

/* Too many trips, an unknown count, or a second way into the loop: it
   stays. */
START_TEST(unroll_refuses)
{
	Hand h;
	int r[4];

	short_loop(&h, 9, r);
	ck_assert_int_eq(vliw_unroll(h.f, VLIW_UNROLL_SHORT), 0);
	ck_assert_int_eq(h.f->blk.n, 3);
	hand_free(&h);
	short_loop(&h, 3, r);
	h.f->blk.v[1].trips = 0;
	ck_assert_int_eq(vliw_unroll(h.f, VLIW_UNROLL_SHORT), 0);
	hand_free(&h);
	short_loop(&h, 3, r);
	br(&h, 0, 0, 1);		/* block 0 jumps in */
	ck_assert_int_eq(vliw_unroll(h.f, VLIW_UNROLL_SHORT), 0);
	hand_free(&h);
}
END_TEST

/* A loop of 8 trips of EUP work (load, exp2 push and pop, store):
   interleaved, its body holds F copies (the exit test in the last only)
   and its br, and it runs 8 / F times; the first copies use their own
   registers.  Then the program runs on the simulator, faster than the
   loop as it was. */
static LFunc *
eup_loop(Arena *a, int *loop)
{
	LFunc *f = llo_new_func(a, mach_preset("small"), "eup");
	int s1 = llo_new_reg(f, LC_S), s2 = llo_new_reg(f, LC_S);
	int v1 = llo_new_reg(f, LC_V), v2 = llo_new_reg(f, LC_V);
	int p1 = llo_new_reg(f, LC_P), b;
	LIns *in;

	llo_add(f, 0, OP_SMOVI, s1, 0, 0, 0)->imm = 0;
	b = llo_new_blk(f);
	f->blk.v[b].trips = 8;
	llo_add(f, b, OP_SMULI, s2, s1, 0, 0)->imm = 512;
	in = llo_add(f, b, OP_VLD, v1, s2, 0, 0);
	in->x = 0xff | 1u << 8, in->mlo = 0, in->mhi = 4096;
	llo_add(f, b, OP_EEXP2, 0, v1, 0, 0);
	llo_add(f, b, OP_EPOP, v2, 0, 0, 0);
	in = llo_add(f, b, OP_VST, 0, s2, v2, 0);
	in->imm = 4096, in->x = 0xff | 1u << 8, in->mlo = 4096, in->mhi = 8192;
	llo_add(f, b, OP_SADDI, s1, s1, 0, 0)->imm = 1;
	llo_add(f, b, OP_SCMPILT, p1, s1, 0, 0)->imm = 8;
	in = llo_add(f, b, OP_BR, 0, 0, 0, 0);
	in->guard = p1, in->target = b;
	llo_add(f, llo_new_blk(f), OP_HALT, 0, 0, 0, 0);
	*loop = b;
	return f;
}


START_TEST(unroll_interleaves_eup_loop)
{
	Arena a = { 0 }, a2 = { 0 };
	int b, b2, k, ncmp = 0, npush = 0, F;
	LFunc *f = eup_loop(&a, &b), *g = eup_loop(&a2, &b2);
	const LBlk *bk;
	uint64_t c1, c2;

	ck_assert_int_eq(vliw_unroll(f, VLIW_UNROLL_SHORT), 0);	/* 8 > 4 */
	ck_assert_int_eq(vliw_unroll(f, VLIW_UNROLL_INTERLEAVE), 1);
	bk = &f->blk.v[b];
	for (k = 0; k < bk->ins.n; k++) {
		ncmp += bk->ins.v[k].op == OP_SCMPILT;
		npush += bk->ins.v[k].op == OP_EEXP2;
	}
	F = npush;
	ck_assert_int_ge(F, 2);
	ck_assert_int_eq(8 % F, 0);
	ck_assert_int_eq(bk->trips, 8 / F);
	ck_assert_int_eq(ncmp, 1);
	ck_assert_int_eq(bk->ins.v[bk->ins.n - 1].op, OP_BR);
	ck_assert_int_eq(bk->ins.v[bk->ins.n - 1].target, b);
	ck_assert_int_ne(bk->ins.v[1].d, bk->ins.v[1 + 6].d);	/* own vreg */
	c1 = vt_run_llo(f);
	c2 = vt_run_llo(g);
	printf("eup loop on small: %llu cycles interleaved x%d, %llu not\n",
	    (unsigned long long)c1, F, (unsigned long long)c2);
	ck_assert_uint_lt(c1, c2);
	arena_free(&a);
	arena_free(&a2);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("opt");
	TCase *c = tcase_create("cse");
	TCase *l = tcase_create("licm");
	TCase *e = tcase_create("e2e");

	tcase_add_test(c, cse_removes_duplicate);
	tcase_add_test(c, cse_refuses_multiple_writes);
	tcase_add_test(c, cse_refuses_redefined_source);
	tcase_add_test(c, cse_refuses_impure);
	tcase_add_test(c, cse_loads);
	tcase_add_test(c, unroll_short_loop);
	tcase_add_test(c, unroll_refuses);
	tcase_add_test(c, unroll_interleaves_eup_loop);
	tcase_add_test(c, cse_refuses_read_between);
	tcase_add_test(c, cse_vector);
	suite_add_tcase(s, c);
	tcase_add_test(l, licm_hoists);
	tcase_add_test(l, licm_refuses_load);
	tcase_add_test(l, licm_refuses_unsafe_ops);
	tcase_add_test(l, licm_refuses_entry);
	tcase_add_test(l, licm_plain_predecessor);
	suite_add_tcase(s, l);
	tcase_set_timeout(e, 120);
	tcase_add_test(e, llo_chunk_loop);
	tcase_add_test(e, fewer_cycles);
	tcase_add_test(e, e2e_elementwise);
	tcase_add_test(e, e2e_carried);
	tcase_add_test(e, e2e_views);
	tcase_add_test(e, e2e_example);
	suite_add_tcase(s, e);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
