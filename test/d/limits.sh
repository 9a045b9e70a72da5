#!/bin/bash
# Limits are reported, not hit blindly: a map the kernel refuses names the
# option that sized it (a memory cgroup makes the kernel refuse: BPF maps
# are charged to it); more clauses for one probe than one BPF program may
# hold run in programs chained by tail calls (the chain's own limit:
# clause_chain_limit.sh).
d=$1
cg=
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	cg=/sys/fs/cgroup/dt_limits_$$ limit=memory.max
else
	cg=/sys/fs/cgroup/memory/dt_limits_$$ limit=memory.limit_in_bytes
fi
t=$(mktemp -d)
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$t"' EXIT
mkdir "$cg" && echo $((200 << 20)) > "$cg/$limit" || exit 1
# Run dtrace inside the cgroup (200 MB).
limited() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$d" "$@"; }
prog='syscall::getppid:entry { @[arg0] = count(); self->x[arg0] = 1; } BEGIN { exit(0); }'
for o in bufsize=1g aggsize=1g dynvarsize=4g; do
	echo "== -x $o"
	limited -q -x $o -n "$prog" 2>&1
	echo "rc=$?"
done
echo "== within the limit"
limited -q -x bufsize=4m -n "$prog" 2>&1
echo "rc=$?"

for n in 200 300; do
	echo "== $n clauses on one probe"
	for i in $(seq $n); do echo "syscall::getppid:entry /arg0 == $i/ { @a[$i] = count(); }"; done > "$t/many.d"
	echo 'BEGIN { printf("ran\n"); exit(0); }' >> "$t/many.d"
	"$d" -q -s "$t/many.d" 2>&1
	echo "rc=$?"
done

echo "== a bufsize larger than a BPF ring buffer can be"
"$d" -q -x bufsize=3g -n 'BEGIN { exit(0); }' 2>&1
echo "rc=$?"
