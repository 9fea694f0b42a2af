/*
 * check_timing.c - the timing model and the traps: a test for every kind
 * of trap (kind, bundle, slot and op asserted), exact cycle counts of a
 * tile matmul, a sublane and a lane reduction, and a double-buffered DMA
 * loop whose time is set by the HBM bandwidth, and poison mode.
 */
#include <stdio.h>

#include "simtest.h"

static void
open_small(T *t, const char *body)
{
	char text[8192];

	snprintf(text, sizeof text, ".preset small\n.entry e\n%s\n", body);
	t_open(t, "small", text);
}

/* ------------------------------------------------------------ traps */

START_TEST(test_trap_not_ready)
{
	T t;

	open_small(&t, " vbcasti v1, 1.0f\n smovi s1, 1 ; vadd.f32 v2, v1, v1\n"
	    " halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_NOT_READY, 1, 1, "vadd.f32");
	ck_assert_ptr_nonnull(strstr(t.m->trap.message, "v1"));
	ck_assert_uint_eq(t.m->trap.cycle, 1);
	t_close(&t);
	/* a guard predicate read too early */
	open_small(&t, " smovi s1, 1\n sld s2, [s1 + 2]\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_ALIGN, 1, 0, "sld");
	t_close(&t);
	open_small(&t, " scmpi.eq p1, s1, 0\n (p1) smovi s2, 1\n halt");
	ck_assert_int_eq(t_run(&t), 0);	/* latency 1: ready */
	t_close(&t);
	open_small(&t, " smovi s1, 0\n sld s2, [s1]\n sadd s3, s2, s2\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_NOT_READY, 2, 0, "sadd");
	t_close(&t);
}
END_TEST

START_TEST(test_trap_waw)
{
	T t;

	open_small(&t, " vbcasti v1, 1.0f\n vbcasti v1, 2.0f\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_WAW, 1, 0, "vbcasti");
	t_close(&t);
}
END_TEST

START_TEST(test_trap_bounds)
{
	T t;

	open_small(&t, " smovi s1, 0x40000\n vld v1, [s1 - 64], mask=0x01\n"
	    " vld v1, [s1]\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BOUNDS, 2, 0, "vld");
	ck_assert(t.m->trap.has_addr && t.m->trap.addr == 0x40000);
	ck_assert_str_eq(t.m->trap.space, "vmem");
	t_close(&t);
	open_small(&t, " smovi s1, 4092\n smovi s2, 4 ; sst s1, [s1]\n"
	    " sst s1, [s1 + 4]\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BOUNDS, 2, 0, "sst");
	ck_assert_str_eq(t.m->trap.space, "smem");
	t_close(&t);
	/* a DMA reaching past its HBM buffer */
	open_small(&t, " smovi s1, 0\n dma.start f0, [s1]\n halt");
	{
		uint64_t h = mach_sim_hbm_alloc(t.m, 256, MACH_NOADDR);
		uint32_t w[MACH_DMA_WORDS] = { 0 };

		w[MACH_DMA_SRC_LO] = (uint32_t)h + 128;
		w[MACH_DMA_CTRL] = MACH_DMA_HBM_VMEM | 1 << 4 | 4 << 8;
		w[MACH_DMA_COUNT0] = 64;
		w[MACH_DMA_COUNT0 + 1] = w[MACH_DMA_COUNT0 + 2] =
		    w[MACH_DMA_COUNT0 + 3] = 1;
		memcpy(t.m->smem, w, sizeof w);
		expect_trap(&t, t_run(&t), PALLAS_TRAP_BOUNDS, 1, 0,
		    "dma.start");
		ck_assert_str_eq(t.m->trap.space, "hbm");
		ck_assert(t.m->trap.addr == h + 128);
	}
	t_close(&t);
}
END_TEST

START_TEST(test_trap_align)
{
	T t;

	open_small(&t, " smovi s1, 32\n nop\n vst v1, [s1]\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_ALIGN, 2, 0, "vst");
	ck_assert(t.m->trap.addr == 32);
	t_close(&t);
}
END_TEST

START_TEST(test_trap_fifo)
{
	char body[2048] = "";
	T t;
	int i;

	/* EUP FIFO: 16 deep on small; the 17th push traps */
	for (i = 0; i < 17; i++)
		strcat(body, " eup.exp2 v1\n");
	strcat(body, " halt");
	open_small(&t, body);
	expect_trap(&t, t_run(&t), PALLAS_TRAP_FIFO_OVERFLOW, 16, 0,
	    "eup.exp2");
	t_close(&t);
	/* empty, then not yet ready */
	open_small(&t, " nop\n eup.pop v1\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_FIFO_UNDERFLOW, 1, 0, "eup.pop");
	ck_assert_ptr_nonnull(strstr(t.m->trap.message, "empty"));
	t_close(&t);
	open_small(&t, " eup.rcp v1\n nop\n nop\n xlu.sum xlu0, v2 ; eup.pop v3\n"
	    " halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_FIFO_UNDERFLOW, 3, 0, "eup.pop");
	ck_assert_ptr_nonnull(strstr(t.m->trap.message, "cycle 4"));
	t_close(&t);
	/* the MXU staging buffer holds D / S pushes */
	open_small(&t, " mxu.push mxu0, v1\n mxu.push mxu0, v1\n"
	    " mxu.push mxu0, v1\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_FIFO_OVERFLOW, 2, 0, "mxu.push");
	t_close(&t);
}
END_TEST

/* A DMA from HBM into VMEM [0, 512) on small, started at bundle 1. */
static void
race_setup(T *t, const char *body)
{
	uint32_t w[MACH_DMA_WORDS] = { 0 };
	uint64_t h;

	open_small(t, body);
	h = mach_sim_hbm_alloc(t->m, 512, MACH_NOADDR);
	w[MACH_DMA_SRC_LO] = (uint32_t)h;
	w[MACH_DMA_DST_LO] = 0;
	w[MACH_DMA_CTRL] = MACH_DMA_HBM_VMEM | 1 << 4 | 4 << 8;
	w[MACH_DMA_COUNT0] = 128;
	w[MACH_DMA_COUNT0 + 1] = w[MACH_DMA_COUNT0 + 2] =
	    w[MACH_DMA_COUNT0 + 3] = 1;
	memcpy(t->m->smem + 1024, w, sizeof w);
}

START_TEST(test_trap_dma_race)
{
	T t;

	race_setup(&t, " smovi s1, 1024 ; smovi s2, 0\n dma.start f0, [s1]\n"
	    " vld v1, [s2 + 448], mask=0x01\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_DMA_RACE, 2, 0, "vld");
	ck_assert_ptr_nonnull(strstr(t.m->trap.message, "bundle 1"));
	t_close(&t);
	/* after the wait, the same load is fine; a load beside it too */
	race_setup(&t, " smovi s1, 1024 ; smovi s2, 0\n dma.start f0, [s1]\n"
	    " vld v1, [s2 + 512]\n sync.wait f0, 1\n vld v1, [s2]\n halt");
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	t_close(&t);
	/* a store into the destination races too */
	race_setup(&t, " smovi s1, 1024 ; smovi s2, 0\n dma.start f0, [s1]\n"
	    " vst v1, [s2 + 64], mask=0x40\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_DMA_RACE, 2, 0, "vst");
	t_close(&t);
}
END_TEST

START_TEST(test_trap_bad_op)
{
	MachProgram *p = mach_program_new("small");
	MachIns ins[2];
	MachCode *c;
	MachSim *m;
	char err[256];

	memset(ins, 0, sizeof ins);
	ins[0].op = OP_SMOVI;
	ins[0].d = 1;
	ins[0].imm = 3;
	ck_assert_int_eq(mach_program_add_bundle(p, ins, 1), 0);
	memset(ins, 0, sizeof ins);
	ins[0].op = OP_SADD;
	ins[0].d = 2;
	ins[0].a = ins[0].b = 1;
	ins[1].op = 250;	/* no such opcode */
	ck_assert_int_eq(mach_program_add_bundle(p, ins, 2), 0);
	ck_assert_int_eq(mach_code_new(p, &c, err, sizeof err), 0);
	m = mach_sim_new(p->mp);
	mach_sim_reset(m, PALLAS_POISON_NONE);
	ck_assert_int_ne(mach_sim_run(m, c, 0), 0);
	ck_assert_int_eq(m->trap.kind, PALLAS_TRAP_BAD_OP);
	ck_assert_uint_eq(m->trap.bundle, 1);
	ck_assert_int_eq(m->trap.slot, 1);
	ck_assert_str_eq(m->trap.op, "?");
	ck_assert_uint_eq(m->s[2], 6);	/* slot 0 ran */
	mach_sim_free(m);
	mach_code_free(c);
	mach_program_free(p);
}
END_TEST

START_TEST(test_trap_bad_dma)
{
	T t;

	open_small(&t, " smovi s1, 128\n dma.start f2, [s1]\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BAD_DMA, 1, 0, "dma.start");
	ck_assert_ptr_nonnull(strstr(t.m->trap.reason, "direction"));
	t_close(&t);
}
END_TEST

START_TEST(test_trap_pc_deadlock_runaway)
{
	T t;

	open_small(&t, " smovi s1, 1000\n nop\n ret s1\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BAD_PC, 2, 0, "ret");
	t_close(&t);
	open_small(&t, " nop\n nop");		/* no halt */
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BAD_PC, 1, -1, "");
	t_close(&t);
	open_small(&t, " sync.add f1, 1\n sync.wait f1, 2\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_DEADLOCK, 1, 0, "sync.wait");
	t_close(&t);
	open_small(&t, "l: br l\n halt");
	t.m->limit = 1000;
	expect_trap(&t, t_run(&t), PALLAS_TRAP_RUNAWAY, 0, -1, "");
	ck_assert_uint_eq(t.m->trap.cycle, 1000);
	t_close(&t);
}
END_TEST

/* The message carries the source location and region of the debug map. */
START_TEST(test_trap_location)
{
	T t;

	open_small(&t, ".region softmax\n"
	    " trace.begin softmax\n"
	    ".loc k.pk 12 5 region=softmax\n"
	    " vbcasti v1, 1.0f\n vadd.f32 v2, v1, v1\n halt");
	expect_trap(&t, t_run(&t), PALLAS_TRAP_NOT_READY, 2, 0, "vadd.f32");
	ck_assert_str_eq(t.m->trap.file, "k.pk");
	ck_assert_uint_eq(t.m->trap.line, 12);
	ck_assert_uint_eq(t.m->trap.col, 5);
	ck_assert_str_eq(t.m->trap.region, "softmax");
	ck_assert_msg(strncmp(t.m->trap.message, "k.pk:12:5: trap: use before "
	    "ready: ", 31) == 0, "%s", t.m->trap.message);
	t_close(&t);
}
END_TEST

/* ----------------------------------------------------------- cycles */

START_TEST(test_cycles_tile_matmul)
{
	char body[4096];
	T t;
	int i, j, k;

	/* small: vld latency 2, MXU load 1, MXU result 16, pop 1.
	 * c0 smovi; c1,c2,c3 vld W0, W1, A; c3 push W0 (ready c3);
	 * c4 push W1; c5 latch; c6 mm (W ready c6); result ready c22;
	 * c7..c21 nops; c22 pop; c23 vst (v4 ready c23); c24 halt: 25. */
	snprintf(body, sizeof body,
	    " smovi s1, 0\n vld v1, [s1]\n vld v2, [s1 + 512]\n"
	    " vld v3, [s1 + 1024] ; mxu.push mxu0, v1\n"
	    " mxu.push mxu0, v2\n mxu.latch mxu0\n"
	    " mxu.mm mxu0, v3, prec=highest\n%s"
	    " mxu.pop v4, mxu0\n vst v4, [s1 + 2048]\n halt",
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n");
	/* highest: 6 passes of 8 rows: ready 40 cycles later */
	open_small(&t, body);
	mach_program_free(t.p);
	mach_code_free(t.c);
	snprintf(body, sizeof body, ".preset small\n.entry e\n"
	    " smovi s1, 0\n vld v1, [s1]\n vld v2, [s1 + 512]\n"
	    " vld v3, [s1 + 1024] ; mxu.push mxu0, v1\n"
	    " mxu.push mxu0, v2\n mxu.latch mxu0\n"
	    " mxu.mm mxu0, v3\n%s"
	    " mxu.pop v4, mxu0\n vst v4, [s1 + 2048]\n halt\n",
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n");
	t.p = asm_ok("small", body);
	ck_assert_int_eq(mach_code_new(t.p, &t.c, NULL, 0), 0);
	for (i = 0; i < 16 * 16 + 8 * 16; i++) {
		float x = (float)((i * 7) % 13) - 6.0f;

		memcpy(t.m->vmem + 4 * i, &x, 4);
	}
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	ck_assert_uint_eq(t.m->cnt.cycles, 25);
	ck_assert_uint_eq(t.m->cnt.bundles, 25);
	ck_assert_uint_eq(t.m->cnt.mxu_busy_cycles, 8);
	ck_assert_uint_eq(t.m->cnt.slot_ops[U_MXU], 4);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 16; j++) {
			float ref = 0, a, w, got;

			for (k = 0; k < 16; k++) {
				memcpy(&a, t.m->vmem + 1024 + 4 * (i * 16 + k), 4);
				memcpy(&w, t.m->vmem + 4 * (k * 16 + j), 4);
				ref += a * w;	/* small integers: exact */
			}
			memcpy(&got, t.m->vmem + 2048 + 4 * (i * 16 + j), 4);
			ck_assert(got == ref);
		}
	t_close(&t);
}
END_TEST

START_TEST(test_cycles_reductions)
{
	T t;
	int i, j;

	/* sublane sum by rotate-and-add (rotate 1 cycle, add 2):
	 * c0 rot; c1 add (ready c3); c2 nop; c3 rot; c4 add (ready c6);
	 * c5 nop; c6 rot; c7 add (ready c9); c8 nop; c9 halt: 10 cycles */
	open_small(&t,
	    " vrot.sub v2, v1, 4\n vadd.f32 v3, v1, v2\n nop\n"
	    " vrot.sub v4, v3, 2\n vadd.f32 v5, v3, v4\n nop\n"
	    " vrot.sub v6, v5, 1\n vadd.f32 v7, v5, v6\n nop\n halt");
	for (i = 0; i < 8; i++)
		for (j = 0; j < 16; j++)
			vreg(&t, 1)[i * 16 + j].f = (float)(i * 100 + j);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(t.m->cnt.cycles, 10);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 16; j++)
			ck_assert(vreg(&t, 7)[i * 16 + j].f ==
			    (float)(2800 + 8 * j));
	t_close(&t);
	/* lane sum on the XLU: push c0, ready c8 (LAT_XLU_REDUCE 8 on
	 * small), pop c8, halt c9: 10 cycles */
	open_small(&t, " xlu.sum xlu0, v1\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n xlu.pop v2, xlu0\n halt");
	for (i = 0; i < 128; i++)
		vreg(&t, 1)[i].f = (float)(i / 16 + 1);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(t.m->cnt.cycles, 10);
	for (i = 0; i < 128; i++)
		ck_assert(vreg(&t, 2)[i].f == 16.0f * (float)(i / 16 + 1));
	t_close(&t);
}
END_TEST

/*
 * Double-buffered DMA loop, small preset (HBM 64 B/cycle, DMA latency 50,
 * 2 engines).  8 tiles of 8 KiB (2048 f32) stream into two VMEM buffers;
 * each iteration starts the next tile's DMA, takes the current one and
 * adds two of its vregs into v10.  A tile takes 8192 / 64 = 128 cycles
 * of HBM bandwidth.
 *
 *   b0-b2 set-up; DMA 0 issued at c1 on engine 0:
 *     done0 = max(1 + 50, 0) + 128 = 179.
 *   loop b3 scmp; b4 DMA i+1; b5 sync.take; b6-b11 compute + branch.
 *   Iteration 0: b3 c3, b4 c4 (DMA 1 on engine 1: done1 = max(54, 179)
 *     + 128 = 307), b5 stalls c5 -> c179; b6-b11 at c180-c185; the taken
 *     branch's bubble puts b3 at c187.
 *   Iteration i >= 1 (D = done(i-1)): b3 at D + 8, b4 at D + 9 issues
 *     DMA i+1: done = max(D + 59, done(i) = D + 128) + 128, so the HBM
 *     channel, not the latency, sets the pace: done(k) = 179 + 128 k.
 *     b5 waits from D + 10 to D + 128: 118 stall cycles.
 *   Iteration 7: no DMA, b5 waits until done7 = 1075; b6-b11 at
 *     1076-1081 (branch not taken), b12 vst at 1082, halt at 1083.
 *   cycles = 1084 = 77 bundles + 1000 stall cycles + 7 bubbles, with
 *   stalls 174 + 7 x 118 = 1000.
 */
START_TEST(test_cycles_double_buffered_dma)
{
	uint32_t w[MACH_DMA_WORDS];
	uint64_t h;
	float *x, acc;
	T t;
	int k, j;

	open_small(&t,
	    " smovi s1, 0 ; smovi s2, 0 ; vbcasti v10, 0.0f\n"
	    " smovi s6, 8 ; smovi s3, 0 ; dma.start f0, [s1]\n"
	    " saddi s1, s1, 64 ; smovi s7, 1\n"
	    "loop: scmp.lt p1, s7, s6 ; smovi s9, 16384\n"
	    " (p1) dma.start f0, [s1] ; saddi s1, s1, 64 ; saddi s7, s7, 1\n"
	    " sync.take f0, 1\n"
	    " vld v1, [s3] ; saddi s2, s2, 1\n"
	    " vld v2, [s3 + 7680] ; sxori s3, s3, 8192 ; scmp.lt p2, s2, s6\n"
	    " vadd.f32 v10, v10, v1\n"
	    " nop\n"
	    " vadd.f32 v10, v10, v2\n"
	    " (p2) br loop\n"
	    " vst v10, [s9]\n"
	    " halt");
	h = mach_sim_hbm_alloc(t.m, 8 * 8192, MACH_NOADDR);
	x = (float *)(void *)mach_sim_hbm(t.m, h, 8 * 8192);
	for (k = 0; k < 8 * 2048; k++)
		x[k] = (float)(k / 2048 * 1000 + k % 2048);
	for (k = 0; k < 8; k++) {
		memset(w, 0, sizeof w);
		w[MACH_DMA_SRC_LO] = (uint32_t)(h + 8192u * (uint64_t)k);
		w[MACH_DMA_DST_LO] = (uint32_t)(k % 2) * 8192;
		w[MACH_DMA_CTRL] = MACH_DMA_HBM_VMEM | 1 << 4 | 4 << 8;
		w[MACH_DMA_COUNT0] = 2048;
		w[MACH_DMA_COUNT0 + 1] = w[MACH_DMA_COUNT0 + 2] =
		    w[MACH_DMA_COUNT0 + 3] = 1;
		memcpy(t.m->smem + 64 * k, w, sizeof w);
	}
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	ck_assert_uint_eq(t.m->cnt.cycles, 1084);
	ck_assert_uint_eq(t.m->cnt.stall_cycles, 1000);
	ck_assert_uint_eq(t.m->cnt.bundles, 77);
	ck_assert_uint_eq(t.m->cnt.branch_cycles, 7);
	ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, 8 * 8192);
	ck_assert_uint_eq(t.m->cnt.dma_count, 8);
	for (j = 0; j < 128; j++) {
		acc = 0;
		for (k = 0; k < 8; k++)
			acc += (float)(k * 1000 + j) + (float)(k * 1000 +
			    1920 + j);
		ck_assert(((float *)(void *)(t.m->vmem + 16384))[j] == acc);
	}
	t_close(&t);
}
END_TEST

START_TEST(test_poison)
{
	T t;
	uint64_t h;

	/* v3: past the first lazily filled chunk of VMEM */
	open_small(&t, " smovi s1, 0\n vld v1, [s1 + 4096] ; sld s2, [s1 + 8]\n"
	    " vld v3, [s1 + 196608]\n halt");
	mach_sim_reset(t.m, PALLAS_POISON_NAN);
	h = mach_sim_hbm_alloc(t.m, 64, MACH_NOADDR);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(vreg(&t, 1)[0].u, 0x7fc00000u);
	ck_assert(isnan(vreg(&t, 1)[77].f));
	ck_assert_uint_eq(vreg(&t, 3)[3].u, 0x7fc00000u);
	ck_assert_uint_eq(t.m->s[2], 0x7fc00000u);
	ck_assert_uint_eq(*(uint32_t *)(void *)mach_sim_hbm(t.m, h, 4),
	    0x7fc00000u);
	mach_sim_reset(t.m, PALLAS_POISON_INT);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(vreg(&t, 1)[5].u, 0x80000000u);
	ck_assert_uint_eq(vreg(&t, 3)[5].u, 0x80000000u);
	ck_assert_uint_eq(t.m->s[2], 0x80000000u);
	mach_sim_reset(t.m, PALLAS_POISON_NONE);	/* back to zeros */
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(vreg(&t, 1)[5].u, 0);
	ck_assert_uint_eq(vreg(&t, 3)[5].u, 0);
	ck_assert_uint_eq(t.m->s[2], 0);
	t_close(&t);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("timing");
	TCase *tc = tcase_create("traps");
	TCase *tcc = tcase_create("cycles");

	tcase_add_test(tc, test_trap_not_ready);
	tcase_add_test(tc, test_trap_waw);
	tcase_add_test(tc, test_trap_bounds);
	tcase_add_test(tc, test_trap_align);
	tcase_add_test(tc, test_trap_fifo);
	tcase_add_test(tc, test_trap_dma_race);
	tcase_add_test(tc, test_trap_bad_op);
	tcase_add_test(tc, test_trap_bad_dma);
	tcase_add_test(tc, test_trap_pc_deadlock_runaway);
	tcase_add_test(tc, test_trap_location);
	tcase_add_test(tcc, test_cycles_tile_matmul);
	tcase_add_test(tcc, test_cycles_reductions);
	tcase_add_test(tcc, test_cycles_double_buffered_dma);
	tcase_add_test(tcc, test_poison);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tcc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
