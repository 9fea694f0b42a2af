/*
 * runtime.c - the public runtime API (include/pallas/runtime.h): devices,
 * program loading (also of images linked into the caller, cached on the
 * device), calls with host buffers or checked tensors, counters, traps,
 * traces and error messages.  A device owns its simulator and all
 * memory; nothing here is global, and nothing exits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"
#include "pallas/runtime.h"

struct PallasDevice {
	const MachPreset *mp;
	MachSim *sim;
	PallasPoison poison;
	uint64_t limit;
	char err[1024];
	PallasStats stats;
	PallasRegionStats *rstats;
	PallasTrap trap;
	struct MachTrace *trace;
	char *trace_path;
	int trace_mem;
	int print_stats;
	uint64_t ncall;
	PallasCounters total;
	struct ImageProg *images;	/* pallas_call_image's programs */
};

struct PallasProgram {
	MachProgram *p;
	MachCode *code;
};

/* A program loaded from a linked-in image, kept until the device closes. */
typedef struct ImageProg {
	const void *image;
	size_t len;
	PallasProgram *prog;
	struct ImageProg *next;
} ImageProg;

static const char *const errtext[PALLAS_NERR] = {
	[PALLAS_OK] = "success",
	[PALLAS_ENOMEM] = "out of memory",
	[PALLAS_EINVAL] = "invalid argument",
	[PALLAS_EFORMAT] = "malformed program image",
	[PALLAS_EVERSION] = "unsupported program image version",
	[PALLAS_EPRESET] = "unknown or mismatched machine preset",
	[PALLAS_ENOENT] = "no such entry point",
	[PALLAS_EMISMATCH] = "arguments do not match the entry point",
	[PALLAS_ETRAP] = "the program trapped",
	[PALLAS_EIO] = "input/output error",
	[PALLAS_ECHECK] = "a run-time check of the kernel failed",
	[PALLAS_ECOMPILE] = "the module did not compile",
};

static const char *const dtname[PALLAS_NDTYPE] = {
	"f32", "bf16", "i32", "i16", "i8", "u8", "bool"
};

const char *
pallas_strerror(int err)
{
	return err >= 0 && err < PALLAS_NERR ? errtext[err] : "unknown error";
}

static int
fail(PallasDevice *dev, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dev->err, sizeof dev->err, fmt, ap);
	va_end(ap);
	return code;
}

int
pallas_device_open(const char *preset, PallasDevice **out)
{
	const MachPreset *mp;
	PallasDevice *dev;
	const char *env;

	if (!out)
		return PALLAS_EINVAL;
	*out = NULL;
	if (!preset && (env = getenv("PALLAS_PRESET")) && *env)
		preset = env;
	if (!(mp = mach_preset(preset)))
		return PALLAS_EPRESET;
	if (!(dev = calloc(1, sizeof *dev)))
		return PALLAS_ENOMEM;
	dev->mp = mp;
	if (!(dev->sim = mach_sim_new(mp))) {
		free(dev);
		return PALLAS_ENOMEM;
	}
	dev->limit = 1000000000;
	if ((env = getenv("PALLAS_TRACE")) && *env &&
	    pallas_device_set_trace(dev, env)) {
		pallas_device_close(dev);
		return PALLAS_ENOMEM;
	}
	env = getenv("PALLAS_STATS");
	dev->print_stats = env && *env && strcmp(env, "0") != 0;
	*out = dev;
	return PALLAS_OK;
}

static void
print_summary(PallasDevice *dev)
{
	PallasStats st = dev->stats;
	char buf[4096];

	st.preset = dev->mp->name;
	st.clock_ghz = dev->mp->clock_ghz;
	st.c = dev->total;
	st.nregion = 0;
	pallas_stats_format(&st, buf, sizeof buf);
	fprintf(stderr, "pallas: %llu call%s on preset %s\n%s",
	    (unsigned long long)dev->ncall, dev->ncall == 1 ? "" : "s",
	    dev->mp->name, buf);
}

static int
write_trace(PallasDevice *dev)
{
	const char *json;
	size_t len;
	FILE *f;
	int ok;

	if (!dev->trace_path || !dev->trace)
		return PALLAS_OK;
	if (!(json = mach_trace_json(dev->trace, &len)))
		return fail(dev, PALLAS_ENOMEM, "out of memory for the trace");
	if (!(f = fopen(dev->trace_path, "w")))
		return fail(dev, PALLAS_EIO, "cannot write trace %s",
		    dev->trace_path);
	ok = fwrite(json, 1, len, f) == len;
	ok &= fclose(f) == 0;
	return ok ? PALLAS_OK : fail(dev, PALLAS_EIO, "cannot write trace %s",
	    dev->trace_path);
}

