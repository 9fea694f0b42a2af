/*
 * source.c - the source files of one compilation and the macro expansions
 * that tokens came through.  Diagnostics read lines back from here.
 */
#include <string.h>

#include "util.h"

void
srcmgr_init(SrcMgr *sm)
{
	memset(sm, 0, sizeof *sm);
	vec_push(&sm->arena, &sm->file, (SrcFile){0});
	vec_push(&sm->arena, &sm->exp, (SrcExp){0});
}

void
srcmgr_free(SrcMgr *sm)
{
	arena_free(&sm->arena);
	memset(sm, 0, sizeof *sm);
}

int
srcmgr_add(SrcMgr *sm, const char *name, const char *text, size_t len)
{
	SrcFile f = {0};
	VEC(int) ls = {0};
	size_t i;

	f.name = arena_strndup(&sm->arena, name, strlen(name));
	f.text = arena_strndup(&sm->arena, text, len);
	f.len = len;
	vec_push(&sm->arena, &ls, 0);
	vec_push(&sm->arena, &ls, 0);
	for (i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 < len)
			vec_push(&sm->arena, &ls, (int)(i + 1));
	f.linestart = ls.v;
	f.nline = ls.n - 1;
	vec_push(&sm->arena, &sm->file, f);
	return sm->file.n - 1;
}

int
srcmgr_add_exp(SrcMgr *sm, const char *macro, Loc use, Loc def)
{
	SrcExp e;

	e.macro = arena_strndup(&sm->arena, macro, strlen(macro));
	e.use = use;
	e.def = def;
	vec_push(&sm->arena, &sm->exp, e);
	return sm->exp.n - 1;
}

const SrcFile *
srcmgr_file(const SrcMgr *sm, int file)
{
	if (file <= 0 || file >= sm->file.n)
		return NULL;
	return &sm->file.v[file];
}

void
srcmgr_set_show(SrcMgr *sm, int file, const char *show)
{
	SrcFile *f;
	char *p;

	if (file <= 0 || file >= sm->file.n)
		return;
	f = &sm->file.v[file];
	p = arena_alloc(&sm->arena, f->len + 1);
	memcpy(p, show, f->len);
	f->show = p;
}

/* Returns line 'line' of 'file' without its line ending, or NULL. */
const char *
srcmgr_line(const SrcMgr *sm, int file, int line, int *n)
{
	const SrcFile *f = srcmgr_file(sm, file);
	const char *base, *s, *e;

	if (!f || line < 1 || line > f->nline)
		return NULL;
	base = f->show ? f->show : f->text;
	s = base + f->linestart[line];
	e = memchr(s, '\n', f->len - (size_t)(s - base));
	if (!e)
		e = base + f->len;
	if (e > s && e[-1] == '\r')
		e--;
	*n = (int)(e - s);
	return s;
}

Loc
loc_span(Loc a, Loc b)
{
	if (!a.file)
		return b;
	if (!b.file || b.file != a.file || b.exp != a.exp)
		return a;
	a.eline = b.eline;
	a.ecol = b.ecol;
	return a;
}
