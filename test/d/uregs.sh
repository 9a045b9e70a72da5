#!/bin/bash
# uregs[]: the traced thread's user registers (x86_64 pt_regs slots) with
# DTrace's R_* indices; at getppid()'s entry rax holds -ENOSYS and orig_ax
# (R_ERR) the syscall number.  Past pt_regs, R_DS, R_ES, R_FS, R_GS and
# R_TRAPNO are the thread's (struct thread_struct: ds, es, fsbase, gsbase,
# trap_nr), as DTrace reads them: each equals that member of curthread's.
# An index past R_TRAPNO does not compile (D_UNKNOWN, as DTrace reports it).
d=$1
"$d" -q -c "$DT_WORKLOADS/getppid_loop 1" -n '
syscall::getppid:entry /pid == $target/ {
	printf("rax %d err %d gs %d pc %d sp %d\n", (int64_t)uregs[R_RAX], uregs[R_ERR], uregs[R_GS],
	    uregs[R_PC] != 0, uregs[R_SP] > uregs[R_PC]);
}'
"$d" -q -c "$DT_WORKLOADS/getppid_loop 1" -n '
syscall::getppid:entry /pid == $target/ {
	printf("ds %d es %d fs %d gs %d trapno %d\n",
	    uregs[R_DS] == curthread->thread.ds, uregs[R_ES] == curthread->thread.es,
	    uregs[R_FS] == curthread->thread.fsbase && uregs[R_FS] != 0,
	    uregs[R_GS] == curthread->thread.gsbase,
	    uregs[R_TRAPNO] == curthread->thread.trap_nr);
}'
"$d" -qn 'BEGIN { trace(uregs[R_SS + 6]); }' 2>&1
"$d" -qn 'BEGIN { printf("%d %d %d %d\n", R_PC, R_SP, R_R0, R_EFL); exit(0); }'