void
pallas_device_close(PallasDevice *dev)
{
	if (!dev)
		return;
	if (write_trace(dev))
		fprintf(stderr, "pallas: %s\n", dev->err);
	if (dev->print_stats)
		print_summary(dev);
	mach_trace_free(dev->trace);
	free(dev->trace_path);
	mach_sim_free(dev->sim);
	free(dev->rstats);
	while (dev->images) {
		ImageProg *ip = dev->images;

		dev->images = ip->next;
		pallas_program_free(ip->prog);
		free(ip);
	}
	free(dev);
}

const char *
pallas_device_preset(const PallasDevice *dev)
{
	return dev ? dev->mp->name : "";
}

const char *
pallas_last_error(const PallasDevice *dev)
{
	return dev ? dev->err : "";
}

static int
mach_to_pallas(int err)
{
	switch (err) {
	case MACH_OK: return PALLAS_OK;
	case MACH_ENOMEM: return PALLAS_ENOMEM;
	case MACH_EVERSION: return PALLAS_EVERSION;
	case MACH_EPRESET: return PALLAS_EPRESET;
	default: return PALLAS_EFORMAT;
	}
}

int
pallas_program_load(PallasDevice *dev, const void *image, size_t len,
    PallasProgram **out)
{
	char msg[512];
	PallasProgram *pr;
	MachProgram *p;
	int rc;

	if (!dev || !out || (!image && len))
		return dev ? fail(dev, PALLAS_EINVAL, "program_load: NULL "
		    "argument") : PALLAS_EINVAL;
	*out = NULL;
	if ((rc = mach_image_read(image, len, &p, msg, sizeof msg)))
		return fail(dev, mach_to_pallas(rc), "program image: %s", msg);
	if (strcmp(p->preset, dev->mp->name) != 0) {
		rc = fail(dev, PALLAS_EPRESET, "program was built for preset "
		    "'%s' but the device runs preset '%s'", p->preset,
		    dev->mp->name);
		mach_program_free(p);
		return rc;
	}
	if (!(pr = calloc(1, sizeof *pr)) ||
	    (rc = mach_code_new(p, &pr->code, msg, sizeof msg))) {
		rc = pr ? fail(dev, mach_to_pallas(rc), "program: %s", msg) :
		    fail(dev, PALLAS_ENOMEM, "out of memory");
		free(pr);
		mach_program_free(p);
		return rc;
	}
	pr->p = p;
	*out = pr;
	return PALLAS_OK;
}

int
pallas_program_load_file(PallasDevice *dev, const char *path,
    PallasProgram **out)
{
	unsigned char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;
	FILE *f;
	int rc;

	if (!dev || !path || !out)
		return dev ? fail(dev, PALLAS_EINVAL, "NULL argument") :
		    PALLAS_EINVAL;
	*out = NULL;
	if (!(f = fopen(path, "rb")))
		return fail(dev, PALLAS_EIO, "cannot open %s", path);
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return fail(dev, PALLAS_ENOMEM, "out of memory");
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	rc = ferror(f);
	fclose(f);
	if (rc) {
		free(buf);
		return fail(dev, PALLAS_EIO, "cannot read %s", path);
	}
	rc = pallas_program_load(dev, buf, len, out);
	free(buf);
	return rc;
}

void
pallas_program_free(PallasProgram *prog)
{
	if (!prog)
		return;
	mach_code_free(prog->code);
	mach_program_free(prog->p);
	free(prog);
}

int
pallas_program_nentry(const PallasProgram *prog)
{
	return prog ? (int)prog->p->nentry : 0;
}

const char *
pallas_program_entry(const PallasProgram *prog, int i)
{
	if (!prog || i < 0 || (uint32_t)i >= prog->p->nentry)
		return NULL;
	return mach_program_strat(prog->p, prog->p->entry[i].name);
}

static const MachEntry *
find_entry(PallasDevice *dev, const PallasProgram *prog, const char *name)
{
	const MachProgram *p = prog->p;
	uint32_t i;

	if (!name && p->nentry == 1)
		return &p->entry[0];
	for (i = 0; name && i < p->nentry; i++)
		if (strcmp(mach_program_strat(p, p->entry[i].name), name) == 0)
			return &p->entry[i];
	fail(dev, PALLAS_ENOENT, "program has no entry point '%s'",
	    name ? name : "(null)");
	return NULL;
}

