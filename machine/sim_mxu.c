/*
 * sim_mxu.c - the MXUs: weight pushes into the staging buffer, latch, and
 * matmuls whose results go to the MXU's result FIFO.
 *
 * Semantics (isa.def has the synopses):
 *  - W and the stage are D x D (K rows x N columns).  A push writes S
 *    rows (2S for bf16) by L columns at the stage's push pointer, which
 *    walks the column blocks of a row group, then the next rows; a
 *    transposed push writes the transpose (L rows x S columns) and walks
 *    the row blocks of a column group, then the next columns.  Pushing
 *    past the stage traps (FIFO overflow).  latch swaps stage into W and
 *    clears the stage; the stage is readable by a latch, and W by a
 *    matmul, LAT_MXU_LOAD cycles after the last push / the latch.
 *  - A matmul multiplies v[a] (S x L f32, or 2S x L unpacked bf16) by the
 *    L rows of W starting at kblk*L, giving S (2S) x D: every element is
 *    a chain of fused multiply-adds in increasing k (bit-identical on
 *    every host).  f32 inputs: default rounds both sides to bf16 (one
 *    pass); high is bf16x3 (passes lo*hi, hi*lo, hi*hi, each over all k);
 *    highest is exact f32 products.  bf16 matmuls use bf16(W) in default
 *    mode and W as is otherwise.  ACC adds into the accumulator, HOLD
 *    keeps the result there; otherwise it is pushed into the FIFO as
 *    (rows/S) x (D/L) vregs, row group major.
 *  - Timing: a matmul occupies its MXU for rows / rows_per_cycle cycles
 *    per pass; a matmul issued while the MXU is busy starts when it
 *    frees up (no stall: the machine issues on).  Its results are ready
 *    LAT_MXU cycles after it started, plus its extra cycles over one f32
 *    pass.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include <math.h>
#include <string.h>

#include "machine/sim.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_KERNEL 1
#endif

void
mach_mxu_kernel_c(const float *a, int lda, const float *w, int ldw,
    float *c, int ldc, int rows, int k, int n, int zero)
{
	int i, j, q;

	for (i = 0; i < rows; i++) {
		float *ci = c + (size_t)i * (size_t)ldc;

		if (zero)
			for (j = 0; j < n; j++)
				ci[j] = 0.0f;
		for (q = 0; q < k; q++) {
			float x = a[(size_t)i * (size_t)lda + (size_t)q];
			const float *wq = w + (size_t)q * (size_t)ldw;

			for (j = 0; j < n; j++)
				ci[j] = fmaf(x, wq[j], ci[j]);
		}
	}
}

#ifdef HAVE_AVX2_KERNEL
/* 4 rows x 16 columns of C per block: 8 accumulators, 2 W loads and 4
 * broadcasts per k.  Same fused multiply-add chain as the C kernel. */
__attribute__((target("avx2,fma"))) static void
kernel_avx2(const float *a, int lda, const float *w, int ldw, float *c,
    int ldc, int rows, int k, int n, int zero)
{
	int i, j, q;

	if (rows % 4 || n % 16) {
		mach_mxu_kernel_c(a, lda, w, ldw, c, ldc, rows, k, n, zero);
		return;
	}
	for (j = 0; j < n; j += 16)
		for (i = 0; i < rows; i += 4) {
			const float *a0 = a + (size_t)i * (size_t)lda;
			const float *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
			float *c0 = c + (size_t)i * (size_t)ldc + j;
			float *c1 = c0 + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
			__m256 x00, x01, x10, x11, x20, x21, x30, x31;

			if (zero) {
				x00 = x01 = x10 = x11 = _mm256_setzero_ps();
				x20 = x21 = x30 = x31 = _mm256_setzero_ps();
			} else {
				x00 = _mm256_loadu_ps(c0);
				x01 = _mm256_loadu_ps(c0 + 8);
				x10 = _mm256_loadu_ps(c1);
				x11 = _mm256_loadu_ps(c1 + 8);
				x20 = _mm256_loadu_ps(c2);
				x21 = _mm256_loadu_ps(c2 + 8);
				x30 = _mm256_loadu_ps(c3);
				x31 = _mm256_loadu_ps(c3 + 8);
			}
			for (q = 0; q < k; q++) {
				const float *wq = w + (size_t)q * (size_t)ldw + j;
				__m256 w0 = _mm256_loadu_ps(wq);
				__m256 w1 = _mm256_loadu_ps(wq + 8);
				__m256 b;

				b = _mm256_broadcast_ss(a0 + q);
				x00 = _mm256_fmadd_ps(b, w0, x00);
				x01 = _mm256_fmadd_ps(b, w1, x01);
				b = _mm256_broadcast_ss(a1 + q);
				x10 = _mm256_fmadd_ps(b, w0, x10);
				x11 = _mm256_fmadd_ps(b, w1, x11);
				b = _mm256_broadcast_ss(a2 + q);
				x20 = _mm256_fmadd_ps(b, w0, x20);
				x21 = _mm256_fmadd_ps(b, w1, x21);
				b = _mm256_broadcast_ss(a3 + q);
				x30 = _mm256_fmadd_ps(b, w0, x30);
				x31 = _mm256_fmadd_ps(b, w1, x31);
			}
			_mm256_storeu_ps(c0, x00);
			_mm256_storeu_ps(c0 + 8, x01);
			_mm256_storeu_ps(c1, x10);
			_mm256_storeu_ps(c1 + 8, x11);
			_mm256_storeu_ps(c2, x20);
			_mm256_storeu_ps(c2 + 8, x21);
			_mm256_storeu_ps(c3, x30);
			_mm256_storeu_ps(c3 + 8, x31);
		}
}
#endif

