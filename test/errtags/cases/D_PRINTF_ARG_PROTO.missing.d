/* printf() with fewer values than conversions. */
BEGIN
{
	printf("%d %d\n", 1);
}
