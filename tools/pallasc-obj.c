/*
 * pallasc-obj.c - the driver's object outputs (doc/pallasc.1): -c and -o
 * write an ELF relocatable object holding the program image, -H FILE and
 * --emit=header the C header with the typed entry points, --emit=c the
 * object's contents as C source.  For .pk inputs the header comes from
 * the checked module; objects wait for the VLIW backend.  Assembly (.s)
 * inputs are assembled and give all three: one image for the whole
 * program, one export per .entry (see backend/vliw/vliw.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"
#include "tools/pallasc.h"

static int
usage(const char *fmt, const char *arg)
{
	fputs("pallasc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pallasc --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* The value of "-Xvalue", "-X value", "--name=value" or "--name value". */
static const char *
value_of(int argc, char **argv, int *i, size_t n)
{
	const char *arg = argv[*i];

	if (arg[n])
		return arg + n + (arg[n] == '=');
	return *i + 1 < argc ? argv[++*i] : NULL;
}

int
obj_flag(ObjOpts *b, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;

	if (strcmp(arg, "-c") == 0) {
		b->compile = 1;
		return 0;
	}
	if (strncmp(arg, "-H", 2) == 0) {
		if (!(v = value_of(argc, argv, i, 2)) || !*v)
			return usage("missing argument to '%s'", "-H");
		b->header = v;
		return 0;
	}
	if (strncmp(arg, "--elf-machine", 13) == 0 &&
	    (arg[13] == '=' || !arg[13])) {
		if (!(v = value_of(argc, argv, i, 13)))
			return usage("missing argument to '%s'",
			    "--elf-machine");
		if (!vliw_machine_by_name(v))
			return usage("unknown --elf-machine '%s': use x86-64 "
			    "or aarch64", v);
		b->machine = v;
		return 0;
	}
	return -1;
}

int
obj_is_asm_input(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && strcmp(path + n - 2, ".s") == 0;
}

/* The base name of path with its suffix replaced by 'ext'. */
static char *
renamed(Arena *a, const char *path, const char *ext)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	if (!*base || strcmp(base, "-") == 0)
		base = "a";
	dot = strrchr(base, '.');
	return arena_printf(a, "%.*s%s", (int)(dot && dot != base ?
	    (size_t)(dot - base) : strlen(base)), base, ext);
}

const char *
obj_default_output(Arena *a, const char *input)
{
	size_t n = strlen(input);

	/* a C input's kernels must not overwrite the object cc makes */
	if (n > 2 && strcmp(input + n - 2, ".c") == 0)
		return renamed(a, input, "-kernels.o");
	return renamed(a, input, ".o");
}

static int
write_to(const char *path, const Buf *b)
{
	FILE *f = fopen(path, "wb");
	int bad;

	if (!f) {
		fprintf(stderr, "pallasc: error: cannot write '%s': %s\n",
		    path, strerror(errno));
		return EXIT_USER;
	}
	bad = b->n && fwrite(b->p, 1, b->n, f) != b->n;
	bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "pallasc: error: writing '%s' failed\n", path);
		return EXIT_USER;
	}
	return EXIT_OK;
}

static int
header(Buf *out, const char *path, const VliwObject *obj, char *err,
    size_t errlen)
{
	char guard[128];

	vliw_guard_name(guard, sizeof guard, path);
	return vliw_write_header(out, guard, obj, err, errlen);
}

/* The main output 'what' into out, and the -H header into its file. */
static int
emit_all(const ObjOpts *b, const VliwObject *obj, ObjOut what,
    const char *output, Buf *out)
{
	Arena a = {0};
	char err[512];
	Buf h = {0};
	int rc = 0, machine;

	if (what == OBJ_ELF) {
		machine = b->machine ? vliw_machine_by_name(b->machine) :
		    vliw_host_machine();
		if (!machine)
			return usage("%s", "no ELF object format for this "
			    "host: use --elf-machine=x86-64 or aarch64, or "
			    "--emit=c");
		rc = vliw_write_elf(out, obj, machine, err, sizeof err);
	} else if (what == OBJ_C)
		rc = vliw_write_csource(out, obj, err, sizeof err);
	else if (what == OBJ_HEADER)
		rc = header(out, output && strcmp(output, "-") ? output :
		    renamed(&a, obj->source, ".h"), obj, err, sizeof err);
	if (!rc && b->header && !(rc = header(&h, b->header, obj, err,
	    sizeof err)))
		rc = write_to(b->header, &h);
	else if (rc)
		fprintf(stderr, "pallasc: error: %s: %s\n", obj->source, err);
	buf_free(&h);
	arena_free(&a);
	return rc < 0 ? EXIT_USER : rc;
}

