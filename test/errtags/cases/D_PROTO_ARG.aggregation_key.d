/* An aggregation's key of another type than at first. */
BEGIN
{
	@a[1, "x"] = count();
	@a[1, 2] = count();
}
