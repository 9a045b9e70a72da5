#!/bin/bash
# SIGINT and SIGTERM end dtrace cleanly while its probes are busy: END
# runs, the aggregations are printed, the exit status is 0, everything it
# held is freed, its -c child is gone and its -p target runs on.  Each
# program prints "ready" from BEGIN; the signal is sent once it has.
# Objects are looked up with bpftool: without it nothing could be seen left
# behind, so the test is skipped (exit status 77); a lookup that fails for
# another reason fails the test.
# Usage: teardown_signal.sh DTRACE
set -u
d=$1
command -v bpftool >/dev/null || { echo "bpftool is not installed: cannot look BPF objects up" >&2; exit 77; }
command -v pgrep >/dev/null || { echo "pgrep is not installed: cannot find the -c child" >&2; exit 77; }
t=$(mktemp -d)
sleep 100000 &
ptarget=$!
disown $ptarget
trap 'kill -9 $ptarget 2>/dev/null; rm -rf "$t"' EXIT

owned() {
	local f
	for f in /proc/$1/fdinfo/*; do
		sed -n 's/^\(prog\|map\|link\|btf\)_id:[[:space:]]*\([0-9][0-9]*\)/\1 \2/p' "$f" 2>/dev/null
	done
}
# Whether object $1 $2 ("prog 12") exists: status 0 yes, 1 no (ENOENT);
# any other answer is a lookup that failed, and ends the test.
exists() {
	local out
	out=$(LC_ALL=C bpftool "$1" show id "$2" 2>&1) && return 0
	case $out in *"No such file or directory"*) return 1 ;; esac
	echo "bpftool $1 show id $2 failed: $out" >&2
	exit 1
}
# How many of the noted objects (in file $1) still exist, polled while
# freed; into $t/left (a function in $(...) could not end the test).
leftover() {
	local n type id
	for i in $(seq 300); do
		n=0
		while read -r type id; do
			exists "$type" "$id" && n=$((n + 1))
		done < "$1"
		[ $n = 0 ] && break
		sleep 0.1
	done
	echo $n > "$t/left"
}

end='END { printf("end\n"); }'
scenario() {
	case $1 in
	syscall) args=(-n 'syscall:::entry { @[probefunc] = count(); self->n++; } syscall:::return { @r = count(); }') ;;
	print) args=(-o "$t/out" -n 'syscall:::entry { printf("%s %d %d\n", execname, pid, arg0); }') ;;
	spec) args=(-x nspec=8 -n 'syscall::close:entry { self->s = speculation(); speculate(self->s); printf("%d\n", arg0); }
	       syscall::close:return /self->s/ { commit(self->s); self->s = 0; } profile-997 { @[cpu] = count(); }') ;;
	sdt) args=(-n 'sdt:sched::, sdt:writeback:: { @[probename] = count(); }') ;;
	pid-c) args=(-c "sleep 30" -n 'pid$target:libc.so.6:malloc:entry { n++; }
	       syscall::clock_nanosleep:entry /pid == $target/ { @ = count(); }') ;;
	pid-p) args=(-p $ptarget -n 'pid$target:libc.so.6:malloc:entry { n++; } tick-10ms { @ = count(); }') ;;
	esac
}

for sig in ${SIGS:-INT TERM}; do
	for s in ${SCEN:-syscall print spec sdt pid-c pid-p}; do
		scenario $s
		# -o: dtrace appends to the file, which is the output here.
		rm -f "$t/out"
		if [ $s = print ]; then stdout=/dev/null; else stdout=$t/out; fi
		"$d" -q -n 'BEGIN { printf("ready\n"); }' "${args[@]}" -n "$end" > "$stdout" 2> "$t/err" &
		dt=$!
		: > "$t/noted"
		child=
		for i in $(seq 600); do
			owned $dt >> "$t/noted"
			[ -z "$child" ] && child=$(pgrep -P $dt | head -1)
			grep -q ready "$t/out" 2>/dev/null && break
			kill -0 $dt 2>/dev/null || break
			sleep 0.05
		done
		owned $dt >> "$t/noted"
		kill -$sig $dt
		wait $dt
		rc=$?
		sort -u "$t/noted" -o "$t/noted"
		ended=no; grep -q '^end$' "$t/out" && ended=yes
		# The aggregation printed after END (programs that have one).
		aggs=no; [ "$(sed -n '/^end$/,$p' "$t/out" | grep -c '[0-9]')" -gt 0 ] && aggs=yes
		[ $s = print ] && aggs=n/a
		childst=no
		if [ -n "$child" ]; then
			for i in $(seq 100); do [ -d /proc/$child ] || break; sleep 0.1; done
			[ -d /proc/$child ] && { childst="yes ($(awk '{print $3}' /proc/$child/stat))"; kill -9 $child; }
		fi
		[ $s = pid-c ] && [ -z "$child" ] && childst="never seen"
		tst=$(awk '{print $3}' /proc/$ptarget/stat 2>/dev/null)
		case $tst in S|R) tst=running ;; esac
		leftover "$t/noted"
		echo "$sig $s: rc $rc, END ran: $ended, aggregations: $aggs, held $( [ -s "$t/noted" ] && echo objects || echo nothing), left $(cat "$t/left"), -c child left: $childst, -p target: $tst"
		# Drops are counted and reported, as they should be, in numbers that vary.
		grep -v -E '^dtrace: (pid [0-9]* has exited|[0-9]+ (aggregation |dynamic variable )?drops? on CPU [0-9]+|[0-9]+ failed speculations? .*)$' "$t/err" |
			sed "s/^/$sig $s stderr: /"
	done
done
