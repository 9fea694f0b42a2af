/*
 * check_jitcache.c - the JIT's disk cache (jit/diskcache.c): round trips,
 * misses, every kind of damaged file, directories that cannot be made,
 * the environment's rules, and threads storing and loading one key at
 * once (each load is the whole entry or a miss).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit/diskcache.h"

static char dir[256];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof dir, "%s/jitcache-XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The name of key's entry file. */
static void
entry_file(char *buf, size_t n, const char *key)
{
	snprintf(buf, n, "%s/%016llx.pkc", dir, (unsigned long long)
	    jitcache_hash(key, strlen(key), 0));
}

START_TEST(round_trip_and_miss)
{
	void *p;
	size_t n;

	fresh_dir();
	ck_assert_int_eq(jitcache_load(dir, "k", 1, &p, &n), JITCACHE_MISS);
	ck_assert_int_eq(jitcache_store(dir, "k", 1, "payload", 7), 0);
	ck_assert_int_eq(jitcache_load(dir, "k", 1, &p, &n), JITCACHE_HIT);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(memcmp(p, "payload", 7), 0);
	free(p);
	ck_assert_int_eq(jitcache_store(dir, "k", 1, "", 0), 0);
	ck_assert_int_eq(jitcache_load(dir, "k", 1, &p, &n), JITCACHE_HIT);
	ck_assert_uint_eq(n, 0);
	free(p);
	remove_dir();
}
END_TEST

/* A file of another key under this key's name is a miss. */
START_TEST(other_key_same_name)
{
	char a[512], b[512];
	void *p;
	size_t n;

	fresh_dir();
	ck_assert_int_eq(jitcache_store(dir, "A", 1, "aaa", 3), 0);
	entry_file(a, sizeof a, "A");
	entry_file(b, sizeof b, "B");
	ck_assert_int_eq(rename(a, b), 0);
	ck_assert_int_eq(jitcache_load(dir, "B", 1, &p, &n), JITCACHE_MISS);
	ck_assert_ptr_null(p);
	remove_dir();
}
END_TEST

/* Every byte flipped, a truncation at every length: damaged, and a
 * store repairs the entry. */
START_TEST(damage_is_detected)
{
	char path[512];
	unsigned char *f;
	void *p;
	size_t n, len, i;
	FILE *fp;

	fresh_dir();
	ck_assert_int_eq(jitcache_store(dir, "key", 3, "the payload", 11), 0);
	entry_file(path, sizeof path, "key");
	fp = fopen(path, "rb");
	f = malloc(4096);
	len = fread(f, 1, 4096, fp);
	fclose(fp);
	for (i = 0; i <= len; i++) {
		fp = fopen(path, "wb");
		if (i < len) {	/* byte i flipped */
			f[i] ^= 0x40;
			fwrite(f, 1, len, fp);
			f[i] ^= 0x40;
		} else
			fwrite(f, 1, 0, fp);	/* empty */
		fclose(fp);
		ck_assert_int_eq(jitcache_load(dir, "key", 3, &p, &n),
		    JITCACHE_CORRUPT);
	}
	for (i = 1; i < len; i++) {
		fp = fopen(path, "wb");
		fwrite(f, 1, i, fp);
		fclose(fp);
		ck_assert_int_eq(jitcache_load(dir, "key", 3, &p, &n),
		    JITCACHE_CORRUPT);
	}
	ck_assert_int_eq(jitcache_store(dir, "key", 3, "the payload", 11), 0);
	ck_assert_int_eq(jitcache_load(dir, "key", 3, &p, &n), JITCACHE_HIT);
	free(p);
	free(f);
	remove_dir();
}
END_TEST

START_TEST(directories)
{
	char sub[512], file[512];
	void *p;
	size_t n;
	FILE *fp;

	fresh_dir();
	snprintf(sub, sizeof sub, "%s/a/b/c", dir);
	ck_assert_int_eq(jitcache_store(sub, "k", 1, "x", 1), 0);
	ck_assert_int_eq(jitcache_load(sub, "k", 1, &p, &n), JITCACHE_HIT);
	free(p);
	/* under a regular file: cannot be made, by root either */
	snprintf(file, sizeof file, "%s/file", dir);
	fp = fopen(file, "w");
	fclose(fp);
	snprintf(sub, sizeof sub, "%s/file/cache", dir);
	ck_assert_int_eq(jitcache_store(sub, "k", 1, "x", 1), JITCACHE_EIO);
	ck_assert_int_eq(jitcache_load(sub, "k", 1, &p, &n), JITCACHE_MISS);
	if (geteuid() != 0) {	/* root writes read-only directories */
		snprintf(sub, sizeof sub, "%s/ro", dir);
		ck_assert_int_eq(mkdir(sub, 0555), 0);
		ck_assert_int_eq(jitcache_store(sub, "k", 1, "x", 1),
		    JITCACHE_EIO);
	}
	remove_dir();
}
END_TEST

START_TEST(environment)
{
	char buf[256];

	setenv("PALLAS_CACHE_DIR", "/x/y", 1);
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "/x/y");
	setenv("PALLAS_CACHE", "0", 1);
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 0);
	unsetenv("PALLAS_CACHE");
	setenv("PALLAS_CACHE_DIR", "", 1);
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 0);
	unsetenv("PALLAS_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "/xdg/pallas");
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "/home/u/.cache/pallas");
	unsetenv("HOME");
	ck_assert_int_eq(jitcache_dir(buf, sizeof buf), 0);
	setenv("PALLAS_CACHE_DIR", "/a/long/name", 1);
	ck_assert_int_eq(jitcache_dir(buf, 4), 0);	/* does not fit */
	unsetenv("PALLAS_CACHE_DIR");
}
END_TEST

enum { NTHREAD = 8, ROUNDS = 200, BIG = 50000 };
static unsigned char big[2][BIG];

static void *
hammer(void *arg)
{
	long id = (long)arg, r;
	void *p;
	size_t n;
	int bad = 0;

	for (r = 0; r < ROUNDS; r++) {
		int k = (int)((id + r) & 1);
		if (id & 1)
			bad |= jitcache_store(dir, "same", 4, big[k], BIG) != 0;
		else {
			int rc = jitcache_load(dir, "same", 4, &p, &n);
			if (rc == JITCACHE_HIT) {
				bad |= n != BIG || (memcmp(p, big[0], BIG) &&
				    memcmp(p, big[1], BIG));
				free(p);
			} else
				bad |= rc != JITCACHE_MISS;
		}
	}
	return (void *)(long)bad;
}

START_TEST(threads_see_whole_entries)
{
	pthread_t th[NTHREAD];
	long i;
	void *bad;

	fresh_dir();
	memset(big[0], 'a', BIG);
	memset(big[1], 'b', BIG);
	for (i = 0; i < NTHREAD; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, hammer,
		    (void *)i), 0);
	for (i = 0; i < NTHREAD; i++) {
		pthread_join(th[i], &bad);
		ck_assert_ptr_null(bad);
	}
	remove_dir();
}
END_TEST

static Suite *
jitcache_suite(void)
{
	Suite *s = suite_create("jitcache");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, round_trip_and_miss);
	tcase_add_test(tc, other_key_same_name);
	tcase_add_test(tc, damage_is_detected);
	tcase_add_test(tc, directories);
	tcase_add_test(tc, environment);
	tcase_add_test(tc, threads_see_whole_entries);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(jitcache_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? EXIT_FAILURE : EXIT_SUCCESS;
}
