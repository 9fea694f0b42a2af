/*
 * check_mem.c - vector loads and stores of every view form and bf16
 * values through the VLIW backend: each kernel is compiled, run on the
 * simulator (small preset and v4, every check on) and in interpret mode
 * on the same inputs, and the outputs must agree exactly
 * (tests/unit/vliwtest.h).  Also: a form the backend cannot lower yet
 * is reported as such, without a crash.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

static const char *const presets[] = { "small", "v4" };

#define HEAD "#define LANES __PK_LANES__\n"

static void
both_opts(const char *src, const char *entry, VtOpts *o)
{
	size_t k;

	for (k = 0; k < countof(presets); k++)
		vt_check(src, presets[k], entry, o, NULL);
}

static void
both(const char *src, const char *entry)
{
	VtOpts o = { .tol = 0, .seed = 3 };

	both_opts(src, entry, &o);
}

/* ------------------------------------------------------------ views */

/* Squeezed leading block dims: the body sees [16, 2L] of a rank-3
   block. */
START_TEST(squeezed)
{
	both(HEAD "kernel sq(x: f32[4, 32, 2 * LANES], out z: f32[4, 32, 2 * LANES])\n"
	    "grid (h: 4, i: 2)\n"
	    "blocks { x: [_, 16, 2 * LANES] at (h, i, 0);\n"
	    "         z: [_, 16, 2 * LANES] at (h, i, 0); }\n"
	    "{ z[...] = x[...] * 2.0 + 1.0; }\n"
	    "export sq;\n", "sq");
}
END_TEST

/* A rank-3 value: leading dims as static offsets between slabs. */
START_TEST(leading)
{
	both(HEAD "kernel lead3(x: f32[4, 16, LANES], out z: f32[4, 16, LANES])\n"
	    "grid (h: 2)\n"
	    "blocks { x: [2, 16, LANES] at (h, 0, 0); z: [2, 16, LANES] at (h, 0, 0); }\n"
	    "{ z[...] = x[...] + 1.0; }\n"
	    "export lead3;\n", "lead3");
}
END_TEST

/* Partial tiles: row starts inside a tile (split sublane groups), row
   counts that are not multiples of the sublanes, and columns fewer than
   the lanes (lane-masked stores that keep the neighbours). */
START_TEST(partial)
{
	both(HEAD "kernel part(x: f32[32, 2 * LANES], out z: f32[32, 2 * LANES])\n"
	    "grid (i: 2)\n"
	    "blocks { x: [16, 2 * LANES] at (i, 0); z: [16, 2 * LANES] at (i, 0); }\n"
	    "{ z[...] = x[...];\n"
	    "  z[3:13, 0:5] = x[2:12, 0:5] * 2.0;\n"
	    "  z[5:6, LANES:2 * LANES - 1] = x[15:16, 0:LANES - 1] + 7.0;\n"
	    "  z[9:16, LANES:2 * LANES] = x[1:8, LANES:2 * LANES] - 3.0; }\n"
	    "export part;\n", "part");
}
END_TEST

/* A column-tile-wide buffer: rows are contiguous, so an unaligned row
   start is one access. */
START_TEST(narrow_rows)
{
	both(HEAD "kernel nr(x: f32[24, LANES], out z: f32[24, LANES])\n"
	    "{ z[...] = x[...] * 0.0;\n"
	    "  z[1:20, :] = x[5:24, :] + 1.0; }\n"
	    "export nr;\n", "nr");
}
END_TEST

/* Rows that step a leading buffer dim (x[:, 3, :]): a strided vld, or
   one vld per row when the step is too long for the stride field. */
START_TEST(strided)
{
	both(HEAD "kernel strided(x: f32[4, 8, LANES], y: f32[3, 264, LANES],\n"
	    "    out z: f32[4, LANES], out w: f32[3, LANES])\n"
	    "{ z[...] = x[:, 3, :] * 2.0;\n"
	    "  w[...] = y[:, 5, :] + y[:, 260, :]; }\n"
	    "export strided;\n", "strided");
}
END_TEST

/* Column starts inside a tile: loads join two rotated tiles (xlu.rot),
   stores rotate and write two lane-masked tiles. */
START_TEST(unaligned_columns)
{
	both(HEAD "kernel unal(x: f32[16, 2 * LANES], out z: f32[16, 2 * LANES])\n"
	    "{ z[...] = x[...];\n"
	    "  z[:, 3:LANES + 5] = x[:, 1:LANES + 3] * 2.0;\n"
	    "  z[2:5, LANES + 1:LANES + 4] = x[9:12, 5:8] + 1.0; }\n"
	    "export unal;\n", "unal");
}
END_TEST

