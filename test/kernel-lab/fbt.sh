#!/bin/sh
# fbt on a stock distribution kernel, run inside the kernel lab by
# run-lab-tests: `fbt.sh DTRACE`, stdout compared with fbt.out.  The
# workloads are in $DT_WORKLOADS; cat and sh are busybox's.  bpftool
# (brought in by run-lab-tests when the host has it) counts what is left
# after a kill: without it the test is skipped, and bpftool failing fails it.
d=$1
command -v bpftool >/dev/null || { echo "bpftool is not in the lab (not installed on the host)" >&2; exit 77; }
W=$DT_WORKLOADS
here=$(dirname "$0")
pids() { sed -E 's/pid [0-9]+/pid N/'; }

echo "== the sysadmin's first command (do_sys_open is inlined into open(2) here: no counts)"
{ "$d" -c true -n 'fbt::do_sys_open:entry { @[execname] = count(); }'; echo "rc $?"; } 2>&1 | pids

echo "== the same, on a function open(2) calls"
"$d" -c 'cat /proc/version' -n 'fbt::do_sys_openat2:entry { @[execname] = count(); }' 2>&1 |
	pids | grep -v '^Linux version'

for m in auto kprobe; do
	echo "== entry and return, fbtmech=$m"
	"$d" -x fbtmech=$m -q -c "$W/getppid_loop 3" -n '
	fbt::__do_sys_getppid:entry /pid == $target/ { printf("%s:%s:%s\n", probemod, probefunc, probename); }
	fbt::__do_sys_getppid:return /pid == $target/ { printf("%s offset %d, returns ppid %d\n", probename, arg0, arg1 == ppid); }'
	echo "== typed arguments and return values, fbtmech=$m"
	"$d" -x fbtmech=$m -q -c 'cat /proc/version' -n '
	fbt::do_sys_openat2:entry /pid == $target/ { printf("%s %s\n", probefunc, copyinstr(arg1)); }
	fbt::vfs_open:entry /pid == $target/ { printf("%s %s\n", probefunc, stringof(args[0]->dentry->d_name.name)); }
	fbt::do_sys_openat2:return /pid == $target/ { printf("%s returns %d\n", probefunc, args[1]); }
	fbt::fput:return /pid == $target && !done/ { done = 1; printf("void %s returns %d, %d\n", probefunc, arg0, arg1); }' |
		grep -v '^Linux version'
done

for m in auto kprobe; do
	echo "== stacks and caller, fbtmech=$m (kretprobes fire in the caller, after the return)"
	"$d" -x fbtmech=$m -q -c 'cat /proc/version' -n '
	fbt::vfs_open:entry /pid == $target/ { stack(2); printf("entry caller %a\n", caller); }
	fbt::vfs_open:return /pid == $target/ { stack(2); printf("return caller %a\n", caller); }' |
		grep -v '^Linux version' | sed -E 's/\+0x[0-9a-f]+$//'
done

echo "== a function fentry cannot take (8 arguments): kprobe, with stack arguments"
"$d" -q -c "$here/cat_version.sh" -n '
fbt::do_mmap:entry /execname == "cat" && !done/ { done = 1; printf("%s populate %d\n", probefunc, args[6] != 0); }'
"$d" -x fbtmech=fentry -n 'fbt::do_mmap:entry { }' 2>&1

echo "== a wide glob: one program for every vfs_* function (kprobes without kprobe_multi)"
"$d" -q -c 'cat /proc/version' -n 'fbt::vfs_*:entry /pid == $target/ { @[probefunc] = count(); }' |
	grep -v '^Linux version'

echo "== what this kernel offers"
"$d" -x fbtmech=kprobe_multi -n 'fbt::vfs_read:entry { } BEGIN { exit(0); }' 2>&1

echo "== killed: nothing left behind"
# dtrace's programs and the links ("programs N, links N").
objects() {
	progs=$(bpftool prog show) && links=$(bpftool link show) || { echo "bpftool failed"; return; }
	echo "programs $(echo "$progs" | grep -c 'name dt_'), links $(echo "$links" | grep -c prog)"
}
for m in auto kprobe; do
	"$d" -x fbtmech=$m -q -n 'BEGIN { printf("ready\n"); }
	fbt::vfs_*:entry, fbt::__do_sys_getppid:return { @[probefunc] = count(); }' > /tmp/fbt.out 2>&1 &
	p=$!
	i=0
	while ! grep -q ready /tmp/fbt.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	echo "$m: running: $(objects)" | sed -E 's/links [1-9][0-9]*/links some/'
	kill -9 $p
	wait $p 2>/dev/null
	i=0
	while bpftool prog show | grep -q 'name dt_' && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	echo "$m: killed: $(objects), kprobe_events $(wc -l < /sys/kernel/tracing/kprobe_events)"
done
