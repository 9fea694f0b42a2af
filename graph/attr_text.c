/*
 * attr_text.c - reading the attributes the reader keeps verbatim
 * (HloInstr.attrs) when infer.c and the evaluator need their meaning:
 * integer lists (slice_sizes={1,2}), pad configurations (0_1x2_3_1),
 * windows (size=3x3 stride=.. pad=.. lhs_dilate=.. rhs_dilate=..),
 * convolution dim_labels (b01f_01io->b01f) and computation names
 * (condition=, body=, branch_computations={a, b}).  Keeping them as text
 * means the printer reproduces them exactly and passes that rename or
 * drop computations see the names (hlo_edit.c scans attribute text).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

const char *
hlo_attr_get(const HloInstr *in, const char *name)
{
	int i;

	for (i = 0; i < in->attrs.n; i++)
		if (strcmp(in->attrs.v[i].name, name) == 0)
			return in->attrs.v[i].value;
	return NULL;
}

static const char *
space(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

int
hlo_ints_text(const char *s, int64_t *v, int max)
{
	int n = 0;
	char *end;

	if (!s || *(s = space(s)) != '{')
		return -1;
	s = space(s + 1);
	while (*s != '}') {
		if (n == max)
			return -1;
		v[n++] = strtoll(s, &end, 10);
		if (end == s)
			return -1;
		s = space(end);
		if (*s == ',')
			s = space(s + 1);
		else if (*s != '}')
			return -1;
	}
	return n;
}

int
hlo_attr_ints(const HloInstr *in, const char *name, int64_t *v, int max)
{
	return hlo_ints_text(hlo_attr_get(in, name), v, max);
}

/* "AxBxC": up to max integers (one group of a window or pad field). */
static const char *
dims_x(const char *s, int64_t *v, int *n, int max, int sep_ok)
{
	char *end;

	*n = 0;
	for (;;) {
		if (*n == max)
			return NULL;
		v[(*n)++] = strtoll(s, &end, 10);
		if (end == s)
			return NULL;
		s = end;
		if (*s != 'x' && !(sep_ok && *s == '_'))
			return s;
		s++;
	}
}

int
hlo_padding_text(const char *s, int rank, int64_t *lo, int64_t *hi,
    int64_t *interior)
{
	int64_t v[3];
	int d, n;
	char *end;

	if (!s)
		return -1;
	for (d = 0; d < rank; d++) {
		for (n = 0; n < 3; n++) {
			v[n] = strtoll(s, &end, 10);
			if (end == s)
				return -1;
			s = end;
			if (*s != '_')
				break;
			s++;
		}
		if (n < 1)
			return -1;
		lo[d] = v[0];
		hi[d] = v[1];
		interior[d] = n == 2 ? v[2] : 0;
		if (d + 1 < rank && *s++ != 'x')
			return -1;
	}
	return *s == 0 || *s == ',' || *s == ' ' ? 0 : -1;
}

/* One "key=AxB" of a window; pad=lo_hixlo_hi. */
static int
window_field(HloWindow *w, const char *key, size_t klen, const char **sp)
{
	int64_t v[2 * HLO_MAXRANK];
	int n, i;
	const char *s = *sp;

#define IS(k) (klen == strlen(k) && !memcmp(key, k, klen))
	if (IS("pad")) {
		if (!(s = dims_x(s, v, &n, 2 * HLO_MAXRANK, 1)) || n % 2 ||
		    n / 2 != w->rank)
			return -1;
		for (i = 0; i < w->rank; i++) {
			w->lo[i] = v[2 * i];
			w->hi[i] = v[2 * i + 1];
		}
	} else {
		int64_t *dst = IS("size") ? w->size : IS("stride") ? w->stride :
		    IS("lhs_dilate") ? w->lhs_dilate : IS("rhs_dilate") ?
		    w->rhs_dilate : NULL;
		if (IS("rhs_reversal")) {
			if (!(s = dims_x(s, v, &n, HLO_MAXRANK, 0)))
				return -1;
			for (i = 0; i < n; i++)
				w->reversed |= v[i] != 0;
			*sp = s;
			return 0;
		}
		if (!dst || !(s = dims_x(s, v, &n, HLO_MAXRANK, 0)))
			return -1;
		if (IS("size"))
			w->rank = n;
		else if (n != w->rank)
			return -1;
		memcpy(dst, v, (size_t)n * sizeof *v);
	}
#undef IS
	*sp = s;
	return 0;
}

