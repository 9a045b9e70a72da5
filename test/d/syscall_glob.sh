#!/bin/bash
# A glob over many syscalls uses one raw_syscalls program with a dispatch
# map; probefunc names the syscall that fired.
"$1" -q -c "$DT_WORKLOADS/getppid_loop 7" -n '
syscall::get*:entry /pid == $target/ { printf("%s\n", probefunc); }' | grep -c '^getppid$'
