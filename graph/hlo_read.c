/*
 * hlo_read.c - the HLO text reader: module header, computations and
 * instructions (hlo.md section 1.8), by recursive descent over hlo_lex.c.
 * Shapes and literals are in hlo_read_shape.c, attributes in hlo_attr.c.
 *
 * After an error in an instruction the reader skips to the next line that
 * starts with a name or '}', keeps the failed name defined (as an invalid
 * instruction, so later uses do not cascade) and goes on.
 */
#include <stdarg.h>
#include <string.h>

#include "graph/hlo_read.h"

void
hp_next(Parser *p)
{
	hlex_next(&p->lx, &p->tok);
}

int
hp_accept(Parser *p, int kind)
{
	if (p->tok.kind != kind)
		return 0;
	hp_next(p);
	return 1;
}

void
hp_error(Parser *p, Loc at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_report(p->d, DIAG_ERROR, at, fmt, ap);
	va_end(ap);
	p->nerr++;
}

/* The current token for messages: 'text', a string, or end of file. */
static const char *
tokdesc(Parser *p, char *buf, size_t n)
{
	const HTok *t = &p->tok;
	int len = (int)(t->end - t->pos);

	if (t->kind == HK_EOF)
		return "end of file";
	if (t->kind == HK_STRING)
		return "a string";
	if (len > 40)
		len = 40;
	snprintf(buf, n, "'%.*s'", len, p->lx.src + t->pos);
	return buf;
}

int
hp_expect(Parser *p, int kind, const char *what)
{
	char buf[64];

	if (hp_accept(p, kind))
		return 1;
	hp_error(p, p->tok.loc, "expected %s, found %s", what,
	    tokdesc(p, buf, sizeof buf));
	return 0;
}

const char *
hp_intern(Parser *p, const char *s, size_t n)
{
	return strtab_intern(p->m->strs, s, n);
}

/* The current token is the bare word 'word' (no '%', no ':' or '='). */
int
hp_is(const Parser *p, const char *word)
{
	return p->tok.kind == HK_IDENT && !p->tok.pct &&
	    (size_t)p->tok.len == strlen(word) &&
	    memcmp(p->tok.s, word, (size_t)p->tok.len) == 0;
}

static int
isopen(int c)
{
	return c == '{' || c == '[' || c == '(' || c == ',' || c == ':';
}

const char *
hp_verbatim(Parser *p, size_t from, size_t to)
{
	const char *s = p->lx.src;
	Buf b = {0};
	const char *r;
	size_t i = from, j;
	int q = 0;

	while (i < to) {
		char c = s[i];
		if (q) {
			buf_putc(&b, c);
			if (c == '\\' && i + 1 < to)
				buf_putc(&b, s[++i]);
			else if (c == q)
				q = 0;
			i++;
			continue;
		}
		if (c == '"' || c == '\'')
			q = c;
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			buf_putc(&b, c);
			i++;
			continue;
		}
		for (j = i; j < to && (s[j] == ' ' || s[j] == '\t' ||
		    s[j] == '\n' || s[j] == '\r'); j++)
			;
		if (!memchr(s + i, '\n', j - i))
			buf_putn(&b, s + i, j - i);
		else if (b.n && !isopen(b.p[b.n - 1]) && j < to &&
		    !strchr("}])", s[j]))
			buf_putc(&b, ' ');
		i = j;
	}
	r = arena_strndup(p->m->arena, b.p ? b.p : "", b.n);
	buf_free(&b);
	return r;
}

/* Skips to a token starting a line that may begin an instruction or '}'. */
static void
recover(Parser *p)
{
	size_t start = p->tok.pos;
	int depth = 0;

	while (p->tok.kind != HK_EOF) {
		if ((p->tok.pos != start || p->tok.kind == '}') &&
		    p->tok.bol && depth <= 0 &&
		    (p->tok.kind == HK_IDENT || p->tok.kind == HK_ATTR ||
		    p->tok.kind == '}'))
			return;
		depth += p->tok.kind == '{';
		depth -= p->tok.kind == '}';
		hp_next(p);
	}
}

/* operands := [ [shape] NAME { "," [shape] NAME } ] */
static int
operands(Parser *p, HloInstr *in)
{
	VEC(int) ops = {0};
	HloShape ignored;

	while (p->tok.kind != ')') {
		int k;
		if (hp_at_shape(p) && hp_shape(p, &ignored) != 0)
			return -1;
		if (p->tok.kind != HK_IDENT)
			return hp_expect(p, HK_IDENT, "an operand name"), -1;
		k = hlo_find_instr(p->comp, hp_intern(p, p->tok.s,
		    (size_t)p->tok.len));
		if (k < 0) {
			hp_error(p, p->tok.loc, "use of undefined value '%.*s'",
			    p->tok.len, p->tok.s);
			return -1;
		}
		vec_push(p->m->arena, &ops, k);
		hp_next(p);
		if (!hp_accept(p, ','))
			break;
	}
	in->operand = ops.v;
	in->noperand = ops.n;
	return 0;
}

