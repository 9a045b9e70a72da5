/* printf() with an integer for its format. */
BEGIN
{
	printf(123);
}
