#!/bin/bash
# kill -9 leaves nothing behind.  SIGKILL runs no cleanup: what must hold
# is that everything dtrace creates lives only as long as its file
# descriptors (BPF links and perf events, nothing pinned, nothing written
# to kprobe_events or uprobe_events), so the kernel frees it all once the
# process is gone, and that no -c child outlives it or a -p target stays
# stopped.
#
# Each iteration starts dtrace on one of several programs (300+ syscall
# probes through raw_syscalls, output being drained, a program that keeps
# the verifier busy, -c and -p targets with uprobes, speculations, ~60
# perf tracepoints being attached) and kills it with SIGKILL: every other
# iteration at a random moment (0 to 1.5 s after the start: compiling,
# loading, attaching or consuming), the others a random time (0 to 0.5 s)
# after its first BPF program was loaded.  While it runs the BPF programs,
# maps, links and BTF objects it holds are noted (its fds' fdinfo).  After
# the kill it checks that
#   - none of the noted objects exists any more (freed asynchronously:
#     polled),
#   - no dtrace program or map (dt_prog_*, dt_*, dtrace.*) created since
#     the test started is held by nobody (bpf_objects.py: that is what a
#     pinned or leaked object looks like; other dtraces running on the
#     machine hold theirs),
#   - uprobe_events and kprobe_events are as they were,
#   - no -c child survives (or is stopped) and the -p target runs on.
# Nothing here depends on timing: the delays only pick the moment.
# The checks look objects up with bpftool (through bpf_objects.py, in
# python3) and -c children with pgrep: without them, or without tracefs'
# uprobe_events, nothing could be seen left behind, so the test is skipped
# (exit status 77); a lookup that fails for another reason fails the test.  Before the kills,
# a running dtrace's objects, its own holds disregarded, must be seen as
# held by nobody: the orphan check recognizes dtrace's objects.
# Usage: teardown_kill.sh DTRACE [ITERATIONS]   (default DT_KILL_ITERS or 28)
set -u
d=$1
iters=${2:-${DT_KILL_ITERS:-28}}
here=$(cd "$(dirname "$0")" && pwd)
tracefs=/sys/kernel/tracing
for tool in bpftool python3 pgrep; do
	command -v $tool >/dev/null || { echo "$tool is not installed: cannot look BPF objects up" >&2; exit 77; }
done
[ -r $tracefs/uprobe_events ] || { echo "$tracefs/uprobe_events is not readable: cannot see uprobes left behind" >&2; exit 77; }
t=$(mktemp -d)
ptarget=
cleanup() {
	[ -n "$ptarget" ] && kill -9 "$ptarget" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT

# kprobe_events is there only on kernels with kprobes.
probes_state() {
	cat $tracefs/uprobe_events || echo "cannot read uprobe_events"
	[ ! -e $tracefs/kprobe_events ] || cat $tracefs/kprobe_events || echo "cannot read kprobe_events"
}

# A program with many clauses and string work: the verifier takes seconds.
{
	for i in $(seq 25); do
		echo "syscall::read:entry /arg0 == $i/ { this->s = strjoin(execname, \"x$i\");"
		echo "    @a$i[this->s, substr(this->s, 1)] = count();"
		echo "    printf(\"%s %d %s\\n\", this->s, pid, strjoin(this->s, basename(this->s))); }"
	done
} > "$t/big.d"

# A -p target (uprobes in its C library).
sleep 100000 &
ptarget=$!
disown $ptarget

nscen=7
# The dtrace arguments of scenario $1, in args[].
scenario() {
	case $1 in
	0) args=(-q -n 'syscall:::entry { @[probefunc] = count(); } syscall:::return { n++; }') ;;
	1) args=(-q -o /dev/null -n 'syscall:::entry { printf("%s %d %d %d\n", execname, pid, tid, arg0); }') ;;
	2) args=(-q -s "$t/big.d") ;;
	3) args=(-q -c "sleep 30" -n 'pid$target:libc.so.6:malloc:entry, pid$target:libc.so.6:free:return { n++; }
	       syscall::clock_nanosleep:entry /pid == $target/ { @ = count(); }') ;;
	4) args=(-q -p $ptarget -n 'pid$target:libc.so.6:malloc:entry { n++; }
	       pid$target:libc.so.6:clock_nanosleep:return { self->x++; } tick-10ms { @ = count(); }') ;;
	5) args=(-q -x nspec=4 -n 'syscall::close:entry { self->s = speculation(); speculate(self->s); printf("%d\n", arg0); }
	       syscall::close:return /self->s/ { commit(self->s); self->s = 0; } profile-997 { @[cpu] = count(); }') ;;
	6) args=(-q -n 'sdt:sched::, sdt:writeback:: { @[probename] = count(); }') ;;
	esac
}

# Objects held by process $1 ("prog 12", "map 40", "link 3", "btf 77").
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
# freed; into file $2 (a function in $(...) could not end the test).
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
	echo $n > "$2"
}

