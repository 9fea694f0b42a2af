/*
 * dep.c - the order between two LLO ops, shared by the list scheduler
 * (sched.c) and the modulo scheduler (modulo.c).
 *
 * Gives:    vliw_reg_dep: through registers, RAW lat(x), WAW
 *           max(lat(x), 1), WAR 0.
 *           vliw_mem_dep(mp, x, y): the fewest cycles y must issue after
 *           x when x comes first in program order, or -1 when their
 *           effects on memory and the machine's queues allow any order:
 *           VMEM store->load LAT_VST, store->store 1, load->store 0;
 *           SMEM store->load lat(sst), other SMEM pairs 1;
 *           DMA starts, waits, sync and trace ops keep program order (1);
 *           memory ops before a DMA: stores their latency, loads 1;
 *           a trap (it reads its record in SMEM, and stops the machine)
 *           after an SMEM store that may touch its record: the store's
 *           latency; before such a store 1; with DMAs, waits and the
 *           other misc ops program order; any other pair is free (a
 *           load may move across it: if the trap fires nothing after it
 *           counts);
 *           a wait or DMA before a memory op: 1.
 *           Two VMEM (or two SMEM) accesses whose ranges (LIns.mlo/mhi)
 *           are known and disjoint are independent: buffers and spill
 *           slots do not overlap.  DMAs are never disambiguated: they
 *           move whole blocks and their completion is a wait.
 */
#include "backend/vliw/vliw.h"

enum { M_NONE, M_VLD, M_VST, M_SLD, M_SST };

static int
lat(const MachPreset *mp, const LIns *in)
{
	return mp->lat[mach_opinfo[in->op].lat];
}

static int
mem(const LIns *in)
{
	int f = mach_opinfo[in->op].flags, u = mach_opinfo[in->op].unit;

	if (u == U_VLD && (f & MACH_F_LOAD))
		return M_VLD;
	if (u == U_VST)
		return M_VST;
	if (in->op == OP_SLD)
		return M_SLD;
	if (in->op == OP_SST)
		return M_SST;
	return M_NONE;
}

static int
is_misc(const LIns *in)
{
	return mach_opinfo[in->op].unit == U_MISC;
}

/* Both ranges known and apart. */
static int
disjoint(const LIns *x, const LIns *y)
{
	return x->mhi > x->mlo && y->mhi > y->mlo &&
	    (x->mhi <= y->mlo || y->mhi <= x->mlo);
}

/* x before y, one of them a trap (see the header). */
static int
trap_dep(const MachPreset *mp, const LIns *x, const LIns *y, int mx, int my)
{
	if (is_misc(x) && is_misc(y))
		return 1;
	if (x->op == OP_TRAP)
		return my == M_SST && !disjoint(x, y) ? 1 : -1;
	if (mx == M_SST && !disjoint(x, y))
		return lat(mp, x) > 1 ? lat(mp, x) : 1;
	return -1;
}

int
vliw_mem_dep(const MachPreset *mp, const LIns *x, const LIns *y)
{
	int mx = mem(x), my = mem(y);
	int vx = mx == M_VLD || mx == M_VST, vy = my == M_VLD || my == M_VST;

	if (is_misc(x) && is_misc(y))
		return 1;
	if (is_misc(x) && my != M_NONE)
		return 1;
	if (x->op == OP_TRAP || y->op == OP_TRAP)
		return trap_dep(mp, x, y, mx, my);
	if (mx != M_NONE && (mach_opinfo[y->op].flags & MACH_F_DMA))
		return mx == M_VST || mx == M_SST ? lat(mp, x) : 1;
	if (mx != M_NONE && is_misc(y))
		return 0;
	if (mx == M_NONE || my == M_NONE || vx != vy || disjoint(x, y))
		return -1;
	if (mx == M_VST && my == M_VLD)
		return lat(mp, x);
	if (mx == M_VST && my == M_VST)
		return 1;
	if (mx == M_VLD && my == M_VST)
		return 0;
	if (mx == M_SST && my == M_SLD)
		return lat(mp, x) > 1 ? lat(mp, x) : 1;
	if (mx == M_SLD && my == M_SLD)
		return -1;
	return vx ? -1 : 1;
}

static int
has(const int *r, int n, int x)
{
	int k;

	for (k = 0; k < n; k++)
		if (r[k] == x)
			return 1;
	return 0;
}

int
vliw_reg_dep(int lat, int xd, const int *xr, int xnr, int yd,
    const int *yr, int ynr)
{
	int l = -1;

	if (xd >= 0 && has(yr, ynr, xd))
		l = lat;
	if (xd >= 0 && yd == xd && l < (lat > 1 ? lat : 1))
		l = lat > 1 ? lat : 1;
	if (l < 0 && yd >= 0 && has(xr, xnr, yd))
		l = 0;
	return l;
}
