#!/bin/bash
# exit() in an if/else branch: it acts only when its branch runs.  The
# statements after the if still run in that firing (one clause, as in C);
# the probe's later clauses do not, and END does (as after any exit()).
# In END and ERROR clauses too.
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
"$d" -q -n 'BEGIN { exit(1); } END { if (0) { exit(6); } else if (1) { exit(5); } }'
echo "rc=$?"
"$d" -q -n 'BEGIN { exit(2); } END { x = 0; if (x) { exit(6); } printf("end\n"); }'
echo "rc=$?"
echo "-- ERROR"
"$d" -q -n 'BEGIN { trace(*(int *)0); }
	ERROR { if (arg4 == 1) { printf("fault %d\n", arg4); exit(4); } else { exit(9); } }' 2>/dev/null
echo "rc=$?"
exit 0
