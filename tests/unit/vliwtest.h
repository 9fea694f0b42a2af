/*
 * vliwtest.h - what the backend's Check tests share: compile a .pk
 * source to a program, run one export on the simulator through the
 * runtime API (poison on, every check on: a trap fails the test), run the
 * same export in interpret mode on the same inputs, and compare.  Also
 * the -S round trip (the printed bundles re-assemble to the same code).
 */
#ifndef PALLAS_VLIWTEST_H
#define PALLAS_VLIWTEST_H

#include <check.h>
#include <stdint.h>

#include "dsl/dsl.h"
#include "dsl/interp/interp.h"
#include "backend/mosaic/mosaic.h"
#include "backend/vliw/vliw.h"
#include "pallas/runtime.h"

/* A compiled source: the checked module and its program. */
typedef struct VtUnit {
	Arena a;
	SrcMgr sm;
	Strtab strs;
	Diag d;
	PP *pp;
	char *text;		/* diagnostics printed while compiling */
	size_t len;
	FILE *out;
	CheckedModule *cm;
	TModule *tm;		/* the tile IR */
	MachProgram *prog;
} VtUnit;

/* Compiles src for preset (every export); 0, or -1 with the diagnostics
   in u->text (then u->prog is NULL). */
int vt_compile(VtUnit *u, const char *src, const char *preset);
/* vt_compile with backend options (o may be NULL). */
int vt_compile_opts(VtUnit *u, const char *src, const char *preset,
    const VliwOpts *o);
void vt_free(VtUnit *u);
/* The kernel of export entry (fails the test if there is none). */
const CKernel *vt_kernel(const VtUnit *u, const char *entry);

/* Runs entry of u->prog with host buffers bufs[0 .. n) on a fresh device
   of u's preset; fails the test on an error or a trap.  The counters of
   the run in *st if not NULL; returns the cycles. */
uint64_t vt_run(VtUnit *u, const char *entry, void *const *bufs, size_t n,
    PallasStats *st);

/* Runs entry of u->prog like vt_run (no poison), where it must stop at a
   check statement: fails the test unless the call returns PALLAS_ECHECK
   with a check trap; the trap in *tr, the device's last error in
   err[0 .. nerr). */
void vt_run_check(VtUnit *u, const char *entry, void *const *bufs,
    size_t n, PallasTrap *tr, char *err, size_t nerr);
/* Schedules, allocates and emits hand-built LLO f, runs it (the entry
   named after f, no operands) with every check on; returns the cycles. */
uint64_t vt_run_llo(LFunc *f);
/* -S of u->prog re-assembles to the same instructions and entries. */
void vt_roundtrip(const VtUnit *u);

typedef struct VtOpts {
	double tol;		/* |sim - interp| <= tol * (1 + |interp|);
				   0: exact */
	uint64_t seed;		/* inputs: interp_fill random from seed */
	/* fills SMEM tables (all are zeros otherwise) */
	void (*tables)(const CKernel *k, InterpBuf *b, void *arg);
	void *arg;
} VtOpts;

typedef struct VtResult {
	PallasStats st;		/* the simulated run's counters */
	uint32_t nbundle;	/* the program's static bundles */
	double max_err;		/* the largest difference seen, relative */
} VtResult;

/*
 * Compiles src for preset, runs export entry on the simulator and in
 * interpret mode on the same inputs, and fails the test unless every
 * output agrees within o->tol (o may be NULL: exact, seed 0).  Also
 * checks that the run's VMEM and SMEM high water stays inside what the
 * entry declares, and the -S round trip.  Prints one line with the
 * cycles.
 */
void vt_check(const char *src, const char *preset, const char *entry,
    const VtOpts *o, VtResult *res);
/* The same for entry of a unit compiled for preset (by vt_compile),
   without the -S round trip: to check several exports of one compile. */
void vt_check_unit(VtUnit *u, const char *preset, const char *entry,
    const VtOpts *o, VtResult *res);

/* Runs every test of s: EXIT_SUCCESS, or EXIT_FAILURE if one failed. */
int vt_run_suite(Suite *s);

#endif
