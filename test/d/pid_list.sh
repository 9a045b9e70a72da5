#!/bin/bash
# dtrace -l lists pid probes of the -c process and of a -p process (ids
# and process ids vary: shown as ID and PID): entry, return, and the
# offsets of every instruction for a glob.
d=$1
norm() { awk 'NR == 1 { print; next } { sub(/[0-9]+$/, "PID", $2); printf("%5s %10s %17s %33s %s\n", "ID", $2, $3, $4, $5) }'; }
"$d" -l -c "$DT_WORKLOADS/pid_work" -n 'pid$target:a.out:work:entry' -n 'pid$target:a.out:tw*:return' \
	-n 'pid$target::work:3' -n 'pid$target:libc.so.6:getpid:return' -n 'pid$target:a.out:work:' | norm
# Offsets are hexadecimal, inside the function, at an instruction.
for o in 0x3 6 1 7; do
	"$d" -xerrtags -l -c "$DT_WORKLOADS/pid_work" -n "pid\$target:a.out:work:$o" 2>&1 | norm | grep -v "^   ID   PROVIDER"
done
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
