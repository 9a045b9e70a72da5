/*
 * libdtrace: the public consumer API.
 *
 * A handle holds options, compiled programs, the loaded BPF object and the
 * consumer state.  Every function returns a negative errno (or NULL) on
 * failure and leaves a message in the handle (dtrace_errmsg()).
 */
#ifndef DTRACE_H
#define DTRACE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dtrace_prog dtrace_prog_t;

/* Compile flags (dtrace_compile). */
#define DTRACE_C_PSPEC   0x01	/* source is a probe description (-n/-P/-m/-f/-i) */
#define DTRACE_C_CPP     0x02	/* run the C preprocessor first (-C) */
#define DTRACE_C_FILE    0x04	/* source names a file to read (-s) */
#define DTRACE_C_ZDEFS   0x08	/* allow probe descriptions that match nothing (-Z) */

/* Which part of a probe description a -P/-m/-f/-i/-n argument gives. */
enum dtrace_pspec {
	DTRACE_PSPEC_NAME = 0,	/* -n: provider:module:function:name, right-aligned */
	DTRACE_PSPEC_PROVIDER,	/* -P */
	DTRACE_PSPEC_MODULE,	/* -m */
	DTRACE_PSPEC_FUNC,	/* -f */
	DTRACE_PSPEC_ID,	/* -i */
};

/* Status from dtrace_work(). */
enum dtrace_workstatus {
	DTRACE_WORKSTATUS_ERROR = -1,
	DTRACE_WORKSTATUS_OKAY = 0,
	DTRACE_WORKSTATUS_DONE = 1,
};

/* Open flags. */
#define DTRACE_O_NOKERNEL 0x01	/* no kernel access needed (compile/-l of static providers) */

dtrace_hdl_t *dtrace_open(int flags, int *errp);
void dtrace_close(dtrace_hdl_t *dtp);

const char *dtrace_errmsg(const dtrace_hdl_t *dtp);
int dtrace_errno(const dtrace_hdl_t *dtp);

/* Options: the -x names of DTrace (quiet, bufsize, strsize, switchrate, ...). */
int dtrace_setopt(dtrace_hdl_t *dtp, const char *name, const char *value);
int dtrace_getopt(dtrace_hdl_t *dtp, const char *name, int64_t *valp);

/* Macro arguments $1..$n (argv[0] becomes $0). */
int dtrace_set_macro_args(dtrace_hdl_t *dtp, int argc, char *const argv[]);

/*
 * Where trace output goes (default stdout).  NULL: the library prints no
 * records or aggregations itself (the callbacks below still see them);
 * fault, error and drop messages still go to stderr unless their callback
 * returns DTRACE_CONSUME_SKIP.
 */
void dtrace_set_output(dtrace_hdl_t *dtp, FILE *fp);

/*
 * Open a file the user named for output (-o, -h): created if missing,
 * appended to (append != 0, as DTrace's -o) or truncated.  A symbolic link
 * as the last component is followed only if nobody but the user and root
 * could have put it there (see dtrace(8), FILES WRITTEN); otherwise
 * -ELOOP.  A file descriptor (close-on-exec) or a negative errno with a
 * message.
 */
int dtrace_open_output(dtrace_hdl_t *dtp, const char *path, int append);

/*
 * The output format (-x oformat=): 0 for DTrace's text output, non-zero
 * for the others.  Folded stacks are text with the stack aggregations
 * folded; pprof and openmetrics write their own file (see below), the
 * rest of the output being text.
 */
#define DTRACE_OFORMAT_TEXT 0
#define DTRACE_OFORMAT_JSON 1		/* one JSON object per line */
#define DTRACE_OFORMAT_FOLDED 2		/* flame-graph input */
#define DTRACE_OFORMAT_PPROF 3		/* profile.proto, gzipped */
#define DTRACE_OFORMAT_OPENMETRICS 4	/* Prometheus text */
int dtrace_oformat(const dtrace_hdl_t *dtp);

