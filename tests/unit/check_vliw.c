/*
 * check_vliw.c - the VLIW backend (backend/vliw/): the bundle scheduler
 * on hand-built LLO (slot limits, latencies, the immediate pool, the
 * control op last, results in flight across a loop's back edge, exact
 * cycles on the simulator), register allocation on a small function and
 * its fallback to isel's order under register pressure, and end to
 * end: kernels compiled from source, run on the simulator through the
 * runtime API with every check on (a trap fails), compared with plain-C
 * references, under the small preset and v4; -S text re-assembles to
 * the same program.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

/* ------------------------------------------------------------ helpers */

/* Runs the first entry of a hand-built program; returns the cycles. */
static uint64_t
run_prog(MachProgram *p)
{
	VtUnit u;
	uint64_t c;

	memset(&u, 0, sizeof u);
	u.prog = p;
	c = vt_run(&u, p->nentry ? mach_program_strat(p, p->entry[0].name) :
	    "", NULL, 0, NULL);
	return c;
}

/* Emits allocated f alone and runs it; returns the cycles. */
static uint64_t
emit_run(LFunc *f)
{
	LFunc *fs[1] = { f };
	MachProgram *prog;
	uint64_t c;
	Diag d;

	diag_init(&d, NULL, stderr);
	ck_assert_int_eq(vliw_emit(fs, 1, f->mp, NULL, &d, &prog), 0);
	c = run_prog(prog);
	mach_program_free(prog);
	return c;
}

static int
lat_of(const MachPreset *mp, const LIns *in)
{
	return mp->lat[mach_opinfo[in->op].lat];
}

/* Checks every bundle of f: slots per class and the pool. */
static void
check_bundles(const LFunc *f)
{
	int b, c, i, n;
	MachIns ins[64];
	char err[256];

	for (b = 0; b < f->blk.n; b++)
		for (c = 0; c < f->blk.v[b].nbundle; c++) {
			n = 0;
			for (i = 0; i < f->blk.v[b].ins.n; i++) {
				const LIns *x = &f->blk.v[b].ins.v[i];
				int slot[NMACHUNIT + 1] = { 0 };
				if (x->cycle != c)
					continue;
				(void)slot;
				memset(&ins[n], 0, sizeof ins[n]);
				ins[n].op = (uint8_t)x->op;
				ins[n].d = (uint8_t)(x->d & 7);
				ins[n].a = (uint8_t)(x->a & 7);
				ins[n].b = (uint8_t)(x->b & 7);
				ins[n].c = (uint8_t)(x->c & 7);
				if (llo_field_class(x->op, FLD_D) == LC_P &&
				    ins[n].d == 0)
					ins[n].d = 1;
				ins[n].imm = x->imm;
				n++;
			}
			/* sort by unit for the slot check */
			for (i = 1; i < n; i++) {
				MachIns t = ins[i];
				int j = i;
				while (j > 0 && mach_opinfo[ins[j - 1].op].unit >
				    mach_opinfo[t.op].unit) {
					ins[j] = ins[j - 1];
					j--;
				}
				ins[j] = t;
			}
			ck_assert_msg(mach_bundle_check(f->mp, ins, n, err,
			    sizeof err) == MACH_OK, "bundle %d.%d: %s", b, c, err);
		}
}

/* ------------------------------------------------------------ sched */

START_TEST(sched_packs_within_slots)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("v4");
	LFunc *f = llo_new_func(&a, mp, "t");
	int i, v[12], s = llo_new_reg(f, LC_S), cyc[NMACHUNIT] = { 0 };
	int per[256][NMACHUNIT];
	LIns *in;

	memset(per, 0, sizeof per);
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 0;
	/* 8 independent loads, 8 adds on them: 1 vld slot, 2 VALU slots */
	for (i = 0; i < 8; i++) {
		v[i] = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, v[i], s, 0, 0);
		in->imm = 4096 * i;
		in->x = 0x1ff;
	}
	for (i = 0; i < 8; i++)
		llo_add(f, 0, OP_VADDF, llo_new_reg(f, LC_V), v[i], v[i], 0);
	vliw_sched(f);
	check_bundles(f);
	for (i = 0; i < f->blk.v[0].ins.n; i++) {
		const LIns *x = &f->blk.v[0].ins.v[i];
		ck_assert_int_lt(x->cycle, 256);
		per[x->cycle][mach_opinfo[x->op].unit]++;
		cyc[mach_opinfo[x->op].unit]++;
	}
	for (i = 0; i < 256; i++) {
		ck_assert_int_le(per[i][U_VLD], mp->slots[U_VLD]);
		ck_assert_int_le(per[i][U_VALU], mp->slots[U_VALU]);
	}
	/* loads are the bottleneck: 1 + 8 loads, last add 2 later */
	ck_assert_int_eq(cyc[U_VLD], 8);
	ck_assert_int_le(f->blk.v[0].nbundle, 1 + 8 + mp->lat[LAT_VLD] +
	    mp->lat[LAT_VALU]);
	arena_free(&a);
}
END_TEST

