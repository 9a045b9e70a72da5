/*
 * Errors and debugging messages (core.h).  -x debug (or DTRACE_DEBUG in
 * the environment) shows what the library does on stderr, in DTrace's
 * form "libdtrace DEBUG <time>: <message>".
 */
#include "base/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

int dt_set_error(struct dt_core *core, int err, const char *fmt, ...)
{
	va_list ap;

	if (err > 0)
		err = -err;
	core->err = err;
	core->errtag[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(core->errmsg, sizeof(core->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

void dt_dprintf(const struct dt_core *core, const char *fmt, ...)
{
	va_list ap;

	if (core == NULL || !core->opts.debug)
		return;
	flockfile(stderr);
	fprintf(stderr, "libdtrace DEBUG %li: ", (long)time(NULL));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	funlockfile(stderr);
}
