/*
 * check_isa.c - unit tests of machine/: the ISA table, the presets, the
 * instruction and bundle encoding, program checks and the program image
 * (round trips, and rejection of truncated or corrupted images).
 * Instructions are built from the MachOpInfo table, so new opcodes are
 * covered without touching this file.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

/* ------------------------------------------------------------ table */

START_TEST(test_mnemonics_unique)
{
	int i, j;

	for (i = 0; i < NMACHOP; i++) {
		ck_assert_ptr_nonnull(mach_opinfo[i].name);
		ck_assert_int_eq(mach_op_by_name(mach_opinfo[i].name), i);
		for (j = i + 1; j < NMACHOP; j++)
			ck_assert_str_ne(mach_opinfo[i].name,
			    mach_opinfo[j].name);
	}
	ck_assert_int_eq(mach_op_by_name("no.such.op"), -1);
	ck_assert_int_eq(mach_op_by_name(NULL), -1);
	ck_assert_int_eq(OP_NOP, 0);
}
END_TEST

/* Kinds allowed in each field. */
static int
kind_fits_field(int k, int f)
{
	switch (f) {
	case FLD_D:
		return k == K_S || k == K_V || k == K_M || k == K_P;
	case FLD_A: case FLD_B: case FLD_C:
		return k == K_S || k == K_V || k == K_M || k == K_P ||
		    k == K_F || k == K_MXU || k == K_XLU;
	case FLD_I:
		return k == K_IMM || k == K_LABEL;
	case FLD_X:
		return k == K_LANE || k == K_SUB || k == K_MMF;
	case FLD_XLO: case FLD_XHI:
		return k == K_SMASK || k == K_STRIDE;
	default:
		return 0;
	}
}

START_TEST(test_formats_consistent)
{
	const MachFmtInfo *fi;
	unsigned seen;
	int f, i;

	for (f = 0; f < NMACHFMT; f++) {
		fi = &mach_fmtinfo[f];
		ck_assert_ptr_nonnull(fi->name);
		ck_assert_int_le(fi->nopnd, MACH_MAXOPND);
		seen = 0;
		for (i = 0; i < MACH_MAXOPND; i++) {
			if (i >= fi->nopnd) {
				ck_assert_int_eq(fi->opnd[i].kind, K_NONE);
				continue;
			}
			ck_assert_msg(kind_fits_field(fi->opnd[i].kind,
			    fi->opnd[i].field), "format %s operand %d",
			    fi->name, i);
			ck_assert_msg(!(seen & 1u << fi->opnd[i].field),
			    "format %s uses a field twice", fi->name);
			seen |= 1u << fi->opnd[i].field;
		}
		ck_assert(!((seen & 1u << FLD_X) &&
		    (seen & (1u << FLD_XLO | 1u << FLD_XHI))));
	}
}
END_TEST

START_TEST(test_ops_consistent)
{
	const MachOpInfo *oi;
	int op;

	for (op = 0; op < NMACHOP; op++) {
		oi = &mach_opinfo[op];
		ck_assert_int_lt(oi->fmt, NMACHFMT);
		ck_assert_int_lt(oi->lat, NMACHLAT);
		ck_assert_ptr_nonnull(oi->synopsis);
		ck_assert_int_eq(oi->unit == U_NONE, op == OP_NOP);
		ck_assert_int_le(oi->unit, U_NONE);
		if (oi->flags & MACH_F_POP)
			ck_assert_int_eq(oi->unit, U_POP);
		if (oi->unit == U_POP)
			ck_assert(oi->flags & MACH_F_POP);
		if (oi->unit == U_EUP || oi->unit == U_XLU)
			ck_assert(oi->flags & MACH_F_PUSH);
		if (oi->flags & MACH_F_CTRL)
			ck_assert_int_eq(oi->unit, U_SALU);
		ck_assert_str_ne(mach_unit_name(oi->unit), "?");
		ck_assert_str_ne(mach_lat_name(oi->lat), "?");
	}
	/* the units MACHINE.md names all have ops */
	ck_assert_int_ge(mach_op_by_name("eup.tanh"), 0);
	ck_assert_int_ge(mach_op_by_name("xlu.xpose"), 0);
	ck_assert_int_ge(mach_op_by_name("mxu.pusht.bf16"), 0);
	ck_assert_int_ge(mach_op_by_name("dma.start"), 0);
	ck_assert_int_ge(mach_op_by_name("vst.msk"), 0);
	ck_assert_int_ge(mach_op_by_name("trace.begin"), 0);
}
END_TEST

