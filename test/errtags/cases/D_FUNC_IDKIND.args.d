/* Calling args. */
BEGIN
{
	args(0);
}
