/*
 * The D lexer: C-like tokens inside clauses, probe specifiers at program
 * scope, control lines (#pragma, cpp line markers), macro arguments.
 */
#include "compiler/lexer.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/dlib.h"
#include "compiler/escape.h"
#include "compiler/ident.h"
#include "compiler/macros.h"
#include "compiler/pcb.h"

struct kw {
	const char *name;
	enum dt_tok tok;
	bool outer;		/* also a keyword at program scope (starts a declaration) */
};

static const struct kw keywords[] = {
	{ "auto", K_AUTO, true }, { "break", K_BREAK, false }, { "case", K_CASE, false },
	{ "char", K_CHAR, true }, { "const", K_CONST, true }, { "continue", K_CONTINUE, false },
	{ "counter", K_COUNTER, true }, { "default", K_DEFAULT, false }, { "do", K_DO, false },
	{ "double", K_DOUBLE, true }, { "else", K_ELSE, false }, { "enum", K_ENUM, true },
	{ "extern", K_EXTERN, true }, { "float", K_FLOAT, true }, { "for", K_FOR, false },
	{ "goto", K_GOTO, false }, { "if", K_IF, false }, { "import", K_IMPORT, true },
	{ "inline", K_INLINE, true }, { "int", K_INT, true }, { "long", K_LONG, true },
	{ "offsetof", K_OFFSETOF, false }, { "probe", K_PROBE, false },
	{ "provider", K_PROVIDER, true }, { "register", K_REGISTER, true },
	{ "restrict", K_RESTRICT, true }, { "return", K_RETURN, false }, { "self", K_SELF, true },
	{ "short", K_SHORT, true }, { "signed", K_SIGNED, true }, { "sizeof", K_SIZEOF, false },
	{ "static", K_STATIC, true }, { "string", K_STRING, true },
	{ "stringof", K_STRINGOF, false }, { "struct", K_STRUCT, true },
	{ "switch", K_SWITCH, false }, { "this", K_THIS, true },
	{ "translator", K_TRANSLATOR, true }, { "typedef", K_TYPEDEF, true },
	{ "union", K_UNION, true }, { "unsigned", K_UNSIGNED, true },
	{ "userland", K_USERLAND, true }, { "void", K_VOID, true },
	{ "volatile", K_VOLATILE, true }, { "while", K_WHILE, false }, { "xlate", K_XLATE, false },
};

static const struct kw *keyword(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++) {
		if (strlen(keywords[i].name) == n && memcmp(keywords[i].name, s, n) == 0)
			return &keywords[i];
	}
	return NULL;
}

void dt_lex_init(struct dt_lexer *lx, struct dt_pcb *pcb, const char *src, size_t len,
		 dt_pragma_f *pragma)
{
	memset(lx, 0, sizeof(*lx));
	lx->pcb = pcb;
	lx->src = src;
	lx->len = len;
	lx->line = 1;
	lx->pragma = pragma;
}

/* c is one of the characters of set (a NUL byte in the source never is). */
static bool one_of(int c, const char *set)
{
	return c != '\0' && strchr(set, c) != NULL;
}

static int peekc(struct dt_lexer *lx, size_t ahead)
{
	size_t p = lx->pos + ahead;
	return p < lx->len ? (unsigned char)lx->src[p] : -1;
}

static bool at_line_start(struct dt_lexer *lx)
{
	size_t p = lx->pos;

	while (p > 0) {
		char c = lx->src[p - 1];
		if (c == '\n')
			return true;
		if (!one_of(c, " \t\f\v\r"))
			return false;
		p--;
	}
	return true;
}

/* Whether a whole control-line word is an integer constant (DTrace's RGX_INT). */
static bool is_int_word(const char *w)
{
	const char *p = w;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		for (p += 2; isxdigit((unsigned char)*p); p++)
			;
	} else if (isdigit((unsigned char)*p)) {
		while (isdigit((unsigned char)*p))
			p++;
	} else {
		return false;
	}
	if (*p == 'u' || *p == 'U')
		p++;
	for (int i = 0; i < 2 && (*p == 'l' || *p == 'L'); i++)
		p++;
	return *p == '\0';
}

