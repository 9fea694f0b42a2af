/*
 * pallasc-splash.c - --splash-mask (and its alias --splash-causal) of
 * pallasc --run and --interpret --run: the Splash kernels' SMEM tables
 * (block_mask, data_next or their transposes, mask_desc) built by
 * pallas/splash_mask.h from the mask given, which must be the one the
 * export applies, and for a SEGMENTS export its ids operands (q_seg,
 * kv_seg) from the files the mask names.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/pallasc.h"
#include "pallas/splash_mask.h"

enum { SEGMENTS = 4, DENSE = 5 };	/* splash.pk's MASK of each */

/*
 * The operands --splash-mask fills, by name (splash_operand): the
 * tables of every Splash kernel (bit 0 of the first four: data_next,
 * bit 1: the dKV kernel's transposes), a SEGMENTS kernel's ids, a DENSE
 * kernel's table and stored blocks.
 */
enum {
	OP_BLOCK_MASK, OP_DATA_NEXT, OP_BLOCK_MASK_T, OP_DATA_NEXT_T,
	OP_MASK_DESC, OP_Q_SEG, OP_KV_SEG, OP_MASK_NEXT, OP_MASK_NEXT_T,
	OP_PARTIAL, OP_PARTIAL_T, OP_PARTIAL_TR, NOP
};

static int splash_operand(const char *n);

/*
 * The mask a Splash export applies: splash.pk's MASK, MA, MB, MC (a
 * window side of -1 is unbounded), or causal for a kernel without them.
 * NULL if they name no mask, or name SEGMENTS or DENSE, which are data.
 */
static SplashMask *
export_mask(const CKernel *k)
{
	int64_t kind = sema_param(k, "MASK"), a = sema_param(k, "MA");
	int64_t b = sema_param(k, "MB"), c = sema_param(k, "MC");

	switch (kind) {
	case -1: return splash_mask_causal(0);
	case 0: return splash_mask_full();
	case 1: return splash_mask_causal(a);
	case 2: return splash_mask_local(a < 0 ? SPLASH_UNBOUNDED : a,
	    b < 0 ? SPLASH_UNBOUNDED : b, c);
	case 3: return splash_mask_chunked(a);
	default: return NULL;
	}
}

/*
 * A DENSE kernel's stored blocks from info: mask_next (n bytes, as
 * block_mask) and the partial blocks, where b holds them; the kernel's
 * MA says how many it has room for (the rest are zeroed: never read).
 * 0, or -1 after a message.
 */
static int
fill_dense(const CKernel *k, const SplashMaskInfo *info, size_t n,
    InterpBuf *b)
{
	int64_t np = sema_param(k, "MA");
	int i, w;

	if (np < info->npartial) {
		fprintf(stderr, "pallasc: error: --splash-mask: the mask has "
		    "%d distinct partial blocks of %d x %d, but '%s' stores "
		    "at most %lld: export it with DENSE(%d)\n", info->npartial,
		    info->transposed ? info->BKV : info->BQ,
		    info->transposed ? info->BQ : info->BKV, k->name,
		    (long long)np, info->npartial);
		return -1;
	}
	for (i = 0; i < k->nop; i++) {
		if (!run_splash_fills(k, i) || !b[i].data ||
		    (w = splash_operand(k->op[i].name)) < OP_MASK_NEXT)
			continue;
		if (w == OP_MASK_NEXT || w == OP_MASK_NEXT_T)
			memcpy(b[i].data, info->mask_next, n);
		else if (shape_numel(&b[i].shape) == np * info->BQ *
		    info->BKV) {
			size_t used = (size_t)info->npartial *
			    (size_t)info->BQ * (size_t)info->BKV;
			memset(b[i].data, 0, (size_t)shape_numel(&b[i].shape));
			if (used)
				memcpy(b[i].data, w == OP_PARTIAL_TR ?
				    info->partial_tr : info->partial, used);
		} else {
			fprintf(stderr, "pallasc: error: --splash-mask: '%s' "
			    "is not %lld blocks of %d x %d\n", k->op[i].name,
			    (long long)np, info->BQ, info->BKV);
			return -1;
		}
	}
	return 0;
}

