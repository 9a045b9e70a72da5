#!/bin/bash
# One timestamp per firing: clauses of one probe read the same one (the
# cache in dctx), and a clause that runs alone reads the time directly
# (cg_specialize.c) and still sees time go forward between firings.  A
# clause's fault record comes with its own time: the clause's record is
# dropped either way.
d=$1
w="$DT_WORKLOADS/getppid_loop"
"$d" -q -c "$w 3" -n '
syscall::getppid:entry /pid == $target/ { self->t = timestamp; }
syscall::getppid:entry /pid == $target/ { printf("same in a firing: %d\n", self->t == timestamp); }'
echo "rc=$?"
"$d" -q -c "$w 3" -n '
self uint64_t last;
syscall::getppid:entry /pid == $target/ { printf("forward: %d\n", timestamp > self->last); self->last = timestamp; }'
echo "rc=$?"
"$d" -q -c "$w 2" -n '
syscall::getppid:entry /pid == $target/ { trace(timestamp > 0); trace(*(int *)0); }' 2>&1 |
	sed 's/ at BPF pc [0-9]*//; s/probe ID [0-9]*/probe ID N/'
echo "rc=$?"
