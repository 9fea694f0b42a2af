/*
 * isa.c - the tables expanded from isa.def: opcode properties, operand
 * formats, and the names of units, latency classes and operand kinds.
 * Everything here is const data or a pure lookup.
 */
#include <string.h>

#include "machine/machine.h"

#define O(k, f) { K_##k, FLD_##f }
#define O_ { K_NONE, FLD_NONE }

const MachFmtInfo mach_fmtinfo[NMACHFMT] = {
#define FMT(name, n, o0, o1, o2, o3, o4, o5) \
	[FMT_##name] = { #name, n, { o0, o1, o2, o3, o4, o5 } },
#include "machine/isa.def"
};

const MachOpInfo mach_opinfo[NMACHOP] = {
#define OP(e, mn, unit, lat, fmt, flags, syn) \
	[OP_##e] = { mn, unit, lat, FMT_##fmt, flags, syn },
#include "machine/isa.def"
};

#undef O
#undef O_

static const char *const unitname[NMACHUNIT + 1] = {
	[U_SALU] = "salu", [U_VLD] = "vld", [U_VST] = "vst",
	[U_VALU] = "valu", [U_MXU] = "mxu", [U_POP] = "pop",
	[U_XLU] = "xlu", [U_EUP] = "eup", [U_MISC] = "misc",
	[U_NONE] = "none",
};

static const char *const latname[NMACHLAT] = {
	[LAT_NONE] = "none", [LAT_SALU] = "salu", [LAT_SLD] = "sld",
	[LAT_BRANCH] = "branch", [LAT_VLD] = "vld", [LAT_VST] = "vst",
	[LAT_VALU] = "valu", [LAT_VROT] = "vrot", [LAT_EUP] = "eup",
	[LAT_XLU_PERM] = "xlu_perm", [LAT_XLU_REDUCE] = "xlu_reduce",
	[LAT_XLU_XPOSE] = "xlu_xpose", [LAT_MXU] = "mxu",
	[LAT_MXU_LOAD] = "mxu_load", [LAT_POP] = "pop", [LAT_MISC] = "misc",
};

static const char *const kindname[NMACHKIND] = {
	[K_NONE] = "none", [K_S] = "s", [K_V] = "v", [K_M] = "m",
	[K_P] = "p", [K_F] = "f", [K_MXU] = "mxu", [K_XLU] = "xlu",
	[K_IMM] = "imm", [K_LABEL] = "label", [K_SMASK] = "smask",
	[K_STRIDE] = "stride", [K_LANE] = "lane", [K_SUB] = "sub",
	[K_MMF] = "mmf",
};

/* Linear scan: about 130 names, called once per parsed mnemonic. */
int
mach_op_by_name(const char *name)
{
	int op;

	if (!name)
		return -1;
	for (op = 0; op < NMACHOP; op++)
		if (strcmp(mach_opinfo[op].name, name) == 0)
			return op;
	return -1;
}

const char *
mach_unit_name(int unit)
{
	return unit >= 0 && unit <= U_NONE ? unitname[unit] : "?";
}

const char *
mach_lat_name(int lat)
{
	return lat >= 0 && lat < NMACHLAT ? latname[lat] : "?";
}

const char *
mach_kind_name(int kind)
{
	return kind >= 0 && kind < NMACHKIND ? kindname[kind] : "?";
}

/* Does op take an immediate from the bundle's pool? */
int
mach_op_uses_pool(int op)
{
	const MachFmtInfo *fi = &mach_fmtinfo[mach_opinfo[op].fmt];
	int i;

	for (i = 0; i < fi->nopnd; i++)
		if (fi->opnd[i].field == FLD_I)
			return 1;
	return 0;
}
