/*
 * asmdir.c - the assembler's directives:
 *
 *	.preset NAME
 *	.entry NAME [pc=LABEL] [scratch=BYTES] [scratch_smem=ADDR]
 *	       [vmem=BYTES] [smem=BYTES]
 *	.operand NAME ROLE DTYPE[d0,d1,...] smem=ADDR [data=OFF|LABEL]
 *	         [hbm=ADDR]
 *	.region NAME
 *	.loc FILE LINE COL [region=NAME]
 *	.data | .text
 *	.word V, ... | .float F, ... | .bf16 F, ... | .byte B, ...
 *	.zero N | .align N                   (in .data)
 *
 * Names are identifiers or quoted strings.  Entries and operands are
 * stored in source order, an operand belonging to the last .entry.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/asm.h"
#include "pallas/runtime.h"

#define DATA_MAX (UINT32_C(1) << 26)	/* bytes of .data in one program */

static int
tok_eq(const Tok *t, const char *s)
{
	return t->kind == T_IDENT && strlen(s) == t->len &&
	    memcmp(t->p, s, t->len) == 0;
}

/* A name (identifier or string) into *out (malloc'd). */
static int
name(Asm *a, Lexer *lx, const char *what, char **out)
{
	if (lx->t.kind != T_IDENT && lx->t.kind != T_STR) {
		asm_error(a, lx->t.loc, "expected %s, found '%.*s'", what,
		    (int)lx->t.len, lx->t.p);
		return -1;
	}
	*out = asm_tokstr(a, &lx->t);
	asm_next(lx);
	return *out ? 0 : -1;
}

static int
end_of_line(Asm *a, Lexer *lx)
{
	if (lx->t.kind == T_END)
		return 0;
	asm_error(a, lx->t.loc, "unexpected '%.*s' at the end of the "
	    "directive", (int)lx->t.len, lx->t.p);
	return -1;
}

/* 'key' '=' at the current token: returns the key token, or kind T_END. */
static Tok
key(Asm *a, Lexer *lx)
{
	Tok k = lx->t;

	if (k.kind != T_IDENT) {
		asm_error(a, k.loc, "expected 'name=value', found '%.*s'",
		    (int)k.len, k.p);
		k.kind = T_END;
		return k;
	}
	asm_next(lx);
	if (!asm_is(lx, '=')) {
		asm_error(a, lx->t.loc, "expected '=' after '%.*s'", (int)k.len,
		    k.p);
		k.kind = T_END;
		return k;
	}
	asm_next(lx);
	return k;
}

static void
bad_key(Asm *a, const Tok *k, const char *dir, const char *keys)
{
	asm_error(a, k->loc, "'%s' takes no option '%.*s' (it takes %s)", dir,
	    (int)k->len, k->p, keys);
}

/* ------------------------------------------------------------ .preset */

static void
dir_preset(Asm *a, Lexer *lx, Loc at)
{
	const MachPreset *mp;
	char *s;

	if (name(a, lx, "a preset name", &s))
		return;
	mp = mach_preset(s);
	if (!mp)
		asm_error(a, at, "unknown preset '%s' (presets: v4, v5e, v6e, "
		    "small)", s);
	else if (a->started)
		asm_error(a, at, "'.preset' must come before the first bundle "
		    "and '.entry'");
	else if (a->preset_line && mp != a->mp)
		asm_error(a, at, "a second '.preset' (the first is on line %d)",
		    a->preset_line);
	else {
		a->mp = mp;
		a->preset_line = (int)at.line;
	}
	free(s);
	end_of_line(a, lx);
}

/* ------------------------------------------------------------- .entry */

