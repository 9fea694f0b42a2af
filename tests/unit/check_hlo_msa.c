/*
 * check_hlo_msa.c - scheduling (graph/pass_schedule.c), buffer liveness
 * and assignment (graph/buffers.c), memory-space assignment with its
 * copy-start/copy-done pairs (graph/pass_msa.c) and the figures of
 * --emit=hlo-stats (graph/hlo_stats.c).
 */
#include "tests/unit/hlotest.h"

/* The f32 sum reducer the texts below share. */
#define ADD "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n" \
    "  ROOT s = f32[] add(a, b)\n}\n"

/* Position of the instruction called 'name' in c, or -1. */
static int
find(const HloComp *c, const char *name)
{
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (strcmp(c->instr.v[i]->name, name) == 0)
			return i;
	return -1;
}

/* Every operand comes before its user; the root is in range. */
static void
assert_topological(const HloModule *m)
{
	int j, i, k;

	for (j = 0; j < m->comp.n; j++) {
		const HloComp *c = m->comp.v[j];
		for (i = 0; i < c->instr.n; i++)
			for (k = 0; k < c->instr.v[i]->noperand; k++)
				ck_assert_int_lt(c->instr.v[i]->operand[k], i);
		ck_assert_int_lt(c->root, c->instr.n);
	}
}

static int64_t
entry_peak(const HloModule *m)
{
	Arena a = {0};
	HloBuffers b;
	int64_t p;

	hlo_buffers_build(&b, &a, hlo_entry(m));
	p = hlo_buffers_peak(&b);
	arena_free(&a);
	return p;
}

/*
 * Written in post-order: the 64 KiB broadcast x, the root's first
 * operand, comes first and stays live while y is computed and reduced.
 * Scheduling y and its reduce first needs less memory.
 */
static const char sched_text[] =
    "HloModule m\n"
    "\n"
    ADD
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,256]{1,0} parameter(0)\n"
    "  c = f32[] constant(1)\n"
    "  x = f32[64,256]{1,0} broadcast(c), dimensions={}\n"
    "  y = f32[8,256]{1,0} exponential(p)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[8]{0} reduce(y, z), dimensions={1}, to_apply=add\n"
    "  ROOT t = (f32[64,256]{1,0}, f32[8]{0}) tuple(x, r)\n"
    "}\n";

START_TEST(schedule_is_topological_and_memory_aware)
{
	HFx f;
	HloModule *m;
	int64_t before, after;
	const HloComp *c;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, sched_text);
	before = entry_peak(m);
	ck_assert_int_eq(hfx_pass(&f, m, "scheduling"), 1);
	assert_topological(m);
	after = entry_peak(m);
	/* p, x and y live together before; x comes after y's reduce now */
	ck_assert_int_eq(before, 8192 + 65536 + 8192 + 4 + 32);
	ck_assert_int_lt(after, before);
	c = hlo_entry(m);
	ck_assert_int_lt(find(c, "r"), find(c, "x"));
	ck_assert_ptr_nonnull(strstr(hfx_print(&f, m), "is_scheduled=true"));
	/* a second run keeps the order */
	ck_assert_int_eq(hfx_pass(&f, m, "scheduling"), 0);
	hfx_same_results(&f, sched_text, m, 0);
	hfx_free(&f);
}
END_TEST

static const char chain_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[1024]{0} parameter(0)\n"
    "  a = f32[1024]{0} exponential(p)\n"
    "  b = f32[1024]{0} negate(a)\n"
    "  t = (f32[1024]{0}, f32[1024]{0}) tuple(a, b)\n"
    "  g = f32[1024]{0} get-tuple-element(t), index=1\n"
    "  ROOT c = f32[1024]{0} exponential(g)\n"
    "}\n";

static int
not_param(const HloBuffers *b, int i, void *arg)
{
	(void)arg;
	return !b->buf[i].param;
}

