/*
 * fusion_kernels.c - the fusions of an optimised module as checked
 * kernels: each fusion of the entry written as .pk source
 * (hlo_fusion_pk), all of them in one text, which the kernel path's
 * preprocessor, parser and sema check for the preset like any kernel
 * file, so the Mosaic lowering and the VLIW backend take them as they
 * take hand-written kernels.
 *
 * The instructions of the entry left outside fusions that compute (a
 * lone reduce or multiply, a copy) become kernels of their own, as XLA
 * emits them.
 *
 * Entry:    hlo_fusions_pk, hlo_fusion_kernels (lower.h)
 * Tests:    tests/unit/check_hlo_emit.c, tests/hlo/fusions.sh
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dsl/dsl.h"
#include "graph/lower.h"

static TokKind
next_token(void *pp, Token *t)
{
	return pp_next(pp, t);
}

/* The fusion's name as a .pk identifier: other characters become '_'. */
static void
kernel_name(const HloInstr *in, char *name, size_t n)
{
	size_t i;

	snprintf(name, n, "%s", in->name);
	for (i = 0; name[i]; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			name[i] = '_';
	if (isdigit((unsigned char)name[0]))
		name[0] = '_';
}

/* Whether an instruction of the entry left outside fusions is work of
   its own for a kernel: not a parameter, a scalar constant, a tuple
   (or its element), an alias (bitcast), a copy-start/copy-done (the
   top-level program's DMAs) nor a custom-call (a kernel's call). */
static int
leftover(const HloInstr *in)
{
	switch (in->op) {
	case HLO_PARAMETER: case HLO_TUPLE: case HLO_GTE: case HLO_BITCAST:
	case HLO_COPY_START: case HLO_COPY_DONE: case HLO_CUSTOM_CALL:
	case HLO_FUSION: case HLO_OPT_BARRIER: case HLO_AFTER_ALL:
		return 0;
	case HLO_CONSTANT:
		return 0;	/* folded into the kernels that read it */
	default:
		return 1;
	}
}

int
hlo_instr_kernel(const HloInstr *in)
{
	return (in->op == HLO_FUSION && in->callee >= 0) || leftover(in);
}

int
hlo_fusions_pk(const HloModule *m, int64_t vmem, Buf *out, char *err,
    size_t nerr)
{
	const HloComp *c = hlo_entry(m);
	char name[256], why[512];
	int i, n = 0, rc;

	if (nerr)
		err[0] = 0;
	for (i = 0; c && i < c->instr.n; i++) {
		const HloInstr *in = c->instr.v[i];
		int fused = in->op == HLO_FUSION && in->callee >= 0;
		if (!hlo_instr_kernel(in))
			continue;
		kernel_name(in, name, sizeof name);
		buf_printf(out, "%s// %s %s (%s)\n", n++ ? "\n" : "",
		    fused ? "fusion" : "unfused", in->name, fused ?
		    (in->kind ? in->kind : "kLoop") : hlo_op_name(in->op));
		rc = fused ? hlo_fusion_pk(m, m->comp.v[in->callee], name,
		    vmem, out, why, sizeof why) : hlo_instr_pk(m, c, in, name, out, why,
		    sizeof why);
		if (rc) {
			snprintf(err, nerr, "%s '%s': %s", fused ? "fusion" :
			    "instruction", in->name, why);
			return -1;
		}
	}
	return n;
}

CheckedModule *
hlo_fusion_kernels(const HloModule *m, const MachPreset *mp,
    const char *what, const char *func, Diag *d, Arena *a, Strtab *s, Loc at)
{
	Buf src = {0};
	char err[640], *label, *text;
	PP *pp;
	Ast *ast;
	CheckedModule *cm = NULL;
	int n0 = d->nerror, n;

	if ((n = hlo_fusions_pk(m, (int64_t)mp->vmem_bytes, &src, err,
	    sizeof err)) < 0) {
		diag_error(d, at, "%s '%s': the fusion emitter cannot write "
		    "%s", what, func, err);
		buf_free(&src);
		return NULL;
	}
	if (n == 0) {	/* kernel calls only, or nothing computed */
		buf_free(&src);
		cm = arena_alloc(a, sizeof *cm);
		cm->preset = mp;
		return cm;
	}
	snprintf(err, sizeof err, "<fusions of %s>", func);
	label = arena_strndup(a, err, strlen(err));
	/* the text outlives this call: diagnostics may quote it later */
	text = arena_alloc(a, src.n + 1);
	memcpy(text, src.p ? src.p : "", src.n);
	text[src.n] = 0;
	buf_free(&src);
	pp = pp_new(d, s, a);
	sema_predefine(pp, mp);
	if (pp_push_text(pp, label, text, strlen(text)) == 0) {
		ast = parse_module(next_token, pp, d, a);
		if (d->nerror == n0)
			cm = sema_check(ast, mp, d, a);
	}
	pp_free(pp);
	if (d->nerror == n0)
		return cm;
	diag_note(d, at, "the fusion emitter tiles the kernels of %s '%s' "
	    "along a leading batch dimension, and fusions along rows too "
	    "(blocks of 8 rows or more, 128 where a vector keeps the rows); "
	    "columns, and instructions left outside fusions, not yet", what,
	    func);
	return NULL;
}
