/*
 * check_sim.c - per-opcode semantics of the simulator, with the edge
 * cases: i32 wrapping and shifts, NaN/inf/-0 through max and min,
 * conversions, bf16 rounding (ties, NaN), masks, iotas, rotates, EUP
 * special values, XLU transposes and reductions, MXU matmuls in every
 * precision against a plain-C reference, VMEM and SMEM access, control
 * flow, and DMAs of 1 to 4 dims in every direction.
 */
#include <stdio.h>

#include "simtest.h"

#define NAN_BITS 0x7fc00000u

/* Runs "entry + body + halt" on the small preset with s/v preset by the
 * caller through t after open. */
static void
open_body(T *t, const char *body)
{
	char text[8192];

	snprintf(text, sizeof text, ".preset small\n.entry e\n%s\n halt\n",
	    body);
	t_open(t, "small", text);
}

static void
set_v(T *t, int r, const float *x, int n)
{
	int i;

	for (i = 0; i < t->m->V; i++)
		vreg(t, r)[i].f = x[i % n];
}

/* ------------------------------------------------------------ scalar */

START_TEST(test_scalar_alu)
{
	T t;

	open_body(&t,
	    " sadd s3, s1, s2 ; smul s4, s1, s1\n"
	    " sshl s5, s6, s7 ; sshr s8, s9, s7\n"
	    " ssra s10, s9, s7 ; smin s11, s9, s6\n"
	    " smax s12, s9, s6 ; saddi s13, s1, -5\n"
	    " sshli s14, s6, 32 ; ssrai s15, s9, 4\n"
	    " sxori s16, s6, 0xff ; smovi s17, -1\n"
	    " ssub s18, s9, s1 ; sandi s19, s9, 0xf0");
	t.m->s[1] = 0x7fffffff;
	t.m->s[2] = 1;
	t.m->s[6] = 3;
	t.m->s[7] = 33;		/* shift counts use the low 5 bits */
	t.m->s[9] = 0x80000010u;
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(t.m->s[3], 0x80000000u);	/* wraps */
	ck_assert_uint_eq(t.m->s[4], 1);	/* 0x7fffffff^2 mod 2^32 */
	ck_assert_uint_eq(t.m->s[5], 6);
	ck_assert_uint_eq(t.m->s[8], 0x40000008u);
	ck_assert_uint_eq(t.m->s[10], 0xc0000008u);
	ck_assert_uint_eq(t.m->s[11], 0x80000010u);	/* signed min */
	ck_assert_uint_eq(t.m->s[12], 3);
	ck_assert_uint_eq(t.m->s[13], 0x7ffffffau);
	ck_assert_uint_eq(t.m->s[14], 3);	/* 32 & 31 = 0 */
	ck_assert_uint_eq(t.m->s[15], 0xf8000001u);
	ck_assert_uint_eq(t.m->s[16], 0xfc);
	ck_assert_uint_eq(t.m->s[17], 0xffffffffu);
	ck_assert_uint_eq(t.m->s[18], 0x00000011u);	/* wraps */
	ck_assert_uint_eq(t.m->s[19], 0x10);
	t_close(&t);
}
END_TEST

START_TEST(test_predicates)
{
	T t;

	open_body(&t,
	    " scmp.lt p1, s1, s2 ; scmpi.eq p2, s1, -4\n"
	    " pand p3, p1, p2 ; pnot p4, p1\n"
	    " por p5, p4, p2 ; scmp.gt p0, s2, s1\n"
	    " ssel s3, p4, s1, s2 ; (p1) smovi s4, 7\n"
	    " (!p1) smovi s5, 9 ; (p0) smovi s6, 1\n"
	    " (!p0) smovi s7, 1");
	t.m->s[1] = (uint32_t)-4;
	t.m->s[2] = 3;
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_int_eq(t.m->p[1], 1);
	ck_assert_int_eq(t.m->p[2], 1);
	ck_assert_int_eq(t.m->p[3], 1);
	ck_assert_int_eq(t.m->p[4], 0);
	ck_assert_int_eq(t.m->p[5], 1);
	ck_assert_int_eq(t.m->p[0], 1);		/* writes to p0 are dropped */
	ck_assert_uint_eq(t.m->s[3], 3);
	ck_assert_uint_eq(t.m->s[4], 7);
	ck_assert_uint_eq(t.m->s[5], 0);	/* guarded off */
	ck_assert_uint_eq(t.m->s[6], 1);
	ck_assert_uint_eq(t.m->s[7], 0);
	t_close(&t);
}
END_TEST

