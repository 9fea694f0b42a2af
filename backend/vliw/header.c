/*
 * header.c - the C header of an object: the image symbols and, per
 * export, two static inline entry points over the runtime's
 * pallas_call_image (raw pointers) and pallas_call_image_checked (tensor
 * descriptors checked against the entry's operands), so linking needs no
 * generated host code.  Constant operands are supplied by the program:
 * they take no parameter.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/vliw/vliw.h"

static const char *const ctype[NMACHDTYPE] = {
	"float", "uint16_t", "int32_t", "int16_t", "int8_t", "uint8_t",
	"uint8_t"
};
static const char *const pdtype[NMACHDTYPE] = {
	"PALLAS_F32", "PALLAS_BF16", "PALLAS_I32", "PALLAS_I16", "PALLAS_I8",
	"PALLAS_U8", "PALLAS_BOOL"
};
static const char *const dtname[NMACHDTYPE] = {
	"f32", "bf16", "i32", "i16", "i8", "u8", "bool"
};
static const char *const rolename[NMACHROLE] = {
	"in", "out", "inout", "smem", "const"
};
/* Names the header's code uses, which a parameter must not hide. */
static const char *const taken[] = {
	"dev", "NULL", "memset", "size_t", "uintptr_t", "uint8_t", "int8_t",
	"int16_t", "uint16_t", "int32_t", "PallasDevice", "PallasTensor",
};

void
vliw_guard_name(char *buf, size_t n, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t k = 0;

	base = base ? base + 1 : path;
	if (n == 0)
		return;
	if (!*base || (*base >= '0' && *base <= '9'))
		k = (size_t)snprintf(buf, n, "PK_");
	for (; *base && k + 1 < n; base++, k++) {
		char c = *base;

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			c = '_';
		buf[k] = c;
	}
	buf[k < n ? k : n - 1] = 0;
	if (k == 3 && strcmp(buf, "PK_") == 0)
		snprintf(buf, n, "PK_HEADER_H");
}

static int
is_macro_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int
usable_param(const VliwExport *e, int k, char names[][64])
{
	const char *s = e->opnd[k].name;
	size_t i;
	int j;

	if (!vliw_is_c_name(s) || strlen(s) >= 64 ||
	    strcmp(s, e->cname) == 0 || strncmp(s, "pk_", 3) == 0 ||
	    strncmp(s, "pallas_", 7) == 0 || strncmp(s, "Pallas", 6) == 0 ||
	    strncmp(s, "PALLAS_", 7) == 0)
		return 0;
	for (i = 0; i < countof(taken); i++)
		if (strcmp(s, taken[i]) == 0)
			return 0;
	for (j = 0; j < k; j++)
		if (strcmp(s, names[j]) == 0)
			return 0;
	return 1;
}

/* Parameter names: the operand's, or pk_argK when it cannot be one. */
static void
param_names(const VliwExport *e, char names[][64])
{
	int k;

	for (k = 0; k < e->nopnd; k++)
		if (usable_param(e, k, names))
			snprintf(names[k], 64, "%s", e->opnd[k].name);
		else
			snprintf(names[k], 64, "pk_arg%d", k);
}

static void
put_shape(Buf *b, const VliwOperand *o)
{
	int i;

	buf_printf(b, "%s[", dtname[o->dtype]);
	for (i = 0; i < o->rank; i++)
		buf_printf(b, "%s%lld", i ? ", " : "", (long long)o->shape[i]);
	buf_putc(b, ']');
}

