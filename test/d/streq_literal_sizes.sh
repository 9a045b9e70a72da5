#!/bin/bash
# The inlined string == literal compares (streq_literal.d) give what the
# run-time's strcmp gives (-x nooptimize) whatever strsize cuts strings
# and literals to; an inlined predicate calls no strcmp.
d=$1
here=$(dirname "$0")
for ss in 4 8 16 17 256; do
	a=$("$d" -x strsize=$ss -s "$here/streq_literal.d" 2>&1)
	b=$("$d" -x nooptimize -x strsize=$ss -s "$here/streq_literal.d" 2>&1)
	[ "$a" = "$b" ] && echo "strsize $ss: same as strcmp" ||
		{ echo "strsize $ss: DIFFERS:"; diff <(echo "$a") <(echo "$b"); }
done
p='syscall::getppid:entry /execname == "bench_work"/ { @ = count(); }'
echo "strcmp calls: $("$d" -e -S -n "$p" 2>&1 | grep -c 'dt_rt_strcmp')," \
	"without optimisation: $("$d" -x nooptimize -e -S -n "$p" 2>&1 | grep -c 'dt_rt_strcmp')"
