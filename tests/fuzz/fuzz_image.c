/*
 * fuzz_image.c - libFuzzer target for the program image reader:
 * mach_image_read on arbitrary bytes must accept or reject without a
 * crash, hang, leak or sanitizer report.  An accepted program must be
 * valid, re-encode, read back to the same image, and disassemble (the
 * text is then assembled too, which may reject names the assembler does
 * not allow twice).  Inputs that found a bug are kept in
 * tests/fuzz/regress-image/ (checked by tests/unit/check_asm).
 *
 * Build: ./configure --enable-fuzzing && make fuzz   (needs clang)
 */
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char err[1 << 12];
	MachProgram *p, *q, *r;
	void *i1, *i2;
	size_t n1, n2, len;
	char *text;

	if (mach_image_read(data, size, &p, err, sizeof err) != MACH_OK) {
		if (p != NULL)
			abort();
		return 0;
	}
	if (mach_program_check(p, err, sizeof err) != MACH_OK ||
	    mach_image_write(p, &i1, &n1, err, sizeof err) != MACH_OK ||
	    mach_image_read(i1, n1, &q, err, sizeof err) != MACH_OK ||
	    mach_image_write(q, &i2, &n2, err, sizeof err) != MACH_OK)
		abort();
	if (n1 != n2 || memcmp(i1, i2, n1) != 0)
		abort();
	if (mach_disasm(p, &text, &len) != MACH_OK)
		abort();
	if (mach_asm("dis.s", text, len, NULL, &r, err, sizeof err) == MACH_OK)
		mach_program_free(r);
	free(text);
	free(i1);
	free(i2);
	mach_program_free(p);
	mach_program_free(q);
	return 0;
}
