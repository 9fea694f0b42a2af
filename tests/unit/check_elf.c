/*
 * check_elf.c - the object writers of backend/vliw: ELF objects parsed
 * back with the C library's <elf.h> (header, section table, symbols, the
 * symbols' bytes against the image) for x86-64 and aarch64, several
 * images, the name checks; the header and C source writers; and the
 * runtime's pallas_call_image (loads once per device and image).
 */
#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"
#include "pallas/pallas.h"

/* examples/twice.s with its entry named NAME: y = x + x, f32[8, 16]. */
#define TWICE_S(NAME) \
    ".preset small\n.region kernel\n.entry " NAME "\n" \
    ".operand x in f32[8,16] smem=0\n.operand y out f32[8,16] smem=72\n" \
    "smovi s0, 0 ; smovi s1, 0x411 ; trace.begin kernel\n" \
    "sst s1, [s0 + 16] ; smovi s2, 128\n" \
    "sst s2, [s0 + 20] ; smovi s3, 1\n" \
    "sst s3, [s0 + 24] ; sst s3, [s0 + 28]\n" \
    "sst s3, [s0 + 32] ; smovi s4, 0x412\n" \
    "dma.start f0, [s0] ; smovi s5, 512\n" \
    "sync.wait f0, 1 ; sst s5, [s0 + 64]\n" \
    "vld v1, [s0] ; sst s4, [s0 + 80]\n" \
    "sst s2, [s0 + 84] ; sst s3, [s0 + 88]\n" \
    "vadd.f32 v2, v1, v1 ; sst s3, [s0 + 92] ; sst s3, [s0 + 96]\n" \
    "nop\nvst v2, [s0 + 512]\ndma.start f1, [s0 + 64]\n" \
    "sync.wait f1, 1\ntrace.end kernel ; halt\n"

/* Two entries, a constant and an inout operand. */
static const char two_s[] =
    ".preset small\n.entry k\n.operand x in f32[8,16] smem=0\n"
    ".entry k2\n.operand c const i32[4] smem=8 data=0\n"
    ".operand int inout bf16[2,2] smem=16\n\thalt\n"
    ".data\n.word 1, 2, 3, 4\n";

/* Assembles text into a new image *img of *len bytes. */
static void
image_of(const char *text, void **img, size_t *len, MachProgram **keep)
{
	char err[4096];
	MachProgram *p;

	ck_assert_msg(mach_asm("t.s", text, strlen(text), NULL, &p, err,
	    sizeof err) == MACH_OK, "%s", err);
	ck_assert_int_eq(mach_image_write(p, img, len, err, sizeof err), 0);
	if (keep)
		*keep = p;
	else
		mach_program_free(p);
}

static const Elf64_Shdr *
section(const Buf *b, int i)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)b->p;

	ck_assert_int_lt(i, eh->e_shnum);
	return (const Elf64_Shdr *)(const void *)(b->p + eh->e_shoff +
	    (size_t)i * sizeof(Elf64_Shdr));
}

static const char *
secname(const Buf *b, const Elf64_Shdr *s)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)b->p;

	return b->p + section(b, eh->e_shstrndx)->sh_offset + s->sh_name;
}

/* The section called name, checked to lie inside the file. */
static const Elf64_Shdr *
find_section(const Buf *b, const char *name)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)b->p;
	int i;

	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *s = section(b, i);

		ck_assert_uint_le(s->sh_offset + s->sh_size, b->n);
		if (strcmp(secname(b, s), name) == 0)
			return s;
	}
	ck_abort_msg("no section %s", name);
	return NULL;
}

static const Elf64_Sym *
find_symbol(const Buf *b, const char *name)
{
	const Elf64_Shdr *st = find_section(b, ".symtab");
	const Elf64_Shdr *str = section(b, (int)st->sh_link);
	size_t i, n = st->sh_size / sizeof(Elf64_Sym);

	for (i = 0; i < n; i++) {
		const Elf64_Sym *s = (const Elf64_Sym *)(const void *)(b->p +
		    st->sh_offset + i * sizeof(Elf64_Sym));

		if (strcmp(b->p + str->sh_offset + s->st_name, name) == 0)
			return s;
	}
	ck_abort_msg("no symbol %s", name);
	return NULL;
}

