#!/bin/bash
# count() and sum() are exact under concurrency: two threads, one on each
# CPU, make known numbers of system calls; the per-CPU aggregations merged
# by the consumer must equal them to the unit.
d=$1
n=200000
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$d" -q -c "$DT_WORKLOADS/syscall_threads count $n" -n '
syscall::getppid:entry /pid == $target/ { @c = count(); @cpus[cpu] = count(); @tids[tid] = count(); }
syscall::getppid:return /pid == $target/ { @r = count(); }
syscall::close:entry /pid == $target/ { @s = sum(arg0); @n = count(); @avg = avg(arg0); }
END {
	printa("dtrace getppid %@d\n", @c); printa("dtrace getppid-return %@d\n", @r);
	printa("dtrace close %@d\n", @n); printa("dtrace fdsum %@d\n", @s);
	printa("dtrace thread %@d\n", @tids); printa("dtrace cpu %d\n", @cpus);
	printa("dtrace avg %@d\n", @avg);
}' > "$t/out" 2> "$t/err"
echo "rc $?"
cat "$t/err"
get() { awk -v k="$1" '$1 == k { print $2 }' "$t/out"; }
want=$((2 * n))
echo "getppid: workload $(get getppid), count() $(awk '$2 == "getppid" { print $3 }' "$t/out"), returns $(awk '$2 == "getppid-return" { print $3 }' "$t/out")"
echo "close: workload $(get badclose), count() $(awk '$2 == "close" { print $3 }' "$t/out")"
echo "sum(arg0): workload $(get fdsum), sum() $(awk '$2 == "fdsum" { print $3 }' "$t/out")"
echo "avg(arg0): $(awk '$2 == "avg" { print $3 }' "$t/out") (expected $(( (2 * 100000 + n - 1) / 2 )))"
echo "per thread: $(awk '$2 == "thread" { print $3 }' "$t/out" | sort | tr '\n' ' ')(workload $(get thread0) $(get thread1))"
# One thread pinned to each of the first two CPUs (one CPU: both on it).
ncpu=$(nproc); [ "$ncpu" -gt 2 ] && ncpu=2
echo "CPUs that ran the clauses: $(awk '$2 == "cpu" { print $3 }' "$t/out" | sort -u | wc -l) of $ncpu"
