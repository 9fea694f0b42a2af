/*
 * pallas-asm-run.c - 'pallas-asm run': load an assembly file or an image,
 * call one entry point on a simulated device through the runtime API
 * (include/pallas/runtime.h), then print the outputs, the counters and
 * any trap.
 *
 *	pallas-asm run FILE [--preset NAME] [--entry NAME] [--stats]
 *	    [--trace OUT.json] [--poison[=nan|int]] [--max-cycles N]
 *	    [--in NAME=FILE|NAME=iota|NAME=NUMBER] [--out NAME=FILE] [--quiet]
 *
 * Inputs not given with --in start as zeros.  Each output (out, inout)
 * is printed as numbers, or written raw with --out.  A trap prints its
 * message to stderr and exits 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pallas/runtime.h"
#include "tools/pallas-asm.h"

#define MAXARG 64

typedef struct RunOpts {
	const char *file, *preset, *entry, *trace;
	int stats, quiet;
	PallasPoison poison;
	uint64_t max_cycles;
	const char *in[MAXARG], *out[MAXARG];	/* "NAME=..." */
	int nin, nout;
} RunOpts;

static int
opt_value(int argc, char **argv, int *i, const char **v)
{
	if (*i + 1 == argc)
		return pa_usage("missing argument to '%s'", argv[*i]);
	*v = argv[++*i];
	return PA_OK;
}

static int
add_spec(const char **list, int *n, const char *v, const char *flag)
{
	if (!strchr(v, '='))
		return pa_usage("%s takes NAME=VALUE", flag);
	if (*n == MAXARG)
		return pa_usage("too many %s options", flag);
	list[(*n)++] = v;
	return PA_OK;
}

static int
run_flag(RunOpts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = NULL;
	char *end;
	int rc;

	if (!strcmp(a, "--stats"))
		o->stats = 1;
	else if (!strcmp(a, "--quiet"))
		o->quiet = 1;
	else if (!strcmp(a, "--poison") || !strcmp(a, "--poison=nan"))
		o->poison = PALLAS_POISON_NAN;
	else if (!strcmp(a, "--poison=int"))
		o->poison = PALLAS_POISON_INT;
	else if (!strcmp(a, "--preset"))
		return opt_value(argc, argv, i, &o->preset);
	else if (!strcmp(a, "--entry"))
		return opt_value(argc, argv, i, &o->entry);
	else if (!strcmp(a, "--trace"))
		return opt_value(argc, argv, i, &o->trace);
	else if (!strcmp(a, "--max-cycles")) {
		if ((rc = opt_value(argc, argv, i, &v)))
			return rc;
		o->max_cycles = strtoull(v, &end, 10);
		if (*end || !*v || v[0] == '-')
			return pa_usage("bad --max-cycles '%s'", v);
	} else if (!strcmp(a, "--in") || !strcmp(a, "--out")) {
		if ((rc = opt_value(argc, argv, i, &v)))
			return rc;
		return a[2] == 'i' ? add_spec(o->in, &o->nin, v, "--in") :
		    add_spec(o->out, &o->nout, v, "--out");
	} else
		return pa_usage("unknown option '%s'", a);
	return PA_OK;
}

static int
run_args(RunOpts *o, int argc, char **argv)
{
	int i, rc;

	for (i = 2; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if ((rc = run_flag(o, argc, argv, &i)))
				return rc;
		} else if (o->file)
			return pa_usage("more than one input file ('%s')",
			    argv[i]);
		else
			o->file = argv[i];
	}
	if (!o->file)
		return pa_usage("%s", "no input file");
	if (o->preset && !mach_preset(o->preset))
		return pa_usage("unknown preset '%s' (v4, v5e, v6e, small)",
		    o->preset);
	return PA_OK;
}

/* The value after "NAME=" in the spec list for operand name, or NULL. */
static const char *
spec_for(const char *const *list, int n, const char *name)
{
	size_t k = strlen(name);
	int i;

	for (i = 0; i < n; i++)
		if (strncmp(list[i], name, k) == 0 && list[i][k] == '=')
			return list[i] + k + 1;
	return NULL;
}

static uint64_t
dtype_size(int dt)
{
	return dt == MACH_F32 || dt == MACH_I32 ? 4 : dt == MACH_BF16 ||
	    dt == MACH_I16 ? 2 : 1;
}

/* Element i of buffer b (operand dtype dt) set to v. */
static void
store(uint8_t *b, int dt, uint64_t i, double v)
{
	float f = (float)v;
	int64_t n = (int64_t)v;
	uint16_t h;

	switch (dt) {
	case MACH_F32: memcpy(b + 4 * i, &f, 4); break;
	case MACH_BF16:
		h = pallas_f32_to_bf16(f);
		memcpy(b + 2 * i, &h, 2);
		break;
	case MACH_I32: { int32_t w = (int32_t)n; memcpy(b + 4 * i, &w, 4); }
		break;
	case MACH_I16: { int16_t w = (int16_t)n; memcpy(b + 2 * i, &w, 2); }
		break;
	default: b[i] = (uint8_t)n; break;
	}
}