static void
put_comment(Buf *b, const VliwObject *obj, const VliwExport *e,
    char names[][64])
{
	int k;

	buf_printf(b, "/*\n * %s: entry '%s' of pk_image_%s", e->cname,
	    e->entry, obj->image[e->image].name);
	if (obj->preset)
		buf_printf(b, " (preset %s)", obj->preset);
	buf_puts(b, "\n");
	for (k = 0; k < e->nopnd; k++) {
		const VliwOperand *o = &e->opnd[k];

		buf_printf(b, " *   %-12s %-5s ", names[k], rolename[o->role]);
		put_shape(b, o);
		if (strcmp(names[k], o->name) != 0)
			buf_printf(b, "  (operand '%s')", o->name);
		if (o->role == MACH_ROLE_CONST)
			buf_puts(b, "  (supplied by the program)");
		buf_puts(b, "\n");
	}
	buf_puts(b, " */\n");
}

/* The call's image, length and entry name, continued after 'ind'. */
static void
put_image_args(Buf *b, const VliwObject *obj, const VliwExport *e,
    const char *ind)
{
	const char *im = obj->image[e->image].name;

	buf_printf(b, "pk_image_%s,\n%s    (size_t)pk_image_%s_len, \"%s\", ",
	    im, ind, im, e->entry);
}

/* Appends ", text", breaking the line before 80 columns. */
static void
put_param(Buf *b, size_t *col, const char *text)
{
	size_t n = strlen(text);

	if (*col + n + 3 > 79) {
		buf_printf(b, ",\n    %s", text);
		*col = 4 + n;
	} else {
		buf_printf(b, ", %s", text);
		*col += 2 + n;
	}
}

static void
put_raw(Buf *b, const VliwObject *obj, const VliwExport *e,
    char names[][64])
{
	char p[128];
	size_t col = strlen(e->cname) + 18;
	int k;

	buf_printf(b, "static inline int\n%s(PallasDevice *dev", e->cname);
	for (k = 0; k < e->nopnd; k++) {
		const VliwOperand *o = &e->opnd[k];

		if (o->role == MACH_ROLE_CONST)
			continue;
		snprintf(p, sizeof p, "%s%s *%s", o->role == MACH_ROLE_IN ||
		    o->role == MACH_ROLE_SMEM ? "const " : "",
		    ctype[o->dtype], names[k]);
		put_param(b, &col, p);
	}
	buf_puts(b, ")\n{\n");
	if (e->nopnd) {
		buf_printf(b, "\tvoid *const pk_bufs[%d] = {\n", e->nopnd);
		for (k = 0; k < e->nopnd; k++) {
			MachRole r = e->opnd[k].role;

			if (r == MACH_ROLE_CONST)
				buf_puts(b, "\t\tNULL,\n");
			else if (r == MACH_ROLE_IN || r == MACH_ROLE_SMEM)
				buf_printf(b, "\t\t(void *)(uintptr_t)%s,\n",
				    names[k]);
			else
				buf_printf(b, "\t\t%s,\n", names[k]);
		}
		buf_puts(b, "\t};\n\n");
	}
	buf_puts(b, "\treturn pallas_call_image(dev, ");
	put_image_args(b, obj, e, "\t");
	buf_printf(b, "%s, %d);\n}\n\n", e->nopnd ? "pk_bufs" : "NULL",
	    e->nopnd);
}

/* A constant operand's descriptor: no data, the program's shape. */
static void
put_const_arg(Buf *b, const VliwOperand *o, int k)
{
	int i;

	buf_printf(b, "\tpk_args[%d].data = NULL;\n", k);
	buf_printf(b, "\tpk_args[%d].dtype = %s;\n", k, pdtype[o->dtype]);
	buf_printf(b, "\tpk_args[%d].rank = %d;\n", k, o->rank);
	for (i = 0; i < o->rank; i++)
		buf_printf(b, "\tpk_args[%d].shape[%d] = %lld;\n", k, i,
		    (long long)o->shape[i]);
}

