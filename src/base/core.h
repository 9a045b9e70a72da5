/*
 * What every stage of a session shares: the last error, the options, the
 * arena that lives as long as the handle, the D types and the kernel's
 * features.  Each part of the handle (the compiler's, the probe
 * registry's, the consumer's, process control's) points to it.
 */
#ifndef DT_CORE_H
#define DT_CORE_H

#include <stdbool.h>

#include "base/features.h"
#include "base/options.h"
#include "base/types.h"
#include "base/util.h"

struct dt_core {
	int err;			/* last negative errno */
	char errmsg[2048];
	char errtag[32];		/* D_* tag of the last compile error */
	struct dt_options opts;
	struct dt_arena arena;		/* allocations that live as long as the handle */
	struct dt_typetab types;
	struct dt_features features;	/* the kernel's, probed when the handle opens */
	bool active;			/* tracing started: run-time options are fixed */
};

/* Set a (non-compile) error: message printf-style, returns -err. */
int dt_set_error(struct dt_core *core, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A debugging message (-x debug): DTrace's "libdtrace DEBUG <time>: ..." on stderr. */
void dt_dprintf(const struct dt_core *core, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