# dtrace objects created since the start that nobody holds, polled (another
# dtrace on the machine may be exiting), into $t/orphans.  $1: a pid whose
# objects are the only ones looked at (the control), polled until there are some.
ids=$("$here/bpf_objects.py" maxids) || exit 1
read -r prog0 map0 link0 <<< "$ids"
orphans() {
	for i in $(seq 120); do
		"$here/bpf_objects.py" orphans "$prog0" "$map0" "$link0" "$@" > "$t/orphans" || exit 1
		if [ $# = 0 ]; then [ -s "$t/orphans" ] || break; else [ -s "$t/orphans" ] && break; fi
		sleep 0.5
	done
}

# The control: a running dtrace's objects are dtrace's to bpf_objects.py.
scenario 0
"$d" -n 'BEGIN { printf("ready\n"); }' "${args[@]}" > "$t/control" 2> "$t/err" &
dt=$!
for i in $(seq 600); do grep -q ready "$t/control" && break; kill -0 $dt 2>/dev/null || break; sleep 0.05; done
orphans $dt
echo "control: a running dtrace's objects, its holds disregarded, held by nobody: $([ -s "$t/orphans" ] && echo yes || echo no)"
kill -TERM $dt
wait $dt 2>/dev/null

before=$(probes_state)
leaks=0 orphaned=0 never_loaded=0 children=0 children_left=0 stopped=0 events_changed=0 target_harmed=0
for it in $(seq 0 $((iters - 1))); do
	s=$((it % nscen))
	after_load=$(( (it / nscen) % 2 ))
	scenario $s
	"$d" "${args[@]}" > /dev/null 2> "$t/err" &
	dt=$!
	: > "$t/noted"
	child= loaded=0
	if [ $after_load = 1 ]; then
		# Until its first program is loaded (or it exits), then 0-0.5 s more.
		for i in $(seq 600); do
			owned $dt >> "$t/noted"
			[ -z "$child" ] && child=$(pgrep -P $dt | head -1)
			grep -q '^prog' "$t/noted" && { loaded=1; break; }
			kill -0 $dt 2>/dev/null || break
			sleep 0.05
		done
		[ $loaded = 0 ] && { never_loaded=$((never_loaded + 1)); echo "iteration $it (scenario $s): no program loaded" >&2; cat "$t/err" >&2; }
		delay=$((RANDOM % 500))
	else
		delay=$((RANDOM % 1500))
	fi
	start=$(date +%s%N)
	while :; do
		owned $dt >> "$t/noted"
		[ -z "$child" ] && child=$(pgrep -P $dt | head -1)
		now=$(date +%s%N)
		[ $(( (now - start) / 1000000 )) -ge $delay ] && break
		kill -0 $dt 2>/dev/null || break
		sleep 0.02
	done
	kill -9 $dt 2>/dev/null
	wait $dt 2>/dev/null
	sort -u "$t/noted" -o "$t/noted"
	leftover "$t/noted" "$t/left"
	n=$(cat "$t/left")
	if [ "$n" != 0 ]; then
		leaks=$((leaks + n))
		echo "iteration $it (scenario $s, ${delay}ms): $n objects left:" >&2
		while read -r type id; do bpftool "$type" show id "$id" >&2 2>/dev/null; done < "$t/noted"
	fi
	orphans
	o=$(cat "$t/orphans")
	if [ -n "$o" ]; then
		orphaned=$((orphaned + $(echo "$o" | wc -l)))
		echo "iteration $it (scenario $s): held by nobody: $o" >&2
	fi
	if [ -n "$child" ]; then
		children=$((children + 1))
		for i in $(seq 100); do [ -d /proc/$child ] || break; sleep 0.1; done
		if [ -d /proc/$child ]; then
			st=$(awk '{print $3}' /proc/$child/stat 2>/dev/null)
			case $st in t|T) stopped=$((stopped + 1)) ;; esac
			children_left=$((children_left + 1))
			echo "iteration $it (scenario $s): -c child $child left, state $st" >&2
			kill -9 $child 2>/dev/null
		fi
	fi
	if [ "$(probes_state)" != "$before" ]; then
		events_changed=$((events_changed + 1))
		echo "iteration $it (scenario $s): uprobe_events/kprobe_events changed" >&2
		before=$(probes_state)
	fi
	st=$(awk '{print $3}' /proc/$ptarget/stat 2>/dev/null)
	case $st in t|T|"") target_harmed=$((target_harmed + 1)); echo "-p target state '$st'" >&2 ;; esac
done
echo "kills once a program was loaded, where none was: $never_loaded"
echo "noted objects left behind: $leaks"
echo "dtrace objects held by nobody: $orphaned"
echo "tracefs probe lists changed: $events_changed"
# Those killed once loaded always had their -c child: "none seen" would
# mean the check of children left checked nothing.
echo "-c children left: $children_left (stopped: $stopped) of $([ $children -gt 0 ] && echo some || echo none) seen"
echo "-p target stopped or gone: $target_harmed"
echo "teardown_kill: $iters kills" >&2
