/*
 * sim_decode.c - "decode once": turns a MachProgram into MachCode, the
 * compact form the dispatch loop runs.
 *
 * Each bundle becomes an array of its filled slots in execution order:
 * pops first (so a bundle may pop and push the same full FIFO), then the
 * rest in slot order.  Every op reads its registers at issue, before any
 * op of the bundle writes them; when an op reads a register that an
 * earlier op of the bundle writes, the read is renamed to a temporary and
 * a copy is put at the bundle's start.  The copy keeps the reader's guard,
 * op and slot, so readiness traps name the reader.  An op that fails its
 * check becomes SIM_BAD and traps when it runs ("bad opcode").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"

typedef struct Ren {
	int kind, reg, temp;
} Ren;

typedef struct Bctx {
	const MachPreset *mp;
	uint8_t written[4][256];	/* S, P, V, M: written earlier */
	Ren ren[4 * SIM_NTEMP];
	int nren;
	SimIns copy[4 * SIM_NTEMP];
	int ncopy;
	int ntemp[4];
} Bctx;

static int
kslot(int kind)
{
	switch (kind) {
	case K_S: return 0;
	case K_P: return 1;
	case K_V: return 2;
	case K_M: return 3;
	default: return -1;
	}
}

static int
arch_count(const MachPreset *mp, int ks)
{
	switch (ks) {
	case 0: return mp->nsreg;
	case 1: return mp->npreg;
	case 2: return mp->nvreg;
	default: return mp->nmreg;
	}
}

/* The register to read for (kind, reg) in this bundle: itself, or a
 * temporary holding its value from the bundle's start. */
static int
rename_read(Bctx *bc, const SimIns *reader, int ks, int reg)
{
	static const uint16_t copyop[4] = {
		SIM_COPY_S, SIM_COPY_P, SIM_COPY_V, SIM_COPY_M
	};
	SimIns *c;
	int i;

	if (!bc->written[ks][reg] || (ks == 1 && reg == 0))
		return reg;
	for (i = 0; i < bc->nren; i++)
		if (bc->ren[i].kind == ks && bc->ren[i].reg == reg)
			return bc->ren[i].temp;
	if (bc->ntemp[ks] == SIM_NTEMP)
		return -1;
	bc->ren[bc->nren].kind = ks;
	bc->ren[bc->nren].reg = reg;
	bc->ren[bc->nren].temp = arch_count(bc->mp, ks) + bc->ntemp[ks]++;
	c = &bc->copy[bc->ncopy++];
	*c = *reader;
	c->h = copyop[ks];
	c->d = (uint8_t)bc->ren[bc->nren].temp;
	c->a = (uint8_t)reg;
	c->b = c->c = 0;
	return bc->ren[bc->nren++].temp;
}

/* Renames the reads of 'in' (decoded from 'src'), then records its
 * destination as written. */
static int
rename_ins(Bctx *bc, SimIns *in, const MachIns *src)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[src->op].fmt];
	SimIns orig = *in;
	uint8_t *fld;
	int i, ks, r;

	for (i = 0; i < fi->nopnd; i++) {
		ks = kslot(fi->opnd[i].kind);
		if (ks < 0 || fi->opnd[i].field == FLD_D)
			continue;
		switch (fi->opnd[i].field) {
		case FLD_A: fld = &in->a; break;
		case FLD_B: fld = &in->b; break;
		case FLD_C: fld = &in->c; break;
		default: continue;
		}
		if ((r = rename_read(bc, &orig, ks, *fld)) < 0)
			return -1;
		*fld = (uint8_t)r;
	}
	if (in->guard) {
		if ((r = rename_read(bc, &orig, 1, in->guard)) < 0)
			return -1;
		in->guard = (uint8_t)r;
	}
	for (i = 0; i < fi->nopnd; i++)
		if (fi->opnd[i].field == FLD_D &&
		    (ks = kslot(fi->opnd[i].kind)) >= 0)
			bc->written[ks][src->d] = 1;
	return 0;
}

static int
fail(char *err, size_t errlen, const char *fmt, uint32_t bi, const char *s)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, (unsigned)bi, s);
	return MACH_EINVAL;
}

