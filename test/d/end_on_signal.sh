#!/bin/bash
# END runs after Ctrl-C (SIGINT) and after SIGTERM; dtrace exits 0.  As
# DTrace, the interrupt is marked by a newline (even with -q), before what
# is still to be printed; not under _DTRACE_TESTING (DTrace's test mode,
# where it would land anywhere among the records).
run() {
	local sig=$1
	# A stale file would be seen before the new run truncates it.
	rm -f /tmp/dt_sig_$$.out
	"$2" -q -n 'BEGIN { printf("begin\n"); @ = count(); } END { printf("end\n"); }' > /tmp/dt_sig_$$.out 2>&1 &
	pid=$!
	for i in $(seq 50); do grep -q begin /tmp/dt_sig_$$.out 2>/dev/null && break; sleep 0.1; done
	kill -$sig $pid
	wait $pid
	echo "$sig rc=$?"
	cat /tmp/dt_sig_$$.out
}
for sig in INT TERM; do
	run $sig "$1"
done
echo "== _DTRACE_TESTING"
export _DTRACE_TESTING=1
run INT "$1"
rm -f /tmp/dt_sig_$$.out
