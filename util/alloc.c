/*
 * alloc.c - heap allocation that cannot fail, and bug() for broken
 * invariants.  Compiler-side only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Per thread, so each thread's compile returns to its own caller. */
static _Thread_local UtilRecover *recover;

void
util_recover_set(UtilRecover *r)
{
	recover = r;
}

void
die_oom(void)
{
	if (recover) {
		snprintf(recover->msg, sizeof recover->msg, "out of memory");
		longjmp(recover->jb, 1);
	}
	fputs("pallasc: out of memory\n", stderr);
	exit(EXIT_INTERNAL);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom();
	return p;
}

void *
xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die_oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Prints "internal error" with the C location and exits: never returns. */
void
bug_at(const char *where, const char *fmt, ...)
{
	va_list ap;

	if (recover) {
		int n = snprintf(recover->msg, sizeof recover->msg,
		    "internal compiler error at %s: ", where);
		va_start(ap, fmt);
		if (n > 0 && (size_t)n < sizeof recover->msg)
			vsnprintf(recover->msg + n, sizeof recover->msg - n, fmt,
			    ap);
		va_end(ap);
		longjmp(recover->jb, 1);
	}
	fprintf(stderr, "pallasc: internal error at %s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nplease report this bug with the input that caused it\n", stderr);
	exit(EXIT_INTERNAL);
}
