#!/bin/bash
# A -c command that lives a few milliseconds: it records two stacks,
# execs itself, loads a library, records three stacks in it and exits at
# once.  Its mappings are read when it execs and when it exits (it is
# followed under ptrace), so that both programs' frames resolve when END
# prints, each through the mappings it had: the first program's from
# before the exec, the library's from just before the exit.
"$1" -qn '
syscall::getppid:entry /pid == $target/ {
	@[ustack(2)] = count();
	@f[ufunc(ucaller), umod(ucaller)] = count();
}' -c "$DT_WORKLOADS/usym_late"
