/* Error messages of the BPF object back end. */
#include "bpf/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

int bo_errf(char *err, size_t errlen, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return errnum;
}