/*
 * The file -x oformat=pprof and openmetrics write (dtrace -o): rewritten
 * whole, a new file in the same directory renamed over it, at each
 * printa() of what it shows and at dtrace_aggregate_print() (exit), so
 * that a reader never sees half of it.  dtrace_go() fails without one
 * in those formats.  0 or a negative errno.
 */
int dtrace_set_format_file(dtrace_hdl_t *dtp, const char *path);

/*
 * Compile a program.  `text` is D source, a file name (DTRACE_C_FILE) or a
 * probe description (DTRACE_C_PSPEC, with `kind`).  `name` labels messages.
 */
dtrace_prog_t *dtrace_compile(dtrace_hdl_t *dtp, const char *text, const char *name,
			      enum dtrace_pspec kind, unsigned flags, int argc,
			      char *const argv[]);

/* Number of probes a compiled program enables. */
int dtrace_prog_nprobes(const dtrace_prog_t *pgp);

/* Add a compiled program to what dtrace_go() enables. */
int dtrace_prog_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp);

/* Print the BPF instructions emitted for everything exec'ed so far (-S). */
int dtrace_disassemble(dtrace_hdl_t *dtp, FILE *fp);

/* Probe listing (-l). */
typedef struct dtrace_probeinfo {
	uint32_t id;
	const char *provider;
	const char *module;
	const char *function;
	const char *name;
} dtrace_probeinfo_t;

typedef int dtrace_probe_f(dtrace_hdl_t *dtp, const dtrace_probeinfo_t *pip, void *arg);

/* Walk probes matching a description (NULL: all); returns the count. */
int dtrace_probe_iter(dtrace_hdl_t *dtp, const char *desc, enum dtrace_pspec kind,
		      dtrace_probe_f *func, void *arg);

/* Walk the probes a compiled program enables. */
int dtrace_prog_probe_iter(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_probe_f *func,
			   void *arg);

/* Called for a probe description that matches nothing ("prov:mod:func:name"). */
typedef void dtrace_nomatch_f(dtrace_hdl_t *dtp, const char *desc, void *arg);

/*
 * List what each probe description of a program matches, in order
 * (-l with -n/-P/-m/-f/-i/-s); descriptions matching nothing go to nomatch.
 */
int dtrace_prog_list(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_probe_f *func,
		     dtrace_nomatch_f *nomatch, void *arg);

/*
 * dtrace -h: write the C header for the providers the compiled programs
 * define (`fname` names the header, for its include guard).
 */
int dtrace_program_header(dtrace_hdl_t *dtp, FILE *fp, const char *fname);

/*
 * dtrace -G: write the object to link with the objects `objv` that use
 * the probes of a program's providers.
 */
int dtrace_program_link(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, unsigned flags, const char *file,
			int objc, char *const objv[]);

/*
 * Print the aggregations that printa() has not printed (at exit, as DTrace
 * does), in the output format (text or JSON).
 */
int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp);

/*
 * What -lv says of a probe: the stability of its description and of its
 * arguments (names, data semantics, dependency class: "Evolving",
 * "Evolving", "ISA"), and the types of its arguments as D names them.
 */
typedef struct dtrace_probedetail {
	const char *attr[6];
	int nargs;
	char argtype[10][128];
} dtrace_probedetail_t;
int dtrace_probe_detail(dtrace_hdl_t *dtp, uint32_t id, dtrace_probedetail_t *pd);

/*
 * dtrace -v: the least stability attributes of a compiled program's
 * probe descriptions and of its statements, each as the names of its
 * name stability, data stability and dependency class.
 */
int dtrace_prog_stability(dtrace_hdl_t *dtp, const dtrace_prog_t *pgp, const char *desc[3],
			  const char *stmt[3]);

/*
 * dtrace -ev: each probe description of the program's clauses, in order,
 * as "provider:module:function:name", with what DTrace's probe info says
 * of it (attributes, and the argument types of a probe it matches), or
 * NULL when it says nothing (no probe, or probes that may differ).  A
 * non-zero return from func stops the walk and is returned.
 */
