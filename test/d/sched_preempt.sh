#!/bin/bash
# sched:::preempt fires when a thread is switched out and stays runnable:
# two threads spinning on one CPU (neither blocks; they spin until one has
# seen the other run 20 times) are preempted at ticks and at the return
# to user mode, never by the kernel's preemption flag; at each of those
# switches off-cpu sees the thread as SRUN ('R', not on a CPU any more),
# so the counts are equal.  Their last off-cpu is a zombie's.  A thread
# that gives the CPU up with sched_yield() is not preempted (Solaris'
# yield()): two threads yielding to each other 2000 times each are
# switched out runnable inside sched_yield() thousands of times, and
# preempt fires there at most for a tick's kernel preemption.
"$1" -q -c "$DT_WORKLOADS/sched_states spin 20" -n '
sched:::preempt /pid == $target && tid != pid/ { @p = count(); }
sched:::off-cpu /pid == $target && tid != pid/ {
	@o[curlwpsinfo->pr_state, curlwpsinfo->pr_sname] = count();
	@r = sum(curlwpsinfo->pr_state == SRUN);
}
END {
	printa("off-cpu %d %c\n", @o);
	printa(@p, @r);
}' | awk '/^off-cpu/ { print; next }
	NF == 2 { print "preempted at least once:", ($1 > 0), "as often as off-cpu runnable:", ($1 == $2) }'

"$1" -q -c "$DT_WORKLOADS/sched_states yield 2000" -n '
syscall::sched_yield:entry /pid == $target/ { self->y = 1; }
syscall::sched_yield:return /pid == $target/ { self->y = 0; }
sched:::preempt /self->y/ { p++; }
sched:::off-cpu /self->y/ { o++; }
END {
	printf("yields switched out: %d, preempted in few of them: %d\n", o > 1000, p * 10 < o);
}'
