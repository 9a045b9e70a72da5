#!/bin/bash
# A program takes a scratch nesting level (atomic fetch-ors on the CPU's
# bitmap of levels, and the scratch map lookup) only when one of its clauses reads
# the scratch area after the passes, or may fault while an ERROR clause
# reads it (dt_error hands the area on).  The counts are the same.
d=$1
command -v bpftool >/dev/null || { echo "bpftool not installed" >&2; exit 77; }
# Whether the programs a running dtrace holds (its dt_prog_*) take a level: 1 or 0.
takes_level() {
	"$d" -q -n "$1" >/dev/null 2>&1 &
	local pid=$! ids= i
	for i in $(seq 1 100); do
		ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u)
		[ -n "$ids" ] && break
		sleep 0.1
	done
	sleep 0.3
	ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u)
	local n=0
	for i in $ids; do
		bpftool prog show id "$i" | grep -q 'name dt_prog_' || continue
		n=$((n + $(bpftool prog dump xlated id "$i" | sed -n '/^unsigned long long dt_prog_/,/^[a-z].*(/p' |
			grep -c 'atomic64_fetch_or')))
	done
	kill -INT $pid; wait $pid
	echo $((n > 0))
}
echo "execname predicate: $(takes_level 'syscall::getppid:entry /execname == "nobody_here"/ { @ = count(); }')"
echo "strjoin: $(takes_level 'syscall::getppid:entry { @[strjoin(execname, "x")] = count(); }')"
echo "fault, ERROR with strjoin: $(takes_level 'syscall::getppid:entry { @[*(int *)0] = count(); } ERROR { @e[strjoin("a", "b")] = count(); }')"
echo "fault, ERROR without: $(takes_level 'syscall::getppid:entry { @[*(int *)0] = count(); } ERROR { @e = count(); }')"
"$d" -qn 'syscall::getppid:entry /pid == $target && execname == "getppid_loop"/ { @ = count(); }
	END { printa("%@d calls\n", @); }' -c "$DT_WORKLOADS/getppid_loop 6"
"$d" -qn 'BEGIN { x = *(int *)0; } ERROR { printf("%s\n", strjoin("in ", "ERROR")); exit(0); }' 2>/dev/null
