#!/bin/bash
# -x nolibs: the stable providers' translated argument types are the D
# library's, unknown without it (as DTrace lists them); a string and the
# kernel's types stay known.  NULL is still defined.
d=$1
for p in io:::start proc:::exec sched:::enqueue; do
	"$d" -xnolibs -lvn "$p" | sed -n '/Argument Types/,$p'
done
"$d" -xnolibs -qn 'BEGIN { printf("%d\n", NULL); exit(0); }'
