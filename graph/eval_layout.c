/*
 * eval_layout.c - the evaluator's physical layouts, for bitcast: a
 * bitcast reinterprets the operand's buffer in the result's layout, so
 * the element at logical index j of the result is the operand element
 * stored at the physical position j has under the result's layout.
 * Physical positions follow docs/tiled_layout.md: dimensions in
 * minor_to_major order, then each tile splits the most-minor dimensions
 * into tile index and within-tile index (padding the array up to whole
 * tiles), later tiles re-tiling the result.  reshape is logical and
 * needs none of this.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/eval.h"

#define PHYS_MAXRANK (HLO_MAXRANK * (HLO_MAXTILES + 1) + 1)

/*
 * The physical offset of logical index idx of s, and the physical size
 * (with tile padding) in *size; -1 for a tile with '*' (not modelled).
 */
static int64_t
phys_offset(const HloShape *s, const int64_t *idx, int64_t *size)
{
	const HloLayout *l = &s->layout;
	int64_t d[PHYS_MAXRANK], x[PHYS_MAXRANK], off = 0, n = 1;
	int r = s->rank, k, t, i;

	for (k = 0; k < r; k++) {
		int dim = l->has && l->nm2m == r ? l->m2m[r - 1 - k] : k;
		d[k] = s->dim[dim];
		x[k] = idx[dim];
	}
	for (t = 0; t < l->ntile; t++) {
		const HloTile *tl = &l->tile[t];
		for (; r < tl->n; r++) {	/* leading dims of size 1 */
			for (k = r; k > 0; k--) {
				d[k] = d[k - 1];
				x[k] = x[k - 1];
			}
			d[0] = 1;
			x[0] = 0;
		}
		if (r + tl->n > PHYS_MAXRANK)
			return -1;
		for (i = 0; i < tl->n; i++) {
			int64_t ts = tl->d[i];
			k = r - tl->n + i;
			if (ts < 1)
				return -1;
			d[r + i] = ts;
			x[r + i] = x[k] % ts;
			d[k] = (d[k] + ts - 1) / ts;
			x[k] /= ts;
		}
		r += tl->n;
	}
	for (k = 0; k < r; k++) {
		off = off * d[k] + x[k];
		n *= d[k];
	}
	*size = n;
	return off;
}

/* bitcast of a (whose instruction's shape, with layout, is 'from'). */
Val *
ev_bitcast(Ev *e, const HloInstr *in, Val *a, const HloShape *from)
{
	int64_t idx[HLO_MAXRANK] = {0}, k, size, rsize, off;
	HloElem *buf;
	Val *r;

	if (in->shape.type != a->shape.type) {
		ev_fail(e, in, "'bitcast' that changes the element type is not "
		    "supported by the evaluator");
		return NULL;
	}
	if (a->n == 0 || phys_offset(from, idx, &size) < 0) {
		ev_fail(e, in, "'bitcast' of this layout is not supported by "
		    "the evaluator");
		return NULL;
	}
	if (!(r = ev_array(e, in, in->shape.type, in->shape.rank,
	    in->shape.dim)))
		return NULL;
	if (!(buf = calloc((size_t)size, sizeof *buf))) {
		ev_fail(e, in, "out of host memory for 'bitcast'");
		return NULL;
	}
	for (k = 0; k < a->n; k++, ev_next_index(idx, &a->shape))
		buf[phys_offset(from, idx, &size)] = a->v[k];
	memset(idx, 0, sizeof idx);
	for (k = 0; k < r->n; k++, ev_next_index(idx, &r->shape)) {
		off = phys_offset(&in->shape, idx, &rsize);
		if (off < 0 || off >= size) {
			ev_fail(e, in, "'bitcast' result does not fit the "
			    "operand's physical layout");
			break;
		}
		r->v[k] = buf[off];
	}
	free(buf);
	return e->failed ? NULL : r;
}
