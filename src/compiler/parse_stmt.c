/*
 * Statement lists.  As DTrace's grammar: a statement is ";", "expression ;"
 * or an if, whose branches are a statement or a braced statement list;
 * braces group nothing else.  A list's last expression may omit its ";".
 */

#include "compiler/parser_impl.h"

static struct dt_node *parse_if(struct parser *p);

/* An if's branch: a statement (NULL for ";") or "{ list }" as one N_BLOCK. */
static struct dt_node *parse_branch(struct parser *p)
{
	const struct dt_token *t = dtp_peek(p);
	int line = t->line;

	if (t->tok == T_LBRACE) {
		dtp_next(p);
		struct dt_node *n = dt_node_new(p->pcb, N_BLOCK, line);
		dtp_nest(p, NEST_STMT);
		n->body = dtp_parse_stmts(p);
		dtp_unnest(p, NEST_STMT);
		dtp_expect(p, T_RBRACE);
		return n;
	}
	if (t->tok == T_SEMI) {
		dtp_next(p);
		return NULL;
	}
	if (t->tok == K_IF)
		return parse_if(p);
	struct dt_node *n = dt_node_new(p->pcb, N_EXPRSTMT, line);
	n->l = dtp_parse_expr(p);
	dtp_expect(p, T_SEMI);
	return n;
}

static struct dt_node *parse_if(struct parser *p)
{
	struct dt_node *n = dt_node_new(p->pcb, N_IF, dtp_expect(p, K_IF)->line);

	dtp_nest(p, NEST_STMT);
	dtp_expect(p, T_LPAR);
	n->cond = dtp_parse_expr(p);
	dtp_expect(p, T_RPAR);
	n->body = parse_branch(p);
	if (dtp_accept(p, K_ELSE))
		n->elsebody = parse_branch(p);
	dtp_unnest(p, NEST_STMT);
	return n;
}

/* Statements up to (not including) the closing brace. */
struct dt_node *dtp_parse_stmts(struct parser *p)
{
	struct dt_node *head = NULL, **tail = &head;

	for (;;) {
		const struct dt_token *t = dtp_peek(p);
		if (t->tok == T_RBRACE)
			break;
		if (t->tok == T_EOF)
			dtp_syntax_error(p, t);
		if (t->tok == T_SEMI) {
			dtp_next(p);
			continue;
		}
		struct dt_node *s;
		if (t->tok == K_IF) {
			s = parse_if(p);
		} else {
			s = dt_node_new(p->pcb, N_EXPRSTMT, t->line);
			s->l = dtp_parse_expr(p);
			t = dtp_peek(p);
			if (t->tok == T_SEMI)
				dtp_next(p);
			else if (t->tok != T_RBRACE)
				dtp_syntax_error(p, t);
		}
		*tail = s;
		tail = &s->next;
	}
	return head;
}
