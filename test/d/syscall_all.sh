#!/bin/bash
# syscall:::entry (every syscall) with probename/probeprov and a count.
"$1" -q -c "$DT_WORKLOADS/getppid_loop 5" -n '
syscall:::entry /pid == $target && probefunc == "getppid"/ { n++; p = probeprov; m = probemod; x = probename; }
END { printf("%d %s %s %s\n", n, p, m, x); }'
