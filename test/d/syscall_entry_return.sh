#!/bin/bash
# syscall::getppid entry/return for the -c child only: arg0/arg1 on return,
# one program per probe (cookie), $target.
"$1" -q -c "$DT_WORKLOADS/getppid_loop 25" -n '
BEGIN { same = 0; ok = 0; }
syscall::getppid:entry /pid == $target/ { n++; }
syscall::getppid:return /pid == $target/ { r++; same += arg0 == arg1; ok += arg0 == ppid; }
END { printf("entries %d returns %d same %d ok %d\n", n, r, same, ok); }'
