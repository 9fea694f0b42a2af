/*
 * vliw.h - the VLIW backend: tile IR -> LLO -> bundles -> MachProgram,
 * and (elf.c, header.c) objects and C headers.  Table of contents for
 * backend/vliw/.
 *
 * LLO, QBE style: machine ops (MachOp, from machine/isa.def) on virtual
 * registers, in per-function blocks laid out in order.  A register field
 * (D, A, B, C of the op's format) holds a virtual register number of the
 * class the format names (scalar, vector, mask, predicate); numbers start
 * at 1 in each class, and predicate 0 is p0 (always true).  Fields that
 * name flags, MXUs or XLUs hold the machine's numbers from the start.
 * vliw_regalloc() rewrites register fields to physical numbers in place.
 *
 * Control flow: a block falls through to the next one in layout order
 * unless it ends in an unguarded br or halt; a br's target is a block.
 *
 * The pipeline (vliw.c, vliw_compile):
 *   vliw_isel -> vliw_unroll (short) -> vliw_cse -> vliw_licm ->
 *   vliw_modulo -> vliw_unroll (interleave) -> vliw_sched ->
 *   vliw_regalloc (vliw_spill, vliw_sched again when registers run out)
 *   -> vliw_emit
 */
#ifndef PALLAS_VLIW_H
#define PALLAS_VLIW_H

#include "util/util.h"
#include "machine/machine.h"
#include "backend/mosaic/mosaic.h"

/* ============================================ LLO and the compiler passes */

typedef enum LClass { LC_S, LC_V, LC_M, LC_P, NLCLASS, LC_NONE = -1 } LClass;

typedef struct LIns {
	uint16_t op;		/* MachOp */
	uint8_t gneg;		/* run when p[guard] is false */
	int guard;		/* predicate register; 0 = p0 (always) */
	int d, a, b, c;		/* register numbers, or unit/flag numbers */
	uint16_t x;		/* the literal field */
	int32_t imm;		/* pool immediate (K_IMM) */
	int target;		/* K_LABEL: target block, else -1 */
	/* Memory ops: the bytes [mlo, mhi) of their space (VMEM for
	   vector, SMEM for scalar ones) they may touch, when mhi > mlo
	   (isel: the buffer, spill: the slot); else anywhere.  Two
	   accesses with disjoint ranges are independent (vliw_mem_dep). */
	int32_t mlo, mhi;
	Loc loc;		/* source location, file 0 if none */
	int cycle;		/* vliw_sched: bundle within the block */
	int seq;		/* vliw_sched: position in vliw_isel's order */
} LIns;

typedef struct LBlk {
	VEC(LIns) ins;		/* in program order (scheduled: by cycle) */
	int nbundle;		/* after vliw_sched: bundles of the block */
	/* vliw_isel: > 0 when the block is the first of a counted loop's
	   body: the loop (this block up to the br back to it) is entered
	   only by falling into this block and runs exactly 'trips' times
	   each time; else 0. */
	int64_t trips;
	/* vliw_modulo: the ops are in the order to issue them (a
	   software pipeline); vliw_sched keeps it. */
	int inorder;
} LBlk;

/* An entry point's operand (see MachOperand). */
typedef struct LOperand {
	const char *name;
	MachRole role;
	MachDtype dtype;
	int rank;
	int64_t shape[MACH_MAXRANK];
	uint32_t smem_addr;	/* argument table slot */
	uint64_t bytes;
} LOperand;

typedef struct LFunc {
	const char *name;
	Arena *arena;
	const MachPreset *mp;
	VEC(LBlk) blk;		/* [0] is the entry */
	int nreg[NLCLASS];	/* virtual registers are 1 .. nreg-1 */
	int scheduled;		/* vliw_sched ran */
	int allocated;		/* vliw_regalloc ran: registers are physical */
	VEC(LOperand) opnd;
	VEC(const char *) region;	/* trace region names (imm indexes) */
	VEC(const char *) msg;	/* trap messages (the trap's imm indexes;
				   vliw_emit makes them program strings) */
	Loc loc;
	/* Memory below the spill area (vliw_compile sets them from the
	   allocation and isel's DMA descriptors; 0 for hand-built LLO). */
	int64_t vmem_base, smem_base;
	/* The VMEM the kernel may use: its vmem_limit or the preset's
	   (0: the preset's). */
	int64_t vmem_limit;
	/* The spill area (vliw_regalloc): start and bytes in VMEM (vector
	   and mask registers, one vreg each) and SMEM (scalars and
	   predicates, one word each); registers spilled per class. */
	int64_t spill_vaddr, spill_vmem, spill_saddr, spill_smem;
	int nspill[NLCLASS];
} LFunc;

