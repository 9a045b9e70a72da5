/* An aggregation indexed twice. */
BEGIN
{
	@a[1][2] = count();
}
