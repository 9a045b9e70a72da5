/*
 * Types named by declarations, with DTrace's checks: declaration
 * specifiers and their combinations, struct, union and enum definitions,
 * and declarators (pointers, arrays, function and array prototypes).
 */
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"

#define INT_MODS (DS_SIGNED | DS_UNSIGNED | DS_SHORT | DS_LONG | DS_LONGLONG)
#define SIZE_MODS (DS_SHORT | DS_LONG | DS_LONGLONG)

static _Noreturn void nomem(struct dt_pcb *pcb, int line)
{
	(void)line;
	dt_cnomem(pcb);
}

/* ---- Declaration specifiers ---- */

/*
 * The name DTrace builds for an integer or floating-point specifier and
 * looks up: the modifiers in a fixed order ("short long " for "long
 * short"), then the base name unless a size modifier replaces "int".
 */
static void arith_name(const struct dt_declspec *ds, char *buf, size_t len)
{
	unsigned b = ds->bits;
	const char *base = ds->ts == TS_CHAR ? "char" : ds->ts == TS_INT ? "int"
			 : ds->ts == TS_FLOAT ? "float" : ds->ts == TS_DOUBLE ? "double" : NULL;
	bool is_float = ds->ts == TS_FLOAT || ds->ts == TS_DOUBLE;

	snprintf(buf, len, "%s%s%s%s%s", b & DS_SIGNED ? "signed " : "",
		 b & DS_UNSIGNED ? "unsigned " : "", b & DS_SHORT ? "short " : "",
		 b & DS_LONG ? "long " : "", b & DS_LONGLONG ? "long long " : "");
	if (base != NULL && (is_float || !(b & SIZE_MODS)))
		strncat(buf, base, len - strlen(buf) - 1);
	else if (base == NULL && b == 0)
		strncat(buf, "int", len - strlen(buf) - 1);
}

/* The intrinsic integer a valid combination of modifiers names, or NULL. */
static struct dt_type *int_type(struct dt_typetab *tt, enum dt_tspec ts, unsigned b)
{
	bool uns = b & DS_UNSIGNED;

	if ((b & DS_SIGNED) && uns)
		return NULL;
	if (ts == TS_CHAR)
		return uns ? tt->t_uchar : (b & DS_SIGNED) ? tt->t_schar : tt->t_char;
	if ((b & DS_SHORT) && (b & (DS_LONG | DS_LONGLONG)))
		return NULL;
	if ((b & DS_LONG) && (b & DS_LONGLONG))
		return NULL;
	/* "const x": DTrace looks up an empty name. */
	if (ts == TS_NONE && (b & INT_MODS) == 0 && b != 0)
		return NULL;
	if (b & DS_SHORT)
		return uns ? tt->t_ushort : tt->t_short;
	if (b & DS_LONGLONG)
		return uns ? tt->t_ullong : tt->t_llong;
	if (b & DS_LONG)
		return uns ? tt->t_ulong : tt->t_long;
	return uns ? tt->t_uint : tt->t_int;
}

static struct dt_type *float_type(struct dt_typetab *tt, enum dt_tspec ts, unsigned b)
{
	if (b & (DS_SHORT | DS_LONGLONG))
		return NULL;
	if (ts == TS_FLOAT)
		return (b & DS_LONG) ? NULL : tt->t_float;
	if (b & DS_LONG) {
		struct dt_type *ld = dt_type_lookup(tt, "long double");
		return ld != NULL ? ld : tt->t_double;
	}
	return tt->t_double;
}

static struct dt_type *define_sou(struct dt_pcb *pcb, struct dt_declspec *ds);
static struct dt_type *define_enum(struct dt_pcb *pcb, struct dt_declspec *ds);

/*
 * DTrace's checks of the modifiers given with a type (dt_decl_check):
 * char and void take few of them, other named types no sign, and only
 * integers and floating point a length.  A short with a named type is
 * ignored, as in DTrace.
 */
