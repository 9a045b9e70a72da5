#!/bin/bash
# A clause too large for one program is cut into parts; its predicate is
# evaluated once, before its first statement: the first clause's own
# statements make its predicate false, and its later parts still run.
# A false predicate runs none of the parts.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

incs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print " x += 1;" }'
}

{
	echo 'int x;'
	echo 'BEGIN /x == 0/ {'
	incs 100000
	echo ' printf("first clause: x=%d\n", x); }'
	echo 'BEGIN /x == 0/ { printf("second clause ran\n");'
	incs 20000
	echo ' printf("second clause: x=%d\n", x); }'
	echo 'BEGIN { printf("last clause: x=%d\n", x); exit(0); }'
} > "$tmp/pred.d"
"$d" -qs "$tmp/pred.d"
echo "rc=$?"
