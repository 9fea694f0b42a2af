/*
 * pallasc-run.c - the driver's runs: pallasc --interpret --run, and
 * pallasc --run (compiled, on the simulator: pallasc-sim.c).
 *
 * Picks an export (--entry, or the only one), makes its inputs (a
 * generator, .npy files, SMEM tables from a .npy file or the Splash
 * causal-mask helper), runs it with dsl/interp/ or on the simulator, and
 * prints a checksum and the first values of each output, or saves them
 * as .npy files; a compiled run then prints its counters.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/pallasc.h"

static int
usage(const char *fmt, const char *arg)
{
	fputs("pallasc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pallasc --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* "--name=value" or "--name value"; NULL if arg is not --name. */
static const char *
value_of(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];

	*missing = 0;
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n])
		return NULL;
	if (*i + 1 < argc)
		return argv[++*i];
	*missing = 1;
	return NULL;
}

/* "NAME=PATH" with both parts non-empty. */
static int
name_path(const char *v)
{
	const char *eq = strchr(v, '=');

	return eq && eq != v && eq[1];
}

/* "kind" or "kind:SEED" of --input; 0 if well formed. */
static int
parse_fill(const char *v, int *kind, uint64_t *seed)
{
	char name[16];
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	char *end;

	*seed = 0;
	if (n >= sizeof name)
		return -1;
	memcpy(name, v, n);
	name[n] = 0;
	if ((*kind = interp_fill_by_name(name)) < 0)
		return -1;
	if (!colon)
		return 0;
	if (*kind != INTERP_RANDOM || !colon[1])
		return -1;
	errno = 0;
	*seed = strtoull(colon + 1, &end, 0);
	return *end || errno || colon[1] == '-' ? -1 : 0;
}

int
run_flag(RunOpts *r, Arena *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;
	int missing, kind;
	uint64_t seed;

	if (strcmp(arg, "--interpret") == 0)
		return r->interpret = 1, 0;
	if (strcmp(arg, "--run") == 0)
		return r->run = 1, 0;
	if (strcmp(arg, "--splash-causal") == 0)
		return r->splash_mask = "causal", 0;
	if (strncmp(arg, "--splash-mask=", 14) == 0)
		return r->splash_mask = arg + 14, 0;
	if (strcmp(arg, "--shuffle") == 0)
		return r->shuffle = 1, 0;
	if (strncmp(arg, "--shuffle=", 10) == 0) {
		if (parse_fill(arena_printf(a, "random:%s", arg + 10), &kind,
		    &seed))
			return usage("bad --shuffle seed '%s'", arg + 10);
		r->shuffle = 1;
		r->seed = seed;
		return 0;
	}
	if ((v = value_of(argc, argv, i, "--entry", &missing)))
		return r->entry = v, 0;
	if (!missing && (v = value_of(argc, argv, i, "--trace", &missing)))
		return r->trace = v, 0;
	if (!missing && (v = value_of(argc, argv, i, "--input-file",
	    &missing))) {
		if (!name_path(v))
			return usage("--input-file wants NAME=FILE.npy, not "
			    "'%s'", v);
		vec_push(a, &r->file, v);
		return 0;
	}
	if (!missing && (v = value_of(argc, argv, i, "--input", &missing))) {
		if (parse_fill(v, &kind, &seed))
			return usage("bad --input '%s': use zeros, ones, iota "
			    "or random[:SEED]", v);
		return r->fill = v, 0;
	}
	if (!missing && (v = value_of(argc, argv, i, "--smem", &missing))) {
		if (!name_path(v))
			return usage("--smem wants NAME=FILE.npy, not '%s'", v);
		vec_push(a, &r->smem, v);
		return 0;
	}
	if (!missing && (v = value_of(argc, argv, i, "--save-dir",
	    &missing)))
		return r->save_dir = v, 0;
	if (missing)
		return usage("missing argument to '%s'", arg);
	return -1;
}

