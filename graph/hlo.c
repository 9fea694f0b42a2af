/*
 * hlo.c - building the HLO IR: modules, computations, instructions, and the
 * name tables of opcodes, element types and compare directions.
 */
#include <string.h>

#include "graph/graph.h"

static const struct {
	const char *name;
	int arity;
	HloOpClass cls;
} ops[NHLO] = {
	[HLO_INVALID] = { "<invalid>", 0, HC_OTHER },
#define HLO_OP(e, s, n, c) [HLO_##e] = { s, n, c },
#include "graph/hlo_ops.def"
#undef HLO_OP
};

/* ORDER TYPE */
static const char *typenames[NHT] = {
	"<none>", "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
	"f16", "bf16", "f32", "f64", "token", "<tuple>",
};

static const char *cmpnames[NCMP] = {
	"<none>", "EQ", "NE", "LT", "LE", "GT", "GE",
};

const char *
hlo_op_name(HloOp op)
{
	return op < NHLO ? ops[op].name : "<bad>";
}

HloOpClass
hlo_op_class(HloOp op)
{
	return op < NHLO ? ops[op].cls : HC_OTHER;
}

int
hlo_op_arity(HloOp op)
{
	return op < NHLO ? ops[op].arity : -1;
}

/* Linear scan: about 60 names, looked up once per instruction. */
HloOp
hlo_op_lookup(const char *s, size_t n)
{
	int i;

	for (i = 1; i < NHLO; i++)
		if (strlen(ops[i].name) == n && memcmp(ops[i].name, s, n) == 0)
			return (HloOp)i;
	return HLO_INVALID;
}

const char *
hlo_type_name(HloType t)
{
	return t < NHT ? typenames[t] : "<bad>";
}

HloType
hlo_type_lookup(const char *s, size_t n)
{
	int i;

	for (i = HT_PRED; i <= HT_TOKEN; i++)
		if (strlen(typenames[i]) == n && memcmp(typenames[i], s, n) == 0)
			return (HloType)i;
	return HT_NONE;
}

int
hlo_type_is_float(HloType t)
{
	return t == HT_F16 || t == HT_BF16 || t == HT_F32 || t == HT_F64;
}

int
hlo_type_is_int(HloType t)
{
	return t >= HT_S8 && t <= HT_U64;
}

const char *
hlo_cmp_name(HloCmp c)
{
	return c < NCMP ? cmpnames[c] : "<bad>";
}

HloModule *
hlo_module_new(Arena *a, Strtab *strs)
{
	HloModule *m = arena_alloc(a, sizeof *m);

	m->arena = a;
	m->strs = strs;
	m->entry = -1;
	m->ecl_result.type = HT_NONE;
	return m;
}

/* Appends an empty computation named 'name' (interned by the caller). */
HloComp *
hlo_comp_new(HloModule *m, const char *name)
{
	HloComp *c = arena_alloc(m->arena, sizeof *c);

	c->name = name;
	c->root = -1;
	vec_push(m->arena, &m->comp, c);
	return c;
}

/* Appends an instruction with no operands or attributes to c. */
HloInstr *
hlo_instr_new(HloModule *m, HloComp *c, HloOp op, const char *name)
{
	HloInstr *in = arena_alloc(m->arena, sizeof *in);

	in->op = op;
	in->name = name;
	in->callee = -1;
	in->meta.source_line = -1;
	vec_push(m->arena, &c->instr, in);
	if (op == HLO_PARAMETER)
		c->nparam++;
	return in;
}

/* Names are interned, so a pointer compare decides. */
int
hlo_find_comp(const HloModule *m, const char *name)
{
	int i;

	for (i = 0; i < m->comp.n; i++)
		if (m->comp.v[i]->name == name)
			return i;
	return -1;
}

/* Backwards: operands are usually defined just before their use. */
int
hlo_find_instr(const HloComp *c, const char *name)
{
	int i;

	for (i = c->instr.n - 1; i >= 0; i--)
		if (c->instr.v[i]->name == name)
			return i;
	return -1;
}

const HloComp *
hlo_entry(const HloModule *m)
{
	if (m->entry < 0 || m->entry >= m->comp.n)
		return NULL;
	return m->comp.v[m->entry];
}

const HloInstr *
hlo_param(const HloComp *c, int64_t n)
{
	int i;

	for (i = 0; i < c->instr.n; i++)
		if (c->instr.v[i]->op == HLO_PARAMETER && c->instr.v[i]->num == n)
			return c->instr.v[i];
	return NULL;
}
