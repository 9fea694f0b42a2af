/*
 * machine.h - the TPU-like VLIW machine: ISA, presets, programs and the
 * program image.  Table of contents for machine/.
 *
 * Library discipline (this layer is linked into users' programs): no
 * mutable globals, no exit() or abort(), every failure is returned as a
 * MachErr with a message written into a caller's buffer.  Every exported
 * name starts with mach_ (functions), Mach (types) or a category prefix
 * (OP_, U_, K_, FLD_, LAT_, MACH_) for constants.
 *
 * Conventions shared by the assembler, the simulator and the compiler:
 *  - Registers: s0..s31 (32-bit), p0..p15 predicates (p0 always reads
 *    true; writes to p0 are discarded), v0.. vector registers of S x L
 *    32-bit elements, m0.. mask registers of S x L bits, f0.. sync flags
 *    (32-bit counters).  Counts come from the MachPreset.
 *  - Every instruction carries a guard: it runs when p[guard] is true, or
 *    false when gneg is set.  guard 0, gneg 0 = always.
 *  - Addresses are in bytes in every memory (HBM, VMEM, SMEM).
 *  - Field D is the only destination of an instruction; A, B and C are
 *    read at issue.  Pops write v[d] from a FIFO; pushes write FIFOs.
 *  - Immediates live in the bundle's pool (MachPreset.nimm 32-bit words);
 *    MachIns.imm holds the value, and the encoder assigns pool slots
 *    (equal values share one).  A LABEL immediate is the target bundle
 *    minus the bundle holding the branch.
 */
#ifndef PALLAS_MACHINE_H
#define PALLAS_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ isa.c */

/* Slot classes.  The encoding has one slot position per slot, in this order. */
typedef enum MachUnit {
	U_SALU,		/* scalar ALU, SMEM load/store, control flow */
	U_VLD,		/* vector load */
	U_VST,		/* vector store */
	U_VALU,		/* vector ALU, mask ops */
	U_MXU,		/* MXU weight push, latch, matmul */
	U_POP,		/* MXU, XLU and EUP result pops */
	U_XLU,		/* XLU pushes */
	U_EUP,		/* EUP pushes */
	U_MISC,		/* DMA, sync flags, trace markers */
	NMACHUNIT,
	U_NONE = NMACHUNIT	/* nop: fits any slot */
} MachUnit;

/* Operand kinds (see isa.def). */
typedef enum MachKind {
	K_NONE,
	K_S,		/* scalar register */
	K_V,		/* vector register */
	K_M,		/* mask register */
	K_P,		/* predicate */
	K_F,		/* sync flag */
	K_MXU,		/* MXU number, < nmxu */
	K_XLU,		/* XLU number, < nxlu */
	K_IMM,		/* 32-bit immediate from the pool */
	K_LABEL,	/* pool immediate: target bundle - this bundle */
	K_SMASK,	/* sublane mask, S bits (bit i = sublane i) */
	K_STRIDE,	/* sublane stride in rows, 0..255 (0 = same row) */
	K_LANE,		/* lane number or rotation, < L */
	K_SUB,		/* sublane number or rotation, < S */
	K_MMF,		/* matmul flags, MACH_MM_* */
	NMACHKIND
} MachKind;

/* Encoding fields an operand may live in. */
typedef enum MachField {
	FLD_NONE, FLD_D, FLD_A, FLD_B, FLD_C, FLD_I, FLD_X, FLD_XLO, FLD_XHI,
	NMACHFIELD
} MachField;

/* Latency classes; MachPreset.lat[] gives the cycles. */
typedef enum MachLat {
	LAT_NONE,	/* no result (0) */
	LAT_SALU,	/* scalar ALU result */
	LAT_SLD,	/* SMEM load */
	LAT_BRANCH,	/* bubble after a taken branch, call or ret */
	LAT_VLD,	/* vector load */
	LAT_VST,	/* vector store visible to a later load */
	LAT_VALU,	/* VALU result */
	LAT_VROT,	/* sublane rotate / broadcast */
	LAT_EUP,	/* EUP push to result ready in the FIFO */
	LAT_XLU_PERM,	/* lane rotate / broadcast push to ready */
	LAT_XLU_REDUCE,	/* cross-lane reduce push to ready */
	LAT_XLU_XPOSE,	/* last transpose push to first pop ready */
	LAT_MXU,	/* matmul issue to first result ready */
	LAT_MXU_LOAD,	/* weight push / latch done */
	LAT_POP,	/* pop to popped vreg readable */
	LAT_MISC,	/* DMA issue, sync flag update */
	NMACHLAT
} MachLat;

