/* DTrace options (-x name=value, #pragma D option, setopt()). */
#ifndef DT_OPTIONS_H
#define DT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

struct dtrace_hdl;

#define DT_OPT_UNSET INT64_MIN

/* The D programming interface version this compiler implements (DTrace's). */
#define DT_D_VERSION "2.0"

struct dt_options {
	/* Compile-time */
	bool errtags, droptags, defaultargs, zdefs, cpp;
	bool knodefs, unodefs, verbose;
	bool empty;			/* an empty program is not an error */
	/* Run-time */
	bool quiet, flowindent, destructive, rawbytes, aggsortkey, aggsortrev, aggpercpu;
	bool noresolve, grabanon, quietresize;
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
	int64_t bufpolicy;		/* DT_BUFPOLICY_* */
	int64_t printsize;
	int64_t scratchsize;
	int64_t bpflogsize;
	char *oformat;			/* "text" or "json" */
	char *cpppath;
	char *fbtmech;			/* fbt mechanism: auto, fentry, kprobe_multi, kprobe */
	/* cpp arguments collected from -D/-U/-I and define/undef/incdir options */
	char **cppargs;
	int ncppargs;
	/* library directories (-L, libdir) */
	char **libdirs;
	int nlibdirs;
};

enum { DT_BUFPOLICY_SWITCH = 0, DT_BUFPOLICY_FILL = 1, DT_BUFPOLICY_RING = 2 };

void dt_options_init(struct dt_options *o);
void dt_options_fini(struct dt_options *o);

/*
 * Set an option by name; value may be NULL for boolean options.  Returns 0,
 * -ENOENT for an unknown name, -EINVAL for a bad value (with a message in
 * the handle).
 */
int dt_option_set(struct dtrace_hdl *dtp, const char *name, const char *value);

/* An option's value as an integer (flags 0 or 1): 0, or -ENOENT/-EINVAL. */
int dt_option_get(struct dtrace_hdl *dtp, const char *name, int64_t *valp);

/* Whether `name` is an option that may change while tracing (setopt()). */
bool dt_option_is_dynamic(const char *name);

/* Parse a size with k/m/g/t suffix; -1 on error. */
int dt_parse_size(const char *s, int64_t *valp);
/* Parse a rate/time with ns/us/ms/s/m/h/d/hz suffix into ns; -1 on error. */
int dt_parse_rate(const char *s, int64_t *valp);

#endif
