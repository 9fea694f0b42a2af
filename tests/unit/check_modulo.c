/*
 * check_modulo.c - software pipelining of counted loops (modulo.c) and
 * the memory ranges that let it overlap a chunk's stores with the next
 * chunk's loads (dep.c).
 *
 * Kernels whose chunk loops run 1 to 32 trips are compiled with the
 * pass and without it (VLIW_NO_MODULO) and run on the simulator (every
 * check on) with the same inputs: the outputs must be equal bit for bit,
 * the pipelined program must not be slower, and where the pass applies
 * it must be faster; both are also checked against interpret mode.
 * Hand-built loops check what the pass refuses and the blocks it makes.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

static const char *const presets[] = { "small", "v4" };

/*
 * ew: elementwise f32 and i32 ops with compares and selects over two
 * row blocks of R / 2 rows, one chunk of 8 rows per trip (trips =
 * R / 16).  wide: the same over 4 vregs per row; wider over 8 (a loop
 * over row groups around a column loop of two trips, which vliw_unroll
 * unrolls so that the row loop is pipelined).  rows: a for over row
 * chunks with dynamic slices.  acc: a for that adds into one output
 * block (a store and the next trip's load of the same buffer).
 */
#define ACC_SRC \
    "kernel acc<R>(x: f32[R, L], out s: f32[8, L])\n" \
    "grid (i: 1)\n" \
    "semantics (parallel)\n" \
    "blocks { x: [R, L] at (0, 0); s: [8, L] at (0, 0); }\n" \
    "{\n" \
    "    s[...] = x[0:8, :];\n" \
    "    for (r in 1 : R / 8) {\n" \
    "        s[...] += x[ds(r * 8, 8), :];\n" \
    "    }\n" \
    "}\n"
static const char src[] =
    "#define L __PK_LANES__\n"
    "kernel ew<R, C>(x: f32[R, C], y: f32[R, C], out z: f32[R, C],\n"
    "    out k: i32[R, C])\n"
    "grid (i: 2)\n"
    "semantics (parallel)\n"
    "blocks { x: [R / 2, C] at (i, 0); y: [R / 2, C] at (i, 0);\n"
    "    z: [R / 2, C] at (i, 0); k: [R / 2, C] at (i, 0); }\n"
    "{\n"
    "    let a = x[...];\n"
    "    let b = y[...];\n"
    "    z[...] = where(a > b, a * b - 1.5, abs(a) + 2.0) *\n"
    "        (i == 1 ? 0.5 : 2.0);\n"
    "    k[...] = where(a < b * 2.0, 3, -1) + i;\n"
    "}\n"
    "kernel rows<R>(x: f32[R, L], out z: f32[R, L])\n"
    "grid (i: 1)\n"
    "semantics (parallel)\n"
    "blocks { x: [R, L] at (0, 0); z: [R, L] at (0, 0); }\n"
    "{\n"
    "    for (r in 0 : R / 8) {\n"
    "        z[ds(r * 8, 8), :] = x[ds(r * 8, 8), :] * 2.0 + 1.0;\n"
    "    }\n"
    "}\n"
    ACC_SRC
    "export ew<16, L> as ew_t1;\n"
    "export ew<32, L> as ew_t2;\n"
    "export ew<48, L> as ew_t3;\n"
    "export ew<80, L> as ew_t5;\n"
    "export ew<112, L> as ew_t7;\n"
    "export ew<512, L> as ew_t32;\n"
    "export ew<128, 4 * L> as wide;\n"
    "export ew<96, 8 * L> as wider;\n"
    "export rows<256> as rows;\n"
    "export acc<128> as acc;\n";

/* Exports, and on which presets the pass must make them faster (bit 0
   small, bit 1 v4).  Elsewhere it does not apply (1 or 2 trips, the
   accumulating loop), or the run is bound by its DMAs (ew_t5 and ew_t7
   on v4, where each DMA takes 500 cycles to start). */
static const struct {
	const char *entry;
	int faster;
} exports[] = {
	{ "ew_t1", 0 }, { "ew_t2", 0 }, { "ew_t3", 0 }, { "ew_t5", 1 },
	{ "ew_t7", 1 }, { "ew_t32", 3 }, { "wide", 3 }, { "wider", 3 },
	{ "rows", 3 }, { "acc", 0 },
};

#define NEXPORT ((int)(sizeof exports / sizeof exports[0]))

START_TEST(modulo_matches_interpret)
{
	VtOpts o = { 1e-6, 7, NULL, NULL };
	int i = _i / NEXPORT, e = _i % NEXPORT;

	vt_check(src, presets[i], exports[e].entry, &o, NULL);
}
END_TEST

