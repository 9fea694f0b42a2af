/*
 * mask_info.c - the MaskInfo tables of a Splash mask: block_mask,
 * data_next, mask_next and the deduplicated partial blocks, for the
 * forward/dQ grid or transposed for the dKV grid, and the check value.
 *
 * Structured masks are classified per block from their parameters:
 * full/causal/local are a band of diagonals k - q, chunked has a closed
 * form, segments compare per-block sets of ids.  and/or combine their
 * operands' classes; where that cannot decide (two partial operands) the
 * block's elements are evaluated, which is exact and needs no memory.
 * See include/pallas/splash_mask.h.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/splash/mask_int.h"

/* The sorted distinct ids of each block of one side of a segment mask:
   ids[off[b]] .. ids[off[b + 1] - 1]. */
typedef struct IdSets {
	int32_t *ids;
	long *off;
} IdSets;

typedef struct SegSets {
	const SplashMask *m;
	IdSets q, kv;
} SegSets;

typedef struct Build {
	int BQ, BKV;
	SegSets *seg;
	int nseg;
} Build;

/* Block (i, j) of the forward grid, inclusive bounds. */
typedef struct Block {
	int i, j;
	long q0, q1, k0, k1;
} Block;

void
splash_mask_fill_next(int n, int32_t *row)
{
	int32_t next = -1, last = 0;
	int j;

	for (j = n - 1; j >= 0; j--) {		/* next marked step */
		if (row[j] >= 0)
			next = row[j];
		row[j] = next;
	}
	/* Past the last marked step all are -1; the value before them is
	   the last marked step's own. */
	for (j = 0; j < n; j++) {
		if (row[j] >= 0)
			last = row[j];
		else
			row[j] = last;
	}
}

static int
cmp_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The id sets of the nb blocks of B ids each. */
static int
id_sets(const int32_t *src, long nb, int B, IdSets *s)
{
	long b, t, n = 0;

	s->ids = malloc((size_t)nb * (size_t)B * sizeof(int32_t));
	s->off = malloc(((size_t)nb + 1) * sizeof(long));
	if (!s->ids || !s->off)
		return -1;
	for (b = 0; b < nb; b++) {
		int32_t *d = s->ids + n;
		long k = 0;
		memcpy(d, src + b * B, (size_t)B * sizeof(int32_t));
		qsort(d, (size_t)B, sizeof(int32_t), cmp_id);
		for (t = 0; t < B; t++)
			if (t == 0 || d[t] != d[k - 1])
				d[k++] = d[t];
		s->off[b] = n;
		n += k;
	}
	s->off[nb] = n;
	return 0;
}

static void
free_sets(Build *b)
{
	int i;

	for (i = 0; i < b->nseg; i++) {
		free(b->seg[i].q.ids);
		free(b->seg[i].q.off);
		free(b->seg[i].kv.ids);
		free(b->seg[i].kv.off);
	}
	free(b->seg);
}

/* The id sets of every segment mask in m's tree (each once). */
static int
collect_sets(Build *b, const SplashMask *m)
{
	SegSets *v, *s;
	int i;

	for (i = 0; i < m->n; i++)
		if (collect_sets(b, m->sub[i]) < 0)
			return -1;
	if (m->kind != SPLASH_MASK_SEGMENTS)
		return 0;
	for (i = 0; i < b->nseg; i++)
		if (b->seg[i].m == m)
			return 0;
	if (!(v = realloc(b->seg, ((size_t)b->nseg + 1) * sizeof(*v))))
		return -1;
	b->seg = v;
	s = &v[b->nseg++];
	memset(s, 0, sizeof(*s));
	s->m = m;
	if (id_sets(m->q_ids, m->Sq / b->BQ, b->BQ, &s->q) < 0 ||
	    id_sets(m->kv_ids, m->Skv / b->BKV, b->BKV, &s->kv) < 0)
		return -1;
	return 0;
}

/* Kept iff lo <= k - q <= hi; the block's k - q cover [k0-q1, k1-q0]. */
static int
band_class(const SplashMask *m, const Block *bl)
{
	long dmin = bl->k0 - bl->q1, dmax = bl->k1 - bl->q0;

	if (dmax < m->lo || dmin > m->hi)
		return SPLASH_BLOCK_EMPTY;
	if (dmin >= m->lo && dmax <= m->hi)
		return SPLASH_BLOCK_FULL;
	return SPLASH_BLOCK_PARTIAL;
}

/*
 * Kept iff k <= q and k / c == q / c.  Some element is kept iff k0 <= q1
 * and a chunk meets both ranges (then k = max(k0, chunk start) and
 * q = min(q1, chunk end) is one); all are iff the block lies in one chunk
 * below the diagonal.
 */
