/* args[ ] indexed by two keys. */
BEGIN
{
	trace(args[0, 1]);
}
