/*
 * pallasc.c - the pallas-c compiler driver (being built up).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "dsl/dsl.h"

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("pallasc (pallas-c) %s\n", PACKAGE_VERSION);
		return 0;
	}
	fprintf(stderr, "usage: pallasc [options] file.pk\n");
	return 2;
}
