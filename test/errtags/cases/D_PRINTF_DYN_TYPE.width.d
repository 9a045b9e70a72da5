/* printf() with a string for a * width. */
BEGIN
{
	printf("%*d\n", "x", 1);
}