int
run_check_opts(const RunOpts *r)
{
	int tables = (r->entry && !r->lower && !r->select && !r->check) ||
	    r->smem.n ||
	    r->splash_mask;
	int any = r->fill || r->file.n || r->save_dir || r->shuffle ||
	    (tables && !r->plan);
	int inputs = r->check_passes && !r->save_dir && !r->shuffle &&
	    !r->smem.n && !r->splash_mask;

	if (r->trace && (!r->run || r->interpret))
		return usage("%s", "--trace needs --run without --interpret");
	if (r->interpret && !r->run && !r->check)
		return usage("%s", "--interpret needs --run or -fsyntax-only");
	if (any && !r->run && !inputs)
		return usage("%s", "input and output options need --run (or, "
		    "--input and --input-file, --check-passes)");
	return 0;
}

/* --------------------------------------------------------------- inputs */

/* The value of NAME=PATH options for operand name, or NULL. */
static const char *
file_for(const char *const *v, int n, const char *name)
{
	size_t len = strlen(name);
	int i;

	for (i = n - 1; i >= 0; i--)
		if (strncmp(v[i], name, len) == 0 && v[i][len] == '=')
			return v[i] + len + 1;
	return NULL;
}

/* Loads path into b, converting f32 data for a bf16 operand. */
static int
load_npy(const char *path, InterpBuf *b)
{
	InterpBuf f;
	char err[256];
	Buf want = {0}, got = {0};
	int64_t i, n;

	if (interp_npy_read(path, &f, err, sizeof err)) {
		fprintf(stderr, "pallasc: error: %s: %s\n", path, err);
		return -1;
	}
	if (shape_eq(&f.shape, &b->shape) && (f.dtype == b->dtype ||
	    (f.dtype == DT_F32 && b->dtype == DT_BF16))) {
		n = shape_numel(&b->shape);
		for (i = 0; i < n; i++)
			interp_buf_set(b, i, interp_buf_get(&f, i));
		interp_buf_free(&f);
		return 0;
	}
	shape_print(&want, &b->shape);
	shape_print(&got, &f.shape);
	fprintf(stderr, "pallasc: error: %s holds %s%s, but '%s' is %s%s\n",
	    path, dtype_name(f.dtype), got.p, b->name, dtype_name(b->dtype),
	    want.p);
	buf_free(&want);
	buf_free(&got);
	interp_buf_free(&f);
	return -1;
}

/* Fills one input (or table) and names it. */
static int
make_input(const RunOpts *r, int idx, int table, InterpBuf *b)
{
	const char *path = file_for(table ? r->smem.v : r->file.v,
	    table ? r->smem.n : r->file.n, b->name);

	if (table && !path)	/* zeros: index 0 is always a valid block */
		return 0;
	return run_input(r, idx, path, b);
}

int
run_input(const RunOpts *r, int idx, const char *path, InterpBuf *b)
{
	int kind;
	uint64_t seed;

	if (path)
		return load_npy(path, b);
	parse_fill(r->fill ? r->fill : "random:0", &kind, &seed);
	InterpRng mix = { seed ^ (uint64_t)idx * 0x9e3779b97f4a7c15ull };
	interp_fill(b, (InterpFill)kind, interp_rng_next(&mix));
	return 0;
}

/* NAME=PATH options that name no operand are mistakes. */
static int
check_names(const char *const *v, int n, const char *const *names,
    int nn, const char *opt)
{
	int i, j;

	for (i = 0; i < n; i++) {
		size_t len = (size_t)(strchr(v[i], '=') - v[i]);
		for (j = 0; j < nn; j++)
			if (strlen(names[j]) == len &&
			    strncmp(names[j], v[i], len) == 0)
				break;
		if (j == nn) {
			fprintf(stderr, "pallasc: error: %s '%.*s' names no "
			    "%s of the entry\n", opt, (int)len, v[i],
			    strcmp(opt, "--smem") == 0 ? "SMEM table" :
			    "input");
			return -1;
		}
	}
	return 0;
}

int
run_smem_tables(const RunOpts *r, const CKernel *k, InterpBuf *b,
    int *known)
{
	const char **names = xcalloc((size_t)k->nop + 1, sizeof(char *));
	int i, n = 0, rc;

	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_SMEM_TABLE) {
			interp_buf_alloc(&b[i], k->op[i].name, k->op[i].dtype,
			    &k->op[i].shape);
			names[n++] = k->op[i].name;
		}
	rc = check_names(r->smem.v, r->smem.n, names, n, "--smem");
	free(names);
	if (!rc && r->splash_mask && (rc = run_splash_tables(r, k, b)) == 0)
		for (i = 0; i < k->nop; i++)
			known[i] |= k->op[i].role == ROLE_SMEM_TABLE &&
			    run_splash_fills(k, i);
	for (i = 0; i < k->nop && !rc; i++) {
		const char *path;
		if (k->op[i].role != ROLE_SMEM_TABLE || !(path =
		    file_for(r->smem.v, r->smem.n, k->op[i].name)))
			continue;
		rc = load_npy(path, &b[i]);
		known[i] = 1;
	}
	return rc;
}

