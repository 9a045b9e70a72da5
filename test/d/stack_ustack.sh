#!/bin/bash
# ustack(), jstack() (a user stack without Java helpers), ustackdepth and
# uaddr()/usym()/umod()/ufunc() of ucaller at a system call the workload
# makes from inner(), called through middle() and outer(), whose frames
# are known to the byte; the frames above main are the C library's.
"$1" -qn '
syscall::getppid:entry /pid == $target/ {
	ustack(4); ustack(2, 64); jstack(3);
	printf("depth %d\n", ustackdepth);
	uaddr(ucaller); printf("|\n");
	usym(ucaller); printf("|\n");
	ufunc(ucaller); printf("|\n");
	umod(ucaller); printf("|\n");
	printf("%A\n", ucaller);
	exit(0);
}' -c "$DT_WORKLOADS/stack_work 1" | sed 's/main+0x[0-9a-f]*$/main+OFF/'
