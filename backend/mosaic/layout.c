/*
 * layout.c - vreg layout selection: how a vector value of the tile IR
 * maps onto (sublanes x lanes) vregs, and whether it may live in
 * registers at all.
 *
 * Gives:    mosaic_layout(), mosaic_vreg_budget() (mosaic.h).
 * Needs:    the preset (sublanes S, lanes L, vector registers).
 * Tests:    tests/unit/check_tile.c (layout cases)
 *
 * The rules, in order:
 *  1. Only the last two dimensions map onto a vreg: rows onto sublanes,
 *     columns onto lanes.  Leading dimensions multiply the vreg count.  A
 *     rank-1 value [N] is one row [1, N]; a scalar is not a vector.
 *  2. Native tiling: (S * pack, L) elements per vreg, pack = the dtype's
 *     rows per 32-bit sublane: f32, i32 and bool (masks) 1, bf16 2 (a
 *     packed (16, 128) bf16 vreg), i8 4.  Tiles start at element (0, 0):
 *     values are always tile-aligned (off_r = off_c = 0); unaligned slices
 *     are realigned when loaded.
 *  3. Lane-replicated (TL_LANE_REPL), when the producer guarantees that
 *     all lanes of a row hold one value: results of lane reductions
 *     ([R, W] -> [R, 1]), their lane broadcasts, and elementwise ops of
 *     such values.  These are the row statistics of an online softmax
 *     ([BQ, 128] running maxima and sums): one vreg column whatever the
 *     width, and broadcasting them along lanes costs nothing.
 *  4. Sublane-replicated (TL_SUBLANE_REPL) for [1, W] rows broadcast
 *     down the sublanes: one vreg row whatever the height.
 *  5. The budget: a value whose vregs exceed mosaic_vreg_budget() (a
 *     quarter of the register file, so the temporaries of a chunk loop
 *     always fit) is marked 'home': it lives in a compiler-managed VMEM
 *     buffer and is processed in chunks of chunk_rows rows (one row group,
 *     tile_r rows, per trip; a row group of a very wide value is the
 *     lowering's business).  Principle 7 of the architecture.
 */
#include "backend/mosaic/mosaic.h"

int
mosaic_vreg_budget(const MachPreset *p)
{
	int b = p->nvreg / 4;

	return b < 2 ? 2 : b;
}

static int64_t
cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

TLayout
mosaic_layout(const MachPreset *p, DType t, const Shape *s, TLayKind want)
{
	TLayout l = {0};
	int64_t rows = 1, cols = 1, lead = 1, n;
	int i, pack = dtype_packing(t);

	if (s->rank == 0)
		return l;
	cols = s->d[s->rank - 1];
	if (s->rank >= 2)
		rows = s->d[s->rank - 2];
	for (i = 0; i + 2 < s->rank; i++)
		lead *= s->d[i];
	l.kind = TL_NATIVE;
	l.pack = (uint8_t)pack;
	l.tile_r = (uint16_t)(p->sublanes * pack);
	l.tile_c = (uint16_t)p->lanes;
	switch (want) {
	case TL_LANE_REPL:
		l.kind = TL_LANE_REPL;
		n = lead * cdiv(rows, l.tile_r);
		break;
	case TL_SUBLANE_REPL:
		l.kind = TL_SUBLANE_REPL;
		n = lead * cdiv(cols, l.tile_c);
		break;
	default:
		n = lead * cdiv(rows, l.tile_r) * cdiv(cols, l.tile_c);
		break;
	}
	l.nvreg = n > (1 << 30) ? 1 << 30 : (int)n;
	l.home = n > mosaic_vreg_budget(p);
	l.chunk_rows = l.home ? (rows < l.tile_r ? (int)rows : l.tile_r) :
	    (int)(rows > (1 << 30) ? 1 << 30 : rows);
	return l;
}