/* The launch's writes into SMEM count towards its high water: the
 * argument table and the SMEM operands are the program's memory too.
 * The touch comes first: it fills what it reaches with the pattern. */
static void
put_addr(MachSim *m, uint32_t smem_addr, uint64_t addr)
{
	uint32_t w[2] = { (uint32_t)addr, (uint32_t)(addr >> 32) };

	mach_sim_touch(m, SIM_SMEM, (uint64_t)smem_addr + 8);
	memcpy(m->smem + smem_addr, w, 8);
}

/* A buffer of 'bytes' found no room in HBM, or no host memory. */
static int
hbm_fail(PallasDevice *dev, int rc, const char *what, const char *name,
    uint64_t bytes)
{
	const char *q = *name ? "'" : "";

	if (rc == MACH_ENOMEM)
		return fail(dev, PALLAS_ENOMEM, "%s%s%s: out of host memory "
		    "for its %llu bytes of HBM", what, name, q,
		    (unsigned long long)bytes);
	return fail(dev, PALLAS_EINVAL, "%s%s%s: cannot place %llu bytes in "
	    "HBM (preset '%s' has %llu)", what, name, q,
	    (unsigned long long)bytes, dev->mp->name,
	    (unsigned long long)dev->mp->hbm_bytes);
}

/* Places operand o in HBM or SMEM and copies host data in. */
static int
place(PallasDevice *dev, const MachProgram *p, const MachOperand *o,
    void *host, uint8_t **where)
{
	const char *name = mach_program_strat(p, o->name);
	MachSim *m = dev->sim;
	uint64_t addr;
	int rc;

	*where = NULL;
	if (!host && o->bytes && o->role != MACH_ROLE_CONST)
		return fail(dev, PALLAS_EINVAL, "operand '%s': NULL buffer",
		    name);
	if (o->role == MACH_ROLE_SMEM) {
		/* touch first: it fills what it reaches with the pattern */
		if (o->bytes)
			mach_sim_touch(m, SIM_SMEM, o->smem_addr + o->bytes);
		memcpy(m->smem + o->smem_addr, host, (size_t)o->bytes);
		return PALLAS_OK;
	}
	if ((rc = mach_sim_hbm_place(m, o->bytes, o->hbm_addr, &addr)))
		return hbm_fail(dev, rc, "operand '", name, o->bytes);
	*where = mach_sim_hbm(m, addr, o->bytes);
	if (o->role == MACH_ROLE_IN || o->role == MACH_ROLE_INOUT)
		memcpy(*where, host, (size_t)o->bytes);
	if (o->role == MACH_ROLE_CONST)
		memcpy(*where, p->data + o->data_off, (size_t)o->bytes);
	put_addr(m, o->smem_addr, addr);
	return PALLAS_OK;
}

static void
keep_stats(PallasDevice *dev, const MachProgram *p, const MachEntry *e)
{
	MachSim *m = dev->sim;
	PallasRegionStats *r;
	uint32_t i;
	int u;

	memset(&dev->stats, 0, sizeof dev->stats);
	dev->stats.preset = dev->mp->name;
	dev->stats.clock_ghz = dev->mp->clock_ghz;
	dev->stats.c = m->cnt;
	dev->stats.vmem_high_water = m->vmem_hw;
	dev->stats.smem_high_water = m->smem_hw;
	dev->stats.vmem_declared = e->vmem_bytes;
	dev->stats.smem_declared = e->smem_bytes;
	dev->ncall++;
	dev->total.cycles += m->cnt.cycles;
	dev->total.bundles += m->cnt.bundles;
	dev->total.stall_cycles += m->cnt.stall_cycles;
	dev->total.branch_cycles += m->cnt.branch_cycles;
	for (u = 0; u < PALLAS_NSLOT; u++)
		dev->total.slot_ops[u] += m->cnt.slot_ops[u];
	dev->total.mxu_busy_cycles += m->cnt.mxu_busy_cycles;
	dev->total.mxu_flops += m->cnt.mxu_flops;
	dev->total.hbm_read_bytes += m->cnt.hbm_read_bytes;
	dev->total.hbm_write_bytes += m->cnt.hbm_write_bytes;
	dev->total.dma_count += m->cnt.dma_count;
	free(dev->rstats);
	dev->rstats = NULL;
	if (!p->nregion || !m->region ||
	    !(r = calloc(p->nregion, sizeof *r)))
		return;
	for (i = 0; i < p->nregion; i++) {
		r[i].name = mach_program_strat(p, p->region[i]);
		r[i].entries = m->region[i].entries;
		r[i].c = m->region[i].c;
	}
	dev->rstats = r;
	dev->stats.region = r;
	dev->stats.nregion = p->nregion;
}

