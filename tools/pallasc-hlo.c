/*
 * pallasc-hlo.c - the driver's graph path: --emit=hlo of a .pk module
 * (each exported func lowered to HLO, or the one --entry names), and
 * --interpret --run of an .hlo module (its entry computation on the
 * reference evaluator, with inputs made and outputs printed as for a .pk
 * export by pallasc-run.c).
 */
#include <stdlib.h>
#include <string.h>

#include "graph/lower.h"
#include "tools/pallasc.h"

/* ---------------------------------------------------------- --emit=hlo */

/* Lowers and prints one func; modules are separated as in lit tests. */
static int
emit_func(const RunOpts *r, const CheckedModule *m, const CExport *e,
    Diag *d, Arena *a, Strtab *s, Buf *out, int *count)
{
	HloModule *hm = hlo_from_func(m, e->func, d, a, s);
	Buf one = {0};

	if (!hm)
		return -1;
	if (!r->opt)
		hlo_print(&one, hm);
	else if (hlo_opt_emit(r, hm, m->preset, e->cname, d, &one) != EXIT_OK) {
		buf_free(&one);
		return -1;
	}
	if ((*count)++)
		buf_puts(out, "\n// -----\n\n");
	buf_putn(out, one.p ? one.p : "", one.n);
	buf_free(&one);
	return 0;
}

/* The export or local named 'name', or NULL. */
static const CExport *
find(const CheckedModule *m, const char *name)
{
	int i;

	for (i = 0; i < m->nexport; i++)
		if (strcmp(m->exp[i].cname, name) == 0)
			return &m->exp[i];
	for (i = 0; i < m->nlocal; i++)
		if (strcmp(m->local[i].cname, name) == 0)
			return &m->local[i];
	return NULL;
}

int
hlo_emit_module(const RunOpts *r, const CheckedModule *m, Diag *d,
    Arena *a, Strtab *s, Buf *out)
{
	const CExport *e;
	int i, count = 0, bad = 0;

	if (r->entry) {
		if (!(e = find(m, r->entry))) {
			fprintf(stderr, "pallasc: error: no func named '%s'\n",
			    r->entry);
			return EXIT_USER;
		}
		if (!e->func) {
			fprintf(stderr, "pallasc: error: '%s' is a kernel; "
			    "--emit=hlo lowers funcs (a func's call of a "
			    "kernel becomes a custom-call)\n", r->entry);
			return EXIT_USER;
		}
		return emit_func(r, m, e, d, a, s, out, &count) ? EXIT_USER :
		    EXIT_OK;
	}
	for (i = 0; i < m->nexport; i++)
		if (m->exp[i].func)
			bad |= emit_func(r, m, &m->exp[i], d, a, s, out,
			    &count);
	if (bad)
		return EXIT_USER;
	if (count == 0) {
		fprintf(stderr, "pallasc: error: --emit=hlo lowers exported "
		    "funcs, and the file exports none\n");
		return EXIT_USER;
	}
	return EXIT_OK;
}

/* ---------------------------------------------------- running an .hlo */

static int
dtype_of(HloType t, DType *dt)
{
	switch (t) {
	case HT_F32: *dt = DT_F32; return 0;
	case HT_BF16: *dt = DT_BF16; return 0;
	case HT_S32: *dt = DT_I32; return 0;
	case HT_S8: *dt = DT_I8; return 0;
	case HT_PRED: *dt = DT_BOOL; return 0;
	default: return -1;
	}
}

/* Does the --input-file key (text before '=') name parameter p (number i)? */
static int
names_param(const char *v, const HloInstr *p, int i)
{
	size_t len = (size_t)(strchr(v, '=') - v);
	char num[16];

	snprintf(num, sizeof num, "%d", i);
	return (strlen(num) == len && !strncmp(v, num, len)) ||
	    (strlen(p->name) == len && !strncmp(v, p->name, len)) ||
	    (p->meta.op_name && strlen(p->meta.op_name) == len &&
	    !strncmp(v, p->meta.op_name, len));
}

