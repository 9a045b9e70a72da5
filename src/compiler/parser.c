/*
 * The D parser.  Recursive descent with one token of look-ahead; the
 * lexer is told which mode to read in (program scope or expressions).
 * Syntax errors are reported as DTrace's yacc grammar reports them:
 * `syntax error near "<token>"`.
 */
#include "compiler/parser.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/htab.h"
#include "base/probe.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/lexer.h"
#include "compiler/macros.h"
#include "compiler/nest.h"
#include "compiler/pragma.h"
#include "dtrace.h"

/* A set of names, hashed in the arena: a program may declare tens of thousands. */
struct nameset {
	const char **v;
	size_t cap, n;		/* cap: 0 or a power of two */
};

struct parser {
	struct dt_pcb *pcb;
	struct dt_lexer lx;
	bool in_xlator_input;
	/* Names a typedef of this program declared (they are types from then on). */
	struct nameset typedefs;
	/*
	 * Names that are variables whatever types exist: declared globals and,
	 * as DTrace's lexer guesses them, names assigned to (DTrace: "user-
	 * defined global variables always take precedence over types").
	 */
	struct nameset vars;
	/* In a top-level declaration, where DTrace says "end-of-input". */
	bool in_decl;
	/* The last "( expression )": a primary expression, so it may be assigned to. */
	const struct dt_node *paren;
	int depth[3];		/* nesting levels of each kind (nest.h) */
	struct dt_token last;	/* the token next() read */
};

struct dt_node *dt_node_new(struct dt_pcb *pcb, enum dt_nkind kind, int line)
{
	struct dt_node *n = dt_palloc(pcb, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = line;
	return n;
}

int dt_node_list_len(const struct dt_node *n)
{
	int i = 0;

	for (; n != NULL; n = n->next)
		i++;
	return i;
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '`';
}

/* Does the identifier at src[at] end a name DTrace's lexer remembers (followed by ; [ = , ++ --)? */
static bool remembered_at(const char *src, size_t len, size_t at, size_t n)
{
	size_t q = at + n;

	while (q < len && strchr(" \t\f\v\r\n", src[q]) != NULL)
		q++;
	if (q >= len)
		return false;
	char c0 = src[q], c1 = q + 1 < len ? src[q + 1] : '\0';
	return c0 == ';' || c0 == '[' || c0 == ',' || (c0 == '=' && c1 != '=') ||
	       ((c0 == '+' || c0 == '-') && c1 == c0);
}

/*
 * DTrace's lexer knows an identifier without looking past it if it names
 * a global or appeared before where only a variable name can (it then
 * remembers it).  Otherwise it peeks at the characters after it, which
 * leaves its idea of the token's text running to the end of the line.
 */
static bool lexer_knows(struct parser *p, const struct dt_token *t)
{
	const char *name = t->sval, *src = p->lx.src;
	size_t n = strlen(name);

	if (dt_ident_builtin_visible(p->pcb, name) != NULL || dt_ident_lookup_any(p->pcb->cc, name) != NULL)
		return true;
	for (size_t at = 0; at + n <= t->start; at++) {
		if (memcmp(src + at, name, n) != 0 || (at > 0 && is_word_char(src[at - 1])) ||
		    (at + n < p->lx.len && is_word_char(src[at + n])))
			continue;
		if (remembered_at(src, p->lx.len, at, n))
			return true;
	}
	return false;
}

/* The text DTrace shows for a token it reports a syntax error at. */
static const char *error_text(struct parser *p, const struct dt_token *t)
{
	const char *text = dt_tok_text(&p->lx, t);

	if (text == NULL || t->tok != T_IDENT || p->lx.peek_mode != LM_EXPR || lexer_knows(p, t))
		return text;
	/* Blanks it read are given back as spaces, up to a newline; then the line's rest. */
	const char *src = p->lx.src;
	size_t q = t->end, len = p->lx.len;
	while (q < len && strchr(" \t\f\v\r", src[q]) != NULL)
		q++;
	size_t blanks = q - t->end;
	if (q < len && src[q] == '\n')
		return dt_pstrndup(p->pcb, src + t->start, t->end - t->start + blanks);
	size_t e = q;
	while (e < len && src[e] != '\n')
		e++;
	char *r = dt_pstrndup(p->pcb, src + t->start, e - t->start);
	memset(r + (t->end - t->start), ' ', blanks);
	return r;
}

static _Noreturn void syntax_error(struct parser *p, const struct dt_token *t)
{
	const char *text = error_text(p, t);

	if (text == NULL)
		dt_cerror(p->pcb, "D_SYNTAX", t->line, "syntax error near end%sinput",
			  p->in_decl ? "-of-" : " of ");
	dt_cerror(p->pcb, "D_SYNTAX", t->line, "syntax error near \"%s\"", text);
}

static const struct dt_token *peek(struct parser *p)
{
	return dt_lex_peek(&p->lx, LM_EXPR);
}

static enum dt_tok peek_tok(struct parser *p)
{
	return peek(p)->tok;
}

/* The token read; it stays in the parser (no copies in recursive frames) until the next read. */
static const struct dt_token *next(struct parser *p)
{
	dt_lex_next(&p->lx, LM_EXPR, &p->last);
	return &p->last;
}

/* What nests: each kind has DT_NEST_MAX levels (nest.h). */
enum { EXPR, STMT, DECL };
static const char *const nest_what[] = { "expression", "statement", "declaration" };

/* One level of `kind` deeper; unnest() gives it back. */
static void nest(struct parser *p, int kind)
{
	if (++p->depth[kind] > DT_NEST_MAX)
		dt_nest_error(p->pcb, peek(p)->line, nest_what[kind], true);
	if (!dt_nest_room(p->pcb))
		dt_nest_error(p->pcb, peek(p)->line, nest_what[kind], false);
}

static void unnest(struct parser *p, int kind)
{
	p->depth[kind]--;
}

static bool accept(struct parser *p, enum dt_tok tok)
{
	if (peek_tok(p) != tok)
		return false;
	next(p);
	return true;
}

static const struct dt_token *expect(struct parser *p, enum dt_tok tok)
{
	const struct dt_token *t = peek(p);

	if (t->tok != tok)
		syntax_error(p, t);
	return next(p);
}

/* ---- Types and declarations ---- */

static bool nameset_has(const struct nameset *t, const char *name)
{
	if (t->cap == 0)
		return false;
	for (size_t i = dt_strhash(name) & (t->cap - 1); t->v[i] != NULL; i = (i + 1) & (t->cap - 1))
		if (strcmp(t->v[i], name) == 0)
			return true;
	return false;
}

static void nameset_add(struct parser *p, struct nameset *t, const char *name)
{
	if (nameset_has(t, name))
		return;
	/* At most half full: double (in the arena) as the set grows. */
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		const char **v = dt_palloc(p->pcb, cap * sizeof(*v));
		memset(v, 0, cap * sizeof(*v));
		for (size_t i = 0; i < t->cap; i++) {
			if (t->v[i] == NULL)
				continue;
			size_t j = dt_strhash(t->v[i]) & (cap - 1);
			while (v[j] != NULL)
				j = (j + 1) & (cap - 1);
			v[j] = t->v[i];
		}
		t->v = v;
		t->cap = cap;
	}
	size_t j = dt_strhash(name) & (t->cap - 1);
	while (t->v[j] != NULL)
		j = (j + 1) & (t->cap - 1);
	t->v[j] = name;
	t->n++;
}

