/* The current process's arguments: execargs (and psinfo_t's pr_psargs). */
#include "runtime.h"

/*
 * Copy the argument strings of the current process (mm->arg_start ..
 * mm->arg_end, at mm_off in task_struct and start_off/end_off in
 * mm_struct) to dst, nb bytes at most with the NUL, the NULs between them
 * made blanks.  A kernel thread (no mm) or unreadable memory gives "".
 */
DT_RT u64 dt_rt_execargs(u64 dst, u64 nb, u64 mm_off, u64 start_off, u64 end_off)
{
	char *d = (char *)dst;
	u64 task = bpf_get_current_task();
	u64 mm = 0, start = 0, end = 0;

	d[0] = '\0';
	if (nb < 2 || nb > 8192)
		return dst;
	if (bpf_probe_read_kernel(&mm, sizeof(mm), (void *)(task + mm_off)) < 0 || mm == 0)
		return dst;
	if (bpf_probe_read_kernel(&start, sizeof(start), (void *)(mm + start_off)) < 0 ||
	    bpf_probe_read_kernel(&end, sizeof(end), (void *)(mm + end_off)) < 0 || end <= start)
		return dst;
	u64 len = end - start;
	if (len > nb - 1)
		len = nb - 1;
	if (bpf_probe_read_user(d, len, (const void *)start) < 0) {
		d[0] = '\0';
		return dst;
	}
	d[len] = '\0';
	/* Blanks between the strings; the last one's NUL (if it fits) ends them. */
	for (u64 i = 0; i + 1 < len && i < 8192; i++)
		if (d[i] == '\0')
			d[i] = ' ';
	return dst;
}

char LICENSE[] SEC("license") = "GPL";
