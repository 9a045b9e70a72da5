#!/bin/bash
# tracemem(): the two- and three-argument forms (the third argument limits
# what is printed when it is between 0 and the size), quiet and not.
d=$1
w=$DT_WORKLOADS/open_missing
pred='/pid == $target && copyinstr(arg1) == "/nonexistent/dtrace-test"/'
"$d" -q -c "$w" -n "syscall::openat:entry $pred {
	this->p = copyin(arg1, 24);
	tracemem(this->p, 24);
	tracemem(this->p, 24, 12);
	tracemem(this->p, 24, -1);
	tracemem(this->p, 24, 0);
	tracemem(this->p, 24, 30);
	printf(\"|\n\");
}"
# Not quiet: after the probe's name (testing mode: no CPU and ID columns).
_DTRACE_TESTING=1 "$d" -c "$w" -n "syscall::openat:entry $pred {
	tracemem(copyin(arg1, 4), 4);
}" 2>/dev/null
# A bad address is an invalid address fault.
"$d" -q -n 'BEGIN { tracemem(8, 4); } BEGIN { exit(0); }' 2>&1 | sed 's/pc [0-9]*/pc N/'
# DTrace's compile-time checks.
"$d" -xerrtags -n 'BEGIN { tracemem(8, 0); }' 2>&1
"$d" -xerrtags -n 'BEGIN { tracemem(8, -1); }' 2>&1
"$d" -xerrtags -n 'BEGIN { tracemem(8, "a"); }' 2>&1
"$d" -xerrtags -n 'BEGIN { tracemem(8, 4, 4, 4); }' 2>&1
"$d" -xerrtags -n 'struct s { int a; } x; BEGIN { tracemem(x, 4); }' 2>&1
exit 0
