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

/* Where trace output goes (default stdout). */
void dtrace_set_output(dtrace_hdl_t *dtp, FILE *fp);

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

/* Print the aggregations (at exit, as DTrace does). */
int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp);

/* $target: the -c child or the first -p process (0 if none). */
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

/* Process control for -c and -p.  The child of -c waits until dtrace_go(). */
int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp);
int dtrace_proc_grab(dtrace_hdl_t *dtp, pid_t pid);
/* After dtrace_go: release the -c child. */
int dtrace_proc_continue(dtrace_hdl_t *dtp);
/* Non-zero once every -c/-p process has gone; *pidp tells which went. */
int dtrace_proc_done(dtrace_hdl_t *dtp);

/* Interrupt dtrace_sleep() (async-signal-safe). */
void dtrace_wake(dtrace_hdl_t *dtp);

const char *dtrace_version(void);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_H */
