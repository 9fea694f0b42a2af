/*
 * check_runtime.c - the public runtime API: devices and presets (also
 * from PALLAS_PRESET), images from memory and from a file, calls with
 * buffers and with checked tensors (every mismatch), a program built for
 * another preset, traps through the API, counters with regions, the
 * Chrome trace (well-formed JSON, no overlapping events on a track),
 * two devices on two threads giving identical results and cycles, and
 * HBM allocation failures (the allocator hook, an operand beyond HBM)
 * returned as error codes.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/machine.h"
#include "pallas/pallas.h"

/* y = x + x for one (8, 16) f32 tile: DMA in, add, DMA out.  It
 * declares the VMEM and SMEM it touches: two tiles, and the argument
 * table with two DMA descriptors (at 64 and 128, 64 bytes each). */
static const char twice_s[] =
    ".preset small\n"
    ".region kernel\n"
    ".entry twice vmem=1024 smem=192\n"
    ".operand x in f32[8,16] smem=0\n"
    ".operand y out f32[8,16] smem=8\n"
    "  smovi s10, 64 ; smovi s11, 0\n"
    "  sld s1, [s11 + 0] ; sld s2, [s11 + 8] ; trace.begin kernel\n"
    "  smovi s3, 0x411 ; smovi s5, 128\n"
    "  sst s1, [s10 + 0] ; sst s11, [s10 + 4]\n"
    "  sst s11, [s10 + 8] ; sst s11, [s10 + 12]\n"
    "  sst s3, [s10 + 16] ; sst s5, [s10 + 20]\n"
    "  smovi s6, 1 ; smovi s12, 128\n"
    "  sst s6, [s10 + 24] ; sst s6, [s10 + 28]\n"
    "  sst s6, [s10 + 32] ; smovi s13, 512\n"
    "  dma.start f0, [s10] ; smovi s4, 0x412\n"
    "  sync.wait f0, 1\n"
    "  vld v1, [s11]\n"
    "  nop\n"
    "  vadd.f32 v2, v1, v1\n"
    "  nop\n"
    "  vst v2, [s11 + 512] ; sst s13, [s12 + 0]\n"
    "  sst s11, [s12 + 4] ; sst s2, [s12 + 8]\n"
    "  sst s11, [s12 + 12] ; sst s4, [s12 + 16]\n"
    "  sst s5, [s12 + 20] ; sst s6, [s12 + 24]\n"
    "  sst s6, [s12 + 28] ; sst s6, [s12 + 32]\n"
    "  dma.start f1, [s12]\n"
    "  sync.wait f1, 1\n"
    "  trace.end kernel\n"
    "  halt\n"
    ".entry bad\n"
    "  vbcasti v1, 1.0f\n"
    "  vadd.f32 v2, v1, v1\n"
    "  halt\n";

static void *
image(const char *text, const char *preset, size_t *len)
{
	char err[2048];
	MachProgram *p;
	void *img;

	ck_assert_msg(mach_asm("twice.s", text, strlen(text), preset, &p, err,
	    sizeof err) == 0, "%s", err);
	ck_assert_int_eq(mach_image_write(p, &img, len, err, sizeof err), 0);
	mach_program_free(p);
	return img;
}

static PallasProgram *
load_twice(PallasDevice *dev)
{
	PallasProgram *prog;
	size_t len;
	void *img = image(twice_s, NULL, &len);

	ck_assert_int_eq(pallas_program_load(dev, img, len, &prog), PALLAS_OK);
	free(img);
	return prog;
}

