/*
 * driver.c - calls tbl (tests/bounds/tbl.pk) through its generated
 * header with an in-range table and with one that sends x's block out of
 * range: the first returns PALLAS_OK and z holds x's blocks in the
 * table's order, the second a run-time check's error code, not
 * PALLAS_OK, with a message naming 'x', the grid point and the value.
 * Exit status 0 when both hold.
 */
#include <stdio.h>
#include <string.h>

#include "tbl.h"

#define M 32
#define L 128

static float x[M * L], z[M * L];

/* 0 if z holds x's blocks in the order of t. */
static int
check_gather(const int32_t *t)
{
	int b;

	for (b = 0; b < M / 8; b++)
		if (memcmp(z + b * 8 * L, x + t[b] * 8 * L, sizeof(float) * 8 *
		    L) != 0) {
			fprintf(stderr, "driver: block %d is not x's %d\n", b,
			    (int)t[b]);
			return 1;
		}
	return 0;
}

int
main(void)
{
	static const int32_t good[M / 8] = { 3, 1, 2, 0 };
	static const int32_t bad[M / 8] = { 0, 7, 1, 2 };
	const char *want = "at grid point (i=1) the block index 7 of 'x' dim 0 "
	    "is outside [0, 4)";
	PallasDevice *dev;
	PallasTrap tr;
	int i, rc, fail = 0;

	for (i = 0; i < M * L; i++)
		x[i] = (float)i;
	if (pallas_device_open(NULL, &dev) != PALLAS_OK)
		return fprintf(stderr, "driver: no device\n"), 2;
	rc = tbl(dev, good, x, z);
	if (rc != PALLAS_OK) {
		fprintf(stderr, "driver: good table: %s: %s\n",
		    pallas_strerror(rc), pallas_last_error(dev));
		fail = 1;
	} else
		fail |= check_gather(good);
	rc = tbl(dev, bad, x, z);
	pallas_last_trap(dev, &tr);
	printf("bad table: %s: %s\n", pallas_strerror(rc),
	    pallas_last_error(dev));
	if (rc != PALLAS_ECHECK || tr.kind != PALLAS_TRAP_CHECK ||
	    !strstr(pallas_last_error(dev), want) ||
	    strcmp(tr.reason, want) != 0) {
		fprintf(stderr, "driver: bad table: want PALLAS_ECHECK and "
		    "'%s'\n", want);
		fail = 1;
	}
	pallas_device_close(dev);
	return fail;
}
