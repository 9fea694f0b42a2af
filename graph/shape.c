/*
 * shape.c - HLO shapes and layouts: element counts, comparison, and their
 * text form ("f32[8,128]{1,0:T(8,128)S(1)}", "(f32[], s32[4])").
 */
#include <string.h>

#include "graph/graph.h"

int64_t
hlo_shape_elems(const HloShape *s)
{
	int64_t n = 1;
	int i;

	if (s->type == HT_TUPLE)
		return -1;
	for (i = 0; i < s->rank; i++) {
		if (s->dim[i] < 0)
			return -1;
		if (s->dim[i] && n > ((int64_t)1 << 62) / s->dim[i])
			return -1;
		n *= s->dim[i];
	}
	return n;
}

int
hlo_shape_same(const HloShape *a, const HloShape *b)
{
	int i;

	if (a->type != b->type)
		return 0;
	if (a->type == HT_TUPLE) {
		if (a->ntuple != b->ntuple)
			return 0;
		for (i = 0; i < a->ntuple; i++)
			if (!hlo_shape_same(&a->elem[i], &b->elem[i]))
				return 0;
		return 1;
	}
	if (a->rank != b->rank)
		return 0;
	for (i = 0; i < a->rank; i++)
		if (a->dim[i] != b->dim[i])
			return 0;
	return 1;
}

int
hlo_shape_is_scalar(const HloShape *s)
{
	return s->type != HT_TUPLE && s->rank == 0;
}

HloShape
hlo_shape_array(HloType t, int rank, const int64_t *dim)
{
	HloShape s;

	memset(&s, 0, sizeof s);
	s.type = t;
	s.rank = rank;
	if (rank > 0)
		memcpy(s.dim, dim, (size_t)rank * sizeof *dim);
	return s;
}

HloShape
hlo_shape_tuple(Arena *a, const HloShape *elem, int n)
{
	HloShape s;

	memset(&s, 0, sizeof s);
	s.type = HT_TUPLE;
	s.ntuple = n;
	if (n > 0) {
		s.elem = arena_alloc(a, (size_t)n * sizeof *elem);
		memcpy(s.elem, elem, (size_t)n * sizeof *elem);
	}
	return s;
}

int
hlo_layout_is_default(const HloLayout *l, int rank)
{
	int i;

	if (!l->has)
		return 1;
	/* the memory space does not change the element order */
	if (l->ntile || l->mid || l->post)
		return 0;
	if (l->nm2m != rank)
		return l->nm2m == 0 && rank == 0;
	for (i = 0; i < rank; i++)
		if (l->m2m[i] != rank - 1 - i)
			return 0;
	return 1;
}

static void
print_tiles(Buf *b, const HloLayout *l)
{
	int i, j;

	if (l->ntile)
		buf_putc(b, 'T');
	for (i = 0; i < l->ntile; i++) {
		buf_putc(b, '(');
		for (j = 0; j < l->tile[i].n; j++) {
			if (j)
				buf_putc(b, ',');
			if (l->tile[i].d[j] < 0)
				buf_putc(b, '*');
			else
				buf_printf(b, "%lld", (long long)l->tile[i].d[j]);
		}
		buf_putc(b, ')');
	}
}

/* XLA's Layout::Print order: m2m, ':', T, L # * E, S, SC P M. */
void
hlo_layout_print(Buf *b, const HloLayout *l, int rank)
{
	int i, suffix = l->ntile || l->memspace || l->mid || l->post;

	if (!l->has || (rank == 0 && !suffix))
		return;
	buf_putc(b, '{');
	for (i = 0; i < l->nm2m; i++)
		buf_printf(b, i ? ",%d" : "%d", l->m2m[i]);
	if (suffix) {
		buf_putc(b, ':');
		print_tiles(b, l);
		if (l->mid)
			buf_puts(b, l->mid);
		if (l->memspace)
			buf_printf(b, "S(%lld)", (long long)l->memspace);
		if (l->post)
			buf_puts(b, l->post);
	}
	buf_putc(b, '}');
}

void
hlo_shape_print(Buf *b, const HloShape *s)
{
	int i;

	if (s->type == HT_TUPLE) {
		buf_putc(b, '(');
		for (i = 0; i < s->ntuple; i++) {
			if (i)
				buf_puts(b, ", ");
			hlo_shape_print(b, &s->elem[i]);
		}
		buf_putc(b, ')');
		return;
	}
	buf_puts(b, hlo_type_name(s->type));
	buf_putc(b, '[');
	for (i = 0; i < s->rank; i++)
		buf_printf(b, i ? ",%lld" : "%lld", (long long)s->dim[i]);
	buf_putc(b, ']');
	hlo_layout_print(b, &s->layout, s->rank);
}
