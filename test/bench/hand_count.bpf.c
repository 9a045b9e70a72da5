/* syscall::getppid:entry { @[execname] = count(); } */
#include "hand.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1024);
	__type(key, char[16]);
	__type(value, __u64);
} agg SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_comm(void *ctx)
{
	char comm[16] = {};

	bpf_get_current_comm(comm, sizeof(comm));
	bump(&agg, comm, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
