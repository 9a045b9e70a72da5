#!/bin/bash
# A ring buffer too small for the event rate drops records, and every
# drop is reported: printed records + reported drops = events.
n=200000
"$1" -q -b 4k -x switchrate=10hz -c "$DT_WORKLOADS/getppid_loop $n" \
	-n 'syscall::getppid:entry /pid == $target/ { printf("x\n"); }' > /tmp/dt_drops_$$.out 2> /tmp/dt_drops_$$.err
printed=$(grep -c '^x$' /tmp/dt_drops_$$.out)
dropped=$(sed -n 's/^dtrace: \([0-9]*\) drops\{0,1\} on CPU [0-9]*$/\1/p' /tmp/dt_drops_$$.err | awk '{ s += $1 } END { print s + 0 }')
echo "dropped some: $([ "${dropped:-0}" -gt 0 ] && echo yes || echo no)"
echo "all accounted: $([ $((printed + ${dropped:-0})) = $n ] && echo yes || echo "no ($printed + $dropped)")"
rm -f /tmp/dt_drops_$$.out /tmp/dt_drops_$$.err