/* Did the program typedef this name (so far)?  Also the lexer's question at the top level. */
static bool declared_typedef(void *arg, const char *name)
{
	return nameset_has(&((const struct parser *)arg)->typedefs, name);
}

static bool is_var_name(const struct parser *p, const char *name)
{
	return nameset_has(&p->vars, name);
}

static void add_var(struct parser *p, const char *name)
{
	nameset_add(p, &p->vars, name);
}

static bool is_typename_ident(struct parser *p, const struct dt_token *t)
{
	if (t->tok != T_IDENT || is_var_name(p, t->sval))
		return false;
	return declared_typedef(p, t->sval) || dt_type_name_exists(p->pcb, t->sval);
}

/* Does the next token begin declaration specifiers (a type name)? */
static bool starts_type(struct parser *p, const struct dt_token *t)
{
	switch (t->tok) {
	case K_CHAR: case K_CONST: case K_DOUBLE: case K_ENUM: case K_FLOAT: case K_INT:
	case K_LONG: case K_RESTRICT: case K_SHORT: case K_SIGNED: case K_STRING:
	case K_STRUCT: case K_UNION: case K_UNSIGNED: case K_VOID: case K_VOLATILE:
	case K_USERLAND: case T_TNAME:
		return true;
	case T_IDENT:
		return is_typename_ident(p, t);
	default:
		return false;
	}
}

/* A parameter may also begin with a (C) storage class, which is then refused. */
static bool starts_param(struct parser *p, const struct dt_token *t)
{
	switch (t->tok) {
	case K_AUTO: case K_REGISTER: case K_STATIC: case K_EXTERN: case K_TYPEDEF:
		return true;
	default:
		return starts_type(p, t);
	}
}

static struct dt_node *parse_expr(struct parser *p);
static struct dt_node *parse_assign(struct parser *p);
static struct dt_node *parse_cond(struct parser *p);
static struct dt_node *parse_cast(struct parser *p);
static struct dt_node *parse_unary(struct parser *p);
static struct dt_declarator *parse_declarator(struct parser *p, bool abstract);
static struct dt_declarator *declarator(struct parser *p, bool abstract);

/* Which storage classes declaration specifiers may hold (DTrace's grammar). */
enum classes {
	CLASS_NONE,	/* type names and struct members */
	CLASS_C,	/* parameters: auto, register, static, extern, typedef */
	CLASS_D,	/* declarations and inlines: also self and this */
};

static struct dt_declspec *parse_declspec(struct parser *p, enum classes classes);

static void parse_struct_body(struct parser *p, struct dt_declspec *ds)
{
	struct dt_node *head = NULL, **tail = &head;

	nest(p, DECL);
	while (peek_tok(p) != T_RBRACE) {
		const struct dt_token *t = peek(p);
		if (!starts_type(p, t))
			syntax_error(p, t);
		struct dt_declspec *ms = parse_declspec(p, CLASS_NONE);
		for (;;) {
			struct dt_node *m = dt_node_new(p->pcb, N_DECL, peek(p)->line);
			m->decl.spec = ms;
			if (peek_tok(p) != T_COLON)
				m->decl.decl = parse_declarator(p, false);
			if (accept(p, T_COLON))
				m->decl.bitwidth = parse_cond(p);
			m->decl.end_line = peek(p)->line;
			*tail = m;
			tail = &m->next;
			if (!accept(p, T_COMMA))
				break;
		}
		expect(p, T_SEMI);
	}
	expect(p, T_RBRACE);
	unnest(p, DECL);
	ds->members = head;
	ds->has_body = true;
}

static void parse_enum_body(struct parser *p, struct dt_declspec *ds)
{
	struct dt_enumerator *head = NULL, **tail = &head;

	/* As DTrace's grammar: at least one enumerator. */
	if (peek_tok(p) == T_RBRACE)
		syntax_error(p, peek(p));
	do {
		if (peek_tok(p) == T_RBRACE)
			break;
		struct dt_token id = *expect(p, T_IDENT);
		struct dt_enumerator *e = dt_palloc(p->pcb, sizeof(*e));
		memset(e, 0, sizeof(*e));
		e->name = id.sval;
		e->line = id.line;
		if (accept(p, T_ASGN))
			e->value = parse_cond(p);
		e->end_line = peek(p)->line;
		*tail = e;
		tail = &e->next;
	} while (accept(p, T_COMMA));
	expect(p, T_RBRACE);
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
	return is_typename_ident(p, t);
}

/* Declaration specifiers: storage class, type specifiers, qualifiers. */
static struct dt_declspec *parse_declspec(struct parser *p, enum classes classes)
{
	struct dt_declspec *ds = dt_palloc(p->pcb, sizeof(*ds));
	bool any = false;

