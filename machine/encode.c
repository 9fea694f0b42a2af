/*
 * encode.c - the fixed-width binary form of instructions and bundles
 * (layout drawn in machine/encoding.h).  Encoding checks the bundle
 * first; decoding checks every bit it reads, so a decoded bundle always
 * passes mach_bundle_check().
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/machine.h"
#include "machine/encoding.h"

size_t
mach_bundle_bytes(const MachPreset *mp)
{
	return (size_t)mach_preset_nslot(mp) * 8 + (size_t)mp->nimm * 4;
}

uint64_t
mach_encode_ins(const MachIns *in, unsigned immslot)
{
	return SETF(OP, in->op) | SETF(G, in->guard) | SETF(N, in->gneg) |
	    SETF(D, in->d) | SETF(A, in->a) | SETF(B, in->b) |
	    SETF(C, in->c) | SETF(I, immslot) | SETF(X, in->x);
}

void
mach_decode_ins(uint64_t w, MachIns *out, unsigned *immslot)
{
	memset(out, 0, sizeof *out);
	out->op = (uint8_t)GETF(w, OP);
	out->guard = (uint8_t)GETF(w, G);
	out->gneg = (uint8_t)GETF(w, N);
	out->d = (uint8_t)GETF(w, D);
	out->a = (uint8_t)GETF(w, A);
	out->b = (uint8_t)GETF(w, B);
	out->c = (uint8_t)GETF(w, C);
	out->x = (uint16_t)GETF(w, X);
	*immslot = GETF(w, I);
}

/* Slot index of value v in pool[0..*n), adding it if new. */
static unsigned
pool_slot(int32_t *pool, int *n, int32_t v)
{
	int i;

	for (i = 0; i < *n; i++)
		if (pool[i] == v)
			return (unsigned)i;
	pool[*n] = v;
	return (unsigned)(*n)++;
}

/* First slot position of each class, in MachUnit order. */
static void
slot_bases(const MachPreset *mp, int base[NMACHUNIT + 1])
{
	int u;

	base[0] = 0;
	for (u = 0; u < NMACHUNIT; u++)
		base[u + 1] = base[u] + mp->slots[u];
}

int
mach_encode_bundle(const MachPreset *mp, const MachIns *ins, int n,
    uint8_t *out, char *err, size_t errlen)
{
	int base[NMACHUNIT + 1], fill[NMACHUNIT] = { 0 };
	int32_t pool[16];
	int i, u, npool;
	unsigned slot;

	if (mp->nimm > 16 || mach_bundle_check(mp, ins, n, err, errlen))
		return MACH_EINVAL;
	memset(out, 0, mach_bundle_bytes(mp));
	slot_bases(mp, base);
	npool = 0;
	for (i = 0; i < n; i++) {
		slot = mach_op_uses_pool(ins[i].op) ? pool_slot(pool, &npool,
		    ins[i].imm) : 0;
		u = mach_opinfo[ins[i].op].unit;
		wr64(out + 8 * (base[u] + fill[u]++),
		    mach_encode_ins(&ins[i], slot));
	}
	for (i = 0; i < npool; i++)
		wr32(out + 8 * base[NMACHUNIT] + 4 * i, (uint32_t)pool[i]);
	return MACH_OK;
}

/* Decodes the word at slot position pos of class u into *in. */
static int
decode_slot(const MachPreset *mp, uint64_t w, int u, int pos,
    const uint8_t *pool, MachIns *in, unsigned *used, char *err,
    size_t errlen)
{
	unsigned slot;

	mach_decode_ins(w, in, &slot);
	if (in->op >= NMACHOP || in->op == OP_NOP)
		return mach_errf(MACH_EINVAL, err, errlen, "slot %d: bad opcode %u", pos, in->op);
	if (mach_opinfo[in->op].unit != u)
		return mach_errf(MACH_EINVAL, err, errlen, "slot %d: %s in a %s slot", pos,
		    mach_opinfo[in->op].name, mach_unit_name(u));
	if (GETF(w, RSV))
		return mach_errf(MACH_EINVAL, err, errlen, "slot %d: reserved bits set", pos);
	if (!mach_op_uses_pool(in->op)) {
		if (slot)
			return mach_errf(MACH_EINVAL, err, errlen, "slot %d: stray pool index",
			    pos);
		return MACH_OK;
	}
	if (slot >= (unsigned)mp->nimm)
		return mach_errf(MACH_EINVAL, err, errlen, "slot %d: pool index %u out of range",
		    pos, slot);
	in->imm = (int32_t)rd32(pool + 4 * slot);
	*used |= 1u << slot;
	return MACH_OK;
}

int
mach_decode_bundle(const MachPreset *mp, const uint8_t *in, MachIns *ins,
    int *n, char *err, size_t errlen)
{
	int base[NMACHUNIT + 1], u, pos, k;
	const uint8_t *pool;
	unsigned used;
	uint64_t w;

	slot_bases(mp, base);
	pool = in + 8 * base[NMACHUNIT];
	used = 0;
	k = 0;
	*n = 0;
	for (u = 0; u < NMACHUNIT; u++)
		for (pos = base[u]; pos < base[u + 1]; pos++) {
			w = rd64(in + 8 * pos);
			if (w == 0)
				continue;
			if (decode_slot(mp, w, u, pos, pool, &ins[k], &used,
			    err, errlen))
				return MACH_EINVAL;
			k++;
		}
	for (pos = 0; pos < mp->nimm; pos++)
		if (!(used & 1u << pos) && rd32(pool + 4 * pos))
			return mach_errf(MACH_EINVAL, err, errlen, "unused pool word %d is set",
			    pos);
	*n = k;
	return mach_bundle_check(mp, ins, k, err, errlen);
}
