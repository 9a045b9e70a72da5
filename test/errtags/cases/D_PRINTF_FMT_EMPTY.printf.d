/* printf() with an empty format. */
BEGIN
{
	printf("");
}
