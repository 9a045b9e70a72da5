/* An aggregation key of another type than before. */
BEGIN
{
	@a[1] = count();
	@a["x"] = count();
}