/*
 * The block_mask and data_next tables of mask m into b[bm], b[dn]:
 * [H, SQ / BQ, SKV / BKV], or transposed (a dKV kernel's block_mask_t
 * and data_next_t) [H, SKV / BKV, SQ / BQ]; and their description into
 * the kernel's mask_desc.
 */
static int
fill_tables(const CKernel *k, const SplashMask *m, int bm, int dn, int t,
    InterpBuf *b)
{
	int64_t Sq = sema_param(k, "SQ"), Skv = sema_param(k, "SKV");
	int64_t BQ = sema_param(k, "BQ"), BKV = sema_param(k, "BKV");
	const Shape *sh = &k->op[bm].shape;
	SplashMaskInfo info;
	char err[256];
	size_t n;
	int i;

	if (Sq <= 0 || Skv <= 0 || BQ <= 0 || BKV <= 0 ||
	    k->op[bm].dtype != DT_I32 || sh->rank != 3 ||
	    !shape_eq(sh, &k->op[dn].shape) ||
	    (t ? Skv / BKV : Sq / BQ) != sh->d[1] ||
	    (t ? Sq / BQ : Skv / BKV) != sh->d[2]) {
		fprintf(stderr, "pallasc: error: --splash-mask needs a "
		    "kernel with size parameters SQ, SKV, BQ, BKV and SMEM "
		    "tables block_mask and data_next: i32[H, SQ / BQ, SKV / "
		    "BKV] (or block_mask_t and data_next_t: i32[H, SKV / BKV, "
		    "SQ / BQ])\n");
		return -1;
	}
	if (splash_mask_info(m, (int)sh->d[0], Sq, Skv, (int)BQ, (int)BKV, t,
	    &info, err, sizeof err)) {
		fprintf(stderr, "pallasc: error: --splash-mask: %s\n", err);
		return -1;
	}
	n = (size_t)shape_numel(sh) * sizeof(int32_t);
	memcpy(b[bm].data, info.block_mask, n);
	memcpy(b[dn].data, info.data_next, n);
	if (sema_param(k, "MASK") == DENSE && fill_dense(k, &info, n, b)) {
		splash_mask_info_free(&info);
		return -1;
	}
	for (i = 0; i < k->nop; i++)	/* the description the kernel checks */
		if (k->op[i].role == ROLE_SMEM_TABLE &&
		    strcmp(k->op[i].name, "mask_desc") == 0 &&
		    k->op[i].dtype == DT_I32 &&
		    shape_numel(&k->op[i].shape) == SPLASH_DESC_LEN)
			memcpy(b[i].data, info.desc, sizeof info.desc);
	splash_mask_info_free(&info);
	return 0;
}

/* Which OP_ operand a name is; -1 for another name. */
static int
splash_operand(const char *n)
{
	static const char *const name[NOP] = { "block_mask", "data_next",
	    "block_mask_t", "data_next_t", "mask_desc", "q_seg", "kv_seg",
	    "mask_next", "mask_next_t", "partial", "partial_t", "partial_tr" };
	int i;

	for (i = 0; i < NOP; i++)
		if (strcmp(n, name[i]) == 0)
			return i;
	return -1;
}

int
run_splash_fills(const CKernel *k, int i)
{
	int w = splash_operand(k->op[i].name);
	int64_t mask = sema_param(k, "MASK");

	if (w < OP_Q_SEG)
		return w >= 0 && k->op[i].role == ROLE_SMEM_TABLE;
	if (w < OP_MASK_NEXT)
		return k->op[i].role == ROLE_IN && mask == SEGMENTS;
	return k->op[i].role == (w < OP_PARTIAL ? ROLE_SMEM_TABLE : ROLE_IN) &&
	    mask == DENSE;
}

/* The ids of segments mask m into the kernel's q_seg and kv_seg, where
   b holds them (SQ and SKV ids, any layout). */
