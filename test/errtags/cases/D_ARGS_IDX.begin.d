/* args[ ] in BEGIN, which has no arguments. */
BEGIN
{
	trace(args[0]);
}
