#!/bin/bash
# lockstat's contention probes, on kernel locks the workload makes its
# threads wait for (lock_work: a lock held across a userfaultfd fault):
# a pipe's mutex blocked on, then taken (adaptive-block: the waiter owns
# it, after some time); a file's inode semaphore blocked on by a writer
# while a writer held it (rw-block: RW_WRITER, held by a writer, no
# readers); a pseudo-terminal's mutex waited for until a signal
# interrupts the wait (adaptive-acquire-error with -EINTR: still owned,
# by the holder).  Each waiter waits once.
w=$DT_WORKLOADS/lock_work
why=$("$w" 2>&1 >/dev/null); rc=$?
if [ $rc = 3 ]; then echo "the lockstat workload cannot run here: $why" >&2; exit 77; fi
[ $rc = 0 ] || { echo "lock_work failed ($rc): $why"; exit 1; }
"$1" -q -c "$w" -n '
lockstat:::adaptive-block /pid == $target && execname == "pipe_waiter"/ {
	@["adaptive-block", execname, mutex_owner(args[0]) == curthread, args[1] > 0,
	  arg0 == (uint64_t)args[0]] = count();
}
lockstat:::rw-block /pid == $target && execname == "file_waiter"/ {
	@["rw-block", execname, args[2] == RW_WRITER && args[3] != 0 && args[4] == 0,
	  args[1] > 0, arg2 == RW_WRITER] = count();
}
lockstat:::adaptive-acquire-error /pid == $target && execname == "tty_waiter"/ {
	@["adaptive-acquire-error", execname, args[1] == -EINTR,
	  mutex_owner(args[0]) != NULL && mutex_owner(args[0]) != curthread, arg1 == -EINTR] =
	    count();
}
END {
	printa("%s %s %d %d %d: %@d\n", @);
}'
