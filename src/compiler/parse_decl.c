/* Types and declarations: declaration specifiers, struct/union/enum bodies, declarators, type names. */
#include <string.h>

#include "compiler/parser_impl.h"
#include "compiler/sema.h"

static void parse_struct_body(struct parser *p, struct dt_declspec *ds)
{
	struct dt_node *head = NULL, **tail = &head;

	dtp_nest(p, NEST_DECL);
	/* As DTrace's grammar (and C's): at least one member declaration. */
	if (dtp_peek_tok(p) == T_RBRACE)
		dtp_syntax_error(p, dtp_peek(p));
	while (dtp_peek_tok(p) != T_RBRACE) {
		const struct dt_token *t = dtp_peek(p);
		if (!dtp_starts_type(p, t))
			dtp_syntax_error(p, t);
		struct dt_declspec *ms = dtp_parse_declspec(p, CLASS_NONE);
		for (;;) {
			struct dt_node *m = dt_node_new(p->pcb, N_DECL, dtp_peek(p)->line);
			m->decl.spec = ms;
			if (dtp_peek_tok(p) != T_COLON)
				m->decl.decl = dtp_parse_declarator(p, false);
			if (dtp_accept(p, T_COLON))
				m->decl.bitwidth = dtp_parse_cond(p);
			m->decl.end_line = dtp_peek(p)->line;
			*tail = m;
			tail = &m->next;
			if (!dtp_accept(p, T_COMMA))
				break;
		}
		dtp_expect(p, T_SEMI);
	}
	dtp_expect(p, T_RBRACE);
	dtp_unnest(p, NEST_DECL);
	ds->members = head;
	ds->has_body = true;
}

static void parse_enum_body(struct parser *p, struct dt_declspec *ds)
{
	struct dt_enumerator *head = NULL, **tail = &head;

	/* As DTrace's grammar: at least one enumerator. */
	if (dtp_peek_tok(p) == T_RBRACE)
		dtp_syntax_error(p, dtp_peek(p));
	do {
		if (dtp_peek_tok(p) == T_RBRACE)
			break;
		struct dt_token id = *dtp_expect(p, T_IDENT);
		struct dt_enumerator *e = dt_palloc(p->pcb, sizeof(*e));
		memset(e, 0, sizeof(*e));
		e->name = id.sval;
		e->line = id.line;
		if (dtp_accept(p, T_ASGN))
			e->value = dtp_parse_cond(p);
		e->end_line = dtp_peek(p)->line;
		*tail = e;
		tail = &e->next;
	} while (dtp_accept(p, T_COMMA));
	dtp_expect(p, T_RBRACE);
	ds->enums = head;
	ds->has_body = true;
}

/*
 * DTrace's lexer decides whether an identifier in a declaration is a type
 * name: not if the next character is one that can only follow a declared
 * name (';', '[', '=' but not "==", "++", "--", or ',' outside
 * parentheses), nor once the declaration has its type specifier.
 */
static bool names_type_here(struct parser *p, const struct dt_token *t, const struct dt_declspec *ds,
			    bool in_parens)
{
	if (t->tok == T_TNAME)
		return ds->ts == TS_NONE;
	if (t->tok != T_IDENT || ds->ts != TS_NONE)
		return false;
	size_t q = t->end;
	const char *src = p->lx.src;
	while (q < p->lx.len && strchr(" \t\f\v\r\n", src[q]) != NULL)
		q++;
	char c0 = q < p->lx.len ? src[q] : '\0', c1 = q + 1 < p->lx.len ? src[q + 1] : '\0';
	if (c0 == ';' || c0 == '[' || (c0 == '=' && c1 != '=') ||
	    ((c0 == '+' || c0 == '-') && c1 == c0) || (c0 == ',' && !in_parens))
		return false;
	return dtp_is_typename_ident(p, t);
}

/* Declaration specifiers: storage class, type specifiers, qualifiers. */
struct dt_declspec *dtp_parse_declspec(struct parser *p, enum classes classes)
{
	struct dt_declspec *ds = dt_palloc(p->pcb, sizeof(*ds));
	bool any = false;