START_TEST(liveness_and_assignment)
{
	HFx f;
	HloModule *m;
	Arena a = {0};
	HloBuffers b;
	const HloComp *c;
	int ia, ib, ic;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, chain_text);
	c = hlo_entry(m);
	hlo_buffers_build(&b, &a, c);
	/* the tuple and get-tuple-element alias a and b: 4 buffers */
	ck_assert_int_eq(b.nbuf, 4);
	ia = b.leafbuf[b.first[1]];
	ib = b.leafbuf[b.first[2]];
	ic = b.leafbuf[b.first[5]];
	ck_assert_int_eq(b.leafbuf[b.first[4]], ib);
	ck_assert_int_eq(b.leafbuf[b.first[3] + 1], ib);
	/* a is read by b and the tuple; b up to c, through the alias */
	ck_assert_int_eq(b.buf[ia].start, 1);
	ck_assert_int_eq(b.buf[ia].end, 3);
	ck_assert_int_eq(b.buf[ib].end, 5);
	ck_assert(b.buf[ic].out);
	/* p, a and b together at positions 2 and 3 */
	ck_assert_int_eq(hlo_buffers_peak(&b), 3 * 4096);
	/* a is dead when c is defined: c takes a's bytes */
	ck_assert_int_eq(hlo_buffers_assign(&b, 64, NULL, NULL), 3 * 4096);
	ck_assert_int_eq(b.buf[ic].offset, b.buf[ia].offset);
	ck_assert_int_ne(b.buf[ib].offset, b.buf[ia].offset);
	/* without the parameter: a and b, then c over a's chunk */
	ck_assert_int_eq(hlo_buffers_assign(&b, 64, not_param, NULL), 8192);
	ck_assert_int_eq(b.buf[b.leafbuf[0]].offset, -1);
	arena_free(&a);
	hfx_free(&f);
}
END_TEST

/* Padded sizes as the seed's v6e buffer assignment reports them. */
static const char tiled_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  a = f32[16,64]{1,0:T(8,128)} parameter(0)\n"
    "  b = f32[64,32]{0,1:T(8,128)} parameter(1)\n"
    "  c = f32[16]{0:T(128)} parameter(2)\n"
    "  d = f32[]{:T(128)} parameter(3)\n"
    "  e = bf16[8,128]{1,0:T(8,128)(2,1)} parameter(4)\n"
    "  f = f32[3,5]{1,0} parameter(5)\n"
    "  ROOT t = (f32[16,64]{1,0:T(8,128)}, f32[]{:T(128)}) tuple(a, d)\n"
    "}\n";

START_TEST(sizes_are_padded_to_tiles)
{
	HFx f;
	HloModule *m;
	const HloComp *c;

	hfx_init(&f, NULL);
	m = hfx_parse(&f, tiled_text);
	c = hlo_entry(m);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[0]->shape), 8192);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[1]->shape), 16384);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[2]->shape), 512);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[3]->shape), 512);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[4]->shape), 2048);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[5]->shape), 60);
	ck_assert_int_eq(hlo_shape_bytes(&c->instr.v[6]->shape), 8192 + 512);
	hfx_free(&f);
}
END_TEST

/*
 * On the small preset (256 KiB of VMEM, 192 KiB for MSA): a (4 KiB)
 * fits, the 256 KiB broadcast does not.
 */
static const char fit_text[] =
    "HloModule m\n"
    "\n"
    "add {\n"
    "  x = f32[] parameter(0)\n"
    "  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,128]{1,0} parameter(0)\n"
    "  a = f32[8,128]{1,0} exponential(p)\n"
    "  big = f32[8,128,64]{2,1,0} broadcast(a), dimensions={0,1}\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[8,128]{1,0} reduce(big, z), dimensions={2}, to_apply=add\n"
    "  ROOT o = f32[8,128]{1,0} add(r, a)\n"
    "}\n";

static const HloInstr *
named(const HloModule *m, const char *name)
{
	const HloComp *c = hlo_entry(m);
	int i = find(c, name);

	ck_assert_int_ge(i, 0);
	return c->instr.v[i];
}

