#!/bin/bash
# dtrace -lv: each provider's stability attributes, as DTrace's providers
# give them (a probe's description: the least of the parts it names).
for p in dtrace:::BEGIN syscall::read:entry profile:::tick-1s sdt:sched::sched_switch; do
	"$1" -lvn "$p" | sed 1d | sed -E '1s/^ *[0-9]+ +/ID /' | sed '/Argument Types/,$d'
done