START_TEST(test_smem)
{
	T t;

	open_body(&t,
	    " smovi s1, 100 ; smovi s2, -7\n"
	    " sst s2, [s1 + 4]\n"
	    " sld s3, [s1 + 4]\n nop\n"
	    " sadd s4, s3, s3");
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_int_eq((int32_t)t.m->s[4], -14);
	ck_assert_int_eq(t.m->smem[104], 0xf9);
	ck_assert_uint_eq(t.m->smem_hw, 108);
	t_close(&t);
}
END_TEST

START_TEST(test_control)
{
	T t;

	/* a counted loop, a call and a return; reads after the result is
	 * ready, the taken branch costs its bubble */
	open_body(&t,
	    " smovi s1, 0 ; smovi s2, 0\n"
	    "loop: saddi s1, s1, 1 ; saddi s2, s2, 10\n"
	    " scmpi.lt p1, s1, 5\n"
	    " (p1) br loop\n"
	    " call s9, fn\n"
	    " saddi s2, s2, 1000\n"
	    " br done\n"
	    "fn: saddi s2, s2, 1\n"
	    " ret s9\n"
	    "done: nop");
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(t.m->s[1], 5);
	ck_assert_uint_eq(t.m->s[2], 1051);
	/* 1 + 5*3 bundles + 4 taken bubbles, call(+1), fn, ret(+1),
	 * saddi, br(+1), done, halt */
	ck_assert_uint_eq(t.m->cnt.bundles, 1 + 15 + 7);
	ck_assert_uint_eq(t.m->cnt.cycles, 1 + 15 + 4 + 7 + 3);
	ck_assert_uint_eq(t.m->cnt.branch_cycles, 7);
	t_close(&t);
}
END_TEST

/* ------------------------------------------------------------- VALU */

START_TEST(test_valu_f32_nan_inf)
{
	const float a[8] = { NAN, 1.0f, -0.0f, INFINITY, -INFINITY, 2.0f,
	    NAN, 0.0f };
	const float b[8] = { 1.0f, NAN, 0.0f, 1.0f, 5.0f, -3.0f, NAN, -0.0f };
	SimW *mx, *mn, *ad;
	T t;
	int i;

	open_body(&t,
	    " vmax.f32 v3, v1, v2 ; vmin.f32 v4, v1, v2\n"
	    " vadd.f32 v5, v1, v2 ; vabs.f32 v6, v1\n"
	    " vneg.f32 v7, v1 ; vmul.f32 v8, v1, v2");
	set_v(&t, 1, a, 8);
	set_v(&t, 2, b, 8);
	ck_assert_int_eq(t_run(&t), 0);
	mx = vreg(&t, 3);
	mn = vreg(&t, 4);
	ad = vreg(&t, 5);
	ck_assert(isnan(mx[0].f) && isnan(mx[1].f) && isnan(mx[6].f));
	ck_assert(isnan(mn[0].f) && isnan(mn[1].f));
	ck_assert_uint_eq(mx[0].u, NAN_BITS);	/* quiet */
	ck_assert_uint_eq(mx[2].u, fbits(0.0f));	/* max(-0, +0) = +0 */
	ck_assert_uint_eq(mn[2].u, fbits(-0.0f));	/* min(-0, +0) = -0 */
	ck_assert_uint_eq(mx[7].u, fbits(0.0f));
	ck_assert_uint_eq(mn[7].u, fbits(-0.0f));
	ck_assert(mx[3].f == INFINITY && mn[4].f == -INFINITY);
	ck_assert(mx[4].f == 5.0f && mn[5].f == -3.0f);
	ck_assert(isnan(ad[0].f) && ad[3].f == INFINITY && ad[5].f == -1.0f);
	ck_assert_uint_eq(vreg(&t, 6)[2].u, 0);
	ck_assert(vreg(&t, 6)[4].f == INFINITY);
	ck_assert_uint_eq(vreg(&t, 7)[7].u, 0x80000000u);
	ck_assert(isnan(vreg(&t, 8)[1].f) && vreg(&t, 8)[5].f == -6.0f);
	for (i = 8; i < t.m->V; i++)
		ck_assert_uint_eq(mx[i].u, mx[i % 8].u);
	t_close(&t);
}
END_TEST

