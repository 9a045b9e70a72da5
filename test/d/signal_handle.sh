#!/bin/bash
# proc:::signal-handle as DTrace reports it: a signal that kills a process
# without a handler fires it once, with that signal (Linux delivers every
# such signal to each thread as a SIGKILL with no siginfo), in the main
# thread; the SIGKILLs Linux uses to end the other threads of a process
# that calls exit() or exec() fire nothing; a signal that dumps core fires
# it in the thread that took it, a caught one as before.  signal-send
# fires for every send, also of a signal already pending (as DTrace's
# sigtoproc() does), which is then caught once.  The workload ends its
# children one after the other (see workloads/signal_work.c).
[ -n "${DT_WORKLOADS:-}" ] || { echo "signal_handle: DT_WORKLOADS is not set" >&2; exit 77; }
"$1" -q -c "$DT_WORKLOADS/signal_work" -n '
proc:::signal-send /pid == $target || ppid == $target/ { printf("send %d\n", args[2]); }
proc:::signal-handle /ppid == $target/ {
	printf("handle %d by %s, handler %s\n", args[0],
	    tid == pid ? "the main thread" : "another thread", args[2] == 0 ? "default" : "its own");
}
proc:::exit /ppid == $target/ {
	printf("exit %s\n", args[0] == CLD_EXITED ? "CLD_EXITED" : args[0] == CLD_KILLED ?
	    "CLD_KILLED" : "CLD_DUMPED");
}
'