/*
 * A control line, split as DTrace's lexer does: blanks (not \r) separate
 * words; a quoted string is a string token; a word that is wholly an
 * integer constant is an integer, any other word an identifier.
 */
static void control_line(struct dt_lexer *lx)
{
	int line = lx->line;
	struct dt_ctok toks[64];
	int n = 0;

	lx->pos++;	/* the '#' */
	for (;;) {
		while (lx->pos < lx->len && strchr(" \t\f\v", lx->src[lx->pos]))
			lx->pos++;
		if (lx->pos >= lx->len)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line,
				  "end-of-file encountered before end of control line");
		char c = lx->src[lx->pos];
		if (c == '\n') {
			lx->pos++;
			lx->line++;
			break;
		}
		size_t start = lx->pos;
		struct dt_ctok t = { CT_IDENT, NULL, 0 };
		if (c == '"') {
			lx->pos++;
			while (lx->pos < lx->len && lx->src[lx->pos] != '"' && lx->src[lx->pos] != '\n') {
				if (lx->src[lx->pos] == '\\' && lx->pos + 1 < lx->len &&
				    lx->src[lx->pos + 1] != '\n')
					lx->pos++;
				lx->pos++;
			}
			if (lx->pos < lx->len && lx->src[lx->pos] == '\n')
				dt_cerror(lx->pcb, "D_STR_NL", lx->line,
					  "newline encountered in string literal");
			if (lx->pos >= lx->len)
				dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"\"\"");
			lx->pos++;
			char *w = dt_pstrndup(lx->pcb, lx->src + start + 1, lx->pos - start - 2);
			dt_str_unescape(w, NULL);
			t.kind = CT_STRING;
			t.s = w;
		} else {
			while (lx->pos < lx->len && !strchr(" \t\f\v\n\"", lx->src[lx->pos]))
				lx->pos++;
			t.s = dt_pstrndup(lx->pcb, lx->src + start, lx->pos - start);
			if (is_int_word(t.s)) {
				char *end;
				errno = 0;
				t.kind = CT_INT;
				t.ival = strtoull(t.s, &end, 0);
				if (errno == ERANGE)
					dt_cerror(lx->pcb, "D_INT_OFLOW", lx->line,
						  "constant %s results in integer overflow", t.s);
				if (*end != '\0' && strchr("uUlL", *end) == NULL)
					dt_cerror(lx->pcb, "D_INT_DIGIT", lx->line,
						  "constant %s contains invalid digit %c", t.s, *end);
			}
		}
		if (n < (int)ARRAY_SIZE(toks))
			toks[n++] = t;
	}
	if (lx->pragma)
		lx->line = lx->pragma(lx->pcb, toks, n, line);
}

/* Skip blanks, comments and control lines. */
static void skip_space(struct dt_lexer *lx)
{
	while (lx->pos < lx->len) {
		char c = lx->src[lx->pos];
		if (c == '\n') {
			lx->line++;
			lx->pos++;
		} else if (one_of(c, " \t\f\v\r")) {
			lx->pos++;
		} else if (c == '\\' && peekc(lx, 1) == '\n') {
			lx->pos += 2;
			lx->line++;
		} else if (c == '/' && peekc(lx, 1) == '*') {
			lx->pos += 2;
			for (;;) {
				if (lx->pos >= lx->len)
					dt_cerror(lx->pcb, "D_SYNTAX", lx->line,
						  "end-of-file encountered before matching */");
				if (lx->src[lx->pos] == '*' && peekc(lx, 1) == '/') {
					lx->pos += 2;
					break;
				}
				if (lx->src[lx->pos] == '/' && peekc(lx, 1) == '*')
					dt_cerror(lx->pcb, "D_SYNTAX", lx->line,
						  "/* encountered inside a comment");
				if (lx->src[lx->pos] == '\n')
					lx->line++;
				lx->pos++;
			}
		} else if (c == '#' && at_line_start(lx)) {
			if (peekc(lx, 1) == '!') {
				while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
					lx->pos++;
			} else {
				control_line(lx);
			}
		} else {
			break;
		}
	}
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '`';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '`';
}