START_TEST(test_open_close)
{
	PallasDevice *dev;

	ck_assert_int_eq(pallas_device_open("v4", &dev), PALLAS_OK);
	ck_assert_str_eq(pallas_device_preset(dev), "v4");
	ck_assert_str_eq(pallas_last_error(dev), "");
	pallas_device_close(dev);
	ck_assert_int_eq(pallas_device_open("v9", &dev), PALLAS_EPRESET);
	ck_assert_ptr_null(dev);
	setenv("PALLAS_PRESET", "small", 1);
	ck_assert_int_eq(pallas_device_open(NULL, &dev), PALLAS_OK);
	ck_assert_str_eq(pallas_device_preset(dev), "small");
	pallas_device_close(dev);
	unsetenv("PALLAS_PRESET");
	ck_assert_int_eq(pallas_device_open(NULL, &dev), PALLAS_OK);
	ck_assert_str_eq(pallas_device_preset(dev), "v4");
	pallas_device_close(dev);
	pallas_device_close(NULL);
	ck_assert_str_eq(pallas_strerror(PALLAS_ETRAP), "the program trapped");
}
END_TEST

static void
check_twice(const float *x, const float *y)
{
	int i;

	for (i = 0; i < 128; i++)
		ck_assert(y[i] == 2 * x[i]);
}

START_TEST(test_call_buffers)
{
	PallasDevice *dev;
	PallasProgram *prog;
	PallasStats st;
	float x[128], y[128];
	void *buf[2] = { x, y };
	char text[2048];
	int i;

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	prog = load_twice(dev);
	ck_assert_int_eq(pallas_program_nentry(prog), 2);
	ck_assert_str_eq(pallas_program_entry(prog, 0), "twice");
	for (i = 0; i < 128; i++)
		x[i] = (float)i * 0.5f - 3.0f;
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	check_twice(x, y);
	ck_assert_int_eq(pallas_last_stats(dev, &st), PALLAS_OK);
	ck_assert_str_eq(st.preset, "small");
	ck_assert_uint_gt(st.c.cycles, 100);
	ck_assert_uint_eq(st.c.hbm_read_bytes, 512);
	ck_assert_uint_eq(st.c.hbm_write_bytes, 512);
	ck_assert_uint_eq(st.c.dma_count, 2);
	ck_assert_uint_eq(st.vmem_high_water, 1024);
	/* the second descriptor's last word is read by dma.start alone */
	ck_assert_uint_eq(st.smem_high_water, 192);
	ck_assert_uint_eq(st.vmem_declared, 1024);
	ck_assert_uint_eq(st.smem_declared, 192);
	ck_assert_int_gt(pallas_stats_format(&st, text, sizeof text), 0);
	ck_assert_ptr_nonnull(strstr(text, "vmem high water 1024 bytes of "
	    "1024 declared, smem 192 bytes of 192 declared\n"));
	ck_assert_uint_eq(st.nregion, 1);
	ck_assert_str_eq(st.region[0].name, "kernel");
	ck_assert_uint_eq(st.region[0].entries, 1);
	ck_assert_uint_gt(st.region[0].c.cycles, 0);
	ck_assert_uint_lt(st.region[0].c.cycles, st.c.cycles);
	ck_assert_uint_eq(st.region[0].c.hbm_read_bytes, 512);
	ck_assert_uint_eq(st.c.slot_ops[PALLAS_SLOT_VALU], 1);
	/* errors: wrong count, unknown entry, a trap */
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 1),
	    PALLAS_EMISMATCH);
	ck_assert_ptr_nonnull(strstr(pallas_last_error(dev), "takes 2"));
	ck_assert_int_eq(pallas_call(dev, prog, "nope", buf, 2), PALLAS_ENOENT);
	ck_assert_int_eq(pallas_call(dev, prog, "bad", NULL, 0), PALLAS_ETRAP);
	ck_assert_ptr_nonnull(strstr(pallas_last_error(dev),
	    "trap: use before ready"));
	{
		PallasTrap tr;

		pallas_last_trap(dev, &tr);
		ck_assert_int_eq(tr.kind, PALLAS_TRAP_NOT_READY);
		ck_assert_str_eq(tr.op, "vadd.f32");
	}
	pallas_program_free(prog);
	pallas_device_close(dev);
}
END_TEST

