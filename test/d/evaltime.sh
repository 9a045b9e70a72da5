#!/bin/bash
# -x evaltime: with exec, the -c command is stopped inside its exec, so
# tracing sees the exec return (proc:::exec-success, syscall::execve:return)
# of $target; with the other values (postinit is DTrace's default) it starts
# after the exec, which is not seen.  exec-success fires where
# syscall::execve:return does, in the new image.  A command that cannot be
# executed is an error either way.  Where the command waits: exec in its
# exec (the dynamic linker's opening of libc is traced), preinit at its
# entry point (_start is traced), postinit and main at main() (neither
# is): found by its symbol, or in a stripped program (/bin/true) as
# __libc_start_main()'s first argument.  (pid probes need the program's
# libraries: even with exec, it is first run to its entry point.)
d=$1
w="$DT_WORKLOADS/pid_work"
prog='proc:::exec-success /pid == $target/ { printf("exec-success %s\n", execname); }
syscall::execve:return /pid == $target/ { printf("execve returned %d\n", arg0); }
proc:::exit /pid == $target/ { printf("exit %d\n", args[0]); }'
for t in exec preinit postinit main default; do
	echo "== evaltime=$t"
	if [ $t = default ]; then
		"$d" -q -c /bin/true -n "$prog"
	else
		"$d" -q -x evaltime=$t -c /bin/true -n "$prog"
	fi
	echo "rc=$?"
done
echo "== evaltime=exec, a command that does not exist"
"$d" -q -x evaltime=exec -c /nonexistent/cmd -n "$prog" 2>&1
echo "rc=$?"
echo "== exec-success in a child of the target: the new image's name"
"$d" -q -c '/bin/sh -c /bin/true;exit' -n 'proc:::exec-success /ppid == $target/ { printf("%s %s\n", execname, curpsinfo->pr_psargs); }'
echo "rc=$?"
echo "== what is traced of the start of a program, by evaltime"
for t in exec preinit postinit main; do
	echo "-- $t"
	"$d" -q -x evaltime=$t -c "$w 1" -n '
	pid$target:a.out:_start:entry, pid$target:a.out:main:entry { printf("%s\n", probefunc); }' |
		grep -v '^$' | sort
	echo "-- $t, stripped"
	"$d" -q -x evaltime=$t -c /bin/true -n '
	syscall::openat:entry /pid == $target && basename(copyinstr(arg1)) == "libc.so.6"/ { printf("openat libc\n"); }
	syscall::exit_group:entry /pid == $target/ { printf("exit_group\n"); }' | grep -v '^$'
done
