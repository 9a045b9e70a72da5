#!/bin/bash
# rawtp probes fire with their tracepoint's arguments untranslated, typed
# as BTF has them: the lock workload's two threads are forked by the
# process (sched_process_fork: parent and child task_structs); its
# interrupted wait for a pseudo-terminal's mutex ends with -EINTR
# (contention_end's int, negative in arg1 and args[1] alike), after it
# began as a mutex's wait (contention_begin's unsigned flags).
w=$DT_WORKLOADS/lock_work
why=$("$w" tty 2>&1 >/dev/null); rc=$?
if [ $rc = 3 ]; then echo "the lockstat workload cannot run here: $why" >&2; exit 77; fi
"$1" -q -c "$w tty" -n '
rawtp:sched::sched_process_fork /args[0]->tgid == $target/ {
	@["fork: a thread of the process", args[1]->tgid == $target && args[1]->pid != $target,
	  arg1 == (uint64_t)args[1]] = count();
}
rawtp:lock::contention_begin /pid == $target && execname == "tty_waiter"/ {
	/*
	 * 0x20: LCB_F_MUTEX (how often the waiter spins and blocks varies with
	 * the kernel; on a busy machine it may wait for other locks too).
	 */
	@all["begin: a mutex among them"] = max((args[1] & 0x20) != 0 && arg1 == args[1]);
}
rawtp:lock::contention_end /pid == $target && execname == "tty_waiter" && args[1] != 0/ {
	@["end: -EINTR", args[1] == -EINTR, arg1 == -EINTR] = count();
}
END {
	printa("%s %d %d %@d\n", @);
	printa("%s %@d\n", @all);
}'
