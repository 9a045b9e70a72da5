/*
 * The stack and symbol actions of a record, as DTrace prints them
 * (dt_print_stack, dt_print_ustack, dt_print_sym, dt_print_mod,
 * dt_print_usym, dt_print_umod) and as public datums for the record
 * callback and JSON.
 */
#ifndef DT_STACK_PRINT_H
#define DT_STACK_PRINT_H

#include <stdbool.h>

struct dt_consumer;
struct dt_strbuf;
struct dt_ritem;
struct dt_datums;

/* Append the item's output: a stack a line per frame, a symbol "  %-50s". */
void dt_print_stack_item(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
			 const char *rec);

/* The item as a datum (DTRACE_DATA_STACK or DTRACE_DATA_SYMBOL).  0 or -ENOMEM. */
int dt_datum_stack_item(struct dt_consumer *cs, struct dt_datums *d, const struct dt_ritem *it,
			const char *rec);

#endif
