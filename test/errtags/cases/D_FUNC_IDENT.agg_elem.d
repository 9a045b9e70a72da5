/* Calling an aggregation element. */
BEGIN
{
	@a[1]();
}
