/*
 * image.c - the versioned program image (layout drawn in
 * machine/encoding.h): mach_image_write serialises a checked MachProgram,
 * mach_image_read parses any bytes at all into one or rejects them with
 * an error code and message.  The reader bounds every read by the buffer
 * length before touching it, decodes the code bundle by bundle, and ends
 * with mach_program_check(), so an accepted image is a valid program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "machine/encoding.h"

typedef struct Sect {
	uint32_t off, size, count;
} Sect;

static uint64_t
align8(uint64_t n)
{
	return (n + IMG_ALIGN - 1) & ~(uint64_t)(IMG_ALIGN - 1);
}

/* Record size of each section kind; 1 for byte blobs. */
static uint32_t
recsize(int kind, const MachPreset *mp)
{
	switch (kind) {
	case SECT_CODE: return (uint32_t)mach_bundle_bytes(mp);
	case SECT_ENTRY: return IMG_ENTRYREC;
	case SECT_OPND: return IMG_OPNDREC;
	case SECT_DEBUG: return IMG_DEBUGREC;
	case SECT_REGION: return IMG_REGIONREC;
	default: return 1;
	}
}

/* ----------------------------------------------------------- writing */

static void
put_entry(uint8_t *q, const MachEntry *e)
{
	wr32(q, e->name);
	wr32(q + 4, e->pc);
	wr32(q + 8, e->first_opnd);
	wr32(q + 12, e->nopnd);
	wr64(q + 16, e->scratch_bytes);
	wr32(q + 24, e->scratch_smem);
	wr32(q + 28, 0);
	wr64(q + 32, e->vmem_bytes);
	wr64(q + 40, e->smem_bytes);
}

static void
put_opnd(uint8_t *q, const MachOperand *o)
{
	int i;

	wr32(q, o->name);
	q[4] = o->role;
	q[5] = o->dtype;
	q[6] = o->rank;
	q[7] = 0;
	wr32(q + 8, o->smem_addr);
	wr32(q + 12, o->data_off);
	wr64(q + 16, o->bytes);
	wr64(q + 24, o->hbm_addr);
	for (i = 0; i < MACH_MAXRANK; i++)
		wr64(q + 32 + 8 * i, (uint64_t)o->shape[i]);
}

static void
put_debug(uint8_t *q, const MachDebug *d)
{
	wr32(q, d->bundle);
	wr32(q + 4, d->file);
	wr32(q + 8, d->line);
	wr32(q + 12, d->col);
	wr32(q + 16, d->region);
}

static int
put_code(const MachProgram *p, uint8_t *q, char *err, size_t errlen)
{
	size_t bb = mach_bundle_bytes(p->mp);
	uint32_t i;

	for (i = 0; i < p->nbundle; i++)
		if (mach_encode_bundle(p->mp, p->bundle[i].nins ?
		    p->ins + p->bundle[i].first : NULL,
		    (int)p->bundle[i].nins, q + i * bb, err, errlen))
			return MACH_EINVAL;
	return MACH_OK;
}

static void
put_tables(const MachProgram *p, uint8_t *img, const Sect *s)
{
	uint32_t i;

	if (p->ndata)
		memcpy(img + s[SECT_DATA].off, p->data, p->ndata);
	for (i = 0; i < p->nentry; i++)
		put_entry(img + s[SECT_ENTRY].off + i * IMG_ENTRYREC,
		    &p->entry[i]);
	for (i = 0; i < p->nopnd; i++)
		put_opnd(img + s[SECT_OPND].off + i * IMG_OPNDREC, &p->opnd[i]);
	for (i = 0; i < p->ndebug; i++)
		put_debug(img + s[SECT_DEBUG].off + i * IMG_DEBUGREC,
		    &p->debug[i]);
	for (i = 0; i < p->nregion; i++)
		wr32(img + s[SECT_REGION].off + i * 4, p->region[i]);
	memcpy(img + s[SECT_STR].off, p->str, p->nstr);
}

static void
put_header(const MachProgram *p, uint8_t *img, const Sect *s, uint32_t total)
{
	int k;

	memcpy(img, MACH_IMAGE_MAGIC, 8);
	wr32(img + 8, MACH_IMAGE_VERSION);
	wr32(img + 12, IMG_HEADER);
	memcpy(img + 16, p->preset, sizeof p->preset);
	wr32(img + 32, NSECT);
	wr32(img + 36, total);
	wr32(img + 40, (uint32_t)mach_bundle_bytes(p->mp));
	for (k = 1; k <= NSECT; k++) {
		uint8_t *r = img + IMG_HEADER + (k - 1) * IMG_SECTREC;

		wr32(r, (uint32_t)k);
		wr32(r + 4, s[k].off);
		wr32(r + 8, s[k].size);
		wr32(r + 12, s[k].count);
	}
}

