/* An aggregation assigned an integer. */
BEGIN
{
	@a = 1;
}
