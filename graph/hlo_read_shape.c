/*
 * hlo_read_shape.c - the reader's shapes, layouts and constant literals:
 *
 *     shape   ::= TYPE "[" [ INT { "," INT } ] "]" [ layout ]
 *               | "(" [ shape { "," shape } ] ")"
 *     layout  ::= "{" [ INT { "," INT } ] [ ":" suffixes ] "}"
 *     literal ::= scalar | "{" [ literal { "," literal } ] "}"
 *
 * A '{' after a shape starts a layout only when an integer or ':' follows
 * it (otherwise it opens a computation body).  Tuple shapes nest at most
 * HLO_MAXDEPTH deep.
 */
#include <ctype.h>
#include <string.h>

#include "graph/hlo_read.h"

int
hp_at_shape(const Parser *p)
{
	if (p->tok.kind == '(')
		return 1;
	return p->tok.kind == HK_IDENT && !p->tok.pct &&
	    p->tok.end < p->lx.len && p->lx.src[p->tok.end] == '[';
}

/* Whether the '{' just ahead opens a layout: an INT or ':' follows. */
static int
layout_ahead(const Parser *p)
{
	size_t i = p->tok.end;
	const char *s = p->lx.src;

	if (p->tok.kind != '{')
		return 0;
	while (i < p->lx.len && isspace((unsigned char)s[i]))
		i++;
	return i < p->lx.len && (isdigit((unsigned char)s[i]) || s[i] == ':');
}

/* "(" [ INT|"*" { "," INT|"*" } ] ")" */
static int
tile(Parser *p, HloLayout *l)
{
	HloTile *t;

	if (l->ntile == HLO_MAXTILES) {
		hp_error(p, p->tok.loc, "more than %d tiles in a layout",
		    HLO_MAXTILES);
		return -1;
	}
	t = &l->tile[l->ntile++];
	hp_next(p);
	while (p->tok.kind != ')') {
		if (t->n == HLO_MAXRANK) {
			hp_error(p, p->tok.loc, "a tile has more than %d "
			    "dimensions", HLO_MAXRANK);
			return -1;
		}
		if (p->tok.kind == '*')
			t->d[t->n++] = -1;
		else if (p->tok.kind == HK_INT && p->tok.ival > 0)
			t->d[t->n++] = p->tok.ival;
		else
			return hp_expect(p, -1, "a positive tile size or '*'"), -1;
		hp_next(p);
		if (!hp_accept(p, ','))
			break;
	}
	return hp_expect(p, ')', "')'") ? 0 : -1;
}

/* A suffix kept as text: NAME "(" ... ")" appended to *dst. */
static int
verbatim_suffix(Parser *p, const char **dst)
{
	size_t from = p->tok.pos, to;

	hp_next(p);
	if (p->tok.kind != '(')
		return hp_expect(p, '(', "'('"), -1;
	to = hlex_skip_group(&p->lx, '(', p->tok.loc);
	if (to == (size_t)-1) {
		p->nerr++;
		hp_next(p);
		return -1;
	}
	hp_next(p);
	*dst = *dst ? arena_printf(p->m->arena, "%s%.*s", *dst,
	    (int)(to - from), p->lx.src + from) :
	    arena_strndup(p->m->arena, p->lx.src + from, to - from);
	return 0;
}

static int
suffix(Parser *p, HloLayout *l)
{
	if (hp_is(p, "T")) {
		hp_next(p);
		if (p->tok.kind != '(')
			return hp_expect(p, '(', "'(' after 'T'"), -1;
		while (p->tok.kind == '(')
			if (tile(p, l) != 0)
				return -1;
		return 0;
	}
	if (hp_is(p, "S")) {
		hp_next(p);
		if (!hp_expect(p, '(', "'('"))
			return -1;
		if (p->tok.kind != HK_INT || p->tok.ival < 0)
			return hp_expect(p, -1, "a memory space number"), -1;
		l->memspace = p->tok.ival;
		hp_next(p);
		return hp_expect(p, ')', "')'") ? 0 : -1;
	}
	if (hp_is(p, "L") || hp_is(p, "E") || p->tok.kind == '#' ||
	    p->tok.kind == '*')
		return verbatim_suffix(p, &l->mid);
	if (hp_is(p, "SC") || hp_is(p, "P") || hp_is(p, "M"))
		return verbatim_suffix(p, &l->post);
	if (hp_is(p, "D"))
		hp_error(p, p->tok.loc, "sparse layouts (D(...)) are not "
		    "supported");
	else
		return hp_expect(p, -1, "a layout suffix (T, S, L, E, ...)"), -1;
	return -1;
}

