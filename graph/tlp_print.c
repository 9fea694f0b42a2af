/*
 * tlp_print.c - --emit=tlp: a top-level program as text, its HBM
 * footprint first (the operands the caller passes, the constants in the
 * program, the scratch), then each buffer (where it lives, the steps
 * that write and last read it), then the steps in order with their
 * bindings.  Deterministic: golden files compare it.
 *
 * Entry:    hlo_tlp_print (lower.h)
 */
#include "graph/lower.h"

static const char *
kind_name(TTlpKind k)
{
	switch (k) {
	case TLP_PARAM: return "param";
	case TLP_RESULT: return "result";
	case TLP_CONST: return "const";
	default: return "scratch";
	}
}

/* A buffer the program holds: an operand, or a scratch buffer in use. */
static int
shown(const TTlpBuf *b)
{
	return b->kind != TLP_TEMP || b->first >= 0;
}

static void
type(Buf *out, const TTlpBuf *b)
{
	int k;

	buf_printf(out, "%s[", dtype_name(b->dtype));
	for (k = 0; k < b->shape.rank; k++)
		buf_printf(out, "%s%lld", k ? ", " : "",
		    (long long)b->shape.d[k]);
	buf_printf(out, "]");
}

static void
footprint(Buf *out, const TTlp *t)
{
	int64_t sum[4] = { 0 };
	int i;

	for (i = 0; i < t->nopnd; i++)
		sum[t->buf[t->opnd[i]].kind] += t->buf[t->opnd[i]].bytes;
	buf_printf(out, "tlp %s: %d steps; HBM %lld bytes: parameters %lld, "
	    "result %lld, constants %lld, scratch %lld\n", t->name, t->nstep,
	    (long long)(sum[TLP_PARAM] + sum[TLP_RESULT] + sum[TLP_CONST] +
	    t->scratch), (long long)sum[TLP_PARAM],
	    (long long)sum[TLP_RESULT], (long long)sum[TLP_CONST],
	    (long long)t->scratch);
}

static void
buffers(Buf *out, const TTlp *t)
{
	int i;

	for (i = 0; i < t->nbuf; i++) {
		const TTlpBuf *b = &t->buf[i];
		if (!shown(b))
			continue;
		buf_printf(out, "  buffer %%%d %s: ", i, b->name);
		type(out, b);
		buf_printf(out, " %s", kind_name(b->kind));
		if (b->kind == TLP_TEMP)
			buf_printf(out, " +%lld", (long long)b->offset);
		buf_printf(out, ", %lld bytes", (long long)b->bytes);
		if (b->first >= 0)
			buf_printf(out, ", written by step %d", b->first);
		if (b->last >= 0)
			buf_printf(out, ", last used by step %d", b->last);
		buf_printf(out, "\n");
	}
}

void
hlo_tlp_print(Buf *out, const TTlp *t)
{
	int i, k;

	footprint(out, t);
	buf_printf(out, "  operands:");
	for (i = 0; i < t->nopnd; i++)
		buf_printf(out, " %%%d", t->opnd[i]);
	buf_printf(out, "\n");
	buffers(out, t);
	for (i = 0; i < t->nstep; i++) {
		const TTlpStep *s = &t->step[i];
		buf_printf(out, "  step %d: %s", i, s->name);
		for (k = 0; k < s->nbind; k++)
			buf_printf(out, " %s=%%%d", s->bind[k].opnd,
			    s->bind[k].buf);
		if (s->region)
			buf_printf(out, "  (%s)", s->region);
		buf_printf(out, "\n");
	}
}
