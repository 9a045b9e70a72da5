/*
 * Helpers for the front end's tests (lexer, parser, semantic checks): a
 * handle that reads no kernel types, one-call lexing, parsing and checking
 * through dt_compile_front(), and the AST written as an S-expression so
 * that a test states a tree in one line.  No root and no kernel needed.
 */
#ifndef TEST_FRONT_HELPERS_H
#define TEST_FRONT_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/lexer.h"
#include "compiler/pcb.h"
#include "compiler/pragma.h"
#include "compiler/program.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

/* Fail the test at the caller's line with a message. */
static inline void fe_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void fe_fail_at(const char *file, int line, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_error("%s:%d: %s\n", file, line, msg);
	_fail(file, line);
}

/*
 * A handle for front-end tests.  Kernel BTF counts as already looked for
 * and absent, so that no test depends on the running kernel's types (a
 * kernel typedef named like a test's identifier would change its parse).
 */
static inline dtrace_hdl_t *fe_open(void)
{
	int err = 0;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_O_NOKERNEL, &err);

	assert_non_null(dtp);
	dtp->core->types.vmlinux_tried = true;
	return dtp;
}

static inline int fe_setup(void **state)
{
	*state = fe_open();
	return 0;
}

static inline int fe_teardown(void **state)
{
	dtrace_close(*state);
	return 0;
}

/* Parse (or parse and check) `src` as the script t.d (errors say "line N:"). */
static inline struct dt_node *fe_parse(dtrace_hdl_t *dtp, const char *src)
{
	return dt_compile_front(dtp->cc, src, "t.d", DTRACE_C_FILE, DT_FRONT_PARSE, 0, NULL);
}

static inline struct dt_node *fe_check(dtrace_hdl_t *dtp, const char *src)
{
	return dt_compile_front(dtp->cc, src, "t.d", DTRACE_C_FILE, DT_FRONT_CHECK, 0, NULL);
}

/* Check `src` as given to -n (no line numbers in errors), with macro arguments. */
static inline struct dt_node *fe_check_n(dtrace_hdl_t *dtp, const char *src, int argc,
					 char *const argv[])
{
	return dt_compile_front(dtp->cc, src, NULL, 0, DT_FRONT_CHECK, argc, argv);
}

/* The error the last call left: "[TAG] message" ("" if none). */
static inline const char *fe_error(dtrace_hdl_t *dtp)
{
	static char buf[sizeof(dtp->core->errmsg) + 64];

	if (dtp->core->errmsg[0] == '\0')
		return "";
	snprintf(buf, sizeof(buf), "[%s] %s", dtp->core->errtag, dtp->core->errmsg);
	return buf;
}

/* Checking `src` fails with exactly `want` ("[TAG] line N: message"). */
#define expect_check_error(dtp, src, want) fe_expect_error(dtp, src, want, true, __FILE__, __LINE__)
/* Parsing alone fails so. */
#define expect_parse_error(dtp, src, want) fe_expect_error(dtp, src, want, false, __FILE__, __LINE__)

static inline void fe_expect_error(dtrace_hdl_t *dtp, const char *src, const char *want,
				   bool check, const char *file, int line)
{
	dtp->core->errmsg[0] = '\0';
	struct dt_node *root = check ? fe_check(dtp, src) : fe_parse(dtp, src);
	const char *got = fe_error(dtp);

	if (root != NULL && got[0] == '\0')
		got = "(no error)";
	if (strcmp(got, want) != 0)
		fe_fail_at(file, line, "%s\n   got: %s\n  want: %s", src, got, want);
}

/* Checking `src` succeeds. */
#define expect_check_ok(dtp, src) fe_expect_ok(dtp, src, __FILE__, __LINE__)

static inline struct dt_node *fe_expect_ok(dtrace_hdl_t *dtp, const char *src, const char *file,
					   int line)
{
	dtp->core->errmsg[0] = '\0';
	struct dt_node *root = fe_check(dtp, src);

	if (root == NULL)
		fe_fail_at(file, line, "%s\n  failed: %s", src, fe_error(dtp));
	return root;
}

/* ---- The AST as an S-expression ---- */

struct fe_buf {
	char s[4096];
	size_t n;
};

static inline void fe_put(struct fe_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void fe_put(struct fe_buf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->n >= sizeof(b->s))
		return;
	va_start(ap, fmt);
	int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->n += (size_t)k;
}

