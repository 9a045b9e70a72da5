/* Macro arguments ($1, $$1) and macro variables ($target, $pid, ...). */
#ifndef DT_MACROS_H
#define DT_MACROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_pcb;
struct dt_token;

/* Text of macro argument $n ("" or "0" with defaultargs); marks it used. */
const char *dt_macro_arg(struct dt_pcb *pcb, int n, const char *text, int line);

/* Turn a $n substitution into an integer, identifier or string token. */
void dt_macro_token(struct dt_pcb *pcb, const char *v, const char *text, int line,
		    struct dt_token *t);

/* Value of macro variable $name (target, pid, ppid, uid, gid, ...). */
int64_t dt_macro_var(struct dt_pcb *pcb, const char *name, const char *text, int line);

/* Whether a macro variable ($pid, $target ...) of that name exists. */
bool dt_macro_var_defined(const char *name);

/* Check that every macro argument was referenced (D_MACRO_UNUSED). */
void dt_macro_check_unused(struct dt_pcb *pcb);

/* Convert C escape sequences in place; *lenp gets the length (NULs kept). */
void dt_str_unescape(char *s, size_t *lenp);

#endif