static bool is_pspec_start(int c)
{
	return c > 0 && (isalpha(c) || strchr("-$:_.?*\\[]!", c));
}

static bool is_pspec_char(int c)
{
	return c > 0 && (isalnum(c) || strchr("-$:_.`?*\\[]!", c));
}

/*
 * The length of the integer constant at the current position, digits
 * ([0-9]+ or 0[xX][0-9a-fA-F]+) and suffix ([uU]?[lL]?[lL]?); *sfx is
 * where the suffix starts.
 */
static size_t int_length(struct dt_lexer *lx, size_t *sfx)
{
	size_t p = lx->pos;

	if (lx->src[p] == '0' && (peekc(lx, 1) == 'x' || peekc(lx, 1) == 'X') &&
	    isxdigit(peekc(lx, 2))) {
		p += 2;
		while (p < lx->len && isxdigit((unsigned char)lx->src[p]))
			p++;
	} else {
		while (p < lx->len && isdigit((unsigned char)lx->src[p]))
			p++;
	}
	*sfx = p;
	if (p < lx->len && one_of(lx->src[p], "uU"))
		p++;
	for (int i = 0; i < 2 && p < lx->len && one_of(lx->src[p], "lL"); i++)
		p++;
	return p - lx->pos;
}

/* Integer constant (decimal, octal, hex) with C suffixes. */
static void lex_int(struct dt_lexer *lx, struct dt_token *t)
{
	size_t start = lx->pos, sfx;
	char *end;

	lx->pos += int_length(lx, &sfx);

	char *text = dt_pstrndup(lx->pcb, lx->src + start, lx->pos - start);
	errno = 0;
	t->ival = strtoull(text, &end, 0);
	if (errno == ERANGE)
		dt_cerror(lx->pcb, "D_INT_OFLOW", lx->line,
			  "constant %s results in integer overflow", text);
	if (*end != '\0' && strchr("uUlL", *end) == NULL)
		dt_cerror(lx->pcb, "D_INT_DIGIT", lx->line,
			  "constant %s contains invalid digit %c", text, *end);
	size_t sl = lx->pos - sfx;
	memcpy(t->isuffix, lx->src + sfx, sl < 3 ? sl : 3);
	t->isuffix[sl < 3 ? sl : 3] = '\0';
	t->idecimal = text[0] != '0';
	t->tok = T_INT;
}

/*
 * Is a floating-point constant here?  DTrace's lexer reads one where its
 * pattern, ([0-9]+"."?[0-9]* | "."[0-9]+) ([eE][+-]?[0-9]+)? [fFlL]?,
 * matches more text than the integer pattern ("1.5", "1e3", "3f"; not
 * "3l" or "0x1f"), and refuses it.
 */
static bool is_fp_constant(struct dt_lexer *lx)
{
	size_t p = lx->pos, digits = 0;
	bool dot = false;

	while (p < lx->len && isdigit((unsigned char)lx->src[p])) {
		p++;
		digits++;
	}
	if (p < lx->len && lx->src[p] == '.') {
		dot = true;
		p++;
		while (p < lx->len && isdigit((unsigned char)lx->src[p])) {
			p++;
			digits++;
		}
	}
	if (digits == 0)
		return false;
	if (p < lx->len && (lx->src[p] == 'e' || lx->src[p] == 'E')) {
		size_t q = p + 1;
		if (q < lx->len && (lx->src[q] == '+' || lx->src[q] == '-'))
			q++;
		if (q < lx->len && isdigit((unsigned char)lx->src[q])) {
			while (q < lx->len && isdigit((unsigned char)lx->src[q]))
				q++;
			p = q;
		}
	}
	if (p < lx->len && one_of(lx->src[p], "fFlL"))
		p++;
	if (dot)
		return true;
	size_t sfx;
	return p - lx->pos > int_length(lx, &sfx);
}

