/*
 * spill.c - move virtual registers to memory: the spill code that
 * vliw_regalloc asks for when a register class runs out.
 *
 * Needs:    an LFunc on virtual registers whose ops carry LIns.seq (their
 *           order from vliw_isel; vliw_sched set it), the registers to
 *           spill, f->vmem_base / f->smem_base.
 * Gives:    spill everywhere: each spilled register gets a slot, one vreg
 *           (S x L words, row aligned) in the VMEM spill area for vector
 *           and mask registers, one word in the SMEM spill area for
 *           scalars and predicates.  Every op that touches it gets a
 *           fresh virtual register of the same class instead: reloaded
 *           before the op when the op reads it or writes it under a
 *           guard (a guarded write keeps the old value when the guard is
 *           false), stored after the op when the op writes it.  The fresh
 *           registers live from the reload to the op and from the op to
 *           the store only.  Blocks come out in vliw_isel's order with
 *           LIns.seq renumbered; the caller schedules f again (the
 *           scheduler gives the loads and stores their latencies and
 *           memory order).  f->spill_* and f->nspill grow.
 * Code:     addresses are pool immediates over a base register set to 0
 *           just before (smovi), full sublane masks, stride 1.
 *             vector     store  vst t, [b + a]
 *                        reload vld t, [b + a]
 *             mask       store  vbcasti v, 0; vst v; vbcasti v, 1;
 *                               vst.msk v, [b + a], t  (1 where t)
 *                        reload vld v; vbcasti z, 0; vcmp.ne.i32 t, v, z
 *             scalar     store  sst t, [b + a]
 *                        reload smovi t, 0; sld t, [t + a]
 *             predicate  store  smovi s, 0; (t) smovi s, 1; sst s, [b + a]
 *                        reload smovi s, 0; sld s, [s + a];
 *                               scmpi.ne t, s, 0
 * Limits:   the VMEM area ends within the kernel's vmem_limit (or the
 *           preset's vmem_bytes: vliw_vmem_limit) and the SMEM one
 *           within smem_bytes; otherwise an error names the kernel, the
 *           class that ran out and the sizes.
 * Entry:    vliw_spill(LFunc *, char *const victim[NLCLASS], Diag *);
 *           vliw_spill_note (the -S comment); vliw_vmem_limit.
 * Tests:    tests/unit/check_spill.c
 */
#include <string.h>

#include "backend/vliw/vliw.h"

typedef struct Sp {
	LFunc *f;
	char *const *victim;
	int nold[NLCLASS];	/* registers before spilling (victim's size) */
	int64_t *slot[NLCLASS];	/* per register: its address, or -1 */
	VEC(LIns) out;		/* the block being rewritten */
	Loc loc;		/* of the op being rewritten */
} Sp;

/* One spilled register an op touches. */
typedef struct SRef {
	LClass c;
	int r, t;		/* the register, its fresh replacement */
	int use, def;
} SRef;

static const char *const cname[NLCLASS] = { "scalar", "vector", "mask",
	"predicate" };

static int64_t
vreg_bytes(const MachPreset *mp)
{
	return (int64_t)mp->sublanes * mp->lanes * 4;
}

static uint16_t
full_mask(const MachPreset *mp)
{
	return (uint16_t)(((1u << mp->sublanes) - 1) | 1u << 8);
}

static LIns *
emit(Sp *P, int op, int d, int a, int b, int c, int32_t imm)
{
	LIns in;

	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.d = d;
	in.a = a;
	in.b = b;
	in.c = c;
	in.imm = imm;
	in.target = -1;
	in.loc = P->loc;
	vec_push(P->f->arena, &P->out, in);
	return &P->out.v[P->out.n - 1];
}

/* A fresh scalar holding 0: the base of a spill slot's address. */
static int
zero(Sp *P)
{
	int b = llo_new_reg(P->f, LC_S);

	emit(P, OP_SMOVI, b, 0, 0, 0, 0);
	return b;
}

/* A spill access touches its own slot only (LIns.mlo/mhi). */
static void
tag(LIns *in, int32_t a, int32_t bytes)
{
	in->mlo = a;
	in->mhi = a + bytes;
}

/* A whole-vreg access of the slot at a. */
static void
vtag(Sp *P, LIns *in, int32_t a)
{
	const MachPreset *mp = P->f->mp;

	in->x = full_mask(mp);
	tag(in, a, (int32_t)(4 * mp->sublanes * mp->lanes));
}

