#!/bin/bash
# sched:::on-cpu fires in the thread that comes on CPU: its thread-locals,
# pid, tid, execname, curthread, curpsinfo, curlwpsinfo and errno are all
# that thread's.  Two threads switch on one CPU 300 times: what a thread
# sets in self-> at off-cpu it finds at its next on-cpu, and each thread's
# on-cpu count is its off-cpu count plus one (its first run) when it
# exits.  (The timing script of the Guide depends on it.)
"$1" -q -c "$DT_WORKLOADS/pingpong 300" -n '
sched:::off-cpu /pid == $target/ {
	self->offs++;
	self->who = tid;
	self->ts = timestamp;
}
sched:::on-cpu /pid == $target/ {
	self->ons++;
	@other["self-> of another thread", self->who != 0 && self->who != tid] = count();
}
sched:::on-cpu /pid == $target/ {
	@ids["curthread of another thread", curthread->pid != tid || curthread->tgid != pid] = count();
}
sched:::on-cpu /pid == $target/ {
	@ps["curpsinfo of another thread", curpsinfo->pr_pid != pid ||
	    curlwpsinfo->pr_lwpid != tid || curpsinfo->pr_ppid != ppid] = count();
}
sched:::on-cpu /pid == $target/ {
	@en["execname, errno of another thread", execname != "pingpong" || errno != 0] = count();
}
sched:::on-cpu /self->ts/ {
	@t["off-cpu time", timestamp >= self->ts] = count();
	self->ts = 0;
}
proc:::lwp-exit /pid == $target && tid != pid/ {
	printf("thread: on-cpu - off-cpu = %d\n", self->ons - self->offs);
}
END {
	printa("%s: %d\n", @other);
	printa("%s: %d\n", @ids);
	printa("%s: %d\n", @ps);
	printa("%s: %d\n", @en);
	printa("%s >= 0: %d\n", @t);
}'
