/*
 * Semantic analysis of declarations, type names and clauses.  Expressions
 * are checked in sema_expr.c, calls in sema_call.c.
 */
#include "compiler/sema.h"

#include <string.h>

#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"
#include "compiler/types.h"
#include "compiler/xlator.h"
#include "lib/dt_impl.h"

const char *dt_sema_typestr(struct dt_pcb *pcb, struct dt_type *t)
{
	return dt_type_str(&pcb->hdl->types, t);
}

int64_t dt_sema_const(struct dt_pcb *pcb, struct dt_node *n, const char *tag, const char *what)
{
	dt_sema_expr(pcb, n);
	if (!(n->flags & DN_CONST))
		dt_cerror(pcb, tag, n->line, "%s", what);
	return n->cval;
}

/* ---- Type names ---- */

/* Integer modifiers as DTrace spells a type name it then fails to find ("short long "). */
static void unknown_int(struct dt_pcb *pcb, unsigned bits, int line)
{
	dt_cerror(pcb, "D_UNKNOWN", line, "failed to resolve type %s%s%s%s%s: Unknown type name",
		  bits & DS_SIGNED ? "signed " : "", bits & DS_UNSIGNED ? "unsigned " : "",
		  bits & DS_SHORT ? "short " : "", bits & DS_LONG ? "long " : "",
		  bits & DS_LONGLONG ? "long long " : "");
}

static struct dt_type *int_from_bits(struct dt_pcb *pcb, unsigned bits, int line)
{
	struct dt_typetab *tt = &pcb->hdl->types;
	bool uns = bits & DS_UNSIGNED;

	if (((bits & DS_SIGNED) && uns) || ((bits & DS_SHORT) && (bits & (DS_LONG | DS_LONGLONG))))
		unknown_int(pcb, bits, line);
	if (bits & DS_SHORT)
		return uns ? tt->t_ushort : tt->t_short;
	if (bits & DS_LONGLONG)
		return uns ? tt->t_ullong : tt->t_llong;
	if (bits & DS_LONG)
		return uns ? tt->t_ulong : tt->t_long;
	return uns ? tt->t_uint : tt->t_int;
}

/* DTrace's checks of modifiers on a type that is not an integer. */
static void check_nonint_mods(struct dt_pcb *pcb, unsigned mods, bool is_float, int line)
{
	if (mods & (DS_SIGNED | DS_UNSIGNED))
		dt_cerror(pcb, "D_DECL_SIGNINT", line,
			  "invalid type declaration: signed and unsigned may only be used with integer type");
	if (!is_float && (mods & (DS_LONG | DS_LONGLONG)))
		dt_cerror(pcb, "D_DECL_LONGINT", line,
			  "invalid type declaration: long and long long may only be used with integer or floating-point type");
	if (mods)
		unknown_int(pcb, mods, line);
}

static struct dt_type *define_sou(struct dt_pcb *pcb, struct dt_declspec *ds);
static struct dt_type *define_enum(struct dt_pcb *pcb, struct dt_declspec *ds);

