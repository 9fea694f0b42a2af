/*
 * emit_pk.c - the fusion emitter's first stage: a fused computation as
 * the source of a .pk kernel, so that a fusion goes through the same
 * checks (sema: dtypes, shapes, VMEM budget), interpret mode, Mosaic
 * lowering and VLIW backend as a hand-written kernel, with no second
 * code generator.
 *
 * The kernel has one operand per parameter of the computation (p0, p1,
 * ... by parameter number) and one output per array of its root (r0 for
 * an array root, r0, r1, ... for a tuple: a multi-output fusion).  When
 * every value keeps a leading batch dimension (plan_grid), that
 * dimension becomes a parallel grid axis b and the body sees one slice a
 * step; otherwise there is no grid and each operand is one block.  A
 * fusion larger than half the preset's VMEM that way gets a row grid
 * too where its values allow (plan_rows): R rows of its outputs a step.
 * The
 * body binds every instruction to a let (v<index>) in the computation's
 * order and stores the root.
 *
 * The ops it writes: parameter, scalar constant, iota, broadcast (of a scalar,
 * or keeping the operand's dimensions in order), reshape, transpose of
 * the last two dimensions, convert, the elementwise arithmetic,
 * comparison and select, exp, log, sqrt, rsqrt, tanh, abs, negate,
 * reduce over dimensions with an add, max or min reducer from its
 * identity (0, -inf, +inf), dot of matrices (contracting either
 * dimension of each, as trans_a / trans_b) batched over leading
 * dimensions, with operand_precision.  Anything else is refused with a
 * message naming the instruction and its opcode.
 *
 * Entry:    hlo_fusion_pk (graph.h)
 * Tests:    tests/unit/check_hlo_emit.c
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

typedef struct Em {
	const HloModule *m;
	const HloComp *c;
	Buf *out;
	char *err;
	size_t nerr;
	int failed;
	int64_t B;		/* the grid over dimension 0, or 0: none */
	char *bat;		/* per instruction: its dimension 0 is b */
	int64_t vmem;		/* the preset's VMEM bytes (0: no row grid) */
	int64_t M, R;		/* rows and rows a step of the row grid i, or
				   R = 0: none */
	char *row;		/* per instruction: ROW_* */
} Em;

/* An instruction's place in the row grid (plan_rows). */
enum { ROW_NONE, ROW_WHOLE, ROW_TILED };

static void
refuse(Em *e, const HloInstr *in, const char *fmt, const char *what)
{
	if (e->failed++)
		return;
	snprintf(e->err, e->nerr, "%s (%s): ", in->name, hlo_op_name(in->op));
	snprintf(e->err + strlen(e->err), e->nerr - strlen(e->err), fmt,
	    what);
}

/* The .pk dtype of an HLO element type, or NULL. */
static const char *
pk_type(HloType t)
{
	switch (t) {
	case HT_F32: return "f32";
	case HT_BF16: return "bf16";
	case HT_S32: return "i32";
	case HT_S8: return "i8";
	case HT_PRED: return "bool";
	default: return NULL;
	}
}

/* "f32[16, 64]"; 0, or -1 (refused) for a type .pk has not. */
static int
put_type(Em *e, const HloInstr *in, const HloShape *s)
{
	const char *t = pk_type(s->type);
	int i;

	if (!t || s->type == HT_TUPLE) {
		refuse(e, in, "an element type (%s) that kernels do not have",
		    hlo_type_name(s->type));
		return -1;
	}
	if (s->rank == 0) {
		refuse(e, in, "a scalar %s operand or result", t);
		return -1;
	}
	buf_printf(e->out, "%s[", t);
	for (i = 0; i < s->rank; i++)
		buf_printf(e->out, "%s%lld", i ? ", " : "",
		    (long long)s->dim[i]);
	buf_printf(e->out, "]");
	return 0;
}

static void
put_dims(Em *e, const HloShape *s)
{
	int i;

	buf_printf(e->out, "[");
	for (i = 0; i < s->rank; i++)
		buf_printf(e->out, "%s%lld", i ? ", " : "",
		    (long long)s->dim[i]);
	buf_printf(e->out, "]");
}

static const HloInstr *
opnd(const Em *e, const HloInstr *in, int k)
{
	return e->c->instr.v[in->operand[k]];
}