/* A type name as written: specifiers and pointer stars ("unsigned long **"). */
static inline void fe_typename(struct fe_buf *b, const struct dt_declspec *ds,
			       const struct dt_declarator *d)
{
	static const char *const ts[] = {
		[TS_NONE] = "", [TS_VOID] = "void", [TS_CHAR] = "char", [TS_INT] = "int",
		[TS_FLOAT] = "float", [TS_DOUBLE] = "double", [TS_STRING] = "string",
	};

	if (ds->bits & DS_CONST)
		fe_put(b, "const ");
	if (ds->bits & DS_UNSIGNED)
		fe_put(b, "unsigned ");
	if (ds->bits & DS_SIGNED)
		fe_put(b, "signed ");
	if (ds->bits & DS_SHORT)
		fe_put(b, "short ");
	if (ds->bits & DS_LONGLONG)
		fe_put(b, "long long ");
	else if (ds->bits & DS_LONG)
		fe_put(b, "long ");
	if (ds->ts == TS_STRUCT || ds->ts == TS_UNION || ds->ts == TS_ENUM)
		fe_put(b, "%s %s", ds->ts == TS_STRUCT ? "struct" : ds->ts == TS_UNION ? "union" : "enum",
		       ds->name ? ds->name : "");
	else if (ds->ts == TS_NAME)
		fe_put(b, "%s", ds->name);
	else
		fe_put(b, "%s", ts[ds->ts]);
	while (b->n > 0 && b->s[b->n - 1] == ' ')
		b->s[--b->n] = '\0';
	for (; d != NULL; d = d->outer) {
		if (d->kind == DK_PTR)
			fe_put(b, " *");
		else if (d->kind == DK_ARRAY)
			fe_put(b, " []");
		else if (d->kind == DK_FUNC)
			fe_put(b, " ()");
	}
}

static inline void fe_sexpr(struct fe_buf *b, const struct dt_node *n);

static inline void fe_list(struct fe_buf *b, const struct dt_node *n)
{
	for (; n != NULL; n = n->next) {
		fe_put(b, " ");
		fe_sexpr(b, n);
	}
}

static inline const char *fe_op1name(enum dt_tok op)
{
	switch (op) {
	case T_POSTINC: return "post++";
	case T_POSTDEC: return "post--";
	case T_PREINC: return "pre++";
	case T_PREDEC: return "pre--";
	case T_INEG: return "neg";
	case T_IPOS: return "pos";
	case T_DEREF: return "deref";
	case T_ADDROF: return "addr";
	default: return dt_tok_name(op);
	}
}

/*
 * Expressions: "(op l r)", "(?: c a b)", "(call f a..)", "([] a k..)",
 * "(@a k..)", "(. s m)", "(-> p m)", "self->x", "(cast T e)", "(sizeof e)",
 * "(sizeof T)", "(stringof e)", "(offsetof T m)", "(xlate T e)"; integers
 * in decimal with their suffix, strings quoted (no escapes).
 * Statements: "(expr e)", "(if c then else)", "(block s..)".
 */
