/*
 * asm.c - the assembler: text in the syntax of doc/machine.md
 * ("Assembly syntax") to a checked MachProgram.
 *
 *	line   := { name ':' } [ bundle | '{' | '}' | directive ] [ comment ]
 *	bundle := op { ';' op }          one bundle per line, or
 *	          '{' op { (';' | newline) op } '}'   across lines
 *
 * Each line is read on its own (asmins.c reads ops, asmdir.c
 * directives); names used before their definition (labels, regions,
 * data labels) are resolved after the last line.  Errors are reported
 * and reading goes on, so one run shows every independent error.  The
 * program is built only when there were none, and mach_program_check()
 * has the final say.  Each bundle's ops are stored in slot-class order
 * (stable), the order decoding gives back, so images round-trip exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/asm.h"

int
asm_ref(Asm *a, RefKind k, uint32_t at, const Tok *t)
{
	Ref *r = ASM_PUSH(a, a->ref);

	if (!r)
		return -1;
	r->kind = (uint8_t)k;
	r->at = at;
	r->loc = t->loc;
	r->name = asm_tokstr(a, t);
	return r->name ? 0 : -1;
}

/* Defines label 'name' at the next bundle (or data offset in .data). */
static void
define_label(Asm *a, const Tok *t)
{
	Sym *s;

	if (a->inbrace) {
		asm_error(a, t->loc, "a label cannot be inside '{ ... }'");
		return;
	}
	if (!(s = ASM_PUSH(a, a->sym)))
		return;
	s->loc = t->loc;
	s->isdata = a->datamode;
	s->value = a->datamode ? ASM_UNBOUND : a->bundle.n;
	s->name = asm_tokstr(a, t);
}

/* ---------------------------------------------------------- bundles */

/* Slot counts and control ops, reported at the op that overflows. */
static int
check_slots(Asm *a, const AsmOp *op, uint32_t n)
{
	int used[NMACHUNIT] = { 0 }, u, bad = 0;
	const AsmOp *ctrl = NULL;
	uint32_t i;

	for (i = 0; i < n; i++) {
		u = mach_opinfo[op[i].in.op].unit;
		if (++used[u] == a->mp->slots[u] + 1) {
			asm_error(a, op[i].loc, "too many %s ops in one bundle: "
			    "preset '%s' has %d %s slot%s", mach_unit_name(u),
			    a->mp->name, a->mp->slots[u], mach_unit_name(u),
			    a->mp->slots[u] == 1 ? "" : "s");
			bad = 1;
		}
		if (!(mach_opinfo[op[i].in.op].flags & MACH_F_CTRL))
			continue;
		if (ctrl) {
			asm_error(a, op[i].loc, "two control ops in one bundle "
			    "('%s' and '%s'): at most one is allowed",
			    mach_opinfo[ctrl->in.op].name,
			    mach_opinfo[op[i].in.op].name);
			bad = 1;
		}
		ctrl = &op[i];
	}
	return bad;
}

/* Stable insertion sort by slot class: the order decoding gives. */
static void
slot_order(AsmOp *op, uint32_t n)
{
	uint32_t i, j;
	AsmOp t;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && mach_opinfo[op[j - 1].in.op].unit >
		    mach_opinfo[op[j].in.op].unit; j--) {
			t = op[j];
			op[j] = op[j - 1];
			op[j - 1] = t;
		}
}

/* Ends the current bundle: checks it, stores it, binds pending names. */
static void
close_bundle(Asm *a)
{
	AsmBundle *b;
	uint32_t i;

	a->open = 0;
	check_slots(a, a->cur.v, a->cur.n);
	slot_order(a->cur.v, a->cur.n);
	if (!(b = ASM_PUSH(a, a->bundle)))
		return;
	b->first = a->op.n;
	b->n = a->cur.n;
	b->loc = a->bloc;
	for (i = 0; i < a->cur.n; i++) {
		if (asm_grow(a, &a->op.v, &a->op.cap, a->op.n, sizeof *a->op.v))
			break;
		a->op.v[a->op.n++] = a->cur.v[i];
	}
	a->cur.n = 0;
	for (i = 0; i < a->entry.n; i++)
		if (a->entry.v[i].pending) {
			a->entry.v[i].pending = 0;
			a->entry.v[i].e.pc = a->bundle.n - 1;
		}
	if (a->loc_pending) {
		a->debug.v[a->debug.n - 1].d.bundle = a->bundle.n - 1;
		a->loc_pending = 0;
	}
	a->started = 1;
}

