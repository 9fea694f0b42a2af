/*
 * simtest.h - helpers shared by the simulator's unit tests: assemble a
 * program text, decode it, run it on a fresh machine and look at
 * registers and memories.
 */
#ifndef PALLAS_SIMTEST_H
#define PALLAS_SIMTEST_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "machine/sim.h"

typedef struct T {
	MachProgram *p;
	MachCode *c;
	MachSim *m;
} T;

static inline MachProgram *
asm_ok(const char *preset, const char *text)
{
	char err[4096] = "";
	MachProgram *p = NULL;
	int rc;

	rc = mach_asm("t.s", text, strlen(text), preset, &p, err, sizeof err);
	ck_assert_msg(rc == MACH_OK, "assembly failed:\n%s\n%s", err, text);
	return p;
}

/* Assembles text for preset and gets a reset machine ready to run it. */
static inline void
t_open(T *t, const char *preset, const char *text)
{
	char err[512] = "";

	t->p = asm_ok(preset, text);
	ck_assert_int_eq(mach_code_new(t->p, &t->c, err, sizeof err), 0);
	t->m = mach_sim_new(t->p->mp);
	ck_assert_ptr_nonnull(t->m);
	mach_sim_reset(t->m, PALLAS_POISON_NONE);
}

/* Runs from the first entry (or bundle 0): 0, or -1 on a trap. */
static inline int
t_run(T *t)
{
	return mach_sim_run(t->m, t->c, t->p->nentry ? t->p->entry[0].pc : 0);
}

static inline void
t_close(T *t)
{
	mach_sim_free(t->m);
	mach_code_free(t->c);
	mach_program_free(t->p);
}

static inline SimW *
vreg(T *t, int r)
{
	return t->m->v + (size_t)r * (size_t)t->m->V;
}

static inline uint32_t *
mreg(T *t, int r)
{
	return t->m->m + (size_t)r * (size_t)t->m->V;
}

static inline uint32_t
fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline float
bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Expects the last run to have trapped with kind at bundle b, slot s,
 * op mnemonic op. */
static inline void
expect_trap(T *t, int rc, int kind, uint32_t b, int slot, const char *op)
{
	const PallasTrap *tr = &t->m->trap;

	ck_assert_msg(rc != 0, "no trap (wanted %s)", mach_trap_kind_name(kind));
	ck_assert_msg(tr->kind == (PallasTrapKind)kind, "trap %s, wanted %s: %s",
	    mach_trap_kind_name(tr->kind), mach_trap_kind_name(kind),
	    tr->message);
	ck_assert_msg(tr->bundle == b, "bundle %u, wanted %u: %s", tr->bundle,
	    b, tr->message);
	ck_assert_msg(tr->slot == slot, "slot %d, wanted %d: %s", tr->slot,
	    slot, tr->message);
	ck_assert_msg(strcmp(tr->op, op) == 0, "op %s, wanted %s: %s", tr->op,
	    op, tr->message);
}

#endif
