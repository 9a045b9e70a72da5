/* Calling a global declared after an earlier clause (checked in source order). */
BEGIN
{
	exit(0);
}

int x;

BEGIN
{
	x();
}
