#!/bin/bash
# -x oformat=json: one JSON object per record, with the probe, CPU,
# timestamps, each action's formatted output and typed values.  Strings
# with control characters and bytes that are not UTF-8 stay valid JSON
# (the raw bytes in hex beside them); 64-bit extremes are exact.
command -v python3 >/dev/null || { echo "python3 is not installed: the JSON is checked with jsonl.py" >&2; exit 77; }
d=$1
t=/tmp/dt_json_rec_$$
"$d" -x oformat=json -n 'BEGIN {
	printf("%s|%s|%d\n", "a\xff\x62\377c\x80", "\033[0m\t\"q\"\\/", -5);
	trace((uint64_t)0xffffffffffffffff);
	trace((int64_t)0x8000000000000000);
	trace((char)-1);
	trace((uint8_t)255);
	trace("caf\xc3\xa9");
	trace(timestamp);
	exit(7);
}' > $t.out 2> $t.err
echo "rc=$?"
python3 jsonl.py '
import time
e = ev[0]
print(e["event"], sorted(e))
p = e["probe"]
print(p["provider"], repr(p["module"]), repr(p["function"]), p["name"], p["id"] > 0)
print("cpu int:", isinstance(e["cpu"], int))
print("walltime now:", abs(e["walltimestamp"] - time.time_ns()) < 120 * 10**9)
a = e["actions"]
print([x["action"] for x in a])
print(repr(a[0]["format"]), repr(a[0]["output"]), a[0]["output_hex"])
for v in a[0]["args"]:
    print(" arg", v)
for x in a[1:6] + a[7:]:
    print(" ", x["args"])
print("timestamp traced == record timestamp:", a[6]["args"][0]["value"] == e["timestamp"])
' < $t.out
grep -c "matched 1 probe" $t.err

# The pragma, -o, and several records in order with the default action.
printf '#pragma D option oformat=json\n#pragma D option quiet\nBEGIN { i = 0; }\ntick-1ms /i < 3/ { printf("%%d\\n", i++); }\ntick-1ms /i == 3/ { exit(0); }\n' > $t.d
"$d" -s $t.d -o $t.json; echo "rc=$?"
python3 jsonl.py '
print([a["output"] for x in ev for a in x["actions"] if a["action"] == "printf"])
print("ticks:", [x["probe"]["name"] for x in ev])
ts = [x["timestamp"] for x in ev]
print("timestamps increase:", ts == sorted(ts))
' < $t.json
"$d" -x oformat=json -n 'dtrace:::BEGIN' -n 'BEGIN { exit(0); }' 2>/dev/null | python3 jsonl.py '
print([(x["probe"]["name"], x["actions"]) for x in ev])'
rm -f $t.out $t.err $t.d $t.json
