/*
 * disasm.c - a MachProgram back to assembly text that mach_asm() reads
 * back to the same program.  Layout of the output: .preset, the regions,
 * the entries with their operands (pc= names a label), the code (one
 * bundle per line, a label L<n> before every bundle an entry or a branch
 * names, a .loc before every bundle the debug map starts at), and the
 * constant data as .word / .byte lines.  Names that are not plain
 * identifiers are quoted.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/asm.h"

typedef struct Out {
	char *p;
	size_t n, cap;
	int bad;
} Out;

static void
put(Out *o, const char *s, size_t n)
{
	char *q;
	size_t c;

	if (o->bad)
		return;
	if (o->n + n + 1 > o->cap) {
		c = o->cap ? o->cap : 4096;
		while (c < o->n + n + 1)
			c *= 2;
		if (!(q = realloc(o->p, c))) {
			o->bad = 1;
			return;
		}
		o->p = q;
		o->cap = c;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

static void
outs(Out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
outf(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
outf(Out *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0)
		put(o, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* An identifier the lexer reads back whole, and not a '.' directive. */
static int
plain(const char *s)
{
	const char *q;

	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    *s == '_'))
		return 0;
	for (q = s; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		    (*q >= '0' && *q <= '9') || *q == '_' || *q == '.' ||
		    *q == '$'))
			return 0;
	return 1;
}

/* s in double quotes, escaped so that the lexer reads it back. */
static void
quoted(Out *o, const char *s)
{
	const unsigned char *q;

	outs(o, "\"");
	for (q = (const unsigned char *)s; *q; q++) {
		if (*q == '"' || *q == '\\')
			outf(o, "\\%c", *q);
		else if (*q < 0x20 || *q >= 0x7f)
			outf(o, "\\x%02x", *q);
		else
			put(o, (const char *)q, 1);
	}
	outs(o, "\"");
}

/* A name, quoted unless plain. */
static void
name(Out *o, const char *s)
{
	if (plain(s))
		outs(o, s);
	else
		quoted(o, s);
}

/* ------------------------------------------------------------ header */

/* Region r's name if it names region r when read back, else NULL. */
static const char *
region_name(const MachProgram *p, uint32_t r)
{
	const char *s;
	uint32_t i;

	if (r >= p->nregion)
		return NULL;
	s = mach_program_strat(p, p->region[r]);
	for (i = 0; i < r; i++)
		if (strcmp(mach_program_strat(p, p->region[i]), s) == 0)
			return NULL;
	return s;
}

static void
shape(Out *o, const MachOperand *d)
{
	int i;

	outf(o, "%s[", asm_dtype_name[d->dtype]);
	for (i = 0; i < d->rank; i++)
		outf(o, "%s%lld", i ? "," : "", (long long)d->shape[i]);
	outs(o, "]");
}

static void
entries(Out *o, const MachProgram *p)
{
	const MachOperand *d;
	const MachEntry *e;
	uint32_t i, k;

	for (i = 0; i < p->nentry; i++) {
		e = &p->entry[i];
		outs(o, ".entry ");
		name(o, mach_program_strat(p, e->name));
		outf(o, " pc=L%u", e->pc);
		if (e->scratch_bytes || e->scratch_smem)
			outf(o, " scratch=%llu scratch_smem=%u",
			    (unsigned long long)e->scratch_bytes,
			    e->scratch_smem);
		if (e->vmem_bytes || e->smem_bytes)
			outf(o, " vmem=%llu smem=%llu",
			    (unsigned long long)e->vmem_bytes,
			    (unsigned long long)e->smem_bytes);
		outs(o, "\n");
		for (k = e->first_opnd; k < e->first_opnd + e->nopnd; k++) {
			d = &p->opnd[k];
			outs(o, ".operand ");
			name(o, mach_program_strat(p, d->name));
			outf(o, " %s ", asm_role_name[d->role]);
			shape(o, d);
			outf(o, " smem=%u", d->smem_addr);
			if (d->role == MACH_ROLE_CONST)
				outf(o, " data=%u", d->data_off);
			if (d->hbm_addr != MACH_NOADDR)
				outf(o, " hbm=%llu",
				    (unsigned long long)d->hbm_addr);
			outs(o, "\n");
		}
	}
}

/* --------------------------------------------------------------- ops */

