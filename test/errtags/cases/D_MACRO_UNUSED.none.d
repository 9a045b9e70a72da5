/* An argument given to a program that uses none. */
BEGIN
{
	exit(0);
}