START_TEST(sched_honours_latencies)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "t");
	int s = llo_new_reg(f, LC_S), v1 = llo_new_reg(f, LC_V);
	int v2 = llo_new_reg(f, LC_V), v3 = llo_new_reg(f, LC_V);
	int b, i, j, k;
	LIns *in;

	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 64;
	in = llo_add(f, 0, OP_VLD, v1, s, 0, 0);
	in->x = 0x1ff;
	llo_add(f, 0, OP_VMULF, v2, v1, v1, 0);
	llo_add(f, 0, OP_VADDF, v3, v2, v1, 0);
	in = llo_add(f, 0, OP_VST, 0, s, v3, 0);
	in->imm = 512;
	in->x = 0x1ff;
	in = llo_add(f, 0, OP_VLD, v1, s, 0, 0);	/* WAR on v1, RAW mem */
	in->imm = 512;
	in->x = 0x1ff;
	llo_add(f, 0, OP_EEXP2, 0, v1, 0, 0);
	llo_add(f, 0, OP_EPOP, v2, 0, 0, 0);
	b = llo_new_blk(f);
	llo_add(f, b, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	check_bundles(f);
	/* every RAW pair: consumer >= producer + latency (same block) */
	for (i = 0; i < f->blk.v[0].ins.n; i++)
		for (j = 0; j < f->blk.v[0].ins.n; j++) {
			const LIns *p = &f->blk.v[0].ins.v[i];
			const LIns *c = &f->blk.v[0].ins.v[j];
			LClass cl = llo_field_class(p->op, FLD_D);
			if (cl == LC_NONE || c->cycle <= p->cycle)
				continue;
			for (k = FLD_A; k <= FLD_C; k++) {
				int r = k == FLD_A ? c->a : k == FLD_B ? c->b : c->c;
				if (llo_field_class(c->op, k) == cl && r == p->d)
					ck_assert_int_ge(c->cycle, p->cycle +
					    lat_of(mp, p));
			}
		}
	/* the store before the reload, by the store latency */
	{
		int st = -1, ld = -1, push = -1, pop = -1;
		for (i = 0; i < f->blk.v[0].ins.n; i++) {
			const LIns *x = &f->blk.v[0].ins.v[i];
			if (x->op == OP_VST)
				st = x->cycle;
			if (x->op == OP_VLD && x->imm == 512)
				ld = x->cycle;
			if (x->op == OP_EEXP2)
				push = x->cycle;
			if (x->op == OP_EPOP)
				pop = x->cycle;
		}
		ck_assert_int_ge(ld, st + mp->lat[LAT_VST]);
		ck_assert_int_ge(pop, push + mp->lat[LAT_EUP]);
		/* the block drains: the pop's result is ready at its end */
		ck_assert_int_ge(f->blk.v[0].nbundle, pop + mp->lat[LAT_POP]);
	}
	arena_free(&a);
}
END_TEST

START_TEST(sched_immediate_pool)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("v4");
	LFunc *f = llo_new_func(&a, mp, "t");
	int i, c, n;
	LIns *in;

	for (i = 0; i < 20; i++) {
		in = llo_add(f, 0, OP_VBCASTI, llo_new_reg(f, LC_V), 0, 0, 0);
		in->imm = 1000 + i;
	}
	vliw_sched(f);
	for (c = 0; c < f->blk.v[0].nbundle; c++) {
		for (n = i = 0; i < f->blk.v[0].ins.n; i++)
			n += f->blk.v[0].ins.v[i].cycle == c;
		ck_assert_int_le(n, mp->slots[U_VALU]);
		ck_assert_int_le(n, mp->nimm);
	}
	check_bundles(f);
	arena_free(&a);
}
END_TEST

static LIns *
vmem(LFunc *f, int b, int op, int d, int a, int v, int32_t off)
{
	LIns *in = llo_add(f, b, op, d, a, v, 0);

	in->imm = off;
	in->x = 0x1ff;
	return in;
}

static const LIns *
find(const LFunc *f, int b, int op, int32_t imm)
{
	int i;

	for (i = 0; i < f->blk.v[b].ins.n; i++)
		if (f->blk.v[b].ins.v[i].op == op &&
		    f->blk.v[b].ins.v[i].imm == imm)
			return &f->blk.v[b].ins.v[i];
	ck_abort_msg("no %s %d in block %d", mach_opinfo[op].name, imm, b);
	return NULL;
}


/*
 * A loop whose body ends in three loads (one VLD slot: the third issues
 * with the back-edge branch); the first op of the next iteration reads
 * the third load's register.  The branch waits only for its predicate;
 * the load is still in flight at the loop head, where only its reader
 * is delayed.  The simulator (every check on) must not trap.
 */
START_TEST(sched_latency_across_back_edge)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "loop");
	int s1 = llo_new_reg(f, LC_S), s2 = llo_new_reg(f, LC_S);
	int v1 = llo_new_reg(f, LC_V), v2 = llo_new_reg(f, LC_V);
	int v3 = llo_new_reg(f, LC_V), p1 = llo_new_reg(f, LC_P);
	int v4 = llo_new_reg(f, LC_V);
	int body, out;
	const LIns *add, *cmp, *br, *ld2;
	MachProgram *prog;
	Diag d;
	LIns *in;

	diag_init(&d, NULL, stderr);
	in = llo_add(f, 0, OP_SMOVI, s1, 0, 0, 0);
	in = llo_add(f, 0, OP_SMOVI, s2, 0, 0, 0);
	in->imm = 4096;
	llo_add(f, 0, OP_VBCASTI, v1, 0, 0, 0)->imm = 0;
	vmem(f, 0, OP_VST, 0, s2, v1, 0);
	vmem(f, 0, OP_VST, 0, s2, v1, 512);
	vmem(f, 0, OP_VLD, v2, s2, 0, 512);
	body = llo_new_blk(f);
	llo_add(f, body, OP_VADDF, v3, v2, v2, 0);
	llo_add(f, body, OP_SADDI, s1, s1, 0, 0)->imm = 1;
	llo_add(f, body, OP_SCMPILT, p1, s1, 0, 0)->imm = 8;
	vmem(f, body, OP_VLD, v1, s2, 0, 0);
	vmem(f, body, OP_VLD, v4, s2, 0, 1024);
	vmem(f, body, OP_VLD, v2, s2, 0, 512);
	in = llo_add(f, body, OP_BR, 0, 0, 0, 0);
	in->guard = p1;
	in->target = body;
	out = llo_new_blk(f);
	vmem(f, out, OP_VST, 0, s2, v3, 1024);
	vmem(f, out, OP_VST, 0, s2, v1, 1536);
	llo_add(f, out, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	check_bundles(f);
	add = find(f, body, OP_VADDF, 0);
	cmp = find(f, body, OP_SCMPILT, 8);
	br = find(f, body, OP_BR, 0);
	ld2 = find(f, body, OP_VLD, 512);
	/* the branch waits for its predicate only, and issues with the
	   last load, whose result is still in flight when it is taken */
	ck_assert_int_eq(br->cycle, cmp->cycle + mp->lat[LAT_SALU]);
	ck_assert_int_eq(ld2->cycle, br->cycle);
	ck_assert_int_eq(f->blk.v[body].nbundle, br->cycle + 1);
	/* the reader at the loop head waits out the rest of the latency */
	ck_assert_int_eq(add->cycle, ld2->cycle + mp->lat[LAT_VLD] -
	    f->blk.v[body].nbundle);
	ck_assert_int_eq(add->cycle, 1);
	ck_assert_int_eq(f->blk.v[body].nbundle, 3);
	/* the block before the loop leaves its load in flight too */
	ck_assert_int_eq(f->blk.v[0].nbundle, find(f, 0, OP_VLD, 512)->cycle +
	    1);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	{
		LFunc *fs[1] = { f };
		ck_assert_int_eq(vliw_emit(fs, 1, mp, NULL, &d, &prog), 0);
	}
	/* entry 5 + loop 8 * 3 + 7 taken-branch bubbles + exit 2 (a body
	   drained before its branch would take 8 * 4) */
	ck_assert_int_eq(f->blk.v[0].nbundle, 5);
	ck_assert_int_eq(f->blk.v[out].nbundle, 2);
	ck_assert_int_eq(run_prog(prog), 5 + 8 * 3 +
	    7 * mp->lat[LAT_BRANCH] + 2);
	mach_program_free(prog);
	arena_free(&a);
}
END_TEST