typedef int dtrace_pdesc_f(dtrace_hdl_t *dtp, const char *desc, const dtrace_probedetail_t *pd,
			   void *arg);
int dtrace_prog_pdesc_iter(dtrace_hdl_t *dtp, const dtrace_prog_t *pgp, dtrace_pdesc_f *func,
			   void *arg);

/* Providers, with the reason each cannot be used on this system (NULL if it can). */
typedef int dtrace_provider_f(dtrace_hdl_t *dtp, const char *name, const char *unavailable,
			      void *arg);
int dtrace_provider_iter(dtrace_hdl_t *dtp, dtrace_provider_f *func, void *arg);

/*
 * Check that this process can trace: privileges (root, or CAP_BPF and
 * CAP_PERFMON), a kernel that is not locked down against BPF.  0, or a
 * negative errno with a message that says what to do.  dtrace_go() checks
 * the same; a caller may check first to fail before compiling.
 */
int dtrace_preflight(dtrace_hdl_t *dtp);

/* $target: the first -c child, else the first -p process (0 if none). */
pid_t dtrace_target_pid(const dtrace_hdl_t *dtp);

/* Enable everything exec'ed, run BEGIN. */
int dtrace_go(dtrace_hdl_t *dtp);

/* Sleep until data is due (switchrate), a wake-up, or a signal. */
void dtrace_sleep(dtrace_hdl_t *dtp);

/* Consume and print what is pending. */
enum dtrace_workstatus dtrace_work(dtrace_hdl_t *dtp);

/* Stop tracing: run END, drain, print aggregations. */
int dtrace_stop(dtrace_hdl_t *dtp);

/* Whether exit() was called, and its status. */
int dtrace_exited(const dtrace_hdl_t *dtp, int *statusp);

/*
 * Process control for -c and -p.  Each dtrace_proc_create() starts a
 * command stopped: the first one ($target) where the evaltime option
 * says, the others at their exec.  The first command created, else the
 * first process grabbed, is $target.
 */
int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp);
int dtrace_proc_grab(dtrace_hdl_t *dtp, pid_t pid);
/* After dtrace_go: let all the created commands run, together. */
int dtrace_proc_continue(dtrace_hdl_t *dtp);
/* Non-zero once there are -c/-p processes and every one of them has ended. */
int dtrace_proc_done(dtrace_hdl_t *dtp);
/*
 * The next -c/-p process to have ended, each once, in the order they were
 * seen to end: its pid in *pidp, and 1 with its wait status (waitpid) in
 * *statusp for a created command, 2 for a grabbed process (its status is
 * its parent's to know); 0 when no other has ended.
 */
int dtrace_proc_ended(dtrace_hdl_t *dtp, pid_t *pidp, int *statusp);
/*
 * 1 once the first created command ($target) has exited, with its wait
 * status in *statusp; 0 while it runs, or without one.  No created
 * command outlives the handle: dtrace_close() kills those still running,
 * as DTrace does.
 */
int dtrace_proc_status(const dtrace_hdl_t *dtp, int *statusp);

/*
 * ---- Consuming: callbacks -------------------------------------------
 *
 * dtrace_work() (and dtrace_go()/dtrace_stop(), which consume BEGIN's and
 * END's records) calls a record callback for every record a clause
 * writes, a drop callback for every drop count reported, and an error
 * callback for run-time faults and consumer errors.  Each returns one of:
 */
#define DTRACE_CONSUME_ABORT (-1)	/* stop: dtrace_work() returns DTRACE_WORKSTATUS_ERROR */
#define DTRACE_CONSUME_NEXT 0		/* go on; the library prints as it would have */
#define DTRACE_CONSUME_SKIP 1		/* go on without the library's own output for it */
/*
 * With NEXT or SKIP, a record's actions take effect (exit(), clear(),
 * setopt(), system() ...).  After ABORT (errno -ECANCELED) the handle
 * delivers and prints no more records; dtrace_stop() still runs END.
 * Pointers handed to a callback are valid during the call only.
 */

