/*
 * encoding.h - the binary forms of the machine: one instruction (a 64-bit
 * slot word), one bundle, and the program image.  Private to machine/;
 * everything else goes through machine.h.  All multi-byte values are
 * little-endian.
 *
 * Slot word (64 bits):
 *
 *  63 60 59        44 43 41 40  34 33  27 26  20 19  13 12 11  8 7    0
 * +-----+------------+-----+------+------+------+------+--+-----+------+
 * | rsv |     X      |  I  |  C   |  B   |  A   |  D   |N |  G  |  OP  |
 * +-----+------------+-----+------+------+------+------+--+-----+------+
 *    4        16        3     7      7      7      7    1    4     8
 *
 *   OP  MachOp (0 = nop; an all-zero word is an empty slot)
 *   G   guard predicate, N negates it (G = 0, N = 0: always)
 *   D   destination register; A, B, C source registers, flags or units
 *   I   index of the immediate in the bundle's pool (0 when unused)
 *   X   16-bit literal: sublane mask (low byte) and stride (high byte),
 *       lane / sublane number, or matmul flags
 *   rsv must be 0
 *
 * Bundle (mach_bundle_bytes(mp) bytes):
 *
 * +----------------------+-----+----------------------+------------+
 * | slot words of U_SALU | ... | slot words of U_MISC | imm pool   |
 * | slots[U_SALU] x 8 B  |     | slots[U_MISC] x 8 B  | nimm x 4 B |
 * +----------------------+-----+----------------------+------------+
 *
 *   Slot positions follow MachUnit order; a position holds an op of its
 *   own class or is empty.  Pool words no op refers to are 0.
 *
 * Image:
 *
 * +--------------+----------------------------+-----------------------------+
 * | header (64)  | section table (7 x 16)     | sections, 8-byte aligned,   |
 * |              | kind, offset, size, count  | in kind order, 0 padding    |
 * +--------------+----------------------------+-----------------------------+
 *
 *   header:  0 magic "PALLASIM"      8 u32 version (MACH_IMAGE_VERSION)
 *           12 u32 header bytes (64) 16 char preset[16], NUL-padded
 *           32 u32 section count (7) 36 u32 image bytes
 *           40 u32 bundle bytes      44 u32 flags (0)
 *           48 16 reserved bytes (0)
 *   sections (count = number of records; size = count x record bytes):
 *     1 CODE    bundles (mach_bundle_bytes each)
 *     2 DATA    constant data bytes
 *     3 ENTRY   48-byte records: name, pc, first_opnd, nopnd (u32),
 *               scratch_bytes (u64), scratch_smem, 0 (u32),
 *               vmem_bytes, smem_bytes (u64)
 *     4 OPND    96-byte records: name (u32), role, dtype, rank, 0 (u8),
 *               smem_addr, data_off (u32), bytes, hbm_addr (u64),
 *               shape[8] (i64)
 *     5 DEBUG   20-byte records: bundle, file, line, col, region (u32)
 *     6 REGION  4-byte records: string offset of the region's name
 *     7 STR     the string blob (count = size = bytes)
 */
#ifndef PALLAS_MACHINE_ENCODING_H
#define PALLAS_MACHINE_ENCODING_H

#include <stdint.h>

#define SIZE_OP		8
#define SIZE_G		4
#define SIZE_N		1
#define SIZE_R		7	/* D, A, B, C */
#define SIZE_I		3
#define SIZE_X		16
#define SIZE_RSV	4

#define POS_OP		0
#define POS_G		(POS_OP + SIZE_OP)
#define POS_N		(POS_G + SIZE_G)
#define POS_D		(POS_N + SIZE_N)
#define POS_A		(POS_D + SIZE_R)
#define POS_B		(POS_A + SIZE_R)
#define POS_C		(POS_B + SIZE_R)
#define POS_I		(POS_C + SIZE_R)
#define POS_X		(POS_I + SIZE_I)
#define POS_RSV		(POS_X + SIZE_X)

#define SIZE_D SIZE_R
#define SIZE_A SIZE_R
#define SIZE_B SIZE_R
#define SIZE_C SIZE_R

#define MASK1(n)	((UINT64_C(1) << (n)) - 1)
#define GETF(w, F)	((unsigned)(((w) >> POS_##F) & MASK1(SIZE_##F)))
#define SETF(F, v)	(((uint64_t)(v) & MASK1(SIZE_##F)) << POS_##F)

_Static_assert(POS_RSV + SIZE_RSV == 64, "slot fields fill 64 bits");
_Static_assert(NMACHOP <= (1 << SIZE_OP), "opcodes fit OP");
_Static_assert(NMACHUNIT <= 16, "unit classes");

#define MACH_IMAGE_MAGIC	"PALLASIM"
#define MACH_IMAGE_VERSION	2	/* 2: entries declare VMEM/SMEM use */
#define IMG_HEADER	64
#define IMG_SECTREC	16
#define IMG_ENTRYREC	48
#define IMG_OPNDREC	96
#define IMG_DEBUGREC	20
#define IMG_REGIONREC	4
#define IMG_ALIGN	8

enum {
	SECT_CODE = 1, SECT_DATA, SECT_ENTRY, SECT_OPND, SECT_DEBUG,
	SECT_REGION, SECT_STR, NSECT = SECT_STR
};

/* Upper limits that keep every size computation far from overflow. */
#define IMG_MAXBYTES	(UINT32_C(1) << 31)

/* Little-endian access (image.c, encode.c). */
static inline uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static inline void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

#endif