static void
put_checked(Buf *b, const VliwObject *obj, const VliwExport *e,
    char names[][64])
{
	size_t col = strlen(e->cname) + 26;
	int k, nparam = 0;
	char p[128];

	buf_printf(b, "static inline int\n%s_checked(PallasDevice *dev",
	    e->cname);
	for (k = 0; k < e->nopnd; k++)
		if (e->opnd[k].role != MACH_ROLE_CONST) {
			snprintf(p, sizeof p, "const PallasTensor *%s",
			    names[k]);
			put_param(b, &col, p);
			nparam++;
		}
	buf_puts(b, ")\n{\n");
	if (e->nopnd)
		buf_printf(b, "\tPallasTensor pk_args[%d];\n\n\tmemset("
		    "pk_args, 0, sizeof pk_args);\n", e->nopnd);
	if (nparam) {
		buf_puts(b, "\tif (");
		for (k = 0, nparam = 0; k < e->nopnd; k++)
			if (e->opnd[k].role != MACH_ROLE_CONST)
				buf_printf(b, "%s!%s", nparam++ ? " || " : "",
				    names[k]);
		buf_puts(b, ")\n\t\treturn pallas_call_image_checked(dev, ");
		put_image_args(b, obj, e, "\t\t");
		buf_printf(b, "NULL, %d);\n", e->nopnd);
	}
	for (k = 0; k < e->nopnd; k++)
		if (e->opnd[k].role == MACH_ROLE_CONST)
			put_const_arg(b, &e->opnd[k], k);
		else
			buf_printf(b, "\tpk_args[%d] = *%s;\n", k, names[k]);
	buf_puts(b, "\treturn pallas_call_image_checked(dev, ");
	put_image_args(b, obj, e, "\t");
	buf_printf(b, "%s, %d);\n}\n\n", e->nopnd ? "pk_args" : "NULL",
	    e->nopnd);
}

static void
put_prologue(Buf *b, const char *guard, const VliwObject *obj)
{
	const char *src = obj->source ? strrchr(obj->source, '/') : NULL;
	int i;

	src = src ? src + 1 : obj->source;
	buf_printf(b, "/*\n * Entry points of %s%s, generated by pallasc.\n"
	    " * Link the object (pallasc -o FILE.o) or the C source (pallasc"
	    " --emit=c)\n * with libpallasrt: cc app.c FILE.o $(pkg-config "
	    "--cflags --libs pallas)\n"
	    " * Each entry point loads its program image on the device at "
	    "its first\n * call and returns a PallasErr; pallas_last_error("
	    "dev) says why.\n */\n", src ? "the kernels of " : "the kernels",
	    src ? src : "");
	buf_printf(b, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n"
	    "#include <stdint.h>\n#include <string.h>\n\n"
	    "#include <pallas/pallas.h>\n\n"
	    "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", guard, guard);
	for (i = 0; i < obj->nimage; i++)
		buf_printf(b, "extern const unsigned char pk_image_%s[];\n"
		    "extern const unsigned long long pk_image_%s_len;\n",
		    obj->image[i].name, obj->image[i].name);
	buf_puts(b, "\n");
}

int
vliw_write_header(Buf *out, const char *guard, const VliwObject *obj,
    char *err, size_t errlen)
{
	char (*names)[64], def[128];
	int i, max = 1;

	if (vliw_object_check(obj, err, errlen))
		return -1;
	if (!guard) {
		snprintf(def, sizeof def, "PK_%s_H",
		    obj->nimage ? obj->image[0].name : "HEADER");
		guard = def;
	}
	if (!is_macro_name(guard))
		return snprintf(err, errlen, "bad include guard '%s'", guard),
		    -1;
	for (i = 0; i < obj->nexport; i++)
		if (obj->exp[i].nopnd > max)
			max = obj->exp[i].nopnd;
	if (!(names = calloc((size_t)max, sizeof *names)))
		return snprintf(err, errlen, "out of memory"), -1;
	put_prologue(out, guard, obj);
	for (i = 0; i < obj->nexport; i++) {
		param_names(&obj->exp[i], names);
		put_comment(out, obj, &obj->exp[i], names);
		put_raw(out, obj, &obj->exp[i], names);
		put_checked(out, obj, &obj->exp[i], names);
	}
	buf_puts(out, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
	free(names);
	return 0;
}
