/*
 * The D abstract syntax tree.  The parser builds it for the whole grammar;
 * sema annotates expression nodes with types and resolved identifiers;
 * codegen walks it.  Nodes live in the compile's arena.
 */
#ifndef DT_AST_H
#define DT_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/attr.h"
#include "base/types.h"
#include "compiler/token.h"

struct dt_type;
struct dt_ident;

enum dt_nkind {
	/* Expressions */
	N_INT,		/* integer constant: .i.value, .i.suffix */
	N_STRING,	/* string literal: .str */
	N_IDENT,	/* identifier: .ident.name */
	N_OP1,		/* unary operator: .op, .l (prefix/postfix ++/-- included) */
	N_OP2,		/* binary operator incl. assignment and comma: .op, .l, .r */
	N_OP3,		/* ?: : .cond, .l, .r */
	N_CALL,		/* function/subroutine/action call: .call.name, .call.args */
	N_INDEX,	/* a[k1, k2]: .l (the array, an N_IDENT), .call.args (keys) */
	N_AGG,		/* @name[keys]: .agg.name, .agg.keys */
	N_MEMBER,	/* .l -> name or .l . name: .op (T_DOT/T_PTR), .member */
	N_VAR,		/* self->x or this->x: .op (T_SELF/T_THIS), .member */
	N_CAST,		/* (type) .l: .tn */
	N_SIZEOF,	/* sizeof(type) (.tn) or sizeof expr (.l) */
	N_OFFSETOF,	/* offsetof(type, member): .tn, .member */
	N_STRINGOF,	/* stringof expr: .l */
	N_XLATE,	/* xlate <type> (expr): .tn, .l */
	N_TYPEEXPR,	/* a type used as a sizeof/cast operand holder */

	/* Statements (in clause bodies) */
	N_EXPRSTMT,	/* .l */
	N_IF,		/* .cond, .body (then), .elsebody */
	N_BLOCK,	/* .body (list) */
	N_EMPTY,	/* ; */

	/* Program-level */
	N_CLAUSE,	/* .clause */
	N_DECL,		/* a declaration: .decl */
	N_INLINE,	/* inline decl = expr: .decl, .l */
	N_XLATOR,	/* translator: .xlator */
	N_PROVIDER,	/* provider definition: .provider */
	N_PRAGMA,	/* #pragma D ...: .pragma */
};

/* A probe description as written: "prov:mod:func:name" with fields split. */

/* Storage classes of declarations. */
enum dt_dclass {
	DC_NONE = 0, DC_AUTO, DC_REGISTER, DC_STATIC, DC_EXTERN, DC_TYPEDEF, DC_SELF, DC_THIS,
};

/* Declaration-specifier bits; the qualifier bits are the types' (base/types.h). */
enum {
	DS_SIGNED = 0x01, DS_UNSIGNED = 0x02, DS_SHORT = 0x04, DS_LONG = 0x08,
	DS_LONGLONG = 0x10, DS_USERLAND = 0x100,
};

/* The base type named by declaration specifiers. */
enum dt_tspec {
	TS_NONE = 0,	/* only modifiers (e.g. "unsigned") or nothing */
	TS_VOID, TS_CHAR, TS_INT, TS_FLOAT, TS_DOUBLE, TS_STRING,
	TS_NAME,	/* a typedef name: .name */
	TS_STRUCT, TS_UNION, TS_ENUM,	/* .name (tag, may be NULL) and body */
};

struct dt_node;

struct dt_member_decl;

struct dt_enumerator {
	char *name;
	struct dt_node *value;	/* may be NULL */
	int line;
	int end_line;		/* of the token after it (where DTrace reports its errors) */
	struct dt_enumerator *next;
};

struct dt_declspec {
	enum dt_dclass dclass;
	unsigned bits;		/* DS_* */
	enum dt_tspec ts;
	char *name;		/* TS_NAME: type name; TS_STRUCT/UNION/ENUM: tag */
	bool has_body;		/* struct/union/enum with a { } body */
	struct dt_node *members;	/* struct/union: N_DECL list (with bitfields) */
	struct dt_enumerator *enums;	/* enum body */
	int line;
	int tag_line;		/* struct/union/enum: of the token after the tag */
	struct dt_type *defined;	/* sema: the type its body defined (shared by declarators) */
};

enum dt_dkind {
	DK_NAME,	/* identifier (name may be NULL for abstract declarators) */
	DK_PTR,		/* pointer to .inner; .quals */
	DK_ARRAY,	/* array of .inner: .dim (constant) or .keys (associative) */
	DK_FUNC,	/* function returning .inner: .params */
};

