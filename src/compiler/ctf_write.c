/*
 * -x ctypes=file and -x dtypes=file: after each compile DTrace writes its
 * "C" type container (the intrinsic integer and floating-point types) and
 * its "D" container (D's typedefs, string, and the types programs define)
 * as CTF.  This writes the same two sets as CTF version 3 dictionaries
 * (the format of GNU libctf and objdump --ctf).  Each file stands alone:
 * the types the D container refers to are written into it too, and a
 * kernel struct or union is a forward declaration.
 */
#include "compiler/ctf_write.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/compiler.h"

/* CTF v3 (binutils include/ctf.h). */
#define CTF_MAGIC 0xdff2
#define CTF_VERSION_3 4
enum {
	CTF_K_INTEGER = 1, CTF_K_FLOAT = 2, CTF_K_POINTER = 3, CTF_K_ARRAY = 4, CTF_K_FUNCTION = 5,
	CTF_K_STRUCT = 6, CTF_K_UNION = 7, CTF_K_ENUM = 8, CTF_K_FORWARD = 9, CTF_K_TYPEDEF = 10,
	CTF_K_VOLATILE = 11, CTF_K_CONST = 12, CTF_K_RESTRICT = 13,
};
#define CTF_INT_SIGNED 0x01
#define CTF_INT_CHAR 0x02
#define CTF_INT_BOOL 0x04
#define CTF_FP_SINGLE 1
#define CTF_FP_DOUBLE 2
#define CTF_FP_LDOUBLE 6
#define CTF_TYPE_INFO(kind, root, vlen) (((uint32_t)(kind) << 26) | ((uint32_t)(root) << 25) | \
					 ((uint32_t)(vlen) & 0xffffff))
#define CTF_HDR_SIZE 52

/* A type to write: one of ours, or a qualifier layer of one. */
struct ent {
	const struct dt_type *t;
	unsigned quals;		/* qualifiers still to write around t, or STRING_ARRAY */
};

/* The char[strsize] array under D's string typedef. */
#define STRING_ARRAY (~0u)

struct writer {
	struct dt_compiler *cc;
	DT_VEC(struct ent) ents;	/* id - 1 */
	struct dt_strbuf strs;
	struct dt_strbuf types;
	uint32_t long_id;		/* arrays' index type */
	int err;
};

static uint32_t add_str(struct writer *w, const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	uint32_t off = (uint32_t)w->strs.len;
	dt_sb_putn(&w->strs, s, strlen(s) + 1);
	return off;
}

static void put32(struct writer *w, uint32_t v)
{
	dt_sb_putn(&w->types, (const char *)&v, sizeof(v));
}

/* The id of a type, given one if new (its references get theirs when it is written). */
static uint32_t type_id(struct writer *w, const struct dt_type *t, unsigned quals)
{
	if (t == NULL)
		return 0;
	for (size_t i = 0; i < w->ents.n; i++)
		if (w->ents.v[i].t == t && w->ents.v[i].quals == quals)
			return (uint32_t)i + 1;
	struct ent e = { t, quals };
	if (dt_vec_push(&w->ents, e) < 0) {
		w->err = -ENOMEM;
		return 0;
	}
	return (uint32_t)w->ents.n;
}

static bool kernel_aggregate(const struct dt_type *t)
{
	return (t->kind == TK_STRUCT || t->kind == TK_UNION) && t->module != NULL;
}