/* ---------------------------------------------------------- presets */

START_TEST(test_presets)
{
	const MachPreset *v4 = mach_preset("v4"), *v5e = mach_preset("v5e");
	const MachPreset *v6e = mach_preset("v6e"), *sm = mach_preset("small");

	ck_assert_ptr_eq(mach_preset(NULL), v4);
	ck_assert_ptr_null(mach_preset("v9"));
	ck_assert_ptr_eq(mach_preset_at(0), v4);
	ck_assert_ptr_null(mach_preset_at(4));
	ck_assert_int_eq(v4->lanes, 128);
	ck_assert_int_eq(v4->sublanes, 8);
	ck_assert_int_eq(v4->nvreg, 32);
	ck_assert_int_eq(v4->slots[U_VALU], 2);
	ck_assert_int_eq(v4->slots[U_XLU], 2);
	ck_assert_int_eq(v4->nmxu, 4);
	ck_assert_int_eq(v4->mxu_dim, 128);
	ck_assert(v4->vmem_bytes == 16u << 20);
	ck_assert_int_eq(v4->hbm_bytes_per_cycle, 570);
	ck_assert_int_eq(v4->dma_latency, 500);
	ck_assert_int_eq(v4->nflag, 64);
	ck_assert_int_eq(v4->lat[LAT_VALU], 2);
	ck_assert_int_eq(v4->lat[LAT_XLU_REDUCE], 32);
	ck_assert_int_eq(mach_preset_nslot(v4), 14);
	/* peak: 4 MXU x 16384 MAC x 2 x 1.05 GHz = 137.6 TFLOP/s */
	ck_assert(v4->nmxu * v4->mxu_dim * v4->mxu_dim * 2 * v4->clock_ghz >
	    137.6e3 - 1 && v4->nmxu * v4->mxu_dim * v4->mxu_dim * 2 *
	    v4->clock_ghz < 137.7e3);
	ck_assert_int_eq(v5e->nvreg, 64);
	ck_assert_int_eq(v5e->slots[U_VLD], 3);
	ck_assert_int_eq(v5e->slots[U_VALU], 4);
	ck_assert_int_eq(v5e->hbm_bytes_per_cycle, 546);
	ck_assert(v5e->vmem_bytes == 128u << 20);
	ck_assert_int_eq(v6e->slots[U_VST], 2);
	ck_assert_int_eq(v6e->nmxu, 2);
	ck_assert_int_eq(v6e->mxu_dim, 256);
	ck_assert_int_eq(v6e->mxu_rows_per_cycle, 2);
	ck_assert(v6e->hbm_bytes == (uint64_t)32 << 30);
	ck_assert_int_eq(v6e->hbm_bytes_per_cycle, 937);
	ck_assert_int_eq(sm->lanes, 16);
	ck_assert_int_eq(sm->nvreg, 16);
	ck_assert_int_eq(sm->nmreg, 8);
	ck_assert_int_eq(sm->slots[U_MXU], 1);
	ck_assert_int_eq(sm->slots[U_XLU], 1);
	ck_assert_int_eq(sm->mxu_dim, 16);
	ck_assert(sm->vmem_bytes == 256u << 10 && sm->smem_bytes == 4096);
	ck_assert(sm->hbm_bytes == 4u << 20);
	ck_assert_int_eq(sm->hbm_bytes_per_cycle, 64);
	ck_assert_int_eq(sm->dma_engines, 2);
	ck_assert_int_eq(sm->dma_latency, 50);
	ck_assert_int_eq(sm->nflag, 16);
}
END_TEST

