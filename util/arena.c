/*
 * arena.c - bump allocation in chunks.  A compilation allocates its AST,
 * symbols and IR here and frees them all with one arena_free().
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define CHUNK_SIZE (64 * 1024)
#define ALIGN 16

struct ArenaChunk {
	ArenaChunk *next;
	size_t size;		/* usable bytes in data */
	_Alignas(ALIGN) unsigned char data[];
};

static ArenaChunk *
chunk_new(size_t size, ArenaChunk *next)
{
	ArenaChunk *c = xmalloc(sizeof(ArenaChunk) + size);

	c->next = next;
	c->size = size;
	return c;
}

/* Returns n zeroed bytes aligned to 16. */
void *
arena_alloc(Arena *a, size_t n)
{
	void *p;

	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n == 0)
		n = ALIGN;
	if (!a->head || a->used + n > a->head->size) {
		if (n > CHUNK_SIZE / 4) {
			/* a big object gets its own chunk behind the head */
			ArenaChunk *c = chunk_new(n, a->head ? a->head->next : NULL);
			if (a->head)
				a->head->next = c;
			else {
				a->head = c;
				a->used = n;
			}
			a->total += n;
			memset(c->data, 0, n);
			return c->data;
		}
		a->head = chunk_new(CHUNK_SIZE, a->head);
		a->used = 0;
	}
	p = a->head->data + a->used;
	a->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	Buf b = {0};
	char *s;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	s = arena_strndup(a, b.p ? b.p : "", b.n);
	buf_free(&b);
	return s;
}

void
arena_free(Arena *a)
{
	ArenaChunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = a->total = 0;
}

/*
 * Grows an arena-backed array to hold at least 'need' elements.  The old
 * storage stays in the arena until it is freed (simple over clever).
 */
void *
vec_grow_(Arena *a, void *v, int *cap, int need, size_t elem)
{
	int ncap = *cap ? *cap : 8;
	void *nv;

	while (ncap < need)
		ncap *= 2;
	nv = arena_alloc(a, (size_t)ncap * elem);
	if (v)
		memcpy(nv, v, (size_t)*cap * elem);
	*cap = ncap;
	return nv;
}