/* Splash's scratch forms: lane-replicated values stored whole and into
   one column (lane mask), a column [R, 1] loaded natively, columns read
   as rows (m[:, 0], an XLU transpose), a sublane-replicated value
   stored, and a column range read at a lane offset. */
START_TEST(column_views)
{
	both(HEAD "kernel lr(x: f32[32, 2 * LANES], out z: f32[32, 2 * LANES],\n"
	    "    out s: f32[32], out w: f32[32, 2 * LANES])\n"
	    "scratch { m: f32[32, LANES]; m2: f32[32, LANES]; }\n"
	    "{ m[...] = rowmax(x[...]);\n"
	    "  m2[...] = 0.0;\n"
	    "  m2[:, 3:4] = rowmax(1.0 - x[...]);\n"
	    "  z[...] = x[...] - m[:, 0:1];\n"
	    "  s[...] = m[:, 0] + m2[:, 3];\n"
	    "  w[...] = broadcast(x[5:6, :], [32, 2 * LANES]) + m2[:, 3:4];\n"
	    "  w[0:8, 0:8] = m2[0:8, 2:10]; }\n"
	    "export lr;\n", "lr");
}
END_TEST

/* Dynamic row offsets (loop variables) on tile boundaries. */
START_TEST(dynamic_rows)
{
	both(HEAD "kernel dynrow(x: f32[64, 2 * LANES], out z: f32[64, 2 * LANES])\n"
	    "grid (i: 2)\n"
	    "blocks { x: [32, 2 * LANES] at (i, 0); z: [32, 2 * LANES] at (i, 0); }\n"
	    "{ for (r in 0:4) { z[ds(r * 8, 8), :] = x[ds(r * 8, 8), :] * 0.5; } }\n"
	    "export dynrow;\n", "dynrow");
}
END_TEST

/* Rank-1 blocks: [N] is one row [1, N] in VMEM. */
START_TEST(rank1)
{
	both(HEAD "kernel rank1(x: f32[16 * LANES], out z: f32[16 * LANES])\n"
	    "grid (i: 4)\n"
	    "blocks { x: [4 * LANES] at (i); z: [4 * LANES] at (i); }\n"
	    "{ z[...] = x[...] * 3.0 - 1.0; }\n"
	    "export rank1;\n", "rank1");
}
END_TEST

/* bool vectors through memory (0/1 words). */
START_TEST(bool_memory)
{
	both(HEAD "kernel bm(x: f32[16, LANES], y: f32[16, LANES], out z: f32[16, LANES])\n"
	    "scratch { k: bool[16, LANES]; }\n"
	    "{ k[...] = x[...] > y[...];\n"
	    "  z[...] = where(k[...], x[...], y[...] * 2.0); }\n"
	    "export bm;\n", "bm");
}
END_TEST

static void
fill_table(const CKernel *k, InterpBuf *b, void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < k->nop; i++) {
		int64_t j, n = shape_numel(&b[i].shape);
		if (k->op[i].mem != MEM_SMEM)
			continue;
		for (j = 0; j < n; j++)
			((int32_t *)b[i].data)[j] = (int32_t)((j * 7 + 3) % 11 - 5);
	}
}

/* A rank-3 SMEM table read at [h, i, j] (sld of a row-major word). */
START_TEST(smem_rank3)
{
	VtOpts o = { .tol = 0, .seed = 5, .tables = fill_table };

	both_opts(HEAD "kernel smem3(smem t: i32[2, 3, 4], x: i32[2, 24, LANES],\n"
	    "    out z: i32[2, 24, LANES])\n"
	    "grid (h: 2, i: 3, j: 4)\n"
	    "semantics (parallel, parallel, arbitrary)\n"
	    "blocks { x: [_, 8, LANES] at (h, i, 0); z: [_, 8, LANES] at (h, i, 0); }\n"
	    "{ when (j == 0) { z[...] = x[...]; }\n"
	    "  z[...] += t[h, i, j] * (j + 1); }\n"
	    "export smem3;\n", "smem3", &o);
}
END_TEST

/* ------------------------------------------------------------ bf16 */

/* bf16 in, f32 math, bf16 and f32 out. */
START_TEST(bf16_roundtrip)
{
	both(HEAD "kernel bfrt(x: bf16[64, 2 * LANES], out z: bf16[64, 2 * LANES],\n"
	    "    out w: f32[64, 2 * LANES])\n"
	    "grid (i: 2)\n"
	    "blocks { x: [32, 2 * LANES] at (i, 0); z: [32, 2 * LANES] at (i, 0);\n"
	    "         w: [32, 2 * LANES] at (i, 0); }\n"
	    "{ let a = x[...] as f32;\n"
	    "  w[...] = a;\n"
	    "  z[...] = (a * 1.7 + 0.1) as bf16; }\n"
	    "export bfrt;\n", "bfrt");
}
END_TEST