/* Lays the sections out; returns the image size, or 0 if too large. */
static uint64_t
layout(const MachProgram *p, Sect *s)
{
	uint32_t count[NSECT + 1] = { 0, p->nbundle, p->ndata, p->nentry,
	    p->nopnd, p->ndebug, p->nregion, p->nstr };
	uint64_t at, size;
	int k;

	at = IMG_HEADER + NSECT * IMG_SECTREC;
	for (k = 1; k <= NSECT; k++) {
		at = align8(at);
		size = (uint64_t)count[k] * recsize(k, p->mp);
		if (at + size >= IMG_MAXBYTES)
			return 0;
		s[k].off = (uint32_t)at;
		s[k].size = (uint32_t)size;
		s[k].count = count[k];
		at += size;
	}
	return align8(at);
}

int
mach_image_write(const MachProgram *p, void **out, size_t *outlen,
    char *err, size_t errlen)
{
	Sect s[NSECT + 1];
	uint64_t total;
	uint8_t *img;

	*out = NULL;
	*outlen = 0;
	if (mach_program_check(p, err, errlen))
		return MACH_EINVAL;
	total = layout(p, s);
	if (total == 0)
		return mach_errf(MACH_EINVAL, err, errlen, "program too large");
	img = calloc(1, (size_t)total);
	if (!img)
		return mach_errf(MACH_ENOMEM, err, errlen, "out of memory");
	put_header(p, img, s, (uint32_t)total);
	put_tables(p, img, s);
	if (put_code(p, img + s[SECT_CODE].off, err, errlen)) {
		free(img);
		return MACH_EINVAL;
	}
	*out = img;
	*outlen = (size_t)total;
	return MACH_OK;
}

/* ----------------------------------------------------------- reading */

static int
read_header(const uint8_t *b, size_t len, MachProgram *p, char *err,
    size_t errlen)
{
	if (len < IMG_HEADER + NSECT * IMG_SECTREC)
		return mach_errf(MACH_EFORMAT, err, errlen, "image too short");
	if (memcmp(b, MACH_IMAGE_MAGIC, 8) != 0)
		return mach_errf(MACH_EFORMAT, err, errlen, "not a program image");
	if (rd32(b + 8) != MACH_IMAGE_VERSION)
		return mach_errf(MACH_EVERSION, err, errlen,
		    "image version %u, expected %u", rd32(b + 8),
		    MACH_IMAGE_VERSION);
	if (rd32(b + 12) != IMG_HEADER || rd32(b + 32) != NSECT ||
	    rd32(b + 36) != len || rd32(b + 44) != 0 ||
	    rd64(b + 48) != 0 || rd64(b + 56) != 0)
		return mach_errf(MACH_EFORMAT, err, errlen, "bad image header");
	memcpy(p->preset, b + 16, sizeof p->preset);
	if (memchr(p->preset, 0, sizeof p->preset) == NULL ||
	    (p->mp = mach_preset(p->preset)) == NULL)
		return mach_errf(MACH_EPRESET, err, errlen, "unknown preset");
	if (rd32(b + 40) != mach_bundle_bytes(p->mp))
		return mach_errf(MACH_EFORMAT, err, errlen, "bad bundle size");
	return MACH_OK;
}

static int
read_sects(const uint8_t *b, size_t len, const MachPreset *mp, Sect *s,
    char *err, size_t errlen)
{
	const uint8_t *r;
	uint64_t end;
	int k;

	end = IMG_HEADER + NSECT * IMG_SECTREC;
	for (k = 1; k <= NSECT; k++) {
		r = b + IMG_HEADER + (k - 1) * IMG_SECTREC;
		s[k].off = rd32(r + 4);
		s[k].size = rd32(r + 8);
		s[k].count = rd32(r + 12);
		if (rd32(r) != (uint32_t)k || s[k].off % IMG_ALIGN ||
		    s[k].off < end || (uint64_t)s[k].off + s[k].size > len ||
		    (uint64_t)s[k].count * recsize(k, mp) != s[k].size)
			return mach_errf(MACH_EFORMAT, err, errlen,
			    "bad section %d", k);
		end = (uint64_t)s[k].off + s[k].size;
	}
	return MACH_OK;
}

/* n zeroed elements of size sz; NULL for n = 0, and *bad = 1 on failure. */
static void *
alloc_n(uint64_t n, size_t sz, int *bad)
{
	void *q;

	if (n == 0)
		return NULL;
	q = calloc((size_t)n, sz);
	if (!q)
		*bad = 1;
	return q;
}

static void
get_entry(const uint8_t *q, MachEntry *e)
{
	e->name = rd32(q);
	e->pc = rd32(q + 4);
	e->first_opnd = rd32(q + 8);
	e->nopnd = rd32(q + 12);
	e->scratch_bytes = rd64(q + 16);
	e->scratch_smem = rd32(q + 24);
	e->pad = rd32(q + 28);
	e->vmem_bytes = rd64(q + 32);
	e->smem_bytes = rd64(q + 40);
}