int
hlo_window_text(const char *s, HloWindow *w)
{
	int i;

	memset(w, 0, sizeof *w);
	for (i = 0; i < HLO_MAXRANK; i++)
		w->stride[i] = w->lhs_dilate[i] = w->rhs_dilate[i] = 1;
	if (!s)
		return 0;	/* no window: rank 0 */
	if (*(s = space(s)) != '{')
		return -1;
	s = space(s + 1);
	while (*s != '}') {
		const char *key = s;
		size_t klen;
		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		klen = (size_t)(s - key);
		if (*s != '=' || klen == 0)
			return -1;
		s++;
		if (window_field(w, key, klen, &s) != 0)
			return -1;
		s = space(s);
	}
	for (i = 0; i < w->rank; i++)
		if (w->size[i] < 1 || w->stride[i] < 1 ||
		    w->lhs_dilate[i] < 1 || w->rhs_dilate[i] < 1)
			return -1;
	return 0;
}

/* "b01f" and the like: the role of each dimension of one operand. */
static const char *
labels(const char *s, char a, char b, int *ka, int *kb, int *sp, int *n)
{
	int i;

	*ka = *kb = -1;
	for (i = 0; i < HLO_MAXRANK; i++)
		sp[i] = -1;
	for (*n = 0; *s && *s != '_' && *s != '-' && *s != ','; s++, ++*n) {
		if (*n == HLO_MAXRANK)
			return NULL;
		if (*s == a && *ka < 0)
			*ka = *n;
		else if (*s == b && *kb < 0)
			*kb = *n;
		else if (isdigit((unsigned char)*s) && *s - '0' < HLO_MAXRANK &&
		    sp[*s - '0'] < 0)
			sp[*s - '0'] = *n;
		else
			return NULL;
	}
	return *ka < 0 || *kb < 0 ? NULL : s;
}

int
hlo_dim_labels_text(const char *s, HloDimLabels *l)
{
	int nl, nk, no, i;

	if (!s || !(s = labels(s, 'b', 'f', &l->lb, &l->lf, l->ls, &nl)) ||
	    *s++ != '_' ||
	    !(s = labels(s, 'i', 'o', &l->ki, &l->ko, l->ks, &nk)) ||
	    s[0] != '-' || s[1] != '>' ||
	    !(s = labels(s + 2, 'b', 'f', &l->ob, &l->of, l->os, &no)) ||
	    (*s && *s != ',') || nl != nk || nl != no)
		return -1;
	l->nspatial = nl - 2;
	for (i = 0; i < l->nspatial; i++)
		if (l->ls[i] < 0 || l->ks[i] < 0 || l->os[i] < 0)
			return -1;
	return 0;
}

/* One computation name in text *sp, up to a delimiter; -1 if unknown
   (names are compared as text: the attribute's are not interned). */
static int
comp_name(const HloModule *m, const char **sp)
{
	const char *s = space(*sp), *from;
	size_t n;
	int i;

	if (*s == '%')
		s++;
	from = s;
	while (*s && !strchr(",} \t\n", *s))
		s++;
	n = (size_t)(s - from);
	*sp = s;
	for (i = 0; n && i < m->comp.n; i++)
		if (strlen(m->comp.v[i]->name) == n &&
		    !memcmp(m->comp.v[i]->name, from, n))
			return i;
	return -1;
}

int
hlo_attr_comp(const HloModule *m, const HloInstr *in, const char *name)
{
	const char *s = hlo_attr_get(in, name);

	return s ? comp_name(m, &s) : -1;
}

int
hlo_programs(const HloModule *m, const HloInstr *in, int *c, int max)
{
	int br[64], n = 0, k, j = 0;

	switch (in->op) {
	case HLO_WHILE:
		br[n++] = hlo_attr_comp(m, in, "condition");
		br[n++] = hlo_attr_comp(m, in, "body");
		break;
	case HLO_CONDITIONAL:
		n = hlo_branches(m, in, br, 64);
		break;
	case HLO_CALL:
		br[n++] = in->callee;
		break;
	default:
		break;
	}
	for (k = 0; k < n && j < max; k++)
		if (br[k] >= 0 && br[k] < m->comp.n)
			c[j++] = br[k];
	return j;
}

int
hlo_branches(const HloModule *m, const HloInstr *in, int *br, int max)
{
	const char *s = hlo_attr_get(in, "branch_computations");
	int n = 0;

	if (!s) {
		if (max < 2)
			return -1;
		br[0] = hlo_attr_comp(m, in, "true_computation");
		br[1] = hlo_attr_comp(m, in, "false_computation");
		return br[0] < 0 || br[1] < 0 ? -1 : 2;
	}
	if (*(s = space(s)) != '{')
		return -1;
	s++;
	while (*(s = space(s)) != '}') {
		if (n == max || (br[n++] = comp_name(m, &s)) < 0)
			return -1;
		s = space(s);
		if (*s == ',')
			s++;
	}
	return n > 0 ? n : -1;
}