START_TEST(test_call_checked)
{
	PallasDevice *dev;
	PallasProgram *prog;
	float x[128], y[128];
	PallasTensor t[2] = {
		{ x, PALLAS_F32, 2, { 8, 16 } },
		{ y, PALLAS_F32, 2, { 8, 16 } },
	};
	int i;

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	prog = load_twice(dev);
	for (i = 0; i < 128; i++)
		x[i] = (float)(i % 7);
	ck_assert_int_eq(pallas_call_checked(dev, prog, "twice", t, 2), 0);
	check_twice(x, y);
	t[0].dtype = PALLAS_BF16;
	ck_assert_int_eq(pallas_call_checked(dev, prog, "twice", t, 2),
	    PALLAS_EMISMATCH);
	ck_assert_str_eq(pallas_last_error(dev), "entry 'twice' operand 0 "
	    "('x'): expected f32[8,16], got bf16[8,16]");
	t[0].dtype = PALLAS_F32;
	t[1].shape[1] = 17;
	ck_assert_int_eq(pallas_call_checked(dev, prog, "twice", t, 2),
	    PALLAS_EMISMATCH);
	ck_assert_str_eq(pallas_last_error(dev), "entry 'twice' operand 1 "
	    "('y'): expected f32[8,16], got f32[8,17]");
	t[1].shape[1] = 16;
	t[1].rank = 1;
	ck_assert_int_eq(pallas_call_checked(dev, prog, "twice", t, 2),
	    PALLAS_EMISMATCH);
	ck_assert_str_eq(pallas_last_error(dev), "entry 'twice' operand 1 "
	    "('y'): expected f32[8,16], got f32[8]");
	ck_assert_int_eq(pallas_call_checked(dev, prog, "twice", t, 1),
	    PALLAS_EMISMATCH);
	pallas_program_free(prog);
	pallas_device_close(dev);
}
END_TEST

START_TEST(test_load_file_and_preset)
{
	char path[] = "pallas-rt-XXXXXX";
	PallasDevice *dev, *v4;
	PallasProgram *prog;
	size_t len;
	void *img = image(twice_s, NULL, &len);
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "wb");
	ck_assert_uint_eq(fwrite(img, 1, len, f), len);
	fclose(f);
	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_program_load_file(dev, path, &prog), 0);
	pallas_program_free(prog);
	ck_assert_int_eq(pallas_program_load_file(dev, "no/such/file", &prog),
	    PALLAS_EIO);
	ck_assert_int_eq(pallas_program_load(dev, "junk", 4, &prog),
	    PALLAS_EFORMAT);
	/* a small program on a v4 device */
	ck_assert_int_eq(pallas_device_open("v4", &v4), PALLAS_OK);
	ck_assert_int_eq(pallas_program_load_file(v4, path, &prog),
	    PALLAS_EPRESET);
	ck_assert_str_eq(pallas_last_error(v4), "program was built for preset "
	    "'small' but the device runs preset 'v4'");
	pallas_device_close(v4);
	pallas_device_close(dev);
	remove(path);
	free(img);
}
END_TEST

/* ------------------------------------------------ a small JSON check */

typedef struct Json {
	const char *p;
	int ok;
	/* the X events seen: tid, ts, dur */
	long ev[4096][3];
	int nev;
} Json;

static void jvalue(Json *j, char *str, size_t n, double *num);

static void
jws(Json *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
		j->p++;
}

static void
jstring(Json *j, char *out, size_t n)
{
	size_t k = 0;

	if (*j->p != '"') {
		j->ok = 0;
		return;
	}
	for (j->p++; *j->p && *j->p != '"'; j->p++) {
		if ((unsigned char)*j->p < 0x20)
			j->ok = 0;
		if (*j->p == '\\') {
			j->p++;
			if (*j->p == 'u') {
				int i;

				for (i = 0; i < 4; i++)
					if (!strchr("0123456789abcdefABCDEF",
					    *++j->p) || !*j->p)
						j->ok = 0;
			} else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
				j->ok = 0;
				return;
			}
		}
		if (out && k + 1 < n)
			out[k++] = *j->p;
	}
	if (out)
		out[k] = 0;
	if (*j->p != '"')
		j->ok = 0;
	else
		j->p++;
}

