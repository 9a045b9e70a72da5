#!/bin/bash
# A syscall with fewer arguments than a clause reads: its tracepoint's
# record is shorter, and a program reading past it is refused at attach
# (EACCES).  Arguments it does not have read as 0; a syscall grouped with
# one of another arity keeps its own.
d=$1
"$d" -q -c "$DT_WORKLOADS/getppid_loop 1" \
	-n 'syscall::getppid:entry /pid == $target/ { printf("%s %d %d\n", probefunc, arg0, arg5); }'
echo "rc $?"
"$d" -q -c "$DT_WORKLOADS/open_missing" \
	-n 'syscall::openat:entry, syscall::getppid:entry /pid == $target/ { printf("%s %d\n", probefunc, arg1 != 0); }'
echo "rc $?"