/* --------------------------------------------------------- encoding */

/* A valid value for operand kind k under mp, varying with seed. */
static int64_t
operand_value(const MachPreset *mp, int k, unsigned seed)
{
	switch (k) {
	case K_S: return seed * 7 % mp->nsreg;
	case K_V: return seed * 5 % mp->nvreg;
	case K_M: return seed * 3 % mp->nmreg;
	case K_P: return seed * 3 % mp->npreg;
	case K_F: return seed * 11 % mp->nflag;
	case K_MXU: return seed % mp->nmxu;
	case K_XLU: return seed % mp->nxlu;
	case K_IMM: return (int64_t)(int32_t)(seed * 2654435761u);
	case K_LABEL: return (int64_t)seed - 2;
	case K_SMASK: return (seed * 37 + 1) % (1 << mp->sublanes);
	case K_STRIDE: return seed * 29 % 256;
	case K_LANE: return seed * 13 % mp->lanes;
	case K_SUB: return seed % mp->sublanes;
	case K_MMF: return (seed & 3) | (seed % 3) << MACH_MM_PREC_SHIFT |
	    (seed % (mp->mxu_dim / mp->lanes)) << MACH_MM_KBLK_SHIFT;
	default: return 0;
	}
}

static MachIns
make_ins(const MachPreset *mp, int op, unsigned seed)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[op].fmt];
	MachIns in;
	int i;

	memset(&in, 0, sizeof in);
	in.op = (uint8_t)op;
	in.guard = (uint8_t)(seed % mp->npreg);
	in.gneg = (uint8_t)(seed / 2 % 2);
	for (i = 0; i < fi->nopnd; i++)
		mach_ins_set(&in, fi->opnd[i].field,
		    operand_value(mp, fi->opnd[i].kind, seed + (unsigned)i));
	return in;
}

START_TEST(test_encode_every_op)
{
	const MachPreset *mp;
	uint8_t buf[1024];
	MachIns in, out[32];
	char err[200];
	unsigned seed;
	int p, op, n;

	for (p = 0; (mp = mach_preset_at(p)) != NULL; p++)
		for (op = 1; op < NMACHOP; op++)
			for (seed = 0; seed < 16; seed++) {
				in = make_ins(mp, op, seed);
				ck_assert_msg(mach_ins_check(mp, &in, err,
				    sizeof err) == MACH_OK, "%s", err);
				ck_assert_int_eq(mach_encode_bundle(mp, &in, 1,
				    buf, err, sizeof err), MACH_OK);
				ck_assert_int_eq(mach_decode_bundle(mp, buf,
				    out, &n, err, sizeof err), MACH_OK);
				ck_assert_int_eq(n, 1);
				ck_assert_msg(memcmp(&in, &out[0],
				    sizeof in) == 0, "%s round trip",
				    mach_opinfo[op].name);
			}
}
END_TEST

/* Fills a bundle with as many ops as the slots allow, from op 'start'. */
static int
fill_bundle(const MachPreset *mp, int start, unsigned seed, MachIns *ins)
{
	int used[NMACHUNIT + 1] = { 0 };
	int k, op, u, n, nimm, nctrl;

	n = nimm = nctrl = 0;
	for (k = 0; k < NMACHOP; k++) {
		op = 1 + (start + k) % (NMACHOP - 1);
		u = mach_opinfo[op].unit;
		if (used[u] == mp->slots[u] || nimm == mp->nimm ||
		    (nctrl && (mach_opinfo[op].flags & MACH_F_CTRL)))
			continue;
		ins[n] = make_ins(mp, op, seed + (unsigned)k);
		if (mach_bundle_check(mp, ins, n + 1, NULL, 0) != MACH_OK)
			continue;
		nimm++;		/* at most one immediate per op */
		nctrl += (mach_opinfo[op].flags & MACH_F_CTRL) != 0;
		used[u]++;
		n++;
	}
	return n;
}

