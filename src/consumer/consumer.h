/*
 * The consumer's part of the handle: where output goes, the callbacks,
 * what the consumer keeps between records (aggregations, flow indent,
 * kept records, symbols), and the end of tracing.  It points to what the
 * consumer reads: the descriptions, the probe registry (probe names),
 * process control and, once tracing started, the run time.
 */
#ifndef DT_CONSUMER_H
#define DT_CONSUMER_H

#include <stdbool.h>
#include <stdio.h>

#include "base/util.h"
#include "dtrace.h"

struct dt_core;
struct dt_registry;
struct dt_descs;
struct dt_procs;
struct dt_runtime;
struct dt_aggstate;
struct dt_recdec;
struct dt_symbolizer;
struct dt_flow;
struct dt_bufring;
struct dt_parts;
struct dt_follow;
struct dt_ofile;

struct dt_consumer {
	struct dt_core *core;
	const struct dt_descs *descs;
	struct dt_registry *reg;
	struct dt_procs *procs;
	struct dt_runtime *rt;		/* the loaded programs (NULL before dtrace_go) */
	dtrace_hdl_t *hdl;		/* for the callbacks, which are given the handle */

	FILE *fp;			/* NULL: no output of the library's own */
	bool testing;			/* _DTRACE_TESTING: no CPU/ID columns */
	bool printed_header;		/* the CPU ID FUNCTION:NAME line */
	struct dt_strbuf outbuf;	/* output being formatted */
	bool skip_output;		/* a callback said DTRACE_CONSUME_SKIP for this record */
	bool part_open;			/* a parted clause printed its header, owes its newline */
	int out_saved;			/* freopen(): the original output's fd, dup'ed, + 1 (0: none) */
	struct dt_flow *flow;		/* flowindent state (consumer/flow.c) */
	struct dt_bufring *bufring;	/* bufpolicy=ring: kept records (consumer/bufring.c) */
	struct dt_parts *parts;		/* records of clauses cut into parts, held (consumer/parts.c) */
	struct dt_aggstate *aggstate;	/* consumer-side aggregation state */
	struct dt_ofile *ofile;		/* oformat=pprof/openmetrics: the file (oformat.c) */

	/* Consumer callbacks (dtrace_handle_record/drop/error). */
	dtrace_record_f *rec_fn;
	void *rec_arg;
	dtrace_drop_f *drop_fn;
	void *drop_arg;
	dtrace_error_f *err_fn;
	void *err_arg;
	bool cb_aborted;		/* a callback returned DTRACE_CONSUME_ABORT */
	struct dt_recdec *recdec;	/* decoding scratch for callbacks and JSON */
	struct dt_symbolizer *symbolizer;	/* kernel and user symbols (symbolize.h) */
	struct dt_follow *follow;	/* the -c children followed under ptrace (proc_follow.h) */

	/* The end of tracing. */
	bool stopped;
	bool exited;			/* exit() seen */
	int exit_status;
	int wake_fd;			/* eventfd for dtrace_wake */
};

#endif
