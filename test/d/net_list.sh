#!/bin/bash
# The ip, tcp and udp providers' probes, listed with -l and -lv: their
# names, DTrace's stability attributes (Evolving names and arguments of
# the ISA class, Private modules and functions) and args[] types (the
# translated ones).  Probe ids depend on the kernel's tracepoints: left out.
"$1" -l -P ip -P tcp -P udp | awk '{ print $2, $3, $NF }'
for p in ip:::receive tcp:::send tcp:::state-change udp:::receive; do
	"$1" -lv -n "$p" | sed 1,2d | sed "1i == $p"
done
