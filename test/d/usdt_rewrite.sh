#!/bin/bash
# dtrace -G with objects using DTrace's <sys/sdt.h> convention (calls of
# __dtrace_<provider>___<probe>): the calls become probe sites with
# stapsdt notes, arguments from the call's registers and stack; running
# -G twice changes nothing more; the program links with the -G object and
# its probes fire in the functions that make the calls.
command -v cc >/dev/null || { echo "cc is not installed: the workload is built here" >&2; exit 77; }
d=$1
w=$(cd "$(dirname "$0")" && pwd)/workloads
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
cp "$w/usdt_calls.d" prov.d
cc -O0 -c -o usdt_calls.o "$w/usdt_calls.c" || exit 1
"$d" -G -s prov.d usdt_calls.o || exit 1
"$d" -G -s prov.d usdt_calls.o || exit 1
# The -G object is never one of the objects it is for.
"$d" -G -s prov.d -o usdt_calls.o usdt_calls.o 2>&1
echo "objects: $(ls *.o | tr '\n' ' ')"
cc -o usdt_calls usdt_calls.o prov.o || exit 1
./usdt_calls
echo "alone: exit status $?"
"$d" -q -c ./usdt_calls -n '
dtcall$target:::one { printf("%s %s %s %d\n", probemod, probefunc, probename, arg0); }
dtcall$target:::eight { printf("%s %s %d %d %d %d\n", probefunc, probename, arg0, arg5, arg6, arg7); }'
echo "traced: exit status $?"
