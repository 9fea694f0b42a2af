/*
 * sizes.h - the sizes of the end-to-end suite's arrays and blocks, shared
 * by its kernels (tests/e2e/FEATURE.pk, through the .pk preprocessor) and its C
 * driver (tests/e2e/driver.c).  LN is the preset's vreg width: the .pk
 * side takes it from pallasc's __PK_LANES__, the C side from -DLN=....
 * Kept small on every preset so the suite runs in seconds.
 */
#ifndef E2E_SIZES_H
#define E2E_SIZES_H

#ifdef __PK_LANES__
#define LN __PK_LANES__
#endif

/* elementwise, iota, when, buffering: [ROWS, COLS] in [BR, BC] blocks */
#define ROWS 32
#define COLS (4 * LN)
#define BR 8
#define BC (2 * LN)

/* narrow: i8 blocks are [32, BC] (packed tiles) of [I8ROWS, COLS] */
#define I8ROWS 64

/* unaligned: whole-dim blocks 1.5 and 0.5 vregs wide, ODDR rows */
#define WIDE (LN + LN / 2)
#define HALF (LN / 2)
#define ODDR 12

/* squeezed dims: [HEADS, ROWS, COLS] in [_, BR, COLS] blocks */
#define HEADS 3

/* SMEM tables: NT row blocks of x [NT * BR, COLS], gathered by a table */
#define NT (ROWS / BR)

/* matmul: z [MM, MN] = x [MM, MK] . y [MK, MN] (y [MN, MK] with trans_b),
   [MB, MB] blocks, the K axis reduced over the grid into scratch */
#if LN < 128
#define MB 32
#else
#define MB 128
#endif
#define MM (2 * MB)
#define MN MB
#define MK (3 * MB)

#endif
