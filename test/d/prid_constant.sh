#!/bin/bash
# A program of one probe whose attach cookie is the probe's id (system
# calls, tracepoints, profile) takes the id as a constant, calling no
# bpf_get_attach_cookie; one of several probes asks for it.  Either way
# `id` and the probe's name are the probe's, in the output, and in the
# default output's columns.
d=$1
w="$DT_WORKLOADS/getppid_loop 3"
command -v bpftool >/dev/null || { echo "bpftool not installed" >&2; exit 77; }
lid() { "$d" -l -n "$1" | awk 'NR == 2 { print $1 }'; }
ppid=$(lid syscall::getppid:entry) pid=$(lid syscall::getpid:entry)
for s in 'syscall::getppid:entry' 'syscall::getppid:entry, syscall::getpid:entry'; do
	"$d" -q -c "$w" -n "$s /pid == \$target/ { @[id == $ppid ? \"getppid's id\" : id == $pid ? \"getpid's id\" : \"other\", probefunc] = count(); }" \
		-n 'END { printa("%s %s %@d\n", @); }'
done
"$d" -c "$w" -n 'syscall::getppid:entry /pid == $target/ { }' | sed "s/^ *[0-9]* *$ppid /CPU ID /" | sort | uniq -c
# The cookie calls in the programs of a running dtrace.
cookie_calls() {
	"$d" -q -n "$1" >/dev/null 2>&1 &
	local p=$! ids= i n=0
	for i in $(seq 1 100); do
		ids=$(grep -h '^prog_id:' /proc/$p/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u)
		[ -n "$ids" ] && break
		sleep 0.1
	done
	for i in $ids; do
		n=$((n + $(bpftool prog dump xlated id "$i" | grep -c 'get_attach_cookie')))
	done
	kill -INT $p; wait $p
	echo "$n"
}
echo "one probe: $(cookie_calls 'syscall::getppid:entry { @[id] = count(); }') cookie calls"
echo "two probes: $(cookie_calls 'syscall::getppid:entry, syscall::getpid:entry { @[id] = count(); }' | sed 's/^[1-9][0-9]*$/some/') cookie calls"
