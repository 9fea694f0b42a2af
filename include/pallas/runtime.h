/*
 * runtime.h - the runtime API of libpallasrt: open a simulated TPU-like
 * device, load a compiled program image, call its entry points with host
 * buffers, and read counters, traps and a Chrome trace.
 *
 * Library discipline: no global state (everything hangs off a
 * PallasDevice; use one device per thread, or lock around a shared one),
 * no exit() or abort(); every failure returns a PallasErr and leaves a
 * message for pallas_last_error().
 *
 * Environment (read by pallas_device_open):
 *   PALLAS_PRESET  preset when pallas_device_open gets NULL ("v4" if unset)
 *   PALLAS_TRACE   write a Chrome trace-event JSON file there on close
 *   PALLAS_STATS=1 print a counters summary to stderr on close
 *
 * Machine decisions (doc/machine.md has the full rules):
 *  - f32 max/min propagate NaN (XLA semantics), max(-0, +0) = +0;
 *    f32 -> i32 truncates and saturates, NaN -> 0; shift counts use the
 *    low 5 bits; i32 arithmetic wraps; bf16 rounds to nearest even and
 *    keeps NaN quiet.
 *  - MXU: fused multiply-add per product in increasing k; f32 inputs
 *    rounded to bf16 (default), bf16x3 passes (high), or exact (highest).
 *  - DMA: completion = max(issue + latency, HBM free) + bytes / bandwidth
 *    (rows rounded up to 32-byte granules); VMEM<->VMEM copies use their
 *    own on-chip channel of one vreg per cycle.  Each engine carries one
 *    descriptor at a time.  Data lands and the flag rises at completion.
 */
#ifndef PALLAS_RUNTIME_H
#define PALLAS_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PallasDevice PallasDevice;
typedef struct PallasProgram PallasProgram;

typedef enum PallasErr {
	PALLAS_OK,
	PALLAS_ENOMEM,		/* out of host memory */
	PALLAS_EINVAL,		/* a bad argument */
	PALLAS_EFORMAT,		/* a malformed program image */
	PALLAS_EVERSION,	/* an image of another format version */
	PALLAS_EPRESET,		/* unknown preset, or built for another one */
	PALLAS_ENOENT,		/* no such entry point */
	PALLAS_EMISMATCH,	/* arguments disagree with the entry point */
	PALLAS_ETRAP,		/* the program trapped (pallas_last_trap) */
	PALLAS_EIO,		/* reading or writing a file failed */
	PALLAS_ECHECK,		/* a run-time check of the kernel failed:
				   an index out of range (pallas_last_trap) */
	PALLAS_ECOMPILE,	/* an embedded module did not compile
				   (pallas_module_diagnostics) */
	PALLAS_NERR
} PallasErr;

/* Element types, in the order of the program image's operand types. */
typedef enum PallasDtype {
	PALLAS_F32, PALLAS_BF16, PALLAS_I32, PALLAS_I16, PALLAS_I8,
	PALLAS_U8, PALLAS_BOOL,
	PALLAS_NDTYPE
} PallasDtype;

#define PALLAS_MAXRANK 8

/* A host tensor for pallas_call_checked: dense, row-major. */
typedef struct PallasTensor {
	void *data;
	PallasDtype dtype;
	int rank;
	int64_t shape[PALLAS_MAXRANK];
} PallasTensor;

/* Slot classes, in bundle order. */
enum {
	PALLAS_SLOT_SALU, PALLAS_SLOT_VLD, PALLAS_SLOT_VST, PALLAS_SLOT_VALU,
	PALLAS_SLOT_MXU, PALLAS_SLOT_POP, PALLAS_SLOT_XLU, PALLAS_SLOT_EUP,
	PALLAS_SLOT_MISC,
	PALLAS_NSLOT
};

