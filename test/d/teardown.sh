#!/bin/bash
# Nothing of ours stays behind: after exit(), a tick-driven exit, SIGINT,
# SIGTERM, the -c child exiting, a compile error and SIGKILL, no BPF
# program or map the run created still exists.  The objects are noted
# (by the pid holding them) while dtrace runs, so that other BPF users on
# the machine do not disturb the test.  Objects are looked up with bpftool:
# without it nothing could be seen left behind, so the test is skipped
# (exit status 77); a lookup that fails for another reason fails it.
d=$1
command -v bpftool >/dev/null || { echo "bpftool is not installed: cannot look BPF objects up" >&2; exit 77; }

# IDs of programs and maps held by process $1, read from its fds' fdinfo.
owned() {
	local f
	for f in /proc/$1/fdinfo/*; do
		sed -n 's/^\(prog\|map\)_id:[[:space:]]*\([0-9]*\)/\1 \2/p' "$f" 2>/dev/null
	done | sort -u
}

# Wait until dtrace ($1) holds BPF objects; note them in $2.
note() {
	: > "$2"
	for i in $(seq 300); do
		owned "$1" > "$2.new"
		[ -s "$2.new" ] && { sort -u "$2" "$2.new" -o "$2"; break; }
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	rm -f "$2.new"
}

# Whether object $1 $2 ("prog 12") exists: status 0 yes, 1 no (ENOENT);
# any other answer is a lookup that failed, and ends the test.
exists() {
	local out
	out=$(LC_ALL=C bpftool "$1" show id "$2" 2>&1) && return 0
	case $out in *"No such file or directory"*) return 1 ;; esac
	echo "bpftool $1 show id $2 failed: $out" >&2
	exit 1
}

# How many of the noted objects still exist (freed asynchronously: after
# RCU grace periods, which take seconds on a loaded machine; up to 30 s).
# The first look waits 2 s: a program array's last close queues its
# clearing, and an fd opened to it by id (bpftool's look) and closed
# while that is queued makes Linux (6.18) take a reference it never
# gives back, so the array would stay because the test looked.
leftovers() {
	local n
	sleep 2
	for i in $(seq 300); do
		n=0
		while read -r type id; do
			exists "$type" "$id" && n=$((n + 1))
		done < "$2"
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	echo "$1: noted $( [ -s "$2" ] && echo some || echo none ), leftovers $n"
}

t=/tmp/dt_teardown_$$
run() {
	local name=$1 how=$2; shift 2
	"$d" "$@" > /dev/null 2>&1 &
	local p=$!
	note $p $t
	case $how in
	wait) wait $p ;;
	*) sleep 0.5; kill -$how $p; wait $p 2>/dev/null ;;
	esac
	leftovers "$name" $t
}
run exit wait -q -n 'tick-1s { exit(0); }'
run agg-exit wait -q -n 'syscall::getppid:entry { @ = count(); } tick-1s { exit(0); }'
run sigint INT -q -n 'syscall:::entry { n++; }'
run sigterm TERM -q -n 'profile-97 { n++; }'
run child-exit wait -q -c "sleep 1" -n 'syscall::nanosleep:entry,syscall::clock_nanosleep:entry { n++; }'
run sigkill KILL -q -n 'syscall:::entry { n++; } syscall:::return { @[probefunc] = count(); }'
run rawtp-sigint INT -q -n 'rawtp:sched::sched_switch { n++; }'
# lockstat: each probe's program on contention_end, its companion on contention_begin, its map.
run lockstat-sigterm TERM -q -n 'lockstat:::adaptive-block, lockstat:::spin-spin { n++; }'
run cpc-sigkill KILL -q -n 'cpc:::cpu_clock-all-1000000 { n++; }'
# More clauses than one program holds: programs chained through a program array.
for ((i = 0; i < 300; i++)); do echo 'syscall:::entry { n++; }'; done > $t.chain.d
run chain-sigint INT -q -s $t.chain.d
{ cat $t.chain.d; echo 'tick-1s { exit(0); }'; } > $t.chain-exit.d
run chain-exit wait -q -s $t.chain-exit.d
"$d" -q -n 'BEGIN { x = ; }' > /dev/null 2>&1; echo "compile-error: rc $?"
rm -f $t $t.chain.d $t.chain-exit.d
