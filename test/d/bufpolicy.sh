#!/bin/bash
# bufpolicy: ring keeps the newest bufsize bytes of records, fill the first
# ones (then tracing stops, with a drop, and END still runs); both print
# when tracing stops.  Records here are 32 bytes (header and one 8-byte
# value), so 96 bytes hold three.
d=$1
w="$DT_WORKLOADS/getppid_loop 20"
prog='syscall::getppid:entry /pid == $target/ { printf("%d\n", ++n); }
END { printf("end %d\n", n); }'
for pol in ring fill switch; do
	echo "== $pol"
	"$d" -q -x bufpolicy=$pol -x bufsize=96 -c "$w" -n "$prog" 2>&1 | sed 's/on CPU [0-9]*/on CPU N/'
done
# exit() in a ring: its status, and what came before it.
echo "== ring exit"
"$d" -q -x bufpolicy=ring -x bufsize=96 -c "$w" -n '
syscall::getppid:entry /pid == $target/ { printf("%d\n", ++n); }
syscall::getppid:entry /pid == $target && n == 10/ { exit(7); }'
echo "rc=$?"
exit 0