typedef struct PallasCounters {
	uint64_t cycles;		/* machine cycles */
	uint64_t bundles;		/* bundles issued */
	uint64_t stall_cycles;		/* cycles stalled in sync waits */
	uint64_t branch_cycles;		/* taken-branch bubbles */
	uint64_t slot_ops[PALLAS_NSLOT];	/* ops issued per slot class */
	uint64_t mxu_busy_cycles;	/* summed over the MXUs */
	uint64_t mxu_flops;		/* 2 x multiply-adds of matmuls */
	uint64_t hbm_read_bytes, hbm_write_bytes;
	uint64_t dma_count;		/* DMAs started */
} PallasCounters;

/* Counters of one trace region (trace.begin/end), inclusive of nested
 * regions; 'entries' counts how often it began. */
typedef struct PallasRegionStats {
	const char *name;
	uint64_t entries;
	PallasCounters c;
} PallasRegionStats;

typedef struct PallasStats {
	const char *preset;
	double clock_ghz;		/* 0: no clock (the small preset) */
	PallasCounters c;
	uint64_t vmem_high_water;	/* highest VMEM byte touched + 1 */
	uint64_t smem_high_water;	/* the same for SMEM (the launch's
					   argument table included) */
	/* What the entry declares it uses (its compiler's allocation and
	   spill areas); 0 = not declared.  high water <= declared. */
	uint64_t vmem_declared, smem_declared;
	size_t nregion;
	const PallasRegionStats *region;	/* valid until the next call */
} PallasStats;

typedef enum PallasTrapKind {
	PALLAS_TRAP_NONE,
	PALLAS_TRAP_NOT_READY,		/* read before the producer's latency */
	PALLAS_TRAP_WAW,		/* write to a register still pending */
	PALLAS_TRAP_BOUNDS,		/* memory access out of bounds */
	PALLAS_TRAP_ALIGN,		/* misaligned access */
	PALLAS_TRAP_FIFO_OVERFLOW,	/* push into a full FIFO / stage */
	PALLAS_TRAP_FIFO_UNDERFLOW,	/* pop from an empty or unready FIFO */
	PALLAS_TRAP_DMA_RACE,		/* access overlapping an in-flight DMA */
	PALLAS_TRAP_BAD_OP,		/* invalid opcode or operand */
	PALLAS_TRAP_BAD_DMA,		/* malformed DMA descriptor */
	PALLAS_TRAP_BAD_PC,		/* jump or fall out of the program */
	PALLAS_TRAP_DEADLOCK,		/* a wait no in-flight DMA can end */
	PALLAS_TRAP_RUNAWAY,		/* the cycle limit was reached */
	PALLAS_TRAP_CHECK,		/* a run-time check failed (trap op):
					   a bad SMEM table, not a bug */
	PALLAS_NTRAP
} PallasTrapKind;

typedef struct PallasTrap {
	PallasTrapKind kind;
	uint64_t cycle;
	uint32_t bundle;		/* bundle index */
	int slot;			/* op position in the bundle; -1 none */
	char op[24];			/* mnemonic, "" if none */
	char file[96];			/* source location from the debug map */
	uint32_t line, col;		/* 0 = unknown */
	char region[48];		/* region name, "" if none */
	int has_addr;
	char space[8];			/* "hbm", "vmem", "smem" */
	uint64_t addr;
	char reason[256];
	char message[640];		/* all of the above, one line */
} PallasTrap;

typedef enum PallasPoison {
	PALLAS_POISON_NONE,	/* memories start zeroed */
	PALLAS_POISON_NAN,	/* 0x7fc00000 (f32 quiet NaN) words */
	PALLAS_POISON_INT	/* 0x80000000 (INT_MIN) words */
} PallasPoison;

/* The static text of an error code. */
const char *pallas_strerror(int err);

/*
 * Opens a simulated device for preset ("v4", "v5e", "v6e", "small"), or
 * for $PALLAS_PRESET (else "v4") when preset is NULL.  On failure *out is
 * NULL and the error code says why (unknown preset: PALLAS_EPRESET).
 */
int pallas_device_open(const char *preset, PallasDevice **out);
/* Writes the trace ($PALLAS_TRACE or set_trace), prints stats if asked,
 * frees everything.  NULL is fine. */
void pallas_device_close(PallasDevice *dev);
const char *pallas_device_preset(const PallasDevice *dev);
/* The message of the device's last failure ("" if none). */
const char *pallas_last_error(const PallasDevice *dev);

