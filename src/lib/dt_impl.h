/*
 * The handle: what one dtrace session holds.  Every stage reaches its own
 * part of it; nothing is global.
 */
#ifndef DT_IMPL_H
#define DT_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "compiler/types.h"
#include "dtrace.h"
#include "lib/htab.h"
#include "lib/options.h"
#include "lib/util.h"

struct dt_probe;
struct dt_provider;
struct dt_stmt;
struct dt_rdesc;
struct dt_ident;
struct dt_runtime;
struct dt_uprocs;
struct dt_node;
struct dt_aggdesc;
struct dt_aggstate;
struct bo_object;
struct dt_recdec;
struct dt_symbolizer;
struct dt_translator;
struct dt_fbt;
struct dt_flow;
struct dt_bufring;
struct dt_follow;

struct dtrace_prog {
	DT_VEC(struct dt_stmt *) stmts;
	int nprobes;			/* distinct probes enabled */
	bool execed;
	struct dt_node **providers;	/* provider definitions (N_PROVIDER), in the arena */
	size_t nproviders;
};

struct dtrace_hdl {
	/* Errors */
	int err;			/* last negative errno */
	char errmsg[2048];
	char errtag[32];		/* D_* tag of the last compile error */

	struct dt_options opts;
	struct dt_arena arena;		/* allocations that live as long as the handle */
	struct dt_typetab types;
	struct dt_kdebug *kdebug;	/* the kernel's debuginfo, opened on first need */
	bool ctfpath_checked;		/* -x ctfpath looked at (compile.c) */
	bool kdebug_tried;

	/* Identifiers: user variables, inlines (built-ins are static tables). */
	struct dt_htab idents;
	struct dt_htab prov_pattr;	/* providers' attributes #pragma D attributes set */
	uint32_t bss_size;		/* .bss bytes used by globals and state */
	uint32_t nvars;
	uint32_t locals_size;		/* clause-local (this->) bytes in scratch */
	int dlib_state;			/* enum dt_dlib_state */
	int kdlib_state;
	int hwlib_state;		/* NULL alone, under -x nolibs (dlib.c) */
	int ulib_state;			/* -L libraries: 0 not loaded, 1 loaded, <0 failed */		/* ... of the library's kernel part (dlib.h) */
	struct dt_translator *xlators;	/* translators, in definition order (xlator.h) */
	bool uses_strtok;		/* strtok()'s state is in scratch ... */
	uint32_t strtok_off;		/* ... at this offset among the locals */
	uint32_t scratch_max;		/* largest per-statement temporaries */
	DT_VEC(struct dt_ident *) dynvars;	/* thread-locals and arrays with maps */
	struct bo_object *obj;		/* the BPF object being built */
	DT_VEC(void *) formats;		/* parsed printf formats (struct dt_pf_format) */
	bool need_probe_map;		/* some clause reads probe names at run time */
	bool need_curcpu_map;		/* some clause reads curcpu (lib/curcpu.c) */
	uint32_t spec_off;		/* .bss offset of the speculations (0: none used) */
	uint32_t spec_nspec;		/* ... and how many there are (nspec then) */
	bool uses_usyms;		/* some clause records user addresses (ustack() & co.) */
	bool uses_vtime;		/* some clause reads vtimestamp (compiler/cg_vtime.c) */

	/* Probes and providers. */
	DT_VEC(struct dt_probe *) probes;	/* by id - 1 */
	struct dt_htab probe_names;		/* "prov:mod:func:name" -> probe */
	const struct dt_provider *const *providers;
	size_t nproviders;
	uint32_t populated;			/* providers fully listed (bitmask) */
	struct dt_uprocs *uprocs;		/* processes the pid/usdt providers read */
	struct dt_fbt *fbt;			/* fbt: kernel functions, kernel features */

	/* Compiled and enabled programs, in order. */
	DT_VEC(dtrace_prog_t *) progs;
	DT_VEC(struct dt_stmt *) stmts;		/* every exec'ed clause, in order */
	DT_VEC(struct dt_rdesc *) rdescs;	/* record descriptions by id */
	DT_VEC(struct dt_aggdesc *) aggs;	/* aggregations by id */
	struct dt_aggstate *aggstate;		/* consumer-side aggregation state */
	uint32_t nextstmt;

	/* Macro arguments. */
	int argc;
	char **argv;

	/* Process control. */
	pid_t target_pid;		/* $target */
	pid_t child_pid;		/* -c child, 0 if none */
	bool child_stopped;		/* the -c child waits (ptrace-stopped) for go */
	bool child_at_entry;		/* ... at its entry point rather than its exec */
	const char *child_name;
	int grabbed_exited;
	bool child_exited;
	int child_status;
	DT_VEC(pid_t) grabbed;		/* -p processes */
	struct dt_follow *follow;	/* the -c child followed under ptrace (proc_follow.h) */

	/* Output */
	FILE *out;			/* NULL: no output of the library's own */
	bool testing;			/* _DTRACE_TESTING: no CPU/ID columns */
	bool printed_header;		/* the CPU ID FUNCTION:NAME line */
	struct dt_strbuf outbuf;	/* output being formatted */
	bool skip_output;		/* a callback said DTRACE_CONSUME_SKIP for this record */
	int out_saved;			/* freopen(): the original output's fd, dup'ed, + 1 (0: none) */
	struct dt_flow *flow;		/* flowindent state (consumer/flow.c) */
	struct dt_bufring *bufring;	/* bufpolicy=ring: kept records (consumer/bufring.c) */

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

	/* Run time (loaded object, links, ring buffer, state). */
	struct dt_runtime *rt;
	bool active;			/* dtrace_go succeeded */
	bool stopped;
	bool exited;			/* exit() seen */
	int exit_status;
	int wake_fd;			/* eventfd for dtrace_wake */
};

/* A debugging message (-x debug): DTrace's "libdtrace DEBUG <time>: ..." on stderr. */
void dt_dprintf(const dtrace_hdl_t *dtp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set a (non-compile) error: message printf-style, returns -err. */
int dt_set_error(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * After a compile error: add what the system lacks when that explains it
 * (an unavailable provider, no kernel BTF), see syscheck.c.
 */
void dt_compile_hint(dtrace_hdl_t *dtp);

/* Find a user identifier (variable/inline) by name, or a built-in. */
struct dt_ident *dt_ident_lookup_any(dtrace_hdl_t *dtp, const char *name);

#endif