/* What a value is. */
typedef enum dtrace_datakind {
	DTRACE_DATA_INT,	/* an integer or pointer: `value` (signed if is_signed) */
	DTRACE_DATA_STRING,	/* a string: `size` bytes at `data`, up to its NUL, any bytes */
	DTRACE_DATA_BYTES,	/* anything else (struct, array ...): `size` raw bytes */
	DTRACE_DATA_SYMBOL,	/* sym(), mod(), usym() ...: `value` the address, `text` its name */
	DTRACE_DATA_STACK,	/* stack(), ustack(): `text` the frames, one per line */
} dtrace_datakind_t;

typedef struct dtrace_datum {
	dtrace_datakind_t kind;
	const char *type;	/* the D type: "int", "uint64_t", "string", "char [16]" */
	int is_signed;
	uint64_t value;		/* INT, SYMBOL: (int64_t)value when is_signed */
	const void *data;	/* STRING, BYTES: the bytes in the record */
	size_t size;
	const char *text;	/* SYMBOL, STACK: as DTrace prints it (NUL-terminated) */
} dtrace_datum_t;

typedef enum dtrace_actkind {
	DTRACE_ACT_TRACE,
	DTRACE_ACT_PRINTF,
	DTRACE_ACT_SYSTEM,
	DTRACE_ACT_PRINTA,
	DTRACE_ACT_EXIT,
	DTRACE_ACT_CLEAR,
	DTRACE_ACT_TRUNC,
	DTRACE_ACT_NORMALIZE,
	DTRACE_ACT_DENORMALIZE,
	DTRACE_ACT_SETOPT,
	DTRACE_ACT_OTHER,
} dtrace_actkind_t;

typedef struct dtrace_action {
	dtrace_actkind_t kind;
	const char *name;		/* the D action: "trace", "printf", "exit" ... */
	const char *format;		/* printf(), system(), printa(): the format; else NULL */
	const char *output;		/* printf(): the text it prints; system(): the command */
	size_t outputlen;		/* bytes of output (it may hold NULs) */
	const dtrace_datum_t *args;	/* trace(): its value; printf(), system(): the arguments;
					   exit(): the status; trunc(), normalize(): the number */
	size_t nargs;
	const char *const *aggs;	/* printa(), clear(), trunc() ...: aggregation names */
	size_t naggs;
	const char *option;		/* setopt(): name and value (NULL: none) */
	const char *optval;
} dtrace_action_t;

typedef struct dtrace_probedata {
	dtrace_probeinfo_t probe;	/* the probe that fired */
	uint32_t cpu;
	uint64_t timestamp;		/* ns since boot: D's `timestamp` of the firing */
	uint64_t walltimestamp;		/* ns since the epoch */
	const dtrace_action_t *actions;	/* what the clause recorded, in order */
	size_t nactions;
} dtrace_probedata_t;

typedef int dtrace_record_f(dtrace_hdl_t *dtp, const dtrace_probedata_t *pd, void *arg);

typedef enum dtrace_dropkind {
	DTRACE_DROP_PRINCIPAL,		/* records lost: the buffer was full (bufsize) */
	DTRACE_DROP_AGGREGATION,	/* aggregation updates lost (aggsize) */
	DTRACE_DROP_DYNAMIC,		/* dynamic variable drops (dynvarsize) */
	DTRACE_DROP_SPEC,		/* speculative records lost (specsize) */
	DTRACE_DROP_SPECBUSY,		/* speculation() failed: buffers still draining */
	DTRACE_DROP_SPECUNAVAIL,	/* speculation() failed: every buffer in use (nspec) */
	/*
	 * A probe fired while a clause ran on its CPU, and did not run: with
	 * lockstat's hold probes no clause runs inside another (the locks of
	 * dtrace's own programs would otherwise be traced, and deadlock).
	 */
	DTRACE_DROP_NESTED,
} dtrace_dropkind_t;