/* Stable sort by slot class: the order a decoded bundle has. */
static void
slot_order(MachIns *ins, int n)
{
	MachIns t;
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && mach_opinfo[ins[j - 1].op].unit >
		    mach_opinfo[ins[j].op].unit; j--) {
			t = ins[j];
			ins[j] = ins[j - 1];
			ins[j - 1] = t;
		}
}

START_TEST(test_encode_full_bundles)
{
	const MachPreset *mp;
	MachIns ins[32], out[32];
	uint8_t buf[1024];
	char err[200];
	int p, start, n, m;

	for (p = 0; (mp = mach_preset_at(p)) != NULL; p++)
		for (start = 0; start < NMACHOP; start += 3) {
			n = fill_bundle(mp, start, (unsigned)start, ins);
			ck_assert_int_ge(n, 2);
			ck_assert_int_eq(mach_encode_bundle(mp, ins, n, buf,
			    err, sizeof err), MACH_OK);
			ck_assert_int_eq(mach_decode_bundle(mp, buf, out, &m,
			    err, sizeof err), MACH_OK);
			ck_assert_int_eq(m, n);
			slot_order(ins, n);
			ck_assert(memcmp(ins, out, (size_t)n * sizeof *ins) == 0);
		}
}
END_TEST

START_TEST(test_bundle_limits)
{
	const MachPreset *mp = mach_preset("v4");
	MachIns ins[8];
	uint8_t buf[1024];
	int i, n;

	/* three VALU ops do not fit two VALU slots */
	for (i = 0; i < 3; i++)
		ins[i] = make_ins(mp, OP_VADDF, (unsigned)i);
	ck_assert_int_eq(mach_encode_bundle(mp, ins, 3, buf, NULL, 0),
	    MACH_EINVAL);
	ck_assert_int_eq(mach_encode_bundle(mp, ins, 2, buf, NULL, 0),
	    MACH_OK);
	/* seven distinct immediates exceed the pool of six */
	for (i = 0; i < 7; i++) {
		ins[i] = make_ins(mp, OP_SMOVI, 0);
		ins[i].imm = 100 + i;
	}
	ck_assert_int_eq(mach_bundle_check(mp, ins, 2, NULL, 0), MACH_OK);
	ck_assert_int_eq(mach_bundle_check(mp, ins, 3, NULL, 0), MACH_EINVAL);
	/* two control ops */
	ins[0] = make_ins(mp, OP_BR, 3);
	ins[1] = make_ins(mp, OP_HALT, 0);
	ck_assert_int_eq(mach_bundle_check(mp, ins, 2, NULL, 0), MACH_EINVAL);
	/* out-of-range register and stray field */
	ins[0] = make_ins(mp, OP_VADDF, 1);
	ins[0].d = (uint8_t)mp->nvreg;
	ck_assert_int_eq(mach_ins_check(mp, &ins[0], NULL, 0), MACH_EINVAL);
	ins[0] = make_ins(mp, OP_VADDF, 1);
	ins[0].imm = 5;
	ck_assert_int_eq(mach_ins_check(mp, &ins[0], NULL, 0), MACH_EINVAL);
	/* a word in a slot of the wrong class is rejected on decode */
	ins[0] = make_ins(mp, OP_VADDF, 1);
	ck_assert_int_eq(mach_encode_bundle(mp, ins, 1, buf, NULL, 0),
	    MACH_OK);
	memmove(buf, buf + 8 * 4, 8);	/* first VALU slot -> SALU slot */
	memset(buf + 8 * 4, 0, 8);
	ck_assert_int_eq(mach_decode_bundle(mp, buf, ins, &n, NULL, 0),
	    MACH_EINVAL);
}
END_TEST

/* ------------------------------------------------------------ image */