static void check_mods(struct dt_pcb *pcb, const struct dt_declspec *ds, int line)
{
	unsigned b = ds->bits;

	switch (ds->ts) {
	case TS_CHAR:
		if (b & SIZE_MODS)
			dt_cerror(pcb, "D_DECL_CHARATTR", line,
				  "invalid type declaration: short and long may not be used with char type");
		break;
	case TS_VOID:
		if (b & INT_MODS)
			dt_cerror(pcb, "D_DECL_VOIDATTR", line,
				  "invalid type declaration: attributes may not be used with void type");
		break;
	case TS_NONE:
	case TS_INT:
		break;
	default:
		if (b & (DS_SIGNED | DS_UNSIGNED))
			dt_cerror(pcb, "D_DECL_SIGNINT", line,
				  "invalid type declaration: signed and unsigned may only be used with integer type");
		if (ds->ts != TS_FLOAT && ds->ts != TS_DOUBLE && (b & (DS_LONG | DS_LONGLONG)))
			dt_cerror(pcb, "D_DECL_LONGINT", line,
				  "invalid type declaration: long and long long may only be used with integer or floating-point type");
		break;
	}
}

static struct dt_type *base_type(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	int line = ds->tag_line ? ds->tag_line : ds->line;
	struct dt_type *t = NULL;
	char name[64];

	check_mods(pcb, ds, line);
	switch (ds->ts) {
	case TS_VOID:
		t = tt->t_void;
		break;
	case TS_NONE:
	case TS_INT:
	case TS_CHAR:
	case TS_FLOAT:
	case TS_DOUBLE:
		t = ds->ts == TS_FLOAT || ds->ts == TS_DOUBLE ? float_type(tt, ds->ts, ds->bits)
							       : int_type(tt, ds->ts, ds->bits);
		if (t == NULL) {
			arith_name(ds, name, sizeof(name));
			dt_cerror(pcb, "D_UNKNOWN", ds->line,
				  "failed to resolve type %s: Unknown type name", name);
		}
		break;
	case TS_STRING:
		t = tt->t_string;
		break;
	case TS_NAME:
		t = dt_type_lookup(tt, ds->name);
		if (t == NULL)
			dt_cerror(pcb, "D_TYPE_ERR", ds->line, "failed to resolve type %s: Unknown type name",
				  ds->name);
		break;
	case TS_STRUCT:
	case TS_UNION:
	case TS_ENUM:
		/* "struct s { ... } a, b;" defines s once. */
		if (ds->defined == NULL)
			ds->defined = ds->ts == TS_ENUM ? define_enum(pcb, ds) : define_sou(pcb, ds);
		t = ds->defined;
		break;
	}
	if (t == NULL)
		nomem(pcb, ds->line);
	unsigned q = ds->bits & (DS_CONST | DS_VOLATILE | DS_RESTRICT);
	if (q)
		t = dt_type_qualified(tt, t, q);
	if (ds->bits & DS_USERLAND) {
		struct dt_type *u = dt_type_qualified(tt, t, 0);
		if (u == t) {
			u = dt_arena_alloc(&tt->arena, sizeof(*u));
			if (u == NULL)
				nomem(pcb, ds->line);
			*u = *t;
			u->ptr_to = NULL;
		}
		u->userland = true;
		t = u;
	}
	return t;
}

static const char *tag_key(struct dt_declspec *ds, char *buf, size_t len)
{
	const char *kw = ds->ts == TS_STRUCT ? "struct" : ds->ts == TS_UNION ? "union" : "enum";

	snprintf(buf, len, "%s %s", kw, ds->name);
	return buf;
}

/*
 * "struct s", "union u" or "enum e" without a body: the type of that name,
 * or a forward declaration of it, completed if defined later.
 */
