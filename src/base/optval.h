/* Option value syntax (DTrace's): sizes, rates, run-time flags, versions. */
#ifndef DT_OPTVAL_H
#define DT_OPTVAL_H

#include <stdbool.h>
#include <stdint.h>

/* D versions as DTrace numbers them: major.minor.micro in 8/12/12 bits. */
#define DT_VERSION_NUMBER(M, m, u) (((uint32_t)(M) << 24) | ((uint32_t)(m) << 12) | (uint32_t)(u))
#define DT_VERSION_MAJMAX 0xffu
#define DT_VERSION_MINMAX 0xfffu
#define DT_VERSION_MICMAX 0xfffu
/* The D version this compiler implements (and the highest one accepted). */
#define DT_VERSION_LATEST DT_VERSION_NUMBER(2, 0, 0)

/* A byte count with an optional k/m/g/t suffix (its last character): 0 or -1. */
int dt_optval_size(const char *s, int64_t *valp);

/*
 * An interval in ns: a number with an optional unit (ns, us, ms, s, m, h,
 * d and their long forms) or a frequency (hz): 0 or -1.
 */
int dt_optval_rate(const char *s, int64_t *valp);

/*
 * A run-time option's value (DTrace's dt_opt_runtime): no value means 0
 * and set; "" and no/disable(d)/false/off/unset unset it; yes/enable(d)/
 * true/on/set mean 1; otherwise a non-negative integer.  Returns 1 (set,
 * value in *valp), 0 (unset) or -1 (invalid).
 */
int dt_optval_flag(const char *s, int64_t *valp);

/* "M[.m[.u]]" into a version number: 0, or -1 if malformed or too large. */
int dt_optval_version(const char *s, uint32_t *vp);

/* Whether a version is one of the D versions DTrace defines (up to ours). */
bool dt_version_defined(uint32_t v);

#endif