	memset(ds, 0, sizeof(*ds));
	ds->line = peek(p)->line;
	for (;;) {
		const struct dt_token *t = peek(p);
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
				syntax_error(p, t);
			if (ds->dclass != DC_NONE)
				dt_cerror(p->pcb, "D_DECL_CLASS", t->line,
					  "only one storage class allowed in a declaration");
			next(p);
			ds->dclass = dc;
			any = true;
			continue;
		}
		/* "static inline" functions of C headers included with -C. */
		if (t->tok == K_INLINE && (ds->dclass == DC_STATIC || ds->dclass == DC_EXTERN)) {
			next(p);
			continue;
		}
		switch (t->tok) {
		case K_CONST: next(p); ds->bits |= DS_CONST; any = true; continue;
		case K_VOLATILE: next(p); ds->bits |= DS_VOLATILE; any = true; continue;
		case K_RESTRICT: next(p); ds->bits |= DS_RESTRICT; any = true; continue;
		case K_USERLAND: next(p); ds->bits |= DS_USERLAND; any = true; continue;
		case K_SIGNED: next(p); ds->bits |= DS_SIGNED; any = true; continue;
		case K_UNSIGNED: next(p); ds->bits |= DS_UNSIGNED; any = true; continue;
		case K_SHORT: next(p); ds->bits |= DS_SHORT; any = true; continue;
		case K_LONG:
			/* As DTrace counts them: a second long makes long long, a third long again. */
			next(p);
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
			next(p);
			ds->ts = ts;
			any = true;
			continue;
		}
		if (t->tok == K_STRUCT || t->tok == K_UNION || t->tok == K_ENUM) {
			struct dt_token kw = *next(p);
			ds->ts = kw.tok == K_STRUCT ? TS_STRUCT : kw.tok == K_UNION ? TS_UNION : TS_ENUM;
			any = true;
			const struct dt_token *nt = peek(p);
			if (nt->tok == T_IDENT || nt->tok == T_TNAME) {
				ds->name = next(p)->sval;
				ds->tag_line = peek(p)->line;
			} else if (nt->tok != T_LBRACE || kw.sval != NULL) {
				syntax_error(p, nt);
			}
			/* "vmlinux`struct task_struct" names "struct vmlinux`task_struct". */
			if (kw.sval != NULL) {
				size_t n = strlen(kw.sval) + strlen(ds->name) + 2;
				char *sn = dt_palloc(p->pcb, n);
				snprintf(sn, n, "%s`%s", kw.sval, ds->name);
				ds->name = sn;
			}
			if (ds->name != NULL && strchr(ds->name, '`') != NULL) {
				if (accept(p, T_LBRACE)) {
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
			if (accept(p, T_LBRACE)) {
				if (ds->ts == TS_ENUM)
					parse_enum_body(p, ds);
				else
					parse_struct_body(p, ds);
			}
			continue;
		}
		/* A typedef name, unless it is the declarator's name. */
		if (names_type_here(p, t, ds, classes != CLASS_D)) {
			ds->name = next(p)->sval;
			ds->ts = TS_NAME;
			any = true;
			continue;
		}
		break;
	}
	if (!any)
		syntax_error(p, peek(p));
	return ds;
}

/* Array suffix contents: empty, a constant expression, or key types. */
static void parse_array_suffix(struct parser *p, struct dt_declarator *d)
{
	if (peek_tok(p) == T_RBRAC)
		return;
	if (peek_tok(p) == T_ELLIPSIS || starts_param(p, peek(p))) {
		struct dt_node *head = NULL, **tail = &head;
		do {
			if (peek_tok(p) == T_ELLIPSIS) {
				/* Refused later, in order with the other parameters' checks. */
				d->varargs = true;
				d->varargs_line = next(p)->line;
				break;
			}
			struct dt_node *k = dt_node_new(p->pcb, N_DECL, peek(p)->line);
			k->decl.spec = parse_declspec(p, CLASS_C);
			k->decl.decl = parse_declarator(p, true);
			k->decl.end_line = peek(p)->line;
			*tail = k;
			tail = &k->next;
		} while (accept(p, T_COMMA));
		d->params = head;
		d->assoc = true;
		return;
	}
	d->dim = parse_cond(p);
}

static void parse_params(struct parser *p, struct dt_declarator *d)
{
	struct dt_node *head = NULL, **tail = &head;

	if (peek_tok(p) == T_RPAR)
		return;
	do {
		if (peek_tok(p) == T_ELLIPSIS) {
			d->varargs = true;
			d->varargs_line = next(p)->line;
			break;
		}
		struct dt_node *k = dt_node_new(p->pcb, N_DECL, peek(p)->line);
		k->decl.spec = parse_declspec(p, CLASS_C);
		k->decl.decl = parse_declarator(p, true);
		k->decl.end_line = peek(p)->line;
		*tail = k;
		tail = &k->next;
	} while (accept(p, T_COMMA));
	d->params = head;
}

static struct dt_declarator *mkdecl(struct parser *p, enum dt_dkind kind, int line)
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
static struct dt_declarator *parse_declarator(struct parser *p, bool abstract)
{
	int depth = p->depth[DECL];
	struct dt_declarator *d = declarator(p, abstract);

	p->depth[DECL] = depth;
	return d;
}

/* Each pointer, grouping and suffix makes the type a level deeper: they all count. */
static struct dt_declarator *declarator(struct parser *p, bool abstract)
{
	int line = peek(p)->line;

	nest(p, DECL);
	if (accept(p, T_MUL)) {
		struct dt_declarator *ptr = mkdecl(p, DK_PTR, line);
		for (;;) {
			enum dt_tok t = peek_tok(p);
			if (t == K_CONST)
				ptr->quals |= DS_CONST;
			else if (t == K_VOLATILE)
				ptr->quals |= DS_VOLATILE;
			else if (t == K_RESTRICT)
				ptr->quals |= DS_RESTRICT;
			else
				break;
			next(p);
		}
		struct dt_declarator *inner = declarator(p, abstract);
		chain_tail(inner)->outer = ptr;
		return inner;
	}

	struct dt_declarator *head;
	const struct dt_token *t = peek(p);
	if (t->tok == T_IDENT || (t->tok == T_TNAME && !abstract)) {
		const struct dt_token *id = next(p);
		head = mkdecl(p, DK_NAME, id->line);
		head->name = id->sval;
	} else if (t->tok == T_LPAR) {
		/* Grouping "( declarator )" unless it is a parameter list. */
		next(p);
		const struct dt_token *nt = peek(p);
		bool grouping = nt->tok == T_MUL || nt->tok == T_LPAR || nt->tok == T_LBRAC ||
				(!abstract && nt->tok == T_IDENT && !is_typename_ident(p, nt));
		if (grouping) {
			head = declarator(p, abstract);
			expect(p, T_RPAR);
		} else {
			if (!abstract)
				syntax_error(p, nt);
			head = mkdecl(p, DK_NAME, line);
			struct dt_declarator *f = mkdecl(p, DK_FUNC, line);
			parse_params(p, f);
			f->end_line = expect(p, T_RPAR)->line;
			head->outer = f;
		}
	} else {
		if (!abstract)
			syntax_error(p, t);
		head = mkdecl(p, DK_NAME, line);
	}