/* The outputs of a run of entry on fixed inputs; returns the cycles. */
static uint64_t
run_entry(VtUnit *u, const char *entry, void ***outs, int *nop)
{
	const CKernel *k = vt_kernel(u, entry);
	void **bufs = calloc((size_t)k->nop + 1, sizeof *bufs);
	uint64_t cyc;
	int i;

	ck_assert_ptr_nonnull(bufs);
	for (i = 0; i < k->nop; i++) {
		InterpBuf b;
		size_t bytes;
		interp_buf_alloc(&b, k->op[i].name, k->op[i].dtype,
		    &k->op[i].shape);
		if (k->op[i].role == ROLE_IN)
			interp_fill(&b, INTERP_RANDOM, 11 + (uint64_t)i);
		bytes = (size_t)shape_numel(&b.shape) *
		    (size_t)interp_elem_size(b.dtype);
		bufs[i] = malloc(bytes + 1);
		ck_assert_ptr_nonnull(bufs[i]);
		memcpy(bufs[i], b.data, bytes);
		interp_buf_free(&b);
	}
	cyc = vt_run(u, entry, bufs, (size_t)k->nop, NULL);
	*outs = bufs;
	*nop = k->nop;
	return cyc;
}

static void
free_bufs(void **b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(b[i]);
	free(b);
}

/* Loops vliw_modulo pipelines in the functions of u's tile IR. */
static int
pipelined(VtUnit *u, const char *preset)
{
	int i, n = 0;

	for (i = 0; i < u->tm->func.n; i++) {
		LFunc *f = vliw_isel(u->tm->func.v[i], mach_preset(preset),
		    &u->d, &u->a);
		ck_assert_ptr_nonnull(f);
		vliw_unroll(f, VLIW_UNROLL_SHORT);		/* the passes before it, in order */
		vliw_cse(f);
		vliw_licm(f);
		n += vliw_modulo(f);
	}
	return n;
}

/* With and without the pass: equal outputs, never slower, faster where
   the trip counts allow. */
START_TEST(modulo_against_unpipelined)
{
	const char *preset = presets[_i / NEXPORT];
	const char *entry = exports[_i % NEXPORT].entry;
	VliwOpts off = { VLIW_NO_MODULO };
	VtUnit on, un;
	void **a, **b;
	uint64_t ca, cb;
	int i, n, nb;
	const CKernel *k;

	ck_assert_msg(vt_compile(&on, src, preset) == 0, "%s", on.text);
	ck_assert_msg(vt_compile_opts(&un, src, preset, &off) == 0, "%s",
	    un.text);
	ca = run_entry(&on, entry, &a, &n);
	cb = run_entry(&un, entry, &b, &nb);
	k = vt_kernel(&on, entry);
	for (i = 0; i < n; i++) {
		size_t bytes = (size_t)shape_numel(&k->op[i].shape) *
		    (size_t)interp_elem_size(k->op[i].dtype);
		ck_assert_msg(memcmp(a[i], b[i], bytes) == 0,
		    "%s on %s: operand %s differs with the pipeline", entry,
		    preset, k->op[i].name);
	}
	printf("%-8s %-6s pipelined %6llu cycles, not %6llu\n", entry, preset,
	    (unsigned long long)ca, (unsigned long long)cb);
	ck_assert_msg(ca <= cb, "%s on %s: %llu cycles pipelined, %llu not",
	    entry, preset, (unsigned long long)ca, (unsigned long long)cb);
	if (exports[_i % NEXPORT].faster & (1 << (_i / NEXPORT)))
		ck_assert_msg(ca < cb, "%s on %s: not faster (%llu cycles)",
		    entry, preset, (unsigned long long)ca);
	free_bufs(a, n);
	free_bufs(b, nb);
	vt_free(&on);
	vt_free(&un);
}
END_TEST

/* The pass applies to the long chunk loops, not to a loop of 1 or 2
   trips nor to the accumulating loop (its store and the next trip's
   load touch the same block). */
