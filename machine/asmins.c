/*
 * asmins.c - the assembler's reader for one op:
 *
 *	op      := [ '(' ['!'] pN ')' ] mnemonic [ operand { ',' operand } ]
 *	operand := register | immediate | label | '[' sN [ ('+'|'-') imm ] ']'
 *	         | name '=' value | 'acc' | 'hold'
 *
 * Operands come in the order of the op's format (isa.def).  The scalar
 * base and immediate offset of a memory op form one bracketed operand;
 * the sublane mask and stride (mask=, stride=) and the matmul flags (acc,
 * hold, prec=, kblk=) are optional keywords after the others; lane and
 * sublane numbers may be written by=N, lane=N or sub=N.  Every value is
 * range-checked against the preset here, so errors point at the operand.
 */
#include <stdio.h>
#include <string.h>

#include "machine/asm.h"

/* What an operand kind is called in messages, and its register prefix. */
static const struct {
	const char *what;	/* "expected ..." */
	const char *prefix;	/* register name prefix, or NULL */
	const char *plural;	/* "preset 'v4' has 32 ..." */
} kinds[NMACHKIND] = {
	[K_S] = { "a scalar register", "s", "scalar registers" },
	[K_V] = { "a vector register", "v", "vector registers" },
	[K_M] = { "a mask register", "m", "mask registers" },
	[K_P] = { "a predicate", "p", "predicates" },
	[K_F] = { "a sync flag", "f", "sync flags" },
	[K_MXU] = { "an MXU unit", "mxu", "MXUs" },
	[K_XLU] = { "an XLU unit", "xlu", "XLUs" },
	[K_IMM] = { "an immediate", NULL, NULL },
	[K_LABEL] = { "a label", NULL, NULL },
	[K_SMASK] = { "a sublane mask", NULL, NULL },
	[K_STRIDE] = { "a stride", NULL, NULL },
	[K_LANE] = { "a lane number", NULL, NULL },
	[K_SUB] = { "a sublane number", NULL, NULL },
	[K_MMF] = { "matmul flags", NULL, NULL },
};

/* ------------------------------------------------------ suggestions */

