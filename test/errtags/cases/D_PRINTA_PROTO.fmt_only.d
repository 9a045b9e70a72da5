/* printa() with a format and no aggregation. */
BEGIN
{
	printa("%d");
}