/* Copies in, runs, copies out. */
static int
run(PallasDevice *dev, const PallasProgram *prog, const MachEntry *e,
    void *const *buf)
{
	const MachProgram *p = prog->p;
	MachSim *m = dev->sim;
	uint8_t *where[256];
	uint32_t i;
	int rc;

	if (e->nopnd > 256)
		return fail(dev, PALLAS_EINVAL, "too many operands");
	mach_sim_reset(m, dev->poison);
	m->limit = dev->limit;
	m->trace = dev->trace;
	memset(&dev->trap, 0, sizeof dev->trap);
	for (i = 0; i < e->nopnd; i++)
		if ((rc = place(dev, p, &p->opnd[e->first_opnd + i], buf[i],
		    &where[i])))
			return rc;
	if (e->scratch_bytes) {
		uint64_t a;

		if ((rc = mach_sim_hbm_place(m, e->scratch_bytes, MACH_NOADDR,
		    &a)))
			return hbm_fail(dev, rc, "the HBM scratch", "",
			    e->scratch_bytes);
		put_addr(m, e->scratch_smem, a);
	}
	if (m->trace)
		mach_trace_begin_call(m->trace, mach_program_strat(p, e->name));
	rc = mach_sim_run(m, prog->code, e->pc);
	if (m->trace) {
		mach_trace_region(m->trace, 0, 0, m->cycle,
		    mach_program_strat(p, e->name));
		mach_trace_end_call(m->trace, m->cycle);
	}
	keep_stats(dev, p, e);
	if (rc) {
		dev->trap = m->trap;
		return fail(dev, m->trap.kind == PALLAS_TRAP_CHECK ?
		    PALLAS_ECHECK : PALLAS_ETRAP, "%s", m->trap.message);
	}
	for (i = 0; i < e->nopnd; i++) {
		const MachOperand *o = &p->opnd[e->first_opnd + i];

		if (o->role == MACH_ROLE_OUT || o->role == MACH_ROLE_INOUT)
			memcpy(buf[i], where[i], (size_t)o->bytes);
	}
	dev->err[0] = 0;
	return PALLAS_OK;
}

int
pallas_call(PallasDevice *dev, const PallasProgram *prog, const char *entry,
    void *const *buffers, size_t nbuf)
{
	const MachEntry *e;

	if (!dev)
		return PALLAS_EINVAL;
	if (!prog || (!buffers && nbuf))
		return fail(dev, PALLAS_EINVAL, "call: NULL argument");
	if (!(e = find_entry(dev, prog, entry)))
		return PALLAS_ENOENT;
	if (nbuf != e->nopnd)
		return fail(dev, PALLAS_EMISMATCH, "entry '%s' takes %u "
		    "operands, got %zu", mach_program_strat(prog->p, e->name),
		    e->nopnd, nbuf);
	return run(dev, prog, e, buffers);
}