static void
get_opnd(const uint8_t *q, MachOperand *o)
{
	int i;

	o->name = rd32(q);
	o->role = q[4];
	o->dtype = q[5];
	o->rank = q[6];
	o->pad = q[7];
	o->smem_addr = rd32(q + 8);
	o->data_off = rd32(q + 12);
	o->bytes = rd64(q + 16);
	o->hbm_addr = rd64(q + 24);
	for (i = 0; i < MACH_MAXRANK; i++)
		o->shape[i] = (int64_t)rd64(q + 32 + 8 * i);
}

static void
get_debug(const uint8_t *q, MachDebug *d)
{
	d->bundle = rd32(q);
	d->file = rd32(q + 4);
	d->line = rd32(q + 8);
	d->col = rd32(q + 12);
	d->region = rd32(q + 16);
}

static int
read_tables(const uint8_t *b, const Sect *s, MachProgram *p)
{
	uint32_t i;
	int bad;

	p->ndata = s[SECT_DATA].count;
	p->nentry = s[SECT_ENTRY].count;
	p->nopnd = s[SECT_OPND].count;
	p->ndebug = s[SECT_DEBUG].count;
	p->nregion = s[SECT_REGION].count;
	p->nstr = s[SECT_STR].count;
	bad = 0;
	p->data = alloc_n(p->ndata, 1, &bad);
	p->entry = alloc_n(p->nentry, sizeof *p->entry, &bad);
	p->opnd = alloc_n(p->nopnd, sizeof *p->opnd, &bad);
	p->debug = alloc_n(p->ndebug, sizeof *p->debug, &bad);
	p->region = alloc_n(p->nregion, sizeof *p->region, &bad);
	p->str = alloc_n(p->nstr, 1, &bad);
	if (bad)
		return MACH_ENOMEM;
	if (p->ndata)
		memcpy(p->data, b + s[SECT_DATA].off, p->ndata);
	if (p->nstr)
		memcpy(p->str, b + s[SECT_STR].off, p->nstr);
	for (i = 0; i < p->nentry; i++)
		get_entry(b + s[SECT_ENTRY].off + i * IMG_ENTRYREC, &p->entry[i]);
	for (i = 0; i < p->nopnd; i++)
		get_opnd(b + s[SECT_OPND].off + i * IMG_OPNDREC, &p->opnd[i]);
	for (i = 0; i < p->ndebug; i++)
		get_debug(b + s[SECT_DEBUG].off + i * IMG_DEBUGREC,
		    &p->debug[i]);
	for (i = 0; i < p->nregion; i++)
		p->region[i] = rd32(b + s[SECT_REGION].off + i * 4);
	return MACH_OK;
}

/* Decodes the CODE section; ins[] is sized for full bundles, then shrunk. */
static int
read_code(const uint8_t *b, const Sect *s, MachProgram *p, char *err,
    size_t errlen)
{
	size_t bb = mach_bundle_bytes(p->mp);
	uint32_t nslot = (uint32_t)mach_preset_nslot(p->mp), i;
	char sub[160];
	MachIns *q;
	int n, bad;

	bad = 0;
	p->nbundle = s[SECT_CODE].count;
	p->bundle = alloc_n(p->nbundle, sizeof *p->bundle, &bad);
	p->ins = alloc_n((uint64_t)p->nbundle * nslot, sizeof *p->ins, &bad);
	if (bad)
		return mach_errf(MACH_ENOMEM, err, errlen, "out of memory");
	for (i = 0; i < p->nbundle; i++) {
		if (mach_decode_bundle(p->mp, b + s[SECT_CODE].off + i * bb,
		    p->ins + p->nins, &n, sub, sizeof sub))
			return mach_errf(MACH_EFORMAT, err, errlen, "bundle %u: %s",
			    i, sub);
		p->bundle[i].first = p->nins;
		p->bundle[i].nins = (uint32_t)n;
		p->nins += (uint32_t)n;
	}
	if (p->nins && (q = realloc(p->ins, p->nins * sizeof *q)) != NULL)
		p->ins = q;
	return MACH_OK;
}

int
mach_image_read(const void *buf, size_t len, MachProgram **out, char *err,
    size_t errlen)
{
	const uint8_t *b = buf;
	Sect s[NSECT + 1];
	MachProgram *p;
	char sub[200];
	int rc;

	*out = NULL;
	if (!buf || len > IMG_MAXBYTES)
		return mach_errf(MACH_EFORMAT, err, errlen, "bad image size");
	p = calloc(1, sizeof *p);
	if (!p)
		return mach_errf(MACH_ENOMEM, err, errlen, "out of memory");
	rc = read_header(b, len, p, err, errlen);
	if (!rc)
		rc = read_sects(b, len, p->mp, s, err, errlen);
	if (!rc && (rc = read_tables(b, s, p)) != MACH_OK)
		mach_errf(rc, err, errlen, "out of memory");
	if (!rc)
		rc = read_code(b, s, p, err, errlen);
	if (!rc && mach_program_check(p, sub, sizeof sub))
		rc = mach_errf(MACH_EFORMAT, err, errlen, "%s", sub);
	if (rc) {
		mach_program_free(p);
		return rc;
	}
	*out = p;
	return MACH_OK;
}
