/* The D parser: source text to an AST (recursive descent over D's grammar). */
#ifndef DT_PARSER_H
#define DT_PARSER_H

#include "compiler/ast.h"
#include "compiler/pcb.h"

/*
 * Parse pcb->src as a D program (or, with DTRACE_C_PSPEC in pcb->cflags, a
 * probe specifier with optional predicate and actions as given to -n/-P/
 * -m/-f/-i).  The result is a list of top-level nodes in pcb->root.
 * Errors longjmp to pcb->jb.
 */
void dt_parse_program(struct dt_pcb *pcb);

/*
 * Parse a declaration-like prototype string, e.g. "string(const char *,
 * int, [int])", for the built-in identifier tables.  Returns the type
 * name node (spec + abstract declarator).
 */
struct dt_node *dt_parse_type_string(struct dt_pcb *pcb, const char *text);

/*
 * Split a probe specifier into its four fields.  `kind` (enum dtrace_pspec)
 * says which field a short specifier names; macro variables are expanded.
 */
struct dt_pdesc *dt_pdesc_parse(struct dt_pcb *pcb, const char *text, int kind, int line);

/* Allocate a node. */
struct dt_node *dt_node_new(struct dt_pcb *pcb, enum dt_nkind kind, int line);

#endif
