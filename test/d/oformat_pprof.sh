#!/bin/bash
# -x oformat=pprof -o FILE: the profile of a workload that spends nine
# tenths of its work in hot_spin() (prof_work.c), read by go tool pprof
# (Debian's golang-go): its top function by samples is hot_spin, the file
# is the workload's profile (its first mapping), the sample type is the
# aggregation's, in units of count; a sum() of time differences is in
# nanoseconds (its stacks, taken at hot_spin's return, are main's); an
# aggregation pprof cannot add up (max) and one without a
# stack are printed as text on stdout; nothing but the profile is left in
# its directory.  Sample counts vary: only which function is on top is
# checked.
command -v go >/dev/null || { echo "go (golang-go) is not installed: go tool pprof reads the profile" >&2; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/out" "$t/home"
export HOME=$t/home PPROF_TMPDIR=$t/home
"$1" -x oformat=pprof -o "$t/out/profile.pb.gz" -qn '
profile-997 /pid == $target/ { @cpu[ustack()] = count(); }
pid$target::hot_spin:entry { self->t = timestamp; }
pid$target::hot_spin:return /self->t/ { @oncpu[ustack()] = sum(timestamp - self->t); self->t = 0; }
pid$target::cold_spin:entry { @most[ustack(1)] = max(1); @calls[probefunc] = count(); }
' -c "$DT_WORKLOADS/prof_work" || echo "dtrace failed: $?"
ls "$t/out"
top() {
	go tool pprof "$@" -top "$t/out/profile.pb.gz" 2> "$t/err" > "$t/top" || cat "$t/err"
	awk '/^ *flat  *flat%/ { getline; print "top function:", $NF }
	     /^File:/ { print "file:", $2 }
	     /^Type:/ { print "type:", $2 }
	     /^Showing nodes/ { print "unit:", ($5 ~ /^[0-9]+,$/ ? "count" : ($5 ~ /s,$/ ? "time" : $5)) }' "$t/top"
}
top
top -sample_index=oncpu
