#!/bin/bash
# Soak: printf, aggregations, thread-locals and speculations on busy
# system call probes, two threads on two CPUs, for DT_SOAK_SECONDS (60).
# Every event is printed or counted as a drop, and the counts equal what
# the workload did exactly when no drops are reported; the consumer's
# memory stays flat: its RSS at the end is within 10% of its RSS 5 seconds
# in (samples every second go to stderr: the curve).
# Usage: soak.sh DTRACE
set -u
d=$1
secs=${DT_SOAK_SECONDS:-60}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

"$d" -q -x nspec=16 -x bufsize=8m -c "$DT_WORKLOADS/syscall_threads soak $secs" -n '
syscall::getppid:entry /pid == $target/ { @getppid = count(); @bytid[tid] = count(); self->n++; }
syscall::close:entry /pid == $target/ {
	printf("close %d %d\n", tid, (int)arg0);
	@tls = sum(self->n);
	self->n = 0;
	self->s = speculation();
}
syscall::close:entry /pid == $target && self->s/ { speculate(self->s); printf("spec %d\n", (int)arg0); }
syscall::close:entry /pid == $target && !self->s/ { @nospec = count(); }
syscall::close:return /pid == $target && errno != 0/ { @bad = count(); }
syscall::close:return /pid == $target && errno == 0/ { @good = count(); }
syscall::close:return /pid == $target && self->s && errno != 0/ { @specbad = count(); }
syscall::close:return /pid == $target && self->s && errno != 0/ { commit(self->s); self->s = 0; }
syscall::close:return /pid == $target && self->s/ { discard(self->s); self->s = 0; }
END {
	printa("agg getppid %@d\n", @getppid);
	printa("agg tls %@d\n", @tls);
	printa("agg bad %@d\n", @bad);
	printa("agg good %@d\n", @good);
	printa("agg specbad %@d\n", @specbad);
	printa("agg nospec %@d\n", @nospec);
	printa("agg tid %d %@d\n", @bytid);
}' < /dev/null > "$t/out" 2> "$t/err" &
dt=$!

rss() { awk '/^VmRSS:/ { print $2 }' /proc/$1/status 2>/dev/null; }
early= late=
for i in $(seq "$secs"); do
	sleep 1
	r=$(rss $dt)
	[ -z "$r" ] && break
	echo "rss ${i}s ${r} kB" >&2
	[ "$i" = 5 ] && early=$r
	[ "$i" -le $((secs - 2)) ] && late=$r
done
wait $dt
echo "rc $?"

get() { awk -v k="$1" '$1 == k { print $2 }' "$t/out"; }
agg() { awk -v k="$1" '$1 == "agg" && $2 == k { print $3 }' "$t/out"; }
# Drops of each kind that dtrace reported.
drops() { sed -n "s/^dtrace: \([0-9]*\) $1 on CPU [0-9]*$/\1/p" "$t/err" | awk '{ n += $1 } END { print n + 0 }'; }
rdrops=$(drops 'drops\?')
adrops=$(drops 'aggregation drops\?')
failed=$(sed -n 's/^dtrace: \([0-9]*\) failed speculations\? .*/\1/p' "$t/err" | awk '{ n += $1 } END { print n + 0 }')
sdrops=$(sed -n 's/^dtrace: \([0-9]*\) speculative drops\? .*/\1/p' "$t/err" | awk '{ n += $1 } END { print n + 0 }')
echo "drops reported: $rdrops records, $adrops aggregation, $failed failed speculations, $sdrops speculative" >&2
grep -v -E '^dtrace: ([0-9]+ (aggregation |speculative )?drops? on CPU|[0-9]+ (failed speculations?|speculative drops?) |pid [0-9]+ has exited)' "$t/err"

getppid=$(get getppid) bad=$(get badclose) good=$(get goodclose)
getppid=${getppid:-0} bad=${bad:-0} good=${good:-0}
closes=$((bad + good))
printed=$(grep -c '^close ' "$t/out")
committed=$(grep -c '^spec ' "$t/out")
[ "$getppid" -gt 0 ] && [ "$bad" -gt 0 ] && [ "$good" -gt 0 ] && echo "the workload ran" || echo "the workload did nothing"
# Exact when nothing was dropped; else what was printed and what was dropped add up.
check() {	# what, seen, dropped, workload
	set -- "$1" "${2:-0}" "$3" "$4"
	if [ "$3" = 0 ]; then
		[ "$2" = "$4" ] && echo "$1: exact" || echo "$1: $2, workload $4, none dropped"
	else
		[ $(($2 + $3)) = "$4" ] && echo "$1: seen + dropped = workload" ||
			echo "$1: $2 seen + $3 dropped, workload $4"
	fi
}
check "close records printed" "$printed" "$rdrops" "$closes"
# Failed closes whose speculation() gave a buffer: each one's record is committed.
check "committed speculations printed" "$committed" $((rdrops + sdrops)) "$(agg specbad)"
# speculation() returning 0 is what "failed speculations" counts.
nospec=$(agg nospec)
[ "$failed" = "${nospec:-0}" ] && echo "failed speculations reported: as many as speculation() returned 0" ||
	echo "failed speculations reported: $failed, speculation() returned 0 ${nospec:-0} times"
check "count() of getppid" "$(agg getppid)" "$adrops" "$getppid"
check "sum() of thread-local counts" "$(agg tls)" "$adrops" "$getppid"
check "count() of failed closes" "$(agg bad)" "$adrops" "$bad"
check "count() of successful closes" "$(agg good)" "$adrops" "$good"
echo "threads counted: $(awk '$1 == "agg" && $2 == "tid" { n++ } END { print n + 0 }' "$t/out")"
if [ -n "$early" ] && [ -n "$late" ]; then
	[ $((late * 10)) -le $((early * 11)) ] && echo "RSS: flat (within 10%)" ||
		echo "RSS: ${early} kB after 5 s, ${late} kB at the end"
else
	echo "RSS: not sampled (dtrace ended early)"
fi