START_TEST(test_valu_i32)
{
	T t;
	SimW *v;

	open_body(&t,
	    " vadd.i32 v3, v1, v2 ; vmul.i32 v4, v1, v1\n"
	    " vsub.i32 v5, v2, v1 ; vmax.i32 v6, v1, v2\n"
	    " vshl v7, v2, v8 ; vshr v9, v1, v8\n"
	    " vsra v10, v1, v8 ; vmin.i32 v11, v1, v2\n"
	    " vand v12, v1, v2 ; vxor v13, v1, v2\n"
	    " vnot v14, v2 ; vor v15, v1, v2");
	for (int i = 0; i < t.m->V; i++) {
		vreg(&t, 1)[i].u = 0x80000001u;
		vreg(&t, 2)[i].u = 0x7fffffffu;
		vreg(&t, 8)[i].u = 36;	/* & 31 = 4 */
	}
	ck_assert_int_eq(t_run(&t), 0);
	v = vreg(&t, 3);
	ck_assert_uint_eq(v[0].u, 0);	/* wraps */
	ck_assert_uint_eq(vreg(&t, 4)[0].u, 1);
	ck_assert_uint_eq(vreg(&t, 5)[0].u, 0xfffffffeu);
	ck_assert_uint_eq(vreg(&t, 6)[0].u, 0x7fffffffu);
	ck_assert_uint_eq(vreg(&t, 11)[0].u, 0x80000001u);
	ck_assert_uint_eq(vreg(&t, 7)[0].u, 0xfffffff0u);
	ck_assert_uint_eq(vreg(&t, 9)[0].u, 0x08000000u);
	ck_assert_uint_eq(vreg(&t, 10)[0].u, 0xf8000000u);
	ck_assert_uint_eq(vreg(&t, 12)[0].u, 1);
	ck_assert_uint_eq(vreg(&t, 13)[0].u, 0xfffffffeu);
	ck_assert_uint_eq(vreg(&t, 14)[0].u, 0x80000000u);
	ck_assert_uint_eq(vreg(&t, 15)[0].u, 0xffffffffu);
	t_close(&t);
}
END_TEST

START_TEST(test_convert)
{
	const float a[8] = { NAN, 3e9f, -3e9f, -1.7f, 2.5f, -0.0f, 2147483520.0f,
	    -2147483648.0f };
	T t;
	SimW *v;

	open_body(&t, " vcvt.f2i v2, v1 ; vcvt.i2f v4, v3");
	set_v(&t, 1, a, 8);
	for (int i = 0; i < t.m->V; i++)
		vreg(&t, 3)[i].i = i % 2 ? 16777217 : -7;	/* 2^24+1: RNE */
	ck_assert_int_eq(t_run(&t), 0);
	v = vreg(&t, 2);
	ck_assert_int_eq(v[0].i, 0);
	ck_assert_int_eq(v[1].i, INT32_MAX);
	ck_assert_int_eq(v[2].i, INT32_MIN);
	ck_assert_int_eq(v[3].i, -1);
	ck_assert_int_eq(v[4].i, 2);
	ck_assert_int_eq(v[5].i, 0);
	ck_assert_int_eq(v[6].i, 2147483520);
	ck_assert_int_eq(v[7].i, INT32_MIN);
	ck_assert(vreg(&t, 4)[0].f == -7.0f);
	ck_assert(vreg(&t, 4)[1].f == 16777216.0f);
	t_close(&t);
}
END_TEST

START_TEST(test_bf16)
{
	/* ties to even: 1 + 2^-8 (tie) -> 1; 1 + 3*2^-8 (tie) -> 1 + 2^-6 */
	const uint32_t a[8] = { 0x3f808000u, 0x3f818000u, 0x3f808001u,
	    0x7fc00001u, 0x7f800001u, 0x7f7fffffu, 0xff800000u, 0x00000001u };
	T t;
	SimW *p;

	open_body(&t,
	    " vpack.bf16 v3, v1, v2\n nop\n"
	    " vunpack.lo.bf16 v4, v3 ; vunpack.hi.bf16 v5, v3");
	for (int i = 0; i < t.m->V; i++) {
		vreg(&t, 1)[i].u = a[i % 8];
		vreg(&t, 2)[i].f = -2.0f;
	}
	ck_assert_int_eq(t_run(&t), 0);
	p = vreg(&t, 3);
	ck_assert_uint_eq(p[0].u & 0xffff, 0x3f80);
	ck_assert_uint_eq(p[1].u & 0xffff, 0x3f82);
	ck_assert_uint_eq(p[2].u & 0xffff, 0x3f81);
	ck_assert_uint_eq(p[3].u & 0xffff, 0x7fc0);	/* NaN stays quiet */
	ck_assert_uint_eq(p[4].u & 0xffff, 0x7fc0);	/* sNaN -> quiet NaN */
	ck_assert_uint_eq(p[5].u & 0xffff, 0x7f80);	/* rounds to inf */
	ck_assert_uint_eq(p[6].u & 0xffff, 0xff80);
	ck_assert_uint_eq(p[7].u & 0xffff, 0x0000);
	ck_assert_uint_eq(p[0].u >> 16, 0xc000);
	ck_assert_uint_eq(vreg(&t, 4)[1].u, 0x3f820000u);
	ck_assert(vreg(&t, 5)[3].f == -2.0f);
	ck_assert_uint_eq(pallas_f32_to_bf16(bitsf(0x3f818000u)), 0x3f82);
	ck_assert(pallas_bf16_to_f32(0x4040) == 3.0f);
	t_close(&t);
}
END_TEST