static void write_type(struct writer *w, const struct ent *e)
{
	const struct dt_type *t = e->t;
	uint32_t name = add_str(w, t->name);

	if (e->quals == STRING_ARRAY) {
		put32(w, 0);
		put32(w, CTF_TYPE_INFO(CTF_K_ARRAY, 1, 0));
		put32(w, 0);
		put32(w, type_id(w, w->cc->core->types.t_char, 0));
		put32(w, w->long_id);
		put32(w, t->size);
		return;
	}
	/* Qualifiers wrap the type without them, outermost first. */
	if (e->quals != 0) {
		unsigned q = e->quals;
		int kind = (q & DS_CONST) ? CTF_K_CONST : (q & DS_VOLATILE) ? CTF_K_VOLATILE
									  : CTF_K_RESTRICT;
		unsigned rest = q & ~(unsigned)((q & DS_CONST) ? DS_CONST :
						(q & DS_VOLATILE) ? DS_VOLATILE : DS_RESTRICT);
		put32(w, 0);
		put32(w, CTF_TYPE_INFO(kind, 1, 0));
		put32(w, type_id(w, t, rest));
		return;
	}
	if (t->special != DT_SPECIAL_NONE && t->name != NULL) {
		/* stack, _symaddr, <DYN> ...: DTrace's typedefs of void. */
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_TYPEDEF, 1, 0));
		put32(w, type_id(w, w->cc->core->types.t_void, 0));
		return;
	}
	switch (t->kind) {
	case TK_VOID:
		put32(w, add_str(w, "void"));
		put32(w, CTF_TYPE_INFO(CTF_K_INTEGER, 1, 0));
		put32(w, 0);
		put32(w, CTF_INT_SIGNED << 24);
		break;
	case TK_INT:
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_INTEGER, 1, 0));
		put32(w, t->size);
		put32(w, ((uint32_t)((t->is_signed ? CTF_INT_SIGNED : 0) |
				     (t->is_char ? CTF_INT_CHAR : 0) |
				     (t->is_bool ? CTF_INT_BOOL : 0)) << 24) | (t->size * 8));
		break;
	case TK_FLOAT:
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_FLOAT, 1, 0));
		put32(w, t->size);
		put32(w, ((uint32_t)(t->size == 4 ? CTF_FP_SINGLE : t->size == 8 ? CTF_FP_DOUBLE
										 : CTF_FP_LDOUBLE) << 24) |
			 (t->size * 8));
		break;
	case TK_PTR:
		put32(w, 0);
		put32(w, CTF_TYPE_INFO(CTF_K_POINTER, 1, 0));
		put32(w, type_id(w, t->base, t->base ? t->base->quals : 0));
		break;
	case TK_STRING:
		/* D's string is DTrace's typedef of char[strsize]. */
		put32(w, add_str(w, "string"));
		put32(w, CTF_TYPE_INFO(CTF_K_TYPEDEF, 1, 0));
		put32(w, type_id(w, t, STRING_ARRAY));
		break;
	case TK_ARRAY:
		put32(w, 0);
		put32(w, CTF_TYPE_INFO(CTF_K_ARRAY, 1, 0));
		put32(w, 0);
		put32(w, type_id(w, t->base, t->base ? t->base->quals : 0));
		put32(w, w->long_id);
		put32(w, t->nelems);
		break;
	case TK_FUNC:
		put32(w, 0);
		put32(w, CTF_TYPE_INFO(CTF_K_FUNCTION, 1, t->nparams + (t->varargs ? 1 : 0)));
		put32(w, type_id(w, t->base, 0));
		for (uint32_t i = 0; i < t->nparams; i++)
			put32(w, type_id(w, t->params[i], 0));
		if (t->varargs)
			put32(w, 0);
		if ((t->nparams + (t->varargs ? 1 : 0)) % 2)
			put32(w, 0);
		break;
	case TK_STRUCT:
	case TK_UNION:
		if (kernel_aggregate(t) || !t->members_loaded) {
			put32(w, name);
			put32(w, CTF_TYPE_INFO(CTF_K_FORWARD, 1, 0));
			put32(w, t->kind == TK_STRUCT ? CTF_K_STRUCT : CTF_K_UNION);
			break;
		}
		put32(w, name);
		put32(w, CTF_TYPE_INFO(t->kind == TK_STRUCT ? CTF_K_STRUCT : CTF_K_UNION, 1,
				       t->nmembers));
		put32(w, t->size);
		for (uint32_t i = 0; i < t->nmembers; i++) {
			const struct dt_member *m = &t->members[i];
			put32(w, add_str(w, m->name));
			put32(w, m->offset_bits);
			put32(w, type_id(w, m->type, m->type ? m->type->quals : 0));
		}
		break;
	case TK_ENUM:
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_ENUM, 1, t->nenums));
		put32(w, t->size);
		for (uint32_t i = 0; i < t->nenums; i++) {
			put32(w, add_str(w, t->enums[i].name));
			put32(w, (uint32_t)(int32_t)t->enums[i].value);
		}
		break;
	case TK_TYPEDEF:
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_TYPEDEF, 1, 0));
		put32(w, type_id(w, t->base, t->base ? t->base->quals : 0));
		break;
	case TK_FWD:
		put32(w, name);
		put32(w, CTF_TYPE_INFO(CTF_K_FORWARD, 1, 0));
		put32(w, CTF_K_STRUCT);
		break;
	}
}

/* Whether a named type belongs in the C container (intrinsics) or the D one. */
static bool intrinsic(const char *key, const struct dt_type *t)
{
	return (t->kind == TK_INT || t->kind == TK_FLOAT || t->kind == TK_VOID) &&
	       t->special == DT_SPECIAL_NONE && t->name != NULL && strcmp(key, t->name) == 0;
}

int dt_ctf_write(struct dt_compiler *cc, int fd, bool dtypes)
{
	struct writer w = { .cc = cc };
	const char *key;
	void *val;

	dt_sb_init(&w.strs);
	dt_sb_init(&w.types);
	dt_sb_putn(&w.strs, "", 1);
	w.long_id = type_id(&w, cc->core->types.t_long, 0);
	for (size_t i = 0; dt_htab_next(&cc->core->types.names, &i, &key, &val);) {
		const struct dt_type *t = val;
		if (t->module == NULL && intrinsic(key, t) != dtypes)
			type_id(&w, t, 0);
	}
	if (dtypes)
		type_id(&w, cc->core->types.t_string, 0);
	/* Writing a type may give ids to the ones it refers to: they follow. */
	for (size_t i = 0; i < w.ents.n && w.err == 0; i++) {
		struct ent e = w.ents.v[i];
		write_type(&w, &e);
	}
	int rc = w.err;
	if (rc == 0 && (w.strs.s == NULL || w.types.s == NULL))
		rc = -ENOMEM;
	if (rc == 0) {
		uint32_t hdr[CTF_HDR_SIZE / 4] = { 0 };
		hdr[0] = CTF_MAGIC | (CTF_VERSION_3 << 16);
		/* Labels, objects, functions, their indexes and variables are all empty. */
		for (int k = 4; k <= 10; k++)
			hdr[k] = 0;
		hdr[11] = (uint32_t)w.types.len;	/* the strings follow the types */
		hdr[12] = (uint32_t)w.strs.len;
		if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
		    write(fd, hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr) ||
		    write(fd, w.types.s, w.types.len) != (ssize_t)w.types.len ||
		    write(fd, w.strs.s, w.strs.len) != (ssize_t)w.strs.len)
			rc = -errno;
	}
	dt_sb_free(&w.strs);
	dt_sb_free(&w.types);
	dt_vec_free(&w.ents);
	if (rc < 0)
		dt_dprintf(cc->core, "failed to update CTF cache: %s\n", strerror(-rc));
	return rc;
}
