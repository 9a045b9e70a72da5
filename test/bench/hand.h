/* Shared by the hand-written BPF equivalents of the benchmarked one-liners. */
#ifndef HAND_H
#define HAND_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* syscalls:sys_enter_* and sys_exit_* records: the arguments (or ret) from offset 16. */
struct enter_rec {
	__u64 common;
	__u64 nr;
	__u64 args[6];
};

struct exit_rec {
	__u64 common;
	__u64 nr;
	__s64 ret;
};

/* A per-CPU counter keyed by `key`, created on first use. */
static __always_inline void bump(void *map, const void *key, __u64 by)
{
	__u64 *v = bpf_map_lookup_elem(map, key);

	if (v) {
		*v += by;
		return;
	}
	if (bpf_map_update_elem(map, key, &by, BPF_NOEXIST) == 0)
		return;
	v = bpf_map_lookup_elem(map, key);
	if (v)
		*v += by;
}

/* DTrace's quantize() bucket of a signed value: 0, then +-2^k. */
static __always_inline __u32 pow2_bucket(__s64 v)
{
	__u64 u = v < 0 ? -(__u64)v : (__u64)v;
	__u32 b = 0;

	if (u == 0)
		return 64;
	if (u >> 32) { b += 32; u >>= 32; }
	if (u >> 16) { b += 16; u >>= 16; }
	if (u >> 8) { b += 8; u >>= 8; }
	if (u >> 4) { b += 4; u >>= 4; }
	if (u >> 2) { b += 2; u >>= 2; }
	if (u >> 1) { b += 1; }
	return v < 0 ? 63 - b : 65 + b;
}

#endif
