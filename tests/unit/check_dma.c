/*
 * check_dma.c - DMAs: the packed bf16 mode of the machine's descriptor
 * on the simulator (data in both directions and between VMEM tiles,
 * timing in HBM granules, race footprints, bad descriptors), hand-built
 * descriptors; and copies compiled from .pk sources (bf16 between HBM
 * and packed VMEM, views with leading dims split over several
 * descriptors, a rank-3 SMEM table) run under the small preset and v4
 * and compared with plain C.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/simtest.h"
#include "tests/unit/vliwtest.h"

/* ------------------------------------------------------------ helpers */

/* A small-preset program: a DMA from the descriptor at SMEM 2048 on flag
   3, its wait, then body (may be ""). */
static void
open_dma(T *t, const char *body)
{
	char text[4096];

	snprintf(text, sizeof text, ".preset small\n.entry e\n"
	    " smovi s1, 2048\n dma.start f3, [s1]\n%s sync.wait f3, 1\n"
	    " halt\n", body);
	t_open(t, "small", text);
}

/* Writes a descriptor at SMEM byte address at. */
static void
desc(T *t, uint32_t at, uint32_t ctrl, uint64_t src, uint64_t dst,
    const uint32_t *cnt, const int32_t *ss, const int32_t *ds)
{
	uint32_t w[MACH_DMA_WORDS] = { 0 };
	int i;

	w[MACH_DMA_SRC_LO] = (uint32_t)src;
	w[MACH_DMA_SRC_HI] = (uint32_t)(src >> 32);
	w[MACH_DMA_DST_LO] = (uint32_t)dst;
	w[MACH_DMA_DST_HI] = (uint32_t)(dst >> 32);
	w[MACH_DMA_CTRL] = ctrl;
	for (i = 0; i < 4; i++)
		w[MACH_DMA_COUNT0 + i] = cnt[i];
	for (i = 0; i < 3; i++) {
		w[MACH_DMA_SSTRIDE1 + i] = (uint32_t)ss[i];
		w[MACH_DMA_DSTRIDE1 + i] = (uint32_t)ds[i];
	}
	memcpy(t->m->smem + at, w, sizeof w);
}

static uint32_t
ctrl_of(int dir, int ndim, int esize, uint32_t flags)
{
	return (uint32_t)(dir | ndim << 4 | esize << 8) | flags;
}

/*
 * Byte offset of bf16 element (l, i, j) of a packed VMEM matrix with row
 * tile stride rts and leading stride ls, written here from the layout
 * isel and the MXU use ((2S, L) tiles of S x L words, row i in the low
 * half of word row i, row S + i in the high half), not from the
 * simulator.
 */
static uint64_t
packed_at(int S, int L, int64_t rts, int64_t ls, int64_t l, int64_t i,
    int64_t j)
{
	uint64_t w = (uint64_t)(l * ls + i / (2 * S) * rts +
	    j / L * S * L * 4 + i % S * L * 4 + j % L * 4);
	static const uint16_t one = 1;
	int lo = *(const uint8_t *)&one ? 0 : 2;

	return w + (uint64_t)(i % (2 * S) >= S ? 2 - lo : lo);
}

static uint16_t
get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint16_t
pat(int64_t l, int64_t i, int64_t j)
{
	return (uint16_t)(0x4000 + l * 4096 + i * 64 + j);
}

/* ------------------------------------------------------------ simulator */

/*
 * The small preset (S 8, L 16: packed tiles of 16 rows, 512 bytes).  HBM
 * holds bf16 x [2, 40, 64]; rows 8..31, columns 16..55 of both matrices
 * (24 rows: one and a half row tiles; 40 columns: two and a half column
 * tiles) go to packed VMEM at 4096 (3 column tiles: row tile stride
 * 1536, matrix stride 3072).  Every element lands in its half word; the
 * rest of the tiles keeps its pattern.
 */
enum { RB = 40, CB = 64, R0 = 8, C0 = 16, NR = 24, NC = 40, NL = 2,
	VBASE = 4096, RTS = 1536, LS = 3072 };

