#!/bin/bash
# speculate() in the first part of a clause too large for one program
# sends the records of all its parts to the speculation: committed in a
# later clause, they print in order; discarded, none does.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

incs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print " x += 1;" }'
}

{
	echo 'int x;'
	echo 'BEGIN { s1 = speculation(); s2 = speculation(); }'
	echo 'BEGIN { speculate(s1); printf("s1: first part\n");'
	incs 100000
	echo ' printf("s1: last part, x=%d\n", x); }'
	echo 'BEGIN { speculate(s2); printf("s2: first part\n");'
	incs 20000
	echo ' printf("s2: last part, x=%d\n", x); }'
	echo 'BEGIN { printf("before commit\n"); }'
	echo 'BEGIN { commit(s1); }'
	echo 'BEGIN { discard(s2); }'
	echo 'BEGIN { printf("x=%d\n", x); exit(0); }'
} > "$tmp/spec.d"
"$d" -x nspec=2 -qs "$tmp/spec.d"
echo "rc=$?"