START_TEST(msa_places_what_fits_and_says_why_not)
{
	HFx f;
	HloModule *m;
	Buf st = {0}, out = {0};

	hfx_init(&f, "small");
	f.cx.stats = &st;
	m = hfx_parse(&f, fit_text);
	hfx_pass(&f, m, "scheduling");
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	ck_assert_int_eq(named(m, "a")->shape.layout.memspace, 1);
	ck_assert_int_eq(named(m, "r")->shape.layout.memspace, 1);
	ck_assert_int_eq(named(m, "big")->shape.layout.memspace, 0);
	/* the parameter and the result stay in HBM */
	ck_assert_int_eq(named(m, "p")->shape.layout.memspace, 0);
	ck_assert_int_eq(named(m, "o")->shape.layout.memspace, 0);
	buf_putc(&st, 0);
	ck_assert_msg(strstr(st.p, "big f32[8,128,64]{2,1,0} stays in HBM: "
	    "262144 B is more than the VMEM budget of 196608 B") != NULL,
	    "%s", st.p);
	ck_assert_msg(strstr(st.p, "o f32[8,128]{1,0} stays in HBM: the "
	    "entry's result") != NULL, "%s", st.p);
	/* p feeds the first instruction: no time to hide its copy */
	ck_assert_msg(strstr(st.p, "p f32[8,128]{1,0} stays in HBM: live "
	    "range too short") != NULL, "%s", st.p);
	ck_assert_int_eq(hfx_count(m, HLO_COPY_START, 0), 0);
	hfx_same_results(&f, fit_text, m, 0);
	/* the figures name the big value as the largest left in HBM */
	hlo_stats(&out, m, f.cx.mp, 6, 10, st.p, strlen(st.p));
	buf_putc(&out, 0);
	ck_assert_msg(strstr(out.p, "largest intermediate in HBM: big "
	    "f32[8,128,64]{2,1,0}, 262144 B\n") != NULL, "%s", out.p);
	ck_assert_msg(strstr(out.p, "instructions: entry 6 before, 6 after")
	    != NULL, "%s", out.p);
	ck_assert_ptr_nonnull(strstr(out.p, "decisions:\nmsa: "));
	/* the VMEM offsets listed are the ones memory-space assignment
	   chose */
	ck_assert_msg(strstr(out.p, "(memory-space assignment's offsets)") &&
	    strstr(out.p, "S(1) a f32[8,128]{1,0:S(1)} 4096 B @0,") &&
	    strstr(st.p, "msa: a f32[8,128]{1,0:S(1)} -> S(1) @0,") &&
	    strstr(out.p, "S(1) r f32[8,128]{1,0:S(1)} 4096 B @4096,") &&
	    strstr(st.p, "msa: r f32[8,128]{1,0:S(1)} -> S(1) @4096,"),
	    "%s", out.p);
	buf_free(&out);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/*
 * Three weights: w1 feeds the first dot (the cross-program prefetch),
 * w2 and w3 later dots with work in between (prefetches); x is read
 * first and stays in HBM.
 */
static const char copies_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  x = f32[8,128]{1,0} parameter(0)\n"
    "  w1 = f32[128,128]{1,0} parameter(1)\n"
    "  w2 = f32[128,128]{1,0} parameter(2)\n"
    "  w3 = f32[128,128]{1,0} parameter(3)\n"
    "  d1 = f32[8,128]{1,0} dot(x, w1), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  e1 = f32[8,128]{1,0} exponential(d1)\n"
    "  e2 = f32[8,128]{1,0} tanh(e1)\n"
    "  d2 = f32[8,128]{1,0} dot(e2, w2), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  e3 = f32[8,128]{1,0} exponential(d2)\n"
    "  e4 = f32[8,128]{1,0} tanh(e3)\n"
    "  d3 = f32[8,128]{1,0} dot(e4, w3), lhs_contracting_dims={1}, "
    "rhs_contracting_dims={0}\n"
    "  ROOT o = f32[8,128]{1,0} add(d3, e1)\n"
    "}\n";

/* The position of the copy-start of each copy-done, in done order. */
static int
copy_pairs(const HloComp *c, int *start, int *done)
{
	int i, n = 0;

	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == HLO_COPY_DONE) {
			start[n] = c->instr.v[i]->operand[0];
			done[n++] = i;
		}
	return n;
}

