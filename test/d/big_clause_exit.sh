#!/bin/bash
# exit() early in a clause too large for one program: the rest of the
# clause (its later parts, in later programs) still runs, as in one
# clause; the probe's later clauses do not; END runs.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo 'int x;'
	echo 'BEGIN { printf("before exit()\n"); exit(0);'
	awk 'BEGIN { for (i = 0; i < 100000; i++) print " x += 1;" }'
	echo ' printf("rest of the clause: x=%d\n", x); }'
	echo 'BEGIN { printf("later clause\n"); }'
	echo 'END { printf("END: x=%d\n", x); }'
} > "$tmp/exit.d"
"$d" -qs "$tmp/exit.d"
echo "rc=$?"
