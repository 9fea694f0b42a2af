/*
 * check_asm.c - unit tests of the assembler and disassembler
 * (machine/asm*.c, machine/disasm.c): round trips over every opcode of
 * every preset, every directive, each diagnostic with its exact text and
 * line:col, slot and immediate-pool limits per preset, damaged input,
 * and the inputs the fuzz targets once found (tests/fuzz/regress-asm,
 * tests/fuzz/regress-image).
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"

static char err[65536];

/* ---------------------------------------------------------- helpers */

static MachProgram *
assemble(const char *src, const char *preset)
{
	MachProgram *p = NULL;
	int rc;

	rc = mach_asm("t.s", src, strlen(src), preset, &p, err, sizeof err);
	ck_assert_msg(rc == MACH_OK, "assembly failed:\n%s\n--- source:\n%s",
	    err, src);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Assembles src, expecting failure; returns the diagnostics. */
static const char *
reject(const char *src, const char *preset)
{
	MachProgram *p = (MachProgram *)1;
	int rc;

	rc = mach_asm("t.s", src, strlen(src), preset, &p, err, sizeof err);
	ck_assert_msg(rc == MACH_EINVAL, "accepted:\n%s", src);
	ck_assert_ptr_null(p);
	return err;
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
	for (i = 0; i < a->nins; i++)
		ck_assert_msg(memcmp(&a->ins[i], &b->ins[i], sizeof *a->ins) ==
		    0, "op %u (%s) differs", i, mach_opinfo[a->ins[i].op].name);
	ck_assert_uint_eq(a->ndata, b->ndata);
	ck_assert(a->ndata == 0 || memcmp(a->data, b->data, a->ndata) == 0);
	ck_assert_uint_eq(a->nentry, b->nentry);
	ck_assert(a->nentry == 0 ||
	    memcmp(a->entry, b->entry, a->nentry * sizeof *a->entry) == 0);
	ck_assert_uint_eq(a->nopnd, b->nopnd);
	ck_assert(a->nopnd == 0 ||
	    memcmp(a->opnd, b->opnd, a->nopnd * sizeof *a->opnd) == 0);
	ck_assert_uint_eq(a->ndebug, b->ndebug);
	ck_assert(a->ndebug == 0 ||
	    memcmp(a->debug, b->debug, a->ndebug * sizeof *a->debug) == 0);
	ck_assert_uint_eq(a->nregion, b->nregion);
	ck_assert(a->nregion == 0 ||
	    memcmp(a->region, b->region, a->nregion * 4) == 0);
	ck_assert_uint_eq(a->nstr, b->nstr);
	ck_assert(memcmp(a->str, b->str, a->nstr) == 0);
}

/* Disassembles p, assembles the text, and checks program and image. */
static void
round_trip(const MachProgram *p)
{
	void *img1, *img2;
	size_t len, n1, n2;
	MachProgram *q;
	char *text;

	ck_assert_int_eq(mach_disasm(p, &text, &len), MACH_OK);
	ck_assert_uint_eq(strlen(text), len);
	q = assemble(text, NULL);
	assert_same_program(p, q);
	ck_assert_int_eq(mach_image_write(p, &img1, &n1, err, sizeof err),
	    MACH_OK);
	ck_assert_int_eq(mach_image_write(q, &img2, &n2, err, sizeof err),
	    MACH_OK);
	ck_assert_uint_eq(n1, n2);
	ck_assert(memcmp(img1, img2, n1) == 0);
	free(img1);
	free(img2);
	free(text);
	mach_program_free(q);
}

/* A valid value for operand kind k under mp, varying with seed. */
static int64_t
operand_value(const MachPreset *mp, int k, unsigned seed)
{
	static const int32_t imms[] = { 0, 1, -1, 255, 256, 65535, -65536,
	    0x3fc00000, (int32_t)0xbf800000, INT32_MIN, INT32_MAX,
	    0x7f800000, (int32_t)0xffc00000, 0x12345678, 0x00800000, 7 };

	switch (k) {
	case K_S: return seed * 7 % mp->nsreg;
	case K_V: return seed * 5 % mp->nvreg;
	case K_M: return seed * 3 % mp->nmreg;
	case K_P: return seed * 3 % mp->npreg;
	case K_F: return seed * 11 % mp->nflag;
	case K_MXU: return seed % mp->nmxu;
	case K_XLU: return seed % mp->nxlu;
	case K_IMM: return imms[seed % 16];
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
make_ins(const MachPreset *mp, int op, unsigned seed, uint32_t bundle,
    uint32_t nbundle)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[op].fmt];
	MachIns in;
	int i;

	memset(&in, 0, sizeof in);
	in.op = (uint8_t)op;
	in.guard = (uint8_t)(seed % mp->npreg);
	in.gneg = (uint8_t)(seed / 2 % 2);
	for (i = 0; i < fi->nopnd; i++)
		mach_ins_set(&in, fi->opnd[i].field, fi->opnd[i].kind == K_LABEL
		    ? (int64_t)((seed * 31 + bundle) % nbundle) - bundle :
		    operand_value(mp, fi->opnd[i].kind, seed + (unsigned)i));
	return in;
}

/* ------------------------------------------------------ round trips */

/* One bundle per opcode and seed, with two regions for trace markers
   and a message for traps (the assembler's string order: messages
   first). */
START_TEST(test_every_op_round_trip)
{
	const MachPreset *mp;
	MachProgram *p;
	MachIns in;
	unsigned seed, nseed = 16;
	uint32_t nb = (NMACHOP - 1) * nseed, b;
	int k, op;
	int64_t msg;

	for (k = 0; (mp = mach_preset_at(k)) != NULL; k++) {
		p = mach_program_new(mp->name);
		msg = mach_program_str(p, "index %0 \"x\" 100%% \\ %12");
		for (op = 1; op < NMACHOP; op++)
			for (seed = 0; seed < nseed; seed++) {
				b = p->nbundle;
				in = make_ins(mp, op, seed, b, nb);
				if (op == OP_TBEGIN || op == OP_TEND)
					in.imm = (int32_t)(seed % 4);
				if (op == OP_TRAP)
					in.imm = seed % 2 ? (int32_t)msg : 0;
				ck_assert_int_eq(mach_program_add_bundle(p, &in,
				    1), MACH_OK);
			}
		p->nregion = 2;
		p->region = malloc(2 * sizeof *p->region);
		p->region[0] = (uint32_t)mach_program_str(p, "kernel");
		p->region[1] = (uint32_t)mach_program_str(p, "fusion 1.x");
		ck_assert_msg(mach_program_check(p, err, sizeof err) == MACH_OK,
		    "%s", err);
		round_trip(p);
		mach_program_free(p);
	}
}
END_TEST

/* Fills a bundle with as many ops as the slots and the pool allow. */
static int
fill_bundle(const MachPreset *mp, int start, unsigned seed, MachIns *ins,
    uint32_t b, uint32_t nb)
{
	int used[NMACHUNIT + 1] = { 0 };
	int k, op, u, n = 0, nctrl = 0;

	for (k = 0; k < NMACHOP; k++) {
		op = 1 + (start + k) % (NMACHOP - 1);
		u = mach_opinfo[op].unit;
		if (used[u] == mp->slots[u] ||
		    (nctrl && (mach_opinfo[op].flags & MACH_F_CTRL)))
			continue;
		ins[n] = make_ins(mp, op, seed + (unsigned)k, b, nb);
		if (op == OP_TBEGIN || op == OP_TEND)
			ins[n].imm = 0;
		if (mach_bundle_check(mp, ins, n + 1, NULL, 0) != MACH_OK)
			continue;
		nctrl += (mach_opinfo[op].flags & MACH_F_CTRL) != 0;
		used[u]++;
		n++;
	}
	return n;
}

/* Stable sort by slot class (the order the assembler stores). */
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

/* Full bundles, every table, data of odd length. */
START_TEST(test_full_program_round_trip)
{
	const MachPreset *mp;
	MachProgram *p;
	MachIns ins[64];
	MachOperand *o;
	uint32_t b, nb = 40, i;
	int k, n;

	for (k = 0; (mp = mach_preset_at(k)) != NULL; k++) {
		p = mach_program_new(mp->name);
		for (b = 0; b < nb; b++) {
			n = fill_bundle(mp, (int)(b * 7), b, ins, b, nb);
			ck_assert_int_ge(n, 8);
			slot_order(ins, n);
			mach_program_add_bundle(p, ins, b % 9 == 4 ? 0 : n);
		}
		p->ndata = 43;
		p->data = malloc(p->ndata);
		for (i = 0; i < p->ndata; i++)
			p->data[i] = (uint8_t)(i * 37 + 5);
		p->nregion = 1;
		p->region = malloc(sizeof *p->region);
		p->region[0] = (uint32_t)mach_program_str(p, "r\"1\\");
		p->nentry = 2;
		p->entry = calloc(2, sizeof *p->entry);
		/* strings in the assembler's order: regions, entries
		 * each followed by its operands, files */
		p->entry[0].name = (uint32_t)mach_program_str(p, "main");
		p->entry[1].name = 0;
		p->entry[0].pc = 3;
		p->entry[0].nopnd = 2;
		p->entry[0].scratch_bytes = 4096;
		p->entry[0].scratch_smem = 32;
		p->entry[1].first_opnd = 2;
		p->entry[1].nopnd = 1;
		p->nopnd = 3;
		p->opnd = calloc(3, sizeof *p->opnd);
		for (i = 0; i < 3; i++) {
			o = &p->opnd[i];
			o->dtype = (uint8_t)(i == 1 ? MACH_BF16 : MACH_F32);
			o->rank = (uint8_t)(i == 2 ? 0 : 2);
			o->shape[0] = i == 2 ? 0 : 4;
			o->shape[1] = i == 2 ? 0 : 3;
			o->bytes = i == 2 ? 4 : i == 1 ? 24 : 48;
			o->smem_addr = 8 * i;
			o->hbm_addr = MACH_NOADDR;
		}
		p->opnd[0].name = (uint32_t)mach_program_str(p, "x");
		p->opnd[0].role = MACH_ROLE_INOUT;
		p->opnd[0].hbm_addr = 1024;
		p->opnd[1].name = (uint32_t)mach_program_str(p, "w");
		p->entry[1].name = (uint32_t)mach_program_str(p, "second one");
		p->opnd[1].role = MACH_ROLE_CONST;
		p->opnd[1].data_off = 16;
		p->opnd[2].name = (uint32_t)mach_program_str(p, "n");
		p->opnd[2].role = MACH_ROLE_SMEM;
		p->ndebug = 3;
		p->debug = calloc(3, sizeof *p->debug);
		p->debug[0].file = (uint32_t)mach_program_str(p, "dir/k 1.pk");
		p->debug[0].line = 3;
		p->debug[0].col = 9;
		p->debug[0].region = 0;
		p->debug[1] = p->debug[0];
		p->debug[1].bundle = 5;
		p->debug[1].region = MACH_NOREGION;
		p->debug[2] = p->debug[1];
		p->debug[2].bundle = 6;
		p->debug[2].line = 4000000000u;
		ck_assert_msg(mach_program_check(p, err, sizeof err) == MACH_OK,
		    "%s", err);
		round_trip(p);
		mach_program_free(p);
	}
}
END_TEST

/* Assembly -> disassembly -> assembly keeps the program. */
/* Bundles appended one at a time, some strings: the arrays' room
   doubles (a dozen reallocations for 20000 bundles, not one per
   bundle), the contents stay whole, and a program whose arrays hold
   exactly their counts (cap 0, as the image reader allocates) grows
   the same way. */
static void
append(MachProgram *p, uint32_t from, uint32_t to, uint32_t *changes)
{
	MachIns ins[3];
	uint32_t b, i, cap = p->cap_bundle;

	memset(ins, 0, sizeof ins);
	for (b = from; b < to; b++) {
		for (i = 0; i < 3; i++)
			ins[i].imm = (int32_t)(b * 3 + i);
		ck_assert_int_eq(mach_program_add_bundle(p, ins, (int)(b % 4 %
		    3)), MACH_OK);
		ck_assert_uint_ge(p->cap_bundle, p->nbundle);
		if (p->cap_bundle != cap)
			(*changes)++;
		cap = p->cap_bundle;
	}
}

static void
assert_appended(const MachProgram *p)
{
	uint32_t b, i, next = 0;

	for (b = 0; b < p->nbundle; b++) {
		ck_assert_uint_eq(p->bundle[b].first, next);
		ck_assert_uint_eq(p->bundle[b].nins, b % 4 % 3);
		for (i = 0; i < p->bundle[b].nins; i++)
			ck_assert_int_eq(p->ins[next + i].imm,
			    (int32_t)(b * 3 + i));
		next += p->bundle[b].nins;
	}
	ck_assert_uint_eq(next, p->nins);
}

START_TEST(test_append_grows_by_doubling)
{
	MachProgram *p = mach_program_new("small");
	uint32_t changes = 0, cap, i;
	int64_t a, b;

	append(p, 0, 20000, &changes);
	ck_assert_uint_le(changes, 12);	/* 16, 32, ... 32768 */
	assert_appended(p);
	p->bundle = realloc(p->bundle, p->nbundle * sizeof *p->bundle);
	p->ins = realloc(p->ins, p->nins * sizeof *p->ins);
	p->cap_bundle = p->cap_ins = 0;
	changes = 0;
	append(p, 20000, 20100, &changes);
	ck_assert_uint_eq(changes, 1);
	ck_assert_uint_eq(p->cap_bundle, 40000);
	assert_appended(p);
	a = mach_program_str(p, "first");
	b = mach_program_str(p, "second");
	ck_assert_int_eq(b, a + 6);
	for (changes = 0, cap = p->cap_str, i = 0; i < 10000; i++) {
		ck_assert_int_eq(mach_program_str(p, "third"), b + 7 + 6 * i);
		changes += p->cap_str != cap;
		cap = p->cap_str;
	}
	ck_assert_uint_le(changes, 13);	/* 16 ... 65536 */
	ck_assert_str_eq(mach_program_strat(p, (uint32_t)a), "first");
	ck_assert_str_eq(mach_program_strat(p, (uint32_t)b), "second");
	mach_program_free(p);
}
END_TEST

START_TEST(test_text_round_trip)
{
	static const char src[] =
	    "# every form of the syntax\n"
	    ".preset small\n"
	    ".region kernel\n"
	    ".entry main scratch=64 scratch_smem=32 vmem=2048 smem=256\n"
	    ".operand x in f32[16,16] smem=0\n"
	    ".operand w const bf16[2] smem=8 data=wts\n"
	    "top:  .loc \"k.pk\" 1 2 region=kernel\n"
	    "      smovi s1, -5 ; sld s2, [s1 - 4] // comment\n"
	    "      {\n"
	    "        vld v1, [s2 + 32], mask=0x0f, stride=0\n"
	    "        vbcasti v2, -2.5f ; vbcasti v3, 0x7fc00000\n"
	    "      }\n"
	    "      (!p2) br top ; trace.begin kernel\n"
	    "      xlu.bcast xlu0, v1, lane=15 ; mxu.mm.bf16 mxu0, v1, hold, "
	    "kblk=0, prec=high\n"
	    "      br .-1\n"
	    "      halt\n"
	    ".data\n"
	    "wts: .bf16 1.0, -0.5\n";
	MachProgram *p = assemble(src, NULL);

	ck_assert_uint_eq(p->nbundle, 6);
	ck_assert_int_eq(p->ins[p->bundle[3].first].imm, 0);	/* .-1 */
	ck_assert_int_eq(p->ins[p->bundle[2].first].op, OP_BR);
	ck_assert_int_eq(p->ins[p->bundle[2].first].imm, -2);
	ck_assert_int_eq(p->ins[p->bundle[2].first].gneg, 1);
	round_trip(p);
	mach_program_free(p);
}
END_TEST

/* ------------------------------------------------------- directives */

START_TEST(test_directives)
{
	static const char src[] =
	    ".preset v5e\n"
	    ".region \"kernel\"\n"
	    ".region fusion.2\n"
	    "\n"
	    ".data\n"
	    "a:  .word 1, -2, 0xdeadbeef\n"
	    "    .byte 7\n"
	    "b:  .float 1.5, -2\n"
	    "    .bf16 1.0, 3\n"
	    "    .zero 3\n"
	    "    .align 8\n"
	    "c:  .byte 255, -1\n"
	    ".text\n"
	    ".entry first pc=two scratch=4096 scratch_smem=128 vmem=8192 "
	    "smem=64\n"
	    ".operand x in f32[8,128] smem=0\n"
	    ".operand w const f32[2] smem=8 data=b\n"
	    ".operand y inout i32[] smem=16 hbm=8192\n"
	    ".operand k smem u8[4,1] smem=24\n"
	    ".entry second\n"
	    "one: .loc \"a b.pk\" 7 3\n"
	    "     .loc file.pk 9 4 region=fusion.2\n"
	    "     nop\n"
	    "two: halt\n"
	    ".loc file.pk 10 1 region=kernel\n"
	    "     halt\n";
	static const uint8_t data[] = {
	    1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xef, 0xbe, 0xad, 0xde,
	    7, 0, 0, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0, 0x80, 0x3f,
	    0x40, 0x40, 0, 0, 0, 0, 255, 255 };
	MachProgram *p = assemble(src, "small");
	const MachOperand *o;

	ck_assert_str_eq(p->preset, "v5e");
	ck_assert_uint_eq(p->nregion, 2);
	ck_assert_str_eq(mach_program_strat(p, p->region[1]), "fusion.2");
	ck_assert_uint_eq(p->ndata, sizeof data);
	ck_assert(memcmp(p->data, data, sizeof data) == 0);
	ck_assert_uint_eq(p->nentry, 2);
	ck_assert_str_eq(mach_program_strat(p, p->entry[0].name), "first");
	ck_assert_uint_eq(p->entry[0].pc, 1);
	ck_assert_uint_eq(p->entry[0].scratch_bytes, 4096);
	ck_assert_uint_eq(p->entry[0].scratch_smem, 128);
	ck_assert_uint_eq(p->entry[0].vmem_bytes, 8192);
	ck_assert_uint_eq(p->entry[0].smem_bytes, 64);
	ck_assert_uint_eq(p->entry[1].vmem_bytes, 0);	/* not declared */
	ck_assert_uint_eq(p->entry[0].nopnd, 4);
	ck_assert_uint_eq(p->entry[1].pc, 0);
	ck_assert_uint_eq(p->entry[1].first_opnd, 4);
	ck_assert_uint_eq(p->entry[1].nopnd, 0);
	o = &p->opnd[0];
	ck_assert_int_eq(o->role, MACH_ROLE_IN);
	ck_assert_int_eq(o->dtype, MACH_F32);
	ck_assert_int_eq(o->rank, 2);
	ck_assert(o->shape[0] == 8 && o->shape[1] == 128 && o->shape[2] == 0);
	ck_assert_uint_eq(o->bytes, 4096);
	ck_assert(o->hbm_addr == MACH_NOADDR);
	ck_assert_int_eq(p->opnd[1].role, MACH_ROLE_CONST);
	ck_assert_uint_eq(p->opnd[1].data_off, 16);
	ck_assert_uint_eq(p->opnd[1].bytes, 8);
	ck_assert_int_eq(p->opnd[2].role, MACH_ROLE_INOUT);
	ck_assert_int_eq(p->opnd[2].rank, 0);
	ck_assert_uint_eq(p->opnd[2].bytes, 4);
	ck_assert_uint_eq(p->opnd[2].hbm_addr, 8192);
	ck_assert_int_eq(p->opnd[3].role, MACH_ROLE_SMEM);
	ck_assert_int_eq(p->opnd[3].dtype, MACH_U8);
	ck_assert_uint_eq(p->opnd[3].smem_addr, 24);
	ck_assert_str_eq(mach_program_strat(p, p->opnd[3].name), "k");
	/* the later .loc before a bundle wins */
	ck_assert_uint_eq(p->ndebug, 2);
	ck_assert_uint_eq(p->debug[0].bundle, 0);
	ck_assert_str_eq(mach_program_strat(p, p->debug[0].file), "file.pk");
	ck_assert_uint_eq(p->debug[0].line, 9);
	ck_assert_uint_eq(p->debug[0].col, 4);
	ck_assert_uint_eq(p->debug[0].region, 1);
	ck_assert_uint_eq(p->debug[1].bundle, 2);
	ck_assert_uint_eq(p->debug[1].region, 0);
	ck_assert_uint_eq(p->debug[1].file, p->debug[0].file);
	round_trip(p);
	mach_program_free(p);
}
END_TEST

START_TEST(test_operand_forms)
{
	MachProgram *p = assemble(
	    "vld v1, [s2 + 0x40]\n"
	    "vld v1, [s2 + 64], mask=0xff, stride=1\n"
	    "vst v3, [s4 - 8], stride=0, mask=1\n"
	    "vrot.sub v1, v2, 3 ; xlu.rot xlu1, v1, by=127\n"
	    "(p15) sandi s1, s2, 0xffffffff ; (!p0) smovi s3, -2147483648\n"
	    "mxu.mm mxu3, v31, acc, hold, prec=highest\n"
	    "vbcasti v0, 1e3f ; vbcasti v1, -0.0\n"
	    "trace.begin 7\nsync.wait f63, 4294967295\n", "v4");
	const MachIns *in = p->ins;

	ck_assert_int_eq(in[0].imm, 64);
	ck_assert_uint_eq(in[0].x, 0x1ff);
	ck_assert(memcmp(&in[0], &in[1], sizeof *in) == 0);
	ck_assert_int_eq(in[2].imm, -8);
	ck_assert_uint_eq(in[2].x, 0x001);
	ck_assert_int_eq(in[3].op, OP_VROTS);
	ck_assert_uint_eq(in[3].x, 3);
	ck_assert_uint_eq(in[4].x, 127);
	ck_assert_uint_eq(in[4].c, 1);
	ck_assert_int_eq(in[5].guard, 15);
	ck_assert_int_eq(in[5].imm, -1);
	ck_assert_int_eq(in[6].gneg, 1);
	ck_assert_int_eq(in[6].imm, INT32_MIN);
	ck_assert_uint_eq(in[7].x, MACH_MM_ACC | MACH_MM_HOLD |
	    MACH_PREC_HIGHEST << MACH_MM_PREC_SHIFT);
	ck_assert_int_eq(in[8].imm, 0x447a0000);
	ck_assert_int_eq(in[9].imm, INT32_MIN);		/* -0.0f */
	ck_assert_int_eq(in[10].imm, 7);
	ck_assert_int_eq(in[11].imm, -1);
	round_trip(p);
	mach_program_free(p);
}
END_TEST

/* ------------------------------------------------------ diagnostics */

static const struct {
	const char *preset, *src, *diag;
} bad[] = {
	{ NULL, "nop\n  vad.f32 v1, v2, v3\n",
	  "t.s:2:3: error: unknown mnemonic 'vad.f32'; did you mean "
	  "'vadd.f32'?\n    2 |   vad.f32 v1, v2, v3\n      |   ^~~~~~~\n" },
	{ NULL, "frobnicate s1\n", "t.s:1:1: error: unknown mnemonic "
	  "'frobnicate'\n" },
	{ NULL, "sadd s1, s2\n", "t.s:1:1: error: 'sadd' takes 3 operands, "
	  "got 2\n" },
	{ NULL, "halt s1\n", "t.s:1:6: error: 'halt' takes 0 operands, got "
	  "more\n" },
	{ NULL, "sadd s1, v2, s3\n", "t.s:1:10: error: operand of 'sadd' must "
	  "be a scalar register (s0..s31), not 'v2'\n" },
	{ NULL, "vld v1, s2\n", "t.s:1:9: error: operand of 'vld' must be an "
	  "address '[sN + offset]', not 's2'\n" },
	{ NULL, "vadd.f32 v32, v1, v2\n", "t.s:1:10: error: vector register "
	  "'v32' out of range: preset 'v4' has 32 vector registers\n" },
	{ "small", "vadd.f32 v16, v1, v2\n", "t.s:1:10: error: vector "
	  "register 'v16' out of range: preset 'small' has 16 vector "
	  "registers\n" },
	{ "small", "mxu.latch mxu1\n", "t.s:1:11: error: MXU unit 'mxu1' out "
	  "of range: preset 'small' has 1 MXUs\n" },
	{ NULL, "(p16) halt\n", "t.s:1:2: error: predicate 'p16' out of range: "
	  "preset 'v4' has 16 predicates\n" },
	{ NULL, "vadd.f32 v1, v1, v2 ; vsub.f32 v2, v1, v2 ; vmul.f32 v3, v1, "
	  "v2\n", "t.s:1:45: error: too many valu ops in one bundle: preset "
	  "'v4' has 2 valu slots\n" },
	{ NULL, "smovi s1, 1 ; smovi s2, 2 ; vbcasti v1, 3 ; vbcasti v2, 4 ; "
	  "vld v3, [s0 + 5] ; vst v3, [s0 + 6] ; sync.add f0, 7\n",
	  "t.s:1:112: error: too many immediates in one bundle: preset 'v4' "
	  "has a pool of 6\n" },
	{ NULL, "br x ; halt\nx: halt\n", "t.s:1:8: error: two control ops in "
	  "one bundle ('br' and 'halt'): at most one is allowed\n" },
	{ NULL, "br nowhere\n", "t.s:1:4: error: undefined label 'nowhere'\n" },
	{ NULL, "a: nop\na: halt\n", "t.s:2:1: error: duplicate label 'a'\n"
	  "    2 | a: halt\n      | ^\nt.s:1:1: note: 'a' was defined here\n" },
	{ NULL, "br end\nend:\n", "t.s:1:4: error: label 'end' does not name a "
	  "bundle\n" },
	{ NULL, ".frob 1\n", "t.s:1:1: error: unknown directive '.frob'\n" },
	{ NULL, ".preset v9\n", "t.s:1:1: error: unknown preset 'v9' (presets: "
	  "v4, v5e, v6e, small)\n" },
	{ NULL, "halt\n.preset small\n", "t.s:2:1: error: '.preset' must come "
	  "before the first bundle and '.entry'\n" },
	{ NULL, ".operand x in f32[4] smem=0\n", "t.s:1:1: error: '.operand' "
	  "before any '.entry'\n" },
	{ NULL, ".entry m\n", "t.s:1:1: error: '.entry m' is not followed by a "
	  "bundle\n" },
	{ NULL, ".entry m\n.operand x in f32[4]\nhalt\n", "t.s:2:1: error: "
	  "'.operand x' needs smem=ADDR (its argument slot)\n" },
	{ NULL, ".entry m\n.operand x sideways f32[4] smem=0\nhalt\n",
	  "t.s:2:12: error: expected a role (in, out, inout, smem, const), "
	  "found 'sideways'\n" },
	{ NULL, ".entry m\n.operand x in f32[4] smem=2\nhalt\n", "t.s:2:1: "
	  "error: smem=2 is not 4-byte aligned\n" },
	{ NULL, ".entry m\n.operand w const f32[4] smem=0 data=0\nhalt\n",
	  "t.s:2:1: error: constant data [0, 16) runs past the 0 bytes of "
	  ".data\n" },
	{ "small", ".entry m vmem=16777216\nhalt\n", "t.s:1:15: error: VMEM "
	  "bytes 16777216 out of range [0, 262144]\n" },
	{ NULL, ".word 1\n", "t.s:1:1: error: '.word' outside a .data "
	  "section\n" },
	{ NULL, ".data\nhalt\n", "t.s:2:1: error: ops are not allowed in a "
	  ".data section (use .text first)\n" },
	{ NULL, ".loc f.pk 1 1\n", "t.s:1:1: error: '.loc' is not followed by "
	  "a bundle\n" },
	{ NULL, "trace.begin k\n", "t.s:1:13: error: undefined region 'k' "
	  "(declare it with '.region k')\n" },
	{ NULL, "smovi s1, 4294967296\n", "t.s:1:11: error: immediate "
	  "4294967296 does not fit in 32 bits\n" },
	{ NULL, "smovi s1, -2147483649\n", "t.s:1:11: error: immediate "
	  "-2147483649 does not fit in 32 bits\n" },
	{ NULL, "xlu.rot xlu0, v1, by=128\n", "t.s:1:22: error: lane 128 out "
	  "of range [0, 127]\n" },
	{ NULL, "vld v1, [s0], mask=0x100\n", "t.s:1:20: error: sublane mask "
	  "256 out of range [0, 255]\n" },
	{ NULL, "vld v1, [s0], stride=256\n", "t.s:1:22: error: stride 256 out "
	  "of range [0, 255]\n" },
	{ NULL, "mxu.mm mxu0, v1, kblk=1\n", "t.s:1:23: error: k-block 1 out "
	  "of range [0, 0]\n" },
	{ NULL, "mxu.mm mxu0, v1, prec=low\n", "t.s:1:23: error: precision "
	  "must be default, high or highest\n" },
	{ NULL, "vadd.f32 v1, v2, v3, mask=1\n", "t.s:1:22: error: 'vadd.f32' "
	  "takes no option 'mask'\n" },
	{ NULL, "{ halt\n", "t.s:1:1: error: '{' is not closed by '}'\n" },
	{ NULL, "halt }\n", "t.s:1:6: error: '}' without a '{'\n" },
	{ NULL, "smovi s1, 1 smovi s2, 2\n", "t.s:1:13: error: expected ',' or "
	  "';' after an operand, found 'smovi'\n" },
	{ NULL, "smovi s1, 1.5q\n", "t.s:1:11: error: '1.5q' is not a valid "
	  "number\n" },
	{ NULL, ".region \"open\n", "t.s:1:9: error: unterminated string\n" },
	{ NULL, "halt @\n", "t.s:1:6: error: stray '@' in the line\n" },
};

START_TEST(test_rejections)
{
	const char *e;

	e = reject(bad[_i].src, bad[_i].preset);
	ck_assert_msg(strncmp(e, bad[_i].diag, strlen(bad[_i].diag)) == 0,
	    "case %d:\nexpected:\n%s\ngot:\n%s", _i, bad[_i].diag, e);
}
END_TEST

/* All errors are reported, in source order, whole ones only. */
START_TEST(test_many_errors)
{
	static const char src[] = "br nowhere\nfrob\nsadd s1\nhalt\n";
	char small[120];
	MachProgram *p;
	const char *e;

	e = reject(src, NULL);
	ck_assert_ptr_nonnull(strstr(e, "t.s:1:4: error: undefined label"));
	ck_assert_ptr_nonnull(strstr(e, "t.s:2:1: error: unknown mnemonic"));
	ck_assert_ptr_nonnull(strstr(e, "t.s:3:1: error: 'sadd' takes"));
	ck_assert(strstr(e, "t.s:1:4") < strstr(e, "t.s:2:1"));
	ck_assert_int_eq(mach_asm("t.s", src, strlen(src), NULL, &p, small,
	    sizeof small), MACH_EINVAL);
	ck_assert_ptr_nonnull(strstr(small, "undefined label"));
	ck_assert_ptr_null(strstr(small, "t.s:2:"));	/* did not fit */
	ck_assert_int_eq(mach_asm("t.s", src, strlen(src), NULL, &p, NULL, 0),
	    MACH_EINVAL);
	ck_assert_int_eq(mach_asm("t.s", src, strlen(src), "v9", &p, small,
	    sizeof small), MACH_EPRESET);
	ck_assert_ptr_null(p);
}
END_TEST

/* ------------------------------------------------------ slot limits */

/* An op of class u without a distinct immediate, as text. */
static const char *
op_of_unit(int u)
{
	switch (u) {
	case U_SALU: return "sadd s1, s2, s3";
	case U_VLD: return "vld v1, [s0]";
	case U_VST: return "vst v1, [s0]";
	case U_VALU: return "vadd.f32 v1, v2, v3";
	case U_MXU: return "mxu.latch mxu0";
	case U_POP: return "eup.pop v4";
	case U_XLU: return "xlu.sum xlu0, v1";
	case U_EUP: return "eup.exp2 v1";
	default: return "sync.add f0, 0";
	}
}

/* Exactly full bundles pass; one op more of any class fails. */
START_TEST(test_full_bundle_per_preset)
{
	const MachPreset *mp;
	char src[4096], want[200], *q;
	MachProgram *p;
	int k, u, extra, i;

	for (k = 0; (mp = mach_preset_at(k)) != NULL; k++)
		for (extra = -1; extra < NMACHUNIT; extra++) {
			q = src;
			q += sprintf(q, ".preset %s\n", mp->name);
			for (u = 0; u < NMACHUNIT; u++)
				for (i = 0; i < mp->slots[u] + (u == extra);
				    i++)
					q += sprintf(q, "%s%s", q[-1] == '\n' ?
					    "" : " ; ", op_of_unit(u));
			strcpy(q, "\n");
			if (extra < 0) {
				p = assemble(src, NULL);
				ck_assert_uint_eq(p->nins,
				    (unsigned)mach_preset_nslot(mp));
				round_trip(p);
				mach_program_free(p);
				continue;
			}
			snprintf(want, sizeof want, "error: too many %s ops in "
			    "one bundle: preset '%s' has %d %s slot%s\n",
			    mach_unit_name(extra), mp->name, mp->slots[extra],
			    mach_unit_name(extra), mp->slots[extra] == 1 ? "" :
			    "s");
			ck_assert_msg(strstr(reject(src, NULL), want), "%s\n%s",
			    want, err);
		}
}
END_TEST

/* nimm distinct immediates fit, one more does not (shared values merge). */
START_TEST(test_immediate_pool)
{
	static const char *const ops[] = { "smovi s1, %d", "smovi s2, %d",
	    "vbcasti v1, %d", "vbcasti v2, %d", "vld v3, [s0 + %d]",
	    "vst v3, [s0 + %d]", "sync.add f1, %d" };
	const MachPreset *mp;
	char src[1024], *q;
	MachProgram *p;
	int k, n, i;

	for (k = 0; (mp = mach_preset_at(k)) != NULL; k++)
		for (n = mp->nimm; n <= mp->nimm + 1; n++) {
			q = src + sprintf(src, ".preset %s\n", mp->name);
			for (i = 0; i < n; i++) {
				if (i)
					q += sprintf(q, " ; ");
				q += sprintf(q, ops[i], 1000 + i);
			}
			strcpy(q, " ; sync.set f2, 1000\n");	/* shared */
			if (n == mp->nimm) {
				p = assemble(src, NULL);
				mach_program_free(p);
			} else
				ck_assert_ptr_nonnull(strstr(reject(src, NULL),
				    "too many immediates in one bundle"));
		}
}
END_TEST

/* ---------------------------------------------------------- damage */

/* Deterministic damage to a valid source: never a crash; any accepted
 * result round-trips. */
START_TEST(test_damaged_source)
{
	static const char base[] =
	    ".preset small\n.region r\n.entry e pc=a\n"
	    ".operand x const f32[2] smem=0 data=d\n"
	    "a: .loc \"f\" 1 1 region=r\n"
	    "(p1) sadd s1, s2, s3 ; vld v1, [s2 + 64], mask=3 ; trace.begin r\n"
	    "{ mxu.mm mxu0, v1, acc\n xlu.rot xlu0, v1, by=3 }\n"
	    "br a ; vbcasti v2, 2.5f\n.data\nd: .float 1, 2\n";
	static const char junk[] = "[](){};:,=!+-.#/\"\\0x1fpvsmx \n\t";
	char src[sizeof base];
	unsigned seed = 12345, i, k, pos;
	MachProgram *p;

	for (i = 0; i < 3000; i++) {
		memcpy(src, base, sizeof base);
		for (k = 0; k < 1 + i % 3; k++) {
			seed = seed * 1103515245u + 12345u;
			pos = (seed >> 8) % (sizeof base - 1);
			src[pos] = junk[(seed >> 20) % (sizeof junk - 1)];
		}
		p = NULL;
		if (mach_asm("t.s", src, sizeof base - 1, NULL, &p, err,
		    sizeof err) == MACH_OK) {
			round_trip(p);
			mach_program_free(p);
		} else
			ck_assert_ptr_null(p);
	}
}
END_TEST

/* ------------------------------------------------ fuzz regressions */

static unsigned char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long sz;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)sz + 1);
	*n = fread(b, 1, (size_t)sz, f);
	fclose(f);
	return b;
}