START_TEST(modulo_where_it_applies)
{
	static const char one[] =
	    "#define L __PK_LANES__\n"
	    "kernel ew<R>(x: f32[R, L], out z: f32[R, L])\n"
	    "grid (i: 1)\n"
	    "semantics (parallel)\n"
	    "blocks { x: [R, L] at (0, 0); z: [R, L] at (0, 0); }\n"
	    "{ z[...] = x[...] * 3.0 - 1.0; }\n"
	    "kernel wide<R>(x: f32[R, 8 * L], out z: f32[R, 8 * L])\n"
	    "grid (i: 1)\n"
	    "semantics (parallel)\n"
	    "blocks { x: [R, 8 * L] at (0, 0); z: [R, 8 * L] at (0, 0); }\n"
	    "{ z[...] = x[...] * 3.0 - 1.0; }\n";
	static const char acc[] = "#define L __PK_LANES__\n" ACC_SRC
	    "export acc<128>;\n";
	static const struct {
		const char *exp;
		int loops;
	} cases[] = {
		{ "export ew<8>;\n", 0 }, { "export ew<16>;\n", 0 },
		{ "export ew<256>;\n", 1 }, { "export wide<64>;\n", 1 },
	};
	const char *preset = presets[_i];
	char text[1024];
	VtUnit u;
	size_t c;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		snprintf(text, sizeof text, "%s%s", one, cases[c].exp);
		ck_assert_msg(vt_compile(&u, text, preset) == 0, "%s", u.text);
		ck_assert_msg(pipelined(&u, preset) == cases[c].loops,
		    "%s on %s", cases[c].exp, preset);
		vt_free(&u);
	}
	ck_assert_msg(vt_compile(&u, acc, preset) == 0, "%s", u.text);
	ck_assert_int_eq(pipelined(&u, preset), 0);
	vt_free(&u);
}
END_TEST

/* ------------------------------------------------ hand-built loops */

static LIns *
vmem(LFunc *f, int b, int op, int d, int base, int v, int32_t imm,
    int32_t lo, int32_t hi)
{
	LIns *in = llo_add(f, b, op, d, base, v, 0);

	in->imm = imm;
	in->x = 0xff | 1u << 8;
	in->mlo = lo;
	in->mhi = hi;
	return in;
}

/*
 * entry: s1 = 0 (the counter), s9 = 0; loop (trips T): s2 = s1 * 512,
 * v1 = vld [s2] from [0, 16384), v2 = v1 + v1, v3 = v2 * v1,
 * vst v3 to [s2 + 16384] in [16384, 32768), s1 += 1, p1 = s1 < T, br;
 * after: vst v2 (the last iteration's, a local register read after the
 * loop) and halt.  Ranges given when 'tagged'.
 */
static LFunc *
loop_func(Arena *a, const MachPreset *mp, int T, int tagged, int *loop)
{
	LFunc *f = llo_new_func(a, mp, "loop");
	int s1 = llo_new_reg(f, LC_S), s2 = llo_new_reg(f, LC_S);
	int s9 = llo_new_reg(f, LC_S), p1 = llo_new_reg(f, LC_P);
	int v1 = llo_new_reg(f, LC_V), v2 = llo_new_reg(f, LC_V);
	int v3 = llo_new_reg(f, LC_V), b, out;
	int32_t lo = 0, mid = tagged ? 16384 : 0, hi = tagged ? 32768 : 0;
	LIns *in;

	llo_add(f, 0, OP_SMOVI, s1, 0, 0, 0)->imm = 0;
	llo_add(f, 0, OP_SMOVI, s9, 0, 0, 0)->imm = 0;
	b = llo_new_blk(f);
	f->blk.v[b].trips = T;
	llo_add(f, b, OP_SMULI, s2, s1, 0, 0)->imm = 512;
	vmem(f, b, OP_VLD, v1, s2, 0, 0, lo, mid);
	llo_add(f, b, OP_VADDF, v2, v1, v1, 0);
	llo_add(f, b, OP_VMULF, v3, v2, v1, 0);
	vmem(f, b, OP_VST, 0, s2, v3, 16384, mid, hi);
	llo_add(f, b, OP_SADDI, s1, s1, 0, 0)->imm = 1;
	llo_add(f, b, OP_SCMPILT, p1, s1, 0, 0)->imm = T;
	in = llo_add(f, b, OP_BR, 0, 0, 0, 0);
	in->guard = p1;
	in->target = b;
	out = llo_new_blk(f);
	vmem(f, out, OP_VST, 0, s9, v2, 32768, 0, 0);
	llo_add(f, out, OP_HALT, 0, 0, 0, 0);
	*loop = b;
	return f;
}


/* The blocks the pass makes: a prologue in the loop's place, a kernel
   looping on itself, an epilogue falling into the old exit; the value
   read after the loop comes from the last iteration's copy. */
