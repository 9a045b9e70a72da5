#!/bin/bash
# A process other than the target that execs: the first record of its user
# addresses in each program it runs tells the consumer, which reads its
# mappings while it lives (here a second after each record), so that both
# programs' frames resolve when END prints, each through the mappings it
# had.  The second program's are in a library it loaded.
"$1" -qn '
syscall::getppid:entry /ppid == $target/ {
	@[ustack(2)] = count();
}' -c "$DT_WORKLOADS/usym_late fork"