/* Runs fn on every file of $top_srcdir/tests/fuzz/<dir>; the count. */
static int
each_file(const char *dir, void (*fn)(const unsigned char *, size_t))
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	struct dirent *de;
	unsigned char *b;
	size_t n;
	DIR *d;
	int count = 0;

	snprintf(path, sizeof path, "%s/tests/fuzz/%s", top ? top : ".", dir);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/tests/fuzz/%s/%s", top ? top :
		    ".", dir, de->d_name);
		b = slurp(path, &n);
		fn(b, n);
		free(b);
		count++;
	}
	closedir(d);
	return count;
}

static void
asm_case(const unsigned char *b, size_t n)
{
	MachProgram *p = NULL;

	if (mach_asm("f.s", (const char *)b, n, NULL, &p, err, sizeof err) ==
	    MACH_OK) {
		round_trip(p);
		mach_program_free(p);
	} else
		ck_assert_ptr_null(p);
}

static void
image_case(const unsigned char *b, size_t n)
{
	MachProgram *p = NULL, *q;
	void *img;
	size_t len;

	if (mach_image_read(b, n, &p, err, sizeof err) != MACH_OK) {
		ck_assert_ptr_null(p);
		return;
	}
	ck_assert_int_eq(mach_image_write(p, &img, &len, err, sizeof err),
	    MACH_OK);
	ck_assert_int_eq(mach_image_read(img, len, &q, err, sizeof err),
	    MACH_OK);
	free(img);
	mach_program_free(q);
	mach_program_free(p);
}

START_TEST(test_fuzz_regressions)
{
	ck_assert_int_ge(each_file("regress-asm", asm_case), 1);
	ck_assert_int_ge(each_file("regress-image", image_case), 1);
}
END_TEST

static Suite *
asm_suite(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("asm");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_every_op_round_trip);
	tcase_add_test(tc, test_full_program_round_trip);
	tcase_add_test(tc, test_append_grows_by_doubling);
	tcase_add_test(tc, test_text_round_trip);
	tcase_add_test(tc, test_directives);
	tcase_add_test(tc, test_operand_forms);
	tcase_add_loop_test(tc, test_rejections, 0,
	    (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_many_errors);
	tcase_add_test(tc, test_full_bundle_per_preset);
	tcase_add_test(tc, test_immediate_pool);
	tcase_add_test(tc, test_damaged_source);
	tcase_add_test(tc, test_fuzz_regressions);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(asm_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