static int
chunk_class(const SplashMask *m, const Block *bl)
{
	long c = m->chunk;
	long lo = bl->q0 > bl->k0 ? bl->q0 : bl->k0;
	long hi = bl->q1 < bl->k1 ? bl->q1 : bl->k1;

	if (bl->k0 > bl->q1 || lo / c > hi / c)
		return SPLASH_BLOCK_EMPTY;
	if (bl->k1 <= bl->q0 && bl->q0 / c == bl->q1 / c &&
	    bl->k0 / c == bl->k1 / c && bl->q0 / c == bl->k0 / c)
		return SPLASH_BLOCK_FULL;
	return SPLASH_BLOCK_PARTIAL;
}

/* Equal ids meet iff the sorted sets intersect; all pairs do iff both
   are the same single id. */
static int
seg_class(const Build *b, const SplashMask *m, const Block *bl)
{
	const SegSets *s = b->seg;
	const int32_t *x, *y;
	long nx, ny, a = 0, c = 0;

	while (s->m != m)
		s++;
	x = s->q.ids + s->q.off[bl->i];
	nx = s->q.off[bl->i + 1] - s->q.off[bl->i];
	y = s->kv.ids + s->kv.off[bl->j];
	ny = s->kv.off[bl->j + 1] - s->kv.off[bl->j];
	if (nx == 1 && ny == 1 && x[0] == y[0])
		return SPLASH_BLOCK_FULL;
	while (a < nx && c < ny) {
		if (x[a] == y[c])
			return SPLASH_BLOCK_PARTIAL;
		if (x[a] < y[c])
			a++;
		else
			c++;
	}
	return SPLASH_BLOCK_EMPTY;
}

/* By visiting the elements, stopping once both kinds were seen. */
static int
scan_class(const SplashMask *m, int h, const Block *bl)
{
	int seen[2] = { 0, 0 };
	long q, k;

	for (q = bl->q0; q <= bl->q1; q++)
		for (k = bl->k0; k <= bl->k1; k++) {
			seen[splash_mask_at(m, h, q, k) != 0] = 1;
			if (seen[0] && seen[1])
				return SPLASH_BLOCK_PARTIAL;
		}
	return seen[1] ? SPLASH_BLOCK_FULL : SPLASH_BLOCK_EMPTY;
}

static int classify(const Build *b, const SplashMask *m, int h,
    const Block *bl);

/* and: empty if either is, the other's class if one is full; or: the
   dual.  Two partial operands may still combine to empty or full. */
static int
binary_class(const Build *b, const SplashMask *m, int h, const Block *bl)
{
	int is_and = m->kind == SPLASH_MASK_AND;
	int absorb = is_and ? SPLASH_BLOCK_EMPTY : SPLASH_BLOCK_FULL;
	int unit = is_and ? SPLASH_BLOCK_FULL : SPLASH_BLOCK_EMPTY;
	int x = classify(b, m->sub[0], h, bl), y;

	if (x == absorb)
		return x;
	y = classify(b, m->sub[1], h, bl);
	if (y == absorb || x == unit)
		return y;
	if (y == unit)
		return x;
	return scan_class(m, h, bl);
}

static int
classify(const Build *b, const SplashMask *m, int h, const Block *bl)
{
	switch (m->kind) {
	case SPLASH_MASK_FULL:
	case SPLASH_MASK_CAUSAL:
	case SPLASH_MASK_LOCAL:
		return band_class(m, bl);
	case SPLASH_MASK_CHUNKED:
		return chunk_class(m, bl);
	case SPLASH_MASK_SEGMENTS:
		return seg_class(b, m, bl);
	case SPLASH_MASK_DENSE:
		return scan_class(m, h, bl);
	case SPLASH_MASK_HEADS:
		return classify(b, m->sub[h], h, bl);
	case SPLASH_MASK_AND:
	case SPLASH_MASK_OR:
		return binary_class(b, m, h, bl);
	}
	return SPLASH_BLOCK_PARTIAL;
}

/* ------------------------------------------------- partial blocks */

/* The distinct partial blocks, found again through an open-addressed
   table of their indices by content digest. */
typedef struct Store {
	uint8_t *blocks;
	size_t bytes;		/* one block */
	int n, cap;
	int32_t *slot;		/* index + 1, 0 empty */
	uint64_t *slot_hash;
	size_t nslot;
	uint8_t *tmp;
} Store;

