/*
 * interp.h - interpret mode: the numerical oracle of pallas-c.  Runs a
 * checked kernel (dsl/sema/checked.h) on host memory over its grid, and a
 * checked func with a straightforward evaluator.  Table of contents for
 * dsl/interp/.
 *
 * Kernels run the way the pipeline will: grid points in lexicographic
 * order (optionally shuffled along the leading parallel axes), an input
 * block copied in only when its block index differs from the previous
 * step's, an output block written back when its index changes and after
 * the last step.  Scratch, fresh output blocks and the padding of blocks
 * that extend past an array are poisoned (NaN for floats, INT_MIN for
 * integers); reading an element of scratch or of an output block that
 * the run has not written is an error, as are block indices out of
 * range, dynamic slices out of bounds, output blocks revisited after
 * they were written back, unmatched DMAs and semaphores left non-zero.
 * Errors are diagnostics at the kernel's source locations followed by a
 * note naming the grid point; the run stops at the first one.
 *
 * Host buffers hold elements in C order: f32 as float, bf16 as uint16_t
 * (the upper half of an f32), i32 as int32_t, i8 as int8_t, bool as one
 * byte 0 or 1.
 */
#ifndef PALLAS_INTERP_H
#define PALLAS_INTERP_H

#include "dsl/sema/checked.h"

typedef struct InterpBuf {
	const char *name;	/* for messages; may be NULL */
	DType dtype;		/* f32, bf16, i32, i8 or bool */
	Shape shape;
	void *data;		/* shape_numel x interp_elem_size bytes */
} InterpBuf;

typedef struct InterpStats {
	int64_t steps;		/* grid points run */
	/* per operand (CKernel.op order), if not NULL: k->nop entries */
	int64_t *copy_in;	/* blocks copied into VMEM/SMEM */
	int64_t *copy_out;	/* blocks written back */
	int64_t poisoned_out;	/* output elements never written */
} InterpStats;

typedef struct InterpOptions {
	int shuffle;		/* randomise the order of the points of
				   the leading parallel axes */
	uint64_t seed;		/* for shuffle */
	InterpStats *stats;	/* filled if not NULL */
	/* 1: warn about output elements that were never written */
	int warn_unwritten;
} InterpOptions;

/* ---------------------------------------------------------- interp.c */
/*
 * Runs kernel k with buffers op[0 .. nop), one per operand in
 * declaration order (SMEM tables, inputs, outputs), whose dtypes and
 * shapes must match.  Outputs are overwritten (an output aliasing an
 * input starts as a copy of it).  o may be NULL (defaults).  Returns 0,
 * or -1 after reporting through d.
 */
int interp_kernel(const CKernel *k, InterpBuf *op, int nop,
    const InterpOptions *o, Diag *d);

/* ---------------------------------------------------------- ifunc.c */
/*
 * Evaluates func f on args[0 .. nargs) (its parameters, in order) into
 * *result, which the caller has allocated with f's result dtype and
 * shape (interp_buf_alloc).  Kernel calls run with interp_kernel.
 * Returns 0, or -1 after reporting through d.
 */
int interp_func(const CFunc *f, const InterpBuf *args, int nargs,
    InterpBuf *result, const InterpOptions *o, Diag *d);

/* ---------------------------------------------------------- ibuf.c */
/* Bytes per element of a host buffer (bool: 1); 0 for semaphores. */
int interp_elem_size(DType t);
/* Allocates zeroed data for dtype t and shape s (dies on OOM: for the
 * compiler's own small buffers). */
void interp_buf_alloc(InterpBuf *b, const char *name, DType t,
    const Shape *s);
/* The same for sizes a user chose: 0, or -1 (data NULL) when the host
 * has no memory for it. */
int interp_buf_try_alloc(InterpBuf *b, const char *name, DType t,
    const Shape *s);
/* The bytes of such a buffer (INT64_MAX if they do not fit). */
int64_t interp_buf_bytes(DType t, const Shape *s);
void interp_buf_free(InterpBuf *b);
/* Element i as a double (bf16 decoded, bool 0 or 1). */
double interp_buf_get(const InterpBuf *b, int64_t i);
/* Stores v into element i, converted as 'as' does (round, saturate). */
void interp_buf_set(InterpBuf *b, int64_t i, double v);
/* bf16 <-> f32: round to nearest even, NaN stays a quiet NaN. */
uint16_t interp_bf16(float f);
float interp_bf16_f32(uint16_t h);

/* ---------------------------------------------------------- fill.c */
typedef enum InterpFill {
	INTERP_ZEROS, INTERP_ONES, INTERP_IOTA, INTERP_RANDOM, NINTERPFILL
} InterpFill;

/* splitmix64: a small deterministic generator with its state here. */
typedef struct InterpRng { uint64_t s; } InterpRng;
uint64_t interp_rng_next(InterpRng *r);
double interp_rng_uniform(InterpRng *r);	/* [0, 1) */

/*
 * Fills b: zeros, ones, iota (element i holds i, converted as 'as'
 * does), or random from seed: floats uniform in [-1, 1), i32 and i8 in
 * [-8, 8), bool 0 or 1.
 */
void interp_fill(InterpBuf *b, InterpFill how, uint64_t seed);
/* "zeros", "ones", "iota", "random" -> the fill; -1 if none. */
int interp_fill_by_name(const char *name);

/* ---------------------------------------------------------- npy.c */
/*
 * .npy files (NumPy format 1.0, 2.0 and 3.0; C order; little-endian):
 * descr '<f4' f32, '<i4' i32, '|i1' i8, '|b1' bool, and '<u2' for bf16
 * (NumPy has no bf16: the raw bits are stored as uint16).
 */
/*
 * Parses the n bytes at p into *b (name NULL, data malloc'ed).  Returns
 * 0, or -1 with a message in err[0 .. errlen) on anything malformed or
 * unsupported; never reads outside p[0 .. n).
 */
int interp_npy_parse(const void *p, size_t n, InterpBuf *b, char *err,
    size_t errlen);
/* interp_npy_parse on a file's contents. */
int interp_npy_read(const char *path, InterpBuf *b, char *err,
    size_t errlen);
/* Appends b as a version 1.0 .npy file; -1 if its dtype has no form. */
int interp_npy_format(Buf *out, const InterpBuf *b);
/* Writes b to path; 0, or -1 with a message in err. */
int interp_npy_write(const char *path, const InterpBuf *b, char *err,
    size_t errlen);

#endif
