#!/bin/bash
# A clause with actions in if/else branches writes a record per basic
# block (each block is a clause to DTrace); cut into parts because it is
# too large for one program, it keeps that: the branch not taken prints
# nothing, and after the block that calls exit() no later block runs (in
# its later parts either), nor the probe's later clauses; END runs.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

incs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print " x += 1;" }'
}

{
	echo 'int x;'
	echo 'BEGIN { printf("first block\n");'
	echo ' if (x == 0) { printf("taken\n"); } else { printf("not taken\n"); }'
	incs 50000
	echo ' printf("x=%d\n", x); if (x > 0) { exit(0); }'
	incs 50000
	echo ' printf("after the exit() block: x=%d\n", x); }'
	echo 'BEGIN { printf("later clause\n"); }'
	echo 'END { printf("END: x=%d\n", x); }'
} > "$tmp/ifelse.d"
"$d" -qs "$tmp/ifelse.d"
echo "rc=$?"