static void
fill_hbm(uint16_t *h)
{
	int l, i, j;

	for (l = 0; l < NL; l++)
		for (i = 0; i < RB; i++)
			for (j = 0; j < CB; j++)
				h[(l * RB + i) * CB + j] = pat(l, i, j);
}

START_TEST(packed_hbm_to_vmem)
{
	uint32_t cnt[4] = { NC, NR, NL, 1 };
	int32_t ss[3] = { CB * 2, RB * CB * 2, 0 }, ds[3] = { RTS, LS, 0 };
	uint64_t h, hsz = NL * RB * CB * 2, at;
	uint8_t *seen;
	int l, i, j, k;
	T t;

	open_dma(&t, "");
	h = mach_sim_hbm_alloc(t.m, hsz, MACH_NOADDR);
	fill_hbm((uint16_t *)(void *)mach_sim_hbm(t.m, h, hsz));
	memset(t.m->vmem + VBASE, 0x5a, 2 * LS);
	desc(&t, 2048, ctrl_of(MACH_DMA_HBM_VMEM, 3, 2, MACH_DMA_PACKED),
	    h + (uint64_t)(R0 * CB + C0) * 2, VBASE, cnt, ss, ds);
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	ck_assert_uint_eq(t.m->flag[3], 1);
	seen = calloc(2 * LS, 1);
	for (l = 0; l < NL; l++)
		for (i = 0; i < NR; i++)
			for (j = 0; j < NC; j++) {
				at = packed_at(8, 16, RTS, LS, l, i, j);
				ck_assert_msg(get16(t.m->vmem + VBASE + at) ==
				    pat(l, R0 + i, C0 + j), "(%d, %d, %d)",
				    l, i, j);
				seen[at] = seen[at + 1] = 1;
			}
	for (k = 0; k < 2 * LS; k++)	/* nothing else written */
		if (!seen[k])
			ck_assert_msg(t.m->vmem[VBASE + k] == 0x5a,
			    "byte %d", k);
	free(seen);
	ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, NL * NR * NC * 2);
	ck_assert_uint_eq(t.m->cnt.dma_count, 1);
	t_close(&t);
}
END_TEST

START_TEST(packed_vmem_to_hbm)
{
	uint32_t cnt[4] = { NC, NR, NL, 1 };
	int32_t ss[3] = { RTS, LS, 0 }, ds[3] = { CB * 2, RB * CB * 2, 0 };
	uint64_t h, hsz = NL * RB * CB * 2;
	uint16_t *x;
	int l, i, j, in;
	T t;

	open_dma(&t, "");
	h = mach_sim_hbm_alloc(t.m, hsz, MACH_NOADDR);
	x = (uint16_t *)(void *)mach_sim_hbm(t.m, h, hsz);
	for (i = 0; i < NL * RB * CB; i++)
		x[i] = 0x7777;
	for (l = 0; l < NL; l++)
		for (i = 0; i < 32; i++)
			for (j = 0; j < 48; j++)
				memcpy(t.m->vmem + VBASE + packed_at(8, 16,
				    RTS, LS, l, i, j),
				    &(uint16_t){ pat(l, i, j) }, 2);
	desc(&t, 2048, ctrl_of(MACH_DMA_VMEM_HBM, 3, 2, MACH_DMA_PACKED),
	    VBASE, h + (uint64_t)(R0 * CB + C0) * 2, cnt, ss, ds);
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	for (l = 0; l < NL; l++)
		for (i = 0; i < RB; i++)
			for (j = 0; j < CB; j++) {
				in = i >= R0 && i < R0 + NR && j >= C0 &&
				    j < C0 + NC;
				ck_assert_msg(x[(l * RB + i) * CB + j] == (in ?
				    pat(l, i - R0, j - C0) : 0x7777),
				    "(%d, %d, %d)", l, i, j);
			}
	ck_assert_uint_eq(t.m->cnt.hbm_write_bytes, NL * NR * NC * 2);
	t_close(&t);
}
END_TEST

/* Packed to packed: a [24, 40] window of tiles with 3 column tiles into
   tiles with 4 (row tile stride 2048), one matrix. */
