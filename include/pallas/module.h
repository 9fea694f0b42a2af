/*
 * module.h - kernels written inside C files (doc/embedded.md).
 *
 *   PK_MODULE(scale,
 *       kernel scale2<N>(x: f32[N, 128], out y: f32[N, 128])
 *       grid (i: N / 8)
 *       blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
 *       { y[...] = x[...] * 2.0; }
 *       export scale2<1024>;
 *   )
 *
 * (no ';' after it) defines 'scale', a const PallasSource *: the
 * module's text as C's #
 * operator spells it, with its file and line.  pallas_module_open
 * compiles it for a device's preset on first use (libpallas, the
 * compiler as a library: pkg-config --libs pallas), once per process,
 * and keeps the program on disk (PALLAS_CACHE_DIR); or, when the object
 * `pallasc app.c -o app-kernels.o` wrote is linked, binds to the program
 * compiled ahead of time and compiles nothing.
 *
 * Inside the text, C's preprocessor does nothing (it only stringizes):
 * macros are the .pk preprocessor's.  A line starting with '#' would be a
 * C directive, so .pk directives are written PK_PP(#define N 8),
 * PK_PP(#include "common.pk") (relative to the C file's directory).
 *
 * Errors are values: every function returns a PallasErr; a module that
 * did not compile still comes back from pallas_module_open, with
 * PALLAS_ECOMPILE and its diagnostics (gcc's form, C file positions).
 * Thread-safe: modules are shared by the process and never freed.
 */
#ifndef PALLAS_MODULE_H
#define PALLAS_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What PK_MODULE records.  aot, aot_len and aot_key are the program
 * pallasc compiled ahead of time, when its object is linked (weak
 * symbols; NULL otherwise, or always with PK_NO_AOT). */
typedef struct PallasSource {
	const char *name;
	const char *text;
	const char *file;
	int line;
	const unsigned char *aot;
	const unsigned long long *aot_len;
	const unsigned char *aot_key;
	const unsigned long long *aot_key_len;
} PallasSource;

#define PK_TEXT_(...) #__VA_ARGS__
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_AOT)
#define PK_WEAK_ __attribute__((weak))
#define PK_UNUSED_ __attribute__((unused))
#define PK_AOT_(name) \
	extern const unsigned char pk_image_pkm_##name[] PK_WEAK_; \
	extern const unsigned long long pk_image_pkm_##name##_len PK_WEAK_; \
	extern const unsigned char pk_image_pkk_##name[] PK_WEAK_; \
	extern const unsigned long long pk_image_pkk_##name##_len PK_WEAK_;
#define PK_AOT_REF_(name) pk_image_pkm_##name, &pk_image_pkm_##name##_len, \
	pk_image_pkk_##name, &pk_image_pkk_##name##_len
#else
#define PK_UNUSED_
#define PK_AOT_(name)
#define PK_AOT_REF_(name) NULL, NULL, NULL, NULL
#endif

#define PK_MODULE(name, ...) \
	PK_AOT_(name) \
	static const PallasSource name[1] PK_UNUSED_ = {{ #name, \
	    PK_TEXT_(__VA_ARGS__), __FILE__, __LINE__, PK_AOT_REF_(name) }};

typedef struct PallasModule PallasModule;

/* Flags of a run-time compile, as pallasc's: "-DNAME=VALUE", "-UNAME",
 * "-IDIR", "-Werror", "-fno-bounds-check", "-fdiagnostics-format=json". */
typedef struct PallasModuleOptions {
	const char *const *flag;
	int nflag;
} PallasModuleOptions;

/*
 * The module src compiled for dev's preset with opt's flags (opt may be
 * NULL): the linked ahead-of-time program when it was built from the
 * same text, preset and flags, else the process's compile (one per
 * module, preset and flags, however many threads ask), else the disk
 * cache's, else a new compile.  *out is set whenever src is not NULL,
 * also on PALLAS_ECOMPILE (see pallas_module_diagnostics).
 */
int pallas_module_open(PallasDevice *dev, const PallasSource *src,
    const PallasModuleOptions *opt, PallasModule **out);
/* The compiler's messages for m: errors, or warnings ("" if none). */
const char *pallas_module_diagnostics(const PallasModule *m);
/* Exports of m: their count and the i-th's name (NULL out of range). */
int pallas_module_nexport(const PallasModule *m);
const char *pallas_module_export(const PallasModule *m, int i);
const char *pallas_module_preset(const PallasModule *m);
/* 1 if m is the program compiled ahead of time (nothing compiled). */
int pallas_module_is_aot(const PallasModule *m);

/*
 * Calls export 'name' of m on dev with tensors checked against its
 * operands (as pallas_call_checked).  PALLAS_ECOMPILE for a module that
 * did not compile, PALLAS_EPRESET on a device of another preset.
 */
int pallas_module_call(PallasDevice *dev, const PallasModule *m,
    const char *name, const PallasTensor *args, size_t nargs);

/* What the process's modules cost so far. */
typedef struct PallasJitStats {
	uint64_t compiles;	/* compiles run */
	uint64_t memory_hits;	/* opens served by a module already open */
	uint64_t disk_hits;	/* programs read from the disk cache */
	uint64_t disk_stores;	/* programs written to it */
	uint64_t disk_corrupt;	/* cache files found damaged (recompiled) */
	uint64_t aot_binds;	/* modules bound to a linked program */
} PallasJitStats;
void pallas_jit_stats(PallasJitStats *out);

#ifdef __cplusplus
}
#endif

#endif