/* ops separated by ';' up to the end of the line or a '}'. */
static void
read_ops(Asm *a, Lexer *lx)
{
	AsmOp op, *q;

	while (lx->t.kind != T_END && !asm_is(lx, '}')) {
		if (!a->open) {
			a->open = 1;
			a->bloc = lx->t.loc;
		}
		if (asm_op(a, lx, &op) == 0 && op.in.op != OP_NOP) {
			if ((q = ASM_PUSH(a, a->cur)) != NULL)
				*q = op;
		} else
			free(op.ref);
		if (lx->t.kind == T_END || asm_is(lx, '}'))
			break;
		if (!asm_is(lx, ';')) {
			asm_error(a, lx->t.loc, "expected ';' between ops, "
			    "found '%.*s'", (int)lx->t.len, lx->t.p);
			return;
		}
		asm_next(lx);
		if (lx->t.kind == T_END && !a->inbrace)
			asm_error(a, lx->t.loc, "expected an op after ';'");
	}
}

/* The part of a line after its labels. */
static void
read_body(Asm *a, Lexer *lx)
{
	if (!a->inbrace && lx->t.kind == T_IDENT && lx->t.p[0] == '.' &&
	    lx->t.len > 1) {
		asm_directive(a, lx);
		return;
	}
	if (a->datamode && lx->t.kind != T_END) {
		asm_error(a, lx->t.loc, "ops are not allowed in a .data "
		    "section (use .text first)");
		return;
	}
	if (!a->inbrace && asm_is(lx, '{')) {
		a->inbrace = 1;
		a->open = 1;
		a->bloc = lx->t.loc;
		asm_next(lx);
	}
	read_ops(a, lx);
	if (asm_is(lx, '}')) {
		if (!a->inbrace) {
			asm_error(a, lx->t.loc, "'}' without a '{'");
			return;
		}
		a->inbrace = 0;
		close_bundle(a);
		if (asm_next(lx) != T_END)
			asm_error(a, lx->t.loc, "unexpected '%.*s' after '}'",
			    (int)lx->t.len, lx->t.p);
		return;
	}
	if (!a->inbrace && a->open)
		close_bundle(a);
}

static void
read_line(Asm *a, const char *s, const char *e, uint32_t line)
{
	Lexer lx, peek;

	asm_lex_line(&lx, s, e, line);
	while (asm_next(&lx) != T_END)	/* a bad token spoils the line */
		if (lx.t.kind == T_BAD) {
			asm_error(a, lx.t.loc, lx.t.p[0] == '"' ?
			    "unterminated string" : "stray '%c' in the line",
			    lx.t.p[0]);
			return;
		}
	asm_lex_line(&lx, s, e, line);
	asm_next(&lx);
	for (;;) {
		if (lx.t.kind != T_IDENT && lx.t.kind != T_STR)
			break;
		peek = lx;
		asm_next(&peek);
		if (!asm_is(&peek, ':'))
			break;
		define_label(a, &lx.t);
		lx = peek;
		asm_next(&lx);
	}
	read_body(a, &lx);
}

/* ------------------------------------------------------ resolution */

static int
symcmp(const void *x, const void *y)
{
	const Sym *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->loc.line != b->loc.line ? (a->loc.line < b->loc.line ? -1 : 1)
	    : (a->loc.col < b->loc.col ? -1 : a->loc.col > b->loc.col);
}

/* Sorts the labels by name and reports duplicates. */
static void
sort_syms(Asm *a)
{
	uint32_t i;

	for (i = 0; i < a->sym.n; i++)
		if (!a->sym.v[i].name)
			return;		/* out of memory earlier */
	if (a->sym.n)
		qsort(a->sym.v, a->sym.n, sizeof *a->sym.v, symcmp);
	for (i = 1; i < a->sym.n; i++)
		if (strcmp(a->sym.v[i].name, a->sym.v[i - 1].name) == 0) {
			asm_error(a, a->sym.v[i].loc, "duplicate label '%s'",
			    a->sym.v[i].name);
			asm_note(a, a->sym.v[i - 1].loc, "'%s' was defined here",
			    a->sym.v[i - 1].name);
		}
}

