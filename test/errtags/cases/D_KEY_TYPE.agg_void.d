/* An aggregation key that is an action's void result. */
BEGIN
{
	@a[trace(1)] = count();
}