typedef struct dtrace_dropdata {
	dtrace_dropkind_t kind;
	int cpu;			/* -1: summed over the CPUs */
	uint64_t drops;			/* since the last report */
	const char *tag;		/* "DTRACEDROP_PRINCIPAL" ... */
	const char *msg;		/* DTrace's message: "3 drops on CPU 0" */
} dtrace_dropdata_t;

typedef int dtrace_drop_f(dtrace_hdl_t *dtp, const dtrace_dropdata_t *dd, void *arg);

typedef struct dtrace_errdata {
	const dtrace_probeinfo_t *probe;	/* the probe whose clause faulted; NULL: not a fault */
	uint32_t cpu;
	uint64_t timestamp;
	int fault;			/* DTrace's fault code (1 DTRACEFLT_BADADDR ...); 0: not a fault */
	const char *fault_name;		/* "invalid address", "divide-by-zero" ... */
	uint64_t addr;			/* the faulting address, where there is one */
	uint32_t clause;		/* the clause (dt_clause_N) */
	uint32_t pc;			/* BPF instruction offset of the fault */
	const char *msg;		/* the message as printed after "dtrace: " */
} dtrace_errdata_t;

typedef int dtrace_error_f(dtrace_hdl_t *dtp, const dtrace_errdata_t *ed, void *arg);

/* Install (or, with NULL, remove) a callback.  0 or a negative errno. */
int dtrace_handle_record(dtrace_hdl_t *dtp, dtrace_record_f *func, void *arg);
int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_drop_f *func, void *arg);
int dtrace_handle_error(dtrace_hdl_t *dtp, dtrace_error_f *func, void *arg);

/* ---- Aggregations --------------------------------------------------- */

typedef enum dtrace_aggfunc {
	DTRACE_AGG_COUNT,
	DTRACE_AGG_SUM,
	DTRACE_AGG_AVG,
	DTRACE_AGG_MIN,
	DTRACE_AGG_MAX,
	DTRACE_AGG_STDDEV,
	DTRACE_AGG_QUANTIZE,
	DTRACE_AGG_LQUANTIZE,
	DTRACE_AGG_LLQUANTIZE,
} dtrace_aggfunc_t;

typedef struct dtrace_aggbucket {
	int64_t min, max;		/* the values the bucket holds, inclusive */
	int64_t count;			/* divided by the normalization factor */
} dtrace_aggbucket_t;

typedef struct dtrace_aggdata {
	const char *name;		/* without '@'; "_" for the anonymous @ */
	uint32_t id;
	dtrace_aggfunc_t func;
	const char *funcname;		/* "count", "quantize" ... */
	const dtrace_datum_t *keys;	/* the key tuple */
	size_t nkeys;
	int64_t value;			/* count, sum, min, max, avg, stddev: the value
					   DTrace prints (normalized); 0 for histograms */
	uint64_t count;			/* avg, stddev: values aggregated */
	int64_t sum;			/* avg, stddev: their sum */
	const dtrace_aggbucket_t *buckets;	/* quantize & co: the buckets with a
						   non-zero count, in increasing order */
	size_t nbuckets;
	uint64_t normal;		/* normalize() factor (1: none) */
} dtrace_aggdata_t;

typedef int dtrace_aggwalk_f(dtrace_hdl_t *dtp, const dtrace_aggdata_t *agg, void *arg);

/*
 * Walk the entries of aggregation `name` (without '@'; NULL: every
 * aggregation, by id) as they are now, in the order printa() prints them.
 * func returns DTRACE_CONSUME_NEXT, or DTRACE_CONSUME_ABORT to stop.  The
 * number of entries walked, or a negative errno (-ENOENT: no such
 * aggregation; -ECANCELED: func stopped the walk).
 */
int dtrace_aggregate_walk(dtrace_hdl_t *dtp, const char *name, dtrace_aggwalk_f *func,
			  void *arg);

/* Interrupt dtrace_sleep() (async-signal-safe). */
void dtrace_wake(dtrace_hdl_t *dtp);

/* This library's release. */
const char *dtrace_version(void);
/* The highest D programming interface version the compiler implements ("2.0"). */
const char *dtrace_d_version(void);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_H */