static void
check_header(const Buf *b, int machine)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)b->p;

	ck_assert_uint_ge(b->n, sizeof *eh);
	ck_assert_int_eq(memcmp(eh->e_ident, ELFMAG, SELFMAG), 0);
	ck_assert_int_eq(eh->e_ident[EI_CLASS], ELFCLASS64);
	ck_assert_int_eq(eh->e_ident[EI_DATA], ELFDATA2LSB);
	ck_assert_int_eq(eh->e_ident[EI_VERSION], EV_CURRENT);
	ck_assert_int_eq(eh->e_type, ET_REL);
	ck_assert_int_eq(eh->e_machine, machine);
	ck_assert_int_eq(eh->e_version, EV_CURRENT);
	ck_assert_int_eq(eh->e_ehsize, sizeof(Elf64_Ehdr));
	ck_assert_int_eq(eh->e_shentsize, sizeof(Elf64_Shdr));
	ck_assert_int_eq(eh->e_phnum, 0);
	ck_assert_int_eq(eh->e_shnum, 6);
	ck_assert_int_eq(eh->e_shoff % 8, 0);
	ck_assert_uint_le(eh->e_shoff + 6 * sizeof(Elf64_Shdr), b->n);
	ck_assert_int_eq(section(b, 0)->sh_type, SHT_NULL);
	ck_assert_str_eq(secname(b, section(b, eh->e_shstrndx)), ".shstrtab");
}

/* Symbol pk_image_<name> holds img, pk_image_<name>_len its length. */
static void
check_image(const Buf *b, const char *name, const void *img, size_t len)
{
	const Elf64_Shdr *ro = find_section(b, ".rodata");
	const Elf64_Sym *s, *l;
	char sym[128];
	uint64_t word;

	snprintf(sym, sizeof sym, "pk_image_%s", name);
	s = find_symbol(b, sym);
	snprintf(sym, sizeof sym, "pk_image_%s_len", name);
	l = find_symbol(b, sym);
	ck_assert_int_eq(ELF64_ST_BIND(s->st_info), STB_GLOBAL);
	ck_assert_int_eq(ELF64_ST_TYPE(s->st_info), STT_OBJECT);
	ck_assert_int_eq(ELF64_ST_TYPE(l->st_info), STT_OBJECT);
	ck_assert_ptr_eq(section(b, s->st_shndx), ro);
	ck_assert_ptr_eq(section(b, l->st_shndx), ro);
	ck_assert_uint_eq(s->st_size, len);
	ck_assert_uint_eq(l->st_size, 8);
	ck_assert_uint_eq(s->st_value % 64, 0);
	ck_assert_uint_eq(l->st_value % 8, 0);
	ck_assert_uint_le(s->st_value + len, ro->sh_size);
	ck_assert_uint_le(l->st_value + 8, ro->sh_size);
	ck_assert_int_eq(memcmp(b->p + ro->sh_offset + s->st_value, img, len),
	    0);
	memcpy(&word, b->p + ro->sh_offset + l->st_value, 8);
	ck_assert_uint_eq(word, len);
}

static void
check_object(int machine)
{
	const Elf64_Shdr *ro, *st, *note;
	MachProgram *p;
	VliwObject obj;
	Arena a = {0};
	char err[256];
	Buf b = {0};
	void *img;
	size_t len;

	image_of(TWICE_S("twice"), &img, &len, &p);
	vliw_object_from_program(&obj, &a, p, img, len);
	ck_assert_int_eq(vliw_write_elf(&b, &obj, machine, err, sizeof err), 0);
	check_header(&b, machine);
	ro = find_section(&b, ".rodata");
	ck_assert_int_eq(ro->sh_type, SHT_PROGBITS);
	ck_assert_uint_eq(ro->sh_flags, SHF_ALLOC);
	ck_assert_uint_eq(ro->sh_addralign, 64);
	ck_assert_uint_eq(ro->sh_offset % 64, 0);
	st = find_section(&b, ".symtab");
	ck_assert_int_eq(st->sh_type, SHT_SYMTAB);
	ck_assert_uint_eq(st->sh_entsize, sizeof(Elf64_Sym));
	ck_assert_uint_eq(st->sh_info, 1);	/* first global */
	ck_assert_uint_eq(st->sh_size, 3 * sizeof(Elf64_Sym));
	ck_assert_str_eq(secname(&b, section(&b, (int)st->sh_link)),
	    ".strtab");
	note = find_section(&b, ".note.GNU-stack");
	ck_assert_uint_eq(note->sh_size, 0);
	ck_assert_uint_eq(note->sh_flags, 0);
	check_image(&b, "twice", img, len);
	buf_free(&b);
	free(img);
	mach_program_free(p);
	arena_free(&a);
}