static int
set_bad(MachCode *c, uint32_t idx, const char *why)
{
	char **nb;
	uint32_t i;

	if (idx >= c->nbad) {
		nb = realloc(c->bad, ((size_t)idx + 1) * sizeof *nb);
		if (!nb)
			return -1;
		for (i = c->nbad; i <= idx; i++)
			nb[i] = NULL;
		c->bad = nb;
		c->nbad = idx + 1;
	}
	c->bad[idx] = malloc(strlen(why) + 1);
	if (!c->bad[idx])
		return -1;
	strcpy(c->bad[idx], why);
	return 0;
}

/* Is the op valid for the preset and are its labels inside the program? */
static int
op_ok(const MachProgram *p, uint32_t bi, const MachIns *in, char *why,
    size_t n)
{
	const MachFmtInfo *fi;
	int64_t t;
	int i;

	if (mach_ins_check(p->mp, in, why, n))
		return 0;
	fi = &mach_fmtinfo[mach_opinfo[in->op].fmt];
	for (i = 0; i < fi->nopnd; i++) {
		if (fi->opnd[i].kind != K_LABEL)
			continue;
		t = (int64_t)bi + in->imm;
		if (t < 0 || t >= p->nbundle) {
			snprintf(why, n, "%s: branch target %lld out of range",
			    mach_opinfo[in->op].name, (long long)t);
			return 0;
		}
	}
	return 1;
}

static void
fill_ins(SimIns *o, const MachIns *in, int slot, int good)
{
	o->h = good ? in->op : SIM_BAD;
	o->guard = good ? in->guard : 0;
	o->gneg = good ? in->gneg : 0;
	o->d = in->d;
	o->a = in->a;
	o->b = in->b;
	o->c = in->c;
	o->x = in->x;
	o->op = in->op < NMACHOP ? in->op : OP_NOP;	/* nop: reported '?' */
	o->slot = (uint8_t)slot;
	o->imm = in->imm;
}

/* Slot counts and control ops of bundle bi (good ops only). */
static int
check_slots(const MachProgram *p, uint32_t bi, const uint8_t *good,
    SimBundle *sb, char *err, size_t errlen)
{
	const MachBundle *b = &p->bundle[bi];
	int nctrl = 0, u;
	uint32_t i;

	for (i = 0; i < b->nins; i++) {
		const MachIns *in = &p->ins[b->first + i];

		if (!good[i])
			continue;
		u = mach_opinfo[in->op].unit;
		if (++sb->occ[u] > p->mp->slots[u])
			return fail(err, errlen, "bundle %u: too many %s ops", bi,
			    mach_unit_name(u));
		nctrl += (mach_opinfo[in->op].flags & MACH_F_CTRL) != 0;
		if (mach_opinfo[in->op].flags & MACH_F_CTRL)
			sb->flags |= SB_CTRL;
		if (mach_opinfo[in->op].flags & MACH_F_STALL)
			sb->flags |= SB_WAIT;
		if (mach_opinfo[in->op].flags & MACH_F_TRACE)
			sb->flags |= SB_MARK;
	}
	if (nctrl > 1)
		return fail(err, errlen, "bundle %u: %s", bi,
		    "more than one control op");
	return MACH_OK;
}

#define MAXB 64	/* ops per bundle the decoder accepts (presets: <= 19) */

/* Room for n more ops at c->ins[*pos]. */
static int
reserve(MachCode *c, uint32_t *cap, uint32_t pos, uint32_t n)
{
	SimIns *q;
	uint32_t nc;

	if (pos + n <= *cap)
		return 0;
	nc = *cap * 2 > pos + n ? *cap * 2 : pos + n + 64;
	q = realloc(c->ins, (size_t)nc * sizeof *q);
	if (!q)
		return -1;
	c->ins = q;
	*cap = nc;
	return 0;
}

