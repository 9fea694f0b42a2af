/*
 * diskcache.c - the JIT's disk cache (diskcache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit/diskcache.h"

enum { HEAD = 32 };
static const char magic[8] = { 'P', 'K', 'C', 'A', 'C', 'H', 'E', '1' };

uint64_t
jitcache_hash(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed ? seed : 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

int
jitcache_dir(char *buf, size_t n)
{
	const char *on = getenv("PALLAS_CACHE"), *dir, *home;
	int k;

	if (on && strcmp(on, "0") == 0)
		return 0;
	if ((dir = getenv("PALLAS_CACHE_DIR")))
		k = *dir ? snprintf(buf, n, "%s", dir) : -1;
	else if ((dir = getenv("XDG_CACHE_HOME")) && *dir)
		k = snprintf(buf, n, "%s/pallas", dir);
	else if ((home = getenv("HOME")) && *home)
		k = snprintf(buf, n, "%s/.cache/pallas", home);
	else
		k = -1;
	return k > 0 && (size_t)k < n;
}

static void
put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int
entry_path(char *buf, size_t n, const char *dir, const void *key,
    size_t keylen)
{
	int k = snprintf(buf, n, "%s/%016llx.pkc", dir,
	    (unsigned long long)jitcache_hash(key, keylen, 0));

	return k > 0 && (size_t)k < n ? 0 : -1;
}

/* The whole file into *p (malloc'd); 0, or an errno. */
static int
slurp(const char *path, unsigned char **p, size_t *n)
{
	struct stat st;
	ssize_t r;
	size_t got = 0;
	int fd = open(path, O_RDONLY), err = 0;

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0 || st.st_size < 0)
		err = errno ? errno : EIO;
	else if (!(*p = malloc((size_t)st.st_size + 1)))
		err = ENOMEM;
	while (!err && got < (size_t)st.st_size) {
		r = read(fd, *p + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? errno : EIO;
			break;
		}
		got += (size_t)r;
	}
	close(fd);
	if (err && *p) {
		free(*p);
		*p = NULL;
	}
	*n = got;
	return err;
}

int
jitcache_load(const char *dir, const void *key, size_t keylen,
    void **payload, size_t *len)
{
	unsigned char *f = NULL;
	char path[4200];
	uint64_t kl, pl, sum;
	size_t n = 0;
	int err;

	*payload = NULL;
	*len = 0;
	if (entry_path(path, sizeof path, dir, key, keylen))
		return JITCACHE_EIO;
	if ((err = slurp(path, &f, &n)))
		return err == ENOENT || err == ENOTDIR ? JITCACHE_MISS :
		    JITCACHE_EIO;
	if (n < HEAD || memcmp(f, magic, 8) != 0)
		goto corrupt;
	kl = get64(f + 8);
	pl = get64(f + 16);
	sum = get64(f + 24);
	/* lengths checked against the file before any use of them */
	if (kl > n - HEAD || pl != n - HEAD - kl ||
	    jitcache_hash(f + HEAD, n - HEAD, 0) != sum)
		goto corrupt;
	if (kl != keylen || memcmp(f + HEAD, key, keylen) != 0) {
		free(f);
		return JITCACHE_MISS;	/* another key of the same name */
	}
	memmove(f, f + HEAD + kl, (size_t)pl);
	*payload = f;
	*len = (size_t)pl;
	return JITCACHE_HIT;
corrupt:
	free(f);
	return JITCACHE_CORRUPT;
}

/* mkdir -p dir, mode 0700; 0 or -1 (errno). */
static int
make_dir(const char *dir)
{
	char p[4200];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof p)
		return errno = ENAMETOOLONG, -1;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != 0)
			continue;
		p[i] = 0;
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return -1;
		p[i] = i < n ? '/' : 0;
	}
	return 0;
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	ssize_t w;

	while (n) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int
jitcache_store(const char *dir, const void *key, size_t keylen,
    const void *payload, size_t len)
{
	unsigned char head[HEAD];
	char path[4200], tmp[4200];
	uint64_t sum;
	int fd, bad;

	if (entry_path(path, sizeof path, dir, key, keylen) ||
	    snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir) >=
	    (int)sizeof tmp || make_dir(dir) != 0)
		return JITCACHE_EIO;
	if ((fd = mkstemp(tmp)) < 0)
		return JITCACHE_EIO;
	sum = jitcache_hash(payload, len, jitcache_hash(key, keylen, 0));
	memcpy(head, magic, 8);
	put64(head + 8, keylen);
	put64(head + 16, len);
	put64(head + 24, sum);
	bad = write_all(fd, head, HEAD) || write_all(fd, key, keylen) ||
	    write_all(fd, payload, len);
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return JITCACHE_EIO;
	}
	return 0;
}