SimKernel *
mach_mxu_kernel(void)
{
#ifdef HAVE_AVX2_KERNEL
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return kernel_avx2;
#endif
	return mach_mxu_kernel_c;
}

/* f32(bf16(x)), as mach_bf16_round, inline for the loops below */
static inline float
round_bf16(float x)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		u |= 0x00400000u;
	else
		u += 0x7fffu + (u >> 16 & 1);
	u &= 0xffff0000u;
	memcpy(&x, &u, 4);
	return x;
}

static inline float
widen(uint32_t h)
{
	uint32_t u = h << 16;
	float x;

	memcpy(&x, &u, 4);
	return x;
}

/* rows 0..S-1 from the low halves, S..2S-1 from the high halves */
static void
unpack(float *dst, const SimW *src, int V)
{
	int i;

	for (i = 0; i < V; i++) {
		dst[i] = widen(src[i].u & 0xffff);
		dst[V + i] = widen(src[i].u >> 16);
	}
}

int
mach_mxu_push(MachSim *m, uint32_t b, const SimIns *in)
{
	SimMxu *x = &m->mxu[in->c];
	int bf = in->h == OP_MPUSHB || in->h == OP_MPUSHTB;
	int tr = in->h == OP_MPUSHT || in->h == OP_MPUSHTB;
	int R = bf ? 2 * m->S : m->S, L = m->L, D = m->D, i, j;
	const SimW *v = m->v + (size_t)in->a * (size_t)m->V;
	float *src = m->tmp;

	if (bf)
		unpack(src, v, m->V);
	else
		for (i = 0; i < m->V; i++)
			src[i] = v[i].f;
	if ((tr ? x->pcol : x->prow) + R > D)
		return mach_trap(m, PALLAS_TRAP_FIFO_OVERFLOW, b, in, 0,
		    SIM_NEVER, "mxu%d staging buffer is full (%d rows; latch "
		    "it first)", in->c, D);
	if (!tr) {
		for (i = 0; i < R; i++)
			memcpy(x->stage + (size_t)(x->prow + i) * (size_t)D +
			    (size_t)x->pcb * (size_t)L, src + (size_t)i * (size_t)L,
			    (size_t)L * sizeof(float));
		if (++x->pcb == D / L) {
			x->pcb = 0;
			x->prow += R;
		}
	} else {
		for (i = 0; i < R; i++)
			for (j = 0; j < L; j++)
				x->stage[(size_t)(x->prb * L + j) * (size_t)D +
				    (size_t)(x->pcol + i)] = src[i * L + j];
		if (++x->prb == D / L) {
			x->prb = 0;
			x->pcol += R;
		}
	}
	x->stage_ready = m->cycle + (uint64_t)m->lat[LAT_MXU_LOAD];
	return 0;
}

int
mach_mxu_latch(MachSim *m, uint32_t b, const SimIns *in)
{
	SimMxu *x = &m->mxu[in->c];
	float *t;

	if (x->stage_ready > m->cycle)
		return mach_trap(m, PALLAS_TRAP_NOT_READY, b, in, 0, SIM_NEVER,
		    "mxu%d staging buffer is ready at cycle %llu", in->c,
		    (unsigned long long)x->stage_ready);
	t = x->w;
	x->w = x->stage;
	x->stage = t;
	memset(x->stage, 0, (size_t)m->D * (size_t)m->D * sizeof(float));
	x->prow = x->pcb = x->pcol = x->prb = 0;
	x->wsplit = 0;
	x->w_ready = m->cycle + (uint64_t)m->lat[LAT_MXU_LOAD];
	return 0;
}

static void
split_w(MachSim *m, SimMxu *x)
{
	size_t i, n = (size_t)m->D * (size_t)m->D;

	for (i = 0; i < n; i++) {
		x->whi[i] = round_bf16(x->w[i]);
		x->wlo[i] = round_bf16(x->w[i] - x->whi[i]);
	}
	x->wsplit = 1;
}

/* The LHS as R x L floats in a, its bf16 rounding in hi if asked, and
 * the rest in lo if asked. */