/* Fills an input from FILE (exact size), 'iota' or one number. */
static int
fill_input(const MachOperand *o, const char *name, const char *spec,
    uint8_t *buf)
{
	uint64_t n = o->bytes / dtype_size(o->dtype), i;
	char *data, *end;
	size_t len;
	double v;
	int rc;

	if (!strcmp(spec, "iota")) {
		for (i = 0; i < n; i++)
			store(buf, o->dtype, i, (double)i);
		return PA_OK;
	}
	v = strtod(spec, &end);
	if (*spec && !*end) {
		for (i = 0; i < n; i++)
			store(buf, o->dtype, i, v);
		return PA_OK;
	}
	if ((rc = pa_read(spec, &data, &len)))
		return rc;
	if (len != o->bytes) {
		fprintf(stderr, "pallas-asm: error: '%s' has %zu bytes; operand "
		    "'%s' needs %llu\n", spec, len, name,
		    (unsigned long long)o->bytes);
		free(data);
		return PA_USER;
	}
	memcpy(buf, data, len);
	free(data);
	return PA_OK;
}

static void
print_output(const MachOperand *o, const char *name, const uint8_t *b)
{
	uint64_t n = o->bytes / dtype_size(o->dtype), i, per;
	uint16_t h;
	int16_t s;
	int32_t w;
	float f;
	int k;

	per = o->rank && o->shape[o->rank - 1] > 0 &&
	    o->shape[o->rank - 1] <= 16 ? (uint64_t)o->shape[o->rank - 1] : 8;
	printf("%s:", name);
	for (k = 0; k < o->rank; k++)
		printf("%s%lld", k ? "x" : " ", (long long)o->shape[k]);
	printf("\n");
	for (i = 0; i < n; i++) {
		switch (o->dtype) {
		case MACH_F32: memcpy(&f, b + 4 * i, 4); printf(" %g", f); break;
		case MACH_BF16:
			memcpy(&h, b + 2 * i, 2);
			printf(" %g", pallas_bf16_to_f32(h));
			break;
		case MACH_I32: memcpy(&w, b + 4 * i, 4); printf(" %d", w); break;
		case MACH_I16: memcpy(&s, b + 2 * i, 2); printf(" %d", s); break;
		case MACH_I8: printf(" %d", (int8_t)b[i]); break;
		default: printf(" %u", b[i]); break;
		}
		if ((i + 1) % per == 0 || i + 1 == n)
			printf("\n");
	}
}

static int
write_output(const char *path, const uint8_t *b, uint64_t n)
{
	FILE *f = fopen(path, "wb");
	int bad;

	if (!f) {
		fprintf(stderr, "pallas-asm: error: cannot write '%s'\n", path);
		return PA_USER;
	}
	bad = n && fwrite(b, 1, (size_t)n, f) != n;
	bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "pallas-asm: error: writing '%s' failed\n",
		    path);
		return PA_USER;
	}
	return PA_OK;
}

/* The entry to run: --entry, else the only one. */
static const MachEntry *
pick_entry(const MachProgram *p, const char *want)
{
	uint32_t i;

	for (i = 0; i < p->nentry; i++)
		if (want ? !strcmp(mach_program_strat(p, p->entry[i].name), want)
		    : p->nentry == 1)
			return &p->entry[i];
	if (want)
		fprintf(stderr, "pallas-asm: error: no entry point '%s'\n",
		    want);
	else if (p->nentry == 0)
		fprintf(stderr, "pallas-asm: error: the program has no entry "
		    "point (declare one with '.entry NAME')\n");
	else
		fprintf(stderr, "pallas-asm: error: the program has %u entry "
		    "points; choose one with --entry\n", p->nentry);
	return NULL;
}

/* Host buffers of entry e: allocated, inputs filled. */
static int
make_buffers(const RunOpts *o, const MachProgram *p, const MachEntry *e,
    void **buf)
{
	const MachOperand *d;
	const char *name, *spec;
	uint32_t i;
	int rc;

	for (i = 0; i < e->nopnd; i++) {
		d = &p->opnd[e->first_opnd + i];
		name = mach_program_strat(p, d->name);
		if (!(buf[i] = calloc(1, d->bytes ? (size_t)d->bytes : 1))) {
			fprintf(stderr, "pallas-asm: error: out of memory\n");
			return PA_INTERNAL;
		}
		spec = spec_for(o->in, o->nin, name);
		if (spec && (d->role == MACH_ROLE_OUT ||
		    d->role == MACH_ROLE_CONST)) {
			fprintf(stderr, "pallas-asm: error: --in %s: not an "
			    "input\n", name);
			return PA_USAGE;
		}
		if (spec && (rc = fill_input(d, name, spec, buf[i])))
			return rc;
	}
	return PA_OK;
}

