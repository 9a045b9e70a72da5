#!/bin/bash
# printa(), trunc() and clear() of one probe firing act on one snapshot of
# the aggregation, while another thread keeps adding keys: after
# trunc(@, 5) printa() prints at most 5 entries (also when the trunc() is
# in an earlier clause of the same probe), and after clear() every value
# printa() prints is 0.  The output is summarized: blocks, and how many
# broke the rule.
n=20
"$1" -q -x switchrate=1ms -c "$DT_WORKLOADS/agg_churn $n" -n '
syscall::getuid:entry /pid == $target/ {
	@k[timestamp] = count();
	@p[timestamp] = count();
	@c[timestamp % 4] = count();
}
syscall::getppid:entry /pid == $target/ {
	trunc(@k, 5);
	printa("k %@d\n", @k);
	trunc(@k);
	printf("k-end\n");
}
syscall::getpgid:entry /pid == $target/ { trunc(@p, 3); }
syscall::getpgid:entry /pid == $target/ {
	printa("p %@d\n", @p);
	trunc(@p);
	printf("p-end\n");
}
syscall::getsid:entry /pid == $target/ {
	clear(@c);
	printa("c %@d\n", @c);
	printf("c-end\n");
}
END { trunc(@k); trunc(@p); trunc(@c); }
' | awk -v n=$n '
$1 == "k" || $1 == "p" { rows[$1]++; next }
$1 == "c" { if ($2 != 0) nonzero++; next }
/-end$/ {
	b = substr($1, 1, 1); blocks[b]++
	if (b == "k" && rows[b] > 5) over["k"]++
	if (b == "p" && rows[b] > 3) over["p"]++
	rows[b] = 0
}
END {
	printf("trunc(@, 5) then printa: %d blocks, %d with more than 5 entries\n", blocks["k"], over["k"])
	printf("trunc(@, 3) in the clause before: %d blocks, %d with more than 3 entries\n", blocks["p"], over["p"])
	printf("clear then printa: %d blocks, %d values not 0\n", blocks["c"], nonzero)
}'
