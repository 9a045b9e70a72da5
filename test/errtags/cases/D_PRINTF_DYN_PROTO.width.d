/* printf() with a * width and no argument for it. */
BEGIN
{
	printf("%*d\n");
}