START_TEST(packed_vmem_to_vmem)
{
	uint32_t cnt[4] = { NC, NR, 1, 1 };
	int32_t ss[3] = { RTS, 0, 0 }, ds[3] = { 2048, 0, 0 };
	int i, j;
	T t;

	open_dma(&t, "");
	for (i = 0; i < 32; i++)
		for (j = 0; j < 48; j++)
			memcpy(t.m->vmem + VBASE + packed_at(8, 16, RTS, 0, 0,
			    i, j), &(uint16_t){ pat(0, i, j) }, 2);
	memset(t.m->vmem + 65536, 0x11, 4096);
	desc(&t, 2048, ctrl_of(MACH_DMA_VMEM_VMEM, 2, 2, MACH_DMA_PACKED),
	    VBASE, 65536, cnt, ss, ds);
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	for (i = 0; i < 32; i++)
		for (j = 0; j < 64; j++)
			ck_assert_msg(get16(t.m->vmem + 65536 + packed_at(8, 16,
			    2048, 0, 0, i, j)) == (i < NR && j < NC ?
			    pat(0, i, j) : 0x1111), "(%d, %d)", i, j);
	ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, 0);
	t_close(&t);
}
END_TEST

/*
 * Timing: a packed copy costs what a row-major copy of the same HBM rows
 * does: per row ceil(2 n0 / 32) granules of 32 bytes.  Small preset: DMA
 * issued at cycle 1, latency 50, 64 bytes per cycle; the wait at bundle
 * 2 stalls until completion D, halt at D + 1: cycles = D + 2.
 */
static uint64_t
dma_cycles(uint32_t ctrl, int dir, const uint32_t *cnt, const int32_t *hs,
    const int32_t *vs)
{
	uint64_t h, c;
	T t;

	open_dma(&t, "");
	h = mach_sim_hbm_alloc(t.m, 1 << 20, MACH_NOADDR);
	if (dir == MACH_DMA_HBM_VMEM)
		desc(&t, 2048, ctrl, h, 0, cnt, hs, vs);
	else
		desc(&t, 2048, ctrl, 0, h, cnt, vs, hs);
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	c = t.m->cnt.cycles;
	t_close(&t);
	return c;
}

START_TEST(packed_timing)
{
	/* 40 columns: 80-byte rows, 3 granules; 48 rows (24 x 2) */
	uint32_t cnt[4] = { NC, NR, NL, 1 }, rm[4] = { NC, NR * NL, 1, 1 };
	int32_t hs[3] = { CB * 2, RB * CB * 2, 0 }, vs[3] = { RTS, LS, 0 };
	int32_t hrm[3] = { CB * 2, 0, 0 }, vrm[3] = { 128, 0, 0 };
	uint64_t want = 1 + 50 + NR * NL * 3 * 32 / 64 + 2;
	int dir;

	for (dir = MACH_DMA_HBM_VMEM; dir <= MACH_DMA_VMEM_HBM; dir++) {
		ck_assert_uint_eq(dma_cycles(ctrl_of(dir, 3, 2,
		    MACH_DMA_PACKED), dir, cnt, hs, vs), want);
		ck_assert_uint_eq(dma_cycles(ctrl_of(dir, 2, 2, 0), dir, rm,
		    hrm, vrm), want);
	}
	/* 16 columns: one granule per row; one element per row: one too */
	cnt[0] = 16;
	ck_assert_uint_eq(dma_cycles(ctrl_of(MACH_DMA_HBM_VMEM, 3, 2,
	    MACH_DMA_PACKED), MACH_DMA_HBM_VMEM, cnt, hs, vs),
	    1 + 50 + NR * NL * 32 / 64 + 2);
	cnt[0] = 1;
	ck_assert_uint_eq(dma_cycles(ctrl_of(MACH_DMA_HBM_VMEM, 3, 2,
	    MACH_DMA_PACKED), MACH_DMA_HBM_VMEM, cnt, hs, vs),
	    1 + 50 + NR * NL * 32 / 64 + 2);
}
END_TEST

