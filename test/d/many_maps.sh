#!/bin/bash
# More maps than one BPF program may use (the kernel's 64): clauses on a
# probe are spread over chained programs by the maps they use, so 80
# aggregations and 40 thread-locals in separate clauses run, in order, on
# BEGIN and on a system call; so do 300 aggregations in one clause.
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
# One clause with 300 aggregations (more maps than a program may use):
# the clause reaches them through arrays of maps (more than 32 of them),
# one per key and value size, on BEGIN and on a system call.
{
	echo '#pragma D option quiet'
	echo 'BEGIN {'
	for i in $(seq 0 299); do
		case $((i % 3)) in
		0) echo "@b$i = sum($i);" ;;
		1) echo "@b$i[\"k$i\"] = count();" ;;
		2) echo "@b$i = max($i);" ;;
		esac
	done
	echo '}'
	echo 'syscall::getppid:entry /pid == $target/ {'
	for i in $(seq 0 299); do
		if [ $((i % 2)) = 0 ]; then echo "@c$i = count();"; else echo "@c$i = quantize($i);"; fi
	done
	echo '}'
	echo 'END { printa("b0 %@d\n", @b0); printa("b1 %s %@d\n", @b1); printa("b299 %@d\n", @b299);'
	echo '	printa("c0 %@d\n", @c0); printa("c298 %@d\n", @c298); }'
} > "$t/one.d"
"$d" -c "$DT_WORKLOADS/getppid_loop 3" -s "$t/one.d" > "$t/out" 2>&1
echo "one clause with 300 aggregations: exit status $?"
grep -E '^(b0|b1|b299|c0|c298) ' "$t/out"
# At exit: the 299 unkeyed counts, sums and maxes, and the 150 quantizes' row of 3s.
echo "printed at exit: $(grep -cE '^[[:space:]]+[0-9]+$' "$t/out") plain, $(grep -cE '^[[:space:]]+k[0-9]+[[:space:]]+1$' "$t/out") keyed, $(grep -cE '\|@+[[:space:]]+3[[:space:]]*$' "$t/out") quantize rows of 3"
