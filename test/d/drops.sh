#!/bin/bash
# A ring buffer too small for the event rate drops records, and every
# drop is reported: printed records + reported drops = events.  The
# output goes to a pipe read only after a pause, so the consumer is
# certainly stalled while events keep coming.
n=200000
"$1" -q -b 4k -x switchrate=10hz -c "$DT_WORKLOADS/getppid_loop $n" \
	-n 'syscall::getppid:entry /pid == $target/ { printf("x\n"); }' \
	2> /tmp/dt_drops_$$.err | { sleep 1; cat; } > /tmp/dt_drops_$$.out
printed=$(grep -c '^x$' /tmp/dt_drops_$$.out)
dropped=$(sed -n 's/^dtrace: \([0-9]*\) drops\{0,1\} on CPU [0-9]*$/\1/p' /tmp/dt_drops_$$.err | awk '{ s += $1 } END { print s + 0 }')
echo "dropped some: $([ "${dropped:-0}" -gt 0 ] && echo yes || echo no)"
echo "all accounted: $([ $((printed + ${dropped:-0})) = $n ] && echo yes || echo "no ($printed + $dropped)")"
rm -f /tmp/dt_drops_$$.out /tmp/dt_drops_$$.err
