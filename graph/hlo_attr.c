/*
 * hlo_attr.c - the reader's attribute parser: ", name=value" after an
 * instruction.  Attributes the IR models (hlo.md 1.7: dimensions=, index=,
 * slice=, dot dimension numbers, to_apply=, calls=, kind=, direction=,
 * custom_call_target=, metadata=, backend_config=) are parsed into fields
 * of HloInstr; any other attribute is kept verbatim (hp_opaque), so that
 * printing reproduces it.
 */
#include <string.h>

#include "graph/hlo_read.h"

enum {
	A_DIMS, A_INDEX, A_IOTA, A_DIRECTION, A_SLICE, A_LHS_BATCH,
	A_RHS_BATCH, A_LHS_CONTRACT, A_RHS_CONTRACT, A_TO_APPLY, A_CALLS,
	A_KIND, A_TARGET, A_METADATA, A_BACKEND, NATTR
};

static const char *attrname[NATTR] = {
	"dimensions", "index", "iota_dimension", "direction", "slice",
	"lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims",
	"rhs_contracting_dims", "to_apply", "calls", "kind",
	"custom_call_target", "metadata", "backend_config",
};

/* Whether attribute a is modelled for op (else it stays verbatim). */
static int
applies(int a, HloOp op)
{
	switch (a) {
	case A_DIMS:
		return op == HLO_BROADCAST || op == HLO_TRANSPOSE ||
		    op == HLO_REDUCE || op == HLO_CONCATENATE ||
		    op == HLO_REVERSE || op == HLO_SORT;
	case A_INDEX:
		return op == HLO_GTE;
	case A_IOTA:
		return op == HLO_IOTA;
	case A_DIRECTION:
		return op == HLO_COMPARE;
	case A_SLICE:
		return op == HLO_SLICE;
	case A_LHS_BATCH: case A_RHS_BATCH:
	case A_LHS_CONTRACT: case A_RHS_CONTRACT:
		return op == HLO_DOT;
	case A_TO_APPLY:
		return op == HLO_REDUCE || op == HLO_CALL || op == HLO_SORT ||
		    op == HLO_SCATTER || op == HLO_REDUCE_WINDOW;
	case A_CALLS: case A_KIND:
		return op == HLO_FUSION;
	case A_TARGET:
		return op == HLO_CUSTOM_CALL;
	default:
		return 1;
	}
}

const char *
hp_opaque(Parser *p)
{
	HLex *lx = &p->lx;
	Loc at = p->tok.loc;
	size_t from, to;
	int c;

	hlex_space(lx);
	from = lx->pos;
	c = from < lx->len ? (unsigned char)lx->src[from] : -1;
	if (c == '"' || c == '\'') {
		hp_next(p);
		to = p->tok.end;
	} else if (c == '{' || c == '(' || c == '[') {
		hp_next(p);
		to = hlex_skip_group(lx, c, p->tok.loc);
		if (to == (size_t)-1) {
			p->nerr++;
			hp_next(p);
			return NULL;
		}
	} else {
		to = hlex_skip_word(lx);
		if (to == from) {
			hp_error(p, at, "expected a value after '%.*s='",
			    p->tok.len, p->tok.s);
			hp_next(p);
			return NULL;
		}
	}
	hp_next(p);
	return hp_verbatim(p, from, to);
}

/* "{" [ INT { "," INT } ] "}" after an attribute name. */
int
hp_ints(Parser *p, HloInts *out)
{
	VEC(int64_t) v = {0};

	hp_next(p);
	if (!hp_expect(p, '{', "'{'"))
		return -1;
	while (p->tok.kind != '}') {
		if (p->tok.kind != HK_INT)
			return hp_expect(p, HK_INT, "an integer"), -1;
		vec_push(p->m->arena, &v, p->tok.ival);
		hp_next(p);
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, '}', "'}'"))
		return -1;
	out->v = v.v;
	out->n = v.n;
	out->has = 1;
	return 0;
}

static int
one_int(Parser *p, int64_t *out)
{
	hp_next(p);
	if (p->tok.kind != HK_INT || p->tok.ival < 0)
		return hp_expect(p, -1, "a non-negative integer"), -1;
	*out = p->tok.ival;
	hp_next(p);
	return 0;
}

