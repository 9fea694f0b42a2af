/*
 * program.c - building and freeing MachProgram, the decoded program that
 * the assembler produces, the image stores and the simulator runs.  The
 * program owns every array (plain malloc); nothing here exits on failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

static const char *const errname[NMACHERR] = {
	[MACH_OK] = "ok", [MACH_ENOMEM] = "out of memory",
	[MACH_EINVAL] = "invalid program", [MACH_EFORMAT] = "bad image",
	[MACH_EVERSION] = "unsupported image version",
	[MACH_EPRESET] = "unknown preset",
};

const char *
mach_err_name(int err)
{
	return err >= 0 && err < NMACHERR ? errname[err] : "unknown error";
}

void *
mach_grow(void *v, uint32_t len, uint32_t *cap, uint32_t more, size_t elem)
{
	uint64_t want = (uint64_t)len + more, room = *cap > len ? *cap : len;
	void *q;

	if (want <= room)
		return v;
	if (want > UINT32_MAX || want > SIZE_MAX / elem)
		return NULL;
	room = room * 2 > want ? room * 2 : want;
	if (room < 16)
		room = 16;
	if (room > UINT32_MAX || room > SIZE_MAX / elem)
		room = want;
	if (!(q = realloc(v, (size_t)room * elem)))
		return NULL;
	*cap = (uint32_t)room;
	return q;
}

MachProgram *
mach_program_new(const char *preset)
{
	const MachPreset *mp;
	MachProgram *p;

	mp = mach_preset(preset);
	if (!mp || (p = calloc(1, sizeof *p)) == NULL)
		return NULL;
	p->mp = mp;
	strncpy(p->preset, mp->name, sizeof p->preset - 1);
	p->str = calloc(1, 1);
	if (!p->str) {
		free(p);
		return NULL;
	}
	p->nstr = 1;
	return p;
}

void
mach_program_free(MachProgram *p)
{
	if (!p)
		return;
	free(p->bundle);
	free(p->ins);
	free(p->data);
	free(p->entry);
	free(p->opnd);
	free(p->debug);
	free(p->region);
	free(p->str);
	free(p);
}

int64_t
mach_program_str(MachProgram *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *q;
	int64_t off;

	if (n > UINT32_MAX - p->nstr)
		return -1;
	q = mach_grow(p->str, p->nstr, &p->cap_str, (uint32_t)n, 1);
	if (!q)
		return -1;
	memcpy(q + p->nstr, s, n);
	off = p->nstr;
	p->str = q;
	p->nstr += (uint32_t)n;
	return off;
}

const char *
mach_program_strat(const MachProgram *p, uint32_t off)
{
	if (!p->str || off >= p->nstr || (off > 0 && p->str[off - 1] != 0) ||
	    p->str[p->nstr - 1] != 0)
		return "";
	return p->str + off;
}

int
mach_program_add_bundle(MachProgram *p, const MachIns *ins, int n)
{
	MachBundle *b;
	MachIns *q;

	if (n < 0 || (uint64_t)p->nins + (uint64_t)n > UINT32_MAX ||
	    p->nbundle == UINT32_MAX)
		return MACH_EINVAL;
	b = mach_grow(p->bundle, p->nbundle, &p->cap_bundle, 1, sizeof *b);
	if (!b)
		return MACH_ENOMEM;
	p->bundle = b;
	if (n) {
		q = mach_grow(p->ins, p->nins, &p->cap_ins, (uint32_t)n,
		    sizeof *q);
		if (!q)
			return MACH_ENOMEM;
		p->ins = q;
		memcpy(p->ins + p->nins, ins, (size_t)n * sizeof *ins);
	}
	b[p->nbundle].first = p->nins;
	b[p->nbundle].nins = (uint32_t)n;
	p->nbundle++;
	p->nins += (uint32_t)n;
	return MACH_OK;
}

/* Formats a message into err (when there is room) and returns code. */
int
mach_errf(int code, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}