	/* Suffixes bind tighter than the pointers around this declarator. */
	struct dt_declarator *tail = chain_tail(head);
	for (;;) {
		if (peek_tok(p) == T_LBRAC || peek_tok(p) == T_LPAR)
			nest(p, DECL);
		if (peek_tok(p) == T_LBRAC) {
			struct dt_declarator *a = mkdecl(p, DK_ARRAY, next(p)->line);
			parse_array_suffix(p, a);
			a->end_line = expect(p, T_RBRAC)->line;
			tail->outer = a;
			tail = a;
		} else if (peek_tok(p) == T_LPAR) {
			struct dt_declarator *f = mkdecl(p, DK_FUNC, next(p)->line);
			parse_params(p, f);
			f->end_line = expect(p, T_RPAR)->line;
			tail->outer = f;
			tail = f;
		} else {
			break;
		}
	}
	return head;
}

/* type_name := specifier_qualifier_list abstract_declarator? */
static void parse_type_name(struct parser *p, struct dt_node *n)
{
	n->tn_spec = parse_declspec(p, CLASS_NONE);
	n->tn_decl = parse_declarator(p, true);
}

/* ---- Expressions ---- */

static struct dt_node *op2(struct parser *p, enum dt_tok op, struct dt_node *l,
			   struct dt_node *r, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_OP2, line);

	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static struct dt_node *parse_args(struct parser *p, enum dt_tok close)
{
	struct dt_node *head = NULL, **tail = &head;

	if (peek_tok(p) == close)
		return NULL;
	do {
		struct dt_node *a = parse_assign(p);
		*tail = a;
		tail = &a->next;
	} while (accept(p, T_COMMA));
	return head;
}

static struct dt_node *parse_primary(struct parser *p)
{
	/* Read before anything else is (next() overwrites it). */
	const struct dt_token *t = next(p);
	int line = t->line;
	struct dt_node *n;

	switch (t->tok) {
	case T_IDENT: {
		n = dt_node_new(p->pcb, N_IDENT, line);
		n->ident.name = t->sval;
		/* DTrace's look-ahead: a name assigned, indexed or ending a statement is a variable. */
		enum dt_tok nt = peek_tok(p);
		if (nt == T_ASGN || nt == T_ADDADD || nt == T_SUBSUB || nt == T_LBRAC || nt == T_SEMI ||
		    (nt == T_COMMA && p->lx.parens == 0))
			add_var(p, t->sval);
		return n;
	}
	case T_AGG:
		n = dt_node_new(p->pcb, N_AGG, line);
		n->agg.name = t->sval;
		return n;
	case T_INT:
		/* DTrace types constants as it parses them: this one fits no type. */
		if (t->idecimal && t->ival > INT64_MAX && strpbrk(t->isuffix, "uU") == NULL)
			dt_cerror(p->pcb, "D_INT_OFLOW", line,
				  "integer constant 0x%llx cannot be represented in any built-in integral type",
				  (unsigned long long)t->ival);
		n = dt_node_new(p->pcb, N_INT, line);
		n->i.value = t->ival;
		memcpy(n->i.suffix, t->isuffix, sizeof(n->i.suffix));
		n->i.decimal = t->idecimal;
		return n;
	case T_STRING:
		n = dt_node_new(p->pcb, N_STRING, line);
		n->str.s = t->sval;
		n->str.len = t->slen;
		return n;
	case K_SELF:
	case K_THIS:
		n = dt_node_new(p->pcb, N_IDENT, line);
		n->ident.name = t->tok == K_SELF ? "self" : "this";
		n->op = t->tok == K_SELF ? T_SELF : T_THIS;
		return n;
	case T_LPAR:
		n = parse_expr(p);
		expect(p, T_RPAR);
		p->paren = n;
		return n;
	case K_OFFSETOF:
		n = dt_node_new(p->pcb, N_OFFSETOF, line);
		expect(p, T_LPAR);
		parse_type_name(p, n);
		expect(p, T_COMMA);
		/* An identifier: unlike after "." and "->", a keyword is not one here (DTrace's grammar). */
		n->member = expect(p, T_IDENT)->sval;
		expect(p, T_RPAR);
		return n;
	case K_XLATE:
		n = dt_node_new(p->pcb, N_XLATE, line);
		expect(p, T_LT);
		parse_type_name(p, n);
		expect(p, T_GT);
		expect(p, T_LPAR);
		n->l = parse_expr(p);
		expect(p, T_RPAR);
		return n;
	default:
		syntax_error(p, t);
	}
}

static struct dt_node *parse_postfix(struct parser *p)
{
	struct dt_node *n = parse_primary(p);
	int depth = p->depth[EXPR];

