#!/bin/bash
# pid and usdt probes leave nothing behind: while dtrace runs its uprobes
# are BPF links it holds (nothing in tracefs' uprobe_events); after SIGKILL
# the traced process runs on unharmed, and after a normal exit a usdt
# semaphore reads 0 again.
command -v cc >/dev/null || { echo "cc is not installed: the workload is built here" >&2; exit 77; }
d=$1
ev=/sys/kernel/tracing/uprobe_events
[ -r $ev ] || { echo "$ev is not readable: cannot see uprobes left there" >&2; exit 77; }
events() { wc -l < $ev; }
# uprobe_multi links (Linux 6.6), or perf event links.
links() {
	local f
	for f in /proc/$1/fdinfo/*; do grep -h '^link_type:' "$f" 2>/dev/null; done |
		grep -c -E 'uprobe_multi|uretprobe_multi|perf_event'
}
before=$(events)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkfifo "$t/go"
"$DT_WORKLOADS/pid_work" 3 wait < "$t/go" &
w=$!
exec 3> "$t/go"
for i in $(seq 100); do [ "$(readlink /proc/$w/exe)" = "$DT_WORKLOADS/pid_work" ] && break; sleep 0.05; done
"$d" -q -p $w -n 'BEGIN { printf("ready\n"); } pid$target:libc.so.6:str*:entry, pid$target:a.out::return { n++; }' > "$t/out" 2>&1 &
dt=$!
for i in $(seq 100); do grep -q ready "$t/out" && break; sleep 0.1; done
cat "$t/out"
echo "bpf links held: $( [ "$(links $dt)" -gt 0 ] && echo yes || echo no )"
echo "uprobe_events added while running: $(( $(events) - before ))"
kill -KILL $dt
wait $dt 2>/dev/null
echo go >&3
exec 3>&-
wait $w
echo "pid_work after SIGKILL: exit status $?"
echo "uprobe_events added: $(( $(events) - before ))"

# A semaphore counts only while its probe is enabled.
w=$(cd "$(dirname "$0")" && pwd)/workloads
cd "$t" || exit 1
"$d" -h -s "$w/usdt_prov.d" -o usdt_prov.h && cc -O2 -I. -o usdt_work "$w/usdt_work.c" || exit 1
"$d" -q -c "./usdt_work 2 $t/on" -n 'dttest$target:::is_on { n++; }' > /dev/null
./usdt_work 2 "$t/off"
cat "$t/on" "$t/off"
