/* An aggregation used with another number of keys than at first. */
BEGIN
{
	@a[1] = count();
	@a[1, 2] = count();
}