	for (;;) {
		const struct dt_token *t = peek(p);
		int line = t->line;

		/* Each operator puts what it applies to a level deeper. */
		switch (t->tok) {
		case T_LBRAC: case T_LPAR: case T_DOT: case T_PTR: case T_ADDADD: case T_SUBSUB:
			nest(p, EXPR);
			break;
		default:
			p->depth[EXPR] = depth;
			return n;
		}
		switch (t->tok) {
		case T_LBRAC: {
			next(p);
			struct dt_node *args = parse_args(p, T_RBRAC);
			line = expect(p, T_RBRAC)->line;
			if (n->kind == N_AGG && n->agg.keys == NULL) {
				n->agg.keys = args;
				if (args == NULL)
					syntax_error(p, t);
				break;
			}
			if (n->kind == N_AGG)
				dt_cerror(p->pcb, "D_AGG_MDIM", line,
					  "improper attempt to reference @%s as a multi-dimensional array",
					  n->agg.name);
			struct dt_node *ix = dt_node_new(p->pcb, N_INDEX, line);
			ix->l = n;
			ix->call.args = args;
			n = ix;
			break;
		}
		case T_LPAR: {
			next(p);
			struct dt_node *args = parse_args(p, T_RPAR);
			expect(p, T_RPAR);
			/* DTrace parses @a as a name, which names no function. */
			if (n->kind == N_AGG && n->agg.keys == NULL)
				dt_cerror(p->pcb, "D_FUNC_UNDEF", n->line, "undefined function name: @%s",
					  n->agg.name);
			if (n->kind != N_IDENT || n->op == T_SELF || n->op == T_THIS) {
				dt_cerror(p->pcb, "D_FUNC_IDENT", line,
					  "function designator is not of function type");
			}
			struct dt_node *c = dt_node_new(p->pcb, N_CALL, n->line);
			c->call.name = n->ident.name;
			c->call.args = args;
			n = c;
			break;
		}
		case T_DOT:
		case T_PTR: {
			enum dt_tok op = next(p)->tok;
			/* The member's name is read into the parser's token, not a copy here. */
			dt_lex_next(&p->lx, LM_MEMBER, &p->last);
			if (p->last.tok != T_IDENT)
				syntax_error(p, &p->last);
			char *member = p->last.sval;
			if (n->kind == N_IDENT && (n->op == T_SELF || n->op == T_THIS) &&
			    op == T_PTR) {
				struct dt_node *v = dt_node_new(p->pcb, N_VAR, n->line);
				v->op = n->op;
				v->member = member;
				n = v;
				break;
			}
			struct dt_node *mn = dt_node_new(p->pcb, N_MEMBER, p->last.line);
			mn->op = op;
			mn->l = n;
			mn->member = member;
			n = mn;
			break;
		}
		case T_ADDADD:
		case T_SUBSUB: {
			enum dt_tok op = next(p)->tok;
			struct dt_node *u = dt_node_new(p->pcb, N_OP1, line);
			u->op = op == T_ADDADD ? T_POSTINC : T_POSTDEC;
			u->flags |= DN_POSTFIX;
			u->l = n;
			n = u;
			break;
		}
		default:
			break;
		}
	}
}

/*
 * "(" followed by a type name begins a cast (or sizeof's operand).  Not
 * inlined: its copy of the lexer would sit in every level of recursion.
 */
static __attribute__((noinline)) bool paren_type_follows(struct parser *p)
{
	const struct dt_token *t = peek(p);

	if (t->tok != T_LPAR)
		return false;
	/* Look past the '(' without consuming: re-lex from a saved state. */
	struct dt_lexer save = p->lx;
	struct dt_token lp;
	dt_lex_next(&p->lx, LM_EXPR, &lp);
	const struct dt_token *t2 = dt_lex_peek(&p->lx, LM_EXPR);
	bool is_type = starts_type(p, t2);
	p->lx = save;
	return is_type;
}

static struct dt_node *parse_unary(struct parser *p)
{
	const struct dt_token *t = peek(p);
	int line = t->line;
	struct dt_node *n;

	switch (t->tok) {
	case T_ADDADD:
	case T_SUBSUB: {
		enum dt_tok op = next(p)->tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_ADDADD ? T_PREINC : T_PREDEC;
		nest(p, EXPR);
		n->l = parse_unary(p);
		unnest(p, EXPR);
		n->line = peek(p)->line;
		return n;
	}
	case T_BAND:
	case T_MUL:
	case T_ADD:
	case T_SUB:
	case T_BNEG:
	case T_LNEG: {
		enum dt_tok op = next(p)->tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_BAND ? T_ADDROF : op == T_MUL ? T_DEREF : op == T_ADD ? T_IPOS
			: op == T_SUB ? T_INEG : op;
		n->l = parse_cast(p);
		n->line = peek(p)->line;
		return n;
	}
	case K_SIZEOF:
		next(p);
		n = dt_node_new(p->pcb, N_SIZEOF, line);
		if (paren_type_follows(p)) {
			expect(p, T_LPAR);
			parse_type_name(p, n);
			n->line = expect(p, T_RPAR)->line;
		} else {
			nest(p, EXPR);
			n->l = parse_unary(p);
			unnest(p, EXPR);
			n->line = peek(p)->line;
		}
		return n;
	case K_STRINGOF:
		next(p);
		n = dt_node_new(p->pcb, N_STRINGOF, line);
		nest(p, EXPR);
		n->l = parse_unary(p);
		unnest(p, EXPR);
		n->line = peek(p)->line;
		return n;
	default:
		return parse_postfix(p);
	}
}

static struct dt_node *parse_cast(struct parser *p)
{
	struct dt_node *n;

	nest(p, EXPR);
	if (paren_type_follows(p)) {
		n = dt_node_new(p->pcb, N_CAST, next(p)->line);
		parse_type_name(p, n);
		expect(p, T_RPAR);
		n->l = parse_cast(p);
		/* DTrace's line: where the cast is complete (the next token). */
		n->line = peek(p)->line;
	} else {
		n = parse_unary(p);
	}
	unnest(p, EXPR);
	return n;
}

/* Binary operator precedence (higher binds tighter), 0 if not binary. */
static int binprec(enum dt_tok t)
{
	switch (t) {
	case T_MUL: case T_DIV: case T_MOD: return 10;
	case T_ADD: case T_SUB: return 9;
	case T_LSH: case T_RSH: return 8;
	case T_LT: case T_GT: case T_LE: case T_GE: return 7;
	case T_EQU: case T_NEQ: return 6;
	case T_BAND: return 5;
	case T_XOR: return 4;
	case T_BOR: return 3;
	case T_LAND: return 2;
	case T_LXOR: return 1;
	case T_LOR: return 0;
	default: return -1;
	}
}

/*
 * Operators of equal precedence chain to the left (a + b + c) without
 * recursion: the later passes walk such chains without recursing either.
 */
static struct dt_node *parse_binary(struct parser *p, int minprec)
{
	struct dt_node *l = parse_cast(p);

	for (;;) {
		const struct dt_token *t = peek(p);
		int prec = binprec(t->tok);
		if (prec < minprec || prec < 0)
			return l;
		enum dt_tok op = next(p)->tok;
		nest(p, EXPR);
		struct dt_node *r = parse_binary(p, prec + 1);
		unnest(p, EXPR);
		/* DTrace's line: where the operation is complete (the next token). */
		l = op2(p, op, l, r, peek(p)->line);
	}
}

/* A chain of ?: (a ? b : c ? d : e ...) is read, and later walked, without recursion. */
static struct dt_node *parse_cond(struct parser *p)
{
	struct dt_node *c = parse_binary(p, 0), *top = c, **hole = &top;