/*
 * VMEM<->SMEM copies take the on-chip channel (a vreg of bytes a cycle),
 * not the HBM bandwidth: 64 words a row each, 64 granules of 32 bytes,
 * land at 1 + 50 + 2048 / (V x 4); the data arrive.
 */
START_TEST(onchip_smem_timing)
{
	uint32_t cnt[4] = { 1, 64, 1, 1 }, w;
	int32_t vs[3] = { 128 * 4, 0, 0 }, ss[3] = { 4, 0, 0 };
	int dir, i;
	T t;

	for (dir = MACH_DMA_VMEM_SMEM; dir <= MACH_DMA_SMEM_VMEM; dir++) {
		int v = dir == MACH_DMA_VMEM_SMEM;
		open_dma(&t, "");
		for (i = 0; i < 64; i++) {
			w = 0x5a000000u + (uint32_t)i;
			memcpy(v ? t.m->vmem + 8192 + i * 512 :
			    t.m->smem + 256 + i * 4, &w, 4);
		}
		desc(&t, 2048, ctrl_of(dir, 2, 4, 0), v ? 8192 : 256,
		    v ? 256 : 8192, cnt, v ? vs : ss, v ? ss : vs);
		ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
		ck_assert_uint_eq(t.m->cnt.cycles, 1 + 50 + (2048 +
		    (uint64_t)t.m->V * 4 - 1) / ((uint64_t)t.m->V * 4) + 2);
		ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, 0);
		for (i = 0; i < 64; i++) {
			memcpy(&w, v ? t.m->smem + 256 + i * 4 : t.m->vmem +
			    8192 + i * 512, 4);
			ck_assert_uint_eq(w, 0x5a000000u + (uint32_t)i);
		}
		t_close(&t);
	}
}
END_TEST

/* The footprint of a packed destination: its tiles race with a vld. */
START_TEST(packed_race)
{
	uint32_t cnt[4] = { NC, NR, 1, 1 };
	int32_t ss[3] = { CB * 2, 0, 0 }, ds[3] = { RTS, 0, 0 };
	static const char *const body[3] = {
		" smovi s2, 0\n vld v1, [s2 + 5632], mask=0x01\n",
		" smovi s2, 0\n vld v1, [s2 + 5120], mask=0x01\n",
		" smovi s2, 0\n vld v1, [s2 + 4032], mask=0x01\n",
	};
	int k;
	T t;

	/* 40 columns, 24 rows at 4096: row tile 0 from 4096, row tile 1 from
	   5632; 5632 is its column tile 0, word row 0 (in); 5120 row tile
	   0, column tile 2, word row 0 (in); 4032 just below the base (out) */
	for (k = 0; k < 3; k++) {
		uint64_t h;

		open_dma(&t, body[k]);
		h = mach_sim_hbm_alloc(t.m, 8192, MACH_NOADDR);
		desc(&t, 2048, ctrl_of(MACH_DMA_HBM_VMEM, 2, 2,
		    MACH_DMA_PACKED), h, VBASE, cnt, ss, ds);
		if (k < 2)
			expect_trap(&t, t_run(&t), PALLAS_TRAP_DMA_RACE, 3, 0,
			    "vld");
		else
			ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
		t_close(&t);
	}
}
END_TEST

/*
 * Packed i8 (element size 1): HBM [40, 64] bytes, rows 8.. and columns
 * 16.. of it ([40 - 8 = 32 rows: one (4S, L) tile row; 40 columns)
 * into packed VMEM tiles at VBASE (row g * S + i in byte g of word row
 * i, written here from the layout isel uses), then back to a fresh HBM
 * buffer: each byte in its place, the rest of the tiles untouched.
 */
