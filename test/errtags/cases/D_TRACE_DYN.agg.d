/* trace() of an aggregation. */
BEGIN
{
	@a = count();
	trace(@a);
}
