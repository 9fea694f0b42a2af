/*
 * check_pipeline.c - the Mosaic pipeline plan and allocation
 * (backend/mosaic/plan.c, alloc.c): which copies start, wait or are
 * skipped at which grid step for a constant-index input, a reduction
 * accumulator output (matmul) and the Splash data_next indirection with
 * skipped blocks; the plan's copy counts against interpret mode's on the
 * same kernels and tables; the layout (alignment, no overlap, budgets,
 * sync flags).
 *
 * The .pk files are read from $top_srcdir (kernels/, tests/interp/).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/mosaic/plan.h"
#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "kernels/splash/splash_host.h"
#include "tests/unit/splashmask.h"

typedef struct Fixture {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	CheckedModule *m;
	char *text;		/* diagnostics printed */
	size_t len;
	FILE *out;
} Fixture;

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* Parses and checks a file of top_srcdir (path) or text, for preset. */
static void
load(Fixture *f, const char *path, const char *text, const char *preset)
{
	const MachPreset *mp = mach_preset(preset);
	const char *top = getenv("top_srcdir");
	char full[1024];
	Ast *ast;

	memset(f, 0, sizeof *f);
	srcmgr_init(&f->sm);
	strtab_init(&f->strs, &f->a);
	f->out = open_memstream(&f->text, &f->len);
	diag_init(&f->d, &f->sm, f->out);
	f->pp = pp_new(&f->d, &f->strs, &f->a);
	sema_predefine(f->pp, mp);	/* as pallasc does */
	if (path) {
		snprintf(full, sizeof full, "%s/%s", top ? top : ".", path);
		ck_assert_int_eq(pp_push_file(f->pp, full), 0);
	} else {
		ck_assert_int_eq(pp_push_text(f->pp, "<test>", text,
		    strlen(text)), 0);
	}
	ast = parse_module(pp_source, f->pp, &f->d, &f->a);
	f->m = sema_check(ast, mp, &f->d, &f->a);
	fflush(f->out);
	ck_assert_msg(f->d.nerror == 0, "%s: %s", path ? path : "<test>",
	    f->text);
}

static const char *
diags(Fixture *f)
{
	fflush(f->out);
	return f->text ? f->text : "";
}

static void
unload(Fixture *f)
{
	pp_free(f->pp);
	fclose(f->out);
	free(f->text);
	strtab_free(&f->strs);
	srcmgr_free(&f->sm);
	arena_free(&f->a);
}

static const CKernel *
kernel_named(Fixture *f, const char *name)
{
	int i;

	for (i = 0; i < f->m->nexport; i++)
		if (strcmp(f->m->exp[i].cname, name) == 0) {
			ck_assert_ptr_nonnull(f->m->exp[i].kernel);
			return f->m->exp[i].kernel;
		}
	ck_abort_msg("no export '%s'", name);
	return NULL;
}

static int
op_named(const CKernel *k, const char *name)
{
	int i;

	for (i = 0; i < k->nop; i++)
		if (strcmp(k->op[i].name, name) == 0)
			return i;
	ck_abort_msg("no operand '%s'", name);
	return -1;
}

/* Events of operand op of the given kind among e[0 .. n). */
static int
count_ev(const PlanEv *e, int n, int op, PlanEvKind kind)
{
	int j, c = 0;

	for (j = 0; j < n; j++)
		c += e[j].op == op && e[j].kind == kind;
	return c;
}

/* The first such event, or NULL. */
static const PlanEv *
find_ev(const PlanEv *e, int n, int op, PlanEvKind kind)
{
	int j;

	for (j = 0; j < n; j++)
		if (e[j].op == op && e[j].kind == kind)
			return &e[j];
	return NULL;
}

static int
pre_n(const MosaicPlan *p, int64_t s, int op, PlanEvKind kind)
{
	return count_ev(p->ev + p->step[s].pre, p->step[s].npre, op, kind);
}

static int
post_n(const MosaicPlan *p, int64_t s, int op, PlanEvKind kind)
{
	return count_ev(p->ev + p->step[s].post, p->step[s].npost, op, kind);
}

/* ------------------------------------------------------ constant index */

