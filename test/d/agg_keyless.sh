#!/bin/bash
# Aggregations without keys (a one-entry per-CPU array each, whose entry
# always exists): one never updated prints nothing, one updated to zero
# prints its zero (sum(0), an increment of 0, sums that cancel, min(0));
# clear() keeps it, its value emptied, for the next update; trunc() takes
# it away until the next; printa() of several, some never updated;
# normalize(); min(), max() and avg() of values from one CPU of several
# (the others' untouched entries are not values of 0).
d=$1
echo "-- never updated, and updated to zero"
"$d" -q -n '
BEGIN { never = 0; }
BEGIN /never/ { @c = count(); @s = sum(1); @q = quantize(1); @mn = min(1); @a = avg(1); }
BEGIN {
	@z = sum(0); @cancel = sum(5); @cancel = sum(-5); @m = min(0); @x = max(0);
	@av = avg(0); @sd = stddev(0); @zq = quantize(5, 0); @zl = lquantize(3, 0, 4, 1, 0);
	exit(0);
}'
echo "-- clear() and trunc(), then updates in a later firing"
"$d" -q -c "$DT_WORKLOADS/getppid_loop 1" -n '
BEGIN {
	@c = count(); @s = sum(3); @q = quantize(4); @m = max(-3); @n = min(3);
	@t = count(); @tq = quantize(4); @k = count(); @r = count(); @r = count();
	clear(@c); clear(@s); clear(@q); clear(@m); clear(@n);
	trunc(@t); trunc(@tq); trunc(@k, 1); trunc(@r);
}
BEGIN {
	printa("c %@d\n", @c); printa("s %@d\n", @s); printa("t %@d\n", @t);
	printa("k %@d\n", @k); printa("r %@d\n", @r); printa(@q); printa(@tq);
	printa("both %@d %@d\n", @c, @t); printa("neither %@d %@d\n", @t, @tq);
}
syscall::getppid:entry /pid == $target/ {
	@r = count(); @n = min(8); @m = max(-9); @s = sum(10); @t = count();
}
END {
	printa("r %@d\n", @r); printa("n %@d\n", @n); printa("m %@d\n", @m);
	printa("t %@d\n", @t); normalize(@s, 5); printa("s/5 %@d\n", @s);
}'
echo "-- one CPU of several"
if [ "$(nproc)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "one CPU (or no taskset): min/max from one CPU of several cannot be checked" >&2
	exit 77
fi
"$d" -q -c "taskset -c 1 $DT_WORKLOADS/getppid_loop 4" -n '
syscall::getppid:entry /pid == $target/ {
	i++; @mn = min(6 + i); @mx = max(-6 - i); @a = avg(8 + i); @s = sum(i - 1);
}
END { printa("min %@d max %@d avg %@d sum %@d\n", @mn, @mx, @a, @s); }'
