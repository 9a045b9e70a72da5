/* An assigned aggregation named as a statement of its own. */
BEGIN
{
	@a = count();
	@a;
}
