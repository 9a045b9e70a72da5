/* Token spellings for messages. */
#include "compiler/token.h"

const char *dt_tok_name(enum dt_tok t)
{
	switch (t) {
	case T_ASGN: return "=";
	case T_ADD_EQ: return "+=";
	case T_SUB_EQ: return "-=";
	case T_MUL_EQ: return "*=";
	case T_DIV_EQ: return "/=";
	case T_MOD_EQ: return "%=";
	case T_AND_EQ: return "&=";
	case T_XOR_EQ: return "^=";
	case T_OR_EQ: return "|=";
	case T_LSH_EQ: return "<<=";
	case T_RSH_EQ: return ">>=";
	case T_LOR: return "||";
	case T_LXOR: return "^^";
	case T_LAND: return "&&";
	case T_BOR: return "|";
	case T_XOR: return "^";
	case T_BAND: return "&";
	case T_EQU: return "==";
	case T_NEQ: return "!=";
	case T_LT: return "<";
	case T_LE: return "<=";
	case T_GT: return ">";
	case T_GE: return ">=";
	case T_LSH: return "<<";
	case T_RSH: return ">>";
	case T_ADD: return "+";
	case T_SUB: return "-";
	case T_MUL: return "*";
	case T_DIV: return "/";
	case T_MOD: return "%";
	case T_BNEG: return "~";
	case T_LNEG: return "!";
	case T_ADDADD: return "++";
	case T_SUBSUB: return "--";
	case T_COMMA: return ",";
	case T_DOT: return ".";
	case T_PTR: return "->";
	case T_QUESTION: return "?:";
	case T_ADDROF: return "&";
	case T_DEREF: return "*";
	case T_IPOS: return "+";
	case T_INEG: return "-";
	case T_PREINC: case T_POSTINC: return "++";
	case T_PREDEC: case T_POSTDEC: return "--";
	case K_SIZEOF: return "sizeof";
	case K_STRINGOF: return "stringof";
	default: return "?";
	}
}
