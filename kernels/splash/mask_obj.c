/*
 * mask_obj.c - Splash masks as reference-counted, immutable objects:
 * their constructors, evaluation at one element and the digest of their
 * meaning.  See include/pallas/splash_mask.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/splash/mask_int.h"

#define FNV_PRIME 0x100000001b3ull

uint64_t
splash_mask_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= FNV_PRIME;
	}
	return h;
}

uint64_t
splash_mask_fnv_i64(uint64_t h, int64_t v)
{
	uint64_t u = (uint64_t)v;
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(u >> (8 * i));
	return splash_mask_fnv(h, b, sizeof(b));
}

void
splash_mask_err(char *err, size_t nerr, const char *fmt, ...)
{
	va_list ap;

	if (!err || nerr == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, nerr, fmt, ap);
	va_end(ap);
}

static SplashMask *
new_mask(SplashMaskKind kind)
{
	SplashMask *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	atomic_init(&m->refs, 1);
	m->kind = kind;
	m->lo = LONG_MIN;
	m->hi = LONG_MAX;
	return m;
}

/* The digest of a structured mask's kind and parameters. */
static SplashMask *
seal(SplashMask *m)
{
	uint64_t h;
	int i;

	if (!m)
		return NULL;
	h = splash_mask_fnv_i64(SPLASH_MASK_FNV_BASIS, m->kind);
	h = splash_mask_fnv_i64(h, m->offset);
	h = splash_mask_fnv_i64(h, m->left);
	h = splash_mask_fnv_i64(h, m->right);
	h = splash_mask_fnv_i64(h, m->chunk);
	h = splash_mask_fnv_i64(h, m->Sq);
	h = splash_mask_fnv_i64(h, m->Skv);
	h = splash_mask_fnv_i64(h, m->n);
	for (i = 0; i < m->n; i++)
		h = splash_mask_fnv_i64(h, (int64_t)m->sub[i]->hash);
	m->hash = h;
	return m;
}

/* The ids as little-endian bytes, for the digest. */
static uint64_t
hash_ids(uint64_t h, const int32_t *ids, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		uint32_t u = (uint32_t)ids[i];
		unsigned char b[4] = { u & 0xff, (u >> 8) & 0xff,
		    (u >> 16) & 0xff, u >> 24 };
		h = splash_mask_fnv(h, b, 4);
	}
	return h;
}

SplashMask *
splash_mask_full(void)
{
	return seal(new_mask(SPLASH_MASK_FULL));
}

SplashMask *
splash_mask_causal(long offset)
{
	SplashMask *m;

	if (offset < -SPLASH_MASK_MAX || offset > SPLASH_MASK_MAX)
		return NULL;
	if (!(m = new_mask(SPLASH_MASK_CAUSAL)))
		return NULL;
	m->offset = offset;
	m->hi = offset;
	return seal(m);
}

static int
bad_side(long s)
{
	return s != SPLASH_UNBOUNDED && (s < 0 || s > SPLASH_MASK_MAX);
}

SplashMask *
splash_mask_local(long left, long right, long offset)
{
	SplashMask *m;

	if (bad_side(left) || bad_side(right) ||
	    offset < -SPLASH_MASK_MAX || offset > SPLASH_MASK_MAX)
		return NULL;
	if (!(m = new_mask(SPLASH_MASK_LOCAL)))
		return NULL;
	m->left = left;
	m->right = right;
	m->offset = offset;
	if (left != SPLASH_UNBOUNDED)
		m->lo = offset - left;
	if (right != SPLASH_UNBOUNDED)
		m->hi = offset + right;
	return seal(m);
}

SplashMask *
splash_mask_chunked(long chunk)
{
	SplashMask *m;

	if (chunk < 1 || chunk > SPLASH_MASK_MAX)
		return NULL;
	if (!(m = new_mask(SPLASH_MASK_CHUNKED)))
		return NULL;
	m->chunk = chunk;
	return seal(m);
}

static int
bad_len(long n)
{
	return n < 1 || n > SPLASH_MASK_MAX;
}

SplashMask *
splash_mask_segments(long Sq, const int32_t *q_ids, long Skv,
    const int32_t *kv_ids)
{
	SplashMask *m;

	if (bad_len(Sq) || bad_len(Skv) || !q_ids || !kv_ids ||
	    (size_t)Sq > SIZE_MAX / sizeof(int32_t) ||
	    (size_t)Skv > SIZE_MAX / sizeof(int32_t))
		return NULL;
	if (!(m = new_mask(SPLASH_MASK_SEGMENTS)))
		return NULL;
	m->Sq = Sq;
	m->Skv = Skv;
	m->q_ids = malloc((size_t)Sq * sizeof(int32_t));
	m->kv_ids = malloc((size_t)Skv * sizeof(int32_t));
	if (!m->q_ids || !m->kv_ids) {
		splash_mask_free(m);
		return NULL;
	}
	memcpy(m->q_ids, q_ids, (size_t)Sq * sizeof(int32_t));
	memcpy(m->kv_ids, kv_ids, (size_t)Skv * sizeof(int32_t));
	seal(m);
	m->hash = hash_ids(hash_ids(m->hash, q_ids, Sq), kv_ids, Skv);
	return m;
}