static int
index_of(const Em *e, const HloInstr *in)
{
	int i;

	for (i = 0; i < e->c->instr.n; i++)
		if (e->c->instr.v[i] == in)
			return i;
	return -1;
}

/* Whether in's dimension 0 is the grid's (each step sees one slice). */
static int
batched(const Em *e, const HloInstr *in)
{
	return e->B && e->bat[index_of(e, in)];
}

/* Whether in's first dimension in the body is the row grid's: R rows a
   step, from i * R. */
static int
tiled(const Em *e, const HloInstr *in)
{
	return e->R && e->row[index_of(e, in)] == ROW_TILED;
}

/* in's shape as the kernel body sees it: without dimension 0 when it
   is the grid's, R rows when it is row-tiled. */
static HloShape
kshape(const Em *e, const HloInstr *in)
{
	HloShape s = in->shape;
	int i;

	if (batched(e, in)) {
		for (i = 1; i < s.rank; i++)
			s.dim[i - 1] = s.dim[i];
		s.rank--;
	}
	if (tiled(e, in))
		s.dim[0] = e->R;
	return s;
}

/* Operand dimension k's place in the result of broadcast in, as the
   body sees both: -1 for the grid's dimension. */
static int
bdim(const Em *e, const HloInstr *in, int k)
{
	if (batched(e, opnd(e, in, 0)) && k == 0)
		return -1;
	return (int)in->dims.v[k] - batched(e, in);
}

/* A scalar constant as a typed .pk literal. */
static int
put_scalar(Em *e, const HloInstr *in)
{
	const char *t = pk_type(in->shape.type);
	char num[64];
	double v;

	if (!t || in->lit.n != 1 || in->lit.elided) {
		refuse(e, in, "%s", in->lit.n != 1 ? "an array constant" :
		    "a constant of this type");
		return -1;
	}
	if (!hlo_type_is_float(in->shape.type)) {
		buf_printf(e->out, "%s(%lld)", t, (long long)in->lit.v[0].i);
		return 0;
	}
	v = in->lit.v[0].f;
	if (isnan(v)) {
		refuse(e, in, "%s", "a NaN constant");
		return -1;
	}
	if (isinf(v)) {
		buf_printf(e->out, "%s(%sinf)", t, v < 0 ? "-" : "");
		return 0;
	}
	snprintf(num, sizeof num, "%.9g", v);
	if (!strpbrk(num, ".en"))
		strcat(num, ".0");
	buf_printf(e->out, "%s(%s)", t, num);
	return 0;
}

/* The value of an operand: its let. */
static void
put_val(Em *e, const HloInstr *in, int k)
{
	buf_printf(e->out, "v%d", in->operand[k]);
}

/* broadcast: a scalar to the shape, or the operand's dimensions kept in
   order (a reshape adds the size-1 ones, then broadcast). */
static int
put_broadcast(Em *e, const HloInstr *in)
{
	const HloInstr *x = opnd(e, in, 0);
	HloShape to = kshape(e, in), mid = to;
	int i, k, last = -1;

	if (x->shape.rank == 0) {
		buf_printf(e->out, "broadcast(");
		if (x->op == HLO_CONSTANT)
			put_scalar(e, x);
		else
			put_val(e, in, 0);
		buf_printf(e->out, ", ");
		put_dims(e, &to);
		buf_printf(e->out, ")");
		return 0;
	}
	/* a vector down the rows of a matrix: [N] to [M, N] along the
	   lanes, then a transpose, which the compiled path has where a
	   [M] to [M, 1] reshape crosses lanes into sublanes */
	if (to.rank == 2 && kshape(e, x).rank == 1 && bdim(e, in,
	    in->dims.n - 1) == 0) {
		buf_printf(e->out, "transpose(broadcast(");
		put_val(e, in, 0);
		buf_printf(e->out, ", [%lld, %lld]))", (long long)to.dim[1],
		    (long long)to.dim[0]);
		return 0;
	}
	for (i = 0; i < mid.rank; i++)
		mid.dim[i] = 1;
	for (k = 0; k < in->dims.n; k++) {
		if ((i = bdim(e, in, k)) < 0)
			continue;
		if (i <= last) {
			refuse(e, in, "%s", "a broadcast that reorders "
			    "dimensions");
			return -1;
		}
		mid.dim[last = i] = tiled(e, x) && k == batched(e, x) ? e->R :
		    x->shape.dim[k];
	}
	for (i = 0; i < to.rank && mid.dim[i] == to.dim[i]; i++)
		;
	if (i == to.rank && kshape(e, x).rank == to.rank) {
		put_val(e, in, 0);	/* only the grid's dimension added */
		return 0;
	}
	buf_printf(e->out, "broadcast(reshape(");
	put_val(e, in, 0);
	buf_printf(e->out, ", ");
	put_dims(e, &mid);
	buf_printf(e->out, "), ");
	put_dims(e, &to);
	buf_printf(e->out, ")");
	return 0;
}

