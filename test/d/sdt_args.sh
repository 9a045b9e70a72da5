#!/bin/bash
# sdt: args[] have the tracepoint fields' C types (arrays are addresses
# in the record, __data_loc strings are char *); the -c child's shell
# forks and execs, renaming the task.
d=$1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '/bin/true\nexec /bin/true\n' > "$t/forks_and_execs"
"$d" -lv -n sdt:task::task_rename | sed -n '/Argument Types/,$p'
"$d" -lv -n sdt:sched::sched_process_fork | sed -n '/Argument Types/,$p'
"$d" -q -c "/bin/sh $t/forks_and_execs" -n '
sdt:task::task_rename /args[0] == $target/ {
	printf("rename %s -> %s, [1] %c, size %d, adj %hd\n", args[1], args[2], args[2][1],
	    sizeof(args[1]), args[3]);
	trace(stringof(args[2])); printf("\n");
}
sdt:sched::sched_process_fork /args[1] == $target/ {
	printf("fork by %s, child %s, the child is another: %d\n", stringof(args[0]),
	    stringof(args[2]), args[3] != $target);
}'
# A field read from a translated key keeps enough registers (regression).
"$d" -qn 'BEGIN { trace(1); e[curpsinfo->pr_pid] = 1; printf(" %d\n", e[pid]); exit(0); }'