/* MachOpInfo.flags */
enum {
	MACH_F_LOAD = 1 << 0,	/* reads memory */
	MACH_F_STORE = 1 << 1,	/* writes memory */
	MACH_F_CTRL = 1 << 2,	/* may change pc; at most one per bundle */
	MACH_F_PUSH = 1 << 3,	/* pushes into a result FIFO */
	MACH_F_POP = 1 << 4,	/* pops from a result FIFO */
	MACH_F_DMA = 1 << 5,	/* starts a DMA */
	MACH_F_STALL = 1 << 6,	/* may stall the machine (sync waits) */
	MACH_F_TRACE = 1 << 7	/* trace marker, no effect on state */
};

/* Matmul flags (K_MMF, the X literal of mxu.mm and mxu.mm.bf16). */
enum {
	MACH_MM_ACC = 1 << 0,	/* add into acc[c] instead of overwriting */
	MACH_MM_HOLD = 1 << 1,	/* keep the result in acc[c], push nothing */
	MACH_MM_PREC_SHIFT = 2,	/* bits 2..3: MachPrec (f32 inputs) */
	MACH_MM_PREC_MASK = 3 << 2,
	MACH_MM_KBLK_SHIFT = 4,	/* bits 4..7: which L rows of W: kblk*L.. */
	MACH_MM_KBLK_MASK = 15 << 4
};

typedef enum MachPrec {
	MACH_PREC_DEFAULT,	/* f32 inputs rounded to bf16, one pass */
	MACH_PREC_HIGH,		/* bf16x3 passes */
	MACH_PREC_HIGHEST,	/* exact f32 products (bf16x6 passes) */
	NMACHPREC
} MachPrec;

typedef enum MachOp {
#define OP(e, mn, unit, lat, fmt, flags, syn) OP_##e,
#include "isa.def"
	NMACHOP
} MachOp;

typedef enum MachFmt {
#define FMT(name, n, o0, o1, o2, o3, o4, o5) FMT_##name,
#include "isa.def"
	NMACHFMT
} MachFmt;

#define MACH_MAXOPND 6

typedef struct MachOpnd {
	uint8_t kind;		/* MachKind */
	uint8_t field;		/* MachField */
} MachOpnd;

typedef struct MachFmtInfo {
	const char *name;
	int nopnd;
	MachOpnd opnd[MACH_MAXOPND];	/* in assembly order */
} MachFmtInfo;

typedef struct MachOpInfo {
	const char *name;	/* mnemonic */
	uint8_t unit;		/* MachUnit */
	uint8_t lat;		/* MachLat */
	uint8_t fmt;		/* MachFmt */
	uint8_t flags;		/* MACH_F_* */
	const char *synopsis;
} MachOpInfo;

extern const MachOpInfo mach_opinfo[NMACHOP];
extern const MachFmtInfo mach_fmtinfo[NMACHFMT];

/* The opcode with mnemonic 'name', or -1. */
int mach_op_by_name(const char *name);
/* Does op take an immediate from the bundle's pool? */
int mach_op_uses_pool(int op);
const char *mach_unit_name(int unit);	/* "salu", "vld", ...; "?" if bad */
const char *mach_lat_name(int lat);	/* "salu", "xlu_reduce", ... */
const char *mach_kind_name(int kind);	/* "s", "v", "imm", ... */

/* ----------------------------------------------------------- targ.c */

