/* DTrace options (-x name=value, #pragma D option, setopt()). */
#ifndef DT_OPTIONS_H
#define DT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/attr.h"

struct dt_core;

/* The D programming interface version this compiler implements (DTrace's). */
#define DT_D_VERSION "2.0"

struct dt_options {
	/* Compile-time */
	bool errtags, droptags, defaultargs, zdefs, cpp;
	bool knodefs, unodefs, verbose;
	bool empty;			/* an empty program is not an error */
	bool argref;			/* extra macro arguments are not an error */
	bool nolibs;			/* no D libraries (translators, inlines) */
	bool pspec;			/* ambiguous words at the outer level are probe names */
	bool strip, lazyload, linknommap;	/* accepted: nothing to strip or map here */
	bool core;			/* the CLI dumps core at exit */
	bool debug;			/* libdtrace DEBUG messages on stderr */
	bool nooptimize;		/* no optimisation passes over the generated BPF */
	/* Run-time */
	bool quiet, flowindent, destructive, rawbytes, aggsortkey, aggsortrev, aggpercpu;
	bool noresolve, grabanon, quietresize;
	bool bpflog;			/* print the verifier's log of every program loaded */
	int64_t bufsize;		/* bytes */
	int64_t aggsize;
	int64_t dynvarsize;
	int64_t specsize;
	int64_t strsize;
	int64_t nspec;
	int64_t switchrate;		/* ns between buffer reads */
	int64_t statusrate;		/* ns */
	int64_t aggrate;		/* ns */
	int64_t cleanrate;		/* ns */
	int64_t aggsortpos, aggsortkeypos;
	int64_t stackframes, ustackframes, maxframes, jstackframes, jstackstrsize;
	int64_t stackindent;
	int64_t cpu;			/* -1 = all */
	int64_t tregs;			/* most keys in a tuple (DTrace's tuple registers) */
	int64_t iregs;			/* registers for expressions: DTrace's 8, no fewer */
	int64_t bufpolicy;		/* DT_BUFPOLICY_* */
	int64_t bufresize;		/* DT_BUFRESIZE_* */
	int64_t printsize;
	int64_t pcapsize;
	int64_t scratchsize;
	int64_t bpflogsize;
	int64_t lockmem;		/* RLIMIT_MEMLOCK to set (-1: leave it) */
	int64_t tree;			/* parse tree dumps: bit N-1 = pass N */
	int64_t disasm, pgmax, useruid;
	int64_t linkmode;		/* DT_LINK_* */
	int64_t linktype;		/* DT_LTYP_*: what -G writes */
	int64_t evaltime;		/* DT_EVAL_*: where a -c command waits for tracing */
	int64_t stdc;			/* DT_STDC_*: cpp's C dialect */
	uint32_t vmax;			/* the D version programs are compiled for */
	struct dt_attr amin;		/* minimum attributes of statements ... */
	bool amin_set;			/* ... if amin was given */
	int cdefs_fd, ddefs_fd;		/* ctypes=/dtypes= files (-1: none) */
	char *oformat;			/* text, json, folded, pprof, openmetrics */
	char *cpppath;
	char *ldpath;			/* the linker -G runs */
	char *ctfpath, *modpath, *procfspath, *syslibdir, *sysslice;
	char *fbtmech;			/* fbt mechanism: auto, fentry, kprobe_multi, kprobe */
	/* cpp arguments collected from -D/-U/-I/-H and define/undef/incdir/cppargs */
	char **cppargs;
	int ncppargs;
	/* library directories (-L, libdir) */
	char **libdirs;
	int nlibdirs;
};

enum { DT_BUFPOLICY_SWITCH = 0, DT_BUFPOLICY_FILL = 1, DT_BUFPOLICY_RING = 2 };
enum { DT_BUFRESIZE_AUTO = 0, DT_BUFRESIZE_MANUAL = 1 };
enum { DT_LINK_KERNEL = 0, DT_LINK_DYNAMIC = 1, DT_LINK_STATIC = 2 };
enum { DT_LTYP_ELF = 0, DT_LTYP_DOF = 1 };
enum { DT_EVAL_EXEC = 0, DT_EVAL_PREINIT = 1, DT_EVAL_POSTINIT = 2, DT_EVAL_MAIN = 3 };
enum { DT_STDC_XA = 0, DT_STDC_XS = 1 };

void dt_options_init(struct dt_options *o);
void dt_options_fini(struct dt_options *o);

/*
 * Set an option by name, as DTrace's dtrace_setopt(); value may be NULL
 * ("-x name").  Returns 0 or a negative errno with DTrace's message in the
 * handle: -ENOENT "Invalid option name", -EINVAL "Invalid value for
 * specified option", ...  `from_program`: set by #pragma D option, where
 * the options that only matter before compiling (cpp, linker and path
 * options) are refused.
 */
int dt_option_set_from(struct dt_core *core, const char *name, const char *value,
		       bool from_program);
int dt_option_set(struct dt_core *core, const char *name, const char *value);

/* An option's value as an integer (flags 0 or 1): 0, or -ENOENT/-EINVAL. */
int dt_option_get(struct dt_core *core, const char *name, int64_t *valp);

/* Whether `name` is a run-time option that cannot change once tracing started. */
bool dt_option_is_runtime(const char *name);

#endif
