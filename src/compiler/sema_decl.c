/*
 * Declarations at program scope, with DTrace's rules (dt_node_decl and
 * dt_node_inline): variables (global, self->, this->, associative
 * arrays), typedefs, extern symbols and inline definitions.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"

static _Noreturn void nomem(struct dt_pcb *pcb, int line)
{
	(void)line;
	dt_cnomem(pcb);
}

/*
 * DTrace compares declared types by identity: a typedef is not the type it
 * names ("int32_t" is not "int"), and all functions have one type.
 */
static bool same_type(struct dt_pcb *pcb, struct dt_type *a, struct dt_type *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL)
		return false;
	if (a->kind == TK_FUNC || b->kind == TK_FUNC)
		return a->kind == b->kind;
	return dt_type_equal(a, b) && strcmp(dt_sema_typestr(pcb, a), dt_sema_typestr(pcb, b)) == 0;
}

static const char *decl_typestr(struct dt_pcb *pcb, struct dt_type *t)
{
	return t != NULL && t->kind == TK_FUNC ? "function" : dt_sema_typestr(pcb, t);
}

/*
 * DTrace numbers each scope's variables in a range of its own: 64255
 * globals and associative arrays (ids 0x500 to 0xfffe), as many
 * thread-locals, 65535 clause-locals.
 */
static int var_scope(enum dt_idkind kind)
{
	return kind == IDK_TLS ? 1 : kind == IDK_LOCAL ? 2 : 0;
}

struct dt_ident *dt_sema_new_var(struct dt_pcb *pcb, enum dt_idkind kind, const char *name, int line)
{
	static const char *const scope[] = { "global", "thread local", "clause local" };
	static const int limit[] = { 0xffff - 0x500, 0xffff - 0x500, 0xffff };
	struct dt_compiler *cc = pcb->cc;
	int s = var_scope(kind);

	if (!pcb->nvars_counted[s]) {
		const char *k;
		void *v;
		pcb->nvars_counted[s] = true;
		pcb->nvars[s] = 0;
		for (size_t i = 0; dt_htab_next(&cc->idents, &i, &k, &v);) {
			const struct dt_ident *id = v;
			if ((id->kind == IDK_GLOBAL || id->kind == IDK_ARRAY || id->kind == IDK_TLS ||
			     id->kind == IDK_LOCAL) && var_scope(id->kind) == s)
				pcb->nvars[s]++;
		}
	}
	if (pcb->nvars[s] >= limit[s])
		dt_cerror(pcb, "D_ID_OFLOW", line, "cannot create %s: limit on number of %s variables exceeded",
			  name, scope[s]);
	struct dt_ident *id = dt_ident_user_add(cc, kind, name, line);
	if (id == NULL)
		nomem(pcb, line);
	pcb->nvars[s]++;
	return id;
}

static bool is_builtin(const struct dt_ident *id)
{
	return id->flags & IDF_BUILTIN;
}

/* An extern declaration gives a symbol a type; a second one must agree. */
static void declare_extern(struct dt_pcb *pcb, struct dt_node *n, const char *name, struct dt_type *t)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_ident *old = dt_ident_user(cc, IDK_EXTERN, name);

	if (old != NULL) {
		if (!same_type(pcb, t, old->type))
			dt_cerror(pcb, "D_DECL_IDRED", n->decl.end_line,
				  "identifier redeclared: D`%s\n\t current: %s\n\tprevious: %s", name,
				  decl_typestr(pcb, t), decl_typestr(pcb, old->type));
		return;
	}
	struct dt_ident *id = dt_ident_user_add(cc, IDK_EXTERN, name, n->decl.end_line);
	if (id == NULL)
		nomem(pcb, n->decl.end_line);
	id->type = t;
	id->flags |= IDF_DECLARED | IDF_DEFINED;
}

static void declare_typedef(struct dt_pcb *pcb, struct dt_node *n, const char *name, struct dt_type *t)
{
	struct dt_compiler *cc = pcb->cc;
	int line = n->decl.end_line;

	if (dt_sema_resolve(pcb, name) != NULL)
		dt_cerror(pcb, "D_DECL_IDRED", line, "global variable identifier redeclared: %s", name);
	if (dt_htab_get(&cc->core->types.names, name) != NULL)
		dt_cerror(pcb, "D_DECL_IDRED", line, "typedef redeclared: %s", name);
	struct dt_type *td = dt_type_new(&cc->core->types, TK_TYPEDEF, name);
	if (td == NULL)
		nomem(pcb, line);
	td->base = t;
	td->size = dt_type_size(t);
	td->align = dt_type_base(t) ? dt_type_base(t)->align : 1;
	if (dt_type_define(&cc->core->types, name, td) < 0)
		nomem(pcb, line);
}