	memset(ds, 0, sizeof(*ds));
	ds->line = dtp_peek(p)->line;
	for (;;) {
		const struct dt_token *t = dtp_peek(p);
		enum dt_dclass dc = DC_NONE;

		switch (t->tok) {
		case K_AUTO: dc = DC_AUTO; break;
		case K_REGISTER: dc = DC_REGISTER; break;
		case K_STATIC: dc = DC_STATIC; break;
		case K_EXTERN: dc = DC_EXTERN; break;
		case K_TYPEDEF: dc = DC_TYPEDEF; break;
		case K_SELF: dc = DC_SELF; break;
		case K_THIS: dc = DC_THIS; break;
		default: break;
		}
		if (dc != DC_NONE) {
			if (classes == CLASS_NONE ||
			    (classes == CLASS_C && (dc == DC_SELF || dc == DC_THIS)))
				dtp_syntax_error(p, t);
			if (ds->dclass != DC_NONE)
				dt_cerror(p->pcb, "D_DECL_CLASS", t->line,
					  "only one storage class allowed in a declaration");
			dtp_next(p);
			ds->dclass = dc;
			any = true;
			continue;
		}
		/* "static inline" functions of C headers included with -C. */
		if (t->tok == K_INLINE && (ds->dclass == DC_STATIC || ds->dclass == DC_EXTERN)) {
			dtp_next(p);
			continue;
		}
		switch (t->tok) {
		case K_CONST: dtp_next(p); ds->bits |= DS_CONST; any = true; continue;
		case K_VOLATILE: dtp_next(p); ds->bits |= DS_VOLATILE; any = true; continue;
		case K_RESTRICT: dtp_next(p); ds->bits |= DS_RESTRICT; any = true; continue;
		case K_USERLAND: dtp_next(p); ds->bits |= DS_USERLAND; any = true; continue;
		case K_SIGNED: dtp_next(p); ds->bits |= DS_SIGNED; any = true; continue;
		case K_UNSIGNED: dtp_next(p); ds->bits |= DS_UNSIGNED; any = true; continue;
		case K_SHORT: dtp_next(p); ds->bits |= DS_SHORT; any = true; continue;
		case K_LONG:
			/* As DTrace counts them: a second long makes long long, a third long again. */
			dtp_next(p);
			if (ds->bits & DS_LONG)
				ds->bits = (ds->bits & ~DS_LONG) | DS_LONGLONG;
			else
				ds->bits |= DS_LONG;
			any = true;
			continue;
		default:
			break;
		}
		if (ds->ts != TS_NONE) {
			/* "char int", or a struct body missing its ';' before the next one. */
			switch (t->tok) {
			case K_VOID: case K_CHAR: case K_INT: case K_FLOAT: case K_DOUBLE:
			case K_STRING: case K_STRUCT: case K_UNION: case K_ENUM:
				dt_cerror(p->pcb, "D_DECL_COMBO", t->line, "invalid type combination");
			default:
				break;
			}
			break;
		}
		enum dt_tspec ts = TS_NONE;
		switch (t->tok) {
		case K_VOID: ts = TS_VOID; break;
		case K_CHAR: ts = TS_CHAR; break;
		case K_INT: ts = TS_INT; break;
		case K_FLOAT: ts = TS_FLOAT; break;
		case K_DOUBLE: ts = TS_DOUBLE; break;
		case K_STRING: ts = TS_STRING; break;
		default: break;
		}
		if (ts != TS_NONE) {
			dtp_next(p);
			ds->ts = ts;
			any = true;
			continue;
		}
		if (t->tok == K_STRUCT || t->tok == K_UNION || t->tok == K_ENUM) {
			struct dt_token kw = *dtp_next(p);
			ds->ts = kw.tok == K_STRUCT ? TS_STRUCT : kw.tok == K_UNION ? TS_UNION : TS_ENUM;
			any = true;
			const struct dt_token *nt = dtp_peek(p);
			if (nt->tok == T_IDENT || nt->tok == T_TNAME) {
				ds->name = dtp_next(p)->sval;
				ds->tag_line = dtp_peek(p)->line;
			} else if (nt->tok != T_LBRACE || kw.sval != NULL) {
				dtp_syntax_error(p, nt);
			}
			/* "vmlinux`struct task_struct" names "struct vmlinux`task_struct". */
			if (kw.sval != NULL) {
				size_t n = strlen(kw.sval) + strlen(ds->name) + 2;
				char *sn = dt_palloc(p->pcb, n);
				snprintf(sn, n, "%s`%s", kw.sval, ds->name);
				ds->name = sn;
			}
			if (ds->name != NULL && strchr(ds->name, '`') != NULL) {
				if (dtp_accept(p, T_LBRACE)) {
					/* A body is parsed (its errors first), then the name refused. */
					if (ds->ts == TS_ENUM)
						parse_enum_body(p, ds);
					else
						parse_struct_body(p, ds);
					dt_cerror(p->pcb, "D_DECL_SCOPE", ds->line,
						  "D scoping operator may not be used in a type name");
				}
				continue;
			}
			if (dtp_accept(p, T_LBRACE)) {
				const char *key = NULL;
				if (ds->name != NULL) {
					key = dt_sema_tag_key(p->pcb, ds);
					dt_sema_tag_body(p->pcb, ds, dtp_nameset_has(&p->tags, key));
				}
				if (ds->ts == TS_ENUM)
					parse_enum_body(p, ds);
				else
					parse_struct_body(p, ds);
				if (key != NULL)
					dtp_nameset_add(p, &p->tags, key);
			}
			continue;
		}
		/* A typedef name, unless it is the declarator's name. */
		if (names_type_here(p, t, ds, classes != CLASS_D)) {
			ds->name = dtp_next(p)->sval;
			ds->ts = TS_NAME;
			any = true;
			continue;
		}
		break;
	}
	if (!any)
		dtp_syntax_error(p, dtp_peek(p));
	return ds;
}

