/*
 * Faults and speculations: a clause that faults after speculate() loses
 * its record (its speculation still drains); a commit() before a fault in
 * its clause stands.  Both speculations are reusable afterwards.
 */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	printf("a %d b %d\n", a, b);
}

BEGIN
{
	speculate(a);
	printf("kept on %d\n", a);
}

BEGIN
{
	speculate(b);
	printf("lost with its clause\n");
	x = *(int *)0;
}

BEGIN
{
	commit(a);
	y = *(int *)8;
}

BEGIN
{
	discard(b);
	printf("discarded %d\n", b);
}

tick-10ms
/!done/
{
	c = speculation();
	d = speculation();
	printf("c %d d %d\n", c, d);
	done = 1;
}

tick-10ms
/done/
{
	exit(0);
}
