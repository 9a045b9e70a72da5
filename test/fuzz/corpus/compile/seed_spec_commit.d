/*
 * Speculations: commit() prints what was speculated, at the commit's place
 * in the output and in the order it was speculated; discard() drops it;
 * with nspec=3 three speculations are live at once, and commits may come
 * in any order.  Data before a discard and after it prints as usual.
 */
#pragma D option quiet
#pragma D option nspec=3

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("ids %d %d %d\n", a, b, c);
}

BEGIN
{
	speculate(a);
	printf("a1\n");
}

BEGIN
{
	speculate(b);
	printf("b1\n");
}

BEGIN
{
	speculate(a);
	printf("a2 %s %d\n", "x", 42);
}

BEGIN
{
	speculate(c);
	trace("c1");
	trace(7);
	printf("\n");
}

BEGIN
{
	printf("before the commits\n");
}

BEGIN
{
	commit(c);
	discard(b);
	commit(a);
}

BEGIN
{
	printf("data before a discard\n");
	discard(c);
	printf("and after it\n");
}

BEGIN
{
	exit(0);
}
