/* An aggregation assigned another aggregating function than before. */
BEGIN
{
	@a = count();
	@a = sum(1);
}