START_TEST(test_masks_select)
{
	const float a[4] = { 1.0f, NAN, 3.0f, -1.0f };
	const float b[4] = { 1.0f, NAN, 2.0f, 0.0f };
	T t;

	open_body(&t,
	    " vcmp.eq.f32 m1, v1, v2 ; vcmp.ne.f32 m2, v1, v2\n"
	    " vcmp.lt.f32 m3, v1, v2 ; vcmp.ge.i32 m4, v1, v2\n nop\n"
	    " vsel v3, m2, v1, v2 ; mand m5, m1, m2\n"
	    " mor m6, m1, m3 ; mnot m7, m1\n nop\n"
	    " mxor m1, m6, m7");
	set_v(&t, 1, a, 4);
	set_v(&t, 2, b, 4);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(mreg(&t, 2)[0], 0);
	ck_assert_uint_eq(mreg(&t, 2)[1], ~0u);	/* NaN != NaN */
	ck_assert_uint_eq(mreg(&t, 3)[3], ~0u);
	ck_assert_uint_eq(mreg(&t, 3)[1], 0);
	ck_assert(vreg(&t, 3)[2].f == 3.0f && vreg(&t, 3)[0].f == 1.0f);
	ck_assert_uint_eq(mreg(&t, 5)[0], 0);
	ck_assert_uint_eq(mreg(&t, 6)[3], ~0u);
	ck_assert_uint_eq(mreg(&t, 7)[1], ~0u);
	ck_assert_uint_eq(mreg(&t, 1)[0], ~0u);	/* 1 ^ 0 */
	ck_assert_uint_eq(mreg(&t, 4)[3], 0);	/* -1.0f bits < 0 as i32 */
	t_close(&t);
}
END_TEST

START_TEST(test_iota_bcast_rot)
{
	T t;
	int i, j, S, L;

	open_body(&t,
	    " viota.lane v1 ; viota.sub v2 ; smovi s1, 42\n"
	    " vbcast v3, s1 ; vbcasti v4, 1.5f\n"
	    " vrot.sub v5, v2, 3 ; vbcast.sub v6, v2, 5\n"
	    " vrot.sub v2, v2, 1");	/* in place */
	S = t.m->S;
	L = t.m->L;
	ck_assert_int_eq(t_run(&t), 0);
	for (i = 0; i < S; i++)
		for (j = 0; j < L; j++) {
			ck_assert_int_eq(vreg(&t, 1)[i * L + j].i, j);
			ck_assert_int_eq(vreg(&t, 3)[i * L + j].i, 42);
			ck_assert(vreg(&t, 4)[i * L + j].f == 1.5f);
			ck_assert_int_eq(vreg(&t, 5)[((i + 3) % S) * L + j].i, i);
			ck_assert_int_eq(vreg(&t, 6)[i * L + j].i, 5);
			ck_assert_int_eq(vreg(&t, 2)[((i + 1) % S) * L + j].i, i);
		}
	t_close(&t);
}
END_TEST

/* Reads in a bundle see the values from before the bundle. */
START_TEST(test_bundle_reads_old_values)
{
	T t;

	open_body(&t,
	    " smovi s1, 1 ; smovi s2, 2\n"
	    " smov s1, s2 ; smov s2, s1\n"		/* swap */
	    " vbcasti v1, 1.0f ; vbcasti v2, 2.0f\n nop\n"
	    " vmov v1, v2 ; vmov v2, v1\n nop");
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert_uint_eq(t.m->s[1], 2);
	ck_assert_uint_eq(t.m->s[2], 1);
	ck_assert(vreg(&t, 1)[0].f == 2.0f && vreg(&t, 2)[0].f == 1.0f);
	t_close(&t);
}
END_TEST

/* -------------------------------------------------------------- EUP */

