#!/bin/sh
# aggsize holds as many entries as DTrace's: an entry takes its key (a
# string key strsize bytes, however short the strings in it) and its
# value; the entries that do not fit are aggregation drops.
d=$1
t=$(mktemp)
trap 'rm -f "$t"' EXIT
# stdout, then stderr (the drops), CPU numbers left out.
run() { "$d" "$@" 2>"$t"; sed 's/CPU [0-9]*/CPU N/' "$t"; }
# strsize 256: 256 + 8 (count) = 264 bytes an entry, 3 in 800 bytes.
run -q -x strsize=256 -x aggsize=800 -n 'BEGIN {
	@["a"] = count(); @["b"] = count(); @["c"] = count(); @["d"] = count(); @["e"] = count();
	exit(0); }'
# Integer keys: 8 + 8 bytes, 4 in 64 bytes.
run -q -x aggsize=64 -n 'BEGIN {
	@[1] = sum(1); @[2] = sum(2); @[3] = sum(3); @[4] = sum(4); @[5] = sum(5); @[6] = sum(6);
	exit(0); }'
# Less than one entry: the enabling is refused, as DTrace refuses it.
run -q -x strsize=256 -x aggsize=200 -n 'BEGIN { @[execname] = count(); exit(0); }'
