/* Expressions, by precedence climbing for the binary operators. */
#include <string.h>

#include "compiler/parser_impl.h"

static struct dt_node *parse_cast(struct parser *p);
static struct dt_node *parse_unary(struct parser *p);

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

	if (dtp_peek_tok(p) == close)
		return NULL;
	do {
		struct dt_node *a = dtp_parse_assign(p);
		*tail = a;
		tail = &a->next;
	} while (dtp_accept(p, T_COMMA));
	return head;
}

static struct dt_node *parse_primary(struct parser *p)
{
	/* Read before anything else is (next() overwrites it). */
	const struct dt_token *t = dtp_next(p);
	int line = t->line;
	struct dt_node *n;

	switch (t->tok) {
	case T_IDENT: {
		n = dt_node_new(p->pcb, N_IDENT, line);
		n->ident.name = t->sval;
		/* DTrace's look-ahead: a name assigned, indexed or ending a statement is a variable. */
		enum dt_tok nt = dtp_peek_tok(p);
		if (nt == T_ASGN || nt == T_ADDADD || nt == T_SUBSUB || nt == T_LBRAC || nt == T_SEMI ||
		    (nt == T_COMMA && p->lx.parens == 0))
			dtp_add_var(p, t->sval);
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
		n = dtp_parse_expr(p);
		dtp_expect(p, T_RPAR);
		p->paren = n;
		return n;
	case K_OFFSETOF:
		n = dt_node_new(p->pcb, N_OFFSETOF, line);
		dtp_expect(p, T_LPAR);
		dtp_parse_type_name(p, n);
		dtp_expect(p, T_COMMA);
		/* An identifier: unlike after "." and "->", a keyword is not one here (DTrace's grammar). */
		n->member = dtp_expect(p, T_IDENT)->sval;
		dtp_expect(p, T_RPAR);
		return n;
	case K_XLATE:
		n = dt_node_new(p->pcb, N_XLATE, line);
		dtp_expect(p, T_LT);
		dtp_parse_type_name(p, n);
		dtp_expect(p, T_GT);
		dtp_expect(p, T_LPAR);
		n->l = dtp_parse_expr(p);
		dtp_expect(p, T_RPAR);
		return n;
	default:
		dtp_syntax_error(p, t);
	}
}

static struct dt_node *parse_postfix(struct parser *p)
{
	struct dt_node *n = parse_primary(p);
	int depth = p->depth[NEST_EXPR];

