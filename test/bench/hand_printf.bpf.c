/* syscall::getppid:entry { printf("%d %d %s\n", pid, tid, execname); } */
#include "hand.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

struct rec {
	__u32 pid, tid;
	char comm[16];
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int print_ids(void *ctx)
{
	struct rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	__u64 id = bpf_get_current_pid_tgid();

	if (r == NULL)
		return 0;
	r->pid = id >> 32;
	r->tid = (__u32)id;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
