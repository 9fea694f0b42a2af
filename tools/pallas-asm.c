/*
 * pallas-asm.c - assemble, disassemble and run programs of the simulated
 * machine from the command line (doc/pallas-asm.1):
 *
 *	pallas-asm as FILE.s [-o FILE.pkimg] [--preset NAME]
 *	pallas-asm dis FILE.pkimg [-o FILE.s]
 *	pallas-asm run FILE.s|FILE.pkimg [options]     (see run_main)
 *
 * Links libpallasrt only.  Exit status: 0 success, 1 error in the input
 * (or a trap when running), 2 bad command line, 70 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "machine/machine.h"
#include "tools/pallas-asm.h"

static const char usage_text[] =
"Usage: pallas-asm COMMAND [options] FILE\n"
"Assemble, disassemble and run programs of the simulated TPU-like machine.\n"
"\n"
"Commands:\n"
"  as FILE.s [-o FILE.pkimg] [--preset NAME]\n"
"                       assemble to a program image (default output: FILE\n"
"                       with its .s suffix replaced by .pkimg)\n"
"  dis FILE.pkimg [-o FILE.s]\n"
"                       disassemble an image (default: standard output)\n"
"  run FILE.s|FILE.pkimg [--preset NAME] [--entry NAME] [--stats]\n"
"      [--trace OUT.json] [--poison[=nan|=int]] [--max-cycles N]\n"
"      [--in NAME=FILE|NAME=iota|NAME=NUMBER] [--out NAME=FILE] [--quiet]\n"
"                       run an entry point on the simulator and print its\n"
"                       outputs (inputs not given with --in are zeros)\n"
"\n"
"Options:\n"
"  --preset NAME        v4 (default), v5e, v6e or small; for 'as' and for\n"
"                       assembling before 'run' (a .preset line wins)\n"
"  --help               print this help and exit\n"
"  --version            print the version and exit\n"
"\n"
"FILE may be '-' for standard input.\n"
"Exit status: 0 success, 1 errors in the input or a trap, 2 bad usage,\n"
"70 internal error.\n";

int
pa_usage(const char *fmt, const char *arg)
{
	fputs("pallas-asm: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pallas-asm --help' for more information.\n", stderr);
	return PA_USAGE;
}

int
pa_read(const char *path, char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t n = 0, cap = 0, k;
	char *p = NULL, *q;

	*buf = NULL;
	*len = 0;
	if (!f) {
		fprintf(stderr, "pallas-asm: error: cannot read '%s': %s\n",
		    path, strerror(errno));
		return PA_USER;
	}
	for (;;) {
		if (n + 65536 + 1 > cap) {
			cap = (n + 65536 + 1) * 2;
			if (!(q = realloc(p, cap))) {
				free(p);
				if (f != stdin)
					fclose(f);
				fprintf(stderr, "pallas-asm: error: out of "
				    "memory reading '%s'\n", path);
				return PA_INTERNAL;
			}
			p = q;
		}
		k = fread(p + n, 1, cap - n - 1, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "pallas-asm: error: reading '%s' failed\n",
		    path);
		free(p);
		if (f != stdin)
			fclose(f);
		return PA_USER;
	}
	if (f != stdin)
		fclose(f);
	p[n] = 0;
	*buf = p;
	*len = n;
	return PA_OK;
}

static int
write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	int bad;

	if (!f) {
		fprintf(stderr, "pallas-asm: error: cannot write '%s': %s\n",
		    path, strerror(errno));
		return PA_USER;
	}
	bad = len && fwrite(buf, 1, len, f) != len;
	bad |= (f == stdout ? fflush(f) : fclose(f)) != 0;
	if (bad) {
		fprintf(stderr, "pallas-asm: error: writing '%s' failed\n",
		    path);
		return PA_USER;
	}
	return PA_OK;
}

static int
is_image(const char *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "PALLASIM", 8) == 0;
}

int
pa_load(const char *path, const char *preset, MachProgram **out)
{
	char *buf, err[16384];
	size_t len;
	int rc, img;

	*out = NULL;
	if ((rc = pa_read(path, &buf, &len)))
		return rc;
	if ((img = is_image(buf, len)))
		rc = mach_image_read(buf, len, out, err, sizeof err);
	else
		rc = mach_asm(strcmp(path, "-") ? path : "<stdin>", buf, len,
		    preset, out, err, sizeof err);
	free(buf);
	if (rc == MACH_OK)
		return PA_OK;
	if (img || strstr(err, ": error: ") == NULL)
		fprintf(stderr, "pallas-asm: error: %s: %s\n", path, err);
	else
		fputs(err, stderr);
	return rc == MACH_ENOMEM ? PA_INTERNAL : PA_USER;
}

/* Shared option loop of 'as' and 'dis': -o FILE, --preset NAME, FILE. */
static int
simple_args(int argc, char **argv, const char **in, const char **out,
    const char **preset)
{
	int i;

	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 || (preset &&
		    strcmp(argv[i], "--preset") == 0)) {
			if (i + 1 == argc)
				return pa_usage("missing argument to '%s'",
				    argv[i]);
			if (argv[i][1] == 'o')
				*out = argv[++i];
			else
				*preset = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1])
			return pa_usage("unknown option '%s'", argv[i]);
		else if (*in)
			return pa_usage("more than one input file ('%s')",
			    argv[i]);
		else
			*in = argv[i];
	}
	if (!*in)
		return pa_usage("%s", "no input file");
	if (preset && *preset && !mach_preset(*preset))
		return pa_usage("unknown preset '%s' (v4, v5e, v6e, small)",
		    *preset);
	return PA_OK;
}

