/*
 * diskcache.h - compiled programs kept on disk between processes, like
 * ccache's or Triton's cache (doc/embedded.md, "The disk cache").
 *
 * One file per key, DIR/HHHHHHHHHHHHHHHH.pkc (the key's 64-bit hash in
 * hex), laid out as:
 *
 *   "PKCACHE1"        8 bytes: magic and format version
 *   keylen, len       two 64-bit little-endian lengths
 *   sum               64-bit little-endian hash of key and payload
 *   key[keylen], payload[len]
 *
 * The whole key is stored and compared, so two keys with one file name
 * are a miss, never a wrong program; a file that is short, long, or does
 * not match its sum is damaged.  Stores write a temporary file and
 * rename it, so readers in other threads or processes see an old entry
 * or a new one, never part of one.  No global state.
 */
#ifndef PALLAS_JIT_DISKCACHE_H
#define PALLAS_JIT_DISKCACHE_H

#include <stddef.h>
#include <stdint.h>

enum {
	JITCACHE_HIT,		/* *payload is the entry (malloc'd) */
	JITCACHE_MISS,		/* no entry for this key */
	JITCACHE_CORRUPT,	/* a damaged file: compile and store again */
	JITCACHE_EIO		/* the cache could not be read or written */
};

/* The directory from the environment into buf: $PALLAS_CACHE_DIR, else
 * $XDG_CACHE_HOME/pallas, else $HOME/.cache/pallas.  0 when the cache is
 * off (PALLAS_CACHE=0, an empty PALLAS_CACHE_DIR, no home), else 1. */
int jitcache_dir(char *buf, size_t n);
/* 64-bit FNV-1a of p[0..n), continuing from seed (0: a fresh hash). */
uint64_t jitcache_hash(const void *p, size_t n, uint64_t seed);
int jitcache_load(const char *dir, const void *key, size_t keylen,
    void **payload, size_t *len);
/* 0, or JITCACHE_EIO (errno kept) when dir cannot be made or written. */
int jitcache_store(const char *dir, const void *key, size_t keylen,
    const void *payload, size_t len);

#endif
