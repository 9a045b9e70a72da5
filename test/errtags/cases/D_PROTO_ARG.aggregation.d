/* An aggregation for a typed parameter. */
BEGIN
{
	@a = count();
	normalize(@a, @a);
}