/* transpose: only of the last two dimensions. */
static int
put_transpose(Em *e, const HloInstr *in)
{
	int r = in->shape.rank, i;

	for (i = 0; i < r; i++)
		if (in->dims.v[i] != (i < r - 2 ? i : i == r - 2 ? r - 1 :
		    r - 2) || r - batched(e, in) < 2) {
			refuse(e, in, "%s", "a transpose other than of the "
			    "last two dimensions");
			return -1;
		}
	buf_printf(e->out, "transpose(");
	put_val(e, in, 0);
	buf_printf(e->out, ")");
	return 0;
}

/* The reducer of a reduce: "sum", "max" or "min", and its identity. */
static const char *
reducer(Em *e, const HloInstr *in, double *unit)
{
	const HloComp *f = in->callee >= 0 ? e->m->comp.v[in->callee] : NULL;
	const HloInstr *r = f ? f->instr.v[f->root] : NULL;

	if (!r || r->noperand != 2 ||
	    f->instr.v[r->operand[0]]->op != HLO_PARAMETER ||
	    f->instr.v[r->operand[1]]->op != HLO_PARAMETER)
		return NULL;
	switch (r->op) {
	case HLO_ADD: *unit = 0; return "sum";
	case HLO_MAXIMUM: *unit = -INFINITY; return "max";
	case HLO_MINIMUM: *unit = INFINITY; return "min";
	default: return NULL;
	}
}

/* reduce over its dimensions, the highest first so that the others
   keep their numbers. */
static int
put_reduce(Em *e, const HloInstr *in)
{
	const HloInstr *init = in->noperand == 2 ? opnd(e, in, 1) : NULL;
	double unit;
	const char *fn = reducer(e, in, &unit);
	int i;

	if (!fn || !init || init->op != HLO_CONSTANT || init->lit.n != 1 ||
	    !hlo_type_is_float(init->shape.type) ||
	    init->lit.v[0].f != unit) {
		refuse(e, in, "%s", "a reduce other than a float sum, max or "
		    "min from its identity");
		return -1;
	}
	for (i = 0; i < in->dims.n; i++) {
		if (i > 0 && in->dims.v[i] <= in->dims.v[i - 1]) {
			refuse(e, in, "%s", "reduce dimensions out of order");
			return -1;
		}
		buf_printf(e->out, "%s(", fn);
	}
	put_val(e, in, 0);
	for (i = in->dims.n - 1; i >= 0; i--)
		buf_printf(e->out, ", axis: %lld)", (long long)in->dims.v[i] -
		    batched(e, in));
	return 0;
}

/* dot: batch dimensions leading and alike, one contracting dimension
   among each operand's last two. */
static int
put_dot(Em *e, const HloInstr *in)
{
	const HloInstr *a = opnd(e, in, 0), *b = opnd(e, in, 1);
	const HloInts *d = in->dot;
	int ra = a->shape.rank, rb = b->shape.rank, nb = d[DOT_LHS_BATCH].n;
	int i, ta, tb;
	const char *prec = hlo_attr_get(in, "operand_precision");
	const char *acc = pk_type(in->shape.type);

	if (ra != rb || ra != nb + 2 || d[DOT_RHS_BATCH].n != nb ||
	    d[DOT_LHS_CONTRACT].n != 1 || d[DOT_RHS_CONTRACT].n != 1) {
		refuse(e, in, "%s", "a dot other than of matrices batched "
		    "over leading dimensions");
		return -1;
	}
	for (i = 0; i < nb; i++)
		if (d[DOT_LHS_BATCH].v[i] != i || d[DOT_RHS_BATCH].v[i] != i) {
			refuse(e, in, "%s", "a dot whose batch dimensions do "
			    "not lead");
			return -1;
		}
	ta = d[DOT_LHS_CONTRACT].v[0] == nb;
	tb = d[DOT_RHS_CONTRACT].v[0] == nb + 1;
	if (in->shape.type != a->shape.type && (a->shape.type != HT_BF16 ||
	    in->shape.type != HT_F32))
		buf_printf(e->out, "(");
	buf_printf(e->out, "dot(");
	put_val(e, in, 0);
	buf_printf(e->out, ", ");
	put_val(e, in, 1);
	if (ta)
		buf_printf(e->out, ", trans_a");
	if (tb)
		buf_printf(e->out, ", trans_b");
	if (prec && strstr(prec, "highest"))
		buf_printf(e->out, ", precision: highest");
	else if (prec && strstr(prec, "high"))
		buf_printf(e->out, ", precision: high");
	buf_printf(e->out, ")");
	if (in->shape.type != a->shape.type && (a->shape.type != HT_BF16 ||
	    in->shape.type != HT_F32))
		buf_printf(e->out, " as %s)", acc ? acc : "?");
	return 0;
}

