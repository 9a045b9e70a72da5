#!/bin/bash
# exit() and END as DTrace has them: the actions after exit() in its clause
# still run, later BEGIN clauses do not, every END clause does (in order),
# an exit() in END sets the status again (the last exit() read decides),
# aggregations are printed after END (the count made in BEGIN and END); a probe that fires after exit() on
# this CPU runs no clause.
d=$1
"$d" -q -n '
BEGIN { printf("begin 1\n"); exit(3); printf("after exit, same clause\n"); @a = count(); }
BEGIN { printf("begin 2 (never)\n"); }
tick-1ms { printf("tick (never)\n"); }
END { printf("end 1\n"); @a = count(); }
END { printf("end 2\n"); exit(5); printf("after exit in END\n"); }
END { printf("end 3\n"); }'
echo "status $?"
# exit() in END alone: the status, after the -c command ended.
"$d" -q -c /bin/true -n 'END { exit(7); }'
echo "status $?"
# exit(0) in BEGIN after an exit(4) in an earlier clause of another probe: never reached.
"$d" -q -n 'BEGIN { exit(4); } BEGIN { exit(0); }'
echo "status $?"
