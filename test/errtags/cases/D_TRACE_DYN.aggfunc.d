/* trace() of an aggregating function's result. */
BEGIN
{
	trace(count());
}
