#!/bin/bash
# proc provider: the events of a workload the test starts (fork, exec, a
# failed exec, exit status, a kill, a thread, a handled signal), with the
# translated arguments (psinfo_t, lwpsinfo_t) and curpsinfo.
"$1" -q -c "$DT_WORKLOADS/proc_work" -n '
proc:::create /pid == $target/ {
	printf("create parent-ok=%d fname=%s\n", args[0]->pr_ppid == pid, args[0]->pr_fname);
}
proc:::start /ppid == $target/ { printf("start %s\n", execname); }
proc:::exec /ppid == $target/ { printf("exec %s\n", basename(args[0])); }
proc:::exec-success /ppid == $target/ {
	printf("exec-success %s [%s] argc=%d pid-ok=%d\n", curpsinfo->pr_fname,
	    curpsinfo->pr_psargs, curpsinfo->pr_argc, curpsinfo->pr_pid == pid);
}
proc:::exec-failure /ppid == $target/ { printf("exec-failure %d\n", args[0]); }
proc:::exit /ppid == $target/ {
	printf("exit %s\n", args[0] == CLD_EXITED ? "CLD_EXITED" : args[0] == CLD_KILLED ?
	    "CLD_KILLED" : "CLD_DUMPED");
}
proc:::lwp-create /pid == $target/ {
	printf("lwp-create same-process=%d new-thread=%d\n", args[1]->pr_pid == pid,
	    args[0]->pr_lwpid != tid);
}
proc:::lwp-exit /pid == $target && tid != pid/ { printf("lwp-exit\n"); }
proc:::signal-send /pid == $target && args[2] == SIGKILL/ {
	printf("signal-send SIGKILL to child=%d\n", args[1]->pr_ppid == pid);
}
proc:::signal-send /pid == $target && args[2] == SIGUSR1/ {
	printf("signal-send SIGUSR1 to self=%d\n", args[1]->pr_pid == pid);
}
proc:::signal-handle /pid == $target/ { printf("signal-handle %d\n", args[0] == SIGUSR1); }
'
