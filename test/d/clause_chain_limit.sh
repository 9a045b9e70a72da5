#!/bin/bash
# A probe whose clauses need more chained programs than the kernel's 33
# tail calls reach is refused before anything is loaded, naming the probe
# and the limit; one clause fewer per program's worth still runs.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

clauses() {
	for ((i = 1; i <= $1; i++)); do echo "BEGIN { x++; }"; done
	echo 'BEGIN { printf("%d\n", x); exit(0); }'
}
# 34 programs of 205 clauses: the longest chain.
clauses 6969 > "$tmp/fits.d"
"$d" -qs "$tmp/fits.d"
echo "rc=$?"
clauses 6970 > "$tmp/long.d"
"$d" -qs "$tmp/long.d" 2>&1
echo "rc=$?"
# One clause is never split: a record larger than its 16-bit offsets reach is refused at its line.
{
	echo 'BEGIN {'
	for ((i = 1; i <= 5000; i++)); do echo "trace((long)$i);"; done
	echo "exit(0);"
	echo '}'
} > "$tmp/record.d"
"$d" -qs "$tmp/record.d" 2>&1 | sed "s|$tmp/||"
echo "rc=${PIPESTATUS[0]}"
