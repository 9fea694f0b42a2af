/*
 * pass_dce.c - dead code elimination: instructions whose value no root
 * reaches, and computations nothing calls.  The work is hlo_module_clean
 * (hlo_edit.c), which the other passes also lean on.
 */
#include "graph/pass.h"

int
hlo_pass_dce(HloModule *m, HloPassCtx *cx)
{
	(void)cx;
	return hlo_module_clean(m);
}
