/* printf() whose format is a string variable, not a constant. */
BEGIN
{
	printf(probename);
}
