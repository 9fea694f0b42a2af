/*
 * sim_valu.c - the VALU's elementwise kernels over S x L 32-bit elements,
 * written as plain loops the host compiler vectorises.
 *
 * Decisions: f32 max/min propagate NaN (XLA semantics; a NaN operand is
 * returned quiet, the first one if both are), and order -0 below +0;
 * f32 -> i32 truncates toward zero, saturates to INT_MIN/INT_MAX and maps
 * NaN to 0; i32 arithmetic wraps (done in uint32_t); shift counts use
 * their low 5 bits; bf16 packing rounds to nearest even, NaN stays quiet.
 * Destinations may alias sources: every kernel is elementwise.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include <math.h>
#include <stdint.h>

#include "machine/sim.h"

/* AVX2 clones of the loops, chosen at load time (glibc ifunc); not
 * under ThreadSanitizer, whose instrumented resolvers would run before
 * its runtime starts. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__) && !defined(__SANITIZE_THREAD__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

#define QUIET 0x00400000u

CLONES static void
fmax_nan(SimW *d, const SimW *a, const SimW *b, int n, int max)
{
	int i;

	for (i = 0; i < n; i++) {
		float x = a[i].f, y = b[i].f;
		uint32_t r;

		if (x != x)
			r = a[i].u | QUIET;
		else if (y != y)
			r = b[i].u | QUIET;
		else if (x != y)
			r = (x > y) == max ? a[i].u : b[i].u;
		else	/* equal: +0 vs -0 */
			r = max ? a[i].u & b[i].u : a[i].u | b[i].u;
		d[i].u = r;
	}
}

static int32_t
f2i(float x)
{
	if (x != x)
		return 0;
	if (x >= 2147483648.0f)
		return INT32_MAX;
	if (x < -2147483648.0f)
		return INT32_MIN;
	return (int32_t)x;
}

CLONES static void
arith(int op, SimW *d, const SimW *a, const SimW *b, int n)
{
	int i;

	switch (op) {
	case OP_VADDF: for (i = 0; i < n; i++) d[i].f = a[i].f + b[i].f; break;
	case OP_VSUBF: for (i = 0; i < n; i++) d[i].f = a[i].f - b[i].f; break;
	case OP_VMULF: for (i = 0; i < n; i++) d[i].f = a[i].f * b[i].f; break;
	case OP_VADDI: for (i = 0; i < n; i++) d[i].u = a[i].u + b[i].u; break;
	case OP_VSUBI: for (i = 0; i < n; i++) d[i].u = a[i].u - b[i].u; break;
	case OP_VMULI: for (i = 0; i < n; i++) d[i].u = a[i].u * b[i].u; break;
	case OP_VMAXI:
		for (i = 0; i < n; i++)
			d[i].i = a[i].i > b[i].i ? a[i].i : b[i].i;
		break;
	case OP_VMINI:
		for (i = 0; i < n; i++)
			d[i].i = a[i].i < b[i].i ? a[i].i : b[i].i;
		break;
	case OP_VAND: for (i = 0; i < n; i++) d[i].u = a[i].u & b[i].u; break;
	case OP_VOR: for (i = 0; i < n; i++) d[i].u = a[i].u | b[i].u; break;
	case OP_VXOR: for (i = 0; i < n; i++) d[i].u = a[i].u ^ b[i].u; break;
	case OP_VSHL:
		for (i = 0; i < n; i++) d[i].u = a[i].u << (b[i].u & 31);
		break;
	case OP_VSHR:
		for (i = 0; i < n; i++) d[i].u = a[i].u >> (b[i].u & 31);
		break;
	case OP_VSRA:
		/* arithmetic shift written without implementation-defined >> */
		for (i = 0; i < n; i++) {
			uint32_t s = b[i].u & 31, x = a[i].u;
			uint32_t sign = (uint32_t)0 - (x >> 31);

			d[i].u = ((x ^ sign) >> s) ^ sign;
		}
		break;
	case OP_VMAXF: fmax_nan(d, a, b, n, 1); break;
	case OP_VMINF: fmax_nan(d, a, b, n, 0); break;
	case OP_VPACK:
		for (i = 0; i < n; i++)
			d[i].u = (uint32_t)mach_bf16(a[i].f) |
			    (uint32_t)mach_bf16(b[i].f) << 16;
		break;
	}
}

CLONES static void
unary(int op, SimW *d, const SimW *a, int n)
{
	int i;

	switch (op) {
	case OP_VABSF: for (i = 0; i < n; i++) d[i].u = a[i].u & 0x7fffffffu;
		break;
	case OP_VNEGF: for (i = 0; i < n; i++) d[i].u = a[i].u ^ 0x80000000u;
		break;
	case OP_VNOT: for (i = 0; i < n; i++) d[i].u = ~a[i].u; break;
	case OP_VMOV: for (i = 0; i < n; i++) d[i].u = a[i].u; break;
	case OP_VCVTIF: for (i = 0; i < n; i++) d[i].f = (float)a[i].i; break;
	case OP_VCVTFI: for (i = 0; i < n; i++) d[i].i = f2i(a[i].f); break;
	case OP_VUNPACKLO:
		for (i = 0; i < n; i++) d[i].u = a[i].u << 16;
		break;
	case OP_VUNPACKHI:
		for (i = 0; i < n; i++) d[i].u = a[i].u & 0xffff0000u;
		break;
	}
}

void
mach_valu(int op, SimW *d, const SimW *a, const SimW *b, int n)
{
	if (b)
		arith(op, d, a, b, n);
	else
		unary(op, d, a, n);
}

CLONES void
mach_vcmp(int op, uint32_t *d, const SimW *a, const SimW *b, int n)
{
	int i;

#define CMP(e) for (i = 0; i < n; i++) d[i] = (e) ? ~0u : 0u; break
	switch (op) {
	case OP_VCMPEQF: CMP(a[i].f == b[i].f);
	case OP_VCMPNEF: CMP(a[i].f != b[i].f);
	case OP_VCMPLTF: CMP(a[i].f < b[i].f);
	case OP_VCMPLEF: CMP(a[i].f <= b[i].f);
	case OP_VCMPGTF: CMP(a[i].f > b[i].f);
	case OP_VCMPGEF: CMP(a[i].f >= b[i].f);
	case OP_VCMPEQI: CMP(a[i].i == b[i].i);
	case OP_VCMPNEI: CMP(a[i].i != b[i].i);
	case OP_VCMPLTI: CMP(a[i].i < b[i].i);
	case OP_VCMPLEI: CMP(a[i].i <= b[i].i);
	case OP_VCMPGTI: CMP(a[i].i > b[i].i);
	case OP_VCMPGEI: CMP(a[i].i >= b[i].i);
	}
#undef CMP
}

CLONES void
mach_vsel(SimW *d, const uint32_t *m, const SimW *a, const SimW *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		d[i].u = (a[i].u & m[i]) | (b[i].u & ~m[i]);
}

CLONES void
mach_mask(int op, uint32_t *d, const uint32_t *a, const uint32_t *b, int n)
{
	int i;

	switch (op) {
	case OP_MAND: for (i = 0; i < n; i++) d[i] = a[i] & b[i]; break;
	case OP_MOR: for (i = 0; i < n; i++) d[i] = a[i] | b[i]; break;
	case OP_MXOR: for (i = 0; i < n; i++) d[i] = a[i] ^ b[i]; break;
	case OP_MNOT: for (i = 0; i < n; i++) d[i] = ~a[i]; break;
	}
}