/* ----------------------------------------------------------- llo.c */
LFunc *llo_new_func(Arena *a, const MachPreset *mp, const char *name);
int llo_new_blk(LFunc *f);		/* returns the block index */
int llo_new_reg(LFunc *f, LClass c);	/* a fresh virtual register */
/* Appends an op to block b with register/unit fields d, a, b, c (0 when
   unused), guard 0, x 0, imm 0, no target; returns it (valid until the
   next append to b). */
LIns *llo_add(LFunc *f, int blk, int op, int d, int a, int b, int c);
/* The register class of field fld (FLD_D..FLD_C) of op, or LC_NONE
   when the field is not a register (unused, flag, MXU, XLU, literal). */
LClass llo_field_class(int op, int fld);
/* 1 when op's format has a K_IMM or K_LABEL operand. */
int llo_has_imm(int op);
/* 1 when in is a pure ALU op: a scalar or vector ALU op with no MACH_F_*
   flag, unguarded, writing a register it does not read; its result
   depends on its fields and source values only. */
int llo_pure(const LIns *in);
/* The registers in reads, guard first, as flat indices base[class] +
   number (p0 left out), returned in r (the count); *d the one it writes,
   or -1. */
int llo_flat_regs(const LIns *in, const int *base, int r[4], int *d);
/* 1 when block b is a whole counted loop (LBlk.trips > 0): its last op
   is a br to b on an unnegated predicate, no other control op in it, no
   other op branches to it, and b - 1 falls into it (maybe after a
   guarded br). */
int llo_counted_loop(const LFunc *f, int b);
/* The registers (flat, base as llo_flat_regs) local to one trip of a
   loop body body[0..n): each trip writes them, unguarded, before any
   access, so no value of theirs crosses trips.  A new array from a. */
char *llo_trip_locals(Arena *a, const LIns *body, int n, const int *base);
/* Appends the --emit=llo text of f (stable). */
void llo_print(Buf *out, const LFunc *f);

/* ----------------------------------------------------------- isel.c */
/*
 * Instruction selection: one tile-IR function to LLO.  Constructs the
 * backend cannot lower yet are reported through d (naming the op and
 * kernel); returns NULL then.
 */
LFunc *vliw_isel(const TFunc *tf, const MachPreset *mp, Diag *d, Arena *a);

/* ----------------------------------------------------------- isel_mxu.c */
/* A matmul operand: a tile-aligned f32 or bf16 VMEM region [rows, cols];
   its tile (i, j) (S * pack rows by L columns; pack 2 for bf16) starts at
   s[base] + imm + i * rstride + j * cstride bytes (base 0: address
   imm). */
typedef struct VliwMMOpnd {
	int pack;
	int base;
	int64_t imm;
	int64_t rows, cols;
	int64_t rstride, cstride;
} VliwMMOpnd;

/* dst [M, N] = (accumulate ? dst : 0) + lhs [M, K] . rhs ([K, N], or
   [N, K] when trans_b); dst f32, lhs and rhs both f32 (under the
   precision prec) or both bf16. */
typedef struct VliwMM {
	VliwMMOpnd dst, lhs, rhs;
	int trans_b, accumulate;
	MachPrec prec;
	int zero;		/* S register holding 0 */
	Loc loc;
} VliwMM;

/* Appends the MXU lowering of mm to f after block *cur (new blocks;
   *cur becomes the block to continue in).  Returns NULL, or (nothing
   appended) a phrase naming what cannot be lowered yet. */
const char *vliw_isel_matmul(LFunc *f, int *cur, const VliwMM *mm);

