/* args[] used without an index. */
BEGIN
{
	x = args;
}
