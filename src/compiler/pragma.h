/* #pragma D option/depends_on/binding/attributes ... */
#ifndef DT_PRAGMA_H
#define DT_PRAGMA_H

struct dt_pcb;

/* Process one control line's words (after '#'). */
void dt_pragma(struct dt_pcb *pcb, char **words, int nwords, int line);

/* A #pragma D attributes/binding whose identifier the program never defined: D_PRAGMA_UNUSED. */
void dt_pragma_check_unused(struct dt_pcb *pcb);

#endif
