/* Calling an aggregation's name. */
BEGIN
{
	@a();
}
