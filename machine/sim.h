/*
 * sim.h - the simulator's private structures: the decoded program
 * (MachCode, built once by sim_decode.c) and the machine state (MachSim,
 * one per device).  Table of contents for machine/sim*.c, trace.c and
 * runtime.c; nothing outside machine/ and the unit tests includes it.
 *
 * The execution model is MACHINE.md "Execution rules"; the decisions the
 * design left open are recorded next to the code that makes them and
 * summarised in runtime.h.
 */
#ifndef PALLAS_SIM_H
#define PALLAS_SIM_H

#include <stdint.h>

#include "machine/machine.h"
#include "pallas/runtime.h"

#if defined(__GNUC__)
#define SIM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SIM_UNLIKELY(x) (x)
#endif

/* Temporaries per register kind for reads of registers that an earlier op
 * of the same bundle writes (sim_decode.c); more than any bundle needs. */
#define SIM_NTEMP 24
#define SIM_FILL_CHUNK (64 * 1024)	/* lazy reset fill granule */
#define SIM_NEVER UINT64_MAX	/* a ready cycle that never comes */

/* One 32-bit element of a vector register, FIFO entry or mask. */
typedef union SimW {
	float f;
	uint32_t u;
	int32_t i;
} SimW;

/* Handlers beyond the MachOp range (ORDER OP: after NMACHOP). */
enum {
	SIM_COPY_S = NMACHOP,	/* s[d] = s[a], checks a only (temps) */
	SIM_COPY_P,
	SIM_COPY_V,
	SIM_COPY_M,
	SIM_BAD,		/* an op that failed its check: traps */
	NSIMOP
};

/* A decoded op: operands possibly renamed to temporaries. */
typedef struct SimIns {
	uint16_t h;		/* handler: MachOp or SIM_* */
	uint8_t guard, gneg;
	uint8_t d, a, b, c;
	uint16_t x;
	uint8_t op;		/* MachOp reported by a trap */
	uint8_t slot;		/* position in the program's bundle */
	int32_t imm;
} SimIns;

/* SimBundle.flags */
enum {
	SB_WAIT = 1 << 0,	/* holds a sync.wait / sync.take */
	SB_CTRL = 1 << 1,	/* holds a control op */
	SB_MARK = 1 << 2	/* holds a trace marker */
};

typedef struct SimBundle {
	uint32_t first;		/* MachCode.ins[first .. first+n) */
	uint16_t n;
	uint16_t flags;		/* SB_* */
	uint8_t occ[NMACHUNIT];	/* ops per slot class */
} SimBundle;

/* The decoded program: immutable once built, shareable across devices
 * of the same preset and across threads. */
typedef struct MachCode {
	const MachProgram *prog;	/* owned by the caller */
	const MachPreset *mp;
	SimBundle *bundle;
	uint32_t nbundle;
	SimIns *ins;
	uint32_t nins;
	char **bad;		/* ins index -> reason, for SIM_BAD ops */
	uint32_t nbad;
} MachCode;

/* A FIFO of vreg-sized entries with a ready cycle each. */
typedef struct SimFifo {
	SimW *buf;		/* depth x V elements */
	uint64_t *ready;	/* per entry; SIM_NEVER = reserved */
	int depth, head, count;
	int V;			/* elements per entry */
} SimFifo;

typedef struct SimMxu {
	float *stage, *w;	/* D x D, row-major (K rows x N columns) */
	float *whi, *wlo;	/* bf16(w) and bf16(w - whi), made on demand */
	int wsplit;		/* whi/wlo are current */
	float *acc;		/* 2S x D accumulator */
	int prow, pcb;		/* normal push: next row, column block */
	int pcol, prb;		/* transposed push: next column, row block */
	uint64_t stage_ready, w_ready, busy_until;
	SimFifo fifo;
} SimMxu;

typedef struct SimXlu {
	SimFifo fifo;
	float *blk;		/* transpose block in progress, L x L */
	int nrows;		/* rows pushed into blk */
	int slots[64];		/* FIFO entries reserved by the block */
	int nslot;
	uint64_t busy_until;
} SimXlu;

/* One side of a DMA: its footprint is n[1] x n[2] x n[3] runs of 'row'
   bytes at base + i3*st[3] + i2*st[2] + i1*st[1] (for a packed side,
   one run per row tile: the words its column tiles touch). */
typedef struct SimSide {
	int space;		/* SIM_HBM, SIM_VMEM, SIM_SMEM */
	int packed;		/* elements a word of packed tiles
				   (MACH_DMA_PACKED): 2 bf16, 4 i8; 0 */
	uint64_t base;
	int64_t st[4];		/* st[1..3] byte strides */
	uint64_t row, n[4];	/* footprint runs (n[0] unused) */
	uint64_t lo, hi;	/* bounding range */
	uint8_t *host;		/* host address of base */
} SimSide;

enum { SIM_HBM, SIM_VMEM, SIM_SMEM, NSIMSPACE };