static const char *
binary_op(HloOp op)
{
	switch (op) {
	case HLO_ADD: return "+";
	case HLO_SUBTRACT: return "-";
	case HLO_MULTIPLY: return "*";
	case HLO_DIVIDE: return "/";
	default: return NULL;
	}
}

static const char *
unary_fn(HloOp op)
{
	switch (op) {
	case HLO_EXP: return "exp";
	case HLO_LOG: return "log";
	case HLO_SQRT: return "sqrt";
	case HLO_RSQRT: return "rsqrt";
	case HLO_TANH: return "tanh";
	case HLO_ABS: return "abs";
	default: return NULL;
	}
}

static const char *
cmp_op(HloCmp c)
{
	static const char *const s[NCMP] = { NULL, "==", "!=", "<", "<=",
	    ">", ">=" };

	return c > CMP_NONE && c < NCMP ? s[c] : NULL;
}

/* The expression computing in, from its operands' lets. */
static int
put_expr(Em *e, const HloInstr *in)
{
	const char *s;
	HloShape ks;

	if ((s = binary_op(in->op)) != NULL) {
		put_val(e, in, 0);
		buf_printf(e->out, " %s ", s);
		put_val(e, in, 1);
		return 0;
	}
	if ((s = unary_fn(in->op)) != NULL) {
		buf_printf(e->out, "%s(", s);
		put_val(e, in, 0);
		buf_printf(e->out, ")");
		return 0;
	}
	switch (in->op) {
	case HLO_MAXIMUM:
	case HLO_MINIMUM:
		buf_printf(e->out, "%s(", in->op == HLO_MAXIMUM ? "max" :
		    "min");
		put_val(e, in, 0);
		buf_printf(e->out, ", ");
		put_val(e, in, 1);
		buf_printf(e->out, ")");
		return 0;
	case HLO_NEGATE:
		buf_printf(e->out, "-");
		put_val(e, in, 0);
		return 0;
	case HLO_COMPARE:
		if (!(s = cmp_op(in->cmp)))
			break;
		put_val(e, in, 0);
		buf_printf(e->out, " %s ", s);
		put_val(e, in, 1);
		return 0;
	case HLO_SELECT:
		buf_printf(e->out, "where(");
		put_val(e, in, 0);
		buf_printf(e->out, ", ");
		put_val(e, in, 1);
		buf_printf(e->out, ", ");
		put_val(e, in, 2);
		buf_printf(e->out, ")");
		return 0;
	case HLO_CONVERT:
		if (!(s = pk_type(in->shape.type)))
			break;
		buf_printf(e->out, "(");
		put_val(e, in, 0);
		buf_printf(e->out, " as %s)", s);
		return 0;
	case HLO_RESHAPE:
	case HLO_BITCAST:
		ks = kshape(e, in);
		buf_printf(e->out, "reshape(");
		put_val(e, in, 0);
		buf_printf(e->out, ", ");
		put_dims(e, &ks);
		buf_printf(e->out, ")");
		return 0;
	case HLO_COPY:
		put_val(e, in, 0);
		return 0;
	case HLO_CONSTANT:
		refuse(e, in, "%s", "an array constant");
		return -1;
	case HLO_IOTA:
		if (!(s = pk_type(in->shape.type)) || in->num < 0 ||
		    in->num >= in->shape.rank)
			break;
		ks = kshape(e, in);
		buf_printf(e->out, in->shape.type == HT_S32 ? "" : "(");
		if (tiled(e, in) && in->num == batched(e, in))
			buf_printf(e->out, "(");	/* rows from i * R */
		buf_printf(e->out, "iota(");
		put_dims(e, &ks);
		buf_printf(e->out, ", %lld)", (long long)in->num -
		    batched(e, in));
		if (tiled(e, in) && in->num == batched(e, in))
			buf_printf(e->out, " + i * %lld)", (long long)e->R);
		if (in->shape.type != HT_S32)
			buf_printf(e->out, " as %s)", s);
		return 0;
	case HLO_BROADCAST: return put_broadcast(e, in);
	case HLO_TRANSPOSE: return put_transpose(e, in);
	case HLO_REDUCE: return put_reduce(e, in);
	case HLO_DOT: return put_dot(e, in);
	default:
		break;
	}
	refuse(e, in, "%s", "an op the fusion emitter does not write yet");
	return -1;
}

