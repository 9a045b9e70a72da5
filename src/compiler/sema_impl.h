/* Shared between the parts of semantic analysis. */
#ifndef DT_SEMA_IMPL_H
#define DT_SEMA_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ast.h"
#include "compiler/ident.h"
#include "compiler/pcb.h"

struct dt_type;
struct dt_stmt;
struct dt_ident;
struct dt_compiler;

/* What a declarator declared. */
struct dt_sema_decl {
	const char *name;
	bool assoc;			/* associative array: keys below */
	struct dt_type **keys;
	int nkeys;
	bool arrnull;			/* an array without dimension or keys: "a[]" */
	bool scalar_array;		/* an array with a dimension: "a[4]" */
};

/* Per-clause state while checking. */
struct dt_sema_ctx {
	struct dt_stmt *stmt;
	bool in_pred;
	int nactions;			/* data-recording actions so far */
	bool saw_exit;
	bool saw_speculate, saw_commit, saw_destructive, saw_data;
};

struct dt_type *dt_sema_typename_info(struct dt_pcb *pcb, struct dt_declspec *ds,
				      struct dt_declarator *d, struct dt_sema_decl *info);

/* A new variable of scope `kind` (D_ID_OFLOW past DTrace's limits). */
struct dt_ident *dt_sema_new_var(struct dt_pcb *pcb, enum dt_idkind kind, const char *name, int line);

/* Program-scope declarations and inline definitions (sema_decl.c). */
void dt_sema_declare(struct dt_pcb *pcb, struct dt_node *n);
void dt_sema_inline(struct dt_pcb *pcb, struct dt_node *n);

void dt_sema_stmts(struct dt_pcb *pcb, struct dt_node *list);
/* A ?: with a parse-time integer constant condition becomes the operand it
 * picks, not yet cooked (sema_fold.c); false if n is no such ?:. */
bool dt_sema_fold_cond(struct dt_pcb *pcb, struct dt_node *n);
void dt_sema_call(struct dt_pcb *pcb, struct dt_node *n, bool stmt_level);
void dt_sema_agg_assign(struct dt_pcb *pcb, struct dt_node *n);
/* An aggregation named as a statement of its own ("@a[1];"). */
void dt_sema_agg_stmt(struct dt_pcb *pcb, struct dt_node *a);
void dt_sema_translator(struct dt_pcb *pcb, struct dt_node *n);
/* The function a call names (D_FUNC_UNDEF, D_FUNC_IDKIND otherwise). */
struct dt_ident *dt_sema_callee(struct dt_pcb *pcb, const char *name, int line);
/* How DTrace's messages name an expression ("scalar x", "operator +"). */
const char *dt_sema_node_name(struct dt_pcb *pcb, struct dt_node *n);
/* An integer constant to DTrace's parser (sema_fold.c). */
bool dt_sema_parse_int(struct dt_pcb *pcb, const struct dt_node *n);
/* A node's type as DTrace's messages name it ("aggregation" for a dynamic one). */
const char *dt_sema_node_typestr(struct dt_pcb *pcb, struct dt_node *n);

/* Can a value of expression `e` be assigned to (or passed as) type `to`? */
bool dt_sema_assignable(struct dt_pcb *pcb, struct dt_type *to, struct dt_node *e);

/* DTrace's operand classes and compatibility rules (sema_compat.c). */
bool dt_sema_is_integer(struct dt_type *t);	/* integer or enum, not void or D's own types */
bool dt_sema_is_scalar(struct dt_type *t);	/* integer or pointer */
bool dt_sema_is_pointer(struct dt_type *t);	/* pointer or array */
bool dt_sema_is_dynamic(struct dt_type *t);
bool dt_sema_is_vfptr(struct dt_type *t);	/* pointer to void or to a function */
bool dt_sema_is_strcompat(struct dt_type *t);	/* string, char pointer or char array */
bool dt_sema_type_compat(struct dt_type *a, struct dt_type *b);
bool dt_sema_ptrcompat(struct dt_pcb *pcb, struct dt_node *l, struct dt_node *r);
bool dt_sema_argcompat(struct dt_pcb *pcb, struct dt_node *l, struct dt_node *r);
bool dt_sema_type_argcompat(struct dt_pcb *pcb, struct dt_type *t, struct dt_node *r);

