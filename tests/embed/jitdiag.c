/*
 * jitdiag.c - the JIT's diagnostics for a C file, for the diagnostics
 * corpus (tests/embed-diag): finds the file's PK_MODULEs as pallasc does,
 * gives each to pallas_module_open as PK_MODULE would (its name, its text
 * as C stringizes it, the file and line) and prints what comes back, so
 * run.sh can check that the JIT's messages are pallasc's, byte for byte.
 *
 *     jitdiag [-m PRESET] FILE.c
 */
#include <stdio.h>
#include <string.h>

#include <pallas/pallas.h>

#include "dsl/embed/embed.h"

int
main(int argc, char **argv)
{
	const char *preset = "v4", *path;
	PallasDevice *dev;
	PallasModule *m;
	EmbedModule *mod;
	Arena a = {0};
	SrcMgr sm;
	Buf text = {0};
	Diag d;
	int i, n, rc = 0;

	if (argc == 4 && strcmp(argv[1], "-m") == 0)
		preset = argv[2];
	else if (argc != 2) {
		fputs("usage: jitdiag [-m PRESET] FILE.c\n", stderr);
		return 2;
	}
	path = argv[argc - 1];
	if (read_file(path, &text)) {
		fprintf(stderr, "jitdiag: cannot read %s\n", path);
		return 2;
	}
	srcmgr_init(&sm);
	diag_init(&d, &sm, stderr);
	n = embed_scan(&d, srcmgr_add(&sm, path, text.p ? text.p : "",
	    text.n), &a, &mod);
	if (d.nerror || pallas_device_open(preset, &dev))
		return 1;
	for (i = 0; i < n && rc == 0; i++) {
		PallasSource src = { mod[i].name, mod[i].text, path,
		    mod[i].at.line, NULL, NULL, NULL, NULL };
		rc = pallas_module_open(dev, &src, NULL, &m);
		fputs(pallas_module_diagnostics(m), stderr);
	}
	pallas_device_close(dev);
	buf_free(&text);
	srcmgr_free(&sm);
	arena_free(&a);
	return rc == PALLAS_OK ? 0 : rc == PALLAS_ECOMPILE ? 1 : 2;
}