static void
reload(Sp *P, LClass c, int t, int32_t a)
{
	int s, v, z;

	switch (c) {
	case LC_S:
		emit(P, OP_SMOVI, t, 0, 0, 0, 0);
		tag(emit(P, OP_SLD, t, t, 0, 0, a), a, 4);
		break;
	case LC_P:
		s = llo_new_reg(P->f, LC_S);
		emit(P, OP_SMOVI, s, 0, 0, 0, 0);
		tag(emit(P, OP_SLD, s, s, 0, 0, a), a, 4);
		emit(P, OP_SCMPINE, t, s, 0, 0, 0);
		break;
	case LC_V:
		vtag(P, emit(P, OP_VLD, t, zero(P), 0, 0, a), a);
		break;
	default:
		v = llo_new_reg(P->f, LC_V);
		z = llo_new_reg(P->f, LC_V);
		vtag(P, emit(P, OP_VLD, v, zero(P), 0, 0, a), a);
		emit(P, OP_VBCASTI, z, 0, 0, 0, 0);
		emit(P, OP_VCMPNEI, t, v, z, 0, 0);
		break;
	}
}

static void
store(Sp *P, LClass c, int t, int32_t a)
{
	int s, v, b;

	switch (c) {
	case LC_S:
		tag(emit(P, OP_SST, 0, zero(P), t, 0, a), a, 4);
		break;
	case LC_P:
		s = llo_new_reg(P->f, LC_S);
		emit(P, OP_SMOVI, s, 0, 0, 0, 0);
		emit(P, OP_SMOVI, s, 0, 0, 0, 1)->guard = t;
		tag(emit(P, OP_SST, 0, zero(P), s, 0, a), a, 4);
		break;
	case LC_V:
		vtag(P, emit(P, OP_VST, 0, zero(P), t, 0, a), a);
		break;
	default:
		v = llo_new_reg(P->f, LC_V);
		b = zero(P);
		emit(P, OP_VBCASTI, v, 0, 0, 0, 0);
		vtag(P, emit(P, OP_VST, 0, b, v, 0, a), a);
		emit(P, OP_VBCASTI, v, 0, 0, 0, 1);
		vtag(P, emit(P, OP_VSTMSK, 0, b, v, t, a), a);
		break;
	}
}

static int *
field(LIns *in, int k)
{
	switch (k) {
	case FLD_D: return &in->d;
	case FLD_A: return &in->a;
	case FLD_B: return &in->b;
	default: return &in->c;
	}
}

static int
spilled(const Sp *P, LClass c, int r)
{
	return c != LC_NONE && r > 0 && r < P->nold[c] &&
	    P->victim[c] && P->victim[c][r];
}

/* Records that in touches (c, r); returns its entry. */
static SRef *
note(Sp *P, SRef *ref, int *n, LClass c, int r)
{
	int i;

	for (i = 0; i < *n; i++)
		if (ref[i].c == c && ref[i].r == r)
			return &ref[i];
	ref[*n].c = c;
	ref[*n].r = r;
	ref[*n].t = llo_new_reg(P->f, c);
	ref[*n].use = ref[*n].def = 0;
	return &ref[(*n)++];
}

/* Appends in to P->out with its spill code around it. */
static void
rewrite(Sp *P, LIns in)
{
	static const int src[] = { FLD_A, FLD_B, FLD_C };
	SRef ref[5];
	int n = 0, i, k, *p;
	LClass c;

	P->loc = in.loc;
	if (spilled(P, LC_P, in.guard))
		note(P, ref, &n, LC_P, in.guard)->use = 1;
	for (k = 0; k < 3; k++) {
		c = llo_field_class(in.op, src[k]);
		if (spilled(P, c, *field(&in, src[k])))
			note(P, ref, &n, c, *field(&in, src[k]))->use = 1;
	}
	c = llo_field_class(in.op, FLD_D);
	if (spilled(P, c, in.d))
		note(P, ref, &n, c, in.d)->def = 1;
	for (i = 0; i < n; i++) {
		if (ref[i].use || (ref[i].def && (in.guard || in.gneg)))
			reload(P, ref[i].c, ref[i].t,
			    (int32_t)P->slot[ref[i].c][ref[i].r]);
		if (ref[i].c == LC_P && in.guard == ref[i].r)
			in.guard = ref[i].t;
		for (k = FLD_D; k <= FLD_C; k++) {
			p = field(&in, k);
			if (llo_field_class(in.op, k) == ref[i].c &&
			    *p == ref[i].r)
				*p = ref[i].t;
		}
	}
	P->loc = in.loc;
	vec_push(P->f->arena, &P->out, in);
	for (i = 0; i < n; i++)
		if (ref[i].def)
			store(P, ref[i].c, ref[i].t,
			    (int32_t)P->slot[ref[i].c][ref[i].r]);
}

