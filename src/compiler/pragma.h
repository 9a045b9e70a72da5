/* #pragma D option/depends_on/binding/attributes ... */
#ifndef DT_PRAGMA_H
#define DT_PRAGMA_H

#include <stdbool.h>
#include <stdint.h>

struct dt_pcb;

/*
 * Process one control line's words (after '#'; quoted[i]: words[i] was a
 * string).  Line markers are the lexer's.
 */
void dt_pragma(struct dt_pcb *pcb, char **words, const bool *quoted, int nwords, int line);

/* Is w, unquoted, an integer to DTrace's lexer ([0-9]+ or 0x.., with C suffixes)? */
bool dt_pragma_is_int(const char *w, uint64_t *vp);

/* A #pragma D attributes/binding whose identifier the program never defined: D_PRAGMA_UNUSED. */
void dt_pragma_check_unused(struct dt_pcb *pcb);

#endif
