/*
 * asm.h - private to the assembler (asm.c, asmlex.c, asmins.c) and the
 * disassembler (disasm.c): the assembler's state, its line tokens, and
 * the name tables both directions share.  The syntax is documented in
 * doc/machine.md ("Assembly syntax").
 */
#ifndef PALLAS_MACHINE_ASM_H
#define PALLAS_MACHINE_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "machine/machine.h"

/* ----------------------------------------------------- shared names */

/* ORDER MachDtype */
static const char *const asm_dtype_name[NMACHDTYPE] = {
	"f32", "bf16", "i32", "i16", "i8", "u8", "bool",
};

/* ORDER MachRole */
static const char *const asm_role_name[NMACHROLE] = {
	"in", "out", "inout", "smem", "const",
};

/* ORDER MachPrec */
static const char *const asm_prec_name[NMACHPREC] = {
	"default", "high", "highest",
};

/* ------------------------------------------------------- asmlex.c */

typedef enum AsmTok {
	T_END,		/* end of line (or a comment) */
	T_IDENT,	/* [A-Za-z_.$][A-Za-z0-9_.$]* */
	T_NUM,		/* a number: integer or float */
	T_STR,		/* "..." with \" \\ \n \t \xHH escapes */
	T_PUNCT,	/* one of , ; ( ) ! [ ] + - : = { } */
	T_BAD		/* a character that starts no token */
} AsmTok;

typedef struct Loc {
	uint32_t line, col;	/* 1-based */
	uint32_t len;		/* bytes under the caret */
} Loc;

typedef struct Tok {
	AsmTok kind;
	const char *p;		/* text in the source */
	uint32_t len;
	Loc loc;
	char c;			/* T_PUNCT: the character */
	/* T_NUM */
	int isfloat;		/* written with '.', an exponent or 'f' */
	int bad;		/* malformed or too large */
	uint64_t u;		/* integer value (not isfloat) */
	double f;		/* float value (isfloat) */
} Tok;

typedef struct Lexer {
	const char *s, *end;	/* the current line, without its newline */
	const char *line0;	/* start of the line (for columns) */
	uint32_t line;
	Tok t;			/* the current token */
} Lexer;

/* A name used before it may be defined, resolved after the last line. */
typedef enum RefKind {
	REF_LABEL,	/* op immediate: a bundle label */
	REF_REGION,	/* op immediate: a .region name */
	REF_DATA,	/* operand data_off: a data label */
	REF_ENTRYPC,	/* entry pc: a bundle label */
	REF_DEBUG,	/* debug record region: a .region name */
	REF_STR		/* op immediate: a program string (a trap's) */
} RefKind;

typedef struct Ref {
	uint8_t kind;		/* RefKind */
	uint32_t at;		/* operand, entry or debug record index */
	char *name;		/* malloc'd */
	Loc loc;
} Ref;

#define ASM_UNBOUND UINT32_MAX	/* a data label before its first datum */

typedef struct Sym {
	char *name;		/* malloc'd */
	uint32_t value;		/* bundle index or data offset */
	int isdata;
	Loc loc;
} Sym;

/* An op as parsed, with where it came from. */
typedef struct AsmOp {
	MachIns in;
	Loc loc;		/* the mnemonic */
	Loc imm;		/* the pool immediate (or the mnemonic) */
	char *ref;		/* label, region name or string for the
				   immediate */
	uint8_t refkind;	/* REF_LABEL, REF_REGION or REF_STR when ref
				   is set */
} AsmOp;

typedef struct AsmBundle {
	uint32_t first, n;	/* Asm.op[first .. first+n) */
	Loc loc;		/* the first op, or the brace */
} AsmBundle;

typedef struct AsmEntry {
	MachEntry e;
	char *name;
	Loc loc;
	int pending;		/* pc is the next bundle */
} AsmEntry;

typedef struct AsmOperand {
	MachOperand o;
	char *name;
	Loc loc;
} AsmOperand;

typedef struct AsmDebug {
	MachDebug d;
	char *file;
	Loc loc;
} AsmDebug;

typedef struct AsmRegion {
	char *name;
	Loc loc;
} AsmRegion;

/* A diagnostic, kept until the end to be written in source order. */
typedef struct AsmDiag {
	uint32_t line, col;	/* of the error (a note takes its error's) */
	uint32_t seq;		/* order of discovery */
	char *text;		/* malloc'd, complete with source and caret */
} AsmDiag;

