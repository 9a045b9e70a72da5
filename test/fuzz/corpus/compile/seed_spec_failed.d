/*
 * Failed speculations: with nspec=1, a second speculation() gets 0 while
 * the first is active ("no speculative buffer available"), and 0 again
 * once it is committed but not yet drained by the consumer ("available
 * buffer(s) still busy"); after the consumer has drained it the ID is
 * handed out again.  speculate(0) and commit(0) do nothing.
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
	speculate(c);
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