/* An aggregation or translated value's kind ("aggregation" ...), NULL for other values. */
const char *dt_sema_dynamic_name(struct dt_node *n);
/* Refuse a void or dynamic key #i of an associative array or aggregation (`what`). */
void dt_sema_check_key(struct dt_pcb *pcb, struct dt_node *k, int i, const char *what, int line);

/* D's usual arithmetic conversions: the operand type of higher rank (no promotions). */
struct dt_type *dt_sema_arith(struct dt_pcb *pcb, struct dt_type *a, struct dt_type *b);

/* Truncate/extend a constant to a type's width and signedness. */
int64_t dt_sema_cast_value(struct dt_type *t, int64_t v);

/* A user or built-in identifier by name (NULL if none). */
struct dt_ident *dt_sema_resolve(struct dt_pcb *pcb, const char *name);
/* Follow pointers into alloca()'d memory (sema_alloca.c). */
void dt_sema_alloca_taint(struct dt_pcb *pcb, struct dt_node *n);

/* Type of args[i] for the clause's probes. */
struct dt_type *dt_sema_args_type(struct dt_pcb *pcb, int i);
/* Type args[i] (node n), translating it if the probe says so (sema_misc.c). */
void dt_sema_args(struct dt_pcb *pcb, struct dt_node *n, int i);
/* The constant index of args[ ] or uregs[ ] (DTrace's checks of it). */
long long dt_sema_builtin_index(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id);
/* Fail the compile if the clause's probe has no args[i]. */
void dt_sema_args_check(struct dt_pcb *pcb, long long i, int line);

/* xlate<T>(e) */
void dt_sema_xlate(struct dt_pcb *pcb, struct dt_node *n);

/* printa() of several aggregations: their keys must agree (D_PRINTA_AGGKEY/AGGPROTO). */
struct dt_ident *dt_sema_printa_keys(struct dt_pcb *pcb, struct dt_node *call,
				     struct dt_node *aggs);

/* Check printf()/printa()/system() formats against their arguments. */
void dt_sema_check_format(struct dt_pcb *pcb, struct dt_node *call, const char *name, bool printa);

/* Check an aggregating function's arguments; describe the aggregation on first use. */
void dt_sema_agg_check(struct dt_pcb *pcb, struct dt_ident *id, struct dt_node *agg,
		       struct dt_node *fn, bool first);

/* Settle a new aggregation's key layout (string key sizes per key). */
void dt_agg_layout(struct dt_pcb *pcb, struct dt_node *agg, uint32_t *string_sizes);

/* The largest string an expression can produce (buffer bytes, NUL included). */
/* Bytes a string occupies: strsize characters and the NUL. */
uint32_t dt_str_bytes(const struct dt_compiler *cc);
uint32_t dt_expr_strsize(struct dt_compiler *cc, struct dt_node *n);

/* Name of an aggregating function ("count"). */
const char *dt_agg_func_name(int code);

/* Resolve an identifier used as an lvalue for assignment, declaring it if new. */
void dt_sema_lvalue_decl(struct dt_pcb *pcb, struct dt_node *lhs, struct dt_node *rhs);

/* A provider declaration (sema_provider.c). */
void dt_sema_provider(struct dt_pcb *pcb, struct dt_node *n);

/* Shared by sema_expr.c (operands, identifiers, the expression walk) and sema_ops.c (operators). */
const char *dt_sema_opname(enum dt_tok op);
void dt_sema_mark_const(struct dt_node *n, struct dt_type *t, int64_t v);
bool dt_sema_is_bitfield(struct dt_pcb *pcb, struct dt_node *n);
bool dt_sema_is_null(struct dt_node *n);
_Noreturn void dt_sema_incompat_ops(struct dt_pcb *pcb, int line, struct dt_node *a,
				    const char *op, struct dt_node *b);
bool dt_sema_is_string_like(struct dt_type *t);
void dt_sema_operand(struct dt_pcb *pcb, struct dt_node *n);
void dt_sema_op1(struct dt_pcb *pcb, struct dt_node *n);
void dt_sema_op2(struct dt_pcb *pcb, struct dt_node *n);
void dt_sema_op3(struct dt_pcb *pcb, struct dt_node *n);

#endif
