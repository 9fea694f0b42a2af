/*
 * objexport.c - what an object or header holds (VliwObject): its images
 * and exports, built from an assembled program or from a checked
 * module's exports, and the checks that make the C names usable.
 */
#include <string.h>

#include "backend/vliw/vliw.h"

/* Longest image or export name (the C names derived fit c_name's). */
#define MAXNAME 255

/* C11 keywords, C23's new ones and C++'s (the header may be C++). */
static const char *const keywords[] = {
	"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
	"bitor", "bool", "break", "case", "catch", "char", "char16_t",
	"char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
	"compl", "concept", "const", "const_cast", "consteval", "constexpr",
	"constinit", "continue", "decltype", "default", "delete", "do",
	"double", "dynamic_cast", "else", "enum", "explicit", "export",
	"extern", "false", "float", "for", "friend", "goto", "if", "inline",
	"int", "long", "mutable", "namespace", "new", "noexcept", "not",
	"not_eq", "nullptr", "operator", "or", "or_eq", "private",
	"protected", "public", "register", "reinterpret_cast", "requires",
	"restrict", "return", "short", "signed", "sizeof", "static",
	"static_assert", "static_cast", "struct", "switch", "template",
	"this", "thread_local", "throw", "true", "try", "typedef", "typeid",
	"typename", "typeof", "typeof_unqual", "union", "unsigned", "using",
	"virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};

int
vliw_is_c_name(const char *s)
{
	size_t i;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return 0;
	if (s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z')))
		return 0;	/* reserved for the implementation */
	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	for (i = 0; i < countof(keywords); i++)
		if (strcmp(s, keywords[i]) == 0)
			return 0;
	return 1;
}

static void
copy_shape(VliwOperand *v, int rank, const int64_t *d)
{
	int i;

	v->rank = rank;
	for (i = 0; i < rank && i < MACH_MAXRANK; i++)
		v->shape[i] = d[i];
}

void
vliw_object_from_program(VliwObject *obj, Arena *a, const MachProgram *p,
    const void *img, size_t len)
{
	VliwImage *im = arena_alloc(a, sizeof *im);
	VliwExport *ex;
	VliwOperand *v;
	uint32_t i, k;

	memset(obj, 0, sizeof *obj);
	obj->preset = p->preset;
	ex = arena_alloc(a, (p->nentry ? p->nentry : 1) * sizeof *ex);
	im->name = p->nentry ? mach_program_strat(p, p->entry[0].name) : "";
	im->bytes = img;
	im->len = len;
	for (i = 0; i < p->nentry; i++) {
		const MachEntry *e = &p->entry[i];

		ex[i].cname = ex[i].entry = mach_program_strat(p, e->name);
		ex[i].image = 0;
		ex[i].nopnd = (int)e->nopnd;
		v = arena_alloc(a, (e->nopnd ? e->nopnd : 1) * sizeof *v);
		for (k = 0; k < e->nopnd; k++) {
			const MachOperand *o = &p->opnd[e->first_opnd + k];

			v[k].name = mach_program_strat(p, o->name);
			v[k].role = (MachRole)o->role;
			v[k].dtype = (MachDtype)o->dtype;
			copy_shape(&v[k], o->rank, o->shape);
		}
		ex[i].opnd = v;
	}
	obj->nimage = 1;
	obj->image = im;
	obj->nexport = (int)p->nentry;
	obj->exp = ex;
}

MachDtype
vliw_mach_dtype(DType t)
{
	switch (t) {
	case DT_F32: return MACH_F32;
	case DT_BF16: return MACH_BF16;
	case DT_I32: return MACH_I32;
	case DT_I8: return MACH_I8;
	default: return MACH_BOOL;
	}
}

static MachRole
mach_role(OpRole r)
{
	switch (r) {
	case ROLE_SMEM_TABLE: return MACH_ROLE_SMEM;
	case ROLE_IN: return MACH_ROLE_IN;
	default: return MACH_ROLE_OUT;
	}
}

/* The operands of one export, in declaration order. */
static int
export_operands(Arena *a, const CExport *e, VliwOperand **out)
{
	VliwOperand *v;
	int i, n;

	if (e->kernel) {
		n = e->kernel->nop;
		v = arena_alloc(a, (size_t)(n ? n : 1) * sizeof *v);
		for (i = 0; i < n; i++) {
			const COperand *o = &e->kernel->op[i];

			v[i].name = o->name;
			v[i].role = mach_role(o->role);
			v[i].dtype = vliw_mach_dtype(o->dtype);
			copy_shape(&v[i], o->shape.rank, o->shape.d);
		}
	} else {
		const CFunc *f = e->func;

		n = f->nparam + 1;
		v = arena_alloc(a, (size_t)n * sizeof *v);
		for (i = 0; i < f->nparam; i++) {
			v[i].name = f->param[i].name;
			v[i].role = MACH_ROLE_IN;
			v[i].dtype = vliw_mach_dtype(f->param[i].dtype);
			copy_shape(&v[i], f->param[i].shape.rank,
			    f->param[i].shape.d);
		}
		v[i].name = "result";
		v[i].role = MACH_ROLE_OUT;
		v[i].dtype = vliw_mach_dtype(f->rdtype);
		copy_shape(&v[i], f->rshape.rank, f->rshape.d);
	}
	*out = v;
	return n;
}

void
vliw_object_from_module(VliwObject *obj, Arena *a, const CheckedModule *m)
{
	int n = m->nexport, i;
	VliwImage *im = arena_alloc(a, (size_t)(n ? n : 1) * sizeof *im);
	VliwExport *ex = arena_alloc(a, (size_t)(n ? n : 1) * sizeof *ex);
	VliwOperand *v;

	memset(obj, 0, sizeof *obj);
	obj->preset = m->preset ? m->preset->name : NULL;
	for (i = 0; i < n; i++) {
		im[i].name = ex[i].cname = ex[i].entry = m->exp[i].cname;
		ex[i].image = i;
		ex[i].nopnd = export_operands(a, &m->exp[i], &v);
		ex[i].opnd = v;
	}
	obj->nimage = obj->nexport = n;
	obj->image = im;
	obj->exp = ex;
}

/* The C names the object and header define, for the collision check. */
static void
c_name(char *buf, size_t n, const VliwObject *obj, int k)
{
	int ne = obj->nexport;

	if (k < 2 * ne)
		snprintf(buf, n, k % 2 ? "%s_checked" : "%s",
		    obj->exp[k / 2].cname);
	else
		snprintf(buf, n, k % 2 ? "pk_image_%s_len" : "pk_image_%s",
		    obj->image[(k - 2 * ne) / 2].name);
}

static int
check_collisions(const VliwObject *obj, char *err, size_t errlen)
{
	int n = 2 * (obj->nexport + obj->nimage), i, j;
	char a[512], b[512];

	for (i = 0; i < n; i++) {
		c_name(a, sizeof a, obj, i);
		for (j = i + 1; j < n; j++) {
			c_name(b, sizeof b, obj, j);
			if (strcmp(a, b) == 0) {
				snprintf(err, errlen, "the C name '%s' is "
				    "defined twice", a);
				return -1;
			}
		}
	}
	return 0;
}

static int
check_export(const VliwObject *obj, const VliwExport *e, char *err,
    size_t errlen)
{
	int k;

	if (!vliw_is_c_name(e->cname) || strlen(e->cname) > MAXNAME ||
	    strncmp(e->cname, "pallas_", 7) == 0)
		return snprintf(err, errlen, "entry point '%s' is not a "
		    "usable C name (an identifier of at most 255 "
		    "characters, not a keyword, not starting with pallas_)",
		    e->cname), -1;
	if (e->image < 0 || e->image >= obj->nimage)
		return snprintf(err, errlen, "export '%s': no image %d",
		    e->cname, e->image), -1;
	for (k = 0; k < e->nopnd; k++) {
		const VliwOperand *o = &e->opnd[k];

		if ((unsigned)o->role >= NMACHROLE ||
		    (unsigned)o->dtype >= NMACHDTYPE ||
		    o->rank < 0 || o->rank > MACH_MAXRANK)
			return snprintf(err, errlen, "export '%s' operand "
			    "%d: bad role, dtype or rank", e->cname, k), -1;
	}
	return 0;
}

int
vliw_object_check(const VliwObject *obj, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < obj->nexport; i++)
		if (check_export(obj, &obj->exp[i], err, errlen))
			return -1;
	for (i = 0; i < obj->nimage; i++)
		if (!vliw_is_c_name(obj->image[i].name) ||
		    strlen(obj->image[i].name) > MAXNAME)
			return snprintf(err, errlen, "image name '%s' is not "
			    "a C identifier of at most 255 characters",
			    obj->image[i].name), -1;
	return check_collisions(obj, err, errlen);
}
