/*
 * check_vliw.c - the VLIW backend (backend/vliw/): the bundle scheduler
 * on hand-built LLO (slot limits, latencies, the immediate pool, the
 * control op last), register allocation on a small function, and end to
 * end: kernels compiled from source, run on the simulator through the
 * runtime API with every check on (a trap fails), compared with plain-C
 * references, under the small preset and v4; -S text re-assembles to
 * the same program.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/dsl.h"
#include "backend/vliw/vliw.h"
#include "pallas/runtime.h"

/* ------------------------------------------------------------ helpers */

static int
lat_of(const MachPreset *mp, const LIns *in)
{
	return mp->lat[mach_opinfo[in->op].lat];
}

/* Checks every bundle of f: slots per class and the pool. */
static void
check_bundles(const LFunc *f)
{
	int b, c, i, n;
	MachIns ins[64];
	char err[256];

	for (b = 0; b < f->blk.n; b++)
		for (c = 0; c < f->blk.v[b].nbundle; c++) {
			n = 0;
			for (i = 0; i < f->blk.v[b].ins.n; i++) {
				const LIns *x = &f->blk.v[b].ins.v[i];
				int slot[NMACHUNIT + 1] = { 0 };
				if (x->cycle != c)
					continue;
				(void)slot;
				memset(&ins[n], 0, sizeof ins[n]);
				ins[n].op = (uint8_t)x->op;
				ins[n].d = (uint8_t)(x->d & 7);
				ins[n].a = (uint8_t)(x->a & 7);
				ins[n].b = (uint8_t)(x->b & 7);
				ins[n].c = (uint8_t)(x->c & 7);
				if (llo_field_class(x->op, FLD_D) == LC_P &&
				    ins[n].d == 0)
					ins[n].d = 1;
				ins[n].imm = x->imm;
				n++;
			}
			/* sort by unit for the slot check */
			for (i = 1; i < n; i++) {
				MachIns t = ins[i];
				int j = i;
				while (j > 0 && mach_opinfo[ins[j - 1].op].unit >
				    mach_opinfo[t.op].unit) {
					ins[j] = ins[j - 1];
					j--;
				}
				ins[j] = t;
			}
			ck_assert_msg(mach_bundle_check(f->mp, ins, n, err,
			    sizeof err) == MACH_OK, "bundle %d.%d: %s", b, c, err);
		}
}

/* ------------------------------------------------------------ sched */

START_TEST(sched_packs_within_slots)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("v4");
	LFunc *f = llo_new_func(&a, mp, "t");
	int i, v[12], s = llo_new_reg(f, LC_S), cyc[NMACHUNIT] = { 0 };
	int per[256][NMACHUNIT];
	LIns *in;

	memset(per, 0, sizeof per);
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 0;
	/* 8 independent loads, 8 adds on them: 1 vld slot, 2 VALU slots */
	for (i = 0; i < 8; i++) {
		v[i] = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, v[i], s, 0, 0);
		in->imm = 4096 * i;
		in->x = 0x1ff;
	}
	for (i = 0; i < 8; i++)
		llo_add(f, 0, OP_VADDF, llo_new_reg(f, LC_V), v[i], v[i], 0);
	vliw_sched(f);
	check_bundles(f);
	for (i = 0; i < f->blk.v[0].ins.n; i++) {
		const LIns *x = &f->blk.v[0].ins.v[i];
		ck_assert_int_lt(x->cycle, 256);
		per[x->cycle][mach_opinfo[x->op].unit]++;
		cyc[mach_opinfo[x->op].unit]++;
	}
	for (i = 0; i < 256; i++) {
		ck_assert_int_le(per[i][U_VLD], mp->slots[U_VLD]);
		ck_assert_int_le(per[i][U_VALU], mp->slots[U_VALU]);
	}
	/* loads are the bottleneck: 1 + 8 loads, last add 2 later */
	ck_assert_int_eq(cyc[U_VLD], 8);
	ck_assert_int_le(f->blk.v[0].nbundle, 1 + 8 + mp->lat[LAT_VLD] +
	    mp->lat[LAT_VALU]);
	arena_free(&a);
}
END_TEST