START_TEST(packed_i8_round_trip)
{
	enum { NR8 = 32, TB = 8 * 16 * 4 };
	uint32_t cnt[4] = { NC, NR8, 1, 1 };
	int32_t hs[3] = { CB, 0, 0 }, vs[3] = { 3 * TB, 0, 0 };
	uint64_t h, h2, hsz = RB * CB, at;
	uint8_t *x, *y, seen[3 * TB];
	int i, j, k;
	T t;

	open_dma(&t, " sync.wait f3, 1\n smovi s2, 2112\n"
	    " dma.start f4, [s2]\n sync.wait f4, 1\n");
	h = mach_sim_hbm_alloc(t.m, hsz, MACH_NOADDR);
	h2 = mach_sim_hbm_alloc(t.m, hsz, MACH_NOADDR);
	x = mach_sim_hbm(t.m, h, hsz);
	for (i = 0; i < RB * CB; i++)
		x[i] = (uint8_t)(i * 7 + 3);
	memset(mach_sim_hbm(t.m, h2, hsz), 0xee, hsz);
	memset(t.m->vmem + VBASE, 0x5a, sizeof seen);
	memset(seen, 0, sizeof seen);
	desc(&t, 2048, ctrl_of(MACH_DMA_HBM_VMEM, 2, 1, MACH_DMA_PACKED),
	    h + (uint64_t)(R0 * CB + C0), VBASE, cnt, hs, vs);
	desc(&t, 2112, ctrl_of(MACH_DMA_VMEM_HBM, 2, 1, MACH_DMA_PACKED),
	    VBASE, h2 + (uint64_t)(R0 * CB + C0), cnt, vs, hs);
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	y = mach_sim_hbm(t.m, h2, hsz);
	for (i = 0; i < NR8; i++)
		for (j = 0; j < NC; j++) {
			at = (uint64_t)(j / 16 * TB + i % 8 * 16 * 4 +
			    j % 16 * 4 + i / 8);
			k = (R0 + i) * CB + C0 + j;
			ck_assert_msg(t.m->vmem[VBASE + at] == x[k],
			    "vmem (%d, %d)", i, j);
			ck_assert_msg(y[k] == x[k], "hbm (%d, %d)", i, j);
			seen[at] = 1;
		}
	for (k = 0; k < (int)sizeof seen; k++)
		if (!seen[k])
			ck_assert_msg(t.m->vmem[VBASE + k] == 0x5a,
			    "byte %d", k);
	ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, NR8 * NC);
	t_close(&t);
}
END_TEST

START_TEST(packed_bad_descriptor)
{
	static const struct {
		int dir, esize;
		uint32_t flags;
		const char *why;
	} bad[] = {
		{ MACH_DMA_HBM_VMEM, 4, MACH_DMA_PACKED, "element size" },
		{ MACH_DMA_HBM_VMEM, 8, MACH_DMA_PACKED, "element size" },
		{ MACH_DMA_HBM_SMEM, 2, MACH_DMA_PACKED, "SMEM side" },
		{ MACH_DMA_SMEM_HBM, 2, MACH_DMA_PACKED, "SMEM side" },
		{ MACH_DMA_VMEM_SMEM, 2, MACH_DMA_PACKED, "SMEM side" },
		{ MACH_DMA_HBM_VMEM, 2, MACH_DMA_PACKED << 1, "control bits" },
		{ MACH_DMA_HBM_VMEM, 2, 1u << 31, "control bits" },
	};
	uint32_t cnt[4] = { 16, 16, 1, 1 };
	int32_t ss[3] = { 32, 0, 0 }, ds[3] = { 512, 0, 0 };
	size_t k;
	uint64_t h;
	T t;

	for (k = 0; k < countof(bad); k++) {
		open_dma(&t, "");
		h = mach_sim_hbm_alloc(t.m, 8192, MACH_NOADDR);
		if (bad[k].dir == MACH_DMA_SMEM_HBM)
			desc(&t, 2048, ctrl_of(bad[k].dir, 2, bad[k].esize,
			    bad[k].flags), 0, h, cnt, ss, ds);
		else
			desc(&t, 2048, ctrl_of(bad[k].dir, 2, bad[k].esize,
			    bad[k].flags), h, bad[k].dir == MACH_DMA_HBM_SMEM ?
			    0 : VBASE, cnt, ss, ds);
		expect_trap(&t, t_run(&t), PALLAS_TRAP_BAD_DMA, 1, 0,
		    "dma.start");
		ck_assert_msg(strstr(t.m->trap.reason, bad[k].why) != NULL,
		    "case %zu: %s", k, t.m->trap.reason);
		t_close(&t);
	}
	/* a packed VMEM side is word aligned; the HBM side element aligned */
	open_dma(&t, "");
	h = mach_sim_hbm_alloc(t.m, 8192, MACH_NOADDR);
	desc(&t, 2048, ctrl_of(MACH_DMA_HBM_VMEM, 2, 2, MACH_DMA_PACKED), h + 2,
	    VBASE + 2, cnt, ss, ds);
	expect_trap(&t, t_run(&t), PALLAS_TRAP_ALIGN, 1, 0, "dma.start");
	ck_assert_ptr_nonnull(strstr(t.m->trap.message, "packed word"));
	t_close(&t);
	/* past the end of VMEM: the last row tile's words */
	open_dma(&t, "");
	h = mach_sim_hbm_alloc(t.m, 8192, MACH_NOADDR);
	desc(&t, 2048, ctrl_of(MACH_DMA_HBM_VMEM, 2, 2, MACH_DMA_PACKED), h,
	    t.m->mp->vmem_bytes - 512 + 64, cnt, ss, ds);
	expect_trap(&t, t_run(&t), PALLAS_TRAP_BOUNDS, 1, 0, "dma.start");
	t_close(&t);
}
END_TEST

