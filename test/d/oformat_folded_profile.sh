#!/bin/bash
# A profile as flame-graph input: profile-997 { @[ustack()] = count(); }
# of a workload that spends nine tenths of its work in hot_spin()
# (prof_work.c), with -x oformat=folded.  Every line is one stack (frames
# and a count; an empty stack, sampled before the program's user stack
# exists, has no frames), no frame has an offset, and the hottest line
# ends in hot_spin, called from main.
# Sample counts vary with the machine: only which line is hottest is
# checked.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$1" -x oformat=folded -qn 'profile-997 /pid == $target/ { @[ustack()] = count(); }' \
	-c "$DT_WORKLOADS/prof_work" > "$t/out" || echo "dtrace failed: $?"
awk '
!/^([^ ].*)? [0-9]+$/ { bad++ }
/\+0x[0-9a-f]+(;| [0-9]+$)/ { off++ }
{ n = $NF; if (n > max) { max = n; line = $0 } }
END {
	print "lines that are not a stack and a count:", bad + 0
	print "frames with an offset:", off + 0
	sub(/ [0-9]+$/, "", line)
	k = split(line, f, ";")
	print "hottest line ends in:", f[k]
	print "called from:", f[k - 1]
}' "$t/out"