/* Decodes bundle bi into c->ins[*pos ..]. */
static int
decode_bundle(MachCode *c, uint32_t bi, uint32_t *pos, uint32_t *cap,
    char *err, size_t errlen)
{
	const MachProgram *p = c->prog;
	const MachBundle *b = &p->bundle[bi];
	SimBundle *sb = &c->bundle[bi];
	static const size_t WHY = 160;
	char why[MAXB][160];
	uint8_t good[MAXB];
	SimIns ops[MAXB];
	int order[MAXB], n, i, k;
	Bctx bc;

	memset(sb, 0, sizeof *sb);
	if (b->nins > MAXB)
		return fail(err, errlen, "bundle %u: %s", bi, "too many ops");
	for (i = 0; i < (int)b->nins; i++)
		good[i] = (uint8_t)op_ok(p, bi, &p->ins[b->first + i], why[i],
		    WHY);
	if (check_slots(p, bi, good, sb, err, errlen))
		return MACH_EINVAL;
	/* execution order: pops first, then slot order */
	n = 0;
	for (k = 0; k < 2; k++)
		for (i = 0; i < (int)b->nins; i++) {
			const MachIns *in = &p->ins[b->first + i];
			int pop = good[i] && mach_opinfo[in->op].unit == U_POP;

			if (pop == (k == 0))
				order[n++] = i;
		}
	memset(&bc, 0, sizeof bc);
	bc.mp = p->mp;
	for (k = 0; k < n; k++) {
		const MachIns *in = &p->ins[b->first + order[k]];

		fill_ins(&ops[k], in, order[k], good[order[k]]);
		if (good[order[k]] && rename_ins(&bc, &ops[k], in))
			return fail(err, errlen, "bundle %u: %s", bi,
			    "too many renamed reads");
	}
	if (reserve(c, cap, *pos, (uint32_t)(bc.ncopy + n)))
		return MACH_ENOMEM;
	sb->first = *pos;
	sb->n = (uint16_t)(bc.ncopy + n);
	memcpy(c->ins + *pos, bc.copy, (size_t)bc.ncopy * sizeof *ops);
	memcpy(c->ins + *pos + bc.ncopy, ops, (size_t)n * sizeof *ops);
	for (k = 0; k < n; k++)
		if (!good[order[k]] && set_bad(c,
		    *pos + (uint32_t)(bc.ncopy + k), why[order[k]]))
			return MACH_ENOMEM;
	*pos += sb->n;
	return MACH_OK;
}

int
mach_code_new(const MachProgram *p, MachCode **out, char *err,
    size_t errlen)
{
	MachCode *c;
	uint32_t bi, pos, cap, next;
	int rc;

	*out = NULL;
	if (!p || !p->mp || memchr(p->preset, 0, sizeof p->preset) == NULL ||
	    p->mp != mach_preset(p->preset)) {
		if (err && errlen)
			snprintf(err, errlen, "unknown or unresolved preset");
		return MACH_EPRESET;
	}
	next = 0;
	for (bi = 0; bi < p->nbundle; bi++) {
		if (p->bundle[bi].first != next ||
		    p->bundle[bi].nins > p->nins - next)
			return fail(err, errlen, "bundle %u: %s", bi,
			    "bad op range");
		next += p->bundle[bi].nins;
	}
	if (!(c = calloc(1, sizeof *c)))
		return MACH_ENOMEM;
	c->prog = p;
	c->mp = p->mp;
	c->nbundle = p->nbundle;
	cap = p->nins + 64;
	c->bundle = calloc(p->nbundle ? p->nbundle : 1, sizeof *c->bundle);
	c->ins = malloc((size_t)cap * sizeof *c->ins);
	if (!c->bundle || !c->ins) {
		mach_code_free(c);
		return MACH_ENOMEM;
	}
	pos = 0;
	for (bi = 0; bi < p->nbundle; bi++)
		if ((rc = decode_bundle(c, bi, &pos, &cap, err, errlen))) {
			mach_code_free(c);
			return rc;
		}
	c->nins = pos;
	*out = c;
	return MACH_OK;
}

void
mach_code_free(MachCode *c)
{
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nbad; i++)
		free(c->bad[i]);
	free(c->bad);
	free(c->bundle);
	free(c->ins);
	free(c);
}

/* The reason a SIM_BAD op at code index i failed its check. */
const char *
mach_code_bad(const MachCode *c, uint32_t i)
{
	return i < c->nbad && c->bad[i] ? c->bad[i] : "invalid op";
}
