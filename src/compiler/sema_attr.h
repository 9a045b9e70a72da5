/*
 * Stability attributes of D expressions and clauses, as DTrace computes
 * them (every parse node's dn_attr), and its D_ATTR_MIN check against the
 * amin option.  An expression's attributes are the least of those of what
 * it uses: identifiers (built-in ones have DTrace's, a #pragma D
 * attributes may set a program's), types named (the kernel's are
 * Private/Private/Unknown), kernel symbols, translators, and args[] and
 * probeprov ... probename the attributes of the clause's provider.
 */
#ifndef DT_SEMA_ATTR_H
#define DT_SEMA_ATTR_H

#include "base/attr.h"
#include "compiler/ast.h"
#include "compiler/pcb.h"

struct dt_ident;
struct dt_stmt;
struct dt_translator;

/* After an expression is checked: its attributes, against amin (D_ATTR_MIN). */
void dt_attr_expr(struct dt_pcb *pcb, struct dt_node *n);

/* An expression whose attributes a rule fixes (a kernel symbol, an enum tag); `what` names it (NULL: as DTrace names the node). */
void dt_attr_fixed(struct dt_pcb *pcb, struct dt_node *n, struct dt_attr a, const char *what);

/* An identifier as soon as it is resolved (args[ ] before its index is checked). */
void dt_attr_ident_check(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id);

/* A global variable the program declares: the #pragma D attributes given for it. */
void dt_attr_declared(struct dt_pcb *pcb, struct dt_ident *id, int line);

/* An inline: its value's attributes, then the #pragma D attributes given for it. */
void dt_attr_inline(struct dt_pcb *pcb, struct dt_ident *id, struct dt_node *expr, int line);

/* The type names of a top-level definition, checked as DTrace parses them. */
void dt_attr_typenames(struct dt_pcb *pcb, struct dt_node *n);

/*
 * Check a clause as DTrace does, in the context of each of its probe
 * descriptions in turn (dt_sema_clause() in the first one), and record
 * each description's attributes and the statements' in st.
 */
void dt_attr_clause(struct dt_pcb *pcb, struct dt_stmt *st);

/* Whether DTrace's probe info knows the clause's first description (else D_ARGS_MULTI). */
bool dt_attr_pdesc_known(struct dt_pcb *pcb, struct dt_stmt *st);

#endif