static struct dt_type *tag_reference(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	char key[300];
	struct dt_type *t;

	tag_key(ds, key, sizeof(key));
	t = dt_htab_get(&tt->names, key);
	if (t == NULL)
		t = dt_type_lookup(tt, key);
	if (t != NULL)
		return t;
	if (strchr(ds->name, '`') != NULL)
		dt_cerror(pcb, "D_TYPE_ERR", ds->line, "failed to resolve type %s: Unknown type name", key);
	t = dt_type_new(tt, TK_FWD, ds->name);
	if (t == NULL || dt_type_define(tt, key, t) < 0)
		nomem(pcb, ds->line);
	t->fwd_kind = ds->ts == TS_STRUCT ? TK_STRUCT : ds->ts == TS_UNION ? TK_UNION : TK_ENUM;
	return t;
}

/* A bit-field's width, as DTrace checks it; 0 for an unnamed zero-width one. */
static uint32_t bitfield_width(struct dt_pcb *pcb, struct dt_node *d, struct dt_type *mt,
			       const char *name)
{
	const char *idname = name ? name : "(anon)";
	int line = d->decl.end_line;
	struct dt_node *w = d->decl.bitwidth;

	dt_sema_expr(pcb, w);
	/* "int : 0" ends the storage unit; DTrace ignores it. */
	if (name == NULL && (w->flags & DN_CONST) && w->cval == 0)
		return 0;
	bool posconst = (w->flags & DN_CONST) && w->cval != 0 &&
			(!dt_type_is_signed(w->type) || w->cval > 0);
	if (!posconst)
		dt_cerror(pcb, "D_DECL_BFCONST", line,
			  "positive integral constant expression expected as bit-field size");
	struct dt_type *b = dt_type_base(mt);
	if (b == NULL || b->kind != TK_INT)
		dt_cerror(pcb, "D_DECL_BFTYPE", line, "invalid type for bit-field: %s", idname);
	if ((uint64_t)w->cval > (uint64_t)b->size * 8)
		dt_cerror(pcb, "D_DECL_BFSIZE", line, "bit-field too big for type: %s", idname);
	return (uint32_t)w->cval;
}

/* DTrace's checks of a member's type (dt_decl_member). */
static void check_member(struct dt_pcb *pcb, struct dt_node *d, struct dt_type *mt,
			 const struct dt_sema_decl *info)
{
	const char *name = info->name;
	int line = d->decl.end_line;

	if (name != NULL && strchr(name, '`') != NULL)
		dt_cerror(pcb, "D_DECL_SCOPE", line,
			  "D scoping operator may not be used in a member name (%s)", name);
	if (info->assoc)
		dt_cerror(pcb, "D_DECL_DYNOBJ", line, "cannot have dynamic member: %s",
			  name ? name : "(null)");
	struct dt_type *b = dt_type_base(mt);
	/* A function has no size in DTrace's types. */
	uint32_t size = b->kind == TK_FUNC ? 0 : dt_type_size(mt);
	/* A struct being defined has no size yet: it cannot contain itself. */
	if (b->kind == TK_FWD || ((b->kind == TK_STRUCT || b->kind == TK_UNION) && size == 0))
		dt_cerror(pcb, "D_DECL_INCOMPLETE", line, "incomplete struct/union/enum %s: %s",
			  dt_sema_typestr(pcb, mt), name ? name : "(null)");
	if (size == 0)
		dt_cerror(pcb, "D_DECL_VOIDOBJ", line, "cannot have void member: %s",
			  name ? name : "(null)");
}

const char *dt_sema_tag_key(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	char key[300];

	return dt_pstrdup(pcb, tag_key(ds, key, sizeof(key)));
}

/*
 * A tag's body begins ('{' just read): DTrace's grammar declares the tag
 * there, so a redeclaration is reported before the members are read (their
 * own errors come after): a tag this program gave a body before
 * (seen_here), or, as define_sou and define_enum decide, one the handle
 * has as a complete struct or union, or as any enum.  The D library's
 * declarations are left to those (each may fail alone, dlib.c).
 */