static int
report_outputs(const RunOpts *o, const MachProgram *p, const MachEntry *e,
    void **buf)
{
	const MachOperand *d;
	const char *name, *path;
	uint32_t i;
	int rc;

	for (i = 0; i < e->nopnd; i++) {
		d = &p->opnd[e->first_opnd + i];
		if (d->role != MACH_ROLE_OUT && d->role != MACH_ROLE_INOUT)
			continue;
		name = mach_program_strat(p, d->name);
		if ((path = spec_for(o->out, o->nout, name)) != NULL) {
			if ((rc = write_output(path, buf[i], d->bytes)))
				return rc;
		} else if (!o->quiet)
			print_output(d, name, buf[i]);
	}
	return PA_OK;
}

static void
print_stats(PallasDevice *dev)
{
	PallasStats st;
	char text[8192];

	if (pallas_last_stats(dev, &st) == PALLAS_OK &&
	    pallas_stats_format(&st, text, sizeof text) >= 0)
		fputs(text, stderr);
}

/* Loads the program into the device (as an image the runtime checks). */
static int
load(PallasDevice *dev, const MachProgram *p, PallasProgram **prog)
{
	char err[256];
	size_t len;
	void *img;
	int rc;

	if (mach_image_write(p, &img, &len, err, sizeof err)) {
		fprintf(stderr, "pallas-asm: internal error: %s\n", err);
		return PA_INTERNAL;
	}
	rc = pallas_program_load(dev, img, len, prog);
	free(img);
	if (rc) {
		fprintf(stderr, "pallas-asm: error: %s\n",
		    pallas_last_error(dev));
		return PA_USER;
	}
	return PA_OK;
}

static int
call(const RunOpts *o, PallasDevice *dev, const MachProgram *p,
    const MachEntry *e)
{
	void *buf[256] = { 0 };
	PallasProgram *prog = NULL;
	PallasTrap trap;
	uint32_t i;
	int rc;

	if (e->nopnd > 256) {
		fprintf(stderr, "pallas-asm: error: too many operands\n");
		return PA_USER;
	}
	if (!(rc = make_buffers(o, p, e, buf)) && !(rc = load(dev, p, &prog))) {
		rc = pallas_call(dev, prog, mach_program_strat(p, e->name), buf,
		    e->nopnd);
		if (rc == PALLAS_ETRAP && !pallas_last_trap(dev, &trap)) {
			fprintf(stderr, "pallas-asm: %s\n", trap.message);
			rc = PA_USER;
		} else if (rc) {
			fprintf(stderr, "pallas-asm: error: %s\n",
			    pallas_last_error(dev));
			rc = PA_USER;
		} else
			rc = report_outputs(o, p, e, buf);
		if (o->stats)
			print_stats(dev);
	}
	pallas_program_free(prog);
	for (i = 0; i < e->nopnd; i++)
		free(buf[i]);
	return rc;
}

int
pa_run(int argc, char **argv)
{
	RunOpts o;
	PallasDevice *dev = NULL;
	const MachEntry *e;
	MachProgram *p;
	int rc;

	memset(&o, 0, sizeof o);
	if ((rc = run_args(&o, argc, argv)))
		return rc;
	if ((rc = pa_load(o.file, o.preset, &p)))
		return rc;
	if (o.preset && strcmp(o.preset, p->preset) != 0)
		fprintf(stderr, "pallas-asm: note: the program is for preset "
		    "'%s'; --preset %s is ignored\n", p->preset, o.preset);
	if (!(e = pick_entry(p, o.entry)))
		rc = PA_USER;
	else if ((rc = pallas_device_open(p->preset, &dev)) != PALLAS_OK) {
		fprintf(stderr, "pallas-asm: error: cannot open a '%s' device: "
		    "%s\n", p->preset, pallas_strerror(rc));
		rc = PA_INTERNAL;
	} else {
		pallas_device_set_poison(dev, o.poison);
		if (o.max_cycles)
			pallas_device_set_cycle_limit(dev, o.max_cycles);
		if (o.trace && pallas_device_set_trace(dev, o.trace)) {
			fprintf(stderr, "pallas-asm: error: %s\n",
			    pallas_last_error(dev));
			rc = PA_USER;
		} else
			rc = call(&o, dev, p, e);
	}
	pallas_device_close(dev);
	mach_program_free(p);
	return rc;
}