/*
 * The grid: dimension 0 of every output, B, becomes a parallel grid
 * axis when each instruction keeps it as its own dimension 0 (or has
 * none: a value the same at every step, such as a mask of iotas that a
 * broadcast then gives the batch), B coming from the first value of
 * three dimensions or more so that a step keeps two for the vector unit.
 * So a batched attention runs head by head.  Sets e->B and e->bat (state per instruction: 0 no
 * dimension 0 of the grid's, 1 it, 2 a scalar); e->B stays 0 otherwise.
 */
static void
plan_grid(Em *e, char *bat)
{
	const HloInstr *root = e->c->instr.v[e->c->root];
	int64_t B = 0;
	int i, k, st, ok;

	/* the first value of three dimensions or more gives B */
	for (i = 0; i < e->c->instr.n && !B; i++)
		if (e->c->instr.v[i]->shape.rank >= 3)
			B = e->c->instr.v[i]->shape.dim[0];
	ok = B > 1;

	for (i = 0; i < e->c->instr.n && ok; i++) {
		const HloInstr *in = e->c->instr.v[i];
		int lead = in->shape.rank >= 1 && in->shape.dim[0] == B;
		int nb = lead && in->shape.rank >= 2;
		if (in->shape.rank == 0 || in->op == HLO_TUPLE) {
			bat[i] = 2;
			continue;
		}
		st = -1;	/* the non-scalar operands' state */
		for (k = 0; k < in->noperand; k++) {
			int t = bat[in->operand[k]];
			if (t == 2)
				continue;
			if (st >= 0 && t != st && in->op != HLO_DOT)
				ok = 0;
			st = t;
		}
		switch (in->op) {
		case HLO_PARAMETER:
			bat[i] = (char)nb;
			break;
		case HLO_IOTA:
			bat[i] = (char)nb;
			ok &= !nb || in->num != 0;
			break;
		case HLO_BROADCAST:
			if (st == 1)	/* its dimension 0 must stay 0 */
				ok &= in->dims.n > 0 && in->dims.v[0] == 0 &&
				    nb;
			bat[i] = (char)nb;
			ok &= st != 0 || !lead || in->dims.n == 0 ||
			    in->dims.v[0] != 0;
			break;
		case HLO_REDUCE:
			for (k = 0; k < in->dims.n; k++)
				ok &= st != 1 || in->dims.v[k] != 0;
			bat[i] = (char)(st == 1);
			ok &= st != 1 || in->shape.rank >= 2;
			break;
		case HLO_DOT:
			bat[i] = (char)(st == 1);
			ok &= bat[in->operand[0]] == bat[in->operand[1]] &&
			    (st != 1 || (in->dot[DOT_LHS_BATCH].n > 0 &&
			    in->dot[DOT_LHS_BATCH].v[0] == 0 &&
			    in->dot[DOT_RHS_BATCH].v[0] == 0));
			break;
		case HLO_TRANSPOSE:
			bat[i] = (char)(st == 1);
			ok &= st != 1 || in->dims.v[0] == 0;
			break;
		default:	/* elementwise, reshape, convert, copy */
			bat[i] = (char)(st == 1);
			ok &= st != 1 || nb;
		}
		ok &= bat[i] != 1 || nb;
	}
	if (root->op == HLO_TUPLE)
		for (k = 0; k < root->noperand && ok; k++)
			ok &= bat[root->operand[k]] == 1;
	else
		ok &= ok && bat[e->c->root] == 1;
	if (ok) {
		e->B = B;
		e->bat = bat;
	}
}