/* A host buffer of the size of operand 'name': 0, or -1 after a message
   (the size is the user's, so running out of memory is an error). */
static int
host_buf(InterpBuf *b, const char *name, DType t, const Shape *s)
{
	if (interp_buf_try_alloc(b, name, t, s) == 0)
		return 0;
	fprintf(stderr, "pallasc: error: out of host memory for '%s' "
	    "(%lld bytes)\n", name, (long long)interp_buf_bytes(t, s));
	return -1;
}

/* --------------------------------------------------------------- outputs */

static void
print_output(Buf *out, const InterpBuf *b)
{
	int64_t i, n = shape_numel(&b->shape), nan = 0;
	double sum = 0, asum = 0;

	for (i = 0; i < n; i++) {
		double v = interp_buf_get(b, i);
		if (isnan(v)) {
			nan++;
			continue;
		}
		sum += v;
		asum += fabs(v);
	}
	buf_printf(out, "%s: %s", b->name, dtype_name(b->dtype));
	shape_print(out, &b->shape);
	buf_printf(out, " sum=%.9g abs=%.9g", sum, asum);
	if (nan)
		buf_printf(out, " nan=%lld", (long long)nan);
	buf_puts(out, "\n  first:");
	for (i = 0; i < n && i < 8; i++)
		buf_printf(out, " %.9g", interp_buf_get(b, i));
	buf_putc(out, '\n');
}

static int
save_output(const RunOpts *r, const InterpBuf *b, Buf *out)
{
	char err[512];
	char *path;
	int rc;

	path = xmalloc(strlen(r->save_dir) + strlen(b->name) + 8);
	sprintf(path, "%s/%s.npy", r->save_dir, b->name);
	rc = interp_npy_write(path, b, err, sizeof err);
	if (rc)
		fprintf(stderr, "pallasc: error: %s\n", err);
	else
		buf_printf(out, "wrote %s\n", path);
	free(path);
	return rc;
}

static int
emit(const RunOpts *r, const InterpBuf *b, Buf *out)
{
	if (r->save_dir)
		return save_output(r, b, out);
	print_output(out, b);
	return 0;
}

int
run_output(const RunOpts *r, const InterpBuf *b, Buf *out)
{
	return emit(r, b, out);
}

/* --------------------------------------------------------------- running */

static int
run_kernel(const RunOpts *r, const CheckedModule *m, const CExport *e,
    Diag *d, Buf *out)
{
	const CKernel *k = e->kernel;
	Buf stats = { 0 };
	InterpBuf *b = xcalloc((size_t)k->nop + 1, sizeof(InterpBuf));
	const char **names = xcalloc((size_t)k->nop + 1, sizeof(char *));
	InterpOptions o = {0};
	int i, rc = 0, ntab = 0, nin = 0;

	for (i = 0; i < k->nop; i++) {
		const COperand *op = &k->op[i];
		if (!rc)
			rc = host_buf(&b[i], op->name, op->dtype, &op->shape);
		if (op->role == ROLE_SMEM_TABLE)
			names[ntab++] = op->name;
	}
	for (i = 0; i < k->nop; i++)
		if (k->op[i].role == ROLE_IN)
			names[ntab + nin++] = k->op[i].name;
	if (!rc)
		rc = check_names(r->smem.v, r->smem.n, names, ntab, "--smem") |
		    check_names(r->file.v, r->file.n, names + ntab, nin,
		    "--input-file");
	if (!rc && r->splash_mask)
		rc = run_splash_tables(r, k, b);
	for (i = 0; i < k->nop && !rc; i++)
		if (k->op[i].role != ROLE_OUT && !(r->splash_mask &&
		    run_splash_fills(k, i)))
			rc = make_input(r, i, k->op[i].role ==
			    ROLE_SMEM_TABLE, &b[i]);
	o.shuffle = r->shuffle;
	o.seed = r->seed;
	o.warn_unwritten = 1;
	if (!rc && r->interpret && interp_kernel(k, b, k->nop, &o, d) != 0)
		rc = -1;
	if (!rc && !r->interpret && sim_kernel(r, m, e->cname, b, k->nop, d,
	    &stats, NULL) != 0)
		rc = -1;
	for (i = 0; i < k->nop && !rc; i++)
		if (k->op[i].role == ROLE_OUT)
			rc = emit(r, &b[i], out);
	if (!rc && stats.n)
		buf_puts(out, stats.p);
	buf_free(&stats);
	for (i = 0; i < k->nop; i++)
		interp_buf_free(&b[i]);
	free(b);
	free(names);
	return rc ? EXIT_USER : EXIT_OK;
}

