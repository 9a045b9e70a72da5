#!/bin/bash
# pid provider in a shared library: "libc.so" names libc.so.6, a module
# glob, entry and return of getpid(); function globs over the executable's
# symbol table (work and twice, not main).
"$1" -q -c "$DT_WORKLOADS/pid_work 6" -n '
pid$target:libc.so:getpid:entry { @[probemod, probefunc, probename] = count(); }
pid$target:libc*:getpid:return /arg1 == $target/ { @[probemod, probefunc, probename] = count(); }
pid$target:a.out:[tw][wo]*:entry { @[probemod, probefunc, probename] = count(); }
END { printa("%s:%s:%s %@d\n", @); }'