/* The file for parameter p (the last --input-file naming it), or NULL. */
static const char *
param_file(const RunOpts *r, const HloInstr *p, int i)
{
	int j;

	for (j = r->file.n - 1; j >= 0; j--)
		if (names_param(r->file.v[j], p, i))
			return strchr(r->file.v[j], '=') + 1;
	return NULL;
}

/* Every --input-file must name a parameter of the entry. */
static int
check_files(const RunOpts *r, const HloComp *c)
{
	int i, j;

	for (j = 0; j < r->file.n; j++) {
		for (i = 0; i < c->nparam; i++)
			if (names_param(r->file.v[j], hlo_param(c, i), i))
				break;
		if (i == c->nparam) {
			fprintf(stderr, "pallasc: error: --input-file '%.*s' "
			    "names no parameter of the entry computation\n",
			    (int)(strchr(r->file.v[j], '=') - r->file.v[j]),
			    r->file.v[j]);
			return -1;
		}
	}
	return 0;
}

/* Input i: the parameter's name (its op_name, the func's), its data. */
static int
make_param(const RunOpts *r, const HloComp *c, int i, InterpBuf *b)
{
	const HloInstr *p = hlo_param(c, i);
	DType dt;
	Shape s;

	if (!p || p->shape.type == HT_TUPLE || dtype_of(p->shape.type, &dt) ||
	    p->shape.rank > SEMA_MAXRANK) {
		fprintf(stderr, "pallasc: error: parameter %d of the entry "
		    "computation is not an f32, bf16, s32, s8 or pred array\n",
		    i);
		return -1;
	}
	s.rank = p->shape.rank;
	memcpy(s.d, p->shape.dim, sizeof s.d[0] * (size_t)s.rank);
	if (interp_buf_try_alloc(b, p->meta.op_name ? p->meta.op_name :
	    p->name, dt, &s)) {
		fprintf(stderr, "pallasc: error: out of host memory for "
		    "parameter %d (%lld bytes)\n", i,
		    (long long)interp_buf_bytes(dt, &s));
		return -1;
	}
	return run_input(r, i, param_file(r, p, i), b);
}

/* The outputs' name: the module's without "jit_", or the entry's. */
static const char *
out_name(const HloModule *m, Arena *a, int i, int n)
{
	const char *base = m->name ? m->name : hlo_entry(m)->name;

	if (!strncmp(base, "jit_", 4) && base[4])
		base += 4;
	return n > 1 ? arena_printf(a, "%s.%d", base, i) : base;
}

/* Prints (or saves) the results res[0 .. n) and frees them. */
static int
outputs(const RunOpts *r, const HloModule *m, Arena *a, HloBuf *res, int n,
    Buf *out)
{
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		InterpBuf b;
		if (!rc && (dtype_of(res[i].type, &b.dtype) ||
		    res[i].rank > SEMA_MAXRANK)) {
			fprintf(stderr, "pallasc: error: output %d is %s, which "
			    "cannot be printed\n", i, hlo_type_name(res[i].type));
			rc = -1;
		}
		if (!rc) {
			b.name = out_name(m, a, i, n);
			b.shape.rank = res[i].rank;
			memcpy(b.shape.d, res[i].dim, sizeof b.shape.d[0] *
			    (size_t)res[i].rank);
			b.data = res[i].data;
			rc = run_output(r, &b, out);
		}
		hlo_buf_free(&res[i]);
	}
	return rc;
}

#define MAXRES 64

int
hlo_make_args(const RunOpts *r, const HloComp *c, InterpBuf **bp,
    HloBuf **argp)
{
	InterpBuf *b;
	HloBuf *args;
	int i, rc = 0;

	if (check_files(r, c))
		return -1;
	b = xcalloc((size_t)c->nparam + 1, sizeof *b);
	args = xcalloc((size_t)c->nparam + 1, sizeof *args);
	for (i = 0; i < c->nparam && !rc; i++) {
		rc = make_param(r, c, i, &b[i]);
		args[i].type = hlo_param(c, i)->shape.type;
		args[i].rank = b[i].shape.rank;
		memcpy(args[i].dim, b[i].shape.d, sizeof args[i].dim);
		args[i].data = b[i].data;
	}
	*bp = b;
	*argp = args;
	if (rc)
		hlo_free_args(c, b, args);
	return rc;
}