/* Growable arrays: n used, cap allocated (asm_grow). */
#define ASMVEC(T) struct { T *v; uint32_t n, cap; }

typedef struct Asm {
	const char *name;	/* file name for diagnostics */
	const char *text;
	size_t len;
	const MachPreset *mp;
	int preset_line;	/* line of the .preset directive, 0 = none */
	int started;		/* a bundle or an .entry was seen */
	/* diagnostics */
	char *err;
	size_t errlen;
	int nerr, nomem;
	ASMVEC(AsmDiag) diag;
	/* the bundle being built */
	ASMVEC(AsmOp) cur;
	int inbrace;		/* inside { ... } */
	int open;		/* something started the current bundle */
	Loc bloc;
	int datamode;		/* after .data, before .text */
	/* what the program will hold */
	ASMVEC(AsmOp) op;
	ASMVEC(AsmBundle) bundle;
	ASMVEC(AsmEntry) entry;
	ASMVEC(AsmOperand) opnd;
	ASMVEC(AsmDebug) debug;
	ASMVEC(AsmRegion) region;
	ASMVEC(uint8_t) data;
	ASMVEC(Sym) sym;
	ASMVEC(Ref) ref;
	int loc_pending;	/* debug.v[debug.n - 1] waits for a bundle */
} Asm;

/* Starts lexing line number 'line' spanning [s, end). */
void asm_lex_line(Lexer *lx, const char *s, const char *end, uint32_t line);
/* Advances to the next token; returns its kind. */
AsmTok asm_next(Lexer *lx);
/* Is the current token the punctuation c? */
int asm_is(const Lexer *lx, char c);
/* The current token's text as a new NUL-terminated string (T_STR
 * unescaped); NULL on allocation failure (a->nomem set). */
char *asm_tokstr(Asm *a, const Tok *t);
/* An error at loc, in gcc's form with the source line and a caret. */
void asm_error(Asm *a, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void asm_note(Asm *a, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes the diagnostics, sorted by line and column, into a->err (whole
 * ones only, as many as fit) and frees them. */
void asm_flush_diags(Asm *a);
/*
 * Reads an optionally signed integer at the current token into *v
 * (range [lo, hi]); reports and returns -1 on error.  Leaves the lexer
 * after the number.  what names the value in messages.
 */
int asm_int(Asm *a, Lexer *lx, int64_t lo, int64_t hi, const char *what,
    int64_t *v);
/*
 * Reads a 32-bit immediate: an integer in [-2^31, 2^32) or a float
 * (stored as its f32 bit pattern).  Reports and returns -1 on error.
 */
int asm_imm32(Asm *a, Lexer *lx, int32_t *v);
/* Reads an optionally signed number, integer or float, as a double. */
int asm_real(Asm *a, Lexer *lx, double *v);
/*
 * Makes room for element n of an array *pv (pv points at the T * itself)
 * of capacity *cap; -1 (and a->nomem) on allocation failure.
 */
int asm_grow(Asm *a, void *pv, uint32_t *cap, uint32_t n, size_t elsize);
/* A pointer to a new zeroed last element of ASMVEC vec, or NULL on OOM. */
#define ASM_PUSH(a, vec) (asm_grow((a), &(vec).v, &(vec).cap, (vec).n, \
	sizeof *(vec).v) ? NULL : \
	memset(&(vec).v[(vec).n++], 0, sizeof *(vec).v))

/* ------------------------------------------------------- asmins.c */

/* Parses one op (guard, mnemonic, operands) at the current token into
 * *op; on error reports and returns -1 (the rest of the op is skipped). */
int asm_op(Asm *a, Lexer *lx, AsmOp *op);
/* Edit distance-based suggestion: the closest mnemonic, or NULL. */
const char *asm_suggest(const char *name);

/* ---------------------------------------------------------- asm.c */

/* Records a reference to resolve after the last line; -1 on OOM. */
int asm_ref(Asm *a, RefKind k, uint32_t at, const Tok *t);
/* The index of region 'name'; reports and returns -1 if undeclared. */
int64_t asm_region(Asm *a, const char *name, Loc loc);

/* ------------------------------------------------------- asmdir.c */

/* Reads the directive at the current token (a name starting with '.'). */
void asm_directive(Asm *a, Lexer *lx);
/* Gives the data labels waiting for a datum the current data offset. */
void asm_bind_data_labels(Asm *a);
/* Checks entry and operand records once the data size is known. */
void asm_check_operands(Asm *a);

#endif
