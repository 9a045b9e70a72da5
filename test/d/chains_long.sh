#!/bin/bash
# Long chains as generated scripts write them, compiled without recursion
# and with relays for jumps longer than BPF's: a predicate of 8000 || (one
# of them true: pid == $pid, the others compare with negative numbers) and
# of 8000 && (all true), one of 8000 || (none true), a
# ?: chain of 2000 cases for an int and for a string, ?: nested in ?:
# branches, sums and comma lists of 5000 operands.
d=$1
or_true=$(seq 1 8000 | awk '{ printf "%spid == %s", (NR > 1 ? " || " : ""), (NR == 4000 ? "$pid" : -$1) }')
and_true=$(seq 1 8000 | awk '{ printf "%spid != %s", (NR > 1 ? " && " : ""), -$1 }')
or_false=$(seq 1 8000 | awk '{ printf "%spid == %s", (NR > 1 ? " || " : ""), -$1 }')
cases=$(seq 0 1999 | awk '{ printf "x == %d ? %d : ", $1, 3 * $1 }')
names=$(seq 0 1999 | awk '{ printf "x == %d ? \"s%d\" : ", $1, $1 }')
sum=$(seq 1 5000 | awk '{ printf " + x" }')
list=$(seq 1 5000 | awk '{ printf "x, " }')
for pred in "$or_true" "$and_true" "$or_false"; do
	"$d" -qn "BEGIN /$pred/ { printf(\"true\n\"); } BEGIN { printf(\"done\n\"); exit(0); }"
done
"$d" -qs /dev/stdin <<EOF
int x, y;

BEGIN
{
	x = 1234;
	y = 5;
	printf("cases %d %s\n", $cases -1, $names "none");
	printf("nested %d %s\n", x ? (y ? (x > y ? (y == 5 ? 1 : 2) : 3) : 4) : 5,
	    x == 1 ? "a" : (y == 5 ? (x == 1234 ? "b" : "c") : "d"));
	printf("sum %d list %d\n", 1$sum, ($list y));
	exit(0);
}
EOF
