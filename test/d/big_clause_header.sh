#!/bin/bash
# Without -q, a clause prints its probe line once and one newline after
# its output: so does a clause too large for one program, whose parts
# each write a record (a part that records nothing included), whether
# printed at once or committed from a speculation.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

incs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print " x += 1;" }'
}

{
	echo 'int x;'
	echo 'BEGIN { printf("first part");'
	incs 60000
	echo ' trace(x);'
	incs 60000
	incs 60000
	echo ' printf("last part, x=%d", x); }'
	echo 'BEGIN { s = speculation(); }'
	echo 'BEGIN { speculate(s); printf("spec first");'
	incs 60000
	echo ' printf("spec last, x=%d", x); }'
	echo 'BEGIN { trace("before commit"); }'
	echo 'BEGIN { commit(s); }'
	echo 'BEGIN { exit(0); }'
} > "$tmp/hdr.d"
# BEGIN fires on the CPU dtrace runs on: make it known.
taskset -c 0 "$d" -s "$tmp/hdr.d" 2>/dev/null
echo "rc=$?"
