/*
 * util.h - the compiler's support layer: arenas, growable arrays, string
 * interning, source files and diagnostics.  Table of contents for util/.
 *
 * Compiler-side only: these helpers may die on out-of-memory (xmalloc) and
 * print to stderr.  The runtime library (machine/) never uses them.
 */
#ifndef PALLAS_UTIL_H
#define PALLAS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define PK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PK_NORETURN __attribute__((noreturn))
#else
#define PK_PRINTF(a, b)
#define PK_NORETURN
#endif

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses shared by every command-line tool. */
enum {
	EXIT_OK = 0,
	EXIT_USER = 1,		/* an error in the user's input */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INTERNAL = 70	/* EX_SOFTWARE: a bug in the tool */
};

/* alloc.c */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
PK_NORETURN void die_oom(void);
PK_NORETURN PK_PRINTF(2, 3) void bug_at(const char *where, const char *fmt, ...);
/*
 * Where die_oom and bug_at go instead of exiting: a compiler running
 * inside a user's program (the JIT, jit/) must return its failure, not end
 * the program.  util_recover_set installs r for this thread (NULL: exit as
 * the tools do); on failure they write the message into r->msg and
 * longjmp(r->jb, 1).  Memory the failed compile held outside its arena
 * is lost: the price of never exiting a user's program.
 */
typedef struct UtilRecover {
	jmp_buf jb;
	char msg[512];
} UtilRecover;
void util_recover_set(UtilRecover *r);
/* A broken invariant: names the C file and line, exits with EXIT_INTERNAL. */
#define bug(...) bug_at(__FILE__ ":" PK_STR(__LINE__), __VA_ARGS__)
#define PK_STR(x) PK_STR_(x)
#define PK_STR_(x) #x

/* arena.c: bump allocation, everything freed at once by arena_free. */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
	ArenaChunk *head;	/* newest chunk first */
	size_t used;		/* bytes used in head */
	size_t total;		/* bytes handed out, for statistics */
} Arena;

void *arena_alloc(Arena *a, size_t n);	/* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) PK_PRINTF(2, 3);
void arena_free(Arena *a);

/*
 * Growable arrays living in an arena (so a whole compilation is freed at
 * once).  Declare with VEC(T) and push with vec_push(arena, &v, x).
 */
#define VEC(T) struct { T *v; int n, cap; }
void *vec_grow_(Arena *a, void *v, int *cap, int need, size_t elem);
#define vec_push(a, vp, x) \
	((vp)->n >= (vp)->cap \
	    ? (void)((vp)->v = vec_grow_((a), (vp)->v, &(vp)->cap, (vp)->n + 1, \
	        sizeof(*(vp)->v))) \
	    : (void)0, \
	 (vp)->v[(vp)->n++] = (x))

/* strtab.c: interned strings; equal strings share one pointer. */
typedef struct Strtab {
	Arena *arena;
	const char **slot;	/* open addressing, power-of-two size */
	unsigned nslot, nused;
} Strtab;

void strtab_init(Strtab *t, Arena *a);
const char *strtab_intern(Strtab *t, const char *s, size_t n);
const char *strtab_find(const Strtab *t, const char *s, size_t n);
void strtab_free(Strtab *t);

/* buf.c: a growable byte buffer on the heap (for output text). */
typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

void buf_putn(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, int c);
void buf_printf(Buf *b, const char *fmt, ...) PK_PRINTF(2, 3);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_json_str(Buf *b, const char *s);	/* quoted, escaped */
void buf_free(Buf *b);
int read_file(const char *path, Buf *out);	/* 0, or errno */

/*
 * source.c: the files of one compilation.  A Loc names a range in one of
 * them, and optionally the macro expansion that produced it.
 */
typedef struct Loc {
	int file;		/* index into SrcMgr.file; 0 = no location */
	int line, col;		/* 1-based start */
	int eline, ecol;	/* 1-based end, inclusive last column */
	int exp;		/* SrcMgr.exp index of the expansion; 0 = none */
} Loc;

typedef struct SrcFile {
	const char *name;	/* as the user spelled it */
	const char *text;	/* NUL-terminated copy of the contents */
	const char *show;	/* what diagnostics print of its lines, of
				   the same length (NULL: text) */
	size_t len;
	int *linestart;		/* byte offset of each line, [0] unused */
	int nline;
	Loc included_at;	/* where #include brought it in; file 0 if root */
} SrcFile;

typedef struct SrcExp {
	const char *macro;	/* name of the macro */
	Loc use;		/* where it was expanded */
	Loc def;		/* where it was defined */
} SrcExp;

typedef struct SrcMgr {
	Arena arena;
	VEC(SrcFile) file;	/* [0] is a dummy so that file 0 means none */
	VEC(SrcExp) exp;	/* [0] is a dummy */
} SrcMgr;

void srcmgr_init(SrcMgr *sm);
void srcmgr_free(SrcMgr *sm);
/* Adds a file whose contents are text[0..len); returns its index (>= 1). */
int srcmgr_add(SrcMgr *sm, const char *name, const char *text, size_t len);
int srcmgr_add_exp(SrcMgr *sm, const char *macro, Loc use, Loc def);
const SrcFile *srcmgr_file(const SrcMgr *sm, int file);
/* Diagnostics print the lines of show[0..len) for file (a copy is kept):
 * an embedded module is lexed from its C file with the rest blanked,
 * and shown with the C lines as they are. */
void srcmgr_set_show(SrcMgr *sm, int file, const char *show);
/* The text of line 'line' of 'file' without its newline; *n is its length. */
const char *srcmgr_line(const SrcMgr *sm, int file, int line, int *n);
Loc loc_span(Loc a, Loc b);	/* from the start of a to the end of b */

/* diag.c: diagnostics in gcc's form, in text or JSON. */
typedef enum DiagKind { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, NDIAG } DiagKind;
typedef enum DiagFormat { DIAG_TEXT, DIAG_JSON } DiagFormat;

typedef struct Diag {
	SrcMgr *sm;
	FILE *out;		/* stderr unless a test says otherwise */
	DiagFormat format;
	int color;		/* 1 = ANSI colours */
	int werror;		/* warnings count as errors */
	int nerror, nwarning;
	int max_errors;		/* stop reporting after this many; 0 = no limit */
	int suppressed;		/* 1 while the last error was over the limit */
	Buf json;		/* JSON format: the array being built */
	int njson;		/* top-level objects in json */
	int json_open;		/* an object awaits its children */
} Diag;

void diag_init(Diag *d, SrcMgr *sm, FILE *out);
/* Colour choice from -fdiagnostics-color=auto|always|never; -1 if bad. */
int diag_color_choice(const char *arg, FILE *out);
void diag_error(Diag *d, Loc loc, const char *fmt, ...) PK_PRINTF(3, 4);
void diag_warning(Diag *d, Loc loc, const char *fmt, ...) PK_PRINTF(3, 4);
/* A note attached to the diagnostic just reported. */
void diag_note(Diag *d, Loc loc, const char *fmt, ...) PK_PRINTF(3, 4);
void diag_report(Diag *d, DiagKind k, Loc loc, const char *fmt, va_list ap);
/* Flushes the JSON array, if any.  Call once, at the end. */
void diag_finish(Diag *d);

#endif