START_TEST(copies_complete_in_fifo_order)
{
	HFx f;
	HloModule *m;
	const HloComp *c;
	int start[8], done[8], n, k, i, j, cross = 0;

	hfx_init(&f, "v6e");
	m = hfx_parse(&f, copies_text);
	hfx_pass(&f, m, "scheduling");
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	c = hlo_entry(m);
	n = copy_pairs(c, start, done);
	ck_assert_int_eq(n, 3);
	for (k = 0; k < n; k++) {
		const HloInstr *cs = c->instr.v[start[k]];
		ck_assert_int_eq(cs->op, HLO_COPY_START);
		ck_assert_int_lt(start[k], done[k]);
		/* the destination is in VMEM, the source and context not */
		ck_assert_int_eq(cs->shape.elem[0].layout.memspace, 1);
		ck_assert_int_eq(cs->shape.elem[1].layout.memspace, 0);
		ck_assert_int_eq(cs->shape.elem[2].layout.memspace, 2);
		ck_assert_int_eq(c->instr.v[done[k]]->shape.layout.memspace, 1);
		cross += cs->attrs.n == 1 && strcmp(cs->attrs.v[0].name,
		    "cross_program_prefetch_index") == 0;
		/* FIFO: a copy that completes later did not start earlier */
		if (k)
			ck_assert_int_ge(start[k], start[k - 1]);
		/* nothing reads the parameter but its copy-start */
		for (i = 0; i < c->instr.n; i++)
			for (j = 0; j < c->instr.v[i]->noperand; j++)
				if (c->instr.v[i]->operand[j] ==
				    cs->operand[0])
					ck_assert_int_eq(i, start[k]);
	}
	ck_assert_int_eq(cross, 1);
	ck_assert_int_eq(c->instr.v[start[0]]->operand[0],
	    find(c, "w1"));
	/* w2's copy overlaps work: something runs between start and done */
	ck_assert_int_gt(done[1] - start[1], 1);
	ck_assert_int_eq(named(m, "x")->shape.layout.memspace, 0);
	assert_topological(m);
	hfx_same_results(&f, copies_text, m, 0);
	/* the printed module reads back as it is */
	{
		HFx g;
		char *t = strdup(hfx_print(&f, m));
		hfx_init(&g, NULL);
		ck_assert_str_eq(hfx_print(&g, hfx_parse(&g, t)), t);
		free(t);
		hfx_free(&g);
	}
	/* a second run finds nothing more to do */
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 0);
	hfx_free(&f);
}
END_TEST

/*
 * On small (a VMEM budget of 192 KiB): mid takes all of it at positions
 * 3 and 4, so a (32 KiB, read by e1 at 2 and by o at 7) cannot stay in
 * VMEM over its whole range.  It is evicted: in VMEM for e1, a copy to
 * HBM started after its definition and done before mid; then, as mid
 * and m2 are gone, prefetched back from that copy for o.
 */
static const char evict_text[] =
    "HloModule m\n"
    "\n"
    ADD
    "\n"
    "ENTRY main {\n"
    "  p = f32[64,128]{1,0} parameter(0)\n"
    "  a = f32[64,128]{1,0} exponential(p)\n"
    "  e1 = f32[64,128]{1,0} tanh(a)\n"
    "  mid = f32[6,64,128]{2,1,0} broadcast(e1), dimensions={1,2}\n"
    "  m2 = f32[6,64,128]{2,1,0} negate(mid)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[64,128]{1,0} reduce(m2, z), dimensions={0}, to_apply=add\n"
    "  ROOT o = f32[64,128]{1,0} add(r, a)\n"
    "}\n";

