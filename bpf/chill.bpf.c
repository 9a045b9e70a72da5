/* chill(): spin for a while (cg_destructive.c). */
#include "runtime.h"

/* DTrace's limit: no more than half a second of chill at a time. */
#define DT_CHILL_MAX 500000000ULL

struct chill_ctx {
	u64 until;
};

static long chill_step(__u32 i, void *arg)
{
	struct chill_ctx *c = arg;

	(void)i;
	return bpf_ktime_get_ns() >= c->until;
}

/*
 * Spin for ns nanoseconds: bpf_loop() reads the clock until it passes the
 * deadline, at most 2^23 times (the helper's limit).  Returns 1 (an
 * illegal operation) when ns is more than DTrace allows.
 */
DT_RT u64 dt_rt_chill(u64 ns)
{
	struct chill_ctx c;

	if (ns > DT_CHILL_MAX)
		return 1;
	c.until = bpf_ktime_get_ns() + ns;
	bpf_loop(1 << 23, chill_step, &c, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
