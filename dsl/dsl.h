/*
 * dsl.h - the .pk frontend: preprocessor, parser, AST.  Table of contents
 * for dsl/; the lexer's interface is dsl/grammar/token.h.
 *
 * Flow: SrcMgr file -> Lexer (tokens) -> PP (directives, macros) ->
 * parser (bison, actions build the AST only) -> Ast.  Every stage reports
 * through one Diag; none stops at the first error.
 */
#ifndef PALLAS_DSL_H
#define PALLAS_DSL_H

#include "util/util.h"
#include "dsl/grammar/token.h"

/* ---------------------------------------------- preproc.c, ppexpr.c */
typedef struct PP PP;

/* A preprocessor reading through d->sm; tokens and names live in a. */
PP *pp_new(Diag *d, Strtab *strs, Arena *a);
void pp_free(PP *pp);
void pp_add_include_dir(PP *pp, const char *dir);
/* -DNAME or -DNAME=VALUE; returns 0, or -1 after reporting a bad name. */
int pp_define_cmdline(PP *pp, const char *arg);
/* -UNAME; returns 0, or -1 after reporting a bad name. */
int pp_undef_cmdline(PP *pp, const char *name);
/* Opens the main file; returns 0, or -1 after reporting why it could not. */
int pp_push_file(PP *pp, const char *path);
/* Uses text[0..len) named 'name' as the main file (tests, embedded .pk). */
int pp_push_text(PP *pp, const char *name, const char *text, size_t len);
/* The next token after preprocessing; TK_EOF once every file is done. */
TokKind pp_next(PP *pp, Token *t);

#endif
