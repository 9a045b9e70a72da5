#!/bin/bash
# A USDT probe declared with a translated argument list, probe p(native) :
# (translated), has the translated arguments as its own: each is the
# native argument of its name, else the one in its place; one may be used
# twice or not at all.  argN and args[N] follow that list and args[N] has
# its declared type (-lv lists them), in binaries built with the header
# of dtrace -h and with dtrace -G alike.
command -v cc >/dev/null || { echo "cc is not installed: the workload is built here" >&2; exit 77; }
d=$1
w=$(cd "$(dirname "$0")" && pwd)/workloads
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
prog='
dtmap$target:::dup { printf("dup %s %d %d\n", copyinstr((uintptr_t)args[0]), args[1], arg2); }
dtmap$target:::drop { printf("drop %d %d\n", arg0, args[0]); }
dtmap$target:::gone { printf("gone\n"); }
dtmap$target:::pos { printf("pos %d %d size %d\n", args[0], arg1, sizeof (args[0])); }'
run() {
	"$d" -lv -c "./$1" -n 'dtmap$target:::' | sed -n 's/^ *[0-9]* *dtmap[0-9]* .* \([a-z]*\)$/\1/p; /args\[\|None/p'
	"$d" -q -c "./$1" -n "$prog"
}
echo "== dtrace -h"
"$d" -h -s "$w/usdt_argmap.d" -o usdt_argmap.h || exit 1
cc -O2 -DHEADER -I. -o header_argmap "$w/usdt_argmap.c" || exit 1
run header_argmap
echo "== dtrace -G"
cc -O2 -DCALLS -c -o calls_argmap.o "$w/usdt_argmap.c" || exit 1
"$d" -G -s "$w/usdt_argmap.d" calls_argmap.o || exit 1
cc -o calls_argmap calls_argmap.o usdt_argmap.o || exit 1
run calls_argmap
