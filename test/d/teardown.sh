#!/bin/bash
# Nothing of ours stays behind: after a normal exit, exit(), a signal, the
# -c child exiting, a compile error and a verifier rejection, no BPF
# program, map or link remains.
leftovers() {
	# Maps and programs are freed asynchronously after the last fd closes.
	for i in $(seq 50); do
		n=$(( $(bpftool prog list 2>/dev/null | grep -c '^[0-9]*:') + \
		      $(bpftool link list 2>/dev/null | grep -c '^[0-9]*:') + \
		      $(bpftool map list 2>/dev/null | grep -c '^[0-9]*:') ))
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	echo "$1: leftovers $n"
}
d=$1
$d -q -n 'BEGIN { exit(0); }' > /dev/null 2>&1; leftovers exit
$d -q -n 'syscall::getppid:entry { @ = count(); } tick-100ms { exit(0); }' > /dev/null 2>&1; leftovers tick-exit
$d -q -n 'syscall:::entry { n++; }' > /dev/null 2>&1 & p=$!; sleep 1; kill -INT $p; wait $p; leftovers sigint
$d -q -n 'profile-97 { n++; }' > /dev/null 2>&1 & p=$!; sleep 1; kill -TERM $p; wait $p; leftovers sigterm
$d -q -c "$DT_WORKLOADS/getppid_loop 3" -n 'syscall::getppid:entry { n++; }' > /dev/null 2>&1; leftovers child-exit
$d -q -n 'BEGIN { x = ; }' > /dev/null 2>&1; leftovers compile-error
$d -q -n 'syscall:::entry { n++; }' > /dev/null 2>&1 & p=$!; sleep 1; kill -KILL $p; wait $p 2>/dev/null; leftovers sigkill