	for (;;) {
		const struct dt_token *t = dtp_peek(p);
		int line = t->line;

		/* Each operator puts what it applies to a level deeper. */
		switch (t->tok) {
		case T_LBRAC: case T_LPAR: case T_DOT: case T_PTR: case T_ADDADD: case T_SUBSUB:
			dtp_nest(p, NEST_EXPR);
			break;
		default:
			p->depth[NEST_EXPR] = depth;
			return n;
		}
		switch (t->tok) {
		case T_LBRAC: {
			dtp_next(p);
			struct dt_node *args = parse_args(p, T_RBRAC);
			line = dtp_expect(p, T_RBRAC)->line;
			if (n->kind == N_AGG && n->agg.keys == NULL) {
				n->agg.keys = args;
				if (args == NULL)
					dtp_syntax_error(p, t);
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
			dtp_next(p);
			struct dt_node *args = parse_args(p, T_RPAR);
			dtp_expect(p, T_RPAR);
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
			enum dt_tok op = dtp_next(p)->tok;
			/* The member's name is read into the parser's token, not a copy here. */
			dt_lex_next(&p->lx, LM_MEMBER, &p->last);
			if (p->last.tok != T_IDENT)
				dtp_syntax_error(p, &p->last);
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
			enum dt_tok op = dtp_next(p)->tok;
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
	const struct dt_token *t = dtp_peek(p);

	if (t->tok != T_LPAR)
		return false;
	/* Look past the '(' without consuming: re-lex from a saved state. */
	struct dt_lexer save = p->lx;
	struct dt_token lp;
	dt_lex_next(&p->lx, LM_EXPR, &lp);
	const struct dt_token *t2 = dt_lex_peek(&p->lx, LM_EXPR);
	bool is_type = dtp_starts_type(p, t2);
	p->lx = save;
	return is_type;
}

static struct dt_node *parse_unary(struct parser *p)
{
	const struct dt_token *t = dtp_peek(p);
	int line = t->line;
	struct dt_node *n;

	switch (t->tok) {
	case T_ADDADD:
	case T_SUBSUB: {
		enum dt_tok op = dtp_next(p)->tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_ADDADD ? T_PREINC : T_PREDEC;
		dtp_nest(p, NEST_EXPR);
		n->l = parse_unary(p);
		dtp_unnest(p, NEST_EXPR);
		n->line = dtp_peek(p)->line;
		return n;
	}
	case T_BAND:
	case T_MUL:
	case T_ADD:
	case T_SUB:
	case T_BNEG:
	case T_LNEG: {
		enum dt_tok op = dtp_next(p)->tok;
		n = dt_node_new(p->pcb, N_OP1, line);
		n->op = op == T_BAND ? T_ADDROF : op == T_MUL ? T_DEREF : op == T_ADD ? T_IPOS
			: op == T_SUB ? T_INEG : op;
		n->l = parse_cast(p);
		n->line = dtp_peek(p)->line;
		return n;
	}
	case K_SIZEOF:
		dtp_next(p);
		n = dt_node_new(p->pcb, N_SIZEOF, line);
		if (paren_type_follows(p)) {
			dtp_expect(p, T_LPAR);
			dtp_parse_type_name(p, n);
			n->line = dtp_expect(p, T_RPAR)->line;
		} else {
			dtp_nest(p, NEST_EXPR);
			n->l = parse_unary(p);
			dtp_unnest(p, NEST_EXPR);
			n->line = dtp_peek(p)->line;
		}
		return n;
	case K_STRINGOF:
		dtp_next(p);
		n = dt_node_new(p->pcb, N_STRINGOF, line);
		dtp_nest(p, NEST_EXPR);
		n->l = parse_unary(p);
		dtp_unnest(p, NEST_EXPR);
		n->line = dtp_peek(p)->line;
		return n;
	default:
		return parse_postfix(p);
	}
}

static struct dt_node *parse_cast(struct parser *p)
{
	struct dt_node *n;

	dtp_nest(p, NEST_EXPR);
	if (paren_type_follows(p)) {
		n = dt_node_new(p->pcb, N_CAST, dtp_next(p)->line);
		dtp_parse_type_name(p, n);
		dtp_expect(p, T_RPAR);
		n->l = parse_cast(p);
		/* DTrace's line: where the cast is complete (the next token). */
		n->line = dtp_peek(p)->line;
	} else {
		n = parse_unary(p);
	}
	dtp_unnest(p, NEST_EXPR);
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
		const struct dt_token *t = dtp_peek(p);
		int prec = binprec(t->tok);
		if (prec < minprec || prec < 0)
			return l;
		enum dt_tok op = dtp_next(p)->tok;
		dtp_nest(p, NEST_EXPR);
		struct dt_node *r = parse_binary(p, prec + 1);
		dtp_unnest(p, NEST_EXPR);
		/* DTrace's line: where the operation is complete (the next token). */
		l = op2(p, op, l, r, dtp_peek(p)->line);
	}
}

/* A chain of ?: (a ? b : c ? d : e ...) is read, and later walked, without recursion. */
struct dt_node *dtp_parse_cond(struct parser *p)
{
	struct dt_node *c = parse_binary(p, 0), *top = c, **hole = &top;

	while (dtp_peek_tok(p) == T_QUESTION) {
		struct dt_node *n = dt_node_new(p->pcb, N_OP3, dtp_next(p)->line);
		n->cond = c;
		dtp_nest(p, NEST_EXPR);
		n->l = dtp_parse_expr(p);
		dtp_unnest(p, NEST_EXPR);
		dtp_expect(p, T_COLON);
		*hole = n;
		hole = &n->r;
		c = parse_binary(p, 0);
	}
	*hole = c;
	/* DTrace's line: where the operation is complete (the next token), the same for all. */
	int line = dtp_peek(p)->line;
	for (struct dt_node *n = top; n != c; n = n->r)
		n->line = line;
	return top;
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

struct dt_node *dtp_parse_assign(struct parser *p)
{
	struct dt_node *l = dtp_parse_cond(p);
	const struct dt_token *t = dtp_peek(p);

	if (!dt_tok_is_assign(t->tok))
		return l;
	if (!is_unary_expr(p, l))
		dtp_syntax_error(p, t);
	enum dt_tok op = dtp_next(p)->tok;
	dtp_nest(p, NEST_EXPR);
	struct dt_node *r = dtp_parse_assign(p);
	dtp_unnest(p, NEST_EXPR);
	return op2(p, op, l, r, dtp_peek(p)->line);
}

struct dt_node *dtp_parse_expr(struct parser *p)
{
	struct dt_node *n = dtp_parse_assign(p);

	while (dtp_peek_tok(p) == T_COMMA) {
		dtp_next(p);
		struct dt_node *r = dtp_parse_assign(p);
		n = op2(p, T_COMMA, n, r, dtp_peek(p)->line);
	}
	return n;
}
