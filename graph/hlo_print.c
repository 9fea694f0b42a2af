/*
 * hlo_print.c - the HLO text printer, XLA's syntax in one canonical form:
 *
 *     HloModule NAME, entry_computation_layout={(...)->...}, ...
 *
 *     [ENTRY] NAME {
 *       [ROOT] NAME = SHAPE OPCODE(OPERANDS), ATTR=VALUE, ...
 *     }
 *
 * Names are printed without '%' and operands without their shapes (the
 * form jax.jit's as_text prints).  Attributes come in a fixed order: the
 * modelled ones of the opcode, then unmodelled ones as written, metadata,
 * backend_config.  Reading the output back and printing it again gives
 * the same text (tests/hlo/run.sh checks this).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

/*
 * A name, with XLA's optional '%' only where the bare name would not read
 * back as a name: a leading digit, '.' or '-', or a reserved word.
 */
static void
pname(Buf *b, const char *s)
{
	static const char *const reserved[] = { "ROOT", "ENTRY", "HloModule",
	    "inf", "nan", "true", "false" };
	size_t i;
	int pct = !(isalpha((unsigned char)s[0]) || s[0] == '_');

	for (i = 0; i < countof(reserved); i++)
		pct |= strcmp(s, reserved[i]) == 0;
	if (pct)
		buf_putc(b, '%');
	buf_puts(b, s);
}

/* Shortest %.*g text of v that reads back to the same value of type t. */
static void
shortest(Buf *b, HloType t, double v)
{
	char s[40];
	int p, maxp = t == HT_F32 ? 9 : t == HT_BF16 ? 4 : t == HT_F16 ? 5 :
	    17;

	for (p = 1; p <= maxp; p++) {
		double r;
		snprintf(s, sizeof s, "%.*g", p, v);
		r = strtod(s, NULL);
		if (t == HT_F32 ? (float)r == (float)v :
		    t == HT_BF16 ? hlo_f32_to_bf16((float)r) ==
		    hlo_f32_to_bf16((float)v) : t == HT_F16 ?
		    hlo_f32_to_f16((float)r) == hlo_f32_to_f16((float)v) :
		    r == v)
			break;
	}
	buf_puts(b, s);
}

void
hlo_print_number(Buf *b, HloType t, HloElem v)
{
	if (t == HT_PRED)
		buf_puts(b, v.i != 0 ? "true" : "false");
	else if (t == HT_U64)
		buf_printf(b, "%llu", (unsigned long long)(uint64_t)v.i);
	else if (!hlo_type_is_float(t))
		buf_printf(b, "%lld", (long long)v.i);
	else if (isnan(v.f))
		buf_puts(b, signbit(v.f) ? "-nan" : "nan");
	else if (isinf(v.f))
		buf_puts(b, v.f < 0 ? "-inf" : "inf");
	else
		shortest(b, t, v.f);
}

/* Dimension d of a literal: "{1, 2}" innermost, "{ {..}, {..} }" outer. */
static void
literal_level(Buf *b, const HloShape *s, const HloElem *v, int d)
{
	int64_t i, stride = 1;
	int k;

	if (d == s->rank) {
		hlo_print_number(b, s->type, v[0]);
		return;
	}
	for (k = d + 1; k < s->rank; k++)
		stride *= s->dim[k];
	buf_puts(b, d + 1 < s->rank ? "{ " : "{");
	for (i = 0; i < s->dim[d]; i++) {
		if (i)
			buf_puts(b, ", ");
		literal_level(b, s, v + i * stride, d + 1);
	}
	buf_puts(b, d + 1 < s->rank ? " }" : "}");
}

static void
ints(Buf *b, const char *name, const HloInts *x)
{
	int i;

	if (!x->has)
		return;
	buf_printf(b, ", %s={", name);
	for (i = 0; i < x->n; i++)
		buf_printf(b, i ? ",%lld" : "%lld", (long long)x->v[i]);
	buf_putc(b, '}');
}

static void
slice_attr(Buf *b, const HloInstr *in)
{
	int i;

	buf_puts(b, ", slice={");
	for (i = 0; i < in->slo.n; i++) {
		buf_printf(b, "%s[%lld:%lld", i ? ", " : "",
		    (long long)in->slo.v[i], (long long)in->shi.v[i]);
		if (in->sst.v[i] != 1)
			buf_printf(b, ":%lld", (long long)in->sst.v[i]);
		buf_putc(b, ']');
	}
	buf_putc(b, '}');
}

static void
metadata(Buf *b, const HloMeta *mt)
{
	const char *sep = "";

	buf_puts(b, ", metadata={");
	if (mt->op_type)
		buf_printf(b, "op_type=\"%s\"", mt->op_type), sep = " ";
	if (mt->op_name)
		buf_printf(b, "%sop_name=\"%s\"", sep, mt->op_name), sep = " ";
	if (mt->source_file)
		buf_printf(b, "%ssource_file=\"%s\"", sep, mt->source_file),
		    sep = " ";
	if (mt->source_line >= 0)
		buf_printf(b, "%ssource_line=%lld", sep,
		    (long long)mt->source_line), sep = " ";
	if (mt->extra)
		buf_printf(b, "%s%s", sep, mt->extra);
	buf_putc(b, '}');
}

