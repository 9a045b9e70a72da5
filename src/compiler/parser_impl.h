/*
 * The D parser's shared state and steps, between its files: parser.c
 * (program level), parse_base.c, parse_decl.c, parse_expr.c, parse_stmt.c.
 * Not for use outside the parser.
 */
#ifndef DT_PARSER_IMPL_H
#define DT_PARSER_IMPL_H

#include <stdbool.h>

#include "compiler/ast.h"
#include "compiler/lexer.h"
#include "compiler/nest.h"
#include "compiler/parser.h"
#include "compiler/pcb.h"

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
	/* Tags ("struct s", "union u", "enum e") whose body this program gave. */
	struct nameset tags;
	/* In a top-level declaration, where DTrace says "end-of-input". */
	bool in_decl;
	/* The last "( expression )": a primary expression, so it may be assigned to. */
	const struct dt_node *paren;
	int depth[3];		/* nesting levels of each kind (nest.h) */
	struct dt_token last;	/* the token next() read */
};

/* What nests: each kind has DT_NEST_MAX levels (nest.h); indexes struct parser's depth[]. */
enum { NEST_EXPR, NEST_STMT, NEST_DECL };

/* Which storage classes declaration specifiers may hold (DTrace's grammar). */
enum classes {
	CLASS_NONE,	/* type names and struct members */
	CLASS_C,	/* parameters: auto, register, static, extern, typedef */
	CLASS_D,	/* declarations and inlines: also self and this */
};

/* parse_base.c: nodes, look-ahead, syntax errors and the names the program declared */
_Noreturn void dtp_syntax_error(struct parser *p, const struct dt_token *t);
const struct dt_token *dtp_peek(struct parser *p);
enum dt_tok dtp_peek_tok(struct parser *p);
const struct dt_token *dtp_next(struct parser *p);
void dtp_nest(struct parser *p, int kind);
void dtp_unnest(struct parser *p, int kind);
bool dtp_accept(struct parser *p, enum dt_tok tok);
const struct dt_token *dtp_expect(struct parser *p, enum dt_tok tok);
void dtp_nameset_add(struct parser *p, struct nameset *t, const char *name);
bool dtp_nameset_has(const struct nameset *t, const char *name);
bool dtp_declared_typedef(void *arg, const char *name);
void dtp_add_var(struct parser *p, const char *name);
bool dtp_is_typename_ident(struct parser *p, const struct dt_token *t);
bool dtp_starts_type(struct parser *p, const struct dt_token *t);
bool dtp_starts_param(struct parser *p, const struct dt_token *t);

/* parse_decl.c: declaration specifiers, struct/union/enum bodies, declarators and type names */
struct dt_declspec *dtp_parse_declspec(struct parser *p, enum classes classes);
void dtp_parse_params(struct parser *p, struct dt_declarator *d);
struct dt_declarator *dtp_mkdecl(struct parser *p, enum dt_dkind kind, int line);
struct dt_declarator *dtp_parse_declarator(struct parser *p, bool abstract);
struct dt_declarator *dtp_declarator(struct parser *p, bool abstract);
void dtp_parse_type_name(struct parser *p, struct dt_node *n);

/* parse_expr.c: expressions */
struct dt_node *dtp_parse_cond(struct parser *p);
struct dt_node *dtp_parse_assign(struct parser *p);
struct dt_node *dtp_parse_expr(struct parser *p);

/* parse_stmt.c: statement lists and if/else */
struct dt_node *dtp_parse_stmts(struct parser *p);

#endif