/* ------------------------------------------------------------ compiled */

static const char *const presets[] = { "small", "v4" };

/*
 * bf16 copies: the whole [40, 3 LN] matrix (two and a half row tiles)
 * from HBM into packed scratch and from there into the output block; a
 * window at an unaligned HBM row and column into a block; tiles to tiles
 * with a leading dim.  The pipeline writes the blocks back (packed VMEM
 * to HBM, v with its leading dim).
 */
static const char bf16_src[] =
"kernel cpb(any x: bf16[40, 3 * __PK_LANES__],\n"
"    out y: bf16[40, 3 * __PK_LANES__], out w: bf16[24, 2 * __PK_LANES__],\n"
"    out v: bf16[2, 16, 2 * __PK_LANES__])\n"
"scratch { t: bf16[40, 3 * __PK_LANES__];\n"
"    a: bf16[2, 16, 3 * __PK_LANES__]; }\n"
"{\n"
"    dma_copy(x[...], t[...]);\n"
"    dma_copy(t[...], y[...]);\n"
"    dma_copy(x[5:29, 3:3 + 2 * __PK_LANES__], w[...]);\n"
"    dma_copy(x[0:16, :], a[0]);\n"
"    dma_copy(x[16:32, :], a[1]);\n"
"    dma_copy(a[:, :, __PK_LANES__:3 * __PK_LANES__], v[...]);\n"
"}\n"
"export cpb;\n";

START_TEST(compiled_bf16_copies)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		const MachPreset *mp = mach_preset(presets[k]);
		int64_t L = mp->lanes, C = 3 * L, i, j, l;
		uint16_t *x = malloc((size_t)(40 * C) * 2);
		uint16_t *y = calloc((size_t)(40 * C), 2);
		uint16_t *w = calloc((size_t)(24 * 2 * L), 2);
		uint16_t *v = calloc((size_t)(2 * 16 * 2 * L), 2);
		void *bufs[4] = { x, y, w, v };
		PallasStats st;
		VtUnit u;

		for (i = 0; i < 40 * C; i++)
			x[i] = (uint16_t)(0x3f00 + i * 7);
		ck_assert_msg(vt_compile(&u, bf16_src, presets[k]) == 0,
		    "%s: %s", presets[k], u.text);
		vt_run(&u, "cpb", bufs, 4, &st);
		for (i = 0; i < 40 * C; i++)
			ck_assert_msg(y[i] == x[i], "%s: y[%lld]", presets[k],
			    (long long)i);
		for (i = 0; i < 24; i++)
			for (j = 0; j < 2 * L; j++)
				ck_assert_msg(w[i * 2 * L + j] ==
				    x[(5 + i) * C + 3 + j], "%s: w[%lld, %lld]",
				    presets[k], (long long)i, (long long)j);
		for (l = 0; l < 2; l++)
			for (i = 0; i < 16; i++)
				for (j = 0; j < 2 * L; j++)
					ck_assert_msg(v[(l * 16 + i) * 2 * L +
					    j] == x[(l * 16 + i) * C + L + j],
					    "%s: v[%lld, %lld, %lld]",
					    presets[k], (long long)l,
					    (long long)i, (long long)j);
		/* one descriptor per copy: 6 in the body, 3 write-backs */
		ck_assert_uint_eq(st.c.dma_count, 9);
		vt_roundtrip(&u);
		printf("check_dma: cpb on %s: %llu cycles\n", presets[k],
		    (unsigned long long)st.c.cycles);
		vt_free(&u);
		free(x);
		free(y);
		free(w);
		free(v);
	}
}
END_TEST