static int
store_grow_slots(Store *st)
{
	size_t n = st->nslot ? 2 * st->nslot : 64, i, k;
	int32_t *s;
	uint64_t *hs;

	if (st->nslot > SIZE_MAX / 4 / sizeof(*hs))
		return -1;
	s = calloc(n, sizeof(*s));
	hs = calloc(n, sizeof(*hs));
	if (!s || !hs) {
		free(s);
		free(hs);
		return -1;
	}
	for (i = 0; i < st->nslot; i++) {
		if (!st->slot[i])
			continue;
		for (k = st->slot_hash[i] & (n - 1); s[k]; k = (k + 1) & (n - 1))
			;
		s[k] = st->slot[i];
		hs[k] = st->slot_hash[i];
	}
	free(st->slot);
	free(st->slot_hash);
	st->slot = s;
	st->slot_hash = hs;
	st->nslot = n;
	return 0;
}

static int
store_append(Store *st)
{
	uint8_t *nb;
	int cap;

	if (st->n == st->cap) {
		cap = st->cap ? 2 * st->cap : 8;
		if (cap > INT32_MAX / 2 ||
		    (size_t)cap > SIZE_MAX / st->bytes ||
		    !(nb = realloc(st->blocks, (size_t)cap * st->bytes)))
			return -1;
		st->blocks = nb;
		st->cap = cap;
	}
	memcpy(st->blocks + (size_t)st->n * st->bytes, st->tmp, st->bytes);
	return st->n++;
}

/* The index of the block in st->tmp, added if new; -1 out of memory. */
static int
store_find(Store *st)
{
	uint64_t hv = splash_mask_fnv(SPLASH_MASK_FNV_BASIS, st->tmp,
	    st->bytes);
	size_t k;
	int idx;

	if ((size_t)st->n + 1 > st->nslot / 2 && store_grow_slots(st) < 0)
		return -1;
	for (k = hv & (st->nslot - 1); st->slot[k]; k = (k + 1) &
	    (st->nslot - 1)) {
		idx = st->slot[k] - 1;
		if (st->slot_hash[k] == hv && memcmp(st->blocks +
		    (size_t)idx * st->bytes, st->tmp, st->bytes) == 0)
			return idx;
	}
	if ((idx = store_append(st)) < 0)
		return -1;
	st->slot[k] = idx + 1;
	st->slot_hash[k] = hv;
	return idx;
}

/* The elements of block bl, row-major over (q, k), or over (k, q) when
   transposed. */
static void
materialize(const SplashMask *m, int h, const Block *bl, int transposed,
    uint8_t *d)
{
	long q, k, BQ = bl->q1 - bl->q0 + 1, BKV = bl->k1 - bl->k0 + 1;

	for (q = 0; q < BQ; q++)
		for (k = 0; k < BKV; k++)
			d[transposed ? k * BQ + q : q * BKV + k] =
			    (uint8_t)splash_mask_at(m, h, bl->q0 + q,
			    bl->k0 + k);
}

/* -------------------------------------------------------- tables */

/* Every SEGMENTS or DENSE in the tree covers exactly Sq x Skv. */
static int
extents_match(const SplashMask *m, long Sq, long Skv)
{
	int i;

	if ((m->kind == SPLASH_MASK_SEGMENTS || m->kind == SPLASH_MASK_DENSE)
	    && (m->Sq != Sq || m->Skv != Skv))
		return 0;
	for (i = 0; i < m->n; i++)
		if (!extents_match(m->sub[i], Sq, Skv))
			return 0;
	return 1;
}

static int
bad_args(const SplashMask *m, int H, long Sq, long Skv, int BQ, int BKV,
    char *err, size_t nerr)
{
	long nq, nk;

	if (!m) {
		splash_mask_err(err, nerr, "no mask");
		return 1;
	}
	if (H < 1 || Sq < 1 || Skv < 1 || BQ < 1 || BKV < 1) {
		splash_mask_err(err, nerr, "sizes must be positive (H %d, "
		    "Sq %ld, Skv %ld, BQ %d, BKV %d)", H, Sq, Skv, BQ, BKV);
		return 1;
	}
	if (Sq % BQ || Skv % BKV) {
		splash_mask_err(err, nerr, "Sq %ld %% BQ %d or Skv %ld %% BKV "
		    "%d is not 0", Sq, BQ, Skv, BKV);
		return 1;
	}
	if (Sq > SPLASH_MASK_MAX || Skv > SPLASH_MASK_MAX) {
		splash_mask_err(err, nerr, "Sq %ld or Skv %ld is above "
		    "SPLASH_MASK_MAX", Sq, Skv);
		return 1;
	}
	/* nq * nk cannot overflow: both are below 2^31 when it runs */
	nq = Sq / BQ;
	nk = Skv / BKV;
	if (nq > INT32_MAX || nk > INT32_MAX || nq * nk > INT32_MAX / H) {
		splash_mask_err(err, nerr, "too many blocks (H %d x %ld x %ld "
		    "exceeds 2^31 - 1)", H, nq, nk);
		return 1;
	}
	if (m->heads && m->heads != H) {
		splash_mask_err(err, nerr, "the heads mask has %d masks, not "
		    "H = %d", m->heads, H);
		return 1;
	}
	if (!extents_match(m, Sq, Skv)) {
		splash_mask_err(err, nerr, "a segments or dense mask is not "
		    "%ld x %ld", Sq, Skv);
		return 1;
	}
	return 0;
}

