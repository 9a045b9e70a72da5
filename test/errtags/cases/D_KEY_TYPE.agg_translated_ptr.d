/* A pointer to translated data (curpsinfo) as the key of an aggregation. */
BEGIN
{
	@a[curpsinfo] = count();
}
