#!/bin/bash
# usdt end to end: dtrace -h writes the header for workloads/usdt_prov.d,
# cc builds usdt_work with it (-O0: arguments in memory, -O2: registers and
# constants), and the probes fire with their arguments, probefunc, and
# "__" in probe names read as "-".  The is-enabled test is true only while
# its probe is enabled (the semaphore): not when the program runs alone,
# nor when only other probes are enabled.
command -v cc >/dev/null || { echo "cc is not installed: the workload is built here" >&2; exit 77; }
d=$1
w=$(cd "$(dirname "$0")" && pwd)/workloads
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
"$d" -h -s "$w/usdt_prov.d" -o usdt_prov.h || exit 1
for opt in -O0 -O2; do
	echo "== $opt"
	cc $opt -Wall -Werror -I. -o usdt_work "$w/usdt_work.c" || exit 1
	./usdt_work 3
	"$d" -q -c "./usdt_work 3 $t/out" -n '
dttest$target:::tick { printf("%s %s %s %d %s %d\n", probemod, probefunc, probename, arg0, copyinstr(arg1), arg2); }
dttest$target::main:mixed { printf("%s %d %d %d %d %d\n", probename, arg0, arg1, arg2, arg3, arg4); }
dttest$target:::is_on { printf("%s %d\n", probename, arg0); }
dttest$target:usdt_work::dash-name { n++; }
END { printf("dash-name %d\n", n); }'
	cat "$t/out"
	"$d" -q -c "./usdt_work 2 $t/out" -n 'dttest$target:::tick { n++; } END { printf("ticks %d\n", n); }'
	cat "$t/out"
done