/* A redeclaration must say what the first declaration said. */
static void check_redecl(struct dt_pcb *pcb, struct dt_node *n, const char *name, struct dt_type *t,
			 const struct dt_sema_decl *info, struct dt_ident *old)
{
	const char *kind = info->assoc ? "associative array" : "scalar";
	const char *okind = dt_ident_kind_name(old);
	bool oassoc = strcmp(okind, "associative array") == 0;
	int line = n->decl.end_line;

	if (oassoc != info->assoc || old->kind == IDK_ENUM || !same_type(pcb, t, old->type))
		dt_cerror(pcb, "D_DECL_IDRED", line,
			  "identifier redeclared: %s\n\t current: %s %s\n\tprevious: %s %s", name, kind,
			  decl_typestr(pcb, t), okind, decl_typestr(pcb, old->type));
	if (!info->assoc)
		return;
	for (int i = 0; i < info->nkeys && i < old->nkeys; i++)
		if (!same_type(pcb, info->keys[i], old->keys[i]))
			dt_cerror(pcb, "D_DECL_IDRED", line,
				  "identifier redeclared: %s\n\t current: %s, key #%d of type %s\n\tprevious: %s, key #%d of type %s",
				  name, kind, i + 1, decl_typestr(pcb, info->keys[i]), okind, i + 1,
				  decl_typestr(pcb, old->keys[i]));
	if (info->nkeys != old->nkeys)
		dt_cerror(pcb, "D_DECL_IDRED", line,
			  "identifier redeclared: %s\n\t current: %s of %s, tuple length %d\n\tprevious: %s of %s, tuple length %d",
			  name, kind, decl_typestr(pcb, t), info->nkeys, okind,
			  decl_typestr(pcb, old->type), old->nkeys);
}

static void declare_variable(struct dt_pcb *pcb, struct dt_node *n, const char *name, struct dt_type *t,
			     const struct dt_sema_decl *info)
{
	struct dt_compiler *cc = pcb->cc;
	enum dt_dclass dc = n->decl.spec->dclass;
	enum dt_idkind kind = dc == DC_SELF ? IDK_TLS : dc == DC_THIS ? IDK_LOCAL : IDK_GLOBAL;
	int line = n->decl.end_line;
	struct dt_ident *old = kind == IDK_GLOBAL ? dt_sema_resolve(pcb, name)
						  : dt_ident_user(cc, kind, name);

	if (info->arrnull)
		dt_cerror(pcb, "D_DECL_ARRNULL", line,
			  "array declaration requires array dimension or tuple signature: %s", name);
	if (old != NULL && is_builtin(old))
		dt_cerror(pcb, "D_DECL_IDRED", line, "built-in identifier redeclared: %s", name);
	if (dt_htab_get(&cc->core->types.names, name) != NULL)
		dt_cerror(pcb, "D_DECL_IDRED", line, "typedef identifier redeclared: %s", name);
	if (info->assoc && kind == IDK_LOCAL)
		dt_cerror(pcb, "D_DECL_LOCASSC", line,
			  "associative arrays may not be declared as local variables: %s", name);
	if (old != NULL) {
		check_redecl(pcb, n, name, t, info, old);
		return;
	}
	struct dt_type *b = dt_type_base(t);
	if (b->kind == TK_VOID)
		dt_cerror(pcb, "D_DECL_VOIDOBJ", line, "cannot have void object: %s", name);
	if (b->kind == TK_FWD || ((b->kind == TK_STRUCT || b->kind == TK_UNION) && dt_type_size(t) == 0))
		dt_cerror(pcb, "D_DECL_INCOMPLETE", line, "incomplete struct/union/enum %s: %s",
			  dt_sema_typestr(pcb, t), name);
	if (info->assoc && kind == IDK_GLOBAL)
		kind = IDK_ARRAY;
	struct dt_ident *id = dt_sema_new_var(pcb, kind, name, line);
	id->type = t;
	id->flags |= IDF_DECLARED | IDF_DEFINED;
	if (info->assoc) {
		id->keys = dt_arena_alloc(&cc->core->arena, sizeof(*id->keys) * (size_t)(info->nkeys + 1));
		if (id->keys == NULL)
			nomem(pcb, line);
		memcpy(id->keys, info->keys, sizeof(*id->keys) * (size_t)info->nkeys);
		id->nkeys = info->nkeys;
	}
	dt_attr_declared(pcb, id, line);
}

void dt_sema_declare(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_declspec *ds = n->decl.spec;
	struct dt_sema_decl info;
	struct dt_type *t = dt_sema_typename_info(pcb, ds, n->decl.decl, &info);
	const char *name = info.name;
	int line = n->decl.end_line;

	/* Without a name only a struct, union or enum is declared. */
	if (name == NULL) {
		if (ds->ts != TS_STRUCT && ds->ts != TS_UNION && ds->ts != TS_ENUM)
			dt_cerror(pcb, "D_DECL_USELESS", line, "useless declaration");
		return;
	}
	if (strchr(name, '`') != NULL)
		dt_cerror(pcb, "D_DECL_SCOPE", line,
			  "D scoping operator may not be used in a declaration name (%s)", name);
	enum dt_dclass dc = ds->dclass;
	/* A function prototype declares an external symbol, as extern does. */
	if (t->kind == TK_FUNC && (dc == DC_NONE || dc == DC_STATIC))
		dc = DC_EXTERN;
	switch (dc) {
	case DC_AUTO:
	case DC_REGISTER:
	case DC_STATIC:
		dt_cerror(pcb, "D_DECL_BADCLASS", line, "specified storage class not appropriate in D");
	case DC_EXTERN:
		declare_extern(pcb, n, name, t);
		break;
	case DC_TYPEDEF:
		declare_typedef(pcb, n, name, t);
		break;
	default:
		declare_variable(pcb, n, name, t, &info);
		break;
	}
}