static void
shape_text(char *buf, size_t n, int dtype, int rank, const int64_t *shape)
{
	size_t k;
	int i;

	k = (size_t)snprintf(buf, n, "%s[", dtype >= 0 &&
	    dtype < PALLAS_NDTYPE ? dtname[dtype] : "?");
	for (i = 0; i < rank && i < PALLAS_MAXRANK && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "",
		    (long long)shape[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
}

static int
check_arg(PallasDevice *dev, const MachProgram *p, const MachEntry *e,
    uint32_t i, const PallasTensor *t)
{
	const MachOperand *o = &p->opnd[e->first_opnd + i];
	char want[160], got[160];
	int k, same;

	same = (int)t->dtype == o->dtype && t->rank == o->rank;
	for (k = 0; same && k < o->rank; k++)
		same = t->shape[k] == o->shape[k];
	if (same)
		return PALLAS_OK;
	shape_text(want, sizeof want, o->dtype, o->rank, o->shape);
	shape_text(got, sizeof got, (int)t->dtype, t->rank, t->shape);
	return fail(dev, PALLAS_EMISMATCH, "entry '%s' operand %u ('%s'): "
	    "expected %s, got %s", mach_program_strat(p, e->name), i,
	    mach_program_strat(p, o->name), want, got);
}

int
pallas_call_checked(PallasDevice *dev, const PallasProgram *prog,
    const char *entry, const PallasTensor *args, size_t nargs)
{
	const MachEntry *e;
	void *buf[256];
	uint32_t i;
	int rc;

	if (!dev)
		return PALLAS_EINVAL;
	if (!prog || (!args && nargs))
		return fail(dev, PALLAS_EINVAL, "call: NULL argument");
	if (!(e = find_entry(dev, prog, entry)))
		return PALLAS_ENOENT;
	if (nargs != e->nopnd || nargs > 256)
		return fail(dev, PALLAS_EMISMATCH, "entry '%s' takes %u "
		    "operands, got %zu", mach_program_strat(prog->p, e->name),
		    e->nopnd, nargs);
	for (i = 0; i < e->nopnd; i++) {
		if (args[i].rank < 0 || args[i].rank > PALLAS_MAXRANK)
			return fail(dev, PALLAS_EMISMATCH, "operand %u: rank %d "
			    "out of range", i, args[i].rank);
		if ((rc = check_arg(dev, prog->p, e, i, &args[i])))
			return rc;
		buf[i] = args[i].data;
	}
	return run(dev, prog, e, buf);
}

/* The device's program for a linked-in image, loaded on first use. */
static int
image_program(PallasDevice *dev, const void *image, size_t len,
    PallasProgram **out)
{
	ImageProg *ip;
	int rc;

	for (ip = dev->images; ip; ip = ip->next)
		if (ip->image == image && ip->len == len) {
			*out = ip->prog;
			return PALLAS_OK;
		}
	if (!image)
		return fail(dev, PALLAS_EINVAL, "call: NULL program image");
	if (!(ip = calloc(1, sizeof *ip)))
		return fail(dev, PALLAS_ENOMEM, "out of memory");
	if ((rc = pallas_program_load(dev, image, len, &ip->prog))) {
		free(ip);
		return rc;
	}
	ip->image = image;
	ip->len = len;
	ip->next = dev->images;
	dev->images = ip;
	*out = ip->prog;
	return PALLAS_OK;
}

int
pallas_call_image(PallasDevice *dev, const void *image, size_t len,
    const char *entry, void *const *buffers, size_t nbuf)
{
	PallasProgram *prog;
	int rc;

	if (!dev)
		return PALLAS_EINVAL;
	if ((rc = image_program(dev, image, len, &prog)))
		return rc;
	return pallas_call(dev, prog, entry, buffers, nbuf);
}

int
pallas_call_image_checked(PallasDevice *dev, const void *image, size_t len,
    const char *entry, const PallasTensor *args, size_t nargs)
{
	PallasProgram *prog;
	int rc;

	if (!dev)
		return PALLAS_EINVAL;
	if ((rc = image_program(dev, image, len, &prog)))
		return rc;
	return pallas_call_checked(dev, prog, entry, args, nargs);
}

int
pallas_last_stats(const PallasDevice *dev, PallasStats *out)
{
	if (!dev || !out)
		return PALLAS_EINVAL;
	*out = dev->stats;
	if (!out->preset)
		out->preset = dev->mp->name;
	return PALLAS_OK;
}

int
pallas_last_trap(const PallasDevice *dev, PallasTrap *out)
{
	if (!dev || !out)
		return PALLAS_EINVAL;
	*out = dev->trap;
	return PALLAS_OK;
}

static int
ensure_trace(PallasDevice *dev)
{
	if (!dev->trace && !(dev->trace = mach_trace_new(dev->mp)))
		return fail(dev, PALLAS_ENOMEM, "out of memory for the trace");
	return PALLAS_OK;
}

int
pallas_device_set_trace(PallasDevice *dev, const char *path)
{
	char *cp = NULL;

	if (!dev)
		return PALLAS_EINVAL;
	if (path && !(cp = malloc(strlen(path) + 1)))
		return fail(dev, PALLAS_ENOMEM, "out of memory");
	if (cp)
		strcpy(cp, path);
	free(dev->trace_path);
	dev->trace_path = cp;
	if (path)
		return ensure_trace(dev);
	if (!dev->trace_mem) {
		mach_trace_free(dev->trace);
		dev->trace = NULL;
	}
	return PALLAS_OK;
}

int
pallas_device_set_trace_memory(PallasDevice *dev, int on)
{
	if (!dev)
		return PALLAS_EINVAL;
	dev->trace_mem = on != 0;
	if (on)
		return ensure_trace(dev);
	if (!dev->trace_path) {
		mach_trace_free(dev->trace);
		dev->trace = NULL;
	}
	return PALLAS_OK;
}

int
pallas_device_trace_json(PallasDevice *dev, const char **json, size_t *len)
{
	if (!dev || !json)
		return PALLAS_EINVAL;
	if (!dev->trace)
		return fail(dev, PALLAS_EINVAL, "tracing is off");
	if (!(*json = mach_trace_json(dev->trace, len)))
		return fail(dev, PALLAS_ENOMEM, "out of memory for the trace");
	return PALLAS_OK;
}

void
pallas_device_set_poison(PallasDevice *dev, PallasPoison mode)
{
	if (dev)
		dev->poison = mode;
}

int
pallas_device_set_allocator(PallasDevice *dev, const PallasAllocator *a)
{
	if (!dev)
		return PALLAS_EINVAL;
	if (a && (!a->alloc || !a->release))
		return fail(dev, PALLAS_EINVAL, "set_allocator: alloc and "
		    "release go together");
	mach_sim_set_allocator(dev->sim, a);
	return PALLAS_OK;
}

void
pallas_device_set_cycle_limit(PallasDevice *dev, uint64_t limit)
{
	if (dev)
		dev->limit = limit ? limit : 1000000000;
}

static const char *const slotname[PALLAS_NSLOT] = {
	"salu", "vld", "vst", "valu", "mxu", "pop", "xlu", "eup", "misc"
};

/* Appends to buf[*k ..] with snprintf rules. */
static void
add(char *buf, size_t len, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf && *k < len ? buf + *k : NULL,
	    buf && *k < len ? len - *k : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*k += (size_t)n;
}

static void
format_counters(char *buf, size_t len, size_t *k, const PallasCounters *c,
    const char *ind)
{
	int u;

	add(buf, len, k, "%scycles %llu, bundles %llu, stalls %llu, branch "
	    "bubbles %llu\n%sslot ops:", ind, (unsigned long long)c->cycles,
	    (unsigned long long)c->bundles,
	    (unsigned long long)c->stall_cycles,
	    (unsigned long long)c->branch_cycles, ind);
	for (u = 0; u < PALLAS_NSLOT; u++)
		add(buf, len, k, " %s %llu", slotname[u],
		    (unsigned long long)c->slot_ops[u]);
	add(buf, len, k, "\n%smxu busy %llu cycles, %llu flops; hbm read "
	    "%llu, written %llu bytes in %llu dmas\n", ind,
	    (unsigned long long)c->mxu_busy_cycles,
	    (unsigned long long)c->mxu_flops,
	    (unsigned long long)c->hbm_read_bytes,
	    (unsigned long long)c->hbm_write_bytes,
	    (unsigned long long)c->dma_count);
}

int
pallas_stats_format(const PallasStats *st, char *buf, size_t len)
{
	size_t k = 0, i;

	if (buf && len)
		buf[0] = 0;
	if (!st)
		return 0;
	add(buf, len, &k, "preset %s", st->preset ? st->preset : "?");
	if (st->clock_ghz > 0)
		add(buf, len, &k, " (%.3f us at %.2f GHz)",
		    (double)st->c.cycles / (st->clock_ghz * 1e3),
		    st->clock_ghz);
	add(buf, len, &k, "\n");
	format_counters(buf, len, &k, &st->c, "  ");
	add(buf, len, &k, "  vmem high water %llu bytes",
	    (unsigned long long)st->vmem_high_water);
	if (st->vmem_declared || st->smem_declared)
		add(buf, len, &k, " of %llu declared",
		    (unsigned long long)st->vmem_declared);
	add(buf, len, &k, ", smem %llu bytes",
	    (unsigned long long)st->smem_high_water);
	if (st->vmem_declared || st->smem_declared)
		add(buf, len, &k, " of %llu declared",
		    (unsigned long long)st->smem_declared);
	add(buf, len, &k, "\n");
	for (i = 0; i < st->nregion; i++) {
		if (!st->region[i].entries)	/* another entry's region */
			continue;
		add(buf, len, &k, "  region '%s' x%llu:\n", st->region[i].name,
		    (unsigned long long)st->region[i].entries);
		format_counters(buf, len, &k, &st->region[i].c, "    ");
	}
	return (int)k;
}
