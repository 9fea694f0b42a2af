/*
 * matmul_host.h - host-side helpers of the matmul kernels
 * (kernels/matmul/matmul.pk): bf16 conversions and plain-C references.
 *
 * Plain C with no dependency on the compiler or the runtime.  Matrices
 * are row-major: x [M][K], y [K][N], z [M][N].
 */
#ifndef PALLAS_MATMUL_HOST_H
#define PALLAS_MATMUL_HOST_H

#include <stdint.h>

/* bf16 <-> f32: round to nearest, ties to even; a NaN stays a quiet NaN. */
uint16_t matmul_f32_to_bf16(float f);
float matmul_bf16_to_f32(uint16_t h);

/* z = x y for f32 x and y, products and sums in double, stored as f32. */
void matmul_ref_f32(int M, int N, int K, const float *x, const float *y,
    float *z);

/*
 * z = x y for bf16 x and y (raw bits): each product is exact in f32 and
 * the sum is kept in double, then stored as f32 (the kernel's f32
 * accumulation differs from it by rounding only).
 */
void matmul_ref_bf16(int M, int N, int K, const uint16_t *x,
    const uint16_t *y, float *z);

#endif
