/*
 * token.h - tokens and the re2c lexer of the .pk language.
 *
 * The lexer turns one source file into tokens with exact locations.  It
 * reports lexical errors (stray characters, unterminated comments and
 * strings, overflowing literals) through the Diag and always makes
 * progress, so a caller can read to TK_EOF whatever the input.
 */
#ifndef PALLAS_TOKEN_H
#define PALLAS_TOKEN_H

#include "util/util.h"

typedef enum TokKind {
#define TK(name, spelling) TK_##name,
#include "tokens.def"
#undef TK
	NTOK
} TokKind;

/* Type suffix of a numeric literal: 1.0f32, 2bf16, 7i8, 1.5f (= f32). */
typedef enum LitSuffix {
	SUF_NONE, SUF_F32, SUF_BF16, SUF_I32, SUF_I8, NSUF
} LitSuffix;

typedef struct Token {
	TokKind kind;
	Loc loc;
	const char *text;	/* spelling; interned for TK_IDENT */
	int len;		/* bytes in text */
	unsigned bol : 1;	/* first token on its line */
	unsigned space : 1;	/* white space (or line start) before it */
	unsigned noexpand : 1;	/* preprocessor: never expand this name */
	LitSuffix suffix;	/* TK_INT, TK_FLOAT */
	union {
		uint64_t i;	/* TK_INT */
		double f;	/* TK_FLOAT */
		const char *s;	/* TK_STRING: decoded contents, NUL-ended */
	} v;
} Token;

typedef struct Lexer {
	const char *start;	/* the text, NUL-terminated at lim */
	const char *cur, *lim;
	const char *line0;	/* start of the current line */
	int line;
	int file;		/* SrcMgr index */
	int bol;		/* next token starts a line */
	Diag *diag;
	Strtab *strs;
	Arena *arena;
} Lexer;

/* lexer.re */
void lex_init(Lexer *lx, Diag *d, Strtab *strs, Arena *a, int file);
/* Reads the next token into *t and returns its kind (TK_EOF at the end). */
TokKind lex_next(Lexer *lx, Token *t);
const char *tok_kind_name(TokKind k);	/* "identifier", "'('"... */

#endif