/* The grid's block of an operand or output x: [_, d1, ...] at (b, 0,
   ...) when batched, R rows at i when row-tiled, else the whole array
   at (0, ...). */
static void
put_block(Em *e, const char *name, const HloInstr *x)
{
	int k, b = batched(e, x), t = tiled(e, x);

	buf_printf(e->out, " %s: [", name);
	for (k = 0; k < x->shape.rank; k++)
		if (k == 0 && b)
			buf_printf(e->out, "_");
		else
			buf_printf(e->out, "%s%lld", k ? ", " : "",
			    (long long)(t && k == b ? e->R : x->shape.dim[k]));
	buf_printf(e->out, "] at (");
	for (k = 0; k < x->shape.rank; k++)
		buf_printf(e->out, "%s%s", k ? ", " : "", k == 0 && b ? "b" :
		    t && k == b ? "i" : "0");
	buf_printf(e->out, ");");
}

/* grid (b: B), (i: M / R) or both, and the blocks, after the header. */
static void
put_grid(Em *e)
{
	const HloInstr *root = e->c->instr.v[e->c->root];
	char nm[32];
	int64_t p;
	int k;

	if (!e->B && !e->R)
		return;
	buf_printf(e->out, "grid (");
	if (e->B)
		buf_printf(e->out, "b: %lld%s", (long long)e->B, e->R ? ", " :
		    "");
	if (e->R)
		buf_printf(e->out, "i: %lld", (long long)(e->M / e->R));
	buf_printf(e->out, ")\nsemantics (parallel%s)\nblocks {",
	    e->B && e->R ? ", parallel" : "");
	for (p = 0; p < e->c->nparam; p++) {
		snprintf(nm, sizeof nm, "p%lld", (long long)p);
		put_block(e, nm, hlo_param(e->c, p));
	}
	for (k = 0; k < (root->op == HLO_TUPLE ? root->noperand : 1); k++) {
		snprintf(nm, sizeof nm, "r%d", k);
		put_block(e, nm, root->op == HLO_TUPLE ? opnd(e, root, k) :
		    root);
	}
	buf_printf(e->out, " }\n");
}

/*
 * The row grid, for a fusion larger than VMEM: the first dimension the
 * body sees of every output (M rows) split in blocks of R rows, a
 * parallel grid axis i, when each value the outputs depend on either
 * keeps those rows (elementwise ops, broadcasts along them, reductions
 * over other dimensions, the left operand of a dot) or is needed whole
 * (the right operand of a dot, a vector broadcast across the rows), and
 * never both.  need() marks x, walking back from the outputs: -1 when
 * x cannot be what its user needs.
 */
static int
need(Em *e, int x, int want)
{
	const HloInstr *in = e->c->instr.v[x];

	if (in->shape.rank == 0)
		return 0;
	if (e->row[x] && e->row[x] != want)
		return -1;
	if (want == ROW_TILED && (in->shape.rank - batched(e, in) < 1 ||
	    in->shape.dim[batched(e, in)] != e->M))
		return -1;
	e->row[x] = (char)want;
	return 0;
}

/* What tiled instruction in needs of its operands. */
static int
need_operands(Em *e, const HloInstr *in)
{
	const HloInstr *x = in->noperand ? opnd(e, in, 0) : NULL;
	int k, rc = 0, b;

	switch (in->op) {
	case HLO_PARAMETER: case HLO_IOTA:
		return 0;
	case HLO_BROADCAST:
		if (x->shape.rank == 0)
			return 0;
		b = -1;
		for (k = 0; k < in->dims.n; k++)
			if (bdim(e, in, k) == 0)
				b = k;
		if (b < 0)
			return need(e, in->operand[0], ROW_WHOLE);
		return b != batched(e, x) ? -1 : need(e, in->operand[0],
		    ROW_TILED);
	case HLO_REDUCE:
		for (k = 0; k < in->dims.n; k++)
			if (in->dims.v[k] == batched(e, x))
				return -1;
		return need(e, in->operand[0], ROW_TILED);
	case HLO_DOT:
		if (in->dot[DOT_LHS_CONTRACT].n != 1 ||
		    in->dot[DOT_LHS_CONTRACT].v[0] != x->shape.rank - 1)
			return -1;
		return need(e, in->operand[0], ROW_TILED) |
		    need(e, in->operand[1], ROW_WHOLE);
	case HLO_TRANSPOSE: case HLO_RESHAPE: case HLO_BITCAST:
	case HLO_CONSTANT:
		return -1;
	default:	/* elementwise, convert, copy, select, compare */
		for (k = 0; k < in->noperand; k++)
			rc |= need(e, in->operand[k], ROW_TILED);
		return rc;
	}
}