static MachProgram *
small_program(void)
{
	const MachPreset *mp;
	MachProgram *p;
	MachIns ins[16];
	MachOperand *o;
	int i, n;

	p = mach_program_new("small");
	ck_assert_ptr_nonnull(p);
	mp = p->mp;
	for (i = 0; i < 6; i++) {
		n = fill_bundle(mp, 7 * i, (unsigned)i, ins);
		for (int k = 0; k < n; k++)
			if (mach_opinfo[ins[k].op].fmt == FMT_L ||
			    mach_opinfo[ins[k].op].fmt == FMT_SL)
				ins[k].imm = -i;	/* to bundle 0 */
		ck_assert_int_eq(mach_program_add_bundle(p, ins, n), MACH_OK);
	}
	ins[0] = make_ins(mp, OP_HALT, 0);
	ck_assert_int_eq(mach_program_add_bundle(p, ins, 1), MACH_OK);
	p->ndata = 40;
	p->data = malloc(p->ndata);
	for (i = 0; i < 40; i++)
		p->data[i] = (uint8_t)(i * 3);
	p->nregion = 2;
	p->region = malloc(2 * sizeof *p->region);
	p->region[0] = (uint32_t)mach_program_str(p, "kernel");
	p->region[1] = (uint32_t)mach_program_str(p, "fusion.1");
	p->nopnd = 3;
	p->opnd = calloc(3, sizeof *p->opnd);
	for (i = 0; i < 3; i++) {
		o = &p->opnd[i];
		o->dtype = MACH_F32;
		o->rank = 2;
		o->shape[0] = 2;
		o->shape[1] = i + 1;
		o->bytes = 8 * (uint64_t)(i + 1);
		o->smem_addr = 16 * (uint32_t)i;
		o->hbm_addr = MACH_NOADDR;
	}
	p->opnd[0].name = (uint32_t)mach_program_str(p, "x");
	p->opnd[0].role = MACH_ROLE_IN;
	p->opnd[0].hbm_addr = 4096;
	p->opnd[1].name = (uint32_t)mach_program_str(p, "w");
	p->opnd[1].role = MACH_ROLE_CONST;
	p->opnd[1].data_off = 8;
	p->opnd[2].name = (uint32_t)mach_program_str(p, "y");
	p->opnd[2].role = MACH_ROLE_OUT;
	p->nentry = 1;
	p->entry = calloc(1, sizeof *p->entry);
	p->entry[0].name = (uint32_t)mach_program_str(p, "main");
	p->entry[0].nopnd = 3;
	p->entry[0].scratch_bytes = 1024;
	p->entry[0].scratch_smem = 64;
	p->entry[0].vmem_bytes = 4096;
	p->entry[0].smem_bytes = 128;
	p->ndebug = 2;
	p->debug = calloc(2, sizeof *p->debug);
	p->debug[0].file = (uint32_t)mach_program_str(p, "k.pk");
	p->debug[0].line = 3;
	p->debug[0].col = 5;
	p->debug[0].region = 0;
	p->debug[1] = p->debug[0];
	p->debug[1].bundle = 4;
	p->debug[1].line = 9;
	p->debug[1].region = MACH_NOREGION;
	return p;
}

static void
assert_same_program(const MachProgram *a, const MachProgram *b)
{
	uint32_t i;

	ck_assert_str_eq(a->preset, b->preset);
	ck_assert_ptr_eq(a->mp, b->mp);
	ck_assert_uint_eq(a->nbundle, b->nbundle);
	ck_assert_uint_eq(a->nins, b->nins);
	for (i = 0; i < a->nbundle; i++) {
		ck_assert_uint_eq(a->bundle[i].first, b->bundle[i].first);
		ck_assert_uint_eq(a->bundle[i].nins, b->bundle[i].nins);
	}
	ck_assert(memcmp(a->ins, b->ins, a->nins * sizeof *a->ins) == 0);
	ck_assert_uint_eq(a->ndata, b->ndata);
	ck_assert(memcmp(a->data, b->data, a->ndata) == 0);
	ck_assert_uint_eq(a->nentry, b->nentry);
	ck_assert(memcmp(a->entry, b->entry, a->nentry * sizeof *a->entry) == 0);
	ck_assert_uint_eq(a->nopnd, b->nopnd);
	ck_assert(memcmp(a->opnd, b->opnd, a->nopnd * sizeof *a->opnd) == 0);
	ck_assert_uint_eq(a->ndebug, b->ndebug);
	ck_assert(memcmp(a->debug, b->debug, a->ndebug * sizeof *a->debug) == 0);
	ck_assert_uint_eq(a->nregion, b->nregion);
	ck_assert(memcmp(a->region, b->region, a->nregion * 4) == 0);
	ck_assert_uint_eq(a->nstr, b->nstr);
	ck_assert(memcmp(a->str, b->str, a->nstr) == 0);
}