static void
lhs(MachSim *m, const SimIns *in, int bf, float *a, float *hi, float *lo)
{
	const SimW *v = m->v + (size_t)in->a * (size_t)m->V;
	int i;

	if (bf)
		unpack(a, v, m->V);
	else
		for (i = 0; i < m->V; i++)
			a[i] = v[i].f;
	if (!hi)
		return;
	for (i = 0; i < (bf ? 2 : 1) * m->V; i++)
		hi[i] = round_bf16(a[i]);
	for (i = 0; lo && i < (bf ? 2 : 1) * m->V; i++)
		lo[i] = round_bf16(a[i] - hi[i]);
}

/* acc (+)= A . W[kblk] under the op's precision; returns the passes. */
static int
multiply(MachSim *m, SimMxu *x, const SimIns *in, int bf, int R)
{
	int prec = (in->x & MACH_MM_PREC_MASK) >> MACH_MM_PREC_SHIFT;
	int kblk = (in->x & MACH_MM_KBLK_MASK) >> MACH_MM_KBLK_SHIFT;
	int zero = !(in->x & MACH_MM_ACC), L = m->L, D = m->D;
	size_t off = (size_t)kblk * (size_t)L * (size_t)D, rl = (size_t)R * L;
	float *a = m->tmp, *hi = a + rl, *lo = hi + rl;

	if (prec == MACH_PREC_HIGHEST || (bf && prec != MACH_PREC_DEFAULT)) {
		lhs(m, in, bf, a, NULL, NULL);
		m->kernel(a, L, x->w + off, D, x->acc, D, R, L, D, zero);
		return m->mp->mxu_passes[prec];
	}
	if (!x->wsplit)
		split_w(m, x);
	if (bf) {
		lhs(m, in, bf, a, NULL, NULL);
		m->kernel(a, L, x->whi + off, D, x->acc, D, R, L, D, zero);
		return m->mp->mxu_passes[prec];
	}
	lhs(m, in, bf, a, hi, prec == MACH_PREC_HIGH ? lo : NULL);
	if (prec == MACH_PREC_HIGH) {
		m->kernel(lo, L, x->whi + off, D, x->acc, D, R, L, D, zero);
		m->kernel(hi, L, x->wlo + off, D, x->acc, D, R, L, D, 0);
		zero = 0;
	}
	m->kernel(hi, L, x->whi + off, D, x->acc, D, R, L, D, zero);
	return m->mp->mxu_passes[prec];
}

/* Pushes acc (R x D) into the FIFO as vregs, row group major. */
static void
emit(MachSim *m, SimMxu *x, int R, uint64_t ready)
{
	int g, cb, i, S = m->S, L = m->L, D = m->D;
	SimW *e;

	for (g = 0; g < R / S; g++)
		for (cb = 0; cb < D / L; cb++) {
			e = mach_fifo_push(&x->fifo, ready, NULL);
			for (i = 0; i < S; i++)
				memcpy(e + (size_t)i * (size_t)L,
				    x->acc + (size_t)(g * S + i) * (size_t)D +
				    (size_t)cb * (size_t)L,
				    (size_t)L * sizeof(float));
		}
}

int
mach_mxu_matmul(MachSim *m, uint32_t b, const SimIns *in)
{
	SimMxu *x = &m->mxu[in->c];
	int bf = in->h == OP_MXMMB, hold = (in->x & MACH_MM_HOLD) != 0;
	int R = bf ? 2 * m->S : m->S;
	int need = (R / m->S) * (m->D / m->L), passes, rpc, base;
	uint64_t start, dur;

	if (x->w_ready > m->cycle)
		return mach_trap(m, PALLAS_TRAP_NOT_READY, b, in, 0, SIM_NEVER,
		    "mxu%d weights are latched at cycle %llu", in->c,
		    (unsigned long long)x->w_ready);
	if (!hold && x->fifo.count + need > x->fifo.depth)
		return mach_trap(m, PALLAS_TRAP_FIFO_OVERFLOW, b, in, 0,
		    SIM_NEVER, "mxu%d result FIFO is full (%d of %d vregs)",
		    in->c, x->fifo.count, x->fifo.depth);
	passes = multiply(m, x, in, bf, R);
	rpc = m->mp->mxu_rows_per_cycle > 0 ? m->mp->mxu_rows_per_cycle : 1;
	base = (m->S + rpc - 1) / rpc;
	dur = (uint64_t)((R + rpc - 1) / rpc) * (uint64_t)(passes > 0 ?
	    passes : 1);
	start = m->cycle > x->busy_until ? m->cycle : x->busy_until;
	x->busy_until = start + dur;
	m->cnt.mxu_busy_cycles += dur;
	m->cnt.mxu_flops += 2 * (uint64_t)R * (uint64_t)m->L * (uint64_t)m->D;
	if (m->trace)
		mach_trace_span(m->trace, TRK_MXU + in->c, start, start + dur,
		    mach_opinfo[in->op].name, 0);
	if (!hold)
		emit(m, x, R, start + (uint64_t)m->lat[LAT_MXU] + dur -
		    (uint64_t)base);
	return 0;
}