static void
jobject(Json *j)
{
	char key[64], sval[64], ph[8] = "";
	double num, tid = -1, ts = -1, dur = -1;

	j->p++;
	jws(j);
	if (*j->p == '}') {
		j->p++;
		return;
	}
	while (j->ok) {
		jws(j);
		jstring(j, key, sizeof key);
		jws(j);
		if (*j->p++ != ':') {
			j->ok = 0;
			return;
		}
		jws(j);
		sval[0] = 0;
		num = -1;
		jvalue(j, sval, sizeof sval, &num);
		if (!strcmp(key, "ph"))
			snprintf(ph, sizeof ph, "%s", sval);
		if (!strcmp(key, "tid"))
			tid = num;
		if (!strcmp(key, "ts"))
			ts = num;
		if (!strcmp(key, "dur"))
			dur = num;
		jws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == '}') {
			j->p++;
			break;
		}
		j->ok = 0;
	}
	if (!strcmp(ph, "X") && j->nev < 4096) {
		j->ev[j->nev][0] = (long)tid;
		j->ev[j->nev][1] = (long)ts;
		j->ev[j->nev++][2] = (long)dur;
		if (tid < 0 || ts < 0 || dur <= 0)
			j->ok = 0;
	}
}

static void
jarray(Json *j)
{
	j->p++;
	jws(j);
	if (*j->p == ']') {
		j->p++;
		return;
	}
	while (j->ok) {
		jws(j);
		jvalue(j, NULL, 0, NULL);
		jws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == ']') {
			j->p++;
			return;
		}
		j->ok = 0;
	}
}

static void
jvalue(Json *j, char *str, size_t n, double *num)
{
	char *end;
	double d;

	if (*j->p == '{')
		jobject(j);
	else if (*j->p == '[')
		jarray(j);
	else if (*j->p == '"')
		jstring(j, str, n);
	else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4))
		j->p += 4;
	else if (!strncmp(j->p, "false", 5))
		j->p += 5;
	else {
		d = strtod(j->p, &end);
		if (end == j->p)
			j->ok = 0;
		j->p = end;
		if (num)
			*num = d;
	}
}

START_TEST(test_trace_json)
{
	PallasDevice *dev;
	PallasProgram *prog;
	float x[128] = { 1 }, y[128];
	void *buf[2] = { x, y };
	const char *json;
	size_t len;
	Json *j = calloc(1, sizeof *j);
	int a, b, sawdma = 0, sawreg = 0;

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_device_set_trace_memory(dev, 1), 0);
	prog = load_twice(dev);
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	ck_assert_int_eq(pallas_device_trace_json(dev, &json, &len), 0);
	ck_assert_uint_eq(strlen(json), len);
	j->p = json;
	j->ok = 1;
	jws(j);
	jvalue(j, NULL, 0, NULL);
	jws(j);
	ck_assert_msg(j->ok && *j->p == 0, "bad JSON near: %.60s", j->p);
	ck_assert_ptr_nonnull(strstr(json, "\"traceEvents\""));
	ck_assert_ptr_nonnull(strstr(json, "\"thread_name\""));
	ck_assert_int_gt(j->nev, 10);
	for (a = 0; a < j->nev; a++) {
		for (b = a + 1; b < j->nev; b++)
			if (j->ev[a][0] == j->ev[b][0])
				ck_assert_msg(j->ev[a][1] + j->ev[a][2] <=
				    j->ev[b][1] || j->ev[b][1] + j->ev[b][2] <=
				    j->ev[a][1], "overlap on track %ld",
				    j->ev[a][0]);
		sawdma |= j->ev[a][0] > 9 + 8 && j->ev[a][0] <= 9 + 16;
		sawreg |= j->ev[a][0] > 9 + 17;
	}
	ck_assert(sawdma && sawreg);
	ck_assert_ptr_nonnull(strstr(json, "\"name\":\"kernel\""));
	ck_assert_ptr_nonnull(strstr(json, "\"name\":\"hbm->vmem\""));
	pallas_program_free(prog);
	pallas_device_close(dev);
	free(j);
}
END_TEST

