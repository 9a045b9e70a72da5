#!/bin/bash
# exit() in an if/else branch: it acts only when its branch runs.  DTrace
# makes each basic block of the clause a clause of its own, so once a
# branch called exit() the statements after the if do not run, as the
# probe's later clauses do not; END runs, and in END every block runs.
# In ERROR clauses too.
d=$1
w="$DT_WORKLOADS/getppid_loop 10"
echo "-- BEGIN"
"$d" -q -n 'BEGIN { x = 1; if (x) exit(3); printf("after the if\n"); }
	BEGIN { printf("later clause\n"); }
	END { printf("end\n"); }'
echo "rc=$?"
echo "-- a branch not taken, then taken"
"$d" -q -c "$w" -n 'syscall::getppid:entry /pid == $target/ {
		n++;
		if (n > 3) { exit(7); } else { printf("call %d\n", n); }
		printf("after %d\n", n);
	}
	END { printf("n=%d\n", n); }'
echo "rc=$?"
echo "-- END"
"$d" -q -n 'BEGIN { exit(1); } END { if (0) { exit(6); } else if (1) { exit(5); } printf("end still runs\n"); }'
echo "rc=$?"
"$d" -q -n 'BEGIN { exit(2); } END { x = 0; if (x) { exit(6); } printf("end\n"); }'
echo "rc=$?"
echo "-- ERROR"
"$d" -q -n 'BEGIN { trace(*(int *)0); }
	ERROR { if (arg4 == 1) { printf("fault %d\n", arg4); exit(4); } else { exit(9); } }' 2>/dev/null
echo "rc=$?"
exit 0
