/*
 * check.c - validation of instructions, bundles and whole programs
 * against a preset.  The image reader, the encoder and the assembler all
 * go through here, so "valid" means one thing everywhere.  Every function
 * returns MACH_OK or MACH_EINVAL with a message; none of them trusts any
 * count or offset it is given.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/machine.h"

int64_t
mach_ins_get(const MachIns *in, int f)
{
	switch (f) {
	case FLD_D: return in->d;
	case FLD_A: return in->a;
	case FLD_B: return in->b;
	case FLD_C: return in->c;
	case FLD_I: return in->imm;
	case FLD_X: return in->x;
	case FLD_XLO: return in->x & 0xff;
	case FLD_XHI: return in->x >> 8;
	default: return 0;
	}
}

void
mach_ins_set(MachIns *in, int f, int64_t v)
{
	switch (f) {
	case FLD_D: in->d = (uint8_t)v; break;
	case FLD_A: in->a = (uint8_t)v; break;
	case FLD_B: in->b = (uint8_t)v; break;
	case FLD_C: in->c = (uint8_t)v; break;
	case FLD_I: in->imm = (int32_t)v; break;
	case FLD_X: in->x = (uint16_t)v; break;
	case FLD_XLO: in->x = (uint16_t)((in->x & 0xff00) | (v & 0xff)); break;
	case FLD_XHI: in->x = (uint16_t)((in->x & 0xff) | (v & 0xff) << 8); break;
	default: break;
	}
}

/* Exclusive upper bound of an operand of kind k; -1 = any value. */
int64_t
mach_kind_limit(const MachPreset *mp, int k)
{
	switch (k) {
	case K_S: return mp->nsreg;
	case K_V: return mp->nvreg;
	case K_M: return mp->nmreg;
	case K_P: return mp->npreg;
	case K_F: return mp->nflag;
	case K_MXU: return mp->nmxu;
	case K_XLU: return mp->nxlu;
	case K_SMASK: return (int64_t)1 << mp->sublanes;
	case K_STRIDE: return 256;
	case K_LANE: return mp->lanes;
	case K_SUB: return mp->sublanes;
	default: return -1;
	}
}

static int
check_mmf(const MachPreset *mp, int64_t v, char *err, size_t errlen)
{
	int prec, kblk;

	prec = (int)((v & MACH_MM_PREC_MASK) >> MACH_MM_PREC_SHIFT);
	kblk = (int)((v & MACH_MM_KBLK_MASK) >> MACH_MM_KBLK_SHIFT);
	if (v & ~(int64_t)(MACH_MM_ACC | MACH_MM_HOLD | MACH_MM_PREC_MASK |
	    MACH_MM_KBLK_MASK))
		return mach_errf(MACH_EINVAL, err, errlen, "matmul flags 0x%x: unknown bits",
		    (unsigned)v);
	if (prec >= NMACHPREC)
		return mach_errf(MACH_EINVAL, err, errlen, "matmul precision %d out of range",
		    prec);
	if (kblk >= mp->mxu_dim / mp->lanes)
		return mach_errf(MACH_EINVAL, err, errlen, "matmul k-block %d out of range",
		    kblk);
	return MACH_OK;
}

/* Bits of each field the format uses; a field it does not use must be 0. */
static int
check_unused(const MachIns *in, const MachFmtInfo *fi, char *err,
    size_t errlen)
{
	unsigned used, xmask;
	int i;

	used = xmask = 0;
	for (i = 0; i < fi->nopnd; i++) {
		used |= 1u << fi->opnd[i].field;
		if (fi->opnd[i].field == FLD_X)
			xmask |= 0xffff;
		if (fi->opnd[i].field == FLD_XLO)
			xmask |= 0x00ff;
		if (fi->opnd[i].field == FLD_XHI)
			xmask |= 0xff00;
	}
	if ((!(used & 1u << FLD_D) && in->d) ||
	    (!(used & 1u << FLD_A) && in->a) ||
	    (!(used & 1u << FLD_B) && in->b) ||
	    (!(used & 1u << FLD_C) && in->c) ||
	    (!(used & 1u << FLD_I) && in->imm) || (in->x & ~xmask) || in->pad)
		return mach_errf(MACH_EINVAL, err, errlen, "%s: a field it does not use is set",
		    mach_opinfo[in->op].name);
	return MACH_OK;
}

