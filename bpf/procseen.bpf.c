/* Telling the consumer of a process whose user addresses were recorded. */
#include "runtime.h"

/*
 * The first record of process tgid's user addresses (since it fell out of
 * the `seen` LRU hash) in the program it runs now (the task's exec count,
 * self_exec_id, at exec_off in task_struct; -1 if unknown): a
 * DT_REC_PROC_SEEN record on `ring`, with a wake-up, so that the consumer
 * reads the process's mappings at once, and again after each exec.
 * Returns whether one was sent.
 */
DT_RT u64 dt_rt_proc_seen(u64 seen, u64 ring, u64 tgid, u64 exec_off)
{
	__u64 key = (__u32)tgid;
	__u32 one = 1, execs = 0;
	struct dt_rec_hdr *h;

	/* The low half of the count (a u32 before 5.7, a u64 since: little-endian). */
	if (exec_off != (u64)-1 &&
	    bpf_probe_read_kernel(&execs, sizeof(execs),
				  (void *)(bpf_get_current_task() + exec_off)) == 0)
		key |= (__u64)execs << 32;
	if (bpf_map_update_elem((void *)seen, &key, &one, BPF_NOEXIST) != 0)
		return 0;
	h = bpf_ringbuf_reserve((void *)ring, sizeof(*h) + sizeof(u64), 0);
	if (h == 0)
		return 0;
	h->desc = DT_REC_PROC_SEEN;
	h->prid = 0;
	h->cpu = 0;
	h->spec = 0;
	h->timestamp = 0;
	*(u64 *)(h + 1) = tgid;
	bpf_ringbuf_submit(h, BPF_RB_FORCE_WAKEUP);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
