/*
 * fill.c - input generators of interpret mode (zeros, ones, iota,
 * seeded random) and their generator, splitmix64 (no global state).
 */
#include <string.h>

#include "dsl/interp/interp.h"

static const char *const fillname[NINTERPFILL] = {
	"zeros", "ones", "iota", "random",
};

uint64_t
interp_rng_next(InterpRng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double
interp_rng_uniform(InterpRng *r)
{
	return (double)(interp_rng_next(r) >> 11) * 0x1p-53;
}

int
interp_fill_by_name(const char *name)
{
	int i;

	for (i = 0; i < NINTERPFILL; i++)
		if (strcmp(name, fillname[i]) == 0)
			return i;
	return -1;
}

void
interp_fill(InterpBuf *b, InterpFill how, uint64_t seed)
{
	int64_t i, n = shape_numel(&b->shape);
	InterpRng r = { seed };
	double v;

	for (i = 0; i < n; i++) {
		switch (how) {
		case INTERP_ONES:
			v = 1;
			break;
		case INTERP_IOTA:
			v = (double)i;
			if (b->dtype == DT_I8)
				v = (double)(int8_t)(uint8_t)(i & 0xff);
			break;
		case INTERP_RANDOM:
			if (dtype_is_float(b->dtype))
				v = 2 * interp_rng_uniform(&r) - 1;
			else if (b->dtype == DT_BOOL)
				v = (double)(interp_rng_next(&r) >> 63);
			else
				v = (double)(interp_rng_next(&r) >> 60) - 8;
			break;
		default:
			v = 0;
			break;
		}
		interp_buf_set(b, i, v);
	}
}
