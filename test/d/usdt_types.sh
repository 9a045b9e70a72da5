#!/bin/bash
# USDT args[] are typed: as the provider definition declares them, in
# binaries built with the header of dtrace -h and with dtrace -G (a
# string argument is the user string, copied in; a translated argument
# has its translated type, a reordered one too, in its translated place:
# usdt_argmap.sh); and, for SystemTap notes, by the
# operand's size and sign (int32_t for "-4@", uint8_t for "1@"; the
# widest where a probe's sites differ; uint64_t without a size).  -lv
# lists the types; an index past the last argument is D_ARGS_IDX.
d=$1
w=$(cd "$(dirname "$0")" && pwd)/workloads
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
prog='
dtstap$target:::sized {
	printf("sized %d %u %d %u sizes %d %d %d %d\n", args[0], args[1], args[2], args[3],
	    sizeof (args[0]), sizeof (args[1]), sizeof (args[2]), sizeof (args[3]));
}
dtstap$target:::plain { printf("plain %d\n", args[0]); }
dtstap$target:::one { printf("one %d %d sizes %d %d\n", args[0], args[1], sizeof (args[0]), sizeof (args[1])); }
dttyped$target:::req { printf("req %s %d %s\n", args[0], args[1], copyinstr((uintptr_t)args[2])); }
dttyped$target:::narrow { printf("narrow %d %d\n", args[0], sizeof (args[0])); }
dttyped$target:::swapped { printf("swapped %d %d\n", arg0, arg1); }
dttyped$target:::none { printf("none\n"); }'
run() {
	"$d" -lv -c "./$1" -n 'dt*$target:::' | sed -n 's/^ *[0-9]* *dt\([a-z]*\)[0-9]* .* \([a-z]*\)$/\1 \2/p; /args\[\|None/p'
	"$d" -q -c "./$1" -n "$prog"
	"$d" -q -c "./$1" -n 'dttyped$target:::req { trace(args[3]); }' 2>&1 |
		sed 's/dttyped[0-9]*:/dttyped:/'
}
echo "== dtrace -h"
"$d" -h -s "$w/usdt_typed.d" -o usdt_typed.h || exit 1
cc -O2 -DHEADER -I. -o header_typed "$w/usdt_typed.c" || exit 1
run header_typed
echo "== dtrace -G"
cc -O2 -DCALLS -c -o calls_typed.o "$w/usdt_typed.c" || exit 1
"$d" -G -s "$w/usdt_typed.d" calls_typed.o || exit 1
cc -o calls_typed calls_typed.o usdt_typed.o || exit 1
run calls_typed
