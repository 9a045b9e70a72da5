/* printa() with an integer for its aggregation. */
BEGIN
{
	printa("%d", 1);
}
