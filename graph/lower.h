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

/* The HLO element type of a dtype (bool: pred); HT_NONE for semaphores. */
HloType hlo_type_of_dtype(DType t);

#endif
