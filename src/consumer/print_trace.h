/* trace() and tracemem() output (print_trace.c). */
#ifndef DT_PRINT_TRACE_H
#define DT_PRINT_TRACE_H

#include <stdbool.h>
#include <stddef.h>

struct dt_consumer;
struct dt_strbuf;
struct dt_ritem;
struct dt_type;

/* An RK_TRACE item of the record at data. */
void dt_print_trace_item(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
			 const char *data);
/* Whether trace() prints a value of type t as a hex dump (structs, unions, arrays). */
bool dt_trace_is_bytes(struct dt_type *t);
/* An RK_TRACEMEM item: the bytes it prints, then the dump. */
size_t dt_tracemem_len(const struct dt_ritem *it, const char *data);
void dt_print_tracemem(struct dt_strbuf *sb, const struct dt_ritem *it, const char *data);

#endif
