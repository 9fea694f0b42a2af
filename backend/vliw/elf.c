/*
 * elf.c - the ELF object writer: an ELF64 little-endian relocatable
 * object holding program images as read-only data, written from the
 * System V ABI's ELF specification (no <elf.h> needed), byte by byte so
 * the host's own byte order does not matter.
 *
 * Layout (offsets from the object's start):
 *   ELF header (64 bytes)
 *   .rodata      at 64: per image, at a 64-byte boundary, its bytes,
 *                then at an 8-byte boundary its 64-bit length word
 *   .symtab      8-aligned: the null symbol, then per image the globals
 *                pk_image_<name> and pk_image_<name>_len
 *   .strtab      symbol names
 *   .shstrtab    section names
 *   section headers, 8-aligned: null, .rodata, .symtab, .strtab,
 *                .note.GNU-stack (empty), .shstrtab
 */
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"

/* From the ELF specification. */
enum {
	ELFCLASS64 = 2, ELFDATA2LSB = 1, EV_CURRENT = 1, ELFOSABI_NONE = 0,
	ET_REL = 1,
	SHT_NULL = 0, SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3,
	SHF_ALLOC = 2,
	STB_GLOBAL = 1, STT_OBJECT = 1, STV_DEFAULT = 0,
	EHDR_SIZE = 64, SHDR_SIZE = 64, SYM_SIZE = 24
};

/* Section indices. */
enum { SEC_NULL, SEC_RODATA, SEC_SYMTAB, SEC_STRTAB, SEC_NOTE,
	SEC_SHSTRTAB, NSEC };

typedef struct Shdr {
	uint32_t name, type;
	uint64_t flags, addr, off, size;
	uint32_t link, info;
	uint64_t align, entsize;
} Shdr;

typedef struct Sym {
	uint32_t name;
	uint8_t info, other;
	uint16_t shndx;
	uint64_t value, size;
} Sym;

static const char shstrtab[] =
    "\0.rodata\0.symtab\0.strtab\0.note.GNU-stack\0.shstrtab";
/* Offsets of the names above. */
static const uint32_t shname[NSEC] = { 0, 1, 9, 17, 25, 41 };

int
vliw_host_machine(void)
{
#if defined(__x86_64__) || defined(_M_X64)
	return VLIW_EM_X86_64;
#elif defined(__aarch64__) || defined(_M_ARM64)
	return VLIW_EM_AARCH64;
#else
	return 0;
#endif
}

int
vliw_machine_by_name(const char *name)
{
	if (strcmp(name, "x86-64") == 0 || strcmp(name, "x86_64") == 0)
		return VLIW_EM_X86_64;
	if (strcmp(name, "aarch64") == 0 || strcmp(name, "arm64") == 0)
		return VLIW_EM_AARCH64;
	return 0;
}

static void
put(Buf *b, uint64_t v, int bytes)
{
	char c[8];
	int i;

	for (i = 0; i < bytes; i++)
		c[i] = (char)(v >> (8 * i) & 0xff);
	buf_putn(b, c, (size_t)bytes);
}

/* Zero bytes up to a multiple of 'align' from the object's start. */
static void
pad(Buf *b, size_t base, size_t align)
{
	while ((b->n - base) % align)
		buf_putc(b, 0);
}

static void
put_ehdr(Buf *b, int machine, uint64_t shoff)
{
	static const char ident[16] = { 0x7f, 'E', 'L', 'F', ELFCLASS64,
		ELFDATA2LSB, EV_CURRENT, ELFOSABI_NONE };

	buf_putn(b, ident, sizeof ident);
	put(b, ET_REL, 2);
	put(b, (uint64_t)machine, 2);
	put(b, EV_CURRENT, 4);
	put(b, 0, 8);		/* e_entry */
	put(b, 0, 8);		/* e_phoff */
	put(b, shoff, 8);
	put(b, 0, 4);		/* e_flags */
	put(b, EHDR_SIZE, 2);
	put(b, 0, 2);		/* e_phentsize */
	put(b, 0, 2);		/* e_phnum */
	put(b, SHDR_SIZE, 2);
	put(b, NSEC, 2);
	put(b, SEC_SHSTRTAB, 2);
}

static void
put_shdr(Buf *b, const Shdr *s)
{
	put(b, s->name, 4);
	put(b, s->type, 4);
	put(b, s->flags, 8);
	put(b, s->addr, 8);
	put(b, s->off, 8);
	put(b, s->size, 8);
	put(b, s->link, 4);
	put(b, s->info, 4);
	put(b, s->align, 8);
	put(b, s->entsize, 8);
}

static void
put_sym(Buf *b, const Sym *s)
{
	put(b, s->name, 4);
	put(b, s->info, 1);
	put(b, s->other, 1);
	put(b, s->shndx, 2);
	put(b, s->value, 8);
	put(b, s->size, 8);
}

