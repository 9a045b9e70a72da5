/* D tokens. */
#ifndef DT_TOKEN_H
#define DT_TOKEN_H

#include <stdbool.h>
#include <stdint.h>

enum dt_tok {
	T_EOF = 0,
	T_INT, T_STRING, T_IDENT, T_TNAME, T_AGG, T_PSPEC,

	/* Keywords */
	K_AUTO, K_BREAK, K_CASE, K_CHAR, K_CONST, K_CONTINUE, K_COUNTER, K_DEFAULT,
	K_DO, K_DOUBLE, K_ELSE, K_ENUM, K_EXTERN, K_FLOAT, K_FOR, K_GOTO, K_IF,
	K_IMPORT, K_INLINE, K_INT, K_LONG, K_OFFSETOF, K_PROBE, K_PROVIDER,
	K_REGISTER, K_RESTRICT, K_RETURN, K_SELF, K_SHORT, K_SIGNED, K_SIZEOF,
	K_STATIC, K_STRING, K_STRINGOF, K_STRUCT, K_SWITCH, K_THIS, K_TRANSLATOR,
	K_TYPEDEF, K_UNION, K_UNSIGNED, K_USERLAND, K_VOID, K_VOLATILE, K_WHILE,
	K_XLATE,

	/* Punctuation and operators */
	T_LPAR, T_RPAR, T_LBRAC, T_RBRAC, T_LBRACE, T_RBRACE, T_SEMI, T_COMMA,
	T_DOT, T_PTR, T_QUESTION, T_COLON, T_ELLIPSIS,
	T_ASGN, T_ADD_EQ, T_SUB_EQ, T_MUL_EQ, T_DIV_EQ, T_MOD_EQ, T_AND_EQ,
	T_XOR_EQ, T_OR_EQ, T_LSH_EQ, T_RSH_EQ,
	T_LOR, T_LXOR, T_LAND, T_BOR, T_XOR, T_BAND,
	T_EQU, T_NEQ, T_LT, T_LE, T_GT, T_GE, T_LSH, T_RSH,
	T_ADD, T_SUB, T_MUL, T_DIV, T_MOD, T_BNEG, T_LNEG,
	T_ADDADD, T_SUBSUB,
	T_EPRED,	/* the "/" that closes a predicate */

	/* Unary operator codes used in the AST only */
	T_ADDROF, T_DEREF, T_IPOS, T_INEG, T_PREINC, T_PREDEC, T_POSTINC, T_POSTDEC,
	T_SELF, T_THIS,

	T_NTOKENS
};

/* Printable spelling of a token kind, for messages ("+", "sizeof", ...). */
const char *dt_tok_name(enum dt_tok t);

/* An assignment operator: = or one of the op= forms. */
static inline bool dt_tok_is_assign(enum dt_tok t)
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

#endif
