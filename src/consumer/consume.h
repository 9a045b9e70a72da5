/* The consumer: reading the ring buffer and printing records. */
#ifndef DT_CONSUME_H
#define DT_CONSUME_H

#include <stddef.h>
#include <sys/types.h>

#include "dtrace.h"

struct dt_consumer;
struct dt_core;
struct dt_group;

int dt_consume_init(struct dt_consumer *cs);
/* Read and print everything in the ring buffer now. */
int dt_consume_pending(struct dt_consumer *cs);
void dt_consume_close(struct dt_consumer *cs);
/* Free what the consumer keeps (output buffer, decoding scratch). */
void dt_consume_fini(struct dt_consumer *cs);

/* dtrace_sleep(), dtrace_work(), dtrace_stop() and dtrace_exited() of the API. */
void dt_consume_sleep(struct dt_consumer *cs);
enum dtrace_workstatus dt_consume_work(struct dt_consumer *cs);
int dt_consume_stop(struct dt_consumer *cs);
int dt_consume_exited(const struct dt_consumer *cs, int *statusp);

/* Print one record (header included); returns 0 or a negative errno. */
int dt_print_record(struct dt_consumer *cs, const void *data, size_t size);
/* The same once speculations had their say (print_rec.c, used by spec.c). */
struct dt_rdesc;
int dt_emit_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data);
/* The same, printed now: not held by flowindent (flow.c). */
int dt_emit_record_now(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data);
/* Report drops counted since the last call. */
void dt_report_drops(struct dt_consumer *cs);

/* Run BEGIN or END (go.c). */
int dt_run_consumer_program(struct dt_core *core, struct dt_group *g);

/* Run a system() action's command (system.c). */
int dt_run_system(struct dt_consumer *cs, const char *cmd);
/* The same, what it writes to its stdout appended to `out`. */
struct dt_strbuf;
int dt_run_system_capture(struct dt_consumer *cs, const char *cmd, struct dt_strbuf *out);

/* Read the traced processes' mappings now and then; note which processes exited. */
void dt_proc_check(struct dt_consumer *cs);

#endif
