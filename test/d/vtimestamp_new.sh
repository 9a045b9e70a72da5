#!/bin/bash
# vtimestamp of threads created while tracing: a new process or thread
# has run (its vtimestamp is above 0) when it first fires a probe, at
# lwp-start and at its fork's return (shortlived.d's start), and its
# vtimestamp grows from there; what it has run is never more than the
# time since tracing began.  The workloads make three processes (fork,
# vfork), then two threads.
for w in "states" "spin 3"; do
"$1" -q -n '
BEGIN {
	t0 = timestamp;
}
proc:::lwp-start /progenyof($target) && (pid != $target || tid != pid)/ {
	self->v = vtimestamp;
	@n["new threads"] = sum(1);
	@n["above 0 at lwp-start"] = sum(self->v > 0);
	@n["within the time traced"] = sum(self->v <= timestamp - t0);
}
syscall::*fork:return, syscall::clone*:return /arg0 == 0 && progenyof($target)/ {
	@n["above 0 at the fork return"] = sum(vtimestamp > 0);
}
proc:::lwp-exit /self->v/ {
	@n["grown at lwp-exit"] = sum(vtimestamp > self->v);
}
END {
	printa("%s: %@d\n", @n);
}' -c "$DT_WORKLOADS/sched_states $w"
done