static inline void fe_sexpr(struct fe_buf *b, const struct dt_node *n)
{
	if (n == NULL) {
		fe_put(b, "nil");
		return;
	}
	switch (n->kind) {
	case N_INT:
		fe_put(b, "%llu%s", (unsigned long long)n->i.value, n->i.suffix);
		break;
	case N_STRING:
		fe_put(b, "\"%s\"", n->str.s);
		break;
	case N_IDENT:
		fe_put(b, "%s", n->ident.name);
		break;
	case N_OP1:
		fe_put(b, "(%s ", fe_op1name(n->op));
		fe_sexpr(b, n->l);
		fe_put(b, ")");
		break;
	case N_OP2:
		fe_put(b, "(%s ", dt_tok_name(n->op));
		fe_sexpr(b, n->l);
		fe_put(b, " ");
		fe_sexpr(b, n->r);
		fe_put(b, ")");
		break;
	case N_OP3:
		fe_put(b, "(?: ");
		fe_sexpr(b, n->cond);
		fe_put(b, " ");
		fe_sexpr(b, n->l);
		fe_put(b, " ");
		fe_sexpr(b, n->r);
		fe_put(b, ")");
		break;
	case N_CALL:
		fe_put(b, "(call %s", n->call.name);
		fe_list(b, n->call.args);
		fe_put(b, ")");
		break;
	case N_INDEX:
		fe_put(b, "([] ");
		fe_sexpr(b, n->l);
		fe_list(b, n->call.args);
		fe_put(b, ")");
		break;
	case N_AGG:
		fe_put(b, "(@%s", n->agg.name);
		fe_list(b, n->agg.keys);
		fe_put(b, ")");
		break;
	case N_MEMBER:
		fe_put(b, "(%s ", n->op == T_PTR ? "->" : ".");
		fe_sexpr(b, n->l);
		fe_put(b, " %s)", n->member);
		break;
	case N_VAR:
		fe_put(b, "%s->%s", n->op == T_SELF ? "self" : "this", n->member);
		break;
	case N_CAST:
		fe_put(b, "(cast ");
		fe_typename(b, n->tn_spec, n->tn_decl);
		fe_put(b, " ");
		fe_sexpr(b, n->l);
		fe_put(b, ")");
		break;
	case N_SIZEOF:
		fe_put(b, "(sizeof ");
		if (n->l != NULL)
			fe_sexpr(b, n->l);
		else
			fe_typename(b, n->tn_spec, n->tn_decl);
		fe_put(b, ")");
		break;
	case N_STRINGOF:
		fe_put(b, "(stringof ");
		fe_sexpr(b, n->l);
		fe_put(b, ")");
		break;
	case N_OFFSETOF:
		fe_put(b, "(offsetof ");
		fe_typename(b, n->tn_spec, n->tn_decl);
		fe_put(b, " %s)", n->member);
		break;
	case N_XLATE:
		fe_put(b, "(xlate ");
		fe_typename(b, n->tn_spec, n->tn_decl);
		fe_put(b, " ");
		fe_sexpr(b, n->l);
		fe_put(b, ")");
		break;
	case N_EXPRSTMT:
		fe_put(b, "(expr ");
		fe_sexpr(b, n->l);
		fe_put(b, ")");
		break;
	case N_IF:
		fe_put(b, "(if ");
		fe_sexpr(b, n->cond);
		fe_put(b, " ");
		fe_sexpr(b, n->body);
		fe_put(b, " ");
		fe_sexpr(b, n->elsebody);
		fe_put(b, ")");
		break;
	case N_BLOCK:
		fe_put(b, "(block");
		fe_list(b, n->body);
		fe_put(b, ")");
		break;
	default:
		fe_put(b, "(node%d)", (int)n->kind);
		break;
	}
}

static inline const char *fe_str(const struct dt_node *n)
{
	static struct fe_buf b;

	b.n = 0;
	b.s[0] = '\0';
	fe_sexpr(&b, n);
	return b.s;
}

/* The first clause of a program (NULL if none). */
static inline struct dt_node *fe_clause(struct dt_node *root)
{
	for (; root != NULL; root = root->next)
		if (root->kind == N_CLAUSE)
			return root;
	return NULL;
}

/* The expression of "BEGIN { <expr>; }" as parsed, as an S-expression. */
#define expect_parse(dtp, expr, want) fe_expect_parse(dtp, expr, want, __FILE__, __LINE__)

static inline void fe_expect_parse(dtrace_hdl_t *dtp, const char *expr, const char *want,
				   const char *file, int line)
{
	char src[2048];

	snprintf(src, sizeof(src), "BEGIN\n{\n%s;\n}\n", expr);
	struct dt_node *c = fe_clause(fe_parse(dtp, src));
	if (c == NULL)
		fe_fail_at(file, line, "%s: %s", expr, fe_error(dtp));
	if (c->clause.body == NULL || c->clause.body->next != NULL ||
	    c->clause.body->kind != N_EXPRSTMT)
		fe_fail_at(file, line, "%s: not one expression", expr);
	const char *got = fe_str(c->clause.body->l);
	if (strcmp(got, want) != 0)
		fe_fail_at(file, line, "%s\n   got: %s\n  want: %s", expr, got, want);
}

/*
 * The checked expression of "<decls> BEGIN { <expr>; }": its type as D
 * spells it and, for a constant, its value.
 */
struct fe_typed {
	const char *type;
	bool is_const;
	int64_t value;
	unsigned flags;
};