static void lex_string(struct dt_lexer *lx, struct dt_token *t)
{
	size_t start = ++lx->pos;

	while (lx->pos < lx->len && lx->src[lx->pos] != '"') {
		if (lx->src[lx->pos] == '\n')
			dt_cerror(lx->pcb, "D_STR_NL", lx->line + 1,
				  "newline encountered in string literal");
		if (lx->src[lx->pos] == '\\' && lx->pos + 1 < lx->len && lx->src[lx->pos + 1] != '\n')
			lx->pos++;
		lx->pos++;
	}
	if (lx->pos >= lx->len)
		dt_cerror(lx->pcb, "D_STR_NL", lx->line, "newline encountered in string literal");
	t->sval = dt_pstrndup(lx->pcb, lx->src + start, lx->pos - start);
	t->slen = dt_escape_decode(t->sval);
	lx->pos++;
	t->tok = T_STRING;
}

/*
 * A character constant, as DTrace reads one: its characters (escapes
 * decoded by dt_escape_decode()) are the bytes of an integer, the first
 * the most significant, each taken unsigned: '\377' is 255 and 'ab' is
 * 0x6162.  Up to eight bytes; the constant is typed as a decimal one.
 */
static void lex_char(struct dt_lexer *lx, struct dt_token *t)
{
	size_t start = lx->pos + 1, p = start;

	/* DTrace's pattern: '([^'\\\n]|\\[^'\n]|\\')*' */
	for (;;) {
		if (p >= lx->len)
			break;
		char c = lx->src[p];
		if (c == '\'' || c == '\n')
			break;
		if (c == '\\') {
			if (p + 1 >= lx->len || lx->src[p + 1] == '\n')
				break;
			p++;
		}
		p++;
	}
	if (p < lx->len && lx->src[p] == '\n') {
		lx->pos = p;
		dt_cerror(lx->pcb, "D_CHR_NL", lx->line + 1,
			  "newline encountered in character constant");
	}
	/* Unterminated: the quote alone is the offending token. */
	if (p >= lx->len || lx->src[p] != '\'')
		dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"'\"");
	lx->pos = p + 1;
	if (p == start)
		dt_cerror(lx->pcb, "D_CHR_NULL", lx->line, "empty character constant");
	char *s = dt_pstrndup(lx->pcb, lx->src + start, p - start);
	size_t n = dt_escape_decode(s);
	if (n > sizeof(uint64_t))
		dt_cerror(lx->pcb, "D_CHR_OFLOW", lx->line, "character constant is too long");
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = (v << 8) | (unsigned char)s[i];
	t->ival = v;
	t->isuffix[0] = '\0';
	t->idecimal = true;
	t->tok = T_INT;
}

/* Substitute a macro argument or macro variable ($1, $$1, $target, $$pid). */
static void lex_macro(struct dt_lexer *lx, struct dt_token *t, enum dt_lexmode mode)
{
	size_t start = lx->pos;
	bool asstring = peekc(lx, 1) == '$';
	size_t p = lx->pos + (asstring ? 2 : 1);

	if (p < lx->len && isdigit((unsigned char)lx->src[p])) {
		while (p < lx->len && isdigit((unsigned char)lx->src[p]))
			p++;
		lx->pos = p;
		char *text = dt_pstrndup(lx->pcb, lx->src + start, p - start);
		/* Not atoi: $4294967297 is no $1. */
		long n = strtol(text + (asstring ? 2 : 1), NULL, 10);
		const char *v = dt_macro_arg(lx->pcb, n > INT_MAX ? -1 : (int)n, text, lx->line);
		if (asstring) {
			t->tok = T_STRING;
			t->sval = dt_pstrdup(lx->pcb, v);
			dt_str_unescape(t->sval, &t->slen);
			return;
		}
		dt_macro_token(lx->pcb, v, text, lx->line, t);
		return;
	}
	if (p < lx->len && is_ident_start((unsigned char)lx->src[p]) && mode != LM_MEMBER) {
		while (p < lx->len && is_ident_char((unsigned char)lx->src[p]))
			p++;
		lx->pos = p;
		char *text = dt_pstrndup(lx->pcb, lx->src + start, p - start);
		int64_t v = dt_macro_var(lx->pcb, text + (asstring ? 2 : 1), text, lx->line);
		if (asstring) {
			t->tok = T_STRING;
			t->sval = dt_arena_printf(lx->pcb->arena, "%lld", (long long)v);
			t->slen = strlen(t->sval);
		} else {
			t->tok = T_INT;
			t->ival = (uint64_t)v;
			t->idecimal = true;
		}
		return;
	}
	lx->pos++;
	dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"$\"");
}

