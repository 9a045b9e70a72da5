#!/bin/sh
# -x cpu=N: probes fire on CPU N only, system call probes too (not just
# the profile and BEGIN/END probes, which are bound to a CPU anyway).
# Two runs of the workload, pinned one to each of CPUs 0 and 1; a CPU
# that is not online is refused.
d=$1
W=${DT_WORKLOADS:?}
[ "$(nproc)" -ge 2 ] || { echo "needs two CPUs" >&2; exit 77; }
command -v taskset >/dev/null || { echo "taskset is not installed" >&2; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat > "$t/work" <<S
#!/bin/sh
taskset -c 0 $W/getppid_loop 3
taskset -c 1 $W/getppid_loop 5
S
chmod +x "$t/work"
for c in 0 1; do
	"$d" -q -x cpu=$c -c "$t/work" -n '
	syscall::getppid:entry /execname == "getppid_loop"/ { @[cpu] = count(); }
	END { printa("cpu %d: %@d calls\n", @); }'
done
# A CPU that is not online is refused: its probes would never fire.
"$d" -q -x cpu=4096 -n 'syscall::getppid:entry { @ = count(); }' 2>&1 | sed 's/(online: .*)/(online: ...)/'
