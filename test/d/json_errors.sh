#!/bin/bash
# -x oformat=json: run-time faults, consumer errors and drops are objects
# in the stream too (and still DTrace's messages on stderr); system()'s
# output is captured into its record instead of breaking the stream.
command -v python3 >/dev/null || { echo "python3 is not installed: the JSON is checked with jsonl.py" >&2; exit 77; }
d=$1
t=/tmp/dt_json_err_$$
"$d" -x oformat=json -q -n 'BEGIN { x = *(int *)8; printf("not reached\n"); }
	BEGIN { setopt("nosuchoption"); }
	ERROR { printf("ERROR fault %d addr %d\n", arg4, arg5); }
	BEGIN { exit(0); }' > $t.out 2> $t.err
echo "rc=$?"
python3 jsonl.py '
for e in ev:
    if e["event"] == "fault":
        p = e["probe"]
        print("fault", p["provider"], p["name"], e["clause"], e["fault"], e["fault_code"],
              e["address"], isinstance(e["pc"], int), e["timestamp"] > 0)
        print("  ", e["message"].replace(str(e["pc"]), "PC"))
    elif e["event"] == "error":
        print("error", e["message"])
    else:
        print(e["event"], [(a["action"], a.get("output")) for a in e["actions"]])
' < $t.out
sed -E 's/at BPF pc [0-9]+/at BPF pc PC/' $t.err

# Drops: the JSON drop counts plus the records printed are the events.
n=200000
"$d" -q -x oformat=json -b 4k -x switchrate=10hz -c "$DT_WORKLOADS/getppid_loop $n" \
	-n 'syscall::getppid:entry /pid == $target/ { printf("x\n"); }' \
	2> $t.err | { sleep 1; cat; } > $t.out
python3 jsonl.py '
drops = [e for e in ev if e["event"] == "drop"]
recs = [e for e in ev if e["event"] == "probe"]
print("dropped some:", sum(e["count"] for e in drops) > 0)
print("kinds:", sorted(set((e["kind"], e["tag"]) for e in drops)))
print("all accounted:", len(recs) + sum(e["count"] for e in drops) == '$n')
print("messages:", all(e["message"] == "%d drop%s on CPU %d" % (e["count"], "s" if e["count"] > 1 else "", e["cpu"]) for e in drops))
' < $t.out | sed 's/^valid: [0-9]* objects$/valid/'
echo "stderr drops: $(grep -c 'drops\{0,1\} on CPU' $t.err | sed 's/^[1-9][0-9]*$/some/')"

# system(): its stdout goes into the record, the stream stays JSON.
"$d" -w -q -x oformat=json -n 'BEGIN { system("printf \"%s\\001\\n\" %d", "hi", 42); exit(0); }' |
	python3 jsonl.py 'print([(a["action"], a.get("command"), a.get("stdout")) for a in ev[0]["actions"]])'
rm -f $t.out $t.err