	while (peek_tok(p) == T_QUESTION) {
		struct dt_node *n = dt_node_new(p->pcb, N_OP3, next(p)->line);
		n->cond = c;
		nest(p, EXPR);
		n->l = parse_expr(p);
		unnest(p, EXPR);
		expect(p, T_COLON);
		*hole = n;
		hole = &n->r;
		c = parse_binary(p, 0);
	}
	*hole = c;
	/* DTrace's line: where the operation is complete (the next token), the same for all. */
	int line = peek(p)->line;
	for (struct dt_node *n = top; n != c; n = n->r)
		n->line = line;
	return top;
}

static bool is_assign_op(enum dt_tok t)
{
	switch (t) {
	case T_ASGN: case T_ADD_EQ: case T_SUB_EQ: case T_MUL_EQ: case T_DIV_EQ:
	case T_MOD_EQ: case T_AND_EQ: case T_XOR_EQ: case T_OR_EQ: case T_LSH_EQ:
	case T_RSH_EQ:
		return true;
	default:
		return false;
	}
}

/*
 * Is n, as parsed, a unary expression (DTrace's grammar assigns only to
 * those)?  Binary and conditional operators and casts are not, unless
 * parenthesized.
 */
static bool is_unary_expr(const struct parser *p, const struct dt_node *n)
{
	bool binary = n->kind == N_OP2 || n->kind == N_OP3 || n->kind == N_CAST;

	return !binary || n == p->paren;
}

static struct dt_node *parse_assign(struct parser *p)
{
	struct dt_node *l = parse_cond(p);
	const struct dt_token *t = peek(p);

	if (!is_assign_op(t->tok))
		return l;
	if (!is_unary_expr(p, l))
		syntax_error(p, t);
	enum dt_tok op = next(p)->tok;
	nest(p, EXPR);
	struct dt_node *r = parse_assign(p);
	unnest(p, EXPR);
	return op2(p, op, l, r, peek(p)->line);
}

static struct dt_node *parse_expr(struct parser *p)
{
	struct dt_node *n = parse_assign(p);

	while (peek_tok(p) == T_COMMA) {
		next(p);
		struct dt_node *r = parse_assign(p);
		n = op2(p, T_COMMA, n, r, peek(p)->line);
	}
	return n;
}

/*
 * ---- Statements ----
 *
 * As DTrace's grammar: a statement is ";", "expression ;" or an if, whose
 * branches are a statement or a braced statement list; braces group
 * nothing else.  A list's last expression may omit its ";".
 */

static struct dt_node *parse_stmts(struct parser *p);
static struct dt_node *parse_if(struct parser *p);

/* An if's branch: a statement (NULL for ";") or "{ list }" as one N_BLOCK. */
static struct dt_node *parse_branch(struct parser *p)
{
	const struct dt_token *t = peek(p);
	int line = t->line;

	if (t->tok == T_LBRACE) {
		next(p);
		struct dt_node *n = dt_node_new(p->pcb, N_BLOCK, line);
		nest(p, STMT);
		n->body = parse_stmts(p);
		unnest(p, STMT);
		expect(p, T_RBRACE);
		return n;
	}
	if (t->tok == T_SEMI) {
		next(p);
		return NULL;
	}
	if (t->tok == K_IF)
		return parse_if(p);
	struct dt_node *n = dt_node_new(p->pcb, N_EXPRSTMT, line);
	n->l = parse_expr(p);
	expect(p, T_SEMI);
	return n;
}

static struct dt_node *parse_if(struct parser *p)
{
	struct dt_node *n = dt_node_new(p->pcb, N_IF, expect(p, K_IF)->line);

	nest(p, STMT);
	expect(p, T_LPAR);
	n->cond = parse_expr(p);
	expect(p, T_RPAR);
	n->body = parse_branch(p);
	if (accept(p, K_ELSE))
		n->elsebody = parse_branch(p);
	unnest(p, STMT);
	return n;
}

/* Statements up to (not including) the closing brace. */
static struct dt_node *parse_stmts(struct parser *p)
{
	struct dt_node *head = NULL, **tail = &head;

	for (;;) {
		const struct dt_token *t = peek(p);
		if (t->tok == T_RBRACE)
			break;
		if (t->tok == T_EOF)
			syntax_error(p, t);
		if (t->tok == T_SEMI) {
			next(p);
			continue;
		}
		struct dt_node *s;
		if (t->tok == K_IF) {
			s = parse_if(p);
		} else {
			s = dt_node_new(p->pcb, N_EXPRSTMT, t->line);
			s->l = parse_expr(p);
			t = peek(p);
			if (t->tok == T_SEMI)
				next(p);
			else if (t->tok != T_RBRACE)
				syntax_error(p, t);
		}
		*tail = s;
		tail = &s->next;
	}
	return head;
}

/* ---- Program level ---- */

static struct dt_node *parse_clause(struct parser *p, struct dt_token first)
{
	struct dt_node *n = dt_node_new(p->pcb, N_CLAUSE, first.line);
	struct dt_pdesc **descs = NULL;
	int nd = 0, cap = 0;
	struct dt_token t = first;

	for (;;) {
		struct dt_pdesc *d;
		if (t.tok == T_PSPEC || t.tok == T_IDENT) {
			d = dt_pdesc_parse(p->pcb, t.sval, p->pcb->pspec_kind, t.line);
		} else if (t.tok == T_INT) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t.ival);
			d = dt_pdesc_parse(p->pcb, buf, DTRACE_PSPEC_ID, t.line);
		} else {
			syntax_error(p, &t);
		}
		/* As many as the program lists (in the arena: an error frees them). */
		if (nd == cap) {
			cap = cap ? 2 * cap : 8;
			struct dt_pdesc **nv = dt_palloc(p->pcb, sizeof(*nv) * (size_t)cap);
			if (nd > 0)
				memcpy(nv, descs, sizeof(*nv) * (size_t)nd);
			descs = nv;
		}
		descs[nd++] = d;
		const struct dt_token *nt = dt_lex_peek(&p->lx, LM_OUTER);
		if (nt->tok != T_COMMA)
			break;
		dt_lex_next(&p->lx, LM_OUTER, &t);
		dt_lex_next(&p->lx, LM_OUTER, &t);
	}
	n->clause.pdescs = descs;
	n->clause.npdescs = nd;

	const struct dt_token *nt = dt_lex_peek(&p->lx, LM_OUTER);
	if (nt->tok == T_DIV) {
		struct dt_token slash;
		dt_lex_next(&p->lx, LM_OUTER, &slash);
		n->clause.pred = parse_expr(p);
		const struct dt_token *e = peek(p);
		if (e->tok != T_EPRED)
			syntax_error(p, e);
		next(p);
		if (peek_tok(p) != T_LBRACE)
			dt_cerror(p->pcb, "D_SYNTAX", n->clause.pred->line,
				  "expected actions { } following probe description and predicate");
		nt = dt_lex_peek(&p->lx, LM_OUTER);
	}
	if (nt->tok == T_LBRACE) {
		struct dt_token lb;
		dt_lex_next(&p->lx, LM_OUTER, &lb);
		n->clause.body = parse_stmts(p);
		n->clause.has_body = true;
		n->clause.end_line = expect(p, T_RBRACE)->line;
		return n;
	}
	if (!(p->pcb->cflags & DTRACE_C_PSPEC) && p->pcb->filename != NULL)
		dt_cerror(p->pcb, "D_SYNTAX", first.line,
			  "expected predicate and/or actions following probe description");
	/* Outside a file a clause may have no actions, and another may follow it ("BEGIN END"). */
	return n;
}

