/* syscall::openat:entry { printf("%s\n", copyinstr(arg1)); } (strsize 256, as DTrace's default) */
#include "hand.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_openat")
int print_path(struct enter_rec *ctx)
{
	char *r = bpf_ringbuf_reserve(&events, 256, 0);

	if (r == NULL)
		return 0;
	if (bpf_probe_read_user_str(r, 256, (const void *)ctx->args[1]) < 0)
		r[0] = 0;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
