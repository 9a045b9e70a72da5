/*
 * Semantic analysis: resolve identifiers, compute and check types, fold
 * constants, declare variables and types, with DTrace's error tags.
 */
#ifndef DT_SEMA_H
#define DT_SEMA_H

#include "compiler/ast.h"
#include "compiler/pcb.h"

struct dt_type;
struct dt_stmt;

/*
 * The frames a stack()/ustack()/jstack() call records: its first argument
 * (a non-zero positive integer constant, else a compile error with
 * DTrace's tag) or the stackframes/ustackframes/jstackframes option,
 * silently cut to maxframes.  Also checks ustack()'s strsize argument.
 */
uint32_t dt_stack_nframes(struct dt_pcb *pcb, const struct dt_node *call);

/* Bytes a stack-valued call takes in a record or key (the tgid first for ustack). */
uint32_t dt_stack_size(struct dt_pcb *pcb, const struct dt_node *call);

/* Whether n is a call of stack(), ustack() or jstack(). */
bool dt_stack_is_call(const struct dt_node *n);

/* Process the program's declarations and check every clause, in order. */
void dt_sema_program(struct dt_pcb *pcb);
/* Check one top-level declaration, inline, translator or provider (not a clause). */
void dt_sema_toplevel(struct dt_pcb *pcb, struct dt_node *n);
/* "struct s" for a tagged struct, union or enum specifier, in the arena (sema_type.c). */
const char *dt_sema_tag_key(struct dt_pcb *pcb, struct dt_declspec *ds);
/* Its body begins: refuse a redeclared tag (seen_here: given a body earlier in the program). */
void dt_sema_tag_body(struct dt_pcb *pcb, struct dt_declspec *ds, bool seen_here);

/* Check one clause's predicate and statements (after its probes are known). */
void dt_sema_clause(struct dt_pcb *pcb, struct dt_stmt *stmt);

/* The functions a clause calls are known functions (as DTrace parses them). */
void dt_sema_check_calls(struct dt_pcb *pcb, struct dt_node *clause);

/* The rules DTrace applies while generating a clause's code, after all clauses are checked. */
void dt_sema_act_clause(struct dt_pcb *pcb, struct dt_stmt *stmt);

/* The type named by declaration specifiers and a declarator. */
struct dt_type *dt_sema_typename(struct dt_pcb *pcb, struct dt_declspec *ds,
				 struct dt_declarator *d, const char **namep);

/* Check an expression (exported for sub-checkers). */
void dt_sema_expr(struct dt_pcb *pcb, struct dt_node *n);

/* An integer constant expression's value, or a D_* error with `what`. */
int64_t dt_sema_const(struct dt_pcb *pcb, struct dt_node *n, const char *tag, const char *what);

/* Spell a type for messages. */
const char *dt_sema_typestr(struct dt_pcb *pcb, struct dt_type *t);

#endif