/* An identifier value (direction=GT, kind=kLoop, to_apply=%add). */
static const char *
one_name(Parser *p, Loc *at)
{
	const char *s;

	hp_next(p);
	*at = p->tok.loc;
	if (p->tok.kind != HK_IDENT)
		return hp_expect(p, HK_IDENT, "a name"), NULL;
	s = hp_intern(p, p->tok.s, (size_t)p->tok.len);
	hp_next(p);
	return s;
}

static int
direction(Parser *p, HloInstr *in)
{
	Loc at;
	const char *s = one_name(p, &at);
	int i;

	if (!s)
		return -1;
	for (i = CMP_EQ; i < NCMP; i++)
		if (strcmp(s, hlo_cmp_name((HloCmp)i)) == 0) {
			in->cmp = (HloCmp)i;
			return 0;
		}
	hp_error(p, at, "unknown comparison direction '%s'", s);
	return -1;
}

static int
callee(Parser *p, HloInstr *in)
{
	Loc at;
	const char *s = one_name(p, &at);

	if (!s)
		return -1;
	if ((in->callee = hlo_find_comp(p->m, s)) < 0) {
		hp_error(p, at, "unknown computation '%s' (a called computation "
		    "must be defined before its use)", s);
		return -1;
	}
	if (p->m->comp.v[in->callee] == p->comp) {
		hp_error(p, at, "computation '%s' calls itself", s);
		return -1;
	}
	return 0;
}

/* slice={[start:limit], [start:limit:stride], ...} */
static int
slice(Parser *p, HloInstr *in)
{
	VEC(int64_t) lo = {0}, hi = {0}, st = {0};
	Arena *a = p->m->arena;

	hp_next(p);
	if (!hp_expect(p, '{', "'{'"))
		return -1;
	while (p->tok.kind == '[') {
		int64_t v[3] = { 0, 0, 1 };
		int i;
		hp_next(p);
		for (i = 0; i < 3; i++) {
			if (p->tok.kind != HK_INT)
				return hp_expect(p, HK_INT, "an integer"), -1;
			v[i] = p->tok.ival;
			hp_next(p);
			if (i == 2 || (i == 1 && p->tok.kind != ':'))
				break;
			if (!hp_expect(p, ':', "':'"))
				return -1;
		}
		if (!hp_expect(p, ']', "']'"))
			return -1;
		vec_push(a, &lo, v[0]);
		vec_push(a, &hi, v[1]);
		vec_push(a, &st, v[2]);
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, '}', "'}'"))
		return -1;
	in->slo = (HloInts){ lo.v, lo.n, 1 };
	in->shi = (HloInts){ hi.v, hi.n, 1 };
	in->sst = (HloInts){ st.v, st.n, 1 };
	return 0;
}

static const char *
strval(Parser *p)
{
	const char *s;

	if (p->tok.kind != HK_STRING)
		return hp_expect(p, HK_STRING, "a string"), NULL;
	s = arena_strndup(p->m->arena, p->tok.s, (size_t)p->tok.len);
	hp_next(p);
	return s;
}

/* One "key=value" of metadata={...}. */
static int
meta_item(Parser *p, HloMeta *mt, Buf *extra)
{
	const char *k = p->tok.s;
	int n = p->tok.len;
	size_t from = p->tok.pos;

#define KEY(s) ((size_t)n == strlen(s) && memcmp(k, s, (size_t)n) == 0)
	if (KEY("op_type") || KEY("op_name") || KEY("source_file")) {
		const char **dst = KEY("op_type") ? &mt->op_type :
		    KEY("op_name") ? &mt->op_name : &mt->source_file;
		hp_next(p);
		return (*dst = strval(p)) ? 0 : -1;
	}
	if (KEY("source_line"))
		return one_int(p, &mt->source_line);
#undef KEY
	if (!hp_opaque(p))
		return -1;
	if (extra->n)
		buf_putc(extra, ' ');
	buf_putn(extra, p->lx.src + from, p->tok.pos - from);
	while (extra->n && (extra->p[extra->n - 1] == ' ' ||
	    extra->p[extra->n - 1] == '\n' || extra->p[extra->n - 1] == ','))
		extra->n--;
	return 0;
}

