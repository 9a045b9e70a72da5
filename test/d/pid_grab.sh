#!/bin/bash
# pid provider with -p: the process waits on a pipe until BEGIN has run
# (probes attached), makes its calls and exits; dtrace then ends by itself
# (as DTrace does when the grabbed process exits) and prints END.
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkfifo "$t/go"
"$DT_WORKLOADS/pid_work" 5 wait < "$t/go" &
w=$!
exec 3> "$t/go"
# Until the shell's child has become pid_work.
for i in $(seq 100); do [ "$(readlink /proc/$w/exe)" = "$DT_WORKLOADS/pid_work" ] && break; sleep 0.05; done
"$d" -q -p $w -n '
BEGIN { s = 0; printf("ready\n"); }
pid$target:a.out:work:entry { n++; s += arg1; }
pid$target:libc.so.6:getpid:return /arg1 == $target/ { g++; }
END { printf("work %d %d getpid %d\n", n, s, g); }' > "$t/out" 2> "$t/err" &
dt=$!
for i in $(seq 100); do grep -q ready "$t/out" && break; sleep 0.1; done
echo go >&3
exec 3>&-
wait $w
wait $dt
echo "dtrace exit status $?"
cat "$t/out"
cat "$t/err"