/* ------------------------------------------------------------ regalloc */

/* The op of block 0 with opcode op reading (a) or writing (d) reg. */
static const LIns *
find_reg(const LFunc *f, int op, int reg)
{
	int i;

	for (i = 0; i < f->blk.v[0].ins.n; i++) {
		const LIns *in = &f->blk.v[0].ins.v[i];
		if (in->op == op && (op == OP_XPOP ? in->d : in->a) == reg)
			return in;
	}
	ck_abort_msg("no %s of register %d", mach_opinfo[op].name, reg);
	return NULL;
}

/*
 * XLU FIFOs: four row sums into xlu0 and four into xlu1, each batch then
 * popped.  Per unit the pushes go out the reduce interval apart and each
 * pop once its entry is ready; the second unit's batch overlaps the
 * first's.  The simulator (every check on) must not trap.
 */
START_TEST(sched_xlu_fifos)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("v4");
	LFunc *f = llo_new_func(&a, mp, "xlu");
	int s0 = llo_new_reg(f, LC_S), v[8], r[8], k, u;
	int gap = mp->xlu_reduce_interval, L = mp->lat[LAT_XLU_REDUCE];
	const LIns *push[8], *pop[8];
	Diag d;

	diag_init(&d, NULL, stderr);
	llo_add(f, 0, OP_SMOVI, s0, 0, 0, 0);
	for (k = 0; k < 8; k++) {
		v[k] = llo_new_reg(f, LC_V);
		r[k] = llo_new_reg(f, LC_V);
		llo_add(f, 0, OP_VBCASTI, v[k], 0, 0, 0)->imm = 0x3f800000 + k;
	}
	for (u = 0; u < 2; u++) {
		for (k = 4 * u; k < 4 * u + 4; k++)
			llo_add(f, 0, OP_XSUM, 0, v[k], 0, u);
		for (k = 4 * u; k < 4 * u + 4; k++)
			llo_add(f, 0, OP_XPOP, r[k], 0, 0, u);
	}
	for (k = 0; k < 8; k++)
		vmem(f, 0, OP_VST, 0, s0, r[k], 4096 * k);
	llo_add(f, 0, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	check_bundles(f);
	for (k = 0; k < 8; k++) {
		push[k] = find_reg(f, OP_XSUM, v[k]);
		pop[k] = find_reg(f, OP_XPOP, r[k]);
		ck_assert_int_ge(pop[k]->cycle, push[k]->cycle + L);
		if (k % 4)
			ck_assert_int_ge(push[k]->cycle, push[k - 1]->cycle + gap);
	}
	/* the second batch does not wait for the first one's pops */
	ck_assert_int_lt(push[4]->cycle, pop[0]->cycle);
	ck_assert_int_le(pop[7]->cycle, pop[3]->cycle + 1);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	emit_run(f);
	arena_free(&a);
}
END_TEST

/*
 * Only the block that runs out is scheduled in isel's order: block 0
 * sums 24 broadcasts in a chain (the list scheduler issues every
 * broadcast long before the add that reads it: more vregs than the
 * preset has, which spilling scalars cannot help), block 1 has a load
 * the list scheduler moves above an add that waits for an earlier load,
 * and keeps that order after allocation.
 */