/* ----------------------------------------------------------- dep.c */
/* The fewest cycles y must issue after x (x first in program order) for
   their registers (flat indices as llo_flat_regs gives; d -1 for none):
   RAW lat, WAW max(lat, 1), WAR 0, or -1 when they share none.  lat is
   x's latency. */
int vliw_reg_dep(int lat, int xd, const int *xr, int xnr, int yd,
    const int *yr, int ynr);
/* The fewest cycles y must issue after x (x first in program order) for
   their memory, DMA and sync effects, or -1 when any order is fine
   (disjoint LIns.mlo/mhi ranges, or no memory effect). */
int vliw_mem_dep(const MachPreset *mp, const LIns *x, const LIns *y);

/* ----------------------------------------------------------- unroll.c */
/* VLIW_UNROLL_SHORT: replaces each counted one-block loop of at most a
   few trips by copies of its body, and merges the blocks around it when
   only falling through joins them (so an enclosing loop may become one
   block).  VLIW_UNROLL_INTERLEAVE: gives each counted one-block loop of
   EUP or XLU work F copies of its body per trip (F dividing its trips),
   for the scheduler to overlap.  Returns the loops unrolled. */
enum { VLIW_UNROLL_SHORT, VLIW_UNROLL_INTERLEAVE };
int vliw_unroll(LFunc *f, int mode);

/* ----------------------------------------------------------- modulo.c */
/* Software-pipelines the counted one-block loops of f (LBlk.trips) where
   it pays: each becomes a prologue, a kernel loop overlapping U
   iterations' stages, and an epilogue (new blocks; branch targets
   renumbered).  Runs on virtual registers before vliw_sched.  Returns
   the number of loops pipelined. */
int vliw_modulo(LFunc *f);

/* ----------------------------------------------------------- cse.c */
/*
 * Local common-subexpression elimination, after vliw_isel, before
 * vliw_sched: in each block, a pure SALU/VALU op (no flag, unguarded)
 * equal in op, sources, x and imm to an earlier one whose sources and
 * dest are unchanged in between is removed, and every read of its dest
 * renamed to the earlier dest; only when both dests are written once in
 * f and the removed dest is not read between the two.  Returns the ops
 * removed.
 */
int vliw_cse(LFunc *f);

/* ----------------------------------------------------------- licm.c */
/*
 * Loop-invariant code motion, after vliw_isel (and vliw_cse), before
 * vliw_sched: for each single-block loop b (ends in a br to itself,
 * entered only by falling through from b - 1), moves the pure SALU/VALU
 * ops (no flag, unguarded; never loads) whose sources are not written in
 * b, whose dest is written once in f and read only in b after the op, to
 * the end of b - 1 (before its final guarded br), in order, until none is
 * left.  Returns the ops hoisted.
 */
int vliw_licm(LFunc *f);

/* ----------------------------------------------------------- sched.c */
/* List-schedules every block of f; sets LIns.cycle and LBlk.nbundle. */
void vliw_sched(LFunc *f);
/* Schedules a scheduled f again, keeping each block's ops in the order
   vliw_isel gave them (no op issues before an earlier one). */
void vliw_sched_serial(LFunc *f);
/* Schedules a scheduled f again from vliw_isel's order (after LBlk.inorder
   changed). */
void vliw_sched_again(LFunc *f);

/* ----------------------------------------------------------- regalloc.c */
/* Maps virtual registers to the preset's registers (linear scan over the
   schedule), spilling to the spill area when a class runs out (f is
   then scheduled again).  Returns 0, or -1 after reporting through d. */
int vliw_regalloc(LFunc *f, Diag *d);

/* ----------------------------------------------------------- spill.c */
/*
 * Spills everywhere the virtual registers r of class c with
 * victim[c][r] set: each gets a slot in f's spill area (placed after
 * vmem_base / smem_base on first use; spill_* grow), a store after each
 * write and a reload before each read (and before a guarded write), all
 * through fresh short-lived virtual registers.  Leaves every block in
 * vliw_isel's order (LIns.seq renumbered), to be scheduled again.
 * Returns 0, or -1 after reporting through d (naming the kernel and the
 * sizes) when the spill area does not fit in the preset's memory.
 */
