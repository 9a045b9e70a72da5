#!/bin/bash
# fds[]: the current process's open files through the fileinfo_t translator
# (the D library's io part); a descriptor that is not open is <none>.
"$1" -q -c "$DT_WORKLOADS/open_missing" -n '
syscall::read:entry /pid == $target/ {
	printf("%s %s %x %d\n", fds[arg0].fi_name, fds[arg0].fi_fs, fds[arg0].fi_oflags & 3,
	    fds[arg0].fi_offset);
	printf("%s %s\n", fds[arg0 + 100].fi_name, fds[-1].fi_pathname);
}'
