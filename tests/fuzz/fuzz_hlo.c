/*
 * fuzz_hlo.c - libFuzzer target for the graph path's HLO text reader,
 * verifier, printer, evaluator and pass pipeline over arbitrary bytes.
 * Any crash, hang, leak or sanitizer report is a bug, and so is a module
 * whose printed text does not read back to the same text, before or
 * after the passes (the target aborts then).
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Reads text as file 'name' into a; NULL if it has errors. */
static HloModule *
read_text(SrcMgr *sm, Diag *d, Arena *a, Strtab *strs, const char *text,
    size_t n)
{
	int file = srcmgr_add(sm, "fuzz.hlo", text, n);
	HloModule *m = hlo_read(d, file, a, strs);

	return m && hlo_verify(m, d) == 0 ? m : NULL;
}

/* Runs the entry on zeros when its parameters are small arrays. */
static void
run(const HloModule *m)
{
	const HloComp *e = hlo_entry(m);
	HloBuf args[8], res[8];
	char err[256];
	int i, n = 0;

	if (!e || e->nparam > 8)
		return;
	for (i = 0; i < e->nparam; i++) {
		const HloInstr *p = hlo_param(e, i);
		if (!p || p->shape.type == HT_TUPLE ||
		    hlo_shape_elems(&p->shape) > 4096)
			break;
		args[n++] = hlo_buf_new(p->shape.type, p->shape.rank,
		    p->shape.dim);
	}
	if (n == e->nparam) {
		int r = hlo_eval(m, args, n, res, 8, err, sizeof err);
		for (i = 0; i < r; i++)
			hlo_buf_free(&res[i]);
	}
	for (i = 0; i < n; i++)
		hlo_buf_free(&args[i]);
}

/* The pass pipeline, verified after every pass (a broken invariant is
   a bug() that aborts); its result must read back and run. */
static void
optimize(SrcMgr *sm, Diag *d, Arena *a, Strtab *strs, HloModule *m)
{
	HloOptOpts o = {0};
	Buf p = {0};
	HloModule *back;

	o.verify = 1;
	if (hlo_optimize(m, &o, d) == 0) {
		hlo_print(&p, m);
		if (!(back = read_text(sm, d, a, strs, p.p ? p.p : "", p.n)))
			abort();	/* optimised text does not read back */
		run(back);
	}
	buf_free(&p);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	Arena a = {0};
	SrcMgr sm;
	Strtab strs;
	Diag d;
	HloModule *m, *m2;
	Buf p1 = {0}, p2 = {0};

	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	srcmgr_init(&sm);
	strtab_init(&strs, &a);
	diag_init(&d, &sm, sink);
	d.max_errors = 0;	/* exercise every error path */
	m = read_text(&sm, &d, &a, &strs, (const char *)data, size);
	if (m) {
		hlo_print(&p1, m);
		m2 = read_text(&sm, &d, &a, &strs, p1.p ? p1.p : "", p1.n);
		if (!m2)
			abort();	/* printed text does not read back */
		hlo_print(&p2, m2);
		if (p1.n != p2.n || memcmp(p1.p, p2.p, p1.n) != 0)
			abort();	/* round trip is not stable */
		run(m);
		optimize(&sm, &d, &a, &strs, m);
	}
	buf_free(&p1);
	buf_free(&p2);
	diag_finish(&d);
	strtab_free(&strs);
	srcmgr_free(&sm);
	arena_free(&a);
	return 0;
}
