/* The consumer: reading the ring buffer and printing records. */
#ifndef DT_CONSUME_H
#define DT_CONSUME_H

#include <stddef.h>
#include <sys/types.h>

struct dtrace_hdl;
struct dt_group;

int dt_consume_init(struct dtrace_hdl *dtp);
/* Read and print everything in the ring buffer now. */
int dt_consume_pending(struct dtrace_hdl *dtp);
void dt_consume_close(struct dtrace_hdl *dtp);
/* Free what the consumer keeps in the handle (formats, descriptions). */
void dt_consume_fini(struct dtrace_hdl *dtp);

/* Print one record (header included); returns 0 or a negative errno. */
int dt_print_record(struct dtrace_hdl *dtp, const void *data, size_t size);
/* The same once speculations had their say (print_rec.c, used by spec.c). */
struct dt_rdesc;
int dt_emit_record(struct dtrace_hdl *dtp, const struct dt_rdesc *rd, const void *data);
/* Report drops counted since the last call. */
void dt_report_drops(struct dtrace_hdl *dtp);

/* Run BEGIN or END (go.c). */
int dt_run_consumer_program(struct dtrace_hdl *dtp, struct dt_group *g);

/* Run a system() action's command (system.c). */
int dt_run_system(struct dtrace_hdl *dtp, const char *cmd);
/* The same, what it writes to its stdout appended to `out`. */
struct dt_strbuf;
int dt_run_system_capture(struct dtrace_hdl *dtp, const char *cmd, struct dt_strbuf *out);

/* Read the traced processes' mappings now and then; note which processes exited. */
void dt_proc_check(struct dtrace_hdl *dtp);

#endif