START_TEST(test_elf_x86_64)
{
	check_object(EM_X86_64);
	ck_assert_int_eq(VLIW_EM_X86_64, EM_X86_64);
}
END_TEST

START_TEST(test_elf_aarch64)
{
	check_object(EM_AARCH64);
	ck_assert_int_eq(VLIW_EM_AARCH64, EM_AARCH64);
	ck_assert_int_eq(vliw_machine_by_name("arm64"), EM_AARCH64);
	ck_assert_int_eq(vliw_machine_by_name("x86-64"), EM_X86_64);
	ck_assert_int_eq(vliw_machine_by_name("mips"), 0);
#if defined(__x86_64__)
	ck_assert_int_eq(vliw_host_machine(), EM_X86_64);
#elif defined(__aarch64__)
	ck_assert_int_eq(vliw_host_machine(), EM_AARCH64);
#endif
}
END_TEST

/* Three images of different lengths, an odd one first: each aligned. */
START_TEST(test_elf_images)
{
	static const unsigned char a1[] = { 1, 2, 3 };
	unsigned char a2[200], a3[64];
	VliwImage im[3] = {
		{ "one", a1, sizeof a1 }, { "two", a2, sizeof a2 },
		{ "three", a3, sizeof a3 },
	};
	VliwObject obj = { .nimage = 3, .image = im };
	char err[256];
	Buf b = {0}, o = {0};
	int i;

	for (i = 0; i < 200; i++)
		a2[i] = (unsigned char)(i * 7);
	memset(a3, 0xa5, sizeof a3);
	buf_puts(&b, "prefix");	/* appending: offsets from the object */
	ck_assert_int_eq(vliw_write_elf(&b, &obj, EM_X86_64, err, sizeof err),
	    0);
	buf_putn(&o, b.p + 6, b.n - 6);	/* aligned for the structs */
	check_header(&o, EM_X86_64);
	check_image(&o, "one", a1, sizeof a1);
	check_image(&o, "two", a2, sizeof a2);
	check_image(&o, "three", a3, sizeof a3);
	ck_assert_uint_eq(find_section(&o, ".symtab")->sh_size,
	    7 * sizeof(Elf64_Sym));
	buf_free(&o);
	buf_free(&b);
}
END_TEST

/* Bad machines and names fail with a message and leave out alone. */
START_TEST(test_elf_errors)
{
	static const unsigned char x[] = { 1 };
	VliwImage im[2] = { { "a", x, 1 }, { "b", x, 1 } };
	VliwExport ex[2] = { { "f", "f", 0, 0, NULL }, { "g", "g", 1, 0,
		NULL } };
	VliwObject obj = { .nimage = 2, .image = im, .nexport = 2, .exp = ex };
	char err[256];
	Buf b = {0};

	ck_assert_int_eq(vliw_write_elf(&b, &obj, 3, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "machine"));
	im[1].name = "a.b";
	ck_assert_int_eq(vliw_write_elf(&b, &obj, EM_X86_64, err, sizeof err),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "a.b"));
	im[1].name = "b";
	ex[1].cname = "pk_image_a";		/* = image a's symbol */
	ck_assert_int_eq(vliw_write_elf(&b, &obj, EM_X86_64, err, sizeof err),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "'pk_image_a'"));
	ex[1].cname = "f_checked";		/* = f's checked form */
	ck_assert_int_eq(vliw_write_header(&b, NULL, &obj, err, sizeof err),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "f_checked"));
	ex[1].cname = "static";
	ck_assert_int_eq(vliw_write_csource(&b, &obj, err, sizeof err), -1);
	ex[1].cname = "pallas_call";
	ck_assert_int_eq(vliw_object_check(&obj, err, sizeof err), -1);
	ex[1].cname = "g";
	ex[1].image = 2;
	ck_assert_int_eq(vliw_object_check(&obj, err, sizeof err), -1);
	ex[1].image = 1;
	ck_assert_int_eq(vliw_object_check(&obj, err, sizeof err), 0);
	ck_assert_uint_eq(b.n, 0);
	ck_assert(vliw_is_c_name("x_1"));
	ck_assert(!vliw_is_c_name("1x"));
	ck_assert(!vliw_is_c_name("__x"));
	ck_assert(!vliw_is_c_name("class"));
	ck_assert(!vliw_is_c_name(""));
}
END_TEST