/* The part in parentheses: parameter(N), constant(literal), operands. */
static int
call_part(Parser *p, HloInstr *in, int has_shape)
{
	if (!hp_expect(p, '(', "'(' after the opcode"))
		return -1;
	if (in->op == HLO_PARAMETER) {
		if (p->tok.kind != HK_INT || p->tok.ival < 0)
			return hp_expect(p, -1, "a parameter number"), -1;
		in->num = p->tok.ival;
		hp_next(p);
	} else if (in->op == HLO_CONSTANT) {
		if (!has_shape) {
			hp_error(p, in->oploc, "'constant' needs its result "
			    "shape written before the opcode");
			return -1;
		}
		if (hp_literal(p, in) != 0)
			return -1;
	} else if (operands(p, in) != 0)
		return -1;
	return hp_expect(p, ')', "')'") ? 0 : -1;
}

/* Fills in->shape from the operands when the text left it out. */
static int
infer(Parser *p, HloInstr *in)
{
	char why[256] = "";
	int rc = hlo_infer_shape(p->m, p->comp, in, &in->shape, why,
	    sizeof why);

	if (rc == HLO_INFER_OK)
		return 0;
	if (rc == HLO_INFER_NONE)
		hp_error(p, in->oploc, "'%s' needs its result shape written "
		    "before the opcode", hlo_op_name(in->op));
	else if (why[0])
		hp_error(p, in->oploc, "%s", why);
	return -1;
}

/* XLA opcodes this reader does not take, for a clearer message. */
static int
known_elsewhere(const char *s, int n)
{
	static const char *const names[] = {
		"map", "select-and-scatter", "rng", "rng-bit-generator",
		"rng-get-and-update-state", "reduce-precision", "fft",
		"cholesky", "triangular-solve", "cbrt", "tan", "popcnt",
		"count-leading-zeros", "real", "imag", "complex", "topk",
		"batch-norm-training", "batch-norm-inference", "batch-norm-grad",
		"get-dimension-size", "set-dimension-size", "dynamic-reshape",
		"domain", "scaled-dot", "ragged-dot", "stochastic-convert",
		"ragged-all-to-all",
	};
	size_t i;

	for (i = 0; i < countof(names); i++)
		if (strlen(names[i]) == (size_t)n && !memcmp(names[i], s, n))
			return 1;
	return 0;
}

static HloOp
opcode(Parser *p)
{
	HloOp op;

	if (p->tok.kind != HK_IDENT || p->tok.pct) {
		hp_expect(p, -1, "an opcode");
		return HLO_INVALID;
	}
	op = hlo_op_lookup(p->tok.s, (size_t)p->tok.len);
	if (op == HLO_INVALID)
		hp_error(p, p->tok.loc, "%s HLO opcode '%.*s'",
		    known_elsewhere(p->tok.s, p->tok.len) ? "unsupported" :
		    "unknown", p->tok.len, p->tok.s);
	return op;
}

/*
 * The rest of an instruction, from the shape: 0, -1 on a syntax error
 * (the reader must recover), -2 when the instruction was read to its end
 * but is wrong (a missing attribute, shape inference).
 */
static int
instr_body(Parser *p, HloInstr *in)
{
	int has_shape = 0;
	HloOp op;

	if (hp_at_shape(p)) {
		if (hp_shape(p, &in->shape) != 0)
			return -1;
		has_shape = 1;
	}
	in->oploc = p->tok.loc;
	if ((op = opcode(p)) == HLO_INVALID)
		return -1;
	in->op = op;
	hp_next(p);
	if (call_part(p, in, has_shape) != 0)
		return -1;
	p->seen = 0;
	while (hp_accept(p, ',')) {
		if (p->tok.kind != HK_ATTR)
			return hp_expect(p, HK_ATTR, "an attribute 'name='"), -1;
		if (hp_attr(p, in) != 0)
			return -1;
	}
	if (p->tok.kind != '}' && p->tok.kind != HK_EOF && !p->tok.bol)
		return hp_expect(p, ',', "',' or a new line"), -1;
	/* read to its end: a failure from here on needs no recovery */
	if (hp_check_required(p, in) != 0)
		return -2;
	return has_shape ? 0 : infer(p, in) ? -2 : 0;
}