struct op {
	const char *s;
	enum dt_tok tok;
};

/* Longest first. */
static const struct op ops[] = {
	{ "<<=", T_LSH_EQ }, { ">>=", T_RSH_EQ }, { "...", T_ELLIPSIS },
	{ "->", T_PTR }, { "++", T_ADDADD }, { "--", T_SUBSUB }, { "<<", T_LSH },
	{ ">>", T_RSH }, { "<=", T_LE }, { ">=", T_GE }, { "==", T_EQU }, { "!=", T_NEQ },
	{ "&&", T_LAND }, { "||", T_LOR }, { "^^", T_LXOR }, { "+=", T_ADD_EQ },
	{ "-=", T_SUB_EQ }, { "*=", T_MUL_EQ }, { "/=", T_DIV_EQ }, { "%=", T_MOD_EQ },
	{ "&=", T_AND_EQ }, { "^=", T_XOR_EQ }, { "|=", T_OR_EQ },
	{ "(", T_LPAR }, { ")", T_RPAR }, { "[", T_LBRAC }, { "]", T_RBRAC },
	{ "{", T_LBRACE }, { "}", T_RBRACE }, { ";", T_SEMI }, { ",", T_COMMA },
	{ ".", T_DOT }, { "?", T_QUESTION }, { ":", T_COLON }, { "=", T_ASGN },
	{ "|", T_BOR }, { "^", T_XOR }, { "&", T_BAND }, { "<", T_LT }, { ">", T_GT },
	{ "+", T_ADD }, { "-", T_SUB }, { "*", T_MUL }, { "/", T_DIV }, { "%", T_MOD },
	{ "~", T_BNEG }, { "!", T_LNEG },
};

static void count_nesting(struct dt_lexer *lx, enum dt_tok tok)
{
	switch (tok) {
	case T_LPAR:
		lx->parens++;
		break;
	case T_RPAR:
		if (--lx->parens < 0)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "extra ) in input stream");
		break;
	case T_LBRAC:
		lx->brackets++;
		break;
	case T_RBRAC:
		if (--lx->brackets < 0)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "extra ] in input stream");
		break;
	case T_LBRACE:
		lx->braces++;
		break;
	case T_RBRACE:
		if (--lx->braces < 0)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "extra } in input stream");
		break;
	default:
		break;
	}
}

/*
 * "/" closes a predicate when followed by end of input, ";", "{" or "/".
 * *nlp: the newlines before that character, which DTrace's look-ahead
 * consumes (what it then reports is on that character's line).
 */
static enum dt_tok slash(struct dt_lexer *lx, int *nlp)
{
	size_t p = lx->pos;
	int nl = 0;

	while (p < lx->len && one_of(lx->src[p], " \t\f\v\r\n")) {
		if (lx->src[p] == '\n')
			nl++;
		p++;
	}
	/* DTrace reports these after its look-ahead past the blanks (a NUL ends it). */
	*nlp = nl;
	if (p >= lx->len || lx->src[p] == '\0' || one_of(lx->src[p], ";{/")) {
		if (lx->parens != 0)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line + nl,
				  "closing ) expected in predicate before /");
		if (lx->brackets != 0)
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line + nl,
				  "closing ] expected in predicate before /");
		return T_EPRED;
	}
	return T_DIV;
}