/* The opcode's modelled attributes, in XLA's order. */
static void
modelled(Buf *b, const HloModule *m, const HloInstr *in)
{
	const char *callee = in->callee >= 0 && in->callee < m->comp.n ?
	    m->comp.v[in->callee]->name : NULL;

	if (in->op == HLO_GTE)
		buf_printf(b, ", index=%lld", (long long)in->num);
	if (in->op == HLO_IOTA)
		buf_printf(b, ", iota_dimension=%lld", (long long)in->num);
	if (in->op == HLO_COMPARE && in->cmp)
		buf_printf(b, ", direction=%s", hlo_cmp_name(in->cmp));
	if (in->op == HLO_SLICE && in->slo.has)
		slice_attr(b, in);
	ints(b, "dimensions", &in->dims);
	ints(b, "lhs_batch_dims", &in->dot[DOT_LHS_BATCH]);
	ints(b, "lhs_contracting_dims", &in->dot[DOT_LHS_CONTRACT]);
	ints(b, "rhs_batch_dims", &in->dot[DOT_RHS_BATCH]);
	ints(b, "rhs_contracting_dims", &in->dot[DOT_RHS_CONTRACT]);
	if (in->kind)
		buf_printf(b, ", kind=%s", in->kind);
	if (callee) {
		buf_printf(b, ", %s=", in->op == HLO_FUSION ? "calls" :
		    "to_apply");
		pname(b, callee);
	}
	if (in->target)
		buf_printf(b, ", custom_call_target=\"%s\"", in->target);
}

void
hlo_print_instr(Buf *b, const HloModule *m, const HloComp *c,
    const HloInstr *in)
{
	int i;

	pname(b, in->name);
	buf_puts(b, " = ");
	hlo_shape_print(b, &in->shape);
	buf_printf(b, " %s(", hlo_op_name(in->op));
	if (in->op == HLO_PARAMETER)
		buf_printf(b, "%lld", (long long)in->num);
	else if (in->op == HLO_CONSTANT && in->lit.elided)
		buf_puts(b, "{...}");
	else if (in->op == HLO_CONSTANT && in->lit.v)
		literal_level(b, &in->shape, in->lit.v, 0);
	for (i = 0; i < in->noperand; i++) {
		if (i)
			buf_puts(b, ", ");
		pname(b, c->instr.v[in->operand[i]]->name);
	}
	buf_putc(b, ')');
	modelled(b, m, in);
	for (i = 0; i < in->attrs.n; i++)
		buf_printf(b, ", %s=%s", in->attrs.v[i].name,
		    in->attrs.v[i].value);
	if (in->meta.has)
		metadata(b, &in->meta);
	if (in->backend_config)
		buf_printf(b, ", backend_config=%s", in->backend_config);
}

static void
print_comp(Buf *b, const HloModule *m, const HloComp *c)
{
	int i;

	buf_puts(b, c->is_entry ? "ENTRY " : "");
	pname(b, c->name);
	buf_puts(b, " {\n");
	for (i = 0; i < c->instr.n; i++) {
		buf_puts(b, i == c->root ? "  ROOT " : "  ");
		hlo_print_instr(b, m, c, c->instr.v[i]);
		buf_putc(b, '\n');
	}
	buf_putc(b, '}');
	if (c->exec_thread)
		buf_printf(b, ", execution_thread=%s", c->exec_thread);
	buf_putc(b, '\n');
}

static void
entry_layout(Buf *b, const HloModule *m)
{
	int i;

	buf_puts(b, ", entry_computation_layout={(");
	for (i = 0; i < m->ecl_param.n; i++) {
		if (i)
			buf_puts(b, ", ");
		hlo_shape_print(b, &m->ecl_param.v[i]);
	}
	buf_puts(b, ")->");
	hlo_shape_print(b, &m->ecl_result);
	buf_putc(b, '}');
}

void
hlo_print(Buf *b, const HloModule *m)
{
	int i;

	if (m->name) {
		buf_puts(b, "HloModule ");
		pname(b, m->name);
		for (i = 0; i < m->attrs.n; i++)
			if (m->attrs.v[i].value)
				buf_printf(b, ", %s=%s", m->attrs.v[i].name,
				    m->attrs.v[i].value);
			else
				entry_layout(b, m);
		buf_puts(b, "\n\n");
	}
	for (i = 0; i < m->comp.n; i++) {
		if (i)
			buf_putc(b, '\n');
		print_comp(b, m, m->comp.v[i]);
	}
}