START_TEST(test_trace_file)
{
	char path[] = "pallas-trace-XXXXXX";
	PallasDevice *dev;
	PallasProgram *prog;
	float x[128] = { 2 }, y[128];
	void *buf[2] = { x, y };
	char head[32] = "";
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_device_set_trace(dev, path), 0);
	prog = load_twice(dev);
	ck_assert_int_eq(pallas_call(dev, prog, NULL, buf, 2), PALLAS_ENOENT);
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	pallas_program_free(prog);
	pallas_device_close(dev);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
	fclose(f);
	ck_assert_str_eq(head, "{\"traceEvents\":[\n");
	remove(path);
}
END_TEST

/* ----------------------------------------------------------- threads */

typedef struct Job {
	float x[128], y[128];
	uint64_t cycles;
	int rc;
} Job;

static void *
worker(void *arg)
{
	Job *job = arg;
	PallasDevice *dev;
	PallasProgram *prog;
	PallasStats st;
	void *buf[2] = { job->x, job->y };
	int i;

	job->rc = pallas_device_open("small", &dev);
	if (job->rc)
		return NULL;
	prog = load_twice(dev);
	for (i = 0; i < 200 && !job->rc; i++)
		job->rc = pallas_call(dev, prog, "twice", buf, 2);
	pallas_last_stats(dev, &st);
	job->cycles = st.c.cycles;
	pallas_program_free(prog);
	pallas_device_close(dev);
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t th[2];
	Job *job = calloc(2, sizeof *job);
	int i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < 128; i++)
			job[k].x[i] = (float)i * 1.25f;
	for (k = 0; k < 2; k++)
		ck_assert_int_eq(pthread_create(&th[k], NULL, worker, &job[k]),
		    0);
	for (k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	ck_assert_int_eq(job[0].rc, 0);
	ck_assert_int_eq(job[1].rc, 0);
	ck_assert_uint_eq(job[0].cycles, job[1].cycles);
	ck_assert_uint_gt(job[0].cycles, 0);
	ck_assert_int_eq(memcmp(job[0].y, job[1].y, sizeof job[0].y), 0);
	check_twice(job[0].x, job[0].y);
	free(job);
}
END_TEST

/* An allocator that counts, and fails once 'budget' calls have passed. */
typedef struct Counting {
	int budget, nalloc, nrelease;
	size_t last;
} Counting;

static void *
count_alloc(void *ud, size_t bytes)
{
	Counting *c = ud;

	c->last = bytes;
	if (c->budget-- <= 0)
		return NULL;
	c->nalloc++;
	return malloc(bytes);
}

static void
count_release(void *ud, void *p)
{
	Counting *c = ud;

	c->nrelease++;
	free(p);
}

