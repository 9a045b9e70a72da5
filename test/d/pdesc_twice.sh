#!/bin/bash
# As DTrace, each probe description of a clause is a clause of its own: a
# probe that two descriptions of one clause match runs the clause twice, and
# counts twice in "matched N probes"; a predicate is evaluated each time.
d=$1
"$d" -q -n 'BEGIN, dtrace:::BEGIN, BEGIN { n++; @ = count(); } BEGIN { printf("n %d\n", n); exit(0); }'
"$d" -q -n 'BEGIN, BEGIN /n < 1/ { n++; } BEGIN { printf("n %d\n", n); exit(0); }'
"$d" -q -n 'tick-1ms, profile:::tick-1ms { @[probename] = count(); } tick-1ms /++i == 3/ { exit(0); }'
"$d" -n 'BEGIN, dtrace:::BEGIN { exit(0); }' 2>&1 >/dev/null