static void
dir_entry(Asm *a, Lexer *lx, Loc at)
{
	AsmEntry *e;
	uint32_t i;
	int64_t v;
	Tok k;

	if (!(e = ASM_PUSH(a, a->entry)))
		return;
	e->loc = at;
	e->pending = 1;
	e->e.first_opnd = a->opnd.n;
	a->started = 1;
	if (name(a, lx, "an entry name", &e->name))
		return;
	for (i = 0; i + 1 < a->entry.n; i++)
		if (a->entry.v[i].name && strcmp(a->entry.v[i].name, e->name)
		    == 0) {
			asm_error(a, at, "duplicate entry '%s'", e->name);
			asm_note(a, a->entry.v[i].loc, "'%s' was declared here",
			    e->name);
		}
	while (lx->t.kind != T_END) {
		if ((k = key(a, lx)).kind == T_END)
			return;
		if (tok_eq(&k, "pc")) {
			e->pending = 0;
			if (lx->t.kind != T_IDENT && lx->t.kind != T_STR) {
				asm_error(a, lx->t.loc, "pc= takes a label");
				return;
			}
			if (asm_ref(a, REF_ENTRYPC, a->entry.n - 1, &lx->t))
				return;
			asm_next(lx);
		} else if (tok_eq(&k, "scratch")) {
			if (asm_int(a, lx, 0, INT64_MAX, "scratch bytes", &v))
				return;
			e->e.scratch_bytes = (uint64_t)v;
		} else if (tok_eq(&k, "scratch_smem")) {
			if (asm_int(a, lx, 0, UINT32_MAX, "SMEM address", &v))
				return;
			e->e.scratch_smem = (uint32_t)v;
		} else if (tok_eq(&k, "vmem") || tok_eq(&k, "smem")) {
			int vm = tok_eq(&k, "vmem");
			uint64_t lim = vm ? a->mp->vmem_bytes :
			    a->mp->smem_bytes;

			if (asm_int(a, lx, 0, (int64_t)lim, vm ? "VMEM bytes" :
			    "SMEM bytes", &v))
				return;
			*(vm ? &e->e.vmem_bytes : &e->e.smem_bytes) =
			    (uint64_t)v;
		} else {
			bad_key(a, &k, ".entry", "pc=, scratch=, "
			    "scratch_smem=, vmem= and smem=");
			return;
		}
	}
}

/* ----------------------------------------------------------- .operand */

static int
lookup(const char *const *names, int n, const Tok *t)
{
	int i;

	for (i = 0; i < n; i++)
		if (tok_eq(t, names[i]))
			return i;
	return -1;
}

static uint64_t
dtype_bytes(int dt)
{
	switch (dt) {
	case MACH_F32: case MACH_I32: return 4;
	case MACH_BF16: case MACH_I16: return 2;
	default: return 1;
	}
}

/* DTYPE [ '[' [dim {',' dim}] ']' ]: dtype, rank, shape and bytes. */
static int
type(Asm *a, Lexer *lx, MachOperand *o)
{
	int dt = lookup(asm_dtype_name, NMACHDTYPE, &lx->t);
	uint64_t bytes;
	int64_t d;

	if (dt < 0) {
		asm_error(a, lx->t.loc, "expected a dtype (f32, bf16, i32, i16, "
		    "i8, u8, bool), found '%.*s'", (int)lx->t.len, lx->t.p);
		return -1;
	}
	o->dtype = (uint8_t)dt;
	bytes = dtype_bytes(dt);
	asm_next(lx);
	if (!asm_is(lx, '['))
		goto done;
	asm_next(lx);
	while (!asm_is(lx, ']')) {
		if (o->rank == MACH_MAXRANK) {
			asm_error(a, lx->t.loc, "more than %d dimensions",
			    MACH_MAXRANK);
			return -1;
		}
		if (asm_int(a, lx, 0, INT64_MAX, "dimension", &d))
			return -1;
		o->shape[o->rank++] = d;
		if (d && bytes > UINT64_MAX / (uint64_t)d) {
			asm_error(a, lx->t.loc, "operand too large");
			return -1;
		}
		bytes *= (uint64_t)d;
		if (asm_is(lx, ','))
			asm_next(lx);
		else if (!asm_is(lx, ']')) {
			asm_error(a, lx->t.loc, "expected ',' or ']' in the "
			    "shape");
			return -1;
		}
	}
	asm_next(lx);
done:
	o->bytes = bytes;
	return 0;
}