static const Sym *
find_sym(const Asm *a, const char *name)
{
	if (!name || a->sym.n == 0)
		return NULL;
	/* the first definition of a duplicated name sorts first */
	for (size_t lo = 0, hi = a->sym.n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(a->sym.v[mid].name, name);

		if (c < 0)
			lo = mid + 1;
		else if (c > 0 || (mid > 0 &&
		    strcmp(a->sym.v[mid - 1].name, name) == 0))
			hi = mid;
		else
			return &a->sym.v[mid];
	}
	return NULL;
}

/* A bundle label's index; reports and returns -1 if there is none. */
static int64_t
bundle_label(Asm *a, const char *name, Loc loc)
{
	const Sym *s = find_sym(a, name);

	if (!s) {
		asm_error(a, loc, "undefined label '%s'", name ? name : "");
		return -1;
	}
	if (s->isdata || s->value >= a->bundle.n) {
		asm_error(a, loc, "label '%s' does not name a bundle", name);
		asm_note(a, s->loc, "'%s' is defined here", name);
		return -1;
	}
	return s->value;
}

int64_t
asm_region(Asm *a, const char *name, Loc loc)
{
	uint32_t i;

	for (i = 0; i < a->region.n; i++)
		if (name && a->region.v[i].name &&
		    strcmp(a->region.v[i].name, name) == 0)
			return i;
	asm_error(a, loc, "undefined region '%s' (declare it with "
	    "'.region %s')", name ? name : "", name ? name : "");
	return -1;
}

/* Label and region immediates of the ops. */
static void
resolve_ops(Asm *a)
{
	AsmOp *op;
	uint32_t b, i;
	int64_t v;

	for (b = 0; b < a->bundle.n; b++)
		for (i = 0; i < a->bundle.v[b].n; i++) {
			op = &a->op.v[a->bundle.v[b].first + i];
			if (!op->ref)
				continue;
			if (op->refkind == REF_STR)
				continue;	/* build() interns it */
			if (op->refkind == REF_LABEL) {
				v = bundle_label(a, op->ref, op->imm);
				op->in.imm = (int32_t)(v - (int64_t)b);
			} else
				op->in.imm = (int32_t)asm_region(a, op->ref,
				    op->imm);
		}
}

static void
resolve_refs(Asm *a)
{
	const Sym *s;
	Ref *r;
	uint32_t i;
	int64_t v;

	for (i = 0; i < a->ref.n; i++) {
		r = &a->ref.v[i];
		switch (r->kind) {
		case REF_ENTRYPC:
			if ((v = bundle_label(a, r->name, r->loc)) >= 0)
				a->entry.v[r->at].e.pc = (uint32_t)v;
			break;
		case REF_DEBUG:
			if ((v = asm_region(a, r->name, r->loc)) >= 0)
				a->debug.v[r->at].d.region = (uint32_t)v;
			break;
		case REF_DATA:
			s = find_sym(a, r->name);
			if (!s || !s->isdata)
				asm_error(a, r->loc, "undefined data label '%s'",
				    r->name ? r->name : "");
			else
				a->opnd.v[r->at].o.data_off = s->value;
			break;
		default:
			break;
		}
	}
}

/* Distinct pool immediates per bundle, once labels are known (a trap's
   string counts as a word of its own: its offset comes later). */
static void
check_pools(Asm *a)
{
	const AsmBundle *b;
	const AsmOp *op;
	int32_t seen[64];
	uint32_t k, i, j;
	int n, str;

	for (k = 0; k < a->bundle.n; k++) {
		b = &a->bundle.v[k];
		n = str = 0;
		for (i = b->first; i < b->first + b->n; i++) {
			op = &a->op.v[i];
			if (!mach_op_uses_pool(op->in.op))
				continue;
			if (op->refkind == REF_STR && op->ref)
				str++;
			else {
				for (j = 0; j < (uint32_t)n; j++)
					if (seen[j] == op->in.imm)
						break;
				if (j < (uint32_t)n || n == 64)
					continue;
				seen[n++] = op->in.imm;
			}
			if (n + str == a->mp->nimm + 1)
				asm_error(a, op->imm, "too many "
				    "immediates in one bundle: preset '%s' has "
				    "a pool of %d", a->mp->name, a->mp->nimm);
		}
	}
}

