/* An aggregating function called as a statement, not assigned to an aggregation. */
BEGIN
{
	avg(1);
}