int
mach_ins_check(const MachPreset *mp, const MachIns *in, char *err,
    size_t errlen)
{
	const MachFmtInfo *fi;
	int64_t v, lim;
	int i, k;

	if (in->op == OP_NOP || in->op >= NMACHOP)
		return mach_errf(MACH_EINVAL, err, errlen, "bad opcode %u", in->op);
	if (in->guard >= mp->npreg || in->gneg > 1)
		return mach_errf(MACH_EINVAL, err, errlen, "%s: bad guard predicate",
		    mach_opinfo[in->op].name);
	fi = &mach_fmtinfo[mach_opinfo[in->op].fmt];
	for (i = 0; i < fi->nopnd; i++) {
		k = fi->opnd[i].kind;
		v = mach_ins_get(in, fi->opnd[i].field);
		if (k == K_MMF && check_mmf(mp, v, err, errlen))
			return MACH_EINVAL;
		lim = mach_kind_limit(mp, k);
		if (lim >= 0 && (v < 0 || v >= lim))
			return mach_errf(MACH_EINVAL, err, errlen,
			    "%s: operand %d (%s) = %lld out of range [0, %lld)",
			    mach_opinfo[in->op].name, i + 1, mach_kind_name(k),
			    (long long)v, (long long)lim);
	}
	return check_unused(in, fi, err, errlen);
}

/* Distinct pool immediates of ins[0..n). */
static int
count_imm(const MachIns *ins, int n)
{
	int i, j, k;

	k = 0;
	for (i = 0; i < n; i++) {
		if (!mach_op_uses_pool(ins[i].op))
			continue;
		for (j = 0; j < i; j++)
			if (mach_op_uses_pool(ins[j].op) && ins[j].imm == ins[i].imm)
				break;
		k += j == i;
	}
	return k;
}

int
mach_bundle_check(const MachPreset *mp, const MachIns *ins, int n,
    char *err, size_t errlen)
{
	int used[NMACHUNIT] = { 0 };
	int i, u, nctrl;

	nctrl = 0;
	for (i = 0; i < n; i++) {
		if (mach_ins_check(mp, &ins[i], err, errlen))
			return MACH_EINVAL;
		u = mach_opinfo[ins[i].op].unit;
		if (++used[u] > mp->slots[u])
			return mach_errf(MACH_EINVAL, err, errlen, "more than %d %s ops in a bundle",
			    mp->slots[u], mach_unit_name(u));
		nctrl += (mach_opinfo[ins[i].op].flags & MACH_F_CTRL) != 0;
	}
	if (nctrl > 1)
		return mach_errf(MACH_EINVAL, err, errlen, "more than one control op in a bundle");
	if (count_imm(ins, n) > mp->nimm)
		return mach_errf(MACH_EINVAL, err, errlen, "more than %d immediates in a bundle",
		    mp->nimm);
	return MACH_OK;
}

/* Is off the start of a string in p's string table? */
static int
str_ok(const MachProgram *p, uint32_t off)
{
	return off < p->nstr && (off == 0 || p->str[off - 1] == 0);
}

