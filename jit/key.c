/*
 * key.c - module keys (key.h).  The full key also names the compiler
 * binary (its path, size and modification time, as ccache does), so a
 * rebuilt compiler never reuses programs an older one left on disk.
 */
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "jit/key.h"

/* Buf appends that report failure instead of exiting. */
static int
put(Buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n++] = 0;	/* each field ends with a NUL */
	return 0;
}

static int
puts0(Buf *b, const char *s)
{
	return put(b, s, strlen(s));
}

/* The compiler's identity: this library's file, size and time. */
static void
compiler_id(char *buf, size_t n)
{
	Dl_info info;
	struct stat st;

	snprintf(buf, n, "%s", PACKAGE_VERSION);
	if (dladdr((void *)compiler_id, &info) && info.dli_fname &&
	    stat(info.dli_fname, &st) == 0)
		snprintf(buf, n, "%s %s %lld %lld", PACKAGE_VERSION,
		    info.dli_fname, (long long)st.st_size,
		    (long long)st.st_mtime);
}

/* Flag f's place in the key's order: include directories first, then
 * macros (their order kept: a later -D wins), then the rest; -1 for
 * flags that change only the messages, which the AOT key leaves out. */
static int
flag_class(const char *f, int full)
{
	if (strncmp(f, "-I", 2) == 0)
		return 0;
	if (strncmp(f, "-D", 2) == 0 || strncmp(f, "-U", 2) == 0)
		return 1;
	if (!full && (strcmp(f, "-Werror") == 0 ||
	    strncmp(f, "-fdiagnostics-format=", 21) == 0))
		return -1;
	return 2;
}

int
jit_key(Buf *b, const PallasSource *src, const char *preset,
    const PallasModuleOptions *opt, int full)
{
	char id[4200], num[32];
	int i, c, bad;

	bad = puts0(b, full ? "pallas-jit 1" : "pallas-aot 1");
	if (full) {
		compiler_id(id, sizeof id);
		snprintf(num, sizeof num, "%d", src->line);
		bad |= puts0(b, id) | puts0(b, src->file) | puts0(b, num);
	} else
		bad |= puts0(b, PACKAGE_VERSION);
	bad |= puts0(b, preset) | puts0(b, src->name);
	for (c = 0; c < 3; c++)
		for (i = 0; opt && i < opt->nflag; i++)
			if (opt->flag[i] && flag_class(opt->flag[i], full) == c)
				bad |= puts0(b, opt->flag[i]);
	bad |= puts0(b, "--") | puts0(b, src->text);
	if (bad) {
		free(b->p);
		memset(b, 0, sizeof *b);
		return -1;
	}
	return 0;
}