void
hlo_free_args(const HloComp *c, InterpBuf *b, HloBuf *args)
{
	int i;

	for (i = 0; i < c->nparam; i++)
		interp_buf_free(&b[i]);
	free(b);
	free(args);
}

int
hlo_run_module(const RunOpts *r, const HloModule *m, const char *file,
    Arena *a, Buf *out)
{
	const HloComp *c = hlo_entry(m);
	InterpBuf *b;
	HloBuf *args, res[MAXRES];
	char err[512];
	int n, rc = 0;

	if (r->smem.n || r->splash_mask) {
		fprintf(stderr, "pallasc: error: an HLO module has no SMEM "
		    "tables (--smem, --splash-mask)\n");
		return EXIT_USER;
	}
	if (r->entry && strcmp(r->entry, c->name) && strcmp(r->entry,
	    out_name(m, a, 0, 1))) {
		fprintf(stderr, "pallasc: error: --entry '%s': the module's "
		    "entry computation is '%s'\n", r->entry, c->name);
		return EXIT_USER;
	}
	if (hlo_make_args(r, c, &b, &args))
		return EXIT_USER;
	if ((n = hlo_eval_ex(m, args, c->nparam, res, MAXRES,
	    HLO_EVAL_MXU_PRECISION, err, sizeof err)) < 0) {
		fprintf(stderr, "pallasc: error: %s: %s\n", file, err);
		rc = -1;
	} else
		rc = outputs(r, m, a, res, n, out);
	hlo_free_args(c, b, args);
	return rc ? EXIT_USER : EXIT_OK;
}

/* The shape of result k of a root (an array, or a tuple of arrays) as
   a host buffer's; -1 for a nested tuple or a type runs do not have. */
static int
result_shape(const HloInstr *root, int k, DType *dt, Shape *s)
{
	const HloShape *h = root->shape.type == HT_TUPLE ?
	    &root->shape.elem[k] : &root->shape;

	if (h->type == HT_TUPLE || dtype_of(h->type, dt) ||
	    h->rank > SEMA_MAXRANK)
		return -1;
	s->rank = h->rank;
	memcpy(s->d, h->dim, sizeof s->d[0] * (size_t)s->rank);
	return 0;
}

int
hlo_sim_module(const RunOpts *r, HloModule *m, const MachPreset *mp,
    Diag *d, Arena *a, Buf *out)
{
	const HloComp *c = hlo_entry(m);
	const HloInstr *root = c->instr.v[c->root];
	int n = root->shape.type == HT_TUPLE ? root->shape.ntuple : 1;
	InterpBuf *b, *res = xcalloc((size_t)n + 1, sizeof *res);
	HloBuf *args;
	Buf stats = { 0 };
	DType dt;
	Shape s;
	int rc = 0, i;

	if (r->smem.n || r->splash_mask) {
		fprintf(stderr, "pallasc: error: an HLO module has no SMEM "
		    "tables (--smem, --splash-mask)\n");
		free(res);
		return EXIT_USER;
	}
	for (i = 0; i < n && !rc; i++)
		if (result_shape(root, i, &dt, &s)) {
			fprintf(stderr, "pallasc: error: result %d of the entry "
			    "is not an f32, bf16, s32, s8 or pred array, which "
			    "a compiled run returns (--interpret --run "
			    "evaluates it)\n", i);
			rc = -1;
		} else if (interp_buf_try_alloc(&res[i], out_name(m, a, i, n),
		    dt, &s)) {
			fprintf(stderr, "pallasc: error: out of host memory for "
			    "result %d\n", i);
			rc = -1;
		}
	if (!rc && hlo_make_args(r, c, &b, &args) == 0) {
		rc = sim_hlo(r, m, mp, b, res, n, d, &stats);
		for (i = 0; i < n && !rc; i++)
			rc = run_output(r, &res[i], out);
		hlo_free_args(c, b, args);
	} else
		rc = -1;
	if (!rc && stats.n)
		buf_puts(out, stats.p);
	buf_free(&stats);
	for (i = 0; i < n; i++)
		interp_buf_free(&res[i]);
	free(res);
	return rc ? EXIT_USER : EXIT_OK;
}
