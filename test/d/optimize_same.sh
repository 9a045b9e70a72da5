#!/bin/bash
# The optimisation passes change the code, never what it computes: the
# same scripts with and without -x nooptimize print the same, and the
# passes leave fewer instructions than the code generator emits.  The
# scripts lean on what the passes transform: constants and frame
# addresses, spilled and reloaded values, copies before calls, self->
# variables, aggregations keyed on strings, a predicate, copyinstr().
d=$1
w="$DT_WORKLOADS/getppid_loop 7"
scripts=(
'BEGIN { a = 6; b = a * 7; c = b - (a << 2) + (b >> 1); x[a, "k"] = c; y = x[6, "k"] * 3;
	printf("%d %d %d %d\n", a, b, c, y); s = strjoin("ab", "cd"); printf("%s %d\n", s, strlen(s));
	exit(0); }'
'syscall::getppid:entry /pid == $target/ { self->ts = timestamp; self->n++; }
 syscall::getppid:return /pid == $target && self->ts/ { @q = quantize(self->n); @c[execname] = count();
	@s = sum(self->n * 2 + 1); self->ts = 0; }
 END { printa(@q); printa("%s %@d\n", @c); printa(@s); }'
'syscall::getppid:entry /pid == $target && execname == "getppid_loop"/ { @n = count(); @m = max(arg0 + 5); }
 END { printa("%@d %@d\n", @n, @m); }'
'BEGIN { i = 0; j = 1; k = (i == 0) ? j + 10 : j - 10; printf("%d %d %d %d\n", i, j, k, -k % 7); exit(0); }'
)
for s in "${scripts[@]}"; do
	a=$("$d" -qs /dev/stdin -c "$w" <<<"$s" 2>&1)
	b=$("$d" -x nooptimize -qs /dev/stdin -c "$w" <<<"$s" 2>&1)
	printf '%s\n' "$a"
	[ "$a" = "$b" ] && echo "same without optimisation" || { echo "DIFFERS without optimisation:"; printf '%s\n' "$b"; }
done
count() { "$d" "$@" -e -S -n 'syscall::getppid:entry { @[execname] = count(); }' 2>&1 | grep -c '^[0-9]\{4\} '; }
o=$(count); n=$(count -x nooptimize)
[ "$o" -gt 0 ] && [ "$o" -lt "$n" ] && echo "fewer instructions" || echo "instructions: $o optimised, $n not"
