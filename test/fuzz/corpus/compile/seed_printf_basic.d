/* printf of a string and an integer in quiet mode. */
BEGIN
{
	printf("%s %d\n", "x", 42);
	exit(0);
}