/* Puts each bundle's ops in slot order, as decoding gives them. */
static void
canonical(MachProgram *p)
{
	uint32_t i;

	for (i = 0; i < p->nbundle; i++)
		slot_order(p->ins + p->bundle[i].first, (int)p->bundle[i].nins);
}

START_TEST(test_image_round_trip)
{
	MachProgram *p, *q;
	void *img, *img2;
	size_t len, len2;
	char err[200];

	p = small_program();
	canonical(p);
	ck_assert_msg(mach_program_check(p, err, sizeof err) == MACH_OK, "%s",
	    err);
	ck_assert_int_eq(mach_image_write(p, &img, &len, err, sizeof err),
	    MACH_OK);
	ck_assert_msg(mach_image_read(img, len, &q, err, sizeof err) ==
	    MACH_OK, "%s", err);
	assert_same_program(p, q);
	ck_assert_str_eq(mach_program_strat(q, q->region[1]), "fusion.1");
	ck_assert_int_eq(mach_image_write(q, &img2, &len2, err, sizeof err),
	    MACH_OK);
	ck_assert_uint_eq(len, len2);
	ck_assert(memcmp(img, img2, len) == 0);
	free(img);
	free(img2);
	mach_program_free(p);
	mach_program_free(q);
}
END_TEST

START_TEST(test_program_check_rejects)
{
	MachProgram *p;
	void *img;
	size_t len;

	p = small_program();
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_OK);
	p->ins[p->bundle[6].first].imm = 1;	/* not used by halt */
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	p->ins[p->bundle[6].first].imm = 0;
	p->opnd[0].name = 2;			/* inside "kernel" */
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	ck_assert_int_eq(mach_image_write(p, &img, &len, NULL, 0),
	    MACH_EINVAL);
	ck_assert_ptr_null(img);
	p->opnd[0].name = 0;
	p->opnd[1].data_off = 36;		/* runs past the data */
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	p->opnd[1].data_off = 8;
	p->debug[1].bundle = 0;			/* not increasing */
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	p->debug[1].bundle = 4;
	p->entry[0].vmem_bytes = p->mp->vmem_bytes + 1;	/* over the preset */
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	p->entry[0].vmem_bytes = p->mp->vmem_bytes;
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_OK);
	p->entry[0].smem_bytes = p->mp->smem_bytes + 1;
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	p->entry[0].smem_bytes = 0;
	p->entry[0].pc = p->nbundle;
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	mach_program_free(p);
}
END_TEST

START_TEST(test_branch_targets)
{
	MachProgram *p = mach_program_new("v4");
	MachIns br;

	memset(&br, 0, sizeof br);
	br.op = OP_BR;
	br.imm = 1;
	ck_assert_int_eq(mach_program_add_bundle(p, &br, 1), MACH_OK);
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_EINVAL);
	br.imm = -1;
	ck_assert_int_eq(mach_program_add_bundle(p, &br, 1), MACH_OK);
	p->ins[0].imm = 1;
	ck_assert_int_eq(mach_program_check(p, NULL, 0), MACH_OK);
	mach_program_free(p);
}
END_TEST

START_TEST(test_image_truncated)
{
	MachProgram *p, *q;
	size_t len, n;
	char err[200];
	uint8_t *cut;
	void *img;

	p = small_program();
	ck_assert_int_eq(mach_image_write(p, &img, &len, NULL, 0), MACH_OK);
	for (n = 0; n < len; n++) {
		cut = malloc(n ? n : 1);	/* exact size: ASan sees over-reads */
		memcpy(cut, img, n);
		ck_assert_int_ne(mach_image_read(cut, n, &q, err, sizeof err),
		    MACH_OK);
		ck_assert_ptr_null(q);
		free(cut);
	}
	free(img);
	mach_program_free(p);
}
END_TEST