typedef struct SimDma {
	SimSide src, dst;
	uint64_t row;		/* bytes per row (dim 0) of a row-major side */
	uint64_t n[4];		/* counts of dims 0..3 */
	uint64_t bytes;
	uint64_t issue, start, done, seq;
	int flag, engine, dir;
	uint32_t bundle;	/* where it was started, for race reports */
} SimDma;

typedef struct SimHbm {
	uint64_t addr, size;
	uint8_t *host;
} SimHbm;

typedef struct SimRegion {
	uint64_t entries;
	PallasCounters c;
} SimRegion;

typedef struct SimOpen {
	uint32_t region;
	PallasCounters at;	/* counters when it began */
	uint64_t cycle;
} SimOpen;

struct MachTrace;

/* The MXU block product: C[rows x n] (+)= A[rows x k] . W[k x n], fused
 * multiply-add in increasing k for every element (see sim_mxu.c). */
typedef void SimKernel(const float *a, int lda, const float *w, int ldw,
    float *c, int ldc, int rows, int k, int n, int zero);

typedef struct MachSim {
	const MachPreset *mp;
	int S, L, V, D;		/* sublanes, lanes, S*L, MXU size */
	int lat[NMACHLAT];
	uint64_t cycle, limit;
	PallasPoison poison;

	uint32_t *s;		/* nsreg + SIM_NTEMP */
	uint8_t *p;
	SimW *v;		/* (nvreg + SIM_NTEMP) x V */
	uint32_t *m;		/* 0 or ~0 per element */
	uint64_t *sready, *pready, *vready, *mready;
	uint32_t *flag;
	int ns, np, nv, nm;	/* architectural counts */

	uint8_t *vmem, *smem;
	uint64_t vmem_hw, smem_hw;	/* highest byte touched + 1 */
	/* A poison reset fills VMEM and SMEM with its pattern lazily, as
	 * accesses reach them: bytes below *_ready hold the pattern or
	 * what the program wrote since the reset.  A zero reset clears
	 * what may be nonzero: bytes from *_nz up are zero. */
	uint64_t vmem_ready, smem_ready, vmem_nz, smem_nz;
	SimHbm *hbm;
	int nhbm, hbmcap;
	uint64_t hbm_next;	/* next free HBM address */
	PallasAllocator alloc;	/* HBM buffers' host memory; 0: malloc */

	SimFifo eup;
	SimXlu *xlu;
	SimMxu *mxu;
	float *tmp;		/* scratch, 4 x 2S x D floats */
	SimKernel *kernel;

	SimDma *dma;		/* in flight, unordered */
	int ndma, dmacap;
	uint64_t dma_next;	/* earliest completion, SIM_NEVER if none */
	uint64_t dma_seq;
	uint64_t hbm_free, ocm_free;	/* shared channels free from */
	uint64_t *engine_free;

	PallasCounters cnt;
	SimRegion *region;	/* per program region, + 1 unknown */
	uint32_t nregion;
	SimOpen open[32];	/* open region stack */
	int nopen;

	struct MachTrace *trace;	/* NULL: tracing off */
	const MachCode *code;
	PallasTrap trap;
} MachSim;

/* ------------------------------------------------------- sim_decode.c */

/* Decodes p (bundles tiling ins[], ops individually checked; a failing op
 * becomes a trap) for its preset.  MACH_OK, or an error with a message. */
int mach_code_new(const MachProgram *p, MachCode **out, char *err,
    size_t errlen);
void mach_code_free(MachCode *c);	/* NULL is fine */
const char *mach_code_bad(const MachCode *c, uint32_t i);

/* ------------------------------------------------------- sim_state.c */

/* A machine for preset mp, memories zeroed; NULL on allocation failure. */
MachSim *mach_sim_new(const MachPreset *mp);
void mach_sim_free(MachSim *m);
/* Back to power-on: registers, FIFOs, flags, DMAs, counters, memories
 * (zero or the poison pattern), HBM buffers released. */
void mach_sim_reset(MachSim *m, PallasPoison poison);
/* Allocates bytes of HBM (at 'fixed' unless MACH_NOADDR); fills it with
 * the poison pattern or zeros.  The address, or MACH_NOADDR on failure
 * (no room, overlap or out of memory). */
uint64_t mach_sim_hbm_alloc(MachSim *m, uint64_t bytes, uint64_t fixed);
/* The same with the reason of a failure: MACH_OK (*addr set), MACH_EINVAL
 * (no room in the preset's HBM, or an overlap) or MACH_ENOMEM (no host
 * memory for it). */
int mach_sim_hbm_place(MachSim *m, uint64_t bytes, uint64_t fixed,
    uint64_t *addr);
/* Releases the HBM buffers, then takes their host memory from a (NULL,
 * or a without both functions: malloc and free). */
void mach_sim_set_allocator(MachSim *m, const PallasAllocator *a);
/* Host address of HBM [addr, addr+len) inside one buffer, or NULL. */
uint8_t *mach_sim_hbm(MachSim *m, uint64_t addr, uint64_t len);
/* The fill word of the poison mode. */
uint32_t mach_sim_poison_word(PallasPoison poison);
/* Records an access of VMEM or SMEM (space SIM_VMEM / SIM_SMEM) ending
 * at byte hi: raises that memory's high-water mark to hi. */
