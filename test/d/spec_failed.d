/*
 * Failed speculations: with nspec=1, a second speculation() gets 0 while
 * the first is active ("no speculative buffer available").  A commit()
 * frees its speculation at once when all its data is on the committing
 * CPU, as in DTrace (the BEGIN clauses run on one CPU), so the next
 * speculation() gets the ID again; a discard() of a speculation with no
 * data leaves it for the consumer to free at its next pass, as DTrace's
 * clean at cleanrate does, and a speculation() before that fails ("available
 * buffer(s) still busy").  speculate(0), commit(0) and discard(0) do
 * nothing.
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	printf("a %d b %d\n", a, b);
}

BEGIN
{
	speculate(a);
	printf("speculated on %d\n", a);
}

BEGIN
{
	commit(a);
	commit(0);
	discard(0);
}

BEGIN
{
	c = speculation();
	printf("c %d\n", c);
}

BEGIN
{
	discard(c);
}

BEGIN
{
	e = speculation();
	printf("e %d\n", e);
}

BEGIN
{
	speculate(e);
	printf("never seen\n");
}

tick-100ms
{
	d = speculation();
	printf("d %d\n", d);
}

tick-100ms
{
	speculate(d);
	printf("speculated on %d again\n", d);
}

tick-100ms
{
	commit(d);
}

tick-100ms
{
	exit(0);
}
