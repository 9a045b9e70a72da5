/* speculate() after commit(). */
BEGIN
{
	commit(1);
	speculate(1);
}
