#!/bin/bash
# dtrace -v: each program's least probe description and statement
# attributes (DTrace's report); with -e also each description and what
# is known of it.  Descriptions with an open provider are Unstable; the
# providers' own attributes, curthread's Private data, args[ ] and
# probefunc take the provider's.
d=$1
run() { echo "== $*"; "$d" "$@" 2>/dev/null; echo "rc=$?"; }
run -e -v -n BEGIN
run -e -v -n 'dtrace:::BEGIN { trace(curthread->pid); }'
run -e -v -n 'syscall::read:entry { trace(args[0]); }' -n 'syscall::read: { trace(probefunc); }'
run -e -v -n 'proc:::create { trace(args[0]->pr_pid); }' -n 'proc:::exec-success { trace(execname); }'
run -q -v -n 'sdt:sched::sched_switch /pid == -1/ { trace(probename); }' \
    -n 'dtrace:::BEGIN { exit(0); }'