/* Assembles input; *p NULL and an exit status on failure. */
static int
assemble(const char *input, const char *preset, MachProgram **p)
{
	char err[16384];
	Buf src = {0};
	int rc;

	*p = NULL;
	if ((rc = read_file(input, &src))) {
		fprintf(stderr, "pallasc: error: cannot read '%s': %s\n",
		    input, strerror(rc));
		return EXIT_USER;
	}
	rc = mach_asm(strcmp(input, "-") ? input : "<stdin>",
	    src.p ? src.p : "", src.n, preset, p, err, sizeof err);
	buf_free(&src);
	if (rc == MACH_OK)
		return EXIT_OK;
	if (strstr(err, ": error: "))
		fputs(err, stderr);
	else
		fprintf(stderr, "pallasc: error: %s: %s\n", input, err);
	return rc == MACH_ENOMEM ? EXIT_INTERNAL : EXIT_USER;
}

/*
 * Writes what the object levels ask for from a program: the ELF object or
 * its C source, and the header.  The program stays the caller's.
 */
int
obj_program(const ObjOpts *b, const MachProgram *p, const char *input,
    ObjOut what, const char *output, Buf *out)
{
	VliwObject obj;
	Arena a = {0};
	char err[512];
	void *img;
	size_t len;
	int rc;

	if (what == OBJ_NONE && !b->header)
		return EXIT_OK;
	if (p->nentry == 0) {
		fprintf(stderr, "pallasc: error: %s: the program has no "
		    "entry point, so there is nothing to export\n", input);
		return EXIT_USER;
	}
	if (mach_image_write(p, &img, &len, err, sizeof err)) {
		fprintf(stderr, "pallasc: internal error: %s\n", err);
		return EXIT_INTERNAL;
	}
	vliw_object_from_program(&obj, &a, p, img, len);
	obj.source = strcmp(input, "-") ? input : "stdin";
	rc = emit_all(b, &obj, what, output, out);
	free(img);
	arena_free(&a);
	return rc;
}

int
obj_asm(const ObjOpts *b, const char *input, const char *preset,
    ObjOut what, const char *output, Buf *out)
{
	MachProgram *p;
	int rc;

	if ((rc = assemble(input, preset, &p)))
		return rc;
	rc = obj_program(b, p, input, what, output, out);
	mach_program_free(p);
	return rc;
}

int
obj_module(const ObjOpts *b, const CheckedModule *m, const char *input,
    ObjOut what, const char *output, Buf *out)
{
	VliwObject obj;
	Arena a = {0};
	int rc;

	if (what == OBJ_ELF || what == OBJ_C)
		bug("object output of a module goes through obj_program");
	if (what == OBJ_NONE && !b->header)
		return EXIT_OK;
	vliw_object_from_module(&obj, &a, m);
	obj.source = strcmp(input, "-") ? input : "stdin.pk";
	rc = emit_all(b, &obj, what, output, out);
	arena_free(&a);
	return rc;
}

int
obj_embedded(const ObjOpts *b, const ObjModule *mod, int n,
    const char *input, ObjOut what, const char *output, Buf *out)
{
	VliwObject obj = {0}, one;
	VliwImage *im;
	VliwExport *ex;
	Arena a = {0};
	int i, k, nex = 0, rc;

	if (what == OBJ_NONE && !b->header)
		return EXIT_OK;
	for (i = 0; i < n; i++)
		nex += (int)mod[i].prog->nentry;
	im = arena_alloc(&a, (size_t)(2 * n + 1) * sizeof *im);
	ex = arena_alloc(&a, (size_t)(nex + 1) * sizeof *ex);
	for (i = 0; i < n; i++) {
		/* pk_image_pkm_NAME: the program; pk_image_pkk_NAME: what it
		   was built from, which PK_MODULE compares (jit_key) */
		vliw_object_from_program(&one, &a, mod[i].prog, mod[i].image,
		    mod[i].len);
		im[2 * i] = one.image[0];
		im[2 * i].name = arena_printf(&a, "pkm_%s", mod[i].name);
		im[2 * i + 1].name = arena_printf(&a, "pkk_%s", mod[i].name);
		im[2 * i + 1].bytes = mod[i].key;
		im[2 * i + 1].len = mod[i].keylen;
		for (k = 0; k < one.nexport; k++) {
			ex[obj.nexport] = one.exp[k];
			ex[obj.nexport].cname = arena_printf(&a, "%s_%s",
			    mod[i].name, one.exp[k].cname);
			ex[obj.nexport++].image = 2 * i;
		}
		obj.preset = one.preset;
	}
	obj.nimage = 2 * n;
	obj.image = im;
	obj.exp = ex;
	obj.source = strcmp(input, "-") ? input : "stdin.c";
	rc = emit_all(b, &obj, what, output, out);
	arena_free(&a);
	return rc;
}