START_TEST(regalloc_reschedules_full_blocks_only)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "chain");
	int z = llo_new_reg(f, LC_S), i, p, t, b1;
	int sum = llo_new_reg(f, LC_V), v1 = llo_new_reg(f, LC_V);
	int v2 = llo_new_reg(f, LC_V), v3 = llo_new_reg(f, LC_V);
	int v4 = llo_new_reg(f, LC_V);
	const LIns *add, *ld;
	Diag d;

	diag_init(&d, NULL, stderr);
	llo_add(f, 0, OP_SMOVI, z, 0, 0, 0)->imm = 0;
	llo_add(f, 0, OP_VBCASTI, sum, 0, 0, 0)->imm = 0;
	for (i = 0; i < 24; i++) {
		p = llo_new_reg(f, LC_V);
		llo_add(f, 0, OP_VBCASTI, p, 0, 0, 0)->imm = 0x3f800000 + i;
		t = llo_new_reg(f, LC_V);
		llo_add(f, 0, OP_VADDF, t, sum, p, 0);
		sum = t;
	}
	vmem(f, 0, OP_VST, 0, z, sum, 2048);
	b1 = llo_new_blk(f);
	llo_add(f, b1, OP_VBCASTI, v1, 0, 0, 0)->imm = 0;
	vmem(f, b1, OP_VST, 0, z, v1, 0);
	vmem(f, b1, OP_VST, 0, z, v1, 512);
	vmem(f, b1, OP_VLD, v2, z, 0, 0);
	llo_add(f, b1, OP_VADDF, v3, v2, v2, 0);
	vmem(f, b1, OP_VLD, v4, z, 0, 512);
	vmem(f, b1, OP_VST, 0, z, v3, 1024);
	vmem(f, b1, OP_VST, 0, z, v4, 1536);
	llo_add(f, b1, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	ck_assert_int_eq(f->blk.v[0].inorder, 1);
	ck_assert_int_eq(f->blk.v[b1].inorder, 0);
	for (i = 0; i < NLCLASS; i++)
		ck_assert_int_eq(f->nspill[i], 0);
	for (i = 1; i < f->blk.v[0].ins.n; i++)
		ck_assert_int_ge(f->blk.v[0].ins.v[i].cycle,
		    f->blk.v[0].ins.v[i - 1].cycle);
	add = ld = NULL;
	for (i = 0; i < f->blk.v[b1].ins.n; i++) {
		const LIns *x = &f->blk.v[b1].ins.v[i];
		if (x->op == OP_VADDF)
			add = x;
		if (x->op == OP_VLD && x->imm == 512)
			ld = x;
	}
	ck_assert(add && ld);
	ck_assert_int_gt(ld->seq, add->seq);
	ck_assert_int_lt(ld->cycle, add->cycle);	/* moved up */
	emit_run(f);
	arena_free(&a);
}
END_TEST

START_TEST(regalloc_small_function)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "t");
	Diag d;
	int s = llo_new_reg(f, LC_S), i, acc = llo_new_reg(f, LC_V), t, x;
	int maxv = -1;
	LIns *in;

	diag_init(&d, NULL, stderr);
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 0;
	in = llo_add(f, 0, OP_VBCASTI, acc, 0, 0, 0);
	/* 40 short-lived values: more than 16 vregs in total, few live
	   (each load waits for the previous store to the same row) */
	for (i = 0; i < 40; i++) {
		x = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, x, s, 0, 0);
		in->imm = 512;
		in->x = 0x1ff;
		t = llo_new_reg(f, LC_V);
		llo_add(f, 0, OP_VADDF, t, acc, x, 0);
		in = llo_add(f, 0, OP_VST, 0, s, t, 0);
		in->imm = 512;
		in->x = 0x1ff;
		acc = t;
	}
	in = llo_add(f, 0, OP_VST, 0, s, acc, 0);
	in->imm = 1024;
	in->x = 0x1ff;
	llo_add(f, 0, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	ck_assert(f->allocated);
	for (i = 0; i < f->blk.v[0].ins.n; i++) {
		const LIns *x2 = &f->blk.v[0].ins.v[i];
		if (llo_field_class(x2->op, FLD_D) == LC_V && x2->d > maxv)
			maxv = x2->d;
	}
	ck_assert_int_lt(maxv, mp->nvreg);
	/* and the program it makes runs without a trap */
	{
		MachProgram *p;
		LFunc *fs[1] = { f };
		ck_assert_int_eq(vliw_emit(fs, 1, mp, NULL, &d, &p), 0);
		ck_assert_int_gt(p->nbundle, 0);
		mach_program_free(p);
	}
	arena_free(&a);
}
END_TEST

START_TEST(regalloc_reports_pressure)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "big");
	Diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int s = llo_new_reg(f, LC_S), i, v[40];
	LIns *in;

	diag_init(&d, NULL, out);
	f->vmem_base = (int64_t)mp->vmem_bytes;	/* no room to spill */
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	for (i = 0; i < 40; i++) {	/* 40 values live at once */
		v[i] = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, v[i], s, 0, 0);
		in->x = 0x1ff;
	}
	for (i = 0; i < 40; i++) {
		in = llo_add(f, 0, OP_VST, 0, s, v[i], 0);
		in->x = 0x1ff;
	}
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), -1);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "kernel 'big' needs more than 16 "
	    "vector registers"));
	free(text);
	arena_free(&a);
}
END_TEST

/* 20 compares, each guarding the op after it: the list scheduler hoists
   the compares (more than 15 predicates live), so regalloc schedules the
   function again in isel's order, where two at most are live. */
START_TEST(regalloc_reschedules_in_order)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "preds");
	int s = llo_new_reg(f, LC_S), i, p, hoisted = 0, first = INT32_MAX;
	Diag d;
	LIns *in;

	diag_init(&d, NULL, stderr);
	llo_add(f, 0, OP_SMOVI, s, 0, 0, 0)->imm = 5;
	for (i = 0; i < 20; i++) {
		p = llo_new_reg(f, LC_P);
		llo_add(f, 0, OP_SCMPIEQ, p, s, 0, 0)->imm = i;
		in = llo_add(f, 0, OP_SMOVI, llo_new_reg(f, LC_S), 0, 0, 0);
		in->imm = 100 + i;
		in->guard = p;
	}
	llo_add(f, 0, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	for (i = 0; i < f->blk.v[0].ins.n; i++)
		if (f->blk.v[0].ins.v[i].guard &&
		    f->blk.v[0].ins.v[i].cycle < first)
			first = f->blk.v[0].ins.v[i].cycle;
	for (i = 0; i < f->blk.v[0].ins.n; i++)
		hoisted += f->blk.v[0].ins.v[i].op == OP_SCMPIEQ &&
		    f->blk.v[0].ins.v[i].cycle < first;
	ck_assert_int_gt(hoisted, mp->npreg - 1);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	/* isel's order: every op issues no earlier than the one before */
	for (i = 1; i < f->blk.v[0].ins.n; i++) {
		ck_assert_int_eq(f->blk.v[0].ins.v[i].seq, i);
		ck_assert_int_ge(f->blk.v[0].ins.v[i].cycle,
		    f->blk.v[0].ins.v[i - 1].cycle);
	}
	ck_assert_int_gt(emit_run(f), 20);
	arena_free(&a);
}
END_TEST

