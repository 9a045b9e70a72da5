/* #pragma D option/depends_on/binding/attributes ... */
#ifndef DT_PRAGMA_H
#define DT_PRAGMA_H

#include "compiler/lexer.h"

struct dt_pcb;

/*
 * Process one control line (its tokens after '#'), on line `line`.
 * Returns the number of the line that follows (line + 1 unless it is a
 * line directive).
 */
int dt_pragma(struct dt_pcb *pcb, const struct dt_ctok *toks, int ntoks, int line);

/*
 * After parsing: a #pragma D attributes/binding for an identifier the
 * program does not declare is D_PRAGMA_UNUSED.
 */
void dt_pragma_check_unused(struct dt_pcb *pcb);

#endif
