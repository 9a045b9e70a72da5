/* system() whose format is an integer. */
BEGIN
{
	system(123);
}