START_TEST(bf16_elementwise)
{
	both(HEAD "kernel ewbf(x: bf16[64, 2 * LANES], y: bf16[64, 2 * LANES],\n"
	    "    out z: bf16[64, 2 * LANES])\n"
	    "grid (i: 2)\n"
	    "blocks { x: [32, 2 * LANES] at (i, 0); y: [32, 2 * LANES] at (i, 0);\n"
	    "         z: [32, 2 * LANES] at (i, 0); }\n"
	    "{ let a = x[...] as f32; let b = y[...] as f32;\n"
	    "  z[...] = (a * b + 1.0) as bf16; }\n"
	    "export ewbf;\n", "ewbf");
}
END_TEST

/* Half tiles: views starting at row S of a packed tile (the high
   halves), 8-row pieces, and partial columns. */
START_TEST(bf16_half_tiles)
{
	both(HEAD "kernel bfhalf(x: bf16[48, LANES], out z: bf16[48, LANES])\n"
	    "{ z[...] = x[...];\n"
	    "  z[8:24, :] = (x[8:24, :] as f32 * 3.0) as bf16;\n"
	    "  z[32:40, :] = (x[40:48, :] as f32 + 1.0) as bf16;\n"
	    "  z[40:48, :] = (x[32:40, :] as f32 - 1.0) as bf16;\n"
	    "  z[16:20, 0:5] = (x[0:4, 0:5] as f32 * 0.5) as bf16;\n"
	    "  z[0:12, 0:LANES - 3] = (x[16:28, 0:LANES - 3] as f32) as bf16; }\n"
	    "export bfhalf;\n", "bfhalf");
}
END_TEST

/* kernels/matmul/matmul.pk's matmul_bf16 at small sizes. */
START_TEST(bf16_matmul)
{
	both(HEAD "kernel matmul_bf16<M, N, K>(x: bf16[M, K], y: bf16[K, N],\n"
	    "    out z: bf16[M, N])\n"
	    "grid (i: M / 32, j: N / LANES, k: K / LANES)\n"
	    "semantics (parallel, parallel, arbitrary)\n"
	    "blocks { x: [32, LANES] at (i, k); y: [LANES, LANES] at (k, j);\n"
	    "         z: [32, LANES] at (i, j); }\n"
	    "scratch { acc: f32[32, LANES]; }\n"
	    "{ when (k == 0) { acc[...] = 0.0; }\n"
	    "  acc[...] += dot(x[...], y[...], acc: f32);\n"
	    "  when (k == num_programs(k) - 1) { z[...] = acc[...] as bf16; } }\n"
	    "export matmul_bf16<64, 2 * LANES, 2 * LANES> as mmbf;\n", "mmbf");
}
END_TEST

/* ------------------------------------------------------------ errors */

/* A form not lowered yet: a diagnostic naming it, no program. */
START_TEST(unsupported_form)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		VtUnit u;
		int rc = vt_compile(&u, HEAD
		    "kernel rowcol(x: f32[8, LANES], out z: f32[LANES, LANES])\n"
		    "{ z[...] = 0.0; z[:, 3] = x[2, :]; }\n"
		    "export rowcol;\n", presets[k]);
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_null(u.prog);
		ck_assert_msg(strstr(u.text, "error: not supported by the "
		    "compiled path yet: a store of a row into a column "
		    "(kernel 'rowcol')"), "%s", u.text);
		vt_free(&u);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("mem");
	TCase *v = tcase_create("views");
	TCase *b = tcase_create("bf16");
	TCase *e = tcase_create("errors");

	tcase_set_timeout(v, 600);
	tcase_set_timeout(b, 600);
	tcase_add_test(v, squeezed);
	tcase_add_test(v, leading);
	tcase_add_test(v, partial);
	tcase_add_test(v, narrow_rows);
	tcase_add_test(v, strided);
	tcase_add_test(v, unaligned_columns);
	tcase_add_test(v, column_views);
	tcase_add_test(v, dynamic_rows);
	tcase_add_test(v, rank1);
	tcase_add_test(v, bool_memory);
	tcase_add_test(v, smem_rank3);
	tcase_add_test(b, bf16_roundtrip);
	tcase_add_test(b, bf16_elementwise);
	tcase_add_test(b, bf16_half_tiles);
	tcase_add_test(b, bf16_matmul);
	tcase_add_test(e, unsupported_form);
	suite_add_tcase(s, v);
	suite_add_tcase(s, b);
	suite_add_tcase(s, e);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
