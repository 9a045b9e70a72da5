#!/bin/bash
# A firing's scratch area is one of four levels per CPU, a bit each in
# the CPU's dt_cpuinfo word CPU_NEST (offset 32).  Firings the kernel
# preempts give levels back in any order: here levels 0 and 2 are marked
# taken from outside (as by two preempted firings), and every firing must
# still run, in level 1, and give back only its own level.  With all four
# taken, a firing is not run and is counted as a nested probe drop, never
# lost silently.  The map is poked with bpftool: without it the test
# cannot run (exit status 77).
d=$1
W=${DT_WORKLOADS:?}
command -v bpftool >/dev/null || { echo "bpftool is not installed: cannot set the levels" >&2; exit 77; }
t=$(mktemp -d)
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$t"' EXIT
cp "$W/getppid_loop" "$t/scrlvl_work"

"$d" -q -n 'BEGIN { printf("ready\n"); }
syscall::getppid:entry /execname == "scrlvl_work"/ { printf("%s %d\n", strjoin(probefunc, "!"), ++n); }' \
	>"$t/out" 2>"$t/err" &
pid=$!
for i in $(seq 200); do grep -q ready "$t/out" 2>/dev/null && break; sleep 0.05; done
grep -q ready "$t/out" || { echo "dtrace did not start" >&2; cat "$t/err" >&2; exit 1; }

# dt_cpuinfo: the map of that name among the ones dtrace holds.
id=
for f in /proc/$pid/fdinfo/*; do
	m=$(sed -n 's/^map_id:[[:space:]]*\([0-9]*\)/\1/p' "$f" 2>/dev/null)
	[ -n "$m" ] && bpftool map show id "$m" 2>/dev/null | grep -q ' name dt_cpuinfo ' && id=$m
done
[ -n "$id" ] || { echo "dt_cpuinfo not found" >&2; exit 1; }

# Every CPU's word: bytes 32..39 = $1, the rest (drop counters) 0.
set_levels() {
	local v=() i
	for i in $(seq 0 55); do v+=(0); done
	v[32]=$1
	bpftool map update id "$id" key 0 0 0 0 value "${v[@]}" || exit 1
}

set_levels 5
"$t/scrlvl_work" 7
bpftool -j map lookup id "$id" key 0 0 0 0 >"$t/cpuinfo" || exit 1
# Per CPU, the value's bytes as hex strings; byte 32 must still be 0x05.
held=$(tr -d ' \n' <"$t/cpuinfo" | grep -o '"value":\[[^]]*\]' |
	awk -F'[][]' '{ split($2, b, ","); print (b[33] == "\"0x05\"") ? "yes" : "no" }' | sort -u)

set_levels 15
"$t/scrlvl_work" 3
sleep 0.5
kill -INT $pid
wait $pid
# (Without the newline that marks where SIGINT came.)
grep -v '^$' "$t/out"
echo "levels 0 and 2 still held on every CPU: $held"
grep -v 'nested probe drop' "$t/err"
# (Other processes' getppid firings are dropped too: the level is taken
# before the predicate runs.)
awk '/nested probe drops? on CPU/ { n += $2 } END { print "nested probe drops, at least 3:", (n >= 3) ? "yes" : "no: " n }' "$t/err"
