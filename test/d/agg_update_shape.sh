#!/bin/bash
# The shape of the code an aggregation update, a thread-local read after
# a predicate on it and a thread-local cleared with 0 compile to: one
# update (one bucket computation) shared by the hit and the insert
# paths, the predicate's thread-local value reused, no store path for
# `= 0`; and the same results as without optimisation on a workload that
# inserts keys and updates them.
d=$1
n() { "$d" "$@" -e -S 2>&1; }
q='syscall::read:entry { @ = quantize(arg2); }'
echo "quantize: $(n -n "$q" | grep -c 'dt_rt_quantize_bucket') bucket call(s)"
l='syscall::read:entry { @ = llquantize(arg2, 10, 0, 6, 20); }'
echo "llquantize: $(n -n "$l" | grep -c 'dt_rt_llquantize_bucket') bucket call(s)"
c='syscall::getppid:entry { @[execname] = count(); }'
echo "count: $(n -n "$c" | grep -c ' += 1$') increment(s) of the value"
t='syscall::read:entry { self->ts = timestamp; }
 syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
echo "latency: $(n -n "$t" | grep -c '! dt_tls_0') thread-local map uses," \
	"$(n -x nooptimize -n "$t" | grep -c '! dt_tls_0') without optimisation;" \
	"$(n -n "$t" | grep -c 'call helper#2$') map updates"
s='syscall::getppid:entry /pid == $target/ { self->i++;
	@c[self->i % 3] = count(); @s[self->i % 2] = sum(self->i); @mn = min(self->i);
	@mx = max(self->i); @a = avg(self->i); @q = quantize(self->i);
	@lq = lquantize(self->i, 0, 10, 2); @llq = llquantize(self->i * 100, 10, 0, 3, 10);
	@sd = stddev(self->i); }
 END { printa(@c); printa(@s); printa(@mn); printa(@mx); printa(@a); printa(@q); printa(@lq);
	printa(@llq); printa(@sd); }'
a=$("$d" -q -c "$DT_WORKLOADS/getppid_loop 20" -n "$s" 2>&1)
b=$("$d" -x nooptimize -q -c "$DT_WORKLOADS/getppid_loop 20" -n "$s" 2>&1)
printf '%s\n' "$a"
[ "$a" = "$b" ] && echo "same without optimisation" || { echo "DIFFERS without optimisation:"; printf '%s\n' "$b"; }
