#!/bin/bash
# uregs[]: the traced thread's user registers (x86_64 pt_regs slots) with
# DTrace's R_* indices; at getppid()'s entry rax holds -ENOSYS and orig_ax
# (R_ERR) the syscall number; segment registers read 0; past R_TRAPNO is an
# illegal operation.
d=$1
"$d" -q -c "$DT_WORKLOADS/getppid_loop 1" -n '
syscall::getppid:entry /pid == $target/ {
	printf("rax %d err %d gs %d pc %d sp %d\n", (int64_t)uregs[R_RAX], uregs[R_ERR], uregs[R_GS],
	    uregs[R_PC] != 0, uregs[R_SP] > uregs[R_PC]);
}'
"$d" -qn 'BEGIN { trace(uregs[R_TRAPNO + 1]); } ERROR { printf("fault %d index %d\n", arg4, arg5); exit(0); }' 2>/dev/null
"$d" -qn 'BEGIN { printf("%d %d %d %d\n", R_PC, R_SP, R_R0, R_EFL); exit(0); }'
