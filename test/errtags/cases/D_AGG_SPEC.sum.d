/* An aggregation after speculate(). */
BEGIN
{
	speculate(1);
	@ = sum(1);
}
