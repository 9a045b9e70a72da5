/* trace() of an action's void result. */
BEGIN
{
	trace(exit(0));
}