/* A vbcasti immediate: small integers as such, exact floats as 1.5f. */
static void
imm_bits(Out *o, int32_t v)
{
	char buf[48];
	float f;
	int prec;

	if (v > -65536 && v < 65536) {
		outf(o, "%d", v);
		return;
	}
	memcpy(&f, &v, sizeof f);
	if (isfinite(f) && f != 0)
		for (prec = 1; prec <= 9; prec++) {
			snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
			if (strtof(buf, NULL) != f)
				continue;
			outs(o, buf);
			outs(o, strpbrk(buf, ".en") ? "f" : ".0f");
			return;
		}
	outf(o, "0x%08x", (uint32_t)v);
}

static void
imm(Out *o, const MachProgram *p, const MachIns *in)
{
	const char *r;

	switch (in->op) {
	case OP_TBEGIN: case OP_TEND:
		if (in->imm >= 0 && (r = region_name(p, (uint32_t)in->imm))) {
			name(o, r);
			return;
		}
		break;
	case OP_TRAP:	/* the message, a program string */
		quoted(o, mach_program_strat(p, (uint32_t)in->imm));
		return;
	case OP_VBCASTI:
		imm_bits(o, in->imm);
		return;
	case OP_SANDI: case OP_SORI: case OP_SXORI:
		if (in->imm < 0 || in->imm > 255) {
			outf(o, "0x%x", (uint32_t)in->imm);
			return;
		}
		break;
	default:
		break;
	}
	outf(o, "%d", in->imm);
}

static const char *const regprefix[NMACHKIND] = {
	[K_S] = "s", [K_V] = "v", [K_M] = "m", [K_P] = "p", [K_F] = "f",
	[K_MXU] = "mxu", [K_XLU] = "xlu",
};

static void
mmflags(Out *o, unsigned x, const char **sep)
{
	unsigned prec = (x & MACH_MM_PREC_MASK) >> MACH_MM_PREC_SHIFT;
	unsigned kblk = (x & MACH_MM_KBLK_MASK) >> MACH_MM_KBLK_SHIFT;

	if (x & MACH_MM_ACC) {
		outf(o, "%sacc", *sep);
		*sep = ", ";
	}
	if (x & MACH_MM_HOLD) {
		outf(o, "%shold", *sep);
		*sep = ", ";
	}
	if (prec && prec < NMACHPREC) {
		outf(o, "%sprec=%s", *sep, asm_prec_name[prec]);
		*sep = ", ";
	}
	if (kblk)
		outf(o, "%skblk=%u", *sep, kblk);
}

/* Operand i of in (i+1 as well for a memory pair); returns the next i. */
static int
operand(Out *o, const MachProgram *p, uint32_t b, const MachIns *in, int i)
{
	const MachOpInfo *oi = &mach_opinfo[in->op];
	const MachFmtInfo *fi = &mach_fmtinfo[oi->fmt];
	int k = fi->opnd[i].kind;
	int64_t v = mach_ins_get(in, fi->opnd[i].field);

	if (k == K_S && fi->opnd[i].field == FLD_A && i + 1 < fi->nopnd &&
	    fi->opnd[i + 1].kind == K_IMM && (oi->flags & (MACH_F_LOAD |
	    MACH_F_STORE | MACH_F_DMA))) {
		outf(o, "[s%d", in->a);
		if (in->imm)
			outf(o, " %c %lld", in->imm < 0 ? '-' : '+',
			    in->imm < 0 ? -(long long)in->imm :
			    (long long)in->imm);
		outs(o, "]");
		return i + 2;
	}
	if (regprefix[k])
		outf(o, "%s%lld", regprefix[k], (long long)v);
	else if (k == K_IMM)
		imm(o, p, in);
	else if (k == K_LABEL)
		outf(o, "L%lld", (long long)b + in->imm);
	else if (k == K_LANE || k == K_SUB)
		outf(o, "%s=%lld", in->op == OP_XROT || in->op == OP_VROTS ?
		    "by" : k == K_LANE ? "lane" : "sub", (long long)v);
	return i + 1;
}

static void
ins(Out *o, const MachProgram *p, uint32_t b, const MachIns *in)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[in->op].fmt];
	unsigned full = (1u << p->mp->sublanes) - 1;
	const char *sep = " ";
	int i, k;

	if (in->guard || in->gneg)
		outf(o, "(%sp%u) ", in->gneg ? "!" : "", in->guard);
	outs(o, mach_opinfo[in->op].name);
	for (i = 0; i < fi->nopnd;) {
		k = fi->opnd[i].kind;
		if (k == K_SMASK || k == K_STRIDE || k == K_MMF) {
			i++;
			continue;
		}
		outs(o, sep);
		sep = ", ";
		i = operand(o, p, b, in, i);
	}
	for (i = 0; i < fi->nopnd; i++) {
		k = fi->opnd[i].kind;
		if (k == K_SMASK && (in->x & 0xff) != full) {
			outf(o, "%smask=0x%02x", sep, in->x & 0xff);
			sep = ", ";
		} else if (k == K_STRIDE && in->x >> 8 != 1) {
			outf(o, "%sstride=%u", sep, in->x >> 8);
			sep = ", ";
		} else if (k == K_MMF)
			mmflags(o, in->x, &sep);
	}
}