void dt_sema_tag_body(struct dt_pcb *pcb, struct dt_declspec *ds, bool seen_here)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	char key[300];

	tag_key(ds, key, sizeof(key));
	struct dt_type *t = pcb->is_dlib ? NULL : dt_htab_get(&tt->names, key);
	if (seen_here || (t != NULL && (ds->ts == TS_ENUM || t->kind != TK_FWD)))
		dt_cerror(pcb, "D_DECL_TYPERED", ds->tag_line ? ds->tag_line : ds->line,
			  "type redeclared: %s", key);
}

static struct dt_type *define_sou(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	enum dt_tkind kind = ds->ts == TS_STRUCT ? TK_STRUCT : TK_UNION;
	char key[300];
	struct dt_type *t = NULL;

	if (ds->name != NULL && !ds->has_body)
		return tag_reference(pcb, ds);
	if (ds->name != NULL) {
		tag_key(ds, key, sizeof(key));
		t = dt_htab_get(&tt->names, key);
		if (t != NULL && t->kind != TK_FWD)
			dt_cerror(pcb, "D_DECL_TYPERED", ds->tag_line ? ds->tag_line : ds->line,
				  "type redeclared: %s", key);
	}
	if (t == NULL) {
		t = dt_type_new(tt, kind, ds->name);
		if (t == NULL || (ds->name != NULL && dt_type_define(tt, key, t) < 0))
			nomem(pcb, ds->line);
	}
	/* Incomplete until its closing brace: size 0 meanwhile. */
	t->kind = kind;
	t->size = 0;

	int n = dt_node_list_len(ds->members);
	struct dt_member *m = dt_arena_zalloc(&tt->arena, sizeof(*m) * (size_t)(n + 1));
	if (m == NULL)
		nomem(pcb, ds->line);
	uint32_t off = 0, maxalign = 1, size = 0, i = 0;
	bool has_bitfields = false;
	for (struct dt_node *d = ds->members; d != NULL; d = d->next) {
		struct dt_sema_decl info;
		struct dt_type *mt = dt_sema_typename_info(pcb, d->decl.spec, d->decl.decl, &info);
		check_member(pcb, d, mt, &info);
		struct dt_type *bt = dt_type_base(mt);
		uint32_t w = 0;
		if (d->decl.bitwidth != NULL) {
			w = bitfield_width(pcb, d, mt, info.name);
			if (w == 0)
				continue;
		}
		for (uint32_t j = 0; info.name != NULL && j < i; j++)
			if (m[j].name != NULL && strcmp(m[j].name, info.name) == 0)
				dt_cerror(pcb, "D_UNKNOWN", d->decl.end_line,
					  "failed to define member '%s': Duplicate member or variable name",
					  info.name);
		uint32_t msize = dt_type_size(mt);
		uint32_t malign = bt->kind == TK_ARRAY ? dt_type_base(bt->base)->align : bt->align;
		if (malign == 0)
			malign = 1;
		m[i].name = info.name ? dt_arena_strdup(&tt->arena, info.name) : NULL;
		m[i].type = mt;
		if (w != 0) {
			/*
			 * As DTrace lays out a D struct: a bit-field has bytes of its
			 * own, as many as its bits need, aligned to the largest power
			 * of two not above that.
			 */
			uint32_t nbytes = (w + 7) / 8, balign = 1;
			while (balign * 2 <= nbytes)
				balign *= 2;
			has_bitfields = true;
			m[i].bitsize = w;
			msize = nbytes;
			malign = balign;
		}
		if (kind == TK_STRUCT) {
			off = DT_ALIGN(off, malign);
			m[i].offset_bits = off * 8;
			off += msize;
			size = off;
		} else {
			m[i].offset_bits = 0;
			size = DT_MAX(size, msize);
		}
		if (malign > maxalign)
			maxalign = malign;
		i++;
	}
	t->members = m;
	t->nmembers = i;
	t->members_loaded = true;
	t->align = maxalign;
	/* A struct with bit-fields is not padded at its end (DTrace's sizes). */
	t->size = has_bitfields ? size : DT_ALIGN(size, maxalign);
	t->module = NULL;
	return t;
}

