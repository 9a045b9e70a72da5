#!/bin/bash
# if/else in the other output forms.  DTrace makes each basic block of a
# clause (before, in and after each branch) a clause of its own: without
# -q each block whose actions ran is a line of its own (a block without
# actions, or in a branch not taken, prints none); -x oformat=json has an
# object per such block with only its actions; -F indents as usual.
command -v python3 >/dev/null || { echo "python3 is not installed: the JSON is checked with jsonl.py" >&2; exit 77; }
d=$1
echo "-- text"
_DTRACE_TESTING=1 "$d" -n '
BEGIN { x = 5; if (x > 2) trace(x); else trace(x + 1); }
BEGIN { if (x > 10) { trace("not taken"); } }
BEGIN { if (x > 10) { trace("not taken"); } trace("always"); }
BEGIN { if (x < 10) { if (x < 1) trace("inner not taken"); trace("outer"); } }
BEGIN { trace("before"); if (x > 2) { trace("in"); } else { trace("not taken"); } trace("after"); }
BEGIN { exit(0); }' 2>/dev/null
echo "-- json"
"$d" -q -x oformat=json -n '
BEGIN { a = 0; trace(0); if (a) { trace(1); printf("x%d", 2); } else { trace(3); } }
BEGIN { if (a) { printf("not taken"); } }
BEGIN { if (!a) { printf("%d", 4); exit(0); } }' 2>/dev/null |
	python3 jsonl.py '
for e in ev:
    print(e["event"], [(a["action"], [x["value"] for x in a.get("args", [])]) for a in e["actions"]])'
echo "-- flowindent"
w="$DT_WORKLOADS/pid_work 2"
_DTRACE_TESTING=1 "$d" -F -c "$w" -n '
pid$target:a.out:twice:entry { trace("pre"); if (arg0 > 100) { trace("not taken"); } else { trace(arg0); } }
pid$target:a.out:twice:return { if (arg1 > 100) { trace("not taken"); } }
pid$target:a.out:twice:return { trace("return"); }' 2>/dev/null
exit 0