/* Does the declarator declare a function (its name directly takes parameters)? */
static bool is_function(const struct dt_declarator *d)
{
	while (d != NULL && d->name == NULL)
		d = d->outer;
	return d != NULL && d->outer != NULL && d->outer->kind == DK_FUNC;
}

static struct dt_node *parse_decl(struct parser *p)
{
	int line = peek(p)->line;
	struct dt_declspec *ds = parse_declspec(p, CLASS_D);
	struct dt_node *head = NULL, **tail = &head;

	if (peek_tok(p) == T_SEMI) {
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, line);
		n->decl.spec = ds;
		n->decl.end_line = next(p)->line;
		return n;
	}
	do {
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, peek(p)->line);
		n->decl.spec = ds;
		n->decl.decl = parse_declarator(p, false);
		n->decl.end_line = peek(p)->line;
		/*
		 * A C function definition (from a header included with -C):
		 * D has no functions, so its body is skipped.
		 */
		if (peek_tok(p) == T_LBRACE && is_function(n->decl.decl) &&
		    (ds->dclass == DC_STATIC || ds->dclass == DC_EXTERN)) {
			int depth = 0;
			do {
				struct dt_token b = *next(p);
				if (b.tok == T_LBRACE)
					depth++;
				else if (b.tok == T_RBRACE)
					depth--;
				else if (b.tok == T_EOF)
					syntax_error(p, &b);
			} while (depth > 0);
			return head ? head : dt_node_new(p->pcb, N_EMPTY, line);
		}
		struct dt_declarator *d = n->decl.decl;
		while (d != NULL && d->name == NULL)
			d = d->outer;
		if (d != NULL && ds->dclass == DC_TYPEDEF)
			nameset_add(p, &p->typedefs, d->name);
		else if (d != NULL && (ds->dclass == DC_NONE || ds->dclass == DC_EXTERN)) {
			add_var(p, d->name);
		}
		*tail = n;
		tail = &n->next;
	} while (accept(p, T_COMMA));
	expect(p, T_SEMI);
	return head;
}

static struct dt_node *parse_inline(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_INLINE, line);

	n->decl.spec = parse_declspec(p, CLASS_D);
	n->decl.decl = parse_declarator(p, false);
	expect(p, T_ASGN);
	n->l = parse_assign(p);
	n->decl.end_line = expect(p, T_SEMI)->line;
	return n;
}

static struct dt_node *parse_translator(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_XLATOR, line);
	struct dt_node tmp;

	memset(&tmp, 0, sizeof(tmp));
	parse_type_name(p, &tmp);
	n->xlator.to_spec = tmp.tn_spec;
	n->xlator.to_decl = tmp.tn_decl;
	expect(p, T_LT);
	memset(&tmp, 0, sizeof(tmp));
	tmp.tn_spec = parse_declspec(p, CLASS_NONE);
	/* The input declarator ends with the identifier before '>'. */
	struct dt_declarator *d = parse_declarator(p, false);
	n->xlator.from_spec = tmp.tn_spec;
	n->xlator.from_decl = d;
	n->xlator.from_name = d->name;
	expect(p, T_GT);
	expect(p, T_LBRACE);
	struct dt_node *head = NULL, **tail = &head;
	while (peek_tok(p) != T_RBRACE) {
		struct dt_token m;
		dt_lex_next(&p->lx, LM_MEMBER, &m);
		if (m.tok != T_IDENT)
			syntax_error(p, &m);
		struct dt_token eq = *expect(p, T_ASGN);
		struct dt_node *mn = dt_node_new(p->pcb, N_OP2, m.line);
		mn->op = T_ASGN;
		mn->member = m.sval;
		mn->r = parse_assign(p);
		(void)eq;
		expect(p, T_SEMI);
		*tail = mn;
		tail = &mn->next;
	}
	expect(p, T_RBRACE);
	n->xlator.end_line = expect(p, T_SEMI)->line;
	n->xlator.members = head;
	return n;
}

static struct dt_node *parse_provider(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_PROVIDER, line);
	struct dt_token name = *expect(p, T_IDENT);
	struct dt_node *head = NULL, **tail = &head;

	n->provider.name = name.sval;
	expect(p, T_LBRACE);
	while (peek_tok(p) != T_RBRACE) {
		struct dt_token pk = *expect(p, K_PROBE);
		struct dt_token pn = *expect(p, T_IDENT);
		struct dt_node *pr = dt_node_new(p->pcb, N_DECL, pk.line);
		struct dt_declarator *d = mkdecl(p, DK_NAME, pn.line);
		d->name = pn.sval;
		struct dt_declarator *f = mkdecl(p, DK_FUNC, pn.line);
		expect(p, T_LPAR);
		parse_params(p, f);
		expect(p, T_RPAR);
		d->outer = f;
		pr->decl.decl = d;
		if (accept(p, T_COLON)) {
			/* Translated argument types: "probe p(a) : (b)". */
			struct dt_declarator *xf = mkdecl(p, DK_FUNC, pn.line);
			expect(p, T_LPAR);
			parse_params(p, xf);
			expect(p, T_RPAR);
			pr->l = dt_node_new(p->pcb, N_DECL, pn.line);
			pr->l->decl.decl = xf;
		}
		expect(p, T_SEMI);
		*tail = pr;
		tail = &pr->next;
	}
	expect(p, T_RBRACE);
	n->provider.end_line = expect(p, T_SEMI)->line;
	n->provider.probes = head;
	return n;
}

static int pragma_cb(struct dt_pcb *pcb, const struct dt_ctok *toks, int ntoks, int line)
{
	return dt_pragma(pcb, toks, ntoks, line);
}

