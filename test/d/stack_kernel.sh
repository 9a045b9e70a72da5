#!/bin/bash
# Kernel stacks at a system call, through the syscalls tracepoint and the
# raw_syscalls dispatch (a wide glob): the tracing machinery's frames are
# left out, so both start in syscall_trace_enter(); stack() as an
# aggregation key; caller and stackdepth.  Offsets depend on the kernel
# build: they are replaced by OFF.
"$1" -qn '
syscall::getppid:entry /pid == $target/ {
	stack(); stack(2);
	mod(caller); printf("|%d %d\n", caller != 0, stackdepth >= 3);
	@k[stack(2)] = count();
}
syscall:::entry /pid == $target && probefunc == "getppid"/ {
	@g[stack(3)] = count();
}
' -c "$DT_WORKLOADS/stack_work 2" | sed 's/+0x[0-9a-f]*/+OFF/'
