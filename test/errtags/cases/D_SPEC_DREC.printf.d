/* speculate() after printf(). */
BEGIN
{
	printf("x");
	speculate(1);
}