/* "inline int a[int x, int y] = x + y": x and y, bound when a[..] is used. */
static struct dt_ident **inline_params(struct dt_pcb *pcb, struct dt_declarator *d,
				       const struct dt_sema_decl *info)
{
	struct dt_compiler *cc = pcb->cc;

	while (d != NULL && !(d->kind == DK_ARRAY && d->assoc))
		d = d->outer;
	if (d == NULL)
		return NULL;
	struct dt_ident **v = dt_arena_zalloc(&cc->core->arena, sizeof(*v) * (size_t)(info->nkeys + 1));
	if (v == NULL)
		nomem(pcb, d->line);
	int i = 0;
	for (struct dt_node *prm = d->params; prm != NULL && i < info->nkeys; prm = prm->next, i++) {
		const char *name = NULL;
		for (struct dt_declarator *x = prm->decl.decl; x != NULL; x = x->outer)
			if (x->kind == DK_NAME && x->name != NULL)
				name = x->name;
		/* An anonymous key is allowed; nothing can refer to it. */
		struct dt_ident *a = dt_arena_zalloc(&cc->core->arena, sizeof(*a));
		if (a == NULL)
			nomem(pcb, prm->line);
		a->name = dt_arena_strdup(&cc->core->arena, name != NULL ? name : "");
		a->kind = IDK_XLARG;
		a->type = info->keys[i];
		a->flags = IDF_DECLARED | IDF_DEFINED;
		a->line = prm->line;
		v[i] = a;
	}
	return v;
}

void dt_sema_inline(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_sema_decl info;
	struct dt_type *t = dt_sema_typename_info(pcb, n->decl.spec, n->decl.decl, &info);
	int line = n->decl.end_line;

	if (n->decl.spec->dclass != DC_NONE)
		dt_cerror(pcb, "D_DECL_BADCLASS", line,
			  "specified storage class not appropriate for inline declaration");
	struct dt_ident *old = dt_sema_resolve(pcb, info.name);
	if (old != NULL) {
		/* The user's own definition wins over the library's. */
		if (pcb->is_dlib)
			return;
		dt_cerror(pcb, "D_DECL_IDRED", line,
			  "identifier redefined: %s\n\t current: inline definition\n\tprevious: %s %s",
			  info.name, dt_ident_kind_name(old), old->kind == IDK_INLINE ? "inline" : "");
	}
	if (info.arrnull)
		dt_cerror(pcb, "D_DECL_ARRNULL", line, "inline declaration requires array tuple signature: %s",
			  info.name);
	if (info.scalar_array)
		dt_cerror(pcb, "D_DECL_ARRNULL", line,
			  "inline declaration cannot be of scalar array type: %s", info.name);
	if (dt_type_is_void(t))
		dt_cerror(pcb, "D_DECL_VOIDOBJ", line, "cannot declare void inline: %s", info.name);
	if (dt_type_base(t)->kind == TK_FWD)
		dt_cerror(pcb, "D_DECL_INCOMPLETE", line, "incomplete struct/union/enum %s: %s",
			  dt_sema_typestr(pcb, t), info.name);
	struct dt_ident **params = info.assoc ? inline_params(pcb, n->decl.decl, &info) : NULL;
	pcb->iparams = params;
	pcb->niparams = params != NULL ? info.nkeys : 0;
	dt_sema_expr(pcb, n->l);
	pcb->iparams = NULL;
	pcb->niparams = 0;
	if (!dt_sema_type_argcompat(pcb, t, n->l))
		dt_cerror(pcb, "D_OP_INCOMPAT", line,
			  "inline %s definition uses incompatible types: \"%s\" = \"%s\"", info.name,
			  dt_sema_typestr(pcb, t), dt_sema_typestr(pcb, n->l->type));
	struct dt_ident *id = dt_ident_user_add(cc, IDK_INLINE, info.name, line);
	if (id == NULL)
		nomem(pcb, line);
	id->type = t;
	id->inline_expr = n->l;
	id->flags |= IDF_DECLARED | IDF_DEFINED;
	if (params != NULL) {
		id->iparams = params;
		id->nkeys = info.nkeys;
		id->keys = dt_arena_alloc(&cc->core->arena, sizeof(*id->keys) * (size_t)info.nkeys);
		if (id->keys == NULL)
			nomem(pcb, line);
		memcpy(id->keys, info.keys, sizeof(*id->keys) * (size_t)info.nkeys);
	}
	dt_attr_inline(pcb, id, n->l, line);
}