/* The instruction's name: "NAME =" or "NAME=" (lexed as one token). */
static const char *
instr_name(Parser *p, Loc *at)
{
	const char *name;

	*at = p->tok.loc;
	if (p->tok.kind != HK_IDENT && p->tok.kind != HK_ATTR) {
		hp_expect(p, HK_IDENT, "an instruction name");
		return NULL;
	}
	name = hp_intern(p, p->tok.s, (size_t)p->tok.len);
	if (p->tok.kind == HK_ATTR)
		hp_next(p);
	else {
		hp_next(p);
		if (!hp_expect(p, '=', "'=' after the instruction name"))
			return NULL;
	}
	return name;
}

/* instruction ::= ["ROOT"] NAME "=" [shape] OPCODE "(" ... ")" {"," attr} */
static void
instruction(Parser *p)
{
	HloComp *c = p->comp;
	int is_root = 0, prev, rc;
	const char *name;
	HloInstr *in;
	Loc at;

	if (hp_is(p, "ROOT")) {
		is_root = 1;
		hp_next(p);
	}
	if (!(name = instr_name(p, &at))) {
		recover(p);
		return;
	}
	if ((prev = hlo_find_instr(c, name)) >= 0) {
		hp_error(p, at, "instruction '%s' is defined twice", name);
		diag_note(p->d, c->instr.v[prev]->loc, "first defined here");
	}
	in = hlo_instr_new(p->m, c, HLO_INVALID, name);
	in->loc = at;
	if ((rc = instr_body(p, in)) != 0) {
		in->op = HLO_INVALID;
		if (rc == -1)
			recover(p);
	} else if (in->op == HLO_PARAMETER)
		c->nparam++;
	if (is_root) {
		if (c->root >= 0)
			hp_error(p, at, "computation '%s' has a second ROOT",
			    c->name);
		c->root = c->instr.n - 1;
	}
}

/* signature ::= "(" [ LABEL shape { "," LABEL shape } ] ")" "->" shape */
static int
signature(Parser *p)
{
	HloShape s;

	hp_next(p);
	while (p->tok.kind != ')') {
		if (!hp_expect(p, HK_LABEL, "a parameter 'name:'") ||
		    hp_shape(p, &s) != 0)
			return -1;
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, ')', "')'") || !hp_expect(p, HK_ARROW, "'->'"))
		return -1;
	return hp_shape(p, &s);
}

static void
comp_body(Parser *p, HloComp *c)
{
	Loc open = p->tok.loc;

	if (!hp_expect(p, '{', "'{' to begin the computation")) {
		recover(p);
		return;
	}
	while (p->tok.kind != '}' && p->tok.kind != HK_EOF) {
		size_t before = p->tok.pos;
		instruction(p);
		if (p->tok.pos == before)
			hp_next(p);	/* never loop on one token */
	}
	if (p->tok.kind == HK_EOF) {
		hp_error(p, open, "computation '%s' is not closed", c->name);
		return;
	}
	hp_next(p);
	if (c->instr.n == 0)
		hp_error(p, c->loc, "computation '%s' has no instructions",
		    c->name);
	else if (c->root < 0)
		c->root = c->instr.n - 1;
}

/* computation ::= ["ENTRY"] NAME [signature] "{" instruction+ "}" [thread] */
static void
computation(Parser *p)
{
	HloModule *m = p->m;
	int is_entry = 0, prev;
	const char *name;
	HloComp *c;

	if (hp_is(p, "ENTRY")) {
		is_entry = 1;
		hp_next(p);
	}
	if (p->tok.kind != HK_IDENT) {
		hp_expect(p, HK_IDENT, "a computation name");
		hp_next(p);
		recover(p);
		return;
	}
	name = hp_intern(p, p->tok.s, (size_t)p->tok.len);
	if ((prev = hlo_find_comp(m, name)) >= 0) {
		hp_error(p, p->tok.loc, "computation '%s' is defined twice",
		    name);
		diag_note(p->d, m->comp.v[prev]->loc, "first defined here");
	}
	c = hlo_comp_new(m, name);
	c->loc = p->tok.loc;
	c->is_entry = is_entry;
	p->comp = c;
	hp_next(p);
	if (p->tok.kind == '(' && signature(p) != 0) {
		recover(p);
		return;
	}
	comp_body(p, c);
	if (is_entry && m->entry >= 0)
		hp_error(p, c->loc, "a second ENTRY computation ('%s')", name);
	else if (is_entry)
		m->entry = m->comp.n - 1;
	if (p->tok.kind == ',' ) {
		hp_next(p);
		if (p->tok.kind == HK_ATTR && p->tok.len == 16 &&
		    !memcmp(p->tok.s, "execution_thread", 16))
			c->exec_thread = hp_opaque(p);
		else
			hp_expect(p, HK_ATTR, "'execution_thread='");
	}
}