static const char addb_src[] =
    "kernel addb<M, N>(x: f32[M, N], b: f32[8, N], w: f32[M, N],\n"
    "    out y: f32[M, N])\n"
    "grid (i: M / 8)\n"
    "semantics (parallel)\n"
    "blocks {\n"
    "    x: [8, N] at (i, 0);\n"
    "    b: [8, N] at (0, 0);\n"
    "    w: [8, N] at (i, 0) buffers 1;\n"
    "    y: [8, N] at (i, 0);\n"
    "}\n"
    "{ y[...] = x[...] + b[...] + w[...]; }\n"
    "export addb<32, 128> as addb_small;\n";

START_TEST(constant_index_input)
{
	Fixture f;
	const CKernel *k;
	MosaicPlan *p;
	int x, b, w, y;
	int64_t s;

	load(&f, NULL, addb_src, NULL);
	k = kernel_named(&f, "addb_small");
	x = op_named(k, "x");
	b = op_named(k, "b");
	w = op_named(k, "w");
	y = op_named(k, "y");
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->nstep, 4);
	ck_assert(p->concrete && p->enumerated);
	/* b: constant, one buffer, fetched once in the prologue */
	ck_assert(p->op[b].constant);
	ck_assert_int_eq(p->op[b].nbuf, 1);
	ck_assert_int_eq(p->op[b].copies_in, 1);
	ck_assert_int_eq(count_ev(p->pro, p->npro, b, PE_IN_START), 1);
	ck_assert_int_eq(pre_n(p, 0, b, PE_IN_WAIT), 1);
	for (s = 1; s < 4; s++) {
		ck_assert_int_eq(plan_cell(p, s, b)->change, 0);
		ck_assert_int_eq(pre_n(p, s, b, PE_IN_START) +
		    pre_n(p, s, b, PE_IN_WAIT), 0);
	}
	/* x: two slots, the next block prefetched during each step */
	ck_assert(!p->op[x].constant);
	ck_assert_int_eq(p->op[x].nbuf, 2);
	ck_assert_int_eq(p->op[x].copies_in, 4);
	for (s = 0; s < 4; s++) {
		const PlanEv *e = find_ev(p->ev + p->step[s].pre,
		    p->step[s].npre, x, PE_IN_START);
		ck_assert_int_eq(plan_cell(p, s, x)->slot, (int)(s % 2));
		ck_assert_int_eq(plan_cell(p, s, x)->idx[0], s);
		ck_assert_int_eq(pre_n(p, s, x, PE_IN_WAIT), 1);
		if (s == 3) {
			ck_assert_ptr_null(e);
			continue;
		}
		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(e->step, s + 1);
		ck_assert_int_eq(e->slot, (int)((s + 1) % 2));
	}
	/* w: 'buffers 1': copied right before each body, not overlapped */
	ck_assert_int_eq(p->op[w].nbuf, 1);
	ck_assert_int_eq(p->op[w].copies_in, 4);
	for (s = 1; s < 4; s++) {
		const PlanEv *e = find_ev(p->ev + p->step[s].pre,
		    p->step[s].npre, w, PE_IN_START);
		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(e->step, s);
		ck_assert_int_eq(pre_n(p, s, w, PE_IN_WAIT), 1);
	}
	/* y: written back after every step; previous write-back waited */
	ck_assert_int_eq(p->op[y].copies_out, 4);
	for (s = 0; s < 4; s++) {
		ck_assert_int_eq(post_n(p, s, y, PE_OUT_START), 1);
		ck_assert_int_eq(post_n(p, s, y, PE_OUT_WAIT), s > 0);
	}
	ck_assert_int_eq(count_ev(p->epi, p->nepi, y, PE_OUT_WAIT), 1);
	ck_assert_int_eq(p->epi[0].step, 3);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------ matmul */

