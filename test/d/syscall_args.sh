#!/bin/bash
# syscall: args[] have the types of the syscall's tracepoint fields (pointers
# are user addresses, read with copyinstr); args[] past the syscall's
# arguments is D_ARGS_IDX; a clause over syscalls that disagree is untyped.
d=$1
"$d" -lv -n syscall::openat:entry | sed -n '/Argument Types/,$p'
"$d" -q -c "$DT_WORKLOADS/open_missing" -n '
syscall::openat:entry /pid == $target/ { printf("%s flags %x\n", copyinstr((uintptr_t)args[1]), args[2]); }
syscall::read:entry /pid == $target/ { printf("read %d bytes, size %d\n", args[2], sizeof(args[2])); }'
"$d" -xerrtags -en 'syscall::read:entry { trace(args[3]); }' 2>&1
"$d" -en 'syscall::read*:entry { trace(args[2]); }' 2>&1 | sed 's/[0-9]* probes/N probes/'