/* entry_computation_layout={(shape, ...)->shape} */
static int
entry_layout(Parser *p)
{
	HloModule *m = p->m;
	HloShape s;

	hp_next(p);
	if (!hp_expect(p, '{', "'{'") || !hp_expect(p, '(', "'('"))
		return -1;
	while (p->tok.kind != ')') {
		if (hp_shape(p, &s) != 0)
			return -1;
		vec_push(m->arena, &m->ecl_param, s);
		if (!hp_accept(p, ','))
			break;
	}
	if (!hp_expect(p, ')', "')'") || !hp_expect(p, HK_ARROW, "'->'") ||
	    hp_shape(p, &m->ecl_result) != 0 || !hp_expect(p, '}', "'}'"))
		return -1;
	m->has_ecl = 1;
	return 0;
}

/* "HloModule" NAME { "," ATTR "=" value } */
static void
header(Parser *p)
{
	HloModule *m = p->m;

	hp_next(p);
	if (p->tok.kind != HK_IDENT) {
		hp_expect(p, HK_IDENT, "the module name");
		recover(p);
		return;
	}
	m->name = hp_intern(p, p->tok.s, (size_t)p->tok.len);
	hp_next(p);
	while (hp_accept(p, ',')) {
		HloAttr a;
		if (p->tok.kind != HK_ATTR) {
			hp_expect(p, HK_ATTR, "a module attribute 'name='");
			recover(p);
			return;
		}
		a.name = hp_intern(p, p->tok.s, (size_t)p->tok.len);
		a.value = NULL;
		if (strcmp(a.name, "entry_computation_layout") == 0) {
			if (m->has_ecl || entry_layout(p) != 0) {
				if (m->has_ecl)
					hp_error(p, p->tok.loc, "duplicate "
					    "entry_computation_layout");
				recover(p);
				return;
			}
		} else if (!(a.value = hp_opaque(p)))
			return;
		vec_push(m->arena, &m->attrs, a);
	}
	if (hp_is(p, "FileNames") || hp_is(p, "StackFrames")) {
		hp_error(p, p->tok.loc, "stack frame tables are not supported");
		recover(p);
	}
}

/* One module: the text [from, to) of the file, starting at 'line'. */
static HloModule *
read_one(Diag *d, int file, Arena *a, Strtab *strs, size_t from, size_t to,
    int line)
{
	Parser p;
	int base = d->nerror;

	memset(&p, 0, sizeof p);
	p.d = d;
	p.m = hlo_module_new(a, strs);
	hlex_init(&p.lx, d, file);
	p.lx.pos = from;
	p.lx.len = to;
	p.lx.line = line;
	hp_next(&p);
	if (hp_is(&p, "HloModule"))
		header(&p);
	while (p.tok.kind != HK_EOF) {
		size_t before = p.tok.pos;
		computation(&p);
		if (p.tok.pos == before)
			hp_next(&p);
	}
	if (p.m->comp.n == 0 && d->nerror == base)
		hp_error(&p, p.tok.loc, "no computations in the HLO text");
	if (p.m->entry < 0)
		p.m->entry = p.m->comp.n - 1;
	return d->nerror > base ? NULL : p.m;
}

/*
 * The offset of the next "// -----" line at or after 'from' (lit's
 * --split-input-file separator, which --emit=hlo writes between
 * modules), or 'len'; *line counts the lines passed.
 */
static size_t
next_split(const char *s, size_t from, size_t len, int *line)
{
	size_t i = from, j;

	while (i < len) {
		for (j = i; j < len && (s[j] == ' ' || s[j] == '\t'); j++)
			;
		if (len - j >= 8 && memcmp(s + j, "// -----", 8) == 0)
			return i;
		while (i < len && s[i] != '\n')
			i++;
		if (i < len) {
			i++;
			++*line;
		}
	}
	return len;
}

HloModule *
hlo_read(Diag *d, int file, Arena *a, Strtab *strs)
{
	const SrcFile *f = srcmgr_file(d->sm, file);
	const char *s = f ? f->text : "";
	size_t len = f ? f->len : 0, from = 0, to;
	HloModule *first = NULL, **link = &first;
	int line = 1, start, failed = 0;

	do {
		start = line;
		to = next_split(s, from, len, &line);
		*link = read_one(d, file, a, strs, from, to, start);
		if (!*link)
			failed = 1;
		else
			link = &(*link)->next;
		if (to < len) {		/* past the separator line */
			while (to < len && s[to] != '\n')
				to++;
			if (to < len) {
				to++;
				line++;
			}
		}
		from = to;
	} while (from < len);
	return failed ? NULL : first;
}