static struct dt_type *base_type(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->hdl->types;
	unsigned bits = ds->bits;
	unsigned mods = bits & (DS_SIGNED | DS_UNSIGNED | DS_SHORT | DS_LONG | DS_LONGLONG);
	struct dt_type *t = NULL;

	switch (ds->ts) {
	case TS_NONE:
		/* "self x;": a storage class alone declares an int, as in C. */
		if (mods == 0 && !(bits & (DS_CONST | DS_VOLATILE | DS_RESTRICT)) &&
		    ds->dclass == DC_NONE)
			dt_cerror(pcb, "D_SYNTAX", ds->line, "syntax error near type");
		t = int_from_bits(pcb, bits, ds->line);
		break;
	case TS_VOID:
		if (mods)
			dt_cerror(pcb, "D_DECL_VOIDATTR", ds->line,
				  "invalid type declaration: attributes may not be used with void type");
		t = tt->t_void;
		break;
	case TS_CHAR:
		if (bits & (DS_SHORT | DS_LONG | DS_LONGLONG))
			dt_cerror(pcb, "D_DECL_CHARATTR", ds->line,
				  "invalid type declaration: short and long may not be used with char type");
		if ((bits & DS_SIGNED) && (bits & DS_UNSIGNED))
			unknown_int(pcb, bits, ds->line);
		t = (bits & DS_UNSIGNED) ? tt->t_uchar : (bits & DS_SIGNED) ? tt->t_schar : tt->t_char;
		break;
	case TS_INT:
		t = int_from_bits(pcb, bits, ds->line);
		break;
	case TS_FLOAT:
	case TS_DOUBLE:
		check_nonint_mods(pcb, mods & ~DS_LONG, true, ds->line);
		t = ds->ts == TS_FLOAT ? tt->t_float : tt->t_double;
		break;
	case TS_STRING:
		check_nonint_mods(pcb, mods, false, ds->line);
		t = tt->t_string;
		break;
	case TS_NAME:
		t = dt_type_lookup(tt, ds->name);
		if (t == NULL)
			dt_cerror(pcb, "D_TYPE_ERR", ds->line, "failed to resolve type %s: Unknown type name",
				  ds->name);
		if (mods & (DS_LONG | DS_LONGLONG | DS_SHORT)) {
			if (!dt_type_is_integer(t))
				dt_cerror(pcb, "D_DECL_LONGINT", ds->line,
					  "invalid type declaration: long and long long may only be used with integer or floating-point type");
		}
		if (mods & (DS_SIGNED | DS_UNSIGNED))
			dt_cerror(pcb, "D_DECL_SIGNINT", ds->line,
				  "invalid type declaration: signed and unsigned may only be used with integer type");
		break;
	case TS_STRUCT:
	case TS_UNION:
		check_nonint_mods(pcb, mods, false, ds->tag_line ? ds->tag_line : ds->line);
		t = define_sou(pcb, ds);
		break;
	case TS_ENUM:
		check_nonint_mods(pcb, mods, false, ds->tag_line ? ds->tag_line : ds->line);
		t = define_enum(pcb, ds);
		break;
	}
	if (t == NULL)
		dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	unsigned q = bits & (DS_CONST | DS_VOLATILE | DS_RESTRICT);
	if (q)
		t = dt_type_qualified(tt, t, q);
	if (bits & DS_USERLAND) {
		struct dt_type *u = dt_type_qualified(tt, t, 0);
		if (u == t) {
			u = dt_arena_alloc(&tt->arena, sizeof(*u));
			if (u == NULL)
				dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
			*u = *t;
			u->ptr_to = NULL;
		}
		u->userland = true;
		t = u;
	}
	return t;
}

static const char *sou_key(struct dt_declspec *ds, char *buf, size_t len)
{
	const char *kw = ds->ts == TS_STRUCT ? "struct" : ds->ts == TS_UNION ? "union" : "enum";

	snprintf(buf, len, "%s %s", kw, ds->name);
	return buf;
}

