/*
 * ibuf.c - host buffers of interpret mode: element sizes, allocation,
 * element access with the conversions of 'as', and bf16.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsl/interp/iint.h"
#include "pallas/runtime.h"

int
interp_elem_size(DType t)
{
	switch (t) {
	case DT_F32: case DT_I32:
		return 4;
	case DT_BF16:
		return 2;
	case DT_I8: case DT_BOOL:
		return 1;
	default:
		return 0;
	}
}

int64_t
interp_buf_bytes(DType t, const Shape *s)
{
	int64_t n = interp_elem_size(t);
	int i;

	for (i = 0; i < s->rank; i++)
		if (s->d[i] && n > INT64_MAX / s->d[i])
			return INT64_MAX;
		else
			n *= s->d[i];
	return n;
}

int
interp_buf_try_alloc(InterpBuf *b, const char *name, DType t,
    const Shape *s)
{
	int64_t n = interp_buf_bytes(t, s);

	b->name = name;
	b->dtype = t;
	b->shape = *s;
	b->data = (uint64_t)n < SIZE_MAX ? calloc(n ? (size_t)n : 1, 1) : NULL;
	return b->data ? 0 : -1;
}

void
interp_buf_alloc(InterpBuf *b, const char *name, DType t, const Shape *s)
{
	if (interp_buf_try_alloc(b, name, t, s))
		die_oom();
}

void
interp_buf_free(InterpBuf *b)
{
	free(b->data);
	b->data = NULL;
}

/* bf16 rounding is the machine's, so interpret mode and the simulator agree. */
uint16_t
interp_bf16(float f)
{
	return pallas_f32_to_bf16(f);
}

float
interp_bf16_f32(uint16_t h)
{
	return pallas_bf16_to_f32(h);
}

double
interp_buf_get(const InterpBuf *b, int64_t i)
{
	switch (b->dtype) {
	case DT_F32:
		return ((const float *)b->data)[i];
	case DT_BF16:
		return interp_bf16_f32(((const uint16_t *)b->data)[i]);
	case DT_I32:
		return ((const int32_t *)b->data)[i];
	case DT_I8:
		return ((const int8_t *)b->data)[i];
	case DT_BOOL:
		return ((const uint8_t *)b->data)[i] != 0;
	default:
		return 0;
	}
}

/* v truncated toward zero and saturated to [lo, hi]; NaN gives 0. */
static int64_t
to_int(double v, int64_t lo, int64_t hi)
{
	if (isnan(v))
		return 0;
	if (v <= (double)lo)
		return lo;
	if (v >= (double)hi)
		return hi;
	return (int64_t)v;
}

void
interp_buf_set(InterpBuf *b, int64_t i, double v)
{
	switch (b->dtype) {
	case DT_F32:
		((float *)b->data)[i] = (float)v;
		break;
	case DT_BF16:
		((uint16_t *)b->data)[i] = interp_bf16((float)v);
		break;
	case DT_I32:
		((int32_t *)b->data)[i] = (int32_t)to_int(v, INT32_MIN,
		    INT32_MAX);
		break;
	case DT_I8:
		((int8_t *)b->data)[i] = (int8_t)to_int(v, -128, 127);
		break;
	case DT_BOOL:
		((uint8_t *)b->data)[i] = v != 0;
		break;
	default:
		break;
	}
}

Elt *
ival_from_host(const InterpBuf *b)
{
	Elt *e = ival_try_from_host(b);

	if (!e)
		die_oom();
	return e;
}

Elt *
ival_try_from_host(const InterpBuf *b)
{
	int64_t i, n = shape_numel(&b->shape);
	Elt *e = (uint64_t)n < SIZE_MAX / sizeof(Elt) ?
	    malloc((size_t)(n ? n : 1) * sizeof(Elt)) : NULL;

	for (i = 0; e && i < n; i++) {
		double v = interp_buf_get(b, i);
		if (dtype_is_float(b->dtype))
			e[i].f = (float)v;
		else
			e[i].i = (int32_t)v;
	}
	return e;
}

void
ival_to_host(const Elt *e, InterpBuf *b)
{
	int64_t i, n = shape_numel(&b->shape);

	for (i = 0; i < n; i++)
		switch (b->dtype) {
		case DT_F32:
			((float *)b->data)[i] = e[i].f;
			break;
		case DT_BF16:
			((uint16_t *)b->data)[i] = interp_bf16(e[i].f);
			break;
		default:
			interp_buf_set(b, i, e[i].i);
			break;
		}
}
