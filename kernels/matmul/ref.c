/*
 * ref.c - plain-C matrix products the matmul kernels are tested against,
 * and the host's bf16 conversions.
 */
#include <string.h>

#include "kernels/matmul/matmul_host.h"

uint16_t
matmul_f32_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)	/* NaN: keep it, quiet */
		return (uint16_t)(u >> 16 | 0x0040);
	u += 0x7fffu + (u >> 16 & 1);
	return (uint16_t)(u >> 16);
}

float
matmul_bf16_to_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

void
matmul_ref_f32(int M, int N, int K, const float *x, const float *y,
    float *z)
{
	int i, j, k;

	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double acc = 0;
			for (k = 0; k < K; k++)
				acc += (double)x[(long)i * K + k] *
				    y[(long)k * N + j];
			z[(long)i * N + j] = (float)acc;
		}
}

void
matmul_ref_bf16(int M, int N, int K, const uint16_t *x, const uint16_t *y,
    float *z)
{
	int i, j, k;

	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double acc = 0;
			for (k = 0; k < K; k++)
				acc += (double)(matmul_bf16_to_f32(
				    x[(long)i * K + k]) *
				    matmul_bf16_to_f32(y[(long)k * N + j]));
			z[(long)i * N + j] = (float)acc;
		}
}
