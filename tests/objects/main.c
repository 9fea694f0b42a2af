/*
 * main.c - links a kernel object written by pallasc (or its --emit=c
 * source) through the generated header twice.h: calls the raw entry
 * point and the checked one, then a checked call with a wrong shape,
 * which must fail with the runtime's message.  Prints results and
 * counters; exits 1 on any wrong result.  (tests/objects.sh)
 */
#include <stdio.h>
#include <string.h>

#include "twice.h"

#define N 128

static int
check(const float *y, const char *what)
{
	int i;

	for (i = 0; i < N; i++)
		if (y[i] != 2.0f * (float)i) {
			printf("%s: y[%d] = %g, expected %g\n", what, i, y[i],
			    2.0 * i);
			return 1;
		}
	printf("%s: y[0..3] = %g %g %g %g ... y[%d] = %g\n", what, y[0],
	    y[1], y[2], y[3], N - 1, y[N - 1]);
	return 0;
}

static void
tensor(PallasTensor *t, void *data, int64_t rows, int64_t cols)
{
	memset(t, 0, sizeof *t);
	t->data = data;
	t->dtype = PALLAS_F32;
	t->rank = 2;
	t->shape[0] = rows;
	t->shape[1] = cols;
}

int
main(void)
{
	PallasDevice *dev;
	PallasTensor tx, ty;
	PallasStats st;
	float x[N], y[N];
	int i, err, bad = 0;

	for (i = 0; i < N; i++)
		x[i] = (float)i;
	if ((err = pallas_device_open("small", &dev))) {
		printf("open: %s\n", pallas_strerror(err));
		return 1;
	}
	printf("image: %llu bytes\n", (unsigned long long)pk_image_twice_len);
	memset(y, 0, sizeof y);
	if ((err = twice(dev, x, y))) {
		printf("twice: %s\n", pallas_last_error(dev));
		bad = 1;
	} else
		bad |= check(y, "raw");
	pallas_last_stats(dev, &st);
	printf("cycles %llu, bundles %llu, hbm read %llu, written %llu\n",
	    (unsigned long long)st.c.cycles, (unsigned long long)st.c.bundles,
	    (unsigned long long)st.c.hbm_read_bytes,
	    (unsigned long long)st.c.hbm_write_bytes);
	memset(y, 0, sizeof y);
	tensor(&tx, x, 8, 16);
	tensor(&ty, y, 8, 16);
	if ((err = twice_checked(dev, &tx, &ty))) {
		printf("twice_checked: %s\n", pallas_last_error(dev));
		bad = 1;
	} else
		bad |= check(y, "checked");
	tensor(&tx, x, 16, 8);
	err = twice_checked(dev, &tx, &ty);
	printf("wrong shape: %s: %s\n", pallas_strerror(err),
	    pallas_last_error(dev));
	if (err != PALLAS_EMISMATCH)
		bad = 1;
	err = twice_checked(dev, NULL, &ty);
	printf("null tensor: %s\n", pallas_strerror(err));
	if (err != PALLAS_EINVAL)
		bad = 1;
	pallas_device_close(dev);
	printf("%s\n", bad ? "FAILED" : "ok");
	return bad;
}