typedef struct MachPreset {
	const char *name;	/* "v4", "v5e", "v6e", "small" */
	double clock_ghz;	/* for reporting only; 0 = none */
	int sublanes, lanes;	/* vreg shape S x L, 32-bit elements */
	int nvreg, nmreg;	/* vector / mask registers */
	int nsreg, npreg;	/* scalar registers / predicates */
	int slots[NMACHUNIT];	/* slots per bundle of each class */
	int nimm;		/* 32-bit immediates per bundle */
	int nmxu, mxu_dim;	/* MXU count and size (mxu_dim x mxu_dim) */
	int mxu_rows_per_cycle;	/* LHS rows streamed per cycle per MXU */
	int mxu_passes[NMACHPREC];	/* passes per f32 precision mode */
	int mxu_fifo;		/* result FIFO depth per MXU, in vregs */
	int nxlu;		/* XLU units */
	int xlu_fifo;		/* result FIFO depth per XLU, in vregs */
	int xlu_xpose_interval;	/* cycles between transpose pushes/pops */
	int xlu_reduce_interval;/* cycles between reduce pushes per XLU */
	int eup_fifo;		/* EUP result FIFO depth, in vregs */
	uint64_t vmem_bytes, smem_bytes, hbm_bytes;
	int hbm_bytes_per_cycle;	/* shared HBM bandwidth */
	int dma_engines, dma_latency;	/* engines, cycles from issue */
	int dma_granule;	/* bytes; transfers are counted in granules */
	int nflag;		/* sync flags */
	int lat[NMACHLAT];	/* cycles per latency class */
} MachPreset;

/* The preset called 'name', or the default (v4) for NULL; NULL if unknown. */
const MachPreset *mach_preset(const char *name);
/* The i-th preset for i in [0, n) (for listings and tests); NULL past. */
const MachPreset *mach_preset_at(int i);
/* Slots per bundle (sum over classes). */
int mach_preset_nslot(const MachPreset *mp);

/*
 * The runtime's HBM layout: buffers from MACH_HBM_BASE up, each aligned
 * to MACH_HBM_ALIGN and followed by a gap of at least MACH_HBM_ALIGN (so
 * that an overrun traps).  mach_hbm_span() is the address space one
 * buffer of 'bytes' takes; the compiler's checks add these up so that
 * they accept only operands the runtime can place.
 */
#define MACH_HBM_BASE 0x10000u
#define MACH_HBM_ALIGN 4096u
uint64_t mach_hbm_span(uint64_t bytes);

/* ------------------------------------------------ program.c, check.c */

typedef enum MachErr {
	MACH_OK,
	MACH_ENOMEM,	/* allocation failed */
	MACH_EINVAL,	/* the program or an argument breaks a rule */
	MACH_EFORMAT,	/* an image is malformed */
	MACH_EVERSION,	/* an image of another format version */
	MACH_EPRESET,	/* an unknown preset */
	NMACHERR
} MachErr;