START_TEST(sched_honours_latencies)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "t");
	int s = llo_new_reg(f, LC_S), v1 = llo_new_reg(f, LC_V);
	int v2 = llo_new_reg(f, LC_V), v3 = llo_new_reg(f, LC_V);
	int b, i, j, k;
	LIns *in;

	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 64;
	in = llo_add(f, 0, OP_VLD, v1, s, 0, 0);
	in->x = 0x1ff;
	llo_add(f, 0, OP_VMULF, v2, v1, v1, 0);
	llo_add(f, 0, OP_VADDF, v3, v2, v1, 0);
	in = llo_add(f, 0, OP_VST, 0, s, v3, 0);
	in->imm = 512;
	in->x = 0x1ff;
	in = llo_add(f, 0, OP_VLD, v1, s, 0, 0);	/* WAR on v1, RAW mem */
	in->imm = 512;
	in->x = 0x1ff;
	llo_add(f, 0, OP_EEXP2, 0, v1, 0, 0);
	llo_add(f, 0, OP_EPOP, v2, 0, 0, 0);
	b = llo_new_blk(f);
	llo_add(f, b, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	check_bundles(f);
	/* every RAW pair: consumer >= producer + latency (same block) */
	for (i = 0; i < f->blk.v[0].ins.n; i++)
		for (j = 0; j < f->blk.v[0].ins.n; j++) {
			const LIns *p = &f->blk.v[0].ins.v[i];
			const LIns *c = &f->blk.v[0].ins.v[j];
			LClass cl = llo_field_class(p->op, FLD_D);
			if (cl == LC_NONE || c->cycle <= p->cycle)
				continue;
			for (k = FLD_A; k <= FLD_C; k++) {
				int r = k == FLD_A ? c->a : k == FLD_B ? c->b : c->c;
				if (llo_field_class(c->op, k) == cl && r == p->d)
					ck_assert_int_ge(c->cycle, p->cycle +
					    lat_of(mp, p));
			}
		}
	/* the store before the reload, by the store latency */
	{
		int st = -1, ld = -1, push = -1, pop = -1;
		for (i = 0; i < f->blk.v[0].ins.n; i++) {
			const LIns *x = &f->blk.v[0].ins.v[i];
			if (x->op == OP_VST)
				st = x->cycle;
			if (x->op == OP_VLD && x->imm == 512)
				ld = x->cycle;
			if (x->op == OP_EEXP2)
				push = x->cycle;
			if (x->op == OP_EPOP)
				pop = x->cycle;
		}
		ck_assert_int_ge(ld, st + mp->lat[LAT_VST]);
		ck_assert_int_ge(pop, push + mp->lat[LAT_EUP]);
		/* the block drains: the pop's result is ready at its end */
		ck_assert_int_ge(f->blk.v[0].nbundle, pop + mp->lat[LAT_POP]);
	}
	arena_free(&a);
}
END_TEST

START_TEST(sched_immediate_pool)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("v4");
	LFunc *f = llo_new_func(&a, mp, "t");
	int i, c, n;
	LIns *in;

	for (i = 0; i < 20; i++) {
		in = llo_add(f, 0, OP_VBCASTI, llo_new_reg(f, LC_V), 0, 0, 0);
		in->imm = 1000 + i;
	}
	vliw_sched(f);
	for (c = 0; c < f->blk.v[0].nbundle; c++) {
		for (n = i = 0; i < f->blk.v[0].ins.n; i++)
			n += f->blk.v[0].ins.v[i].cycle == c;
		ck_assert_int_le(n, mp->slots[U_VALU]);
		ck_assert_int_le(n, mp->nimm);
	}
	check_bundles(f);
	arena_free(&a);
}
END_TEST

/* ------------------------------------------------------------ regalloc */

