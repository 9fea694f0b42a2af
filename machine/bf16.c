/*
 * bf16.c - conversions between f32 and bf16 (the upper 16 bits of an
 * f32): round to nearest, ties to even; a NaN stays a NaN and becomes
 * quiet (the quiet bit is set) instead of rounding into infinity.
 */
#include <string.h>

#include "machine/sim.h"

uint16_t
mach_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)(u >> 16 | 0x0040);
	u += 0x7fffu + (u >> 16 & 1);
	return (uint16_t)(u >> 16);
}

float
mach_bf16_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

float
mach_bf16_round(float f)
{
	return mach_bf16_f32(mach_bf16(f));
}

uint16_t
pallas_f32_to_bf16(float f)
{
	return mach_bf16(f);
}

float
pallas_bf16_to_f32(uint16_t h)
{
	return mach_bf16_f32(h);
}
