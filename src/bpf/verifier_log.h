/* The parts of a verifier log that dtrace reports. */
#ifndef DT_VERIFIER_LOG_H
#define DT_VERIFIER_LOG_H

#include <stddef.h>

/*
 * From a verifier log: the last source position the verifier printed of
 * file `source` (any file if NULL) as "file:line" into pos, and the last
 * meaningful line (the reason) into reason; empty strings if none.
 */
void bo_verifier_log_parse(const char *log, const char *source, char *pos, size_t poslen,
			   char *reason, size_t reasonlen);

#endif