/* ---------------------------------------------------------- program */

/* Offset of s in p's strings, adding it if new ("" is offset 0). */
static int64_t
intern(MachProgram *p, const char *s)
{
	uint32_t off = 1;

	if (!s || !*s)
		return 0;
	while (off < p->nstr) {
		if (strcmp(p->str + off, s) == 0)
			return off;
		off += (uint32_t)strlen(p->str + off) + 1;
	}
	return mach_program_str(p, s);
}

/* Strings in a fixed order: regions, entries with their operands, files. */
static int
build_strings(Asm *a, MachProgram *p)
{
	int64_t v;
	uint32_t i, k;

	for (i = 0; i < a->region.n; i++) {
		if ((v = intern(p, a->region.v[i].name)) < 0)
			return -1;
		p->region[i] = (uint32_t)v;
	}
	for (i = 0; i < a->entry.n; i++) {
		if ((v = intern(p, a->entry.v[i].name)) < 0)
			return -1;
		p->entry[i].name = (uint32_t)v;
		for (k = p->entry[i].first_opnd; k < p->entry[i].first_opnd +
		    p->entry[i].nopnd; k++) {
			if ((v = intern(p, a->opnd.v[k].name)) < 0)
				return -1;
			p->opnd[k].name = (uint32_t)v;
		}
	}
	for (i = 0; i < a->debug.n; i++) {
		if (i > 0 && a->debug.v[i].file && a->debug.v[i - 1].file &&
		    strcmp(a->debug.v[i].file, a->debug.v[i - 1].file) == 0)
			v = p->debug[i - 1].file;
		else if ((v = intern(p, a->debug.v[i].file)) < 0)
			return -1;
		p->debug[i].file = (uint32_t)v;
	}
	return 0;
}

static void *
dup_array(const void *src, size_t n, size_t sz, int *bad)
{
	void *q;

	if (n == 0)
		return NULL;
	if (!(q = malloc(n * sz))) {
		*bad = 1;
		return NULL;
	}
	if (src)
		memcpy(q, src, n * sz);
	return q;
}

/* Copies the tables out of the assembler's records into p. */
static int
build_tables(Asm *a, MachProgram *p)
{
	uint32_t i;
	int bad = 0;

	p->data = dup_array(a->data.v, a->data.n, 1, &bad);
	p->ndata = a->data.n;
	p->entry = dup_array(NULL, a->entry.n, sizeof *p->entry, &bad);
	p->nentry = a->entry.n;
	p->opnd = dup_array(NULL, a->opnd.n, sizeof *p->opnd, &bad);
	p->nopnd = a->opnd.n;
	p->debug = dup_array(NULL, a->debug.n, sizeof *p->debug, &bad);
	p->ndebug = a->debug.n;
	p->region = dup_array(NULL, a->region.n, sizeof *p->region, &bad);
	p->nregion = a->region.n;
	if (bad)
		return -1;
	for (i = 0; i < a->entry.n; i++)
		p->entry[i] = a->entry.v[i].e;
	for (i = 0; i < a->opnd.n; i++)
		p->opnd[i] = a->opnd.v[i].o;
	for (i = 0; i < a->debug.n; i++)
		p->debug[i] = a->debug.v[i].d;
	return build_strings(a, p);
}

/* Where a message of mach_program_check() points in the source. */
static Loc
check_loc(const Asm *a, const char *msg)
{
	Loc none = { 1, 1, 1 };
	unsigned n;

	if (sscanf(msg, "bundle %u:", &n) == 1 && n < a->bundle.n)
		return a->bundle.v[n].loc;
	if (sscanf(msg, "entry %u:", &n) == 1 && n < a->entry.n)
		return a->entry.v[n].loc;
	if (sscanf(msg, "debug map %u:", &n) == 1 && n < a->debug.n)
		return a->debug.v[n].loc;
	return none;
}