static int
operand_key(Asm *a, Lexer *lx, AsmOperand *q, const Tok *k, unsigned *seen)
{
	int64_t v;

	if (tok_eq(k, "smem")) {
		*seen |= 1;
		if (asm_int(a, lx, 0, UINT32_MAX, "SMEM address", &v))
			return -1;
		q->o.smem_addr = (uint32_t)v;
	} else if (tok_eq(k, "data")) {
		*seen |= 2;
		if (lx->t.kind == T_IDENT || lx->t.kind == T_STR) {
			if (asm_ref(a, REF_DATA, a->opnd.n - 1, &lx->t))
				return -1;
			asm_next(lx);
		} else if (asm_int(a, lx, 0, UINT32_MAX, "data offset", &v))
			return -1;
		else
			q->o.data_off = (uint32_t)v;
	} else if (tok_eq(k, "hbm")) {
		*seen |= 4;
		if (asm_int(a, lx, 0, INT64_MAX, "HBM address", &v))
			return -1;
		q->o.hbm_addr = (uint64_t)v;
	} else {
		bad_key(a, k, ".operand", "smem=, data= and hbm=");
		return -1;
	}
	return 0;
}

static void
dir_operand(Asm *a, Lexer *lx, Loc at)
{
	AsmOperand *q;
	AsmEntry *e;
	unsigned seen = 0;
	uint32_t i;
	int role;
	Tok k;

	if (a->entry.n == 0) {
		asm_error(a, at, "'.operand' before any '.entry'");
		return;
	}
	e = &a->entry.v[a->entry.n - 1];
	if (!(q = ASM_PUSH(a, a->opnd)))
		return;
	e->e.nopnd++;
	q->loc = at;
	q->o.hbm_addr = MACH_NOADDR;
	if (name(a, lx, "an operand name", &q->name))
		return;
	for (i = e->e.first_opnd; i + 1 < a->opnd.n; i++)
		if (a->opnd.v[i].name && !strcmp(a->opnd.v[i].name, q->name))
			asm_error(a, at, "duplicate operand '%s' in entry '%s'",
			    q->name, e->name ? e->name : "");
	if ((role = lookup(asm_role_name, NMACHROLE, &lx->t)) < 0) {
		asm_error(a, lx->t.loc, "expected a role (in, out, inout, smem, "
		    "const), found '%.*s'", (int)lx->t.len, lx->t.p);
		return;
	}
	q->o.role = (uint8_t)role;
	asm_next(lx);
	if (type(a, lx, &q->o))
		return;
	while (lx->t.kind != T_END)
		if ((k = key(a, lx)).kind == T_END ||
		    operand_key(a, lx, q, &k, &seen))
			return;
	if (!(seen & 1))
		asm_error(a, at, "'.operand %s' needs smem=ADDR (its argument "
		    "slot)", q->name);
	if (role == MACH_ROLE_CONST && !(seen & 2))
		asm_error(a, at, "a const operand needs data=OFFSET or "
		    "data=LABEL");
	if (role != MACH_ROLE_CONST && (seen & 2))
		asm_error(a, at, "only const operands take data=");
	if (role == MACH_ROLE_SMEM && (seen & 4))
		asm_error(a, at, "an smem operand takes no hbm=");
}

/* ----------------------------------------------------- .region, .loc */

static void
dir_region(Asm *a, Lexer *lx, Loc at)
{
	AsmRegion *r;

	if (!(r = ASM_PUSH(a, a->region)))
		return;
	r->loc = at;
	if (name(a, lx, "a region name", &r->name) == 0)
		end_of_line(a, lx);
}

static void
dir_loc(Asm *a, Lexer *lx, Loc at)
{
	AsmDebug *d;
	int64_t v;
	Tok k;

	if (a->loc_pending) {	/* the later .loc for a bundle wins */
		free(a->debug.v[--a->debug.n].file);
		a->loc_pending = 0;
	}
	if (!(d = ASM_PUSH(a, a->debug)))
		return;
	a->loc_pending = 1;
	d->loc = at;
	d->d.region = MACH_NOREGION;
	if (name(a, lx, "a file name", &d->file) ||
	    asm_int(a, lx, 0, UINT32_MAX, "line", &v))
		return;
	d->d.line = (uint32_t)v;
	if (asm_int(a, lx, 0, UINT32_MAX, "column", &v))
		return;
	d->d.col = (uint32_t)v;
	if (lx->t.kind == T_END)
		return;
	if ((k = key(a, lx)).kind == T_END)
		return;
	if (!tok_eq(&k, "region")) {
		bad_key(a, &k, ".loc", "region=");
		return;
	}
	if (lx->t.kind == T_IDENT || lx->t.kind == T_STR) {
		if (asm_ref(a, REF_DEBUG, a->debug.n - 1, &lx->t))
			return;
		asm_next(lx);
	} else if (asm_int(a, lx, 0, UINT32_MAX - 1, "region", &v))
		return;
	else
		d->d.region = (uint32_t)v;
	end_of_line(a, lx);
}

