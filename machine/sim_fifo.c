/*
 * sim_fifo.c - the result FIFOs of the MXUs, XLUs and the EUP: rings of
 * vreg-sized entries, each with the cycle its data becomes poppable.  A
 * reserved entry (XLU transpose in progress) has ready SIM_NEVER until
 * its block completes.
 */
#include <stdlib.h>

#include "machine/sim.h"

int
mach_fifo_init(SimFifo *f, int depth, int V)
{
	f->depth = depth > 0 ? depth : 1;
	f->head = f->count = 0;
	f->V = V;
	f->buf = calloc((size_t)f->depth * (size_t)V, sizeof *f->buf);
	f->ready = calloc((size_t)f->depth, sizeof *f->ready);
	return f->buf && f->ready ? 0 : -1;
}

void
mach_fifo_free(SimFifo *f)
{
	free(f->buf);
	free(f->ready);
	f->buf = NULL;
	f->ready = NULL;
}

SimW *
mach_fifo_push(SimFifo *f, uint64_t ready, int *slot)
{
	int i;

	if (f->count == f->depth)
		return NULL;
	i = (f->head + f->count) % f->depth;
	f->count++;
	f->ready[i] = ready;
	if (slot)
		*slot = i;
	return f->buf + (size_t)i * (size_t)f->V;
}

SimW *
mach_fifo_head(SimFifo *f, uint64_t cyc, int *why, uint64_t *ready)
{
	if (f->count == 0) {
		*why = 0;
		return NULL;
	}
	if (f->ready[f->head] > cyc) {
		*why = 1;
		*ready = f->ready[f->head];
		return NULL;
	}
	return f->buf + (size_t)f->head * (size_t)f->V;
}

void
mach_fifo_drop(SimFifo *f)
{
	f->head = (f->head + 1) % f->depth;
	f->count--;
}
