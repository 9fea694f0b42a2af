/*
 * isel_bf16.c - instruction selection for converts to and from bf16:
 * packing pairs of f32 vregs into packed (2S, L) bf16 vregs and back.
 */
#include "backend/vliw/isel.h"

void
isel_convert_bf16(Isel *I, const TOp *o, Val *out)
{
	(void)out;
	(void)o;
	unsupported(I, "a convert to or from bf16");
}
