#!/bin/bash
# rawtp: every tracepoint of tracefs' available_events is a probe
# rawtp:<group>::<event>, but those of groups other providers own (the
# syscalls', the dynamic kprobes' and uprobes'); -lv shows the stability
# DTrace gives rawtp and the types BTF gives TP_PROTO's arguments.
d=$1
ev=/sys/kernel/tracing/available_events
[ -r $ev ] || ev=/sys/kernel/debug/tracing/available_events
[ -r $ev ] || { echo "tracefs is not mounted" >&2; exit 77; }
want=$(grep -Evc '^(syscalls|kprobes|uprobes|dt_pid|dtrace_[^:]*):' $ev)
got=$("$d" -l -P rawtp | sed 1d | wc -l)
echo "probes for every event but the excluded groups': $((want == got))"
"$d" -l -P rawtp | awk 'NR > 1 && ($3 == "syscalls" || $3 == "kprobes" || $3 == "uprobes")' | wc -l
"$d" -l -n rawtp:syscalls:: 2>&1
for p in rawtp:sched::sched_switch rawtp:sched::sched_process_fork rawtp:lock::contention_begin \
    rawtp:lock::contention_end rawtp:raw_syscalls::sys_exit; do
	"$d" -lv -n "$p" | sed 1d | sed -E '1s/^ *[0-9]+ +/ID /'
done
