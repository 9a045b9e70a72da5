#!/bin/bash
# tcp:::receive and udp:::receive fire where no tracepoint does: they need
# kprobes (test/kernel-lab/net.sh runs them).  On a kernel without the
# kprobe perf PMU they are listed; a description that names one fails with
# a message that names the functions and what is missing, never a silent
# no-match; a wider one (tcp:::) leaves it out, and -Z lets it match
# nothing.
if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	echo "this kernel has kprobes: test/kernel-lab/net.sh tests these probes" >&2
	exit 77
fi
"$1" -l -n tcp:::receive -n udp:::receive | awk '{ print $2, $3, $4 }'
for p in tcp:::receive udp:::receive; do
	"$1" -n "$p { @ = count(); }"
	echo "exit status $?"
done 2>&1
"$1" -c true -n 'tcp::: {}' 2>&1 | grep matched
"$1" -c true -n 'udp::: {}' 2>&1 | grep matched
"$1" -Z -c true -n 'udp:::receive {}' -n 'udp:::send {}' 2>&1 | grep matched