/*
 * 4-byte copies with leading dims: f32 [2, 3, 16, 2 LN] whole (leading
 * dims 2 and 3, rows and columns above a tile: six descriptors) into
 * scratch, into the output block, a window of it with a leading dim;
 * i32 [3, 8, 32]; an f32 [3, 4, 5] table into SMEM scratch, two
 * elements of which fill the rows of q.  The pipeline writes the blocks
 * back.
 */
static const char lead_src[] =
"kernel cpl(any x: f32[2, 3, 16, 2 * __PK_LANES__], any k: i32[3, 8, 32],\n"
"    any s: f32[3, 4, 5],\n"
"    out y: f32[2, 3, 16, 2 * __PK_LANES__],\n"
"    out z: f32[3, 8, __PK_LANES__], out m: i32[3, 8, 32],\n"
"    out q: f32[16, __PK_LANES__])\n"
"scratch { t: f32[2, 3, 16, 2 * __PK_LANES__]; smem e: f32[3, 4, 5]; }\n"
"{\n"
"    dma_copy(x[...], t[...]);\n"
"    dma_copy(t[...], y[...]);\n"
"    dma_copy(t[1, :, 8:16, __PK_LANES__:2 * __PK_LANES__], z[...]);\n"
"    dma_copy(k[...], m[...]);\n"
"    dma_copy(s[...], e[...]);\n"
"    q[0:8, :] = e[2, 3, 4];\n"
"    q[8:16, :] = e[1, 0, 3];\n"
"}\n"
"export cpl;\n";

START_TEST(compiled_leading_dims)
{
	size_t p;

	for (p = 0; p < countof(presets); p++) {
		int64_t L = mach_preset(presets[p])->lanes, nx = 2 * 3 * 16 *
		    2 * L, i, j, l;
		float *x = malloc((size_t)nx * 4), *y = calloc((size_t)nx, 4);
		float *z = calloc((size_t)(3 * 8 * L), 4);
		int32_t kk[3 * 8 * 32], m[3 * 8 * 32];
		float s[60], *q = calloc((size_t)(16 * L), 4);
		void *bufs[7] = { x, kk, s, y, z, m, q };
		PallasStats st;
		VtUnit u;

		for (i = 0; i < nx; i++)
			x[i] = (float)i * 0.5f - 3.0f;
		for (i = 0; i < 3 * 8 * 32; i++)
			kk[i] = (int32_t)(i * 13 - 500);
		for (i = 0; i < 60; i++)
			s[i] = (float)(i * i - 7);
		memset(m, 0, sizeof m);
		ck_assert_msg(vt_compile(&u, lead_src, presets[p]) == 0,
		    "%s: %s", presets[p], u.text);
		vt_run(&u, "cpl", bufs, 7, &st);
		for (i = 0; i < nx; i++)
			ck_assert_msg(y[i] == x[i], "%s: y[%lld]", presets[p],
			    (long long)i);
		for (l = 0; l < 3; l++)
			for (i = 0; i < 8; i++)
				for (j = 0; j < L; j++)
					ck_assert_msg(z[(l * 8 + i) * L + j] ==
					    x[((3 + l) * 16 + 8 + i) * 2 * L +
					    L + j], "%s: z[%lld, %lld, %lld]",
					    presets[p], (long long)l,
					    (long long)i, (long long)j);
		ck_assert_int_eq(memcmp(m, kk, sizeof m), 0);
		for (i = 0; i < 16 * L; i++)
			ck_assert(q[i] == s[i < 8 * L ? 59 : 23]);
		vt_roundtrip(&u);
		printf("check_dma: cpl on %s: %llu cycles, %llu DMAs\n",
		    presets[p], (unsigned long long)st.c.cycles,
		    (unsigned long long)st.c.dma_count);
		vt_free(&u);
		free(x);
		free(y);
		free(z);
		free(q);
	}
}
END_TEST

