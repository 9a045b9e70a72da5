/*
 * A fault names the clause by the probe description that enabled the
 * probe: DTrace numbers a clause once per description, so the first
 * clause below is dt_clause_0 for END and dt_clause_1 for BEGIN, and the
 * next one dt_clause_2.
 */
#pragma D option quiet

dtrace:::END, dtrace:::BEGIN
{
	x = *(int *)0;
}

BEGIN
{
	y = *(int *)8;
}

BEGIN
{
	exit(0);
}

dtrace:::END
{
	printf("end\n");
}
