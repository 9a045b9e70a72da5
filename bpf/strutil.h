/*
 * Shared pieces of the string run-time functions.
 *
 * Every string function gets a work area `w` in scratch memory (a map
 * value) laid out as in src/base/abi.h (DT_STR_WORK), where nb is the number of
 * bytes a string occupies (strsize + 1).  Strings are copied with the probe_read_*_str
 * helpers, which also measure them, so most functions have no loop the
 * verifier has to unroll.
 */
#ifndef DT_STRUTIL_H
#define DT_STRUTIL_H

#include "runtime.h"

#define DT_SBUF(nb)	DT_STR_BUF(nb)
/* The largest strsize the loops below are unrolled for. */
#define DT_LOOP_MAX	8192

/* The work area's words (after the two buffers). */
static __always_inline u64 *dt_words(char *w, u64 nb)
{
	return (u64 *)(w + 3 * DT_SBUF(nb));
}

/*
 * Pass v through memory the verifier does not track, so that code after
 * a loop is checked once with v unknown rather than once per value the
 * loop can leave it with.  The caller bounds v again before using it.
 */
static __always_inline u64 dt_forget(u64 *slot, u64 v)
{
	*(volatile u64 *)slot = v;
	return *(volatile u64 *)slot;
}

/*
 * v, opaque to the compiler: an index computed as base + n and checked is
 * then used as is, not re-derived from base (whose bounds the verifier
 * knows less tightly).
 */
static __always_inline u64 dt_opaque(u64 v)
{
	asm volatile("" : "+r"(v));
	return v;
}

/* Copy a NUL-terminated string of at most nb - 1 characters; its length. */
static __always_inline u64 dt_copy_str(char *dst, u64 nb, const void *src)
{
	long n = bpf_probe_read_kernel_str(dst, nb, src);

	if (n <= 0) {
		dst[0] = '\0';
		return 0;
	}
	return (u64)n - 1;
}

#endif