void dt_parse_program(struct dt_pcb *pcb)
{
	struct parser p;
	struct dt_node *head = NULL, **tail = &head;

	memset(&p, 0, sizeof(p));
	p.pcb = pcb;
	dt_lex_init(&p.lx, pcb, pcb->src, pcb->srclen, pragma_cb);
	p.lx.is_tname = declared_typedef;
	p.lx.tname_arg = &p;

	for (;;) {
		struct dt_token t;
		const struct dt_token *pt = dt_lex_peek(&p.lx, LM_OUTER);
		struct dt_node *n;

		switch (pt->tok) {
		case T_EOF:
			/* Nothing at all (comments aside) is an error, as in DTrace. */
			if (head == NULL && !pcb->is_dlib && !pcb->is_library && !pcb->cc->core->opts.empty)
				dt_cerror(pcb, "D_EMPTY", pt->line, "empty D program translation unit");
			pcb->root = head;
			return;
		case K_INLINE:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_inline(&p, t.line);
			break;
		case K_TRANSLATOR:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_translator(&p, t.line);
			break;
		case K_PROVIDER:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_provider(&p, t.line);
			break;
		case T_PSPEC:
		case T_INT:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_clause(&p, t);
			break;
		case T_COMMA:
		case T_DIV:
		case T_LBRACE:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			syntax_error(&p, &t);
		default:
			/* Declaration keywords and type names: read them as C tokens. */
			if (pt->tok == K_COUNTER || pt->tok == K_IMPORT) {
				dt_lex_next(&p.lx, LM_OUTER, &t);
				syntax_error(&p, &t);
			}
			p.in_decl = true;
			n = parse_decl(&p);
			p.in_decl = false;
			break;
		}
		*tail = n;
		pcb->nparsed++;
		while (n->next != NULL) {
			n = n->next;
			pcb->nparsed++;
		}
		tail = &n->next;
		pcb->parsed = head;
	}
}

struct dt_node *dt_parse_type_string(struct dt_pcb *pcb, const char *text)
{
	struct parser p;

	memset(&p, 0, sizeof(p));
	p.pcb = pcb;
	dt_lex_init(&p.lx, pcb, text, strlen(text), NULL);
	struct dt_node *n = dt_node_new(pcb, N_TYPEEXPR, 0);
	parse_type_name(&p, n);
	if (peek_tok(&p) != T_EOF)
		syntax_error(&p, peek(&p));
	return n;
}

/* ---- Probe descriptions ---- */

/* a followed by n bytes of b, in the compile arena. */
static char *append(struct dt_pcb *pcb, const char *a, const char *b, size_t n)
{
	size_t alen = strlen(a);
	char *r = dt_palloc(pcb, alen + n + 1);

	memcpy(r, a, alen);
	memcpy(r + alen, b, n);
	r[alen + n] = '\0';
	return r;
}

/*
 * A probe description field with a macro reference, as DTrace reads it:
 * the first '$' (or "$$") and what follows it to the end of the field is
 * either $N (an argument, followed by any text) or $name (a macro
 * variable, alone).  NULL if it names nothing (DTrace's "Undefined macro
 * variable in probe description"); defaultargs does not apply here.
 */
static char *expand_macros(struct dt_pcb *pcb, const char *s)
{
	const char *v = strchr(s, '$');

	if (v == NULL)
		return dt_pstrdup(pcb, s);
	char *r = dt_pstrndup(pcb, s, (size_t)(v - s));
	if (v[1] == '$' && v[2] != '\0')
		v++;
	if (isdigit((unsigned char)v[1])) {
		char *w;
		errno = 0;
		long n = strtol(v + 1, &w, 10);
		if (errno != 0 || n < 0 || n >= pcb->argc)
			return NULL;
		if (pcb->argref != NULL)
			pcb->argref[n] = true;
		r = append(pcb, r, pcb->argv[n], strlen(pcb->argv[n]));
		return append(pcb, r, w, strlen(w));
	}
	if (v[1] == '\0' || !dt_macro_var_defined(v + 1))
		return NULL;
	char num[32];
	snprintf(num, sizeof(num), "%lld", (long long)dt_macro_var(pcb, v + 1, v, 0));
	return append(pcb, r, num, strlen(num));
}

struct dt_pdesc *dt_pdesc_parse(struct dt_pcb *pcb, const char *text, int kind, int line)
{
	struct dt_pdesc *d = dt_palloc(pcb, sizeof(*d));
	char *fields[4] = { NULL, NULL, NULL, NULL };
	size_t len = strlen(text);

	memset(d, 0, sizeof(*d));
	d->text = dt_pstrdup(pcb, text);
	d->line = line;
	if (kind == DTRACE_PSPEC_ID) {
		char *end;
		errno = 0;
		unsigned long long id = strtoull(text, &end, 0);
		if (isdigit((unsigned char)*text) && *end == '\0') {
			static const char *const what[] = { "names", "providers", "modules",
							    "functions" };
			if (errno != 0 || id > UINT32_MAX)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "identifier %llu exceeds maximum probe id", id);
			/* An integer names a probe only where a whole name could be given. */
			if (pcb->pspec_kind != DTRACE_PSPEC_NAME && pcb->pspec_kind != DTRACE_PSPEC_ID)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "probe identifier %llu not permitted when specifying %s", id,
					  what[pcb->pspec_kind]);
			/* Ids are numbered over every provider's probes. */
			dt_probes_populate_all(pcb->cc->reg);
			if (id == 0 || dt_probe_by_id(pcb->cc->reg, (uint32_t)id) == NULL)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "invalid probe identifier %llu: Unknown probe identifier", id);
			d->id = (unsigned long)id;
			d->prov = d->mod = d->func = d->name = "";
			return d;
		}
		kind = DTRACE_PSPEC_NAME;
	}
	/*
	 * As DTrace: fields are taken from the right, the last one naming what
	 * the option (-P/-m/-f/-n) names; a field too many overspecifies.
	 */
	int field = kind == DTRACE_PSPEC_PROVIDER ? 0 : kind == DTRACE_PSPEC_MODULE ? 1
		    : kind == DTRACE_PSPEC_FUNC ? 2 : 3;
	long p = (long)len - 1;
	do {
		long end = p;
		while (p >= 0 && text[p] != ':')
			p--;
		char *f = expand_macros(pcb, dt_pstrndup(pcb, text + p + 1, (size_t)(end - p)));
		if (f == NULL)
			dt_cerror(pcb, "D_PDESC_INVAL", line,
				  "invalid probe description \"%s\": Undefined macro variable in probe "
				  "description", text);
		if (field < 0)
			dt_cerror(pcb, "D_PDESC_INVAL", line,
				  "invalid probe description \"%s\": Overspecified probe description",
				  text);
		fields[field] = f;
		field--;
	} while (--p >= 0);
	d->prov = fields[0] ? fields[0] : "";
	d->mod = fields[1] ? fields[1] : "";
	d->func = fields[2] ? fields[2] : "";
	d->name = fields[3] ? fields[3] : "";
	return d;
}