/* --------------------------------------------------------------- data */

/* Appends n bytes (zeros if b is NULL). */
static int
put_data(Asm *a, const void *b, uint32_t n, Loc at)
{
	if (n > DATA_MAX - a->data.n) {
		asm_error(a, at, "more than %u bytes of data", DATA_MAX);
		return -1;
	}
	while (a->data.cap < a->data.n + n)
		if (asm_grow(a, &a->data.v, &a->data.cap, a->data.cap, 1))
			return -1;
	if (b)
		memcpy(a->data.v + a->data.n, b, n);
	else
		memset(a->data.v + a->data.n, 0, n);
	a->data.n += n;
	return 0;
}

static int
align_data(Asm *a, uint32_t al, Loc at)
{
	uint32_t pad = (al - a->data.n % al) % al;

	return pad ? put_data(a, NULL, pad, at) : 0;
}

static int
put_word(Asm *a, uint32_t w, Loc at)
{
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
	    (uint8_t)(w >> 24) };

	return put_data(a, b, 4, at);
}

/* One value of a .word/.float/.bf16/.byte list, little-endian. */
static int
data_value(Asm *a, Lexer *lx, int kind, Loc at)
{
	uint8_t b[4];
	int32_t w;
	int64_t v;
	double d;
	float f;
	uint16_t h;

	switch (kind) {
	case 'w':
		if (asm_imm32(a, lx, &w))
			return -1;
		return put_word(a, (uint32_t)w, at);
	case 'b':
		if (asm_int(a, lx, -128, 255, "byte", &v))
			return -1;
		b[0] = (uint8_t)v;
		return put_data(a, b, 1, at);
	default:
		if (asm_real(a, lx, &d))
			return -1;
		f = (float)d;
		if (!isfinite(f)) {
			asm_error(a, at, "value out of range for a float");
			return -1;
		}
		if (kind == 'h') {
			h = pallas_f32_to_bf16(f);
			b[0] = (uint8_t)h;
			b[1] = (uint8_t)(h >> 8);
			return put_data(a, b, 2, at);
		}
		memcpy(&w, &f, 4);
		return put_word(a, (uint32_t)w, at);
	}
}

void
asm_bind_data_labels(Asm *a)
{
	uint32_t i;

	for (i = a->sym.n; i > 0 && a->sym.v[i - 1].isdata &&
	    a->sym.v[i - 1].value == ASM_UNBOUND; i--)
		a->sym.v[i - 1].value = a->data.n;
}

static void
dir_values(Asm *a, Lexer *lx, int kind, Loc at)
{
	if (align_data(a, kind == 'h' ? 2 : kind == 'b' ? 1 : 4, at))
		return;
	asm_bind_data_labels(a);
	for (;;) {
		if (data_value(a, lx, kind, at))
			return;
		if (lx->t.kind == T_END)
			return;
		if (!asm_is(lx, ',')) {
			asm_error(a, lx->t.loc, "expected ',' between values");
			return;
		}
		asm_next(lx);
	}
}

static void
dir_zero_align(Asm *a, Lexer *lx, int isalign, Loc at)
{
	int64_t v;

	if (asm_int(a, lx, isalign ? 1 : 0, isalign ? 4096 : DATA_MAX,
	    isalign ? "alignment" : "byte count", &v))
		return;
	if (isalign && (v & (v - 1))) {
		asm_error(a, at, "alignment %lld is not a power of two",
		    (long long)v);
		return;
	}
	if (isalign)
		align_data(a, (uint32_t)v, at);
	asm_bind_data_labels(a);
	if (!isalign)
		put_data(a, NULL, (uint32_t)v, at);
	end_of_line(a, lx);
}