/* An enumerator's value: an integer constant that fits an int. */
static int32_t enumerator_value(struct dt_pcb *pcb, struct dt_enumerator *e, int32_t next)
{
	if (e->value == NULL)
		return next;
	dt_sema_expr(pcb, e->value);
	if (!(e->value->flags & DN_CONST) || !dt_type_is_integer(e->value->type))
		dt_cerror(pcb, "D_DECL_ENCONST", e->end_line,
			  "enumerator '%s' must be assigned to an integral constant expression",
			  e->name);
	int64_t v = e->value->cval;
	/* A 64-bit unsigned value is compared as DTrace does, as a signed one. */
	if (v > INT32_MAX || v < INT32_MIN)
		dt_cerror(pcb, "D_DECL_ENOFLOW", e->end_line,
			  "enumerator '%s' value overflows INT_MAX (%d)", e->name, INT32_MAX);
	return (int32_t)v;
}

static struct dt_type *define_enum(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	char key[300];
	struct dt_type *t;

	if (!ds->has_body)
		return tag_reference(pcb, ds);
	t = dt_type_new(tt, TK_ENUM, ds->name);
	if (t == NULL)
		nomem(pcb, ds->line);
	t->size = t->align = 4;
	t->is_signed = true;
	if (ds->name != NULL) {
		/* A forward reference counts as a declaration, as in DTrace. */
		tag_key(ds, key, sizeof(key));
		if (dt_htab_get(&tt->names, key) != NULL)
			dt_cerror(pcb, "D_DECL_TYPERED", ds->tag_line ? ds->tag_line : ds->line,
				  "type redeclared: %s", key);
		if (dt_type_define(tt, key, t) < 0)
			nomem(pcb, ds->line);
	}
	int n = 0;
	for (struct dt_enumerator *e = ds->enums; e; e = e->next)
		n++;
	t->enums = dt_arena_zalloc(&tt->arena, sizeof(*t->enums) * (size_t)(n + 1));
	if (t->enums == NULL)
		nomem(pcb, ds->line);
	int32_t v = -1;
	for (struct dt_enumerator *e = ds->enums; e; e = e->next) {
		if (strchr(e->name, '`') != NULL)
			dt_cerror(pcb, "D_DECL_SCOPE", e->end_line,
				  "D scoping operator may not be used in an enumerator name (%s)", e->name);
		/* Past INT_MAX the next value wraps, as DTrace's int does. */
		v = enumerator_value(pcb, e, (int32_t)((uint32_t)v + 1));
		for (uint32_t j = 0; j < t->nenums; j++)
			if (strcmp(t->enums[j].name, e->name) == 0)
				dt_cerror(pcb, "D_UNKNOWN", e->end_line,
					  "failed to define enumerator '%s': Duplicate member or variable name",
					  e->name);
		/* D's enumerators are global names: none may already be one. */
		if (dt_sema_resolve(pcb, e->name) != NULL)
			dt_cerror(pcb, "D_DECL_IDRED", e->end_line, "identifier redeclared: %s", e->name);
		struct dt_ident *id = dt_ident_user_add(pcb->cc, IDK_ENUM, e->name, e->line);
		if (id == NULL)
			nomem(pcb, e->line);
		id->value = v;
		id->type = t;
		id->flags |= IDF_DEFINED;
		t->enums[t->nenums].name = id->name;
		t->enums[t->nenums++].value = v;
	}
	return t;
}

/* ---- Declarators ---- */

/* The kinds of prototype DTrace checks, and what each allows (dt_decl_prototype). */
struct proto_rules {
	const char *kind;	/* "array", "function" */
	bool varargs, void_ok, anon;
};

struct param {
	struct dt_type *type;
	const char *name;
	bool dynamic;
	int line;
};