START_TEST(matmul_accumulator)
{
	Fixture f;
	const CKernel *k;
	MosaicPlan *p;
	int x, y, z;
	int64_t s, nk;

	load(&f, "tests/interp/matmul_small.pk", NULL, NULL);
	k = kernel_named(&f, "matmul_small");
	x = op_named(k, "x");
	y = op_named(k, "y");
	z = op_named(k, "z");
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	ck_assert_ptr_nonnull(p);
	nk = k->axis[2].extent;
	ck_assert_int_eq(p->nstep, k->axis[0].extent * k->axis[1].extent *
	    nk);
	ck_assert(p->concrete);
	/* the k axis moves x and y at every step */
	ck_assert_int_eq(p->op[x].copies_in, p->nstep);
	ck_assert_int_eq(p->op[y].copies_in, p->nstep);
	/* z: one write-back per (i, j), after its last k step */
	ck_assert_int_eq(p->op[z].nbuf, 2);
	ck_assert_int_eq(p->op[z].copies_out, p->nstep / nk);
	for (s = 0; s < p->nstep; s++) {
		const PlanCell *c = plan_cell(p, s, z);
		int last = s % nk == nk - 1;
		ck_assert_int_eq(c->change, s % nk == 0);
		ck_assert_int_eq(c->slot, (int)(s / nk % 2));
		ck_assert_int_eq(post_n(p, s, z, PE_OUT_START), last);
		ck_assert_int_eq(post_n(p, s, z, PE_OUT_WAIT),
		    last && s >= nk);
		ck_assert_int_eq(pre_n(p, s, z, PE_IN_START), 0);
	}
	ck_assert_int_eq(p->nepi, 1);
	ck_assert_int_eq(p->epi[0].step, p->nstep - 1);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------ splash */

/* block_mask, data_next of a splash export, causal. */
static void
causal(const CKernel *k, int32_t **bm, int32_t **dn)
{
	int ib = op_named(k, "block_mask");
	int64_t n = shape_numel(&k->op[ib].shape);

	*bm = xmalloc((size_t)n * sizeof(int32_t));
	*dn = xmalloc((size_t)n * sizeof(int32_t));
	ck_assert_int_eq(splash_causal_tables((int)sema_param(k, "H"),
	    (int)sema_param(k, "SQ"), (int)sema_param(k, "BQ"),
	    (int)sema_param(k, "BKV"),
	    *bm, *dn), 0);
}

START_TEST(splash_skipped_blocks)
{
	Fixture f;
	const CKernel *k;
	const int32_t *tab[16] = {0};
	int32_t *bm, *dn;
	MosaicPlan *p;
	int ik, iv, iq, skipped = 0, dyn;
	int64_t s, H, KVH, nq, nk;

	load(&f, "kernels/splash/splash.pk", NULL, NULL);
	k = kernel_named(&f, "splash_fwd_h4_s512");
	ck_assert_int_lt(k->nop, 16);
	causal(k, &bm, &dn);
	tab[op_named(k, "block_mask")] = bm;
	tab[op_named(k, "data_next")] = dn;
	ik = op_named(k, "k");
	iv = op_named(k, "v");
	iq = op_named(k, "q");
	H = sema_param(k, "H");
	KVH = sema_param(k, "KVH");
	nq = k->axis[1].extent;
	nk = k->axis[2].extent;
	p = mosaic_plan(k, tab, &f.d, &f.a);
	ck_assert_msg(p != NULL, "%s", diags(&f));
	ck_assert(p->concrete);
	ck_assert(p->op[ik].dynamic && !p->op[iq].dynamic);
	ck_assert_int_eq(p->op[ik].copies_in, splash_kv_fetches((int)H,
	    (int)KVH, (int)nq, (int)nk, dn));
	ck_assert_int_eq(p->op[iv].copies_in, p->op[ik].copies_in);
	ck_assert_int_lt(p->op[ik].copies_in, p->nstep);
	/* the tables come in first */
	ck_assert_int_eq(p->pro[0].kind, PE_TABLE_START);
	ck_assert_int_eq(p->tables, 3);	/* data_next, block_mask, mask_desc */
	for (s = 0; s < p->nstep; s++) {
		const PlanCell *c = plan_cell(p, s, ik);
		int j;
		ck_assert_int_eq(c->idx[1], dn[s]);
		if (bm[s] != SPLASH_EMPTY || s == 0)
			continue;
		/* a skipped step fetches nothing for itself */
		skipped++;
		ck_assert_int_eq(c->change, 0);
		ck_assert_int_eq(pre_n(p, s, ik, PE_IN_WAIT), 0);
		for (j = 0; j < p->nev; j++)
			ck_assert(!(p->ev[j].op == ik && p->ev[j].step == s &&
			    p->ev[j].kind == PE_IN_START));
	}
	ck_assert_int_gt(skipped, 0);
	/* without the tables: the same layout, copies decided at run time */
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	ck_assert_ptr_nonnull(p);
	ck_assert(!p->concrete);
	ck_assert_int_eq(p->op[ik].nbuf, 2);
	ck_assert_int_eq(p->op[ik].copies_in, -1);
	ck_assert_int_eq(p->op[iq].copies_in, H * nq);
	/* h 0 -> 1 keeps KV head 0 (unknown), h 1 -> 2 moves to head 1 */
	dyn = (int)(nq * nk);
	ck_assert_int_eq(plan_cell(p, dyn, ik)->change, -1);
	ck_assert_int_eq(plan_cell(p, 2 * dyn, ik)->change, 1);
	ck_assert_int_eq(plan_cell(p, 2 * dyn, ik)->slot, -1);
	ck_assert(find_ev(p->ev + p->step[1].pre, p->step[1].npre, ik,
	    PE_IN_WAIT)->cond);
	free(bm);
	free(dn);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------ agreement */

static const char revisit_src[] =
    "kernel rv<N>(x: f32[N, 128], out z: f32[16, 128])\n"
    "grid (i: N / 8)\n"
    "semantics (arbitrary)\n"
    "blocks { x: [8, 128] at (i, 0); z: [8, 128] at (i % 2, 0) buffers 1; }\n"
    "params { revisit: z; }\n"
    "{ z[...] = x[...]; }\n"
    "export rv<48> as rv6;\n";

/*
 * Runs k in interpret mode (random inputs, tables as given) and checks
 * that the plan's copy counts equal its copy_in / copy_out per operand.
 */
static void
agree(Fixture *f, const CKernel *k, const int32_t *const *tab)
{
	InterpBuf *b = xcalloc((size_t)k->nop, sizeof *b);
	int64_t *in = xcalloc((size_t)k->nop, sizeof(int64_t));
	int64_t *out = xcalloc((size_t)k->nop, sizeof(int64_t));
	InterpStats st = { 0, in, out, 0 };
	InterpOptions o = {0};
	MosaicPlan *p = mosaic_plan(k, tab, &f->d, &f->a);
	int i;

	ck_assert_msg(p != NULL, "%s", diags(f));
	ck_assert(p->concrete);
	for (i = 0; i < k->nop; i++) {
		interp_buf_alloc(&b[i], k->op[i].name, k->op[i].dtype,
		    &k->op[i].shape);
		if (k->op[i].role == ROLE_IN)
			interp_fill(&b[i], INTERP_RANDOM, (uint64_t)i);
		if (tab && tab[i])
			memcpy(b[i].data, tab[i], (size_t)shape_numel(
			    &k->op[i].shape) * sizeof(int32_t));
	}
	o.stats = &st;
	ck_assert_msg(interp_kernel(k, b, k->nop, &o, &f->d) == 0, "%s",
	    diags(f));
	ck_assert_int_eq(st.steps, p->nstep);
	for (i = 0; i < k->nop; i++) {
		int64_t pi = p->op[i].windowed ? p->op[i].copies_in : 0;
		int64_t po = p->op[i].windowed ? p->op[i].copies_out : 0;
		ck_assert_msg(pi == in[i] && po == out[i], "%s.%s: plan in "
		    "%lld out %lld, interpret mode in %lld out %lld", k->name,
		    k->op[i].name, (long long)pi, (long long)po,
		    (long long)in[i], (long long)out[i]);
		interp_buf_free(&b[i]);
	}
	printf("agree %-20s steps %lld\n", k->name, (long long)p->nstep);
	free(b);
	free(in);
	free(out);
}

START_TEST(agree_matmul)
{
	static const char *const names[] = {
		"matmul_small", "matmul_f32_small", "matmul_bf16_small",
	};
	Fixture f;
	size_t i;

	load(&f, "tests/interp/matmul_small.pk", NULL, NULL);
	for (i = 0; i < countof(names); i++)
		agree(&f, kernel_named(&f, names[i]), NULL);
	unload(&f);
}
END_TEST

START_TEST(agree_splash)
{
	static const struct { const char *file, *name, *preset; } c[] = {
		{ "kernels/splash/splash.pk", "splash_fwd_small", "small" },
		{ "kernels/splash/splash.pk", "splash_fwd_small", NULL },
		{ "tests/interp/splash_shapes.pk", "splash_h4_kv2_s256",
		    NULL },
		{ "tests/interp/splash_shapes.pk", "splash_h4_kv1_s256",
		    NULL },
	};
	size_t i;

	for (i = 0; i < countof(c); i++) {
		Fixture f;
		const CKernel *k;
		const int32_t *tab[16] = {0};
		int32_t *bm, *dn, desc[10];
		load(&f, c[i].file, NULL, c[i].preset);
		k = kernel_named(&f, c[i].name);
		causal(k, &bm, &dn);
		export_desc_of(k, 0, desc);
		tab[op_named(k, "block_mask")] = bm;
		tab[op_named(k, "data_next")] = dn;
		tab[op_named(k, "mask_desc")] = desc;
		agree(&f, k, tab);
		free(bm);
		free(dn);
		unload(&f);
	}
}
END_TEST

START_TEST(agree_revisit)
{
	Fixture f;
	const CKernel *k;
	MosaicPlan *p;
	int z;

	load(&f, NULL, revisit_src, NULL);
	k = kernel_named(&f, "rv6");
	z = op_named(k, "z");
	agree(&f, k, NULL);
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	/* blocks 0 1 0 1 0 1: the last four entries read the block back */
	ck_assert_int_eq(p->op[z].copies_in, 4);
	ck_assert_int_eq(p->op[z].copies_out, 6);
	ck_assert_int_eq(plan_cell(p, 2, z)->revisit, 1);
	ck_assert_int_eq(plan_cell(p, 1, z)->revisit, 0);
	ck_assert_int_eq(pre_n(p, 2, z, PE_IN_START), 1);
	unload(&f);
}
END_TEST

/* A table that sends an index out of range is caught with tables. */
START_TEST(bad_table)
{
	Fixture f;
	const CKernel *k;
	const int32_t *tab[16] = {0};
	int32_t *bm, *dn;

	load(&f, "kernels/splash/splash.pk", NULL, "small");
	k = kernel_named(&f, "splash_fwd_small");
	causal(k, &bm, &dn);
	dn[5] = 1000;
	tab[op_named(k, "block_mask")] = bm;
	tab[op_named(k, "data_next")] = dn;
	ck_assert_ptr_null(mosaic_plan(k, tab, &f.d, &f.a));
	ck_assert_ptr_nonnull(strstr(diags(&f), "of 'k' is out of range"));
	ck_assert_ptr_nonnull(strstr(diags(&f), "h=0, i=0, j=5"));
	free(bm);
	free(dn);
	unload(&f);
}
END_TEST

/* ------------------------------------------------------ allocation */

/* Offsets aligned, rows disjoint per memory, totals within limits. */
static void
check_layout(const CKernel *k, const MosaicAlloc *al)
{
	int i, j;
	uint8_t used[256] = {0};

	ck_assert_int_le(al->vmem_used, al->vmem_limit);
	ck_assert_int_le(al->smem_used, al->smem_limit);
	ck_assert_int_le(al->nflag, al->flag_limit);
	/* the checks' budget counts blocks and scratch: a lower bound */
	ck_assert_int_ge(al->vmem_used, k->budget.vmem_used);
	for (i = 0; i < al->nrow; i++) {
		const AllocRow *r = &al->row[i];
		int64_t lo = r->offset, hi = r->offset + r->stride * r->nbuf;
		for (j = 0; j < r->nflag; j++) {
			ck_assert_int_lt(r->flag + j, 256);
			ck_assert_msg(!used[r->flag + j]++, "flag f%d twice",
			    r->flag + j);
		}
		if (r->mem == MEM_ANY)
			continue;
		ck_assert_int_ge(r->stride, r->bytes);
		ck_assert_int_eq(r->offset % (r->mem == MEM_VMEM ?
		    al->vmem_align : al->smem_align), 0);
		ck_assert_int_eq(r->stride % (r->mem == MEM_VMEM ?
		    al->vmem_align : al->smem_align), 0);
		for (j = 0; j < i; j++) {
			const AllocRow *q = &al->row[j];
			if (q->mem != r->mem)
				continue;
			ck_assert_msg(hi <= q->offset || lo >= q->offset +
			    q->stride * q->nbuf, "%s overlaps %s", r->name,
			    q->name);
		}
	}
	for (i = 0; i < k->nop; i++)
		ck_assert_int_eq(al->arg[i] % 8, 0);
}

START_TEST(alloc_layout)
{
	static const struct { const char *file, *name, *preset; } c[] = {
		{ "kernels/splash/splash.pk", "splash_fwd_small", "small" },
		{ "kernels/splash/splash.pk", "splash_fwd_h4_s512", NULL },
		{ "kernels/matmul/matmul.pk", "matmul_small", "small" },
		{ "kernels/matmul/matmul.pk", "matmul_2048", NULL },
	};
	AllocReq req[2] = { { "t0", 1000, 0 }, { "t1", 5000, 0 } };
	size_t i;

	for (i = 0; i < countof(c); i++) {
		Fixture f;
		const CKernel *k;
		MosaicPlan *p;
		MosaicAlloc *al;
		int r;
		load(&f, c[i].file, NULL, c[i].preset);
		k = kernel_named(&f, c[i].name);
		p = mosaic_plan(k, NULL, &f.d, &f.a);
		al = mosaic_alloc(k, p, req, 2, &f.d, &f.a);
		ck_assert_msg(al != NULL, "%s", diags(&f));
		check_layout(k, al);
		r = al->req_row[1];
		ck_assert_int_eq(al->row[r].bytes % al->vmem_align, 0);
		ck_assert_int_ge(al->row[r].bytes, 5000);
		for (r = 0; r < k->nop; r++)
			if (p->op[r].windowed)
				ck_assert_int_eq(al->row[al->op_row[r]].nbuf,
				    p->op[r].nbuf);
		unload(&f);
	}
}
END_TEST

START_TEST(alloc_budget)
{
	Fixture f;
	const CKernel *k;
	MosaicPlan *p;
	AllocReq big = { "%s_home", 0, 0 };

	load(&f, "kernels/matmul/matmul.pk", NULL, "small");
	k = kernel_named(&f, "matmul_small");
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	/* what is left under the limit fits exactly, one byte more not */
	ck_assert_ptr_nonnull(mosaic_alloc(k, p, NULL, 0, &f.d, &f.a));
	big.bytes = k->budget.vmem_limit -
	    mosaic_alloc(k, p, NULL, 0, &f.d, &f.a)->vmem_used;
	ck_assert_ptr_nonnull(mosaic_alloc(k, p, &big, 1, &f.d, &f.a));
	big.bytes++;
	ck_assert_ptr_null(mosaic_alloc(k, p, &big, 1, &f.d, &f.a));
	ck_assert_ptr_nonnull(strstr(diags(&f), "internal buffer "
	    "'%s_home' of kernel 'matmul' does not fit"));
	unload(&f);
}
END_TEST

START_TEST(alloc_flags)
{
	static const char src[] =
	    "kernel sems<N>(x: f32[N, 16], out y: f32[N, 16])\n"
	    "grid (i: N / 8)\n"
	    "blocks { x: [8, 16] at (i, 0); y: [8, 16] at (i, 0); }\n"
	    "scratch { s: dma_sem[13]; }\n"
	    "{ y[...] = x[...]; }\n"
	    "export sems<32> as sems32;\n";
	Fixture f;
	const CKernel *k;
	MosaicPlan *p;

	load(&f, NULL, src, "small");
	k = kernel_named(&f, "sems32");
	p = mosaic_plan(k, NULL, &f.d, &f.a);
	/* 2 + 2 block slots + 13 semaphores > the small preset's 16 */
	ck_assert_ptr_null(mosaic_alloc(k, p, NULL, 0, &f.d, &f.a));
	ck_assert_ptr_nonnull(strstr(diags(&f), "semaphore 's' of kernel "
	    "'sems' needs sync flags past the 16"));
	unload(&f);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *t = tcase_create("plan");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, constant_index_input);
	tcase_add_test(t, matmul_accumulator);
	tcase_add_test(t, splash_skipped_blocks);
	tcase_add_test(t, agree_matmul);
	tcase_add_test(t, agree_splash);
	tcase_add_test(t, agree_revisit);
	tcase_add_test(t, bad_table);
	tcase_add_test(t, alloc_layout);
	tcase_add_test(t, alloc_budget);
	tcase_add_test(t, alloc_flags);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