/* ---------------------------------------------------------- dispatch */

void
asm_directive(Asm *a, Lexer *lx)
{
	static const char *const datadirs[] = {
		".word", ".float", ".bf16", ".byte", ".zero", ".align",
	};
	Tok d = lx->t;
	Loc at = d.loc;
	int i;

	asm_next(lx);
	for (i = 0; i < 6; i++)
		if (tok_eq(&d, datadirs[i]))
			break;
	if (i < 6 && !a->datamode) {
		asm_error(a, at, "'%s' outside a .data section", datadirs[i]);
		return;
	}
	if (i < 4)
		dir_values(a, lx, "wfhb"[i], at);
	else if (i < 6)
		dir_zero_align(a, lx, i == 5, at);
	else if (tok_eq(&d, ".preset"))
		dir_preset(a, lx, at);
	else if (tok_eq(&d, ".entry"))
		dir_entry(a, lx, at);
	else if (tok_eq(&d, ".operand"))
		dir_operand(a, lx, at);
	else if (tok_eq(&d, ".region"))
		dir_region(a, lx, at);
	else if (tok_eq(&d, ".loc"))
		dir_loc(a, lx, at);
	else if (tok_eq(&d, ".data") || tok_eq(&d, ".text")) {
		asm_bind_data_labels(a);
		a->datamode = tok_eq(&d, ".data");
		if (a->datamode)
			align_data(a, 32, at);
		end_of_line(a, lx);
	} else
		asm_error(a, at, "unknown directive '%.*s'", (int)d.len, d.p);
}

/* ------------------------------------------------------------ checks */

static void
check_operand(Asm *a, const AsmOperand *q)
{
	const MachOperand *o = &q->o;
	const MachPreset *mp = a->mp;
	uint64_t need = o->role == MACH_ROLE_SMEM ? o->bytes : 8;

	if (o->smem_addr % 4)
		asm_error(a, q->loc, "smem=%u is not 4-byte aligned",
		    o->smem_addr);
	else if (need > mp->smem_bytes || o->smem_addr > mp->smem_bytes - need)
		asm_error(a, q->loc, "SMEM bytes [%u, %llu) lie outside the "
		    "%llu bytes of SMEM of preset '%s'", o->smem_addr,
		    (unsigned long long)(o->smem_addr + need),
		    (unsigned long long)mp->smem_bytes, mp->name);
	if (o->role == MACH_ROLE_CONST && (o->bytes > a->data.n ||
	    o->data_off > a->data.n - o->bytes))
		asm_error(a, q->loc, "constant data [%u, %llu) runs past the "
		    "%u bytes of .data", o->data_off,
		    (unsigned long long)(o->data_off + o->bytes), a->data.n);
	if (o->hbm_addr != MACH_NOADDR && (o->bytes > mp->hbm_bytes ||
	    o->hbm_addr > mp->hbm_bytes - o->bytes))
		asm_error(a, q->loc, "hbm=%llu: the operand does not fit in the "
		    "HBM of preset '%s'", (unsigned long long)o->hbm_addr,
		    mp->name);
}

void
asm_check_operands(Asm *a)
{
	const AsmEntry *e;
	uint32_t i;

	for (i = 0; i < a->opnd.n; i++)
		check_operand(a, &a->opnd.v[i]);
	for (i = 0; i < a->entry.n; i++) {
		e = &a->entry.v[i];
		if (e->e.scratch_bytes && (e->e.scratch_smem % 4 ||
		    e->e.scratch_smem > a->mp->smem_bytes - 8))
			asm_error(a, e->loc, "scratch_smem=%u: not a 4-byte "
			    "aligned SMEM slot of 8 bytes", e->e.scratch_smem);
	}
	for (i = 0; i < a->debug.n; i++)
		if (a->debug.v[i].d.region != MACH_NOREGION &&
		    a->debug.v[i].d.region >= a->region.n)
			asm_error(a, a->debug.v[i].loc, "region %u is not "
			    "declared", a->debug.v[i].d.region);
}
