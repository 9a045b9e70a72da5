#!/bin/bash
# -x oformat=json: aggregations as one object each, from printa() (then
# not printed again at exit) and at exit; keys as typed values, sorted as
# printa sorts; avg/stddev with count and sum; quantize, lquantize and
# llquantize as the buckets with data and the values each holds;
# normalize() divides what is printed.
command -v python3 >/dev/null || { echo "python3 is not installed: the JSON is checked with jsonl.py" >&2; exit 77; }
d=$1
"$d" -x oformat=json -q -n 'BEGIN {
	@c["b"] = count(); @c["b"] = count(); @c["a"] = count(); @c["c\x01\xff"] = count();
	@s[1, "x"] = sum(-5); @s[2, "y"] = sum((int64_t)1 << 62); @s[2, "y"] = sum((int64_t)1 << 61);
	@mn = min(-7); @mn = min(3); @mx = max(9); @mx = max((int64_t)-1 << 63);
	@av = avg(3); @av = avg(4); @sd = stddev(2); @sd = stddev(6);
	@q = quantize(0); @q = quantize(-3); @q = quantize(1000, 5); @q = quantize(0x7fffffffffffffff);
	@l = lquantize(-1, 0, 100, 10); @l = lquantize(55, 0, 100, 10); @l = lquantize(100, 0, 100, 10);
	@ll = llquantize(0, 10, 0, 6, 20); @ll = llquantize(7, 10, 0, 6, 20);
	@ll = llquantize(1234, 10, 0, 6, 20); @ll = llquantize(-20, 10, 0, 6, 20);
	@n[3] = sum(100); normalize(@n, 10);
	printa(@c);
	printa("min %@d\n", @mn);
	exit(0);
}' | python3 jsonl.py '
print("probe", [a["action"] for a in ev[0]["actions"]], ev[0]["actions"][-2].get("format"))
for e in ev[1:]:
    t = e["trigger"], e["name"], e["function"], e["key_types"], e.get("normal")
    print(e["event"], *t, "ts" if "timestamp" in e else "-")
    for x in e["entries"]:
        print("   ", {k: v for k, v in x.items()})
print("printed once:", len([e for e in ev if e.get("name") == "c"]) == 1)
'
# printa() in a loop: one snapshot per call, none at exit (printed already).
"$d" -x oformat=json -q -n 'tick-1ms { @n = count(); i++; printa(@n); } tick-1ms /i == 3/ { exit(0); }' |
	python3 jsonl.py '
print([(e["event"], e.get("trigger")) for e in ev if e["event"] == "aggregation"])
print("values >= 1:", all(e["entries"][0]["value"] >= 1 for e in ev if e["event"] == "aggregation"))
print("probe records:", len([e for e in ev if e["event"] == "probe"]))
'
# An empty aggregation: printa shows it with no entries; exit prints nothing.
"$d" -x oformat=json -q -n 'BEGIN { @e = count(); trunc(@e); printa(@e); @z = sum(1); trunc(@z); exit(0); }' |
	python3 jsonl.py 'print([(e["event"], e.get("name"), e.get("entries")) for e in ev])'
