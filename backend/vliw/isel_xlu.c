/*
 * isel_xlu.c - instruction selection for the structure of vector values:
 * broadcasts, reshapes, reductions, rolls, transposes and extracts
 * (cross-lane work goes to the XLU).
 */
#include "backend/vliw/isel.h"

void
isel_xlu_op(Isel *I, const TOp *o, Val *out)
{
	(void)out;
	unsupported(I, arena_printf(I->a, "'%s'", tile_op_name(o->op)));
}

void
isel_xlu_mem(Isel *I, const TOp *o)
{
	unsupported(I, arena_printf(I->a, "'%s'", tile_op_name(o->op)));
}
