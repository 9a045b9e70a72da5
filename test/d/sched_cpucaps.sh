#!/bin/bash
# sched:::cpucaps-sleep: a thread whose cgroup has used up its CPU quota
# (5 ms every 100 ms: CFS bandwidth control, Linux's CPU caps) leaves the
# CPU in its own context, args[0] and args[1] describing it; the workload
# spins until the cgroup's cpu.stat counts 3 more throttles (the thread
# may be off the CPU, preempted, when one comes and goes: then it is not
# stopped by it, and no probe fires).  sched:::preempt
# does not fire for those switches (curthread->throttled, the kernel's own
# mark, is never set at a preempt).
[ -n "${DT_WORKLOADS:-}" ] || { echo "sched_cpucaps: DT_WORKLOADS is not set" >&2; exit 77; }
if ! err=$("$1" -e -n 'sched:::cpucaps-sleep' 2>&1); then
	echo "sched_cpucaps: $err" >&2
	exit 77
fi
v1=/sys/fs/cgroup/cpu
if [ -e "$v1/cpu.cfs_quota_us" ]; then
	cg=$v1/dtrace_cpucaps.$$
	mkdir "$cg" && echo 100000 > "$cg/cpu.cfs_period_us" && echo 5000 > "$cg/cpu.cfs_quota_us" || exit 1
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	cg=/sys/fs/cgroup/dtrace_cpucaps.$$
	mkdir "$cg" && echo "5000 100000" > "$cg/cpu.max" || { rmdir "$cg"; exit 1; }
else
	echo "sched_cpucaps: no cgroup cpu controller to set a quota with" >&2
	exit 77
fi
# The workload has exited: its cgroup empties as soon as it is reaped.
trap 'for i in 1 2 3 4 5; do rmdir "$cg" 2>/dev/null && break; sleep 0.2; done' EXIT

"$1" -q -c "$DT_WORKLOADS/resched_work caps $cg 3" -n '
BEGIN { c = 0; self_ok = 0; tp = 0; }
sched:::cpucaps-sleep /pid == $target/ {
	c++;
	self_ok += args[0]->pr_lwpid == tid && args[1]->pr_pid == pid;
}
sched:::preempt /pid == $target/ { tp += curthread->throttled; }
END {
	printf("cpucaps-sleep fired: %d, at most once a throttle: %d, in the thread it describes: %d\n",
	    c > 0, c <= 3, self_ok == c);
	printf("preempt for none of them: %d\n", tp == 0);
}'