/* A prototype's parameters, each checked for its storage class as it is read. */
static struct param *read_params(struct dt_pcb *pcb, struct dt_node *list, int *np)
{
	int n = dt_node_list_len(list), i = 0;
	struct param *v = dt_palloc(pcb, sizeof(*v) * (size_t)(n + 1));

	for (struct dt_node *p = list; p != NULL; p = p->next, i++) {
		struct dt_sema_decl pi;
		enum dt_dclass dc = p->decl.spec->dclass;
		if (dc != DC_NONE && dc != DC_REGISTER)
			dt_cerror(pcb, "D_DECL_PARMCLASS", p->decl.end_line,
				  "inappropriate storage class for function or associative array parameter");
		v[i].type = dt_sema_typename_info(pcb, p->decl.spec, p->decl.decl, &pi);
		v[i].name = pi.name;
		v[i].dynamic = pi.assoc;
		v[i].line = p->decl.end_line;
	}
	*np = n;
	return v;
}

static void check_proto(struct dt_pcb *pcb, const struct param *v, int n,
			const struct dt_declarator *d, const struct proto_rules *r)
{
	int nvoid = 0;

	for (int i = 0; i < n; i++) {
		const char *name = v[i].name;
		bool is_void = !v[i].dynamic && dt_type_is_void(v[i].type);
		if (v[i].dynamic)
			dt_cerror(pcb, "D_DECL_PROTO_TYPE", v[i].line,
				  "%s prototype may not use parameter of type dynamic variable: %s, parameter #%d",
				  r->kind, name ? name : "(anonymous)", i + 1);
		nvoid += is_void;
		if (is_void && !r->void_ok)
			dt_cerror(pcb, "D_DECL_PROTO_TYPE", v[i].line,
				  "%s prototype may not use parameter of type %s: %s, parameter #%d",
				  r->kind, dt_sema_typestr(pcb, v[i].type), name ? name : "(anonymous)",
				  i + 1);
		if (is_void && name != NULL)
			dt_cerror(pcb, "D_DECL_PROTO_NAME", v[i].line,
				  "void parameter may not have a name: %s", name);
		for (int j = 0; name != NULL && j < i; j++)
			if (v[j].name != NULL && strcmp(v[j].name, name) == 0)
				dt_cerror(pcb, "D_DECL_PROTO_FORM", v[i].line,
					  "parameter is already declared in %s prototype: %s, parameter #%d",
					  r->kind, name, i + 1);
		if (name == NULL && !is_void && !r->anon)
			dt_cerror(pcb, "D_DECL_PROTO_NAME", v[i].line,
				  "parameter declaration requires a name: parameter #%d", i + 1);
	}
	if (d->varargs && !r->varargs)
		dt_cerror(pcb, "D_DECL_PROTO_VARARGS", d->varargs_line,
			  "%s prototype may not use a variable-length argument list", r->kind);
	if (nvoid != 0 && n + d->varargs > 1)
		dt_cerror(pcb, "D_DECL_PROTO_VOID", d->end_line, "void must be sole parameter");
}

static const struct proto_rules array_rules = { "array", false, false, true };
static const struct proto_rules func_rules = { "function", true, true, true };

