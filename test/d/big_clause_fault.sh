#!/bin/bash
# A fault in a late part of a clause too large for one program: ERROR
# runs and the fault is reported; the statements after it do not run;
# what the clause traced before it is dropped, as DTrace drops a
# faulting clause's record (the consumer held the earlier parts'
# records until the clause's end); the probe's next clause runs.
d=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

incs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print " x += 1;" }'
}

{
	echo 'int x, y;'
	echo 'BEGIN { printf("first part: dropped\n");'
	incs 100000
	echo ' y = *(int *)0; printf("after the fault: not run\n");'
	incs 10000
	echo '}'
	echo 'BEGIN { printf("next clause: x=%d\n", x); exit(0); }'
	echo 'ERROR { printf("ERROR: x=%d\n", x); }'
} > "$tmp/fault.d"
"$d" -qs "$tmp/fault.d" 2>"$tmp/err"
echo "rc=$?"
sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/' "$tmp/err"
