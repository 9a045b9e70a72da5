/* Process relationships: progenyof(). */
#include "runtime.h"

/*
 * Whether the process of `task` (0: the current one) is `pid` or one of
 * its descendants: walk real_parent (at parent_off in task_struct; tgid
 * at tgid_off), bounded.
 */
DT_RT u64 dt_rt_progenyof(u64 pid, u64 parent_off, u64 tgid_off, u64 task)
{
	if (task == 0)
		task = bpf_get_current_task();

	for (int i = 0; i < 64 && task != 0; i++) {
		int tgid = 0;
		u64 parent = 0;
		if (bpf_probe_read_kernel(&tgid, sizeof(tgid), (void *)(task + tgid_off)) < 0)
			return 0;
		if ((u64)(long)tgid == pid)
			return 1;
		if (tgid <= 1)
			return 0;
		if (bpf_probe_read_kernel(&parent, sizeof(parent), (void *)(task + parent_off)) < 0)
			return 0;
		if (parent == task)
			return 0;
		task = parent;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