/* ------------------------------------------------------------ end to end */

static const char axpb_src[] =
"kernel axpb(x: f32[64, 128], out y: f32[64, 128])\n"
"grid (i: 8)\n"
"blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }\n"
"{\n"
"    y[...] = x[...] * 2.0 + 1.0;\n"
"}\n"
"export axpb;\n";

static const char relu_src[] =
"kernel relu(x: f32[64, 128], out y: f32[64, 128])\n"
"grid (i: 4)\n"
"blocks { x: [16, 128] at (i, 0); y: [16, 128] at (i, 0); }\n"
"{\n"
"    y[...] = max(x[...], 0.0);\n"
"}\n"
"export relu;\n";

static const char mix_src[] =
"kernel mix(x: f32[32, 128], z: f32[32, 128], out y: f32[32, 128])\n"
"grid (i: 2)\n"
"blocks { x: [16, 128] at (i, 0); z: [16, 128] at (i, 0);\n"
"    y: [16, 128] at (i, 0); }\n"
"{\n"
"    let a = x[...] - z[...];\n"
"    y[...] = where(a > 0.5, a * a, min(a, z[...]) + 3.0);\n"
"}\n"
"export mix;\n";

static const char one_src[] =
"kernel one(x: f32[8, 128], out y: f32[8, 128])\n"
"{\n"
"    y[...] = x[...] * x[...] - 1.5;\n"
"}\n"
"export one;\n";

/* [48, 256] blocks exceed the vreg budget on both presets: the body
   runs as loops over row chunks through a VMEM home */
static const char chunk_src[] =
"kernel chunk(x: f32[192, 256], out z: f32[192, 256])\n"
"grid (i: 4)\n"
"blocks { x: [48, 256] at (i, 0); z: [48, 256] at (i, 0); }\n"
"{\n"
"    let s = x[...] * 2.0 - 1.0;\n"
"    z[...] = where(s <= 0.0, 0.0, s) + iota([48, 256], 0) as f32;\n"
"}\n"
"export chunk;\n";

static const char *const presets[] = { "small", "v4" };

static float *
fill(int64_t n, int seed)
{
	float *x = xmalloc((size_t)n * sizeof *x);
	int64_t i;

	for (i = 0; i < n; i++)
		x[i] = (float)((i * 37 + seed * 11) % 97) / 16.0f - 3.0f;
	return x;
}

static void
e2e_unary(const char *src, const char *name, int64_t n, int which)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit f;
		float *x = fill(n, 1), *y = xcalloc((size_t)n, sizeof *y);
		void *b[2] = { x, y };
		uint64_t cyc;
		int64_t i;

		ck_assert_msg(vt_compile(&f, src, presets[k]) == 0, "%s: %s",
		    presets[k], f.text);
		cyc = vt_run(&f, name, b, 2, NULL);
		for (i = 0; i < n; i++) {
			float s = x[i] * 2.0f - 1.0f;
			float want = which == 0 ? x[i] * 2.0f + 1.0f :
			    which == 1 ? fmaxf(x[i], 0.0f) :
			    which == 2 ? x[i] * x[i] - 1.5f :
			    (s <= 0.0f ? 0.0f : s) + (float)(i / 256 % 48);
			ck_assert_msg(y[i] == want, "%s %s: y[%lld] = %g, want "
			    "%g", name, presets[k], (long long)i, y[i], want);
		}
		vt_roundtrip(&f);
		printf("check_vliw: %s on %s: %llu cycles, %u bundles\n", name,
		    presets[k], (unsigned long long)cyc, f.prog->nbundle);
		vt_free(&f);
		free(x);
		free(y);
	}
}

START_TEST(e2e_axpb)
{
	e2e_unary(axpb_src, "axpb", 64 * 128, 0);
}
END_TEST

START_TEST(e2e_relu)
{
	e2e_unary(relu_src, "relu", 64 * 128, 1);
}
END_TEST

START_TEST(e2e_single_step)
{
	e2e_unary(one_src, "one", 8 * 128, 2);
}
END_TEST

START_TEST(e2e_chunk_loops)
{
	e2e_unary(chunk_src, "chunk", 192 * 256, 3);
}
END_TEST

START_TEST(e2e_mix)
{
	size_t k;
	int64_t n = 32 * 128, i;

	for (k = 0; k < countof(presets); k++) {
		VtUnit f;
		float *x = fill(n, 1), *z = fill(n, 5);
		float *y = xcalloc((size_t)n, sizeof *y);
		void *b[3] = { x, z, y };
		uint64_t cyc;

		ck_assert_msg(vt_compile(&f, mix_src, presets[k]) == 0, "%s: %s",
		    presets[k], f.text);
		cyc = vt_run(&f, "mix", b, 3, NULL);
		for (i = 0; i < n; i++) {
			float a = x[i] - z[i];
			float want = a > 0.5f ? a * a : fminf(a, z[i]) + 3.0f;
			ck_assert_msg(y[i] == want, "mix %s: y[%lld] = %g, want "
			    "%g", presets[k], (long long)i, y[i], want);
		}
		vt_roundtrip(&f);
		printf("check_vliw: mix on %s: %llu cycles, %u bundles\n",
		    presets[k], (unsigned long long)cyc, f.prog->nbundle);
		vt_free(&f);
		free(x);
		free(z);
		free(y);
	}
}
END_TEST

/* Scalar i32 / and % truncate toward zero: by powers of two (shifts),
   other constants, negative constants and registers (the step loop). */