static int
edit_distance(const char *s, const char *t)
{
	int d[33][33], i, j, n = (int)strlen(s), m = (int)strlen(t), c;

	if (n > 32 || m > 32)
		return 99;
	for (i = 0; i <= n; i++)
		d[i][0] = i;
	for (j = 0; j <= m; j++)
		d[0][j] = j;
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++) {
			c = d[i - 1][j - 1] + (s[i - 1] != t[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[n][m];
}

const char *
asm_suggest(const char *name)
{
	const char *best = NULL;
	int op, d, bd = 3;

	for (op = 1; op < NMACHOP; op++) {
		d = edit_distance(name, mach_opinfo[op].name);
		if (d < bd) {
			bd = d;
			best = mach_opinfo[op].name;
		}
	}
	return best;
}

/* ---------------------------------------------------------- helpers */

typedef struct OpCtx {
	Asm *a;
	Lexer *lx;
	AsmOp *op;
	const MachOpInfo *oi;
	const MachFmtInfo *fi;
} OpCtx;

static int
ismem(const OpCtx *c)
{
	return (c->oi->flags & (MACH_F_LOAD | MACH_F_STORE | MACH_F_DMA)) != 0;
}

/* Operand i is written as a keyword (mask=, stride=, matmul flags). */
static int
is_kw_kind(int k)
{
	return k == K_SMASK || k == K_STRIDE || k == K_MMF;
}

/* The keyword a lane / sublane operand may be written with. */
static const char *
lane_kw(int op, int k)
{
	if (op == OP_XROT || op == OP_VROTS)
		return "by";
	return k == K_LANE ? "lane" : "sub";
}

static int
tok_eq(const Tok *t, const char *s)
{
	return t->kind == T_IDENT && strlen(s) == t->len &&
	    memcmp(t->p, s, t->len) == 0;
}

/* Register of kind k: prefix then decimal digits. */
static int
reg(OpCtx *c, int k, int64_t *v)
{
	const Tok *t = &c->lx->t;
	const char *pre = kinds[k].prefix;
	size_t n = strlen(pre), i;
	uint64_t r = 0;

	if (t->kind != T_IDENT || t->len <= n || memcmp(t->p, pre, n) != 0)
		goto bad;
	for (i = n; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9' || r > 1000)
			goto bad;
		r = r * 10 + (uint64_t)(t->p[i] - '0');
	}
	if (r >= (uint64_t)mach_kind_limit(c->a->mp, k)) {
		asm_error(c->a, t->loc, "%s '%.*s' out of range: preset '%s' "
		    "has %d %s", kinds[k].what + (k == K_MXU || k == K_XLU ?
		    3 : 2), (int)t->len, t->p, c->a->mp->name,
		    (int)mach_kind_limit(c->a->mp, k), kinds[k].plural);
		return -1;
	}
	*v = (int64_t)r;
	asm_next(c->lx);
	return 0;
bad:
	asm_error(c->a, t->loc, "operand of '%s' must be %s (%s0..%s%d), "
	    "not '%.*s'", c->oi->name, kinds[k].what, pre, pre,
	    (int)mach_kind_limit(c->a->mp, k) - 1, (int)t->len, t->p);
	return -1;
}

/* Name reference (label, region or string) stored on the op. */
static int
ref_name(OpCtx *c, int kind)
{
	c->op->ref = asm_tokstr(c->a, &c->lx->t);
	if (!c->op->ref)
		return -1;
	c->op->refkind = (uint8_t)kind;
	c->op->imm = c->lx->t.loc;
	asm_next(c->lx);
	return 0;
}

/* label := name | '.' ('+'|'-') number   (relative bundle offset) */
static int
label(OpCtx *c, int64_t *v)
{
	Lexer *lx = c->lx;
	Loc at = lx->t.loc;

	if (lx->t.kind != T_IDENT && lx->t.kind != T_STR) {
		asm_error(c->a, at, "operand of '%s' must be a label, not '%.*s'",
		    c->oi->name, (int)lx->t.len, lx->t.p);
		return -1;
	}
	if (!tok_eq(&lx->t, "."))
		return ref_name(c, REF_LABEL);
	asm_next(lx);
	if (!asm_is(lx, '+') && !asm_is(lx, '-')) {
		asm_error(c->a, at, "expected '.+N' or '.-N'");
		return -1;
	}
	c->op->imm = at;
	return asm_int(c->a, lx, INT32_MIN, INT32_MAX, "branch offset", v);
}

/* '[' sN [ ('+'|'-') imm ] ']' into fields a and i. */
static int
memref(OpCtx *c, int kbase)
{
	Lexer *lx = c->lx;
	int64_t r;
	int32_t off = 0;

	if (!asm_is(lx, '[')) {
		asm_error(c->a, lx->t.loc, "operand of '%s' must be an address "
		    "'[sN + offset]', not '%.*s'", c->oi->name,
		    (int)lx->t.len, lx->t.p);
		return -1;
	}
	asm_next(lx);
	if (reg(c, kbase, &r))
		return -1;
	c->op->imm = lx->t.loc;
	if (asm_is(lx, '+'))
		asm_next(lx);
	if (!asm_is(lx, ']') && asm_imm32(c->a, lx, &off))
		return -1;
	if (!asm_is(lx, ']')) {
		asm_error(c->a, lx->t.loc, "expected ']'");
		return -1;
	}
	asm_next(lx);
	mach_ins_set(&c->op->in, FLD_A, r);
	mach_ins_set(&c->op->in, FLD_I, off);
	return 0;
}

/* One positional operand: format operand i (i+1 too for memory). */
static int
positional(OpCtx *c, int *i)
{
	const MachOpnd *o = &c->fi->opnd[*i];
	Lexer *lx = c->lx;
	int64_t v = 0;
	int32_t imm;

	if (o->kind == K_S && o->field == FLD_A && ismem(c) &&
	    *i + 1 < c->fi->nopnd && c->fi->opnd[*i + 1].kind == K_IMM) {
		(*i)++;
		return memref(c, K_S);
	}
	switch (o->kind) {
	case K_IMM:
		if ((c->oi->fmt == FMT_I) && (lx->t.kind == T_IDENT ||
		    lx->t.kind == T_STR))
			return ref_name(c, REF_REGION);
		if (c->oi->fmt == FMT_TRAP) {
			if (lx->t.kind == T_STR)
				return ref_name(c, REF_STR);
			asm_error(c->a, lx->t.loc, "the message of 'trap' must "
			    "be a string, not '%.*s'", (int)lx->t.len, lx->t.p);
			return -1;
		}
		c->op->imm = lx->t.loc;
		if (asm_imm32(c->a, lx, &imm))
			return -1;
		v = imm;
		break;
	case K_LABEL:
		if (label(c, &v))
			return -1;
		break;
	case K_LANE: case K_SUB:
		if (asm_int(c->a, lx, 0, (o->kind == K_LANE ? c->a->mp->lanes :
		    c->a->mp->sublanes) - 1, o->kind == K_LANE ? "lane" :
		    "sublane", &v))
			return -1;
		break;
	default:
		if (reg(c, o->kind, &v))
			return -1;
		break;
	}
	mach_ins_set(&c->op->in, o->field, v);
	return 0;
}

/* The format index of the operand of kind k, or -1. */
static int
find_kind(const MachFmtInfo *fi, int k)
{
	int i;

	for (i = 0; i < fi->nopnd; i++)
		if (fi->opnd[i].kind == k)
			return i;
	return -1;
}

static int
set_once(OpCtx *c, unsigned *seen, unsigned bit, const Tok *t)
{
	if (*seen & bit) {
		asm_error(c->a, t->loc, "'%.*s' given twice", (int)t->len, t->p);
		return -1;
	}
	*seen |= bit;
	return 0;
}

/* mask=N, stride=N, acc, hold, prec=NAME, kblk=N */
static int
keyword(OpCtx *c, unsigned *seen)
{
	Lexer *lx = c->lx;
	Tok t = lx->t;
	MachIns *in = &c->op->in;
	int hasmask = find_kind(c->fi, K_SMASK) >= 0;
	int hasmmf = find_kind(c->fi, K_MMF) >= 0;
	int64_t v;
	int p;

	asm_next(lx);
	if (hasmmf && (tok_eq(&t, "acc") || tok_eq(&t, "hold"))) {
		if (set_once(c, seen, tok_eq(&t, "acc") ? 1 : 2, &t))
			return -1;
		in->x |= tok_eq(&t, "acc") ? MACH_MM_ACC : MACH_MM_HOLD;
		return 0;
	}
	if (!asm_is(lx, '='))
		goto unknown;
	asm_next(lx);
	if (hasmask && tok_eq(&t, "mask")) {
		if (set_once(c, seen, 4, &t) || asm_int(c->a, lx, 0,
		    ((int64_t)1 << c->a->mp->sublanes) - 1, "sublane mask", &v))
			return -1;
		mach_ins_set(in, FLD_XLO, v);
	} else if (hasmask && tok_eq(&t, "stride")) {
		if (set_once(c, seen, 8, &t) ||
		    asm_int(c->a, lx, 0, 255, "stride", &v))
			return -1;
		mach_ins_set(in, FLD_XHI, v);
	} else if (hasmmf && tok_eq(&t, "kblk")) {
		if (set_once(c, seen, 16, &t) || asm_int(c->a, lx, 0,
		    c->a->mp->mxu_dim / c->a->mp->lanes - 1, "k-block", &v))
			return -1;
		in->x = (uint16_t)(in->x | v << MACH_MM_KBLK_SHIFT);
	} else if (hasmmf && tok_eq(&t, "prec")) {
		if (set_once(c, seen, 32, &t))
			return -1;
		for (p = 0; p < NMACHPREC; p++)
			if (tok_eq(&lx->t, asm_prec_name[p]))
				break;
		if (p == NMACHPREC) {
			asm_error(c->a, lx->t.loc, "precision must be default, "
			    "high or highest");
			return -1;
		}
		asm_next(lx);
		in->x = (uint16_t)(in->x | p << MACH_MM_PREC_SHIFT);
	} else
		goto unknown;
	return 0;
unknown:
	asm_error(c->a, t.loc, "'%s' takes no option '%.*s'%s", c->oi->name,
	    (int)t.len, t.p, hasmask ? " (it takes mask= and stride=)" :
	    hasmmf ? " (it takes acc, hold, prec= and kblk=)" : "");
	return -1;
}

/* Positional operands of the format (the memory pair counts once). */
static int
count_positional(const OpCtx *c)
{
	int i, n = 0;

	for (i = 0; i < c->fi->nopnd; i++) {
		if (is_kw_kind(c->fi->opnd[i].kind))
			continue;
		if (c->fi->opnd[i].kind == K_IMM && i > 0 && ismem(c) &&
		    c->fi->opnd[i - 1].kind == K_S &&
		    c->fi->opnd[i - 1].field == FLD_A)
			continue;
		n++;
	}
	return n;
}

/* Is the current token a keyword operand (name '=' or acc / hold)? */
static int
at_keyword(const OpCtx *c, int next)
{
	Lexer peek = *c->lx;
	int k = next < c->fi->nopnd ? c->fi->opnd[next].kind : K_NONE;

	if (peek.t.kind != T_IDENT)
		return 0;
	if (find_kind(c->fi, K_MMF) >= 0 && (tok_eq(&peek.t, "acc") ||
	    tok_eq(&peek.t, "hold")))
		return 1;
	if ((k == K_LANE || k == K_SUB) && tok_eq(&peek.t, lane_kw(c->op->in.op,
	    k)))
		return 0;	/* by=N / lane=N / sub=N: positional */
	asm_next(&peek);
	return asm_is(&peek, '=');
}

static int
at_op_end(const Lexer *lx)
{
	return lx->t.kind == T_END || asm_is(lx, ';') || asm_is(lx, '}');
}

static void
skip_op(Lexer *lx)
{
	while (!at_op_end(lx))
		asm_next(lx);
}

static int
operands(OpCtx *c)
{
	int npos = count_positional(c), got = 0, i = 0, k;
	unsigned seen = 0;
	Lexer *lx = c->lx;

	while (!at_op_end(lx)) {
		if (at_keyword(c, i)) {
			if (keyword(c, &seen))
				return -1;
		} else {
			while (i < c->fi->nopnd && is_kw_kind(c->fi->opnd[i].kind))
				i++;
			if (got == npos || i >= c->fi->nopnd) {
				asm_error(c->a, lx->t.loc, "'%s' takes %d "
				    "operand%s, got more", c->oi->name, npos,
				    npos == 1 ? "" : "s");
				return -1;
			}
			k = c->fi->opnd[i].kind;
			if ((k == K_LANE || k == K_SUB) &&
			    tok_eq(&lx->t, lane_kw(c->op->in.op, k))) {
				asm_next(lx);
				if (!asm_is(lx, '=')) {
					asm_error(c->a, lx->t.loc,
					    "expected '='");
					return -1;
				}
				asm_next(lx);
			}
			if (positional(c, &i))
				return -1;
			i++;
			got++;
		}
		if (at_op_end(lx))
			break;
		if (!asm_is(lx, ',')) {
			asm_error(c->a, lx->t.loc, "expected ',' or ';' after "
			    "an operand, found '%.*s'", (int)lx->t.len,
			    lx->t.p);
			return -1;
		}
		asm_next(lx);
	}
	if (got < npos) {
		asm_error(c->a, c->op->loc, "'%s' takes %d operand%s, got %d",
		    c->oi->name, npos, npos == 1 ? "" : "s", got);
		return -1;
	}
	return 0;
}

static const MachOpInfo guardinfo = { "guard", 0, 0, 0, 0, "" };

/* '(' ['!'] pN ')' */
static int
guard(Asm *a, Lexer *lx, AsmOp *op)
{
	OpCtx c = { a, lx, op, &guardinfo, &mach_fmtinfo[FMT_NONE] };
	int64_t v;

	asm_next(lx);
	if (asm_is(lx, '!')) {
		op->in.gneg = 1;
		asm_next(lx);
	}
	if (reg(&c, K_P, &v))
		return -1;
	op->in.guard = (uint8_t)v;
	if (!asm_is(lx, ')')) {
		asm_error(a, lx->t.loc, "expected ')' after the guard");
		return -1;
	}
	asm_next(lx);
	return 0;
}

int
asm_op(Asm *a, Lexer *lx, AsmOp *op)
{
	OpCtx c = { a, lx, op, NULL, NULL };
	char name[40];
	int k;

	memset(op, 0, sizeof *op);
	if (asm_is(lx, '(') && guard(a, lx, op))
		goto bad;
	op->loc = op->imm = lx->t.loc;
	if (lx->t.kind != T_IDENT) {
		asm_error(a, lx->t.loc, "expected a mnemonic, found '%.*s'",
		    (int)lx->t.len, lx->t.p);
		goto bad;
	}
	k = lx->t.len < sizeof name ? (int)lx->t.len : (int)sizeof name - 1;
	memcpy(name, lx->t.p, (size_t)k);
	name[k] = 0;
	if (lx->t.len >= sizeof name || (k = mach_op_by_name(name)) < 0) {
		const char *s = lx->t.len < sizeof name ? asm_suggest(name) : 0;

		asm_error(a, lx->t.loc, "unknown mnemonic '%.*s'%s%s%s",
		    (int)lx->t.len, lx->t.p, s ? "; did you mean '" : "",
		    s ? s : "", s ? "'?" : "");
		goto bad;
	}
	op->in.op = (uint8_t)k;
	c.oi = &mach_opinfo[k];
	c.fi = &mach_fmtinfo[c.oi->fmt];
	asm_next(lx);
	if (find_kind(c.fi, K_SMASK) >= 0)	/* defaults: all rows, stride 1 */
		op->in.x = (uint16_t)(((1u << a->mp->sublanes) - 1) | 1u << 8);
	if (operands(&c))
		goto bad;
	return 0;
bad:
	skip_op(lx);
	return -1;
}
