/*
 * Speculations without quiet: a committed record prints its probe line
 * (an empty speculative clause too, as DTrace's default action); the
 * records of commit() and discard() print nothing, nor do discarded ones.
 */
#pragma D option nspec=2

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
}

BEGIN
{
	speculate(s);
	printf("speculated %d", s);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	t = speculation();
}

BEGIN
{
	speculate(t);
	trace("never seen");
}

BEGIN
{
	discard(t);
}

BEGIN
{
	exit(0);
}