/* -------------------------------------------------------------- code */

/* Marks the bundles that entries and branches name. */
static uint8_t *
targets(const MachProgram *p)
{
	uint8_t *t = calloc(p->nbundle ? p->nbundle : 1, 1);
	const MachFmtInfo *fi;
	uint32_t b, i;
	int64_t to;

	if (!t)
		return NULL;
	for (i = 0; i < p->nentry; i++)
		if (p->entry[i].pc < p->nbundle)
			t[p->entry[i].pc] = 1;
	for (b = 0; b < p->nbundle; b++)
		for (i = p->bundle[b].first; i < p->bundle[b].first +
		    p->bundle[b].nins; i++) {
			fi = &mach_fmtinfo[mach_opinfo[p->ins[i].op].fmt];
			if (fi->nopnd && (fi->opnd[0].kind == K_LABEL ||
			    fi->opnd[1].kind == K_LABEL) &&
			    (to = (int64_t)b + p->ins[i].imm) >= 0 &&
			    to < p->nbundle)
				t[to] = 1;
		}
	return t;
}

static void
loc(Out *o, const MachProgram *p, const MachDebug *d)
{
	const char *r;

	outs(o, "\t.loc ");
	quoted(o, mach_program_strat(p, d->file));
	outf(o, " %u %u", d->line, d->col);
	if (d->region != MACH_NOREGION) {
		outs(o, " region=");
		if ((r = region_name(p, d->region)) != NULL)
			name(o, r);
		else
			outf(o, "%u", d->region);
	}
	outs(o, "\n");
}

static void
code(Out *o, const MachProgram *p, const uint8_t *target)
{
	const MachBundle *bu;
	uint32_t b, i, dbg = 0;

	for (b = 0; b < p->nbundle; b++) {
		bu = &p->bundle[b];
		if (target[b])
			outf(o, "L%u:\n", b);
		if (dbg < p->ndebug && p->debug[dbg].bundle == b)
			loc(o, p, &p->debug[dbg++]);
		outs(o, "\t");
		if (bu->nins == 0)
			outs(o, "nop");
		for (i = 0; i < bu->nins; i++) {
			if (i)
				outs(o, " ; ");
			ins(o, p, b, &p->ins[bu->first + i]);
		}
		outs(o, "\n");
	}
}

static void
data(Out *o, const MachProgram *p)
{
	uint32_t i, w;

	if (!p->ndata)
		return;
	outs(o, "\n.data\n");
	for (i = 0; i + 4 <= p->ndata; i += 4) {
		w = (uint32_t)p->data[i] | (uint32_t)p->data[i + 1] << 8 |
		    (uint32_t)p->data[i + 2] << 16 |
		    (uint32_t)p->data[i + 3] << 24;
		outf(o, "%s0x%08x", i % 32 == 0 ? "\t.word " : ", ", w);
		if (i % 32 == 28 || i + 8 > p->ndata)
			outs(o, "\n");
	}
	for (; i < p->ndata; i++)
		outf(o, "%s0x%02x%s", i % 4 == 0 ? "\t.byte " : ", ",
		    p->data[i], i + 1 == p->ndata ? "\n" : "");
}

int
mach_disasm(const MachProgram *p, char **text, size_t *len)
{
	uint8_t *target;
	Out o = { 0 };
	uint32_t i;

	*text = NULL;
	*len = 0;
	if (mach_program_check(p, NULL, 0))
		return MACH_EINVAL;
	if (!(target = targets(p)))
		return MACH_ENOMEM;
	outf(&o, "# %u bundles, %u ops\n.preset %s\n", p->nbundle, p->nins,
	    p->preset);
	for (i = 0; i < p->nregion; i++) {
		outs(&o, ".region ");
		name(&o, mach_program_strat(p, p->region[i]));
		outs(&o, "\n");
	}
	entries(&o, p);
	outs(&o, "\n");
	code(&o, p, target);
	data(&o, p);
	free(target);
	if (o.bad || !o.p) {
		free(o.p);
		return MACH_ENOMEM;
	}
	*text = o.p;
	*len = o.n;
	return MACH_OK;
}
