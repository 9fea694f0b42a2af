/*
 * vliwtest.c - the backend tests' shared harness (vliwtest.h).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/vliwtest.h"

static TokKind
pp_source(void *pp, Token *t)
{
	return pp_next(pp, t);
}

int
vt_compile(VtUnit *u, const char *src, const char *preset)
{
	return vt_compile_opts(u, src, preset, NULL);
}

int
vt_compile_opts(VtUnit *u, const char *src, const char *preset,
    const VliwOpts *o)
{
	const MachPreset *mp = mach_preset(preset);
	Ast *ast;
	int rc = 0;

	memset(u, 0, sizeof *u);
	ck_assert_ptr_nonnull(mp);
	srcmgr_init(&u->sm);
	strtab_init(&u->strs, &u->a);
	u->out = open_memstream(&u->text, &u->len);
	diag_init(&u->d, &u->sm, u->out);
	u->pp = pp_new(&u->d, &u->strs, &u->a);
	sema_predefine(u->pp, mp);	/* as pallasc does */
	ck_assert_int_eq(pp_push_text(u->pp, "<test>", src, strlen(src)), 0);
	ast = parse_module(pp_source, u->pp, &u->d, &u->a);
	u->cm = sema_check(ast, mp, &u->d, &u->a);
	if (u->d.nerror || mosaic_lower(u->cm, mp, &u->d, &u->a, &u->tm) ||
	    vliw_compile_opts(u->tm, mp, o, &u->d, &u->a, &u->prog))
		rc = -1;
	fflush(u->out);
	return rc;
}

void
vt_free(VtUnit *u)
{
	mach_program_free(u->prog);
	pp_free(u->pp);
	fclose(u->out);
	free(u->text);
	strtab_free(&u->strs);
	srcmgr_free(&u->sm);
	arena_free(&u->a);
}

/* u->prog's image loaded on a fresh device of its preset. */
typedef struct Loaded {
	PallasDevice *dev;
	PallasProgram *pg;
	void *img;
} Loaded;

static void
load(VtUnit *u, int poison, Loaded *l)
{
	size_t len;
	char err[256];

	ck_assert_int_eq(mach_image_write(u->prog, &l->img, &len, err,
	    sizeof err), MACH_OK);
	ck_assert_int_eq(pallas_device_open(u->prog->preset, &l->dev),
	    PALLAS_OK);
	if (poison)
		pallas_device_set_poison(l->dev, PALLAS_POISON_NAN);
	ck_assert_msg(pallas_program_load(l->dev, l->img, len, &l->pg) ==
	    PALLAS_OK, "%s", pallas_last_error(l->dev));
}

static void
unload(Loaded *l)
{
	pallas_program_free(l->pg);
	pallas_device_close(l->dev);
	free(l->img);
}

uint64_t
vt_run(VtUnit *u, const char *entry, void *const *bufs, size_t n,
    PallasStats *st)
{
	Loaded l;
	PallasStats s;
	PallasTrap tr;
	int rc;

	load(u, 1, &l);
	rc = pallas_call(l.dev, l.pg, entry, bufs, n);
	pallas_last_trap(l.dev, &tr);
	ck_assert_msg(rc == PALLAS_OK, "%s on %s: %s: %s", entry,
	    u->prog->preset, pallas_last_error(l.dev), tr.message);
	pallas_last_stats(l.dev, &s);
	if (st)
		*st = s;
	unload(&l);
	return s.c.cycles;
}

void
vt_run_check(VtUnit *u, const char *entry, void *const *bufs, size_t n,
    PallasTrap *tr, char *err, size_t nerr)
{
	Loaded l;
	int rc;

	load(u, 0, &l);
	rc = pallas_call(l.dev, l.pg, entry, bufs, n);
	pallas_last_trap(l.dev, tr);
	snprintf(err, nerr, "%s", pallas_last_error(l.dev));
	ck_assert_msg(rc == PALLAS_ECHECK && tr->kind == PALLAS_TRAP_CHECK,
	    "%s on %s: %s", entry, u->prog->preset, err);
	unload(&l);
}

void
vt_roundtrip(const VtUnit *u)
{
	MachProgram *q;
	char *text, err[2048];
	size_t len;
	uint32_t i;

	ck_assert_int_eq(mach_disasm(u->prog, &text, &len), MACH_OK);
	ck_assert_msg(mach_asm("<S>", text, len, NULL, &q, err, sizeof err) ==
	    MACH_OK, "%s", err);
	ck_assert_int_eq(q->nbundle, u->prog->nbundle);
	ck_assert_int_eq(q->nins, u->prog->nins);
	for (i = 0; i < q->nins; i++) {
		const MachIns *x = &q->ins[i], *y = &u->prog->ins[i];
		/* a trap's immediate is a string's offset: its text counts */
		int imm = y->op == OP_TRAP ? strcmp(mach_program_strat(q,
		    (uint32_t)x->imm), mach_program_strat(u->prog,
		    (uint32_t)y->imm)) == 0 : x->imm == y->imm;
		if (!(x->op == y->op && x->guard == y->guard &&
		    x->gneg == y->gneg && x->d == y->d && x->a == y->a &&
		    x->b == y->b && x->c == y->c && x->x == y->x && imm))
			ck_abort_msg("ins %u (%s) differs after -S", i,
			    mach_opinfo[y->op].name);
	}
	ck_assert_int_eq(q->nentry, u->prog->nentry);
	ck_assert_int_eq(q->nopnd, u->prog->nopnd);
	free(text);
	mach_program_free(q);
}