static void lex_outer(struct dt_lexer *lx, struct dt_token *t)
{
	int c = peekc(lx, 0);

	if (is_pspec_start(c)) {
		size_t start = lx->pos, end = lx->pos;
		while (end < lx->len && is_pspec_char((unsigned char)lx->src[end]))
			end++;
		const struct kw *k = keyword(lx->src + start, end - start);
		if (k != NULL && k->outer) {
			lx->pos = end;
			t->tok = k->tok;
			return;
		}
		char *word = dt_pstrndup(lx->pcb, lx->src + start, end - start);
		/*
		 * "int*" or "foo" could begin a declaration: a word without the
		 * characters only probe specifiers have is a type if its part
		 * before any '*' names one.  The pspec option (DTrace's
		 * "interpret ambiguous specifiers as probes") makes it a probe.
		 */
		if (!(lx->pcb->cflags & 0x01 /* DTRACE_C_PSPEC */) && !lx->pcb->cc->core->opts.pspec &&
		    strpbrk(word, ":-.?!`") == NULL && strcmp(word, "BEGIN") != 0 &&
		    strcmp(word, "END") != 0 && strcmp(word, "ERROR") != 0) {
			char *star = strchr(word, '*');
			size_t n = star != NULL && star > word ? (size_t)(star - word) : end - start;
			char *prefix = dt_pstrndup(lx->pcb, word, n);
			const struct kw *pk = keyword(prefix, n);
			if (pk != NULL && pk->outer) {
				lx->pos = start + n;
				t->tok = pk->tok;
				return;
			}
			if (dt_type_name_exists(lx->pcb, prefix) ||
			    (lx->is_tname != NULL && lx->is_tname(lx->tname_arg, prefix))) {
				lx->pos = start + n;
				t->tok = T_TNAME;
				t->sval = prefix;
				return;
			}
		}
		lx->pos = end;
		t->tok = T_PSPEC;
		t->sval = word;
		return;
	}
	if (isdigit(c)) {
		lex_int(lx, t);
		return;
	}
	lx->pos++;
	switch (c) {
	case '/':
		t->tok = T_DIV;
		return;
	case ',':
		t->tok = T_COMMA;
		return;
	case '{':
		t->tok = T_LBRACE;
		lx->braces++;
		return;
	default:
		break;
	}
	lx->pos--;
	dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"%c\"", c);
}

static void lex_expr(struct dt_lexer *lx, struct dt_token *t, enum dt_lexmode mode)
{
	int c = peekc(lx, 0);

	if (c == '$') {
		lex_macro(lx, t, mode);
		return;
	}
	if (is_ident_start(c)) {
		size_t start = lx->pos;
		while (lx->pos < lx->len && is_ident_char((unsigned char)lx->src[lx->pos]))
			lx->pos++;
		if (mode == LM_EXPR) {
			const struct kw *k = keyword(lx->src + start, lx->pos - start);
			if (k != NULL) {
				t->tok = k->tok;
				return;
			}
			/* "vmlinux`struct": the keyword, scoped to a module (in sval). */
			const char *bt = memrchr(lx->src + start, '`', lx->pos - start);
			if (bt != NULL && bt > lx->src + start) {
				size_t kn = (size_t)(lx->src + lx->pos - bt - 1);
				k = keyword(bt + 1, kn);
				if (k != NULL && (k->tok == K_STRUCT || k->tok == K_UNION ||
						  k->tok == K_ENUM)) {
					t->tok = k->tok;
					t->sval = dt_pstrndup(lx->pcb, lx->src + start,
							      (size_t)(bt - (lx->src + start)));
					return;
				}
			}
		}
		t->tok = T_IDENT;
		t->sval = dt_pstrndup(lx->pcb, lx->src + start, lx->pos - start);
		return;
	}
	if (mode == LM_MEMBER)
		dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"%c\"", c);
	if (c == '@') {
		size_t start = ++lx->pos;
		if (lx->pos < lx->len && (isalpha((unsigned char)lx->src[lx->pos]) ||
					  lx->src[lx->pos] == '_')) {
			while (lx->pos < lx->len && (isalnum((unsigned char)lx->src[lx->pos]) ||
						     lx->src[lx->pos] == '_'))
				lx->pos++;
			t->sval = dt_pstrndup(lx->pcb, lx->src + start, lx->pos - start);
		} else {
			t->sval = dt_pstrdup(lx->pcb, "_");
		}
		t->tok = T_AGG;
		return;
	}
	if (isdigit(c) || (c == '.' && isdigit(peekc(lx, 1)))) {
		if (is_fp_constant(lx))
			dt_cerror(lx->pcb, "D_SYNTAX", lx->line,
				  "floating-point constants are not permitted");
		lex_int(lx, t);
		return;
	}
	if (c == '"') {
		lex_string(lx, t);
		return;
	}
	if (c == '\'') {
		lex_char(lx, t);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].s);
		if (lx->pos + n <= lx->len && memcmp(lx->src + lx->pos, ops[i].s, n) == 0) {
			lx->pos += n;
			int nl = 0;
			t->tok = ops[i].tok == T_DIV ? slash(lx, &nl) : ops[i].tok;
			if (t->tok == T_EPRED)
				t->line += nl;
			count_nesting(lx, t->tok);
			return;
		}
	}
	if (c == 0)
		dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near end-of-input");
	dt_cerror(lx->pcb, "D_SYNTAX", lx->line, "syntax error near \"%c\"", c);
}

