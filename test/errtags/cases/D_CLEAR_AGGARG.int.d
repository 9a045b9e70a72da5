/* clear() of an integer. */
BEGIN
{
	clear(1);
}