/* .rodata: fills img_off[i] and len_off[i] (offsets in the section). */
static void
put_rodata(Buf *b, size_t base, const VliwObject *obj, Shdr *sh,
    uint64_t *img_off, uint64_t *len_off)
{
	size_t start;
	int i;

	pad(b, base, 64);
	start = b->n;
	for (i = 0; i < obj->nimage; i++) {
		pad(b, base, 64);
		img_off[i] = b->n - start;
		if (obj->image[i].len)
			buf_putn(b, obj->image[i].bytes, obj->image[i].len);
		pad(b, base, 8);
		len_off[i] = b->n - start;
		put(b, obj->image[i].len, 8);
	}
	sh->name = shname[SEC_RODATA];
	sh->type = SHT_PROGBITS;
	sh->flags = SHF_ALLOC;
	sh->off = start - base;
	sh->size = b->n - start;
	sh->align = 64;
}

/* .symtab and .strtab. */
static void
put_symbols(Buf *b, size_t base, const VliwObject *obj,
    const uint64_t *img_off, const uint64_t *len_off, Shdr *sh)
{
	Buf str = {0};
	Sym s;
	size_t start;
	int i, k;

	buf_putc(&str, 0);
	pad(b, base, 8);
	start = b->n;
	memset(&s, 0, sizeof s);
	put_sym(b, &s);
	for (i = 0; i < obj->nimage; i++)
		for (k = 0; k < 2; k++) {
			s.name = (uint32_t)str.n;
			buf_printf(&str, "pk_image_%s%s", obj->image[i].name,
			    k ? "_len" : "");
			buf_putc(&str, 0);
			s.info = STB_GLOBAL << 4 | STT_OBJECT;
			s.other = STV_DEFAULT;
			s.shndx = SEC_RODATA;
			s.value = k ? len_off[i] : img_off[i];
			s.size = k ? 8 : obj->image[i].len;
			put_sym(b, &s);
		}
	sh[SEC_SYMTAB] = (Shdr){ .name = shname[SEC_SYMTAB],
		.type = SHT_SYMTAB, .off = start - base, .size = b->n - start,
		.link = SEC_STRTAB, .info = 1, .align = 8,
		.entsize = SYM_SIZE };
	start = b->n;
	buf_putn(b, str.p, str.n);
	sh[SEC_STRTAB] = (Shdr){ .name = shname[SEC_STRTAB],
		.type = SHT_STRTAB, .off = start - base, .size = str.n,
		.align = 1 };
	buf_free(&str);
}

int
vliw_write_elf(Buf *out, const VliwObject *obj, int machine, char *err,
    size_t errlen)
{
	Shdr sh[NSEC];
	uint64_t *img_off, *len_off;
	size_t base = out->n, start;
	int i;

	if (machine != VLIW_EM_X86_64 && machine != VLIW_EM_AARCH64)
		return snprintf(err, errlen, "no ELF writer for machine %d",
		    machine), -1;
	if (vliw_object_check(obj, err, errlen))
		return -1;
	for (i = 0; i < obj->nimage; i++)
		if (!obj->image[i].bytes && obj->image[i].len)
			return snprintf(err, errlen, "image '%s' has no bytes",
			    obj->image[i].name), -1;
	img_off = calloc((size_t)obj->nimage + 1, sizeof *img_off);
	len_off = calloc((size_t)obj->nimage + 1, sizeof *len_off);
	if (!img_off || !len_off) {
		free(img_off);
		free(len_off);
		return snprintf(err, errlen, "out of memory"), -1;
	}
	memset(sh, 0, sizeof sh);
	put_ehdr(out, machine, 0);	/* e_shoff patched below */
	put_rodata(out, base, obj, &sh[SEC_RODATA], img_off, len_off);
	put_symbols(out, base, obj, img_off, len_off, sh);
	sh[SEC_NOTE] = (Shdr){ .name = shname[SEC_NOTE],
		.type = SHT_PROGBITS, .off = out->n - base, .align = 1 };
	start = out->n;
	buf_putn(out, shstrtab, sizeof shstrtab);
	sh[SEC_SHSTRTAB] = (Shdr){ .name = shname[SEC_SHSTRTAB],
		.type = SHT_STRTAB, .off = start - base,
		.size = sizeof shstrtab, .align = 1 };
	pad(out, base, 8);
	start = out->n;
	for (i = 0; i < NSEC; i++)
		put_shdr(out, &sh[i]);
	for (i = 0; i < 8; i++)	/* e_shoff, at byte 40 */
		out->p[base + 40 + i] =
		    (char)((start - base) >> (8 * i) & 0xff);
	free(img_off);
	free(len_off);
	return 0;
}