SplashMask *
splash_mask_dense(long Sq, long Skv, const uint8_t *keep)
{
	SplashMask *m;
	size_t n, i;

	if (bad_len(Sq) || bad_len(Skv) || !keep ||
	    (size_t)Sq > SIZE_MAX / (size_t)Skv)
		return NULL;
	n = (size_t)Sq * (size_t)Skv;
	if (!(m = new_mask(SPLASH_MASK_DENSE)))
		return NULL;
	m->Sq = Sq;
	m->Skv = Skv;
	if (!(m->keep = malloc(n))) {
		splash_mask_free(m);
		return NULL;
	}
	for (i = 0; i < n; i++)		/* 0/1, so equal masks hash alike */
		m->keep[i] = keep[i] != 0;
	seal(m);
	m->hash = splash_mask_fnv(m->hash, m->keep, n);
	return m;
}

/* A combination of n masks (new references to them). */
static SplashMask *
combine(SplashMaskKind kind, int n, SplashMask *const *sub)
{
	SplashMask *m = new_mask(kind);
	int i;

	if (!m || !(m->sub = calloc((size_t)n, sizeof(*m->sub)))) {
		free(m);
		return NULL;
	}
	m->n = n;
	for (i = 0; i < n; i++) {
		m->sub[i] = splash_mask_ref(sub[i]);
		if (sub[i]->heads)
			m->heads = sub[i]->heads;
	}
	if (kind == SPLASH_MASK_HEADS)
		m->heads = n;
	return seal(m);
}

SplashMask *
splash_mask_heads(int H, SplashMask *const *per_head)
{
	int h;

	if (H < 1 || !per_head)
		return NULL;
	for (h = 0; h < H; h++)		/* no HEADS at any depth below */
		if (!per_head[h] || per_head[h]->heads)
			return NULL;
	return combine(SPLASH_MASK_HEADS, H, per_head);
}

/* and/or: two masks whose HEADS parts, if any, agree on the count. */
static SplashMask *
binary(SplashMaskKind kind, SplashMask *a, SplashMask *b)
{
	SplashMask *ab[2] = { a, b };

	if (!a || !b || (a->heads && b->heads && a->heads != b->heads))
		return NULL;
	return combine(kind, 2, ab);
}

SplashMask *
splash_mask_and(SplashMask *a, SplashMask *b)
{
	return binary(SPLASH_MASK_AND, a, b);
}

SplashMask *
splash_mask_or(SplashMask *a, SplashMask *b)
{
	return binary(SPLASH_MASK_OR, a, b);
}

SplashMask *
splash_mask_ref(SplashMask *m)
{
	if (m)
		atomic_fetch_add(&m->refs, 1);
	return m;
}

void
splash_mask_free(SplashMask *m)
{
	int i;

	if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
		return;
	for (i = 0; i < m->n; i++)
		if (m->sub)
			splash_mask_free(m->sub[i]);
	free(m->sub);
	free(m->q_ids);
	free(m->kv_ids);
	free(m->keep);
	free(m);
}

SplashMaskKind
splash_mask_kind(const SplashMask *m)
{
	return m ? m->kind : SPLASH_MASK_FULL;
}

int
splash_mask_segment_ids(const SplashMask *m, long *Sq,
    const int32_t **q_ids, long *Skv, const int32_t **kv_ids)
{
	if (!m || m->kind != SPLASH_MASK_SEGMENTS)
		return -1;
	*Sq = m->Sq;
	*q_ids = m->q_ids;
	*Skv = m->Skv;
	*kv_ids = m->kv_ids;
	return 0;
}

int
splash_mask_at(const SplashMask *m, int h, long q, long k)
{
	if (!m || q < 0 || k < 0)
		return 0;
	switch (m->kind) {
	case SPLASH_MASK_FULL:
	case SPLASH_MASK_CAUSAL:
	case SPLASH_MASK_LOCAL:
		return k - q >= m->lo && k - q <= m->hi;
	case SPLASH_MASK_CHUNKED:
		return k <= q && k / m->chunk == q / m->chunk;
	case SPLASH_MASK_SEGMENTS:
		return q < m->Sq && k < m->Skv && m->q_ids[q] == m->kv_ids[k];
	case SPLASH_MASK_DENSE:
		return q < m->Sq && k < m->Skv &&
		    m->keep[(size_t)q * (size_t)m->Skv + (size_t)k];
	case SPLASH_MASK_HEADS:
		return h >= 0 && h < m->n && splash_mask_at(m->sub[h], h, q, k);
	case SPLASH_MASK_AND:
		return splash_mask_at(m->sub[0], h, q, k) &&
		    splash_mask_at(m->sub[1], h, q, k);
	case SPLASH_MASK_OR:
		return splash_mask_at(m->sub[0], h, q, k) ||
		    splash_mask_at(m->sub[1], h, q, k);
	}
	return 0;
}

uint64_t
splash_mask_hash(const SplashMask *m)
{
	return m ? m->hash : 0;
}
