/* The D lexer. */
#ifndef DT_LEXER_H
#define DT_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/token.h"

struct dt_pcb;

/*
 * What the parser expects next decides how text is split: at program level
 * probe specifiers ("syscall::read*:entry", "profile-99") are single
 * tokens; inside clauses and declarations C-like tokens are read; after
 * "." and "->" keywords are member names.
 */
enum dt_lexmode {
	LM_OUTER,	/* program scope: probe specifiers and declarations */
	LM_EXPR,	/* clause bodies, predicates, declarations */
	LM_MEMBER,	/* after . or ->: an identifier, keywords included */
};

struct dt_token {
	enum dt_tok tok;
	int line;
	size_t start, end;		/* source offsets of the token text */
	uint64_t ival;			/* T_INT */
	char isuffix[4];		/* T_INT: u, l, ul, ll, ull ... */
	bool idecimal;			/* T_INT written in decimal */
	char *sval;			/* T_STRING (unescaped), T_IDENT, T_AGG, T_PSPEC */
	size_t slen;			/* T_STRING length (may contain NULs) */
};

/* A token of a control line (after '#'), as DTrace's lexer reads them. */
enum dt_ctok_kind { CT_IDENT, CT_STRING, CT_INT };
struct dt_ctok {
	enum dt_ctok_kind kind;
	const char *s;			/* its text (a string's unescaped) */
	uint64_t ival;			/* CT_INT */
};

/*
 * Receives each control line ("#...") as its tokens; `line` is the
 * line it is on.  Returns the number of the line that follows it (a line
 * directive changes it).
 */
typedef int dt_pragma_f(struct dt_pcb *pcb, const struct dt_ctok *toks, int ntoks, int line);

struct dt_lexer {
	struct dt_pcb *pcb;
	const char *src;
	size_t len;
	size_t pos;
	int line;
	int parens, brackets, braces;
	bool in_pred;			/* between the two "/" of a predicate */
	dt_pragma_f *pragma;
	/* Typedef names the program declared so far (the parser's), or NULL. */
	bool (*is_tname)(void *arg, const char *name);
	void *tname_arg;
	/* Look-ahead: one token, remembered with the mode it was read in. */
	bool have_peek;
	enum dt_lexmode peek_mode;
	struct dt_token peek;
	size_t peek_pos;		/* position before the peeked token */
	int peek_line;
	int peek_parens, peek_brackets, peek_braces;
};

void dt_lex_init(struct dt_lexer *lx, struct dt_pcb *pcb, const char *src, size_t len,
		 dt_pragma_f *pragma);

/* Read the next token in `mode` (consuming it). */
void dt_lex_next(struct dt_lexer *lx, enum dt_lexmode mode, struct dt_token *t);

/* Look at the next token in `mode` without consuming it. */
const struct dt_token *dt_lex_peek(struct dt_lexer *lx, enum dt_lexmode mode);

/* Whether `name` is a type name (for the grammar's cast and declaration choices). */
bool dt_type_name_exists(struct dt_pcb *pcb, const char *name);

/* The text of a token, for "syntax error near" messages. */
const char *dt_tok_text(struct dt_lexer *lx, const struct dt_token *t);

#endif