/* layout ::= "{" [ INT { "," INT } ] [ ":" suffixes ] "}" */
static int
layout(Parser *p, HloLayout *l)
{
	hp_next(p);
	l->has = 1;
	while (p->tok.kind == HK_INT) {
		if (l->nm2m == HLO_MAXRANK) {
			hp_error(p, p->tok.loc, "layout has more than %d "
			    "dimensions", HLO_MAXRANK);
			return -1;
		}
		if (p->tok.ival < 0 || p->tok.ival >= HLO_MAXRANK)
			return hp_expect(p, -1, "a dimension number"), -1;
		l->m2m[l->nm2m++] = (int)p->tok.ival;
		hp_next(p);
		if (!hp_accept(p, ','))
			break;
	}
	if (hp_accept(p, ':'))
		while (p->tok.kind != '}' && p->tok.kind != HK_EOF)
			if (suffix(p, l) != 0)
				return -1;
	return hp_expect(p, '}', "'}' to close the layout") ? 0 : -1;
}

static int
dims(Parser *p, HloShape *s)
{
	while (p->tok.kind != ']') {
		if (p->tok.kind == HK_LE || p->tok.kind == '?') {
			hp_error(p, p->tok.loc, "dynamic dimensions are not "
			    "supported");
			return -1;
		}
		if (p->tok.kind != HK_INT || p->tok.ival < 0)
			return hp_expect(p, -1, "a dimension size"), -1;
		if (s->rank == HLO_MAXRANK) {
			hp_error(p, p->tok.loc, "shapes of rank above %d are "
			    "not supported", HLO_MAXRANK);
			return -1;
		}
		s->dim[s->rank++] = p->tok.ival;
		hp_next(p);
		if (!hp_accept(p, ','))
			break;
	}
	return hp_expect(p, ']', "']'") ? 0 : -1;
}

static int
tuple_shape(Parser *p, HloShape *s)
{
	VEC(HloShape) el = {0};
	HloShape e;

	hp_next(p);
	while (p->tok.kind != ')') {
		if (hp_shape(p, &e) != 0)
			return -1;
		vec_push(p->m->arena, &el, e);
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, ')', "')' to close the tuple shape"))
		return -1;
	*s = hlo_shape_tuple(p->m->arena, el.v, el.n);
	return 0;
}

static int
array_shape(Parser *p, HloShape *s)
{
	s->type = hlo_type_lookup(p->tok.s, (size_t)p->tok.len);
	if (s->type == HT_NONE) {
		hp_error(p, p->tok.loc, "unknown or unsupported element type "
		    "'%.*s'", p->tok.len, p->tok.s);
		return -1;
	}
	hp_next(p);
	if (!hp_expect(p, '[', "'['") || dims(p, s) != 0)
		return -1;
	return layout_ahead(p) ? layout(p, &s->layout) : 0;
}

int
hp_shape(Parser *p, HloShape *s)
{
	int rc;

	memset(s, 0, sizeof *s);
	if (p->depth >= HLO_MAXDEPTH) {
		hp_error(p, p->tok.loc, "shape is nested too deeply");
		return -1;
	}
	p->depth++;
	if (p->tok.kind == '(')
		rc = tuple_shape(p, s);
	else if (p->tok.kind == HK_IDENT && !p->tok.pct)
		rc = array_shape(p, s);
	else
		rc = (hp_expect(p, -1, "a shape"), -1);
	p->depth--;
	return rc;
}

/* ---------------------------------------------------------- literals */

typedef VEC(HloElem) Vals;

