#!/bin/bash
# Failures a sysadmin can act on, each saying what to do: no privileges,
# tracefs not mounted or not readable, no kernel BTF, a kernel locked down
# against BPF.  The system is changed only inside private mount namespaces
# (unshare -m), never for the rest of the machine.
for tool in setpriv capsh unshare mountpoint; do
	command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 77; }
done
d=$1
t() { timeout 20 "$@"; }
filter() { sed -e "s|$d|DTRACE|g"; }

echo "== not root"
t setpriv --reuid=65534 --regid=65534 --clear-groups "$d" -n 'BEGIN { exit(0); }' 2>&1 | filter
echo "rc=${PIPESTATUS[0]}"
echo "== not root: -l says which providers it cannot list"
t setpriv --reuid=65534 --regid=65534 --clear-groups "$d" -l -P syscall 2>&1 | filter
echo "== not root, but CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH: it works"
caps=cap_bpf,cap_perfmon,cap_dac_read_search
t capsh --caps="$caps+eip cap_setpcap,cap_setuid,cap_setgid+ep" --keep=1 --user=nobody \
	--addamb=$caps -- -c "'$d' -qn 'BEGIN { printf(\"begin\\n\"); }
	syscall::getppid:entry { n++; } tick-50ms { exit(0); }'" 2>&1
echo "rc=$?"
echo "== tracefs not mounted"
# Both places tracefs can be (debugfs may be mounted, with tracefs inside).
t unshare -m sh -c "mount -t tmpfs none /sys/kernel/tracing &&
	{ ! mountpoint -q /sys/kernel/debug || mount -t tmpfs none /sys/kernel/debug; } &&
	'$d' -n 'syscall::read:entry { exit(0); }'; echo rc=\$?" 2>&1
echo "== no kernel BTF"
t unshare -m sh -c "mount -t tmpfs none /sys/kernel/btf &&
	'$d' -n 'BEGIN { trace(sizeof(struct task_struct)); exit(0); }'; echo rc=\$?" 2>&1
echo "== kernel locked down (confidentiality)"
t unshare -m sh -c "mount -t tmpfs none /sys/kernel/security &&
	echo 'none integrity [confidentiality]' > /sys/kernel/security/lockdown &&
	'$d' -n 'BEGIN { exit(0); }'; echo rc=\$?" 2>&1
echo "== kernel locked down (integrity): tracing works"
t unshare -m sh -c "mount -t tmpfs none /sys/kernel/security &&
	echo 'none [integrity] confidentiality' > /sys/kernel/security/lockdown &&
	'$d' -qn 'BEGIN { printf(\"ok\\n\"); exit(0); }'; echo rc=\$?" 2>&1

# A kernel data symbol this kernel cannot give: the message says what is missing.
"$1" -qn 'BEGIN { trace(`dtrace_no_such_symbol); exit(0); }' 2>&1 | sed 's/^dtrace: invalid probe specifier .*: in action list: //'
