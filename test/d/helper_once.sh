#!/bin/bash
# pid and tid (one helper, get_current_pid_tgid) in one clause: the helper
# is called once, its result read twice; the values are the same as with
# -x nooptimize, which calls it for each.
d=$1
s='syscall::getppid:entry /pid == $target/ { printf("%d %d %d %d\n", pid == $target, tid == pid,
	cpu == cpu, uid == uid); exit(0); }'
"$d" -q -n "$s" -c "$DT_WORKLOADS/getppid_loop 3"
"$d" -x nooptimize -q -n "$s" -c "$DT_WORKLOADS/getppid_loop 3"
p='syscall::getppid:entry { printf("%d %d\n", pid, tid); }'
echo "get_current_pid_tgid calls: $("$d" -e -S -n "$p" 2>&1 | grep -c 'call helper#14')," \
	"without optimisation: $("$d" -x nooptimize -e -S -n "$p" 2>&1 | grep -c 'call helper#14')"
