#!/bin/sh
# -c's command is split into words at every white space character, as
# DTrace's make_argv() does (space, \f, \n, \r, \t, \v; no quoting): a
# command made from a list with one item a line gets one word per line.
d=$1
W=${DT_WORKLOADS:?}
count='syscall::getppid:entry /pid == $target/ { n++; } END { printf("%d getppid calls\n", n); }'
"$d" -q -c "$(printf '%s\n3' "$W/getppid_loop")" -n "$count"
"$d" -q -c "$(printf '\t%s\f\v 4\r\n' "$W/getppid_loop")" -n "$count"
"$d" -q -c "$W/getppid_loop  5" -n "$count"
