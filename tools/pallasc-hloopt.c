/*
 * pallasc-hloopt.c - the driver's side of the HLO pass pipeline
 * (graph/passes.c): --emit=hlo-opt runs it, --dump-passes=DIR writes the
 * module before the passes and after every pass that changed it
 * (numbered, as XLA's pass dumps), -fno-hlo-NAME
 * leaves a pass out, and --check-passes evaluates the module before the
 * first pass and after every pass that changed it, on the --input data,
 * and stops at the first pass whose results differ.  --emit=hlo-stats
 * prints graph/hlo_stats.c's figures instead of the module.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/pallasc.h"

#define MAXRES 64

typedef struct Hook {
	const RunOpts *r;
	const char *prefix;	/* dump file names */
	int ndump;
	/* --check-passes */
	const HloComp *entry;
	InterpBuf *b;
	HloBuf *args;
	HloBuf ref[MAXRES];
	int nref;
	double rtol;		/* the largest tolerance of the passes run */
	int failed;
} Hook;

/* Writes m to DIR/PREFIX.NN.NAME.hlo; 0 or -1 after a message. */
static int
dump(Hook *h, const HloModule *m, const char *name)
{
	char path[4096];
	Buf b = {0};
	FILE *f;
	int rc = 0;

	if (mkdir(h->r->dump_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "pallasc: error: cannot create '%s': %s\n",
		    h->r->dump_dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s.%02d.%s.hlo", h->r->dump_dir,
	    h->prefix, h->ndump++, name);
	hlo_print(&b, m);
	if (!(f = fopen(path, "w")) || fwrite(b.p, 1, b.n, f) != b.n) {
		fprintf(stderr, "pallasc: error: cannot write '%s': %s\n",
		    path, strerror(errno));
		rc = -1;
	}
	if (f && fclose(f) != 0 && !rc) {
		fprintf(stderr, "pallasc: error: cannot write '%s'\n", path);
		rc = -1;
	}
	buf_free(&b);
	return rc;
}

static double
value(const HloBuf *b, int64_t i)
{
	switch (b->type) {
	case HT_F32: return ((const float *)b->data)[i];
	case HT_BF16: return hlo_bf16_to_f32(((const uint16_t *)b->data)[i]);
	case HT_S32: return ((const int32_t *)b->data)[i];
	case HT_S8: return ((const int8_t *)b->data)[i];
	case HT_PRED: return ((const uint8_t *)b->data)[i];
	default: return 0;
	}
}

/* 1 if x and y agree: bit for bit (NaN = NaN), or within rtol. */
static int
agree(double x, double y, double rtol)
{
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	if (rtol == 0)
		return memcmp(&x, &y, sizeof x) == 0 || x == y;
	if (x == y)	/* infinities too */
		return 1;
	return fabs(x - y) <= rtol * (fabs(x) > fabs(y) ? fabs(x) : fabs(y)) +
	    rtol;
}

/* Evaluates m; compares with the reference.  0 agree, -1 differ. */
static int
compare(Hook *h, const HloModule *m, const char *pass)
{
	HloBuf res[MAXRES];
	char err[512];
	int n, i, rc = 0;
	int64_t k, ne;

	n = hlo_eval(m, h->args, h->entry->nparam, res, MAXRES, err,
	    sizeof err);
	if (n < 0) {
		fprintf(stderr, "pallasc: error: --check-passes: after pass "
		    "'%s' the module cannot be evaluated: %s\n", pass, err);
		return -1;
	}
	for (i = 0; i < n && !rc; i++) {
		if (n != h->nref || res[i].type != h->ref[i].type ||
		    (ne = hlo_buf_elems(&res[i])) != hlo_buf_elems(&h->ref[i])) {
			fprintf(stderr, "pallasc: error: --check-passes: pass "
			    "'%s' changed the shape of result %d\n", pass, i);
			rc = -1;
			break;
		}
		for (k = 0; k < ne; k++)
			if (!agree(value(&h->ref[i], k), value(&res[i], k),
			    h->rtol)) {
				fprintf(stderr, "pallasc: error: "
				    "--check-passes: pass '%s' changed result "
				    "%d, element %lld: %.9g, was %.9g\n", pass,
				    i, (long long)k, value(&res[i], k),
				    value(&h->ref[i], k));
				rc = -1;
				break;
			}
	}
	for (i = 0; i < n; i++)
		hlo_buf_free(&res[i]);
	return rc;
}

static int
after_pass(const HloModule *m, const char *pass, int changed, void *arg)
{
	Hook *h = arg;
	char name[128];

	if (h->r->dump_dir && changed) {
		snprintf(name, sizeof name, "after_%s", pass);
		if (dump(h, m, name))
			return h->failed = 1;
	}
	if (h->entry && changed) {
		double t = hlo_pass_tolerance(pass);
		if (t > h->rtol)
			h->rtol = t;
		if (compare(h, m, pass))
			return h->failed = 1;
	}
	return 0;
}

/*
 * --check-passes: the inputs and the results before any pass.  A module
 * the evaluator cannot run (a custom-call, say) is not checked: a
 * warning says so and the passes run as without the option.
 */
static int
check_setup(Hook *h, const HloModule *m, const char *file)
{
	char err[512];

	h->entry = hlo_entry(m);
	if (hlo_make_args(h->r, h->entry, &h->b, &h->args))
		return -1;
	h->nref = hlo_eval(m, h->args, h->entry->nparam, h->ref, MAXRES, err,
	    sizeof err);
	if (h->nref < 0) {
		fprintf(stderr, "pallasc: warning: %s: --check-passes: the "
		    "passes are not checked: %s\n", file, err);
		hlo_free_args(h->entry, h->b, h->args);
		h->entry = NULL;
		h->nref = 0;
	}
	return 0;
}

/* The pipeline with the driver's options; decisions go to stats. */
static int
opt_module(const RunOpts *r, HloModule *m, const MachPreset *mp,
    const char *name, Diag *d, Buf *stats)
{
	HloOptOpts o = {0};
	Hook h = {0};
	int i, rc;

	h.r = r;
	h.prefix = m->name ? m->name : name;
	if (r->check_passes && check_setup(&h, m, name))
		return EXIT_USER;
	if (r->dump_dir && dump(&h, m, "before_optimizations"))
		rc = -1;
	else {
		o.mp = mp;
		o.off = r->hlo_off.v;
		o.noff = r->hlo_off.n;
		o.verify = 1;
		o.after = after_pass;
		o.arg = &h;
		o.stats = stats;
		rc = hlo_optimize(m, &o, d);
	}
	if (h.entry) {
		for (i = 0; i < h.nref; i++)
			hlo_buf_free(&h.ref[i]);
		hlo_free_args(h.entry, h.b, h.args);
	}
	return rc || h.failed ? EXIT_USER : EXIT_OK;
}

int
hlo_opt_module(const RunOpts *r, HloModule *m, const MachPreset *mp,
    const char *name, Diag *d)
{
	return opt_module(r, m, mp, name, d, NULL);
}

int
hlo_opt_emit(const RunOpts *r, HloModule *m, const MachPreset *mp,
    const char *name, Diag *d, Buf *out)
{
	Buf st = {0};
	int ne = hlo_instr_count(m, 1), na = hlo_instr_count(m, 0), rc;

	rc = opt_module(r, m, mp, name, d, r->stats ? &st : NULL);
	if (rc == EXIT_OK && r->stats) {
		hlo_stats(out, m, mp ? mp : mach_preset(NULL), ne, na,
		    st.p ? st.p : "", st.n);
	} else if (rc == EXIT_OK)
		hlo_print(out, m);
	buf_free(&st);
	return rc;
}