/* Array suffix contents: empty, a constant expression, or key types. */
static void parse_array_suffix(struct parser *p, struct dt_declarator *d)
{
	if (dtp_peek_tok(p) == T_RBRAC)
		return;
	if (dtp_peek_tok(p) == T_ELLIPSIS || dtp_starts_param(p, dtp_peek(p))) {
		struct dt_node *head = NULL, **tail = &head;
		do {
			if (dtp_peek_tok(p) == T_ELLIPSIS) {
				/* Refused later, in order with the other parameters' checks. */
				d->varargs = true;
				d->varargs_line = dtp_next(p)->line;
				break;
			}
			struct dt_node *k = dt_node_new(p->pcb, N_DECL, dtp_peek(p)->line);
			k->decl.spec = dtp_parse_declspec(p, CLASS_C);
			k->decl.decl = dtp_parse_declarator(p, true);
			k->decl.end_line = dtp_peek(p)->line;
			*tail = k;
			tail = &k->next;
		} while (dtp_accept(p, T_COMMA));
		d->params = head;
		d->assoc = true;
		return;
	}
	d->dim = dtp_parse_cond(p);
}

void dtp_parse_params(struct parser *p, struct dt_declarator *d)
{
	struct dt_node *head = NULL, **tail = &head;

	if (dtp_peek_tok(p) == T_RPAR)
		return;
	do {
		if (dtp_peek_tok(p) == T_ELLIPSIS) {
			d->varargs = true;
			d->varargs_line = dtp_next(p)->line;
			break;
		}
		struct dt_node *k = dt_node_new(p->pcb, N_DECL, dtp_peek(p)->line);
		k->decl.spec = dtp_parse_declspec(p, CLASS_C);
		k->decl.decl = dtp_parse_declarator(p, true);
		k->decl.end_line = dtp_peek(p)->line;
		*tail = k;
		tail = &k->next;
	} while (dtp_accept(p, T_COMMA));
	d->params = head;
}

struct dt_declarator *dtp_mkdecl(struct parser *p, enum dt_dkind kind, int line)
{
	struct dt_declarator *d = dt_palloc(p->pcb, sizeof(*d));

	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->line = line;
	return d;
}

static struct dt_declarator *chain_tail(struct dt_declarator *d)
{
	while (d->outer != NULL)
		d = d->outer;
	return d;
}

