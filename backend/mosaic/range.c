/*
 * range.c - interval arithmetic over integer index expressions: the
 * bounds of every value an expression takes over the grid (and, in a
 * body, over the loops around it), so that the run-time checks of index
 * maps (pipeline.c) and of dynamic indices in bodies (lower_check.c)
 * are emitted only where the bounds cannot be proved.
 *
 * Gives:    mosaic_range() (mosaic.h).
 * Method:   grid axes range over [0, extent); constants are points;
 *           slots take the ranges the body lowering recorded (for
 *           variables from their bounds, lets from their values); +, -,
 *           *, min, max, select, negation, broadcasts (for divisors
 *           of vectors, the bounds of each element), / and % by a positive
 *           constant of a non-negative value.  Anything else (a table
 *           read, a division by a range) is unknown.  Values are i32, so
 *           bounds beyond +-2^31 count as unknown.
 */
#include "backend/mosaic/mosaic.h"

#define BIG ((int64_t)1 << 31)	/* intervals beyond this: unknown */

int
mosaic_nonzero(const CKernel *k, const MosaicRanges *r, const CExpr *e)
{
	int64_t lo, hi;

	return mosaic_range(k, r, e, &lo, &hi) && (lo > 0 || hi < 0);
}

int
mosaic_range(const CKernel *k, const MosaicRanges *r, const CExpr *e,
    int64_t *lo, int64_t *hi)
{
	int64_t a0, a1, b0, b1, c[4];
	int i;

	if (!dtype_is_int(e->dtype))
		return 0;
	switch (e->op) {
	case CX_CONST: *lo = *hi = e->u.cst.i; return 1;
	case CX_AXIS: *lo = 0; *hi = k->axis[e->u.axis].extent - 1; return 1;
	case CX_NPROG: *lo = *hi = k->axis[e->u.axis].extent; return 1;
	case CX_SLOT:
		if (!r || e->u.slot < 0 || e->u.slot >= r->n ||
		    !r->known[e->u.slot])
			return 0;
		*lo = r->lo[e->u.slot];
		*hi = r->hi[e->u.slot];
		return 1;
	case CX_CAST:
		if (e->dtype == DT_BOOL || e->arg[0]->dtype == DT_BOOL) {
			*lo = 0;
			*hi = 1;
			return 1;
		}
		if (!mosaic_range(k, r, e->arg[0], lo, hi))
			return 0;
		if (e->dtype == DT_I8 && (*lo < -128 || *hi > 127)) {
			*lo = -128;	/* the low byte: any i8 */
			*hi = 127;
		}
		return 1;
	case CX_BROADCAST:	/* a vector's bounds hold for each element */
		return mosaic_range(k, r, e->arg[0], lo, hi);
	case CX_NEG:
		if (!mosaic_range(k, r, e->arg[0], &a0, &a1))
			return 0;
		*lo = -a1;
		*hi = -a0;
		return 1;
	case CX_SELECT:
		if (!mosaic_range(k, r, e->arg[1], &a0, &a1) ||
		    !mosaic_range(k, r, e->arg[2], &b0, &b1))
			return 0;
		*lo = a0 < b0 ? a0 : b0;
		*hi = a1 > b1 ? a1 : b1;
		return 1;
	case CX_ADD: case CX_SUB: case CX_MUL: case CX_MIN: case CX_MAX:
	case CX_DIV: case CX_MOD:
		break;
	default:
		return 0;
	}
	if (!mosaic_range(k, r, e->arg[0], &a0, &a1) ||
	    !mosaic_range(k, r, e->arg[1], &b0, &b1))
		return 0;
	switch (e->op) {
	case CX_ADD: *lo = a0 + b0; *hi = a1 + b1; break;
	case CX_SUB: *lo = a0 - b1; *hi = a1 - b0; break;
	case CX_MIN: *lo = a0 < b0 ? a0 : b0; *hi = a1 < b1 ? a1 : b1; break;
	case CX_MAX: *lo = a0 > b0 ? a0 : b0; *hi = a1 > b1 ? a1 : b1; break;
	case CX_MUL:
		c[0] = a0 * b0, c[1] = a0 * b1, c[2] = a1 * b0, c[3] = a1 * b1;
		for (*lo = *hi = c[0], i = 1; i < 4; i++) {
			*lo = c[i] < *lo ? c[i] : *lo;
			*hi = c[i] > *hi ? c[i] : *hi;
		}
		break;
	case CX_DIV:	/* truncating: monotonic for a >= 0, b > 0 */
		if (a0 < 0 || b0 != b1 || b0 <= 0)
			return 0;
		*lo = a0 / b0;
		*hi = a1 / b0;
		break;
	default:	/* CX_MOD */
		if (a0 < 0 || b0 != b1 || b0 <= 0)
			return 0;
		*lo = a1 < b0 ? a0 : 0;
		*hi = a1 < b0 ? a1 : b0 - 1;
		break;
	}
	return *lo > -BIG && *hi < BIG;
}