/* Branch targets in the program; trap messages name strings. */
static int
check_labels(const MachProgram *p, uint32_t bi, char *err, size_t errlen)
{
	const MachBundle *b = &p->bundle[bi];
	const MachFmtInfo *fi;
	int64_t t;
	uint32_t i;
	int k;

	for (i = b->first; i < b->first + b->nins; i++) {
		if (p->ins[i].op == OP_TRAP && (p->ins[i].imm < 0 ||
		    !str_ok(p, (uint32_t)p->ins[i].imm)))
			return mach_errf(MACH_EINVAL, err, errlen,
			    "bundle %u: trap message %d is not a string", bi,
			    (int)p->ins[i].imm);
		fi = &mach_fmtinfo[mach_opinfo[p->ins[i].op].fmt];
		for (k = 0; k < fi->nopnd; k++) {
			if (fi->opnd[k].kind != K_LABEL)
				continue;
			t = (int64_t)bi + p->ins[i].imm;
			if (t < 0 || t >= p->nbundle)
				return mach_errf(MACH_EINVAL, err, errlen,
				    "bundle %u: branch target %lld out of range",
				    bi, (long long)t);
		}
	}
	return MACH_OK;
}

static int
check_code(const MachProgram *p, char *err, size_t errlen)
{
	char sub[160];
	uint64_t next;
	uint32_t i;

	next = 0;
	for (i = 0; i < p->nbundle; i++) {
		if (p->bundle[i].first != next ||
		    p->bundle[i].nins > (uint32_t)mach_preset_nslot(p->mp) ||
		    next + p->bundle[i].nins > p->nins)
			return mach_errf(MACH_EINVAL, err, errlen, "bundle %u: bad op range", i);
		if (p->bundle[i].nins && mach_bundle_check(p->mp, p->ins + next,
		    (int)p->bundle[i].nins, sub, sizeof sub))
			return mach_errf(MACH_EINVAL, err, errlen, "bundle %u: %s", i, sub);
		if (check_labels(p, i, err, errlen))
			return MACH_EINVAL;
		next += p->bundle[i].nins;
	}
	if (next != p->nins)
		return mach_errf(MACH_EINVAL, err, errlen, "%u ops outside any bundle",
		    (unsigned)(p->nins - next));
	return MACH_OK;
}

static int
check_strings(const MachProgram *p, char *err, size_t errlen)
{
	uint32_t i;

	if (p->nstr == 0 || !p->str || p->str[0] != 0 ||
	    p->str[p->nstr - 1] != 0)
		return mach_errf(MACH_EINVAL, err, errlen, "bad string table");
	for (i = 0; i < p->nregion; i++)
		if (!str_ok(p, p->region[i]))
			return mach_errf(MACH_EINVAL, err, errlen, "region %u: bad name", i);
	return MACH_OK;
}

static uint64_t
dtype_size(int dt)
{
	switch (dt) {
	case MACH_F32: case MACH_I32: return 4;
	case MACH_BF16: case MACH_I16: return 2;
	default: return 1;
	}
}

/* Elements times element size == bytes, without overflow. */
static int
opnd_size_ok(const MachOperand *o)
{
	uint64_t n;
	int i;

	n = dtype_size(o->dtype);
	for (i = 0; i < o->rank; i++) {
		if (o->shape[i] < 0)
			return 0;
		if (o->shape[i] && n > UINT64_MAX / (uint64_t)o->shape[i])
			return 0;
		n *= (uint64_t)o->shape[i];
	}
	for (; i < MACH_MAXRANK; i++)
		if (o->shape[i])
			return 0;
	return n == o->bytes;
}

