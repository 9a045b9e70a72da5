#!/bin/bash
# A string read from memory that goes straight into a record (copyinstr(),
# a char * or char array given to printf() or trace()) is read into the
# record's slot, not into scratch and copied: the clause reads no scratch,
# so its program takes no scratch level.  The strings are what they were:
# at most copyinstr()'s maxsize or strsize bytes with the NUL, and a bad
# address is a fault at that address, the clause's record dropped.
d=$1
w="$DT_WORKLOADS/open_missing"
command -v bpftool >/dev/null || { echo "bpftool not installed" >&2; exit 77; }
"$d" -q -c "$w" -n '
syscall::openat:entry /pid == $target/ {
	printf("[%s] [%s] [%s] [%s]\n", copyinstr(arg1), copyinstr(arg1, 5), stringof(args[1]),
	    stringof(curthread->comm));
	trace(copyinstr(arg1, 1000));
	trace(stringof(args[1]));
	printf("\n");
}
syscall::openat:entry /pid == $target/ { printf("%s and the rest\n", copyinstr(0)); }' 2>&1 |
	sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/; s/probe ID [0-9]+/probe ID N/'
"$d" -q -x strsize=8 -x rawbytes -c "$w" -n '
syscall::openat:entry /pid == $target/ { printf("[%s] ", copyinstr(arg1)); trace(copyinstr(arg1)); }'
# The fetch-ors that take a scratch level, in the programs of a running dtrace.
level_ops() {
	"$d" -q -n "$1" >/dev/null 2>&1 &
	local pid=$! ids= i n=0
	for i in $(seq 1 100); do
		ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u)
		[ -n "$ids" ] && break
		sleep 0.1
	done
	for i in $ids; do
		n=$((n + $(bpftool prog dump xlated id "$i" | grep -c 'atomic64_fetch_or')))
	done
	kill -INT $pid; wait $pid
	echo "$n"
}
echo "copyinstr into printf: $(level_ops 'syscall::openat:entry { printf("%s\n", copyinstr(arg1)); }') level ops"
echo "char * into trace: $(level_ops 'syscall::openat:entry { trace(stringof(args[1])); }') level ops"
echo "copyinstr as a value: $(level_ops 'syscall::openat:entry { @[copyinstr(arg1)] = count(); }' | sed 's/^[1-9][0-9]*$/some/') level ops"
