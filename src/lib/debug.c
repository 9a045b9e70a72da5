/*
 * -x debug (or DTRACE_DEBUG in the environment): what the library does,
 * on stderr, in DTrace's form "libdtrace DEBUG <time>: <message>".
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "lib/dt_impl.h"

void dt_dprintf(const dtrace_hdl_t *dtp, const char *fmt, ...)
{
	va_list ap;

	if (dtp == NULL || !dtp->core->opts.debug)
		return;
	flockfile(stderr);
	fprintf(stderr, "libdtrace DEBUG %li: ", (long)time(NULL));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	funlockfile(stderr);
}
