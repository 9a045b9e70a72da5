sdt:sched::sched_switch { trace(args[0]); } syscall::*open*:return { trace(errno); }
