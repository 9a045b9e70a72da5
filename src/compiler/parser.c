/*
 * The D parser.  Recursive descent with one token of look-ahead; the
 * lexer is told which mode to read in (program scope or expressions).
 * Syntax errors are reported as DTrace's yacc grammar reports them:
 * `syntax error near "<token>"`.
 */
#include "compiler/parser.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/lexer.h"
#include "compiler/macros.h"
#include "compiler/pragma.h"
#include "compiler/types.h"
#include "dtrace.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"

/* Names a typedef of this program declared (they are types from then on). */
struct tdname {
	const char *name;
	struct tdname *next;
};

struct parser {
	struct dt_pcb *pcb;
	struct dt_lexer lx;
	bool in_xlator_input;
	struct tdname *typedefs;
	/* In a top-level declaration, where DTrace says "end-of-input". */
	bool in_decl;
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

static _Noreturn void syntax_error(struct parser *p, const struct dt_token *t)
{
	const char *text = dt_tok_text(&p->lx, t);

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

static struct dt_token next(struct parser *p)
{
	struct dt_token t;

	dt_lex_next(&p->lx, LM_EXPR, &t);
	return t;
}

static bool accept(struct parser *p, enum dt_tok tok)
{
	if (peek_tok(p) != tok)
		return false;
	next(p);
	return true;
}

static struct dt_token expect(struct parser *p, enum dt_tok tok)
{
	const struct dt_token *t = peek(p);

	if (t->tok != tok)
		syntax_error(p, t);
	return next(p);
}

/* ---- Types and declarations ---- */

/* Did the program typedef this name (so far)?  Also the lexer's question at the top level. */
static bool declared_typedef(void *arg, const char *name)
{
	const struct parser *p = arg;

	for (const struct tdname *td = p->typedefs; td != NULL; td = td->next)
		if (strcmp(td->name, name) == 0)
			return true;
	return false;
}

static bool is_typename_ident(struct parser *p, const struct dt_token *t)
{
	if (t->tok != T_IDENT)
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

static struct dt_node *parse_expr(struct parser *p);
static struct dt_node *parse_assign(struct parser *p);
static struct dt_node *parse_cond(struct parser *p);
static struct dt_node *parse_cast(struct parser *p);
static struct dt_node *parse_unary(struct parser *p);
static struct dt_declarator *parse_declarator(struct parser *p, bool abstract);
static struct dt_declspec *parse_declspec(struct parser *p, bool allow_class);

static void parse_struct_body(struct parser *p, struct dt_declspec *ds)
{
	struct dt_node *head = NULL, **tail = &head;

	while (peek_tok(p) != T_RBRACE) {
		const struct dt_token *t = peek(p);
		if (!starts_type(p, t))
			syntax_error(p, t);
		struct dt_declspec *ms = parse_declspec(p, false);
		for (;;) {
			struct dt_node *m = dt_node_new(p->pcb, N_DECL, peek(p)->line);
			m->decl.spec = ms;
			if (peek_tok(p) != T_COLON)
				m->decl.decl = parse_declarator(p, false);
			if (accept(p, T_COLON))
				m->decl.bitwidth = parse_cond(p);
			*tail = m;
			tail = &m->next;
			if (!accept(p, T_COMMA))
				break;
		}
		expect(p, T_SEMI);
	}
	expect(p, T_RBRACE);
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
		struct dt_token id = expect(p, T_IDENT);
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

/* Declaration specifiers: storage class, type specifiers, qualifiers. */
static struct dt_declspec *parse_declspec(struct parser *p, bool allow_class)
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
			if (!allow_class)
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
			next(p);
			ds->bits |= (ds->bits & DS_LONG) ? DS_LONGLONG : DS_LONG;
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
			struct dt_token kw = next(p);
			ds->ts = kw.tok == K_STRUCT ? TS_STRUCT : kw.tok == K_UNION ? TS_UNION : TS_ENUM;
			any = true;
			const struct dt_token *nt = peek(p);
			if (nt->tok == T_IDENT || nt->tok == T_TNAME) {
				ds->name = next(p).sval;
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
		/* A typedef name, unless modifiers already made the type (then it's the declarator). */
		if ((t->tok == T_IDENT || t->tok == T_TNAME) &&
		    !(ds->bits & (DS_SIGNED | DS_UNSIGNED | DS_SHORT | DS_LONG)) &&
		    (t->tok == T_TNAME || is_typename_ident(p, t))) {
			ds->name = next(p).sval;
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
	if (peek_tok(p) == T_ELLIPSIS || starts_type(p, peek(p))) {
		struct dt_node *head = NULL, **tail = &head;
		do {
			if (peek_tok(p) == T_ELLIPSIS)
				dt_cerror(p->pcb, "D_DECL_PROTO_VARARGS", peek(p)->line,
					  "array prototype may not use a variable-length argument list");
			struct dt_node *k = dt_node_new(p->pcb, N_DECL, peek(p)->line);
			k->decl.spec = parse_declspec(p, false);
			k->decl.decl = parse_declarator(p, true);
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
		if (accept(p, T_ELLIPSIS)) {
			d->varargs = true;
			break;
		}
		struct dt_node *k = dt_node_new(p->pcb, N_DECL, peek(p)->line);
		k->decl.spec = parse_declspec(p, true);
		k->decl.decl = parse_declarator(p, true);
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
	int line = peek(p)->line;

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
		struct dt_declarator *inner = parse_declarator(p, abstract);
		chain_tail(inner)->outer = ptr;
		return inner;
	}

	struct dt_declarator *head;
	const struct dt_token *t = peek(p);
	if (t->tok == T_IDENT || (t->tok == T_TNAME && !abstract)) {
		struct dt_token id = next(p);
		head = mkdecl(p, DK_NAME, id.line);
		head->name = id.sval;
	} else if (t->tok == T_LPAR) {
		/* Grouping "( declarator )" unless it is a parameter list. */
		next(p);
		const struct dt_token *nt = peek(p);
		bool grouping = nt->tok == T_MUL || nt->tok == T_LPAR || nt->tok == T_LBRAC ||
				(!abstract && nt->tok == T_IDENT && !is_typename_ident(p, nt));
		if (grouping) {
			head = parse_declarator(p, abstract);
			expect(p, T_RPAR);
		} else {
			if (!abstract)
				syntax_error(p, nt);
			head = mkdecl(p, DK_NAME, line);
			struct dt_declarator *f = mkdecl(p, DK_FUNC, line);
			parse_params(p, f);
			expect(p, T_RPAR);
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
		if (peek_tok(p) == T_LBRAC) {
			struct dt_declarator *a = mkdecl(p, DK_ARRAY, next(p).line);
			parse_array_suffix(p, a);
			expect(p, T_RBRAC);
			tail->outer = a;
			tail = a;
		} else if (peek_tok(p) == T_LPAR) {
			struct dt_declarator *f = mkdecl(p, DK_FUNC, next(p).line);
			parse_params(p, f);
			expect(p, T_RPAR);
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
	n->tn_spec = parse_declspec(p, false);
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
	struct dt_token t = next(p);
	struct dt_node *n;

	switch (t.tok) {
	case T_IDENT:
		n = dt_node_new(p->pcb, N_IDENT, t.line);
		n->ident.name = t.sval;
		return n;
	case T_AGG:
		n = dt_node_new(p->pcb, N_AGG, t.line);
		n->agg.name = t.sval;
		return n;
	case T_INT:
		/* DTrace types constants as it parses them: this one fits no type. */
		if (t.idecimal && t.ival > INT64_MAX && strpbrk(t.isuffix, "uU") == NULL)
			dt_cerror(p->pcb, "D_INT_OFLOW", t.line,
				  "integer constant 0x%llx cannot be represented in any built-in integral type",
				  (unsigned long long)t.ival);
		n = dt_node_new(p->pcb, N_INT, t.line);
		n->i.value = t.ival;
		memcpy(n->i.suffix, t.isuffix, sizeof(n->i.suffix));
		n->i.decimal = t.idecimal;
		return n;
	case T_STRING:
		n = dt_node_new(p->pcb, N_STRING, t.line);
		n->str.s = t.sval;
		n->str.len = t.slen;
		return n;
	case K_SELF:
	case K_THIS:
		n = dt_node_new(p->pcb, N_IDENT, t.line);
		n->ident.name = t.tok == K_SELF ? "self" : "this";
		n->op = t.tok == K_SELF ? T_SELF : T_THIS;
		return n;
	case T_LPAR:
		n = parse_expr(p);
		expect(p, T_RPAR);
		return n;
	case K_OFFSETOF:
		n = dt_node_new(p->pcb, N_OFFSETOF, t.line);
		expect(p, T_LPAR);
		parse_type_name(p, n);
		expect(p, T_COMMA);
		{
			struct dt_token m;
			dt_lex_next(&p->lx, LM_MEMBER, &m);
			if (m.tok != T_IDENT)
				syntax_error(p, &m);
			n->member = m.sval;
		}
		expect(p, T_RPAR);
		return n;
	case K_XLATE:
		n = dt_node_new(p->pcb, N_XLATE, t.line);
		expect(p, T_LT);
		parse_type_name(p, n);
		expect(p, T_GT);
		expect(p, T_LPAR);
		n->l = parse_expr(p);
		expect(p, T_RPAR);
		return n;
	default:
		syntax_error(p, &t);
	}
}

static struct dt_node *parse_postfix(struct parser *p)
{
	struct dt_node *n = parse_primary(p);

	for (;;) {
		const struct dt_token *t = peek(p);
		int line = t->line;

		switch (t->tok) {
		case T_LBRAC: {
			next(p);
			struct dt_node *args = parse_args(p, T_RBRAC);
			expect(p, T_RBRAC);
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
			enum dt_tok op = next(p).tok;
			struct dt_token m;
			dt_lex_next(&p->lx, LM_MEMBER, &m);
			if (m.tok != T_IDENT)
				syntax_error(p, &m);
			if (n->kind == N_IDENT && (n->op == T_SELF || n->op == T_THIS) &&
			    op == T_PTR) {
				struct dt_node *v = dt_node_new(p->pcb, N_VAR, n->line);
				v->op = n->op;
				v->member = m.sval;
				n = v;
				break;
			}
			struct dt_node *mn = dt_node_new(p->pcb, N_MEMBER, line);
			mn->op = op;
			mn->l = n;
			mn->member = m.sval;
			n = mn;
			break;
		}
		case T_ADDADD:
		case T_SUBSUB: {
			enum dt_tok op = next(p).tok;
			struct dt_node *u = dt_node_new(p->pcb, N_OP1, line);
			u->op = op == T_ADDADD ? T_POSTINC : T_POSTDEC;
			u->flags |= DN_POSTFIX;
			u->l = n;
			n = u;
			break;
		}
		default:
			return n;
		}
	}
}

/* "(" followed by a type name begins a cast (or sizeof's operand). */
static bool paren_type_follows(struct parser *p)
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
		enum dt_tok op = next(p).tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_ADDADD ? T_PREINC : T_PREDEC;
		n->l = parse_unary(p);
		return n;
	}
	case T_BAND:
	case T_MUL:
	case T_ADD:
	case T_SUB:
	case T_BNEG:
	case T_LNEG: {
		enum dt_tok op = next(p).tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_BAND ? T_ADDROF : op == T_MUL ? T_DEREF : op == T_ADD ? T_IPOS
			: op == T_SUB ? T_INEG : op;
		n->l = parse_cast(p);
		return n;
	}
	case K_SIZEOF:
		next(p);
		n = dt_node_new(p->pcb, N_SIZEOF, line);
		if (paren_type_follows(p)) {
			expect(p, T_LPAR);
			parse_type_name(p, n);
			expect(p, T_RPAR);
		} else {
			n->l = parse_unary(p);
		}
		return n;
	case K_STRINGOF:
		next(p);
		n = dt_node_new(p->pcb, N_STRINGOF, line);
		n->l = parse_unary(p);
		return n;
	default:
		return parse_postfix(p);
	}
}

static struct dt_node *parse_cast(struct parser *p)
{
	if (paren_type_follows(p)) {
		int line = next(p).line;
		struct dt_node *n = dt_node_new(p->pcb, N_CAST, line);
		parse_type_name(p, n);
		expect(p, T_RPAR);
		n->l = parse_cast(p);
		/* DTrace's line: where the cast is complete (the next token). */
		n->line = peek(p)->line;
		return n;
	}
	return parse_unary(p);
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

static struct dt_node *parse_binary(struct parser *p, int minprec)
{
	struct dt_node *l = parse_cast(p);

	for (;;) {
		const struct dt_token *t = peek(p);
		int prec = binprec(t->tok);
		if (prec < minprec || prec < 0)
			return l;
		struct dt_token op = next(p);
		struct dt_node *r = parse_binary(p, prec + 1);
		l = op2(p, op.tok, l, r, op.line);
	}
}

static struct dt_node *parse_cond(struct parser *p)
{
	struct dt_node *c = parse_binary(p, 0);

	if (peek_tok(p) != T_QUESTION)
		return c;
	int line = next(p).line;
	struct dt_node *n = dt_node_new(p->pcb, N_OP3, line);
	n->cond = c;
	n->l = parse_expr(p);
	expect(p, T_COLON);
	n->r = parse_cond(p);
	return n;
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

static struct dt_node *parse_assign(struct parser *p)
{
	struct dt_node *l = parse_cond(p);
	const struct dt_token *t = peek(p);

	if (!is_assign_op(t->tok))
		return l;
	struct dt_token op = next(p);
	struct dt_node *r = parse_assign(p);
	return op2(p, op.tok, l, r, op.line);
}

static struct dt_node *parse_expr(struct parser *p)
{
	struct dt_node *n = parse_assign(p);

	while (peek_tok(p) == T_COMMA) {
		int line = next(p).line;
		n = op2(p, T_COMMA, n, parse_assign(p), line);
	}
	return n;
}

/* ---- Statements ---- */

static struct dt_node *parse_stmts(struct parser *p);

static struct dt_node *parse_stmt(struct parser *p)
{
	const struct dt_token *t = peek(p);
	int line = t->line;

	if (t->tok == K_IF) {
		next(p);
		struct dt_node *n = dt_node_new(p->pcb, N_IF, line);
		expect(p, T_LPAR);
		n->cond = parse_expr(p);
		expect(p, T_RPAR);
		n->body = parse_stmt(p);
		if (accept(p, K_ELSE))
			n->elsebody = parse_stmt(p);
		return n;
	}
	if (t->tok == T_LBRACE) {
		next(p);
		struct dt_node *n = dt_node_new(p->pcb, N_BLOCK, line);
		n->body = parse_stmts(p);
		expect(p, T_RBRACE);
		return n;
	}
	struct dt_node *n = dt_node_new(p->pcb, N_EXPRSTMT, line);
	n->l = parse_expr(p);
	t = peek(p);
	if (t->tok == T_SEMI)
		next(p);
	else if (t->tok != T_RBRACE)
		syntax_error(p, t);
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
		struct dt_node *s = parse_stmt(p);
		*tail = s;
		tail = &s->next;
	}
	return head;
}

/* ---- Program level ---- */

static struct dt_node *parse_clause(struct parser *p, struct dt_token first)
{
	struct dt_node *n = dt_node_new(p->pcb, N_CLAUSE, first.line);
	struct dt_pdesc *descs[256];
	int nd = 0;
	struct dt_token t = first;

	for (;;) {
		if (t.tok == T_PSPEC || t.tok == T_IDENT) {
			if (nd == (int)ARRAY_SIZE(descs))
				dt_cerror(p->pcb, "D_SYNTAX", t.line, "too many probe descriptions");
			descs[nd++] = dt_pdesc_parse(p->pcb, t.sval, p->pcb->pspec_kind, t.line);
		} else if (t.tok == T_INT) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t.ival);
			descs[nd++] = dt_pdesc_parse(p->pcb, buf, DTRACE_PSPEC_ID, t.line);
		} else {
			syntax_error(p, &t);
		}
		const struct dt_token *nt = dt_lex_peek(&p->lx, LM_OUTER);
		if (nt->tok != T_COMMA)
			break;
		dt_lex_next(&p->lx, LM_OUTER, &t);
		dt_lex_next(&p->lx, LM_OUTER, &t);
	}
	n->clause.pdescs = dt_palloc(p->pcb, sizeof(*descs) * (size_t)nd);
	memcpy(n->clause.pdescs, descs, sizeof(*descs) * (size_t)nd);
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
		n->clause.pred_end_line = peek(p)->line;
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
		n->clause.end_line = expect(p, T_RBRACE).line;
		return n;
	}
	if (!(p->pcb->cflags & DTRACE_C_PSPEC) && p->pcb->filename != NULL)
		dt_cerror(p->pcb, "D_SYNTAX", first.line,
			  "expected predicate and/or actions following probe description");
	if (nt->tok != T_EOF)
		syntax_error(p, nt);
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
	struct dt_declspec *ds = parse_declspec(p, true);
	struct dt_node *head = NULL, **tail = &head;

	if (peek_tok(p) == T_SEMI) {
		next(p);
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, line);
		n->decl.spec = ds;
		return n;
	}
	do {
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, peek(p)->line);
		n->decl.spec = ds;
		n->decl.decl = parse_declarator(p, false);
		/*
		 * A C function definition (from a header included with -C):
		 * D has no functions, so its body is skipped.
		 */
		if (peek_tok(p) == T_LBRACE && is_function(n->decl.decl) &&
		    (ds->dclass == DC_STATIC || ds->dclass == DC_EXTERN)) {
			int depth = 0;
			do {
				struct dt_token b = next(p);
				if (b.tok == T_LBRACE)
					depth++;
				else if (b.tok == T_RBRACE)
					depth--;
				else if (b.tok == T_EOF)
					syntax_error(p, &b);
			} while (depth > 0);
			return head ? head : dt_node_new(p->pcb, N_EMPTY, line);
		}
		if (ds->dclass == DC_TYPEDEF) {
			struct dt_declarator *d = n->decl.decl;
			while (d != NULL && d->name == NULL)
				d = d->outer;
			if (d != NULL) {
				struct tdname *td = dt_palloc(p->pcb, sizeof(*td));
				td->name = d->name;
				td->next = p->typedefs;
				p->typedefs = td;
			}
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

	n->decl.spec = parse_declspec(p, false);
	n->decl.decl = parse_declarator(p, false);
	expect(p, T_ASGN);
	n->l = parse_assign(p);
	expect(p, T_SEMI);
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
	tmp.tn_spec = parse_declspec(p, false);
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
		struct dt_token eq = expect(p, T_ASGN);
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
	n->xlator.end_line = expect(p, T_SEMI).line;
	n->xlator.members = head;
	return n;
}

static struct dt_node *parse_provider(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_PROVIDER, line);
	struct dt_token name = expect(p, T_IDENT);
	struct dt_node *head = NULL, **tail = &head;

	n->provider.name = name.sval;
	expect(p, T_LBRACE);
	while (peek_tok(p) != T_RBRACE) {
		struct dt_token pk = expect(p, K_PROBE);
		struct dt_token pn = expect(p, T_IDENT);
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
	expect(p, T_SEMI);
	n->provider.probes = head;
	return n;
}

static void pragma_cb(struct dt_pcb *pcb, char **words, int nwords, int line)
{
	dt_pragma(pcb, words, nwords, line);
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
			if (head == NULL && !pcb->is_dlib && !pcb->is_library && !pcb->hdl->opts.empty)
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
		while (n->next != NULL)
			n = n->next;
		tail = &n->next;
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
 * Expand $1, $target, ... inside a probe description field.  Built in the
 * arena: an unknown macro is a compile error, which leaves nothing to free.
 */
static char *expand_macros(struct dt_pcb *pcb, const char *s, int line)
{
	if (strchr(s, '$') == NULL)
		return dt_pstrdup(pcb, s);
	char *r = "";
	while (*s) {
		if (*s != '$') {
			size_t n = strcspn(s, "$");
			r = append(pcb, r, s, n);
			s += n;
			continue;
		}
		const char *start = s++;
		if (isdigit((unsigned char)*s)) {
			int n = 0;
			for (; isdigit((unsigned char)*s); s++)	/* no overflow: too big is unknown */
				n = n < 100000000 ? n * 10 + (*s - '0') : n;
			char *text = dt_pstrndup(pcb, start, (size_t)(s - start));
			const char *v = dt_macro_arg(pcb, n, text, line);
			r = append(pcb, r, v, strlen(v));
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			char *text = dt_pstrndup(pcb, start, (size_t)(s - start));
			char num[32];
			snprintf(num, sizeof(num), "%lld",
				 (long long)dt_macro_var(pcb, text + 1, text, line));
			r = append(pcb, r, num, strlen(num));
		} else {
			r = append(pcb, r, "$", 1);
		}
	}
	return r;
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
		unsigned long id = strtoul(text, &end, 10);
		if (isdigit((unsigned char)*text) && *end == '\0') {
			/* Ids are numbered over every provider's probes. */
			dt_probes_populate_all(pcb->hdl);
			if (id == 0 || dt_probe_by_id(pcb->hdl, (uint32_t)id) == NULL)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "invalid probe identifier %s: Unknown probe identifier", text);
			d->id = id;
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
		if (field < 0)
			dt_cerror(pcb, "D_PDESC_INVAL", line,
				  "invalid probe description \"%s\": Overspecified probe description",
				  text);
		fields[field] = expand_macros(pcb, dt_pstrndup(pcb, text + p + 1, (size_t)(end - p)),
					      line);
		field--;
	} while (--p >= 0);
	d->prov = fields[0] ? fields[0] : "";
	d->mod = fields[1] ? fields[1] : "";
	d->func = fields[2] ? fields[2] : "";
	d->name = fields[3] ? fields[3] : "";
	return d;
}
