/* String run-time functions: bounded loops the verifier can follow. */
#include "runtime.h"

/*
 * Compare two NUL-terminated strings of at most `n` bytes each: <0, 0, >0
 * as strcmp.
 */
DT_RT u64 dt_rt_strcmp(u64 a, u64 b, u64 n)
{
	const unsigned char *s = (const unsigned char *)a;
	const unsigned char *t = (const unsigned char *)b;

	for (__u32 i = 0; i < 4096; i++) {
		if (i >= n)
			return 0;
		if (s[i] != t[i])
			return s[i] < t[i] ? (u64)-1 : 1;
		if (s[i] == 0)
			return 0;
	}
	return 0;
}