static int
fill_segment_ids(const CKernel *k, const SplashMask *m, InterpBuf *b)
{
	const int32_t *id[2];
	long len[2];
	int64_t p;
	int i, w;

	splash_mask_segment_ids(m, &len[0], &id[0], &len[1], &id[1]);
	for (i = 0; i < k->nop; i++) {
		if (!run_splash_fills(k, i) || !b[i].data ||
		    (w = splash_operand(k->op[i].name) - OP_Q_SEG) < 0)
			continue;
		if (shape_numel(&b[i].shape) != len[w]) {
			fprintf(stderr, "pallasc: error: --splash-mask: %ld "
			    "%s segment ids, but '%s' takes %lld\n", len[w],
			    w ? "kv" : "q", k->op[i].name,
			    (long long)shape_numel(&b[i].shape));
			return -1;
		}
		for (p = 0; p < len[w]; p++)
			interp_buf_set(&b[i], p, id[w][p]);
	}
	return 0;
}

/* An integer .npy file's values as int32 (copied); NULL after err. */
static int32_t *
read_ids(const char *path, long *n, char *err, size_t nerr)
{
	InterpBuf f;
	char why[256];
	int32_t *v = NULL;
	int64_t i;

	if (interp_npy_read(path, &f, why, sizeof why)) {
		snprintf(err, nerr, "%s", why);
		return NULL;
	}
	*n = (long)shape_numel(&f.shape);
	if (f.dtype != DT_I32 && f.dtype != DT_I8)
		snprintf(err, nerr, "%s holds %s, not integer segment ids",
		    path, dtype_name(f.dtype));
	else if (*n == 0)
		snprintf(err, nerr, "%s holds no segment ids", path);
	else {
		v = xmalloc((size_t)*n * sizeof *v);
		for (i = 0; i < *n; i++)
			v[i] = (int32_t)interp_buf_get(&f, i);
	}
	interp_buf_free(&f);
	return v;
}

/* A [Sq, Skv] .npy file as a dense mask (nonzero keeps); NULL after err. */
static SplashMask *
read_dense(const char *path, char *err, size_t nerr)
{
	InterpBuf f;
	char why[256];
	SplashMask *m = NULL;
	uint8_t *keep;
	int64_t i, n;

	if (interp_npy_read(path, &f, why, sizeof why)) {
		snprintf(err, nerr, "%s", why);
		return NULL;
	}
	if (f.shape.rank != 2 || (n = shape_numel(&f.shape)) == 0) {
		snprintf(err, nerr, "%s holds no [Sq, Skv] mask", path);
		interp_buf_free(&f);
		return NULL;
	}
	keep = xmalloc((size_t)n);
	for (i = 0; i < n; i++)
		keep[i] = interp_buf_get(&f, i) != 0;
	if (!(m = splash_mask_dense((long)f.shape.d[0], (long)f.shape.d[1],
	    keep)))
		snprintf(err, nerr, "%s: not a mask the library takes", path);
	free(keep);
	interp_buf_free(&f);
	return m;
}

/*
 * The loader of splash_mask_parse: segments:Q.npy,KV.npy (the query and
 * key ids, integers of any shape) and dense:M.npy ([Sq, Skv], nonzero
 * keeps).
 */
static SplashMask *
load_mask(void *ctx, const char *kind, const char *args, char *err,
    size_t nerr)
{
	const char *comma = strchr(args, ',');
	int32_t *q = NULL, *kv = NULL;
	SplashMask *m = NULL;
	long nq = 0, nkv = 0;
	char *qpath;

	(void)ctx;
	if (strcmp(kind, "dense") == 0)
		return read_dense(args, err, nerr);
	if (!comma || comma == args || !comma[1]) {
		snprintf(err, nerr, "segments takes two .npy files: "
		    "segments:Q.npy,KV.npy");
		return NULL;
	}
	qpath = xmalloc((size_t)(comma - args) + 1);
	memcpy(qpath, args, (size_t)(comma - args));
	qpath[comma - args] = 0;
	if ((q = read_ids(qpath, &nq, err, nerr)) != NULL &&
	    (kv = read_ids(comma + 1, &nkv, err, nerr)) != NULL &&
	    !(m = splash_mask_segments(nq, q, nkv, kv)))
		snprintf(err, nerr, "too many segment ids");
	free(qpath);
	free(q);
	free(kv);
	return m;
}