void mach_sim_touch(MachSim *m, int space, uint64_t hi);

/* --------------------------------------------------------------- sim.c */

/* Runs code from bundle pc until halt or a trap.  MACH_OK, or -1 with
 * m->trap filled.  Counters accumulate in m->cnt. */
int mach_sim_run(MachSim *m, const MachCode *code, uint32_t pc);

/* ------------------------------------------------------- sim_trap.c */

/* Fills m->trap for the op in->slot of bundle b and formats its message;
 * addr is SIM_NEVER when there is none.  Returns -1. */
int mach_trap(MachSim *m, int kind, uint32_t b, const SimIns *in,
    int space, uint64_t addr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/*
 * The trap op: a failed run-time check.  Its message is the program's
 * string at in->imm with each %N (N < 64) replaced by the signed word
 * at smem[s[a] + 4N] ("?" outside SMEM) and %% by %.  Returns -1.
 */
int mach_trap_check(MachSim *m, uint32_t b, const SimIns *in);
const char *mach_trap_kind_name(int kind);
const char *mach_space_name(int space);

/* -------------------------------------------------------- sim_valu.c */

void mach_valu(int op, SimW *d, const SimW *a, const SimW *b, int n);
void mach_vcmp(int op, uint32_t *d, const SimW *a, const SimW *b, int n);
void mach_vsel(SimW *d, const uint32_t *m, const SimW *a, const SimW *b,
    int n);
void mach_mask(int op, uint32_t *d, const uint32_t *a, const uint32_t *b,
    int n);

/* --------------------------------------------------------- sim_eup.c */

void mach_eup(int op, SimW *d, const SimW *a, int n);

/* --------------------------------------------------------- bf16.c */

uint16_t mach_bf16(float f);		/* round to nearest even, NaN quiet */
float mach_bf16_f32(uint16_t h);
float mach_bf16_round(float f);		/* f32(bf16(f)) */

/* ------------------------------------------------------- sim_fifo.c */

int mach_fifo_init(SimFifo *f, int depth, int V);
void mach_fifo_free(SimFifo *f);
/* Entry data for a push with the given ready cycle, or NULL if full. */
SimW *mach_fifo_push(SimFifo *f, uint64_t ready, int *slot);
/* Head entry if present and ready at cyc; else NULL, *why = 0 empty,
 * 1 not ready (*ready gets the cycle). */
SimW *mach_fifo_head(SimFifo *f, uint64_t cyc, int *why, uint64_t *ready);
void mach_fifo_drop(SimFifo *f);

/* -------------------------------------------------------- sim_mxu.c */

SimKernel *mach_mxu_kernel(void);	/* best block product for this host */
void mach_mxu_kernel_c(const float *a, int lda, const float *w, int ldw,
    float *c, int ldc, int rows, int k, int n, int zero);
int mach_mxu_push(MachSim *m, uint32_t b, const SimIns *in);
int mach_mxu_latch(MachSim *m, uint32_t b, const SimIns *in);
int mach_mxu_matmul(MachSim *m, uint32_t b, const SimIns *in);

/* -------------------------------------------------------- sim_xlu.c */

int mach_xlu_push(MachSim *m, uint32_t b, const SimIns *in);

/* -------------------------------------------------------- sim_dma.c */

int mach_dma_start(MachSim *m, uint32_t b, const SimIns *in);
/* Lands every DMA done by cycle m->cycle, in completion order. */
void mach_dma_complete(MachSim *m);
/* Does [addr, addr+len) in space touch an in-flight DMA's destination
 * (or its source, if writing)?  Traps (returns -1) if so. */
int mach_dma_race(MachSim *m, uint32_t b, const SimIns *in, int space,
    uint64_t addr, uint64_t len, int writing);

/* ---------------------------------------------------------- trace.c */

struct MachTrace *mach_trace_new(const MachPreset *mp);
void mach_trace_free(struct MachTrace *t);
/* Starts a call: later events are offset by the cycles of earlier ones. */
void mach_trace_begin_call(struct MachTrace *t, const char *entry);
void mach_trace_end_call(struct MachTrace *t, uint64_t cycles);
/* Activity of slot class u at cycle cyc (op mnemonic). */
void mach_trace_slot(struct MachTrace *t, int u, uint64_t cyc, int op);
void mach_trace_span(struct MachTrace *t, int track, uint64_t from,
    uint64_t to, const char *name, uint64_t bytes);
void mach_trace_region(struct MachTrace *t, int depth, uint64_t from,
    uint64_t to, const char *name);
/* Complete JSON document of everything traced so far (owned by t). */
const char *mach_trace_json(struct MachTrace *t, size_t *len);

/* Tracks after the slot classes. */
enum {
	TRK_MXU = NMACHUNIT,		/* + MXU number (up to 8) */
	TRK_DMA = TRK_MXU + 8,		/* + engine (up to 8) */
	TRK_STALL = TRK_DMA + 8,
	TRK_REGION = TRK_STALL + 1,	/* + nesting depth (up to 8) */
	NTRACK = TRK_REGION + 8
};

#endif
