/*
 * Reporting what is not a record: run-time faults, consumer errors and
 * drops.  Each goes to the handle's callback (dtrace_handle_error/drop),
 * then, unless the callback said DTRACE_CONSUME_SKIP, to stderr as DTrace
 * prints it ("dtrace: ...") and, with oformat=json, to the output as one
 * JSON object.  A callback's DTRACE_CONSUME_ABORT sets cs->cb_aborted.
 */
#ifndef DT_REPORT_H
#define DT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "dtrace.h"

struct dt_consumer;
struct dt_strbuf;

/* A fault record (record description 0). */
void dt_report_fault(struct dt_consumer *cs, const void *rec);
/* A consumer error: the message after "dtrace: ". */
void dt_report_error(struct dt_consumer *cs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * An error the consumer met acting on record rec (freopen() ...), as
 * DTrace reports it: "error in dt_clause_N for probe ID P (p:m:f:n): msg".
 */
void dt_report_liberr(struct dt_consumer *cs, const void *rec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* `n` drops of a kind on a CPU (-1: all CPUs). */
void dt_report_drop(struct dt_consumer *cs, dtrace_dropkind_t kind, int cpu, uint64_t n);

/* Whether the output is JSON (oformat=json). */
bool dt_oformat_json(const struct dt_consumer *cs);
/* Write sb (one JSON object) and a newline to the output; sb is reset. */
void dt_json_line(struct dt_consumer *cs, struct dt_strbuf *sb);

#endif
