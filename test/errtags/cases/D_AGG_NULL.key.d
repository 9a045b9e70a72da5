/* An aggregation element as a statement of its own. */
BEGIN
{
	@a[1];
}