START_TEST(regalloc_small_function)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "t");
	Diag d;
	int s = llo_new_reg(f, LC_S), i, acc = llo_new_reg(f, LC_V), t, x;
	int maxv = -1;
	LIns *in;

	diag_init(&d, NULL, stderr);
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	in->imm = 0;
	in = llo_add(f, 0, OP_VBCASTI, acc, 0, 0, 0);
	/* 40 short-lived values: more than 16 vregs in total, few live
	   (each load waits for the previous store to the same row) */
	for (i = 0; i < 40; i++) {
		x = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, x, s, 0, 0);
		in->imm = 512;
		in->x = 0x1ff;
		t = llo_new_reg(f, LC_V);
		llo_add(f, 0, OP_VADDF, t, acc, x, 0);
		in = llo_add(f, 0, OP_VST, 0, s, t, 0);
		in->imm = 512;
		in->x = 0x1ff;
		acc = t;
	}
	in = llo_add(f, 0, OP_VST, 0, s, acc, 0);
	in->imm = 1024;
	in->x = 0x1ff;
	llo_add(f, 0, OP_HALT, 0, 0, 0, 0);
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	ck_assert(f->allocated);
	for (i = 0; i < f->blk.v[0].ins.n; i++) {
		const LIns *x2 = &f->blk.v[0].ins.v[i];
		if (llo_field_class(x2->op, FLD_D) == LC_V && x2->d > maxv)
			maxv = x2->d;
	}
	ck_assert_int_lt(maxv, mp->nvreg);
	/* and the program it makes runs without a trap */
	{
		MachProgram *p;
		LFunc *fs[1] = { f };
		ck_assert_int_eq(vliw_emit(fs, 1, mp, NULL, &d, &p), 0);
		ck_assert_int_gt(p->nbundle, 0);
		mach_program_free(p);
	}
	arena_free(&a);
}
END_TEST

START_TEST(regalloc_reports_pressure)
{
	Arena a = { 0 };
	const MachPreset *mp = mach_preset("small");
	LFunc *f = llo_new_func(&a, mp, "big");
	Diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int s = llo_new_reg(f, LC_S), i, v[40];
	LIns *in;

	diag_init(&d, NULL, out);
	in = llo_add(f, 0, OP_SMOVI, s, 0, 0, 0);
	for (i = 0; i < 40; i++) {	/* 40 values live at once */
		v[i] = llo_new_reg(f, LC_V);
		in = llo_add(f, 0, OP_VLD, v[i], s, 0, 0);
		in->x = 0x1ff;
	}
	for (i = 0; i < 40; i++) {
		in = llo_add(f, 0, OP_VST, 0, s, v[i], 0);
		in->x = 0x1ff;
	}
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), -1);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "kernel 'big' needs more than 16 "
	    "vector registers"));
	free(text);
	arena_free(&a);
}
END_TEST

/* ------------------------------------------------------------ end to end */

typedef struct Fx {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	char *text;
	size_t len;
	FILE *out;
	MachProgram *prog;
} Fx;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* Compiles text for preset to a program (f->prog); 0, or -1 with the
   diagnostics in f->text. */
static int
compile(Fx *f, const char *text, const char *preset)
{
	const MachPreset *mp = mach_preset(preset);
	CheckedModule *cm;
	TModule *tm;
	Ast *ast;
	char m[64];

	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	f->pp = pp_new(&f->d, &f->strs, &f->a);
	snprintf(m, sizeof m, "__PK_LANES__=%d", mp->lanes);
	pp_define_cmdline(f->pp, m);
	snprintf(m, sizeof m, "__PK_SUBLANES__=%d", mp->sublanes);
	pp_define_cmdline(f->pp, m);
	ck_assert_int_eq(pp_push_text(f->pp, "<test>", text, strlen(text)), 0);
	ast = parse_module(pp_source, f->pp, &f->d, &f->a);
	cm = sema_check(ast, mp, &f->d, &f->a);
	if (f->d.nerror || mosaic_lower(cm, mp, &f->d, &f->a, &tm) ||
	    vliw_compile(tm, mp, &f->d, &f->a, &f->prog)) {
		fflush(f->out);
		return -1;
	}
	fflush(f->out);
	return 0;
}