/* The mask --splash-mask gives, read; NULL after a message. */
static SplashMask *
given_mask(const RunOpts *r)
{
	char err[512];
	SplashMask *m = splash_mask_parse(r->splash_mask, load_mask, NULL,
	    err, sizeof err);

	if (!m)
		fprintf(stderr, "pallasc: error: --splash-mask=%s: %s\n",
		    r->splash_mask, err);
	return m;
}

static void
not_splash(void)
{
	fprintf(stderr, "pallasc: error: --splash-mask needs a Splash kernel "
	    "(SMEM tables block_mask and data_next, or their transposes "
	    "block_mask_t and data_next_t; a mask by its MASK, MA, MB, MC "
	    "parameters, as kernels/splash/splash.pk)\n");
}

/*
 * Whether the mask given is the one export k applies (other tables
 * would give wrong numbers); for a SEGMENTS export, any segments mask
 * (its ids become the kernel's), for a DENSE one any mask the kernels
 * apply from stored blocks (they become the kernel's).  1, or 0 after a
 * message.
 */
static int
same_mask(const CKernel *k, const SplashMask *want, const SplashMask *got,
    const char *text)
{
	char have[128], said[128];

	if (sema_param(k, "MASK") == SEGMENTS) {
		if (splash_mask_kind(got) == SPLASH_MASK_SEGMENTS)
			return 1;
		fprintf(stderr, "pallasc: error: '%s' applies segment ids: "
		    "give them with --splash-mask=segments:Q.npy,KV.npy\n",
		    k->name);
		return 0;
	}
	if (sema_param(k, "MASK") == DENSE) {
		long p[4];
		if (splash_mask_kernel_params(got, p) == 0 && p[0] == DENSE)
			return 1;
		fprintf(stderr, "pallasc: error: '%s' applies a mask from "
		    "stored blocks: give a dense mask, a mask per head or the "
		    "and/or of masks (--splash-mask=dense:M.npy, heads(M;...), "
		    "and(M;M), or(M;M))\n", k->name);
		return 0;
	}
	if (!want) {
		not_splash();
		return 0;
	}
	if (splash_mask_hash(got) == splash_mask_hash(want))
		return 1;
	splash_mask_describe(want, have, sizeof have);
	splash_mask_describe(got, said, sizeof said);
	fprintf(stderr, "pallasc: error: --splash-mask=%s builds the tables "
	    "of %s, but '%s' applies %s: its tables would give wrong "
	    "numbers\n", text, said, k->name, have);
	return 0;
}

int
run_splash_tables(const RunOpts *r, const CKernel *k, InterpBuf *b)
{
	SplashMask *want = export_mask(k), *got;
	int bm = -1, dn = -1, t = 0, i, rc = -1;

	for (i = 0; i < k->nop; i++) {
		int which = splash_operand(k->op[i].name);
		if (k->op[i].role != ROLE_SMEM_TABLE || which < 0 ||
		    which > OP_DATA_NEXT_T)
			continue;
		if (which & 1)
			dn = i;
		else
			bm = i;
		t |= which >> 1;
	}
	if ((got = given_mask(r)) == NULL)
		;
	else if (bm < 0 || dn < 0)
		not_splash();
	else if (same_mask(k, want, got, r->splash_mask)) {
		rc = fill_tables(k, got, bm, dn, t, b);
		if (!rc && sema_param(k, "MASK") == SEGMENTS)
			rc = fill_segment_ids(k, got, b);
	}
	splash_mask_free(got);
	splash_mask_free(want);
	return rc;
}