int vliw_spill(LFunc *f, char *const victim[NLCLASS], Diag *d);
/* Appends a comment line ("# ...") giving f's memory use and its spill
   area, for the -S text. */
void vliw_spill_note(Buf *out, const LFunc *f);
/* The VMEM f may use, spill area included: its kernel's vmem_limit, or
   the preset's VMEM. */
int64_t vliw_vmem_limit(const LFunc *f);

/* ----------------------------------------------------------- emit.c */
/* Builds the program of the scheduled, allocated functions f[0..n): one
   entry per function, operands, debug map (file names from sm, may be
   NULL), regions.  Returns 0, or -1 after reporting through d. */
int vliw_emit(LFunc *const *f, int n, const MachPreset *mp,
    const SrcMgr *sm, Diag *d, MachProgram **out);
/* The same for the functions of m (f[i] from m->func.v[i]) and its
   top-level programs: their steps' functions are not entries. */
int vliw_emit_module(LFunc *const *f, const TModule *m, int n,
    const MachPreset *mp, const SrcMgr *sm, Diag *d, MachProgram **out);

/* ----------------------------------------------------------- vliw.c */
/*
 * The backend's pipeline for every function of m: isel, sched, regalloc,
 * emit.  *out is a new checked program (mach_program_free it), NULL on
 * failure.  Returns 0, or -1 after reporting through d.
 * vliw_compile_llo runs isel and the LLO passes (cse, licm, modulo) and
 * appends the --emit=llo text (before scheduling).
 */
int vliw_compile(const TModule *m, const MachPreset *p, Diag *d, Arena *a,
    MachProgram **out);
/* The LLO passes that may be left out (VliwOpts.off), to measure them. */
enum { VLIW_NO_CSE = 1, VLIW_NO_LICM = 2, VLIW_NO_MODULO = 4,
	VLIW_NO_UNROLL = 8, VLIW_NO_INTERLEAVE = 16 };
typedef struct VliwOpts {
	unsigned off;		/* VLIW_NO_* bits */
} VliwOpts;
/* vliw_compile with options (o may be NULL: every pass). */
int vliw_compile_opts(const TModule *m, const MachPreset *p,
    const VliwOpts *o, Diag *d, Arena *a, MachProgram **out);
/*
 * The compiled-path check: every function of m compiled as
 * vliw_compile_opts does, the program built and dropped.  When table is
 * not NULL, appends each function's memory table (vliw_mem_table).
 * Returns 0, or -1 after reporting through d.
 */
int vliw_check(const TModule *m, const MachPreset *p, const VliwOpts *o,
    Diag *d, Arena *a, Buf *table);
/* Appends the --emit=sema table of what tf (compiled as lf) allocates in
   VMEM and SMEM, with the spill areas (memtable.c). */
void vliw_mem_table(Buf *b, const TFunc *tf, const LFunc *lf);
/* As vliw_compile, and appends the -S text: per function a comment line
   with its VMEM/SMEM use and spill areas (vliw_spill_note), then the
   program's disassembly.  Returns 0, or -1 after reporting through d. */
int vliw_compile_asm(const TModule *m, const MachPreset *p,
    const VliwOpts *o, Diag *d, Arena *a, Buf *text);
int vliw_compile_llo(const TModule *m, const MachPreset *p,
    const VliwOpts *o, Diag *d, Arena *a, Buf *llo);

/* ================================== objects and headers (elf.c, header.c) */
/*
 * What an object holds: program images (the bytes of mach_image_write),
 * each under the symbols pk_image_<name> and pk_image_<name>_len, and the
 * exports, each a C entry point that calls one entry of one image.
 * Several exports may share an image (a program with several entries).
 */

/* An export's operand, in the entry's operand order. */
typedef struct VliwOperand {
	const char *name;
	MachRole role;
	MachDtype dtype;
	int rank;
	int64_t shape[MACH_MAXRANK];
} VliwOperand;

typedef struct VliwImage {
	const char *name;	/* symbol suffix: a C identifier */
	const void *bytes;	/* NULL when only a header is written */
	size_t len;
} VliwImage;