START_TEST(test_allocator)
{
	PallasDevice *dev;
	PallasProgram *prog;
	Counting c = { 1, 0, 0, 0 };
	PallasAllocator a = { count_alloc, count_release, &c };
	PallasAllocator half = { count_alloc, NULL, &c };
	float x[128], y[128];
	void *buf[2] = { x, y };
	int i;

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	prog = load_twice(dev);
	for (i = 0; i < 128; i++)
		x[i] = (float)i;
	ck_assert_int_eq(pallas_device_set_allocator(dev, &half),
	    PALLAS_EINVAL);
	ck_assert_int_eq(pallas_device_set_allocator(dev, &a), PALLAS_OK);
	/* x gets its HBM, y does not: an error code and a message */
	memset(y, 0, sizeof y);
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2),
	    PALLAS_ENOMEM);
	ck_assert_uint_eq(c.last, 512);
	ck_assert_ptr_nonnull(strstr(pallas_last_error(dev),
	    "operand 'y': out of host memory for its 512 bytes of HBM"));
	ck_assert(y[1] == 0);
	/* with memory again the same device works, through the allocator */
	c.budget = 2;
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	check_twice(x, y);
	ck_assert_int_eq(c.nalloc, 3);
	ck_assert_int_eq(pallas_device_set_allocator(dev, NULL), PALLAS_OK);
	ck_assert_int_eq(c.nrelease, c.nalloc);	/* all given back */
	ck_assert_int_eq(pallas_call(dev, prog, "twice", buf, 2), PALLAS_OK);
	ck_assert_int_eq(c.nalloc, 3);		/* malloc again */
	pallas_program_free(prog);
	pallas_device_close(dev);
	ck_assert_int_eq(pallas_device_set_allocator(NULL, &a), PALLAS_EINVAL);
}
END_TEST

/* An operand larger than the preset's HBM: PALLAS_EINVAL, not a crash. */
START_TEST(test_operand_beyond_hbm)
{
	static const char big_s[] =
	    ".preset small\n"
	    ".entry big\n"
	    ".operand x in f32[1024,2048] smem=0\n"
	    "  halt\n";
	PallasDevice *dev;
	PallasProgram *prog;
	size_t len;
	void *img = image(big_s, NULL, &len);
	float *x = calloc(1024 * 2048, sizeof *x);
	void *buf[1] = { x };

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_program_load(dev, img, len, &prog), PALLAS_OK);
	ck_assert_int_eq(pallas_call(dev, prog, "big", buf, 1), PALLAS_EINVAL);
	ck_assert_str_eq(pallas_last_error(dev), "operand 'x': cannot place "
	    "8388608 bytes in HBM (preset 'small' has 4194304)");
	pallas_program_free(prog);
	pallas_device_close(dev);
	free(img);
	free(x);
}
END_TEST

START_TEST(test_poison_and_limit)
{
	static const char s[] =
	    ".preset small\n.entry e\n"
	    ".operand y out f32[8,16] smem=0\n"
	    "  halt\n"
	    ".entry spin\n"
	    "l: br l\n";
	PallasDevice *dev;
	PallasProgram *prog;
	size_t len;
	void *img = image(s, NULL, &len);
	uint32_t y[128];
	void *buf[1] = { y };

	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_program_load(dev, img, len, &prog), 0);
	pallas_device_set_poison(dev, PALLAS_POISON_NAN);
	ck_assert_int_eq(pallas_call(dev, prog, "e", buf, 1), 0);
	ck_assert_uint_eq(y[17], 0x7fc00000u);	/* fresh HBM, never written */
	pallas_device_set_poison(dev, PALLAS_POISON_INT);
	ck_assert_int_eq(pallas_call(dev, prog, "e", buf, 1), 0);
	ck_assert_uint_eq(y[3], 0x80000000u);
	pallas_device_set_cycle_limit(dev, 5000);
	ck_assert_int_eq(pallas_call(dev, prog, "spin", NULL, 0), PALLAS_ETRAP);
	ck_assert_ptr_nonnull(strstr(pallas_last_error(dev), "runaway"));
	pallas_program_free(prog);
	pallas_device_close(dev);
	free(img);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc = tcase_create("api");

	tcase_add_test(tc, test_open_close);
	tcase_add_test(tc, test_call_buffers);
	tcase_add_test(tc, test_call_checked);
	tcase_add_test(tc, test_load_file_and_preset);
	tcase_add_test(tc, test_trace_json);
	tcase_add_test(tc, test_trace_file);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_poison_and_limit);
	tcase_add_test(tc, test_allocator);
	tcase_add_test(tc, test_operand_beyond_hbm);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