/* A program with two entries: one image, two exports; the header. */
START_TEST(test_header)
{
	VliwObject obj;
	MachProgram *p;
	Arena a = {0};
	char err[256], guard[64];
	Buf h = {0};
	void *img;
	size_t len;

	image_of(two_s, &img, &len, &p);
	vliw_object_from_program(&obj, &a, p, img, len);
	ck_assert_int_eq(obj.nimage, 1);
	ck_assert_str_eq(obj.image[0].name, "k");
	ck_assert_int_eq(obj.nexport, 2);
	ck_assert_str_eq(obj.exp[1].cname, "k2");
	ck_assert_int_eq(obj.exp[1].image, 0);
	ck_assert_int_eq(obj.exp[1].nopnd, 2);
	ck_assert_int_eq(obj.exp[1].opnd[1].dtype, MACH_BF16);
	vliw_guard_name(guard, sizeof guard, "out/my-k.h");
	ck_assert_str_eq(guard, "MY_K_H");
	vliw_guard_name(guard, sizeof guard, "2.h");
	ck_assert_str_eq(guard, "PK_2_H");
	ck_assert_int_eq(vliw_write_header(&h, guard, &obj, err, sizeof err),
	    0);
	ck_assert_ptr_nonnull(strstr(h.p, "#ifndef PK_2_H\n#define PK_2_H\n"));
	ck_assert_ptr_nonnull(strstr(h.p, "#include <pallas/pallas.h>"));
	ck_assert_ptr_nonnull(strstr(h.p, "extern \"C\" {"));
	ck_assert_ptr_nonnull(strstr(h.p,
	    "extern const unsigned char pk_image_k[];\n"
	    "extern const unsigned long long pk_image_k_len;\n"));
	ck_assert_ptr_null(strstr(h.p, "pk_image_k2"));
	ck_assert_ptr_nonnull(strstr(h.p,
	    "k(PallasDevice *dev, const float *x)"));
	ck_assert_ptr_nonnull(strstr(h.p, "k_checked(PallasDevice *dev, "
	    "const PallasTensor *x)"));
	/* 'int' cannot be a parameter; the constant takes none */
	ck_assert_ptr_nonnull(strstr(h.p,
	    "k2(PallasDevice *dev, uint16_t *pk_arg1)"));
	ck_assert_ptr_nonnull(strstr(h.p, "pk_arg1      inout bf16[2, 2]  "
	    "(operand 'int')"));
	ck_assert_ptr_nonnull(strstr(h.p, "c            const i32[4]"));
	ck_assert_ptr_nonnull(strstr(h.p, "pk_args[0].dtype = PALLAS_I32;"));
	ck_assert_ptr_nonnull(strstr(h.p, "\"k2\", pk_bufs, 2);"));
	buf_free(&h);
	free(img);
	mach_program_free(p);
	arena_free(&a);
}
END_TEST