static MachProgram *
build(Asm *a)
{
	MachProgram *p = mach_program_new(a->mp->name);
	char msg[256];
	uint32_t i, k;
	MachIns ins[64];
	const AsmBundle *b;

	if (!p) {
		a->nomem = 1;
		return NULL;
	}
	for (i = 0; i < a->bundle.n; i++) {
		b = &a->bundle.v[i];
		for (k = 0; k < b->n && k < 64; k++) {
			const AsmOp *op = &a->op.v[b->first + k];
			ins[k] = op->in;
			if (op->refkind == REF_STR && op->ref) {
				int64_t v = intern(p, op->ref);
				if (v < 0)
					goto nomem;
				ins[k].imm = (int32_t)v;
			}
		}
		if (mach_program_add_bundle(p, ins, (int)k))
			goto nomem;
	}
	if (build_tables(a, p))
		goto nomem;
	if (mach_program_check(p, msg, sizeof msg)) {
		asm_error(a, check_loc(a, msg), "%s", msg);
		mach_program_free(p);
		return NULL;
	}
	return p;
nomem:
	a->nomem = 1;
	mach_program_free(p);
	return NULL;
}

/* ------------------------------------------------------------ entry */

static void
finish(Asm *a)
{
	uint32_t i;

	if (a->inbrace)
		asm_error(a, a->bloc, "'{' is not closed by '}'");
	for (i = 0; i < a->entry.n; i++)
		if (a->entry.v[i].pending)
			asm_error(a, a->entry.v[i].loc, "'.entry %s' is not "
			    "followed by a bundle", a->entry.v[i].name ?
			    a->entry.v[i].name : "");
	if (a->loc_pending)
		asm_error(a, a->debug.v[a->debug.n - 1].loc, "'.loc' is not "
		    "followed by a bundle");
	asm_bind_data_labels(a);
	sort_syms(a);
	resolve_ops(a);
	resolve_refs(a);
	check_pools(a);
	asm_check_operands(a);
}

static void
free_asm(Asm *a)
{
	uint32_t i;

	for (i = 0; i < a->cur.n; i++)
		free(a->cur.v[i].ref);
	for (i = 0; i < a->op.n; i++)
		free(a->op.v[i].ref);
	for (i = 0; i < a->sym.n; i++)
		free(a->sym.v[i].name);
	for (i = 0; i < a->ref.n; i++)
		free(a->ref.v[i].name);
	for (i = 0; i < a->entry.n; i++)
		free(a->entry.v[i].name);
	for (i = 0; i < a->opnd.n; i++)
		free(a->opnd.v[i].name);
	for (i = 0; i < a->debug.n; i++)
		free(a->debug.v[i].file);
	for (i = 0; i < a->region.n; i++)
		free(a->region.v[i].name);
	free(a->cur.v);
	free(a->op.v);
	free(a->bundle.v);
	free(a->entry.v);
	free(a->opnd.v);
	free(a->debug.v);
	free(a->region.v);
	free(a->data.v);
	free(a->sym.v);
	free(a->ref.v);
}

int
mach_asm(const char *name, const char *text, size_t len,
    const char *preset_default, MachProgram **out, char *err, size_t errlen)
{
	const char *s, *e, *end;
	uint32_t line;
	Asm a;
	int rc;

	*out = NULL;
	if (err && errlen)
		err[0] = 0;
	memset(&a, 0, sizeof a);
	a.name = name ? name : "<input>";
	a.text = text ? text : "";
	a.len = text ? len : 0;
	a.err = err;
	a.errlen = errlen;
	if (!(a.mp = mach_preset(preset_default))) {
		if (err && errlen)
			snprintf(err, errlen, "unknown preset '%s'\n",
			    preset_default);
		return MACH_EPRESET;
	}
	end = a.text + a.len;
	for (s = a.text, line = 1; s < end && !a.nomem; line++) {
		e = memchr(s, '\n', (size_t)(end - s));
		read_line(&a, s, e ? e : end, line);
		s = e ? e + 1 : end;
		if (line == UINT32_MAX - 1)
			break;
	}
	if (!a.nomem)
		finish(&a);
	if (!a.nerr && !a.nomem)
		*out = build(&a);
	rc = a.nomem ? MACH_ENOMEM : a.nerr ? MACH_EINVAL : MACH_OK;
	asm_flush_diags(&a);
	free_asm(&a);
	return rc;
}