START_TEST(test_eup)
{
	const float a[8] = { INFINITY, -INFINITY, NAN, 3.0f, 0.0f, 4.0f,
	    -1.0f, 0.5f };
	T t;

	open_body(&t,
	    " eup.exp2 v1 ; smovi s1, 0\n eup.log2 v1\n eup.rcp v1\n"
	    " eup.rsqrt v1\n eup.tanh v1\n"
	    " eup.pop v2\n eup.pop v3\n eup.pop v4\n eup.pop v5\n"
	    " eup.pop v6");
	set_v(&t, 1, a, 8);
	ck_assert_int_eq(t_run(&t), 0);
	ck_assert(vreg(&t, 2)[0].f == INFINITY);
	ck_assert(vreg(&t, 2)[1].f == 0.0f);
	ck_assert(isnan(vreg(&t, 2)[2].f));
	ck_assert(vreg(&t, 2)[3].f == 8.0f);
	ck_assert(vreg(&t, 3)[4].f == -INFINITY);
	ck_assert(isnan(vreg(&t, 3)[6].f));
	ck_assert(vreg(&t, 3)[5].f == 2.0f);
	ck_assert(vreg(&t, 4)[4].f == INFINITY);
	ck_assert(vreg(&t, 4)[7].f == 2.0f);
	ck_assert(vreg(&t, 5)[5].f == 0.5f);
	ck_assert(vreg(&t, 6)[0].f == 1.0f && vreg(&t, 6)[1].f == -1.0f);
	ck_assert(fabsf(vreg(&t, 6)[7].f - tanhf(0.5f)) == 0.0f);
	t_close(&t);
}
END_TEST

/* -------------------------------------------------------------- XLU */

START_TEST(test_xlu)
{
	T t;
	int i, j, S, L;
	float ref;

	/* small: L = 16, S = 8, 2 pushes per transpose; latencies 8 */
	open_body(&t,
	    " xlu.xpose xlu0, v1\n xlu.xpose xlu0, v2\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " xlu.pop v3, xlu0\n xlu.pop v4, xlu0\n"
	    " xlu.sum xlu0, v1\n xlu.max xlu0, v5\n"
	    " xlu.rot xlu0, v1, by=3\n xlu.bcast xlu0, v1, lane=7\n"
	    " nop\n nop\n nop\n nop\n nop\n"
	    " xlu.pop v6, xlu0\n xlu.pop v7, xlu0\n"
	    " xlu.pop v8, xlu0\n xlu.pop v9, xlu0");
	S = t.m->S;
	L = t.m->L;
	for (i = 0; i < S; i++)
		for (j = 0; j < L; j++) {
			vreg(&t, 1)[i * L + j].f = (float)(i * L + j);
			vreg(&t, 2)[i * L + j].f = (float)((i + S) * L + j);
			vreg(&t, 5)[i * L + j].f = j == 4 && i == 2 ? NAN :
			    (float)(j % 5);
		}
	ck_assert_int_eq(t_run(&t), 0);
	for (i = 0; i < S; i++)
		for (j = 0; j < L; j++) {
			/* pop q holds rows q*S.. of the transpose */
			ck_assert(vreg(&t, 3)[i * L + j].f == (float)(j * L + i));
			ck_assert(vreg(&t, 4)[i * L + j].f ==
			    (float)(j * L + S + i));
			ck_assert(vreg(&t, 8)[i * L + (j + 3) % L].f ==
			    vreg(&t, 1)[i * L + j].f);
			ck_assert(vreg(&t, 9)[i * L + j].f == (float)(i * L + 7));
		}
	for (i = 0; i < S; i++) {
		ref = 0;
		for (j = 0; j < L; j++)	/* exact: small integers */
			ref += (float)(i * L + j);
		ck_assert(vreg(&t, 6)[i * L + 5].f == ref);
		if (i == 2)
			ck_assert(isnan(vreg(&t, 7)[i * L].f));
		else
			ck_assert(vreg(&t, 7)[i * L + 9].f == 4.0f);
	}
	t_close(&t);
}
END_TEST

/* -------------------------------------------------------------- MXU */

static float
rbf(float x)
{
	return pallas_bf16_to_f32(pallas_f32_to_bf16(x));
}