START_TEST(test_image_corrupted)
{
	static const uint8_t flips[] = { 0x01, 0x10, 0x80, 0xff };
	MachProgram *p, *q;
	size_t len, i, k, nok;
	uint8_t *bad;
	void *img;

	p = small_program();
	ck_assert_int_eq(mach_image_write(p, &img, &len, NULL, 0), MACH_OK);
	bad = malloc(len);
	nok = 0;
	for (i = 0; i < len; i++)
		for (k = 0; k < sizeof flips; k++) {
			memcpy(bad, img, len);
			bad[i] ^= flips[k];
			if (mach_image_read(bad, len, &q, NULL, 0) != MACH_OK) {
				ck_assert_ptr_null(q);
				continue;
			}
			/* accepted: it must be a valid program */
			ck_assert_int_eq(mach_program_check(q, NULL, 0),
			    MACH_OK);
			mach_program_free(q);
			nok++;
		}
	/* bad magic, version, preset and sizes are always caught */
	memcpy(bad, img, len);
	memcpy(bad, "XALLASIM", 8);
	ck_assert_int_eq(mach_image_read(bad, len, &q, NULL, 0), MACH_EFORMAT);
	memcpy(bad, img, len);
	bad[8] = 9;
	ck_assert_int_eq(mach_image_read(bad, len, &q, NULL, 0),
	    MACH_EVERSION);
	memcpy(bad, img, len);
	bad[16] = 'x';
	ck_assert_int_eq(mach_image_read(bad, len, &q, NULL, 0), MACH_EPRESET);
	ck_assert_uint_lt(nok, len * sizeof flips / 2);
	free(bad);
	free(img);
	mach_program_free(p);
}
END_TEST

/* Several random bytes changed at once, deterministic (an LCG). */
START_TEST(test_image_random_damage)
{
	MachProgram *p, *q;
	uint32_t r = 12345;
	size_t len, i;
	uint8_t *bad;
	void *img;
	int t, k;

	p = small_program();
	ck_assert_int_eq(mach_image_write(p, &img, &len, NULL, 0), MACH_OK);
	bad = malloc(len);
	for (t = 0; t < 4000; t++) {
		memcpy(bad, img, len);
		for (k = 0; k < 1 + t % 8; k++) {
			r = r * 1103515245u + 12345u;
			i = (r >> 8) % len;
			r = r * 1103515245u + 12345u;
			bad[i] = (uint8_t)(r >> 16);
		}
		if (mach_image_read(bad, len, &q, NULL, 0) == MACH_OK) {
			ck_assert_int_eq(mach_program_check(q, NULL, 0),
			    MACH_OK);
			mach_program_free(q);
		}
	}
	free(bad);
	free(img);
	mach_program_free(p);
}
END_TEST

static Suite *
isa_suite(void)
{
	Suite *s = suite_create("isa");
	TCase *t = tcase_create("isa");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_mnemonics_unique);
	tcase_add_test(t, test_formats_consistent);
	tcase_add_test(t, test_ops_consistent);
	tcase_add_test(t, test_presets);
	tcase_add_test(t, test_encode_every_op);
	tcase_add_test(t, test_encode_full_bundles);
	tcase_add_test(t, test_bundle_limits);
	tcase_add_test(t, test_image_round_trip);
	tcase_add_test(t, test_program_check_rejects);
	tcase_add_test(t, test_branch_targets);
	tcase_add_test(t, test_image_truncated);
	tcase_add_test(t, test_image_corrupted);
	tcase_add_test(t, test_image_random_damage);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(isa_suite());
	int nfail;

	srunner_run_all(r, CK_NORMAL);
	nfail = srunner_ntests_failed(r);
	srunner_free(r);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
