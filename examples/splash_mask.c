/*
 * splash_mask.c - builds the MaskInfo tables of a Splash mask given in
 * the text form and prints them, linked through pkg-config:
 *
 *     cc examples/splash_mask.c $(pkg-config --cflags --libs pallas-splash)
 *     ./a.out 'and(causal;local:64,0)' 256 64
 *
 * Arguments: the mask (default causal), S (Sq = Skv, default 256) and
 * the block size (default 64).
 */
#include <stdio.h>
#include <stdlib.h>

#include <pallas/splash_mask.h>

static void
print_table(const char *name, const SplashMaskInfo *in, const int32_t *t)
{
	int i, j;

	printf("%s:\n", name);
	for (i = 0; i < in->nq; i++) {
		for (j = 0; j < in->nk; j++)
			printf(" %d", (int)t[(size_t)i * in->nk + j]);
		printf("\n");
	}
}

int
main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "causal";
	long S = argc > 2 ? atol(argv[2]) : 256;
	int B = argc > 3 ? atoi(argv[3]) : 64;
	char err[256], desc[256];
	SplashMask *m;
	SplashMaskInfo in;

	if (!(m = splash_mask_parse(text, NULL, NULL, err, sizeof(err)))) {
		fprintf(stderr, "splash_mask: %s\n", err);
		return 1;
	}
	if (splash_mask_info(m, 1, S, S, B, B, 0, &in, err, sizeof(err))) {
		fprintf(stderr, "splash_mask: %s\n", err);
		splash_mask_free(m);
		return 1;
	}
	splash_mask_describe(m, desc, sizeof(desc));
	printf("%s, S %ld, blocks %d: check %016llx\n", desc, S, B,
	    (unsigned long long)in.check);
	print_table("block_mask", &in, in.block_mask);
	print_table("data_next", &in, in.data_next);
	splash_mask_info_free(&in);
	splash_mask_free(m);
	return 0;
}