/* Plain-C reference of an f32 matmul: rows x L by L x L. */
static void
ref_mm(const float *a, const float *w, float *c, int rows, int L, int prec)
{
	int i, j, k;

	for (i = 0; i < rows; i++)
		for (j = 0; j < L; j++) {
			float acc = 0, x, y;

			if (prec == MACH_PREC_HIGH) {
				for (k = 0; k < L; k++) {
					x = a[i * L + k] - rbf(a[i * L + k]);
					acc = fmaf(rbf(x), rbf(w[k * L + j]), acc);
				}
				for (k = 0; k < L; k++) {
					y = w[k * L + j] - rbf(w[k * L + j]);
					acc = fmaf(rbf(a[i * L + k]), rbf(y), acc);
				}
			}
			for (k = 0; k < L; k++) {
				x = a[i * L + k];
				y = w[k * L + j];
				if (prec != MACH_PREC_HIGHEST) {
					x = rbf(x);
					y = rbf(y);
				}
				acc = fmaf(x, y, acc);
			}
			c[i * L + j] = acc;
		}
}

static float
frand(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (float)((*seed >> 8) & 0xffff) / 65536.0f * 2.0f - 1.0f +
	    (float)((*seed >> 4) & 0xf) * 1e-5f;
}

/* n empty bundles as text (n < 200) */
static const char *
nops(int n)
{
	static char buf[1024];
	int i;

	buf[0] = 0;
	for (i = 0; i < n && i < 200; i++)
		strcat(buf, " nop\n");
	return buf;
}

static int
t_passes(int prec)
{
	return mach_preset("small")->mxu_passes[prec];
}

static void
mxu_case(int prec)
{
	char body[1024];
	float a[8 * 16], w[16 * 16], ref[8 * 16];
	const char *pn[] = { "default", "high", "highest" };
	unsigned seed = 7u + (unsigned)prec;
	T t;
	int i;

	/* push W (16 x 16) as 2 vregs of 8 rows, latch, matmul, pop */
	/* result ready 16 + 8 * (passes - 1) cycles after the matmul */
	snprintf(body, sizeof body,
	    " mxu.push mxu0, v1\n mxu.push mxu0, v2\n mxu.latch mxu0\n"
	    " mxu.mm mxu0, v3, prec=%s\n%s mxu.pop v4, mxu0", pn[prec],
	    nops(15 + 8 * (t_passes(prec) - 1)));
	open_body(&t, body);
	for (i = 0; i < 256; i++)
		w[i] = frand(&seed);
	for (i = 0; i < 128; i++)
		a[i] = frand(&seed);
	for (i = 0; i < 128; i++) {
		vreg(&t, 1)[i].f = w[i];
		vreg(&t, 2)[i].f = w[128 + i];
		vreg(&t, 3)[i].f = a[i];
	}
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	ref_mm(a, w, ref, 8, 16, prec);
	for (i = 0; i < 128; i++)
		ck_assert_msg(vreg(&t, 4)[i].u == fbits(ref[i]),
		    "prec %d elt %d: %a vs %a", prec, i, vreg(&t, 4)[i].f,
		    ref[i]);
	ck_assert_uint_eq(t.m->cnt.mxu_flops, 2 * 8 * 16 * 16);
	ck_assert_uint_eq(t.m->cnt.mxu_busy_cycles,
	    8 * (uint64_t)t.m->mp->mxu_passes[prec]);
	t_close(&t);
}

START_TEST(test_mxu_precisions)
{
	mxu_case(MACH_PREC_DEFAULT);
	mxu_case(MACH_PREC_HIGH);
	mxu_case(MACH_PREC_HIGHEST);
}
END_TEST