START_TEST(e2e_scalar_division)
{
	static const char src[] =
	    "kernel divs(x: i32[64, 128], out y: i32[64, 128])\n"
	    "grid (i: 8)\n"
	    "blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }\n"
	    "{ let a = i * 7 - 20; let b = 0 - i - 2;\n"
	    "  let s = a / 3 * 1000000 + a % 3 * 100000 + a / -5 * 10000\n"
	    "      + a % -5 * 1000 + a / 4 * 100 + a % 4 * 10 + a / (i + 1)\n"
	    "      + a % b * 3 + a / b * 7;\n"
	    "  y[...] = x[...] + s; }\n"
	    "export divs;\n";
	size_t k;

	for (k = 0; k < countof(presets); k++)
		vt_check(src, presets[k], "divs", NULL, NULL);
}
END_TEST

/* Scalar f32 compares on the scalar unit (it has i32 ALUs only): SMEM
   pairs with signed zeros, infinities, NaNs, denormals, against C; and
   compares of constants, folded. */
static const char fcmp_src[] =
    "kernel fcmp(smem w: f32[32], smem v: f32[32], out q: i32[256, 128])\n"
    "grid (i: 32)\n"
    "semantics (arbitrary)\n"
    "blocks { q: [8, 128] at (i, 0); }\n"
    "{ q[...] = broadcast(0, [8, 128]);\n"
    "  when (w[i] < v[i]) { q[...] += 1; }\n"
    "  when (w[i] <= v[i]) { q[...] += 2; }\n"
    "  when (w[i] > v[i]) { q[...] += 4; }\n"
    "  when (w[i] >= v[i]) { q[...] += 8; }\n"
    "  when (w[i] == v[i]) { q[...] += 16; }\n"
    "  when (w[i] != v[i]) { q[...] += 32; }\n"
    "  when (w[i] < 0.5) { q[...] += 64; }\n"
    "  when (0.0 == v[i]) { q[...] += 128; }\n"
    "  when (0.25 == 100.0) { q[...] += 256; }\n"
    "  when (0.5 < 0.25) { q[...] += 512; }\n"
    "  when (0.25 != 100.0) { q[...] += 1024; }\n"
    "}\n"
    "export fcmp;\n";

static float
bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

START_TEST(e2e_scalar_f32_compare)
{
	static const uint32_t e[] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000,	/* 0, inf */
		0x7fc00000, 0xffc12345, 0x00000001, 0x80000001,	/* NaN, dn */
		0x3f800000, 0xbf800000, 0x3f000000, 0x3f000001,	/* 1, 0.5 */
		0x7f7fffff, 0xff7fffff, 0x3effffff, 0xc0000000,
	};
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		float w[32], v[32], a, b;
		int32_t *q = xcalloc(256 * 128, sizeof *q);
		void *buf[3] = { w, v, q };
		int64_t i, j;

		for (i = 0; i < 32; i++) {
			w[i] = bits_f32(e[i % 16]);
			v[i] = bits_f32(e[(i * 5 + i / 16) % 16]);
		}
		ck_assert_msg(vt_compile(&u, fcmp_src, presets[k]) == 0,
		    "%s: %s", presets[k], u.text);
		vt_run(&u, "fcmp", buf, 3, NULL);
		for (i = 0; i < 32; i++) {
			int32_t want;
			a = w[i];
			b = v[i];
			want = (a < b) + 2 * (a <= b) + 4 * (a > b) +
			    8 * (a >= b) + 16 * (a == b) + 32 * (a != b) +
			    64 * (a < 0.5f) + 128 * (b == 0.0f) + 1024;
			for (j = 0; j < 8 * 128; j++)
				ck_assert_msg(q[i * 1024 + j] == want,
				    "%s: %a vs %a: %d, want %d", presets[k],
				    (double)a, (double)b, q[i * 1024 + j],
				    want);
		}
		vt_free(&u);
		free(q);
	}
}
END_TEST

/* A matmul that stores (does not accumulate) over several K groups is
   split: the first group stores its sums, the rest add to them (no
   zeroing pass); plain and trans_b, a resident output summed over a
   grid axis, f32 and bf16, on both presets (v4: K groups of 512). */
START_TEST(e2e_matmul_store_split_k)
{
	static const char src[] =
	    "#ifdef __PK_PRESET_SMALL__\n"
	    "#define K1 64\n#define N1 32\n#define K2 48\n#define N2 16\n"
	    "#else\n"
	    "#define K1 1024\n#define N1 256\n#define K2 384\n#define N2 128\n"
	    "#endif\n"
	    "kernel st(x: bf16[64, K1], y: bf16[K1, N1], out z: f32[64, N1])\n"
	    "{ z[...] = dot(x[...], y[...]); }\n"
	    "kernel sttb(x: f32[32, K2], y: f32[N2, K2], out z: f32[32, N2])\n"
	    "{ z[...] = dot(x[...], y[...], trans_b, precision: highest); }\n"
	    "kernel res(x: bf16[64, 2 * K1], y: bf16[2 * K1, N2],\n"
	    "    out z: f32[64, N2])\n"
	    "grid (k: 2)\n"
	    "semantics (arbitrary)\n"
	    "blocks { x: [64, K1] at (0, k); y: [K1, N2] at (k, 0);\n"
	    "         z: [64, N2] at (0, 0); }\n"
	    "{ when (k == 0) { z[...] = dot(x[...], y[...]); }\n"
	    "  else { z[...] += dot(x[...], y[...]); } }\n"
	    "export st; export sttb; export res;\n";
	static const char *const e[] = { "st", "sttb", "res" };
	/* f32 sums of up to 2048 products, in another order than the
	   interpreter's: about 1e-5 of the result's magnitude */
	VtOpts o = { .tol = 5e-5, .seed = 2 };
	size_t k, i;

	for (k = 0; k < countof(presets); k++)
		for (i = 0; i < countof(e); i++)
			vt_check(src, presets[k], e[i], &o, NULL);
}
END_TEST