/*
 * Rank-3 SMEM tables copied whole before the grid (as Splash's are):
 * t[h, i, 0] picks the row block of x that step (h, i) reads, and
 * f[h, i, 2] is added to it.
 */
static const char table_src[] =
"kernel tab(smem t: i32[2, 4, 2], smem f: f32[2, 4, 3],\n"
"    x: f32[32, 2 * __PK_LANES__], out z: f32[2, 32, 2 * __PK_LANES__])\n"
"grid (h: 2, i: 4)\n"
"semantics (arbitrary, arbitrary)\n"
"blocks { x: [8, 2 * __PK_LANES__] at (t[h, i, 0], 0);\n"
"    z: [_, 8, 2 * __PK_LANES__] at (h, i, 0); }\n"
"{\n"
"    z[...] = x[...] + f[h, i, 2];\n"
"}\n"
"export tab;\n";

START_TEST(compiled_smem_table)
{
	size_t p;

	for (p = 0; p < countof(presets); p++) {
		int64_t L = mach_preset(presets[p])->lanes, C = 2 * L, h, i, j;
		int32_t t[16];
		float f[24];
		float *x = malloc((size_t)(32 * C) * 4);
		float *z = calloc((size_t)(2 * 32 * C), 4);
		void *bufs[4] = { t, f, x, z };
		VtUnit u;

		for (h = 0; h < 2; h++)
			for (i = 0; i < 4; i++) {
				t[(h * 4 + i) * 2] = (int32_t)((i * 3 + h) % 4);
				t[(h * 4 + i) * 2 + 1] = -1;
				for (j = 0; j < 3; j++)
					f[(h * 4 + i) * 3 + j] = (float)(j ==
					    2 ? h * 100 + i : -1000);
			}
		for (i = 0; i < 32 * C; i++)
			x[i] = (float)(i % 1000);
		ck_assert_msg(vt_compile(&u, table_src, presets[p]) == 0,
		    "%s: %s", presets[p], u.text);
		vt_run(&u, "tab", bufs, 4, NULL);
		for (h = 0; h < 2; h++)
			for (i = 0; i < 32; i++)
				for (j = 0; j < C; j++) {
					int64_t e = h * 4 + i / 8;
					float want = x[(t[e * 2] * 8 + i % 8) *
					    C + j] + f[e * 3 + 2];
					ck_assert_msg(z[(h * 32 + i) * C + j] ==
					    want, "%s: z[%lld, %lld, %lld]",
					    presets[p], (long long)h,
					    (long long)i, (long long)j);
				}
		vt_free(&u);
		free(x);
		free(z);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("dma");
	TCase *t = tcase_create("sim");

	tcase_add_test(t, packed_hbm_to_vmem);
	tcase_add_test(t, packed_vmem_to_hbm);
	tcase_add_test(t, packed_vmem_to_vmem);
	tcase_add_test(t, packed_timing);
	tcase_add_test(t, onchip_smem_timing);
	tcase_add_test(t, packed_race);
	tcase_add_test(t, packed_i8_round_trip);
	tcase_add_test(t, packed_bad_descriptor);
	suite_add_tcase(s, t);
	t = tcase_create("compiled");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, compiled_bf16_copies);
	tcase_add_test(t, compiled_leading_dims);
	tcase_add_test(t, compiled_smem_table);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