static struct dt_type *define_sou(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->hdl->types;
	enum dt_tkind kind = ds->ts == TS_STRUCT ? TK_STRUCT : TK_UNION;
	char key[300];
	struct dt_type *t = NULL;

	if (ds->name != NULL) {
		sou_key(ds, key, sizeof(key));
		t = dt_htab_get(&tt->names, key);
		if (!ds->has_body) {
			if (t == NULL)
				t = dt_type_lookup(tt, key);
			if (t == NULL && strchr(ds->name, '`') != NULL)
				dt_cerror(pcb, "D_TYPE_ERR", ds->line,
					  "failed to resolve type %s: Unknown type name", key);
			if (t == NULL) {
				/* A forward declaration, completed later if defined. */
				t = dt_type_new(tt, TK_FWD, ds->name);
				if (t == NULL || dt_type_define(tt, key, t) < 0)
					dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
			}
			return t;
		}
		if (t != NULL && t->kind != TK_FWD && t->members_loaded)
			dt_cerror(pcb, "D_DECL_TYPERED", ds->line, "type redeclared: %s", key);
	}
	if (t == NULL || t->kind != TK_FWD) {
		t = dt_type_new(tt, kind, ds->name);
		if (t == NULL)
			dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
		if (ds->name != NULL && dt_type_define(tt, key, t) < 0)
			dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	}
	t->kind = kind;

	int n = dt_node_list_len(ds->members);
	struct dt_member *m = dt_arena_zalloc(&tt->arena, sizeof(*m) * (size_t)(n + 1));
	if (m == NULL)
		dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	uint32_t off = 0, maxalign = 1, size = 0, i = 0;
	bool has_bitfields = false;
	for (struct dt_node *d = ds->members; d != NULL; d = d->next, i++) {
		struct dt_sema_decl info;
		struct dt_type *mt = dt_sema_typename_info(pcb, d->decl.spec, d->decl.decl, &info);
		struct dt_type *bt = dt_type_base(mt);
		if (bt->kind == TK_FWD)
			dt_cerror(pcb, "D_DECL_INCOMPLETE", d->line,
				  "incomplete struct/union/enum %s: %s", dt_sema_typestr(pcb, mt),
				  info.name ? info.name : "");
		if (bt->kind == TK_VOID || bt->kind == TK_FUNC)
			dt_cerror(pcb, "D_DECL_VOIDOBJ", d->line, "cannot have void member: %s",
				  info.name ? info.name : "(anon)");
		for (uint32_t j = 0; info.name != NULL && j < i; j++)
			if (m[j].name != NULL && strcmp(m[j].name, info.name) == 0)
				dt_cerror(pcb, "D_UNKNOWN", d->line,
					  "failed to define member '%s': Duplicate member or variable name",
					  info.name);
		uint32_t msize = dt_type_size(mt);
		uint32_t malign = bt->kind == TK_ARRAY ? dt_type_base(bt->base)->align : bt->align;
		if (malign == 0)
			malign = 1;
		m[i].name = info.name ? dt_arena_strdup(&tt->arena, info.name) : NULL;
		m[i].type = mt;
		if (d->decl.bitwidth != NULL) {
			int64_t w = dt_sema_const(pcb, d->decl.bitwidth, "D_DECL_BFCONST",
						  "positive integral constant expression expected as bit-field size");
			if (!dt_type_is_integer(mt))
				dt_cerror(pcb, "D_DECL_BFTYPE", d->line,
					  "invalid type for bit-field: %s", info.name ? info.name : "");
			if (w <= 0)
				dt_cerror(pcb, "D_DECL_BFCONST", d->line,
					  "positive integral constant expression expected as bit-field size");
			if ((uint64_t)w > (uint64_t)msize * 8)
				dt_cerror(pcb, "D_DECL_BFSIZE", d->line, "bit-field too big for type: %s",
					  info.name ? info.name : "(anon)");
			/*
			 * As DTrace lays out a D struct: a bit-field has bytes of its
			 * own, as many as its bits need, aligned to the largest power
			 * of two not above that.
			 */
			uint32_t nbytes = ((uint32_t)w + 7) / 8, balign = 1;
			while (balign * 2 <= nbytes)
				balign *= 2;
			has_bitfields = true;
			m[i].bitsize = (uint32_t)w;
			if (kind == TK_STRUCT) {
				off = DT_ALIGN(off, balign);
				m[i].offset_bits = off * 8;
				off += nbytes;
				size = off;
			} else {
				m[i].offset_bits = 0;
				size = DT_MAX(size, nbytes);
			}
			if (balign > maxalign)
				maxalign = balign;
			continue;
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

static struct dt_type *define_enum(struct dt_pcb *pcb, struct dt_declspec *ds)
{
	struct dt_typetab *tt = &pcb->hdl->types;
	char key[300];
	struct dt_type *t;

	if (!ds->has_body) {
		sou_key(ds, key, sizeof(key));
		t = dt_type_lookup(tt, key);
		if (t == NULL)
			dt_cerror(pcb, "D_TYPE_ERR", ds->line, "failed to resolve type %s: Unknown type name",
				  key);
		return t;
	}
	t = dt_type_new(tt, TK_ENUM, ds->name);
	if (t == NULL)
		dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	t->size = t->align = 4;
	t->is_signed = true;
	if (ds->name != NULL) {
		sou_key(ds, key, sizeof(key));
		if (dt_htab_get(&tt->names, key) != NULL)
			dt_cerror(pcb, "D_DECL_TYPERED", ds->line, "type redeclared: %s", key);
		if (dt_type_define(tt, key, t) < 0)
			dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	}
	int n = 0;
	for (struct dt_enumerator *e = ds->enums; e; e = e->next)
		n++;
	t->enums = dt_arena_zalloc(&tt->arena, sizeof(*t->enums) * (size_t)(n + 1));
	if (t->enums == NULL)
		dt_cerror(pcb, "D_NOMEM", ds->line, "out of memory");
	int64_t v = 0;
	for (struct dt_enumerator *e = ds->enums; e; e = e->next) {
		if (e->value != NULL) {
			char what[300];
			snprintf(what, sizeof(what),
				 "enumerator '%s' must be assigned to an integral constant expression",
				 e->name);
			dt_sema_expr(pcb, e->value);
			if (!(e->value->flags & DN_CONST))
				dt_cerror(pcb, "D_DECL_ENCONST", e->end_line, "%s", what);
			v = e->value->cval;
			if (v > INT32_MAX || v < INT32_MIN)
				dt_cerror(pcb, "D_DECL_ENOFLOW", e->end_line,
					  "enumerator '%s' value overflows INT_MAX (%d)", e->name, INT32_MAX);
		}
		for (uint32_t j = 0; j < t->nenums; j++)
			if (strcmp(t->enums[j].name, e->name) == 0)
				dt_cerror(pcb, "D_UNKNOWN", e->end_line,
					  "failed to define enumerator '%s': Duplicate member or variable name",
					  e->name);
		if (dt_ident_lookup_any(pcb->hdl, e->name) != NULL &&
		    dt_ident_user(pcb->hdl, IDK_ENUM, e->name) != NULL)
			dt_cerror(pcb, "D_DECL_IDRED", e->line, "identifier redeclared: %s", e->name);
		struct dt_ident *id = dt_ident_user_add(pcb->hdl, IDK_ENUM, e->name, e->line);
		if (id == NULL)
			dt_cerror(pcb, "D_NOMEM", e->line, "out of memory");
		id->value = v;
		id->type = t;
		id->flags |= IDF_DEFINED;
		t->enums[t->nenums].name = id->name;
		t->enums[t->nenums++].value = v;
		v++;
	}
	return t;
}

struct dt_type *dt_sema_typename_info(struct dt_pcb *pcb, struct dt_declspec *ds,
				      struct dt_declarator *d, struct dt_sema_decl *info)
{
	struct dt_typetab *tt = &pcb->hdl->types;
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
			if (c->quals)
				t = dt_type_qualified(tt, t, c->quals);
			break;
		case DK_ARRAY:
			if (c->assoc) {
				int k = 0;
				info->keys = dt_palloc(pcb, sizeof(*info->keys) * 16);
				for (struct dt_node *p = c->params; p != NULL && k < 16; p = p->next) {
					struct dt_sema_decl ki;
					struct dt_type *kt = dt_sema_typename_info(pcb, p->decl.spec,
										   p->decl.decl, &ki);
					if (dt_type_is_void(kt))
						dt_cerror(pcb, "D_DECL_PROTO_TYPE", p->line,
							  "array prototype may not use parameter of type void: %s, parameter #%d",
							  ki.name ? ki.name : "(anonymous)", k + 1);
					info->keys[k++] = kt;
				}
				info->nkeys = k;
				info->assoc = true;
				break;
			}
			if (c->dim == NULL) {
				t = dt_type_array(tt, t, 0);
				break;
			}
			dt_sema_expr(pcb, c->dim);
			if (!(c->dim->flags & DN_CONST) || c->dim->cval < 0) {
				/* "int a[x]" with a variable: an associative array keyed by its type. */
				if (!(c->dim->flags & DN_CONST)) {
					info->keys = dt_palloc(pcb, sizeof(*info->keys));
					info->keys[0] = c->dim->type;
					info->nkeys = 1;
					info->assoc = true;
					break;
				}
				dt_cerror(pcb, "D_DECL_ARRVAL", c->line,
					  "array dimension must be a positive integer constant");
			}
			t = dt_type_array(tt, t, (uint32_t)c->dim->cval);
			break;
		case DK_FUNC: {
			struct dt_type *f = dt_type_new(tt, TK_FUNC, NULL);
			int np = dt_node_list_len(c->params);
			if (f == NULL)
				dt_cerror(pcb, "D_NOMEM", c->line, "out of memory");
			f->base = t;
			f->params = dt_arena_zalloc(&tt->arena, sizeof(*f->params) * (size_t)(np + 1));
			for (struct dt_node *p = c->params; p != NULL; p = p->next) {
				struct dt_sema_decl pi;
				struct dt_type *pt = dt_sema_typename_info(pcb, p->decl.spec,
									   p->decl.decl, &pi);
				if (dt_type_is_void(pt) && np == 1 && pi.name == NULL)
					break;
				f->params[f->nparams++] = pt;
			}
			f->varargs = c->varargs;
			f->size = 1;
			t = f;
			break;
		}
		}
		if (t == NULL)
			dt_cerror(pcb, "D_NOMEM", c->line, "out of memory");
	}
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

/* ---- Declarations ---- */

/* "int a[];": the array next to the name has neither a dimension nor key types. */
static bool is_arrnull(const struct dt_declarator *d)
{
	const struct dt_declarator *a = d != NULL ? d->outer : NULL;

	return a != NULL && a->kind == DK_ARRAY && !a->assoc && a->dim == NULL;
}

/* As DTrace: a function prototype's parameters may not be associative arrays. */
static void check_func_params(struct dt_pcb *pcb, struct dt_declarator *d)
{
	while (d != NULL && d->kind != DK_FUNC)
		d = d->outer;
	if (d == NULL)
		return;
	int i = 1;
	for (struct dt_node *prm = d->params; prm != NULL; prm = prm->next, i++) {
		const char *name = NULL;
		bool dyn = false;
		for (struct dt_declarator *x = prm->decl.decl; x != NULL; x = x->outer) {
			if (x->kind == DK_NAME && x->name != NULL)
				name = x->name;
			if (x->kind == DK_ARRAY && x->assoc)
				dyn = true;
		}
		if (dyn)
			dt_cerror(pcb, "D_DECL_PROTO_TYPE", prm->line,
				  "function prototype may not use parameter of type dynamic variable: %s, parameter #%d",
				  name ? name : "(anonymous)", i);
	}
}

static void declare_var(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	struct dt_declspec *ds = n->decl.spec;
	struct dt_sema_decl info;
	struct dt_type *t = dt_sema_typename_info(pcb, ds, n->decl.decl, &info);
	enum dt_idkind kind = IDK_GLOBAL;

	if (ds->dclass == DC_TYPEDEF) {
		if (info.name == NULL)
			dt_cerror(pcb, "D_DECL_USELESS", n->line, "useless declaration");
		if (dt_htab_get(&dtp->types.names, info.name) != NULL)
			dt_cerror(pcb, "D_DECL_IDRED", n->line, "typedef redeclared: %s", info.name);
		struct dt_type *td = dt_type_new(&dtp->types, TK_TYPEDEF, info.name);
		if (td == NULL)
			dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
		td->base = t;
		td->size = dt_type_size(t);
		td->align = dt_type_base(t) ? dt_type_base(t)->align : 1;
		if (dt_type_define(&dtp->types, info.name, td) < 0)
			dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
		return;
	}
	if (info.name == NULL) {
		/* "struct s { ... };" defines a type and nothing else. */
		if ((ds->ts == TS_STRUCT || ds->ts == TS_UNION || ds->ts == TS_ENUM) &&
		    n->decl.decl == NULL)
			return;
		dt_cerror(pcb, "D_DECL_USELESS", n->line, "useless declaration");
	}
	switch (ds->dclass) {
	case DC_AUTO:
	case DC_REGISTER:
	case DC_STATIC:
		dt_cerror(pcb, "D_DECL_BADCLASS", n->line,
			  "specified storage class not appropriate in D");
	case DC_SELF:
		kind = IDK_TLS;
		break;
	case DC_THIS:
		kind = IDK_LOCAL;
		break;
	case DC_EXTERN:
		/* A kernel symbol's type; D reads such symbols by address. */
		return;
	default:
		break;
	}
	if (dt_type_is_void(t) && !info.assoc)
		dt_cerror(pcb, "D_DECL_VOIDOBJ", n->line, "cannot have void object: %s", info.name);
	if (dt_type_base(t)->kind == TK_FUNC) {
		/* A prototype declares nothing D can call; its parameters are still checked. */
		check_func_params(pcb, n->decl.decl);
		return;
	}
	if (strchr(info.name, '`') != NULL)
		dt_cerror(pcb, "D_DECL_SCOPE", n->line,
			  "D scoping operator may not be used in a declaration name (%s)", info.name);
	if (is_arrnull(n->decl.decl))
		dt_cerror(pcb, "D_DECL_ARRNULL", n->line,
			  "array declaration requires array dimension or tuple signature: %s", info.name);
	if (info.assoc && kind == IDK_LOCAL)
		dt_cerror(pcb, "D_DECL_LOCASSC", n->line,
			  "associative arrays may not be declared as local variables: %s", info.name);
	if (info.assoc && kind == IDK_GLOBAL)
		kind = IDK_ARRAY;

	struct dt_ident *old = dt_ident_user(dtp, kind, info.name);
	if (kind == IDK_GLOBAL || kind == IDK_ARRAY) {
		struct dt_ident *b = dt_ident_builtin(dtp, info.name);
		if (b != NULL)
			dt_cerror(pcb, "D_DECL_IDRED", n->line, "identifier redeclared: %s", info.name);
		if (old == NULL)
			old = dt_ident_user(dtp, kind == IDK_GLOBAL ? IDK_ARRAY : IDK_GLOBAL, info.name);
	}
	if (old != NULL) {
		if (old->kind != kind || !dt_type_equal(old->type, t) || old->nkeys != info.nkeys)
			dt_cerror(pcb, "D_DECL_IDRED", n->line, "identifier redeclared: %s", info.name);
		return;
	}
	struct dt_ident *id = dt_ident_user_add(dtp, kind, info.name, n->line);
	if (id == NULL)
		dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
	id->type = t;
	id->flags |= IDF_DECLARED | IDF_DEFINED;
	if (info.assoc) {
		id->keys = dt_arena_alloc(&dtp->arena, sizeof(*id->keys) * (size_t)info.nkeys);
		if (id->keys == NULL)
			dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
		memcpy(id->keys, info.keys, sizeof(*id->keys) * (size_t)info.nkeys);
		id->nkeys = info.nkeys;
	}
}

/* "inline int a[int x, int y] = x + y": x and y, bound when a[..] is used. */
static struct dt_ident **inline_params(struct dt_pcb *pcb, struct dt_declarator *d,
				       const struct dt_sema_decl *info)
{
	struct dtrace_hdl *dtp = pcb->hdl;

	while (d != NULL && !(d->kind == DK_ARRAY && d->assoc))
		d = d->outer;
	if (d == NULL)
		return NULL;
	struct dt_ident **v = dt_arena_zalloc(&dtp->arena, sizeof(*v) * (size_t)(info->nkeys + 1));
	if (v == NULL)
		dt_cerror(pcb, "D_NOMEM", d->line, "out of memory");
	int i = 0;
	for (struct dt_node *prm = d->params; prm != NULL && i < info->nkeys; prm = prm->next, i++) {
		const char *name = NULL;
		for (struct dt_declarator *x = prm->decl.decl; x != NULL; x = x->outer)
			if (x->kind == DK_NAME && x->name != NULL)
				name = x->name;
		if (name == NULL)
			dt_cerror(pcb, "D_DECL_PROTO_NAME", prm->line,
				  "parameter declaration requires a name: parameter #%d", i + 1);
		struct dt_ident *a = dt_arena_zalloc(&dtp->arena, sizeof(*a));
		if (a == NULL)
			dt_cerror(pcb, "D_NOMEM", prm->line, "out of memory");
		a->name = dt_arena_strdup(&dtp->arena, name);
		a->kind = IDK_XLARG;
		a->type = info->keys[i];
		a->flags = IDF_DECLARED | IDF_DEFINED;
		a->line = prm->line;
		v[i] = a;
	}
	return v;
}

static void declare_inline(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	struct dt_sema_decl info;
	struct dt_type *t = dt_sema_typename_info(pcb, n->decl.spec, n->decl.decl, &info);

	struct dt_ident *old = dt_ident_lookup_any(dtp, info.name);
	if (old == NULL)
		old = dt_ident_user(dtp, IDK_ARRAY, info.name);
	if (old != NULL) {
		/* The user's own definition wins over the library's. */
		if (pcb->is_dlib)
			return;
		if (old->kind == IDK_INLINE || old->kind == IDK_GLOBAL || old->kind == IDK_ARRAY)
			dt_cerror(pcb, "D_DECL_IDRED", n->line,
				  "identifier redefined: %s\n\t current: inline definition\n\tprevious: %s %s",
				  info.name, old->kind == IDK_ARRAY || old->nkeys > 0 ? "array" : "scalar",
				  old->kind == IDK_INLINE ? "inline" : "");
		dt_cerror(pcb, "D_DECL_IDRED", n->line, "identifier redeclared: %s", info.name);
	}
	struct dt_ident **params = info.assoc ? inline_params(pcb, n->decl.decl, &info) : NULL;
	pcb->iparams = params;
	pcb->niparams = params != NULL ? info.nkeys : 0;
	dt_sema_expr(pcb, n->l);
	pcb->iparams = NULL;
	pcb->niparams = 0;
	if (!dt_sema_assignable(pcb, t, n->l))
		dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
			  "inline %s definition uses incompatible types: \"%s\" = \"%s\"", info.name,
			  dt_sema_typestr(pcb, t), dt_sema_typestr(pcb, n->l->type));
	struct dt_ident *id = dt_ident_user_add(dtp, IDK_INLINE, info.name, n->line);
	if (id == NULL)
		dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
	id->type = t;
	id->inline_expr = n->l;
	id->flags |= IDF_DECLARED | IDF_DEFINED;
	if (params != NULL) {
		id->iparams = params;
		id->nkeys = info.nkeys;
		id->keys = dt_arena_alloc(&dtp->arena, sizeof(*id->keys) * (size_t)info.nkeys);
		if (id->keys == NULL)
			dt_cerror(pcb, "D_NOMEM", n->line, "out of memory");
		memcpy(id->keys, info.keys, sizeof(*id->keys) * (size_t)info.nkeys);
	}
}

void dt_sema_program(struct dt_pcb *pcb)
{
	for (struct dt_node *n = pcb->root; n != NULL; n = n->next) {
		switch (n->kind) {
		case N_DECL:
			if (n->decl.decl == NULL) {
				struct dt_declspec *ds = n->decl.spec;
				if (!(ds->ts == TS_STRUCT || ds->ts == TS_UNION || ds->ts == TS_ENUM) ||
				    (!ds->has_body && ds->dclass != DC_NONE))
					dt_cerror(pcb, "D_DECL_USELESS", n->line, "useless declaration");
				base_type(pcb, ds);
				break;
			}
			declare_var(pcb, n);
			break;
		case N_INLINE:
			declare_inline(pcb, n);
			break;
		case N_XLATOR:
			dt_sema_translator(pcb, n);
			break;
		case N_CLAUSE:
			dt_sema_check_calls(pcb, n);
			break;
		case N_PROVIDER:
		default:
			break;
		}
	}
}

static void check_pred(struct dt_pcb *pcb, struct dt_node *c)
{
	if (c->clause.pred == NULL)
		return;
	pcb->region = "predicate";
	pcb->pred_line = c->clause.pred_end_line;
	dt_sema_expr(pcb, c->clause.pred);
	pcb->pred_line = 0;
	/* A string is not a scalar to DTrace (dt_node_is_scalar): no NULL test here. */
	struct dt_type *pt = c->clause.pred->type;
	bool ptr;	/* a translated pointer is dynamic to DTrace */
	if (!dt_type_is_scalar(pt) || dt_type_base(pt)->special != DT_SPECIAL_NONE ||
	    dt_xlate_of(c->clause.pred, &ptr) != NULL)
		dt_cerror(pcb, "D_PRED_SCALAR", c->clause.end_line ? c->clause.end_line : c->line,
			  "predicate result must be of scalar type");
}

/*
 * DTrace checks the actions first (they may declare what the predicate
 * uses); if that fails on an undefined name and there is a predicate, it
 * checks the predicate first instead.
 */
void dt_sema_clause(struct dt_pcb *pcb, struct dt_stmt *stmt)
{
	struct dt_node *c = stmt->clause;
	struct dt_sema_ctx ctx;
	jmp_buf saved;

	memset(&ctx, 0, sizeof(ctx));
	ctx.stmt = stmt;
	pcb->sema = &ctx;
	memcpy(saved, pcb->jb, sizeof(jmp_buf));
	if (setjmp(pcb->jb) == 0) {
		pcb->region = "action list";
		dt_sema_stmts(pcb, c->clause.body);
		memcpy(pcb->jb, saved, sizeof(jmp_buf));
		check_pred(pcb, c);
	} else {
		memcpy(pcb->jb, saved, sizeof(jmp_buf));
		const char *tag = pcb->hdl->errtag;
		if (c->clause.pred == NULL ||
		    (strcmp(tag, "D_IDENT_UNDEF") != 0 && strcmp(tag, "D_VAR_UNDEF") != 0))
			longjmp(pcb->jb, 1);
		memset(&ctx, 0, sizeof(ctx));
		ctx.stmt = stmt;
		stmt->args_used = 0;
		stmt->uses_scratch = false;
		check_pred(pcb, c);
		pcb->region = "action list";
		dt_sema_stmts(pcb, c->clause.body);
	}
	pcb->region = NULL;
	pcb->sema = NULL;
}