/* Loads a program image (from pallasc or pallas-asm); refuses an image
 * built for another preset than the device's. */
int pallas_program_load(PallasDevice *dev, const void *image, size_t len,
    PallasProgram **out);
int pallas_program_load_file(PallasDevice *dev, const char *path,
    PallasProgram **out);
void pallas_program_free(PallasProgram *prog);	/* NULL is fine */
/* Entry points of a program: their count, and the name of the i-th. */
int pallas_program_nentry(const PallasProgram *prog);
const char *pallas_program_entry(const PallasProgram *prog, int i);

/*
 * Calls entry point 'entry': buffers[i] is the host data of operand i
 * (inputs copied in, outputs copied back after halt; constants may be
 * NULL).  nbuf must equal the entry's operand count.  A trap returns
 * PALLAS_ETRAP; outputs are then left untouched.
 */
int pallas_call(PallasDevice *dev, const PallasProgram *prog,
    const char *entry, void *const *buffers, size_t nbuf);
/* As pallas_call, checking each tensor's dtype, rank and shape against
 * the entry's operands first (PALLAS_EMISMATCH, naming the operand). */
int pallas_call_checked(PallasDevice *dev, const PallasProgram *prog,
    const char *entry, const PallasTensor *args, size_t nargs);

/*
 * Calls entry 'entry' of a program image linked into the caller (the
 * entry points of pallasc's generated headers use these): the first call
 * with an image loads it as pallas_program_load does and keeps the
 * program on the device, keyed by (image, len), until
 * pallas_device_close; the bytes must stay unchanged while the device is
 * open.  Otherwise as pallas_call and pallas_call_checked.
 */
int pallas_call_image(PallasDevice *dev, const void *image, size_t len,
    const char *entry, void *const *buffers, size_t nbuf);
int pallas_call_image_checked(PallasDevice *dev, const void *image,
    size_t len, const char *entry, const PallasTensor *args, size_t nargs);

/* Counters of the last call (also after a trap). */
int pallas_last_stats(const PallasDevice *dev, PallasStats *out);
/* Writes a human-readable summary of st into buf (snprintf rules). */
int pallas_stats_format(const PallasStats *st, char *buf, size_t len);
/* The last call's trap; kind PALLAS_TRAP_NONE if it did not trap. */
int pallas_last_trap(const PallasDevice *dev, PallasTrap *out);

/* Traces every later call into a Chrome trace-event JSON file written at
 * close (NULL: stop tracing to a file). */
int pallas_device_set_trace(PallasDevice *dev, const char *path);
/* Keeps the trace in memory (on != 0) for pallas_device_trace_json. */
int pallas_device_set_trace_memory(PallasDevice *dev, int on);
/* The JSON of everything traced so far, owned by the device. */
int pallas_device_trace_json(PallasDevice *dev, const char **json,
    size_t *len);
void pallas_device_set_poison(PallasDevice *dev, PallasPoison mode);

/*
 * The host memory behind the simulated HBM: a call's operand and scratch
 * buffers, as large as the program's operands.  alloc(ud, bytes) returns
 * memory or NULL; release(ud, p) frees what alloc returned.  When alloc
 * fails the call returns PALLAS_ENOMEM (pallas_last_error names the
 * operand).  For applications that account for memory, and for tests
 * that make an allocation fail.
 */
typedef struct PallasAllocator {
	void *(*alloc)(void *ud, size_t bytes);
	void (*release)(void *ud, void *p);
	void *ud;
} PallasAllocator;
/* Frees the last call's HBM buffers, then allocates through a (copied;
 * NULL restores malloc and free).  PALLAS_EINVAL if only one function is
 * given. */
int pallas_device_set_allocator(PallasDevice *dev, const PallasAllocator *a);
/* Cycles after which a call traps as runaway (0: the default, 1e9). */
void pallas_device_set_cycle_limit(PallasDevice *dev, uint64_t limit);

/* bf16 conversions: round to nearest even, NaN stays a quiet NaN. */
uint16_t pallas_f32_to_bf16(float f);
float pallas_bf16_to_f32(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
