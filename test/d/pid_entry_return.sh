#!/bin/bash
# pid provider with -c: entry (arguments), return (arg1 the return value,
# arg0 0), an instruction offset, probemod as the executable's name and
# a.out accepted for it, in a position-independent executable.
"$1" -q -c "$DT_WORKLOADS/pid_work 4" -n '
pid$target:a.out:work:entry { printf("%s %s %s %d %d\n", probemod, probefunc, probename, arg0, arg1); }
pid$target:pid_work:work:return { printf("%s %s %d %d\n", probefunc, probename, arg0, arg1); }
pid$target:a.out:work:3 { printf("%s %s %d %d\n", probefunc, probename, arg0, arg1); }
pid$target:a.out:twice:return { @ret[probefunc] = sum(arg1); }
pid$target:a.out:twice:entry { @calls[probefunc] = count(); }
END { printa("calls %s %@d\n", @calls); printa("sum %s %@d\n", @ret); }'
