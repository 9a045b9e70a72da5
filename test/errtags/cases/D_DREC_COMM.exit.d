/* exit() after commit(). */
BEGIN
{
	commit(1);
	exit(0);
}