/* A func: evaluated in interpret mode, or its kernels run on the
   simulator one after another (pallasc-func.c). */
static int
run_func(const RunOpts *r, const CheckedModule *m, const CExport *e,
    Diag *d, Buf *out)
{
	const CFunc *f = e->func;
	InterpBuf *b = xcalloc((size_t)f->nparam + 1, sizeof(InterpBuf));
	const char **names = xcalloc((size_t)f->nparam + 1, sizeof(char *));
	InterpBuf res;
	Buf stats = { 0 };
	int i, rc = 0;

	if (r->smem.n || r->splash_mask) {
		fprintf(stderr, "pallasc: error: func '%s' has no SMEM "
		    "tables\n", e->cname);
		rc = -1;
	}
	for (i = 0; i < f->nparam; i++) {
		if (!rc)
			rc = host_buf(&b[i], f->param[i].name,
			    f->param[i].dtype, &f->param[i].shape);
		names[i] = f->param[i].name;
	}
	rc = rc ? rc : check_names(r->file.v, r->file.n, names, f->nparam,
	    "--input-file");
	for (i = 0; i < f->nparam && !rc; i++)
		rc = make_input(r, i, 0, &b[i]);
	memset(&res, 0, sizeof res);
	if (!rc)
		rc = host_buf(&res, e->cname, f->rdtype, &f->rshape);
	if (!rc && (r->interpret ? interp_func(f, b, f->nparam, &res, NULL,
	    d) : sim_func(r, m, e, b, &res, d, &stats)) != 0)
		rc = -1;
	if (!rc)
		rc = emit(r, &res, out);
	if (!rc && stats.n)
		buf_puts(out, stats.p);
	buf_free(&stats);
	interp_buf_free(&res);
	for (i = 0; i < f->nparam; i++)
		interp_buf_free(&b[i]);
	free(b);
	free(names);
	return rc ? EXIT_USER : EXIT_OK;
}

/* The export to run: --entry, or the only one. */
static const CExport *
pick(const RunOpts *r, const CheckedModule *m)
{
	int i;

	for (i = 0; i < m->nexport && r->entry; i++)
		if (strcmp(m->exp[i].cname, r->entry) == 0)
			return &m->exp[i];
	if (!r->entry && m->nexport == 1)
		return &m->exp[0];
	if (r->entry)
		fprintf(stderr, "pallasc: error: no export named '%s'",
		    r->entry);
	else if (m->nexport == 0)
		fprintf(stderr, "pallasc: error: nothing to run: the file has "
		    "no export");
	else
		fprintf(stderr, "pallasc: error: the file has %d exports; "
		    "choose one with --entry", m->nexport);
	for (i = 0; i < m->nexport; i++)
		fprintf(stderr, "%s %s", i ? "," : " (exports:",
		    m->exp[i].cname);
	fputs(m->nexport ? ")\n" : "\n", stderr);
	return NULL;
}

int
run_select(const RunOpts *r, const CheckedModule *m, CheckedModule *out)
{
	const CExport *e;

	*out = *m;
	if (!r->entry)
		return 0;
	if (!(e = pick(r, m)))
		return EXIT_USER;
	out->exp = (CExport *)e;
	out->nexport = 1;
	return 0;
}

int
run_module(const RunOpts *r, const CheckedModule *m, Diag *d, Buf *out)
{
	const CExport *e;

	if (!(e = pick(r, m)))
		return EXIT_USER;
	if (e->kernel)
		return run_kernel(r, m, e, d, out);
	return run_func(r, m, e, d, out);
}
