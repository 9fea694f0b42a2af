/*
 * pass_tiling.c - TPU tiling annotations (hlo.md 1.5, the TPU table of
 * XLA's tiled_layout.md).  Runs after layout assignment has fixed each
 * array's minor_to_major and gives every array shape, in every
 * computation and in entry_computation_layout, the tile the TPU keeps it
 * in, from the preset's vreg shape S x L (sublanes x 32-bit lanes):
 *
 *     32-bit, rank >= 2     T(S,L)         one vreg per tile
 *     16-bit, rank >= 2     T(S,L)(2,1)    two rows packed per 32-bit word
 *     8-bit, pred           T(S,L)(4,1)    four rows per word
 *     rank 1                {0:T(L)}
 *     scalars               {:T(L)}
 *
 * An array whose second-minor dimension (in memory order) has 1-2 or 3-4
 * elements takes a tile of 2 or 4 rows instead of S, as XLA does, so the
 * padding stays small.  64-bit types have no TPU format and get no tile.
 * Shapes that already carry tiles keep them.  Gives hlo_pass_tiling
 * (pass.h).  Layouts do not change values: the pass is exact.
 */
#include <string.h>

#include "graph/pass.h"
#include "machine/machine.h"

typedef struct Tiler {
	Arena *arena;
	int sublanes, lanes;
	int changed;
} Tiler;

static int
bits(HloType t)
{
	switch (t) {
	case HT_PRED: case HT_S8: case HT_U8: return 8;
	case HT_S16: case HT_U16: case HT_F16: case HT_BF16: return 16;
	case HT_S32: case HT_U32: case HT_F32: return 32;
	default: return 0;	/* 64-bit, token: no TPU tile */
	}
}

static void
one_tile(HloLayout *l, int64_t a, int64_t b)
{
	HloTile *t = &l->tile[l->ntile++];

	t->n = b ? 2 : 1;
	t->d[0] = a;
	t->d[1] = b;
}

static void
tile_array(Tiler *t, HloShape *s)
{
	HloLayout *l = &s->layout;
	int w = bits(s->type), i;
	int64_t rows, second;

	if (!w || l->ntile)
		return;
	if (!l->has || l->nm2m != s->rank) {
		/* no layout yet (layout assignment off): the default */
		l->has = 1;
		l->nm2m = s->rank;
		for (i = 0; i < s->rank; i++)
			l->m2m[i] = s->rank - 1 - i;
	}
	if (s->rank < 2) {
		one_tile(l, t->lanes, 0);
		t->changed = 1;
		return;
	}
	second = s->dim[l->m2m[1]];
	rows = t->sublanes;
	if (second <= 2 && rows > 2)
		rows = 2;
	else if (second <= 4 && rows > 4)
		rows = 4;
	one_tile(l, rows, t->lanes);
	if (w < 32)
		one_tile(l, 32 / w, 1);
	t->changed = 1;
}

/* Tiles every array of s; a tuple that changes gets its own elements. */
static void
tile_shape(Tiler *t, HloShape *s)
{
	HloShape *e;
	int i, before = t->changed;

	if (s->type != HT_TUPLE) {
		tile_array(t, s);
		return;
	}
	e = arena_alloc(t->arena, sizeof *e * (size_t)(s->ntuple + 1));
	if (s->ntuple)
		memcpy(e, s->elem, sizeof *e * (size_t)s->ntuple);
	t->changed = 0;
	for (i = 0; i < s->ntuple; i++)
		tile_shape(t, &e[i]);
	if (t->changed)
		s->elem = e;
	t->changed |= before;
}

int
hlo_pass_tiling(HloModule *m, HloPassCtx *cx)
{
	Tiler t;
	int j, i;

	t.arena = m->arena;
	t.sublanes = cx->mp ? cx->mp->sublanes : 8;
	t.lanes = cx->mp ? cx->mp->lanes : 128;
	t.changed = 0;
	for (j = 0; j < m->comp.n; j++)
		for (i = 0; i < m->comp.v[j]->instr.n; i++)
			tile_shape(&t, &m->comp.v[j]->instr.v[i]->shape);
	if (m->has_ecl) {
		for (i = 0; i < m->ecl_param.n; i++)
			tile_shape(&t, &m->ecl_param.v[i]);
		tile_shape(&t, &m->ecl_result);
	}
	return t.changed;
}
