#!/bin/bash
# -x oformat=openmetrics -o FILE: every aggregation as Prometheus text in
# a file written whole at each printa() (holding each aggregation as it
# was last printed: a system() run right after printa(@calls) sees only
# @calls) and at exit: names, label names from the keys' variables (else
# key0, key1 ...), label values escaped, counters (with _total) and
# gauges (a cleared count(), a signed sum(), avg()), lquantize() and
# llquantize() as cumulative histograms, quantize() with all its 127
# buckets; records stay text on stdout.  promtool (Debian's prometheus)
# checks the file, and the file of a live system-call profile, whose
# getppid count is exact.
command -v promtool >/dev/null || { echo "promtool (prometheus) is not installed: it checks the metrics" >&2; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/out"
f=$t/out/dtrace.prom
"$1" -w -x oformat=openmetrics -o "$f" -qn '
BEGIN {
	this->name = "read";
	this->fd = 3;
	@calls[this->name, this->fd] = count();
	@calls[this->name, this->fd] = count();
	this->name = "wr\"i\\te\n";
	@calls[this->name, this->fd] = count();
	@bytes[probename, 1 + 2] = sum(-5);
	@ubytes = sum((uint64_t)4096);
	@lat = lquantize(5, 0, 20, 10);
	@lat = lquantize(15, 0, 20, 10);
	@lat = lquantize(25, 0, 20, 10);
	@ll = llquantize(7, 10, 0, 2, 10);
	@ll = llquantize(1234, 10, 0, 2, 10);
	@q = quantize(3);
	@q = quantize(1000);
	@av = avg(4);
	@av = avg(6);
	@cl["x"] = count();
	clear(@cl);
	printa(@calls);
	system("cat %s", $$1);
	printf("text on stdout\n");
	exit(0);
}' "$f" || echo "dtrace failed: $?"
echo "--- the file at exit"
# quantize(): the bucket lines only where the count changes.
awk '/^q_bucket/ { n++; if ($NF == last) next; last = $NF } { print } END { print "q_bucket lines:", n }' "$f"
promtool check metrics < "$f" && echo "promtool: ok"
ls "$t/out"

"$1" -x oformat=openmetrics -o "$f" -qn '
syscall:::entry /pid == $target/ {
	@calls[probefunc] = count();
	@arg0[probefunc] = quantize(arg0);
	@sd[execname] = stddev(arg0);
	@ret[ustack()] = count();
}' -c "$DT_WORKLOADS/getppid_loop 1000" || echo "dtrace failed: $?"
promtool check metrics < "$f" && echo "promtool: ok"
grep '^calls_total{probefunc="getppid"}' "$f"
