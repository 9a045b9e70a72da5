#!/bin/bash
# More maps than one BPF program may use (the kernel's 64): clauses on a
# probe are spread over chained programs by the maps they use, so 80
# aggregations and 40 thread-locals in separate clauses run, in order, on
# BEGIN and on a system call; one clause with 70 aggregations is refused
# with a message that says what to do.
d=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
{
	echo '#pragma D option quiet'
	for i in $(seq 0 79); do echo "BEGIN { @a$i = sum($i); }"; done
	for i in $(seq 0 39); do echo "BEGIN { self->v$i = $i; }"; done
	printf 'BEGIN { printf("begin %%d\\n", 0'
	for i in $(seq 0 39); do printf ' + self->v%d' "$i"; done
	echo '); }'
	for i in $(seq 0 79); do echo "syscall::getppid:entry /pid == \$target/ { @s$i[probefunc] = count(); }"; done
	echo 'syscall::getppid:entry /pid == $target/ { n++; }'
	echo 'END { printf("getppid %d\n", n); printa("%s %@d\n", @s0); printa("%s %@d\n", @s79); }'
	echo 'END { printa("a0 %@d\n", @a0); printa("a79 %@d\n", @a79); exit(0); }'
} > "$t/many.d"
# The workload: getppid twice.
"$d" -c "$DT_WORKLOADS/getppid_loop 2" -s "$t/many.d" > "$t/out" 2>&1; echo "exit status $?"
# What BEGIN and END printed, then every aggregation's value as exit printed it.
grep -E '^(begin|getppid|a0|a79|getppid [0-9]) ' "$t/out"
echo "aggregations printed at exit: $(grep -cE '^[[:space:]]+[0-9]+$' "$t/out") plain, $(grep -cE '^[[:space:]]+getppid[[:space:]]+2$' "$t/out") keyed"
{
	echo 'BEGIN {'
	for i in $(seq 0 69); do echo "@a$i = sum($i);"; done
	echo 'exit(0); }'
} > "$t/one.d"
"$d" -qs "$t/one.d" 2>&1
echo "one clause with 70 aggregations: exit status $?"
