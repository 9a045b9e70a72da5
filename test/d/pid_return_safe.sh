#!/bin/bash
# pid return probes never change what the traced program does: a function
# that never returns (no ret, no jump out of it) has no return probe, as in
# DTrace, so entry,return globs leave out _start (the ELF entry point,
# where a uretprobe would take argc for the return address) and finish()
# (it calls _exit); tail(), which returns through a tail call, keeps its
# return probe.  Named explicitly, such a return probe matches nothing.
# (_start:entry is not seen either: the -c command is started at main(),
# DTrace's default evaltime, postinit.)
w="$DT_WORKLOADS/noreturn_work"
echo "untraced:"
"$w" a b
echo "status $?"
echo "traced:"
"$1" -q -c "$w a b" -n '
pid$target:a.out::entry,
pid$target:a.out::return
{
	@[probefunc, probename] = count();
}
END { printa("%s:%s %@d\n", @); }'
echo "status $?"
for f in _start finish; do
	"$1" -q -c "$w" -n "pid\$target:a.out:$f:return { trace(1); }" 2>&1 |
		sed 's/pid[0-9][0-9]*/pidN/'
	echo "status ${PIPESTATUS[0]}"
done