static int
check_opnd(const MachProgram *p, const MachOperand *o, char *err,
    size_t errlen)
{
	uint64_t need;

	if (!str_ok(p, o->name) || o->role >= NMACHROLE ||
	    o->dtype >= NMACHDTYPE || o->rank > MACH_MAXRANK || o->pad)
		return mach_errf(MACH_EINVAL, err, errlen, "operand: bad name, role or type");
	if (!opnd_size_ok(o))
		return mach_errf(MACH_EINVAL, err, errlen, "operand %s: shape and bytes disagree",
		    p->str + o->name);
	need = o->role == MACH_ROLE_SMEM ? o->bytes : 8;
	if (o->smem_addr % 4 || need > p->mp->smem_bytes ||
	    o->smem_addr > p->mp->smem_bytes - need)
		return mach_errf(MACH_EINVAL, err, errlen, "operand %s: bad SMEM slot",
		    p->str + o->name);
	if (o->role == MACH_ROLE_CONST ?
	    o->bytes > p->ndata || o->data_off > p->ndata - o->bytes :
	    o->data_off != 0)
		return mach_errf(MACH_EINVAL, err, errlen, "operand %s: bad constant data",
		    p->str + o->name);
	if (o->hbm_addr != MACH_NOADDR && (o->role == MACH_ROLE_SMEM ||
	    o->bytes > p->mp->hbm_bytes ||
	    o->hbm_addr > p->mp->hbm_bytes - o->bytes))
		return mach_errf(MACH_EINVAL, err, errlen, "operand %s: bad HBM address",
		    p->str + o->name);
	return MACH_OK;
}

static int
check_entries(const MachProgram *p, char *err, size_t errlen)
{
	const MachEntry *e;
	uint32_t i;

	for (i = 0; i < p->nopnd; i++)
		if (check_opnd(p, &p->opnd[i], err, errlen))
			return MACH_EINVAL;
	for (i = 0; i < p->nentry; i++) {
		e = &p->entry[i];
		if (!str_ok(p, e->name) || e->pc >= p->nbundle || e->pad ||
		    (uint64_t)e->first_opnd + e->nopnd > p->nopnd)
			return mach_errf(MACH_EINVAL, err, errlen, "entry %u: bad name, pc or "
			    "operands", i);
		if (e->scratch_bytes && (e->scratch_smem % 4 ||
		    e->scratch_smem > p->mp->smem_bytes - 8))
			return mach_errf(MACH_EINVAL, err, errlen, "entry %u: bad scratch slot", i);
		if (e->vmem_bytes > p->mp->vmem_bytes ||
		    e->smem_bytes > p->mp->smem_bytes)
			return mach_errf(MACH_EINVAL, err, errlen, "entry %u: "
			    "declares more VMEM or SMEM than the preset has",
			    i);
	}
	return MACH_OK;
}

static int
check_debug(const MachProgram *p, char *err, size_t errlen)
{
	const MachDebug *d;
	uint32_t i;

	for (i = 0; i < p->ndebug; i++) {
		d = &p->debug[i];
		if (d->bundle >= p->nbundle ||
		    (i > 0 && d->bundle <= p->debug[i - 1].bundle))
			return mach_errf(MACH_EINVAL, err, errlen, "debug map %u: bad bundle", i);
		if (!str_ok(p, d->file) || (d->region != MACH_NOREGION &&
		    d->region >= p->nregion))
			return mach_errf(MACH_EINVAL, err, errlen, "debug map %u: bad file or "
			    "region", i);
	}
	return MACH_OK;
}

int
mach_program_check(const MachProgram *p, char *err, size_t errlen)
{
	if (!p || memchr(p->preset, 0, sizeof p->preset) == NULL ||
	    !mach_preset(p->preset) || p->mp != mach_preset(p->preset))
		return mach_errf(MACH_EINVAL, err, errlen, "unknown or unresolved preset");
	if ((p->nbundle && !p->bundle) || (p->nins && !p->ins) ||
	    (p->ndata && !p->data) || (p->nentry && !p->entry) ||
	    (p->nopnd && !p->opnd) || (p->ndebug && !p->debug) ||
	    (p->nregion && !p->region))
		return mach_errf(MACH_EINVAL, err, errlen, "a non-empty array is missing");
	if (check_strings(p, err, errlen) || check_code(p, err, errlen) ||
	    check_entries(p, err, errlen) || check_debug(p, err, errlen))
		return MACH_EINVAL;
	return MACH_OK;
}