const char *mach_err_name(int err);
/* Formats a message into err (when there is room) and returns code. */
int mach_errf(int code, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Exclusive upper bound of an operand of kind k on mp; -1 = any value. */
int64_t mach_kind_limit(const MachPreset *mp, int k);

/*
 * One decoded instruction.  Unused fields are 0.  d, a, b, c hold
 * register, flag or unit numbers as the format says; x the literal
 * (sublane mask in the low byte and stride in the high byte for vld/vst,
 * a lane or sublane number, or matmul flags); imm the pool immediate.
 */
typedef struct MachIns {
	uint8_t op;		/* MachOp, never OP_NOP in a program */
	uint8_t guard;		/* predicate number; 0 = p0 = true */
	uint8_t gneg;		/* 1: run when p[guard] is false */
	uint8_t d, a, b, c;
	uint8_t pad;		/* 0 */
	uint16_t x;
	int32_t imm;
} MachIns;

/* A bundle: ins[first .. first+nins) of the program, in slot order. */
typedef struct MachBundle {
	uint32_t first;
	uint32_t nins;
} MachBundle;

typedef enum MachRole {
	MACH_ROLE_IN,		/* host -> HBM before the run */
	MACH_ROLE_OUT,		/* HBM -> host after the run */
	MACH_ROLE_INOUT,	/* both */
	MACH_ROLE_SMEM,		/* host data copied into SMEM at smem_addr */
	MACH_ROLE_CONST,	/* data[data_off..+bytes) placed in HBM */
	NMACHROLE
} MachRole;

typedef enum MachDtype {
	MACH_F32, MACH_BF16, MACH_I32, MACH_I16, MACH_I8, MACH_U8, MACH_BOOL,
	NMACHDTYPE
} MachDtype;

#define MACH_MAXRANK 8
#define MACH_NOADDR UINT64_MAX	/* hbm_addr: the runtime chooses */

/*
 * An entry point's operand.  For HBM operands (IN, OUT, INOUT, CONST) the
 * runtime writes the operand's 64-bit HBM address as two words (low,
 * high) at SMEM byte address smem_addr; for SMEM operands it copies the
 * host bytes there.
 */
typedef struct MachOperand {
	uint32_t name;		/* string table offset */
	uint8_t role;		/* MachRole */
	uint8_t dtype;		/* MachDtype */
	uint8_t rank;		/* 0..MACH_MAXRANK */
	uint8_t pad;
	uint32_t smem_addr;	/* argument table slot (byte address) */
	uint32_t data_off;	/* CONST: offset in MachProgram.data */
	uint64_t bytes;		/* total size */
	uint64_t hbm_addr;	/* fixed HBM address, or MACH_NOADDR */
	int64_t shape[MACH_MAXRANK];	/* dims [0..rank), rest 0 */
} MachOperand;

/* An entry point: runs from bundle 'pc' until halt. */
typedef struct MachEntry {
	uint32_t name;		/* string table offset */
	uint32_t pc;		/* first bundle */
	uint32_t first_opnd;	/* MachProgram.opnd[first .. first+nopnd) */
	uint32_t nopnd;
	uint64_t scratch_bytes;	/* HBM scratch the runtime allocates */
	uint32_t scratch_smem;	/* where its address goes (if bytes > 0) */
	uint32_t pad;
	/* The VMEM and SMEM the entry's code may touch, [0, bytes): what
	   its compiler allocated, spill areas included; 0 = not declared
	   (hand-written assembly).  The run's high water is at most this. */
	uint64_t vmem_bytes, smem_bytes;
} MachEntry;

#define MACH_NOREGION UINT32_MAX

/* From bundle 'bundle' up to the next entry's, code comes from here. */
typedef struct MachDebug {
	uint32_t bundle;	/* strictly increasing over the map */
	uint32_t file;		/* string table offset of the file name */
	uint32_t line, col;	/* 1-based; 0 = unknown */
	uint32_t region;	/* index into MachProgram.region, or NOREGION */
} MachDebug;

/*
 * A decoded program: what the assembler builds and the simulator runs.
 * It owns every array (plain malloc); mach_program_free() frees all.
 * str[0 .. nstr) is a blob of NUL-terminated strings, str[0] = '\0', so
 * offset 0 is the empty string.  region[i] is the string offset of region
 * i's name (trace.begin/end imm and MachDebug.region index it).
 */
typedef struct MachProgram {
	char preset[16];	/* NUL-terminated preset name */
	const MachPreset *mp;	/* mach_preset(preset) */
	MachBundle *bundle;
	uint32_t nbundle;
	MachIns *ins;
	uint32_t nins;
	uint8_t *data;		/* constant data */
	uint32_t ndata;
	MachEntry *entry;
	uint32_t nentry;
	MachOperand *opnd;
	uint32_t nopnd;
	MachDebug *debug;
	uint32_t ndebug;
	uint32_t *region;
	uint32_t nregion;
	char *str;
	uint32_t nstr;
	/* Room allocated in the arrays above that mach_grow() extends
	   (0 = exactly the count, as the image reader and the assembler
	   allocate). */
	uint32_t cap_bundle, cap_ins, cap_entry, cap_opnd, cap_debug,
	    cap_region, cap_str;
} MachProgram;

/*
 * v (len elements of elem bytes, room for *cap; 0 = len) with room for
 * 'more' after len: the room doubles, so that appending one element at
 * a time copies O(len) in all.  NULL on overflow or allocation failure,
 * v unchanged; else the array (moved, perhaps) and *cap updated.
 */
void *mach_grow(void *v, uint32_t len, uint32_t *cap, uint32_t more,
    size_t elem);
/* A new empty program for preset 'name' (NULL = default); NULL on failure. */
MachProgram *mach_program_new(const char *preset);
void mach_program_free(MachProgram *p);	/* NULL is fine */
/* Appends string s; returns its offset, or -1 on allocation failure. */
int64_t mach_program_str(MachProgram *p, const char *s);
/* The string at offset off, or "" if off is not a string start in range. */
const char *mach_program_strat(const MachProgram *p, uint32_t off);
/*
 * Appends one bundle holding ins[0..n) (copied); MACH_OK or MACH_ENOMEM.
 * Checks nothing; mach_program_check() does.
 */
int mach_program_add_bundle(MachProgram *p, const MachIns *ins, int n);

/* The value in field f (FLD_*) of in: a register number, x, x's low or
 * high byte, or imm.  mach_ins_set stores v (truncated to the field). */
int64_t mach_ins_get(const MachIns *in, int f);
void mach_ins_set(MachIns *in, int f, int64_t v);

/*
 * Checks one instruction against the preset: known opcode (not nop),
 * every operand in range, unused fields 0, guard < npreg.  Label targets
 * are not checked here.
 */
int mach_ins_check(const MachPreset *mp, const MachIns *in,
    char *err, size_t errlen);
/*
 * Checks one bundle: each instruction, slots per class, distinct
 * immediates <= nimm, at most one MACH_F_CTRL op.
 */
int mach_bundle_check(const MachPreset *mp, const MachIns *ins, int n,
    char *err, size_t errlen);
/*
 * Checks a whole program: preset known, bundles tile ins[] in order,
 * each bundle valid, labels land in [0, nbundle), entries and operands
 * consistent, debug map sorted, regions and every string offset valid.
 */
int mach_program_check(const MachProgram *p, char *err, size_t errlen);

/* ---------------------------------------------------------- encode.c */
/* (layouts in machine/encoding.h) */

/* Bytes of one encoded bundle under preset mp. */
size_t mach_bundle_bytes(const MachPreset *mp);
uint64_t mach_encode_ins(const MachIns *in, unsigned immslot);
/* Fills *out from w; *immslot gets the I field.  imm is left 0. */
void mach_decode_ins(uint64_t w, MachIns *out, unsigned *immslot);
/*
 * Encodes the bundle ins[0..n) into out[0 .. mach_bundle_bytes(mp)).
 * Runs mach_bundle_check first; MACH_OK or MACH_EINVAL with a message.
 */
int mach_encode_bundle(const MachPreset *mp, const MachIns *ins, int n,
    uint8_t *out, char *err, size_t errlen);
/*
 * Decodes one bundle from in[0 .. mach_bundle_bytes(mp)) into ins[] (room
 * for mach_preset_nslot(mp)), in slot order, nops dropped; *n = count.
 * Rejects a slot holding another class's op, nonzero unused bits, a pool
 * word referenced by no op but nonzero, and any failed check.
 */
int mach_decode_bundle(const MachPreset *mp, const uint8_t *in,
    MachIns *ins, int *n, char *err, size_t errlen);

/* ----------------------------------------------------------- image.c */
/* (layout in machine/encoding.h) */

/*
 * Serialises p (which must pass mach_program_check) into a new malloc'd
 * buffer *out of *outlen bytes; the caller frees it.
 */
int mach_image_write(const MachProgram *p, void **out, size_t *outlen,
    char *err, size_t errlen);
/*
 * Parses and validates an image of len bytes; on MACH_OK *out is a new
 * program (mach_program_free it).  Any bytes at all are safe to pass.
 */
int mach_image_read(const void *buf, size_t len, MachProgram **out,
    char *err, size_t errlen);

/* ------------------------------------------------- asm.c, disasm.c */
/* (the syntax is documented in doc/machine.md, "Assembly syntax") */

/*
 * Assembles text[0..len) (file 'name' in messages).  The preset comes
 * from a `.preset` directive, else preset_default (NULL = v4).  On
 * success *out is a new checked program (mach_program_free it).  On
 * failure *out is NULL, the result is MACH_EINVAL (errors in the text),
 * MACH_EPRESET (unknown preset_default) or MACH_ENOMEM, and err holds
 * every error in gcc's form, "name:line:col: error: msg", each followed
 * by the source line and a caret line; as many whole diagnostics as fit
 * in errlen bytes.  Any bytes at all are safe to pass.
 */
int mach_asm(const char *name, const char *text, size_t len,
    const char *preset_default, MachProgram **out, char *err, size_t errlen);
/*
 * Disassembles p (which must pass mach_program_check) into new malloc'd
 * NUL-terminated text *text of *len bytes (the caller frees it), which
 * mach_asm reads back to the same program (the string table may be laid
 * out differently if p was not built by mach_asm).  MACH_OK, MACH_EINVAL
 * or MACH_ENOMEM.
 */
int mach_disasm(const MachProgram *p, char **text, size_t *len);

/* -------------------------------------------------- DMA descriptors */

/*
 * A DMA descriptor: MACH_DMA_WORDS 32-bit words in SMEM, at the 4-byte
 * aligned byte address named by dma.start.  Element (i3, i2, i1, i0) moves
 * from src + i3*ss[3] + i2*ss[2] + i1*ss[1] + i0*esize to the same offsets
 * with ds[] at dst; dim 0 is contiguous.  Unused dims have count 1.
 *
 * Packed mode (MACH_DMA_PACKED in the control word; esize 2 or 1, a
 * VMEM side): every VMEM side is packed tiles of P = 4 / esize elements
 * a word (bf16: P = 2, i8: P = 4), P*S rows by L columns held in S x L
 * words, row g*S + i of a tile in part g of word row i (the low half or
 * byte first).  There i1 is a row and i0 a column: the element lives in
 * the word at v + i3*vs[3] + i2*vs[2] + (i1 / (P*S))*vs[1] +
 * (i0 / L)*S*L*4 + (i1 % S)*L*4 + (i0 % L)*4, part (i1 / S) % P;
 * vs[1] is the stride between row tiles.  An HBM side is as above
 * (row-major rows of i0).
 */
enum {
	MACH_DMA_SRC_LO, MACH_DMA_SRC_HI,	/* source byte address */
	MACH_DMA_DST_LO, MACH_DMA_DST_HI,	/* destination byte address */
	MACH_DMA_CTRL,		/* dir | ndim << 4 | esize << 8 | flags */
	MACH_DMA_COUNT0,	/* elements in dims 0..3: words 5..8 */
	MACH_DMA_SSTRIDE1 = MACH_DMA_COUNT0 + 4,	/* src strides 1..3 (signed) */
	MACH_DMA_DSTRIDE1 = MACH_DMA_SSTRIDE1 + 3,	/* dst strides 1..3 (signed) */
	MACH_DMA_RESERVED = MACH_DMA_DSTRIDE1 + 3,	/* must be 0 */
	MACH_DMA_WORDS
};

/* Flags of the control word (the other bits from 16 up must be 0). */
#define MACH_DMA_PACKED (1u << 16)	/* VMEM sides: packed bf16 / i8 tiles */

typedef enum MachDmaDir {
	MACH_DMA_NONE,		/* invalid: a zeroed descriptor traps */
	MACH_DMA_HBM_VMEM,
	MACH_DMA_VMEM_HBM,
	MACH_DMA_HBM_SMEM,
	MACH_DMA_SMEM_HBM,
	MACH_DMA_VMEM_VMEM,
	MACH_DMA_VMEM_SMEM,	/* on chip, as VMEM<->VMEM: the scalar */
	MACH_DMA_SMEM_VMEM,	/* unit's path to vector elements */
	NMACHDMADIR
} MachDmaDir;

#endif