/* "[type, ...]": an associative array's key types. */
static void assoc_keys(struct dt_pcb *pcb, struct dt_declarator *c, struct dt_sema_decl *info)
{
	int n;
	struct param *v = read_params(pcb, c->params, &n);

	check_proto(pcb, v, n, c, &array_rules);
	info->keys = dt_palloc(pcb, sizeof(*info->keys) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		info->keys[i] = v[i].type;
	info->nkeys = n;
	info->assoc = true;
}

/* "[n]": DTrace wants a positive integer constant that fits an unsigned int. */
static uint32_t array_dim(struct dt_pcb *pcb, struct dt_declarator *c)
{
	struct dt_node *dim = c->dim;

	dt_sema_expr(pcb, dim);
	bool posconst = (dim->flags & DN_CONST) && dt_type_is_integer(dim->type) && dim->cval != 0 &&
			(!dt_type_is_signed(dim->type) || dim->cval > 0);
	if (!posconst)
		dt_cerror(pcb, "D_DECL_ARRSUB", c->end_line,
			  "positive integral constant expression or tuple signature expected as array declaration subscript");
	if ((uint64_t)dim->cval > UINT32_MAX)
		dt_cerror(pcb, "D_DECL_ARRBIG", c->end_line, "array dimension too big");
	return (uint32_t)dim->cval;
}

static struct dt_type *func_type(struct dt_pcb *pcb, struct dt_type *ret, struct dt_declarator *c)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	struct dt_type *f = dt_type_new(tt, TK_FUNC, NULL);
	int n;
	struct param *v = read_params(pcb, c->params, &n);

	if (f == NULL)
		nomem(pcb, c->line);
	check_proto(pcb, v, n, c, &func_rules);
	f->base = ret;
	f->params = dt_arena_zalloc(&tt->arena, sizeof(*f->params) * (size_t)(n + 1));
	if (f->params == NULL)
		nomem(pcb, c->line);
	/* "(void)": no parameters. */
	for (int i = 0; i < n; i++)
		if (!dt_type_is_void(v[i].type))
			f->params[f->nparams++] = v[i].type;
	f->varargs = c->varargs;
	f->size = 1;
	return f;
}

struct dt_type *dt_sema_typename_info(struct dt_pcb *pcb, struct dt_declspec *ds,
				      struct dt_declarator *d, struct dt_sema_decl *info)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	struct dt_type *t = base_type(pcb, ds);
	struct dt_declarator *chain[64];
	int n = 0;

	memset(info, 0, sizeof(*info));
	for (; d != NULL && n < (int)ARRAY_SIZE(chain); d = d->outer)
		chain[n++] = d;
	/* Apply from the base type outwards to the name. */
	for (int i = n - 1; i >= 0; i--) {
		struct dt_declarator *c = chain[i];
		switch (c->kind) {
		case DK_NAME:
			info->name = c->name;
			break;
		case DK_PTR:
			t = dt_type_ptr(tt, t);
			if (t != NULL && c->quals)
				t = dt_type_qualified(tt, t, c->quals);
			break;
		case DK_ARRAY:
			if (dt_type_is_void(t))
				dt_cerror(pcb, "D_DECL_VOIDOBJ", c->end_line, "cannot declare array of void");
			/* "a[4][int]": the keys must come first. */
			if (c->assoc && i > 0 && chain[i - 1]->kind == DK_ARRAY)
				dt_cerror(pcb, "D_DECL_DYNOBJ", c->end_line,
					  "cannot declare array of associative arrays");
			if (c->assoc) {
				/* The value type stays; the keys say how it is found. */
				assoc_keys(pcb, c, info);
				break;
			}
			t = dt_type_array(tt, t, c->dim == NULL ? 0 : array_dim(pcb, c));
			break;
		case DK_FUNC:
			t = func_type(pcb, t, c);
			break;
		}
		if (t == NULL)
			nomem(pcb, c->line);
	}
	/* What the name is declared as: the declarator next to it. */
	struct dt_declarator *top = n > 1 ? chain[1] : NULL;
	info->assoc = top != NULL && top->kind == DK_ARRAY && top->assoc;
	info->arrnull = top != NULL && top->kind == DK_ARRAY && !top->assoc && top->dim == NULL;
	info->scalar_array = top != NULL && top->kind == DK_ARRAY && !top->assoc && top->dim != NULL;
	return t;
}

struct dt_type *dt_sema_typename(struct dt_pcb *pcb, struct dt_declspec *ds,
				 struct dt_declarator *d, const char **namep)
{
	struct dt_sema_decl info;
	struct dt_type *t = dt_sema_typename_info(pcb, ds, d, &info);

	if (namep)
		*namep = info.name;
	return t;
}
