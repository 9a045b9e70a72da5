#!/bin/sh
# The sched probes that need tracepoints of newer kernels, on the lab's
# stock kernel (Linux 6.1, without sched_exit_tp, sched_set_need_resched_tp
# or task_struct.throttled): listed, and an error that says what is missing
# when enabled; sched::: enables the others.  fds[] (the run-time's path
# walk, checked by this kernel's verifier) names a /proc file.
d=$1
case $(uname -r) in
6.1.*) ;;
*) echo "the lab's kernel is $(uname -r), not 6.1: what it lacks may differ" >&2; exit 77 ;;
esac
"$d" -l -P sched | awk 'NR > 1 { print $NF }'
for p in remain-cpu surrender cpucaps-sleep; do
	"$d" -q -n "sched:::$p { exit(0); }" 2>&1
done
"$d" -n 'sched::: {}' -n 'BEGIN { exit(0); }' 2>&1 >/dev/null | grep sched
"$d" -q -c "dd if=/proc/version of=/dev/null" -n '
syscall::read:entry /pid == $target/ {
	printf("%s %s %s %s %s\n", fds[arg0].fi_pathname, fds[arg0].fi_name, fds[arg0].fi_dirname,
	    fds[arg0].fi_mount, fds[arg0].fi_fs);
}' 2>&1 | grep -v records | sort -u
