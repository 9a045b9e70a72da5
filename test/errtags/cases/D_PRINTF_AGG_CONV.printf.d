/* printf() with printa()'s %@ conversion. */
BEGIN
{
	printf("%@d\n", 1);
}