/*
 * declarator := '*' quals* declarator | direct
 * direct := IDENT | '(' declarator ')' | direct '[' ... ']' | direct '(' params ')'
 * The result is a chain from the name outwards (see ast.h).  With
 * `abstract` the name may be missing.
 */
struct dt_declarator *dtp_parse_declarator(struct parser *p, bool abstract)
{
	int depth = p->depth[NEST_DECL];
	struct dt_declarator *d = dtp_declarator(p, abstract);

	p->depth[NEST_DECL] = depth;
	return d;
}

/* Each pointer, grouping and suffix makes the type a level deeper: they all count. */
struct dt_declarator *dtp_declarator(struct parser *p, bool abstract)
{
	int line = dtp_peek(p)->line;

	dtp_nest(p, NEST_DECL);
	if (dtp_accept(p, T_MUL)) {
		struct dt_declarator *ptr = dtp_mkdecl(p, DK_PTR, line);
		for (;;) {
			enum dt_tok t = dtp_peek_tok(p);
			if (t == K_CONST)
				ptr->quals |= DS_CONST;
			else if (t == K_VOLATILE)
				ptr->quals |= DS_VOLATILE;
			else if (t == K_RESTRICT)
				ptr->quals |= DS_RESTRICT;
			else
				break;
			dtp_next(p);
		}
		struct dt_declarator *inner = dtp_declarator(p, abstract);
		chain_tail(inner)->outer = ptr;
		return inner;
	}

	struct dt_declarator *head;
	const struct dt_token *t = dtp_peek(p);
	if (t->tok == T_IDENT || (t->tok == T_TNAME && !abstract)) {
		const struct dt_token *id = dtp_next(p);
		head = dtp_mkdecl(p, DK_NAME, id->line);
		head->name = id->sval;
	} else if (t->tok == T_LPAR) {
		/* Grouping "( declarator )" unless it is a parameter list. */
		dtp_next(p);
		const struct dt_token *nt = dtp_peek(p);
		bool grouping = nt->tok == T_MUL || nt->tok == T_LPAR || nt->tok == T_LBRAC ||
				(!abstract && nt->tok == T_IDENT && !dtp_is_typename_ident(p, nt));
		if (grouping) {
			head = dtp_declarator(p, abstract);
			dtp_expect(p, T_RPAR);
		} else {
			if (!abstract)
				dtp_syntax_error(p, nt);
			head = dtp_mkdecl(p, DK_NAME, line);
			struct dt_declarator *f = dtp_mkdecl(p, DK_FUNC, line);
			dtp_parse_params(p, f);
			f->end_line = dtp_expect(p, T_RPAR)->line;
			head->outer = f;
		}
	} else {
		if (!abstract)
			dtp_syntax_error(p, t);
		head = dtp_mkdecl(p, DK_NAME, line);
	}

	/* Suffixes bind tighter than the pointers around this declarator. */
	struct dt_declarator *tail = chain_tail(head);
	for (;;) {
		if (dtp_peek_tok(p) == T_LBRAC || dtp_peek_tok(p) == T_LPAR)
			dtp_nest(p, NEST_DECL);
		if (dtp_peek_tok(p) == T_LBRAC) {
			struct dt_declarator *a = dtp_mkdecl(p, DK_ARRAY, dtp_next(p)->line);
			parse_array_suffix(p, a);
			a->end_line = dtp_expect(p, T_RBRAC)->line;
			tail->outer = a;
			tail = a;
		} else if (dtp_peek_tok(p) == T_LPAR) {
			struct dt_declarator *f = dtp_mkdecl(p, DK_FUNC, dtp_next(p)->line);
			dtp_parse_params(p, f);
			f->end_line = dtp_expect(p, T_RPAR)->line;
			tail->outer = f;
			tail = f;
		} else {
			break;
		}
	}
	return head;
}

/* type_name := specifier_qualifier_list abstract_declarator? */
void dtp_parse_type_name(struct parser *p, struct dt_node *n)
{
	n->tn_spec = dtp_parse_declspec(p, CLASS_NONE);
	n->tn_decl = dtp_parse_declarator(p, true);
}