static inline struct fe_typed fe_typeof_at(dtrace_hdl_t *dtp, const char *decls, const char *expr,
					   const char *file, int line)
{
	char src[4096];
	struct fe_typed r = { NULL, false, 0, 0 };

	snprintf(src, sizeof(src), "%s\nBEGIN\n{\n%s;\n}\n", decls ? decls : "", expr);
	dtp->core->errmsg[0] = '\0';
	struct dt_node *c = fe_clause(fe_check(dtp, src));
	if (c == NULL)
		fe_fail_at(file, line, "%s: %s", expr, fe_error(dtp));
	struct dt_node *s = c->clause.body;
	while (s->next != NULL)
		s = s->next;
	struct dt_node *e = s->l;
	r.type = dt_type_str(&dtp->core->types, e->type);
	r.is_const = (e->flags & DN_CONST) != 0;
	r.value = e->cval;
	r.flags = e->flags;
	return r;
}

#define fe_typeof(dtp, decls, expr) fe_typeof_at(dtp, decls, expr, __FILE__, __LINE__)

/* The type of an expression is `type`. */
#define expect_type(dtp, decls, expr, type) \
	fe_expect_type(dtp, decls, expr, type, __FILE__, __LINE__)

static inline void fe_expect_type(dtrace_hdl_t *dtp, const char *decls, const char *expr,
				  const char *type, const char *file, int line)
{
	struct fe_typed t = fe_typeof_at(dtp, decls, expr, file, line);

	if (strcmp(t.type, type) != 0)
		fe_fail_at(file, line, "%s\n   type: %s\n   want: %s", expr, t.type, type);
}

/* An integer constant expression has this type and value. */
#define expect_const(dtp, expr, type, value) \
	fe_expect_const(dtp, expr, type, (int64_t)(value), __FILE__, __LINE__)

static inline void fe_expect_const(dtrace_hdl_t *dtp, const char *expr, const char *type,
				   int64_t value, const char *file, int line)
{
	struct fe_typed t = fe_typeof_at(dtp, NULL, expr, file, line);

	if (!t.is_const)
		fe_fail_at(file, line, "%s: not a constant (type %s)", expr, t.type);
	if (strcmp(t.type, type) != 0 || t.value != value)
		fe_fail_at(file, line, "%s\n   got: %s %lld (%#llx)\n  want: %s %lld (%#llx)", expr,
			     t.type, (long long)t.value, (unsigned long long)t.value, type,
			     (long long)value, (unsigned long long)value);
}

/* ---- The lexer alone ---- */

#define FE_MAXTOK 64

struct fe_lexed {
	int n;				/* tokens before T_EOF */
	struct dt_token t[FE_MAXTOK];
	const char *text[FE_MAXTOK];	/* each token's source text */
	const char *error;		/* "[TAG] message", or NULL */
};

/*
 * Tokens of `src` read in `mode` (flags: DTRACE_C_* of the compile, e.g.
 * DTRACE_C_PSPEC; macro arguments $0..), up to end of input or an error.
 */
static inline struct fe_lexed *fe_lex_bytes(dtrace_hdl_t *dtp, const char *src, size_t len,
					    enum dt_lexmode mode, unsigned flags, int argc,
					    char *const argv[])
{
	static struct fe_lexed r;
	static struct dt_pcb pcb;
	static struct dt_lexer lx;

	memset(&r, 0, sizeof(r));
	dtp->core->errmsg[0] = '\0';
	free(pcb.argref);	/* the previous call's */
	if (dt_pcb_init(&pcb, dtp->cc, src, len, "t.d", DTRACE_C_FILE | flags, DTRACE_PSPEC_NAME, argc,
			argv) < 0)
		fail_msg("dt_pcb_init: %s", dtrace_errmsg(dtp));
	/* Control lines act as in a compile (#line sets the line). */
	dt_lex_init(&lx, &pcb, pcb.src, pcb.srclen, dt_pragma);
	if (setjmp(pcb.jb) != 0) {
		r.error = fe_error(dtp);
		return &r;
	}
	while (r.n < FE_MAXTOK) {
		struct dt_token t;
		dt_lex_next(&lx, mode, &t);
		if (t.tok == T_EOF)
			break;
		r.text[r.n] = dt_tok_text(&lx, &t);
		r.t[r.n++] = t;
	}
	return &r;
}

static inline struct fe_lexed *fe_lex_args(dtrace_hdl_t *dtp, const char *src,
					   enum dt_lexmode mode, unsigned flags, int argc,
					   char *const argv[])
{
	return fe_lex_bytes(dtp, src, strlen(src), mode, flags, argc, argv);
}

static inline struct fe_lexed *fe_lex(dtrace_hdl_t *dtp, const char *src, enum dt_lexmode mode)
{
	return fe_lex_args(dtp, src, mode, 0, 0, NULL);
}

#endif