START_TEST(test_mxu_bf16_transpose_acc)
{
	T t;
	int i, j, k, L = 16, S = 8;
	float w[16 * 16], a[16 * 16], ref;

	/* W^T pushed with pusht (bf16, 16 rows per push), a bf16 LHS of
	 * 16 rows; then acc: the same matmul twice, held then pushed */
	open_body(&t,
	    " mxu.pusht.bf16 mxu0, v1\n mxu.latch mxu0\n"
	    " mxu.mm.bf16 mxu0, v2\n"
	    " mxu.mm.bf16 mxu0, v2, hold\n"
	    " mxu.mm.bf16 mxu0, v2, acc\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
	    " mxu.pop v3, mxu0\n mxu.pop v4, mxu0\n nop\n"
	    " mxu.pop v5, mxu0\n mxu.pop v6, mxu0");
	/* v1 packs WT rows 0..7 (low) and 8..15 (high); WT[r][c] = W[c][r] */
	for (i = 0; i < 16; i++)
		for (j = 0; j < 16; j++) {
			w[i * 16 + j] = (float)((i * 3 + j * 5) % 11) - 5.0f;
			a[i * 16 + j] = (float)((i * 7 + j) % 9) * 0.25f;
		}
	for (i = 0; i < S; i++)
		for (j = 0; j < L; j++) {
			/* transposed push: stage column c gets WT row c */
			vreg(&t, 1)[i * L + j].u =
			    pallas_f32_to_bf16(w[j * 16 + i]) |
			    (uint32_t)pallas_f32_to_bf16(w[j * 16 + i + S]) << 16;
			vreg(&t, 2)[i * L + j].u =
			    pallas_f32_to_bf16(a[i * 16 + j]) |
			    (uint32_t)pallas_f32_to_bf16(a[(i + S) * 16 + j]) << 16;
		}
	ck_assert_msg(t_run(&t) == 0, "%s", t.m->trap.message);
	for (i = 0; i < 16; i++)
		for (j = 0; j < 16; j++) {
			ref = 0;
			for (k = 0; k < 16; k++)
				ref += a[i * 16 + k] * w[k * 16 + j];
			/* rows 0..7 in the first pop, 8..15 in the second */
			ck_assert(vreg(&t, i < 8 ? 3 : 4)[(i % 8) * L + j].f ==
			    ref);
			ck_assert(vreg(&t, i < 8 ? 5 : 6)[(i % 8) * L + j].f ==
			    2 * ref);
		}
	t_close(&t);
}
END_TEST

/* ------------------------------------------------------------- VMEM */

START_TEST(test_vld_vst)
{
	T t;
	int i, j, L;

	open_body(&t,
	    " smovi s1, 0 ; viota.lane v1 ; viota.sub v2\n nop\n"
	    " vadd.i32 v3, v1, v2 ; vcmp.lt.i32 m1, v1, v2\n nop\n"
	    " vst v3, [s1 + 1024], mask=0xf5, stride=2\n"
	    " vld v4, [s1 + 1024], mask=0x0f, stride=2\n"
	    " vst.msk v1, [s1], m1\n"
	    " vld v5, [s1 + 1024], stride=0");
	L = t.m->L;
	ck_assert_int_eq(t_run(&t), 0);
	for (i = 0; i < 8; i++)
		for (j = 0; j < L; j++) {
			int32_t got;

			memcpy(&got, t.m->vmem + 1024 + (size_t)(i * 2 * L +
			    j) * 4, 4);
			ck_assert_int_eq(got, (0xf5 >> i & 1) ? i + j : 0);
			ck_assert_int_eq(vreg(&t, 4)[i * L + j].i,
			    i < 4 && (0xf5 >> i & 1) ? i + j : 0);
			ck_assert_int_eq(vreg(&t, 5)[i * L + j].i, j);
			memcpy(&got, t.m->vmem + (size_t)(i * L + j) * 4, 4);
			ck_assert_int_eq(got, j < i ? j : 0);
		}
	ck_assert_uint_eq(t.m->vmem_hw, 1024 + (uint64_t)(7 * 2 + 1) * L * 4);
	t_close(&t);
}
END_TEST

/* -------------------------------------------------------------- DMA */

/* Writes a DMA descriptor at SMEM byte address at. */
static void
desc(T *t, uint32_t at, int dir, int ndim, int esize, uint64_t src,
    uint64_t dst, const uint32_t *cnt, const int32_t *ss, const int32_t *ds)
{
	uint32_t w[MACH_DMA_WORDS] = { 0 };
	int i;

	w[MACH_DMA_SRC_LO] = (uint32_t)src;
	w[MACH_DMA_SRC_HI] = (uint32_t)(src >> 32);
	w[MACH_DMA_DST_LO] = (uint32_t)dst;
	w[MACH_DMA_DST_HI] = (uint32_t)(dst >> 32);
	w[MACH_DMA_CTRL] = (uint32_t)(dir | ndim << 4 | esize << 8);
	for (i = 0; i < 4; i++)
		w[MACH_DMA_COUNT0 + i] = cnt[i];
	for (i = 0; i < 3; i++) {
		w[MACH_DMA_SSTRIDE1 + i] = (uint32_t)ss[i];
		w[MACH_DMA_DSTRIDE1 + i] = (uint32_t)ds[i];
	}
	memcpy(t->m->smem + at, w, sizeof w);
}

/* Element offset of (i3, i2, i1, i0) with byte strides and esize 4. */
static int64_t
off4(const uint32_t *idx, const int32_t *st)
{
	return (int64_t)idx[3] * st[2] + (int64_t)idx[2] * st[1] +
	    (int64_t)idx[1] * st[0] + (int64_t)idx[0] * 4;
}