START_TEST(e2e_unsupported_is_reported)
{
	VtUnit f;

	ck_assert_int_eq(vt_compile(&f,
	    "kernel t(x: f32[8, 128], out y: f32[128, 8])\n"
	    "{ y[:, 0] = x[0, :]; }\n"
	    "export t;\n", "small"), -1);
	ck_assert_ptr_nonnull(strstr(f.text, "not supported by the compiled path yet"));
	ck_assert_ptr_nonnull(strstr(f.text, "kernel 't'"));
	vt_free(&f);
}
END_TEST

/* ------------------------------------------------------------ matmul */

/* f rounded to bf16 (nearest even), as the MXU's default precision does. */
static double
bf16r(float f)
{
	return pallas_bf16_to_f32(pallas_f32_to_bf16(f));
}

/* x as bf16 words (nearest even), in place over the first half. */
static void
to_bf16(float *x, int64_t n)
{
	uint16_t *h = (uint16_t *)(void *)x;
	int64_t i;

	for (i = 0; i < n; i++)	/* h[i] overlaps x[i / 2]: read first */
		h[i] = pallas_f32_to_bf16(x[i]);
}

/*
 * Compiles src on preset, runs entry on x [M, K] and y [K, N] ([N, K]
 * when tb) into z [M, N], and compares z with a double reference (inputs
 * rounded to bf16 when bf; passed as bf16 when bf is 2), within tol
 * times the sum of |products|.
 */
static uint64_t
e2e_mm(const char *src, const char *preset, const char *entry, int64_t M,
    int64_t N, int64_t K, int tb, int bf, double tol)
{
	VtUnit f;
	float *x = fill(M * K, 1), *y = fill(K * N, 7);
	float *z = xcalloc((size_t)(M * N), sizeof *z);
	void *b[3] = { x, y, z };
	PallasStats st;
	const MachPreset *mp = mach_preset(preset);
	int64_t i, j, k;
	float *xr = NULL, *yr = NULL;

	ck_assert_msg(vt_compile(&f, src, preset) == 0, "%s: %s", preset, f.text);
	if (bf == 2) {
		xr = fill(M * K, 1);
		yr = fill(K * N, 7);
		to_bf16(x, M * K);
		to_bf16(y, K * N);
	}
	vt_run(&f, entry, b, 3, &st);
	if (bf == 2) {
		free(x);
		free(y);
		x = xr;
		y = yr;
	}
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double want = 0, mag = 0, a, w;
			for (k = 0; k < K; k++) {
				a = x[i * K + k];
				w = tb ? y[j * K + k] : y[k * N + j];
				if (bf) {
					a = bf16r((float)a);
					w = bf16r((float)w);
				}
				want += a * w;
				mag += fabs(a * w);
			}
			ck_assert_msg(fabs(z[i * N + j] - want) <= tol * mag +
			    1e-30, "%s on %s: z[%lld, %lld] = %.9g, want %.9g",
			    entry, preset, (long long)i, (long long)j,
			    z[i * N + j], want);
		}
	vt_roundtrip(&f);
	printf("check_vliw: %s on %s (%lldx%lldx%lld): %llu cycles, %u "
	    "bundles, mxu busy %llu cycles (%.1f%% of %d MXUs)\n", entry,
	    preset, (long long)M, (long long)N, (long long)K,
	    (unsigned long long)st.c.cycles, f.prog->nbundle,
	    (unsigned long long)st.c.mxu_busy_cycles,
	    100.0 * (double)st.c.mxu_busy_cycles / ((double)st.c.cycles *
	    mp->nmxu), mp->nmxu);
	vt_free(&f);
	free(x);
	free(y);
	free(z);
	return st.c.mxu_busy_cycles;
}

/* One block, no grid: dot at each precision and with trans_b. */
static const char mm1_src[] =
"kernel mm_hi(x: f32[32, 32], y: f32[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...], precision: highest); }\n"
"kernel mm_high(x: f32[32, 32], y: f32[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...], precision: high); }\n"
"kernel mm_def(x: f32[32, 32], y: f32[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...]); }\n"
"kernel mm_tb(x: f32[32, 32], y: f32[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...], trans_b: true, precision: highest); }\n"
"export mm_hi;\nexport mm_high;\nexport mm_def;\nexport mm_tb;\n";

/* v4: K over two MXU tiles, 8 row tiles per FIFO group */
static const char mm4_src[] =
"kernel mm_hi(x: f32[64, 256], y: f32[256, 128], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...], precision: highest); }\n"
"kernel mm_def(x: f32[64, 256], y: f32[256, 128], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...]); }\n"
"kernel mm_tb(x: f32[64, 256], y: f32[128, 256], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...], trans_b: true, precision: highest); }\n"
"export mm_hi;\nexport mm_def;\nexport mm_tb;\n";

/* A reduction grid with a scratch accumulator, as in matmul.pk. */
#define MMK_SRC(B, K) \
"kernel mmk(x: f32[" #B ", " #K "], y: f32[" #K ", " #B "],\n" \
"    out z: f32[" #B ", " #B "])\n" \
"grid (k: " #K " / " #B ")\n" \
"semantics (arbitrary)\n" \
"blocks { x: [" #B ", " #B "] at (0, k); y: [" #B ", " #B "] at (k, 0);\n" \
"    z: [" #B ", " #B "] at (0, 0); }\n" \
"scratch { acc: f32[" #B ", " #B "]; }\n" \
"{\n" \
"    when (k == 0) { acc[...] = 0.0; }\n" \
"    acc[...] += dot(x[...], y[...], precision: highest);\n" \
"    when (k == num_programs(k) - 1) { z[...] = acc[...]; }\n" \
"}\n" \
"export mmk;\n"

