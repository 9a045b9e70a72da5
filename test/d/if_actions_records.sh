#!/bin/bash
# A clause with actions in if/else writes a record per basic block, as
# DTrace's clauses made of its blocks do: each record shows its probe, and
# a fault ends the clause but keeps the records of the blocks before it.
dtrace=$(readlink -f "$1")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cat >"$d/if.d" <<'D'
int x, z;
BEGIN
{
	x = 1;
	z = 0;
	printf("a");
	if (x)
		printf("b");
	else
		printf("c");
	printf("d");
	if (x)
		printf("%d", x / z);
	printf("e");
}
BEGIN
{
	exit(0);
}
D
cd "$d" && "$dtrace" -s if.d 2>err | sed -E 's/^ +[0-9]+ +/  CPU /'
sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/' err