/* A 4-D strided DMA in direction dir, checked element by element. */
static void
dma_case(int dir, int ndim)
{
	static const int sp[NMACHDMADIR][2] = { { 0, 0 },
	    { SIM_HBM, SIM_VMEM }, { SIM_VMEM, SIM_HBM }, { SIM_HBM, SIM_SMEM },
	    { SIM_SMEM, SIM_HBM }, { SIM_VMEM, SIM_VMEM },
	    { SIM_VMEM, SIM_SMEM }, { SIM_SMEM, SIM_VMEM } };
	uint32_t cnt[4] = { 3, 2, 2, 2 }, idx[4];
	int32_t ss[3] = { 64, 200, 500 }, ds[3] = { 16, 40, 96 };
	uint64_t base[2], hbm;
	uint8_t *mem[2];
	T t;
	int side, i;

	for (i = ndim; i < 4; i++)
		cnt[i] = 1;
	open_body(&t, " smovi s1, 2048\n dma.start f3, [s1]\n"
	    " sync.wait f3, 1");
	hbm = mach_sim_hbm_alloc(t.m, 4096, MACH_NOADDR);
	ck_assert(hbm != MACH_NOADDR);
	for (side = 0; side < 2; side++) {
		switch (sp[dir][side]) {
		case SIM_HBM:
			base[side] = hbm + 64;
			mem[side] = mach_sim_hbm(t.m, hbm, 4096);
			break;
		case SIM_VMEM:
			base[side] = side ? 20000 : 4096;
			mem[side] = t.m->vmem;
			break;
		default:
			base[side] = side ? 1024 : 0;
			mem[side] = t.m->smem;
			break;
		}
	}
	for (i = 0; i < 256; i++)	/* source pattern */
		memcpy(mem[0] + (sp[dir][0] == SIM_HBM ? 64 : base[0]) +
		    (size_t)i * 4, &(uint32_t){ 0xa0000000u + (uint32_t)i }, 4);
	desc(&t, 2048, dir, ndim, 4, base[0], base[1], cnt, ss, ds);
	ck_assert_msg(t_run(&t) == 0, "dir %d: %s", dir, t.m->trap.message);
	ck_assert_uint_eq(t.m->flag[3], 1);
	for (idx[3] = 0; idx[3] < cnt[3]; idx[3]++)
	for (idx[2] = 0; idx[2] < cnt[2]; idx[2]++)
	for (idx[1] = 0; idx[1] < cnt[1]; idx[1]++)
	for (idx[0] = 0; idx[0] < cnt[0]; idx[0]++) {
		uint32_t got, want;
		size_t so = (size_t)off4(idx, ss), dof = (size_t)off4(idx, ds);

		memcpy(&want, mem[0] + (sp[dir][0] == SIM_HBM ? 64 : base[0]) +
		    so, 4);
		memcpy(&got, mem[1] + (sp[dir][1] == SIM_HBM ? 64 : base[1]) +
		    dof, 4);
		ck_assert_msg(got == want && want == 0xa0000000u + so / 4,
		    "dir %d ndim %d", dir, ndim);
	}
	ck_assert_uint_eq(t.m->cnt.hbm_read_bytes, sp[dir][0] == SIM_HBM ?
	    12 * (uint64_t)cnt[1] * cnt[2] * cnt[3] : 0);
	t_close(&t);
}

START_TEST(test_dma_all_directions)
{
	int dir, nd;

	for (dir = MACH_DMA_HBM_VMEM; dir < NMACHDMADIR; dir++)
		for (nd = 1; nd <= 4; nd++)
			dma_case(dir, nd);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("ops");

	tcase_add_test(tc, test_scalar_alu);
	tcase_add_test(tc, test_predicates);
	tcase_add_test(tc, test_smem);
	tcase_add_test(tc, test_control);
	tcase_add_test(tc, test_valu_f32_nan_inf);
	tcase_add_test(tc, test_valu_i32);
	tcase_add_test(tc, test_convert);
	tcase_add_test(tc, test_bf16);
	tcase_add_test(tc, test_masks_select);
	tcase_add_test(tc, test_iota_bcast_rot);
	tcase_add_test(tc, test_bundle_reads_old_values);
	tcase_add_test(tc, test_eup);
	tcase_add_test(tc, test_xlu);
	tcase_add_test(tc, test_mxu_precisions);
	tcase_add_test(tc, test_mxu_bf16_transpose_acc);
	tcase_add_test(tc, test_vld_vst);
	tcase_add_test(tc, test_dma_all_directions);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