const CKernel *
vt_kernel(const VtUnit *u, const char *entry)
{
	int i;

	for (i = 0; i < u->cm->nexport; i++)
		if (strcmp(u->cm->exp[i].cname, entry) == 0 &&
		    u->cm->exp[i].kernel)
			return u->cm->exp[i].kernel;
	ck_abort_msg("no kernel export '%s'", entry);
	return NULL;
}

/* The largest relative difference of output a (simulated) against b. */
static double
compare(const InterpBuf *a, const InterpBuf *b, double tol, const char *what)
{
	int64_t i, n = shape_numel(&b->shape);
	double worst = 0;

	for (i = 0; i < n; i++) {
		double x = interp_buf_get(a, i), y = interp_buf_get(b, i);
		double e = fabs(x - y) / (1 + fabs(y));
		/* an assertion only on failure: each passing one is a
		   message to Check's parent, millions on a Splash run */
		if (isnan(x) || (x != y && e > tol))
			ck_abort_msg("%s: %s[%lld] = %.9g on the simulator, "
			    "%.9g in interpret mode", what, b->name,
			    (long long)i, x, y);
		if (e > worst)
			worst = e;
	}
	return worst;
}

/*
 * vt_check on a compiled unit: entry on the simulator (preset: u's) and
 * in interpret mode, compared; no -S round trip (the caller's, once per
 * unit).
 */
void
vt_check_unit(VtUnit *u, const char *preset, const char *entry,
    const VtOpts *o, VtResult *res)
{
	static const VtOpts none;
	const CKernel *k;
	InterpBuf *ref, *sim;
	void **bufs;
	char what[128];
	VtResult r;
	int i;

	o = o ? o : &none;
	memset(&r, 0, sizeof r);
	k = vt_kernel(u, entry);
	ref = xcalloc((size_t)k->nop + 1, sizeof *ref);
	sim = xcalloc((size_t)k->nop + 1, sizeof *sim);
	bufs = xcalloc((size_t)k->nop + 1, sizeof *bufs);
	for (i = 0; i < k->nop; i++) {
		const COperand *op = &k->op[i];
		interp_buf_alloc(&ref[i], op->name, op->dtype, &op->shape);
		if (op->role == ROLE_IN)
			interp_fill(&ref[i], INTERP_RANDOM, o->seed * 1000 +
			    (uint64_t)i);
	}
	if (o->tables)
		o->tables(k, ref, o->arg);
	for (i = 0; i < k->nop; i++) {
		size_t bytes = (size_t)shape_numel(&ref[i].shape) *
		    (size_t)interp_elem_size(ref[i].dtype);
		interp_buf_alloc(&sim[i], ref[i].name, ref[i].dtype,
		    &ref[i].shape);
		memcpy(sim[i].data, ref[i].data, bytes);
		bufs[i] = sim[i].data;
	}
	ck_assert_msg(interp_kernel(k, ref, k->nop, NULL, &u->d) == 0,
	    "%s in interpret mode: %s", entry, (fflush(u->out), u->text));
	vt_run(u, entry, bufs, (size_t)k->nop, &r.st);
	snprintf(what, sizeof what, "%s on %s", entry, preset);
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_OUT) {
			double e = compare(&sim[i], &ref[i], o->tol, what);
			if (e > r.max_err)
				r.max_err = e;
		}
	/* the memory the run touched is inside what the program declares */
	ck_assert_msg(r.st.vmem_declared && r.st.smem_declared &&
	    r.st.vmem_high_water <= r.st.vmem_declared &&
	    r.st.smem_high_water <= r.st.smem_declared, "%s: high water "
	    "VMEM %llu, SMEM %llu; declared %llu, %llu", what,
	    (unsigned long long)r.st.vmem_high_water,
	    (unsigned long long)r.st.smem_high_water,
	    (unsigned long long)r.st.vmem_declared,
	    (unsigned long long)r.st.smem_declared);
	r.nbundle = u->prog->nbundle;
	printf("%s: %llu cycles, %u bundles, max error %.3g\n", what,
	    (unsigned long long)r.st.c.cycles, r.nbundle, r.max_err);
	if (res)
		*res = r;
	for (i = 0; i < k->nop; i++) {
		interp_buf_free(&ref[i]);
		interp_buf_free(&sim[i]);
	}
	free(ref);
	free(sim);
	free(bufs);
}

void
vt_check(const char *src, const char *preset, const char *entry,
    const VtOpts *o, VtResult *res)
{
	VtUnit u;

	ck_assert_msg(vt_compile(&u, src, preset) == 0, "%s on %s: %s", entry,
	    preset, u.text);
	vt_check_unit(&u, preset, entry, o, res);
	vt_roundtrip(&u);
	vt_free(&u);
}

int
vt_run_suite(Suite *s)
{
	SRunner *r = srunner_create(s);
	int nf;

	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

uint64_t
vt_run_llo(LFunc *f)
{
	Diag d;
	MachProgram *prog;
	VtUnit u;
	LFunc *fs[1] = { f };
	uint64_t c;

	diag_init(&d, NULL, stderr);
	vliw_sched(f);
	ck_assert_int_eq(vliw_regalloc(f, &d), 0);
	ck_assert_int_eq(vliw_emit(fs, 1, f->mp, NULL, &d, &prog), 0);
	memset(&u, 0, sizeof u);
	u.prog = prog;
	c = vt_run(&u, f->name, NULL, 0, NULL);
	mach_program_free(prog);
	return c;
}