/* FILE.s -> FILE.pkimg; anything else gets .pkimg appended. */
static char *
image_name(const char *in)
{
	size_t n = strlen(in);
	char *s = malloc(n + 8);

	if (!s)
		return NULL;
	memcpy(s, in, n + 1);
	if (n > 2 && strcmp(in + n - 2, ".s") == 0)
		s[n - 2] = 0;
	strcat(s, ".pkimg");
	return s;
}

static int
as_main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *preset = NULL;
	char err[256], *name = NULL;
	MachProgram *p;
	size_t len;
	void *img;
	int rc;

	if ((rc = simple_args(argc, argv, &in, &out, &preset)))
		return rc;
	if ((rc = pa_load(in, preset, &p)))
		return rc;
	if (mach_image_write(p, &img, &len, err, sizeof err)) {
		fprintf(stderr, "pallas-asm: internal error: %s\n", err);
		mach_program_free(p);
		return PA_INTERNAL;
	}
	mach_program_free(p);
	if (!out && strcmp(in, "-") == 0)
		out = "-";
	if (!out && !(out = name = image_name(in)))
		rc = PA_INTERNAL;
	else
		rc = write_file(out, img, len);
	free(name);
	free(img);
	return rc;
}

static int
dis_main(int argc, char **argv)
{
	const char *in = NULL, *out = "-";
	MachProgram *p;
	size_t len;
	char *text;
	int rc;

	if ((rc = simple_args(argc, argv, &in, &out, NULL)))
		return rc;
	if ((rc = pa_load(in, NULL, &p)))
		return rc;
	rc = mach_disasm(p, &text, &len);
	mach_program_free(p);
	if (rc) {
		fprintf(stderr, "pallas-asm: error: cannot disassemble: %s\n",
		    mach_err_name(rc));
		return PA_INTERNAL;
	}
	rc = write_file(out, text, len);
	free(text);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		return pa_usage("%s", "no command (as, dis or run)");
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage_text, stdout);
		return PA_OK;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("pallas-asm (pallas-c) %s\n", PACKAGE_VERSION);
		return PA_OK;
	}
	if (strcmp(cmd, "as") == 0)
		return as_main(argc, argv);
	if (strcmp(cmd, "dis") == 0)
		return dis_main(argc, argv);
	if (strcmp(cmd, "run") == 0)
		return pa_run(argc, argv);
	return pa_usage("unknown command '%s' (as, dis or run)", cmd);
}
