/* printf() with a string for %d. */
BEGIN
{
	printf("%d\n", "s");
}