START_TEST(modulo_blocks)
{
	const MachPreset *mp = mach_preset(presets[_i]);
	Arena a = { 0 }, a2 = { 0 };
	int T, loop, loop2, i, nb;
	uint64_t c1, c2;

	for (T = 10; T <= 31; T += 7) {
		LFunc *f, *g;
		const LBlk *k;
		const LIns *last;
		memset(&a, 0, sizeof a);
		memset(&a2, 0, sizeof a2);
		f = loop_func(&a, mp, T, 1, &loop);
		g = loop_func(&a2, mp, T, 1, &loop2);
		nb = f->blk.n;
		ck_assert_int_eq(vliw_modulo(f), 1);
		ck_assert_int_eq(f->blk.n, nb + 2);
		k = &f->blk.v[loop + 1];
		last = &k->ins.v[k->ins.n - 1];
		if (last->op == OP_BR) {
			ck_assert_int_eq(last->target, loop + 1);
			ck_assert_int_ne(last->guard, 0);
		}
		for (i = 0; i < f->blk.v[loop].ins.n; i++)
			ck_assert_int_ne(f->blk.v[loop].ins.v[i].op, OP_BR);
		/* the loop's exit test is gone: nothing else reads p1 */
		for (i = 0; i < k->ins.n; i++)
			ck_assert_int_ne(k->ins.v[i].op, OP_SCMPILT);
		ck_assert_int_eq(f->blk.v[nb + 1].ins.v[0].op, OP_VST);
		c1 = vt_run_llo(f);
		c2 = vt_run_llo(g);
		printf("loop of %2d trips on %-5s: %4llu cycles pipelined, "
		    "%4llu not\n", T, mp->name, (unsigned long long)c1,
		    (unsigned long long)c2);
		ck_assert_uint_lt(c1, c2);
		arena_free(&a);
		arena_free(&a2);
	}
}
END_TEST

/* Two vector loads in a row in f's layout (no store between). */
static int
loads_overlap(const LFunc *f)
{
	int b, i, prev = -1, m;

	for (b = 0; b < f->blk.n; b++)
		for (i = 0; i < f->blk.v[b].ins.n; i++) {
			m = f->blk.v[b].ins.v[i].op;
			if (m != OP_VLD && m != OP_VST)
				continue;
			if (m == OP_VLD && prev == OP_VLD)
				return 1;
			prev = m;
		}
	return 0;
}

/* Without ranges, the store of one trip and the load of the next may
   alias: every load stays after the previous trip's store (the loop may
   still be pipelined around them).  With ranges, loads of later trips
   come before earlier trips' stores. */
START_TEST(modulo_needs_disjoint_memory)
{
	const MachPreset *mp = mach_preset(presets[_i]);
	Arena a = { 0 };
	int loop;
	LFunc *f = loop_func(&a, mp, 16, 0, &loop);

	vliw_modulo(f);
	ck_assert(!loads_overlap(f));
	arena_free(&a);
	memset(&a, 0, sizeof a);
	f = loop_func(&a, mp, 16, 1, &loop);
	ck_assert_int_eq(vliw_modulo(f), 1);
	ck_assert(loads_overlap(f));
	arena_free(&a);
}
END_TEST

/* Loops the pass leaves alone: unknown trips, an EUP op, a second way
   in, too few trips. */
START_TEST(modulo_refuses)
{
	const MachPreset *mp = mach_preset(presets[_i]);
	Arena a = { 0 };
	int loop, k;

	for (k = 0; k < 4; k++) {
		LFunc *f;
		memset(&a, 0, sizeof a);
		f = loop_func(&a, mp, 16, 1, &loop);
		LIns *in;
		switch (k) {
		case 0:
			f->blk.v[loop].trips = 0;
			break;
		case 1:
			in = &f->blk.v[loop].ins.v[2];
			in->op = OP_EEXP2;
			in->b = 0;
			break;
		case 2:
			in = llo_add(f, 0, OP_BR, 0, 0, 0, 0);
			in->target = loop;
			break;
		default:
			f->blk.v[loop].trips = 1;
			break;
		}
		ck_assert_msg(vliw_modulo(f) == 0, "case %d", k);
		ck_assert_int_eq(f->blk.n, 3);
		arena_free(&a);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("modulo");
	TCase *t = tcase_create("modulo");

	tcase_set_timeout(t, 600);
	tcase_add_loop_test(t, modulo_matches_interpret, 0, 2 * NEXPORT);
	tcase_add_loop_test(t, modulo_against_unpipelined, 0, 2 * NEXPORT);
	tcase_add_loop_test(t, modulo_where_it_applies, 0, 2);
	tcase_add_loop_test(t, modulo_blocks, 0, 2);
	tcase_add_loop_test(t, modulo_needs_disjoint_memory, 0, 2);
	tcase_add_loop_test(t, modulo_refuses, 0, 2);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_suite(suite());
}