/* VMEM the kernel would take at R rows a step, roughly as Mosaic
   allocates it: every let a home of its body shape (4-byte elements),
   operands and outputs two buffers more. */
static int64_t
row_bytes(Em *e, int64_t R)
{
	const HloInstr *root = e->c->instr.v[e->c->root];
	int64_t total = 0, n;
	int i, k;

	e->R = R;
	for (i = 0; i < e->c->instr.n; i++) {
		const HloInstr *in = e->c->instr.v[i];
		HloShape ks = kshape(e, in);
		if (!e->row[i] || in->op == HLO_TUPLE)
			continue;
		for (n = 4, k = 0; k < ks.rank; k++)
			n *= ks.dim[k];
		total += in->op == HLO_PARAMETER ? 3 * n : n;
		for (k = 0; k < (root->op == HLO_TUPLE ? root->noperand : 1);
		    k++)
			if (i == (root->op == HLO_TUPLE ? root->operand[k] :
			    e->c->root))
				total += 2 * n;
	}
	e->R = 0;
	return total;
}

static void
plan_rows(Em *e, char *row)
{
	const HloInstr *root = e->c->instr.v[e->c->root];
	const HloInstr *r0 = root->op == HLO_TUPLE && root->noperand ?
	    opnd(e, root, 0) : root;
	int64_t R, step = 8;
	int i, k, ok = 1;

	if (!e->vmem || r0->shape.rank - batched(e, r0) < 1)
		return;
	e->row = row;
	e->M = r0->shape.dim[batched(e, r0)];
	if (root->op == HLO_TUPLE) {
		for (k = 0; k < root->noperand; k++)
			ok &= need(e, root->operand[k], ROW_TILED) == 0;
	} else
		ok &= need(e, e->c->root, ROW_TILED) == 0;
	for (i = e->c->instr.n - 1; i >= 0 && ok; i--)
		if (row[i] == ROW_WHOLE) {
			for (k = 0; k < e->c->instr.v[i]->noperand; k++)
				ok &= need(e, e->c->instr.v[i]->operand[k],
				    ROW_WHOLE) == 0;
		} else if (row[i] == ROW_TILED)
			ok &= need_operands(e, e->c->instr.v[i]) == 0;
	/* a tiled vector's rows are lanes: 128 a step */
	for (i = 0; i < e->c->instr.n; i++)
		if (row[i] == ROW_TILED && e->c->instr.v[i]->shape.rank -
		    batched(e, e->c->instr.v[i]) == 1)
			step = 128;
	if (!ok || row_bytes(e, e->M) <= e->vmem / 16 * 15)
		return;
	for (R = e->M / step * step; R >= step; R -= step)
		if (e->M % R == 0 && row_bytes(e, R) <= e->vmem / 16 * 15) {
			e->R = R;
			return;
		}
}

/* The header: kernel NAME(p0: T[..], ..., out r0: T[..], ...). */
static void
put_header(Em *e, const char *name)
{
	const HloInstr *root = e->c->instr.v[e->c->root];
	int n = 0, k;
	int64_t p;

	buf_printf(e->out, "kernel %s(", name);
	for (p = 0; p < e->c->nparam; p++) {
		const HloInstr *x = hlo_param(e->c, p);
		if (!x) {
			refuse(e, root, "%s", "parameters not numbered 0 .. n-1");
			return;
		}
		buf_printf(e->out, "%sp%lld: ", n++ ? ", " : "", (long long)p);
		put_type(e, x, &x->shape);
	}
	if (root->op == HLO_TUPLE) {
		for (k = 0; k < root->noperand; k++) {
			buf_printf(e->out, "%sout r%d: ", n++ ? ", " : "", k);
			put_type(e, opnd(e, root, k), &opnd(e, root, k)->shape);
		}
	} else {
		buf_printf(e->out, "%sout r0: ", n ? ", " : "");
		put_type(e, root, &root->shape);
	}
	buf_printf(e->out, ")\n");
	if (!e->failed)
		put_grid(e);
	buf_printf(e->out, "{\n");
}