/* One row of the tables: row r of head h (transposed: column r). */
static int
fill_row(const Build *b, const SplashMask *m, SplashMaskInfo *in, Store *st,
    int h, int r)
{
	size_t at = ((size_t)h * in->nq + r) * in->nk;
	int32_t *bm = in->block_mask + at, *dn = in->data_next + at;
	int32_t *mn = in->mask_next ? in->mask_next + at : NULL;
	Block bl;
	int s;

	for (s = 0; s < in->nk; s++) {
		bl.i = in->transposed ? s : r;
		bl.j = in->transposed ? r : s;
		bl.q0 = (long)bl.i * b->BQ;
		bl.q1 = bl.q0 + b->BQ - 1;
		bl.k0 = (long)bl.j * b->BKV;
		bl.k1 = bl.k0 + b->BKV - 1;
		bm[s] = classify(b, m, h, &bl);
		dn[s] = bm[s] == SPLASH_BLOCK_EMPTY ? -1 : s;
		if (!mn)
			continue;
		mn[s] = -1;
		if (bm[s] != SPLASH_BLOCK_PARTIAL)
			continue;
		materialize(m, h, &bl, in->transposed, st->tmp);
		if ((mn[s] = store_find(st)) < 0)
			return -1;
	}
	splash_mask_fill_next(in->nk, dn);
	if (mn)
		splash_mask_fill_next(in->nk, mn);
	return 0;
}

/* partial_tr: each of the npartial blocks of in->partial transposed. */
static int
transpose_blocks(SplashMaskInfo *in)
{
	size_t r = (size_t)(in->transposed ? in->BKV : in->BQ), c, b, i, j;
	size_t n = (size_t)in->BQ * (size_t)in->BKV;

	if (!in->npartial)
		return 0;
	c = n / r;
	if (!(in->partial_tr = malloc((size_t)in->npartial * n)))
		return -1;
	for (b = 0; b < (size_t)in->npartial; b++)
		for (i = 0; i < r; i++)
			for (j = 0; j < c; j++)
				in->partial_tr[b * n + j * r + i] =
				    in->partial[b * n + i * c + j];
	return 0;
}

static int
fill_tables(const SplashMask *m, SplashMaskInfo *in, Build *b)
{
	Store st = { 0 };
	int h, r, rc = 0;

	st.bytes = (size_t)b->BQ * (size_t)b->BKV;
	if (in->mask_next && !(st.tmp = malloc(st.bytes)))
		return -1;
	for (h = 0; h < in->H && rc == 0; h++)
		for (r = 0; r < in->nq && rc == 0; r++)
			rc = fill_row(b, m, in, &st, h, r);
	free(st.tmp);
	free(st.slot);
	free(st.slot_hash);
	in->partial = st.blocks;
	in->npartial = st.n;
	return rc ? rc : transpose_blocks(in);
}

/*
 * Whether the kernels apply m from stored blocks (DENSE(np)): a dense
 * mask, which no arithmetic gives, and the per-head and and/or masks,
 * whose partial blocks are stored as Splash stores every mask's.
 */
static int
stored(const SplashMask *m)
{
	return m->kind == SPLASH_MASK_DENSE || m->kind == SPLASH_MASK_HEADS ||
	    m->kind == SPLASH_MASK_AND || m->kind == SPLASH_MASK_OR;
}

