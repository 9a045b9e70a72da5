#!/bin/bash
# vtimestamp is the thread's time on CPU up to the probe, not up to the
# last scheduler tick: every delta of a CPU-bound function is above 0 and
# at most its wall time (timestamp read before vtimestamp at entry and
# after it at return, so the wall time brackets it); a function that
# sleeps 2 ms spends less than half of it on CPU.  The values are not
# printed: only counts of deltas that break the rule.
"$1" -qn '
pid$target:a.out:spin:entry, pid$target:a.out:nap:entry {
	self->t = timestamp;
	self->v = vtimestamp;
}
pid$target:a.out:spin:return, pid$target:a.out:nap:return /self->v/ {
	this->v = vtimestamp - self->v;
	this->t = timestamp - self->t;
	@calls[probefunc] = count();
	@zero[probefunc] = sum(this->v == 0);
	@above[probefunc] = sum(this->v > this->t);
	self->v = 0;
}
pid$target:a.out:nap:return /this->t/ {
	@half[probefunc] = sum(this->v > this->t / 2);
}
END {
	printa("%s: calls %@d, zero %@d, above the wall time %@d\n", @calls, @zero, @above);
	printa("%s: above half of the wall time %@d\n", @half);
}' -c "$DT_WORKLOADS/vtime_work"
