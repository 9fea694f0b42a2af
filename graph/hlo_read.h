/*
 * hlo_read.h - internals shared by the HLO text reader's files:
 * the lexer (hlo_lex.c), the structure parser (hlo_read.c) and the
 * shape and literal parser (hlo_read_shape.c) and the attribute parser
 * (hlo_attr.c).  Not a public API.
 */
#ifndef PALLAS_HLO_READ_H
#define PALLAS_HLO_READ_H

#include "graph/graph.h"

/* Token kinds: punctuation is the character itself, names start at 256. */
enum {
	HK_EOF = 256,
	HK_IDENT,		/* name, keyword, type or opcode; maybe '%' */
	HK_LABEL,		/* identifier directly followed by ':' */
	HK_ATTR,		/* identifier directly followed by '=' */
	HK_INT,
	HK_FLOAT,		/* also inf, -inf, nan, -nan */
	HK_UINT,		/* integer in [2^63, 2^64): only u64 takes it */
	HK_STRING,		/* s/len: the contents, still escaped */
	HK_ARROW,		/* -> */
	HK_LE,			/* <= */
	HK_ELLIPSIS,		/* ... */
};

typedef struct HTok {
	int kind;
	const char *s;		/* text; names without '%' and ':' or '=' */
	int len;
	int pct;		/* a name written with '%' */
	int bol;		/* first token on its line */
	int64_t ival;		/* HK_INT */
	uint64_t uval;		/* HK_UINT */
	double fval;		/* HK_INT, HK_FLOAT, HK_UINT */
	size_t pos, end;	/* byte offsets of the whole token */
	Loc loc;
} HTok;

typedef struct HLex {
	Diag *d;
	int file;
	const char *src;
	size_t len, pos;	/* pos: the next byte to read */
	int line, col;		/* of src[pos] */
	int lastline;		/* line of the previous token */
} HLex;

void hlex_init(HLex *lx, Diag *d, int file);
void hlex_next(HLex *lx, HTok *t);
/*
 * Skips raw text up to the bracket that closes 'open' (the bracket just
 * lexed), honouring quoted strings; returns the offset after it, or
 * (size_t)-1 after reporting an unclosed group.
 */
size_t hlex_skip_group(HLex *lx, int open, Loc at);
/* Skips whitespace and comments before raw scanning. */
void hlex_space(HLex *lx);
/* Skips raw text up to whitespace or one of ",})" at depth 0. */
size_t hlex_skip_word(HLex *lx);

typedef struct Parser {
	HLex lx;
	HTok tok;
	Diag *d;
	HloModule *m;
	HloComp *comp;		/* being parsed */
	int nerr;		/* errors from this reader */
	int depth;		/* recursion guard */
	unsigned seen;		/* modelled attributes of this instruction */
} Parser;

/* hlo_read.c */
void hp_next(Parser *p);
int hp_accept(Parser *p, int kind);
int hp_expect(Parser *p, int kind, const char *what);
void hp_error(Parser *p, Loc at, const char *fmt, ...) PK_PRINTF(3, 4);
const char *hp_intern(Parser *p, const char *s, size_t n);
int hp_is(const Parser *p, const char *word);
/* Text src[from..to), whitespace runs with a newline folded (braces). */
const char *hp_verbatim(Parser *p, size_t from, size_t to);

/* hlo_read_shape.c */
int hp_at_shape(const Parser *p);
int hp_shape(Parser *p, HloShape *s);
int hp_literal(Parser *p, HloInstr *in);

/* hlo_attr.c */
int hp_ints(Parser *p, HloInts *out);
/* One ", name=value" attribute of in (the ATTR token is current). */
int hp_attr(Parser *p, HloInstr *in);
/* An attribute value kept as text: a string, a bracket group or a word. */
const char *hp_opaque(Parser *p);
int hp_check_required(Parser *p, HloInstr *in);

#endif