START_TEST(e2e_matmul_single_block)
{
	e2e_mm(mm1_src, "small", "mm_hi", 32, 32, 32, 0, 0, 1e-5);
	e2e_mm(mm1_src, "small", "mm_high", 32, 32, 32, 0, 0, 1e-4);
	e2e_mm(mm1_src, "small", "mm_def", 32, 32, 32, 0, 1, 1e-5);
	e2e_mm(mm1_src, "small", "mm_tb", 32, 32, 32, 1, 0, 1e-5);
	e2e_mm(mm4_src, "v4", "mm_hi", 64, 128, 256, 0, 0, 1e-5);
	e2e_mm(mm4_src, "v4", "mm_def", 64, 128, 256, 0, 1, 1e-5);
	e2e_mm(mm4_src, "v4", "mm_tb", 64, 128, 256, 1, 0, 1e-5);
}
END_TEST

/* bf16 operands: packed tiles by DMA, mxu.push.bf16 / mxu.mm.bf16; a
   precision asked for (mbh) changes nothing: bf16 products are exact in
   one pass, which f32 precisions split their operands into */
static const char mmb_src[] =
"kernel mb(x: bf16[32, 32], y: bf16[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...]); }\n"
"kernel mbt(x: bf16[32, 32], y: bf16[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...], trans_b: true); }\n"
"kernel mbh(x: bf16[32, 32], y: bf16[32, 32], out z: f32[32, 32])\n"
"{ z[...] = dot(x[...], y[...], precision: highest); }\n"
"export mb;\nexport mbt;\nexport mbh;\n";

static const char mmb4_src[] =
"kernel mb(x: bf16[64, 256], y: bf16[256, 128], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...]); }\n"
"kernel mbt(x: bf16[64, 256], y: bf16[128, 256], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...], trans_b: true); }\n"
"kernel mbh(x: bf16[64, 256], y: bf16[256, 128], out z: f32[64, 128])\n"
"{ z[...] = dot(x[...], y[...], precision: high); }\n"
"export mb;\nexport mbt;\nexport mbh;\n";

START_TEST(e2e_matmul_bf16)
{
	uint64_t one;

	one = e2e_mm(mmb_src, "small", "mb", 32, 32, 32, 0, 2, 1e-5);
	e2e_mm(mmb_src, "small", "mbt", 32, 32, 32, 1, 2, 1e-5);
	ck_assert_uint_eq(e2e_mm(mmb_src, "small", "mbh", 32, 32, 32, 0, 2,
	    1e-5), one);
	one = e2e_mm(mmb4_src, "v4", "mb", 64, 128, 256, 0, 2, 1e-5);
	e2e_mm(mmb4_src, "v4", "mbt", 64, 128, 256, 1, 2, 1e-5);
	ck_assert_uint_eq(e2e_mm(mmb4_src, "v4", "mbh", 64, 128, 256, 0, 2,
	    1e-5), one);
}
END_TEST

/* kernels/matmul/matmul.pk under the small preset's defines, or NULL
   when top_srcdir is not set; free() it. */
static char *
matmul_pk(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *fp;
	char *text;
	long n;
	static const char pre[] = "#define __PK_PRESET_SMALL__ 1\n";

	if (!top)
		return NULL;
	snprintf(path, sizeof path, "%s/kernels/matmul/matmul.pk", top);
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	ck_assert(n > 0);
	rewind(fp);
	text = xmalloc(sizeof pre + (size_t)n);
	memcpy(text, pre, sizeof pre - 1);
	ck_assert_uint_eq(fread(text + sizeof pre - 1, 1, (size_t)n, fp),
	    (size_t)n);
	text[sizeof pre - 1 + (size_t)n] = 0;
	fclose(fp);
	return text;
}

/* matmul.pk's small exports: bf16 (default precision) and f32 highest */
START_TEST(e2e_matmul_pk_small)
{
	char *src = matmul_pk();

	if (!src)
		return;
	e2e_mm(src, "small", "matmul_small", 128, 64, 128, 0, 2, 1e-5);
	e2e_mm(src, "small", "matmul_f32_small", 64, 64, 64, 0, 0, 1e-5);
	free(src);
}
END_TEST

START_TEST(e2e_matmul_reduction_grid)
{
	e2e_mm(MMK_SRC(32, 96), "small", "mmk", 32, 32, 96, 0, 0, 1e-5);
	e2e_mm(MMK_SRC(128, 256), "v4", "mmk", 128, 128, 256, 0, 0, 1e-5);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vliw");
	TCase *t = tcase_create("sched");

	tcase_add_test(t, sched_packs_within_slots);
	tcase_add_test(t, sched_honours_latencies);
	tcase_add_test(t, sched_immediate_pool);
	tcase_add_test(t, sched_latency_across_back_edge);
	tcase_add_test(t, sched_xlu_fifos);
	tcase_add_test(t, regalloc_reschedules_full_blocks_only);
	suite_add_tcase(s, t);
	t = tcase_create("regalloc");
	tcase_add_test(t, regalloc_small_function);
	tcase_add_test(t, regalloc_reports_pressure);
	tcase_add_test(t, regalloc_reschedules_in_order);
	suite_add_tcase(s, t);
	t = tcase_create("e2e");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, e2e_single_step);
	tcase_add_test(t, e2e_axpb);
	tcase_add_test(t, e2e_relu);
	tcase_add_test(t, e2e_mix);
	tcase_add_test(t, e2e_scalar_division);
	tcase_add_test(t, e2e_scalar_f32_compare);
	tcase_add_test(t, e2e_chunk_loops);
	tcase_add_test(t, e2e_unsupported_is_reported);
	tcase_add_test(t, e2e_matmul_single_block);
	tcase_add_test(t, e2e_matmul_reduction_grid);
	tcase_add_test(t, e2e_matmul_bf16);
	tcase_add_test(t, e2e_matmul_pk_small);
	tcase_add_test(t, e2e_matmul_store_split_k);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
