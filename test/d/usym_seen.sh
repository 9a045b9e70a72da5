#!/bin/bash
# A process other than the target whose user stack is aggregated: the
# first record of its user addresses tells the consumer at once, which
# reads its mappings while it lives (here a second after the record), so
# the stack resolves when END prints, long after the process exited.
"$1" -qn '
syscall::getppid:entry /ppid == $target/ {
	@[ustack(3), ufunc(ucaller)] = count();
}' -c "$DT_WORKLOADS/stack_work fork 1000"
