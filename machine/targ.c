/*
 * targ.c - the machine presets (MACHINE.md, "Presets"), as const data,
 * and their lookup by name, and the span of an HBM buffer in the
 * runtime's layout.  Every number a pass or the simulator needs about
 * the target comes from here; nothing else hard-codes one.
 */
#include <string.h>

#include "machine/machine.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

/* Fields shared by the three full-size presets (v4-like core). */
#define FULL_COMMON \
	.sublanes = 8, .lanes = 128, \
	.nmreg = 16, .nsreg = 32, .npreg = 16, \
	.nimm = 6, \
	.mxu_passes = { [MACH_PREC_DEFAULT] = 1, [MACH_PREC_HIGH] = 3, \
	    [MACH_PREC_HIGHEST] = 6 }, \
	.mxu_fifo = 32, .xlu_fifo = 16, .eup_fifo = 16, \
	.xlu_xpose_interval = 4, .xlu_reduce_interval = 4, \
	.smem_bytes = 1 * MiB, \
	.dma_engines = 4, .dma_latency = 500, .dma_granule = 32, \
	.nflag = 64, \
	.lat = { \
		[LAT_NONE] = 0, [LAT_SALU] = 1, [LAT_SLD] = 2, \
		[LAT_BRANCH] = 1, [LAT_VLD] = 2, [LAT_VST] = 1, \
		[LAT_VALU] = 2, [LAT_VROT] = 1, [LAT_EUP] = 4, \
		[LAT_XLU_PERM] = 16, [LAT_XLU_REDUCE] = 32, \
		[LAT_XLU_XPOSE] = 64,	/* L / 2 */ \
		[LAT_MXU] = 128,	/* ~ mxu_dim / rows_per_cycle */ \
		[LAT_MXU_LOAD] = 1, [LAT_POP] = 1, [LAT_MISC] = 1, \
	}

/* ORDER: the default preset is first. */
static const MachPreset presets[] = {
	{
		.name = "v4", .clock_ghz = 1.05, FULL_COMMON,
		.nvreg = 32,
		.slots = { [U_SALU] = 2, [U_VLD] = 1, [U_VST] = 1,
		    [U_VALU] = 2, [U_MXU] = 2, [U_POP] = 2, [U_XLU] = 2,
		    [U_EUP] = 1, [U_MISC] = 1 },
		.nmxu = 4, .mxu_dim = 128, .mxu_rows_per_cycle = 1,
		.nxlu = 2,
		.vmem_bytes = 16 * MiB, .hbm_bytes = 16 * GiB,
		.hbm_bytes_per_cycle = 570,
	},
	{
		.name = "v5e", .clock_ghz = 1.5, FULL_COMMON,
		.nvreg = 64,
		.slots = { [U_SALU] = 2, [U_VLD] = 3, [U_VST] = 1,
		    [U_VALU] = 4, [U_MXU] = 2, [U_POP] = 2, [U_XLU] = 2,
		    [U_EUP] = 1, [U_MISC] = 1 },
		.nmxu = 4, .mxu_dim = 128, .mxu_rows_per_cycle = 1,
		.nxlu = 2,
		.vmem_bytes = 128 * MiB, .hbm_bytes = 16 * GiB,
		.hbm_bytes_per_cycle = 546,
	},
	{
		.name = "v6e", .clock_ghz = 1.75, FULL_COMMON,
		.nvreg = 64,
		.slots = { [U_SALU] = 2, [U_VLD] = 3, [U_VST] = 2,
		    [U_VALU] = 4, [U_MXU] = 2, [U_POP] = 2, [U_XLU] = 2,
		    [U_EUP] = 1, [U_MISC] = 1 },
		.nmxu = 2, .mxu_dim = 256, .mxu_rows_per_cycle = 2,
		.nxlu = 2,
		.vmem_bytes = 128 * MiB, .hbm_bytes = 32 * GiB,
		.hbm_bytes_per_cycle = 937,
	},
	{
		.name = "small", .clock_ghz = 0,
		.sublanes = 8, .lanes = 16,
		.nvreg = 16, .nmreg = 8, .nsreg = 32, .npreg = 16,
		.slots = { [U_SALU] = 2, [U_VLD] = 1, [U_VST] = 1,
		    [U_VALU] = 2, [U_MXU] = 1, [U_POP] = 2, [U_XLU] = 1,
		    [U_EUP] = 1, [U_MISC] = 1 },
		.nimm = 6,
		.nmxu = 1, .mxu_dim = 16, .mxu_rows_per_cycle = 1,
		.mxu_passes = { [MACH_PREC_DEFAULT] = 1, [MACH_PREC_HIGH] = 3,
		    [MACH_PREC_HIGHEST] = 6 },
		.mxu_fifo = 8, .nxlu = 1, .xlu_fifo = 8, .eup_fifo = 16,
		.xlu_xpose_interval = 1, .xlu_reduce_interval = 1,
		.vmem_bytes = 256 * KiB, .smem_bytes = 4 * KiB,
		.hbm_bytes = 4 * MiB, .hbm_bytes_per_cycle = 64,
		.dma_engines = 2, .dma_latency = 50, .dma_granule = 32,
		.nflag = 16,
		.lat = {
			[LAT_NONE] = 0, [LAT_SALU] = 1, [LAT_SLD] = 2,
			[LAT_BRANCH] = 1, [LAT_VLD] = 2, [LAT_VST] = 1,
			[LAT_VALU] = 2, [LAT_VROT] = 1, [LAT_EUP] = 4,
			[LAT_XLU_PERM] = 8, [LAT_XLU_REDUCE] = 8,
			[LAT_XLU_XPOSE] = 8, [LAT_MXU] = 16,
			[LAT_MXU_LOAD] = 1, [LAT_POP] = 1, [LAT_MISC] = 1,
		},
	},
};

#define NPRESET ((int)(sizeof presets / sizeof presets[0]))

const MachPreset *
mach_preset(const char *name)
{
	int i;

	if (!name)
		return &presets[0];
	for (i = 0; i < NPRESET; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

const MachPreset *
mach_preset_at(int i)
{
	return i >= 0 && i < NPRESET ? &presets[i] : NULL;
}

uint64_t
mach_hbm_span(uint64_t bytes)
{
	uint64_t size = bytes ? bytes : 1;

	if (size > UINT64_MAX - 2 * MACH_HBM_ALIGN)
		return UINT64_MAX;
	return (size + 2 * MACH_HBM_ALIGN - 1) &
	    ~(uint64_t)(MACH_HBM_ALIGN - 1);
}

int
mach_preset_nslot(const MachPreset *mp)
{
	int u, n;

	n = 0;
	for (u = 0; u < NMACHUNIT; u++)
		n += mp->slots[u];
	return n;
}
