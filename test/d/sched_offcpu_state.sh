#!/bin/bash
# curlwpsinfo at sched:::off-cpu is the thread switched out, in the state
# it leaves the CPU in, mapped as the Oracle Linux DTrace Guide maps the
# task states: a child of the workload sleeps (nanosleep, and a vfork()
# parent's uninterruptible wait: SSLEEP 'S'), stops on SIGSTOP and stops
# traced (SSTOP 'T', pr_flag PR_STOPPED, twice), and it and its two
# children exit (SZOMB 'Z', three times); a preempted thread is SRUN 'R'
# (how often is not known: only that each such switch says so).  No
# other state is seen, and a thread on a CPU is never SONPROC.
"$1" -q -c "$DT_WORKLOADS/sched_states states" -n '
sched:::off-cpu /progenyof($target) && pid != $target/ {
	this->s = curlwpsinfo->pr_state;
	@seen[this->s, curlwpsinfo->pr_sname, curlwpsinfo->pr_flag] = max(this->s != SRUN);
	@n[this->s == SSTOP ? "stopped" : this->s == SZOMB ? "zombie" : "other"] =
	    sum(this->s == SSTOP || this->s == SZOMB);
	@bad = sum(this->s == SRUN && (curlwpsinfo->pr_sname != 0x52 /* R */ || curlwpsinfo->pr_flag));
}
BEGIN {
	@bad = sum(0);
}
END {
	printa("%d %c %d %@d\n", @seen);
	printa("%s %@d\n", @n);
	printa("runnable but not R: %@d\n", @bad);
	printf("END, on a CPU: %d %c\n", curlwpsinfo->pr_state, curlwpsinfo->pr_sname);
}' | grep -v '^2 R 0 0$'
