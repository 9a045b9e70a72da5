/* A void key of an aggregation. */
BEGIN
{
	@a[1, trace(1)] = count();
}
