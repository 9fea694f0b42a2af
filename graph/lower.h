/*
 * lower.h - from func to HLO: a checked func (dsl/sema/checked.h) becomes
 * an HLO module of the kind jax.jit produces (doc/language.md 9 has the
 * mapping table).  graph/lower.c builds the module, graph/lower_ops.c
 * lowers each expression; both share graph/lower_int.h.
 */
#ifndef PALLAS_GRAPH_LOWER_H
#define PALLAS_GRAPH_LOWER_H

#include "dsl/sema/checked.h"
#include "graph/graph.h"
#include "backend/mosaic/mosaic.h"

/*
 * Lowers func f of module m into a new module named "jit_<f->name>"
 * (arena a, names interned in s): one parameter per func parameter, the
 * entry "main.N" computing the result, a reducer computation per reduce.
 * named() labels become metadata op_name "jit(f)/label/primitive",
 * source_file and source_line come from the func's source; a kernel call
 * becomes a custom-call whose target is the kernel's name.  The module
 * is verified (a failure is an internal error).  Returns NULL after a
 * diagnostic through d if f uses a construct HLO cannot express (a shift,
 * a dynamic slice, a roll by a dynamic amount).
 */
HloModule *hlo_from_func(const CheckedModule *m, const CFunc *f, Diag *d,
    Arena *a, Strtab *s);

/*
 * fusion_kernels.c: every fusion of m's entry (optimised: hlo_optimize)
 * as a .pk kernel named after it (hlo_fusion_pk, rows tiled to fit vmem
 * bytes), and every instruction
 * left outside fusions that computes as one of its own (hlo_instr_pk),
 * in schedule order, appended to out: the count, or -1 with err naming
 * the first fusion or instruction the emitter cannot write.
 */
int hlo_fusions_pk(const HloModule *m, int64_t vmem, Buf *out, char *err,
    size_t nerr);
/*
 * Those kernels (and one per instruction left outside fusions that
 * computes) parsed and checked for preset mp as the file "<fusions of
 * FUNC>" (its text stays in d's sources, for diagnostics; messages name
 * it a 'what': "func" or "module"): a checked
 * module with one export per kernel (none when the func only calls
 * kernels, or computes nothing).  NULL after a diagnostic (what the
 * emitter cannot write is reported at 'at').
 */
CheckedModule *hlo_fusion_kernels(const HloModule *m, const MachPreset *mp,
    const char *what, const char *func, Diag *d, Arena *a, Strtab *s,
    Loc at);

/* Whether instruction in of an optimised entry is a kernel of those. */
int hlo_instr_kernel(const HloInstr *in);

/* The backend_config of a custom-call calling kernel instance k. */
const char *hlo_kernel_config(Arena *a, const CKernel *k);

/*
 * func_calls.c: the kernel instances func f of cm calls, as the exports
 * of a new checked module (their C names "PREFIX.KERNEL", then
 * "PREFIX.KERNEL.N"), in the order of a walk from the result; NULL out
 * of memory.
 */
CheckedModule *hlo_func_callees(const CheckedModule *cm, const CFunc *f,
    const char *prefix, Arena *a);

/*
 * tlp.c: the top-level program 'name' of the optimised module m, whose
 * kernels fm (hlo_fusion_kernels) are the functions func0, func0 + 1 ...
 * of the TModule it joins, and the kernels its custom-calls call km
 * (hlo_func_callees; NULL: none) the functions kfunc0 on; the entry's
 * parameters named pname[i] (NULL: their instructions' names).  NULL
 * after a diagnostic at 'at' naming the first instruction the machine
 * cannot run yet.
 */
typedef struct HloTlpKernels {
	const CheckedModule *fm;	/* the fusions' kernels */
	int func0;
	const CheckedModule *km;	/* the called kernels, or NULL */
	int kfunc0;
	const char *what;	/* "func" or "module" (NULL: "func"), for
				   messages */
} HloTlpKernels;
TTlp *hlo_tlp_build(const HloModule *m, const HloTlpKernels *k,
    const char *name, const char *const *pname, Diag *d, Arena *a, Loc at);
/* tlp_print.c: --emit=tlp: its operands, buffers and steps. */
void hlo_tlp_print(Buf *out, const TTlp *t);
/* The dtype kernels have for an HLO element type, or -1. */
int hlo_kernel_dtype(HloType t);

/* The HLO element type of a dtype (bool: pred); HT_NONE for semaphores. */
HloType hlo_type_of_dtype(DType t);

#endif