static void
fx_free(Fx *f)
{
	mach_program_free(f->prog);
	pp_free(f->pp);
	fclose(f->out);
	free(f->text);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

/* Runs entry of f->prog on a fresh device; returns the cycles. */
static uint64_t
run(Fx *f, const char *preset, const char *entry, void *const *bufs,
    size_t n)
{
	PallasDevice *dev;
	PallasProgram *pg;
	PallasStats st;
	PallasTrap tr;
	void *img;
	size_t len;
	char err[256];
	int rc;

	ck_assert_int_eq(mach_image_write(f->prog, &img, &len, err,
	    sizeof err), MACH_OK);
	ck_assert_int_eq(pallas_device_open(preset, &dev), PALLAS_OK);
	pallas_device_set_poison(dev, PALLAS_POISON_NAN);
	ck_assert_msg(pallas_program_load(dev, img, len, &pg) == PALLAS_OK,
	    "%s", pallas_last_error(dev));
	rc = pallas_call(dev, pg, entry, bufs, n);
	pallas_last_trap(dev, &tr);
	ck_assert_msg(rc == PALLAS_OK, "%s: %s", pallas_last_error(dev),
	    tr.message);
	pallas_last_stats(dev, &st);
	pallas_program_free(pg);
	pallas_device_close(dev);
	free(img);
	return st.c.cycles;
}

/* -S text re-assembles to the same program image. */
static void
check_roundtrip(Fx *f)
{
	MachProgram *q;
	char *text, err[2048];
	size_t len, l1, l2;
	void *i1, *i2;
	uint32_t i;

	ck_assert_int_eq(mach_disasm(f->prog, &text, &len), MACH_OK);
	ck_assert_msg(mach_asm("<S>", text, len, NULL, &q, err, sizeof err) ==
	    MACH_OK, "%s", err);
	ck_assert_int_eq(q->nbundle, f->prog->nbundle);
	ck_assert_int_eq(q->nins, f->prog->nins);
	for (i = 0; i < q->nins; i++) {
		const MachIns *x = &q->ins[i], *y = &f->prog->ins[i];
		ck_assert_msg(x->op == y->op && x->guard == y->guard &&
		    x->gneg == y->gneg && x->d == y->d && x->a == y->a &&
		    x->b == y->b && x->c == y->c && x->x == y->x &&
		    x->imm == y->imm, "ins %u (%s) differs after -S: imm %d/%d "
		    "x %u/%u", i, mach_opinfo[y->op].name, x->imm, y->imm, x->x,
		    y->x);
	}
	ck_assert_int_eq(mach_image_write(f->prog, &i1, &l1, err, sizeof err),
	    MACH_OK);
	ck_assert_int_eq(mach_image_write(q, &i2, &l2, err, sizeof err),
	    MACH_OK);
	/* the same code, entries and operands; the string table may differ */
	ck_assert_int_eq(q->nentry, f->prog->nentry);
	ck_assert_int_eq(q->nopnd, f->prog->nopnd);
	free(i1);
	free(i2);
	free(text);
	mach_program_free(q);
}

static const char axpb_src[] =
"kernel axpb(x: f32[64, 128], out y: f32[64, 128])\n"
"grid (i: 8)\n"
"blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }\n"
"{\n"
"    y[...] = x[...] * 2.0 + 1.0;\n"
"}\n"
"export axpb;\n";

static const char relu_src[] =
"kernel relu(x: f32[64, 128], out y: f32[64, 128])\n"
"grid (i: 4)\n"
"blocks { x: [16, 128] at (i, 0); y: [16, 128] at (i, 0); }\n"
"{\n"
"    y[...] = max(x[...], 0.0);\n"
"}\n"
"export relu;\n";

static const char mix_src[] =
"kernel mix(x: f32[32, 128], z: f32[32, 128], out y: f32[32, 128])\n"
"grid (i: 2)\n"
"blocks { x: [16, 128] at (i, 0); z: [16, 128] at (i, 0);\n"
"    y: [16, 128] at (i, 0); }\n"
"{\n"
"    let a = x[...] - z[...];\n"
"    y[...] = where(a > 0.5, a * a, min(a, z[...]) + 3.0);\n"
"}\n"
"export mix;\n";

static const char one_src[] =
"kernel one(x: f32[8, 128], out y: f32[8, 128])\n"
"{\n"
"    y[...] = x[...] * x[...] - 1.5;\n"
"}\n"
"export one;\n";

/* [48, 256] blocks exceed the vreg budget on both presets: the body
   runs as loops over row chunks through a VMEM home */
static const char chunk_src[] =
"kernel chunk(x: f32[192, 256], out z: f32[192, 256])\n"
"grid (i: 4)\n"
"blocks { x: [48, 256] at (i, 0); z: [48, 256] at (i, 0); }\n"
"{\n"
"    let s = x[...] * 2.0 - 1.0;\n"
"    z[...] = where(s <= 0.0, 0.0, s) + iota([48, 256], 0) as f32;\n"
"}\n"
"export chunk;\n";

static const char *const presets[] = { "small", "v4" };

static float *
fill(int64_t n, int seed)
{
	float *x = xmalloc((size_t)n * sizeof *x);
	int64_t i;

	for (i = 0; i < n; i++)
		x[i] = (float)((i * 37 + seed * 11) % 97) / 16.0f - 3.0f;
	return x;
}

static void
e2e_unary(const char *src, const char *name, int64_t n, int which)
{
	size_t k;

	for (k = 0; k < countof(presets); k++) {
		Fx f;
		float *x = fill(n, 1), *y = xcalloc((size_t)n, sizeof *y);
		void *b[2] = { x, y };
		uint64_t cyc;
		int64_t i;

		ck_assert_msg(compile(&f, src, presets[k]) == 0, "%s: %s",
		    presets[k], f.text);
		cyc = run(&f, presets[k], name, b, 2);
		for (i = 0; i < n; i++) {
			float s = x[i] * 2.0f - 1.0f;
			float want = which == 0 ? x[i] * 2.0f + 1.0f :
			    which == 1 ? fmaxf(x[i], 0.0f) :
			    which == 2 ? x[i] * x[i] - 1.5f :
			    (s <= 0.0f ? 0.0f : s) + (float)(i / 256 % 48);
			ck_assert_msg(y[i] == want, "%s %s: y[%lld] = %g, want "
			    "%g", name, presets[k], (long long)i, y[i], want);
		}
		check_roundtrip(&f);
		printf("check_vliw: %s on %s: %llu cycles, %u bundles\n", name,
		    presets[k], (unsigned long long)cyc, f.prog->nbundle);
		fx_free(&f);
		free(x);
		free(y);
	}
}

START_TEST(e2e_axpb)
{
	e2e_unary(axpb_src, "axpb", 64 * 128, 0);
}
END_TEST

START_TEST(e2e_relu)
{
	e2e_unary(relu_src, "relu", 64 * 128, 1);
}
END_TEST

START_TEST(e2e_single_step)
{
	e2e_unary(one_src, "one", 8 * 128, 2);
}
END_TEST

START_TEST(e2e_chunk_loops)
{
	e2e_unary(chunk_src, "chunk", 192 * 256, 3);
}
END_TEST

START_TEST(e2e_mix)
{
	size_t k;
	int64_t n = 32 * 128, i;

	for (k = 0; k < countof(presets); k++) {
		Fx f;
		float *x = fill(n, 1), *z = fill(n, 5);
		float *y = xcalloc((size_t)n, sizeof *y);
		void *b[3] = { x, z, y };
		uint64_t cyc;

		ck_assert_msg(compile(&f, mix_src, presets[k]) == 0, "%s: %s",
		    presets[k], f.text);
		cyc = run(&f, presets[k], "mix", b, 3);
		for (i = 0; i < n; i++) {
			float a = x[i] - z[i];
			float want = a > 0.5f ? a * a : fminf(a, z[i]) + 3.0f;
			ck_assert_msg(y[i] == want, "mix %s: y[%lld] = %g, want "
			    "%g", presets[k], (long long)i, y[i], want);
		}
		check_roundtrip(&f);
		printf("check_vliw: mix on %s: %llu cycles, %u bundles\n",
		    presets[k], (unsigned long long)cyc, f.prog->nbundle);
		fx_free(&f);
		free(x);
		free(z);
		free(y);
	}
}
END_TEST

START_TEST(e2e_unsupported_is_reported)
{
	Fx f;

	ck_assert_int_eq(compile(&f,
	    "kernel t(x: f32[8, 128], out y: f32[8, 128])\n"
	    "{ y[...] = broadcast(x[0:1, :], [8, 128]); }\n"
	    "export t;\n", "small"), -1);
	ck_assert_ptr_nonnull(strstr(f.text, "the VLIW backend cannot lower"));
	ck_assert_ptr_nonnull(strstr(f.text, "kernel 't'"));
	fx_free(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vliw");
	TCase *t = tcase_create("sched");

	tcase_add_test(t, sched_packs_within_slots);
	tcase_add_test(t, sched_honours_latencies);
	tcase_add_test(t, sched_immediate_pool);
	suite_add_tcase(s, t);
	t = tcase_create("regalloc");
	tcase_add_test(t, regalloc_small_function);
	tcase_add_test(t, regalloc_reports_pressure);
	suite_add_tcase(s, t);
	t = tcase_create("e2e");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, e2e_single_step);
	tcase_add_test(t, e2e_axpb);
	tcase_add_test(t, e2e_relu);
	tcase_add_test(t, e2e_mix);
	tcase_add_test(t, e2e_chunk_loops);
	tcase_add_test(t, e2e_unsupported_is_reported);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int nf;

	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
