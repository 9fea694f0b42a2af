/*
 * revisit.c - output revisits: an output block stays resident while
 * consecutive grid steps map to it and is written back when the index
 * changes, so each block must be visited in one consecutive run of steps.
 * Proved by enumerating the grid (doc/language.md 5.3), unless the output
 * is declared revisitable (params { revisit: NAME; }, single-buffered).
 *
 * Gives:    revisit_check() (sema.h).
 * Tests:    tests/diag/sema-revisit-*.pk, check_sema.c
 */
#include <stdlib.h>
#include <string.h>

#include "dsl/sema/sema.h"

typedef struct Seen {
	int64_t *key;		/* rank words per entry */
	int64_t *slot;		/* entry + 1, 0 = empty */
	int64_t n, cap, nslot;
	int rank;
} Seen;

static uint64_t
hash(const int64_t *k, int r)
{
	uint64_t h = 1469598103934665603u;
	int i;

	for (i = 0; i < r; i++)
		h = (h ^ (uint64_t)k[i]) * 1099511628211u;
	return h;
}

/* Adds k; returns its entry, *found set if it was there already. */
static int64_t
seen_add(Seen *s, const int64_t *k, int *found)
{
	uint64_t h = hash(k, s->rank);
	int64_t i = (int64_t)(h & (uint64_t)(s->nslot - 1)), e;

	*found = 0;
	while ((e = s->slot[i])) {
		if (memcmp(&s->key[(e - 1) * s->rank], k,
		    sizeof *k * (size_t)s->rank) == 0) {
			*found = 1;
			return e - 1;
		}
		i = (i + 1) & (s->nslot - 1);
	}
	memcpy(&s->key[s->n * s->rank], k, sizeof *k * (size_t)s->rank);
	s->slot[i] = ++s->n;
	return s->n - 1;
}

/* The grid point with linear index n. */
static void
unlinear(const CKernel *k, int64_t n, int64_t *pt)
{
	int i;

	for (i = k->naxis - 1; i >= 0; i--) {
		pt[i] = n % k->axis[i].extent;
		n /= k->axis[i].extent;
	}
}

static const char *
tuple(Sema *S, const int64_t *k, int r)
{
	Buf b = {0};
	const char *s;
	int i;

	buf_putc(&b, '(');
	for (i = 0; i < r; i++)
		buf_printf(&b, "%s%lld", i ? ", " : "", (long long)k[i]);
	buf_putc(&b, ')');
	s = arena_strndup(S->a, b.p, b.n);
	buf_free(&b);
	return s;
}

static void
report(Sema *S, CKernel *k, const COperand *o, const int64_t *blk,
    const int64_t *pt, const int64_t *left)
{
	se_error(S, o->loc, "output '%s' revisits block %s at grid point %s",
	    o->name, tuple(S, blk, o->shape.rank), grid_point_str(S, k, pt));
	se_note(S, o->loc, "it left that block after grid point %s; the "
	    "block was written back then and would be overwritten",
	    grid_point_str(S, k, left));
	se_note(S, o->loc, "visit each output block in consecutive steps (put "
	    "the axes its index map ignores last), or declare 'params { "
	    "revisit: %s; }' with 'buffers 1'", o->name);
}

/*
 * Enumerates the grid for output o; returns 0 when every block is
 * visited in one run, 1 after reporting the first revisit, -1 when the
 * map cannot be evaluated here (it reads an SMEM table).
 */
int
revisit_output(Sema *S, CKernel *k, const COperand *o)
{
	int64_t pt[SEMA_MAXRANK + 1] = {0}, prev[SEMA_MAXRANK + 1] = {0};
	int64_t cur[SEMA_MAXRANK], blk[SEMA_MAXRANK];
	int64_t total = grid_size(k);
	Seen s = {0};
	int first = 1, rc = 0, d, found;
	int64_t *leave, e, ecur = 0, step = 0;

	s.rank = o->shape.rank ? o->shape.rank : 1;
	for (s.nslot = 16; s.nslot < 2 * total; s.nslot *= 2)
		;
	s.key = xcalloc((size_t)total + 1, sizeof *s.key * (size_t)s.rank);
	s.slot = xcalloc((size_t)s.nslot, sizeof *s.slot);
	leave = xcalloc((size_t)total + 1, sizeof *leave);
	memset(blk, 0, sizeof blk);
	do {
		if (sema_block_start(k, (int)(o - k->op), pt, NULL, NULL, blk)) {
			rc = -1;
			break;
		}
		for (d = 0; d < o->shape.rank; d++)
			blk[d] = o->element ? blk[d] : blk[d] / o->block.d[d];
		if (first || memcmp(blk, cur, sizeof *blk * (size_t)s.rank)) {
			if (!first)
				leave[ecur] = step - 1;
			e = seen_add(&s, blk, &found);
			if (found) {
				unlinear(k, leave[e], prev);
				report(S, k, o, blk, pt, prev);
				rc = 1;
				break;
			}
			ecur = e;
			memcpy(cur, blk, sizeof cur);
		}
		first = 0;
		step++;
	} while (grid_next(k, pt));
	free(leave);
	free(s.key);
	free(s.slot);
	return rc;
}

void
revisit_check(Sema *S, CKernel *k)
{
	int i;

	for (i = 0; i < k->nop; i++) {
		COperand *o = &k->op[i];
		if (o->role != ROLE_OUT || !o->blocked)
			continue;
		if (o->revisit_any) {
			if (o->buffers != 1) {
				se_error(S, o->loc, "output '%s' is declared "
				    "revisitable, which needs 'buffers 1'",
				    o->name);
				se_note(S, o->loc, "a revisited block is read "
				    "back from HBM, which double buffering "
				    "cannot overlap");
			}
			continue;
		}
		if (o->runtime_check || grid_size(k) > SEMA_MAX_ENUM)
			continue;
		revisit_output(S, k, o);
	}
}
