/*
 * strtab.c - string interning.  Identifiers are compared by pointer after
 * strtab_intern(); the strings live in the table's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static unsigned
hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void
strtab_init(Strtab *t, Arena *a)
{
	t->arena = a;
	t->nslot = 256;
	t->nused = 0;
	t->slot = xcalloc(t->nslot, sizeof(*t->slot));
}

static void
rehash(Strtab *t)
{
	const char **old = t->slot;
	unsigned i, j, n = t->nslot;

	t->nslot *= 2;
	t->slot = xcalloc(t->nslot, sizeof(*t->slot));
	for (i = 0; i < n; i++) {
		if (!old[i])
			continue;
		j = hash(old[i], strlen(old[i])) & (t->nslot - 1);
		while (t->slot[j])
			j = (j + 1) & (t->nslot - 1);
		t->slot[j] = old[i];
	}
	free(old);
}

/* Returns the unique copy of s[0..n). */
const char *
strtab_intern(Strtab *t, const char *s, size_t n)
{
	unsigned j;

	if (2 * (t->nused + 1) > t->nslot)
		rehash(t);
	j = hash(s, n) & (t->nslot - 1);
	for (; t->slot[j]; j = (j + 1) & (t->nslot - 1))
		if (strncmp(t->slot[j], s, n) == 0 && t->slot[j][n] == 0)
			return t->slot[j];
	t->slot[j] = arena_strndup(t->arena, s, n);
	t->nused++;
	return t->slot[j];
}

/* The interned copy of s[0..n), or NULL if s was never interned. */
const char *
strtab_find(const Strtab *t, const char *s, size_t n)
{
	unsigned j = hash(s, n) & (t->nslot - 1);

	for (; t->slot[j]; j = (j + 1) & (t->nslot - 1))
		if (strncmp(t->slot[j], s, n) == 0 && t->slot[j][n] == 0)
			return t->slot[j];
	return NULL;
}

void
strtab_free(Strtab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->nslot = t->nused = 0;
}