int
splash_mask_info(const SplashMask *m, int H, long Sq, long Skv, int BQ,
    int BKV, int transposed, SplashMaskInfo *info, char *err, size_t nerr)
{
	Build b = { BQ, BKV, NULL, 0 };
	size_t n;

	if (!info) {
		splash_mask_err(err, nerr, "no info to fill");
		return -1;
	}
	memset(info, 0, sizeof(*info));
	if (bad_args(m, H, Sq, Skv, BQ, BKV, err, nerr))
		return -1;
	info->H = H;
	info->transposed = transposed = transposed != 0;
	info->nq = (int)(transposed ? Skv / BKV : Sq / BQ);
	info->nk = (int)(transposed ? Sq / BQ : Skv / BKV);
	info->Sq = Sq;
	info->Skv = Skv;
	info->BQ = BQ;
	info->BKV = BKV;
	n = (size_t)H * (size_t)info->nq * (size_t)info->nk;
	info->block_mask = malloc(n * sizeof(int32_t));
	info->data_next = malloc(n * sizeof(int32_t));
	if (stored(m))
		info->mask_next = malloc(n * sizeof(int32_t));
	if (!info->block_mask || !info->data_next ||
	    (stored(m) && !info->mask_next) || collect_sets(&b, m) < 0 ||
	    fill_tables(m, info, &b) < 0) {
		free_sets(&b);
		splash_mask_info_free(info);
		splash_mask_err(err, nerr, "out of memory");
		return -1;
	}
	free_sets(&b);
	info->check = splash_mask_check(m, H, Sq, Skv, BQ, BKV, transposed);
	splash_mask_desc(m, Sq, Skv, BQ, BKV, transposed, info->desc);
	if (info->desc[1] == 5)		/* DENSE(np): np blocks */
		info->desc[2] = info->npartial;
	return 0;
}

void
splash_mask_info_free(SplashMaskInfo *info)
{
	if (!info)
		return;
	free(info->block_mask);
	free(info->data_next);
	free(info->mask_next);
	free(info->partial);
	free(info->partial_tr);
	memset(info, 0, sizeof(*info));
}

int
splash_mask_info_row_blocks(const SplashMaskInfo *info, int h, int i)
{
	const int32_t *bm;
	int j, n = 0;

	if (!info || !info->block_mask || h < 0 || h >= info->H || i < 0 ||
	    i >= info->nq)
		return -1;
	bm = info->block_mask + ((size_t)h * info->nq + i) * info->nk;
	for (j = 0; j < info->nk; j++)
		n += bm[j] != SPLASH_BLOCK_EMPTY;
	return n;
}

uint64_t
splash_mask_check(const SplashMask *m, int H, long Sq, long Skv, int BQ,
    int BKV, int transposed)
{
	uint64_t h = splash_mask_fnv_i64(splash_mask_hash(m), H);

	h = splash_mask_fnv_i64(h, Sq);
	h = splash_mask_fnv_i64(h, Skv);
	h = splash_mask_fnv_i64(h, BQ);
	h = splash_mask_fnv_i64(h, BKV);
	h = splash_mask_fnv_i64(h, transposed != 0);
	return h ? h : 1;
}

/* v if it fits 32 bits, else INT32_MIN (which no parameter matches). */
static int32_t
i32_or_min(long v)
{
	return v > INT32_MIN && v <= INT32_MAX ? (int32_t)v : INT32_MIN;
}

int
splash_mask_kernel_params(const SplashMask *m, long p[4])
{
	int i;

	p[0] = p[1] = p[2] = p[3] = 0;
	switch (m ? m->kind : SPLASH_MASK_FULL) {
	case SPLASH_MASK_FULL:
		break;
	case SPLASH_MASK_CAUSAL:
		p[0] = 1, p[1] = m->offset;
		break;
	case SPLASH_MASK_LOCAL:
		p[0] = 2, p[1] = m->left, p[2] = m->right, p[3] = m->offset;
		break;
	case SPLASH_MASK_CHUNKED:
		p[0] = 3, p[1] = m->chunk;
		break;
	case SPLASH_MASK_SEGMENTS:	/* the ids are operands */
		p[0] = 4;
		break;
	default:	/* stored: the blocks are operands, and their */
		p[0] = 5, p[1] = -1;	/* count depends on the block sizes */
		return 0;
	}
	for (i = 1; i < 4; i++)
		if (i32_or_min(p[i]) == INT32_MIN)
			return -1;
	return 0;
}

void
splash_mask_desc(const SplashMask *m, long Sq, long Skv, int BQ, int BKV,
    int transposed, int32_t desc[SPLASH_DESC_LEN])
{
	long p[4];
	int i;

	if (splash_mask_kernel_params(m, p) < 0)
		p[0] = -1, p[1] = p[2] = p[3] = 0;
	desc[0] = SPLASH_DESC_MAGIC;
	for (i = 0; i < 4; i++)
		desc[1 + i] = i32_or_min(p[i]);
	if (p[0] == 5)		/* known once the blocks are: info.desc */
		desc[2] = INT32_MIN;
	desc[5] = i32_or_min(Sq);
	desc[6] = i32_or_min(Skv);
	desc[7] = BQ;
	desc[8] = BKV;
	desc[9] = transposed != 0;
}