START_TEST(test_csource)
{
	static const unsigned char x[14] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
		10, 11, 12, 255 };
	VliwImage im = { "img", x, sizeof x };
	VliwObject obj = { .preset = "small", .nimage = 1, .image = &im };
	char err[256];
	Buf b = {0};

	ck_assert_int_eq(vliw_write_csource(&b, &obj, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(b.p, "const unsigned char "
	    "pk_image_img[14] = {\n\t0x00, 0x01, 0x02, 0x03, 0x04, 0x05, "
	    "0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,\n\t0x0c, 0xff,\n};\n"));
	ck_assert_ptr_nonnull(strstr(b.p,
	    "const unsigned long long pk_image_img_len = 14ull;"));
	ck_assert_ptr_nonnull(strstr(b.p, "_Alignas(64)"));
	buf_free(&b);
}
END_TEST

/* pallas_call_image loads an image once per device, keyed by pointer. */
START_TEST(test_call_image)
{
	PallasDevice *dev;
	PallasTensor t[2];
	float x[128], y[128];
	void *bufs[2] = { x, y };
	void *i1, *i2;
	size_t n1, n2;
	unsigned char *mem;
	int i;

	image_of(TWICE_S("twice"), &i1, &n1, NULL);
	image_of(TWICE_S("twic2"), &i2, &n2, NULL);
	ck_assert_uint_eq(n1, n2);
	mem = malloc(n1);
	memcpy(mem, i1, n1);
	for (i = 0; i < 128; i++)
		x[i] = (float)i - 5;
	ck_assert_int_eq(pallas_device_open("small", &dev), PALLAS_OK);
	ck_assert_int_eq(pallas_call_image(dev, mem, n1, "twice", bufs, 2),
	    PALLAS_OK);
	for (i = 0; i < 128; i++)
		ck_assert(y[i] == 2 * x[i]);
	/* same pointer and length: the loaded program, not the new bytes */
	memcpy(mem, i2, n2);
	ck_assert_int_eq(pallas_call_image(dev, mem, n1, "twic2", bufs, 2),
	    PALLAS_ENOENT);
	ck_assert_int_eq(pallas_call_image(dev, mem, n1, "twice", bufs, 2),
	    PALLAS_OK);
	/* another pointer: another program */
	memset(y, 0, sizeof y);
	ck_assert_int_eq(pallas_call_image(dev, i2, n2, "twic2", bufs, 2),
	    PALLAS_OK);
	ck_assert(y[127] == 2 * x[127]);
	memset(t, 0, sizeof t);
	t[0].data = x;
	t[1].data = y;
	t[0].rank = t[1].rank = 2;
	t[0].shape[0] = t[1].shape[0] = 8;
	t[0].shape[1] = t[1].shape[1] = 16;
	ck_assert_int_eq(pallas_call_image_checked(dev, i2, n2, NULL, t, 2),
	    PALLAS_OK);
	t[1].shape[1] = 15;
	ck_assert_int_eq(pallas_call_image_checked(dev, i2, n2, NULL, t, 2),
	    PALLAS_EMISMATCH);
	ck_assert_ptr_nonnull(strstr(pallas_last_error(dev), "f32[8,16]"));
	/* bad images fail every time and are not kept */
	ck_assert_int_eq(pallas_call_image(dev, NULL, 0, NULL, bufs, 2),
	    PALLAS_EINVAL);
	memset(mem, 0, n1);
	ck_assert_int_eq(pallas_call_image(dev, mem, n1 - 1, NULL, bufs, 2),
	    PALLAS_EFORMAT);
	ck_assert_int_eq(pallas_call_image(dev, mem, n1 - 1, NULL, bufs, 2),
	    PALLAS_EFORMAT);
	ck_assert_int_eq(pallas_call_image(NULL, i1, n1, NULL, bufs, 2),
	    PALLAS_EINVAL);
	pallas_device_close(dev);
	free(mem);
	free(i1);
	free(i2);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("elf");
	TCase *tc = tcase_create("objects");

	tcase_add_test(tc, test_elf_x86_64);
	tcase_add_test(tc, test_elf_aarch64);
	tcase_add_test(tc, test_elf_images);
	tcase_add_test(tc, test_elf_errors);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_csource);
	tcase_add_test(tc, test_call_image);
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
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
