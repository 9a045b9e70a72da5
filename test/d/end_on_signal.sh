#!/bin/bash
# END runs after Ctrl-C (SIGINT) and after SIGTERM; dtrace exits 0.
for sig in INT TERM; do
	# A stale file would be seen before the new run truncates it.
	rm -f /tmp/dt_sig_$$.out
	"$1" -q -n 'BEGIN { printf("begin\n"); } END { printf("end\n"); }' > /tmp/dt_sig_$$.out 2>&1 &
	pid=$!
	for i in $(seq 50); do grep -q begin /tmp/dt_sig_$$.out 2>/dev/null && break; sleep 0.1; done
	kill -$sig $pid
	wait $pid
	echo "$sig rc=$?"
	cat /tmp/dt_sig_$$.out
done
rm -f /tmp/dt_sig_$$.out