/* metadata={op_type="..." op_name="..." source_file="..." source_line=N} */
static int
metadata(Parser *p, HloInstr *in)
{
	Buf extra = {0};
	int rc = 0;

	hp_next(p);
	if (!hp_expect(p, '{', "'{'"))
		return -1;
	in->meta.has = 1;
	while (p->tok.kind == HK_ATTR && rc == 0) {
		rc = meta_item(p, &in->meta, &extra);
		hp_accept(p, ',');
	}
	if (extra.n)
		in->meta.extra = arena_strndup(p->m->arena, extra.p, extra.n);
	buf_free(&extra);
	if (rc == 0 && !hp_expect(p, '}', "'}' or a metadata 'key='"))
		rc = -1;
	return rc;
}

static int
known(Parser *p, HloInstr *in, int a)
{
	switch (a) {
	case A_DIMS: return hp_ints(p, &in->dims);
	case A_INDEX: case A_IOTA: return one_int(p, &in->num);
	case A_DIRECTION: return direction(p, in);
	case A_SLICE: return slice(p, in);
	case A_LHS_BATCH: return hp_ints(p, &in->dot[DOT_LHS_BATCH]);
	case A_RHS_BATCH: return hp_ints(p, &in->dot[DOT_RHS_BATCH]);
	case A_LHS_CONTRACT: return hp_ints(p, &in->dot[DOT_LHS_CONTRACT]);
	case A_RHS_CONTRACT: return hp_ints(p, &in->dot[DOT_RHS_CONTRACT]);
	case A_TO_APPLY: case A_CALLS: return callee(p, in);
	case A_KIND: {
		Loc at;
		return (in->kind = one_name(p, &at)) ? 0 : -1;
	}
	case A_TARGET:
		hp_next(p);
		return (in->target = strval(p)) ? 0 : -1;
	case A_METADATA: return metadata(p, in);
	default:
		return (in->backend_config = hp_opaque(p)) ? 0 : -1;
	}
}

int
hp_attr(Parser *p, HloInstr *in)
{
	const char *name = hp_intern(p, p->tok.s, (size_t)p->tok.len);
	Loc at = p->tok.loc;
	HloAttr x;
	int a, i;

	for (a = 0; a < NATTR; a++)
		if (strcmp(name, attrname[a]) == 0 && applies(a, in->op))
			break;
	for (i = 0; i < in->attrs.n; i++)
		if (in->attrs.v[i].name == name)
			break;
	if ((a < NATTR && (p->seen & 1u << a)) || i < in->attrs.n) {
		hp_error(p, at, "duplicate attribute '%s'", name);
		return -1;
	}
	if (a < NATTR) {
		p->seen |= 1u << a;
		return known(p, in, a);
	}
	x.name = name;
	if (!(x.value = hp_opaque(p)))
		return -1;
	vec_push(p->m->arena, &in->attrs, x);
	return 0;
}

/* The attributes each opcode must have, as a mask of A_ bits. */
static unsigned
required(HloOp op)
{
	switch (op) {
	case HLO_BROADCAST: case HLO_TRANSPOSE: case HLO_CONCATENATE:
	case HLO_REVERSE:
		return 1u << A_DIMS;
	case HLO_REDUCE: case HLO_SORT: return 1u << A_DIMS | 1u << A_TO_APPLY;
	case HLO_SCATTER: case HLO_REDUCE_WINDOW: return 1u << A_TO_APPLY;
	case HLO_GTE: return 1u << A_INDEX;
	case HLO_IOTA: return 1u << A_IOTA;
	case HLO_COMPARE: return 1u << A_DIRECTION;
	case HLO_SLICE: return 1u << A_SLICE;
	case HLO_FUSION: return 1u << A_KIND | 1u << A_CALLS;
	case HLO_CALL: return 1u << A_TO_APPLY;
	case HLO_CUSTOM_CALL: return 1u << A_TARGET;
	default: return 0;
	}
}

int
hp_check_required(Parser *p, HloInstr *in)
{
	unsigned missing = required(in->op) & ~p->seen;
	int a;

	for (a = 0; a < NATTR; a++)
		if (missing & 1u << a) {
			hp_error(p, in->oploc, "'%s' needs the attribute '%s='",
			    hlo_op_name(in->op), attrname[a]);
			return -1;
		}
	return 0;
}