START_TEST(msa_evicts_and_prefetches_back)
{
	HFx f;
	HloModule *m;
	const HloComp *c;
	const HloInstr *cs, *back, *o;
	Buf st = {0};
	int start[4], done[4], a;

	hfx_init(&f, "small");
	f.cx.stats = &st;
	m = hfx_parse(&f, evict_text);
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	c = hlo_entry(m);
	a = find(c, "a");
	ck_assert_int_eq(named(m, "mid")->shape.layout.memspace, 1);
	ck_assert_int_eq(named(m, "a")->shape.layout.memspace, 1);
	ck_assert_int_eq(copy_pairs(c, start, done), 2);
	cs = c->instr.v[start[0]];
	/* the eviction: from VMEM (the source) to HBM (the destination) */
	ck_assert_int_eq(cs->operand[0], a);
	ck_assert_int_eq(start[0], a + 1);
	ck_assert_int_eq(cs->shape.elem[0].layout.memspace, 0);
	ck_assert_int_eq(cs->shape.elem[1].layout.memspace, 1);
	ck_assert_int_eq(c->instr.v[done[0]]->shape.layout.memspace, 0);
	/* e1 reads a in VMEM; the copy is done before mid */
	ck_assert_int_eq(named(m, "e1")->operand[0], a);
	ck_assert_int_lt(done[0], find(c, "mid"));
	/* the prefetch back reads the HBM copy, after m2, into VMEM */
	back = c->instr.v[start[1]];
	ck_assert_int_eq(back->operand[0], done[0]);
	ck_assert_int_gt(start[1], find(c, "m2"));
	ck_assert_int_eq(back->shape.elem[0].layout.memspace, 1);
	ck_assert_int_eq(back->shape.elem[1].layout.memspace, 0);
	o = named(m, "o");
	ck_assert_int_eq(o->operand[1], done[1]);
	ck_assert_int_eq(c->instr.v[done[1]]->shape.layout.memspace, 1);
	buf_putc(&st, 0);
	ck_assert_msg(strstr(st.p, "msa: a f32[64,128]{1,0:S(1)} -> S(1) @0, "
	    "32768 B, positions 1..2, evicted: copy-start after a, copy-done "
	    "before mid") != NULL, "%s", st.p);
	ck_assert_msg(strstr(st.p, "msa: a f32[64,128]{1,0:S(1)} -> S(1) @0, "
	    "32768 B, positions 6..7, prefetched back: copy-start after z, "
	    "copy-done before o") != NULL, "%s", st.p);
	assert_topological(m);
	hfx_same_results(&f, evict_text, m, 0);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/*
 * On small: w (32 KiB) is read at 2 and 7, but big (192 KiB, all of the
 * budget) lives at 4..5 between, so no copy of w fits all its uses.  It
 * gets one per run of uses: e1 and e2 read the first copy, o the
 * second; neither copy holds VMEM while big does.
 */
static const char segments_text[] =
    "HloModule m\n"
    "\n"
    ADD
    "\n"
    "ENTRY main {\n"
    "  w = f32[64,128]{1,0} parameter(0)\n"
    "  p = f32[64,128]{1,0} parameter(1)\n"
    "  e0 = f32[64,128]{1,0} exponential(p)\n"
    "  e1 = f32[64,128]{1,0} multiply(e0, w)\n"
    "  e2 = f32[64,128]{1,0} add(e1, w)\n"
    "  big = f32[6,64,128]{2,1,0} broadcast(e2), dimensions={1,2}\n"
    "  b2 = f32[6,64,128]{2,1,0} negate(big)\n"
    "  z = f32[] constant(0)\n"
    "  r = f32[64,128]{1,0} reduce(b2, z), dimensions={0}, to_apply=add\n"
    "  t = f32[64,128]{1,0} tanh(r)\n"
    "  ROOT o = f32[64,128]{1,0} add(t, w)\n"
    "}\n";

START_TEST(msa_prefetches_per_use_segments)
{
	HFx f;
	HloModule *m;
	const HloComp *c;
	Buf st = {0};
	int start[8], done[8], n, k, w, seg = 0, big;

	hfx_init(&f, "small");
	f.cx.stats = &st;
	m = hfx_parse(&f, segments_text);
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	c = hlo_entry(m);
	w = find(c, "w");
	big = find(c, "big");
	n = copy_pairs(c, start, done);
	for (k = 0; k < n; k++) {
		if (c->instr.v[start[k]]->operand[0] != w)
			continue;
		/* each copy of w is done before big or started after it */
		ck_assert(done[k] < big || start[k] > find(c, "b2"));
		seg++;
	}
	buf_putc(&st, 0);
	ck_assert_msg(seg == 2, "%d copies of w\n%s", seg, st.p);
	ck_assert_int_eq(named(m, "e1")->operand[1], named(m, "e2")->
	    operand[1]);
	ck_assert_int_ne(named(m, "e1")->operand[1], w);
	ck_assert_int_ne(named(m, "o")->operand[1], w);
	ck_assert_int_ne(named(m, "o")->operand[1], named(m, "e1")->
	    operand[1]);
	ck_assert_msg(strstr(st.p, "prefetch: copy-start after w, copy-done "
	    "before e1") != NULL && strstr(st.p, ", for the uses up to e2")
	    != NULL, "%s", st.p);
	assert_topological(m);
	hfx_same_results(&f, segments_text, m, 0);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/*
 * A while body is assigned too: its intermediate e goes to VMEM above
 * what the entry holds while the loop runs (k, read after it).  The
 * loop's state is the body's parameter and result: it stays in HBM.
 */
static const char while_text[] =
    "HloModule m\n"
    "\n"
    "cond {\n"
    "  s = (s32[], f32[8,128]{1,0}) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n"
    "  n = s32[] constant(3)\n"
    "  ROOT lt = pred[] compare(i, n), direction=LT\n"
    "}\n"
    "\n"
    "body {\n"
    "  s = (s32[], f32[8,128]{1,0}) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n"
    "  x = f32[8,128]{1,0} get-tuple-element(s), index=1\n"
    "  one = s32[] constant(1)\n"
    "  j = s32[] add(i, one)\n"
    "  e = f32[8,128]{1,0} tanh(x)\n"
    "  y = f32[8,128]{1,0} multiply(e, e)\n"
    "  ROOT t = (s32[], f32[8,128]{1,0}) tuple(j, y)\n"
    "}\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,128]{1,0} parameter(0)\n"
    "  k = f32[8,128]{1,0} exponential(p)\n"
    "  z = s32[] constant(0)\n"
    "  s0 = (s32[], f32[8,128]{1,0}) tuple(z, p)\n"
    "  w = (s32[], f32[8,128]{1,0}) while(s0), condition=cond, body=body\n"
    "  r = f32[8,128]{1,0} get-tuple-element(w), index=1\n"
    "  ROOT o = f32[8,128]{1,0} add(r, k)\n"
    "}\n";

static const HloInstr *
in_comp(const HloModule *m, const char *comp, const char *name)
{
	int j, i;

	for (j = 0; j < m->comp.n; j++)
		if (strcmp(m->comp.v[j]->name, comp) == 0)
			for (i = 0; i < m->comp.v[j]->instr.n; i++)
				if (strcmp(m->comp.v[j]->instr.v[i]->name,
				    name) == 0)
					return m->comp.v[j]->instr.v[i];
	ck_abort_msg("no %s in %s", name, comp);
	return NULL;
}

START_TEST(while_bodies_get_vmem_above_the_callers)
{
	HFx f;
	HloModule *m;
	const HloLayout *k, *e;
	Buf st = {0};

	hfx_init(&f, "small");
	f.cx.stats = &st;
	m = hfx_parse(&f, while_text);
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	buf_putc(&st, 0);
	k = &named(m, "k")->shape.layout;
	e = &in_comp(m, "body", "e")->shape.layout;
	ck_assert_msg(k->memspace == 1 && e->memspace == 1, "%s", st.p);
	ck_assert(k->placed && e->placed);
	ck_assert_int_ge(e->offset, k->offset + 8 * 128 * 4);
	/* the loop state stays in HBM, in the body and around the loop */
	ck_assert_int_eq(in_comp(m, "body", "y")->shape.layout.memspace, 0);
	ck_assert_int_eq(named(m, "r")->shape.layout.memspace, 0);
	ck_assert_msg(strstr(st.p, "y f32[8,128]{1,0} stays in HBM: the "
	    "computation's result") != NULL, "%s", st.p);
	assert_topological(m);
	hfx_same_results(&f, while_text, m, 0);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

/* A custom-call is opaque: what it reads and writes stays in HBM. */
static const char cc_text[] =
    "HloModule m\n"
    "\n"
    "ENTRY main {\n"
    "  p = f32[8,128]{1,0} parameter(0)\n"
    "  a = f32[8,128]{1,0} exponential(p)\n"
    "  k = f32[8,128]{1,0} custom-call(a), custom_call_target=\"k\"\n"
    "  b = f32[8,128]{1,0} exponential(k)\n"
    "  c = f32[8,128]{1,0} exponential(a)\n"
    "  ROOT o = f32[8,128]{1,0} add(b, c)\n"
    "}\n";

START_TEST(custom_calls_stay_opaque)
{
	HFx f;
	HloModule *m;
	Buf st = {0};

	hfx_init(&f, "v6e");
	f.cx.stats = &st;
	m = hfx_parse(&f, cc_text);
	hfx_pass(&f, m, "scheduling");
	ck_assert_int_eq(hfx_pass(&f, m, "memory-space-assignment"), 1);
	ck_assert_int_eq(named(m, "a")->shape.layout.memspace, 0);
	ck_assert_int_eq(named(m, "k")->shape.layout.memspace, 0);
	ck_assert_int_eq(named(m, "b")->shape.layout.memspace, 1);
	ck_assert_int_eq(named(m, "c")->shape.layout.memspace, 1);
	buf_putc(&st, 0);
	ck_assert_msg(strstr(st.p, "a f32[8,128]{1,0} stays in HBM: an "
	    "operand or result of a custom-call, call or control flow "
	    "(opaque)") != NULL,
	    "%s", st.p);
	buf_free(&st);
	hfx_free(&f);
}
END_TEST

START_TEST(pipeline_keeps_meaning)
{
	HFx f;
	HloModule *m;
	HloOptOpts o = {0};
	const char *const texts[] = { sched_text, chain_text, fit_text,
	    copies_text };
	int i;

	for (i = 0; i < 4; i++) {
		hfx_init(&f, i & 1 ? "v6e" : "small");
		m = hfx_parse(&f, texts[i]);
		o.mp = f.cx.mp;
		o.verify = 1;
		ck_assert_int_eq(hlo_optimize(m, &o, &f.d), 0);
		assert_topological(m);
		hfx_same_results(&f, texts[i], m, 0);
		hfx_free(&f);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hlo_msa");
	TCase *t = tcase_create("msa");

	tcase_add_test(t, schedule_is_topological_and_memory_aware);
	tcase_add_test(t, liveness_and_assignment);
	tcase_add_test(t, sizes_are_padded_to_tiles);
	tcase_add_test(t, msa_places_what_fits_and_says_why_not);
	tcase_add_test(t, copies_complete_in_fifo_order);
	tcase_add_test(t, msa_evicts_and_prefetches_back);
	tcase_add_test(t, msa_prefetches_per_use_segments);
	tcase_add_test(t, custom_calls_stay_opaque);
	tcase_add_test(t, while_bodies_get_vmem_above_the_callers);
	tcase_add_test(t, pipeline_keeps_meaning);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return hfx_run(suite());
}
