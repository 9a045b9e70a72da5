/*
 * Actions in if and else branches happen only when their branch runs.
 * DTrace makes each basic block of such a clause (before, in and after
 * each if and else) a clause of its own, so each block writes its own
 * record (see if_actions_records.sh for what that shows).
 */
#pragma D option quiet

int x, y;

BEGIN
{
	x = 1;
	y = 0;
	printf("start\n");
	if (x) {
		printf("x\n");
		if (y)
			printf("x and y\n");
		else
			printf("x, not y\n");
		trace("x done\n");
	} else {
		printf("not x\n");
	}
	if (y)
		printf("y\n");
	if (!y)
		printf("not y %d\n", y);
	@n = count();
	if (y)
		printa("%@d\n", @n);
	else
		printa("count %@d\n", @n);
	printf("end\n");
}

BEGIN
/x/
{
	if (y)
		exit(1);
	else
		exit(0);
}