/* Block b, in vliw_isel's order, with its spill code. */
static void
block(Sp *P, int b)
{
	LBlk *bk = &P->f->blk.v[b];
	LIns *orig = arena_alloc(P->f->arena, sizeof(LIns) *
	    (size_t)(bk->ins.n + 1));
	int i;

	for (i = 0; i < bk->ins.n; i++)
		orig[bk->ins.v[i].seq] = bk->ins.v[i];
	memset(&P->out, 0, sizeof P->out);
	for (i = 0; i < bk->ins.n; i++)
		rewrite(P, orig[i]);
	for (i = 0; i < P->out.n; i++)
		P->out.v[i].seq = i;
	bk->ins.v = P->out.v;
	bk->ins.n = P->out.n;
	bk->ins.cap = P->out.cap;
}

/* Gives every victim of class c a slot; -1 (reported) if it overflows. */
static int
slots(Sp *P, LClass c, Diag *d)
{
	LFunc *f = P->f;
	const MachPreset *mp = f->mp;
	int vec = c == LC_V || c == LC_M, r;
	int64_t sz = vec ? vreg_bytes(mp) : 4;
	int64_t *base = vec ? &f->spill_vaddr : &f->spill_saddr;
	int64_t *used = vec ? &f->spill_vmem : &f->spill_smem;
	int64_t from = vec ? f->vmem_base : f->smem_base;
	int64_t lim = vec ? vliw_vmem_limit(f) : (int64_t)mp->smem_bytes;

	P->nold[c] = f->nreg[c];
	P->slot[c] = arena_alloc(f->arena, sizeof(int64_t) *
	    (size_t)(f->nreg[c] + 1));
	for (r = 1; r < f->nreg[c]; r++) {
		P->slot[c][r] = -1;
		if (!P->victim[c] || !P->victim[c][r])
			continue;
		if (*used == 0)
			*base = (from + sz - 1) / sz * sz;
		P->slot[c][r] = *base + *used;
		*used += sz;
		f->nspill[c]++;
		if (*base + *used > lim || *base + *used > INT32_MAX) {
			diag_error(d, f->loc, "kernel '%s' needs more than %d "
			    "%s registers at once, and its %s spill area "
			    "(%lld bytes after the kernel's %lld) does not fit "
			    "in the %lld bytes of %s", f->name,
			    c == LC_V ? mp->nvreg : c == LC_M ? mp->nmreg :
			    c == LC_S ? mp->nsreg : mp->npreg - 1, cname[c],
			    vec ? "VMEM" : "SMEM", (long long)*used,
			    (long long)from, (long long)lim,
			    vec && lim < (int64_t)mp->vmem_bytes ?
			    "its vmem_limit" : arena_printf(f->arena,
			    "preset '%s'", mp->name));
			return -1;
		}
	}
	return 0;
}

int
vliw_spill(LFunc *f, char *const victim[NLCLASS], Diag *d)
{
	Sp P;
	int c, b;

	memset(&P, 0, sizeof P);
	P.f = f;
	P.victim = victim;
	for (c = 0; c < NLCLASS; c++)
		if (slots(&P, (LClass)c, d))
			return -1;
	for (b = 0; b < f->blk.n; b++)
		block(&P, b);
	return 0;
}

int64_t
vliw_vmem_limit(const LFunc *f)
{
	int64_t v = (int64_t)f->mp->vmem_bytes;

	return f->vmem_limit > 0 && f->vmem_limit < v ? f->vmem_limit : v;
}

void
vliw_spill_note(Buf *out, const LFunc *f)
{
	const MachPreset *mp = f->mp;

	buf_printf(out, "# %s: VMEM %lld", f->name, (long long)f->vmem_base);
	if (f->spill_vmem)
		buf_printf(out, " + spill %lld at %lld (%d vector, %d mask)",
		    (long long)f->spill_vmem, (long long)f->spill_vaddr,
		    f->nspill[LC_V], f->nspill[LC_M]);
	buf_printf(out, " of %lld bytes; SMEM %lld",
	    (long long)vliw_vmem_limit(f), (long long)f->smem_base);
	if (f->spill_smem)
		buf_printf(out, " + spill %lld at %lld (%d scalar, %d "
		    "predicate)", (long long)f->spill_smem,
		    (long long)f->spill_saddr, f->nspill[LC_S], f->nspill[LC_P]);
	buf_printf(out, " of %llu bytes\n", (unsigned long long)mp->smem_bytes);
}
