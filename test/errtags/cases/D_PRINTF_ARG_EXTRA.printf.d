/* printf() with more values than conversions. */
BEGIN
{
	printf("%d\n", 1, 2);
}
