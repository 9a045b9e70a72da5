/*
 * syscall::read:entry { self->ts = timestamp; }
 * syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }
 */
#include "hand.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 129);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_read")
int read_entry(void *ctx)
{
	__u64 tid = bpf_get_current_pid_tgid(), ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_read")
int read_return(void *ctx)
{
	__u64 tid = bpf_get_current_pid_tgid(), *ts = bpf_map_lookup_elem(&start, &tid);

	if (ts == NULL || *ts == 0)
		return 0;
	__u32 b = pow2_bucket((__s64)(bpf_ktime_get_ns() - *ts));
	__u64 *c = bpf_map_lookup_elem(&hist, &b);
	if (c)
		*c += 1;
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