typedef struct VliwExport {
	const char *cname;	/* the C entry point: a C identifier */
	const char *entry;	/* the entry point's name in the image */
	int image;		/* index into VliwObject.image */
	int nopnd;
	const VliwOperand *opnd;
} VliwExport;

typedef struct VliwObject {
	const char *source;	/* input file, named in comments; may be NULL */
	const char *preset;	/* the images' preset */
	int nimage;
	const VliwImage *image;
	int nexport;
	const VliwExport *exp;
} VliwObject;

/* ----------------------------------------------------------- objexport.c */
/*
 * An object for an assembled program: ONE image (img[0..len), which the
 * caller keeps alive) named after the program's first entry, and one
 * export per entry, named after it.  Allocates from a.
 */
void vliw_object_from_program(VliwObject *obj, Arena *a, const MachProgram *p,
    const void *img, size_t len);
/*
 * The exports of a checked module without images (enough for a header):
 * one image per export named after its cname, entry = cname, operands in
 * declaration order (kernels: SMEM tables, inputs and outputs as declared;
 * funcs: the parameters, then the result as output "result").
 */
void vliw_object_from_module(VliwObject *obj, Arena *a,
    const CheckedModule *m);
/*
 * Checks what the header and the symbols need: image and export names
 * are C identifiers (not keywords), no two C names collide (including
 * the _checked forms and image symbols), operand dtypes and roles in
 * range, image indices valid.  0, or -1 with a message in err.
 */
int vliw_object_check(const VliwObject *obj, char *err, size_t errlen);
/* 1 if s is a C identifier and not a C or C++ keyword. */
int vliw_is_c_name(const char *s);
/* The machine's element type of a kernel's (bool for the others). */
MachDtype vliw_mach_dtype(DType t);

/* ----------------------------------------------------------- elf.c */
/* ELF e_machine values (the ELF spec's EM_X86_64 and EM_AARCH64). */
enum { VLIW_EM_X86_64 = 62, VLIW_EM_AARCH64 = 183 };
/*
 * Appends an ELF64 little-endian relocatable object (ET_REL) for
 * 'machine' (VLIW_EM_X86_64 or VLIW_EM_AARCH64): .rodata (64-byte
 * aligned) holds each image at a 64-byte boundary followed by its 64-bit
 * length word; .symtab has global STT_OBJECT symbols pk_image_<name>
 * (st_size = length) and pk_image_<name>_len (8 bytes); .strtab,
 * .shstrtab and an empty .note.GNU-stack.  No relocations.  Runs
 * vliw_object_check and needs every image's bytes.  0, or -1 with a
 * message in err (out untouched).
 */
int vliw_write_elf(Buf *out, const VliwObject *obj, int machine, char *err,
    size_t errlen);
/* The host's ELF machine (VLIW_EM_*), or 0 for another host. */
int vliw_host_machine(void);
/* "x86-64"/"x86_64" or "aarch64"/"arm64" -> VLIW_EM_*, else 0. */
int vliw_machine_by_name(const char *name);

/* ----------------------------------------------------------- csrc.c */
/*
 * Appends a C source defining what the ELF object would: each image as
 * a const unsigned char array (64-byte aligned under C11) and its length
 * as a const unsigned long long.  0, or -1 with a message in err.
 */
int vliw_write_csource(Buf *out, const VliwObject *obj, char *err,
    size_t errlen);

/* ----------------------------------------------------------- header.c */
/*
 * Appends a C header for obj's exports: the image declarations and, per
 * export, the typed entry points <cname>(dev, raw pointers...) and
 * <cname>_checked(dev, const PallasTensor *...), static inline over
 * pallas_call_image / pallas_call_image_checked, with a comment per
 * operand giving its role, dtype and shape.  guard is the include guard
 * macro (NULL: PK_<first image>_H).  0, or -1 with a message in err.
 */
int vliw_write_header(Buf *out, const char *guard, const VliwObject *obj,
    char *err, size_t errlen);
/* An include guard macro from a file path: "out/twice.h" -> "TWICE_H". */
void vliw_guard_name(char *buf, size_t n, const char *path);

#endif