/* Whether instruction i is only a reduce's init or a scalar constant a
   broadcast writes inline (no let of its own). */
static int
inline_only(const Em *e, int i)
{
	const HloInstr *in = e->c->instr.v[i];

	return in->op == HLO_CONSTANT && in->shape.rank == 0;
}

/*
 * An instruction of c left outside fusions, as a kernel of its own: its
 * operands p0.. (scalar constants inline), its result r0.
 */
int
hlo_instr_pk(const HloModule *m, const HloComp *c, const HloInstr *in,
    const char *name, Buf *out, char *err, size_t nerr)
{
	Em e = { m, c, out, err, nerr, 0, 0, NULL, 0, 0, 0, NULL };
	int k, j, np = 0, idx = -1;

	if (nerr)
		err[0] = 0;
	buf_printf(out, "kernel %s(", name);
	for (k = 0; k < in->noperand; k++) {
		const HloInstr *x = opnd(&e, in, k);
		for (j = 0; j < k && in->operand[j] != in->operand[k]; j++)
			;
		if (j < k || (x->op == HLO_CONSTANT && x->shape.rank == 0))
			continue;
		buf_printf(out, "%sp%d: ", np++ ? ", " : "", k);
		put_type(&e, x, &x->shape);
	}
	buf_printf(out, "%sout r0: ", np ? ", " : "");
	put_type(&e, in, &in->shape);
	buf_printf(out, ")\n{\n");
	for (k = 0; k < in->noperand; k++) {
		const HloInstr *x = opnd(&e, in, k);
		for (j = 0; j < k && in->operand[j] != in->operand[k]; j++)
			;
		if (j < k || (x->op == HLO_CONSTANT && x->shape.rank == 0))
			continue;
		buf_printf(out, "    let v%d = p%d[...];\n", in->operand[k], k);
	}
	for (j = 0; j < c->instr.n; j++)
		if (c->instr.v[j] == in)
			idx = j;
	buf_printf(out, "    let v%d = ", idx);
	if (!e.failed)
		put_expr(&e, in);
	buf_printf(out, ";\n    r0[...] = v%d;\n}\nexport %s;\n", idx, name);
	return e.failed ? -1 : 0;
}

int
hlo_fusion_pk(const HloModule *m, const HloComp *c, const char *name,
    int64_t vmem, Buf *out, char *err, size_t nerr)
{
	Em e = { m, c, out, err, nerr, 0, 0, NULL, vmem, 0, 0, NULL };
	const HloInstr *root = c->instr.v[c->root];
	char *bat = calloc((size_t)c->instr.n + 1, 1);
	char *row = calloc((size_t)c->instr.n + 1, 1);
	int i, k;

	if (nerr)
		err[0] = 0;
	if (!bat || !row) {
		free(bat);
		free(row);
		snprintf(err, nerr, "out of memory");
		return -1;
	}
	plan_grid(&e, bat);
	plan_rows(&e, row);
	put_header(&e, name);
	for (i = 0; i < c->instr.n && !e.failed; i++) {
		const HloInstr *in = c->instr.v[i];
		if (in->op == HLO_TUPLE && i == c->root)
			continue;
		if (inline_only(&e, i))
			continue;
		if (in->op == HLO_PARAMETER) {
			buf_printf(out, "    let v%d = p%lld[...];\n", i,
			    (long long)in->num);
			continue;
		}
		if (in->shape.rank == 0) {
			refuse(&e, in, "%s", "a scalar value");
			break;
		}
		buf_printf(out, "    let v%d = ", i);
		put_expr(&e, in);
		buf_printf(out, ";\n");
	}
	if (root->op == HLO_TUPLE)
		for (k = 0; k < root->noperand; k++)
			buf_printf(out, "    r%d[...] = v%d;\n", k,
			    root->operand[k]);
	else
		buf_printf(out, "    r0[...] = v%d;\n", c->root);
	buf_printf(out, "}\nexport %s;\n", name);
	free(bat);
	free(row);
	return e.failed ? -1 : 0;
}
