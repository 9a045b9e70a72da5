#!/bin/bash
# dtrace -l lists pid probes of the -c process and of a -p process (ids
# and process ids vary: shown as ID and PID); no probe, no process left.
d=$1
norm() { awk 'NR == 1 { print; next } { sub(/[0-9]+$/, "PID", $2); printf("%5s %10s %17s %33s %s\n", "ID", $2, $3, $4, $5) }'; }
"$d" -l -c "$DT_WORKLOADS/pid_work" -n 'pid$target:a.out:work:entry' -n 'pid$target:a.out:tw*:return' \
	-n 'pid$target::work:3' -n 'pid$target:libc.so.6:getpid:' | norm
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkfifo "$t/go"
"$DT_WORKLOADS/pid_work" 1 wait < "$t/go" &
w=$!
exec 3> "$t/go"
for i in $(seq 100); do [ "$(readlink /proc/$w/exe)" = "$DT_WORKLOADS/pid_work" ] && break; sleep 0.05; done
"$d" -l -p $w -n 'pid$target:libc.so:fgets:entry' -n 'pid$target:a.out:main:entry' | norm
exec 3>&-
wait $w
echo "pid_work: $?"
