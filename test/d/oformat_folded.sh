#!/bin/bash
# -x oformat=folded: aggregations keyed by stacks as folded stacks, one
# line each (other keys as leading frames, frames root first and without
# their offsets, ';'-separated, a space, the value), from printa() whatever
# its format and at exit; everything else as text (printf, an aggregation
# without a stack, with the text output's blank line before it).  The
# workload's frames are known to the byte (stack_work.c).
"$1" -x oformat=folded -qn '
BEGIN { printf("text stays text\n"); }
syscall::getppid:entry /pid == $target/ {
	@s[ustack(3)] = count();
	@k[execname, ustack(4)] = sum(2);
	@plain[probefunc] = count();
	@mx[ustack(3)] = max(7);
}
END {
	printa(@s);
	printa("%s %k %@d\n", @k);
	printf("end\n");
}' -c "$DT_WORKLOADS/stack_work 3"
