/*
 * dtypes.c - dtypes and shapes: names, sizes, packing, tile-padded bytes,
 * and which dtypes each preset's MXU accepts for dot.
 *
 * Gives:    the dtype_* and shape_* helpers of checked.h and sema.h.
 * Tests:    tests/unit/check_sema.c
 */
#include <string.h>

#include "dsl/sema/sema.h"

static const struct {
	const char *name;
	int size, packing;
} dt[NDTYPE] = {
	{ "f32", 4, 1 }, { "bf16", 2, 2 }, { "i32", 4, 1 }, { "i8", 1, 4 },
	{ "bool", 4, 1 }, { "sem", 4, 1 }, { "dma_sem", 4, 1 },
};	/* ORDER DT */

const char *
dtype_name(DType t)
{
	return t < NDTYPE ? dt[t].name : "?";
}

int
dtype_size(DType t)
{
	return t < NDTYPE ? dt[t].size : 4;
}

int
dtype_packing(DType t)
{
	return t < NDTYPE ? dt[t].packing : 1;
}

int
dtype_is_float(DType t)
{
	return t == DT_F32 || t == DT_BF16;
}

int
dtype_is_int(DType t)
{
	return t == DT_I32 || t == DT_I8;
}

int
dtype_lookup(const char *name, DType *t)
{
	int i;

	for (i = 0; i < NDTYPE; i++)
		if (strcmp(dt[i].name, name) == 0) {
			*t = (DType)i;
			return 0;
		}
	return -1;
}

int64_t
shape_numel(const Shape *s)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < s->rank; i++)
		n *= s->d[i];
	return n;
}

int
shape_eq(const Shape *a, const Shape *b)
{
	int i;

	if (a->rank != b->rank)
		return 0;
	for (i = 0; i < a->rank; i++)
		if (a->d[i] != b->d[i])
			return 0;
	return 1;
}

void
shape_print(Buf *b, const Shape *s)
{
	int i;

	buf_putc(b, '[');
	for (i = 0; i < s->rank; i++)
		buf_printf(b, "%s%lld", i ? ", " : "", (long long)s->d[i]);
	buf_putc(b, ']');
}

static int64_t
roundup(int64_t x, int64_t m)
{
	return (x + m - 1) / m * m;
}

/*
 * Bytes of an array of shape s in VMEM: the last two dimensions are
 * padded to whole (sublanes x packing, lanes) tiles; a rank-1 array is
 * one row of tiles, a scalar one tile.
 */
int64_t
shape_tile_bytes(const MachPreset *mp, DType t, const Shape *s)
{
	int64_t rows = 1, cols = 1, lead = 1;
	int64_t sub = (int64_t)mp->sublanes * dtype_packing(t);
	int i;

	if (s->rank >= 1)
		cols = s->d[s->rank - 1];
	if (s->rank >= 2)
		rows = s->d[s->rank - 2];
	for (i = 0; i + 2 < s->rank; i++)
		lead *= s->d[i];
	return lead * roundup(rows, sub) * roundup(cols, mp->lanes) *
	    dtype_size(t);
}

/*
 * MXU operand dtypes per preset (after jax's TpuInfo.is_matmul_supported):
 * every preset multiplies f32 x f32 and bf16 x bf16 with f32 results;
 * int8 x int8 with i32 results needs v5e or later.  ORDER: by name.
 */
static int
int8_mxu(const MachPreset *mp)
{
	return strcmp(mp->name, "v5e") == 0 || strcmp(mp->name, "v6e") == 0;
}

int
dtype_dot_ok(const MachPreset *mp, DType a, DType b, DType acc,
    const char **why)
{
	if (a != b) {
		*why = "the operands of dot must have the same dtype";
		return -1;
	}
	if (a == DT_F32 || a == DT_BF16) {
		if (acc != DT_F32) {
			*why = "dot of float operands accumulates in f32";
			return -1;
		}
		return 0;
	}
	if (a == DT_I8) {
		if (!int8_mxu(mp)) {
			*why = "the MXU of this preset has no i8 x i8 mode "
			    "(v5e and v6e have)";
			return -1;
		}
		if (acc != DT_I32) {
			*why = "dot of i8 operands accumulates in i32";
			return -1;
		}
		return 0;
	}
	*why = "dot takes f32, bf16 or i8 operands";
	return -1;
}