/*
 * A declarator, innermost-first: "int *a[4]" is ARRAY(4) -> PTR -> NAME(a)
 * read from the name outwards: a is an array of 4 pointers to int.  The
 * chain `outer` points from the name towards the base type.
 */
struct dt_declarator {
	enum dt_dkind kind;
	char *name;			/* DK_NAME */
	unsigned quals;			/* DK_PTR: DS_CONST etc. */
	struct dt_node *dim;		/* DK_ARRAY: dimension expression or NULL */
	struct dt_node *params;		/* DK_ARRAY (assoc keys) / DK_FUNC: N_DECL list */
	bool varargs;			/* DK_FUNC: ... */
	bool assoc;			/* DK_ARRAY: [type, ...] associative array */
	struct dt_declarator *outer;	/* towards the base type */
	int line;
	int end_line;			/* DK_ARRAY, DK_FUNC: line of the ']' or ')' */
	int varargs_line;		/* DK_FUNC, DK_ARRAY: line of the "..." */
};

struct dt_decl {
	struct dt_declspec *spec;
	struct dt_declarator *decl;	/* NULL for "struct s { ... };" alone */
	struct dt_node *bitwidth;	/* struct members: ": width" */
	struct dt_node *init;		/* inline: = expr */
	int end_line;			/* of the token after the declarator (DTrace's error line) */
};

struct dt_clause {
	struct dt_pdesc **pdescs;
	int npdescs;
	struct dt_node *pred;		/* may be NULL */
	struct dt_node *body;		/* statement list (NULL: no body given) */
	bool has_body;
	int end_line;			/* line of the closing brace */
};

struct dt_xlator {
	struct dt_declspec *to_spec;		/* output type */
	struct dt_declarator *to_decl;
	struct dt_declspec *from_spec;		/* input type */
	struct dt_declarator *from_decl;
	char *from_name;			/* input identifier */
	struct dt_node *members;		/* N_OP2(T_ASGN) list: member = expr */
	int end_line;				/* line of the closing "};" */
};

struct dt_provider_def {
	char *name;
	struct dt_node *probes;		/* N_DECL list (function declarators) */
	int end_line;			/* of its closing "};" (DTrace's line for its name's errors) */
};

struct dt_pragma {
	char **words;		/* after "#pragma": e.g. "D", "option", "quiet" */
	int nwords;
};

struct dt_node {
	enum dt_nkind kind;
	int line;
	enum dt_tok op;
	struct dt_node *next;		/* lists: statements, args, decls */

	/* Operands */
	struct dt_node *l, *r, *cond;
	struct dt_node *body, *elsebody;

	/* Payloads */
	union {
		struct { uint64_t value; char suffix[4]; bool decimal; } i;
		struct { char *s; size_t len; } str;
		struct { char *name; } ident;
		struct { char *name; struct dt_node *args; } call;
		struct { char *name; struct dt_node *keys; } agg;
		char *member;
		struct dt_decl decl;
		struct dt_clause clause;
		struct dt_xlator xlator;
		struct dt_provider_def provider;
		struct dt_pragma pragma;
	};

	/* A type name operand (casts, sizeof, offsetof, xlate). */
	struct dt_declspec *tn_spec;
	struct dt_declarator *tn_decl;

	/* Filled in by sema. */
	struct dt_type *type;
	struct dt_ident *id;
	unsigned flags;			/* DN_* below */
	int64_t cval;			/* folded constant value (DN_CONST) */
	struct dt_attr attr;		/* stability attributes (DN_ATTR, sema_attr.c) */
	void *aux;			/* checked printf format (struct dt_pf_format) */
};

/* Node flags set by sema. */
#define DN_CONST    0x01	/* integer constant expression, value in cval */
#define DN_LVALUE   0x02
#define DN_WRITABLE 0x04
#define DN_USERLAND 0x08	/* pointer into user space */
#define DN_POSTFIX  0x10	/* N_OP1 ++/--: postfix form */
#define DN_ALLOCA   0x20	/* a pointer into alloca()'d memory */
#define DN_AMEM     0x40	/* an lvalue in alloca()'d memory */
#define DN_AMIXED   0x80	/* ?: of alloca and other pointers */
#define DN_ACTION   0x100	/* an action called inside an expression */
#define DN_ATTR     0x200	/* attr is computed */
#define DN_ATTRFIX  0x400	/* attr is fixed by a rule (kernel symbol, enum tag, sizeof type) */
#define DN_CHECKED  0x800	/* a top-level declaration already checked, as it was parsed */

int dt_node_list_len(const struct dt_node *n);

#endif
