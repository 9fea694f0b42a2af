/*
 * fuzz_asm.c - libFuzzer target for the assembler: mach_asm on arbitrary
 * bytes must accept or reject without a crash, hang, leak or sanitizer
 * report; an accepted program must disassemble, and the text must
 * assemble back to the same image.  Inputs that found a bug are kept in
 * tests/fuzz/regress-asm/ (checked by tests/unit/check_asm).
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Image bytes of p; aborts (a finding) if p cannot be written. */
static void *
image(const MachProgram *p, size_t *len)
{
	char err[256];
	void *img;

	if (mach_image_write(p, &img, len, err, sizeof err) != MACH_OK)
		abort();
	return img;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char err[1 << 14];
	MachProgram *p, *q;
	void *i1, *i2;
	size_t n1, n2, len;
	char *text;

	if (mach_asm("fuzz.s", (const char *)data, size, NULL, &p, err,
	    sizeof err) != MACH_OK) {
		if (p != NULL)
			abort();
		return 0;
	}
	if (mach_disasm(p, &text, &len) != MACH_OK)
		abort();
	if (mach_asm("dis.s", text, len, NULL, &q, err, sizeof err) != MACH_OK)
		abort();
	i1 = image(p, &n1);
	i2 = image(q, &n2);
	if (n1 != n2 || memcmp(i1, i2, n1) != 0)
		abort();
	free(i1);
	free(i2);
	free(text);
	mach_program_free(p);
	mach_program_free(q);
	return 0;
}