static int
int_value(Parser *p, HloType t, HloElem *v)
{
	static const int64_t lo[] = { [HT_S8] = -128, [HT_S16] = -32768,
	    [HT_S32] = -2147483647 - 1, [HT_S64] = INT64_MIN };
	static const int64_t hi[] = { [HT_S8] = 127, [HT_S16] = 32767,
	    [HT_S32] = 2147483647, [HT_S64] = INT64_MAX, [HT_U8] = 255,
	    [HT_U16] = 65535, [HT_U32] = 4294967295LL, [HT_U64] = INT64_MAX };
	int64_t x = p->tok.ival;

	if (p->tok.kind == HK_UINT && t == HT_U64) {
		v->i = (int64_t)p->tok.uval;	/* u64 keeps its bits */
		return 0;
	}
	if (p->tok.kind == HK_UINT) {
		hp_error(p, p->tok.loc, "%llu does not fit in %s",
		    (unsigned long long)p->tok.uval, hlo_type_name(t));
		return -1;
	}
	if (p->tok.kind != HK_INT)
		return hp_expect(p, -1, "an integer"), -1;
	if (x < (t <= HT_S64 ? lo[t] : 0) || x > hi[t]) {
		hp_error(p, p->tok.loc, "%lld does not fit in %s",
		    (long long)x, hlo_type_name(t));
		return -1;
	}
	v->i = x;
	return 0;
}

static int
float_value(Parser *p, HloType t, double *v)
{
	if (p->tok.kind == HK_INT || p->tok.kind == HK_FLOAT ||
	    p->tok.kind == HK_UINT)
		*v = p->tok.fval;
	else
		return hp_expect(p, -1, "a number"), -1;
	if (t == HT_F32)
		*v = (float)*v;
	else if (t == HT_BF16)
		*v = hlo_bf16_to_f32(hlo_f32_to_bf16((float)*v));
	else if (t == HT_F16)
		*v = hlo_f16_to_f32(hlo_f32_to_f16((float)*v));
	return 0;
}

static int
scalar(Parser *p, HloType t, Vals *vals)
{
	HloElem v = { .i = 0 };
	int rc;

	if (t == HT_PRED) {
		rc = 0;
		if (hp_is(p, "true") || hp_is(p, "false"))
			v.i = hp_is(p, "true");
		else if (p->tok.kind == HK_INT && (p->tok.ival == 0 ||
		    p->tok.ival == 1))
			v.i = p->tok.ival;
		else
			rc = (hp_expect(p, -1, "true or false"), -1);
	} else if (hlo_type_is_int(t))
		rc = int_value(p, t, &v);
	else if (hlo_type_is_float(t))
		rc = float_value(p, t, &v.f);
	else {
		hp_error(p, p->tok.loc, "constants of type %s are not "
		    "supported", hlo_type_name(t));
		rc = -1;
	}
	if (rc == 0) {
		vec_push(p->m->arena, vals, v);
		hp_next(p);
	}
	return rc;
}

static int
elided(Parser *p)
{
	hp_error(p, p->tok.loc, "a constant elided in part cannot be read: "
	    "only a whole '{...}' stands for unknown values");
	return -1;
}

/* The '{' just lexed opens "{...}" (the text after it is "..."). */
static int
elided_whole(const Parser *p)
{
	const char *s = p->lx.src;
	size_t i = p->tok.end, n = p->lx.len;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return i + 3 <= n && memcmp(s + i, "...", 3) == 0;
}

/* Dimension d of the literal: "{" elements "}", or a scalar at the end. */
static int
level(Parser *p, const HloShape *s, int d, Vals *vals)
{
	Loc open = p->tok.loc;
	int64_t count = 0;

	if (d == s->rank)
		return scalar(p, s->type, vals);
	if (p->tok.kind == HK_ELLIPSIS)
		return elided(p);
	if (!hp_expect(p, '{', "'{'"))
		return -1;
	while (p->tok.kind != '}') {
		if (p->tok.kind == HK_ELLIPSIS)
			return elided(p);
		if (level(p, s, d + 1, vals) != 0)
			return -1;
		count++;
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, '}', "'}'"))
		return -1;
	if (count != s->dim[d]) {
		hp_error(p, open, "constant has %lld elements in dimension %d, "
		    "its shape says %lld", (long long)count, d,
		    (long long)s->dim[d]);
		return -1;
	}
	return 0;
}

/* The literal of constant(...): values in major-to-minor order. */
int
hp_literal(Parser *p, HloInstr *in)
{
	Vals vals = {0};

	if (in->shape.type == HT_TUPLE) {
		hp_error(p, p->tok.loc, "tuple constants are not supported");
		return -1;
	}
	if (p->tok.kind == '{' && elided_whole(p)) {
		hp_next(p);
		hp_next(p);
		if (!hp_expect(p, '}', "'}' after '...'"))
			return -1;
		in->lit.elided = 1;
		return 0;
	}
	if (level(p, &in->shape, 0, &vals) != 0)
		return -1;
	in->lit.v = vals.v;
	in->lit.n = vals.n;
	return 0;
}
