/*
 * sim_trap.c - trap reports: fills MachSim.trap with the kind, bundle,
 * slot, opcode, source location (from the program's debug map), address
 * and reason, and formats them as one line:
 *
 *   k.pk:12:5: trap: use before ready: v3 is ready at cycle 14;
 *       bundle 7 slot 2 (vadd.f32), cycle 13, region 'softmax'
 *
 * and the message of the trap op (a failed run-time check of the
 * program: its text is a program string with the checked values read
 * from SMEM).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/sim.h"

static const char *const kindname[PALLAS_NTRAP] = {
	[PALLAS_TRAP_NONE] = "none",
	[PALLAS_TRAP_NOT_READY] = "use before ready",
	[PALLAS_TRAP_WAW] = "write to a pending register",
	[PALLAS_TRAP_BOUNDS] = "out of bounds",
	[PALLAS_TRAP_ALIGN] = "misaligned access",
	[PALLAS_TRAP_FIFO_OVERFLOW] = "FIFO overflow",
	[PALLAS_TRAP_FIFO_UNDERFLOW] = "FIFO underflow",
	[PALLAS_TRAP_DMA_RACE] = "DMA race",
	[PALLAS_TRAP_BAD_OP] = "bad opcode",
	[PALLAS_TRAP_BAD_DMA] = "bad DMA descriptor",
	[PALLAS_TRAP_BAD_PC] = "bad program counter",
	[PALLAS_TRAP_DEADLOCK] = "deadlock",
	[PALLAS_TRAP_RUNAWAY] = "runaway",
	[PALLAS_TRAP_CHECK] = "check failed",
};

const char *
mach_trap_kind_name(int kind)
{
	return kind >= 0 && kind < PALLAS_NTRAP ? kindname[kind] : "?";
}

const char *
mach_space_name(int space)
{
	switch (space) {
	case SIM_HBM: return "hbm";
	case SIM_VMEM: return "vmem";
	case SIM_SMEM: return "smem";
	default: return "?";
	}
}

static void
copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

/* The debug map entry covering bundle b, or NULL. */
static const MachDebug *
debug_at(const MachProgram *p, uint32_t b)
{
	uint32_t lo = 0, hi = p->ndebug;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->debug[mid].bundle <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &p->debug[lo - 1] : NULL;
}

static void
locate(MachSim *m, PallasTrap *t)
{
	const MachProgram *p = m->code ? m->code->prog : NULL;
	const MachDebug *d;

	if (!p)
		return;
	if ((d = debug_at(p, t->bundle)) != NULL) {
		copy(t->file, sizeof t->file, mach_program_strat(p, d->file));
		t->line = d->line;
		t->col = d->col;
		if (d->region != MACH_NOREGION && d->region < p->nregion)
			copy(t->region, sizeof t->region,
			    mach_program_strat(p, p->region[d->region]));
	}
	if (!t->region[0] && m->nopen > 0 &&
	    m->open[m->nopen - 1].region < p->nregion)
		copy(t->region, sizeof t->region, mach_program_strat(p,
		    p->region[m->open[m->nopen - 1].region]));
}

static void
format(PallasTrap *t)
{
	char loc[160] = "", where[160], addr[64] = "", reg[80] = "";

	if (t->file[0] && t->line)
		snprintf(loc, sizeof loc, "%s:%u:%u: ", t->file, t->line,
		    t->col);
	else if (t->file[0])
		snprintf(loc, sizeof loc, "%s: ", t->file);
	if (t->slot >= 0)
		snprintf(where, sizeof where, "bundle %u slot %d (%s)",
		    t->bundle, t->slot, t->op);
	else
		snprintf(where, sizeof where, "bundle %u", t->bundle);
	if (t->has_addr)
		snprintf(addr, sizeof addr, ", %s address 0x%llx", t->space,
		    (unsigned long long)t->addr);
	if (t->region[0])
		snprintf(reg, sizeof reg, ", region '%s'", t->region);
	snprintf(t->message, sizeof t->message,
	    "%strap: %s: %s; %s, cycle %llu%s%s", loc,
	    mach_trap_kind_name(t->kind), t->reason, where,
	    (unsigned long long)t->cycle, addr, reg);
}

int
mach_trap(MachSim *m, int kind, uint32_t b, const SimIns *in, int space,
    uint64_t addr, const char *fmt, ...)
{
	PallasTrap *t = &m->trap;
	va_list ap;

	memset(t, 0, sizeof *t);
	t->kind = (PallasTrapKind)kind;
	t->cycle = m->cycle;
	t->bundle = b;
	t->slot = in ? in->slot : -1;
	if (in)
		copy(t->op, sizeof t->op, in->op == OP_NOP ? "?" :
		    mach_opinfo[in->op].name);
	if (addr != SIM_NEVER) {
		t->has_addr = 1;
		t->addr = addr;
		copy(t->space, sizeof t->space, mach_space_name(space));
	}
	va_start(ap, fmt);
	vsnprintf(t->reason, sizeof t->reason, fmt, ap);
	va_end(ap);
	locate(m, t);
	format(t);
	return -1;
}

/* Word n of the trap record at SMEM byte address base, as text (a read
 * of SMEM, so it counts towards the high water). */
static void
record_word(MachSim *m, uint32_t base, unsigned n, char *out,
    size_t len)
{
	uint64_t a = (uint64_t)base + 4u * n;
	int32_t w;

	if (base % 4 || a + 4 > m->mp->smem_bytes) {
		snprintf(out, len, "?");
		return;
	}
	mach_sim_touch(m, SIM_SMEM, a + 4);
	memcpy(&w, m->smem + a, 4);
	snprintf(out, len, "%d", (int)w);
}

int
mach_trap_check(MachSim *m, uint32_t b, const SimIns *in)
{
	const MachProgram *p = m->code ? m->code->prog : NULL;
	const char *s = p ? mach_program_strat(p, (uint32_t)in->imm) : "";
	char text[sizeof m->trap.reason], word[16];
	size_t n = 0, k;
	unsigned w;

	while (*s && n + 1 < sizeof text) {
		if (s[0] == '%' && s[1] == '%') {
			text[n++] = '%';
			s += 2;
			continue;
		}
		if (s[0] != '%' || s[1] < '0' || s[1] > '9') {
			text[n++] = *s++;
			continue;
		}
		for (w = 0, s++; *s >= '0' && *s <= '9' && w < 64; s++)
			w = w * 10 + (unsigned)(*s - '0');
		record_word(m, m->s[in->a], w, word, sizeof word);
		for (k = 0; word[k] && n + 1 < sizeof text; k++)
			text[n++] = word[k];
	}
	text[n] = 0;
	return mach_trap(m, PALLAS_TRAP_CHECK, b, in, 0, SIM_NEVER, "%s",
	    text[0] ? text : "(no message)");
}
