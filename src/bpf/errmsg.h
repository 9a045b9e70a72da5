/* Error messages of the BPF object back end: negative errno plus text. */
#ifndef DT_BPF_ERRMSG_H
#define DT_BPF_ERRMSG_H

#include <stddef.h>

/*
 * Format a message into err[errlen] (if err is not NULL) and return
 * `errnum` (a negative errno), so that failures read
 * `return bo_errf(err, errlen, -EINVAL, "...", ...);`.
 */
int bo_errf(char *err, size_t errlen, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