static void lex_token(struct dt_lexer *lx, enum dt_lexmode mode, struct dt_token *t)
{
	memset(t, 0, sizeof(*t));
	skip_space(lx);
	t->line = lx->line;
	t->start = lx->pos;
	if (lx->pos >= lx->len) {
		t->tok = T_EOF;
		t->end = lx->pos;
		return;
	}
	if (mode == LM_OUTER)
		lex_outer(lx, t);
	else
		lex_expr(lx, t, mode);
	t->end = lx->pos;
}

void dt_lex_next(struct dt_lexer *lx, enum dt_lexmode mode, struct dt_token *t)
{
	if (lx->have_peek) {
		lx->have_peek = false;
		if (lx->peek_mode == mode) {
			*t = lx->peek;
			return;
		}
		/* Read in another mode: go back and read again. */
		lx->pos = lx->peek_pos;
		lx->line = lx->peek_line;
		lx->parens = lx->peek_parens;
		lx->brackets = lx->peek_brackets;
		lx->braces = lx->peek_braces;
	}
	lex_token(lx, mode, t);
}

const struct dt_token *dt_lex_peek(struct dt_lexer *lx, enum dt_lexmode mode)
{
	if (lx->have_peek && lx->peek_mode == mode)
		return &lx->peek;
	if (lx->have_peek) {
		lx->pos = lx->peek_pos;
		lx->line = lx->peek_line;
		lx->parens = lx->peek_parens;
		lx->brackets = lx->peek_brackets;
		lx->braces = lx->peek_braces;
	}
	/* Blanks and control lines before the token are consumed for good. */
	skip_space(lx);
	lx->peek_pos = lx->pos;
	lx->peek_line = lx->line;
	lx->peek_parens = lx->parens;
	lx->peek_brackets = lx->brackets;
	lx->peek_braces = lx->braces;
	lex_token(lx, mode, &lx->peek);
	lx->peek_mode = mode;
	lx->have_peek = true;
	return &lx->peek;
}

const char *dt_tok_text(struct dt_lexer *lx, const struct dt_token *t)
{
	if (t->tok == T_EOF)
		return NULL;
	return dt_pstrndup(lx->pcb, lx->src + t->start, t->end - t->start);
}

/* Whether `name` is a type name (for the grammar's cast and declaration choices). */
bool dt_type_name_exists(struct dt_pcb *pcb, const char *name)
{
	struct dt_typetab *tt = &pcb->cc->core->types;

	if (dt_htab_get(&tt->names, name) != NULL)
		return true;
	/* vmlinux`uint64_t: a type only if the module has it. */
	if (strchr(name, '`') != NULL)
		return dt_type_lookup(tt, name) != NULL;
	/* The D library's typedefs (ipaddr_t ...). */
	while (!pcb->is_dlib && dt_dlib_provide(pcb->cc, name) > 0)
		if (dt_htab_get(&tt->names, name) != NULL)
			return true;
	/* A variable of that name wins over a kernel typedef. */
	if (dt_ident_lookup_any(pcb->cc, name) != NULL)
		return false;
	return dt_type_kernel_has(tt, name);
}
