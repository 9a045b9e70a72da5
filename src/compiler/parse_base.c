/*
 * The parser's shared steps: nodes, one token of look-ahead, syntax
 * errors as DTrace's yacc grammar reports them (`syntax error near
 * "<token>"`), nesting limits, and the names the program declared so far
 * (typedefs and variables), which decide whether a name is a type.
 */
#include <ctype.h>
#include <string.h>

#include "compiler/ident.h"
#include "compiler/parser_impl.h"

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

_Noreturn void dtp_syntax_error(struct parser *p, const struct dt_token *t)
{
	const char *text = error_text(p, t);

	if (text == NULL)
		dt_cerror(p->pcb, "D_SYNTAX", t->line, "syntax error near end%sinput",
			  p->in_decl ? "-of-" : " of ");
	dt_cerror(p->pcb, "D_SYNTAX", t->line, "syntax error near \"%s\"", text);
}

const struct dt_token *dtp_peek(struct parser *p)
{
	return dt_lex_peek(&p->lx, LM_EXPR);
}

enum dt_tok dtp_peek_tok(struct parser *p)
{
	return dtp_peek(p)->tok;
}

/* The token read; it stays in the parser (no copies in recursive frames) until the next read. */
const struct dt_token *dtp_next(struct parser *p)
{
	dt_lex_next(&p->lx, LM_EXPR, &p->last);
	return &p->last;
}

static const char *const nest_what[] = { "expression", "statement", "declaration" };

/* One level of `kind` deeper; unnest() gives it back. */
void dtp_nest(struct parser *p, int kind)
{
	if (++p->depth[kind] > DT_NEST_MAX)
		dt_nest_error(p->pcb, dtp_peek(p)->line, nest_what[kind], true);
	if (!dt_nest_room(p->pcb))
		dt_nest_error(p->pcb, dtp_peek(p)->line, nest_what[kind], false);
}

void dtp_unnest(struct parser *p, int kind)
{
	p->depth[kind]--;
}

bool dtp_accept(struct parser *p, enum dt_tok tok)
{
	if (dtp_peek_tok(p) != tok)
		return false;
	dtp_next(p);
	return true;
}

const struct dt_token *dtp_expect(struct parser *p, enum dt_tok tok)
{
	const struct dt_token *t = dtp_peek(p);

	if (t->tok != tok)
		dtp_syntax_error(p, t);
	return dtp_next(p);
}

static bool nameset_has(const struct nameset *t, const char *name)
{
	if (t->cap == 0)
		return false;
	for (size_t i = dt_strhash(name) & (t->cap - 1); t->v[i] != NULL; i = (i + 1) & (t->cap - 1))
		if (strcmp(t->v[i], name) == 0)
			return true;
	return false;
}

void dtp_nameset_add(struct parser *p, struct nameset *t, const char *name)
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

bool dtp_nameset_has(const struct nameset *t, const char *name)
{
	return nameset_has(t, name);
}

/* Did the program typedef this name (so far)?  Also the lexer's question at the top level. */
bool dtp_declared_typedef(void *arg, const char *name)
{
	return nameset_has(&((const struct parser *)arg)->typedefs, name);
}

static bool is_var_name(const struct parser *p, const char *name)
{
	return nameset_has(&p->vars, name);
}

void dtp_add_var(struct parser *p, const char *name)
{
	dtp_nameset_add(p, &p->vars, name);
}

bool dtp_is_typename_ident(struct parser *p, const struct dt_token *t)
{
	if (t->tok != T_IDENT || is_var_name(p, t->sval))
		return false;
	return dtp_declared_typedef(p, t->sval) || dt_type_name_exists(p->pcb, t->sval);
}

/* Does the next token begin declaration specifiers (a type name)? */
bool dtp_starts_type(struct parser *p, const struct dt_token *t)
{
	switch (t->tok) {
	case K_CHAR: case K_CONST: case K_DOUBLE: case K_ENUM: case K_FLOAT: case K_INT:
	case K_LONG: case K_RESTRICT: case K_SHORT: case K_SIGNED: case K_STRING:
	case K_STRUCT: case K_UNION: case K_UNSIGNED: case K_VOID: case K_VOLATILE:
	case K_USERLAND: case T_TNAME:
		return true;
	case T_IDENT:
		return dtp_is_typename_ident(p, t);
	default:
		return false;
	}
}

/* A parameter may also begin with a (C) storage class, which is then refused. */
bool dtp_starts_param(struct parser *p, const struct dt_token *t)
{
	switch (t->tok) {
	case K_AUTO: case K_REGISTER: case K_STATIC: case K_EXTERN: case K_TYPEDEF:
		return true;
	default:
		return dtp_starts_type(p, t);
	}
}
