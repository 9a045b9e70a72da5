#!/bin/bash
# sched:::remain-cpu fires in a thread the scheduler picks again: a
# SCHED_FIFO thread alone at its priority on its CPU yields 100 times,
# and every yield goes through the scheduler once, kept there
# (remain-cpu) or switched out (off-cpu, only if a higher class ran).
# sched:::surrender names the thread a CPU is told to give up: a thread
# spinning on a CPU where a SCHED_FIFO thread is woken 100 times is
# preempted only after a surrender naming it, args[1] its process.
[ -n "${DT_WORKLOADS:-}" ] || { echo "sched_resched: DT_WORKLOADS is not set" >&2; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "sched_resched: needs two CPUs" >&2; exit 77; }
"$1" -q -c "$DT_WORKLOADS/resched_work keep 100" -n '
BEGIN { y = 0; r = 0; o = 0; }
syscall::sched_yield:entry /pid == $target/ { self->y = 1; y++; }
syscall::sched_yield:return /pid == $target/ { self->y = 0; }
sched:::remain-cpu /self->y/ { r++; }
sched:::off-cpu /self->y/ { o++; }
END {
	printf("yields %d, each through the scheduler: %d, kept on the CPU: %d\n", y, r + o >= y,
	    r > 0);
}'
"$1" -q -c "$DT_WORKLOADS/resched_work surrender 100" -n '
BEGIN { asked = 0; s = 0; p = 0; off = 0; unasked = 0; }
sched:::surrender /args[0]->pr_lwpid == $target/ { asked = 1; s++; p += args[1]->pr_pid == $target; }
sched:::off-cpu /tid == $target && curlwpsinfo->pr_state == SRUN/ { off++; unasked += !asked; asked = 0; }
END {
	printf("spinner preempted: %d, each time after a surrender named it: %d\n", off > 0,
	    unasked == 0);
	printf("surrender args[1] its process: %d\n", p == s);
}'
