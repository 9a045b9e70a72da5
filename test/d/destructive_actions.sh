#!/bin/bash
# Destructive actions: refused without -w (or the destructive option);
# raise(), stop(), chill(), copyout(), copyoutstr(); panic() and
# breakpoint() are refused.
command -v unshare >/dev/null || { echo "unshare is not installed: cannot read the kernel's lockdown" >&2; exit 77; }
d=$1
w=$DT_WORKLOADS
norm() { sed 's/probe ID [0-9]*/probe ID N/; s/pc [0-9]*/pc N/'; }

for act in 'system("true")' 'raise(9)' 'stop()' 'chill(1)' 'freopen("/dev/null")'; do
	"$d" -n "BEGIN { $act; exit(0); }" 2>&1 | grep -v matched; echo "rc=${PIPESTATUS[0]}"
done
"$d" -qn '#pragma D option destructive
BEGIN { system("echo with the pragma"); exit(0); }'
"$d" -wn 'BEGIN { exit(0); }' 2>&1 >/dev/null | grep -c 'allowing destructive actions'
# Quiet: no notice (all it prints is what BEGIN prints).
"$d" -wqn 'BEGIN { printf("quiet: no notice\n"); exit(0); }' 2>&1

# raise(): the signal ends the workload at its first getppid().
"$d" -wq -c "$w/getppid_loop 20" -n 'syscall::getppid:entry /pid == $target/ { n++; raise(SIGTERM); }
END { printf("getppid calls: %d\n", n); }'
# A signal number out of range is an illegal operation.
"$d" -wq -n 'BEGIN { raise(65); } BEGIN { exit(0); }' 2>&1 | norm

# stop(): the process is stopped until SIGCONT.
"$d" -wq -c "$w/getppid_loop 3" -n '
syscall::getppid:entry /pid == $target && !done/ { done = 1; stop(); }
tick-200ms /done == 1/ {
	done = 2;
	system("awk \"/^State/ { print \\$2 }\" /proc/%d/status; kill -CONT %d", $target, $target);
}
syscall::getppid:entry /pid == $target/ { n++; }
END { printf("getppid calls: %d\n", n); }'

# chill(): each getppid() takes at least 50ms; more than 500ms is refused.
"$d" -wq -c "$w/getppid_loop 3" -n '
syscall::getppid:entry /pid == $target/ { self->t = timestamp; chill(50000000); }
syscall::getppid:return /self->t/ { @["at least 50ms"] = min(timestamp - self->t >= 50000000); self->t = 0; }'
"$d" -wq -n 'BEGIN { chill(500000001); } BEGIN { exit(0); }' 2>&1 | norm

# copyout(), copyoutstr(): the workload prints what they wrote, unless the
# kernel's lockdown (integrity or confidentiality) forbids writing to user
# memory: then dtrace must say so.  Whether it does is read here, not taken
# from dtrace: securityfs, mounted in a private mount namespace.
lockdown=$(unshare -m sh -c 'mount -t securityfs none /sys/kernel/security 2>/dev/null
	cat /sys/kernel/security/lockdown 2>/dev/null')
case $lockdown in
*"[integrity]"*|*"[confidentiality]"*) locked=yes ;;
*) locked=no ;;		# [none], or a kernel without the lockdown LSM
esac
out=$("$d" -wq -c "$w/copyout_work" -n '
syscall::write:entry /pid == $target && (int)arg0 == -1/ { copyout("hello", arg1, 5); }
syscall::write:entry /pid == $target && (int)arg0 == -2/ { copyoutstr("hi there", arg1, 16); }' 2>&1)
case $locked:$out in
"yes:"*"bpf_probe_write_user helper, which this kernel does not allow"*|no:$'helloxxxxxxxxxx\nhi there')
	echo "copyout: written, or refused where the kernel is locked down" ;;
*)	echo "copyout with lockdown $locked: $out" ;;
esac

"$d" -w -n 'BEGIN { panic(); }' 2>&1
"$d" -w -n 'BEGIN { breakpoint(); }' 2>&1
exit 0
