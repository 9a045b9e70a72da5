#!/bin/bash
# flowindent (-F): "-> func" on entry probes, "<- func" on return probes
# (syscall probes: "=>", "<="), "| func:name" for others and for a second
# clause of the same probe, indented by the nesting; the heading is
# "CPU FUNCTION" and -q does not remove it.
d=$1
w="$DT_WORKLOADS/pid_work 2"
_DTRACE_TESTING=1 "$d" -F -c "$w" -n '
BEGIN { trace("begin"); }
pid$target:a.out:main:entry, pid$target:a.out:main:return,
pid$target:a.out:work:entry, pid$target:a.out:work:return,
pid$target:libc.so.6:getpid:entry, pid$target:libc.so.6:getpid:return {}
syscall::getpid:entry, syscall::getpid:return /pid == $target/ { }
pid$target:a.out:twice:entry { trace(arg0); }
pid$target:a.out:twice:entry { trace(arg0 + 1); }
pid$target:a.out:twice:return { trace(arg1); }' 2>/dev/null
# With CPU numbers; the option in a pragma; quiet.
"$d" -q -c "$w" -n '#pragma D option flowindent
pid$target:a.out:work:entry, pid$target:a.out:work:return { printf("%d\n", arg0); }' 2>/dev/null |
	sed 's/^ *[0-9][0-9]* /C /'
exit 0
