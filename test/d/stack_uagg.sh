#!/bin/bash
# ustack() and usym() & co. as aggregation keys: printa's %k and %A, the
# default layout, usym()/ufunc()/umod() keys merged by function or
# object, uaddr() keys by address.  The workload has exited when END
# prints: its mappings were read while it ran.
"$1" -qn '
syscall::getppid:entry /pid == $target/ {
	@s[ustack(3)] = count();
	@a[uaddr(ucaller)] = count();
	@f[ufunc(ucaller)] = count();
	@m[umod(ucaller)] = count();
	@u[usym(ucaller), ustack(1)] = sum(2);
	@i[ufunc(ucaller)] = count();
	@i[ufunc(ucaller + 1)] = count();
}
END {
	printa("%k%@d\n", @s);
	printa("%-8k|%@d\n", @s);
	printa("[%A] %@d\n", @a);
}' -c "$DT_WORKLOADS/stack_work 3"
