#!/bin/bash
# errno and the return value on return probes; arguments on entry.
"$1" -q -c "$DT_WORKLOADS/open_missing" -n '
syscall::openat:return /pid == $target && errno != 0/ { printf("openat failed: %d errno %d\n", (int)arg1, errno); }
syscall::read:entry /pid == $target/ { printf("read %d bytes\n", arg2); }
syscall::read:return /pid == $target/ { printf("read returned %d errno %d\n", arg0, errno); }'
