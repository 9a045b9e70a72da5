/* speculate() after an aggregation. */
BEGIN
{
	@ = count();
	speculate(1);
}
